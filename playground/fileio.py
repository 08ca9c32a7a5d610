"""Files a student can save, edit and load again: the points as CSV, the whole scene as JSON.

Writing keeps full float precision (``repr``), so a file round-trips exactly. Reading is strict
about the points (a bad row stops the load with one sentence naming its line) and lenient about
the rest of a scene (an unusable setting falls back to its default with a sentence), through the
link's own validators, so a file and a link accept the same values within the same bounds.
A CSV may label its classes as people do (0/1, -1/+1, 1..6, "setosa"...): up to six distinct
labels are mapped to the classes 1-6, and the mapping is returned and named in a sentence.
Test points (which no fit uses) are marked by an optional fourth CSV column ``set`` (train / test)
and by a fourth value "test" in a JSON row; files without test points are written as before.

This module writes both formats and reads the scene's JSON; ``playground.points_csv`` reads CSV.
What both readers share stays here, where whoever changes what one format accepts sees it: the text
decoding and its size limit (``file_text``), the quoting of the file's text in a sentence
(``quoted``), the column names and the train / test words.
"""

import functools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from .errors import InvalidDataError, Message
from .grid import Window
from .i18n import N_
from .link import MAX_OPTIONS, clean_options, report_ignored, scene_with_fields, simple_value
from .scene import PointSet, Scene
from .typed import TypedValueError, class_number, coordinate
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
SCENE_FIELDS = (
    "method",
    "params",
    "multiclass",
    "basis",
    "basis_params",
    "window",
    "step",
    "seed",
    "class_names",
    "guess",
    "fit_hidden",
)
MAX_TAB_CHARS = 60

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
    if scene.guess is not None:  # likewise only with a line of the person's own
        header["guess"] = list(scene.guess)
    if scene.fit_hidden:
        header["fit_hidden"] = True
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


def file_text(data: bytes | str) -> str:
    """Bytes or text -> text without a byte-order mark; size and encoding checked first."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise InvalidDataError(
            N_("The file is {n:,} bytes; the limit is {megabytes} MB ({limit:,} bytes)."),
            n=len(data),
            megabytes=MAX_UPLOAD_MB,
            limit=MAX_UPLOAD_BYTES,
        )
    if isinstance(data, bytes | bytearray):
        raw = bytes(data)
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InvalidDataError(
                N_(
                    "Line {line}: the file is not UTF-8 text (byte 0x{byte:02x} cannot be read); "
                    "save it as UTF-8 or plain text and try again."
                ),
                line=raw.count(b"\n", 0, err.start) + 1,
                byte=raw[err.start],
            ) from None
    return data.removeprefix("\ufeff")


def quoted(text: object, quote: str = "'") -> str:
    """A piece of the file as a message can quote it: short, printable."""
    text = "".join(c if c.isprintable() else "?" for c in str(text)[:30]) + ("…" if len(str(text)) > 30 else "")
    return f"{quote}{text}{quote}"


def _show_json(value: object) -> str:
    """A JSON value as the file writes it (strings keep their double quotes)."""
    try:
        return quoted(json.dumps(value), quote="")
    except (ValueError, RecursionError):
        return Message(N_("that value"))


# ---- Reading JSON -------------------------------------------------------------------------------


class LoadedScene(NamedTuple):
    """What a scene file gave (``scene_from_json``): the scene, the bounded view settings
    ("panel_options" (dict), "tab" (str or None) and other simple values), and a sentence for
    each unusable field that fell back to its default."""

    scene: Scene
    view: dict[str, Any]  # the values are the file's (checked, simple), read by the ui by name
    messages: list[Message]


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
    text = file_text(data)
    raw = _json_value(text)
    if not isinstance(raw, dict):
        raise InvalidDataError(N_("The file is JSON but not a scene: it should hold one object {{...}} with 'points'."))
    if "points" not in raw:
        raise InvalidDataError(N_("The file has no 'points' list, so it is not a scene saved by the playground."))
    points = _points_from_rows(raw["points"], text)

    messages: list[Message] = []
    if raw.get("format") != SCENE_FORMAT:
        messages.append(Message(N_("The file does not say it is a playground scene; it was read as well as possible.")))
    elif raw.get("version") != SCENE_VERSION:
        messages.append(
            Message(
                N_("The file was made by another version ({version}); it was read as well as possible."),
                version=quoted(raw.get("version")),
            )
        )
    # Start from a view of the points, so a hand-written file without a window shows them.
    scene = Scene(points=points, window=Window.around(points.X) if len(points) else Window())
    scene = scene_with_fields(scene, {k: raw[k] for k in SCENE_FIELDS if k in raw}, messages, source="file")
    view = _view(raw["view"], messages) if "view" in raw else {}
    known = {"format", "version", "points", "view", *SCENE_FIELDS}
    unknown = [
        Message(N_("The file's field {name} is unknown and was ignored."), name=quoted(name))
        for name in raw
        if name not in known
    ]
    report_ignored(unknown, N_("fields"), messages)
    return LoadedScene(scene, view, messages)


def _json_value(text: str) -> object:
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


def _points_from_rows(rows: object, text: str) -> PointSet:
    """The 'points' value -> PointSet; a bad row raises InvalidDataError naming its line."""
    if not isinstance(rows, list):
        raise InvalidDataError(
            N_("Line {line}: 'points' must be a list of [x1, x2, class] rows."), line=_points_line(text)
        )
    if len(rows) > MAX_POINTS:
        raise InvalidDataError(
            N_("The file has {n:,} points; at most {limit:,} are accepted."), n=len(rows), limit=MAX_POINTS
        )
    X: list[tuple[float, float]] = []
    labels: list[int] = []
    test: list[bool] = []
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


def _row_problem(row: object) -> Message | None:
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


# The row's values are JSON numbers (``_row_problem`` checked them), given to the typed readers as
# Any: the readers take text or a number, and the list's type cannot say which entries are which.
def _json_point(row: list[Any], line_of: Callable[[], int], number: int) -> tuple[float, float, int, bool]:
    """(x1, x2, class index, test) of a well-shaped row whose values are JSON numbers, read by the
    rules every typed number follows (``playground.typed``); raises naming the line (``line_of()``,
    found only on this error path) and the point."""
    values: list[float] = []
    readers: tuple[Callable[[Any], float], ...] = (coordinate, coordinate, class_number)
    for value, column, read in zip(row[:3], CSV_COLUMNS, readers):
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
    return values[0], values[1], int(values[2]) - 1, len(row) == 4 and row[3] == TEST


def _points_line(text: str, index: int | None = None) -> int:
    """Line of the top-level 'points' value, or of its row ``index``, in valid JSON ``text``.

    Walks the top level with the JSON decoder itself (json.loads reports no positions), so any
    layout works; only called on the error path.
    """
    decoder = json.JSONDecoder()

    def skip(i: int) -> int:
        match = _JSON_WHITESPACE.match(text, i)
        assert match is not None  # the pattern matches the empty string anywhere
        return match.end()

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


def _view(raw: object, messages: list[Message]) -> dict[str, Any]:
    """The file's view settings, bounded as a link's: panel options, open tab, other simple values."""
    if not isinstance(raw, dict):
        messages.append(Message(N_("The file's view settings are not readable; they were ignored.")))
        return {}
    view: dict[str, Any] = {}
    ignored: list[Message] = []
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
                Message(N_("The file's view setting {name} is not allowed and was ignored."), name=quoted(name))
            )
    report_ignored(ignored, N_("view settings"), messages)
    return view
