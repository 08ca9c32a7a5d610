"""Who may do what in the rooms, how often: the per-address limits, the room settings from the
environment, and the open token that proves a live session of the app.

Rules that must hold:
- Every limit is keyed on what the client cannot choose: its address as the trusted proxies report
  it (``address_key``: an IPv6 address counts as its /64, what one household or host is given), or
  a student id the room issued and the request proved with its key. Every limit is a
  ``ui.server.limits.shared_buckets``: one allowance across replicas when Redis is configured.
- A classroom behind one address is never locked out by its own mistyping: a miss (a code that
  names no room, a student id or key the room does not know, a wrong control token) spends one of
  ``MISSES`` (a burst of 300, then one a second); only an address out of misses is refused
  wherever it is not a member. At that rate, with at most ``MAX_ROOMS`` rooms open, hitting any
  room takes ``guess_years()`` years on average (about 54): see docs/rooms.md, "Guessing a code".
- A join that takes a seat spends one of the address's ``SEATS`` (a burst of 200, then two a
  second): sixty students behind one school router join at once, and one client needs minutes,
  not seconds, for the 600 seats of a room (``PLAYGROUND_ROOM_SEATS``), whose unused seats come
  back (``ui.rooms.model.reclaim``).
- Opening a room needs an ``open_token`` (HMAC-SHA256 over a ten-minute slot with the server's
  secret: ``PLAYGROUND_SECRET``, else one random secret kept in Redis for every replica, else one
  per process) minted by a session of the app, and spends one of the address's ``OPENS``.
"""

import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from ui.server.limits import RedisTokenBuckets, TokenBuckets, redis_client, shared_buckets

from .protocol import CODE_ALPHABET, CODE_LENGTH, MAX_ROOMS

Buckets = TokenBuckets | RedisTokenBuckets


# (rate per second, burst) of each per-address limit, and the per-student one.
MISS_LIMIT = (1.0, 300.0)
SEAT_LIMIT = (2.0, 200.0)
OPEN_LIMIT = (0.1, 5.0)
STUDENT_LIMIT = (2.0, 10.0)  # adds, undos and lines of one student (a sid the room issued, with its key)

SLOT_SECONDS = 600  # an open token is good for its slot and the next: 10 to 20 minutes
_OPEN_TOKEN = re.compile(r"(?P<slot>[0-9]{1,12})\.(?P<signature>[0-9a-f]{32})", re.ASCII)


def guess_years(rooms: int = MAX_ROOMS, rate: float = MISS_LIMIT[0]) -> float:
    """The mean time in years for one address guessing at ``rate`` a second to name any of ``rooms``
    open rooms (codes are uniform over the alphabet: one hit per space / rooms guesses)."""
    space = len(CODE_ALPHABET) ** CODE_LENGTH
    return space / rooms / rate / (365.25 * 24 * 3600)


def address_key(address: str) -> str:
    """The key of an address for the limits: an IPv6 address's /64, any other address itself."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class Limits:
    """The room limits, made on first use so the environment (Redis) is read when serving."""

    def __init__(self, make: Callable[[str, float, float], Buckets] = shared_buckets) -> None:
        self._make = make
        self._made: dict[str, Buckets] = {}
        self._lock = threading.Lock()

    def _get(self, name: str, rate_burst: tuple[float, float]) -> Buckets:
        with self._lock:
            if name not in self._made:
                self._made[name] = self._make(f"room-{name}", *rate_burst)
            return self._made[name]

    @property
    def misses(self) -> Buckets:
        return self._get("misses", MISS_LIMIT)

    @property
    def seats(self) -> Buckets:
        return self._get("seats", SEAT_LIMIT)

    @property
    def opens(self) -> Buckets:
        return self._get("opens", OPEN_LIMIT)

    @property
    def students(self) -> Buckets:
        return self._get("students", STUDENT_LIMIT)

    def reset(self) -> None:
        """Forget every bucket (tests; a new Redis URL)."""
        with self._lock:
            self._made.clear()


LIMITS = Limits()

_SECRET: dict[str, bytes] = {}
_SECRET_LOCK = threading.Lock()


def server_secret() -> bytes:
    """``PLAYGROUND_SECRET``, else the replicas' shared random secret in Redis, else this process's."""
    configured = os.environ.get("PLAYGROUND_SECRET", "")
    if configured:
        return configured.encode()
    with _SECRET_LOCK:
        if "secret" not in _SECRET:
            client: Any = redis_client()
            secret = secrets.token_hex(32)
            if client is not None:
                try:
                    client.set("pg:secret", secret, nx=True)
                    secret = client.get("pg:secret") or secret
                except Exception:  # noqa: BLE001  (Redis away: this process's own secret)
                    pass
            _SECRET["secret"] = secret.encode()
        return _SECRET["secret"]


def _signature(slot: int) -> str:
    return hmac.new(server_secret(), f"room-open:{slot}".encode(), hashlib.sha256).hexdigest()[:32]


def open_token(now: float | None = None) -> str:
    """A token proving a session of the app minted it (good for 10 to 20 minutes)."""
    slot = int((time.time() if now is None else now) // SLOT_SECONDS)
    return f"{slot}.{_signature(slot)}"


def valid_open_token(token: object, now: float | None = None) -> bool:
    """Whether ``token`` is an ``open_token`` of this slot or the one before (constant-time). Its
    shape is checked first (digits, a dot, 32 hex digits: ``_OPEN_TOKEN``), so nothing else is
    ever encoded or compared."""
    found = _OPEN_TOKEN.fullmatch(token) if isinstance(token, str) and len(token) <= 64 else None
    if found is None:
        return False
    slot = int(found["slot"])
    current = int((time.time() if now is None else now) // SLOT_SECONDS)
    expected = _signature(slot).encode()
    return slot in (current, current - 1) and hmac.compare_digest(found["signature"].encode(), expected)


class Presence:
    """When each student of a room was last seen polling, written to the store at most every
    ``every`` seconds per student (a poll every 1.5 s must not write every time)."""

    def __init__(self, every: float = 15.0, max_keys: int = 65536) -> None:
        self.every, self.max_keys = every, max_keys
        self._written: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()

    def due(self, code: str, sid: str, now: float) -> bool:
        """Whether the store should hear of (code, sid) now (and note that it does)."""
        key = (code, sid)
        with self._lock:
            last = self._written.get(key)
            if last is not None and now - last < self.every:
                return False
            self._written.pop(key, None)
            self._written[key] = now
            while len(self._written) > self.max_keys:
                self._written.popitem(last=False)
            return True


PRESENCE = Presence()
