"""The scene as URL query parameters: compact, validated, bounded (the shareable link).

Points are quantised to 16 bits per coordinate over their bounding box, labels to one byte,
then deflated and base64url-encoded: 200 points take about 1,100 characters. Decoding never
raises: what can be read is used, the rest falls back to defaults, and every fallback is
reported as a sentence.
"""

import base64
import binascii
import inspect
import json
import math
import struct
import zlib
from dataclasses import replace

import numpy as np

from .basis import BASES
from .errors import PlaygroundError
from .grid import Window
from .registry import MODELS, MULTICLASS_STRATEGIES
from .scene import MAX_CLASSES, PointSet, Scene

LINK_VERSION = "1"
MAX_LINK_POINTS = 5_000
MAX_PARAM_CHARS = 4_000  # one parameter's text
MAX_COORDINATE = 1e6  # |x| beyond this in a link is refused (a hosted app is not a stress test)
QUANTISATION_LEVELS = 65_535
MAX_STEP = 1_000_000


def _b64encode(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _b64decode(text):
    padded = text + "=" * (-len(text) % 4)
    return base64.urlsafe_b64decode(padded.encode("ascii"))


def quantise(points):
    """The point set as the link stores it (a link round-trips to exactly this)."""
    if len(points) == 0:
        return points
    return decode_points(encode_points(points))


def encode_points(points):
    """Points -> 'x0,x1,y0,y1~payload': bounding box, then uint16 pairs and uint8 labels, deflated."""
    X, y = points.X, points.y
    low, high = X.min(axis=0), X.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    q = np.rint((X - low) / span * QUANTISATION_LEVELS).astype("<u2")
    raw = struct.pack("<I", len(y)) + q.tobytes() + y.astype(np.uint8).tobytes()
    box = ",".join(repr(float(v)) for v in (low[0], low[0] + span[0], low[1], low[1] + span[1]))
    return f"{box}~{_b64encode(zlib.compress(raw, 9))}"


def decode_points(text):
    """Inverse of ``encode_points``; raises PlaygroundError with a sentence on anything malformed."""
    try:
        box_text, payload = text.split("~", 1)
        box = [float(v) for v in box_text.split(",")]
    except ValueError:
        raise PlaygroundError("the points are not in the expected form") from None
    if len(box) != 4 or not all(math.isfinite(v) and abs(v) <= MAX_COORDINATE for v in box):
        raise PlaygroundError("the points' bounding box is not four finite numbers within ±1e6")
    try:
        inflater = zlib.decompressobj()
        # Bounded inflation: a tiny link must not expand into gigabytes.
        raw = inflater.decompress(_b64decode(payload), 4 + 5 * MAX_LINK_POINTS + 1)
    except (binascii.Error, zlib.error, ValueError):
        raise PlaygroundError("the points' data is damaged (truncated or altered)") from None
    if len(raw) < 4:
        raise PlaygroundError("the points' data is truncated")
    (count,) = struct.unpack("<I", raw[:4])
    if count > MAX_LINK_POINTS:
        raise PlaygroundError(f"the link holds {count:,} points; at most {MAX_LINK_POINTS:,} are accepted")
    if len(raw) != 4 + 5 * count:
        raise PlaygroundError("the points' data is truncated or has extra bytes")
    q = np.frombuffer(raw[4 : 4 + 4 * count], dtype="<u2").reshape(count, 2).astype(float)
    labels = np.frombuffer(raw[4 + 4 * count :], dtype=np.uint8).astype(int)
    if labels.size and labels.max() >= MAX_CLASSES:
        raise PlaygroundError(f"a point has class {labels.max() + 1}; classes go from 1 to {MAX_CLASSES}")
    low = np.array([box[0], box[2]])
    span = np.array([box[1] - box[0], box[3] - box[2]])
    X = low + q / QUANTISATION_LEVELS * span
    return PointSet.from_arrays(X, labels)


def simple_value(value, depth=0):
    """Parameters in a link may only be numbers, strings, booleans, None or short lists of them."""
    if value is None or isinstance(value, bool | str):
        return value if not isinstance(value, str) or len(value) <= 100 else None
    if isinstance(value, int | float):
        return value if abs(value) <= 1e12 else None  # False for NaN and inf; exact for huge ints
    if isinstance(value, list | tuple) and depth < 2 and len(value) <= 200:
        items = tuple(simple_value(v, depth + 1) for v in value)
        return items if all(v is not None for v in items) else None
    return None


def _encode_params(params):
    return json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in params}, separators=(",", ":"))


MAX_REPORTED = 5  # ignored names reported one by one; the rest are counted in one sentence


def clean_params(raw, allowed, what, messages, source="link"):
    """Parsed JSON object -> sorted tuple of (name, value) for names in ``allowed``; reports the rest.

    Shared by links and files, so both accept exactly the same parameters.

    Parameters
    ----------
    raw : object
        What the JSON held; anything but a dict is reported as unreadable.
    allowed : set of str
        The constructor's parameter names.
    what : str
        "method parameter" or "basis parameter", for the messages.
    messages : list of str
        Receives one sentence per ignored name (at most MAX_REPORTED, then a count).
    source : str
        "link" or "file", for the messages.
    """
    if not isinstance(raw, dict):
        messages.append(f"The {what}s in the {source} are not readable; defaults are used.")
        return ()
    kept, ignored = {}, []
    for name, value in raw.items():
        clean = simple_value(value)
        if name not in allowed:
            ignored.append(f"The {source}'s {what} '{str(name)[:30]}' is unknown and was ignored.")
        elif clean is None and value is not None:
            ignored.append(f"The {source}'s value for {what} '{name}' is not allowed and was ignored.")
        else:
            kept[name] = clean
    report_ignored(ignored, f"{what}s", messages)
    return tuple(sorted(kept.items()))


def report_ignored(sentences, what, messages):
    """Append the first MAX_REPORTED sentences and count the rest (a file may hold thousands)."""
    messages.extend(sentences[:MAX_REPORTED])
    if len(sentences) > MAX_REPORTED:
        messages.append(f"{len(sentences) - MAX_REPORTED:,} more {what} were ignored.")


_UNREADABLE = object()  # a link part that is not JSON: clean_params reports it


def _parse_json(text):
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return _UNREADABLE


def encode_scene(scene):
    """Scene -> dict of short query parameters (only what differs from the defaults)."""
    default = Scene()
    query = {"v": LINK_VERSION}
    if len(scene.points):
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
    query["w"] = ",".join(f"{v:.6g}" for v in scene.window.as_tuple())
    if scene.step is not None:
        query["s"] = str(scene.step)
    if scene.seed:
        query["seed"] = str(scene.seed)
    return query


def _constructor_params(cls):
    return {name for name in inspect.signature(cls.__init__).parameters if name != "self"}


def _whole_number(value, low, high):
    """``value`` (an int, a whole float or decimal text) as an int in [low, high], else None."""
    if isinstance(value, str):
        try:
            value = int(value)
        except ValueError:
            return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    return None


def _window(values):
    """Four numbers (or their text) within ±MAX_COORDINATE with min < max as a Window, else None."""
    try:
        numbers = [float(v) for v in values]
        if len(numbers) != 4 or not all(abs(v) <= MAX_COORDINATE for v in numbers):
            return None
        return Window(*numbers)
    except (TypeError, ValueError, OverflowError, PlaygroundError):
        return None


def _short(value):
    return str(value)[:30]


def scene_with_fields(scene, fields, messages, source="link"):
    """Apply a link's or a file's scene fields to ``scene``; never raises.

    Every field is validated and bounded the same way whatever its source; an unusable field
    keeps ``scene``'s value and appends a sentence to ``messages``.

    Parameters
    ----------
    scene : Scene
        The starting point (its values are kept for absent or unusable fields).
    fields : dict
        Any of "method", "multiclass", "basis" (str), "params", "basis_params" (dict of parsed
        JSON), "window" (four numbers or their text), "step", "seed" (int or its text).
    messages : list of str
    source : str
        "link" or "file", for the messages.
    """
    if "method" in fields:
        method = fields["method"]
        if isinstance(method, str) and method in MODELS:
            scene = replace(scene, method=method, params=())
        else:
            name = MODELS[scene.method].display_name
            messages.append(f"The {source} names an unknown method '{_short(method)}'; {name} is used.")
    if "params" in fields:
        allowed = _constructor_params(MODELS[scene.method])
        scene = replace(scene, params=clean_params(fields["params"], allowed, "method parameter", messages, source))
    if "multiclass" in fields:
        strategy = fields["multiclass"]
        if isinstance(strategy, str) and strategy in MULTICLASS_STRATEGIES:
            scene = replace(scene, multiclass=strategy)
        else:
            messages.append(f"The {source}'s multi-class strategy '{_short(strategy)}' is unknown and was ignored.")
    if "basis" in fields:
        basis = fields["basis"]
        if isinstance(basis, str) and basis in BASES:
            scene = replace(scene, basis=basis, basis_params=())
        else:
            messages.append(f"The {source}'s basis '{_short(basis)}' is unknown and was ignored.")
    if "basis_params" in fields:
        allowed = _constructor_params(BASES[scene.basis])
        params = clean_params(fields["basis_params"], allowed, "basis parameter", messages, source)
        scene = replace(scene, basis_params=params)
    if "window" in fields:
        window = _window(fields["window"]) if isinstance(fields["window"], list | tuple) else None
        if window is None:
            messages.append(
                f"The {source}'s view window is not four finite numbers with min < max; the default is used."
            )
        else:
            scene = replace(scene, window=window)
    if "step" in fields:
        step = _whole_number(fields["step"], 0, MAX_STEP)
        if step is None and fields["step"] is not None:
            messages.append(f"The {source}'s playback step is not a whole number in range; the final fit is shown.")
        scene = replace(scene, step=step)
    if "seed" in fields:
        seed = _whole_number(fields["seed"], 0, 2**31 - 1)
        if seed is None:
            messages.append(f"The {source}'s seed is not a whole number in range; it was ignored.")
        else:
            scene = replace(scene, seed=seed)
    return scene


def decode_scene(query, default=None):
    """Query parameters -> (scene, messages). Never raises; bounds every field.

    ``query`` maps names to strings (a list of strings takes its last item).
    """
    scene = default or Scene()
    messages = []

    def get(name):
        value = query.get(name)
        if isinstance(value, list | tuple):
            value = value[-1] if value else None
        if value is None:
            return None
        value = str(value)
        if len(value) > (200_000 if name == "p" else MAX_PARAM_CHARS):
            messages.append(f"The link's '{name}' part is too long and was ignored.")
            return None
        return value

    if (text := get("p")) is not None:
        try:
            scene = replace(scene, points=decode_points(text))
        except PlaygroundError as err:
            messages.append(f"The link's points were ignored: {err}.")
    # The link's short names and how each text becomes the value a file would hold.
    parts = {
        "m": ("method", str),
        "mp": ("params", _parse_json),
        "mc": ("multiclass", str),
        "b": ("basis", str),
        "bp": ("basis_params", _parse_json),
        "w": ("window", lambda text: text.split(",")),
        "s": ("step", str),
        "seed": ("seed", str),
    }
    fields = {field: parse(text) for name, (field, parse) in parts.items() if (text := get(name)) is not None}
    scene = scene_with_fields(scene, fields, messages)
    version = get("v")
    if version is not None and version != LINK_VERSION:
        messages.append(f"The link was made by another version ({version[:10]}); it was read as well as possible.")
    return scene, messages


MAX_OPTIONS = 30


def encode_options(options):
    """Panel options (a flat dict of simple values) -> compact JSON for the link."""
    clean = {k: v for k, v in sorted(options.items()) if isinstance(k, str) and simple_value(v) is not None}
    return _encode_params(tuple(clean.items()))


def decode_options(text, messages):
    """Inverse of ``encode_options``: a dict of at most MAX_OPTIONS simple values; never raises."""
    return clean_options(_parse_json(text) if len(text) <= MAX_PARAM_CHARS else None, messages)


def clean_options(raw, messages, source="link"):
    """Parsed panel options -> a dict of at most MAX_OPTIONS simple values; reports what was dropped."""
    if not isinstance(raw, dict):
        messages.append(f"The {source}'s panel settings are not readable; defaults are used.")
        return {}
    kept = {}
    for name, value in list(raw.items())[:MAX_OPTIONS]:
        clean = simple_value(value)
        if len(name) <= 40 and clean is not None:
            kept[name] = clean
    if len(kept) < len(raw):
        messages.append(f"{len(raw) - len(kept)} of the {source}'s panel settings were not allowed and were ignored.")
    return kept


MAX_COMPARED = 4


def decode_method_list(text, messages):
    """'least_squares,svm' -> known method names, at most MAX_COMPARED, in order; never raises."""
    names = [name for name in text.split(",")[: 2 * MAX_COMPARED] if name]
    known = [name for name in dict.fromkeys(names) if name in MODELS][:MAX_COMPARED]
    if len(known) < len(names):
        messages.append("Some of the link's compared methods are unknown or repeated and were ignored.")
    return tuple(known)
