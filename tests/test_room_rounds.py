"""Prediction rounds (issue 47) through the room API, on both stores: the lecturer starts a round,
students send lines (again replaces), the projector counts them live and sees the lines only from
the show on, the reveal scores every line against the fit. Oracles: each line's accuracy by brute
force over both ways of giving its sides to the classes, the angle against least squares' boundary
solved by ``numpy.linalg.lstsq`` from the points (not the app's fit).
"""

import math
import threading

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from playground.link import encode_scene
from playground.presets import PRESETS
from playground.scene import PointSet, Scene, Window
from tests import test_room_routes
from tests.test_room_routes import control, joined, opened, post
from ui.rooms import model, views
from ui.rooms import store as store_module
from ui.rooms.protocol import API
from ui.text.i18n import _, speaking

client = test_room_routes.client  # the fixture: a test client of the routes, on each store

X = np.array([[-2.0, -1.0], [-1.5, 0.5], [-1.0, -0.5], [-2.5, 1.0], [1.0, 0.5], [2.0, 1.0], [1.5, -1.0], [2.5, 0.0]])
Y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
WINDOW = Window(-4.0, 4.0, -3.0, 3.0)


def two_class_scene(method="least_squares"):
    return Scene(points=PointSet.from_arrays(X, Y), window=WINDOW, method=method)


def lecturer_state(client, code, token, since=0):
    views.SNAPSHOTS._entries.clear()
    answer = client.get(f"{API}/state", params={"c": code, "since": since}, headers={"X-Room-Token": token})
    assert answer.status_code == 200, answer.text
    return answer.json()


def student_state(client, code, sid):
    views.SNAPSHOTS._entries.clear()
    answer = client.get(f"{API}/state", params={"c": code, "sid": sid})
    assert answer.status_code == 200, answer.text
    return answer.json()


def predict(client, code, student, line):
    return post(client, "predict", code=code, sid=student[0], key=student[1], line=line)


def accuracy_oracle(line, X, y):
    x1, y1, x2, y2 = line
    side = (X[:, 0] - x1) * (y1 - y2) + (X[:, 1] - y1) * (x2 - x1) >= 0
    guesses = [np.where(side, a, b) for a in set(y) for b in set(y) if a != b]
    return max(float(np.mean(g == y)) for g in guesses)


def least_squares_normal(X, y):
    A = np.column_stack([np.ones(len(X)), X])
    w, *_ = np.linalg.lstsq(A, np.where(y == 0, 1.0, -1.0), rcond=None)
    return w[1:]


def angle_oracle(line, normal):
    x1, y1, x2, y2 = line
    direction = np.array([x2 - x1, y2 - y1])
    boundary = np.array([-normal[1], normal[0]])
    cosine = abs(direction @ boundary) / (np.linalg.norm(direction) * np.linalg.norm(boundary))
    return math.degrees(math.acos(min(1.0, cosine)))


def boundary_shown(state):
    return "boundary" in {trace.get("meta") for trace in state["figure"]["data"]}


def test_a_round_from_predict_to_reveal(client):
    code, token = opened(client, two_class_scene())
    ann, bob, cy = (joined(client, code, nick) for nick in ("ann", "bob", "cy"))
    assert boundary_shown(lecturer_state(client, code, token))
    control(client, code, token, "round", "predict")
    start = lecturer_state(client, code, token)
    assert start["round"] == {"phase": "predict", "stage": 1, "predictions": 0}
    assert not boundary_shown(start) and not boundary_shown(student_state(client, code, ann[0]))
    assert start["settings"]["round"]["phase"] == "predict" and start["settings"]["locked"] is True

    lines = {"ann": [0.0, -2.0, 0.0, 2.0], "bob": [-3.0, -2.0, 3.0, 2.0], "cy": [-3.0, 0.0, 3.0, 0.5]}
    assert predict(client, code, ann, [1.0, 1.0, 2.0, 2.0]).status_code == 200
    answer = predict(client, code, ann, lines["ann"])  # sent again: replaces the first
    assert answer.status_code == 200 and answer.json()["line"] == lines["ann"]
    assert predict(client, code, bob, lines["bob"]).status_code == 200
    # A line changes no version: the count comes with the version-only answer of the lecturer's poll.
    quiet = lecturer_state(client, code, token, since=start["version"])
    assert quiet == {"version": start["version"], "round": {"phase": "predict", "stage": 1, "predictions": 2}}
    assert predict(client, code, cy, lines["cy"]).status_code == 200
    assert lecturer_state(client, code, token)["round"]["predictions"] == 3
    mine = student_state(client, code, bob[0])["round"]
    assert mine == {"phase": "predict", "stage": 1, "mine": lines["bob"]}  # their own, nobody else's

    control(client, code, token, "round", "show")
    shown = lecturer_state(client, code, token)
    assert sorted(shown["round"]["lines"]) == sorted(lines.values())
    assert not boundary_shown(shown) and "accuracy" not in shown["round"]["results"]
    assert predict(client, code, cy, [1.0, -2.0, 1.0, 2.0]).status_code == 409  # the round takes no more
    assert "lines" not in student_state(client, code, cy[0])["round"]

    control(client, code, token, "round", "reveal")
    revealed = lecturer_state(client, code, token)
    assert boundary_shown(revealed) and boundary_shown(student_state(client, code, ann[0]))
    normal = least_squares_normal(X, Y)
    results = revealed["round"]["results"]
    accuracies = sorted(accuracy_oracle(line, X, Y) for line in lines.values())
    angles = sorted(angle_oracle(line, normal) for line in lines.values())
    assert results["accuracy"] == pytest.approx(accuracies) and results["angle"] == pytest.approx(angles)
    assert results["median_accuracy"] == pytest.approx(np.median(accuracies))
    assert results["median_angle"] == pytest.approx(np.median(angles)) and results["angle_defined"] is True
    for nick, student in (("ann", ann), ("bob", bob), ("cy", cy)):
        own = student_state(client, code, student[0])["round"]
        assert own["mine"] == lines[nick]
        assert own["score"]["accuracy"] == pytest.approx(accuracy_oracle(lines[nick], X, Y))
        assert own["score"]["angle"] == pytest.approx(angle_oracle(lines[nick], normal))
    assert accuracy_oracle(lines["ann"], X, Y) == 1.0

    control(client, code, token, "round", "off")
    after = lecturer_state(client, code, token)
    assert "round" not in after and after["settings"]["round"] is None and after["settings"]["locked"] is False
    assert post(client, "add", code=code, sid=ann[0], key=ann[1], x=0.5, y=0.5, label=0, seq=1).status_code == 200


def test_a_second_round_is_kept_apart_and_shows_how_the_class_moved(client):
    code, token = opened(client, two_class_scene())
    ann, bob = joined(client, code, "ann"), joined(client, code, "bob")
    control(client, code, token, "round", "predict")
    predict(client, code, ann, [-3.0, -2.0, 3.0, 2.0])
    predict(client, code, bob, [-3.0, 1.0, 3.0, -1.0])
    control(client, code, token, "round", "show")
    control(client, code, token, "round", "again")
    second = lecturer_state(client, code, token)["round"]
    assert second == {"phase": "predict", "stage": 2, "predictions": 0}
    assert student_state(client, code, ann[0])["round"]["mine"] is None  # a new stage: nothing sent yet
    predict(client, code, ann, [0.0, -2.0, 0.0, 2.0])
    control(client, code, token, "round", "reveal")
    revealed = lecturer_state(client, code, token)["round"]
    assert revealed["lines"] == [[0.0, -2.0, 0.0, 2.0]]
    assert sorted(revealed["first_lines"]) == sorted([[-3.0, -2.0, 3.0, 2.0], [-3.0, 1.0, 3.0, -1.0]])
    normal = least_squares_normal(X, Y)
    first = np.median([angle_oracle(line, normal) for line in revealed["first_lines"]])
    assert revealed["results"]["first"]["median_angle"] == pytest.approx(first)
    assert revealed["results"]["median_angle"] == pytest.approx(angle_oracle([0.0, -2.0, 0.0, 2.0], normal))
    assert "score" not in student_state(client, code, bob[0])["round"]  # bob did not predict again
    answer = post(client, "control", code=code, token=token, action="round", value="again")
    assert answer.status_code == 409  # after the reveal, a new round starts with "predict"


def test_phases_run_one_way(client):
    code, token = opened(client, two_class_scene())
    for value in ("show", "reveal", "again"):
        assert post(client, "control", code=code, token=token, action="round", value=value).status_code == 409
    control(client, code, token, "round", "off")  # nothing to end: nothing happens
    control(client, code, token, "round", "predict")
    control(client, code, token, "round", "reveal")
    assert post(client, "control", code=code, token=token, action="round", value="show").status_code == 409
    for value in ("", "Predict", 1, None, ["predict"], {"phase": "predict"}):
        assert post(client, "control", code=code, token=token, action="round", value=value).status_code == 400
    control(client, code, token, "round", "predict")  # a new round, from any phase
    assert lecturer_state(client, code, token)["round"] == {"phase": "predict", "stage": 1, "predictions": 0}


def test_a_paused_room_stays_paused_after_its_round(client):
    code, token = opened(client, two_class_scene())
    control(client, code, token, "lock", True)
    control(client, code, token, "round", "predict")
    control(client, code, token, "round", "off")
    assert lecturer_state(client, code, token)["settings"]["locked"] is True


BAD_LINES = [  # as JSON texts: what a hostile page can send
    "null",
    '"0,0,1,1"',
    "[0, 0, 1]",
    "[0, 0, 1, 1, 2]",
    '[0, 0, "1", 1]',
    "[0, 0, true, 1]",
    "[0, 0, null, 1]",
    "[0, 0, 1e400, 1]",
    "[0, 0, NaN, 1]",
    "[0, 0, " + "9" * 400 + ", 1]",
    "[0, 0, 1e307, 1]",  # finite, yet no integer on the grid: refused before any rounding
    "[-1e300, 0, 1, 1]",
    "[0, 5e-324, 1, 1e308]",
    "[0.0, 0.0, 0.0, 0.0]",  # one point
    "[0.0, 0.0, 0.01, 0.0]",  # closer than a hundredth of the window's width
    "[0.0, 0.0, 9.0, 1.0]",  # an end outside the window
    "[[0, 0], [1, 1]]",
    '{"x1": 0}',
]


@pytest.mark.parametrize("line", BAD_LINES, ids=range(len(BAD_LINES)))
def test_a_line_is_four_numbers_inside_the_plot(client, line):
    code, token = opened(client, two_class_scene())
    sid, key = joined(client, code)
    control(client, code, token, "round", "predict")
    body = f'{{"code": "{code}", "sid": "{sid}", "key": "{key}", "line": {line}}}'
    answer = client.post(f"{API}/predict", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert "error" in answer.json() and "Traceback" not in answer.text
    assert lecturer_state(client, code, token)["round"]["predictions"] == 0


def test_only_a_student_predicts_and_only_in_a_predict_phase(client):
    code, token = opened(client, two_class_scene())
    ann = joined(client, code)
    line = [0.0, -2.0, 0.0, 2.0]
    assert predict(client, code, ann, line).status_code == 409  # no round
    control(client, code, token, "round", "predict")
    for sid, key in ((ann[0], "x" * 24), (ann[0], None), ("nobody", ann[1]), (None, None), (ann[0], 5)):
        assert post(client, "predict", code=code, sid=sid, key=key, line=line).status_code == 403
    assert post(client, "predict", code="ZZZZZZZZ", sid=ann[0], key=ann[1], line=line).status_code == 404
    assert lecturer_state(client, code, token)["round"]["predictions"] == 0
    control(client, code, token, "expel", False, sid=ann[0])
    assert predict(client, code, ann, line).status_code == 403


def test_no_student_sees_anothers_line(client):
    code, token = opened(client, two_class_scene())
    ann, bob = joined(client, code, "ann"), joined(client, code, "bob")
    control(client, code, token, "round", "predict")
    predict(client, code, ann, [0.5, -2.0, 0.75, 2.0])
    for phase in ("predict", "show", "reveal"):
        if phase != "predict":
            control(client, code, token, "round", phase)
        seen = str(student_state(client, code, bob[0])) + str(student_state(client, code, ""))
        assert "0.75" not in seen, phase
        # A poll that claims the lecturer's page without its token gets nothing of the round.
        views.SNAPSHOTS._entries.clear()
        forged = client.get(f"{API}/state", params={"c": code}, headers={"X-Room-Token": "x" * 32}).json()
        assert "0.75" not in str(forged)


def test_lines_never_bump_the_version_and_all_are_kept(client):
    code, token = opened(client, two_class_scene())
    students = [joined(client, code, f"s{i}") for i in range(24)]
    control(client, code, token, "round", "predict")
    before = lecturer_state(client, code, token)["version"]
    answers = []

    def send(student, i):
        answers.append(predict(client, code, student, [-3.0, -2.0 + i / 10, 3.0, 2.0]).status_code)

    threads = [threading.Thread(target=send, args=(student, i)) for i, student in enumerate(students)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [200] * 24
    after = lecturer_state(client, code, token)
    assert after["version"] == before and after["round"]["predictions"] == 24


def test_multi_class_rooms_score_the_best_pair_and_have_no_angle(client):
    scene = Scene(
        points=PointSet.from_arrays(np.vstack([X, [[0.0, 2.5], [0.5, 2.0]]]), np.concatenate([Y, [2, 2]])),
        window=WINDOW,
        method="least_squares",
    )
    code, token = opened(client, scene)
    ann = joined(client, code)
    control(client, code, token, "round", "predict")
    predict(client, code, ann, [0.0, -2.0, 0.0, 2.0])
    control(client, code, token, "round", "reveal")
    score = student_state(client, code, ann[0])["round"]["score"]
    assert score["accuracy"] == pytest.approx(8 / 10) and score["angle"] is None
    assert lecturer_state(client, code, token)["round"]["results"]["angle_defined"] is False


def test_round_state_survives_in_the_room_record():
    room, token = model.new_room(encode_scene(two_class_scene()), 0.0)
    model.control(room, token, "round", "predict", None, 1.0)
    assert room["round"] == {"id": 1, "phase": "predict", "stage": 1, "first": None, "question": None}
    assert room["rounds"] == 1
    model.control(room, token, "round", "again", None, 2.0)
    assert room["round"] == {"id": 2, "phase": "predict", "stage": 2, "first": 1, "question": None}


def test_a_figures_round_asks_its_question_in_each_language(client):
    code, token = opened(client, two_class_scene())
    ann = joined(client, code)
    answer = post(client, "control", code=code, token=token, action="round", value="predict", question="fig4_4")
    assert answer.status_code == 200
    asked = PRESETS["fig4_4"].question
    assert lecturer_state(client, code, token)["round"]["question"] == asked
    assert student_state(client, code, ann[0])["round"]["question"] == asked
    views.SNAPSHOTS._entries.clear()
    ja = client.get(f"{API}/state", params={"c": code, "sid": ann[0], "lang": "ja"}).json()["round"]["question"]
    with speaking("ja"):
        assert ja == _(asked) and ja != asked
    control(client, code, token, "round", "show")
    control(client, code, token, "round", "again")  # the second round asks the same question
    assert student_state(client, code, ann[0])["round"]["question"] == asked


@pytest.mark.parametrize("question", ["fig4_1", "nothing", "", "<b>x</b>", "x" * 33, 5, ["fig4_4"]])
def test_only_a_presets_own_question_is_asked(client, question):
    code, token = opened(client, two_class_scene())
    ann = joined(client, code)
    answer = post(client, "control", code=code, token=token, action="round", value="predict", question=question)
    assert answer.status_code in (200, 400)  # a text of another type or length is a 400 ...
    if answer.status_code == 200:  # ... any other is no question
        assert "question" not in student_state(client, code, ann[0])["round"]


def test_the_same_lines_are_scored_again_against_another_methods_fit(client):
    """Figure 4.4's lesson in one click: at the reveal, switching the room's method rescored the
    class's lines against the new method's boundary (least squares, then logistic regression)."""
    X2, Y2 = np.vstack([X, [[1.2, 0.2], [-1.2, -0.3]]]), np.concatenate([Y, [0, 1]])  # overlapping: a finite fit
    code, token = opened(client, Scene(points=PointSet.from_arrays(X2, Y2), window=WINDOW, method="least_squares"))
    ann = joined(client, code)
    control(client, code, token, "round", "predict")
    line = [-3.0, -2.0, 3.0, 2.0]
    predict(client, code, ann, line)
    control(client, code, token, "round", "reveal")
    least_squares = student_state(client, code, ann[0])["round"]["score"]["angle"]
    assert least_squares == pytest.approx(angle_oracle(line, least_squares_normal(X2, Y2)))
    control(client, code, token, "method", "logistic")
    after = lecturer_state(client, code, token)
    assert after["round"]["lines"] == [line] and after["settings"]["method"] == "logistic"
    fit = LogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X2, Y2)  # maximum likelihood, as the app's
    logistic = student_state(client, code, ann[0])["round"]["score"]["angle"]
    assert logistic == pytest.approx(angle_oracle(line, fit.coef_[0]), abs=1e-3)
    assert abs(logistic - least_squares) > 1.0


def test_a_room_keeps_only_its_current_rounds_lines(client):
    code, token = opened(client, two_class_scene())
    ann = joined(client, code)
    kind = store_module.room_store()
    for n in range(1, 6):
        control(client, code, token, "round", "predict")
        predict(client, code, ann, [-3.0, -2.0, 3.0, 2.0 - n / 10])
        control(client, code, token, "round", "again")
        predict(client, code, ann, [-3.0, -2.0, 3.0, 1.0 - n / 10])
        control(client, code, token, "round", "reveal")
    kept = [n for n in range(1, 11) if kind.line_count(code, n)]
    assert kept == [9, 10]  # the last round's two stages; the four before it are gone
    kind.delete(code)
    assert not any(kind.line_count(code, n) for n in range(1, 11))


def test_a_second_press_never_wipes_the_lines_collected(client):
    """A double press, a second lecturer tab or a retried request: "predict" while a round is on is a 409."""
    code, token = opened(client, two_class_scene())
    ann = joined(client, code)
    control(client, code, token, "round", "predict")
    predict(client, code, ann, [-3.0, -2.0, 3.0, 2.0])
    for phase in ("predict", "show"):
        if phase == "show":
            control(client, code, token, "round", "show")
        answer = post(client, "control", code=code, token=token, action="round", value="predict")
        assert answer.status_code == 409 and "round is on" in answer.json()["error"]
        assert lecturer_state(client, code, token)["round"]["predictions"] == 1


def test_an_expelled_students_line_goes_with_them(client):
    code, token = opened(client, two_class_scene())
    ann, bob = joined(client, code, "ann"), joined(client, code, "bob")
    control(client, code, token, "round", "predict")
    predict(client, code, ann, [0.0, -2.0, 0.0, 2.0])
    predict(client, code, bob, [-3.0, 1.0, 3.0, -1.0])
    control(client, code, token, "expel", False, sid=bob[0])
    control(client, code, token, "round", "reveal")
    revealed = lecturer_state(client, code, token)["round"]
    assert revealed["lines"] == [[0.0, -2.0, 0.0, 2.0]] and len(revealed["results"]["accuracy"]) == 1


def test_the_rounds_csv_names_no_one_unless_asked_and_no_name_is_a_formula():
    from ui.rooms import round_panel
    from ui.rooms.memory_store import MemoryStore

    kind = MemoryStore()
    room, token = model.new_room(encode_scene(two_class_scene()), 0.0)
    code = kind.create(room)
    nicks = ['=HYPERLINK("http://x")', "ann", "+1-2", "@cmd", ""]
    students = [kind.update(code, lambda r, n=n: model.join(r, n, None, None, 0.0)) for n in nicks]
    kind.update(code, lambda r: model.control(r, token, "round", "predict", None, 1.0))
    for i, (sid, key) in enumerate(students):
        kind.predict(code, sid, key, [-3.0, -2.0 + i / 4, 3.0, 2.0], lambda: True)
    kind.update(code, lambda r: model.control(r, token, "round", "reveal", None, 2.0))
    current = kind.get(code)
    anonymous = round_panel.round_csv(round_panel.round_rows(kind, code, current))
    assert "ann" not in anonymous and "HYPERLINK" not in anonymous and len(anonymous.splitlines()) == 6
    named = round_panel.round_csv(round_panel.round_rows(kind, code, current, named=True), named=True)
    cells = [row.rsplit(",", 1)[-1] for row in named.splitlines()[1:]]
    assert "ann" in cells and all(not cell.lstrip('"').startswith(("=", "+", "-", "@")) for cell in cells)
