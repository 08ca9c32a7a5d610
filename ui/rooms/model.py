"""A room as one JSON-able dict, and every action on it: pure functions, no I/O.

A store (``ui.rooms.store_base``, chosen by ``ui.rooms.store``) keeps the dict ``new_room``
makes (Redis in parts, its points a list: ``ui.rooms.redis_store``) and applies one action at a
time to it, atomically (a lock in the process, a lock and a transaction in Redis). A student's
add in Redis is a script that checks what ``add_point`` checks, in its order, with its refusals
(``ADD_REFUSALS``).

Rules that must hold:
- Points are kept as their grid integers (``playground.scene.grid_integers``), so the room's
  points are exact and ``frozen_query`` writes them into an ordinary link bit for bit.
- The control token and the students' keys are kept only as SHA-256 digests and compared with
  ``hmac.compare_digest``; every lecturer action needs the token, every student action the
  student's own key, and a student acts only on their own points.
- A room is bounded: ``MAX_STUDENTS`` seats, ``MAX_POINTS`` points, ``limit`` points per
  student; a student's ``seq`` makes a retried add count once (its answer is the first one's).
- Seats come back (``reclaim``): a student holds a seat while they poll or act (``IDLE_SECONDS``)
  and for ``SEAT_GRACE_SECONDS`` after joining; one who left without a point is forgotten, one who
  left with points keeps them (and their key) without holding a seat. The lecturer can remove a
  student (``expel``, their points too if they choose) and close the door to new joiners.
- Every number from a request is read through ``number`` / ``_whole``: a value of any type or size
  (a 400-digit integer) is a 400, never a server error.
- Nicknames are visitors' text, cleaned like class names (``playground.scene.clean_class_name``)
  and shown as text only. Nothing personal is kept: a nickname, a count, a digest.
- Every sentence is a message for the catalogs (``N_``), translated where it is shown.
"""

import hashlib
import hmac
import secrets
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeAlias, TypeGuard

import numpy as np

from playground import MODELS, Message, Window
from playground.link import decode_scene, encode_scene
from playground.scene import (
    DEFAULT_METHOD,
    GRID_SCALE,
    MAX_CLASSES,
    PointSet,
    Scene,
    clean_class_name,
    grid_integers,
    snap,
)
from ui.plot.canvas_protocol import number
from ui.server.visitor_input import secret as secret_text
from ui.text.i18n import N_

from . import rounds
from .protocol import (
    CODE_ALPHABET,
    CODE_LENGTH,
    DEFAULT_PER_STUDENT,
    IDLE_SECONDS,
    MAX_PER_STUDENT,
    MAX_POINTS,
    MAX_STUDENTS,
    SEAT_GRACE_SECONDS,
    RoomSettings,
    StudentView,
    text,
)
from .protocol import clean_code as clean_code  # the panel's and the tests' name for it

Room: TypeAlias = dict[str, Any]  # a room's record as the store keeps it (JSON: the fields ``new_room`` sets)
LECTURER = ""  # the owner of the points the lecturer's scene brought into the room
_SCENE_FIELDS = ("v", "m", "mp", "mc", "b", "bp", "w", "seed", "names")  # the room keeps all but points and step


class RoomError(Exception):
    """An action the room refuses: an HTTP ``status`` and a sentence, a ``Message`` of a template
    for the catalogs and its arguments (``phrased`` translates and fills it where it is shown)."""

    def __init__(self, status: int, sentence: str, **args: object) -> None:
        message = Message(sentence, **args)
        super().__init__(message)
        self.status, self.sentence = status, message


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: object, stored: str) -> TypeGuard[str]:  # true only for a str
    # A secret is the server's alphabet or nothing (``ui.server.visitor_input.secret``); digest
    # both sides first: compare_digest is constant-time for equal lengths.
    return secret_text(secret) != "" and hmac.compare_digest(digest(str(secret)), stored)


def new_room(query: object, now: float) -> tuple[Room, str]:
    """(room, token): a room of the lecturer's scene (a link query), its points the lecturer's."""
    scene, _messages = decode_scene(query if isinstance(query, dict) else {})
    if not isinstance(scene.window, Window):
        scene = replace(scene, window=Window())
    token = secrets.token_urlsafe(24)
    points = scene.points.training
    k = grid_integers(points.X).tolist()
    labels = points.y.tolist()
    room = {
        "version": 1,
        "scene": {name: value for name, value in encode_scene(scene).items() if name in _SCENE_FIELDS},
        "points": [[kx, ky, int(label), LECTURER, pid] for pid, ((kx, ky), label) in enumerate(zip(k, labels))][
            :MAX_POINTS
        ],
        "next_pid": len(labels),
        "students": {},
        "locked": False,
        "hidden": False,
        "door_closed": False,
        "limit": DEFAULT_PER_STUDENT,
        "classes": max(2, min(MAX_CLASSES, max(labels, default=0) + 1)),
        "everyone": None,
        "round": None,  # a prediction round (``ui.rooms.rounds``), or None
        "rounds": 0,  # rounds started: the next round's id is one more
        "token": digest(token),
        "touched": now,
    }
    return room, token


def scene_of(room: Room) -> Scene:
    """The room's scene: its settings and all its points, exactly."""
    scene, _messages = decode_scene(room["scene"])
    if not room["points"]:
        return scene.with_points(PointSet())
    rows = np.asarray([p[:3] for p in room["points"]], dtype=np.int64)
    X = rows[:, :2].astype(float) / GRID_SCALE  # as playground.link decodes: the same float64 values
    return scene.with_points(PointSet.from_arrays(X, rows[:, 2]))


def frozen_query(room: Room) -> dict[str, str]:
    """The room as an ordinary link's query (its points exact): what "freeze" gives the lecturer."""
    return encode_scene(scene_of(room))


def freeze(room: Room, now: float) -> dict[str, str]:
    """``frozen_query(room)``, kept in the room too: its students are shown the link once it closes."""
    query = frozen_query(room)
    if room.get("frozen") != query:
        room["frozen"] = query
        _changed(room, now)
    return query


def close(room: Room, now: float) -> None:
    """The lecturer closed the room: its points and students go; what stays until it expires is
    that it closed and the frozen link's query, if the lecturer froze it (what students are shown)."""
    room.update(closed=True, points=[], students={}, locked=True)
    _changed(room, now)


def settings(room: Room) -> RoomSettings:
    return RoomSettings(
        locked=room["locked"],
        hidden=room["hidden"],
        limit=room["limit"],
        classes=room["classes"],
        everyone=room["everyone"],
        method=room["scene"].get("m", DEFAULT_METHOD),
        names=list(decode_scene({"names": room["scene"]["names"]})[0].class_names) if "names" in room["scene"] else [],
        door_closed=room.get("door_closed", False),
        round=rounds.public(room.get("round")),
    )


def student_view(room: Room, sid: object) -> StudentView | None:
    """The student's own points ([x, y], oldest first), their assigned class and their count."""
    student = room["students"].get(sid) if isinstance(sid, str) else None
    if student is None:
        return None
    own = [[p[0] / GRID_SCALE, p[1] / GRID_SCALE] for p in room["points"] if p[3] == sid]
    return StudentView(own=own, assigned=_assigned(room, student), count=len(own))


def _assigned(room, student):
    return room["everyone"] if room["everyone"] is not None else student.get("class")


def _changed(room, now):
    room["version"] += 1
    room["touched"] = now


def check_student(room: Room, sid: object, key: object) -> dict[str, Any]:
    """The student ``sid`` of the room, their ``key`` proved (else a 403)."""
    student = room["students"].get(sid) if isinstance(sid, str) else None
    if student is None or not matches(key, student["key"]):
        raise RoomError(403, N_("You are not in this room; join it again."))
    return student


def _holds_seat(student, seen, now):
    last = max(student.get("seen", 0.0), seen or 0.0)
    return now - last < IDLE_SECONDS or now - student.get("joined", 0.0) < SEAT_GRACE_SECONDS


def reclaim(room: Room, seen: Mapping[str, float], now: float) -> int:
    """The number of seats taken, after forgetting the students who left without a point.
    ``seen``: {sid: when that student last polled} (the store's ``presence``)."""
    owners = {p[3] for p in room["points"]}
    taken = 0
    for sid in list(room["students"]):
        if _holds_seat(room["students"][sid], seen.get(sid), now):
            taken += 1
        elif sid not in owners:
            del room["students"][sid]  # left, or never added: the seat (and the record) goes
    return taken


def join(
    room: Room,
    nick: object,
    sid: object,
    key: object,
    now: float,
    admit_new: bool = True,
    seen: Mapping[str, float] | None = None,
    take_seat: Callable[[], bool] = lambda: True,
) -> tuple[str, str]:
    """(sid, key): the student coming back with their sid and key, or a new one, unless
    ``admit_new`` is false (a client out of guesses may only come back), the door is closed, the
    seats are taken (after ``reclaim``) or ``take_seat()`` (the address's allowance) says no."""
    if isinstance(sid, str) and sid in room["students"] and matches(key, room["students"][sid]["key"]):
        room["students"][sid]["seen"] = now  # not a change: written with the next one
        return sid, key
    if room.get("closed"):
        raise RoomError(410, N_("The lecturer has closed this room."))
    if not admit_new:
        raise RoomError(429, N_("Too many attempts; wait a minute and try again."))
    if room.get("door_closed"):
        raise RoomError(409, N_("The lecturer has closed this room to new students."))
    before = len(room["students"])
    # Seats held never outnumber the students: only a room with as many looks closer (reclaim).
    if before >= MAX_STUDENTS and reclaim(room, seen or {}, now) >= MAX_STUDENTS:
        if len(room["students"]) != before:
            _changed(room, now)
        raise RoomError(409, N_("This room is full."))
    if not take_seat():
        raise RoomError(429, N_("Many students joined from your network just now; try again in a moment."))
    name, _problem = clean_class_name(text(nick, 200))
    sid = secrets.token_urlsafe(9)
    key = secrets.token_urlsafe(18)
    room["students"][sid] = {
        "nick": name,
        "key": digest(key),
        "seq": -1,
        "pid": None,
        "class": None,
        "joined": now,
        "seen": now,
    }
    _changed(room, now)
    return sid, key


# Why an add is refused, past the student's key: shared by ``add_point`` and the Redis store's
# script (``ui.rooms.redis_store``), which checks the same in the same order.
ADD_REFUSALS = {
    "seq": (400, N_("The request was not understood.")),
    "locked": (409, N_("The lecturer has paused adding points.")),
    "limit": (409, N_("You have added as many points as this room allows ({limit}).")),  # limit=the room's
    "full": (409, N_("This room holds as many points as it can.")),
    "window": (400, N_("A point must lie inside the plot.")),
    "label": (400, N_("Pick one of the room's classes.")),
}
SLOW_DOWN = N_("Slow down a little: one point at a time.")


def refused(reason: str, **args: object) -> RoomError:
    """The refusal of an add for ``reason``, its sentence filled with ``args`` ("limit": ``limit``)."""
    status, sentence = ADD_REFUSALS[reason]
    return RoomError(status, sentence, **args)


def add_seq(seq: object) -> int:
    """A request's ``seq`` as a whole number in [0, 2**53), else a 400."""
    seq = number(seq)
    if seq is None or seq != int(seq) or not 0 <= seq < 2**53:
        raise refused("seq")
    return int(seq)


def placed(window_text: str, x: object, y: object) -> list[int] | None:
    """The grid integers [kx, ky] of the point (x, y) a browser sent, or None if it does not lie
    inside the room's window (``window_text``: the scene's ``w``)."""
    x, y = number(x), number(y)
    window = Window(*[float(v) for v in window_text.split(",")])
    if x is None or y is None or not (window.x_min <= x <= window.x_max and window.y_min <= y <= window.y_max):
        return None
    return grid_integers(snap([x, y])).tolist()


def chosen_label(label: object) -> int | None:
    """The class a browser chose as a whole number >= 0, or None (checked against the room's
    ``classes`` where the room is at hand)."""
    label = number(label)
    return int(label) if label is not None and label == int(label) and label >= 0 else None


def add_point(
    room: Room, sid: object, key: object, x: object, y: object, label: object, seq: object, now: float
) -> int:
    """The new point's id; a request with a ``seq`` already seen gets that request's answer."""
    student = check_student(room, sid, key)
    student["seen"] = now
    seq = add_seq(seq)
    if seq <= student["seq"]:
        return student["pid"]  # a retry of an acknowledged add (or an older one): nothing new
    if room["locked"]:
        raise refused("locked")
    if sum(1 for p in room["points"] if p[3] == sid) >= room["limit"]:
        raise refused("limit", limit=room["limit"])
    if len(room["points"]) >= MAX_POINTS:
        raise refused("full")
    where = placed(room["scene"]["w"], x, y)
    if where is None:
        raise refused("window")
    label = _class_of(room, student, label)
    pid = room["next_pid"]
    room["points"].append([where[0], where[1], label, sid, pid])
    room["next_pid"] += 1
    student["seq"], student["pid"] = seq, pid
    _changed(room, now)
    return pid


def adding(
    sid: object, key: object, x: object, y: object, label: object, seq: object, now: float, allow: Callable[[], bool]
) -> Callable[[Room], tuple[int, int]]:
    """The action of a student's add: (the point's id, the room's version). ``allow()`` (the
    student's rate limit) is asked once, after their key is proved, however often the store runs
    the action."""
    spent: list[bool] = []

    def action(room: Room) -> tuple[int, int]:
        check_student(room, sid, key)
        if not spent:
            spent.append(allow())
        if not spent[0]:
            raise RoomError(429, SLOW_DOWN)
        return add_point(room, sid, key, x, y, label, seq, now), room["version"]

    return action


def _class_of(room, student, label):
    assigned = _assigned(room, student)
    if assigned is not None:
        return assigned
    label = chosen_label(label)
    if label is None or label >= room["classes"]:
        raise refused("label")
    return label


def undo(room: Room, sid: object, key: object, now: float) -> int | None:
    """The id of the student's newest point, now removed (None if they had none)."""
    check_student(room, sid, key)["seen"] = now
    for index in range(len(room["points"]) - 1, -1, -1):
        if room["points"][index][3] == sid:
            pid = room["points"].pop(index)[4]
            _changed(room, now)
            return pid
    return None


def check_token(room: Room, token: object) -> None:
    if not matches(token, room["token"]):
        raise RoomError(403, N_("Only the lecturer can do this."))


def control(
    room: Room, token: object, action: object, value: object, sid: object, now: float, question: object = None
) -> None:
    """A lecturer's action (the token checked first); raises ``RoomError`` for a bad one.
    ``question``: a round's preset (``ui.rooms.rounds.question_of``), for "round" alone."""
    check_token(room, token)
    handler = CONTROLS.get(action) if isinstance(action, str) else None
    if handler is None:
        raise RoomError(400, N_("The request was not understood."))
    if handler is _round:
        _round(room, value, sid, question)
    else:
        handler(room, value, sid)
    _changed(room, now)


def _flag(name):
    def set_flag(room: Room, value: object, _sid: object) -> None:
        if not isinstance(value, bool):
            raise RoomError(400, N_("The request was not understood."))
        room[name] = value

    return set_flag


def _whole(value, low, high):
    value = number(value)
    if value is None or value != int(value) or not low <= value <= high:
        raise RoomError(400, N_("The request was not understood."))
    return int(value)


def _assign(room, value, sid):
    """A class for one student (``sid``) or, without one, for everyone; None lets them choose."""
    label = None if value is None else _whole(value, 0, MAX_CLASSES - 1)
    if sid is None:
        room["everyone"] = label
    elif isinstance(sid, str) and sid in room["students"]:
        room["students"][sid]["class"] = label
    else:
        raise RoomError(404, N_("There is no such student in this room."))
    if label is not None:
        room["classes"] = max(room["classes"], label + 1)


def _limit(room, value, _sid):
    room["limit"] = _whole(value, 0, MAX_PER_STUDENT)


def _classes(room, value, _sid):
    room["classes"] = _whole(value, 1, MAX_CLASSES)


def _remove_student(room, _value, sid):
    if not isinstance(sid, str) or sid not in room["students"]:
        raise RoomError(404, N_("There is no such student in this room."))
    room["points"] = [p for p in room["points"] if p[3] != sid]


def _expel(room, value, sid):
    """The student leaves the room (their key no longer acts); ``value`` true: their points too."""
    if not isinstance(value, bool):
        raise RoomError(400, N_("The request was not understood."))
    if not isinstance(sid, str) or sid not in room["students"]:
        raise RoomError(404, N_("There is no such student in this room."))
    del room["students"][sid]
    if value:
        room["points"] = [p for p in room["points"] if p[3] != sid]


def _clear(room, _value, _sid):
    room["points"] = []


def _method(room, value, _sid):
    if not isinstance(value, str) or value not in MODELS:
        raise RoomError(400, N_("The request was not understood."))
    scene, _messages = decode_scene(room["scene"])
    query = encode_scene(scene.with_method(value).with_points(PointSet()))
    room["scene"] = {name: text for name, text in query.items() if name in _SCENE_FIELDS}


def _round(room, value, _sid, question=None):
    """A prediction round's next phase (``ui.rooms.rounds``): its phases run one way; a round
    pauses adding points while it is on, and ``off`` gives back the pause it found."""
    current = room.get("round")
    if value not in rounds.ACTIONS:
        raise RoomError(400, N_("The request was not understood."))
    if value == "off":
        if current is not None:
            room["round"] = None
            room["locked"] = bool(room.pop("locked_before", False))
        return
    if value == "predict":
        if current is not None and current["phase"] != "reveal":  # a double press or a retried request
            raise RoomError(409, N_("A round is on: show its lines, reveal the fit or end it first."))
        if current is None:
            room["locked_before"] = room["locked"]
        room["round"] = rounds.new_round(room, question=question)
    elif value == "again":
        if current is None or current["stage"] != 1 or current["phase"] == "reveal":
            raise RoomError(409, N_("A second prediction follows a first round's predictions, before its reveal."))
        room["round"] = rounds.new_round(room, stage=2, first=current["id"], question=current.get("question"))
    elif current is None:
        raise RoomError(409, rounds.NO_ROUND)
    elif value == "show" and current["phase"] == "reveal":
        raise RoomError(409, N_("The fit is already revealed."))
    else:
        room["round"] = {**current, "phase": value}
    room["rounds"] = room["round"]["id"]
    room["locked"] = True


def predicting(room: Room, sid: object, key: object, value: object) -> tuple[int, list[float]]:
    """(the round's id, the line) of a student's prediction, their key proved (else a 403), while
    the round takes lines (else a 409), the line inside the room's window (else a 400)."""
    check_student(room, sid, key)
    round_id = rounds.collecting(room)
    if round_id is None:
        raise RoomError(409, rounds.NOT_NOW)
    line = rounds.line_of(value, room["scene"]["w"])
    if line is None:
        raise RoomError(400, rounds.NO_LINE)
    return round_id, line


CONTROLS = {
    "lock": _flag("locked"),
    "hide": _flag("hidden"),
    "assign": _assign,
    "limit": _limit,
    "classes": _classes,
    "remove_student": _remove_student,
    "expel": _expel,
    "door": _flag("door_closed"),
    "clear": _clear,
    "method": _method,
    "round": _round,
}


def roster(room: Room) -> list[tuple[str, str, int]]:
    """[(sid, nickname, points)] of the room's students, in the order they joined (for the lecturer)."""
    counts: dict[str, int] = {}
    for point in room["points"]:
        counts[point[3]] = counts.get(point[3], 0) + 1
    return [(sid, student["nick"], counts.get(sid, 0)) for sid, student in room["students"].items()]
