"""Rooms in the server process's memory (the default store): one ``streamlit run`` serves a class.

Rules that must hold (the store's rules, ``ui.rooms.store_base``, hold too):
- Every room is kept as {code: [room, version, expiry time]} under one lock: an update, an add, a
  read and a create never interleave.
- An action and a reader only ever see a ``copied`` room, never the one kept; an action's copy
  shares the points' rows, which no action changes in place (``ui.rooms.model`` appends, removes
  and replaces whole rows).
- An expired room is dropped when next looked at, and all of them when a room is created (so the
  cap, ``max_rooms``, counts the live rooms only).
"""

import json
import threading
import time
from collections.abc import Callable

from .model import SLOW_DOWN, Room, RoomError, adding, check_student, new_code, predicting
from .protocol import EXPIRY_SECONDS, MAX_ROOMS
from .store_base import Result, lifetime, missing, room_full


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
        self._lines = {}  # code -> {round id: {sid: [x1, y1, x2, y2]}}
        self._lock = threading.Lock()

    def _live(self, code):
        entry = self._rooms.get(code)
        if entry is not None and entry[2] <= self.clock():
            del self._rooms[code]
            self._lines.pop(code, None)
            return None
        return entry

    def create(self, room: Room) -> str:
        with self._lock:
            now = self.clock()
            for code in [c for c, entry in self._rooms.items() if entry[2] <= now]:
                del self._rooms[code]
                self._lines.pop(code, None)
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

    def predict(
        self, code: str, sid: object, key: object, line: object, allow: Callable[[], bool]
    ) -> tuple[int, list[float]]:
        with self._lock:
            entry = self._live(code)
            if entry is None:
                raise missing()
            check_student(entry[0], sid, key)
            if not allow():
                raise RoomError(429, SLOW_DOWN)
            round_id, kept = predicting(entry[0], sid, key, line)
            rounds = self._lines.setdefault(code, {})
            for old in [n for n in rounds if n not in (round_id, entry[0]["round"]["first"])]:
                del rounds[old]  # a room keeps its current round's lines (and its first stage's) alone
            rounds.setdefault(round_id, {})[sid] = kept
            return round_id, list(kept)

    def lines(self, code: str, round_id: int) -> dict[str, list[float]]:
        with self._lock:
            return {sid: list(line) for sid, line in self._lines.get(code, {}).get(round_id, {}).items()}

    def line_count(self, code: str, round_id: int) -> int:
        with self._lock:
            return len(self._lines.get(code, {}).get(round_id, {}))

    def line(self, code: str, round_id: int, sid: str) -> list[float] | None:
        with self._lock:
            kept = self._lines.get(code, {}).get(round_id, {}).get(sid)
            return None if kept is None else list(kept)

    def delete(self, code: str) -> None:
        with self._lock:
            self._rooms.pop(code, None)
            self._lines.pop(code, None)
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
