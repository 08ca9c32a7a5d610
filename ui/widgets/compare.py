"""Comparison view: two to four methods side by side on the same points, sharing the view.

Each method gets its own clickable canvas (a click in any of them edits the shared points) and
its accuracy. The method chosen in the sidebar keeps its sidebar parameters; the others run
with their defaults, and a two-class method facing more classes runs one-versus-rest.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

import numpy as np
import streamlit as st
from numpy.typing import NDArray
from streamlit.delta_generator import DeltaGenerator

from playground import MODELS
from playground.link import MAX_COMPARED
from playground.registry import fitted_strategy
from playground.scene import Scene
from ui.base.visitor import visitor
from ui.engine.fitview import FitView, test_predictions
from ui.methods import CARDS
from ui.plot.canvas import file_name
from ui.plot.legend_row import legend_row
from ui.plot.render import render_scene
from ui.session.compute import fitted_model, prefetch, scene_model, scene_view
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import class_name, phrased
from ui.widgets import canvas_controller

MODE_KEY: Final = "view_mode"  # "single" or "compare"
METHODS_KEY: Final = "compare_methods"
# The first selection: the methods whose cards ask for it, in the registry's (the book's) order.
DEFAULT_COMPARED = tuple(method for method in MODELS if CARDS[method].compared)


@dataclass(frozen=True)
class Compared:
    """One method of the comparison: its scene, its fit view and how to title it."""

    method: str
    scene: Scene
    view: FitView
    strategy_note: str = ""
    test_predicted: NDArray[np.int_] | None = None  # the fit's labels of the scene's test points, or None

    @property
    def title(self) -> str:
        name, note = _(MODELS[self.method].display_name), self.strategy_note
        if self.view.error:
            return _("**{method}**{note} — no fit").format(method=name, note=note)
        wrong = int(np.sum(self.view.predicted != self.scene.training.points.y))
        accuracy = f"{self.view.accuracy:.1%}"
        if self.test_predicted is None or not len(self.test_predicted):
            return _("**{method}**{note}: **{accuracy}** ({wrong} wrong)").format(
                method=name, note=note, accuracy=accuracy, wrong=wrong
            )
        test_accuracy = f"{np.mean(self.test_predicted == self.scene.points.testing.y):.1%}"
        return _("**{method}**{note}: training **{accuracy}** ({wrong} wrong) · test **{test}**").format(
            method=name, note=note, accuracy=accuracy, wrong=wrong, test=test_accuracy
        )


VIEW_MODES = {"single": N_("One method"), "compare": N_("Compare methods")}


def _start_comparing() -> None:
    visitor()[MODE_KEY] = "compare"


def view_mode_picker(mode_col: DeltaGenerator, methods_col: DeltaGenerator) -> tuple[str, tuple[str, ...]]:
    """'single' or 'compare', and the methods to compare (2-4) when comparing (in two columns)."""
    mode = mode_col.segmented_control(
        _("View"),
        ["single", "compare"],
        format_func=lambda mode: _(VIEW_MODES[mode]),
        key=MODE_KEY,
        default=None if MODE_KEY in visitor() else "single",
        help=_("Compare draws two to four methods side by side on the same points, with a shared view."),
    )
    comparing = mode == "compare"
    visitor().setdefault(METHODS_KEY, list(DEFAULT_COMPARED))
    # Always drawn: a multiselect first mounted by a preset's callback showed no chips in the
    # browser, though Python had its value. Never disabled (a disabled one's text is too pale to
    # read, 2.1:1): changing the methods while one method is shown starts the comparison.
    methods = methods_col.multiselect(
        _("Methods to compare"),
        list(MODELS),
        format_func=lambda name: _(MODELS[name].display_name),
        key=METHODS_KEY,
        max_selections=MAX_COMPARED,
        on_change=_start_comparing,
        wrap=True,  # every chosen method readable, never a scrolled-away chip
        help=_("The method chosen in the sidebar keeps its settings; the others use their defaults."),
    )
    return ("compare", tuple(methods)) if comparing else ("single", ())


def compared_scene(scene: Scene, method: str) -> tuple[Scene, str]:
    """The scene as ``method`` sees it: the sidebar's parameters for the sidebar's method,
    defaults otherwise, and one-versus-rest when a two-class method meets more classes."""
    if method == scene.method:
        return scene, ""
    candidate = replace(scene, method=method, params=(), multiclass="native", step=None)
    training = candidate.training.points  # what the fit sees
    if len(training) and fitted_model(training, method, (), "native", scene.basis, scene.basis_params)[1]:
        if fitted_model(training, method, (), "ovr", scene.basis, scene.basis_params)[1] is None:
            with_ovr = replace(candidate, multiclass="ovr")
            return with_ovr, _(" (one-vs-rest)")
    return candidate, ""


def _likely_scenes(scene: Scene, methods: Sequence[str]) -> list[Scene]:
    """The scenes ``compared_scene`` will most likely fit, to start them all at once."""
    n_classes = int(np.count_nonzero(scene.training.points.counts()))
    return [
        scene
        if method == scene.method
        else replace(
            scene,
            method=method,
            params=(),
            step=None,
            multiclass=fitted_strategy(method, "native", n_classes),
        )
        for method in methods
    ]


def comparison(scene: Scene, methods: Sequence[str]) -> list[Compared]:
    """The compared methods in order, each fitted and evaluated over the shared window."""
    compared = []
    prefetch(_likely_scenes(scene, methods))  # slow fits start together in the worker processes
    for method in dict.fromkeys(methods):  # unique, in order
        if method not in MODELS:
            continue
        sub_scene, note = compared_scene(scene, method)
        view = scene_view(sub_scene)
        test_predicted = None if view.error else test_predictions(scene_model(sub_scene), sub_scene.step, scene.points)
        compared.append(Compared(method, sub_scene, view, note, test_predicted))
    return compared


COMPARE_MIN_HEIGHT = 320  # px: a comparison's canvas in presentation (two rows share the screen if both get it)


def comparison_canvases(scene: Scene, methods: Sequence[str], presenting: bool = False) -> None:
    """Two to four methods side by side, each on its own canvas over the shared window; in
    ``presenting`` mode, enlarged and every canvas whole on the screen."""
    compared = comparison(scene, methods)
    if len(compared) < 2:
        st.info(_("Pick two to four methods to compare (above)."), icon="ℹ️")
        return
    scale = 1.6 if presenting else 1.0  # as the page's (ui.page.app._scale)
    st.markdown(legend_row(scene.points), unsafe_allow_html=True)  # one legend for every canvas below
    columns = st.columns(2)
    fit = canvas_controller.fit_token()
    # Presentation: every canvas whole on the screen, one row of two or two rows sharing its height.
    rows = 2 if len(compared) > 2 else 1
    for index, item in enumerate(compared):
        with columns[index % 2]:
            st.markdown(item.title)
            if item.view.error:
                st.warning(plain(phrased(item.view.error, name=class_name)), icon="⚠️")
            # No legend of its own: the row above is every canvas's, and the titles say which method is which.
            model = None if item.view.error else scene_model(item.scene)
            drawn = render_scene(
                item.scene, model, item.view, scale=scale, legend=False, caption_settings=False, shared=True
            )
            figure = drawn.figure
            key = f"canvas_compare_{index}"
            canvas_controller.scene_canvas(  # item.scene: the shared scene's points and window, its method
                item.scene,
                figure,
                model=model,
                error=item.view.error,
                height=COMPARE_MIN_HEIGHT if presenting else int(400 * scale),
                fill_screen=(rows - index // 2) if presenting else 0,
                fit=fit if index == 0 else None,
                file_name=file_name(MODELS[item.method].display_name, item.strategy_note),
                key=key,
                on_events=canvas_controller.events_handler(key, shared_view=True),
                # A click or a drag in one of them is drawn live in that one (its method's fit);
                # the others follow when the gesture is committed.
                new_point=canvas_controller.new_point_marker(scene, scale),
                live=canvas_controller.live_settings(item.scene, False, scale),
            )
