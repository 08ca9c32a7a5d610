"""The rooms' validation and limits (ui/rooms/guard.py, model.py, routes.py), in this process:
any value of any type or size in any field of any room route is a 4xx, never a 5xx; a class
behind one address who mistype codes still joins; one address cannot take a room's seats in
seconds, nor add with made-up student ids without spending its misses; seats come back; the
lecturer removes a student and closes the door; opening needs an open token and is limited per
address. Limits use a clock that stands still, so no refill happens during a test.
"""

import json
import string
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette

from playground.link import encode_scene
from ui.rooms import guard, model, protocol, routes, store, views
from ui.rooms.protocol import API, IDLE_SECONDS, MAX_STUDENTS, SEAT_GRACE_SECONDS
from ui.server.limits import TokenBuckets
from ui.session.state import default_scene

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def still():
    return 0.0


@pytest.fixture
def client(monkeypatch):
    monkeypatch.setattr(store, "_STORE", store.MemoryStore())
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(routes, "SNAPSHOTS", views.SNAPSHOTS)
    monkeypatch.setattr(
        guard, "LIMITS", guard.Limits(lambda _name, rate, burst: TokenBuckets(rate, burst, clock=still))
    )
    monkeypatch.setattr(guard, "PRESENCE", guard.Presence())
    # The peer is a proxy on this host, so X-Forwarded-For names the client (ui.server.clients).
    return TestClient(Starlette(routes=routes.room_routes()), client=("127.0.0.1", 50000))


def post(client, name, headers=None, **body):
    return client.post(f"{API}/{name}", json=body, headers=headers)


def opened(client, headers=None):
    answer = post(client, "open", headers, scene=encode_scene(default_scene()), session=guard.open_token())
    assert answer.status_code == 200, answer.text
    return answer.json()["code"], answer.json()["token"]


def from_address(address):
    """Headers making a request come from ``address`` (the test client is a trusted proxy's peer)."""
    return {"X-Forwarded-For": address}


# --- Validation: nothing reaches a 5xx -------------------------------------------------------

HUGE = int("9" * 400)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([HUGE, -HUGE, 2**63, 2**53 + 1, 10**20])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([1e308, -1e308, 5e-324])
    | st.text(max_size=30)
    | st.sampled_from(["²", "١٢", "1e400", "NaN", "-0", "\x00", "<script>", "9" * 400]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
FIELDS = [
    "code",
    "nick",
    "sid",
    "key",
    "x",
    "y",
    "label",
    "seq",
    "token",
    "action",
    "value",
    "scene",
    "session",
    "lang",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_no_value_anywhere_reaches_a_server_error(client, data):
    if not hasattr(client, "room"):  # one room and one student for every example of this test
        code, token = opened(client)
        joined = post(client, "join", code=code).json()
        client.room = {"code": code, "token": token, "sid": joined["sid"], "key": joined["key"]}
        client.room["action"] = "limit"
        client.room["session"] = guard.open_token()
    route = data.draw(st.sampled_from(["open", "join", "add", "undo", "control", "freeze"]))
    body = {}
    for field in data.draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=8)):
        real = client.room.get(field)
        body[field] = data.draw(
            st.sampled_from([real]) if real is not None and data.draw(st.booleans()) else json_values
        )
    if route == "control" and data.draw(st.booleans()):
        body.update(code=client.room["code"], token=client.room["token"])
        body["action"] = data.draw(st.sampled_from(list(model.CONTROLS)))
    answer = client.post(f"{API}/{route}", content=json.dumps(body))
    assert answer.status_code < 500, (route, body, answer.text)
    params = {
        name: data.draw(st.text(alphabet=string.printable + "²١٢٣", max_size=12) | st.sampled_from(["9" * 400, "²"]))
        for name in data.draw(st.lists(st.sampled_from(["c", "since", "sid", "lang", "scale", "shape"]), unique=True))
    }
    if data.draw(st.booleans()):
        params["c"] = client.room["code"]
    answer = client.get(f"{API}/state", params=params)
    assert answer.status_code < 500, (params, answer.text)


@pytest.mark.parametrize(
    ("field", "value"),
    [("x", HUGE), ("y", -HUGE), ("label", HUGE), ("seq", HUGE), ("x", 1e308), ("seq", 2**53)],
)
def test_huge_numbers_in_an_add_are_refused(client, field, value):
    code, _token = opened(client)
    joined = post(client, "join", code=code).json()
    body = {"code": code, "sid": joined["sid"], "key": joined["key"], "x": 0.5, "y": 0.5, "label": 0, "seq": 0}
    answer = client.post(f"{API}/add", content=json.dumps(body | {field: value}))
    assert answer.status_code == 400, answer.text


def test_a_huge_limit_and_odd_since_are_refused(client):
    code, token = opened(client)
    answer = client.post(f"{API}/control", content=json.dumps(dict(code=code, token=token, action="limit", value=HUGE)))
    assert answer.status_code == 400
    for since in ("²", "١", "9" * 400, "-1", "1.0"):
        answer = client.get(f"{API}/state", params={"c": code, "since": since})
        assert answer.status_code == 200 and "figure" in answer.json(), since  # not a version: the whole state


# --- A class behind one address --------------------------------------------------------------


def test_a_class_that_mistypes_still_joins(client):
    school = from_address("198.51.100.9")
    code, _token = opened(client)
    for _ in range(250):  # far more typos than a class makes
        assert post(client, "join", school, code=model.new_code()).status_code == 404
    sixty = [post(client, "join", school, code=code) for _ in range(60)]
    assert [a.status_code for a in sixty] == [200] * 60
    assert len({a.json()["sid"] for a in sixty}) == 60


def test_one_address_takes_seats_at_its_pace_only(client):
    code, _token = opened(client)
    burst = int(guard.SEAT_LIMIT[1])
    answers = [post(client, "join", from_address("203.0.113.5"), code=code).status_code for _ in range(burst + 5)]
    assert answers == [200] * burst + [429] * 5  # then two a second: minutes for the room's seats
    assert burst < MAX_STUDENTS and (MAX_STUDENTS - burst) / guard.SEAT_LIMIT[0] >= 120
    assert post(client, "join", from_address("203.0.113.6"), code=code).status_code == 200  # another address


def test_adds_with_made_up_students_spend_the_addresses_misses(client):
    code, _token = opened(client)
    joined = post(client, "join", code=code).json()
    attacker = from_address("192.0.2.44")
    misses = int(guard.MISS_LIMIT[1])
    body = dict(code=code, x=0.5, y=0.5, label=0, seq=0)
    statuses = [post(client, "add", attacker, sid=f"s{n}", key="k", **body).status_code for n in range(misses + 3)]
    assert statuses == [403] * misses + [429] * 3
    assert post(client, "join", attacker, code=code).status_code == 429  # out of misses: no new seat
    # The real student (another address) adds as before.
    assert post(client, "add", sid=joined["sid"], key=joined["key"], **body).status_code == 200


def test_a_students_own_limit_is_keyed_on_their_proved_id(client):
    code, _token = opened(client)
    joined = post(client, "join", code=code).json()
    body = dict(code=code, sid=joined["sid"], key=joined["key"], x=0.5, y=0.5, label=0)
    burst = int(guard.STUDENT_LIMIT[1])
    statuses = [post(client, "add", **body, seq=n).status_code for n in range(burst + 1)]
    assert statuses == [200] * burst + [429]


# --- Seats come back; the lecturer's door and removal ----------------------------------------


def test_seats_of_students_who_left_come_back():
    room, _token = model.new_room({}, 0.0)
    model.join(room, "", None, None, 0.0)
    room["points"] = []
    for _ in range(MAX_STUDENTS - 1):
        model.join(room, "", None, None, 0.0)
    with pytest.raises(model.RoomError):
        model.join(room, "", None, None, 10.0)  # full, everybody still in their first minutes
    later = SEAT_GRACE_SECONDS + IDLE_SECONDS + 1
    polling = list(room["students"])[:3]
    seen = {sid: later - 1 for sid in polling}  # three still poll
    sid, _key = model.join(room, "new", None, None, later, seen=seen)
    assert set(room["students"]) == set(polling) | {sid}


def test_a_student_who_left_with_points_keeps_them_without_a_seat():
    room, _token = model.new_room({}, 0.0)
    sid, key = model.join(room, "ann", None, None, 0.0)
    model.add_point(room, sid, key, 0.5, 0.5, 0, 0, 1.0)
    later = SEAT_GRACE_SECONDS + IDLE_SECONDS + 10
    assert model.reclaim(room, {}, later) == 0  # no seat held ...
    assert sid in room["students"]  # ... but the student and their point stay
    assert model.join(room, "", sid, key, later) == (sid, key)  # and they come back


def test_the_lecturer_removes_a_student_and_closes_the_door(client):
    code, token = opened(client)
    ann = post(client, "join", code=code, nick="ann").json()
    bob = post(client, "join", code=code, nick="bob").json()
    for student in (ann, bob):
        add = dict(code=code, sid=student["sid"], key=student["key"], x=0.5, y=0.5, label=0, seq=0)
        assert post(client, "add", **add).status_code == 200
    before = store.room_store().get(code)["points"]
    assert (
        post(client, "control", code=code, token=token, action="expel", value=False, sid=ann["sid"]).status_code == 200
    )
    assert (
        post(client, "control", code=code, token=token, action="expel", value=True, sid=bob["sid"]).status_code == 200
    )
    room = store.room_store().get(code)
    assert room["students"] == {}
    assert len(room["points"]) == len(before) - 1  # ann's point stays, bob's went with him
    add = dict(code=code, sid=ann["sid"], key=ann["key"], x=0.1, y=0.1, label=0, seq=1)
    assert post(client, "add", **add).status_code == 403  # ann's page no longer acts
    assert post(client, "control", code=code, token=token, action="expel", value="yes", sid="x").status_code == 400

    assert post(client, "control", code=code, token=token, action="door", value=True).status_code == 200
    assert post(client, "join", code=code).status_code == 409
    state = client.get(f"{API}/state", params={"c": code}).json()
    assert state["settings"]["door_closed"] is True
    assert post(client, "control", code=code, token=token, action="door", value=False).status_code == 200
    assert post(client, "join", code=code).status_code == 200


def test_a_polling_student_is_seen(client):
    code, _token = opened(client)
    joined = post(client, "join", code=code).json()
    client.get(f"{API}/state", params={"c": code, "sid": joined["sid"]})
    client.get(f"{API}/state", params={"c": code, "sid": "not-a-student"})
    assert list(store.room_store().presence(code)) == [joined["sid"]]


# --- Opening ---------------------------------------------------------------------------------


def test_opening_needs_a_token_a_session_minted(client):
    scene = encode_scene(default_scene())
    for session in (None, "", "1.abc", guard.open_token(0.0), guard.open_token() + "0", 12, ["x"], "9" * 400 + ".a"):
        assert post(client, "open", scene=scene, session=session).status_code == 403, session
    assert post(client, "open", scene=scene, session=guard.open_token()).status_code == 200


def test_opens_are_limited_per_address(client):
    burst = int(guard.OPEN_LIMIT[1])
    for _ in range(burst):
        opened(client, from_address("203.0.113.77"))
    scene = encode_scene(default_scene())
    again = post(client, "open", from_address("203.0.113.77"), scene=scene, session=guard.open_token())
    assert again.status_code == 429
    opened(client, from_address("203.0.113.78"))


def test_an_ipv6_host_counts_as_its_64():
    assert guard.address_key("2001:db8:1:2:a::1") == guard.address_key("2001:db8:1:2:ffff::9")
    assert guard.address_key("2001:db8:1:3::1") != guard.address_key("2001:db8:1:2::1")
    assert guard.address_key("198.51.100.1") == "198.51.100.1"


# --- Settings and the guessing bound ---------------------------------------------------------


def test_room_bounds_are_settings(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_ROOM_SEATS", "900")
    assert protocol.setting("PLAYGROUND_ROOM_SEATS", 600, 1, 5_000) == 900
    for bad in ("9" * 400, "²", "-5", "lots", ""):
        monkeypatch.setenv("PLAYGROUND_ROOM_SEATS", bad)
        assert protocol.setting("PLAYGROUND_ROOM_SEATS", 600, 1, 5_000) == 600
    monkeypatch.setenv("PLAYGROUND_ROOM_SEATS", "999999")
    assert protocol.setting("PLAYGROUND_ROOM_SEATS", 600, 1, 5_000) == 5_000
    # The defaults hold a lecture hall: 500 students each adding the default allowance.
    assert protocol.MAX_STUDENTS >= 500 and protocol.MAX_POINTS >= 500 * protocol.DEFAULT_PER_STUDENT


def test_guessing_a_room_takes_more_than_a_year():
    space = 31**8
    expected_seconds = space / protocol.MAX_ROOMS / guard.MISS_LIMIT[0]
    assert guard.guess_years() == pytest.approx(expected_seconds / (365.25 * 86400))
    assert guard.guess_years() > 50
