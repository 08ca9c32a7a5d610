"""Rate limits and in-flight caps of the HTTP edge, per key, in this process or shared through Redis.

- ``TokenBuckets``: a token bucket per key (``rate`` tokens a second, ``burst`` at most), in this
  process, remembering at most ``max_keys`` keys (the least recently used are forgotten, so a flood
  of new keys holds bounded memory).
- ``RedisTokenBuckets``: the same buckets in Redis, each decision one Lua script (read, refill,
  spend, write in one atomic step on Redis's own clock), so replicas share one allowance instead of
  each granting its own. When Redis cannot be reached the decision falls back to this process's
  buckets: the limit still holds per replica, and nobody is locked out while Redis restarts.
- ``shared_buckets(name, rate, burst)``: Redis when ``PLAYGROUND_REDIS_URL`` is set, else memory.
- ``InFlight``: how many requests a key (and the whole process) has under way at once; a request
  over either cap is refused at once, never queued, so one client cannot hold the others' places.

Rules that must hold: a key is what the client cannot choose (an address from
``ui.server.clients``, a room code the server made, a student id the room issued); ``allow`` never
raises for a store that is away; every structure is bounded whatever keys arrive.
"""

import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

MAX_KEYS = 65536


class Limit(Protocol):
    def allow(self, key: str, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens of ``key``'s bucket if it holds them; whether it did."""
        ...

    def exhausted(self, key: str) -> bool:
        """Whether ``key``'s bucket holds less than one token (a look that spends nothing)."""
        ...

    def refund(self, key: str, cost: float = 1.0) -> None:
        """Give back ``cost`` tokens ``allow`` spent (never past the burst): a request that took
        one before it knew whether it had to (``ui.rooms.routes``: a miss) and did not."""
        ...


class TokenBuckets:
    """Token buckets in this process (see the module's docstring)."""

    def __init__(
        self,
        rate: float,
        burst: float,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.max_keys, self.clock = rate, burst, max_keys, clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key -> (tokens, time)
        self._lock = threading.Lock()

    def _tokens(self, key: str, now: float) -> float:
        tokens, then = self._buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + max(0.0, now - then) * self.rate)

    def allow(self, key: str, cost: float = 1.0) -> bool:
        with self._lock:
            now = self.clock()
            tokens = self._tokens(key, now)
            allowed = tokens >= cost
            self._buckets.pop(key, None)
            self._buckets[key] = (tokens - cost if allowed else tokens, now)
            while len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
            return allowed

    def exhausted(self, key: str) -> bool:
        with self._lock:
            return self._tokens(key, self.clock()) < 1.0

    def refund(self, key: str, cost: float = 1.0) -> None:
        with self._lock:
            if key in self._buckets:  # a forgotten bucket is full again anyway
                now = self.clock()
                self._buckets[key] = (min(self.burst, self._tokens(key, now) + cost), now)

    def forget(self, key: str) -> None:
        with self._lock:
            self._buckets.pop(key, None)


# KEYS[1] the bucket; ARGV: rate, burst, cost, peek (1: only look). Redis's clock, so replicas agree.
# A negative cost gives tokens back (``refund``), never past the burst.
_BUCKET_SCRIPT = """
local rate, burst, cost, peek = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4] == '1'
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local held = redis.call('HMGET', KEYS[1], 'tokens', 'time')
local tokens = tonumber(held[1]) or burst
local before = tonumber(held[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - before) * rate)
if peek then
  if tokens < 1 then return 1 else return 0 end
end
local allowed = tokens >= cost
if allowed then tokens = math.min(burst, tokens - cost) end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'time', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst / rate + 1) * 1000))
if allowed then return 1 else return 0 end
"""


class RedisTokenBuckets:
    """Token buckets in Redis under ``pg:limit:NAME:KEY`` (see the module's docstring)."""

    def __init__(self, client: Any, name: str, rate: float, burst: float) -> None:
        self.redis, self.name, self.rate, self.burst = client, name, rate, burst
        self._script = client.register_script(_BUCKET_SCRIPT)
        self.fallback = TokenBuckets(rate, burst)
        from redis.exceptions import RedisError

        self._errors: tuple[type[BaseException], ...] = (RedisError, OSError)

    def _run(self, key: str, cost: float, peek: bool) -> int:
        return int(self._script(keys=[f"pg:limit:{self.name}:{key}"], args=[self.rate, self.burst, cost, int(peek)]))

    def allow(self, key: str, cost: float = 1.0) -> bool:
        try:
            return self._run(key, cost, False) == 1
        except self._errors:
            return self.fallback.allow(key, cost)

    def exhausted(self, key: str) -> bool:
        try:
            return self._run(key, 1.0, True) == 1
        except self._errors:
            return self.fallback.exhausted(key)

    def refund(self, key: str, cost: float = 1.0) -> None:
        try:
            self._run(key, -cost, False)
        except self._errors:
            self.fallback.refund(key, cost)


_REDIS: Any = None
_REDIS_LOCK = threading.Lock()


def redis_client() -> Any:
    """The process's Redis client when ``PLAYGROUND_REDIS_URL`` is set, else None."""
    global _REDIS
    url = os.environ.get("PLAYGROUND_REDIS_URL", "").strip()
    if not url:
        return None
    with _REDIS_LOCK:
        if _REDIS is None:
            import redis  # only when a Redis URL is configured

            _REDIS = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2, decode_responses=True)
        return _REDIS


def shared_buckets(name: str, rate: float, burst: float) -> "TokenBuckets | RedisTokenBuckets":
    """Buckets shared by every replica (Redis) when one is configured, else this process's."""
    client = redis_client()
    return TokenBuckets(rate, burst) if client is None else RedisTokenBuckets(client, name, rate, burst)


class InFlight:
    """Requests under way at once: at most ``per_key`` for one key and ``total`` in the process."""

    def __init__(self, per_key: int, total: int) -> None:
        self.per_key, self.total = per_key, total
        self._counts: dict[str, int] = {}
        self._running = 0
        self._lock = threading.Lock()

    def acquire(self, key: str) -> bool:
        with self._lock:
            if self._running >= self.total or self._counts.get(key, 0) >= self.per_key:
                return False
            self._counts[key] = self._counts.get(key, 0) + 1
            self._running += 1
            return True

    def release(self, key: str) -> None:
        with self._lock:
            left = self._counts.get(key, 0) - 1
            if left > 0:
                self._counts[key] = left
            else:
                self._counts.pop(key, None)
            self._running = max(0, self._running - 1)

    def running(self, key: str | None = None) -> int:
        with self._lock:
            return self._running if key is None else self._counts.get(key, 0)
