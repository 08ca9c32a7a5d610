"""The rooms across replicas on one real Redis (Debian's redis-server, ``tests/redis_server.py``):
the room cap holds under concurrent opens from many threads and two clients (two replicas), and
the room limits are one allowance for every replica (misses spent through one are missing on
the other), as is the open token's secret.
"""

import threading
import time

import pytest
import redis

from playground.link import encode_scene
from tests.redis_server import redis_server
from ui.rooms import guard, model
from ui.rooms.store import RedisStore
from ui.server import limits
from ui.server.limits import RedisTokenBuckets
from ui.session.state import default_scene


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as (url, _restart):
        yield url


def test_concurrent_opens_never_exceed_the_room_cap(redis_url):
    redis.Redis.from_url(redis_url).flushdb()
    cap = 50
    replicas = [RedisStore(redis_url, max_rooms=cap), RedisStore(redis_url, max_rooms=cap)]
    room, _token = model.new_room(encode_scene(default_scene()), time.time())
    outcomes = []
    start = threading.Barrier(40)

    def opener(store):
        start.wait()
        for _ in range(4):
            try:
                outcomes.append(store.create(room))
            except model.RoomError as err:
                outcomes.append(err.status)

    threads = [threading.Thread(target=opener, args=(replicas[n % 2],)) for n in range(40)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    created = [o for o in outcomes if isinstance(o, str)]
    assert len(created) == cap and len(set(created)) == cap
    assert outcomes.count(503) == 160 - cap
    assert replicas[0].redis.zcard(RedisStore.INDEX) == cap
    assert all(replicas[1].version(code) == 1 for code in created)


def _replica_limits(url):
    """A replica's room limits on the Redis at ``url``, refilling too slowly to matter in a test."""
    client = redis.Redis.from_url(url, decode_responses=True)
    return guard.Limits(lambda name, _rate, burst: RedisTokenBuckets(client, name, 1e-6, burst))


def test_room_limits_are_shared_by_the_replicas(redis_url):
    redis.Redis.from_url(redis_url).flushdb()
    a, b = _replica_limits(redis_url), _replica_limits(redis_url)
    burst = int(guard.MISS_LIMIT[1])
    granted = sum(a.misses.allow("198.51.100.1") for _ in range(burst // 2)) + sum(
        b.misses.allow("198.51.100.1") for _ in range(burst - burst // 2)
    )
    assert granted == burst
    assert a.misses.exhausted("198.51.100.1") and b.misses.exhausted("198.51.100.1")
    assert not a.misses.exhausted("198.51.100.2")
    seats = int(guard.SEAT_LIMIT[1])
    assert sum(x.seats.allow("203.0.113.1") for x in (a, b) for _ in range(seats)) == seats


def test_the_limits_of_a_redis_deployment_are_shared_buckets(redis_url, monkeypatch):
    monkeypatch.setenv("PLAYGROUND_REDIS_URL", redis_url)
    monkeypatch.setattr(limits, "_REDIS", None)
    made = guard.Limits()
    assert all(isinstance(getattr(made, name), RedisTokenBuckets) for name in ("misses", "seats", "opens", "students"))
    monkeypatch.delenv("PLAYGROUND_SECRET", raising=False)
    monkeypatch.setattr(guard, "_SECRET", {})
    token = guard.open_token()
    monkeypatch.setattr(guard, "_SECRET", {})  # another replica: it reads the secret from Redis
    assert guard.valid_open_token(token)
