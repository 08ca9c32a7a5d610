"""Dragging points (issue 16) on the Python side: PointSet.moved, and the canvas's move events
applied exactly once through the page-wide event queue, the release being one undo step.

The state functions run in Streamlit's bare mode (st.session_state without a server), which is
what a script run gives them too.
"""

import numpy as np
import pytest
import streamlit as st

from playground.scene import GRID_STEP, MAX_COORDINATE, PointSet, snap
from ui.session import edits, state


@pytest.fixture(autouse=True)
def session(bare_session):
    edits.record_drawn("r0", state.scene())


def move(nonce, dx, dy, *, drag="d1", ids=(0,), revision="r0", final=False):
    return {
        "nonce": nonce,
        "type": "move",
        "drag": drag,
        "revision": revision,
        "ids": list(ids),
        "dx": dx,
        "dy": dy,
        "final": final,
    }


def xy(i):
    return state.scene().points.xy[i]


def test_moved_shifts_snaps_and_keeps_everything_else():
    points = PointSet.from_arrays([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], [0, 1, 2])
    moved = points.moved([1, 7, -1], 0.1234567, -0.5)  # out-of-range places are ignored
    assert moved.labels == points.labels
    assert moved.xy[0] == points.xy[0] and moved.xy[2] == points.xy[2]
    assert moved.xy[1] == (1.12346, 0.5)  # on the grid (1e-5)
    assert np.array_equal(snap(moved.X), moved.X)
    assert points.moved([], 1.0, 1.0) is points
    assert points.moved([0], float("nan"), 1.0) is points
    far = points.moved([0], 10 * MAX_COORDINATE, 0.0)
    assert far.xy[0] == (MAX_COORDINATE, 0.0)  # kept within the coordinates links and files accept


def test_previews_move_the_point_and_the_release_is_one_undo_step():
    start = xy(0)
    edits.apply_canvas_events([move(1, 1.0, 0.5)], 0)
    assert np.allclose(xy(0), (start[0] + 1.0, start[1] + 0.5), atol=GRID_STEP)
    assert not st.session_state.history.past  # a preview is no undo step
    edits.apply_canvas_events([move(2, 2.0, -1.0)], 0)
    edits.apply_canvas_events([move(3, 2.5, -1.25, final=True)], 0)
    assert np.allclose(xy(0), (start[0] + 2.5, start[1] - 1.25), atol=GRID_STEP)
    assert len(st.session_state.history.past) == 1
    assert len(state.scene().points) == 90
    state.undo()
    assert xy(0) == start
    assert not st.session_state.history.past


def test_each_move_applies_once_whatever_the_deliveries():
    start = xy(0)
    # A delivery repeated, an older preview after a newer one, the final one twice: the last wins.
    edits.apply_canvas_events([move(1, 1.0, 1.0)], 0)
    edits.apply_canvas_events([move(1, 1.0, 1.0), move(2, 3.0, 0.0)], 0)
    edits.apply_canvas_events([move(1, 1.0, 1.0)], 0)
    assert np.allclose(xy(0), (start[0] + 3.0, start[1]), atol=GRID_STEP)
    final = move(4, -1.0, 2.0, final=True)
    edits.apply_canvas_events([final], 0)
    edits.apply_canvas_events([final], 0)
    assert np.allclose(xy(0), (start[0] - 1.0, start[1] + 2.0), atol=GRID_STEP)
    assert len(st.session_state.history.past) == 1


def test_a_drag_whose_previews_were_dropped_lands_the_same():
    # The page keeps only a drag's latest move while unacknowledged: the final one may come alone.
    start = xy(5)
    edits.apply_canvas_events([move(9, 0.75, -0.5, ids=(5,), final=True)], 0)
    assert np.allclose(xy(5), (start[0] + 0.75, start[1] - 0.5), atol=GRID_STEP)
    assert len(st.session_state.history.past) == 1


def test_a_group_moves_together_and_keeps_its_places():
    before = state.scene().points
    edits.apply_canvas_events([move(1, 0.5, 0.5, ids=(3, 4, 40)), move(2, 1.0, 1.0, ids=(3, 4, 40), final=True)], 0)
    after = state.scene().points
    assert after.labels == before.labels
    for i in range(len(before)):
        shift = np.subtract(after.xy[i], before.xy[i])
        assert np.allclose(shift, (1.0, 1.0) if i in (3, 4, 40) else (0.0, 0.0), atol=GRID_STEP)
    assert len(st.session_state.history.past) == 1


def test_points_are_named_as_the_canvas_showed_them():
    # A click added a point after the canvas drew "r0"; the move still names r0's point 0.
    start = xy(0)
    edits.apply_canvas_events([{"nonce": 1, "type": "add", "x": 9.0, "y": 9.0}], 2)
    edits.apply_canvas_events([move(2, 1.0, 0.0, final=True)], 0)
    assert np.allclose(xy(0), (start[0] + 1.0, start[1]), atol=GRID_STEP)
    assert xy(90) == (9.0, 9.0)
    assert len(st.session_state.history.past) == 2  # the add, the move


def test_a_move_on_a_drawing_no_longer_known_moves_nothing_and_says_so():
    before = state.scene().points
    edits.apply_canvas_events([move(1, 1.0, 1.0, revision="gone", final=True)], 0)
    assert state.scene().points == before
    assert not st.session_state.history.past
    assert any("nothing was moved" in notice for notice in st.session_state.notices)


def test_a_second_drag_starts_from_where_the_first_left_the_point():
    start = xy(0)
    edits.apply_canvas_events([move(1, 1.0, 0.0, final=True)], 0)
    edits.record_drawn("r1", state.scene())
    edits.apply_canvas_events([move(2, 0.0, 1.0, drag="d2", revision="r1", final=True)], 0)
    assert np.allclose(xy(0), (start[0] + 1.0, start[1] + 1.0), atol=GRID_STEP)
    assert len(st.session_state.history.past) == 2
    state.undo()
    assert np.allclose(xy(0), (start[0] + 1.0, start[1]), atol=GRID_STEP)


@pytest.mark.parametrize("bad", [{"dx": "x"}, {"dx": None}, {"ids": "zero"}, {"ids": [True]}])
def test_malformed_moves_change_nothing(bad):
    before = state.scene().points
    edits.apply_canvas_events([{**move(1, 1.0, 1.0, final=True), **bad}], 0)
    assert state.scene().points == before


def test_a_dragged_test_point_stays_a_test_point():
    """A move changes coordinates only: a held-out point dragged and dropped is still held out."""
    points = state.scene().points.with_test([0])
    state.set_scene(state.scene().with_points(points))
    edits.record_drawn("r1", state.scene())
    start = xy(0)
    edits.apply_canvas_events([move(1, 0.5, 0.0, revision="r1"), move(2, 1.0, 0.0, revision="r1", final=True)], 0)
    assert np.allclose(xy(0), (start[0] + 1.0, start[1]), atol=GRID_STEP)
    assert state.scene().points.is_test.tolist() == [True] + [False] * (len(points) - 1)
    state.undo()
    assert xy(0) == start and state.scene().points.is_test[0]
