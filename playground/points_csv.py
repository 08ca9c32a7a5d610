"""Points read from a CSV file: columns x1, x2, class and an optional set (train / test).

Rules that must hold:

- Strict: a row that cannot be read stops the load with one sentence naming its line (and column);
  nothing is guessed (a decimal comma is refused, not read as a separator).
- Numbers are read by the rules every typed value follows (``playground.typed``), within the same
  bounds as a link's, so a file and a link accept the same values.
- A CSV may label its classes as people do (0/1, -1/+1, 1..6, "setosa"...): up to six distinct
  labels are mapped to the classes 1-6, and the mapping is returned and named in a sentence; -1/+1
  follow the book (t = +1 is C1).
- The text decoding, the size limit and the quoting of the file's text are ``playground.fileio``'s,
  shared with the scene's JSON.
"""

import math
from dataclasses import dataclass
from typing import TypeAlias

from .errors import InvalidDataError, Message
from .fileio import CSV_COLUMNS, TEST, TRAIN, file_text, quoted
from .i18n import N_
from .scene import MAX_CLASSES, PointSet, clean_class_names
from .typed import COMMA, NOT_A_NUMBER, NOT_FINITE, TypedValueError, coordinate, not_finite, read_number
from .validation import MAX_POINTS

#: A class label as the file has it: a number (read as a float) or text.
Label: TypeAlias = float | str
#: A CSV row: its line number and its text.
Row: TypeAlias = tuple[int, str]
#: The columns of x1, x2, class and set (None: no set column).
Order: TypeAlias = tuple[int, int, int, int | None]

# Header names people commonly use for each column, lower case. "y" is the second coordinate
# next to "x" (x, y, label) but the class next to "x1, x2" (scikit-learn's X, y).
_X1_NAMES = {"x1", "x_1", "x", "feature1", "feature_1", "f1"}
_X2_NAMES = {"x2", "x_2", "feature2", "feature_2", "f2"}
_CLASS_NAMES = {"class", "label", "labels", "target", "t", "c", "k", "category", "cls", "group"}
_SET_NAMES = {"set", "split", "subset"}
# What the set column may hold (any case); an empty field is a training point.
_SET_VALUES = {"train": False, "training": False, "": False, "test": True, "testing": True}


@dataclass(frozen=True)
class CsvPoints:
    """What a CSV gave: the points, the file's own label of each class, and what was done.

    ``class_labels[k]`` is the file's label of class k + 1 (e.g. "setosa"), None for a class the
    file does not use; ``message`` names the mapping when the labels were not the classes 1-6.
    """

    points: PointSet
    class_labels: tuple[str | None, ...]
    message: Message | None = None
    text_labels: bool = False  # the labels were text ("setosa"), not numbers

    @property
    def class_names(self) -> tuple[str, ...]:
        """The file's text labels as class names (``Scene.class_names``): ("setosa", "versicolor",
        ...) when the labels were text, () when they were numbers (a class is not named "0").
        Cleaned and bounded as every name is (a long label is shortened)."""
        return clean_class_names(list(self.class_labels))[0] if self.text_labels else ()


def points_from_csv(data: bytes | str) -> PointSet:
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
    rows, separator, order = _csv_layout(file_text(data))
    X, labels, test = _csv_rows(rows, separator, order)
    indices, class_labels, message = _classes(labels)
    text_labels = any(isinstance(label, str) for label, _ in labels)
    return CsvPoints(PointSet.from_arrays(X, indices, test), class_labels, message, text_labels)


def _csv_layout(text: str) -> tuple[list[Row], str, Order]:
    """(rows, separator, order) of CSV text: the non-blank (line number, line) pairs without the
    header, the separator (tab, semicolon or comma) and the columns of x1, x2, class and set
    (None when there is no set column); raises InvalidDataError for no rows or too many."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rows = [(number, line) for number, line in enumerate(lines, 1) if line.strip()]
    if not rows:
        raise InvalidDataError(N_("The file is empty: it has no rows of points."))
    separator = next((s for s in ("\t", ";") if s in rows[0][1]), ",")
    first = _fields(rows[0][1], separator)
    header = _header_order(first, rows[0][0])
    order: Order
    if header is None:
        order = (0, 1, 2, 3) if len(first) == 4 else (0, 1, 2, None)  # no header: a 4th column is the set
    else:
        order = header
        rows = rows[1:]
        if not rows:
            raise InvalidDataError(N_("The file has a header but no rows of points."))
    if len(rows) > MAX_POINTS:
        raise InvalidDataError(
            N_("The file has {n:,} rows of points; at most {limit:,} are accepted."), n=len(rows), limit=MAX_POINTS
        )
    return rows, separator, order


def _csv_rows(
    rows: list[Row], separator: str, order: Order
) -> tuple[list[tuple[float, float]], list[tuple[Label, int]], list[bool]]:
    """(X, labels, test) read from the rows: coordinate pairs, (label, line number) pairs, and
    whether each point is a test point; raises InvalidDataError naming the line."""
    set_column = order[3]
    width = 3 if set_column is None else 4
    X: list[tuple[float, float]] = []
    labels: list[tuple[Label, int]] = []
    test: list[bool] = []
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
        test.append(_set_flag(fields[set_column], number) if set_column is not None else False)
    return X, labels, test


def _set_flag(text: str, number: int) -> bool:
    """True for a test point: the set column holds train or test (any case), empty for train."""
    flag = _SET_VALUES.get(text.lower())
    if flag is None:
        raise InvalidDataError(
            N_(
                "Line {line}: the set {set} is neither {train} nor {test}; write {train} or {test} "
                "(an empty field is a training point)."
            ),
            line=number,
            set=quoted(text),
            train=TRAIN,
            test=TEST,
        )
    return flag


def _label(text: str, number: int) -> Label:
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


def _label_text(label: Label, signed: bool = False) -> str:
    if isinstance(label, str):
        return quoted(label)
    return f"{label:+g}" if signed else f"{label:g}"


def _classes(labels: list[tuple[Label, int]]) -> tuple[list[int], tuple[str | None, ...], Message | None]:
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
    class_labels: list[str | None] = [None] * MAX_CLASSES
    if all(not isinstance(label, str) and label.is_integer() and 1 <= label <= MAX_CLASSES for label in distinct):
        mapping = {label: int(label) - 1 for label in distinct}  # the classes themselves
        return [mapping[label] for label, _ in labels], tuple(class_labels), None
    targets = distinct == [-1.0, 1.0]
    if targets:
        distinct = [1.0, -1.0]  # the book's targets: t = +1 for C1, t = -1 for C2
    mapping = {label: k for k, label in enumerate(distinct)}
    for label, k in mapping.items():
        class_labels[k] = label if isinstance(label, str) else _label_text(label, targets)
    pairs: Message | None = None
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


def _fields(line: str, separator: str) -> list[str]:
    """A row's fields, stripped of spaces and of one pair of surrounding quotes."""
    fields = [field.strip() for field in line.split(separator)]
    return [f[1:-1].strip() if len(f) >= 2 and f[0] == f[-1] and f[0] in "\"'" else f for f in fields]


def _columns(count: int) -> Message:
    return Message(N_("1 column")) if count == 1 else Message(N_("{n} columns"), n=count)


def _is_number(text: str) -> bool:
    """Whether a field is data rather than a header name: a number, or number-like text that is
    refused as such (a comma, nan, inf)."""
    try:
        read_number(text)
    except TypedValueError as err:
        return err.kind in (COMMA, NOT_FINITE)
    return True


def _header_order(fields: list[str], number: int) -> Order | None:
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
    names: list[str | None] = [field.lower() for field in fields]
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
    found: dict[str, int] = {}
    passes = (("class", _CLASS_NAMES), ("x1", _X1_NAMES), ("x2", _X2_NAMES), ("x2", {"y"}), ("class", {"y"}))
    for role, known in passes:
        matches = [i for i, name in enumerate(names) if name in known and i not in found.values()]
        if role not in found and len(matches) == 1:
            found[role] = matches[0]
    # Unrecognised names (e.g. height, weight, species): the columns are taken in order.
    x1, x2, label = (found[role] for role in CSV_COLUMNS) if len(found) == 3 else rest  # three columns either way
    return (x1, x2, label, set_column)


def _cell_error(err: TypedValueError, number: int, column: str) -> InvalidDataError:
    """A typed value's refusal (playground.typed) as the file's sentence naming line and column."""
    template = N_("Line {line}, column {column}: {problem}")
    return InvalidDataError(template, line=number, column=column, problem=err.message)


def _coordinate(text: str, number: int, column: str) -> float:
    """A coordinate field read by the rules every typed number follows (``playground.typed``):
    a decimal point, never a comma; finite; within ±MAX_COORDINATE."""
    try:
        return coordinate(text)
    except TypedValueError as err:
        raise _cell_error(err, number, column) from None
