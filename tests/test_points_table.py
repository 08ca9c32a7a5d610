"""The table of points (issue 18): a data editor's edits become the scene's points, checked whole,
one undo step each; a bad cell changes nothing and says which row."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import PlaygroundError
from playground.scene import PointSet
from ui import points_table

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")

POINTS = PointSet.from_arrays([[1.0, 2.0], [3.0, -1.5], [0.25, 0.5]], [0, 1, 1], [False, False, True])


def test_the_table_shows_class_numbers_from_one_and_the_test_flags():
    frame = points_table.points_frame(POINTS)
    assert frame.to_dict("list") == {
        "x1": [1.0, 3.0, 0.25],
        "x2": [2.0, -1.5, 0.5],
        "class": [1, 2, 2],
        "test": [False, False, True],
    }


def test_edits_added_and_deleted_rows_make_the_new_points():
    edits = {
        "edited_rows": {0: {"x1": -4.0}, 2: {"class": 3, "test": False}},
        "added_rows": [{"x1": 5, "x2": "6.5", "class": 6}],
        "deleted_rows": [1],
    }
    points = points_table.edited_points(POINTS, edits)
    np.testing.assert_array_equal(points.X, [[-4.0, 2.0], [0.25, 0.5], [5.0, 6.5]])
    assert list(points.y) == [0, 2, 5]
    assert list(points.is_test) == [False, False, False]


def test_a_typed_point_is_snapped_to_the_grid_like_a_click():
    points = points_table.edited_points(POINTS, {"added_rows": [{"x1": 1 / 3, "x2": 2 / 3, "class": 1}]})
    assert points.X[-1].tolist() == PointSet.from_arrays([[1 / 3, 2 / 3]], [0]).X[0].tolist()


@pytest.mark.parametrize(
    ("edits", "message"),
    [
        ({"edited_rows": {1: {"x1": "abc"}}}, "Row 2: x₁ and x₂ must both be finite numbers."),
        ({"edited_rows": {0: {"x2": float("nan")}}}, "Row 1: x₁ and x₂ must both be finite numbers."),
        ({"added_rows": [{"x1": 1, "x2": 1}]}, "Row 4: the class must be a whole number from 1 to 6."),
        ({"edited_rows": {2: {"class": 9}}}, "Row 3: the class must be a whole number from 1 to 6."),
        ({"edited_rows": {2: {"class": 1.5}}}, "Row 3: the class must be a whole number from 1 to 6."),
        ({"edited_rows": {2: {"class": 0}}}, "Row 3: the class must be a whole number from 1 to 6."),
        ({"edited_rows": {0: {"x1": 1e300}}}, "Row 1: coordinates must lie within ±1,000,000."),
    ],
)
def test_a_bad_cell_is_refused_naming_its_row(edits, message):
    with pytest.raises(PlaygroundError, match="^" + message.replace("(", r"\(").replace("+", r"\+")):
        points_table.edited_points(POINTS, edits)


def test_a_row_being_typed_waits_until_it_is_whole():
    typing = {"added_rows": [{"x1": 0.5}]}
    assert points_table.incomplete_rows(POINTS, typing) == [4]
    assert points_table.incomplete_rows(POINTS, {"edited_rows": {1: {"class": None}}}) == [2]
    assert points_table.incomplete_rows(POINTS, {"added_rows": [{"x1": 0.5, "x2": 1, "class": 2}]}) == []


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
    at.number_input(key="typed_x1").set_value(0.5)
    at.number_input(key="typed_x2").set_value(-1.25)
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
