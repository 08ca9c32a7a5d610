"""The scene as URL query parameters: compact, exact, validated, bounded (the shareable link).

Points live on the grid of ``playground.scene`` (k / 10^5), so a link carries their integers k
losslessly: offsets from the lower-left corner in as few bytes as they need, split into byte
planes, labels one byte each (the high bit set for a test point: a link without test points is
byte for byte what it was before they existed), deflated and base64url-encoded. 200 points in a view of width 10
take about 1,500 characters; the receiver holds bit-identical float64 values. Links of version 1
(16-bit quantisation over the bounding box) still open. Every other field is checked against the
widgets' own table (``playground.specs``). Decoding never raises: what can be read is used, the
rest falls back to defaults, and every fallback is reported as a sentence.
"""

import base64
import binascii
import json
import math
import struct
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

from .basis import BASES
from .errors import Message, PlaygroundError
from .grid import Window
from .i18n import N_
from .registry import METHOD_SPECS, MODELS, MULTICLASS_STRATEGIES
from .scene import (
    GRID_DECIMALS,
    MAX_CLASSES,
    MAX_COORDINATE,
    MIN_VIEW,
    PointSet,
    Scene,
    Settings,
    clean_class_names,
    grid_integers,
)
from .specs import BASIS_SPECS, Spec, clean_panel_options, clean_settings, source_name

#: A value a link or a file may hold (``simple_value``): a number, text, a flag, None, or a short
#: list of them (two levels deep at most).
SimpleValue: TypeAlias = "bool | int | float | str | tuple[SimpleValue, ...] | None"

LINK_VERSION = "2"
MAX_LINK_POINTS = 5_000
MAX_PARAM_CHARS = 4_000  # one parameter's text
# Streamlit's HTTP server refuses a request line over about 126 KB (a bare "400 Bad Request"),
# so a link must stay below that whole; the points get the most of it.
MAX_POINTS_CHARS = 100_000
MAX_STEP = 1_000_000
MAX_QUERY_PARAMETERS = 1_000  # Streamlit ignores a query string with more (all of it, silently)

_POINTS_FORMAT = 2
_HEADER = struct.Struct("<BBIqqBB")  # format, decimals, count, lowest k of x and y, bytes per offset
_MAX_OFFSET_BYTES = 6
_TEST_BIT = 0x80  # in a point's label byte: a test point (no fit uses it)


def _b64encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    padded = text + "=" * (-len(text) % 4)
    return base64.urlsafe_b64decode(padded.encode("ascii"))


def _byte_planes(offsets: NDArray[np.int64]) -> tuple[int, bytes]:
    """Non-negative int64 offsets -> (bytes per offset, their byte planes, low byte first).

    Planes compress well under deflate: the high bytes of points in one region vary little.
    """
    width = (int(offsets.max()).bit_length() + 7) // 8 if offsets.size else 0
    planes = [((offsets >> (8 * i)) & 0xFF).astype(np.uint8).tobytes() for i in range(width)]
    return width, b"".join(planes)


def _from_planes(raw: bytes, count: int, width: int) -> NDArray[np.int64]:
    planes = np.frombuffer(raw, dtype=np.uint8).reshape(width, count).astype(np.int64)
    return np.sum(planes << (8 * np.arange(width, dtype=np.int64))[:, None], axis=0) if width else np.zeros(count, int)


def encode_points(points: PointSet) -> str:
    """Points -> text for the link: their grid integers, exactly (see the module docstring)."""
    k = grid_integers(points.X)
    low = k.min(axis=0) if len(points) else np.zeros(2, np.int64)
    x_width, x_planes = _byte_planes(k[:, 0] - low[0])
    y_width, y_planes = _byte_planes(k[:, 1] - low[1])
    header = _HEADER.pack(_POINTS_FORMAT, GRID_DECIMALS, len(points), int(low[0]), int(low[1]), x_width, y_width)
    labels = points.y.astype(np.uint8) | np.where(points.is_test, _TEST_BIT, 0).astype(np.uint8)
    raw = header + x_planes + y_planes + labels.tobytes()
    return _b64encode(zlib.compress(raw, 9))


def decode_points(text: str) -> PointSet:
    """Inverse of ``encode_points`` (and of version 1's); raises PlaygroundError with a sentence."""
    if "~" in text:
        return _decode_points_v1(text)
    limit = _HEADER.size + (2 * _MAX_OFFSET_BYTES + 1) * MAX_LINK_POINTS
    raw = _inflate(text, limit)
    if len(raw) < _HEADER.size:
        raise PlaygroundError(N_("the points' data is truncated"))
    form, decimals, count, low_x, low_y, x_width, y_width = _HEADER.unpack_from(raw)
    if form != _POINTS_FORMAT or decimals > 9 or max(x_width, y_width) > _MAX_OFFSET_BYTES:
        raise PlaygroundError(N_("the points are not in a form this version reads"))
    if count > MAX_LINK_POINTS:
        raise PlaygroundError(
            N_("the link holds {n:,} points; at most {limit:,} are accepted"), n=count, limit=MAX_LINK_POINTS
        )
    if len(raw) != _HEADER.size + count * (x_width + y_width + 1):
        raise PlaygroundError(N_("the points' data is truncated or has extra bytes"))
    body = raw[_HEADER.size :]
    x_end, y_end = count * x_width, count * (x_width + y_width)
    k = np.column_stack(
        [low_x + _from_planes(body[:x_end], count, x_width), low_y + _from_planes(body[x_end:y_end], count, y_width)]
    )
    X = k.astype(float) / 10**decimals  # the same division as scene.snap: the same float64 values
    if count and np.max(np.abs(X)) > MAX_COORDINATE:
        raise PlaygroundError(N_("a point lies outside ±{limit:,.0f}"), limit=MAX_COORDINATE)
    labels = np.frombuffer(body[y_end:], dtype=np.uint8)
    return PointSet.from_arrays(X, _labels((labels & ~np.uint8(_TEST_BIT)).tobytes()), labels & _TEST_BIT != 0)


def _inflate(payload: str, limit: int) -> bytes:
    try:
        inflater = zlib.decompressobj()
        # Bounded inflation: a tiny link must not expand into gigabytes.
        return inflater.decompress(_b64decode(payload), limit + 1)
    except (binascii.Error, zlib.error, ValueError):
        raise PlaygroundError(N_("the points' data is damaged (truncated or altered)")) from None


def _labels(raw: bytes) -> NDArray[np.int_]:
    labels = np.frombuffer(raw, dtype=np.uint8).astype(int)
    if labels.size and labels.max() >= MAX_CLASSES:
        raise PlaygroundError(
            N_("a point has class {number}; classes go from 1 to {n}"), number=int(labels.max()) + 1, n=MAX_CLASSES
        )
    return labels


_V1_LEVELS = 65_535


def _decode_points_v1(text: str) -> PointSet:
    """Version 1: 'x0,x1,y0,y1~payload', 16-bit pairs over the bounding box (snapped on reading)."""
    try:
        box_text, payload = text.split("~", 1)
        box = [float(v) for v in box_text.split(",")]
    except ValueError:
        raise PlaygroundError(N_("the points are not in the expected form")) from None
    if len(box) != 4 or not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in box):
        raise PlaygroundError(N_("the points' bounding box is not four finite numbers within ±1e6"))
    raw = _inflate(payload, 4 + 5 * MAX_LINK_POINTS)
    if len(raw) < 4:
        raise PlaygroundError(N_("the points' data is truncated"))
    (count,) = struct.unpack("<I", raw[:4])
    if count > MAX_LINK_POINTS:
        raise PlaygroundError(
            N_("the link holds {n:,} points; at most {limit:,} are accepted"), n=count, limit=MAX_LINK_POINTS
        )
    if len(raw) != 4 + 5 * count:
        raise PlaygroundError(N_("the points' data is truncated or has extra bytes"))
    q = np.frombuffer(raw[4 : 4 + 4 * count], dtype="<u2").reshape(count, 2).astype(float)
    low = np.array([box[0], box[2]])
    span = np.array([box[1] - box[0], box[3] - box[2]])
    X = low + q / _V1_LEVELS * span
    if count and np.max(np.abs(X)) > MAX_COORDINATE:
        raise PlaygroundError(N_("a point lies outside ±{limit:,.0f}"), limit=MAX_COORDINATE)
    return PointSet.from_arrays(X, _labels(raw[4 + 4 * count :]))


def simple_value(value: object, depth: int = 0) -> SimpleValue:
    """Values a link or file may hold: numbers, strings, booleans, None or short lists of them.

    Integers are compared before any conversion: one with 400 digits fits no float.
    """
    if value is None or isinstance(value, bool | str):
        return value if not isinstance(value, str) or len(value) <= 100 else None
    if isinstance(value, int | float):
        return value if abs(value) <= 1e12 else None  # False for NaN and inf; exact for huge ints
    if isinstance(value, list | tuple) and depth < 2 and len(value) <= 200:
        items = tuple(simple_value(v, depth + 1) for v in value)
        return items if all(v is not None for v in items) else None
    return None


def _encode_params(params: Iterable[tuple[str, object]]) -> str:
    return json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in params}, separators=(",", ":"))


MAX_REPORTED = 5  # ignored names reported one by one; the rest are counted in one sentence


def report_ignored(sentences: Sequence[Message], what: str, messages: list[Message]) -> None:
    """Append the first MAX_REPORTED sentences and count the rest (a file may hold thousands)."""
    messages.extend(sentences[:MAX_REPORTED])
    if len(sentences) > MAX_REPORTED:
        messages.append(
            Message(N_("{n:,} more {what} were ignored."), n=len(sentences) - MAX_REPORTED, what=Message(what))
        )


class DecodedScene(NamedTuple):
    """What a link gave (``decode_scene``): the scene, and a sentence for each part that was
    unusable and replaced by its default."""

    scene: Scene
    messages: list[Message]


_UNREADABLE = object()  # a link part that is not JSON: clean_settings reports it


def _parse_json(text: str) -> object:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return _UNREADABLE


def encode_class_names(names: Iterable[str]) -> str:
    """Class names -> URL-safe text: their JSON list in UTF-8, base64url-encoded (no escapes needed)."""
    return _b64encode(json.dumps(list(names), ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def decode_class_names(text: str) -> object:
    """Inverse of ``encode_class_names``: the parsed JSON (cleaned later), or a marker for text
    that is not base64url-encoded UTF-8 JSON."""
    try:
        return json.loads(_b64decode(text).decode("utf-8"))
    except (binascii.Error, ValueError, RecursionError):  # UnicodeDecodeError and JSON's are ValueErrors
        return _UNREADABLE


def encode_window(window: Window) -> str:
    """The view as the link writes it: shortest exact text of each bound (it round-trips)."""
    return ",".join(repr(float(v)) for v in window.as_tuple())


def encode_scene(scene: Scene) -> dict[str, str]:
    """Scene -> dict of short query parameters (only what differs from the defaults)."""
    default = Scene()
    query = {"v": LINK_VERSION}
    if len(scene.points) > MAX_LINK_POINTS:
        query["pn"] = str(len(scene.points))  # too many to carry: the receiver is told so
    elif len(scene.points):
        query["p"] = encode_points(scene.points)
    if scene.method != default.method:
        query["m"] = scene.method
    if scene.params:
        query["mp"] = _encode_params(scene.params)
    if scene.multiclass != default.multiclass:
        query["mc"] = scene.multiclass
    if scene.basis != default.basis:
        query["b"] = scene.basis
    if scene.basis_params:
        query["bp"] = _encode_params(scene.basis_params)
    query["w"] = encode_window(scene.window)
    if scene.step is not None:
        query["s"] = str(scene.step)
    if scene.seed:
        query["seed"] = str(scene.seed)
    if scene.class_names:
        query["names"] = encode_class_names(scene.class_names)
    if scene.guess is not None:
        query["guess"] = encode_guess(scene.guess)
    if scene.fit_hidden:
        query["hide"] = "1"
    return query


def _whole_number(value: object, low: int, high: int) -> int | None:
    """``value`` (an int, a whole float or decimal text) as an int in [low, high], else None."""
    if isinstance(value, str):
        if len(value) > 20:  # int() of thousands of digits is slow and Python refuses it
            return None
        try:
            value = int(value)
        except ValueError:
            return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


def usable_window(values: object) -> tuple[Window, None] | tuple[None, Message]:
    """(Window, None) from four numbers (or their text), or (None, why not as a phrase).

    Each side must lie within ±MAX_COORDINATE and the window must be at least MIN_VIEW wide and
    high: narrower views show nothing the point grid can resolve, and plotly cannot scale an
    axis of width 5e-324.
    """
    if not isinstance(values, list | tuple) or len(values) != 4:
        return None, Message(N_("is not four numbers"))
    numbers: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            return None, Message(N_("is not four numbers"))
        if isinstance(value, str) and len(value) > 40:
            return None, Message(N_("is not four finite numbers"))
        try:
            number = float(value)
        except (ValueError, OverflowError):
            return None, Message(N_("is not four finite numbers"))
        if not math.isfinite(number) or abs(number) > MAX_COORDINATE:
            return None, Message(N_("is not four finite numbers within ±{limit:,.0f}"), limit=MAX_COORDINATE)
        numbers.append(number)
    x_min, x_max, y_min, y_max = numbers
    if x_max <= x_min or y_max <= y_min:
        return None, Message(N_("does not have min < max"))
    if x_max - x_min < MIN_VIEW or y_max - y_min < MIN_VIEW:
        return None, Message(
            N_("is narrower than the smallest view the playground shows ({size:g} wide and high)"), size=MIN_VIEW
        )
    return Window(*numbers), None


#: A guess's weights lie within this bound: any line has weights far inside it (they may be scaled),
#: and y(x) = w^T x + w0 at any point of the plane stays finite.
MAX_GUESS_WEIGHT = 1e12


def usable_guess(values: object) -> tuple[tuple[float, float, float], None] | tuple[None, Message]:
    """((w0, w1, w2), None) from three numbers (or their text), or (None, why not as a phrase).

    The book's convention (y(x) = w1 x1 + w2 x2 + w0 >= 0 -> C1); each weight finite and within
    ±MAX_GUESS_WEIGHT, and (w1, w2) not both zero (w0 alone is no line).
    """
    if not isinstance(values, list | tuple) or len(values) != 3:
        return None, Message(N_("is not three numbers w₀, w₁, w₂"))
    numbers: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int | float | str) or len(str(value)) > 40:
            return None, Message(N_("is not three numbers w₀, w₁, w₂"))
        try:
            number = float(value)
        except (ValueError, OverflowError):
            return None, Message(N_("is not three numbers w₀, w₁, w₂"))
        if not math.isfinite(number) or abs(number) > MAX_GUESS_WEIGHT:
            return None, Message(N_("is not three finite numbers within ±{limit:.0e}"), limit=MAX_GUESS_WEIGHT)
        numbers.append(number + 0.0)  # -0.0 -> 0.0: a link writes one text for one line
    if numbers[1] == 0 and numbers[2] == 0:
        return None, Message(N_("has w₁ = w₂ = 0, which is no line"))
    return (numbers[0], numbers[1], numbers[2]), None


def line_through(
    start: Sequence[float], end: Sequence[float], points: PointSet
) -> tuple[tuple[float, float, float], None] | tuple[None, Message]:
    """The line through two points as a guess ((w0, w1, w2), None), or (None, why not as a phrase).

    w = (w1, w2) is the unit normal to the segment, turned to the side that gives the first class
    present among the training points (the book's C1) the more of its own points, the others the
    fewer: a line drawn on the plane has no sides, and this is the better way to give them (ties:
    the normal to the left of start -> end). Six significant digits: the link stays short.
    """
    try:
        x1, y1, x2, y2 = (float(v) for v in (*start, *end))
    except (TypeError, ValueError, OverflowError):
        return None, Message(N_("is not two points"))
    if not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in (x1, y1, x2, y2)):
        return None, Message(N_("does not lie within ±{limit:,.0f}"), limit=MAX_COORDINATE)
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= 1e-9 * max(1.0, abs(x1), abs(y1), abs(x2), abs(y2)):
        return None, Message(N_("has its two points in one place, which is no line"))
    w = np.array([-(y2 - y1), x2 - x1]) / length
    w0 = -float(w @ [x1, y1])
    training = points.training
    if len(training):
        first = int(np.min(training.y))
        positive = training.X @ w + w0 >= 0
        mine = np.asarray(training.y) == first
        if np.sum(positive == mine) < np.sum(~positive == mine):
            w, w0 = -w, -w0
    rounded = tuple(float(f"{v:.6g}") + 0.0 for v in (w0, w[0], w[1]))
    return usable_guess(rounded)


def encode_guess(guess: Sequence[float]) -> str:
    """The line as the link writes it: shortest exact text of w0, w1, w2 (it round-trips)."""
    return ",".join(repr(float(v)) for v in guess)


def _short(value: object) -> str:
    text = str(value)
    return "".join(c if c.isprintable() else "?" for c in text[:30]) + ("…" if len(text) > 30 else "")


def _settings(specs: Sequence[Spec], raw: object, what: str, messages: list[Message], source: str) -> Settings:
    if raw == {}:
        return ()  # none given: the widgets' defaults, as a scene made in code holds them
    values, _ = clean_settings(specs, raw, what, source, messages)
    return tuple(sorted(values.items()))


def scene_with_fields(
    scene: Scene, fields: Mapping[str, object], messages: list[Message], source: str = "link"
) -> Scene:
    """Apply a link's or a file's scene fields to ``scene``; never raises.

    Every field is validated and bounded the same way whatever its source, method and basis
    parameters against the widgets' own table (``playground.specs``); an unusable field keeps
    ``scene``'s value (a parameter: its default) and appends a sentence to ``messages``.

    Parameters
    ----------
    scene : Scene
        The starting point (its values are kept for absent or unusable fields).
    fields : dict
        Any of "method", "multiclass", "basis" (str), "params", "basis_params" (dict of parsed
        JSON), "window" (four numbers or their text), "step", "seed" (int or its text),
        "class_names" (a list of strings or None; see ``playground.scene.clean_class_names``),
        "guess" (three numbers or their text, or None; see ``usable_guess``), "fit_hidden"
        (true / false, or "1" / "0").
    messages : list of str
    source : str
        "link" or "file", for the messages.
    """
    for field, read in _FIELD_READERS:  # in that table's order
        if field in fields:
            scene = read(scene, fields[field], source, messages)
    return scene


def _read_method(scene: Scene, method: object, source: str, messages: list[Message]) -> Scene:
    if isinstance(method, str) and method in MODELS:
        return replace(scene, method=method, params=())
    name = MODELS[scene.method].display_name
    messages.append(
        Message(
            N_("The {source} names an unknown method '{method}'; {name} is used."),
            source=source_name(source),
            method=_short(method),
            name=Message(name),
        )
    )
    return scene


def _read_params(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    params = _settings(METHOD_SPECS[scene.method], raw, "method parameter", messages, source)
    return replace(scene, params=params)


def _read_multiclass(scene: Scene, strategy: object, source: str, messages: list[Message]) -> Scene:
    if isinstance(strategy, str) and strategy in MULTICLASS_STRATEGIES:
        return replace(scene, multiclass=strategy)
    messages.append(
        Message(
            N_("The {source}'s multi-class strategy '{strategy}' is unknown and was ignored."),
            source=source_name(source),
            strategy=_short(strategy),
        )
    )
    return scene


def _read_basis(scene: Scene, basis: object, source: str, messages: list[Message]) -> Scene:
    if isinstance(basis, str) and basis in BASES:
        return replace(scene, basis=basis, basis_params=())
    messages.append(
        Message(
            N_("The {source}'s basis '{basis}' is unknown and was ignored."),
            source=source_name(source),
            basis=_short(basis),
        )
    )
    return scene


def _read_basis_params(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    if scene.basis == "rbf" and isinstance(raw, dict) and "placement" not in raw and raw.get("centres"):
        raw = {**raw, "placement": "given"}  # centres without a placement: placed by hand
    params = _settings(BASIS_SPECS[scene.basis], raw, "basis parameter", messages, source)
    return replace(scene, basis_params=params)


def _read_window(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    window, problem = usable_window(raw)
    if window is not None:
        return replace(scene, window=window)
    if len(scene.points):
        template = N_("The {source}'s view window {problem}; the view frames the points instead.")
    else:
        template = N_("The {source}'s view window {problem}; the default view is used.")
    messages.append(Message(template, source=source_name(source), problem=problem))
    return scene


def _read_step(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    step = _whole_number(raw, 0, MAX_STEP)
    if step is None and raw is not None:
        messages.append(
            Message(
                N_("The {source}'s playback step is not a whole number in range; the final fit is shown."),
                source=source_name(source),
            )
        )
    return replace(scene, step=step)


def _read_seed(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    seed = _whole_number(raw, 0, 2**31 - 1)
    if seed is not None:
        return replace(scene, seed=seed)
    messages.append(
        Message(N_("The {source}'s seed is not a whole number in range; it was ignored."), source=source_name(source))
    )
    return scene


def _read_guess(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    if raw is None:
        return replace(scene, guess=None)
    guess, problem = usable_guess(raw)
    if guess is None:
        template = N_("The {source}'s line (guess) {problem}; it was left out.")
        messages.append(Message(template, source=source_name(source), problem=problem))
        return scene
    return replace(scene, guess=guess)


def _read_fit_hidden(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    hidden = {True: True, False: False, "1": True, "0": False}.get(raw) if isinstance(raw, bool | str) else None
    if hidden is None:
        messages.append(
            Message(
                N_("The {source}'s 'hide the fit' setting is not 1 or 0; the fit is shown."), source=source_name(source)
            )
        )
        return replace(scene, fit_hidden=False)
    return replace(scene, fit_hidden=hidden)


def _read_class_names(scene: Scene, raw: object, source: str, messages: list[Message]) -> Scene:
    if raw is _UNREADABLE:
        messages.append(
            Message(N_("The {source}'s class names could not be read and were ignored."), source=source_name(source))
        )
        raw = None
    names, problems = clean_class_names(raw, source)
    messages.extend(problems)
    return replace(scene, class_names=names)


#: The scene's fields a link or a file may set, each with its reader (scene, value, source,
#: messages) -> scene, in the order they are applied: a method's parameters are read against the
#: method just set, a basis's parameters against the basis just set.
_FIELD_READERS: tuple[tuple[str, Callable[[Scene, object, str, list[Message]], Scene]], ...] = (
    ("method", _read_method),
    ("params", _read_params),
    ("multiclass", _read_multiclass),
    ("basis", _read_basis),
    ("basis_params", _read_basis_params),
    ("window", _read_window),
    ("step", _read_step),
    ("seed", _read_seed),
    ("class_names", _read_class_names),
    ("guess", _read_guess),
    ("fit_hidden", _read_fit_hidden),
)


#: The link's short names of the scene's fields and how each text becomes the value a file would hold.
_LINK_PARTS: dict[str, tuple[str, Callable[[str], object]]] = {
    "m": ("method", str),
    "mp": ("params", _parse_json),
    "mc": ("multiclass", str),
    "b": ("basis", str),
    "bp": ("basis_params", _parse_json),
    "w": ("window", lambda text: text.split(",")),
    "s": ("step", str),
    "seed": ("seed", str),
    "names": ("class_names", decode_class_names),
    "guess": ("guess", lambda text: text.split(",")),
    "hide": ("fit_hidden", str),
}


def decode_scene(query: Mapping[str, object], default: Scene | None = None) -> DecodedScene:
    """Query parameters -> (scene, messages) as a ``DecodedScene``. Never raises; bounds every field.

    ``query`` maps names to strings (a list of strings takes its last item).
    """
    scene = default or Scene()
    messages: list[Message] = []

    def get(name: str) -> str | None:
        value = query.get(name)
        if isinstance(value, list | tuple):
            value = value[-1] if value else None
        if value is None:
            return None
        value = str(value)
        if len(value) > (MAX_POINTS_CHARS if name == "p" else MAX_PARAM_CHARS):
            messages.append(Message(N_("The link's '{name}' part is too long and was ignored."), name=_short(name)))
            return None
        return value

    if get("p") is None and (count := _whole_number(get("pn"), 0, 10**9)) is not None:
        messages.append(
            Message(
                N_(
                    "The scene had {n:,} points, more than a link carries ({limit:,}); its points were "
                    "left out (a scene file carries them all)."
                ),
                n=count,
                limit=MAX_LINK_POINTS,
            )
        )
    if (text := get("p")) is not None:
        try:
            points = decode_points(text)
            # The view frames the points unless the link's own window is usable.
            scene = replace(scene, points=points, window=Window.around(points.X) if len(points) else scene.window)
        except PlaygroundError as err:
            messages.append(Message(N_("The link's points were ignored: {error}."), error=err.message))
    fields = {field: parse(text) for name, (field, parse) in _LINK_PARTS.items() if (text := get(name)) is not None}
    scene = scene_with_fields(scene, fields, messages)
    version = get("v")
    if version is not None and version not in ("1", LINK_VERSION):
        messages.append(
            Message(
                N_("The link was made by another version ({version}); it was read as well as possible."),
                version=_short(version),
            )
        )
    return DecodedScene(scene, messages)


MAX_OPTIONS = 30


def encode_options(options: Mapping[str, object]) -> str:
    """Panel options (a flat dict of simple values) -> compact JSON for the link."""
    clean = {k: v for k, v in sorted(options.items()) if isinstance(k, str) and simple_value(v) is not None}
    return _encode_params(tuple(clean.items()))


def decode_options(text: str, messages: list[Message]) -> dict[str, Any]:
    """Inverse of ``encode_options``: the known panel options with valid values; never raises."""
    return clean_options(_parse_json(text) if len(text) <= MAX_PARAM_CHARS else None, messages)


def clean_options(raw: object, messages: list[Message], source: str = "link") -> dict[str, Any]:
    """Parsed panel options -> the known ones with valid values (``playground.specs.PANEL_SPECS``);
    a sentence for each one dropped."""
    if isinstance(raw, dict) and len(raw) > MAX_OPTIONS:
        messages.append(
            Message(
                N_("The {source} holds {n:,} panel settings; the first {limit} were read."),
                source=source_name(source),
                n=len(raw),
                limit=MAX_OPTIONS,
            )
        )
        raw = dict(list(raw.items())[:MAX_OPTIONS])
    options, _ = clean_panel_options(raw, source, messages)
    return options


MAX_COMPARED = 4


def decode_method_list(text: str, messages: list[Message]) -> tuple[str, ...]:
    """'least_squares,svm' -> known method names, at most MAX_COMPARED, in order; never raises.

    Fewer than two known names compare nothing: () and a sentence (the one-method view is shown).
    """
    names = [name for name in text.split(",")[: 2 * MAX_COMPARED] if name]
    known = [name for name in dict.fromkeys(names) if name in MODELS][:MAX_COMPARED]
    if len(known) < len(names):
        messages.append(Message(N_("Some of the link's compared methods are unknown or repeated and were ignored.")))
    if len(known) < 2:
        messages.append(Message(N_("The link compares fewer than two known methods; one method is shown.")))
        return ()
    return tuple(known)
