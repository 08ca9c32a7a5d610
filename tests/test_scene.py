"""Scenes are immutable values; undo and redo walk through point sets exactly."""

import numpy as np
import pytest

from playground import InvalidDataError
from playground.scene import History, PointSet, Scene


def test_point_edits_return_new_values():
    empty = PointSet()
    one = empty.added(1.5, -2.0, 3)
    two = one.added(0.0, 0.0, 0)
    assert len(empty) == 0 and len(one) == 1 and len(two) == 2
    np.testing.assert_array_equal(two.X, [[1.5, -2.0], [0.0, 0.0]])
    np.testing.assert_array_equal(two.removed([0]).y, [0])
    assert two.counts()[3] == 1 and two.counts()[0] == 1
    assert hash(two) == hash(PointSet.from_arrays(two.X, two.y))


@pytest.mark.parametrize("x, y, label", [(np.nan, 0, 0), (0, np.inf, 0), (0, 0, 6), (0, 0, -1)])
def test_bad_points_are_refused(x, y, label):
    with pytest.raises(InvalidDataError):
        PointSet().added(x, y, label)


def test_undo_redo_sequence():
    history, points = History(), PointSet()
    states = [points]
    for k in range(3):
        history = history.pushed(points)
        points = points.added(k, k, k % 2)
        states.append(points)
    for expected in reversed(states[:-1]):
        history, points = history.undone(points)
        assert points == expected
    assert history.undone(points) is None
    history, points = history.redone(points)
    assert points == states[1]
    history = history.pushed(points)  # a new edit clears the redo stack
    assert history.redone(points) is None


def test_history_is_bounded():
    history = History(limit=3)
    for k in range(10):
        history = history.pushed(PointSet().added(k, 0, 0))
    assert len(history.past) == 3


def test_scene_method_change_resets_playback():
    scene = Scene(step=4).with_method("least_squares", {"targets": "fisher"})
    assert scene.step is None and scene.param_dict == {"targets": "fisher"}
    assert scene.with_window(scene.window, by_app=True).view_revision == 1
