"""Where rooms live: one small interface, two implementations.

- ``MemoryStore`` (the default): in the server process, so one ``streamlit run`` serves a class.
- ``RedisStore`` (``PLAYGROUND_REDIS_URL=redis://host:port/db``, ``ui.rooms.redis_store``): in
  Redis, so the replicas behind nginx share rooms; with Redis's append-only file fsynced on every
  write (``deploy/redis.conf``) an acknowledged point survives a replica dying or Redis restarting.

Rules that must hold, for both (the same tests run against each, ``tests/test_room_store.py``):
- ``update(code, action)`` applies ``action`` (a function of the room dict, see ``ui.rooms.model``)
  atomically: no two updates of a room interleave (a lock here; a lock, WATCH and MULTI in Redis)
  and the room is written only if the action changed its ``version``.
- ``add(code, sid, key, x, y, label, seq, now, allow)`` is a student's add, exactly as the action
  ``model.adding`` applies it (the same answers and refusals, ``allow()`` asked once after the key
  is proved): here that action; in Redis one script that writes the new point alone.
- A room expires ``ttl`` seconds after its last change (a room the lecturer closed, kept only to
  tell its students, ``CLOSED_EXPIRY_SECONDS`` at most); at most ``MAX_ROOMS`` rooms at once.
- ``version(code)`` is cheap (no room is parsed): what a projector or a student polls.
- The room cap holds under concurrent creates on every replica: ``RedisStore.create`` is one Lua
  script (drop the expired, count, claim a fresh code, index it) run atomically by Redis.
- A room's points are its biggest part (12,000 rows): in Redis an add appends one row and an
  action rewrites them only if it changed them (``ui.rooms.redis_store``).
- ``seen(code, sid, when)`` / ``presence(code)``: when each student last polled, kept beside the
  room (never in it: a poll writes no room), bounded by the room's students, expiring with it.
- What an action or a reader sees is a copy, never shared state (Redis: the JSON texts it keeps;
  memory: ``copied``).
"""

import json
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from ui.text.i18n import N_

from .model import Room, RoomError, adding, new_code
from .protocol import CLOSED_EXPIRY_SECONDS, EXPIRY_SECONDS, MAX_ROOMS

if TYPE_CHECKING:  # imported by room_store only when Redis is configured
    from .redis_store import RedisStore

Result = TypeVar("Result")  # what a store's ``update`` action returns

_NO_ROOM = N_("There is no room with this code (it may have closed).")


def lifetime(room: Room, ttl: float) -> float:
    """Seconds the room is kept after this change: a closed room only long enough to tell its students."""
    return min(ttl, CLOSED_EXPIRY_SECONDS) if room.get("closed") else ttl


def missing() -> RoomError:
    return RoomError(404, _NO_ROOM)


def room_full() -> RoomError:
    return RoomError(503, N_("The server holds as many rooms as it can; try again later."))


def copied(room: Room, rows: bool = True) -> Room:
    """A copy of a room that shares nothing that can change with it: the students' records copied
    one level down (they hold numbers and text), any other list or dict through JSON, and the
    points' rows copied too unless ``rows`` is false: an action's copy shares the rows, which no
    action changes in place (``ui.rooms.model`` appends, removes and replaces whole rows). For a
    room of 12,000 points well under a millisecond, where a JSON round trip takes 17 ms: what keeps
    a lecture hall's hundred adds a second within a core."""
    copy: Room = {}
    for name, value in room.items():
        if name == "points":
            copy[name] = [list(point) for point in value] if rows else list(value)
        elif name == "students":
            copy[name] = {sid: dict(student) for sid, student in value.items()}
        elif isinstance(value, (list, dict)):
            copy[name] = json.loads(json.dumps(value))
        else:
            copy[name] = value
    return copy


class MemoryStore:
    """Rooms in this process: {code: [room, version, expiry time]} under one lock; an action and a
    reader only ever see a ``copied`` room (the module's rule of copies), never the one kept."""

    def __init__(self, ttl=EXPIRY_SECONDS, max_rooms=MAX_ROOMS, clock=time.monotonic):
        self.ttl, self.max_rooms, self.clock = ttl, max_rooms, clock
        self._rooms = {}
        self._seen = {}  # code -> {sid: when}
        self._lock = threading.Lock()

    def _live(self, code):
        entry = self._rooms.get(code)
        if entry is not None and entry[2] <= self.clock():
            del self._rooms[code]
            return None
        return entry

    def create(self, room: Room) -> str:
        with self._lock:
            now = self.clock()
            for code in [c for c, entry in self._rooms.items() if entry[2] <= now]:
                del self._rooms[code]
            if len(self._rooms) >= self.max_rooms:
                raise room_full()
            code = new_code()
            while code in self._rooms:
                code = new_code()
            self._rooms[code] = [json.loads(json.dumps(room)), room["version"], now + self.ttl]
            return code

    def get(self, code: str) -> Room | None:
        with self._lock:
            entry = self._live(code)
            return None if entry is None else copied(entry[0])

    def version(self, code: str) -> int | None:
        with self._lock:
            entry = self._live(code)
            return None if entry is None else entry[1]

    def update(self, code: str, action: Callable[[Room], Result]) -> Result:
        with self._lock:
            entry = self._live(code)
            if entry is None:
                raise missing()
            room = copied(entry[0], rows=False)
            result = action(room)
            if room["version"] != entry[1]:
                self._rooms[code] = [room, room["version"], self.clock() + lifetime(room, self.ttl)]
            return result

    def add(
        self,
        code: str,
        sid: object,
        key: object,
        x: object,
        y: object,
        label: object,
        seq: object,
        now: float,
        allow: Callable[[], bool],
    ) -> tuple[int, int]:
        return self.update(code, adding(sid, key, x, y, label, seq, now, allow))

    def delete(self, code: str) -> None:
        with self._lock:
            self._rooms.pop(code, None)
            self._seen.pop(code, None)

    def seen(self, code: str, sid: str, when: float) -> None:
        with self._lock:
            if self._live(code) is not None:
                self._seen.setdefault(code, {})[sid] = when
            for gone in [c for c in self._seen if c not in self._rooms]:
                del self._seen[gone]

    def presence(self, code: str) -> dict[str, float]:
        with self._lock:
            return dict(self._seen.get(code, {}))


def __getattr__(name):
    """``RedisStore`` from here too (it imports this module's helpers: loaded when first named)."""
    if name == "RedisStore":
        from .redis_store import RedisStore

        return RedisStore
    raise AttributeError(name)


def _unreachable():
    """The errors of a store that is away for a moment (Redis restarting): the page retries."""
    try:
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError
    except ImportError:
        return (ConnectionError, TimeoutError)
    return (ConnectionError, TimeoutError, RedisConnectionError, RedisTimeoutError)


UNREACHABLE = _unreachable()
_STORE: "MemoryStore | RedisStore | None" = None
_STORE_LOCK = threading.Lock()


def room_store() -> "MemoryStore | RedisStore":
    """The process's store: Redis when ``PLAYGROUND_REDIS_URL`` is set, else this process's memory."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            url = os.environ.get("PLAYGROUND_REDIS_URL", "").strip()
            if url:
                from .redis_store import RedisStore

                _STORE = RedisStore(url)
            else:
                _STORE = MemoryStore()
        return _STORE
