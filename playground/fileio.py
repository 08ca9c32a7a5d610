"""Files a student can save, edit and load again: the points as CSV, the whole scene as JSON.

Writing keeps full float precision (``repr``), so a file round-trips exactly. Reading is strict
about the points (a bad row stops the load with one sentence naming its line) and lenient about
the rest of a scene (an unusable setting falls back to its default with a sentence), through the
link's own validators, so a file and a link accept the same values within the same bounds.
"""

import json
import math
import re

from .errors import InvalidDataError
from .grid import Window
from .link import MAX_COORDINATE, MAX_OPTIONS, clean_options, report_ignored, scene_with_fields, simple_value
from .scene import MAX_CLASSES, PointSet, Scene
from .validation import MAX_POINTS

MAX_UPLOAD_BYTES = 2 * 1024 * 1024  # 20,000 points with full-precision coordinates take about 1 MB
CSV_COLUMNS = ("x1", "x2", "class")
SCENE_FORMAT = "linear-classification-playground scene"
SCENE_VERSION = 1
# The settings a scene file holds besides its points, named as Scene names them.
SCENE_FIELDS = ("method", "params", "multiclass", "basis", "basis_params", "window", "step", "seed")
MAX_TAB_CHARS = 60

# Header names people commonly use for each column, lower case. "y" is the second coordinate
# next to "x" (x, y, label) but the class next to "x1, x2" (scikit-learn's X, y).
_X1_NAMES = {"x1", "x_1", "x", "feature1", "feature_1", "f1"}
_X2_NAMES = {"x2", "x_2", "feature2", "feature_2", "f2"}
_CLASS_NAMES = {"class", "label", "labels", "target", "t", "c", "k", "category", "cls", "group"}
_JSON_WHITESPACE = re.compile(r"[ \t\n\r]*")


# ---- Writing ------------------------------------------------------------------------------------


def points_to_csv(points):
    """The points as CSV text: header ``x1,x2,class``, classes 1..6, full float precision.

    Parameters
    ----------
    points : PointSet

    Returns
    -------
    str
    """
    rows = [f"{float(x)!r},{float(y)!r},{label + 1}" for (x, y), label in zip(points.xy, points.labels)]
    return "\n".join([",".join(CSV_COLUMNS), *rows]) + "\n"


def scene_to_json(scene, view=None):
    """The whole scene as JSON text: settings first, then one point ``[x1, x2, class]`` per line.

    Parameters
    ----------
    scene : Scene
    view : dict or None
        What the app shows besides the scene (panel options, open tab...), stored as given.

    Returns
    -------
    str
    """
    header = {
        "format": SCENE_FORMAT,
        "version": SCENE_VERSION,
        "method": scene.method,
        "params": dict(scene.params),
        "multiclass": scene.multiclass,
        "basis": scene.basis,
        "basis_params": dict(scene.basis_params),
        "window": list(scene.window.as_tuple()),
        "step": scene.step,
        "seed": scene.seed,
    }
    if view is not None:
        header["view"] = view
    # default=str: a view value JSON cannot hold is written as text rather than failing the download.
    lines = [f"  {json.dumps(name)}: {json.dumps(value, default=str)}," for name, value in header.items()]
    rows = [json.dumps([float(x), float(y), label + 1]) for (x, y), label in zip(scene.points.xy, scene.points.labels)]
    points = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
    return "\n".join(["{", *lines, f'  "points": {points}', "}"]) + "\n"


# ---- Reading: shared ----------------------------------------------------------------------------


def _text(data):
    """Bytes or text -> text without a byte-order mark; size and encoding checked first."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise InvalidDataError(
            f"The file is {len(data) / 2**20:.1f} MB; the limit is {MAX_UPLOAD_BYTES / 2**20:.0f} MB."
        )
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            raise InvalidDataError(
                f"Line {line}: the file is not UTF-8 text (byte 0x{data[err.start]:02x} cannot be read); "
                "save it as UTF-8 or plain text and try again."
            ) from None
    return data.removeprefix("\ufeff")


def _show(text, quote="'"):
    """A piece of the file as a message can quote it: short, printable."""
    text = "".join(c if c.isprintable() else "?" for c in str(text)[:30]) + ("…" if len(str(text)) > 30 else "")
    return f"{quote}{text}{quote}"


def _show_json(value):
    """A JSON value as the file writes it (strings keep their double quotes)."""
    try:
        return _show(json.dumps(value), quote="")
    except (ValueError, RecursionError):
        return "that value"


# ---- Reading CSV --------------------------------------------------------------------------------


def points_from_csv(data):
    """Points from CSV text: columns x1, x2, class (1..6); raises InvalidDataError naming the line.

    A header row is optional (``x1,x2,class``, ``x,y,label`` and similar names, in any order);
    columns are separated by commas, semicolons or tabs (decimal commas are read after a
    semicolon or tab separator); blank lines, CRLF line ends and a UTF-8 byte-order mark are fine.

    Parameters
    ----------
    data : bytes or str

    Returns
    -------
    PointSet
    """
    lines = _text(data).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rows = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    if not rows:
        raise InvalidDataError("The file is empty: it has no rows of points.")
    separator = next((s for s in ("\t", ";") if s in rows[0][1]), ",")
    order = _header_order(_fields(rows[0][1], separator), rows[0][0])
    if order is None:
        order = (0, 1, 2)
    else:
        rows = rows[1:]
        if not rows:
            raise InvalidDataError("The file has a header but no rows of points.")
    if len(rows) > MAX_POINTS:
        raise InvalidDataError(f"The file has {len(rows):,} rows of points; at most {MAX_POINTS:,} are accepted.")
    X, labels = [], []
    for number, line in rows:
        fields = _fields(line, separator)
        if len(fields) != len(CSV_COLUMNS):
            raise InvalidDataError(
                f"Line {number}: expected 3 columns (x1, x2, class) separated by "
                f"{_SEPARATOR_NAMES[separator]} but found {_columns(len(fields))}."
            )
        x1, x2, label = (fields[i] for i in order)
        X.append((_coordinate(x1, number, "x1", separator), _coordinate(x2, number, "x2", separator)))
        labels.append(_class_index(label, number))
    return PointSet.from_arrays(X, labels)


_SEPARATOR_NAMES = {",": "commas", ";": "semicolons", "\t": "tabs"}


def _fields(line, separator):
    """A row's fields, stripped of spaces and of one pair of surrounding quotes."""
    fields = [field.strip() for field in line.split(separator)]
    return [f[1:-1].strip() if len(f) >= 2 and f[0] == f[-1] and f[0] in "\"'" else f for f in fields]


def _columns(count):
    return "1 column" if count == 1 else f"{count} columns"


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _header_order(fields, number):
    """Positions of (x1, x2, class) if the first row is a header, else None (it holds data)."""
    if any(_is_number(field) for field in fields):
        return None
    if len(fields) != len(CSV_COLUMNS):
        raise InvalidDataError(f"Line {number}: the header has {_columns(len(fields))}; expected 3 (x1, x2, class).")
    names = [field.lower() for field in fields]
    found = {}
    passes = (("class", _CLASS_NAMES), ("x1", _X1_NAMES), ("x2", _X2_NAMES), ("x2", {"y"}), ("class", {"y"}))
    for role, known in passes:
        matches = [i for i, name in enumerate(names) if name in known and i not in found.values()]
        if role not in found and len(matches) == 1:
            found[role] = matches[0]
    # Unrecognised names (e.g. height, weight, species): the columns are taken in order.
    return tuple(found[role] for role in CSV_COLUMNS) if len(found) == 3 else (0, 1, 2)


def _coordinate(text, number, column, separator):
    if not text:
        raise InvalidDataError(f"Line {number}: column {column} is empty.")
    if separator != "," and text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")  # a decimal comma, as spreadsheets in many locales write it
    try:
        value = float(text)
    except ValueError:
        raise InvalidDataError(f"Line {number}: {_show(text)} in column {column} is not a number.") from None
    if not math.isfinite(value):
        raise InvalidDataError(
            f"Line {number}: {_show(text)} in column {column} is not a finite number "
            "(NaN and infinity are not allowed)."
        )
    if abs(value) > MAX_COORDINATE:
        raise InvalidDataError(
            f"Line {number}: {_show(text)} in column {column} is outside the range ±{MAX_COORDINATE:,.0f} "
            "the playground accepts."
        )
    return value


def _class_index(text, number):
    """'1'..'6' (or '2.0') -> class index 0..5."""
    if not text:
        raise InvalidDataError(f"Line {number}: column class is empty.")
    value = float(text) if _is_number(text) else math.nan
    if not (value.is_integer() and 1 <= value <= MAX_CLASSES):
        raise InvalidDataError(
            f"Line {number}: the class must be a whole number from 1 to {MAX_CLASSES}, not {_show(text)}."
        )
    return int(value) - 1


# ---- Reading JSON -------------------------------------------------------------------------------


def scene_from_json(data):
    """A scene saved by ``scene_to_json``: (scene, view, messages).

    Raises InvalidDataError (naming the line) when the file cannot be used at all: not JSON, not
    an object, no usable points, too big. Any other unusable field falls back to its default and
    adds a sentence to ``messages``.

    Parameters
    ----------
    data : bytes or str

    Returns
    -------
    scene : Scene
    view : dict
        Bounded view settings: "panel_options" (dict), "tab" (str or None) and other simple values.
    messages : list of str
    """
    text = _text(data)
    if not text.strip():
        raise InvalidDataError("The file is empty.")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        where = f"Line {err.lineno}, column {err.colno}"
        raise InvalidDataError(f"{where}: the file is not valid JSON ({err.msg}).") from None
    except RecursionError:
        raise InvalidDataError("The file is nested too deeply to be a scene.") from None
    except ValueError as err:  # e.g. an integer with thousands of digits
        raise InvalidDataError(f"The file holds a value JSON cannot read here: {str(err)[:80]}.") from None
    if not isinstance(raw, dict):
        raise InvalidDataError("The file is JSON but not a scene: it should hold one object {...} with 'points'.")
    if "points" not in raw:
        raise InvalidDataError("The file has no 'points' list, so it is not a scene saved by the playground.")
    points = _points_from_rows(raw["points"], text)

    messages = []
    if raw.get("format") != SCENE_FORMAT:
        messages.append("The file does not say it is a playground scene; it was read as well as possible.")
    elif raw.get("version") != SCENE_VERSION:
        messages.append(
            f"The file was made by another version ({_show(raw.get('version'))}); it was read as well as possible."
        )
    # Start from a view of the points, so a hand-written file without a window shows them.
    scene = Scene(points=points, window=Window.around(points.X) if len(points) else Window())
    scene = scene_with_fields(scene, {k: raw[k] for k in SCENE_FIELDS if k in raw}, messages, source="file")
    view = _view(raw["view"], messages) if "view" in raw else {}
    known = {"format", "version", "points", "view", *SCENE_FIELDS}
    unknown = [f"The file's field {_show(name)} is unknown and was ignored." for name in raw if name not in known]
    report_ignored(unknown, "fields", messages)
    return scene, view, messages


def _points_from_rows(rows, text):
    """The 'points' value -> PointSet; a bad row raises InvalidDataError naming its line."""
    if not isinstance(rows, list):
        raise InvalidDataError(f"Line {_points_line(text)}: 'points' must be a list of [x1, x2, class] rows.")
    if len(rows) > MAX_POINTS:
        raise InvalidDataError(f"The file has {len(rows):,} points; at most {MAX_POINTS:,} are accepted.")
    X, labels = [], []
    for index, row in enumerate(rows):
        problem = _row_problem(row)
        if problem:
            raise InvalidDataError(f"Line {_points_line(text, index)}: point {index + 1:,} {problem}.")
        X.append((float(row[0]), float(row[1])))
        labels.append(int(row[2]) - 1)
    return PointSet.from_arrays(X, labels)


def _row_problem(row):
    """What is wrong with one [x1, x2, class] row, or None."""
    if not isinstance(row, list) or len(row) != 3:
        return f"is {_show_json(row)}, not a row [x1, x2, class] of three numbers"
    for value, column in zip(row[:2], CSV_COLUMNS):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f"has {column} = {_show_json(value)}, which is not a number"
        # Compare before converting: an integer with 400 digits does not fit a float.
        if isinstance(value, float) and not math.isfinite(value):
            return f"has {column} = {value}, which is not a finite number (NaN and infinity are not allowed)"
        if abs(value) > MAX_COORDINATE:
            shown = _show_json(value)
            return f"has {column} = {shown}, outside the range ±{MAX_COORDINATE:,.0f} the playground accepts"
    label = row[2]
    whole = isinstance(label, int) or (isinstance(label, float) and label.is_integer())
    if isinstance(label, bool) or not whole or not 1 <= label <= MAX_CLASSES:
        return f"has class {_show_json(label)}; the class must be a whole number from 1 to {MAX_CLASSES}"
    return None


def _points_line(text, index=None):
    """Line of the top-level 'points' value, or of its row ``index``, in valid JSON ``text``.

    Walks the top level with the JSON decoder itself (json.loads reports no positions), so any
    layout works; only called on the error path.
    """
    decoder = json.JSONDecoder()

    def skip(i):
        return _JSON_WHITESPACE.match(text, i).end()

    start, i = 0, skip(0) + 1  # past "{"
    while text[skip(i)] != "}":
        key, i = decoder.raw_decode(text, skip(i))
        value_start = skip(skip(i) + 1)  # past ":"
        _, i = decoder.raw_decode(text, value_start)
        if key == "points":
            start = value_start  # the last one wins, as in json.loads
        i = skip(i) + (text[skip(i)] == ",")
    if index is not None:
        start = skip(start + 1)  # past "["
        for _ in range(index):
            _, end = decoder.raw_decode(text, start)
            start = skip(skip(end) + 1)  # past ","
    return text.count("\n", 0, start) + 1


def _view(raw, messages):
    """The file's view settings, bounded as a link's: panel options, open tab, other simple values."""
    if not isinstance(raw, dict):
        messages.append("The file's view settings are not readable; they were ignored.")
        return {}
    view, ignored = {}, []
    for name, value in raw.items():
        if name == "panel_options":
            view[name] = clean_options(value, messages, source="file")
        elif name == "tab":
            if value is None or (isinstance(value, str) and len(value) <= MAX_TAB_CHARS):
                view[name] = value
            else:
                ignored.append("The file's open tab is not a short text and was ignored.")
        elif len(view) < MAX_OPTIONS and len(name) <= 40 and (value is None or simple_value(value) is not None):
            view[name] = simple_value(value)
        else:
            ignored.append(f"The file's view setting {_show(name)} is not allowed and was ignored.")
    report_ignored(ignored, "view settings", messages)
    return view
