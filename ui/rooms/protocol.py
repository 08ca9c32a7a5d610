"""The messages between a room's pages (the student page, the projector) and the server.

Every value in a request is hostile until validated. A body is read as every route's body is
(``ui.server.visitor_input.parsed_json``: UTF-8 JSON, short integers, every string a text) and
then each field by its kind, once, in ``request_fields`` (the routes read nothing else): the join
code cleaned (``clean_code``), the secrets (``SECRETS``: a student's id and key, the lecturer's
token) in the server's alphabet or "" (which matches nothing, so a malformed one is a wrong one),
texts (``TEXTS``) of their type and length or a 400, the language one of ours; numbers are read
by ``ui.rooms.model`` through ``ui.plot.canvas_protocol.number``. Paths are under the server's
base URL path (behind nginx) as well as at the root, like the live route.
"""

import os
from typing import Any, Literal, NotRequired, TypedDict

from ui.server.visitor_input import choice, secret
from ui.server.visitor_input import text as visitor_text
from ui.text.i18n import LANGUAGES

ROOM_PAGE = "/room"  # the student page: ``/room?c=CODE``
ROOM_ASSETS = "/room/assets"  # the student page's style (``/room/assets/student.css``); its modules are static
API = "/api/room"  # + "/open", "/join", "/add", "/undo", "/predict", "/state", "/control"


def setting(name: str, default: int, low: int, high: int) -> int:
    """A whole number from the environment within [low, high], else ``default`` (a typo never
    opens the server wider than its highest bound)."""
    raw = os.environ.get(name, "").strip()
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        return default
    return min(high, max(low, int(raw)))


# Bounds of one room and of the server, settings: the defaults hold a lecture hall of 500
# students each adding the default allowance of 20 points (a scene holds at most 20,000).
MAX_STUDENTS = setting("PLAYGROUND_ROOM_SEATS", 600, 1, 5_000)  # seats taken at once (see model.reclaim)
MAX_POINTS = setting("PLAYGROUND_ROOM_POINTS", 12_000, 100, 20_000)
DEFAULT_PER_STUDENT = 20  # points a student may add until the lecturer changes it
MAX_PER_STUDENT = 200
MAX_ROOMS = setting("PLAYGROUND_MAX_ROOMS", 500, 1, 100_000)  # rooms at once in one store (all replicas)
SEAT_GRACE_SECONDS = 120  # a new seat is kept this long, used or not ...
IDLE_SECONDS = 90  # ... then only while its student polls or acts (the page polls every 1.5 s)
EXPIRY_SECONDS = 4 * 3600  # after the last activity (any change)
CLOSED_EXPIRY_SECONDS = 30 * 60  # a closed room, kept to tell its students (and give the frozen link)
MAX_NICK_CHARS = 24
MAX_BODY_BYTES = 16 * 1024  # a room request is a few fields (the open request: a link's scene)
MAX_OPEN_BODY_BYTES = 200 * 1024

# Join codes: 8 symbols of a 31-symbol alphabet without look-alikes (0/O, 1/I/L), 39.6 bits; with
# misses (a request naming an unknown room) rate-limited per address (ui.rooms.guard), guessing
# one of even MAX_ROOMS rooms takes decades (guard.guess_years).
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


class OpenRequest(TypedDict):
    scene: dict[str, str]  # the lecturer's scene as its link query (``playground.link.encode_scene``)
    session: str  # an open token a session of the app minted (``ui.rooms.guard.open_token``)


class OpenResponse(TypedDict):
    code: str
    token: str  # the control token: only the lecturer's page ever holds it


class JoinRequest(TypedDict):
    code: str
    nick: NotRequired[str]  # visitors' text: shown as text only
    sid: NotRequired[str]  # a student coming back (a blinking connection, a reload) ...
    key: NotRequired[str]  # ... with the secret the join gave them


class JoinResponse(TypedDict):
    code: str  # the code as the room knows it (the page's address keeps it)
    sid: str
    key: str  # the student's secret: required for their own actions, never shown to others
    version: int


class AddRequest(TypedDict):
    code: str
    sid: str
    key: str
    x: float
    y: float
    label: int  # class index 0-5 (the page shows 1-6); the lecturer's assignment overrides it
    seq: int  # the student's own counter: a retried request is acknowledged once, added once


class AddResponse(TypedDict):
    pid: int | None  # the point's id (undo: the removed one's, None when there was none)
    version: int


class ControlResponse(TypedDict):
    version: int


class FreezeResponse(TypedDict):
    query: dict[str, str]  # an ordinary link's query (``playground.link.encode_scene``)


class UndoRequest(TypedDict):
    code: str
    sid: str
    key: str


class ControlRequest(TypedDict):
    code: str
    token: str
    action: Literal[
        "lock", "hide", "assign", "limit", "classes", "remove_student", "expel", "door", "clear", "method", "round"
    ]
    value: NotRequired[object]  # the action's argument (checked per action)
    sid: NotRequired[str]  # the student an action is about
    question: NotRequired[str]  # "round": the preset whose question the round asks (``Preset.question``)


class RoundPhase(TypedDict):
    id: int  # its lines' key; a second round (stage 2) has its own
    phase: Literal["predict", "show", "reveal"]
    stage: int  # 1, or 2: predicted again after discussion
    question: str | None  # the preset whose question the round asks, or None


class RoomSettings(TypedDict):
    locked: bool
    hidden: bool  # the boundary and regions are hidden (predict, then reveal)
    limit: int  # points per student
    classes: int  # classes students may choose from (1..classes)
    everyone: int | None  # the class every student adds, if the lecturer set one
    method: str
    names: list[str]  # the classes' names ("" for "class k"): visitors' text, shown as text only
    door_closed: bool  # the door is closed: no new student may join (those in the room carry on)
    round: RoundPhase | None  # a prediction round (``ui.rooms.rounds``), or None


class PredictRequest(TypedDict):
    code: str
    sid: str
    key: str
    line: list[float]  # [x1, y1, x2, y2]: two points of the line, inside the room's window


class PredictResponse(TypedDict):
    round: int  # the round's id
    line: list[float]  # the line as the room keeps it (its ends on the grid)


class LecturerRound(TypedDict):
    """The round in the lecturer's state (``X-Room-Token``): answered on every poll, the version's
    or not, so the projector counts the answers as they come."""

    phase: str
    stage: int
    predictions: int
    question: NotRequired[str]  # the preset's question, in the asked language
    lines: NotRequired[list[list[float]]]  # from the show on: this stage's lines, in no one's order
    first_lines: NotRequired[list[list[float]]]  # stage 2: stage 1's lines, kept apart
    results: NotRequired[dict]  # at the reveal: ``ui.rooms.results.RoundResults.lecturer``


class StudentRound(TypedDict):
    phase: str
    stage: int
    mine: list[float] | None  # the student's own line in this stage, if they sent one
    question: NotRequired[str]  # the preset's question, in the asked language
    score: NotRequired[dict]  # at the reveal: {"accuracy": 0-1, "angle": degrees or None}


class StudentView(TypedDict):
    """A student's own part of the state: their points (to mark and undo) and class."""

    own: list[list[float]]  # [x, y] of each of their points, oldest first
    assigned: int | None
    count: int


class StateResponse(TypedDict):
    """GET ``API/state?c=CODE&since=V[&sid=S][&lang=L][&scale=1.6]``: only ``version`` when nothing changed
    since V; else the figure to draw (regions and boundary left out while hidden), the settings,
    and the asking student's own part."""

    version: int
    figure: NotRequired[dict]
    settings: NotRequired[RoomSettings]
    students: NotRequired[int]
    points: NotRequired[int]
    me: NotRequired[StudentView]  # absent for a sid the room no longer holds (the lecturer removed them)
    error: NotRequired[str]
    method_name: NotRequired[str]  # the method as the lecturer's page names it, in the asked language
    closed: NotRequired[bool]  # the lecturer closed the room: nothing more is added or drawn
    frozen: NotRequired[str]  # the query of the link the lecturer froze the room into, if they did
    round: NotRequired[LecturerRound | StudentRound]  # while a prediction round is on


def text(value: object, limit: int) -> str:
    """A browser's string, cut to ``limit`` characters, or "" (anything else)."""
    return value[:limit] if isinstance(value, str) else ""


class BadRequest(Exception):
    """A request whose fields are not what the route reads (a 400)."""


SECRETS = ("sid", "key", "token")  # made by ``secrets.token_urlsafe``: 12, 24 and 32 characters
MAX_SECRET_CHARS = 64
TEXTS = {"nick": 200, "action": 32, "question": 32}  # at most this many characters, or a 400
MAX_SCENE_FIELDS = 30  # a link's query (``playground.link``): a few short names
MAX_FIELD_NAME = 20


def clean_code(value: object) -> str:
    """A join code from a browser (any case, spaces and dashes ignored), or "" if it cannot be one."""
    if not isinstance(value, str) or len(value) > 40 or not value.isascii():
        return ""
    code = "".join(c for c in value.upper() if c not in " -")
    return code if len(code) == CODE_LENGTH and all(c in CODE_ALPHABET for c in code) else ""


def _scene(value: object) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) > MAX_SCENE_FIELDS:
        raise BadRequest
    if any(len(name) > MAX_FIELD_NAME or not isinstance(field, str) for name, field in value.items()):
        raise BadRequest
    return value


def request_fields(body: dict[str, object]) -> dict[str, Any]:
    """The fields of a room request (a parsed body, or a poll's query), each read by its kind (see
    the module's docstring); ``BadRequest`` for a text of another type or length or a scene that is
    not a link's query. Absent secrets stay None (``control``'s ``sid``: everyone)."""
    fields: dict[str, Any] = {name: body.get(name) for name in ("x", "y", "label", "seq", "value", "line")}
    fields["code"] = clean_code(body.get("code"))
    fields["lang"] = choice(body.get("lang"), LANGUAGES, None)
    for name in SECRETS:
        value = body.get(name)
        fields[name] = None if value is None else secret(value, MAX_SECRET_CHARS)
    for name, limit in TEXTS.items():
        value = visitor_text(body.get(name), limit)
        if value is None:
            raise BadRequest
        fields[name] = value
    fields["session"] = visitor_text(body.get("session"), 64) or ""  # a malformed one is a forged one: 403
    fields["scene"] = _scene(body.get("scene"))
    return fields
