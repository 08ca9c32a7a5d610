"""The rooms across replicas on one real Redis (Debian's redis-server, ``tests/redis_server.py``):
the room cap holds under concurrent opens from many threads and two clients (two replicas), and
the room limits are one allowance for every replica (misses spent through one are missing on
the other), as is the open token's secret.
"""

import json
import threading
import time
import urllib.error
import urllib.request
from contextlib import ExitStack

import pytest
import redis

from bench.server import streamlit
from playground.link import encode_scene
from ui.rooms import guard, model
from ui.rooms.protocol import API
from ui.rooms.store import RedisStore
from ui.server import limits
from ui.server.limits import RedisTokenBuckets
from ui.session.state import default_scene


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


def _call(base, name, body, address):
    request = urllib.request.Request(
        f"{base}{API}/{name}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_two_replicas_share_the_room_limits_and_the_open_secret(redis_url):
    """Two servers on one Redis: a room opened through A with a token minted by the deployment's
    secret is joined through B; an address's misses spent half on A and half on B exhaust it on
    both; another address is not touched."""
    redis.Redis.from_url(redis_url).flushdb()
    env = {"PLAYGROUND_REDIS_URL": redis_url, "PLAYGROUND_SECRET": "replicas-test-secret"}
    with ExitStack() as stack:
        a, b = (stack.enter_context(streamlit(env=env)) for _ in range(2))
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("PLAYGROUND_SECRET", "replicas-test-secret")
            session = guard.open_token()
        status, opened = _call(
            a.url, "open", {"scene": encode_scene(default_scene()), "session": session}, "198.51.100.1"
        )
        assert status == 200, opened
        assert _call(b.url, "join", {"code": opened["code"]}, "198.51.100.2")[0] == 200
        assert _call(b.url, "open", {"scene": {}, "session": "0.forged"}, "198.51.100.1")[0] == 403
        misses = int(guard.MISS_LIMIT[1])
        codes = iter(model.new_code() for _ in range(misses))
        spent = [
            _call(server.url, "join", {"code": next(codes)}, "203.0.113.9")[0] for server in (a, b) * (misses // 2)
        ]
        assert spent.count(404) >= misses - 2  # (about one miss a second comes back meanwhile)
        # Out of misses on both replicas, not only the one that counted (a replica counting its own
        # would still hold half its misses); the few that came back meanwhile are 404s first.
        exhausted = [
            (server, _call(server.url, "join", {"code": model.new_code()}, "203.0.113.9")[0]) for server in (a, b) * 5
        ]
        assert all((server, 429) in exhausted for server in (a, b)), exhausted
        assert _call(a.url, "join", {"code": model.new_code()}, "203.0.113.10")[0] == 404
