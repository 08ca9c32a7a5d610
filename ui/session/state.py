"""Session state: the scene, its undo history, and the edits that change them.

Everything lives in ``st.session_state`` (one per browser session), never at module level,
so visitors of a hosted app never see each other's points.

Edits on the canvas arrive as events numbered by the page (a nonce), every delivery carrying all
the events not yet acknowledged, in order: each is applied exactly once, in the order it was made,
however Streamlit coalesces or reorders the reruns that carry them. A removal names points by their
place in the set the canvas showed; that set is remembered, so the very points clicked are removed
even when other edits reached the scene first.
"""

import functools
import logging
from dataclasses import replace

import streamlit as st

from playground import ClusterSpec, InvalidDataError, Message, PlaygroundError, Window, make_clusters
from playground.geometry import window_with_aspect
from playground.link import (
    MAX_LINK_POINTS,
    decode_method_list,
    decode_options,
    decode_scene,
    encode_options,
    encode_scene,
)
from playground.scene import MAX_COORDINATE, MIN_VIEW, History, PointSet, Scene, snap
from playground.specs import MAX_RBF_CENTRES
from ui.text.i18n import N_, _
from ui.widgets.keys import BASIS_WIDGET_KEYS, setting_widget_keys
from ui.widgets.method_params import widget_state

_LOG = logging.getLogger(__name__)

DEFAULT_CLUSTERS = (
    ClusterSpec((-2.0, -1.0), (1.0, 0.6), 30.0),
    ClusterSpec((2.2, -0.6), (0.9, 0.6), -20.0),
    ClusterSpec((0.2, 2.6), (1.1, 0.5), 0.0),
)


def default_scene():
    """Three Gaussian clusters fitted by least squares: something useful at first sight."""
    X, y = make_clusters(DEFAULT_CLUSTERS, 30, seed=1)
    points = PointSet.from_arrays(X, y)
    return Scene(points=points, window=Window.around(X), seed=1)


def init_state():
    if "scene" not in st.session_state:
        st.session_state.scene = default_scene()
        query = st.query_params.to_dict()
        if query:
            try:
                link_scene, messages, view = scene_from_link(query)
            except Exception as err:  # noqa: BLE001  (decoding never raises; if it did, the page must live)
                _LOG.error("A link could not be read", exc_info=err)
                link_scene, messages, view = default_scene(), [_("The link could not be read at all.")], {}
            # The default scene was never on screen: nothing to undo back to.
            load_scene(link_scene, messages, source=N_("the link"), undoable=False, **view)
        else:
            st.session_state[FIT_PENDING] = True  # the canvas gives the first view the plot's shape
    st.session_state.setdefault("history", History())
    st.session_state.setdefault("notices", [])
    st.session_state.setdefault("last_event_nonce", None)
    st.session_state.setdefault("panel_options", {})  # e.g. projection angle, surface kind


def scene():
    return st.session_state.scene


def set_scene(new_scene):
    st.session_state.scene = new_scene


def set_basis(basis, params=None):
    """Switch the fixed basis functions phi(x) (section 4.3.1) applied before the method."""
    current = scene()
    if (basis, tuple(sorted((params or {}).items()))) != (current.basis, current.basis_params):
        set_scene(current.with_basis(basis, params))


def rbf_centres():
    return tuple(scene().basis_param_dict.get("centres") or ())


def set_rbf_centres(centres):
    """Centres placed by hand (clicks on the canvas in centre mode), on the points' grid."""
    centres = tuple(map(tuple, snap(centres).tolist())) if centres else ()
    params = {**scene().basis_param_dict, "centres": centres or None, "placement": "given" if centres else None}
    set_scene(scene().with_basis("rbf", {k: v for k, v in params.items() if v is not None}))


def set_step(step):
    """Show the iterative fit after ``step`` updates (None: the final fit)."""
    set_scene(replace(scene(), step=None if step is None else int(step)))


def notify(message):
    """A message shown once on the next run (e.g. why an edit was refused): text in the session's
    language, or a back-end ``Message`` (phrased where it is shown)."""
    st.session_state.setdefault("notices", []).append(message)


def guarded_callback(what):
    """Decorate a widget callback: an unexpected exception becomes a notice, never a dead page
    (a callback's exception would stop the whole run before anything is drawn)."""

    def decorate(callback):
        @functools.wraps(callback)
        def guarded(*args, **kwargs):
            try:
                return callback(*args, **kwargs)
            except Exception as err:  # noqa: BLE001  (the page's edge, for callbacks)
                _LOG.error("Unexpected error in the callback for %s", what, exc_info=err)
                notify(
                    _("Something went wrong with {what} ({error}); your points and settings are kept.").format(
                        what=what, error=type(err).__name__
                    )
                )

        return guarded

    return decorate


def report_load_problems(source, problems):
    """Show ``problems`` in the load report box (until dismissed), as for a damaged link."""
    st.session_state.load_messages = (source, list(problems))


def take_notices():
    notices, st.session_state.notices = st.session_state.notices, []
    return notices


# ---- What the sidebar shows of the scene --------------------------------------------------------

SIDEBAR_SIGNATURE = "sidebar_signature"


def sidebar_signature():
    """What the sidebar draws from the scene and the session, beyond its own widgets' values:
    undo / redo / clear availability, the classes present (prior sliders), the basis (the count of
    hand-placed RBF centres), the method chosen (a panel may switch it) and a pending load."""
    current = scene()
    history = st.session_state.history
    present = tuple(int(k) for k in current.training.points.counts().nonzero()[0])
    return (
        bool(current.points.test),  # the split's "All training" button
        bool(history.past),
        bool(history.future),
        present,
        current.basis,
        current.basis_params,
        st.session_state.get("method"),
        PENDING_LOAD in st.session_state,
    )


def mark_sidebar_drawn():
    st.session_state[SIDEBAR_SIGNATURE] = sidebar_signature()


def sidebar_outdated():
    """True when an edit made outside the sidebar (a canvas click, a panel button) changed what
    the sidebar shows: the canvas and panels rerun on their own, so the app must rerun whole."""
    return st.session_state.get(SIDEBAR_SIGNATURE) != sidebar_signature()


def change_points(new_points, *, refit_view=False):
    """Replace the point set, recording the old one for undo."""
    current = scene()
    if new_points == current.points:
        return
    st.session_state.history = st.session_state.history.pushed(current.points)
    updated = current.with_points(new_points)
    if refit_view:
        updated = updated.with_window(fitted_window(new_points), by_app=True)
    set_scene(updated)


def _walk_history(step, nothing_message):
    """Apply a History.undone / redone result, or say there was nothing to do."""
    if step is None:
        notify(nothing_message)
        return
    st.session_state.history, points = step
    set_scene(scene().with_points(points))


def undo():
    _walk_history(st.session_state.history.undone(scene().points), _("Nothing to undo."))


def redo():
    _walk_history(st.session_state.history.redone(scene().points), _("Nothing to redo."))


def fit_view():
    set_scene(scene().with_window(fitted_window(scene().points), by_app=True))


# ---- The view fitted to the points, in the shape of the plot ------------------------------------

FIT_PENDING = "fit_pending"  # the app has just fitted the view: the canvas matches it to its plot area
CANVAS_AREA = "canvas_area"  # (width, height) in pixels of the canvas's plot area, as last reported


def fitted_window(points):
    """The window around the points (the default one without points), widened to the shape of
    the canvas's plot area when it is known; the canvas corrects the shape otherwise."""
    window = Window.around(points.X) if len(points) else Window()
    st.session_state[FIT_PENDING] = True
    area = st.session_state.get(CANVAS_AREA)
    return window_with_aspect(window, area[0] / area[1]) if area else window


def take_fit_pending():
    """True once after the app fitted the view (the canvas is told to match its shape, once)."""
    return bool(st.session_state.pop(FIT_PENDING, False))


def _note_area(area):
    """Keep the plot area's size a canvas event reports (pixels; anything odd is ignored)."""
    if (
        isinstance(area, list)
        and len(area) == 2
        and all(isinstance(v, int | float) and 50 <= v <= 10_000 for v in area)
    ):
        st.session_state[CANVAS_AREA] = (float(area[0]), float(area[1]))


def clear_points():
    change_points(PointSet())


def generate(specs, n_per_class, *, shared_covariance, seed, mode, held_out=None):
    """Draw Gaussian clusters; ``mode`` "replace" swaps the points, "add" appends them.

    ``held_out``: the fraction of each class made test points, drawn with ``seed`` (None: the
    cluster generator's own setting)."""
    if held_out is None:
        held_out = generator_held_out()
    try:
        X, y = make_clusters(specs, n_per_class, shared_covariance=shared_covariance, seed=seed)
        fresh = PointSet.from_arrays(X, y).held_out(held_out, seed)
        new_points = fresh if mode == "replace" else scene().points.extended(fresh)
    except PlaygroundError as err:
        notify(err.message)
        return
    change_points(new_points, refit_view=True)
    set_scene(replace(scene(), seed=int(seed)))


POINT_SET_MODE_KEY = "point_set_mode"  # a click adds training points ("train"), test points ("test"), or "switch"
GENERATOR_HELD_OUT_KEY = "gen_held_out"  # percent of the generated points held out as test points
MAX_HELD_OUT_PERCENT = 90


def generator_held_out():
    """The cluster generator's held-out fraction (its slider's percent, bounded)."""
    value = st.session_state.get(GENERATOR_HELD_OUT_KEY, 0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_HELD_OUT_PERCENT:
        return 0.0
    return float(value) / 100


def point_set_mode():
    """What a click does with points: 'train' (adds a training point), 'test' or 'switch'."""
    mode = st.session_state.get(POINT_SET_MODE_KEY, "train")
    return mode if mode in ("train", "test", "switch") else "train"


def _switched(points, clicked):
    """``points`` with one point equal to each clicked (xy, label, test) row moved to the other set."""
    rows, chosen = points.rows(), set()
    for item in clicked:
        index = next((i for i, row in enumerate(rows) if i not in chosen and row == item), None)
        if index is not None:
            chosen.add(index)
    flags = points.is_test
    flags[list(chosen)] = ~flags[list(chosen)]
    return PointSet(points.xy, points.labels, tuple(flags.tolist()))


DRAWN_KEY = "drawn_scenes"  # canvas revision -> the points and centres it showed
MAX_DRAWN = 8


def _editable(current):
    """What a removal's indices refer to: the points and the hand-placed centres shown."""
    return current.points, tuple(current.basis_param_dict.get("centres") or ())


def record_drawn(revision, current):
    """Remember what the canvas drawn as ``revision`` showed: a removal clicked on it names points
    by their place there, and may arrive after other edits (a busy server, quick clicks)."""
    drawn = st.session_state.setdefault(DRAWN_KEY, {})
    drawn.pop(str(revision), None)
    drawn[str(revision)] = _editable(current)
    while len(drawn) > MAX_DRAWN:
        drawn.pop(next(iter(drawn)))


def apply_canvas_events(events, active_class, *, shared_view=False):
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
        last = st.session_state.get("last_event_nonce")
        if last is not None and event["nonce"] <= last:
            continue
        st.session_state.last_event_nonce = event["nonce"]
        _note_area(event.get("area"))
        _apply_event(event, active_class, shared_view)


def _clicked(event, which):
    """The points (which=0) or centres (which=1) a removal clicked, as the canvas showed them;
    None when that drawing is no longer known."""
    if "revision" in event:
        drawn = st.session_state.get(DRAWN_KEY, {}).get(str(event["revision"]))
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


# A double-click resets the view and changes nothing else: its first click was applied at once,
# so the second one takes it back (``retract``), history included.
LAST_CLICK = "last_click"  # (nonce, scene before, history before, scene after) of the last click


def _retract(nonce):
    """Undo the click with this nonce if nothing but the view changed since; leave no trace in undo."""
    last = st.session_state.pop(LAST_CLICK, None)
    if last is None or last[0] != nonce:
        return
    _unused, before, history, after = last
    current = scene()
    if replace(current, window=after.window, view_revision=after.view_revision) == after:
        set_scene(replace(before, window=current.window, view_revision=current.view_revision))
        st.session_state.history = history


def _refusing(handler):
    """An edit handler whose bad values (a hostile or stale event) become one notice, not an error."""

    @functools.wraps(handler)
    def handle(event, active_class, shared_view):
        try:
            handler(event, active_class, shared_view)
        except (InvalidDataError, KeyError, TypeError, ValueError, OverflowError) as err:
            reason = err.message if isinstance(err, PlaygroundError) else str(err)
            notify(Message(N_("That canvas action was ignored: {reason}"), reason=reason))

    return handle


def _click(handler):
    """A click's edit: remembered so that a double-click's second click can take it back."""

    def handle(event, active_class, shared_view):
        before = (scene(), st.session_state.history)
        handler(event, active_class, shared_view)
        st.session_state[LAST_CLICK] = (event["nonce"], *before, scene())

    return handle


def _placing_centres():
    return st.session_state.get("click_mode") == "centres" and scene().basis == "rbf"


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
        change_points(scene().points.added(x, y, active_class, test=point_set_mode() == "test"))


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
        change_points(PointSet.from_rows(_without(scene().points.rows(), clicked)))


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


# One handler per event type of ``ui.plot.canvas_protocol``; an unknown type is ignored.
EVENT_HANDLERS = {
    "add": _click(_add),
    "remove": _click(_remove),
    "remove_centre": _click(_remove),
    "retract": lambda event, *_: _retract(event.get("of")),
    "fit": lambda *_: fit_view(),
    "undo": lambda *_: undo(),
    "redo": lambda *_: redo(),
    "move": lambda event, *_: _move(event),
    "view": _view,
}


def _apply_event(event, active_class, shared_view=False):
    handler = EVENT_HANDLERS.get(event.get("type"))
    if handler is not None:
        handler(event, active_class, shared_view)


# A drag sends moves while the pointer moves (each the whole offset since the press, so any of
# them may be dropped) and a final one on release: the previews change the scene alone, the
# final one records the points before the drag as ONE undo step.
DRAG_KEY = "drag"  # (drag id, the points before the drag, the indices of the dragged points)


def _move(event):
    """Apply a drag's move: the points pressed (named as the canvas showed them) shifted by
    (dx, dy) from where they were when the drag began."""
    try:
        dx, dy = float(event["dx"]), float(event["dy"])
    except (KeyError, TypeError, ValueError):
        return
    drag = st.session_state.get(DRAG_KEY)
    if drag is None or drag[0] != event.get("drag"):
        before = scene().points
        clicked = _clicked(event, 0)
        if clicked is None:
            notify(_("The plot had changed a lot before that drag arrived, so nothing was moved; drag again."))
            clicked = []
        drag = (event.get("drag"), before, _places(before, clicked))
        st.session_state[DRAG_KEY] = drag
    _unused, before, places = drag
    moved = before.moved(places, dx, dy)
    if event.get("final"):
        st.session_state.pop(DRAG_KEY, None)
        set_scene(scene().with_points(before))
        change_points(moved)  # one undo step back to where the points were before the drag
    elif moved != scene().points:
        set_scene(scene().with_points(moved))


def _places(points, clicked):
    """The indices in ``points`` of the clicked rows (as ``PointSet.rows``), each occurrence used once."""
    free = {}
    for index, item in enumerate(points.rows()):
        free.setdefault(item, []).append(index)
    return [free[item].pop(0) for item in clicked if free.get(item)]


def bounded_view(x0, x1, y0, y1):
    """(Window, moved): the view asked for, widened to MIN_VIEW and kept within ±MAX_COORDINATE."""
    bounds = []
    for low, high in ((x0, x1), (y0, y1)):
        low, high = min(low, high), max(low, high)
        centre = min(max((low + high) / 2, -MAX_COORDINATE), MAX_COORDINATE)
        half = min(max((high - low) / 2, MIN_VIEW / 2), MAX_COORDINATE)
        bounds += [max(centre - half, -MAX_COORDINATE - MIN_VIEW), min(centre + half, MAX_COORDINATE + MIN_VIEW)]
    window = Window(*bounds)
    asked = (x0, x1, y0, y1)
    moved = any(abs(a - b) > 1e-9 * max(1.0, abs(a)) for a, b in zip(window.as_tuple(), asked))
    return window, moved


# ---- Loading a whole scene (a shared link, a preset, an uploaded file) -------------------------

PENDING_LOAD = "pending_load"


def reset_setting_widgets():
    """Back to the widgets' defaults (the page's edge, when the sidebar could not be drawn)."""
    for key in setting_widget_keys():
        st.session_state.pop(key, None)


def scene_from_link(query):
    """(scene, messages, view) from a link's query parameters; never raises.

    ``view`` holds what the link says about the page around the scene: panel options, the open
    tab, the compared methods and presentation mode (keyword arguments of ``load_scene``).
    """
    scene, messages = decode_scene(query)
    if ("p" in query or "pn" in query or "v" not in query) and not len(scene.points):
        # Unreadable points, or a hand-written link without any (the app's links always carry
        # "v"): show the default clusters rather than an empty plot.
        fallback = default_scene()
        scene = replace(scene, points=fallback.points, window=fallback.window if "w" not in query else scene.window)
    view = {}
    if "w" not in query:
        # No window in the link (a hand-written one, e.g. just ?lang=ja): frame the points in the
        # plot's own shape, as a plain visit does, instead of the bare window around them.
        view["fit"] = True
    if "po" in query:
        view["panel_options"] = decode_options(str(query["po"]), messages)
    if "tab" in query:
        view["tab"] = str(query["tab"])[:60]
    if "cmp" in query:
        view["compare"] = decode_method_list(str(query["cmp"]), messages)
    if "pm" in query:
        view["presentation"] = str(query["pm"]) == "1"
    return scene, messages, view


def link_note(current):
    """What the link cannot carry of ``current``, as a sentence for the share box, or None."""
    if len(current.points) > MAX_LINK_POINTS:
        return _(
            "This scene has {n:,} points; a link carries at most {limit:,}, so it "
            "leaves them out: download the scene (Import / export) to share it whole."
        ).format(n=len(current.points), limit=MAX_LINK_POINTS)
    return None


def link_query(current, panel_options, tab, compared=(), presenting=False, language=None):
    """The query parameters that reproduce what the user sees (the address bar follows them),
    in the sender's language (``lang``) when it is given."""
    query = encode_scene(current)
    if panel_options:
        query["po"] = encode_options(panel_options)
    if tab:
        query["tab"] = tab
    if compared:
        query["cmp"] = ",".join(compared)
    if presenting:
        query["pm"] = "1"
    if language:
        query["lang"] = language
    return query


DEFAULT_SOURCE = N_("the file")  # what a loaded scene came from, when the caller does not say


def load_scene(
    new_scene,
    messages=(),
    panel_options=None,
    tab=None,
    *,
    compare=None,
    presentation=None,
    source=DEFAULT_SOURCE,
    undoable=True,
    fit=False,
):
    """Replace the whole scene. Call from a callback, or call ``st.rerun()`` after it: the
    change is applied by ``apply_pending_load`` at the start of the next run, before any
    widget is drawn, because widgets' values can only be set then.

    ``compare``: methods to show side by side (switches to the comparison view), or () for
    one method; None leaves the view mode as it is. ``presentation``: True / False / None.
    ``undoable``: whether undo brings the previous points back (not for a session's first scene).
    ``fit``: the scene's window frames its points and may take the plot's shape (a preset);
    "window": the scene's own window, widened to the plot's shape.
    """
    view = {
        "panel_options": panel_options,
        "tab": tab,
        "compare": compare,
        "presentation": presentation,
        "undoable": undoable,
        "fit": fit,
    }
    st.session_state[PENDING_LOAD] = (new_scene, tuple(messages), source, view)


def apply_pending_load():
    """Apply a ``load_scene``: points through the undo history, the view moved, widgets set."""
    pending = st.session_state.pop(PENDING_LOAD, None)
    if pending is None:
        return
    try:
        _apply_load(*pending)
    except Exception as err:  # noqa: BLE001  (the page's edge: a load must never kill the session)
        _LOG.error("A scene could not be loaded", exc_info=err)
        report_load_problems(pending[2], [_("It could not be loaded ({error}).").format(error=type(err).__name__)])


def _apply_load(new_scene, messages, source, view):
    present = [k for k, count in enumerate(new_scene.training.points.counts()) if count]
    values, widget_messages = widget_state(new_scene.method, new_scene.params, present)
    current = scene()
    if view["undoable"] and new_scene.points != current.points:
        st.session_state.history = st.session_state.history.pushed(current.points)
    # Bump the view revision so the canvas adopts the loaded window instead of keeping its zoom.
    set_scene(replace(new_scene, view_revision=current.view_revision + 1))
    if view.get("fit") == "window":  # the scene's own window, widened to the plot's shape
        st.session_state[FIT_PENDING] = True
        area = st.session_state.get(CANVAS_AREA)
        if area:
            set_scene(replace(scene(), window=window_with_aspect(new_scene.window, area[0] / area[1])))
    elif view.get("fit"):
        set_scene(replace(scene(), window=fitted_window(new_scene.points)))
    for key in BASIS_WIDGET_KEYS:
        st.session_state.pop(key, None)
    st.session_state.method = new_scene.method
    st.session_state.multiclass = new_scene.multiclass
    st.session_state.update(values)
    if view["panel_options"] is not None:
        st.session_state.panel_options = dict(view["panel_options"])
    if view["tab"] is not None:
        st.session_state.panel_tab = _(view["tab"])  # the tab's label in the session's language
    if view["compare"] is not None:
        st.session_state.view_mode = "compare" if view["compare"] else "single"
        if view["compare"]:
            st.session_state.compare_methods = list(view["compare"])
    if view["presentation"] is not None:
        st.session_state.presentation = bool(view["presentation"])
    report_load_problems(source, list(messages) + list(widget_messages))
