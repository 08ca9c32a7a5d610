"""The line tool on the Python side (issue 46): the line through two points, its sides given to
the classes the better way, and the canvas's "line" edit applied once, hostile values refused with
a notice and nothing lost."""

import numpy as np
import pytest

from playground.link import line_through
from playground.scene import MAX_COORDINATE, PointSet
from ui.session import edits, state

pytestmark = pytest.mark.usefixtures("bare_session")


TWO = PointSet.from_arrays([[-2.0, 0.0], [-1.0, 1.0], [2.0, 0.0], [3.0, -1.0]], [1, 1, 4, 4])


@pytest.mark.parametrize("start, end", [((0, -1), (0, 1)), ((0, 1), (0, -1)), ((0.5, 3), (-0.5, -3))])
def test_the_line_goes_through_both_points_and_w_points_into_the_first_class(start, end):
    guess, problem = line_through(start, end, TWO)
    assert problem is None
    w0, w1, w2 = guess
    for x, y in (start, end):
        assert w1 * x + w2 * y + w0 == pytest.approx(0, abs=1e-5)
    assert np.hypot(w1, w2) == pytest.approx(1, abs=1e-5)
    values = TWO.X @ [w1, w2] + w0
    first = np.asarray(TWO.y) == 1  # class 2 is the first class present: the book's C1
    assert np.all(values[first] >= 0) and np.all(values[~first] < 0)


def test_without_points_the_normal_is_to_the_left_of_the_stroke():
    guess, _ = line_through((0, 0), (1, 0), PointSet())
    assert guess == (0.0, 0.0, 1.0)


@pytest.mark.parametrize(
    "start, end, words",
    [
        ((1, 1), (1, 1), "one place"),
        ((0, 0), (float("nan"), 1), "within"),
        ((0, 0), (10 * MAX_COORDINATE, 1), "within"),
        ((0, 0), ("x", 1), "two points"),
        ((0, 0), (None, 1), "two points"),
    ],
)
def test_no_line_through_bad_points(start, end, words):
    guess, problem = line_through(start, end, TWO)
    assert guess is None and words in problem.template


def _line(nonce, x1, y1, x2, y2):
    return {"nonce": nonce, "type": "line", "x1": x1, "y1": y1, "x2": x2, "y2": y2}


def test_the_edit_sets_the_scenes_line_once_and_keeps_the_points():
    before = state.scene().points
    edits.apply_canvas_events([_line(1, -1.0, -1.0, 1.0, 1.0)], 0)
    guess = state.scene().guess
    assert guess is not None and state.scene().points == before
    edits.apply_canvas_events([_line(1, 5.0, 0.0, 5.0, 1.0)], 0)  # the same nonce again: applied before
    assert state.scene().guess == guess


@pytest.mark.parametrize(
    "event",
    [
        _line(1, 0.0, 0.0, 0.0, 0.0),
        _line(1, "1e999", 0.0, 1.0, 1.0),
        {"nonce": 1, "type": "line", "x1": 0.0},
        _line(1, [1], {"a": 2}, True, None),
    ],
)
def test_a_hostile_line_edit_is_a_notice_and_changes_nothing(event):
    before = state.scene()
    edits.apply_canvas_events([event], 0)
    assert state.scene() == before
    notices = state.take_notices()
    assert notices and "ignored" in str(getattr(notices[0], "template", notices[0]))
