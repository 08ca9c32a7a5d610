"""Whole scenes in and out: the session's first scene (from the link it opened), loading a scene
(a shared link, a preset, an uploaded file, a class room) and the link that reproduces the page.

Rules that must hold:

- A load is recorded by ``load_scene`` and applied by ``apply_pending_load`` at the start of the
  next run, before any widget is drawn: widgets' values can only be set then.
- A load never kills the session: what cannot be used is reported in the load report box, the
  rest is loaded (``report_load_problems``); reading a link never raises.
- The previous points stay one undo step away unless the load says otherwise (a session's first
  scene has nothing to go back to).
- Every widget value set by a load goes through ``ui.session.widget_values.widget_state``, the
  same check a link and a file get.
"""

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, NamedTuple

import streamlit as st

from playground.geometry import window_with_aspect
from playground.link import (
    MAX_LINK_POINTS,
    decode_method_list,
    decode_options,
    decode_scene,
    encode_options,
    encode_scene,
)
from playground.scene import History, Scene
from ui.base.visitor import visitor, widget_values
from ui.session.widget_keys import BASIS_WIDGET_KEYS, setting_widget_keys
from ui.text.i18n import N_, _

from .state import (
    CANVAS_AREA,
    FIT_PENDING,
    PENDING_LOAD,
    default_scene,
    fitted_window,
    report_load_problems,
    request_presentation,
    scene,
    set_scene,
)
from .widget_values import widget_state

_LOG = logging.getLogger(__name__)


def init_state() -> None:
    if "scene" not in visitor():
        visitor()["scene"] = default_scene()
        query = st.query_params.to_dict()
        if query:
            try:
                link_scene, messages, view = scene_from_link(query)
            except Exception as err:  # noqa: BLE001  (decoding never raises; if it did, the page must live)
                _LOG.error("A link could not be read", exc_info=err)
                link_scene, messages, view = default_scene(), [_("The link could not be read at all.")], {}
            if view.pop("presentation", False):  # where the window is wide enough: the browser says
                request_presentation(fit=bool(view.get("fit")))
            # The default scene was never on screen: nothing to undo back to.
            load_scene(link_scene, messages, source=N_("the link"), undoable=False, **view)
        else:
            visitor()[FIT_PENDING] = True  # the canvas gives the first view the plot's shape
    visitor().setdefault("history", History())
    visitor().setdefault("notices", [])
    visitor().setdefault("last_event_nonce", None)
    visitor().setdefault("panel_options", {})  # e.g. projection angle, surface kind


def reset_setting_widgets() -> None:
    """Back to the widgets' defaults (the page's edge, when the sidebar could not be drawn)."""
    for key in setting_widget_keys():
        widget_values().pop(key, None)


class LinkScene(NamedTuple):
    """What a link gave (``scene_from_link``): the scene, a sentence for each part that could not
    be used, and ``view``, what the link says about the page around the scene (panel options, the
    open tab, the compared methods, presentation mode: keyword arguments of ``load_scene``)."""

    scene: Scene
    messages: list[Any]
    view: dict[str, Any]


def scene_from_link(query: Mapping[str, Any]) -> LinkScene:
    """The scene and the page's view from a link's query parameters; never raises."""
    scene, messages = decode_scene(query)
    if ("p" in query or "pn" in query or "v" not in query) and not len(scene.points):
        # Unreadable points, or a hand-written link without any (the app's links always carry
        # "v"): show the default clusters rather than an empty plot.
        fallback = default_scene()
        scene = replace(scene, points=fallback.points, window=fallback.window if "w" not in query else scene.window)
    view: dict[str, Any] = {}
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
    return LinkScene(scene, messages, view)


def link_note(current: Scene) -> str | None:
    """What the link cannot carry of ``current``, as a sentence for the share box, or None."""
    if len(current.points) > MAX_LINK_POINTS:
        return _(
            "This scene has {n:,} points; a link carries at most {limit:,}, so it "
            "leaves them out: download the scene (Import / export) to share it whole."
        ).format(n=len(current.points), limit=MAX_LINK_POINTS)
    return None


def link_query(
    current: Scene,
    panel_options: Mapping[str, Any] | None,
    tab: str | None,
    compared: Sequence[str] = (),
    presenting: bool = False,
    language: str | None = None,
) -> dict[str, str]:
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
    new_scene: Scene,
    messages: Iterable[Any] = (),
    panel_options: Mapping[str, Any] | None = None,
    tab: str | None = None,
    *,
    compare: Sequence[str] | None = None,
    presentation: bool | None = None,
    source: str = DEFAULT_SOURCE,
    undoable: bool = True,
    fit: bool | str = False,
) -> None:
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
    visitor()[PENDING_LOAD] = (new_scene, tuple(messages), source, view)


def apply_pending_load() -> None:
    """Apply a ``load_scene``: points through the undo history, the view moved, widgets set."""
    pending = visitor().pop(PENDING_LOAD, None)
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
        visitor()["history"] = visitor()["history"].pushed(current.points)
    # Bump the view revision so the canvas adopts the loaded window instead of keeping its zoom.
    set_scene(replace(new_scene, view_revision=current.view_revision + 1))
    if view.get("fit"):
        # The plot area last reported is the previous scene's canvas's, also when a report of it
        # came in with the request that asked for this load (after the load was asked for): the
        # canvas shown gives the framed window its own shape when it draws it.
        visitor().pop(CANVAS_AREA, None)
    if view.get("fit") == "window":  # the scene's own window, widened to the plot's shape
        visitor()[FIT_PENDING] = True
        area = visitor().get(CANVAS_AREA)
        if area:
            set_scene(replace(scene(), window=window_with_aspect(new_scene.window, area[0] / area[1])))
    elif view.get("fit"):
        set_scene(replace(scene(), window=fitted_window(new_scene.points)))
    for key in BASIS_WIDGET_KEYS:
        widget_values().pop(key, None)
    visitor()["method"] = new_scene.method
    visitor()["multiclass"] = new_scene.multiclass
    widget_values().update(values)
    if view["panel_options"] is not None:
        visitor()["panel_options"] = dict(view["panel_options"])
    if view["tab"] is not None:
        visitor()["panel_tab"] = _(view["tab"])  # the tab's label in the session's language
    if view["compare"] is not None:
        visitor()["view_mode"] = "compare" if view["compare"] else "single"
        if view["compare"]:
            visitor()["compare_methods"] = list(view["compare"])
    if view["presentation"] is not None:
        visitor()["presentation"] = bool(view["presentation"])
    _hold(
        ("method", "multiclass", *values)
        + (("panel_tab",) if view["tab"] is not None else ())
        + (("view_mode", "compare_methods") if view["compare"] is not None else ())
        + (("presentation",) if view["presentation"] is not None else ())
    )
    report_load_problems(source, list(messages) + list(widget_messages))


# ---- A load's widget values hold until the page has drawn them ----------------------------------
#
# A request the page sends carries every widget's value as the page has it. One sent before the
# page drew the run that applied a load (a press of → sent while that run was still drawing, a
# canvas's report) carries the previous scene's method, strategy, tab...: Streamlit takes them as
# the person's choices, and the new figure's points came up under the old figure's method and
# text. So a load is numbered, the page's last element (``ui.widgets.load_seen``) reports the
# number of the last load it has drawn whole, and until it reports this one, every run starts from
# the load's values again (``hold_load``): what a load sets is set whole, whatever the page sent.

LOAD_SERIAL: Final = "load_serial"  # the number of the last load applied
LOAD_HELD: Final = "load_held"  # (its number, the widget values it set, the keys it cleared)
LOAD_SEEN_KEY: Final = "pg_load_seen"  # the page's last element: the number of the last load it drew


def _hold(keys):
    serial = visitor().get(LOAD_SERIAL, 0) + 1
    visitor()[LOAD_SERIAL] = serial
    values = {key: widget_values()[key] for key in keys if key in widget_values()}
    visitor()[LOAD_HELD] = (serial, values, BASIS_WIDGET_KEYS)


def load_unseen() -> bool:
    """The page sent this run's request before it had drawn the last load (its widget values are
    the previous scene's)."""
    held = visitor().get(LOAD_HELD)
    return held is not None and widget_values().get(LOAD_SEEN_KEY) != held[0]


def hold_load() -> None:
    """At the start of a run, after ``apply_pending_load``: the last load's widget values again
    while the page has not drawn it whole; once it has, the widgets are the person's."""
    held = visitor().get(LOAD_HELD)
    if held is None:
        return
    if not load_unseen():
        visitor().pop(LOAD_HELD, None)
        return
    _serial, values, cleared = held
    for key in cleared:
        widget_values().pop(key, None)
    widget_values().update(values)


def release_held(key: str) -> None:
    """Stop holding ``key``'s loaded value: the page cannot show it (a link's tab that this scene's
    method does not have). Held, it would come back at every run's start, the widget would put
    its own default back and ask for a run again: a page rerunning for ever."""
    held = visitor().get(LOAD_HELD)
    if held is not None and key in held[1]:
        serial, values, cleared = held
        visitor()[LOAD_HELD] = (serial, {name: value for name, value in values.items() if name != key}, cleared)


def load_serial() -> int:
    """The number of the last load applied (0: none yet)."""
    return visitor().get(LOAD_SERIAL, 0)
