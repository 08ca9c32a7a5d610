"""The room stores: the same tests against the in-process store and Redis (Debian's
``redis-server``, started here in the foreground, ``tests/redis_server.py``).

Atomic updates under concurrent writers (threads, two clients of one Redis as two replicas
would be), expiry after inactivity, the bound on rooms, and, with Redis, no acknowledged point
lost when Redis is killed and restarted from its append-only file.
"""

import threading
import time

import pytest

from playground.link import encode_scene
from tests.redis_server import redis_server
from ui.rooms import model
from ui.rooms.store import MemoryStore, RedisStore
from ui.rooms.store_base import RoomStore
from ui.session.state import default_scene


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as (url, restart):
        yield url, restart


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture(params=["memory", "redis"])
def make_store(request, redis_url):
    """A function making stores of one kind that share their rooms (as replicas would)."""
    if request.param == "memory":
        shared = MemoryStore()
        return lambda **kw: shared if not kw else MemoryStore(**kw)
    url, _restart = redis_url
    return lambda **kw: RedisStore(url, **kw)


def _room():
    room, token = model.new_room(encode_scene(default_scene()), time.time())
    return room, token


def _joined(store, code, nick="ann"):
    return store.update(code, lambda room: model.join(room, nick, None, None, 0.0))


def test_both_stores_have_the_protocols_methods(make_store):
    """Every method of ``RoomStore`` (mypy checks their types, ``store.chosen_store``)."""
    assert isinstance(make_store(), RoomStore)
    assert not isinstance(object(), RoomStore)


def test_create_get_update(make_store):
    store = make_store()
    room, token = _room()
    code = store.create(room)
    assert model.clean_code(code) == code
    assert store.version(code) == 1
    sid, key = _joined(store, code)
    pid = store.update(code, lambda r: model.add_point(r, sid, key, 0.1, 0.2, 1, 0, 0.0))
    got = store.get(code)
    assert got["version"] == store.version(code) == 3
    assert got["points"][-1] == [10_000, 20_000, 1, sid, pid]
    assert got["token"] == model.digest(token) and token not in str(got)


def test_an_action_that_changes_nothing_writes_nothing(make_store):
    store = make_store()
    code = store.create(_room()[0])
    sid, key = _joined(store, code)
    version = store.version(code)
    assert store.update(code, lambda r: model.join(r, "x", sid, key, 0.0)) == (sid, key)  # a student back
    assert store.version(code) == version


def test_missing_room(make_store):
    store = make_store()
    assert store.get("ABCDEFGH") is None and store.version("ABCDEFGH") is None
    with pytest.raises(model.RoomError) as err:
        store.update("ABCDEFGH", lambda r: None)
    assert err.value.status == 404


def test_concurrent_adds_are_all_kept(make_store):
    """Eight writers (each with its own client of the store, as replicas have) add 15 points each."""
    store = make_store()
    code = store.create(_room()[0])
    students = [_joined(store, code, f"s{i}") for i in range(8)]
    before = len(store.get(code)["points"])

    def write(sid, key):
        own = make_store()
        for seq in range(15):
            own.update(code, lambda r, s=seq: model.add_point(r, sid, key, 0.01 * s, 0.5, 0, s, 0.0))

    threads = [threading.Thread(target=write, args=student) for student in students]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    room = store.get(code)
    assert len(room["points"]) == before + 8 * 15
    assert len({p[4] for p in room["points"]}) == len(room["points"])  # every id once
    assert room["version"] == 1 + 8 + 8 * 15


def test_rooms_expire_after_inactivity():
    clock = Clock()
    store = MemoryStore(ttl=60, clock=clock)
    code = store.create(_room()[0])
    clock.now += 59
    sid, key = _joined(store, code)  # activity: the clock starts again
    clock.now += 59
    assert store.version(code) is not None
    clock.now += 2
    assert store.version(code) is None and store.get(code) is None


def test_redis_rooms_expire(redis_url):
    store = RedisStore(redis_url[0], ttl=1)
    code = store.create(_room()[0])
    assert store.version(code) == 1
    assert store.redis.pttl(store.PREFIX + code) <= 1000
    deadline = time.monotonic() + 10
    while store.version(code) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store.get(code) is None and store.version(code) is None


@pytest.mark.parametrize("kind", ["memory", "redis"])
def test_the_number_of_rooms_is_bounded(kind, redis_url):
    store = MemoryStore(max_rooms=3) if kind == "memory" else RedisStore(redis_url[0], max_rooms=3)
    if kind == "redis":
        store.redis.flushdb()
    codes = [store.create(_room()[0]) for _ in range(3)]
    with pytest.raises(model.RoomError) as err:
        store.create(_room()[0])
    assert err.value.status == 503
    store.delete(codes[0])
    store.create(_room()[0])


def test_acknowledged_points_survive_a_redis_restart(redis_url):
    url, restart = redis_url
    store = RedisStore(url)
    code = store.create(_room()[0])
    sid, key = _joined(store, code)
    acknowledged = [
        store.update(code, lambda r, s=s: model.add_point(r, sid, key, 0.1 * s, 0.0, 0, s, 0.0)) for s in range(10)
    ]
    restart()  # SIGKILL: nothing is flushed on the way out
    deadline = time.monotonic() + 20
    while True:
        try:
            room = RedisStore(url).get(code)
            break
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
    assert [p[4] for p in room["points"] if p[3] == sid] == acknowledged


def test_a_closed_room_is_kept_only_long_enough_to_tell_its_students(redis_url):
    """A room the lecturer closed stays to tell its students (and give the frozen link), not for
    the open room's four hours: it would hold one of the server's rooms all that time."""
    from ui.rooms.protocol import CLOSED_EXPIRY_SECONDS, EXPIRY_SECONDS

    clock = Clock()
    store = MemoryStore(clock=clock)
    code = store.create(_room()[0])
    store.update(code, lambda room: model.close(room, time.time()))
    clock.now += CLOSED_EXPIRY_SECONDS + 1
    assert store.version(code) is None and CLOSED_EXPIRY_SECONDS < EXPIRY_SECONDS

    redis_store = RedisStore(redis_url[0])
    code = redis_store.create(_room()[0])
    assert redis_store.redis.pttl(redis_store.PREFIX + code) > CLOSED_EXPIRY_SECONDS * 1000
    redis_store.update(code, lambda room: model.close(room, time.time()))
    assert 0 < redis_store.redis.pttl(redis_store.PREFIX + code) <= CLOSED_EXPIRY_SECONDS * 1000
    assert redis_store.redis.zscore(redis_store.INDEX, code) <= time.time() + CLOSED_EXPIRY_SECONDS
