"""One visitor's state: everything the page keeps between its runs, named and typed in one place.

Rules that hold:

- This is the one module that reads Streamlit's session state (``ui/base/streamlit_private.py`` reads
  Streamlit's private names, never the state). Every other module reads and writes the visitor's
  state through ``visitor()``, or a widget's value made under a key built at run time through
  ``widget_values()``. Both are views of the same mapping, not copies: a value written is the value
  Streamlit's widget shows on the next run, and a widget's value is read where it was written.
- Every key the page uses by name is declared in ``VisitorState`` with its type, so a misspelt or
  mistyped key is an error for the type checker wherever the modules are checked (``mypy``'s files
  in pyproject.toml). A key's constant is declared ``Final`` where it is defined, so the checker
  sees its text.
- What is per visitor lives here; what the whole server shares (the fits' cache and worker pool,
  the rooms) does not (``ui/engine/cache.py``, ``workers.py``, ``ui/rooms/store.py``).
- The page's widgets keep their values under their keys (``key=`` of a Streamlit widget); those
  with a fixed key are declared below among the widgets' values.

This module is in the layers just above the engine (pyproject.toml ``[tool.importlinter]``): the
words (``ui/text``) read the visitor's language and class names from it, and every layer above.
"""

from collections.abc import MutableMapping
from typing import Any, Final, TypedDict, cast

import streamlit as st

from playground import Message
from playground.scene import History, PointSet, Scene

# The keys more than one module reads by name (the widgets' own keys live with their widgets).
PRESENTATION_KEY: Final = "presentation"  # ui.page.app's toggle: presentation mode
TAB_KEY: Final = "panel_tab"  # the open panel tab's label, in the session's language (links carry its title)


class VisitorState(TypedDict, total=False):
    """The visitor's state, by name. Every key may be absent until first written (``total=False``)."""

    # ---- The scene and its history (ui/session/state.py, edits.py, loading.py) ----
    scene: Scene  # what is on screen: points, method, settings, view
    history: History  # undo and redo of the points
    pending_load: tuple[Scene, tuple[Message, ...], str, dict[str, Any] | None]  # loaded next run
    notices: list[str | Message]  # shown once on the next run
    load_messages: tuple[str, list[Any]]  # the load report: what was loaded, its problems
    sidebar_signature: tuple[Any, ...]  # what the sidebar last showed of the scene
    sidebar_reset: bool  # set while the page reruns after resetting the sidebar's widgets
    text_follows_window: bool  # a text drawn outside the canvas quotes the view
    presentation_wanted: bool | str  # a link asked for presentation ("fit": frame the view anew)
    load_serial: int  # the number of the last load applied (ui/session/loading.py)
    load_held: tuple[int, dict[str, Any], tuple[str, ...]]  # its widget values, held until the page drew it

    # ---- The canvas (ui/session/edits.py, ui/widgets/canvas_controller.py) ----
    last_event_nonce: int | None  # the last canvas event applied
    canvas_area: tuple[float, float]  # the plot area's size in pixels, as last reported
    fit_pending: bool  # the view was just fitted: the canvas gives it the plot's shape
    fit_count: int  # the last fit token handed to a canvas
    drawn_scenes: dict[str, Any]  # canvas revision -> the points and centres it showed
    drag: tuple[Any, PointSet, list[int]]  # (drag id, the points before it, the dragged points' places)
    canvas_drawn: str  # what the canvas last drew: the panels follow it
    whole_run: bool  # the whole page is running (not one fragment)
    live_follows: bool  # this run, the open panel's live section holds the follow element

    # ---- Fits the visitor stopped (ui/session/compute.py) ----
    stop_fit_requests: set[tuple[Any, ...]]  # the fits' keys (ui/engine/cache.py)
    stopped_fits: dict[tuple[Any, ...], Any]
    session_views: dict[tuple[Any, ...], Any]
    fit_wait_serial: int

    # ---- Panels and their options (ui/panels/, ui/page/app.py) ----
    panel_options: dict[str, Any]  # e.g. a projection's angle, the posterior's display
    panel_tab: str  # the open tab's label, in the visitor's language (st.tabs' key)
    open_panel: str | None  # the open panel's title, as the panels last drew it
    playback_frames: dict[str, tuple[Any, Any, Any]]  # per player: (made of, model, frames)
    fs_signature: Any  # the feature-space panel: the scene its pair of features was chosen for
    fs_i: int
    fs_j: int

    # ---- Presentation, the drawer, the presenter bar (ui/widgets/presenter.py, presets.py) ----
    active_preset: str  # the figure whose explanation is shown
    pg_drawer_open: bool  # presentation: the explanation's drawer is open
    pb_presses: tuple[str, ...]  # the ids of the last presses of the bar applied (the page waits on them)

    # ---- Points, files and the share box (ui/widgets/) ----
    points_table_nonce: int  # a new editor after a refused edit
    points_table_error: str | Message
    import_file_count: int
    import_note: Message
    class_labels: tuple[Any, ...]  # the last CSV's own label of each class
    rbf_hand_centres: tuple[tuple[float, float], ...]  # the RBF centres last placed by hand
    rbf_last_placement: str
    multiclass_auto_ovr: bool  # one-versus-rest stands in for the K-class choice
    address_follows: bool  # the first run is over: the address bar follows the scene

    # ---- The class room this visitor opened (ui/rooms/panel.py) ----
    class_room: dict[str, Any]  # {"code", "token", "shown"}
    room_confirm_close: bool
    room_confirm_clear: bool
    room_scroll_top: str  # set by a freeze: the next run starts the page at its top

    # ---- Widgets' values under fixed keys (the widget owns the value; the page may set it) ----
    presentation: bool
    pg_load_seen: int  # the page's last element: the number of the last load it drew whole
    lang: str
    language_picker: str
    view_mode: str  # "single" or "compare"
    compare_methods: list[str]
    method: str
    multiclass: str
    basis: str
    click_mode: str
    active_class_index: int
    point_set_mode: str  # clicks add training points, test points, or switch them
    gen_held_out: int  # percent of generated points held out as test points
    typed_class: Any
    typed_x1: str  # the typed point's coordinates, as typed (text inputs)
    typed_x2: str
    sigmoid_follow_last: bool
    sigmoid_point_number: int
    posterior_display: str
    posterior_surface_class: int
    outlier_class: Any
    room_phone_host: str
    room_large_qr: bool
    share_link: Any  # the share box's state (what the browser reported)
    points_table_open: bool  # the table of points' expander
    import_error: str | Message  # why the last file was refused
    ls_surface_output: int  # least squares' surface panel: which output, and how it is drawn
    ls_surface_kind: str
    pb_method: str  # the presenter bar's method, class, strategy, basis and the card's setting (each mirrors
    pb_class: int  # the sidebar's widget of the same setting)
    pb_strategy: str
    pb_basis: str
    pb_setting: object  # the method card's ``presenter_setting``


def visitor() -> VisitorState:
    """The visitor's state (Streamlit's session state, seen through its declared keys)."""
    return cast(VisitorState, st.session_state)


def widget_values() -> MutableMapping[str, Any]:
    """The values of widgets whose keys are made at run time (a method setting's key, a panel's
    per-chart key): the same mapping as ``visitor()``, by any key."""
    return cast(MutableMapping[str, Any], st.session_state)
