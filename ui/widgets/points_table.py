"""The points as a table: type, edit, delete or paste rows; one undo step per edit.

The table is drawn only while its expander is open, and reads the scene's points every time, so a
click on the canvas shows in it and an edit in it redraws the canvas. An edit (a typed cell, or a
pasted block of cells and rows) is checked whole before anything changes: every cell is text read
by the rules of ``playground.typed`` (shared with files and the typed-point form), and a cell that
is not a finite number, a class other than 1-6, a coordinate past the limit or too many points
gives a message naming the row and column; the points stay as they were and the table shows them
again.
"""

import math
from collections.abc import Mapping
from typing import Any, Final

import pandas as pd
import streamlit as st

from playground import InvalidDataError, Message, PlaygroundError
from playground.scene import PointSet
from playground.typed import TypedValueError, class_number, coordinate
from ui.base.visitor import visitor, widget_values
from ui.session import state
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import N_CLASSES, class_label_format, class_name, phrased

EXPANDER_KEY = "points_table_open"
NONCE_KEY: Final = "points_table_nonce"  # a new editor after a refused edit (it shows the scene again)
ERROR_KEY: Final = "points_table_error"
MAX_EDITABLE = 2_000  # rows an editor handles smoothly in the browser; above, the table is read-only
COLUMNS = ("x1", "x2", "class", "test")


def _cell_text(number):
    """A coordinate as the table shows it: the float's shortest exact text, without a trailing ".0"."""
    text = repr(float(number))
    return text.removesuffix(".0")


def points_frame(points: PointSet) -> pd.DataFrame:
    """The points as rows of text cells: x₁, x₂, class number (1-6, as the book counts) and the
    test flag. Text, not number columns: a number column clamps, rounds and re-reads what is
    typed or pasted in the browser, so the table would change a value before it is checked."""
    return pd.DataFrame(
        {
            "x1": pd.Series([_cell_text(x) for x in points.X[:, 0]] if len(points) else [], dtype=object),
            "x2": pd.Series([_cell_text(x) for x in points.X[:, 1]] if len(points) else [], dtype=object),
            "class": pd.Series([str(int(k) + 1) for k in points.labels], dtype=object),
            "test": pd.Series(list(points.is_test) if len(points) else [], dtype=bool),
        },
        columns=list(COLUMNS),
    )


# How a message names each column ("Row 1, column class: ...").
_COLUMN_TITLES = {"x1": "x₁", "x2": "x₂", "class": Message(N_("class"))}
_READERS = {"x1": coordinate, "x2": coordinate, "class": class_number}


def _blank(value):
    return (
        value is None
        or (isinstance(value, str) and not value.strip())
        or (isinstance(value, float) and math.isnan(value))
    )


def _read_error(number, column, value):
    """The error of row ``number``'s cell ``column`` holding ``value``, or None if it reads well."""
    try:
        _READERS[column](value)
    except TypedValueError as err:
        return Message(
            N_("Row {row}, column {column}: {problem}"), row=number, column=_COLUMN_TITLES[column], problem=err.message
        )
    return None


def _read(row, column, number):
    """One cell read by the shared rules (playground.typed); a refusal names the row and column."""
    value = row.get(column)
    try:
        return _READERS[column](value)
    except TypedValueError:
        raise InvalidDataError(_read_error(number, column, value)) from None


def _row_values(row, number):
    """(x1, x2, class index 0-5, test) of a table row; None while a cell of x₁, x₂, class is blank
    (the row is being typed; its other cells are checked all the same); raises naming the cell."""
    values = {column: _read(row, column, number) for column in COLUMNS[:3] if not _blank(row.get(column))}
    if len(values) < 3:
        return None
    return values["x1"], values["x2"], values["class"] - 1, bool(row.get("test") or False)


def incomplete_rows(points: PointSet, edits: Mapping[str, Any]) -> list[int]:
    """The numbers of the rows still being typed: some of x₁, x₂ and class empty."""
    rows = _rows(points, edits)
    return [number for number, row in enumerate(rows, start=1) if any(_blank(row.get(c)) for c in COLUMNS[:3])]


def _rows(points, edits):
    rows = points_frame(points).to_dict("records")
    for index, changes in (edits.get("edited_rows") or {}).items():
        rows[int(index)].update(changes)
    deleted = {int(index) for index in edits.get("deleted_rows") or ()}
    kept = [row for index, row in enumerate(rows) if index not in deleted]
    return kept + [dict(row) for row in edits.get("added_rows") or ()]


def edited_points(points: PointSet, edits: Mapping[str, Any]) -> PointSet | None:
    """The points after a data editor's ``edits`` (edited, added and deleted rows) of
    ``points_frame(points)``, or None while a row is being typed (a blank x₁, x₂ or class).

    The edit is checked whole first (a pasted block is one edit): every filled cell is read by the
    shared rules of ``playground.typed``, and the first bad one raises InvalidDataError naming its
    row and column, so either every change applies or none does."""
    values = [_row_values(row, number) for number, row in enumerate(_rows(points, edits), start=1)]
    if any(value is None for value in values):
        return None
    if not values:
        return PointSet()
    X = [(x1, x2) for x1, x2, _k, _t in values]
    y = [k for _x1, _x2, k, _t in values]
    test = [flag for *_rest, flag in values]
    return PointSet.from_arrays(X, y, test)


def _on_edit(key):
    edits = widget_values().get(key) or {}
    current = state.scene().points
    try:
        new_points = edited_points(current, edits)
    except PlaygroundError as err:
        visitor()[ERROR_KEY] = err.message  # phrased in the session's language where shown
        visitor()[NONCE_KEY] = visitor().get(NONCE_KEY, 0) + 1  # show the points again
        return
    visitor().pop(ERROR_KEY, None)
    if new_points is None:
        return  # a row is being typed cell by cell: wait until it is whole (the editor keeps it)
    if new_points != current:
        state.change_points(new_points)  # one undo step


def _dismiss():
    visitor().pop(ERROR_KEY, None)


def points_table(points: PointSet) -> None:
    """An expander with the points' table; its editor is built only while the expander is open."""
    expander = st.expander(_("Table of points (type, edit or paste rows)"), key=EXPANDER_KEY, on_change="rerun")
    if not expander.open:
        return
    with expander:
        error = visitor().get(ERROR_KEY)
        if error:
            st.error(plain(phrased(error, name=class_name)) + " " + _("Nothing was changed."), icon=":material/error:")
            st.button(_("Dismiss"), key="points_table_dismiss", on_click=_dismiss, type="tertiary")
        columns = {
            "x1": st.column_config.TextColumn("x₁", required=True),
            "x2": st.column_config.TextColumn("x₂", required=True),
            "class": st.column_config.TextColumn(
                _("class"),
                required=True,
                help=_("1 to {classes}, as the book counts classes").format(classes=N_CLASSES),
            ),
            "test": st.column_config.CheckboxColumn(_("test"), help=_("A test point: no fit uses it")),
        }
        frame = points_frame(points)
        if len(points) > MAX_EDITABLE:
            st.caption(
                _(
                    "{n} points: more than {limit} rows are shown read-only; edit them on the canvas or in a file."
                ).format(n=f"{len(points):,}", limit=f"{MAX_EDITABLE:,}")
            )
            st.dataframe(frame, column_config=columns, hide_index=True, height=300)
            return
        key = f"points_table_{hash(points)}_{visitor().get(NONCE_KEY, 0)}"
        waiting = incomplete_rows(points, widget_values().get(key) or {})
        if waiting:
            rows = ", ".join(str(number) for number in waiting[:5])
            st.caption(_("Row {rows}: fill in x₁, x₂ and the class to add or change the point.").format(rows=rows))
        st.data_editor(
            frame,
            key=key,
            num_rows="dynamic",
            hide_index=True,
            column_config=columns,
            width="stretch",
            height=min(36 * (len(points) + 2), 400),
            on_change=_on_edit,
            args=(key,),
        )
        st.caption(
            _(
                "Each edit is one undo step. Paste rows from a spreadsheet (x₁, x₂, class, test); "
                "add a row at the bottom, delete rows by selecting them."
            )
        )


FORM_KEY = "add_point_form"


def _typed_coordinate(key, title):
    """The form's field ``key`` read by the shared rules (playground.typed); a refusal names it."""
    try:
        return coordinate(widget_values().get(key) or "")
    except TypedValueError as err:
        raise InvalidDataError(N_("Field {field}: {problem}"), field=title, problem=err.message) from None


def _add_typed_point():
    """Add the typed point (one undo step): both coordinates filled in and read as the table reads
    a cell; a refusal is a notice and nothing changes."""
    label = visitor().get("typed_class", 0)
    points = state.scene().points
    try:
        if not (visitor().get("typed_x1") or "").strip() or not (visitor().get("typed_x2") or "").strip():
            raise PlaygroundError(_("Type both coordinates, x₁ and x₂."))
        x1, x2 = _typed_coordinate("typed_x1", "x₁"), _typed_coordinate("typed_x2", "x₂")
        test = state.point_set_mode() == "test"  # as a click would: a test point in test mode
        new_points = points.added(x1, x2, int(label), test=test)
    except PlaygroundError as err:
        state.notify(
            _("The point was not added: {reason}").format(reason=phrased(err, name=class_name))
        )  # plain where shown
        return
    state.change_points(new_points)  # one undo step


def point_form() -> None:
    """A keyboard way to add a point: x₁, x₂ and the class, then Enter (or the button)."""
    with st.expander(_("Add a point by typing its coordinates")):
        with st.form(FORM_KEY, border=False, enter_to_submit=True):
            left, right = st.columns(2)
            # Text fields, read by the table's rules: a number field would re-read what is typed.
            left.text_input("x₁", key="typed_x1", placeholder="0.5")
            right.text_input("x₂", key="typed_x2", placeholder="−1.2")
            st.selectbox(_("Class"), list(range(N_CLASSES)), format_func=class_label_format(), key="typed_class")
            st.form_submit_button(_("Add point"), on_click=_add_typed_point, width="stretch")
