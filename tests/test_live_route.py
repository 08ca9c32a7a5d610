"""The live route (ui/server/live_route.py): the figure it draws is the session's figure for the same
edits, and hostile requests get a plain refusal, never a traceback, a hang or unbounded work.

The route is served by starlette's TestClient over the same ``live_routes()`` ``st.App`` mounts.
"""

import json
import math
import warnings

import numpy as np
import pytest
from starlette.applications import Starlette

with warnings.catch_warnings():  # starlette asks for httpx2 in time; httpx is what PyPI serves here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from playground.link import encode_scene
from playground.scene import PointSet, Scene
from ui.engine.fitview import evaluate_view
from ui.engine.workers import fit_scene
from ui.plot.canvas import figure_json
from ui.plot.canvas_protocol import LIVE_PATH, indices, number
from ui.server import live_route
from ui.server.limits import InFlight
from ui.server.live_route import RateLimit, edited_points, live_answer
from ui.session.state import default_scene


@pytest.fixture
def client(monkeypatch):
    monkeypatch.setattr(live_route, "RATE_LIMIT", RateLimit(live_route.RATE_PER_SECOND, live_route.RATE_BURST))
    monkeypatch.setattr(live_route, "COMPUTING", InFlight(1, 2))
    return TestClient(Starlette(routes=live_route.live_routes()))


def request(scene=None, edits=(), **extra):
    body = {
        "scene": encode_scene(scene or default_scene()),
        "edits": list(edits),
        "add_as": 1,
        "add_test": False,
        "scale": 1.0,
        "language": "en",
        "painted": False,
        "client": "test",
    }
    body.update(extra)
    return body


def points_of(figure):
    """{origin id: (x, y)} of the figure's point markers."""
    found = {}
    for trace in figure["data"]:
        if trace.get("meta") == "points":
            xs, ys, ids = (_decoded(trace[k]) for k in ("x", "y", "customdata"))
            found.update({int(i): (float(x), float(y)) for i, x, y in zip(ids, xs, ys)})
    return found


def _decoded(value):
    if isinstance(value, dict) and "bdata" in value:
        import base64

        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
    return np.asarray(value)


def test_a_move_is_drawn_where_the_session_would_put_it_and_the_fit_is_the_sessions():
    scene = default_scene()
    answer = json.loads(live_answer(request(scene, [{"type": "move", "ids": [3], "dx": 1.25, "dy": -0.5}])))
    moved = scene.points.moved([3], 1.25, -0.5)
    shown = points_of(answer["figure"])
    # The figure carries coordinates as float32 (ui.plot.canvas typed arrays).
    assert shown[3] == pytest.approx(tuple(moved.X[3]), abs=1e-5)
    assert all(shown[i] == pytest.approx(tuple(scene.points.X[i]), abs=1e-5) for i in shown if i != 3)
    # The same accuracy as the session's own fit of the moved points.
    training = scene.with_points(moved).training
    result = fit_scene(moved.X, moved.y, scene.method, scene.params, scene.multiclass, scene.basis, ())
    view = evaluate_view(result, moved.X, moved.y, scene.window, None, 200)
    assert answer["status"]["accuracy"] == pytest.approx(view.accuracy)
    assert answer["status"]["n_points"] == len(training.points)


def test_edits_apply_in_order_and_name_points_as_the_canvas_showed_them():
    scene = default_scene()
    edits = [
        {"type": "add", "x": 0.5, "y": 0.25},
        {"type": "remove", "ids": [0, 5]},
        {"type": "move", "ids": [7], "dx": 0.5, "dy": 0.0},  # point 7 of the shown scene, now 6th
    ]
    points, origins = edited_points(scene.points, edits, 2, False)
    assert len(points) == len(scene.points) - 1
    assert list(origins[:5]) == [1, 2, 3, 4, 6] and origins[-1] == -1
    assert points.X[list(origins).index(7)][0] == pytest.approx(scene.points.X[7][0] + 0.5, abs=1e-9)
    assert points.labels[-1] == 2
    answer = json.loads(live_answer(request(scene, edits)))
    shown = points_of(answer["figure"])
    assert 0 not in shown and 5 not in shown and -1 in shown  # the new point cannot be named yet


def test_the_answer_speaks_the_requests_language_and_keeps_class_names_as_text():
    scene = Scene(points=PointSet(((0.0, 0.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0)), (0, 1, 0, 1)))
    scene = scene.with_class_names(("<b>bold</b>", "二"))
    answer = json.loads(live_answer(request(scene, language="ja")))
    names = [t.get("name") for t in answer["figure"]["data"] if t.get("meta") == "points"]
    assert "<b>" not in "".join(names) and "&lt;b&gt;" in "".join(names)
    assert "決定境界" in [t.get("name") for t in answer["figure"]["data"]]


def test_the_route_answers_a_figure(client):
    response = client.post(LIVE_PATH, json=request(edits=[{"type": "add", "x": 1.0, "y": 1.0}]))
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    assert response.json()["status"]["n_points"] == len(default_scene().points) + 1


HOSTILE_BODIES = [
    b"",
    b"not json",
    b"[1, 2, 3]",
    b'"a string"',
    b"null",
    b"[" * 100_000 + b"]" * 100_000,  # deeper than the parser goes
    json.dumps({"scene": "p=abc", "edits": []}).encode(),
    json.dumps({"scene": {}, "edits": "add"}).encode(),
    json.dumps({"scene": {"p": "!!!!", "m": "rm -rf"}, "edits": []}).encode(),
    json.dumps({"scene": {str(i): "x" for i in range(100)}, "edits": []}).encode(),
    json.dumps(request(edits=[{"type": "add", "x": "1", "y": 2}])).encode(),
    json.dumps(request(edits=[{"type": "add", "x": True, "y": 2}])).encode(),
    json.dumps(request(edits=[{"type": "add", "x": 1e300, "y": 2}])).encode(),
    json.dumps(request(edits=[{"type": "drop_table"}])).encode(),
    json.dumps(request(edits=[{"type": "move", "ids": [0], "dx": None, "dy": 0}])).encode(),
    json.dumps(request(edits=[{"type": "add", "x": 0, "y": 0}] * 1000)).encode(),
    json.dumps(request(edits=[5, "x", None])).encode(),
    json.dumps(request(scene=Scene())).encode(),  # no points: nothing to fit
    b'{"scene": {"p": "' + b"A" * 600_000 + b'"}, "edits": []}',  # over the body limit
]


@pytest.mark.parametrize("body", HOSTILE_BODIES, ids=range(len(HOSTILE_BODIES)))
def test_hostile_requests_get_a_sentence_and_no_figure(client, body):
    response = client.post(LIVE_PATH, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 413, 422)
    answer = response.json()
    assert set(answer) == {"error"} and isinstance(answer["error"], str) and answer["error"].endswith(".")


HUGE = 10**400  # json.dumps writes all 401 digits


OUT_OF_RANGE_BODIES = {
    "add_as huge": request(add_as=HUGE),
    "add_as 99": request(add_as=99),
    "add_as 2.5": request(add_as=2.5),
    "scale huge": request(scale=HUGE),
    "scale 1e9": request(scale=1e9),
    "x huge": request(edits=[{"type": "add", "x": HUGE, "y": 0}]),
    "dx huge": request(edits=[{"type": "move", "ids": [1], "dx": HUGE, "dy": 0}]),
    "ids huge": request(edits=[{"type": "remove", "ids": [HUGE]}]),
    "ids 1e308": request(edits=[{"type": "remove", "ids": [1e308, -1e308]}]),
    "ids negative": request(edits=[{"type": "remove", "ids": [-1]}]),
    "ids fraction": request(edits=[{"type": "remove", "ids": [2.5]}]),
    "ids of strings": request(edits=[{"type": "remove", "ids": ["3"]}]),
    "ids not a list": request(edits=[{"type": "move", "ids": 3, "dx": 0, "dy": 0}]),
    "painted a string": request(painted="yes"),
    "add_test a number": request(add_test=1),
    "scene values not strings": request(scene=None) | {"scene": {"p": 5}},
}


@pytest.mark.parametrize("name", OUT_OF_RANGE_BODIES)
def test_values_of_the_wrong_type_or_out_of_range_are_refused_with_a_sentence(client, name):
    response = client.post(
        LIVE_PATH, content=json.dumps(OUT_OF_RANGE_BODIES[name]), headers={"Content-Type": "application/json"}
    )
    assert response.status_code in (400, 422), response.text
    assert set(response.json()) == {"error"} and response.json()["error"].endswith(".")


@pytest.mark.parametrize("literal", [b"NaN", b"Infinity", b"-Infinity", b"1e999", b"1" * 400])
def test_literals_no_float_holds_are_refused_while_parsing(client, literal):
    body = (
        json.dumps(request(edits=[{"type": "add", "x": 0.0, "y": 0.0}]))
        .encode()
        .replace(b'"x": 0.0', b'"x": ' + literal)
    )
    response = client.post(LIVE_PATH, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code in (400, 422) and response.json()["error"].endswith(".")


def test_repeated_and_unknown_ids_name_no_point_but_are_accepted(client):
    body = request(
        edits=[{"type": "remove", "ids": [4, 10_000]}, {"type": "move", "ids": [1, 1, 1], "dx": 0.5, "dy": 0}]
    )
    response = client.post(LIVE_PATH, json=body)
    assert response.status_code == 200
    shown = points_of(response.json()["figure"])
    assert 4 not in shown and len(shown) == len(default_scene().points) - 1
    assert shown[1][0] == pytest.approx(default_scene().points.X[1][0] + 0.5, abs=1e-5)


@pytest.mark.parametrize("language", [[], ["ja"], {"ja": 1}, 7, None])
def test_a_language_that_is_not_a_string_is_answered_in_english(client, language):
    response = client.post(LIVE_PATH, json=request(edits=[], language=language))
    assert response.status_code == 200 and "figure" in response.json()
    refused = client.post(LIVE_PATH, json={**request(edits=[5]), "language": language})
    assert refused.status_code == 400 and refused.json()["error"].endswith(".")


def test_only_get_is_refused_and_the_route_does_not_cache(client):
    assert client.get(LIVE_PATH).status_code == 405


def test_a_client_past_its_rate_is_told_to_slow_down_whatever_its_body_says(client, monkeypatch):
    now = [0.0]
    monkeypatch.setattr(live_route, "RATE_LIMIT", RateLimit(rate=10, burst=3, clock=lambda: now[0]))
    monkeypatch.setattr(live_route, "BYTES_PER_TOKEN", math.inf)  # a request costs one token here
    codes = [client.post(LIVE_PATH, json=request(client=f"page {i}")).status_code for i in range(5)]
    assert codes == [200, 200, 200, 429, 429]  # a new "client" string per request changes nothing
    other = TestClient(client.app, client=("192.0.2.7", 50000))  # another address has its own allowance
    assert other.post(LIVE_PATH, json=request()).status_code == 200
    now[0] += 0.15  # 1.5 tokens back
    assert client.post(LIVE_PATH, json=request()).status_code == 200


def test_a_bigger_body_spends_more_of_the_allowance(client, monkeypatch):
    monkeypatch.setattr(live_route, "RATE_LIMIT", RateLimit(rate=1e-6, burst=6, clock=lambda: 0.0))
    big = json.dumps(request(edits=[{"type": "remove", "ids": list(range(10_000))}])).encode()  # ~60 KB
    assert 4 < live_route.request_cost(len(big)) < 10
    headers = {"Content-Type": "application/json"}
    assert client.post(LIVE_PATH, content=big, headers=headers).status_code == 422  # served: no points are left
    assert client.post(LIVE_PATH, content=big, headers=headers).status_code == 429  # small ones still pass
    assert client.post(LIVE_PATH, json=request()).status_code == 200


def test_the_rate_limit_forgets_the_least_recent_clients():
    limit = RateLimit(rate=1, burst=1, max_keys=3, clock=lambda: 0.0)
    for name in "abcd":
        assert limit.allow(name)
    assert len(limit._buckets) == 3 and "a" not in limit._buckets


def test_a_busy_server_refuses_rather_than_queues(client, monkeypatch):
    monkeypatch.setattr(live_route, "COMPUTING", InFlight(1, 1))
    assert live_route.COMPUTING.acquire("198.51.100.1")  # another address's computation under way
    response = client.post(LIVE_PATH, json=request())
    assert response.status_code == 429 and "busy" in response.json()["error"]


def test_one_address_holds_one_computation_and_leaves_the_others_theirs(client):
    live_route.COMPUTING.acquire("unknown")  # this client's one computation (TestClient's address)
    assert client.post(LIVE_PATH, json=request()).status_code == 429
    other = TestClient(client.app, client=("192.0.2.7", 50000))
    assert other.post(LIVE_PATH, json=request()).status_code == 200


def test_a_fit_past_the_live_budget_is_refused_with_a_sentence(client, monkeypatch):
    monkeypatch.setattr(live_route, "LIVE_SECONDS", 1e-9)
    scene = default_scene().with_method("svm", {"C": 1000.0}, "ovr")
    response = client.post(LIVE_PATH, json=request(scene))
    assert response.status_code == 503
    assert "let go" in response.json()["error"]


def test_the_route_is_served_under_the_base_url_path_too(monkeypatch):
    from streamlit import config

    monkeypatch.setattr(config, "get_option", lambda name: "playground" if name == "server.baseUrlPath" else None)
    paths = sorted(route.path for route in live_route.live_routes())
    assert paths == ["/api/live", "/playground/api/live"]


def test_protocol_readers_take_only_finite_numbers_and_whole_indices():
    assert number(1) == 1.0 and number(2.5) == 2.5
    assert all(number(v) is None for v in (True, "1", None, math.nan, math.inf, [1]))
    assert indices([0, 1.0, 2.5, -1, "3", True, None, 7]) == [0, 1, 7]
    assert indices("0,1") == [] and indices(list(range(20_000))) == []


def test_a_refusal_is_in_the_requests_language(client):
    response = client.post(LIVE_PATH, json=request(edits=[{"type": "add", "x": 1e300, "y": 0}], language="ja"))
    assert response.status_code == 422 and response.json()["error"] == "ライブ更新の値が範囲外です。"


def test_the_pages_rerun_after_a_click_finds_the_live_routes_fit_and_view(monkeypatch):
    """One click, one fit: the live route keeps its fit and view in the server's shared cache under
    the page's keys, so the session's rerun of the clicked scene fits nothing again."""
    from ui.engine import cache as engine_cache
    from ui.engine import fits as engine_fits
    from ui.engine.keys import scene_view_key
    from ui.session import compute

    monkeypatch.setattr(engine_cache, "_CACHE", None)  # a cache of its own
    fits = []

    def counted(*args):
        fits.append(args[2])
        return fit_scene(*args)

    monkeypatch.setattr(engine_fits, "fit_scene", counted)
    monkeypatch.setattr(compute, "fit_scene", counted)
    scene = default_scene()
    live_answer(request(scene, edits=[{"type": "add", "x": 1.0, "y": 1.0}], add_as=1))
    clicked = scene.with_points(scene.points.added(1.0, 1.0, 1))
    view = compute.scene_view(clicked)
    assert fits == [scene.method]  # the live route's fit alone
    assert view is engine_cache.result_cache().get(scene_view_key(clicked, compute.GRID_RESOLUTION))
    assert compute.scene_model(clicked) is not None and fits == [scene.method]


def test_a_drags_frames_are_not_kept_in_the_shared_cache(monkeypatch):
    """A drag sends sixty frames a second, each a scene seen once: kept, they would push the
    pages' fits out of the shared cache (a click's frame is kept, above)."""
    from ui.engine import cache as engine_cache
    from ui.engine.keys import scene_fit_key

    monkeypatch.setattr(engine_cache, "_CACHE", None)
    scene = default_scene()
    live_answer(request(scene, edits=[{"type": "move", "ids": [0], "dx": 0.25, "dy": 0.5}]))
    moved = scene.with_points(scene.points.moved([0], 0.25, 0.5))
    assert len(engine_cache.result_cache()) == 0
    assert engine_cache.result_cache().get(scene_fit_key(moved)) is engine_cache.MISSING


def test_one_click_one_render_the_live_answer_and_the_pages_rerun_draw_from_it(monkeypatch):
    """One click, one render: the page's rerun of the clicked scene draws from the parts the live
    answer made (kept in the shared cache under the scene and the display), adding only its caption;
    a view only the page has (a stopped fit's, not the shared cache's) is drawn for itself and not kept."""
    from ui.engine import cache as engine_cache
    from ui.engine.fitview import evaluate_view
    from ui.plot import render
    from ui.session import compute

    monkeypatch.setattr(engine_cache, "_CACHE", None)
    made = []
    original = render.figure_parts
    monkeypatch.setattr(render, "figure_parts", lambda *args, **kw: made.append(1) or original(*args, **kw))
    scene = default_scene()
    answer = json.loads(live_answer(request(scene, edits=[{"type": "add", "x": 1.0, "y": 1.0}], add_as=1)))
    clicked = scene.with_points(scene.points.added(1.0, 1.0, 1))
    view, model = compute.scene_view(clicked), compute.scene_model(clicked)
    drawn = render.render_scene(clicked, model, view, shared=True)
    assert len(made) == 1  # the live answer's render, drawn again with the page's caption
    assert "annotations" in drawn.figure["layout"] and "annotations" not in answer["figure"]["layout"]
    live_traces = [trace for trace in answer["figure"]["data"] if trace.get("meta") != "points"]
    page_traces = json.loads(figure_json(drawn.figure))["data"]
    assert live_traces == [trace for trace in page_traces if trace.get("meta") != "points"]
    assert drawn.status == (len(clicked.points), view.accuracy, answer["status"]["wrong"])
    render.render_scene(clicked, model, view, shared=True, scale=1.5)  # another display: its own render
    assert len(made) == 2
    own_view = evaluate_view(
        (model, None), clicked.training.points.X, clicked.training.points.y, clicked.window, None, 200
    )
    before = len(engine_cache.result_cache())
    render.render_scene(clicked, model, own_view, shared=True)
    assert len(made) == 3 and len(engine_cache.result_cache()) == before
