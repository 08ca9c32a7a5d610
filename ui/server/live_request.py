"""The live route's request, parsed and validated before any work (``parse_live_request``).

Rules that must hold:
- The body is at most ``MAX_BODY_BYTES`` and JSON, read as every route's body is
  (``ui.server.visitor_input``): an integer literal longer than ``MAX_INTEGER_DIGITS`` digits,
  ``NaN``/``Infinity``, deep nesting, a lone surrogate or a control character in any string are
  refused while parsing (cheap: the size bound keeps parsing a few milliseconds at most).
- Every field has its type and range (``ui.plot.canvas_protocol.LiveRequest``); a field of the
  wrong type is a 400, a number out of range a 422, each with a sentence; nothing the request holds
  reaches the back-end unchecked, and no value of it can raise anything but ``Refused``.
- The language is a preference, not data: anything not one of ours is English.
- ``client`` (an id the page used to send) is not read: limits are keyed on the address.
"""

import math
from typing import NamedTuple

from playground import Message
from playground.link import usable_guess
from playground.scene import MAX_COORDINATE
from playground.validation import MAX_POINTS
from ui.plot.canvas_protocol import LiveEdit
from ui.server import visitor_input
from ui.text.i18n import LANGUAGES, N_

MAX_BODY_BYTES = 128 * 1024  # a link's 5,000 points are ~35 KB, a box of them moved ~30 KB more
MAX_EDITS = 100
MAX_IDS = MAX_POINTS  # ids name points of the request's scene
MAX_INTEGER_DIGITS = visitor_input.MAX_INTEGER_DIGITS
MAX_SCENE_FIELDS = 30
MAX_FIELD_NAME = 20
MAX_CLASSES = 6
MIN_SCALE, MAX_SCALE = 0.5, 3.0
MAX_OFFSET = 2 * MAX_COORDINATE  # a move's dx, dy

NOT_UNDERSTOOD = N_("The live update was not understood.")
OUT_OF_RANGE = N_("A value of the live update is out of range.")
TOO_LARGE = N_("The live update was too large.")


class Refused(Exception):
    """A request the route will not compute: ``status`` and a sentence (a ``Message`` or text)."""

    def __init__(self, status: int, sentence: Message | str) -> None:
        super().__init__(sentence)
        self.status, self.sentence = status, sentence


class LiveFields(NamedTuple):
    """A live request's fields as validated (the wire format is ``LiveRequest``)."""

    query: dict[str, str]  # the scene's link query, for ``playground.link.decode_scene``
    edits: list[LiveEdit]  # at most MAX_EDITS, each checked
    add_as: int  # 0-5
    add_test: bool
    scale: float  # MIN_SCALE..MAX_SCALE
    language: str  # a key of LANGUAGES
    painted: bool
    guess: tuple[float, float, float] | None = None  # a line's numbers asked for (no edits then)
    shares: bool = False


def parsed_json(body: bytes) -> object:
    """``body`` as JSON under the module's rules (``Refused`` 413 or 400 otherwise), read as every
    route's body is (``ui.server.visitor_input.parsed_json``)."""
    try:
        return visitor_input.parsed_json(body, MAX_BODY_BYTES)
    except visitor_input.Unreadable as err:
        raise Refused(err.status, TOO_LARGE if err.status == 413 else NOT_UNDERSTOOD) from None


def language_of(body: object) -> str:
    """The request's language when it names one of ours, else "en"."""
    return visitor_input.choice(body.get("language") if isinstance(body, dict) else None, LANGUAGES, "en")


def _number(value: object, low: float, high: float) -> float:
    """A finite number in [low, high]: 400 for another type, 422 out of range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(400, NOT_UNDERSTOOD)
    if not math.isfinite(value) or not low <= value <= high:
        raise Refused(422, OUT_OF_RANGE)
    return float(value)


def _flag(value: object) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise Refused(400, NOT_UNDERSTOOD)
    return value


def _ids(value: object) -> list[int]:
    """Whole numbers naming points: a list of at most MAX_IDS, each in [0, MAX_IDS)."""
    if not isinstance(value, list) or len(value) > MAX_IDS:
        raise Refused(400, NOT_UNDERSTOOD)
    found = []
    for item in value:
        number = _number(item, 0, MAX_IDS - 1)
        if number != int(number):
            raise Refused(422, OUT_OF_RANGE)
        found.append(int(number))
    return found


def _edit(value: object) -> LiveEdit:
    if not isinstance(value, dict):
        raise Refused(400, NOT_UNDERSTOOD)
    kind = value.get("type")
    if kind == "add":
        x, y = (_number(value.get(k), -MAX_COORDINATE, MAX_COORDINATE) for k in ("x", "y"))
        return {"type": "add", "x": x, "y": y}
    if kind == "remove":
        return {"type": "remove", "ids": _ids(value.get("ids"))}
    if kind == "move":
        dx, dy = (_number(value.get(k), -MAX_OFFSET, MAX_OFFSET) for k in ("dx", "dy"))
        return {"type": "move", "ids": _ids(value.get("ids")), "dx": dx, "dy": dy}
    raise Refused(400, NOT_UNDERSTOOD)


def _guess(value: object) -> tuple[float, float, float] | None:
    """The person's line (w0, w1, w2) as ``playground.link.usable_guess`` takes it, or None when
    the request asks for none."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 3 or not all(_is_number(v) for v in value):
        raise Refused(400, NOT_UNDERSTOOD)
    guess, _problem = usable_guess(value)
    if guess is None:
        raise Refused(422, OUT_OF_RANGE)
    return guess


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _scene_query(value: object) -> dict[str, str]:
    if not isinstance(value, dict) or len(value) > MAX_SCENE_FIELDS:
        raise Refused(400, NOT_UNDERSTOOD)
    if any(len(key) > MAX_FIELD_NAME or not isinstance(text, str) for key, text in value.items()):
        raise Refused(400, NOT_UNDERSTOOD)
    return dict(value)


def live_fields(body: object) -> LiveFields:
    """The fields of a parsed request, each checked (see the module's rules)."""
    if not isinstance(body, dict):
        raise Refused(400, NOT_UNDERSTOOD)
    query = _scene_query(body.get("scene"))
    edits = body.get("edits")
    if not isinstance(edits, list) or len(edits) > MAX_EDITS:
        raise Refused(400, NOT_UNDERSTOOD)
    checked = [_edit(edit) for edit in edits]
    add_as = _number(body.get("add_as", 0), 0, MAX_CLASSES - 1)
    if add_as != int(add_as):
        raise Refused(422, OUT_OF_RANGE)
    scale = _number(body.get("scale", 1.0), MIN_SCALE, MAX_SCALE)
    guess = _guess(body.get("guess"))
    if guess is not None and checked:
        raise Refused(400, NOT_UNDERSTOOD)  # a line's numbers are asked for the scene as it is
    return LiveFields(
        query,
        checked,
        int(add_as),
        _flag(body.get("add_test")),
        scale,
        language_of(body),
        _flag(body.get("painted")),
        guess,
        _flag(body.get("shares")),
    )


def parse_live_request(body: bytes) -> LiveFields:
    """A raw body as validated fields (``Refused`` otherwise)."""
    return live_fields(parsed_json(body))


__all__ = ["LiveFields", "Refused", "live_fields", "parse_live_request", "parsed_json"]
