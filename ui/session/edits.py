"""The canvas's edits: each event the page sends (add, remove, move, view, undo...) applied to the
scene, exactly once and in order.

Rules that must hold:

- Events arrive numbered by the page (a nonce), every delivery carrying all the events not yet
  acknowledged, in order: each is applied exactly once, in the order it was made, however
  Streamlit coalesces or reorders the reruns that carry them.
- A removal (and a drag) names points by their place in the set the canvas showed; that set is
  remembered (``record_drawn``), so the very points clicked are removed even when other edits
  reached the scene first, and nothing is removed when that drawing is no longer known.
- A hostile or stale event becomes one notice, never an error (``_refusing``); an unknown event
  type is ignored.
- An edit of the points is ``ui.session.gesture.apply_gesture``'s, the rule the live route applies
  to draw the same gesture's boundary at once.
- Every click is its own edit (two quick clicks at one spot add two points); a drag is one undo
  step however many moves it sent.
- Everything lives in ``visitor()``; the scene changes only through ``ui.session.state``.
"""

import functools
from dataclasses import replace
from typing import Any, Final, NamedTuple

from playground import InvalidDataError, Message, PlaygroundError, Window
from playground.link import line_through, usable_guess
from playground.scene import MAX_COORDINATE, MIN_VIEW, PointRow, PointSet, Scene
from playground.specs import MAX_RBF_CENTRES
from ui.base.visitor import visitor
from ui.text.i18n import N_, _

from . import loading
from .gesture import Gesture, apply_gesture, places_of
from .state import (
    CANVAS_AREA,
    change_points,
    fit_view,
    notify,
    point_set_mode,
    rbf_centres,
    redo,
    scene,
    set_rbf_centres,
    set_scene,
    undo,
)


def _switched(points: PointSet, clicked: list[PointRow]) -> PointSet:
    """``points`` with one point equal to each clicked (xy, label, test) row moved to the other set."""
    return apply_gesture(points, Gesture("switch"), places_of(points, clicked))


DRAWN_KEY: Final = "drawn_scenes"  # canvas revision -> the points and centres it showed
MAX_DRAWN = 8


def _editable(current):
    """What a removal's indices refer to: the points and the hand-placed centres shown."""
    return current.points, tuple(current.basis_param_dict.get("centres") or ())


def record_drawn(revision: str, current: Scene) -> None:
    """Remember what the canvas drawn as ``revision`` showed: a removal clicked on it names points
    by their place there, and may arrive after other edits (a busy server, quick clicks)."""
    drawn = visitor().setdefault(DRAWN_KEY, {})
    drawn.pop(str(revision), None)
    drawn[str(revision)] = _editable(current)
    while len(drawn) > MAX_DRAWN:
        drawn.pop(next(iter(drawn)))


def apply_canvas_events(events: object, active_class: int, *, shared_view: bool = False) -> None:
    """Apply the canvas's new events in order: add a point, remove points, follow the view.

    Each delivery holds every event the page has not seen acknowledged, oldest first, numbered by
    a page-wide nonce; those at or below the last one applied were applied before (by an earlier
    delivery or another canvas), so each event takes effect exactly once and in order.
    ``shared_view``: several canvases show the scene (the comparison view), so a zoom in one
    moves the others too.
    """
    if not isinstance(events, list):
        return
    valid = [e for e in events if isinstance(e, dict) and isinstance(e.get("nonce"), int | float)]
    for event in sorted(valid, key=lambda e: e["nonce"]):
        last = visitor().get("last_event_nonce")
        if last is not None and event["nonce"] <= last:
            continue
        visitor()["last_event_nonce"] = event["nonce"]
        if _before_last_load(event):
            # Sent by the drawing of the scene before a load (the page had not drawn the load yet):
            # its view and plot area are that scene's; edits still count.
            if event.get("type") == "view":
                continue
        else:
            _note_area(event.get("area"))
        _apply_event(event, active_class, shared_view)


def _before_last_load(event):
    """Whether the canvas drawing that sent ``event`` showed a scene from before the last load
    (its "load", ``ui.plot.canvas.canvas``'s; an event without one is taken as current)."""
    load = event.get("load")
    return isinstance(load, int) and not isinstance(load, bool) and load < loading.load_serial()


def _clicked(event, which):
    """The points (which=0) or centres (which=1) a removal clicked, as the canvas showed them;
    None when that drawing is no longer known."""
    if "revision" in event:
        drawn = visitor().get(DRAWN_KEY, {}).get(str(event["revision"]))
        if drawn is None:
            return None
        shown = drawn[which]
    else:  # a client that does not say what it showed: the scene as it is
        shown = _editable(scene())[which]
    items = shown.rows() if which == 0 else list(shown)
    ids = {int(i) for i in event.get("ids", []) if isinstance(i, int | float) and not isinstance(i, bool)}
    return [items[i] for i in sorted(ids) if 0 <= i < len(items)]


def _without(items, clicked):
    """``items`` less one occurrence of each clicked item (equal values: the points are on a grid)."""
    remaining = list(items)
    for item in clicked:
        if item in remaining:
            remaining.remove(item)
    return remaining


def _refusing(handler):
    """An edit handler whose bad values (a hostile or stale event) become one notice, not an error."""

    @functools.wraps(handler)
    def handle(event: dict[str, Any], active_class: int, shared_view: bool) -> None:
        try:
            handler(event, active_class, shared_view)
        except (InvalidDataError, KeyError, TypeError, ValueError, OverflowError) as err:
            reason = err.message if isinstance(err, PlaygroundError) else str(err)
            notify(Message(N_("That canvas action was ignored: {reason}"), reason=reason))

    return handle


def _placing_centres():
    return visitor().get("click_mode") == "centres" and scene().basis == "rbf"


@_refusing
def _add(event, active_class, shared_view):
    """``AddEvent``: a point of the active class where the click was (or an RBF centre, or a notice
    while clicks switch points between training and test)."""
    x, y = float(event["x"]), float(event["y"])
    if _placing_centres():
        if len(rbf_centres()) >= MAX_RBF_CENTRES:
            raise InvalidDataError(N_("at most {n} centres can be placed"), n=MAX_RBF_CENTRES)
        if not (abs(x) <= MAX_COORDINATE and abs(y) <= MAX_COORDINATE):
            raise InvalidDataError(N_("a centre must lie within ±{limit:,.0f}"), limit=MAX_COORDINATE)
        set_rbf_centres(rbf_centres() + ((x, y),))
    elif point_set_mode() == "switch":
        notify(_("Clicks now switch points between training and test; choose 'add training points' to add one."))
    else:
        gesture = Gesture("add", x, y)
        change_points(apply_gesture(scene().points, gesture, add_as=active_class, add_test=point_set_mode() == "test"))


@_refusing
def _remove(event, active_class, shared_view):
    """``RemoveEvent``: the points (or hand-placed centres) named as the canvas showed them; while
    clicks switch points, a click on a point switches it between training and test."""
    centres = event.get("type") == "remove_centre"
    clicked = _clicked(event, 1 if centres else 0)
    if clicked is None:
        notify(_("The plot had changed a lot before that click arrived, so nothing was removed; click again."))
    elif centres:
        set_rbf_centres(tuple(_without(rbf_centres(), clicked)))
    elif point_set_mode() == "switch":
        change_points(_switched(scene().points, clicked))
    else:
        points = scene().points
        change_points(apply_gesture(points, Gesture("remove"), places_of(points, clicked)))


@_refusing
def _view(event, active_class, shared_view):
    """``ViewEvent``: the zoom or pan the user made, bounded (``bounded_view``)."""
    window, moved = bounded_view(float(event["x0"]), float(event["x1"]), float(event["y0"]), float(event["y1"]))
    set_scene(scene().with_window(window, by_app=shared_view or moved))
    if moved:
        notify(
            _(
                "The view is kept at least {size:g} wide and within ±{limit:,.0f}: "
                "the points' grid is finer than anything narrower would show."
            ).format(size=MIN_VIEW, limit=MAX_COORDINATE)
        )


@_refusing
def _line(event, active_class, shared_view):
    """``LineEvent``: the person's line through two points (issue 46), its sides given to the
    classes the better way (``playground.link.line_through``)."""
    current = scene()
    guess, problem = line_through((event["x1"], event["y1"]), (event["x2"], event["y2"]), current.points)
    if guess is None:
        raise InvalidDataError(N_("your line {problem}"), problem=problem)
    set_scene(replace(current, guess=guess))


@_refusing
def _guess(event, active_class, shared_view):
    """``GuessEvent``: the person's line as they left it after moving it (its handles, its arrow,
    its point on the landscape), oriented as it was moved (``playground.link.usable_guess``)."""
    guess, problem = usable_guess([event.get(key) for key in ("w0", "w1", "w2")])
    if guess is not None:  # six significant digits, as a drawn line's: the link stays short
        guess, problem = usable_guess([float(f"{value:.6g}") for value in guess])
    if guess is None:
        raise InvalidDataError(N_("your line {problem}"), problem=problem)
    set_scene(replace(scene(), guess=guess))


# One handler per event type of ``ui.plot.canvas_protocol``; an unknown type is ignored.
EVENT_HANDLERS = {
    "add": _add,
    "remove": _remove,
    "remove_centre": _remove,
    "fit": lambda *_: fit_view(),
    "undo": lambda *_: undo(),
    "redo": lambda *_: redo(),
    "move": lambda event, *_: _move(event),
    "view": _view,
    "line": _line,
    "guess": _guess,
}


def _apply_event(event, active_class, shared_view=False):
    handler = EVENT_HANDLERS.get(event.get("type"))
    if handler is not None:
        handler(event, active_class, shared_view)


# A drag sends moves while the pointer moves (each the whole offset since the press, so any of
# them may be dropped) and a final one on release: the previews change the scene alone, the
# final one records the points before the drag as ONE undo step.
DRAG_KEY: Final = "drag"  # (drag id, the points before the drag, the indices of the dragged points)


def _move(event):
    """Apply a drag's move: the points pressed (named as the canvas showed them) shifted by
    (dx, dy) from where they were when the drag began."""
    try:
        dx, dy = float(event["dx"]), float(event["dy"])
    except (KeyError, TypeError, ValueError):
        return
    drag = visitor().get(DRAG_KEY)
    if drag is None or drag[0] != event.get("drag"):
        before = scene().points
        clicked = _clicked(event, 0)
        if clicked is None:
            notify(_("The plot had changed a lot before that drag arrived, so nothing was moved; drag again."))
            clicked = []
        drag = (event.get("drag"), before, places_of(before, clicked))
        visitor()[DRAG_KEY] = drag
    _unused, before, places = drag
    moved = apply_gesture(before, Gesture("move", dx=dx, dy=dy), places)
    if event.get("final"):
        visitor().pop(DRAG_KEY, None)
        set_scene(scene().with_points(before))
        change_points(moved)  # one undo step back to where the points were before the drag
    elif moved != scene().points:
        set_scene(scene().with_points(moved))


class BoundedView(NamedTuple):
    """A view asked for, bounded (``bounded_view``); ``moved``: whether bounding changed it."""

    window: Window
    moved: bool


def bounded_view(x0: float, x1: float, y0: float, y1: float) -> BoundedView:
    """The view asked for, widened to MIN_VIEW and kept within ±MAX_COORDINATE."""
    bounds: list[float] = []
    for low, high in ((x0, x1), (y0, y1)):
        low, high = min(low, high), max(low, high)
        centre = min(max((low + high) / 2, -MAX_COORDINATE), MAX_COORDINATE)
        half = min(max((high - low) / 2, MIN_VIEW / 2), MAX_COORDINATE)
        bounds += [max(centre - half, -MAX_COORDINATE - MIN_VIEW), min(centre + half, MAX_COORDINATE + MIN_VIEW)]
    window = Window(*bounds)
    asked = (x0, x1, y0, y1)
    moved = any(abs(a - b) > 1e-9 * max(1.0, abs(a)) for a, b in zip(window.as_tuple(), asked))
    return BoundedView(window, moved)


def _note_area(area):
    """Keep the plot area's size a canvas event reports (pixels; anything odd is ignored)."""
    if (
        isinstance(area, list)
        and len(area) == 2
        and all(isinstance(v, int | float) and 50 <= v <= 10_000 for v in area)
    ):
        visitor()[CANVAS_AREA] = (float(area[0]), float(area[1]))
