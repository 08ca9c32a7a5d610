"""Rooms in Redis (``PLAYGROUND_REDIS_URL``), kept in parts so that a student's add writes one point.

A room ``CODE`` is five keys (and one a prediction round), expiring together (``store_base.lifetime``), and one entry of
``pg:rooms`` (a sorted set: code -> expiry time) that bounds their number:
- ``pg:room:CODE``: a hash, the room's small fields (version, scene, flags, limit, token...), each
  the JSON text of its value; ``version`` and ``next_pid`` plain integers (HINCRBY).
- ``pg:room:CODE:s``: a hash, sid -> JSON ``[ordinal, record]`` (the student's nickname, key
  digest, class, joined; the ordinal keeps the order they joined in, which a big hash forgets).
- ``pg:room:CODE:a``: a hash, sid -> JSON ``[seq, pid, seen, count]``: what an add changes of a
  student (their last seq and its point, when last seen, how many points they hold).
- ``pg:room:CODE:p``: a list, the points' rows as JSON, oldest first.
- ``pg:room:CODE:lock``: held (SET NX PX) by a replica running a read-modify-write.
- ``pg:room:CODE:r:ID``: a hash, sid -> JSON line, the lines of the prediction round ``ID``
  (``ui.rooms.rounds``), kept as long as the room while the round is the room's (its first
  stage's too), deleted when the room moves to another round and with the room.

Rules that must hold (the store's rules, ``ui.rooms.store_base``, hold too):
- An add (``add``) is one Lua script (``_ADD_SCRIPT``), atomic in Redis, that checks what
  ``ui.rooms.model.add_point`` checks, in its order (the room, the student, a retried seq, paused,
  the student's limit, the room's cap, the window, the class), RPUSHes one row and bumps the
  version: no WATCH, no retry on another replica's add, no read of the room's points. The
  student's key is proved in Python first (constant time, ``model.check_student``); the script
  then checks the record still holds that digest.
- Any other action (``update``) reads the room under the room's lock and WATCH, applies the
  action and writes only the parts it changed: the points only if they changed (appended rows as
  RPUSH, one removed as LREM, else the list anew); the points are read only if the action looks
  at them (``_Room``). While the lock is held adds wait (the script answers ``busy``), so a
  lecturer's action is never starved by a hall's adds; a lock whose replica died lapses.
- A reader (``get``) reads the points past those it read last (its replica's cache, parsed):
  within one epoch of the points (the header's ``~points``, bumped by any write of the points
  but appending) the list only grows; another epoch, or another room, is read whole.
- Every write is a script or a MULTI/EXEC: with the append-only file fsynced on every write
  (``deploy/redis.conf``) an acknowledged point survives a replica dying or Redis restarting.
"""

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence

from .model import (
    SLOW_DOWN,
    Room,
    RoomError,
    add_seq,
    check_student,
    chosen_label,
    new_code,
    placed,
    predicting,
    refused,
)
from .protocol import EXPIRY_SECONDS, MAX_POINTS, MAX_ROOMS
from .rounds import NOT_NOW
from .store_base import Result, lifetime, missing, room_full

_LOCK_MS = 5000  # a lock outlives any read-modify-write; one whose replica died lapses after it
_WAIT_SECONDS = 10.0  # an add or an action waits this long for a lock, then the page retries
_NO_STATE = [-1, None, 0.0, 0]
_EPOCH = "~points"  # a header field, not the room's: bumped when the points change but by appending
_CACHED_ROOMS = 32  # rooms whose parsed points a replica keeps (a 12,000-point room: ~3 MB)

# KEYS: the index, the header, the points; ARGV: now, expiry, cap, code, ttl in ms, the number
# of header fields, then field, value pairs, then the points' rows. No two replicas both see 499
# rooms and both create the 500th.
_CREATE_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
if redis.call('EXISTS', KEYS[2]) == 1 then return -1 end
local fields = tonumber(ARGV[6])
for i = 7, 6 + 2 * fields, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
for i = 7 + 2 * fields, #ARGV do redis.call('RPUSH', KEYS[3], ARGV[i]) end
redis.call('PEXPIRE', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
return 1
"""

# KEYS: header, students, add states, points, lock, index. ARGV: 1 sid, 2 seq, 3 now (JSON),
# 4 kx ("" outside the window), 5 ky, 6 the chosen class (-1: none), 7 the room's point cap,
# 8 ttl in ms, 9 the index's expiry time, 10 code, 11 sid as JSON, 12 the key digest proved.
# Answers {reason} ({"limit", the room's limit}) or {"retry", pid as JSON, version} or {"added", pid, version}.
_ADD_SCRIPT = """
if redis.call('EXISTS', KEYS[5]) == 1 then return {'busy'} end
local h = redis.call('HMGET', KEYS[1], 'version', 'locked', 'limit', 'classes', 'everyone', 'next_pid')
if not h[1] then return {'gone'} end
local record = redis.call('HGET', KEYS[2], ARGV[1])
if not record then return {'student'} end
local student = cjson.decode(record)[2]
if student['key'] ~= ARGV[12] then return {'student'} end
local state = redis.call('HGET', KEYS[3], ARGV[1])
state = state and cjson.decode(state) or {-1, cjson.null, 0, 0}
if tonumber(ARGV[2]) <= state[1] then return {'retry', cjson.encode(state[2]), tonumber(h[1])} end
if h[2] == 'true' then return {'locked'} end
if state[4] >= tonumber(h[3]) then return {'limit', h[3]} end
if redis.call('LLEN', KEYS[4]) >= tonumber(ARGV[7]) then return {'full'} end
if ARGV[4] == '' then return {'window'} end
local label
if h[5] ~= 'null' then
  label = tonumber(h[5])
elseif student['class'] ~= nil and student['class'] ~= cjson.null then
  label = student['class']
else
  label = tonumber(ARGV[6])
  if label < 0 or label >= tonumber(h[4]) then return {'label'} end
end
local pid = string.format('%d', tonumber(h[6]))
local row = '[' .. ARGV[4] .. ', ' .. ARGV[5] .. ', ' .. string.format('%d', label) .. ', ' .. ARGV[11]
redis.call('RPUSH', KEYS[4], row .. ', ' .. pid .. ']')
redis.call('HINCRBY', KEYS[1], 'next_pid', 1)
local version = redis.call('HINCRBY', KEYS[1], 'version', 1)
redis.call('HSET', KEYS[1], 'touched', ARGV[3])
local count = string.format('%d', state[4] + 1)
redis.call('HSET', KEYS[3], ARGV[1], '[' .. ARGV[2] .. ', ' .. pid .. ', ' .. ARGV[3] .. ', ' .. count .. ']')
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[8]) end
redis.call('ZADD', KEYS[6], ARGV[9], ARGV[10])
return {'added', pid, version}
"""

# KEYS: header, students, the round's lines. ARGV: 1 sid, 2 the round's id, 3 the key digest
# proved, 4 the line as JSON, 5 ttl in ms. Answers {"gone"}, {"student"}, {"phase"} or {"kept"}.
_PREDICT_SCRIPT = """
if not redis.call('HGET', KEYS[1], 'version') then return {'gone'} end
local record = redis.call('HGET', KEYS[2], ARGV[1])
if not record or cjson.decode(record)[2]['key'] ~= ARGV[3] then return {'student'} end
local text = redis.call('HGET', KEYS[1], 'round')
local current = text and cjson.decode(text) or cjson.null
if current == cjson.null or current['phase'] ~= 'predict' or current['id'] ~= tonumber(ARGV[2]) then
  return {'phase'}
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
return {'kept'}
"""

_UNLOCK_SCRIPT = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class _Room(dict):
    """A room read from Redis whose points are read only when an action first asks for them
    (``room["points"]``; the model never reaches them another way)."""

    def __init__(self, fields, load_points):
        super().__init__(fields)
        self._load_points = load_points
        self.point_texts = None  # the rows as Redis holds them, once read
        self.points_read = None  # the rows as read (a shallow copy: the model replaces rows whole)

    def __missing__(self, name):
        if name != "points":
            raise KeyError(name)
        self.point_texts = self._load_points()
        rows = [json.loads(text) for text in self.point_texts]
        self.points_read = list(rows)
        self["points"] = rows
        return rows


def _counts(points: Iterable[Sequence[object]]) -> dict[object, int]:
    """How many points each class (a row's fourth field) has."""
    counts: dict[object, int] = {}
    for point in points:
        counts[point[3]] = counts.get(point[3], 0) + 1
    return counts


class RedisStore:
    """The store's protocol (``store_base.RoomStore``) on Redis: see the module's rules."""

    PREFIX = "pg:room:"
    INDEX = "pg:rooms"

    def __init__(self, url, ttl=EXPIRY_SECONDS, max_rooms=MAX_ROOMS, max_points=MAX_POINTS):
        import redis  # only when a Redis URL is configured

        self.redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=3, decode_responses=True)
        self._watch_error = redis.WatchError
        self.ttl, self.max_rooms, self.max_points = ttl, max_rooms, max_points
        self._create = self.redis.register_script(_CREATE_SCRIPT)
        self._add = self.redis.register_script(_ADD_SCRIPT)
        self._unlock = self.redis.register_script(_UNLOCK_SCRIPT)
        self._predict = self.redis.register_script(_PREDICT_SCRIPT)
        self._points = OrderedDict()  # code -> (token digest, epoch, rows): what get last read
        self._points_lock = threading.Lock()

    def _keys(self, code):
        """header, students, add states, points, lock."""
        key = self.PREFIX + code
        return key, key + ":s", key + ":a", key + ":p", key + ":lock"

    def create(self, room: Room) -> str:
        header = [part for name, value in room.items() if name not in ("points", "students") for part in (name, value)]
        header = [text if i % 2 == 0 else json.dumps(text) for i, text in enumerate(header)]
        rows = [json.dumps(point) for point in room["points"]]
        ms = int(self.ttl * 1000)
        while True:
            code = new_code()
            key, _students, _states, points, _lock = self._keys(code)
            now = time.time()
            created = self._create(
                keys=[self.INDEX, key, points],
                args=[now, now + self.ttl, self.max_rooms, code, ms, len(header) // 2, *header, *rows],
            )
            if int(created) == 0:
                raise room_full()
            if int(created) == 1:
                return code
            # -1: the code is taken (one chance in billions): draw another

    def _room(self, header, students, states, load_points):
        """The room dict the model knows, from the hashes' texts (``_Room``: points read lazily)."""
        fields = {name: json.loads(text) for name, text in header.items() if name != _EPOCH}
        ordered = sorted((json.loads(text) + [sid] for sid, text in students.items()), key=lambda entry: entry[0])
        fields["students"] = {}
        for _ordinal, record, sid in ordered:
            seq, pid, seen, _count = json.loads(states[sid]) if sid in states else _NO_STATE
            fields["students"][sid] = {**record, "seq": seq, "pid": pid, "seen": seen}
        return _Room(fields, load_points)

    def get(self, code: str) -> Room | None:
        """The room, its points read only from the row past those this replica read last (within
        one epoch the list only grows: a room's hundred adds a second are rows appended)."""
        key, students, states, points, _lock = self._keys(code)
        with self._points_lock:
            cached = self._points.get(code)
        start = len(cached[2]) if cached is not None else 0
        with self.redis.pipeline() as pipe:  # MULTI/EXEC: the parts of one version
            # One call a statement: redis-py's stubs type a call as returning its result, not the pipeline.
            pipe.hgetall(key)
            pipe.hgetall(students)
            pipe.hgetall(states)
            pipe.lrange(points, start, -1)
            header, student_texts, state_texts, point_texts = pipe.execute()
        if not header:
            with self._points_lock:
                self._points.pop(code, None)
            return None
        known = (header.get("token"), header.get(_EPOCH, "0"))
        if start and (cached is None or cached[:2] != known):
            with self._points_lock:  # cleared, undone or another room: read them all
                self._points.pop(code, None)
            return self.get(code)
        rows = (cached[2] if start and cached is not None else []) + [json.loads(text) for text in point_texts]
        with self._points_lock:
            self._points[code] = (*known, rows)
            self._points.move_to_end(code)
            while len(self._points) > _CACHED_ROOMS:
                self._points.popitem(last=False)
        room = self._room(header, student_texts, state_texts, lambda: point_texts)
        return dict(room, points=[list(row) for row in rows])  # a copy: the cache's rows stay ours

    def version(self, code: str) -> int | None:
        value = self.redis.hget(self._keys(code)[0], "version")
        return None if value is None else int(value)

    def _wait(self, attempt):
        if time.monotonic() > attempt:
            raise ConnectionError("the room stayed locked")  # store_base.UNREACHABLE: the page retries
        time.sleep(0.002 + secrets.randbelow(4) / 1000)

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
        """A student's add: (the point's id, the room's version), as ``model.adding`` gives it."""
        keys = self._keys(code)
        with self.redis.pipeline(transaction=False) as pipe:  # one round trip
            pipe.hmget(keys[0], ["version", "scene"])
            pipe.hget(keys[1], sid if isinstance(sid, str) else "")
            header, record = pipe.execute()
        if header[0] is None:
            raise missing()
        student = json.loads(record)[1] if record is not None else None
        check_student({"students": {sid: student} if student is not None else {}}, sid, key)
        assert student is not None  # check_student refused a student the room does not hold
        if not allow():
            raise RoomError(429, SLOW_DOWN)
        seq = add_seq(seq)
        where = placed(json.loads(header[1])["w"], x, y)
        chosen = chosen_label(label)
        ms = int(self.ttl * 1000)
        args = [sid, seq, json.dumps(now), *(where or ("", "")), -1 if chosen is None else chosen]
        args += [self.max_points, ms, time.time() + self.ttl, code, json.dumps(sid), student["key"]]
        deadline = time.monotonic() + _WAIT_SECONDS
        while True:
            answer = self._add(keys=[*keys[:5], self.INDEX], args=args)
            if answer[0] != "busy":
                break
            self._wait(deadline)
        if answer[0] == "gone":
            raise missing()
        if answer[0] == "student":  # removed meanwhile
            check_student({"students": {}}, sid, key)
        if answer[0] in ("retry", "added"):
            return json.loads(answer[1]), int(answer[2])
        if answer[0] == "limit":
            raise refused("limit", limit=int(answer[1]))
        raise refused(answer[0])

    def update(self, code: str, action: Callable[[Room], Result]) -> Result:
        key, students, states, points, lock = self._keys(code)
        token = secrets.token_hex(8)
        deadline = time.monotonic() + _WAIT_SECONDS
        while not self.redis.set(lock, token, nx=True, px=_LOCK_MS):
            self._wait(deadline)
        try:
            with self.redis.pipeline() as pipe:
                while True:
                    try:
                        pipe.watch(key)
                        header = pipe.hgetall(key)
                        if not header:
                            raise missing()
                        student_texts, state_texts = pipe.hgetall(students), pipe.hgetall(states)
                        room = self._room(header, student_texts, state_texts, lambda: pipe.lrange(points, 0, -1))
                        before = room["version"]
                        result = action(room)
                        if room["version"] == before:
                            pipe.unwatch()
                            return result
                        pipe.multi()
                        self._write(pipe, code, room, header, student_texts, state_texts)
                        pipe.execute()
                        return result
                    except self._watch_error:
                        continue  # the lock lapsed and another replica wrote meanwhile: again
        finally:
            self._unlock(keys=[lock], args=[token])

    def _write(self, pipe, code, room, header, student_texts, state_texts):
        """The parts of ``room`` that differ from what was read (queued in ``pipe``'s MULTI)."""
        key, students, states, points, _lock = self._keys(code)
        fresh = {name: json.dumps(value) for name, value in room.items() if name not in ("points", "students")}
        changed = {name: text for name, text in fresh.items() if header.get(name) != text}
        if changed:
            pipe.hset(key, mapping=changed)
        if set(header) - set(fresh) - {_EPOCH}:
            pipe.hdel(key, *(set(header) - set(fresh) - {_EPOCH}))
        counts = _counts(room["points"]) if "points" in room else None
        ordinals = [json.loads(text)[0] for text in student_texts.values()]
        next_ordinal = max(ordinals, default=-1) + 1
        for sid, student in room["students"].items():
            record = {name: value for name, value in student.items() if name not in ("seq", "pid", "seen")}
            if sid in student_texts:
                ordinal = json.loads(student_texts[sid])[0]
            else:
                ordinal, next_ordinal = next_ordinal, next_ordinal + 1
            text = json.dumps([ordinal, record])
            if student_texts.get(sid) != text:
                pipe.hset(students, sid, text)
            old = json.loads(state_texts[sid]) if sid in state_texts else _NO_STATE
            count = counts.get(sid, 0) if counts is not None else old[3]
            state = json.dumps([student["seq"], student["pid"], student["seen"], count])
            if state_texts.get(sid) != state:
                pipe.hset(states, sid, state)
        gone = [sid for sid in student_texts if sid not in room["students"]]
        if gone:
            pipe.hdel(students, *gone).hdel(states, *gone)
        if "points" in room:
            self._write_points(pipe, key, points, room)
        ms = int(lifetime(room, self.ttl) * 1000)
        current = room.get("round")
        kept = [self._lines_key(code, n) for n in (current["id"], current["first"]) if n] if current else []
        before = json.loads(header["round"]) if header.get("round") else None
        if before:  # a room keeps its current round's lines (and its first stage's) alone
            spent = {self._lines_key(code, n) for n in (before["id"], before["first"]) if n} - set(kept)
            if spent:
                pipe.delete(*spent)
        for name in (key, students, states, points, *kept):
            pipe.pexpire(name, ms)
        pipe.zadd(self.INDEX, {code: time.time() + lifetime(room, self.ttl)})

    def _write_points(self, pipe, key, points, room):
        """Rows appended: RPUSH them; one row removed: LREM it; anything else: the list anew."""
        rows, read, texts = room["points"], room.points_read, room.point_texts
        if read is not None and rows == read:
            return
        if read is not None and len(rows) > len(read) and rows[: len(read)] == read:
            pipe.rpush(points, *(json.dumps(row) for row in rows[len(read) :]))
            return
        if read is not None and len(rows) == len(read) - 1:
            index = next((i for i, row in enumerate(rows) if row != read[i]), len(rows))
            if rows[index:] == read[index + 1 :]:
                pipe.lrem(points, 1, texts[index]).hincrby(key, _EPOCH, 1)
                return
        pipe.delete(points).hincrby(key, _EPOCH, 1)
        if rows:
            pipe.rpush(points, *(json.dumps(row) for row in rows))

    def _lines_key(self, code, round_id):
        return f"{self.PREFIX}{code}:r:{int(round_id)}"

    def predict(
        self, code: str, sid: object, key: object, line: object, allow: Callable[[], bool]
    ) -> tuple[int, list[float]]:
        """The model's checks in Python (the key proved in constant time), then one script that
        keeps the line only if the round with that id still takes lines and the student is still
        in the room: a lecturer's next phase and a line never cross."""
        header_key, students = self._keys(code)[:2]
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(header_key, ["version", "scene", "round"])
            pipe.hget(students, sid if isinstance(sid, str) else "")
            header, record = pipe.execute()
        if header[0] is None:
            raise missing()
        student = json.loads(record)[1] if record is not None else None
        room: Room = {"students": {sid: student} if student is not None else {}}
        check_student(room, sid, key)
        assert student is not None and isinstance(sid, str)  # check_student refused anyone else
        if not allow():
            raise RoomError(429, SLOW_DOWN)
        room |= {"scene": json.loads(header[1]), "round": json.loads(header[2]) if header[2] else None}
        round_id, kept = predicting(room, sid, key, line)
        ms = int(self.ttl * 1000)
        lines_key = self._lines_key(code, round_id)
        answer = self._predict(
            keys=[header_key, students, lines_key], args=[sid, round_id, student["key"], json.dumps(kept), ms]
        )
        if answer[0] == "gone":
            raise missing()
        if answer[0] == "student":
            check_student({"students": {}}, sid, key)
        if answer[0] == "phase":
            raise RoomError(409, NOT_NOW)
        return round_id, kept

    def lines(self, code: str, round_id: int) -> dict[str, list[float]]:
        texts = self.redis.hgetall(self._lines_key(code, round_id))
        return {str(sid): json.loads(text) for sid, text in texts.items()}  # str: decode_responses

    def line_count(self, code: str, round_id: int) -> int:
        return int(self.redis.hlen(self._lines_key(code, round_id)))

    def line(self, code: str, round_id: int, sid: str) -> list[float] | None:
        text = self.redis.hget(self._lines_key(code, round_id), sid)
        return None if text is None else json.loads(text)

    def delete(self, code: str) -> None:
        rounds = self.redis.hget(self._keys(code)[0], "rounds")
        spent = [self._lines_key(code, n) for n in range(1, int(json.loads(rounds) or 0) + 1)] if rounds else []
        self.redis.delete(*self._keys(code), self.PREFIX + code + ":seen", *spent)
        self.redis.zrem(self.INDEX, code)

    def seen(self, code: str, sid: str, when: float) -> None:
        key = self.PREFIX + code + ":seen"
        with self.redis.pipeline() as pipe:  # kept as long as the room may be (its ttl from now)
            pipe.hset(key, sid, when)
            pipe.pexpire(key, int(self.ttl * 1000))
            pipe.execute()

    def presence(self, code: str) -> dict[str, float]:
        seen = self.redis.hgetall(self.PREFIX + code + ":seen")
        return {sid: float(when) for sid, when in seen.items() if isinstance(sid, str)}  # str: decode_responses
