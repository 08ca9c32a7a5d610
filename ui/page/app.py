"""Compose the page: sidebar controls -> scene -> fit -> canvas, status and explanation.

The page's edge catches what nothing else did: an unexpected exception in the sidebar, a fit, a
panel or the canvas is reported in one plain sentence where that part would be, the scene is
kept, and the rest of the page is still drawn (``_boundary``); the details go to the server's log.
"""

import logging
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Final, NamedTuple

import streamlit as st
from numpy.typing import NDArray
from streamlit.delta_generator import DeltaGenerator

from playground import MODELS, Classifier
from playground.scene import Scene
from ui.base.visitor import PRESENTATION_KEY, TAB_KEY, visitor
from ui.engine.fitview import shown_model
from ui.export.buttons import download_buttons
from ui.plot.canvas import file_name, follow_canvas
from ui.plot.caption import caption_height, caption_text
from ui.plot.figures import SceneFigure
from ui.plot.render import Rendered, render_scene
from ui.session.compute import FitView, scene_model, scene_view, view_is_quick
from ui.text.accessible import canvas_description
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import class_name, phrased
from ui.widgets import canvas_controller, load_seen, presentation_gate
from ui.widgets.basis_controls import basis_picker
from ui.widgets.class_names import class_name_controls
from ui.widgets.compare import comparison_canvases, view_mode_picker
from ui.widgets.import_export import import_export_controls
from ui.widgets.language import init_language, language_picker
from ui.widgets.points_table import EXPANDER_KEY as POINTS_TABLE_OPEN
from ui.widgets.points_table import point_form, points_table
from ui.widgets.presenter import PRESENTER_CSS, presenter_bar
from ui.widgets.presets import DRAWER_OPEN_KEY, drawer, preset_explanation, preset_picker
from ui.widgets.share import address_bar_follows, share_controls, sync_address_bar
from ui.widgets.tab_scroll import keep_page_scroll

from ..panels import PanelContext, active_panels, open_tab_signature, tab_label, tab_title
from ..rooms import panel as rooms_panel
from ..server import forward_queue, runtime
from ..session import loading, state
from ..text import i18n
from ..widgets import controls, heldout

_LOG = logging.getLogger(__name__)

EXPLANATION = N_(
    "**What is drawn:** shading = the class the model assigns to each location; solid line = the "
    "decision boundary, where two classes' discriminants tie; rings = points the model misclassifies; "
    "hollow markers = test points, which no fit uses. **Edit** with the tools above the plot: ✚ Add "
    "(key A; click empty space to add a point of the selected class, drag a point to move it, Alt-click "
    "a point to erase it), ✥ Move (M), ⌫ Erase (E; click a point or drag a box) and ⬚ Select (S; then "
    "drag a selected point to move them all, Delete erases them). The wheel scrolls the page: Ctrl/⌘+scroll, "
    "a pinch or a dragged box zooms; ⌂ in the toolbar (or the key F) fits the view to the points. "
    "**Keys:** Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z or Ctrl+Y redo."
)


def _failure(part, err):
    """One plain sentence for an unexpected error in ``part`` (an ``N_`` phrase, shown translated);
    the traceback goes to the log, in English."""
    _LOG.error("Unexpected error in %s", part, exc_info=err)
    return _(
        "Something went wrong in {part} ({error}); your points and settings are kept. "
        "Try undo, another method or another view."
    ).format(part=_(part), error=type(err).__name__)


@contextmanager
def _boundary(part, fallback=None):
    """Run a part of the page; an unexpected exception becomes a sentence in its place (and
    ``fallback()`` runs, e.g. to draw the points alone). Streamlit's own st.rerun / st.stop pass."""
    try:
        yield
    except Exception as err:  # noqa: BLE001  (the page's edge: anything at all, reported)
        st.error(_failure(part, err), icon=":material/error:")
        if fallback is not None:
            try:
                fallback()
            except Exception as again:  # noqa: BLE001
                _LOG.error("The fallback for %s failed too", part, exc_info=again)


LAYOUT_CSS = "<style>\n" + (Path(__file__).parent / "page.css").read_text(encoding="utf-8") + "</style>\n"


class MethodChoice(NamedTuple):
    """What the sidebar chose for the fit."""

    method: str
    params: dict
    multiclass: str | None
    basis: tuple[str, dict] | None  # (name, params); None when the sidebar failed to draw


class SidebarChoices(NamedTuple):
    """The sidebar's values this run: a request to generate clusters, and the method chosen."""

    generator: tuple  # ``controls.cluster_generator``'s (action, specs, n_per_class, shared, seed)
    method: MethodChoice


def _sidebar(settings_slot: DeltaGenerator | None = None) -> SidebarChoices:
    """The sidebar's widgets (the method's settings in ``settings_slot`` when given: the
    presenter's drawer); on an unexpected error, once, their values are reset to the
    defaults and the page reruns (a value no widget can take must not keep the sidebar dead)."""
    try:
        choices = _sidebar_widgets(settings_slot)
    except Exception as err:  # noqa: BLE001  (the page's edge)
        if not visitor().pop(SIDEBAR_RESET, False):
            visitor()[SIDEBAR_RESET] = True
            loading.reset_setting_widgets()
            state.notify(_failure(N_("the sidebar"), err) + " " + _("Its settings were reset to the defaults."))
            st.rerun()
        with st.sidebar:
            st.error(_failure(N_("the sidebar"), err), icon=":material/error:")
        current = state.scene()
        return SidebarChoices(
            (None, (), 0, False, 0), MethodChoice(current.method, current.param_dict, current.multiclass, None)
        )
    visitor().pop(SIDEBAR_RESET, None)
    return choices


SIDEBAR_RESET: Final = "sidebar_reset"  # set while the page reruns after resetting the sidebar's widgets


def _sidebar_widgets(settings_slot: DeltaGenerator | None = None) -> SidebarChoices:
    scene = state.scene()
    history = visitor()["history"]
    with st.sidebar:
        language_picker()
        # The method first: the choice a lecture and a visitor make most (its name wraps, whole).
        st.header(_("Method"))
        method = controls.method_picker()
        present = [int(k) for k in range(6) if scene.training.points.counts()[k]]  # the classes a fit sees
        # In presentation the sidebar is folded away: the method's settings (initial weights, η...)
        # are drawn in the drawer beside its text instead, the same widgets under the same keys.
        with settings_slot if settings_slot is not None else nullcontext():
            params = controls.method_params(method, present)
        multiclass = controls.multiclass_picker(method, len(present))
        preset_picker()
        st.header(_("Points"))
        # Canvas callbacks read this: inside them the radio's session value is its label.
        visitor()["active_class_index"] = controls.class_picker()
        heldout.point_set_picker()
        controls.edit_buttons(
            bool(history.past),
            bool(history.future),
            len(scene.points) > 0,
            on_undo=state.guarded_callback("undo")(state.undo),
            on_redo=state.guarded_callback("redo")(state.redo),
            on_clear=state.guarded_callback("clear all")(state.clear_points),
            on_fit_view=state.guarded_callback("fit view")(state.fit_view),
        )
        point_form()
        heldout.split_controls(scene.points)
        class_name_controls(scene)
        action, specs, n_per_class, shared, seed = controls.cluster_generator()
        st.header(_("Basis functions"))
        basis_choice = basis_picker(scene)
        import_export_controls()
        st.header(_("Share"))
        share_controls(loading.link_note(scene))
        rooms_panel.open_room_button(scene)
    return SidebarChoices(
        (action, specs, n_per_class, shared, seed), MethodChoice(method, params, multiclass, basis_choice)
    )


def _apply(generator: tuple, method_choice: MethodChoice) -> None:
    action, specs, n_per_class, shared, seed = generator
    if action:
        state.generate(specs, n_per_class, shared_covariance=shared, seed=seed, mode=action)
        st.rerun()  # so the sidebar (undo, counts) shows the new points
    method, params, multiclass, basis_choice = method_choice
    scene = state.scene()
    if (method, tuple(sorted(params.items())), multiclass) != (scene.method, scene.params, scene.multiclass):
        state.set_scene(scene.with_method(method, params, multiclass))
    if basis_choice is not None:  # None: the sidebar failed to draw; the scene keeps its basis
        state.set_basis(*basis_choice)  # no-op when unchanged; hand-placed RBF centres come from the scene


def _dismiss_load_messages():
    visitor().pop("load_messages", None)


def _load_report():
    """What a loaded link, preset or file could not use, until dismissed."""
    source, problems = visitor().get("load_messages", ("", []))  # both set together (state.report_load_problems)
    if not problems:
        if source:
            if not _presenting():  # on a projected screen the toast would cover the plot's corner
                st.toast(_("Loaded {source}.").format(source=plain(_(source))))
            _dismiss_load_messages()
        return
    with st.container(border=True):
        st.warning(
            _("Parts of {source} could not be used; the rest was loaded:").format(source=plain(_(source)))
            + "\n"
            + "\n".join(f"- {plain(phrased(problem, name=class_name))}" for problem in problems),
            icon="⚠️",
        )
        st.button(_("Dismiss"), key="dismiss_load_messages", on_click=_dismiss_load_messages)


def main() -> None:
    forward_queue.keep_finished_runs()  # before this run's messages can meet a fragment run's start
    init_language()
    i18n.begin_run()
    loading.init_state()
    loading.apply_pending_load()
    loading.hold_load()  # a request sent before the page drew the last load carries the scene before it
    # In front of a class (presenting, or a class room on the projector) the plot gets the room.
    if not visitor().get(PRESENTATION_KEY) and not rooms_panel.is_open():
        st.title(_("Linear classification playground"))
        st.caption(
            _("Bishop, *Pattern Recognition and Machine Learning*, chapter 4: click points, pick a method, watch.")
        )
    mode, compared_methods = _view_controls()  # first: they decide what the page below holds
    # Messages come and go above the canvas inside one container that is always there: an element
    # appearing before the canvas would re-create it, and clicks made meanwhile would be lost.
    try_slot = None  # presentation: the drawer's place for the controls its text asks for
    with st.container():
        with _boundary(N_("the load report")):
            _load_report()
            if _presenting():
                try_slot = drawer(comparing=mode == "compare")
            else:
                visitor().pop(state.TEXT_FOLLOWS_WINDOW, None)
                preset_explanation()
        presentation_gate.gate()  # a link's presentation, where the window is wide enough
        # Before any tabs: a run selecting another tab does not scroll the page. Not the page's
        # first element, which presentation's layout keeps as wide as the window (the bar's row).
        keep_page_scroll()
    generator, method_choice = _sidebar(try_slot.settings if try_slot is not None else None)
    _apply(generator, method_choice)
    state.mark_sidebar_drawn()
    if try_slot is not None and mode != "compare" and not rooms_panel.is_open():
        with _boundary(N_("the explanation's controls")):
            _drawer_controls(try_slot.asked)
    visitor()[WHOLE_RUN] = True  # the panels run below: the canvas need not call them
    try:
        if rooms_panel.is_open():
            rooms_panel.projector_view(_scale(), in_bar=_presenting())
        elif mode == "compare":
            _comparison_view(compared_methods)
        else:
            _canvas_view()
            # What the plot shows and how to edit it: the same words whatever a click changes, so
            # outside the canvas's fragment (every element a fragment sends costs server time).
            st.caption(_(EXPLANATION))
            _panel_view()
    finally:  # also when the run is cut short (a rerun), so a later canvas-only run calls its panels
        visitor()[WHOLE_RUN] = False
    load_seen.mark_drawn()  # last: the page has drawn the whole run, the last load's values with it
    address_bar_follows()  # the first run over, the address bar follows the scene (share.js is in the page)
    runtime.freeze_long_lived_objects()
    runtime.slow_config_polling()
    runtime.index_config_sections()


# The canvas and the panels below it are two fragments: a click on the canvas reruns the canvas
# alone, which draws at once; the panels follow one round trip later (the canvas asks for them
# when it has drawn, see ``panels_follow``). The sidebar alone is dozens of widgets to re-send, so
# neither reruns the page unless an edit changed what the sidebar shows (undo becomes possible, a
# class appears, a panel switches the method) or a panel widget changed what the canvas shows.
CANVAS_DRAWN: Final = "canvas_drawn"  # what the canvas last drew: the panels follow it
WHOLE_RUN: Final = "whole_run"  # True while the whole page runs (not one fragment)
LIVE_FOLLOWS: Final = "live_follows"  # this run, the open panel's live section holds the follow element
OPEN_PANEL: Final = "open_panel"  # the open panel's title, as the panels last drew it (the link carries it)


def _canvas_key(scene):
    """What the canvas draws: the scene, the panel options (overlays such as a projection) and the
    open tab when an overlay shows only while its tab is open."""
    options = repr(sorted(visitor()["panel_options"].items()))
    return f"{hash(scene)}/{hash(options)}/{open_tab_signature(tab_title(visitor().get(TAB_KEY)))}"


def _sync_link(compared_methods=()):
    """The address bar follows what is on screen (the link reproduces it)."""
    sync_address_bar(
        loading.link_query(
            state.scene(),
            visitor()["panel_options"],
            visitor().get(OPEN_PANEL) if not compared_methods else None,
            compared_methods,
            visitor().get(PRESENTATION_KEY, False) or presentation_gate.wanted(),
            i18n.current_language(),
        )
    )


def _panel_context(scene, model):
    """What the panels see: the fit, the step the canvas shows, the view and the panel options. The
    panels' scene holds the training points alone (no panel statistic uses a test point); the
    Metrics panel reads every point from ``all_points``."""
    return PanelContext(
        scene.training,
        model,
        shown_model(model, scene.step),
        scene.window,
        visitor()["panel_options"],
        tab_title(visitor().get(TAB_KEY)),
        all_points=scene.points,
        live=_live_section,
        controls_in_drawer=_controls_in_drawer(),
        area=visitor().get(state.CANVAS_AREA),
    )


def _controls_in_drawer():
    """Presentation with the drawer open over one method: the panels' "Try:" controls are in it."""
    return bool(_presenting() and visitor().get(DRAWER_OPEN_KEY) and not rooms_panel.is_open())


def _drawer_controls(slot):
    """The open drawer's controls that the panels' tabs would hold (``Panel.drawer``), under the
    settings the sidebar put there: figure 4.6's angle slider and projection, the covariance switch."""
    context = _fresh_panel_context()
    with slot:
        for panel in active_panels(context):
            if panel.drawer is not None:
                panel.drawer(context)


def _fresh_panel_context():
    scene = state.scene()
    return _panel_context(scene, scene_model(scene))


def _show_notices():
    for notice in state.take_notices():
        st.toast(plain(phrased(notice, name=class_name)))


@st.fragment
def _canvas_view():
    """The scene's method on the clickable canvas, with its panels' overlays; the status line."""
    if state.sidebar_outdated():
        st.rerun(scope="app")
    _show_notices()
    scene = state.scene()
    # The fit's messages go under the plot, not above it: a message that comes and goes above would
    # move the plot under the pointer between two clicks. Both containers are always there, so the
    # canvas keeps its place in the page's tree.
    canvas_slot, messages = st.container(), st.container()
    figure, view, test_predicted, model = None, FitView(), None, None
    caption_room = caption_height(caption_text(scene), _scale())  # the caption's band above the plot

    def points_alone() -> None:  # the fit or an overlay failed: the points are still drawn and editable
        nonlocal figure
        figure = _points_figure(scene)

    with messages, _boundary(N_("the fit or the plot"), fallback=points_alone):
        with nullcontext() if view_is_quick(scene) else st.spinner(_("Fitting and evaluating…")):
            view = scene_view(scene)
            model = scene_model(scene)
        _fit_message(view)
        figure, test_predicted, _status = _fitted_figure(scene, view, model)
        caption_room = caption_height(caption_text(scene, view, test_predicted), _scale())
    visitor()[CANVAS_DRAWN] = _canvas_key(scene)
    drawn = shown_model(model, scene.step)  # the status line and the keyboard say what is drawn: the step's fit
    with canvas_slot:  # the plot and, right under it, the status line; the messages follow
        if figure is not None:
            _draw_canvas(
                scene,
                figure,
                painted=any(trace.get("meta") == "posterior" for trace in figure["data"]),
                caption_room=caption_room,
                model=drawn,
                error=view.error,
            )
        with _boundary(N_("the status line")):
            _status_region(scene, drawn, view, test_predicted)
    with _boundary(N_("the link")):
        _sync_link()


def _fit_message(view: FitView) -> None:
    """The fit's error or note, under the plot."""
    if view.error:
        st.warning(plain(phrased(view.error, name=class_name)), icon="⚠️")
    elif view.note:
        st.info(plain(phrased(view.note, name=class_name)), icon="ℹ️")


def _fitted_figure(scene: Scene, view: FitView, model: Any) -> Rendered:
    """The canvas's figure: the fit's regions and boundary, the open panels' overlays, the points;
    and the fit's labels of the test points."""
    context = _panel_context(scene, model)
    overlays = [trace for panel in active_panels(context) if panel.overlay for trace in panel.overlay(context)]
    return render_scene(
        scene,
        model,
        view,
        overlays=overlays,
        scale=_scale(),
        switching=heldout.click_mode() == "switch",  # the points' hover says what a click does
        shared=True,  # the live answer to the click that made this scene drew from the same render
    )


def _points_figure(scene: Scene) -> SceneFigure:
    """The points alone, still editable, when the fit or an overlay failed."""
    return render_scene(scene, None, FitView(error="no fit"), scale=_scale()).figure


def _status_region(scene: Scene, model: Classifier | None, view: FitView, test_predicted: NDArray[Any] | None) -> None:
    """The status line under the plot: a live region, so a screen reader announces each new status,
    with the plot in words."""
    hidden = ""
    if scene.fit_hidden:  # predict first: the counts, and nothing of the fit
        model, view, test_predicted = None, FitView(), None
        hidden = " — " + _("the fit is hidden: predict, then reveal it (Your line tab)")
    description = canvas_description(scene, model, view.error)
    line = heldout.status_line(scene.points, view, test_predicted) + hidden
    st.markdown(
        f"<div role='status' aria-live='polite'>\n\n{line} <span class='pg-sr-only'>{description}</span>\n\n</div>",
        unsafe_allow_html=True,
    )


def _draw_canvas(scene, figure, painted=False, caption_room=0, model=None, error=None):
    canvas_controller.scene_canvas(
        scene,
        figure,
        model=model,
        error=error,
        height=PRESENTATION_MIN_HEIGHT if _presenting() else CANVAS_HEIGHT + caption_room,  # the plot keeps its size
        fill_screen=_presenting(),
        within_window=FIRST_SCREEN_MIN_HEIGHT,  # the whole plot on a laptop's first screen
        fit=canvas_controller.fit_token(),
        file_name=file_name(MODELS[scene.method].display_name, canvas_controller.strategy_words(scene)),
        on_events=canvas_controller.events_handler("canvas"),
        # Only after a run of the canvas alone: when the whole page runs, the panels run too, and a
        # call from the canvas would race their update (sending back widget values not yet shown).
        panels_follow=None if visitor().get(WHOLE_RUN) else visitor()[CANVAS_DRAWN],
        new_point=canvas_controller.new_point_marker(scene, _scale()),
        live=canvas_controller.live_settings(scene, painted, _scale()),
        click_switches=heldout.click_mode() == "switch",
    )


@st.fragment
def _panel_view():
    """The open panel, for the scene the canvas last drew."""
    if _panels_outdated():
        st.rerun(scope="app")  # a panel widget changed the canvas: the step, a projection, an overlay
    scene = state.scene()
    previous = visitor().get(OPEN_PANEL)
    visitor()[LIVE_FOLLOWS] = False
    with _boundary(N_("the points table")):
        points_table(scene.points)
    with _boundary(N_("the panel")):
        context = _panel_context(scene, scene_model(scene))
        visitor()[OPEN_PANEL] = _render_panels(active_panels(context), context)
    if not visitor()[LIVE_FOLLOWS]:
        follow_canvas(visitor()[CANVAS_DRAWN])
    if visitor().get(OPEN_PANEL) != previous:  # the rest of the link is the canvas's to keep
        _sync_link()


def _panels_outdated():
    return state.sidebar_outdated() or visitor().get(CANVAS_DRAWN) != _canvas_key(state.scene())


@st.fragment
def _live_section(function):
    """The part of the open panel that changes with the points (``ui.panels.live_section``).

    It follows a click alone: the canvas asks the element that follows it to rerun its fragment,
    and that element is here unless the points table is open (the table follows the points too, so
    then the whole panel fragment reruns). A click then re-sends the chart and its figures, not the
    tabs, pickers, buttons and explanations around them.
    """
    if _panels_outdated():
        st.rerun(scope="app")
    with _boundary(N_("the panel")):
        function(_fresh_panel_context())
    if not visitor().get(POINTS_TABLE_OPEN):
        visitor()[LIVE_FOLLOWS] = True
        follow_canvas(visitor()[CANVAS_DRAWN])


@st.fragment
def _comparison_view(compared_methods):
    """Two to four methods side by side: a click or a zoom in any canvas moves them all."""
    if state.sidebar_outdated():
        st.rerun(scope="app")
    _show_notices()
    scene = state.scene()
    with _boundary(N_("the comparison")):
        comparison_canvases(scene, compared_methods, presenting=_presenting())
    st.markdown(heldout.status_line(scene.points), unsafe_allow_html=True)
    st.caption(_(EXPLANATION))
    _sync_link(compared_methods)


def _view_controls():
    """One method or a comparison, and presentation mode: at the top, as they change the page."""
    # One row that wraps on a narrow screen instead of squeezing its labels (columns would).
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="pg_view_row")
    mode, methods = view_mode_picker(row, row)
    # Presentation and the class room stacked: the row's height is the methods field's already.
    stack = row.container(gap="small")
    presenting = stack.toggle(
        _("Presentation"),
        key=PRESENTATION_KEY,
        on_change=presentation_gate.toggled,
        help=_("For a projector: bigger type and markers, the sidebar folded away, the plot filling the screen."),
    )
    if presenting and rooms_panel.is_open():  # the bar runs the room on the projector
        rooms_panel.bar_controls(row)
        rooms_panel.open_room_button(state.scene(), row, key="room_bar")
    elif presenting:  # the sidebar is folded away: what a lecture needs, and the scene to take home, on the page
        presenter_bar(row)
        with row.popover(_("Take it home"), icon=":material/download:"):
            download_buttons(state.scene(), key="export_presenting")
        # At the bar's end, not under the toggle: the first row stays one control high.
        rooms_panel.open_room_button(state.scene(), row, key="room_bar")
    else:
        rooms_panel.open_room_button(state.scene(), stack, key="room_bar")
    folded = "" if mode == "compare" else ONE_METHOD_CSS
    st.markdown(LAYOUT_CSS + folded + (PRESENTER_CSS if presenting else ""), unsafe_allow_html=True)
    return mode, methods


# One method shown: the methods field (always drawn, see view_mode_picker) is folded away, so the
# whole plot is on a laptop's first screen and starts on a phone's; "Compare methods" brings it back.
ONE_METHOD_CSS = """<style>
.st-key-compare_methods { display: none; }
</style>
"""


def _presenting():
    return bool(visitor().get(PRESENTATION_KEY))


def _scale():
    return 1.6 if _presenting() else 1.0


CANVAS_HEIGHT = 560
PRESENTATION_MIN_HEIGHT = 420  # presentation mode: the plot fills the window's height, at least this
FIRST_SCREEN_MIN_HEIGHT = 400  # otherwise the plot ends within the first screen, down to this height


def _render_panels(panels, context):
    """One tab per panel; only the open tab runs (the others cost nothing). Returns its title."""
    shown = [panel for panel in panels if panel.render]
    if not shown:
        return None
    titles = [panel.title for panel in shown]
    labels = [tab_label(title) for title in titles]  # the session holds the open tab's label
    if visitor().get(TAB_KEY) not in labels:
        visitor().pop(TAB_KEY, None)  # e.g. a panel of the previous method
        loading.release_held(TAB_KEY)  # a link's tab this method lacks: the first tab, once
    tabs = st.tabs(labels, key=TAB_KEY, on_change="rerun")
    for tab, panel in zip(tabs, shown):
        if tab.open is False:
            continue
        with tab:
            if panel.help:
                st.caption(_("**What am I looking at?** {help}").format(help=_(panel.help)))
            panel.render(context)
    return tab_title(visitor().get(TAB_KEY)) or titles[0]
