"""The table of points (issue 18): a data editor's edits become the scene's points, checked whole,
one undo step each; a bad cell changes nothing and says which row."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from playground import PlaygroundError
from playground.points_csv import read_points_csv
from playground.scene import PointSet
from ui.text.markdown import unescape
from ui.widgets import points_table

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")

POINTS = PointSet.from_arrays([[1.0, 2.0], [3.0, -1.5], [0.25, 0.5]], [0, 1, 1], [False, False, True])


def test_the_table_shows_text_cells_class_numbers_from_one_and_the_test_flags():
    frame = points_table.points_frame(POINTS)
    assert frame.to_dict("list") == {
        "x1": ["1", "3", "0.25"],
        "x2": ["2", "-1.5", "0.5"],
        "class": ["1", "2", "2"],
        "test": [False, False, True],
    }


def test_an_unchanged_table_gives_the_same_points_exactly():
    points = PointSet.from_arrays([[1 / 3, -2e-5], [123456.78901, 1e-5]], [0, 5])
    assert points_table.edited_points(points, {}) == points


def test_edits_added_and_deleted_rows_make_the_new_points():
    edits = {
        "edited_rows": {0: {"x1": "-4"}, 2: {"class": "3", "test": False}},
        "added_rows": [{"x1": "5", "x2": "6.5", "class": "6"}],
        "deleted_rows": [1],
    }
    points = points_table.edited_points(POINTS, edits)
    np.testing.assert_array_equal(points.X, [[-4.0, 2.0], [0.25, 0.5], [5.0, 6.5]])
    assert list(points.y) == [0, 2, 5]
    assert list(points.is_test) == [False, False, False]


def test_a_typed_point_is_snapped_to_the_grid_like_a_click():
    points = points_table.edited_points(POINTS, {"added_rows": [{"x1": repr(1 / 3), "x2": repr(2 / 3), "class": "1"}]})
    assert points.X[-1].tolist() == PointSet.from_arrays([[1 / 3, 2 / 3]], [0]).X[0].tolist()


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ({"edited_rows": {1: {"x1": "abc"}}}, "Row 2, column x₁: abc is not a number."),
        ({"edited_rows": {0: {"x2": "NaN"}}}, "Row 1, column x₂: NaN is not a finite number"),
        ({"added_rows": [{"x1": "1", "x2": "x", "class": None}]}, "Row 4, column x₂: x is not a number."),
        ({"edited_rows": {2: {"class": "9"}}}, "Row 3, column class: 9 is not a class; classes are 1 to 6."),
        ({"edited_rows": {2: {"class": "1.5"}}}, "Row 3, column class: 1.5 is not a class; classes are 1 to 6."),
        ({"edited_rows": {2: {"class": "0"}}}, "Row 3, column class: 0 is not a class; classes are 1 to 6."),
        ({"edited_rows": {0: {"x1": "1e300"}}}, "Row 1, column x₁: 1e300 is outside the range ±1,000,000"),
        ({"edited_rows": {0: {"x1": "1,000"}}}, "Row 1, column x₁: 1,000 has a comma; write numbers with a decimal"),
    ],
)
def test_a_bad_cell_is_refused_naming_its_row_and_column(edits, message):
    with pytest.raises(PlaygroundError) as raised:
        points_table.edited_points(POINTS, edits)
    assert str(raised.value).startswith(message)


def test_a_row_being_typed_waits_until_it_is_whole():
    typing = {"added_rows": [{"x1": "0.5"}]}
    assert points_table.incomplete_rows(POINTS, typing) == [4]
    assert points_table.edited_points(POINTS, typing) is None
    assert points_table.incomplete_rows(POINTS, {"edited_rows": {1: {"class": None}}}) == [2]
    whole = {"added_rows": [{"x1": "0.5", "x2": "1", "class": "2"}]}
    assert points_table.incomplete_rows(POINTS, whole) == []
    assert len(points_table.edited_points(POINTS, whole)) == 4


# The hostile probe of issue 30: row 1 (0, 0, class 1), a spreadsheet row pasted over x₁, x₂, class.
PROBE_POINTS = PointSet.from_arrays([[0.0, 0.0], [1.0, 1.0], [-1.0, 0.5]], [0, 1, 1])
PROBE = [
    (("0.5", "0.25", "7"), "Row 1, column class: 7 is not a class; classes are 1 to 6."),
    (("0.5", "0.25", "0"), "Row 1, column class: 0 is not a class; classes are 1 to 6."),
    (("0.5", "0.25", "2.5"), "Row 1, column class: 2.5 is not a class; classes are 1 to 6."),
    (("1,5", "0.25", "2"), "Row 1, column x₁: 1,5 has a comma; write numbers with a decimal point"),
    (("nan", "0.25", "2"), "Row 1, column x₁: nan is not a finite number (NaN and infinity are not allowed)."),
    (("１．５", "０．２５", "２"), (1.5, 0.25, 1)),
    (("١٫٥", "٠٫٢٥", "٢"), (1.5, 0.25, 1)),
]


def _paste_row_one(cells):
    return {"edited_rows": {0: dict(zip(("x1", "x2", "class"), cells))}}


@pytest.mark.parametrize(("cells", "expected"), PROBE)
def test_the_probe_pastes_give_what_was_typed_or_a_message(cells, expected):
    if isinstance(expected, str):
        with pytest.raises(PlaygroundError) as raised:
            points_table.edited_points(PROBE_POINTS, _paste_row_one(cells))
        assert str(raised.value).startswith(expected)
    else:
        points = points_table.edited_points(PROBE_POINTS, _paste_row_one(cells))
        assert (*points.X[0].tolist(), int(points.labels[0])) == expected
        assert points.X[1:].tolist() == PROBE_POINTS.X[1:].tolist()


def test_a_pasted_block_with_one_bad_cell_changes_nothing():
    block = {
        "edited_rows": {0: {"x1": "0.5", "x2": "0.25", "class": "2"}, 1: {"x1": "2", "x2": "2", "class": "7"}},
        "added_rows": [{"x1": "3", "x2": "3", "class": "1"}],
    }
    with pytest.raises(PlaygroundError, match=r"^Row 2, column class: 7 is not a class"):
        points_table.edited_points(PROBE_POINTS, block)


def test_the_table_opens_in_the_app_and_costs_nothing_while_closed():
    closed = AppTest.from_file(APP, default_timeout=60).run()
    assert not closed.exception
    assert not [key for key in closed.session_state if str(key).startswith("points_table_") and "open" not in key]
    opened = AppTest.from_file(APP, default_timeout=60)
    opened.session_state[points_table.EXPANDER_KEY] = True
    opened.run()
    assert not opened.exception
    assert any(e.label.startswith("Table of points") for e in opened.expander)


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def test_a_point_typed_in_the_form_is_added_and_undone_in_one_step():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="typed_x1").set_value("0.5")
    at.text_input(key="typed_x2").set_value("−1.25")
    at.selectbox(key="typed_class").set_value(1)
    _button(at, "Add point").click().run()
    assert not at.exception
    points = at.session_state.scene.points
    assert len(points) == 91 and points.X[-1].tolist() == [0.5, -1.25] and points.labels[-1] == 1
    _button(at, "↶ Undo").click().run()
    assert len(at.session_state.scene.points) == 90


def test_a_form_without_coordinates_adds_nothing_and_says_why():
    at = AppTest.from_file(APP, default_timeout=60).run()
    _button(at, "Add point").click().run()
    assert len(at.session_state.scene.points) == 90
    assert any("Type both coordinates" in e.value for e in [*at.warning, *at.info, *at.toast])


@pytest.mark.parametrize(
    ("x1", "x2", "expected"),
    [
        ("1,5", "0.25", "The point was not added: Field x₁: 1,5 has a comma; write numbers with a decimal point"),
        ("0.5", "nan", "The point was not added: Field x₂: nan is not a finite number"),
        ("2e6", "0", "The point was not added: Field x₁: 2e6 is outside the range ±1,000,000"),
        ("１．５", "٠٫٢٥", (1.5, 0.25)),
    ],
)
def test_the_form_reads_coordinates_as_the_table_does(x1, x2, expected):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="typed_x1").set_value(x1)
    at.text_input(key="typed_x2").set_value(x2)
    _button(at, "Add point").click().run()
    assert not at.exception
    points = at.session_state.scene.points
    if isinstance(expected, str):
        assert len(points) == 90
        shown = [unescape(e.value) for e in [*at.warning, *at.info, *at.toast, *at.error]]
        assert any(text.startswith(expected) for text in shown), shown
    else:
        assert len(points) == 91 and points.X[-1].tolist() == list(expected)


def test_a_refused_table_edit_is_shown_as_text_naming_row_and_column():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[points_table.EXPANDER_KEY] = True
    at.session_state[points_table.ERROR_KEY] = points_table._read_error(1, "class", "[x](//host) *7*")
    at.run()
    assert not at.exception
    (error,) = [e.value for e in at.error if "Row 1" in e.value]
    assert unescape(error) == ("Row 1, column class: [x](//host) *7* is not a number. Nothing was changed.")
    assert "\\[x\\]" in error and "\\*7\\*" in error  # the typed text is escaped, never markup


# ---- A pasted block and the same rows in a CSV file give the same answer (issue 30) -------------

GOOD_COORDINATES = st.floats(-1e6, 1e6, allow_nan=False).map(repr) | st.integers(-1000, 1000).map(str)
WIDE = str.maketrans("0123456789.-", "０１２３４５６７８９．－")
ARABIC = str.maketrans("0123456789.", "٠١٢٣٤٥٦٧٨٩٫")
BAD_CELLS = st.sampled_from(["1,5", "nan", "inf", "abc", "1e7", "-2e6", "1_0", "0x1", "½", "1.2.3", "1,000"])
COORDINATE_CELLS = st.one_of(
    GOOD_COORDINATES,
    GOOD_COORDINATES.map(lambda text: text.translate(WIDE)),
    GOOD_COORDINATES.map(lambda text: text.translate(ARABIC)),
    BAD_CELLS,
)
CLASS_CELLS = st.one_of(
    st.integers(1, 6).map(str),
    st.sampled_from(["2.0", "２", "٣", " 4 ", "0", "7", "2.5", "-1", "1e3"]),
    BAD_CELLS,
)
ROWS = st.lists(st.tuples(COORDINATE_CELLS, COORDINATE_CELLS, CLASS_CELLS), min_size=1, max_size=6)


def _table_answer(points, rows):
    """The table's points after ``rows`` are pasted over row 1 onward (added past the end), or
    "refused"; and the points the block left as they were."""
    n = len(points)
    edits = {
        "edited_rows": {i: dict(zip(("x1", "x2", "class"), row)) for i, row in enumerate(rows[:n])},
        "added_rows": [dict(zip(("x1", "x2", "class"), row)) for row in rows[n:]],
    }
    try:
        return points_table.edited_points(points, edits)
    except PlaygroundError:
        return "refused"


def _csv_answer(rows):
    """The CSV reader's points for the same rows (tab-separated, under a header), or "refused"
    when it refuses them or reads the class column as labels to map (not the classes 1-6)."""
    text = "x1\tx2\tclass\n" + "".join("\t".join(row) + "\n" for row in rows)
    try:
        read = read_points_csv(text)
    except PlaygroundError:
        return "refused"
    return "refused" if read.message is not None else read.points


@settings(max_examples=300, deadline=None)
@given(rows=ROWS, kept=st.integers(0, 4))
def test_a_pasted_block_is_answered_as_a_csv_file_of_the_same_rows(rows, kept):
    points = PointSet.from_arrays([[0.5 * k, -0.25 * k] for k in range(kept)], [k % 6 for k in range(kept)])
    table, csv = _table_answer(points, rows), _csv_answer(rows)
    if csv == "refused":
        assert table == "refused"
    else:
        assert table != "refused"
        assert table.X.tolist() == csv.X.tolist() + points.X[len(rows) :].tolist()
        assert list(table.labels) == list(csv.labels) + list(points.labels[len(rows) :])
