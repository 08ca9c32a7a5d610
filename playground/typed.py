"""Numbers as people type them: one reading for the table of points, the typed-point form and files.

What you typed is what you get. A cell's text is read here, and nowhere else, by these
rules:

- Spaces around the number are ignored; an empty cell is refused as empty.
- Digits may be any Unicode decimal digits (``unicodedata.decimal``): ASCII, full-width ``１``,
  Arabic-Indic ``١``, Devanagari ``१``...; they are read as the digits they are.
- The decimal separator is a point: ``.``, the full-width ``．`` or the Arabic ``٫``.
- A sign may lead: ``+``, ``-``, the minus sign ``−`` and the full-width ``＋`` / ``－``; an
  exponent may follow (``1e-3``, ``２Ｅ３``).
- A comma (``1,5``, ``1,000``) is refused, never guessed: it could be a decimal comma or a
  thousands separator, and the message asks for a decimal point.
- ``nan`` and ``inf`` are refused as not finite; anything else (``1_000``, ``0x10``, ``½``,
  words) is not a number.

On top of the reading, a coordinate is finite and within ±MAX_COORDINATE, and a class is one
of the whole numbers 1 to MAX_CLASSES (``2.0`` is class 2; ``2.5``, ``0`` and ``7`` are refused).
Each refusal is a ``TypedValueError`` whose message is one whole translatable sentence about the
value; the caller puts it inside its own sentence naming where the value was (a table's row and
column, a file's line), e.g. "Row 1, column class: 7 is not a class; classes are 1 to 6."
"""

import math
import numbers
import re
import unicodedata
from collections.abc import Callable

from .errors import InvalidDataError, Message
from .i18n import N_
from .scene import MAX_CLASSES, MAX_COORDINATE

SHOWN_CHARS = 30  # a refused value is quoted up to this many characters
# Characters read as their ASCII counterparts (besides Unicode decimal digits).
_SAME_AS = {
    "．": ".",
    "٫": ".",
    "−": "-",
    "－": "-",
    "＋": "+",
    "ｅ": "e",
    "Ｅ": "e",
}
_COMMAS = ",，٬、﹐"  # comma, full-width comma, Arabic thousands separator, ideographic and small commas
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)

# What kind of refusal (callers such as the CSV reader decide per kind, e.g. whether a header
# field is data).
EMPTY, COMMA, NOT_FINITE, NOT_A_NUMBER, OUT_OF_RANGE, NOT_A_CLASS = (
    "empty",
    "comma",
    "not finite",
    "not a number",
    "out of range",
    "not a class",
)


class TypedValueError(InvalidDataError):
    """A typed value is refused; ``kind`` says why (one of EMPTY, COMMA, NOT_FINITE, ...) and the
    message is one sentence about the value (without saying where it was)."""

    def __init__(self, template: object = "", /, *parts: object, kind: str = NOT_A_NUMBER, **args: object) -> None:
        super().__init__(template, *parts, **args)
        self.kind = kind

    def __reduce__(self) -> tuple[Callable[..., InvalidDataError], tuple[object, ...]]:
        return (_restore, (self.message, self.kind))


def _restore(message: Message, kind: str) -> TypedValueError:
    return TypedValueError(message, kind=kind)


def shown(text: object) -> str:
    """The value as a message quotes it: at most SHOWN_CHARS characters, unprintable ones as '?'."""
    text = str(text)
    short = "".join(c if c.isprintable() else "?" for c in text[:SHOWN_CHARS])
    return short + ("…" if len(text) > SHOWN_CHARS else "")


def _ascii(text: str) -> str:
    """``text`` with Unicode decimal digits as ASCII digits and the separators and signs above as
    ASCII ones; other characters are kept (and then fail the pattern)."""
    out: list[str] = []
    for char in text:
        digit = unicodedata.decimal(char, None)
        out.append(str(digit) if digit is not None else _SAME_AS.get(char, char))
    return "".join(out)


def not_finite(value: object) -> TypedValueError:
    """The refusal of a value that is not a finite number (nan, inf)."""
    return TypedValueError(
        N_("{value} is not a finite number (NaN and infinity are not allowed)."), kind=NOT_FINITE, value=shown(value)
    )


def read_number(text: object) -> float:
    """The number a cell's text says, as a float (possibly ±inf when the exponent overflows), by
    the rules of this module; raises TypedValueError (EMPTY, COMMA, NOT_FINITE, NOT_A_NUMBER)."""
    stripped = str(text).strip()
    if not stripped:
        raise TypedValueError(N_("the cell is empty."), kind=EMPTY)
    ascii_text = _ascii(stripped)
    if _DECIMAL.fullmatch(ascii_text):
        return float(ascii_text)
    if any(comma in stripped for comma in _COMMAS):
        raise TypedValueError(
            N_("{value} has a comma; write numbers with a decimal point and no thousands separator, e.g. 1.5 or 1500."),
            kind=COMMA,
            value=shown(stripped),
        )
    if _NOT_FINITE.fullmatch(ascii_text):
        raise not_finite(stripped)
    raise TypedValueError(N_("{value} is not a number."), kind=NOT_A_NUMBER, value=shown(stripped))


def _number(value: object) -> float:
    """A value as a float: text is read by ``read_number``; a Python or numpy real number is
    taken as it is (a bool is not a number; an integer too large for a float is ±inf)."""
    if isinstance(value, str):
        return read_number(value)
    if value is None:
        raise TypedValueError(N_("the cell is empty."), kind=EMPTY)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypedValueError(N_("{value} is not a number."), kind=NOT_A_NUMBER, value=shown(value))
    if isinstance(value, numbers.Integral):
        try:
            return float(value)
        except OverflowError:
            return math.inf if int(value) > 0 else -math.inf
    number = float(value)
    if not math.isfinite(number):
        raise not_finite(value)
    return number


def coordinate(value: str | float) -> float:
    """A coordinate from a cell's text (or a number): finite and within ±MAX_COORDINATE, else
    TypedValueError (a text whose exponent overflows, such as 1e999, is out of range)."""
    number = _number(value)
    if not abs(number) <= MAX_COORDINATE:
        raise TypedValueError(
            N_("{value} is outside the range ±{limit:,.0f} the playground accepts."),
            kind=OUT_OF_RANGE,
            value=shown(value.strip() if isinstance(value, str) else value),
            limit=MAX_COORDINATE,
        )
    return number


def class_number(value: str | float) -> int:
    """A class from a cell's text (or a number): a whole number from 1 to MAX_CLASSES (2.0 counts
    as 2), returned as an int; else TypedValueError."""
    number = _number(value)
    if not (number.is_integer() and 1 <= number <= MAX_CLASSES):
        raise TypedValueError(
            N_("{value} is not a class; classes are 1 to {n}."),
            kind=NOT_A_CLASS,
            value=shown(value.strip() if isinstance(value, str) else value),
            n=MAX_CLASSES,
        )
    return int(number)
