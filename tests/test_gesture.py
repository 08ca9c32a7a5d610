"""The one rule of a gesture's edit (ui.session.gesture): what the live route draws is what the session keeps."""

import pytest

from playground import PlaygroundError
from playground.scene import MAX_COORDINATE, PointSet
from ui.server.live_route import edited_points
from ui.session.gesture import Gesture, apply_gesture, places_of

POINTS = PointSet().added(0, 0, 0).added(1, 1, 1, test=True).added(2, 2, 0).added(2, 2, 0)


def test_each_kind_of_gesture():
    added = apply_gesture(POINTS, Gesture("add", 3, -3), add_as=2, add_test=True)
    assert added.rows()[-1] == ((3.0, -3.0), 2, True) and added.rows()[:4] == POINTS.rows()
    assert apply_gesture(POINTS, Gesture("remove"), [0, 2]).rows() == [POINTS.rows()[1], POINTS.rows()[3]]
    moved = apply_gesture(POINTS, Gesture("move", dx=1, dy=-1), [1])
    assert moved.xy[1] == (2.0, 0.0) and moved.labels == POINTS.labels and moved.test == POINTS.test
    assert apply_gesture(POINTS, Gesture("move", dx=10 * MAX_COORDINATE), [0]).xy[0] == (MAX_COORDINATE, 0.0)
    assert apply_gesture(POINTS, Gesture("switch"), [0, 1]).test == (True, False, False, False)
    with pytest.raises(PlaygroundError):
        apply_gesture(POINTS, Gesture("add", 10 * MAX_COORDINATE, 0))


def test_places_are_found_by_value_each_once():
    rows = POINTS.rows()
    assert places_of(POINTS, [rows[3], rows[2], rows[0]]) == [2, 3, 0]  # equal points: the first free place
    assert places_of(POINTS.removed([0]), [rows[0], rows[1]]) == [0]  # a point gone takes no place


def test_the_live_route_and_the_session_apply_the_same_rule():
    live = [
        {"type": "add", "x": 4.0, "y": 4.0},
        {"type": "remove", "ids": [1]},
        {"type": "move", "ids": [0, 2], "dx": 0.5, "dy": 0.5},
    ]
    points, origins = edited_points(POINTS, live, 1, False)
    rows = POINTS.rows()
    by_session = apply_gesture(POINTS, Gesture("add", 4.0, 4.0), add_as=1)
    by_session = apply_gesture(by_session, Gesture("remove"), places_of(by_session, [rows[1]]))
    by_session = apply_gesture(by_session, Gesture("move", dx=0.5, dy=0.5), places_of(by_session, [rows[0], rows[2]]))
    assert points == by_session and origins.tolist() == [0, 2, 3, -1]
