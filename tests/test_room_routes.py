"""The room routes, hostile: each lecturer control with its token and refused without it, a
student acting only on their own points, retried adds counted once, enumeration rate-limited,
bounds, the freeze into an ordinary link (bit-exact), and the student page's escaping. The same
tests run against the in-process store and Redis (``tests/redis_server.py``).
"""

import json
import re
import warnings

import numpy as np
import pytest
from starlette.applications import Starlette

from playground.link import decode_scene, encode_scene
from playground.scene import snap
from ui.plot import browser_modules
from ui.rooms import guard, model, routes, store, views
from ui.rooms.protocol import API, MAX_STUDENTS
from ui.server.limits import TokenBuckets
from ui.session.state import default_scene

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(params=["memory", "redis"])
def client(request, redis_url, monkeypatch):
    kind = store.MemoryStore() if request.param == "memory" else store.RedisStore(redis_url)
    monkeypatch.setattr(store, "_STORE", kind)
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(routes, "SNAPSHOTS", views.SNAPSHOTS)
    # Fresh allowances in this process, on a clock that stands still: no refill during a test.
    monkeypatch.setattr(
        guard, "LIMITS", guard.Limits(lambda _name, rate, burst: TokenBuckets(rate, burst, clock=STILL))
    )
    monkeypatch.setattr(guard, "PRESENCE", guard.Presence())
    return TestClient(Starlette(routes=routes.room_routes()))


def STILL():
    return 0.0


def post(client, name, **body):
    return client.post(f"{API}/{name}", json=body)


def opened(client, scene=None):
    answer = post(client, "open", scene=encode_scene(scene or default_scene()), session=guard.open_token()).json()
    return answer["code"], answer["token"]


def joined(client, code, nick="ann"):
    answer = post(client, "join", code=code, nick=nick).json()
    return answer["sid"], answer["key"]


def add(client, code, student, x=0.5, y=0.5, label=0, seq=0):
    sid, key = student
    return post(client, "add", code=code, sid=sid, key=key, x=x, y=y, label=label, seq=seq)


def state(client, code, sid=""):
    response = client.get(f"{API}/state", params={"c": code, "sid": sid})
    assert response.status_code == 200, response.text
    return response.json()


def fresh_state(client, code, sid=""):
    views.SNAPSHOTS._entries.clear()  # no snapshot younger than MIN_INTERVAL stands in for the newest
    return state(client, code, sid)


def own_points(client, code, student):
    return fresh_state(client, code, student[0])["me"]["own"]


def test_a_student_adds_and_the_state_shows_it(client):
    code, _token = opened(client)
    student = joined(client, code)
    answer = add(client, code, student, 0.123456, -1.5, 1, 0)
    assert answer.status_code == 200
    got = fresh_state(client, code, student[0])
    assert got["me"]["own"] == [[0.12346, -1.5]]  # on the link's grid
    assert got["version"] == answer.json()["version"]
    assert any(t.get("meta") == "points" for t in got["figure"]["data"])
    assert state(client, code) | {"version": 0} != {}  # a viewer without sid gets no "me"
    assert "me" not in state(client, code)


def test_unchanged_state_is_only_the_version(client):
    code, _token = opened(client)
    version = state(client, code)["version"]
    assert client.get(f"{API}/state", params={"c": code, "since": version}).json() == {"version": version}


def test_a_retried_add_counts_once(client):
    code, _token = opened(client)
    student = joined(client, code)
    first = add(client, code, student, seq=7).json()
    again = add(client, code, student, seq=7).json()
    assert first["pid"] == again["pid"]
    assert len(own_points(client, code, student)) == 1


def test_a_student_comes_back_with_their_points(client):
    code, _token = opened(client)
    sid, key = joined(client, code)
    add(client, code, (sid, key))
    back = post(client, "join", code=code, sid=sid, key=key).json()
    assert (back["sid"], back["key"]) == (sid, key)
    stranger = post(client, "join", code=code, sid=sid, key="guess").json()
    assert stranger["sid"] != sid  # a sid without its key is a new student, not the old one


def test_students_act_on_their_own_points_only(client):
    code, _token = opened(client)
    ann, bob = joined(client, code, "ann"), joined(client, code, "bob")
    add(client, code, ann, 1.0, 1.0, 0, 0)
    add(client, code, bob, 2.0, 2.0, 1, 0)
    assert add(client, code, (ann[0], bob[1]), seq=1).status_code == 403  # ann's sid, bob's key
    assert post(client, "undo", code=code, sid=ann[0], key=bob[1]).status_code == 403
    assert post(client, "undo", code=code, sid=bob[0], key=bob[1]).status_code == 200
    assert own_points(client, code, ann) == [[1.0, 1.0]]
    assert own_points(client, code, bob) == []
    assert post(client, "undo", code=code, sid=bob[0], key=bob[1]).json()["pid"] is None


LECTURER_ACTIONS = [
    ("lock", True, None),
    ("hide", True, None),
    ("assign", 2, None),
    ("limit", 3, None),
    ("classes", 4, None),
    ("clear", None, None),
    ("method", "logistic", None),
    ("remove_student", None, "student"),
    ("round", "predict", None),
]


@pytest.mark.parametrize(("action", "value", "sid"), LECTURER_ACTIONS)
def test_lecturer_actions_need_the_token(client, action, value, sid):
    code, token = opened(client)
    student = joined(client, code)
    sid = student[0] if sid else None
    before = state(client, code)["version"]
    for wrong in (None, "", token[:-1] + ("y" if token.endswith("x") else "x"), student[1], 123, [token]):
        answer = post(client, "control", code=code, token=wrong, action=action, value=value, sid=sid)
        assert answer.status_code == 403, (wrong, answer.text)
    assert post(client, "freeze", code=code, token=student[1]).status_code == 403
    assert fresh_state(client, code)["version"] == before
    assert post(client, "control", code=code, token=token, action=action, value=value, sid=sid).status_code == 200


def control(client, code, token, action, value=None, sid=None):
    answer = post(client, "control", code=code, token=token, action=action, value=value, sid=sid)
    assert answer.status_code == 200, answer.text


def test_lock_and_unlock(client):
    code, token = opened(client)
    student = joined(client, code)
    control(client, code, token, "lock", True)
    assert add(client, code, student).status_code == 409
    assert fresh_state(client, code)["settings"]["locked"] is True
    control(client, code, token, "lock", False)
    assert add(client, code, student).status_code == 200


def test_hide_and_reveal(client):
    code, token = opened(client)
    metas = lambda: {t.get("meta") for t in fresh_state(client, code)["figure"]["data"]}  # noqa: E731
    assert "boundary" in metas()
    control(client, code, token, "hide", True)
    assert metas() == {"points"}  # no regions, boundary or misclassified marks to read the answer from
    control(client, code, token, "hide", False)
    assert "boundary" in metas()


def test_assign_classes(client):
    code, token = opened(client)
    ann, bob = joined(client, code, "ann"), joined(client, code, "bob")
    control(client, code, token, "assign", 1, ann[0])
    add(client, code, ann, 0.0, 0.0, label=0, seq=0)  # asks for class 1, gets the assigned class 2
    add(client, code, bob, 0.0, 0.1, label=0, seq=0)
    control(client, code, token, "assign", 2)  # everyone
    add(client, code, bob, 0.0, 0.2, label=0, seq=1)
    assert fresh_state(client, code, bob[0])["me"]["assigned"] == 2
    query = post(client, "freeze", code=code, token=token).json()["query"]
    points = decode_scene(query)[0].points
    assert points.y[-3:].tolist() == [1, 0, 2]
    assert post(client, "control", code=code, token=token, action="assign", value=1, sid="nobody").status_code == 404
    assert post(client, "control", code=code, token=token, action="assign", value=6).status_code == 400


def test_limit_points_per_student(client):
    code, token = opened(client)
    student = joined(client, code)
    control(client, code, token, "limit", 2)
    assert [add(client, code, student, seq=s).status_code for s in range(3)] == [200, 200, 409]
    for bad in (-1, 1e9, "3", True, 2.5):
        assert post(client, "control", code=code, token=token, action="limit", value=bad).status_code == 400


def test_remove_a_students_points_and_clear(client):
    code, token = opened(client)
    ann, bob = joined(client, code, "ann"), joined(client, code, "bob")
    add(client, code, ann, seq=0)
    add(client, code, bob, seq=0)
    control(client, code, token, "remove_student", sid=ann[0])
    assert own_points(client, code, ann) == [] and len(own_points(client, code, bob)) == 1
    control(client, code, token, "clear")
    assert fresh_state(client, code)["points"] == 0


def test_switch_method(client):
    code, token = opened(client)
    control(client, code, token, "method", "fisher")
    assert fresh_state(client, code)["settings"]["method"] == "fisher"
    assert post(client, "control", code=code, token=token, action="method", value="os.system").status_code == 400


def test_freeze_is_an_ordinary_link_bit_exact(client):
    scene = default_scene()
    code, token = opened(client, scene)
    student = joined(client, code)
    taps = [(0.1234567, -2.0000049), (3.3, 1e-7), (-4.99999, 4.5)]
    for seq, (x, y) in enumerate(taps):
        add(client, code, student, x, y, label=seq % 2, seq=seq)
    query = post(client, "freeze", code=code, token=token).json()["query"]
    frozen, messages = decode_scene(query)
    assert messages == []
    expected = np.vstack([scene.points.X, snap(taps)])
    assert frozen.points.X.tobytes() == expected.tobytes()  # bit for bit
    assert frozen.points.y.tolist() == scene.points.y.tolist() + [0, 1, 0]
    assert frozen.method == scene.method and frozen.window == scene.window
    assert encode_scene(frozen) == query  # it is the link the app itself would write


def test_enumeration_is_rate_limited(client):
    code, token = opened(client)
    student = joined(client, code)
    for _ in range(int(guard.MISS_LIMIT[1])):
        assert post(client, "join", code=model.new_code()).status_code == 404
    # Out of guesses, every answer about a room the client is not in is the same refusal ...
    assert post(client, "join", code=model.new_code()).status_code == 429
    assert client.get(f"{API}/state", params={"c": model.new_code()}).status_code == 429
    assert client.get(f"{API}/state", params={"c": code}).status_code == 429  # exists, but not theirs
    assert client.get(f"{API}/state", params={"c": code, "since": 2}).status_code == 429
    assert post(client, "join", code=code).status_code == 429  # a new student
    assert post(client, "control", code=code, token="guess", action="clear").status_code == 429
    assert add(client, code, (student[0], "guess")).status_code == 429
    # ... while whoever behind the same address is in the room goes on (a school's one router).
    assert client.get(f"{API}/state", params={"c": code, "sid": student[0]}).status_code == 200
    assert client.get(f"{API}/state", params={"c": code}, headers={"X-Room-Token": token}).status_code == 200
    assert post(client, "join", code=code, sid=student[0], key=student[1]).status_code == 200
    assert add(client, code, student).status_code == 200
    assert post(client, "control", code=code, token=token, action="lock", value=True).status_code == 200


def test_hostile_requests(client):
    code, token = opened(client)
    sid, key = joined(client, code)
    bad_adds = [
        dict(x="0.5", y=0.5, label=0, seq=0),
        dict(x=0.5, y=float("inf"), label=0, seq=0),
        dict(x=1e9, y=0.5, label=0, seq=0),  # outside the plot
        dict(x=0.5, y=0.5, label=9, seq=0),
        dict(x=0.5, y=0.5, label=True, seq=0),
        dict(x=0.5, y=0.5, label=0, seq=-1),
        dict(x=0.5, y=0.5, label=0, seq="1"),
    ]
    for fields in bad_adds:
        body = json.dumps({"code": code, "sid": sid, "key": key, **fields})
        answer = client.post(f"{API}/add", content=body.replace("Infinity", "1e999"))
        assert answer.status_code == 400, (fields, answer.text)
    assert client.post(f"{API}/join", content=b"not json").status_code == 400
    assert client.post(f"{API}/join", content=b"[1, 2]").status_code == 400
    assert client.post(f"{API}/join", content=b"{" * 20_000).status_code == 413
    assert post(client, "join", code={"$gt": ""}).status_code == 404
    assert post(client, "control", code=code, token=token, action="__class__").status_code == 400
    # Values of every JSON type where a string is expected: refused, never a server error.
    for value in ([1], {"a": 1}, None, 3, True):
        assert post(client, "control", code=code, token=token, action="method", value=value).status_code == 400
        assert post(client, "control", code=code, token=token, action=value).status_code in (400, 403)
        assert post(client, "control", code=code, token=token, action="assign", value=0, sid=value).status_code in (
            200,
            404,
        )
        # A secret of another type is no secret (a new student); a nickname must be text.
        assert post(client, "join", code=code, sid=value, key=value, lang=value).status_code == 200
        assert post(client, "join", code=code, nick=value).status_code == (200 if value is None else 400)
        assert post(client, "undo", code=code, sid=value, key=value, lang=value).status_code == 403
    assert post(client, "control", code=code, token=token, action="hide", value="yes").status_code == 400
    assert fresh_state(client, code)["points"] == len(default_scene().points)


def test_nicknames_are_cleaned_text(client):
    code, _token = opened(client)
    nick = "<img src=x onerror=alert(1)>\u202e\u200b" + "x" * 150
    assert post(client, "join", code=code, nick=nick).status_code == 200
    room = store.room_store().get(code)
    ((nick, _),) = [(s["nick"], s) for s in room["students"].values()]
    assert len(nick) <= 24 and "\u202e" not in nick and "\u200b" not in nick
    # No page sends a control character, a lone surrogate or 200 characters: refused, not cleaned.
    for nick in ("ann\x00", "\ud800", "x" * 201):
        answer = client.post(f"{API}/join", content=json.dumps({"code": code, "nick": nick}))
        assert answer.status_code == 400, nick


def test_a_room_holds_at_most_its_students():
    room, _token = model.new_room({}, 0.0)
    for _ in range(MAX_STUDENTS):
        model.join(room, "", None, None, 0.0)
    with pytest.raises(model.RoomError) as err:
        model.join(room, "", None, None, 0.0)
    assert err.value.status == 409


def test_codes_are_long_and_random():
    codes = {model.new_code() for _ in range(2000)}
    assert len(codes) == 2000 and all(model.clean_code(c) == c for c in codes)
    assert model.clean_code("abcd-efgh") == "ABCDEFGH" and model.clean_code("ABCDEFG0") == ""


def test_the_student_page_keeps_texts_as_data(client):
    page = client.get("/room", params={"c": "ABCDEFGH", "lang": "ja"})
    assert page.status_code == 200 and 'lang="ja"' in page.text
    assert 'lang="zh"' in client.get("/room", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.8"}).text
    assert 'lang="en"' in client.get("/room", headers={"Accept-Language": "<script>,fr"}).text
    assert client.get("/room/assets/student.css").status_code == 200
    # The page's code is an ES module of the served tree (ui/plot/browser_modules.py), with what it imports.
    (module,) = re.findall(r'<script type="module" src="([^"]+)"></script>', page.text)
    served = browser_modules.STATIC_DIR / module.split("/app/static/", 1)[1]
    assert module.endswith("/rooms/student.js") and served.is_file()
    assert (served.parent / "student_taps.js").is_file() and (
        served.parent.parent / "plot" / "plotly_shared.js"
    ).is_file()
    assert client.get("/room/assets/student.js").status_code == 404  # no classic script beside it
    assert client.get("/room/assets/..%2Fmodel.py").status_code == 404


class _Request:
    def __init__(self, host, forwarded=None):
        headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
        self.scope = {"client": (host, 50000), "headers": headers}


def test_a_client_is_its_address_or_what_a_trusted_proxy_saw():
    assert routes.client_of(_Request("203.0.113.7")) == "203.0.113.7"
    # Anybody may send the header; only a proxy on this host (or a named one) is believed.
    assert routes.client_of(_Request("203.0.113.7", "10.0.0.1")) == "203.0.113.7"
    assert routes.client_of(_Request("127.0.0.1", "198.51.100.1, 10.0.0.1")) == "10.0.0.1"  # nginx's own entry
    assert routes.client_of(_Request("127.0.0.1")) == "127.0.0.1"


def test_presentation_scale_and_nothing_else(client):
    code, _token = opened(client)

    def marker_size(scale):
        views.SNAPSHOTS._entries.clear()
        figure = client.get(f"{API}/state", params={"c": code, "scale": scale}).json()["figure"]
        return next(t["marker"]["size"] for t in figure["data"] if t.get("meta") == "points")

    assert marker_size("1.6") > marker_size("1.0")
    assert marker_size("99") == marker_size("1e308") == marker_size("1.0")  # an unknown scale is the page's
