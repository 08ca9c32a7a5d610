"""The points as a table: type, edit, delete or paste rows (issue 18); one undo step per edit.

The table is drawn only while its expander is open, and reads the scene's points every time, so a
click on the canvas shows in it and an edit in it redraws the canvas. An edit is checked whole
before anything changes: a cell that is not a finite number, a class outside 1-6, a coordinate
past the limit or too many points gives a message, the points stay as they were and the table
shows them again.
"""

import math

import pandas as pd
import streamlit as st

from playground import PlaygroundError
from playground.scene import MAX_COORDINATE, PointSet

from . import state
from .i18n import _
from .names import N_CLASSES, class_label, phrased
from .text import plain

EXPANDER_KEY = "points_table_open"
NONCE_KEY = "points_table_nonce"  # a new editor after a refused edit (it shows the scene again)
ERROR_KEY = "points_table_error"
MAX_EDITABLE = 2_000  # rows an editor handles smoothly in the browser; above, the table is read-only
COLUMNS = ("x1", "x2", "class", "test")


def points_frame(points):
    """The points as rows: x₁, x₂, class number (1-6, as the book counts) and the test flag."""
    return pd.DataFrame(
        {
            "x1": points.X[:, 0] if len(points) else [],
            "x2": points.X[:, 1] if len(points) else [],
            "class": [int(k) + 1 for k in points.labels],
            "test": list(points.is_test) if len(points) else [],
        },
        columns=list(COLUMNS),
    )


def _number(value):
    """A cell as a float, or None when it is empty or not a finite number."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = float(str(value).replace("−", "-").strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _row_values(row, number):
    """(x1, x2, class index 0-5, test) of a table row, or raise PlaygroundError naming the row."""
    x1, x2, k = _number(row.get("x1")), _number(row.get("x2")), _number(row.get("class"))
    if x1 is None or x2 is None:
        raise PlaygroundError(_("Row {row}: x₁ and x₂ must both be finite numbers.").format(row=number))
    if max(abs(x1), abs(x2)) > MAX_COORDINATE:
        raise PlaygroundError(
            _("Row {row}: coordinates must lie within ±{limit}.").format(row=number, limit=f"{MAX_COORDINATE:,.0f}")
        )
    if k is None or k != int(k) or not 1 <= k <= N_CLASSES:
        raise PlaygroundError(
            _("Row {row}: the class must be a whole number from 1 to {classes}.").format(row=number, classes=N_CLASSES)
        )
    return x1, x2, int(k) - 1, bool(row.get("test") or False)


def _blank(value):
    return (
        value is None
        or (isinstance(value, str) and not value.strip())
        or (isinstance(value, float) and math.isnan(value))
    )


def incomplete_rows(points, edits):
    """The numbers of the rows still being typed: some of x₁, x₂ and class empty, none bad."""
    rows = _rows(points, edits)
    return [number for number, row in enumerate(rows, start=1) if any(_blank(row.get(c)) for c in COLUMNS[:3])]


def _rows(points, edits):
    rows = points_frame(points).to_dict("records")
    for index, changes in (edits.get("edited_rows") or {}).items():
        rows[int(index)].update(changes)
    deleted = {int(index) for index in edits.get("deleted_rows") or ()}
    kept = [row for index, row in enumerate(rows) if index not in deleted]
    return kept + [dict(row) for row in edits.get("added_rows") or ()]


def edited_points(points, edits):
    """The points after a data editor's ``edits`` (edited, added and deleted rows) of
    ``points_frame(points)``; raises PlaygroundError, naming the first bad row, when a cell is bad."""
    values = [_row_values(row, number) for number, row in enumerate(_rows(points, edits), start=1)]
    if not values:
        return PointSet()
    X = [(x1, x2) for x1, x2, _k, _t in values]
    y = [k for _x1, _x2, k, _t in values]
    test = [flag for *_rest, flag in values]
    return PointSet.from_arrays(X, y, test)


def _on_edit(key):
    edits = st.session_state.get(key) or {}
    current = state.scene().points
    if incomplete_rows(current, edits):
        return  # a row is being typed cell by cell: wait until it is whole (the editor keeps it)
    try:
        new_points = edited_points(current, edits)
    except PlaygroundError as err:
        st.session_state[ERROR_KEY] = err.message  # phrased in the session's language where shown
        st.session_state[NONCE_KEY] = st.session_state.get(NONCE_KEY, 0) + 1  # show the points again
        return
    st.session_state.pop(ERROR_KEY, None)
    if new_points != current:
        state.change_points(new_points)  # one undo step


def _dismiss():
    st.session_state.pop(ERROR_KEY, None)


def points_table(points):
    """An expander with the points' table; its editor is built only while the expander is open."""
    expander = st.expander(_("Table of points (type, edit or paste rows)"), key=EXPANDER_KEY, on_change="rerun")
    if not expander.open:
        return
    with expander:
        error = st.session_state.get(ERROR_KEY)
        if error:
            st.error(plain(phrased(error)) + " " + _("The points are unchanged."), icon=":material/error:")
            st.button(_("Dismiss"), key="points_table_dismiss", on_click=_dismiss, type="tertiary")
        columns = {
            "x1": st.column_config.NumberColumn("x₁", format="%.4g", required=True),
            "x2": st.column_config.NumberColumn("x₂", format="%.4g", required=True),
            "class": st.column_config.NumberColumn(
                _("class"),
                min_value=1,
                max_value=N_CLASSES,
                step=1,
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
        key = f"points_table_{hash(points)}_{st.session_state.get(NONCE_KEY, 0)}"
        waiting = incomplete_rows(points, st.session_state.get(key) or {})
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


def _add_typed_point():
    x1, x2 = st.session_state.get("typed_x1"), st.session_state.get("typed_x2")
    label = st.session_state.get("typed_class", 0)
    points = state.scene().points
    try:
        if x1 is None or x2 is None:
            raise PlaygroundError(_("Type both coordinates, x₁ and x₂."))
        test = state.point_set_mode() == "test"  # as a click would: a test point in test mode
        new_points = points.added(float(x1), float(x2), int(label), test=test)
    except (PlaygroundError, ValueError) as err:
        state.notify(_("The point was not added: {reason}").format(reason=phrased(err)))
        return
    state.change_points(new_points)  # one undo step


def point_form():
    """A keyboard way to add a point: x₁, x₂ and the class, then Enter (or the button)."""
    with st.expander(_("Add a point by typing its coordinates")):
        with st.form(FORM_KEY, border=False, enter_to_submit=True):
            left, right = st.columns(2)
            left.number_input("x₁", value=None, step=0.1, format="%.4g", key="typed_x1", placeholder="0.5")
            right.number_input("x₂", value=None, step=0.1, format="%.4g", key="typed_x2", placeholder="−1.2")
            st.selectbox(_("Class"), list(range(N_CLASSES)), format_func=class_label, key="typed_class")
            st.form_submit_button(_("Add point"), on_click=_add_typed_point, width="stretch")
