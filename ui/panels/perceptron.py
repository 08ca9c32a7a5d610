"""Perceptron playback (PRML 4.1.7, figure 4.7): step through the updates w <- w + eta phi_n t_n.

The canvas shows the boundary after the chosen number of updates (``Perceptron.at_step``); this
panel's overlay rings the misclassified point whose update produced it and draws the boundary
just before it, and the panel counts the errors and charts them per epoch. Weights and targets
are the book's (``ui.text.convention``): t = +1 for C1, the first class present, and w points into C1.
Points are numbered from 1, as x_1, ..., x_N in the book.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseTraceType

from playground.base import Classifier
from playground.geometry import boundary_segments
from playground.perceptron import Perceptron, errors_of
from playground.presets import close_points
from playground.validation import FloatArray, LabelArray
from ui.plot.chart import chart
from ui.plot.playback import detail_key, playback_controls
from ui.plot.theme import TEMPLATE
from ui.session import state
from ui.text.convention import book_line, book_roles, book_weights_at, point_target
from ui.text.i18n import N_, _, ngettext
from ui.text.markdown import plain
from ui.text.names import class_name, class_name_markdown

from . import Panel, PanelContext, count_axis, join_sentences, number_text, subscript, vector_text
from .geometry import enabled as geometry_enabled
from .geometry import weight_arrow_traces

PLAYBACK_DETAIL = detail_key("perceptron")
USED_COLOUR = "#1E8449"  # the book circles the point used in green
PREVIOUS_COLOUR = "#7F7F7F"


def _load_close():
    state.change_points(close_points(), refit_view=True)
    state.notify(_("Loaded two close, separable classes (figure 4.7); undo (↶) brings your points back."))


def perceptron_model(model: object) -> Perceptron | None:
    return model if isinstance(model, Perceptron) else None


def shown_step(ctx: PanelContext, model: Perceptron) -> int:
    """The step on the canvas: 0..n_iter_ (the final fit when the scene has no step)."""
    step = ctx.scene.step
    return model.n_iter_ if step is None else max(0, min(int(step), model.n_iter_))


def errors_at(model: Perceptron, X: FloatArray, y: LabelArray, step: int) -> int:
    """Training points misclassified with the weights after ``step`` updates, as ``predict`` (the
    canvas's regions and rings, the caption's accuracy) has them: C1 where the book's y(x) >= 0
    (f(0) = +1), so at w = 0 every point is C1's and C2's points are the errors."""
    if step > 0:
        return int(model.history_[step - 1]["errors"])
    return errors_of(model.weights_at(0), X, np.asarray(y) == model.classes_[1])


def _previous_boundary(model, step, window):
    w = model.weights_at(step - 1)
    segments = boundary_segments(w[None, 1:], w[:1], window)
    if not segments:
        return []
    _unused, _unused, start, end = segments[0]
    return [
        go.Scatter(
            x=[float(start[0]), float(end[0])],
            y=[float(start[1]), float(end[1])],
            mode="lines",
            line=dict(color=PREVIOUS_COLOUR, width=1.5, dash="dot"),
            hoverinfo="skip",
            name=_("boundary before this update"),
        )
    ]


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    model = perceptron_model(ctx.model)
    if model is None:
        return []
    step = shown_step(ctx, model)
    traces = []
    if step > 0:
        entry = model.history_[step - 1]
        x = ctx.scene.points.X[entry["index"]]
        text = _("update {step}: x{index}").format(step=step, index=subscript(entry["index"] + 1))
        traces += _previous_boundary(model, step, ctx.window)
        traces.append(
            go.Scatter(
                x=[float(x[0])],
                y=[float(x[1])],
                mode="markers+text",
                marker=dict(symbol="circle-open", size=26, color=USED_COLOUR, line=dict(width=3)),
                text=[text],
                textposition=_label_off_markers(
                    x, np.delete(ctx.scene.points.X, entry["index"], axis=0), ctx.window, ctx.area, len(text)
                ),
                textfont=dict(color=USED_COLOUR, size=12),
                hoverinfo="skip",
                name=_("misclassified point used for this update"),
            )
        )
    if not geometry_enabled(ctx):
        line = book_line(ctx.shown_model)
        if line is not None:
            traces += weight_arrow_traces(line, ctx.window)
    return traces


def errors_figure(model: Perceptron, step: int) -> go.Figure:
    """Mistakes (= updates) per epoch, the epoch of the shown step highlighted."""
    counts = np.asarray(model.errors_per_epoch_, dtype=np.int64)
    epochs = np.arange(1, counts.size + 1)
    current = model.history_[step - 1]["epoch"] if step > 0 else 0
    colours = ["#C0392B" if e == current else "#5D6D7E" for e in epochs]
    return go.Figure(
        data=[
            go.Bar(
                x=epochs,
                y=counts,
                marker=dict(color=colours),
                hovertemplate=_("epoch {epoch}: {count} updates").format(epoch="%{x}", count="%{y}")
                + "<extra></extra>",
            )
        ],
        layout=dict(
            template=TEMPLATE,
            title=dict(text=_("Mistakes (= updates) per epoch"), font=dict(size=14)),
            height=260,
            margin=dict(l=10, r=10, t=50, b=30),
            xaxis=count_axis(counts.size, _("epoch")),
            yaxis=count_axis(max(int(counts.max(initial=0)), 1), _("updates"), rangemode="tozero"),
            showlegend=False,
        ),
    )


def errors_by_step_figure(model: Perceptron, X: FloatArray, y: LabelArray, step: int) -> go.Figure:
    """Training errors after each update, the shown step marked."""
    errors = [errors_at(model, X, y, 0)] + [int(h["errors"]) for h in model.history_]
    steps = np.arange(len(errors))
    return go.Figure(
        data=[
            go.Scatter(
                x=steps,
                y=np.asarray(errors, dtype=np.int64),
                mode="lines+markers" if len(errors) <= 60 else "lines",
                line=dict(color="#5D6D7E", width=1.5, shape="hv"),
                hovertemplate=_("after {step} updates: {errors} errors").format(step="%{x}", errors="%{y}")
                + "<extra></extra>",
            ),
            go.Scatter(
                x=[step], y=[errors[step]], mode="markers", marker=dict(size=12, color="#C0392B"), hoverinfo="skip"
            ),
        ],
        layout=dict(
            template=TEMPLATE,
            title=dict(text=_("Training errors after each update"), font=dict(size=14)),
            height=260,
            margin=dict(l=10, r=10, t=50, b=30),
            xaxis=count_axis(len(errors) - 1, _("update (step)")),
            yaxis=count_axis(max(max(errors), 1), _("errors"), rangemode="tozero"),
            showlegend=False,
        ),
    )


def _applies(ctx):
    return perceptron_model(ctx.model) is not None


def update_text(model: Perceptron, X: FloatArray, y: LabelArray, step: int, eta: float) -> str:
    """What update ``step`` did, in the book's convention, with its numbers (eq. 4.55)."""
    entry = model.history_[step - 1]
    n = int(entry["index"])
    t = point_target(model, y[n])
    before, after = book_weights_at(model, step - 1), book_weights_at(model, step)
    phi = np.concatenate([[1.0], X[n]])
    value = float(before @ phi)
    t_text = f"{t:+d}".replace("-", "−")
    # A point of C1 on the boundary (wᵀφ = 0) is C1's already (f(0) = +1), yet the update rule visits it.
    visited = (
        _(
            "Update {step}: x{index} = {x}, a point of {name} (t = {t}), lay on the dotted boundary: t·wᵀφ = 0, "
            "which f(0) = +1 gives to its own class, but the update rule visits every point with t·wᵀφ ≤ 0."
        )
        if _on_boundary_of_c1(t, value)
        else _(
            "Update {step}: x{index} = {x}, a point of {name} (t = {t}), was misclassified by the dotted boundary: "
            "t·wᵀφ = {value} ≤ 0."
        )
    )
    return join_sentences(
        visited.format(
            step=step,
            index=subscript(n + 1),
            x=vector_text(X[n]),
            name=class_name_markdown(int(y[n])),  # shown as Markdown
            t=t_text,
            value=number_text(t * value),
        ),
        _(
            "So w ← w + η t φ(x{index}) (eq. 4.55): {before} + {eta} · ({t}) · {phi} = **{after}**, the solid boundary."
        ).format(
            index=subscript(n + 1),
            before=vector_text(before),
            eta=number_text(eta),
            t=t_text,
            phi=vector_text(phi),
            after=vector_text(after),
        ),
    )


def _on_boundary_of_c1(t: int, value: float) -> bool:
    """Whether the point an update used was C1's (t = +1) with wᵀφ = 0: classified right by
    f(0) = +1, visited all the same by the update rule's t·wᵀφ ≤ 0 (from w = 0, the first update)."""
    return t > 0 and value == 0


def step_readout(model: Perceptron, X: FloatArray, y: LabelArray) -> Callable[[int, Classifier], str]:
    """The player's line per step (book's convention): the update's point, its t, w after it."""

    def readout(step: int, shown: Classifier) -> str:
        w = vector_text(book_weights_at(model, step))
        if step == 0:
            errors = errors_at(model, X, y, 0)
            return ngettext(
                "Initial weights w = {w}; {errors} training error.",
                "Initial weights w = {w}; {errors} training errors.",
                errors,
            ).format(w=w, errors=errors)
        entry = model.history_[step - 1]
        n = int(entry["index"])
        target = point_target(model, y[n])
        t = f"{target:+d}".replace("-", "−")
        errors = int(entry["errors"])
        phi = np.concatenate([[1.0], X[n]])
        on_boundary = _on_boundary_of_c1(target, float(book_weights_at(model, step - 1) @ phi))
        return (
            ngettext(
                "Update {step} (epoch {epoch}): x{index} of {name} (t = {t}) lay on the boundary (t·wᵀφ = 0), "
                "so w ← w + η t φ = {w}; {errors} training error after it.",
                "Update {step} (epoch {epoch}): x{index} of {name} (t = {t}) lay on the boundary (t·wᵀφ = 0), "
                "so w ← w + η t φ = {w}; {errors} training errors after it.",
                errors,
            )
            if on_boundary
            else ngettext(
                "Update {step} (epoch {epoch}): x{index} of {name} (t = {t}) was misclassified, "
                "so w ← w + η t φ = {w}; {errors} training error after it.",
                "Update {step} (epoch {epoch}): x{index} of {name} (t = {t}) was misclassified, "
                "so w ← w + η t φ = {w}; {errors} training errors after it.",
                errors,
            )
        ).format(
            step=step,
            epoch=entry["epoch"],
            index=subscript(n + 1),
            name=class_name(int(y[n])),
            t=t,
            w=w,
            errors=errors,
        )

    return readout


def _label_position(x, window):
    """Below the ringed point, but above it near the plot's bottom edge and towards the middle
    near a side, so that the label is never cut off by the plot's edge (as ui/plot/playback_frames.js does)."""
    fx = (x[0] - window.x_min) / (window.x_max - window.x_min)
    fy = (x[1] - window.y_min) / (window.y_max - window.y_min)
    vertical = "top" if fy < 0.15 else "bottom"
    return vertical + (" right" if fx < 0.2 else " left" if fx > 0.8 else " center")


LABEL_GAP, MARKER_RADIUS, LABEL_PX = 13, 9, 18  # px, as ui/plot/playback_frames.js's labelOffMarkers
_PLACES = (
    *("bottom center", "top center", "middle right", "middle left"),
    *("bottom right", "bottom left", "top right", "top left"),
)


def _label_off_markers(x, others, window, area, n_characters):
    """``_label_position``, or the first other place around the ring where the label covers no other
    point's marker and stays in the plot (``area``: the plot area in px, None when not yet measured;
    the label is taken at presentation's size, the larger)."""
    first = _label_position(x, window)
    if not area:
        return first
    sx, sy = area[0] / (window.x_max - window.x_min), area[1] / (window.y_max - window.y_min)
    cx, cy = (x[0] - window.x_min) * sx, (window.y_max - x[1]) * sy
    w, h = 0.58 * LABEL_PX * n_characters, 1.2 * LABEL_PX
    bx, by = (others[:, 0] - window.x_min) * sx, (window.y_max - others[:, 1]) * sy

    def fits(place: str) -> bool:
        vertical, horizontal = place.split(" ")
        left = cx + LABEL_GAP if horizontal == "right" else cx - LABEL_GAP - w if horizontal == "left" else cx - w / 2
        top = cy + LABEL_GAP if vertical == "bottom" else cy - LABEL_GAP - h if vertical == "top" else cy - h / 2
        if left < 0 or top < 0 or left + w > area[0] or top + h > area[1]:
            return False
        hit = (bx + MARKER_RADIUS >= left) & (bx - MARKER_RADIUS <= left + w)
        hit &= (by + MARKER_RADIUS >= top) & (by - MARKER_RADIUS <= top + h)
        return not hit.any()

    return next((place for place in (first, *_PLACES) if fits(place)), first)


def step_marks(model: Perceptron, X: FloatArray, y: LabelArray) -> Callable[[int, Classifier], dict[str, Any]]:
    """What the canvas marks at a step while the browser plays (the point used, the boundary
    before it) and where the errors chart marks it."""

    def marks(step: int, shown: Classifier) -> dict[str, Any]:
        errors = int(model.history_[step - 1]["errors"]) if step else errors_at(model, X, y, 0)
        charts = [dict(key="perceptron_errors_step", trace=1, x=step, y=errors)]
        if step == 0:
            return dict(charts=charts)
        n = int(model.history_[step - 1]["index"])
        text = _("update {step}: x{index}").format(step=step, index=subscript(n + 1))
        ring = dict(ids=[n], texts=[text], colour=USED_COLOUR)
        return dict(ring={**ring, "name": _("misclassified point used for this update")}, previous=True, charts=charts)

    return marks


def render(ctx: PanelContext) -> None:
    model = perceptron_model(ctx.model)
    if model is None:  # the panel applies only to a perceptron (_applies)
        return
    X, y = ctx.scene.points.X, ctx.scene.points.y
    step = playback_controls(
        ctx.model,
        model.n_iter_,
        key="perceptron",
        label=_("Update"),
        points=ctx.scene.points,
        window=ctx.window,
        readout=step_readout(model, X, y),
        marks=step_marks(model, X, y),
    )
    with st.container(key=PLAYBACK_DETAIL):  # dimmed while the browser plays another step
        _step_detail(model, X, y, step)
    left, right = st.columns(2)
    chart(errors_by_step_figure(model, X, y, step), key="perceptron_errors_step", where=left)
    chart(errors_figure(model, step), key="perceptron_errors_epoch", where=right)
    st.button(
        _("Load two close classes (fig. 4.7)"),
        key="perceptron_load_close",
        on_click=_load_close,
        help=_("Replaces the points (undoable) with separable classes that take the perceptron several epochs."),
    )
    st.caption(
        _(
            "An update fixes the point it uses but may break others, so the error count can go up (section 4.1.7); "
            "the perceptron convergence theorem promises a finite number of updates only for linearly separable "
            "data."
        )
    )


def _step_detail(model, X, y, step):
    w = book_weights_at(model, step)
    errors = errors_at(model, X, y, step)
    columns = st.columns(3)
    columns[0].metric(_("Step"), _("{step} of {n}").format(step=step, n=model.n_iter_))
    columns[1].metric(_("Epoch"), model.history_[step - 1]["epoch"] if step else _("start"))
    columns[2].metric(_("Training errors now"), errors)
    first, second = map(plain, book_roles(model))
    # A line of its own: a metric cuts long numbers off ("w = (0.01, 0.0276…").
    st.markdown(
        ngettext(
            "**w = (w₀, w₁, w₂) = {w}** after {step} of {n} update; t = +1 for {first}, −1 for {second}, and x goes "
            "to {first} where wᵀφ(x) ≥ 0 (eq. 4.52-4.53).",
            "**w = (w₀, w₁, w₂) = {w}** after {step} of {n} updates; t = +1 for {first}, −1 for {second}, and x goes "
            "to {first} where wᵀφ(x) ≥ 0 (eq. 4.52-4.53).",
            model.n_iter_,
        ).format(w=vector_text(w), step=step, n=model.n_iter_, first=first, second=second)
    )
    if step == 0:
        st.markdown(_("The initial weights, before any update. Press ▶ Play or move the slider."))
    else:
        sentences = [
            update_text(model, X, y, step, model.eta),
            _("Errors after it: **{errors}**.").format(errors=errors),
        ]
        if step == model.n_iter_:
            sentences.append(
                _("The run ends here: a whole epoch without a mistake, so it converged.")
                if model.converged_
                else _("The run ends here: it stopped without converging; this is its last boundary.")
            )
        st.markdown(join_sentences(*sentences))


PANELS = [
    Panel(
        name="perceptron_playback",
        title=N_("Perceptron playback (fig. 4.7)"),
        applies=_applies,
        render=render,
        overlay=overlay,
        order=30,
        help=(
            N_(
                "Figure 4.7: each misclassified point, circled, adds η t φ to w (eq. 4.55) and turns the boundary; "
                "step through the updates and watch the errors."
            )
        ),
    )
]
