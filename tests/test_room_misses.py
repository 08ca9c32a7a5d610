"""The misses are no oracle (issue 44), on both stores (memory and a real Redis): an address out of
misses gets the same answer about any room it is not a member of (status, body and headers but
the date), for a real room's code, a closed room's and a code naming nothing, on every room route
and in malformed variants; a malformed request about a room spends a miss like a wrong code;
concurrent probes right after a refill get no more real answers than the refill's misses (the
miss is checked and spent in one atomic step before the room is looked up); and the address's
members (its students, the lecturer) carry on.
"""

import json
import threading
import time
import warnings

import pytest
import redis

from playground.link import encode_scene
from tests.test_hostile_routes import HEADERS, edge_app, encoded
from ui.rooms import guard, model, routes, store, views
from ui.rooms.protocol import API
from ui.server.limits import RedisTokenBuckets, TokenBuckets
from ui.session.state import default_scene

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

PROBER = "198.51.100.66"  # the address out of misses
OTHER = "203.0.113.20"  # the lecturer's and a student's, elsewhere


class Clock:
    """A clock that moves only when the test says so (the memory buckets' refill)."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _limits(kind, redis_url, clock, misses_burst=None):
    """The room limits on the store's kind: memory buckets on ``clock``, or Redis's own buckets
    (refilling too slowly to matter in a test). ``misses_burst``: the misses' burst instead."""
    if kind == "memory":
        make = lambda name, rate, burst: TokenBuckets(  # noqa: E731
            rate, misses_burst if misses_burst and name == "room-misses" else burst, clock=clock
        )
    else:
        client = redis.Redis.from_url(redis_url, decode_responses=True)
        client.flushdb()
        make = lambda name, rate, burst: RedisTokenBuckets(  # noqa: E731
            client, name, 1e-6, misses_burst if misses_burst and name == "room-misses" else burst
        )
    return guard.Limits(make)


@pytest.fixture(params=["memory", "redis"])
def kind(request):
    return request.param


@pytest.fixture
def app(kind, redis_url, monkeypatch):
    monkeypatch.setattr(store, "_STORE", store.MemoryStore() if kind == "memory" else store.RedisStore(redis_url))
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(routes, "SNAPSHOTS", views.SNAPSHOTS)
    monkeypatch.setattr(guard, "PRESENCE", guard.Presence())
    clock = Clock()
    monkeypatch.setattr(guard, "LIMITS", _limits(kind, redis_url, clock))
    client = TestClient(edge_app(), raise_server_exceptions=False, client=("127.0.0.1", 50000))
    client.clock = clock
    return client


def post(client, name, body, address=OTHER, raw=None):
    headers = {**HEADERS, "X-Forwarded-For": address, "Accept-Language": "en"}
    return client.post(f"{API}/{name}", content=raw if raw is not None else encoded(body), headers=headers)


def poll(client, params, address=OTHER, token=None):
    headers = {"X-Forwarded-For": address, "Accept-Language": "en"}
    if token is not None:
        headers["X-Room-Token"] = token
    return client.get(f"{API}/state", params=params, headers=headers)


def lecture(client):
    """(code, token, student): an open room with a student, opened and joined from ``OTHER``."""
    answer = post(client, "open", {"scene": encode_scene(default_scene()), "session": guard.open_token()}).json()
    joined = post(client, "join", {"code": answer["code"], "nick": "ann"}).json()
    return answer["code"], answer["token"], (joined["sid"], joined["key"])


def spend_all_misses(client):
    misses = int(guard.MISS_LIMIT[1])
    answers = [post(client, "join", {"code": model.new_code()}, PROBER).status_code for _ in range(misses)]
    assert answers == [404] * misses
    assert post(client, "join", {"code": model.new_code()}, PROBER).status_code == 429


def probes(code, sid, key, token):
    """Requests about the room ``code`` that prove no membership: (route, body or params)."""
    add = {"x": 0.5, "y": 0.5, "label": 0, "seq": 0}
    return [
        ("join", {"code": code}),
        ("join", {"code": code.lower()[:4] + "-" + code[4:], "nick": "eve", "lang": "ja"}),
        ("join", {"code": code, "nick": 5}),
        ("join", {"code": code, "nick": "\ud800"}),
        ("join", {"code": code, "sid": sid, "key": "wrong-key"}),
        ("join", {"code": code, "sid": "\ud800", "key": "\u00e9"}),
        ("join", {"code": code, "lang": "zh", "scene": [1]}),
        ("add", {"code": code, "sid": "made-up", "key": "made-up", **add}),
        ("add", {"code": code, "sid": sid, "key": "wrong-key", **add}),
        ("add", {"code": code, "sid": "\ud800", "key": "\ud800", **add}),
        ("add", {"code": code, "sid": sid, "key": key[:-1] + "\x00", **add}),
        ("add", {"code": code, "sid": sid, "x": "9" * 400}),
        ("undo", {"code": code, "sid": "made-up", "key": "made-up"}),
        ("undo", {"code": code, "sid": sid, "key": "\ud800"}),
        ("control", {"code": code, "token": "wrong-token", "action": "lock", "value": True}),
        ("control", {"code": code, "token": "\ud800", "action": "lock", "value": True}),
        ("control", {"code": code, "token": 123, "action": "__class__"}),
        ("control", {"code": code, "token": token + "é", "action": "clear"}),
        ("control", {"code": code, "token": key, "action": "door", "value": True}),
        ("freeze", {"code": code, "token": "wrong-token"}),
        ("freeze", {"code": code, "token": "\ud800"}),
        ("freeze", {"code": code, "token": [token]}),
        ("state", {"c": code}),
        ("state", {"c": code, "since": "1", "lang": "ja"}),
        ("state", {"c": code, "sid": "made-up", "scale": "1.6", "shape": "tall"}),
        ("state", {"c": code, "sid": "é" * 30}),
        ("state-token", {"c": code}),
    ]


def answer_of(client, route, request, address=PROBER):
    if route == "state":
        response = poll(client, request, address)
    elif route == "state-token":
        response = poll(client, request, address, token="wrong-token")
    else:
        response = post(client, route, request, address)
    headers = {name: value for name, value in response.headers.items() if name != "date"}
    return response.status_code, response.content, headers


def test_out_of_misses_every_answer_about_a_room_is_the_same(app):
    code, token, (sid, key) = lecture(app)
    closed, closed_token, (closed_sid, closed_key) = lecture(app)
    store.room_store().update(closed, lambda room: model.close(room, time.time()))
    nowhere = model.new_code()
    # Before: the answers tell the rooms apart (so the test below could see a difference).
    assert answer_of(app, "join", {"code": code}, OTHER)[0] == 200
    assert answer_of(app, "join", {"code": closed}, OTHER)[0] == 410
    assert answer_of(app, "join", {"code": nowhere}, OTHER)[0] == 404
    spend_all_misses(app)
    for real, others in ((code, (closed, nowhere)), (closed, (nowhere,))):
        secrets = (sid, key, token) if real == code else (closed_sid, closed_key, closed_token)
        for (route, request), *alike in zip(
            probes(real, *secrets), *(probes(other, *secrets) for other in others), strict=True
        ):
            seen = answer_of(app, route, request)
            assert seen[0] == 429 and json.loads(seen[1]) == {"error": json.loads(seen[1])["error"]}, (route, seen)
            for other_route, other_request in alike:
                assert answer_of(app, other_route, other_request) == seen, (route, request, other_request)
    # Not JSON, or not an object: nothing names a room, and the answer is the same again.
    for name in ("join", "add", "undo", "control", "freeze"):
        for raw in (b"not json", b"[]", b'{"code": "\xed\xa0\x80"}'):
            response = post(app, name, None, PROBER, raw=raw)
            assert response.status_code == 429, (name, raw, response.text)
            assert response.content == post(app, "join", {"code": nowhere}, PROBER).content


def test_out_of_misses_the_members_behind_the_address_carry_on(app):
    """docs/security.md's promise: a class behind one router is never locked out by its own typos."""
    code, token, _student = lecture(app)
    mine = post(app, "join", {"code": code, "nick": "bob"}, PROBER).json()
    spend_all_misses(app)
    assert poll(app, {"c": code, "sid": mine["sid"]}, PROBER).status_code == 200
    assert poll(app, {"c": code, "since": "0"}, PROBER, token=token).status_code == 200
    add = {"code": code, "sid": mine["sid"], "key": mine["key"], "x": 0.5, "y": 0.5, "label": 0, "seq": 0}
    assert post(app, "add", add, PROBER).status_code == 200
    assert post(app, "add", dict(add, x=1e9, seq=1), PROBER).status_code == 400  # a member's own mistake
    back = {"code": code, "sid": mine["sid"], "key": mine["key"]}
    assert post(app, "join", back, PROBER).json()["sid"] == mine["sid"]
    assert post(app, "undo", back, PROBER).status_code == 200
    lock = {"code": code, "token": token, "action": "lock", "value": False}
    assert post(app, "control", lock, PROBER).status_code == 200
    assert post(app, "freeze", {"code": code, "token": token}, PROBER).status_code == 200
    assert post(app, "join", {"code": code}, PROBER).status_code == 429  # a new seat is not a member's


def test_a_malformed_request_about_a_room_spends_a_miss(app):
    code, _token, (sid, _key) = lecture(app)
    malformed = [
        ("add", {"code": code, "sid": sid, "key": "\ud800", "x": 0.5, "y": 0.5, "label": 0, "seq": 0}),
        ("join", {"code": code, "nick": ["ann"]}),
        ("control", {"code": code, "token": "\ud800", "action": "lock", "value": True}),
        ("undo", {"code": code, "sid": "\x00", "key": "k"}),
        ("freeze", {"code": code, "token": "t\u00e9"}),
    ]
    misses = int(guard.MISS_LIMIT[1])
    statuses = [post(app, *malformed[n % len(malformed)], PROBER).status_code for n in range(misses)]
    assert all(400 <= status < 500 for status in statuses), set(statuses)
    assert post(app, "join", {"code": code}, PROBER).status_code == 429  # out of misses: no new seat
    assert post(app, "join", {"code": code}, OTHER).status_code == 200  # another address is not touched


def test_hits_spend_no_miss(app):
    """A join that takes a seat, a viewer's poll, a member's action give their miss back: sixty
    students behind one router after 250 typos all join, and poll as often as they like."""
    code, _token, _student = lecture(app)
    for _ in range(250):
        assert post(app, "join", {"code": model.new_code()}, PROBER).status_code == 404
    sixty = [post(app, "join", {"code": code}, PROBER) for _ in range(60)]
    assert [answer.status_code for answer in sixty] == [200] * 60
    for _ in range(3):
        for answer in sixty:
            assert poll(app, {"c": code, "sid": answer.json()["sid"]}, PROBER).status_code == 200
    left = int(guard.MISS_LIMIT[1]) - 250
    assert [post(app, "join", {"code": model.new_code()}, PROBER).status_code for _ in range(left + 1)] == [
        404
    ] * left + [429]


REFILL = 5  # misses an address holds right after a refill


@pytest.mark.parametrize("target", ["nowhere", "real room, malformed"])
def test_concurrent_probes_after_a_refill_get_only_the_refills_answers(kind, redis_url, monkeypatch, target):
    """Forty probes at once from an address holding ``REFILL`` misses: exactly ``REFILL`` are
    answered (404, 400), the others refused (429). In memory the address spends its misses and the
    clock moves on five seconds (a miss a second); in Redis, whose clock is its own, the address's
    bucket holds five at most (``misses_burst``): the same state, a bucket with five misses."""
    monkeypatch.setattr(store, "_STORE", store.MemoryStore() if kind == "memory" else store.RedisStore(redis_url))
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(guard, "PRESENCE", guard.Presence())
    clock = Clock()
    monkeypatch.setattr(guard, "LIMITS", _limits(kind, redis_url, clock, None if kind == "memory" else REFILL))
    client = TestClient(edge_app(), raise_server_exceptions=False, client=("127.0.0.1", 50000))
    code, _token, (sid, _key) = lecture(client)
    if kind == "memory":
        spend_all_misses(client)
        clock.now += REFILL / guard.MISS_LIMIT[0]
    if target == "nowhere":
        body = {"code": model.new_code()}
        route = "join"
    else:
        body = {"code": code, "sid": sid, "key": "\ud800", "x": 0.5, "y": 0.5, "label": 0, "seq": 0}
        route = "add"
    start = threading.Barrier(40)
    statuses = []

    def probe():
        start.wait()
        statuses.append(post(client, route, body, PROBER).status_code)

    threads = [threading.Thread(target=probe) for _ in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    real = 404 if target == "nowhere" else 400
    assert sorted(statuses) == sorted([real] * REFILL + [429] * (40 - REFILL)), statuses
