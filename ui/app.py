"""Compose the page: sidebar controls -> scene -> fit -> canvas, status and explanation."""

import numpy as np
import streamlit as st

from playground import Window

from . import controls, state
from .canvas import canvas
from .compute import fit_view
from .figures import FIGURE_CONFIG, scene_figure
from .theme import CLASS_COLOURS, class_label

EXPLANATION = (
    "**What is drawn:** shading = the class the model assigns to each location; black line = the "
    "decision boundary, where two classes' discriminants tie; black rings = training points the model "
    "misclassifies. **Edit:** click empty space to add a point of the selected class, click a point to "
    "remove it, box- or lasso-select (toolbar) to remove many; scroll or drag to zoom, double-click to reset."
)


def _on_canvas_events():
    result = st.session_state.get("canvas")
    events = result.get("events") if result is not None else None
    # Read the class recorded by the last run: inside a callback the radio's session value is
    # its formatted label, not the option.
    state.apply_canvas_events(events, st.session_state.get("active_class_index", 0))


def _sidebar():
    scene = state.scene()
    history = st.session_state.history
    with st.sidebar:
        st.header("Points")
        active_class = controls.class_picker()
        st.session_state.active_class_index = active_class
        pressed = controls.edit_buttons(bool(history.past), bool(history.future), len(scene.points) > 0)
        action, specs, n_per_class, shared, seed = controls.cluster_generator()
        st.header("Method")
        method = controls.method_picker()
        params = controls.method_params(method)
    return active_class, pressed, (action, specs, n_per_class, shared, seed), method, params


def _apply(pressed, generator, method, params):
    if pressed == "undo":
        state.undo()
    elif pressed == "redo":
        state.redo()
    elif pressed == "clear":
        state.clear_points()
    elif pressed == "fit_view":
        points = state.scene().points
        state.set_scene(state.scene().with_window(Window.around(points.X), by_app=True))
    action, specs, n_per_class, shared, seed = generator
    if action:
        state.generate(specs, n_per_class, shared_covariance=shared, seed=seed, mode=action)
    scene = state.scene()
    if (method, tuple(sorted(params.items()))) != (scene.method, scene.params):
        state.set_scene(scene.with_method(method, params))


def _status_line(points, view):
    counts = points.counts()
    parts = [
        f"<span style='color:{CLASS_COLOURS[k]}'>{class_label(k)}</span>: {counts[k]}"
        for k in range(len(counts))
        if counts[k]
    ]
    text = " · ".join(parts) if parts else "no points"
    if view.accuracy is not None:
        wrong = int(np.sum(view.predicted != points.y))
        text += f" — training accuracy **{view.accuracy:.1%}**"
        text += f" ({wrong} misclassified, ringed)" if wrong else " (all points correct)"
    return text


def main():
    state.init_state()
    st.title("Linear classification playground")
    st.caption("Bishop, *Pattern Recognition and Machine Learning*, chapter 4: click points, pick a method, watch.")
    active_class, pressed, generator, method, params = _sidebar()
    _apply(pressed, generator, method, params)
    for notice in state.take_notices():
        st.toast(notice)

    scene = state.scene()
    with st.spinner("Fitting and evaluating…"):
        view = fit_view(scene.points, scene.method, scene.params, scene.multiclass, scene.window)
    if view.error:
        st.warning(view.error, icon="⚠️")
    elif view.note:
        st.info(view.note, icon="ℹ️")

    figure = scene_figure(scene.points, view, scene.window, scene.view_revision)
    canvas(
        figure,
        config=FIGURE_CONFIG,
        window=scene.window,
        revision=hash((scene.points, scene.method, scene.params, scene.window)),
        n_points=len(scene.points),
        ack=st.session_state.last_event_nonce,
        on_events=_on_canvas_events,
    )
    st.markdown(_status_line(scene.points, view), unsafe_allow_html=True)
    st.caption(EXPLANATION)
