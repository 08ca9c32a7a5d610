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


def _simple_value(value, depth=0):
    """Parameters in a link may only be numbers, strings, booleans, None or short lists of them."""
    if value is None or isinstance(value, bool | str):
        return value if not isinstance(value, str) or len(value) <= 100 else None
    if isinstance(value, int | float):
        return value if math.isfinite(value) and abs(value) <= 1e12 else None
    if isinstance(value, list | tuple) and depth < 2 and len(value) <= 200:
        items = tuple(_simple_value(v, depth + 1) for v in value)
        return items if all(v is not None for v in items) else None
    return None


def _encode_params(params):
    return json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in params}, separators=(",", ":"))


def _decode_params(text, allowed, what, messages):
    """JSON object -> sorted tuple of (name, value) for names in ``allowed``; reports the rest."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        messages.append(f"The {what}s in the link are not readable; defaults are used.")
        return ()
    if not isinstance(raw, dict):
        messages.append(f"The {what}s in the link are not readable; defaults are used.")
        return ()
    kept = {}
    for name, value in raw.items():
        clean = _simple_value(value)
        if name not in allowed:
            messages.append(f"The link's {what} '{str(name)[:30]}' is unknown and was ignored.")
        elif clean is None and value is not None:
            messages.append(f"The link's value for {what} '{name}' is not allowed and was ignored.")
        else:
            kept[name] = clean
    return tuple(sorted(kept.items()))


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
    if (method := get("m")) is not None:
        if method in MODELS:
            scene = replace(scene, method=method, params=())
        else:
            messages.append(
                f"The link names an unknown method '{method[:30]}'; {MODELS[scene.method].display_name} is used."
            )
    if (text := get("mp")) is not None:
        allowed = _constructor_params(MODELS[scene.method])
        scene = replace(scene, params=_decode_params(text, allowed, "method parameter", messages))
    if (strategy := get("mc")) is not None:
        if strategy in MULTICLASS_STRATEGIES:
            scene = replace(scene, multiclass=strategy)
        else:
            messages.append(f"The link's multi-class strategy '{strategy[:30]}' is unknown and was ignored.")
    if (basis := get("b")) is not None:
        if basis in BASES:
            scene = replace(scene, basis=basis, basis_params=())
        else:
            messages.append(f"The link's basis '{basis[:30]}' is unknown and was ignored.")
    if (text := get("bp")) is not None:
        allowed = _constructor_params(BASES[scene.basis])
        scene = replace(scene, basis_params=_decode_params(text, allowed, "basis parameter", messages))
    if (text := get("w")) is not None:
        try:
            values = [float(v) for v in text.split(",")]
            if len(values) != 4 or not all(abs(v) <= MAX_COORDINATE for v in values):
                raise ValueError
            scene = replace(scene, window=Window(*values))
        except (ValueError, PlaygroundError):
            messages.append("The link's view window is not four finite numbers with min < max; the default is used.")
    if (text := get("s")) is not None:
        try:
            step = int(text)
            if not 0 <= step <= MAX_STEP:
                raise ValueError
            scene = replace(scene, step=step)
        except ValueError:
            messages.append("The link's playback step is not a whole number in range; the final fit is shown.")
    if (text := get("seed")) is not None:
        try:
            seed = int(text)
            if not 0 <= seed < 2**31:
                raise ValueError
            scene = replace(scene, seed=seed)
        except ValueError:
            messages.append("The link's seed is not a whole number in range; it was ignored.")
    version = get("v")
    if version is not None and version != LINK_VERSION:
        messages.append(f"The link was made by another version ({version[:10]}); it was read as well as possible.")
    return scene, messages


MAX_OPTIONS = 30


def encode_options(options):
    """Panel options (a flat dict of simple values) -> compact JSON for the link."""
    clean = {k: v for k, v in sorted(options.items()) if isinstance(k, str) and _simple_value(v) is not None}
    return _encode_params(tuple(clean.items()))


def decode_options(text, messages):
    """Inverse of ``encode_options``: a dict of at most MAX_OPTIONS simple values; never raises."""
    try:
        raw = json.loads(text) if len(text) <= MAX_PARAM_CHARS else None
    except (ValueError, RecursionError):
        raw = None
    if not isinstance(raw, dict):
        messages.append("The link's panel settings are not readable; defaults are used.")
        return {}
    kept = {}
    for name, value in list(raw.items())[:MAX_OPTIONS]:
        clean = _simple_value(value)
        if len(name) <= 40 and clean is not None:
            kept[name] = clean
    if len(kept) < len(raw):
        messages.append(f"{len(raw) - len(kept)} of the link's panel settings were not allowed and were ignored.")
    return kept


MAX_COMPARED = 4


def decode_method_list(text, messages):
    """'least_squares,svm' -> known method names, at most MAX_COMPARED, in order; never raises."""
    names = [name for name in text.split(",")[: 2 * MAX_COMPARED] if name]
    known = [name for name in dict.fromkeys(names) if name in MODELS][:MAX_COMPARED]
    if len(known) < len(names):
        messages.append("Some of the link's compared methods are unknown or repeated and were ignored.")
    return tuple(known)
