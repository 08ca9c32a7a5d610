"""Files a student can save, edit and load again: the points as CSV, the whole scene as JSON.

Writing keeps full float precision (``repr``), so a file round-trips exactly. Reading is strict
about the points (a bad row stops the load with one sentence naming its line) and lenient about
the rest of a scene (an unusable setting falls back to its default with a sentence), through the
link's own validators, so a file and a link accept the same values within the same bounds.
A CSV may label its classes as people do (0/1, -1/+1, 1..6, "setosa"...): up to six distinct
labels are mapped to the classes 1-6, and the mapping is returned and named in a sentence.
Test points (which no fit uses) are marked by an optional fourth CSV column ``set`` (train / test)
and by a fourth value "test" in a JSON row; files without test points are written as before.

Both formats stay in this one module, past 600 lines, because they share the text decoding, the
label mapping, the bounds and the sentences: whoever changes what one format accepts sees the other.
"""

import functools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from .errors import InvalidDataError, Message
from .grid import Window
from .i18n import N_
from .link import MAX_OPTIONS, clean_options, report_ignored, scene_with_fields, simple_value
from .scene import MAX_CLASSES, PointSet, Scene, clean_class_names
from .typed import COMMA, NOT_A_NUMBER, NOT_FINITE, TypedValueError, class_number, coordinate, not_finite, read_number
from .validation import MAX_POINTS

# One number for the upload limit: the app's check, the uploader's (which counts 1 MB as 10^6
# bytes) and Streamlit's server.maxUploadSize in .streamlit/config.toml (which counts 2^20 and so
# refuses a larger body itself). 20,000 points on the 1e-5 grid take about 0.5 MB as CSV.
MAX_UPLOAD_MB = 2
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1_000_000
CSV_COLUMNS = ("x1", "x2", "class")
SET_COLUMN = "set"  # optional fourth column: train or test
TRAIN, TEST = "train", "test"
SCENE_FORMAT = "linear-classification-playground scene"
SCENE_VERSION = 1
# The settings a scene file holds besides its points, named as Scene names them.
SCENE_FIELDS = ("method", "params", "multiclass", "basis", "basis_params", "window", "step", "seed", "class_names")
MAX_TAB_CHARS = 60

# Header names people commonly use for each column, lower case. "y" is the second coordinate
# next to "x" (x, y, label) but the class next to "x1, x2" (scikit-learn's X, y).
_X1_NAMES = {"x1", "x_1", "x", "feature1", "feature_1", "f1"}
_X2_NAMES = {"x2", "x_2", "feature2", "feature_2", "f2"}
_CLASS_NAMES = {"class", "label", "labels", "target", "t", "c", "k", "category", "cls", "group"}
_SET_NAMES = {"set", "split", "subset"}
# What the set column may hold (any case); an empty field is a training point.
_SET_VALUES = {"train": False, "training": False, "": False, "test": True, "testing": True}
_JSON_WHITESPACE = re.compile(r"[ \t\n\r]*")


# ---- Writing ------------------------------------------------------------------------------------


def points_to_csv(points: PointSet) -> str:
    """The points as CSV text: header ``x1,x2,class``, classes 1..6, full float precision, and a
    fourth column ``set`` (train / test) when there are test points.

    Parameters
    ----------
    points : PointSet

    Returns
    -------
    str
    """
    rows = [f"{float(x)!r},{float(y)!r},{label + 1}" for (x, y), label in zip(points.xy, points.labels)]
    header = list(CSV_COLUMNS)
    if points.test:  # the set column only when it says something: older files stay as they were
        header.append(SET_COLUMN)
        rows = [f"{row},{TEST if flag else TRAIN}" for row, flag in zip(rows, points.test)]
    return "\n".join([",".join(header), *rows]) + "\n"


def scene_to_json(scene: Scene, view: Mapping[str, Any] | None = None) -> str:
    """The whole scene as JSON text: settings first, then one point ``[x1, x2, class]`` per line
    (``[x1, x2, class, "test"]`` for a test point).

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
    if scene.class_names:  # only when named: files without names stay as they were
        header["class_names"] = list(scene.class_names)
    if view is not None:
        header["view"] = view
    # default=str: a view value JSON cannot hold is written as text rather than failing the download.
    lines = [f"  {json.dumps(name)}: {json.dumps(value, default=str)}," for name, value in header.items()]
    rows = [
        json.dumps([float(x), float(y), label + 1] + ([TEST] if flag else []))
        for ((x, y), label), flag in zip(zip(scene.points.xy, scene.points.labels), scene.points.is_test.tolist())
    ]
    points = "[\n    " + ",\n    ".join(rows) + "\n  ]" if rows else "[]"
    return "\n".join(["{", *lines, f'  "points": {points}', "}"]) + "\n"


# ---- Reading: shared ----------------------------------------------------------------------------


def _text(data):
    """Bytes or text -> text without a byte-order mark; size and encoding checked first."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise InvalidDataError(
            N_("The file is {n:,} bytes; the limit is {megabytes} MB ({limit:,} bytes)."),
            n=len(data),
            megabytes=MAX_UPLOAD_MB,
            limit=MAX_UPLOAD_BYTES,
        )
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as err:
            line = data.count(b"\n", 0, err.start) + 1
            raise InvalidDataError(
                N_(
                    "Line {line}: the file is not UTF-8 text (byte 0x{byte:02x} cannot be read); "
                    "save it as UTF-8 or plain text and try again."
                ),
                line=line,
                byte=data[err.start],
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
        return Message(N_("that value"))


# ---- Reading CSV --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CsvPoints:
    """What a CSV gave: the points, the file's own label of each class, and what was done.

    ``class_labels[k]`` is the file's label of class k + 1 (e.g. "setosa"), None for a class the
    file does not use; ``message`` names the mapping when the labels were not the classes 1-6.
    """

    points: PointSet
    class_labels: tuple
    message: Message | None = None
    text_labels: bool = False  # the labels were text ("setosa"), not numbers

    @property
    def class_names(self):
        """The file's text labels as class names (``Scene.class_names``): ("setosa", "versicolor",
        ...) when the labels were text, () when they were numbers (a class is not named "0").
        Cleaned and bounded as every name is (a long label is shortened)."""
        return clean_class_names(list(self.class_labels))[0] if self.text_labels else ()


class LoadedScene(NamedTuple):
    """What a scene file gave (``scene_from_json``): the scene, the bounded view settings
    ("panel_options" (dict), "tab" (str or None) and other simple values), and a sentence for
    each unusable field that fell back to its default."""

    scene: Scene
    view: dict[str, Any]
    messages: list[Any]


def points_from_csv(data):
    """Points from CSV text (see ``read_points_csv``); raises InvalidDataError naming the line."""
    return read_points_csv(data).points


def read_points_csv(data: bytes | str) -> CsvPoints:
    """Points from CSV text: columns x1, x2, class; raises InvalidDataError naming the line.

    A header row is optional (``x1,x2,class``, ``x,y,label`` and similar names, in any order);
    columns are separated by commas, semicolons or tabs; blank lines, CRLF line ends and a UTF-8
    byte-order mark are fine. Numbers are read as the table of points reads a typed cell
    (``playground.typed``): a decimal point (Unicode digits too), never a decimal comma, which is
    refused with a sentence rather than guessed.
    The class column may hold the classes 1-6 themselves, or any other labels with at most six
    distinct values, all numbers or all text: 0/1 and 0-5 (scikit-learn's), -1/+1 (the book's t,
    so +1 is class 1), "setosa"; those are mapped to the classes 1, 2, ... in sorted order.

    Parameters
    ----------
    data : bytes or str

    An optional fourth column ``set`` says whether a point is a training point (train, or empty)
    or a test point (test), which no fit uses; without a header it is the fourth column.

    Returns
    -------
    CsvPoints
    """
    rows, separator, order = _csv_layout(_text(data))
    X, labels, test = _csv_rows(rows, separator, order)
    indices, class_labels, message = _classes(labels)
    text_labels = any(isinstance(label, str) for label, _ in labels)
    return CsvPoints(PointSet.from_arrays(X, indices, test), class_labels, message, text_labels)


def _csv_layout(text):
    """(rows, separator, order) of CSV text: the non-blank (line number, line) pairs without the
    header, the separator (tab, semicolon or comma) and the columns of x1, x2, class and set
    (None when there is no set column); raises InvalidDataError for no rows or too many."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rows = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    if not rows:
        raise InvalidDataError(N_("The file is empty: it has no rows of points."))
    separator = next((s for s in ("\t", ";") if s in rows[0][1]), ",")
    first = _fields(rows[0][1], separator)
    order = _header_order(first, rows[0][0])
    if order is None:
        order = (0, 1, 2, 3) if len(first) == 4 else (0, 1, 2, None)  # no header: a 4th column is the set
    else:
        rows = rows[1:]
        if not rows:
            raise InvalidDataError(N_("The file has a header but no rows of points."))
    if len(rows) > MAX_POINTS:
        raise InvalidDataError(
            N_("The file has {n:,} rows of points; at most {limit:,} are accepted."), n=len(rows), limit=MAX_POINTS
        )
    return rows, separator, order


def _csv_rows(rows, separator, order):
    """(X, labels, test) read from the rows: coordinate pairs, (label, line number) pairs, and
    whether each point is a test point; raises InvalidDataError naming the line."""
    width = 3 if order[3] is None else 4
    X, labels, test = [], [], []
    for number, line in rows:
        fields = _fields(line, separator)
        if len(fields) != width:
            if width == 3:
                template = N_("Line {line}: expected 3 columns (x1, x2, class) separated by {separator} but found {n}.")
            else:
                template = N_(
                    "Line {line}: expected 4 columns (x1, x2, class, set) separated by {separator} but found {n}."
                )
            raise InvalidDataError(
                template,
                line=number,
                separator=Message(_SEPARATOR_NAMES[separator]),
                n=_columns(len(fields)),
            )
        x1, x2, label = (fields[i] for i in order[:3])
        X.append((_coordinate(x1, number, "x1"), _coordinate(x2, number, "x2")))
        labels.append((_label(label, number), number))
        test.append(_set_flag(fields[order[3]], number) if width == 4 else False)
    return X, labels, test


def _set_flag(text, number):
    """True for a test point: the set column holds train or test (any case), empty for train."""
    flag = _SET_VALUES.get(text.lower())
    if flag is None:
        raise InvalidDataError(
            N_(
                "Line {line}: the set {set} is neither {train} nor {test}; write {train} or {test} "
                "(an empty field is a training point)."
            ),
            line=number,
            set=_show(text),
            train=TRAIN,
            test=TEST,
        )
    return flag


def _label(text, number):
    """A class label as read: a float for a number ('1', '2.0', '-1', '２'), read by the rules of
    ``playground.typed`` (a comma or a non-finite number is refused), else the text itself."""
    try:
        value = read_number(text)
    except TypedValueError as err:
        if err.kind == NOT_A_NUMBER:
            return text
        raise _cell_error(err, number, "class") from None
    if not math.isfinite(value):  # an exponent past the floats (1e999)
        raise _cell_error(not_finite(text), number, "class")
    return value


def _label_text(label, signed=False):
    if isinstance(label, str):
        return _show(label)
    return f"{label:+g}" if signed else f"{label:g}"


def _classes(labels):
    """[(label, line), ...] -> (class index per row, the file's label per class, a sentence or None).

    Labels that are all whole numbers from 1 to MAX_CLASSES are the classes themselves (the
    playground's own files); -1/+1 follow the book (t = +1 is C1); any other set of at most
    MAX_CLASSES labels is mapped in sorted order.
    """
    kinds = {isinstance(label, str) for label, _ in labels}
    if len(kinds) > 1:
        text = next((label, line) for label, line in labels if isinstance(label, str))
        number = next((label, line) for label, line in labels if not isinstance(label, str))
        raise InvalidDataError(
            N_(
                "The class column mixes numbers and text (line {number_line}: {number}, "
                "line {text_line}: {text}); use one kind of label for every row."
            ),
            number_line=number[1],
            number=_label_text(number[0]),
            text_line=text[1],
            text=_label_text(text[0]),
        )
    distinct = sorted({label for label, _ in labels})
    if len(distinct) > MAX_CLASSES:
        shown = ", ".join(_label_text(label) for label in distinct[:8]) + (", …" if len(distinct) > 8 else "")
        raise InvalidDataError(
            N_("The class column has {n:,} different labels ({shown}); the playground shows at most {limit} classes."),
            n=len(distinct),
            shown=shown,
            limit=MAX_CLASSES,
        )
    class_labels = [None] * MAX_CLASSES
    if all(not isinstance(label, str) and label.is_integer() and 1 <= label <= MAX_CLASSES for label in distinct):
        mapping = {label: int(label) - 1 for label in distinct}  # the classes themselves
        return [mapping[label] for label, _ in labels], tuple(class_labels), None
    targets = distinct == [-1.0, 1.0]
    if targets:
        distinct = [1.0, -1.0]  # the book's targets: t = +1 for C1, t = -1 for C2
    mapping = {label: k for k, label in enumerate(distinct)}
    for label, k in mapping.items():
        class_labels[k] = label if isinstance(label, str) else _label_text(label, targets)
    pairs = None
    for label, k in mapping.items():
        pair = Message(N_("{label} → class {number}"), label=_label_text(label, targets), number=k + 1)
        pairs = pair if pairs is None else Message(N_("{names}, {name}"), names=pairs, name=pair)
    if targets:
        template = N_(
            "The file's labels were mapped to the playground's classes (t = +1 is C₁, as in the book): {pairs}."
        )
    else:
        template = N_("The file's labels were mapped to the playground's classes in sorted order: {pairs}.")
    message = Message(template, pairs=pairs)
    return [mapping[label] for label, _ in labels], tuple(class_labels), message


_SEPARATOR_NAMES = {",": N_("commas"), ";": N_("semicolons"), "\t": N_("tabs")}


def _fields(line, separator):
    """A row's fields, stripped of spaces and of one pair of surrounding quotes."""
    fields = [field.strip() for field in line.split(separator)]
    return [f[1:-1].strip() if len(f) >= 2 and f[0] == f[-1] and f[0] in "\"'" else f for f in fields]


def _columns(count):
    return Message(N_("1 column")) if count == 1 else Message(N_("{n} columns"), n=count)


def _is_number(text):
    """Whether a field is data rather than a header name: a number, or number-like text that is
    refused as such (a comma, nan, inf)."""
    try:
        read_number(text)
    except TypedValueError as err:
        return err.kind in (COMMA, NOT_FINITE)
    return True


def _header_order(fields, number):
    """Positions of (x1, x2, class, set) if the first row is a header, else None (it holds data);
    the set's position is None when the file has no set column."""
    if any(_is_number(field) for field in fields):
        return None
    if len(fields) not in (3, 4):
        raise InvalidDataError(
            N_("Line {line}: the header has {n}; expected 3 (x1, x2, class) or 4 (x1, x2, class, set)."),
            line=number,
            n=_columns(len(fields)),
        )
    names = [field.lower() for field in fields]
    set_column = None
    if len(fields) == 4:
        matches = [i for i, name in enumerate(names) if name in _SET_NAMES]
        if len(matches) != 1:
            raise InvalidDataError(
                N_(
                    "Line {line}: the header has 4 columns but no single 'set' column (train or test); "
                    "expected x1, x2, class, set."
                ),
                line=number,
            )
        set_column = matches[0]
        names[set_column] = None  # not a candidate for the other roles
    rest = [i for i in range(len(fields)) if i != set_column]
    found = {}
    passes = (("class", _CLASS_NAMES), ("x1", _X1_NAMES), ("x2", _X2_NAMES), ("x2", {"y"}), ("class", {"y"}))
    for role, known in passes:
        matches = [i for i, name in enumerate(names) if name in known and i not in found.values()]
        if role not in found and len(matches) == 1:
            found[role] = matches[0]
    # Unrecognised names (e.g. height, weight, species): the columns are taken in order.
    return (*(tuple(found[role] for role in CSV_COLUMNS) if len(found) == 3 else tuple(rest)), set_column)


def _cell_error(err, number, column):
    """A typed value's refusal (playground.typed) as the file's sentence naming line and column."""
    template = N_("Line {line}, column {column}: {problem}")
    return InvalidDataError(template, line=number, column=column, problem=err.message)


def _coordinate(text, number, column):
    """A coordinate field read by the rules every typed number follows (``playground.typed``):
    a decimal point, never a comma; finite; within ±MAX_COORDINATE."""
    try:
        return coordinate(text)
    except TypedValueError as err:
        raise _cell_error(err, number, column) from None


# ---- Reading JSON -------------------------------------------------------------------------------


def scene_from_json(data: bytes | str) -> LoadedScene:
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
    raw = _json_value(text)
    if not isinstance(raw, dict):
        raise InvalidDataError(N_("The file is JSON but not a scene: it should hold one object {{...}} with 'points'."))
    if "points" not in raw:
        raise InvalidDataError(N_("The file has no 'points' list, so it is not a scene saved by the playground."))
    points = _points_from_rows(raw["points"], text)

    messages = []
    if raw.get("format") != SCENE_FORMAT:
        messages.append(Message(N_("The file does not say it is a playground scene; it was read as well as possible.")))
    elif raw.get("version") != SCENE_VERSION:
        messages.append(
            Message(
                N_("The file was made by another version ({version}); it was read as well as possible."),
                version=_show(raw.get("version")),
            )
        )
    # Start from a view of the points, so a hand-written file without a window shows them.
    scene = Scene(points=points, window=Window.around(points.X) if len(points) else Window())
    scene = scene_with_fields(scene, {k: raw[k] for k in SCENE_FIELDS if k in raw}, messages, source="file")
    view = _view(raw["view"], messages) if "view" in raw else {}
    known = {"format", "version", "points", "view", *SCENE_FIELDS}
    unknown = [
        Message(N_("The file's field {name} is unknown and was ignored."), name=_show(name))
        for name in raw
        if name not in known
    ]
    report_ignored(unknown, N_("fields"), messages)
    return LoadedScene(scene, view, messages)


def _json_value(text):
    """The JSON value of a file's text, or InvalidDataError with a sentence (naming the line)."""
    if not text.strip():
        raise InvalidDataError(N_("The file is empty."))
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidDataError(
            N_("Line {line}, column {column}: the file is not valid JSON ({error})."),
            line=err.lineno,
            column=err.colno,
            error=err.msg,
        ) from None
    except RecursionError:
        raise InvalidDataError(N_("The file is nested too deeply to be a scene.")) from None
    except ValueError as err:  # e.g. an integer with thousands of digits
        raise InvalidDataError(
            N_("The file holds a value JSON cannot read here: {error}."), error=str(err)[:80]
        ) from None
    return raw


def _points_from_rows(rows, text):
    """The 'points' value -> PointSet; a bad row raises InvalidDataError naming its line."""
    if not isinstance(rows, list):
        raise InvalidDataError(
            N_("Line {line}: 'points' must be a list of [x1, x2, class] rows."), line=_points_line(text)
        )
    if len(rows) > MAX_POINTS:
        raise InvalidDataError(
            N_("The file has {n:,} points; at most {limit:,} are accepted."), n=len(rows), limit=MAX_POINTS
        )
    X, labels, test = [], [], []
    for index, row in enumerate(rows):
        problem = _row_problem(row)
        if problem:
            raise InvalidDataError(
                N_("Line {line}: point {number:,} {problem}."),
                line=_points_line(text, index),
                number=index + 1,
                problem=problem,
            )
        x1, x2, label, flag = _json_point(row, functools.partial(_points_line, text, index), index + 1)
        X.append((x1, x2))
        labels.append(label)
        test.append(flag)
    return PointSet.from_arrays(X, labels, test)


def _row_problem(row):
    """What is wrong with one [x1, x2, class] or [x1, x2, class, "train" / "test"] row, or None."""
    if not isinstance(row, list) or len(row) not in (3, 4) or (len(row) == 4 and not isinstance(row[3], str)):
        return Message(N_("is {row}, not a row [x1, x2, class] of three numbers"), row=_show_json(row))
    if len(row) == 4 and row[3] not in (TRAIN, TEST):
        return Message(
            N_('has set {set}; a fourth value must be "{train}" or "{test}"'),
            set=_show_json(row[3]),
            train=TRAIN,
            test=TEST,
        )
    for value, column in zip(row[:3], CSV_COLUMNS):
        if isinstance(value, bool) or not isinstance(value, int | float):
            return Message(N_("has {column} = {value}, which is not a number"), column=column, value=_show_json(value))
    return None


def _json_point(row, line_of, number):
    """(x1, x2, class index, test) of a well-shaped row whose values are JSON numbers, read by the
    rules every typed number follows (``playground.typed``); raises naming the line (``line_of()``,
    found only on this error path) and the point."""
    values = []
    for value, column, read in zip(row[:3], CSV_COLUMNS, (coordinate, coordinate, class_number)):
        try:
            values.append(read(value))
        except TypedValueError as err:
            raise InvalidDataError(
                N_("Line {line}: point {number:,}, {column}: {problem}"),
                line=line_of(),
                number=number,
                column=column,
                problem=err.message,
            ) from None
    return values[0], values[1], values[2] - 1, len(row) == 4 and row[3] == TEST


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
        messages.append(Message(N_("The file's view settings are not readable; they were ignored.")))
        return {}
    view, ignored = {}, []
    for name, value in raw.items():
        if name == "panel_options":
            view[name] = clean_options(value, messages, source="file")
        elif name == "tab":
            if value is None or (isinstance(value, str) and len(value) <= MAX_TAB_CHARS):
                view[name] = value
            else:
                ignored.append(Message(N_("The file's open tab is not a short text and was ignored.")))
        elif len(view) < MAX_OPTIONS and len(name) <= 40 and (value is None or simple_value(value) is not None):
            view[name] = simple_value(value)
        else:
            ignored.append(
                Message(N_("The file's view setting {name} is not allowed and was ignored."), name=_show(name))
            )
    report_ignored(ignored, N_("view settings"), messages)
    return view
