"""A gesture's edit of the points: the one rule the live route and the session both apply.

A click, an erase, a drag or a switch on the canvas reaches the server twice: at once through the
live route (``ui.server.live_route``, which draws its boundary and keeps nothing) and through the
page, where the session commits it (``ui.session.edits``). Both apply it with ``apply_gesture``,
so the figure the live route answers is the scene the session then holds.

Rules that must hold:

- The points a gesture names come as their places in the set it edits (``named``); each path finds
  them its own way: the live route by the place each had in the scene the request carried (it
  follows them through the request's earlier edits), the session by value in the drawing the canvas
  showed (``places_of``), as other edits may have reached the scene first.
- ``add``: one point of class ``add_as`` at (x, y), a test point when ``add_test``, after the others.
- ``remove``: the named points leave the set; the others keep their order.
- ``move``: the named points shifted by (dx, dy), snapped to the grid and kept within
  ±MAX_COORDINATE (``PointSet.moved``); a drag's every move is the whole offset since the press,
  applied to the points as they were at the press.
- ``switch``: the named points change between training and test.
- Pure: no session, no Streamlit. A point out of bounds or a full set raises ``PlaygroundError``
  (``PointSet.added``); names of points the set does not hold are ignored.
"""

from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from playground.scene import PointRow, PointSet

GestureKind = Literal["add", "remove", "move", "switch"]


class Gesture(NamedTuple):
    """What a gesture does to the points: its kind, where a click was (x, y), a drag's offset."""

    kind: GestureKind
    x: float = 0.0
    y: float = 0.0
    dx: float = 0.0
    dy: float = 0.0


def apply_gesture(
    points: PointSet, gesture: Gesture, named: Sequence[int] = (), *, add_as: int = 0, add_test: bool = False
) -> PointSet:
    """``points`` after ``gesture`` (see the module's rules); ``named``: the places in ``points`` of
    the points it names (none for an add)."""
    if gesture.kind == "add":
        return points.added(gesture.x, gesture.y, add_as, test=add_test)
    if gesture.kind == "remove":
        return points.removed(named)
    if gesture.kind == "move":
        return points.moved(named, gesture.dx, gesture.dy)
    flags = points.is_test
    chosen = [place for place in named if 0 <= place < len(points)]
    flags[chosen] = ~flags[chosen]
    return PointSet(points.xy, points.labels, tuple(flags.tolist()))


def places_of(points: PointSet, rows: Iterable[PointRow]) -> list[int]:
    """The places in ``points`` of ``rows`` (as ``PointSet.rows``), in their order: each row takes
    the first place of an equal point not taken yet (equal points are the same point on the grid),
    and a row ``points`` no longer holds takes none."""
    free: dict[PointRow, list[int]] = {}
    for place, row in enumerate(points.rows()):
        free.setdefault(row, []).append(place)
    return [free[row].pop(0) for row in rows if free.get(row)]
