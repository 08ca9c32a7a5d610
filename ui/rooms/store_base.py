"""What every room store is: the ``RoomStore`` protocol, and the helpers both stores share.

The stores: ``ui.rooms.memory_store`` (the server process's memory, the default) and
``ui.rooms.redis_store`` (Redis, ``PLAYGROUND_REDIS_URL``: the replicas behind nginx share rooms;
with Redis's append-only file fsynced on every write, ``deploy/redis.conf``, an acknowledged
point survives a replica dying or Redis restarting). ``ui.rooms.store`` chooses one per process.

Rules that must hold, for both (the same tests run against each, ``tests/test_room_store.py``):
- ``update(code, action)`` applies ``action`` (a function of the room dict, see ``ui.rooms.model``)
  atomically: no two updates of a room interleave (a lock in memory; a lock, WATCH and MULTI in
  Redis) and the room is written only if the action changed its ``version``.
- ``add(code, sid, key, x, y, label, seq, now, allow)`` is a student's add, exactly as the action
  ``model.adding`` applies it (the same answers and refusals, ``allow()`` asked once after the key
  is proved): in memory that action; in Redis one script that writes the new point alone.
- A room expires ``ttl`` seconds after its last change (a room the lecturer closed, kept only to
  tell its students, ``CLOSED_EXPIRY_SECONDS`` at most: ``lifetime``); at most ``MAX_ROOMS`` rooms
  at once (``room_full`` past them).
- ``version(code)`` is cheap (no room is parsed): what a projector or a student polls.
- The room cap holds under concurrent creates on every replica: ``RedisStore.create`` is one Lua
  script (drop the expired, count, claim a fresh code, index it) run atomically by Redis.
- A room's points are its biggest part (12,000 rows): in Redis an add appends one row and an
  action rewrites them only if it changed them (``ui.rooms.redis_store``).
- A round's lines (``predict``, ``lines``, ``line_count``, ``line``) are kept beside the room, by
  the round's id, never in it (a line changes no version: 500 lines do not make every poller
  fetch the figure again); a line is taken only while the room's round with that id is in its
  ``predict`` phase, checked atomically with the write (a lock in memory, one script in Redis),
  so no line lands after the lecturer moved on; one line per student, bounded by the room's students,
  and only the current round's lines are kept (with its first stage's).
- ``seen(code, sid, when)`` / ``presence(code)``: when each student last polled, kept beside the
  room (never in it: a poll writes no room), bounded by the room's students, expiring with it.
- What an action or a reader sees is a copy, never shared state (Redis: the JSON texts it keeps;
  memory: ``memory_store.copied``).
- A store that is away for a moment (Redis restarting) raises one of ``UNREACHABLE``: the page
  retries; a room that is not there is ``missing()`` (404).

This module imports neither store (each store imports it): the stores and the factory form no loop.
"""

from collections.abc import Callable
from typing import Protocol, TypeVar, runtime_checkable

from ui.text.i18n import N_

from .model import Room, RoomError
from .protocol import CLOSED_EXPIRY_SECONDS

try:  # the client is a dependency (requirements.txt), yet the memory store runs without it
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    UNREACHABLE: tuple[type[Exception], ...] = (ConnectionError, TimeoutError, RedisConnectionError, RedisTimeoutError)
except ImportError:
    UNREACHABLE = (ConnectionError, TimeoutError)

Result = TypeVar("Result")  # what a store's ``update`` action returns

_NO_ROOM = N_("There is no room with this code (it may have closed).")


@runtime_checkable
class RoomStore(Protocol):
    """Where rooms live, by their code: what the routes and the lecturer's panel call (the module's
    rules hold for every method)."""

    def create(self, room: Room) -> str:
        """Keeps a new room (``model.new_room``) under a fresh code, returned; ``room_full()`` when
        the store holds ``max_rooms`` live rooms."""
        ...

    def get(self, code: str) -> Room | None:
        """A copy of the room, or None when there is none (never created, expired or deleted)."""
        ...

    def version(self, code: str) -> int | None:
        """The room's version (bumped by every change), without reading the room; None: no room."""
        ...

    def update(self, code: str, action: Callable[[Room], Result]) -> Result:
        """``action(room)`` applied atomically to a copy, written back only if it changed the room's
        version; its result returned, its error raised; ``missing()`` when there is no room."""
        ...

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
        """A student's add, as ``model.adding`` answers it: (the point's id, the room's version)."""
        ...

    def predict(
        self, code: str, sid: object, key: object, line: object, allow: Callable[[], bool]
    ) -> tuple[int, list[float]]:
        """A student's line in the round taking lines, as ``model.predicting`` checks it (``allow()``
        asked once their key is proved): kept apart from the room (it changes no version), the
        student's earlier line of the round replaced; (the round's id, the line kept)."""
        ...

    def lines(self, code: str, round_id: int) -> dict[str, list[float]]:
        """sid -> the line the student sent in the round ``round_id`` (a copy)."""
        ...

    def line_count(self, code: str, round_id: int) -> int:
        """How many students sent a line in the round (cheap: what the projector polls)."""
        ...

    def line(self, code: str, round_id: int, sid: str) -> list[float] | None:
        """The student's line in the round, or None."""
        ...

    def delete(self, code: str) -> None:
        """Forgets the room, its rounds' lines and its students' presence (nothing when there is no room)."""
        ...

    def seen(self, code: str, sid: str, when: float) -> None:
        """Notes that student ``sid`` polled the room at ``when`` (a poll writes no room)."""
        ...

    def presence(self, code: str) -> dict[str, float]:
        """sid -> when each student of the room last polled (``seen``)."""
        ...


def lifetime(room: Room, ttl: float) -> float:
    """Seconds the room is kept after this change: a closed room only long enough to tell its students."""
    return min(ttl, CLOSED_EXPIRY_SECONDS) if room.get("closed") else ttl


def missing() -> RoomError:
    return RoomError(404, _NO_ROOM)


def room_full() -> RoomError:
    return RoomError(503, N_("The server holds as many rooms as it can; try again later."))
