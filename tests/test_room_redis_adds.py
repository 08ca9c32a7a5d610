"""A student's add in the Redis store (``ui.rooms.redis_store``): one point written, never the room.

- Through the add route, Redis is sent a few hundred bytes per add however many points the room
  holds (the store before wrote the whole room, ~100 KB at 3,000 points), and the points are a
  Redis list.
- The store's ``add`` answers exactly as the in-process store (the model's ``add_point``: the
  oracle) through a scripted lesson of every refusal, retries, a lecturer's assignment, the
  point cap, an undo and an expel; the rooms they leave are the same.
- A reader (the state route's) reads only the rows added since it last read, and reads the room
  whole after an undo, a clear, an expel: what it returns is what a fresh replica reads.
- Replicas adding at once while the lecturer acts lose nothing, and the per-student counts the
  script keeps stay right.
Redis is Debian's ``redis-server`` started here (``tests/redis_server.py``).
"""

import threading
import time
import warnings

import pytest
from starlette.applications import Starlette

from playground.link import encode_scene
from ui.rooms import guard, model, routes, store, views
from ui.rooms.protocol import API
from ui.rooms.redis_store import RedisStore
from ui.server.limits import TokenBuckets
from ui.session.state import default_scene

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _input_bytes(redis_store):
    return int(redis_store.redis.info("stats")["total_net_input_bytes"])


def test_an_add_sends_redis_one_point_not_the_room(redis_url, monkeypatch):
    redis_store = store.RedisStore(redis_url)
    monkeypatch.setattr(store, "_STORE", redis_store)
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(routes, "SNAPSHOTS", views.SNAPSHOTS)
    monkeypatch.setattr(guard, "LIMITS", guard.Limits(lambda _name, rate, burst: TokenBuckets(rate, burst)))
    client = TestClient(Starlette(routes=routes.room_routes()))
    opened = client.post(f"{API}/open", json={"scene": encode_scene(default_scene()), "session": guard.open_token()})
    code = opened.json()["code"]

    def many(room):  # 3,000 points in the room (the lecturer's, as a scene would bring them)
        room["points"] += [[i, i, 0, model.LECTURER, 10_000 + i] for i in range(3000)]
        room["version"] += 1

    redis_store.update(code, many)
    joined = client.post(f"{API}/join", json={"code": code, "nick": "ann"}).json()
    sent = []
    for seq in range(3):
        before = _input_bytes(redis_store)
        body = {"code": code, "sid": joined["sid"], "key": joined["key"], "x": 0.5, "y": 0.5, "label": 0, "seq": seq}
        assert client.post(f"{API}/add", json=body).status_code == 200
        sent.append(_input_bytes(redis_store) - before)
    assert max(sent) < 5_000, sent  # the first sends the script once; the room as JSON is ~100 KB
    assert redis_store.redis.type(redis_store.PREFIX + code + ":p") == "list"
    assert len(redis_store.get(code)["points"]) == len(default_scene().points.training.y) + 3000 + 3


def _outcome(call):
    try:
        return ("ok", call())
    except model.RoomError as err:
        return (err.status, err.sentence)


def _lesson(kind, redis_url, monkeypatch):
    """Every answer of a scripted lesson on one store, and the room it leaves (sids as names)."""
    initial = len(default_scene().points.training.y)
    monkeypatch.setattr(model, "MAX_POINTS", initial + 4)
    rooms = store.MemoryStore() if kind == "memory" else RedisStore(redis_url, max_points=initial + 4)
    room, token = model.new_room(encode_scene(default_scene()), 1.0)
    code = rooms.create(room)
    ann = rooms.update(code, lambda r: model.join(r, "ann", None, None, 2.0))
    bob = rooms.update(code, lambda r: model.join(r, "bob", None, None, 3.0))
    asked = []

    def allow(answer=True):
        asked.append(answer)
        return answer

    def add(student, seq, x=0.1, y=0.2, label=1, key=None, allowed=True):
        sid, own_key = student
        return _outcome(lambda: rooms.add(code, sid, key or own_key, x, y, label, seq, 5.0, lambda: allow(allowed)))

    def control(action, value=None, sid=None):
        return _outcome(lambda: rooms.update(code, lambda r: model.control(r, token, action, value, sid, 6.0)))

    answers = [
        add(ann, 0),
        add(ann, 0, x=99),  # a retry: the first answer, whatever it carries now
        add(ann, 1, key="guess"),
        add(ann, "x"),
        add(ann, -1),
        add(ann, 1, allowed=False),
        add(ann, 1, x=99),
        add(ann, 1, label=7),
        add(ann, 1, label=-1),
        add(ann, 1, label=1.5),
        control("lock", True),
        add(ann, 1),
        add(ann, 0),
        control("lock", False),
        control("limit", 2),
        add(ann, 2, x=-0.25, y=0.75),
        add(ann, 3),
        control("assign", 1, bob[0]),
        add(bob, 0, label=0),
        add(bob, 1, label=9),
        control("limit", 10),
        add(bob, 2),
        _outcome(lambda: rooms.update(code, lambda r: model.undo(r, ann[0], ann[1], 7.0))),
        add(bob, 3, x=0.3),
        control("expel", True, ann[0]),
        add(ann, 4),
        control("assign", 0),
        add(bob, 4, label=1),
    ]
    names = {ann[0]: "ann", bob[0]: "bob"}
    final = rooms.get(code)
    points = [[*row[:3], names.get(row[3], row[3]), row[4]] for row in final["points"]]
    students = [(names[sid], s["nick"], s["seq"], s["pid"], s["class"]) for sid, s in final["students"].items()]
    return answers, asked, points, students, final["version"], final["next_pid"], model.roster(final)[0][1:]


def test_the_redis_add_answers_as_the_model_does(redis_url, monkeypatch):
    memory = _lesson("memory", redis_url, monkeypatch)
    redis = _lesson("redis", redis_url, monkeypatch)
    assert redis == memory
    answers = memory[0]
    assert answers[0] == answers[1] and answers[0][0] == "ok"
    # fmt: off
    assert [answer[0] for answer in answers] == [
        "ok", "ok", 403, 400, 400, 429, 400, 400, 400, 400,  # retry, key, seq twice, rate, window, class x3
        "ok", 409, "ok", "ok", "ok", "ok", 409,  # paused (a retry still answered), the student's limit
        "ok", "ok", "ok", "ok", 409, "ok", "ok", "ok", 403, "ok", "ok",  # assigned, the room's cap, undo, expel
    ]
    # fmt: on
    assert memory[1].count(False) == 1 and len(memory[1]) == 18  # asked once per add with a proved key


def test_replicas_adding_at_once_lose_nothing(redis_url):
    rooms = RedisStore(redis_url)
    room, token = model.new_room(encode_scene(default_scene()), 1.0)
    code = rooms.create(room)
    rooms.update(code, lambda r: model.control(r, token, "limit", 15, None, 1.0))
    students = [rooms.update(code, lambda r, i=i: model.join(r, f"s{i}", None, None, 2.0)) for i in range(4)]
    before = rooms.get(code)

    def adds(sid, key):
        replica = RedisStore(redis_url)
        for seq in range(15):
            replica.add(code, sid, key, 0.01 * seq, 0.5, 0, seq, 3.0, lambda: True)

    def lecturer():
        replica = RedisStore(redis_url)
        for i in range(20):
            replica.update(code, lambda r, i=i: model.control(r, token, "hide", i % 2 == 0, None, 4.0))

    threads = [threading.Thread(target=adds, args=student) for student in students]
    threads.append(threading.Thread(target=lecturer))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = rooms.get(code)
    assert len(after["points"]) == len(before["points"]) + 4 * 15
    assert len({p[4] for p in after["points"]}) == len(after["points"])
    assert after["version"] == before["version"] + 4 * 15 + 20
    for sid, key in students:  # the script's counts: each student is at the room's limit
        with pytest.raises(model.RoomError) as err:
            rooms.add(code, sid, key, 0.5, 0.5, 0, 99, time.time(), lambda: True)
        assert err.value.sentence.template == model.ADD_REFUSALS["limit"][1]
        assert rooms.add(code, sid, key, 0.5, 0.5, 0, 14, time.time(), lambda: True)[0] == after["students"][sid]["pid"]


def test_a_reader_reads_only_the_new_points(redis_url):
    rooms, fresh_replica = RedisStore(redis_url), RedisStore(redis_url)
    room, token = model.new_room(encode_scene(default_scene()), 1.0)
    code = rooms.create(room)

    def many(room):
        room["points"] += [[i, i, 0, model.LECTURER, 10_000 + i] for i in range(3000)]
        room["version"] += 1

    rooms.update(code, many)
    students = [rooms.update(code, lambda r, i=i: model.join(r, f"s{i}", None, None, 2.0)) for i in range(2)]
    assert len(rooms.get(code)["points"]) > 3000
    seq = iter(range(1000))

    def add(student, x=0.5):
        return rooms.add(code, *student, x, 0.5, 0, next(seq), 3.0, lambda: True)

    add(students[0])
    before = int(rooms.redis.info("stats")["total_net_output_bytes"])
    read = rooms.get(code)
    sent = int(rooms.redis.info("stats")["total_net_output_bytes"]) - before
    assert sent < 5_000, sent  # the room's 3,000 rows are ~100 KB
    assert read == fresh_replica.get(code)
    undo = lambda r: model.undo(r, *students[0], 4.0)  # noqa: E731
    control = lambda action, value=None, sid=None: (  # noqa: E731
        lambda r: model.control(r, token, action, value, sid, 4.0)
    )
    for change in (undo, control("clear"), control("expel", True, students[1][0])):
        add(students[0], 0.1), add(students[1], 0.2), add(students[0], 0.3)
        rooms.get(code)  # the reader's rows are the room's ...
        rooms.update(code, change)  # ... until this, which removes some
        add(students[0], 0.4)
        assert rooms.get(code) == RedisStore(redis_url).get(code)
