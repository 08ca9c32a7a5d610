"""The linear support vector machine (PRML 7.1): margins, support vectors, SMO playback.

The overlay draws the margin lines w^T x + b = +-1 (dashed; exact segments for a linear SVM,
the level curves y(x) = +-1 on a basis), rings the support vectors (a_n > 0), marks those
inside the margin or misclassified (a_n = C) differently, and during playback highlights the
pair of multipliers the SMO step being shown optimised. The panel gives the margin 1/||w||, the
support-vector counts and C, plays the SMO steps back (``LinearSVM.at_step``) and charts the dual
objective rising. With K > 2 classes (one-versus-rest / one-versus-one) each sub-SVM's margin
lines are drawn in the colour of the class it separates. Targets are the book's (``ui.text.convention``):
t_n = +1 for C1, the first class present, and -1 for C2; points are numbered from 1.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from numpy.typing import ArrayLike
from plotly.basedatatypes import BaseTraceType

from playground.base import Classifier
from playground.basis import features_estimator
from playground.geometry import boundary_segments
from playground.grid import Window, grid_axes
from playground.svm import LinearSVM
from playground.validation import FloatArray, LabelArray
from ui.plot.chart import chart
from ui.plot.figures import gapped_paths
from ui.plot.playback import detail_key, playback_controls
from ui.plot.theme import CLASS_COLOURS, TEMPLATE
from ui.text.convention import book_roles, book_sub_classifiers
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import class_name, class_name_markdown, plotly_text

from . import Panel, PanelContext, count_axis, join_sentences, number_text, subscript

MARGIN_COLOUR = "#444444"
FREE_SV_COLOUR = "#6A3D9A"  # support vectors on the margin, 0 < a_n < C
BOUND_SV_COLOUR = "#C2185B"  # a_n = C: inside the margin or misclassified
PAIR_COLOUR = "#138D75"  # the two multipliers of the SMO step shown
CONTOUR_RESOLUTION = 90  # margin curves on a basis: 90 x 90 float32 cells, about 32 KB


def two_class_svm(model: object) -> LinearSVM | None:
    """The fitted two-class ``LinearSVM`` inside ``model`` (plain, on a basis, or the single
    sub-classifier of a two-class one-versus-rest / one-versus-one wrapper), or None."""
    if model is None:
        return None
    inner = features_estimator(model)
    if isinstance(inner, LinearSVM):
        return inner
    estimators = getattr(inner, "estimators_", None)
    if estimators is not None and len(estimators) == 1 and isinstance(estimators[0], LinearSVM):
        return estimators[0]
    return None


def sub_svms(model: object) -> list[tuple[LinearSVM, int, str]]:
    """[(LinearSVM, class it calls positive, description)] of a K > 2 ovr / ovo SVM, else [].

    The positive class is the book's (``ui.text.convention.book_sub_classifiers``): class k of
    "class k vs the rest", class i of the pair "class i vs class j" (i < j).
    """
    inner = features_estimator(model) if model is not None else None
    estimators = getattr(inner, "estimators_", None)
    if not estimators or len(estimators) < 2 or not all(isinstance(e, LinearSVM) for e in estimators):
        return []
    result = []
    for estimator, sub in zip(estimators, book_sub_classifiers(inner)):
        if sub.negative is None:
            description = _("{positive} vs the rest").format(positive=class_name(sub.positive))
        else:
            description = _("{positive} vs {negative}").format(
                positive=class_name(sub.positive), negative=class_name(sub.negative)
            )
        result.append((estimator, sub.positive, description))
    return result


def margin_segments(
    coef: ArrayLike, intercept: ArrayLike, window: Window
) -> list[tuple[float, FloatArray, FloatArray]]:
    """The exact pieces of w^T x + b = +1 and = -1 inside the window: [(level, start, end)]."""
    w = np.asarray(coef, dtype=float).reshape(1, -1)
    b = float(np.ravel(intercept)[0])
    pieces = []
    for level in (1.0, -1.0):
        for _unused, _unused, start, end in boundary_segments(w, np.array([b - level]), window):
            pieces.append((level, start, end))
    return pieces


def margin_line_trace(
    coef: ArrayLike,
    intercept: ArrayLike,
    window: Window,
    *,
    colour: str = MARGIN_COLOUR,
    name: str | None = None,
    legend: bool = True,
) -> BaseTraceType | None:
    """One dashed trace with both margin lines (None between them), or None when none is in view."""
    pieces = margin_segments(coef, intercept, window)
    if not pieces:
        return None
    xs, ys = gapped_paths((start, end) for _unused, start, end in pieces)
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line=dict(color=colour, width=1.8, dash="dash"),
        hoverinfo="skip",
        name=_("margin  wᵀx + b = ±1") if name is None else name,
        showlegend=legend,
    )


def margin_contour_trace(model: Classifier, window: Window) -> BaseTraceType | None:
    """On a basis the margin is curved in x: the level curves y(x) = -1 and +1 of the model."""
    xs, ys = grid_axes(window, CONTOUR_RESOLUTION)
    gx, gy = np.meshgrid(xs, ys)
    decision = np.asarray(model.decision_function(np.column_stack([gx.ravel(), gy.ravel()])), dtype=np.float64)
    if decision.ndim != 1 or not np.all(np.isfinite(decision)):
        return None
    return go.Contour(
        z=decision.reshape(gx.shape).astype(np.float32),
        x0=float(xs[0]),
        dx=float(xs[1] - xs[0]),
        y0=float(ys[0]),
        dy=float(ys[1] - ys[0]),
        contours=dict(start=-1, end=1, size=2, coloring="none"),
        line=dict(color=MARGIN_COLOUR, width=1.8, dash="dash"),
        showscale=False,
        hoverinfo="skip",
        name=_("margin  y(x) = ±1"),
        showlegend=True,
    )


def support_vector_traces(svm: LinearSVM, X: FloatArray) -> list[BaseTraceType]:
    """Rings around the support vectors: 0 < a_n < C (on the margin) and a_n = C (inside or wrong)."""
    category = np.asarray(svm.margin_category_)
    traces = []
    styles = (
        (1, "circle-open", 21, FREE_SV_COLOUR, _("support vector, on margin")),
        (2, "diamond-open", 25, BOUND_SV_COLOUR, _("support vector inside margin or misclassified (α = C)")),
    )
    for code, symbol, size, colour, name in styles:
        members = np.flatnonzero(category == code)
        if members.size == 0:
            continue
        traces.append(
            go.Scatter(
                x=X[members, 0],
                y=X[members, 1],
                mode="markers",
                marker=dict(symbol=symbol, size=size, color=colour, line=dict(width=2.5)),
                hoverinfo="skip",
                name=name,
            )
        )
    return traces


def pair_trace(X: FloatArray, pair: tuple[int, ...], smo_step: int) -> BaseTraceType:
    """The two points whose multipliers the SMO step changed, ringed and joined."""
    i, j = pair
    return go.Scatter(
        x=[float(X[i, 0]), float(X[j, 0])],
        y=[float(X[i, 1]), float(X[j, 1])],
        mode="lines+markers+text",
        line=dict(color=PAIR_COLOUR, width=1.5, dash="dot"),
        marker=dict(symbol="circle-open", size=28, color=PAIR_COLOUR, line=dict(width=3.5)),
        text=[f"a{subscript(i + 1)}", f"a{subscript(j + 1)}"],
        textposition="top center",
        textfont=dict(color=PAIR_COLOUR, size=13),
        hoverinfo="skip",
        name=_("pair optimised at SMO step {step}").format(step=smo_step),
    )


def playback_position(ctx: PanelContext, svm: LinearSVM) -> tuple[int, bool]:
    """(position shown 0..len(history_), whether it is the fitted model)."""
    n_entries = len(svm.history_)
    shown = two_class_svm(ctx.shown_model)
    position = getattr(shown, "step_", n_entries) if shown is not None else n_entries
    return position, position >= n_entries


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    model, shown_model = ctx.model, ctx.shown_model
    X = ctx.scene.points.X
    svm = two_class_svm(model)
    traces: list[BaseTraceType] = []
    if svm is None:
        if hasattr(model, "basis_"):
            return traces  # the sub-SVMs' margins are curves in x there; the boundary says enough
        for sub, positive, description in sub_svms(model):
            colour = CLASS_COLOURS[positive % len(CLASS_COLOURS)]
            trace = margin_line_trace(
                sub.coef_,
                sub.intercept_,
                ctx.window,
                colour=colour,
                name=plotly_text(_("margins ±1 of {sub_svm}").format(sub_svm=description)),
            )
            if trace is not None:
                trace.line.width = 1.4
                traces.append(trace)
        return traces
    shown = two_class_svm(shown_model) or svm
    on_basis = hasattr(model, "basis_")
    if on_basis:
        if np.isfinite(shown.margin_) and shown_model is not None:  # not None with an SVM in model
            contour = margin_contour_trace(shown_model, ctx.window)
            if contour is not None:
                traces.append(contour)
    elif np.isfinite(shown.margin_):
        trace = margin_line_trace(shown.coef_, shown.intercept_, ctx.window)
        if trace is not None:
            traces.append(trace)
    position, final = playback_position(ctx, svm)
    if final:
        traces += support_vector_traces(svm, X)
    elif position > 0 and (pair := getattr(shown, "pair_", None)) is not None:  # set on at_step's copies
        traces.append(pair_trace(X, pair, shown.smo_step_))
    return traces


def objective_figure(svm: LinearSVM, position: int) -> go.Figure:
    """The dual objective L~(a) after each recorded SMO step (0 at a = 0), the shown one marked."""
    steps = [0] + [int(entry["step"]) for entry in svm.history_]
    values = [0.0] + [float(entry["objective"]) for entry in svm.history_]
    return go.Figure(
        data=[
            go.Scatter(
                x=np.asarray(steps, dtype=np.int64),
                y=np.asarray(values),
                mode="lines+markers" if len(steps) <= 60 else "lines",
                line=dict(color="#5D6D7E", width=1.5),
                marker=dict(size=5),
                hovertemplate=_("after SMO step %{x}: L̃(a) = %{y:.4g}") + "<extra></extra>",
            ),
            go.Scatter(
                x=[steps[position]],
                y=[values[position]],
                mode="markers",
                marker=dict(size=13, color=PAIR_COLOUR),
                hoverinfo="skip",
            ),
        ],
        layout=dict(
            template=TEMPLATE,
            title=dict(text=_("Dual objective L̃(a) (eq. 7.10): every SMO step raises it"), font=dict(size=14)),
            height=280,
            margin=dict(l=10, r=10, t=50, b=30),
            xaxis=count_axis(max(steps), _("SMO step")),
            yaxis=dict(title="L̃(a)", rangemode="tozero"),
            showlegend=False,
        ),
    )


def _replayed_svm(shown: Classifier) -> LinearSVM:
    """The SVM of a shown playback position (``at_step``'s copy, alone or inside its wrapper)."""
    svm = two_class_svm(shown)
    if svm is None:
        raise TypeError("the SVM's player shows an SVM's positions only")
    return svm


def _moved_pair(svm: LinearSVM) -> tuple[int, ...]:
    """The pair (i, j) the shown SMO step moved: every position after the start has one."""
    if svm.pair_ is None:
        raise ValueError("at the start no SMO step has moved a pair")
    return svm.pair_


def _format_c(svm):
    return _("∞ (hard margin)") if svm.C is None else f"{svm.C:g}"


def step_readout(svm: LinearSVM, y: LabelArray) -> Callable[[int, Classifier], str]:
    """The player's line per recorded position: the SMO step, its pair, the dual and the margin."""
    n_entries = len(svm.history_)

    def readout(position: int, shown_model: Classifier) -> str:
        shown = _replayed_svm(shown_model)
        if position == 0:
            return _("Start: every aₙ = 0, so w = 0 and there is no boundary yet.")
        i, j = _moved_pair(shown)
        text = _(
            "SMO step {step} of {steps}: {a_i} ({class_i}) and {a_j} ({class_j}) moved; L̃(a) = {dual}, "
            "margin 1/‖w‖ = {margin}."
        ).format(
            step=shown.smo_step_,
            steps=svm.n_iter_,
            a_i=f"a{subscript(i + 1)}",
            class_i=class_name(int(y[i])),
            a_j=f"a{subscript(j + 1)}",
            class_j=class_name(int(y[j])),
            dual=number_text(shown.dual_objective_),
            margin=number_text(shown.margin_, 3),
        )
        return join_sentences(text, _("The fitted model.") if position == n_entries else "")

    return readout


def step_marks(svm: LinearSVM) -> Callable[[int, Classifier], dict[str, Any]]:
    """What the canvas marks at a position while the browser plays: the pair, the margins y(x) = ±1."""
    n_entries = len(svm.history_)

    def marks(position: int, shown_model: Classifier) -> dict[str, Any]:
        shown = _replayed_svm(shown_model)
        value = float(shown.dual_objective_) if position else 0.0
        charts = [dict(key="smo_objective", trace=1, x=int(shown.smo_step_), y=value)]
        if position == 0:
            return dict(charts=charts)
        i, j = _moved_pair(shown)
        pair = dict(
            ids=[int(i), int(j)],
            texts=[f"a{subscript(i + 1)}", f"a{subscript(j + 1)}"],
            colour=PAIR_COLOUR,
            name=_("pair optimised at SMO step {step}").format(step=shown.smo_step_),
        )
        return dict(
            ring=pair if position < n_entries else None, margins=bool(np.isfinite(shown.margin_)), charts=charts
        )

    return marks


def _render_two_class(ctx, svm):
    _two_class_summary(ctx, svm)
    _smo_playback(ctx, svm)


def _two_class_summary(ctx, svm):
    """The margin, the support vectors and C, and what the plot's marks and targets mean."""
    category = np.asarray(svm.margin_category_)
    n_free, n_bound = int(np.sum(category == 1)), int(np.sum(category == 2))
    # Three short metrics: five cut their labels off in a narrow column ("Support ve…").
    columns = st.columns(3)
    columns[0].metric(_("Margin 1/‖w‖"), f"{svm.margin_:.3g}" if np.isfinite(svm.margin_) else "∞")
    columns[1].metric(_("Support vectors"), int(svm.support_.size))
    columns[2].metric("C", _format_c(svm))
    st.markdown(
        _(
            "**{n_free}** on the margin (0 < aₙ < C, ◯ on the plot) and **{n_bound}** inside it or misclassified "
            "(aₙ = C, ◇)."
        ).format(n_free=n_free, n_bound=n_bound)
    )
    first, second = map(plain, book_roles(svm))
    st.caption(
        _(
            "Targets tₙ = +1 for {first} and −1 for {second}: y(x) = wᵀx + b ≥ 0 assigns {first} (eq. 7.1), and "
            "the dashed margin lines are y(x) = ±1. Points are numbered from 1 (x₁, x₂, …) in the order they were "
            "added."
        ).format(first=first, second=second)
    )
    if hasattr(ctx.model, "basis_"):
        st.caption(
            _(
                "On a basis, w lives in φ-space (M = {m} features): the margin 1/‖w‖ is measured there, and on the "
                "plane the margin lines become the dashed curves y(x) = ±1."
            ).format(m=svm.coef_.shape[1])
        )


def _smo_playback(ctx, svm):
    """SMO's recorded steps replayed on the canvas, with the dual objective climbing beside them."""
    model = ctx.model
    n_entries = len(svm.history_)
    can_replay = hasattr(model, "at_step")
    if not can_replay or n_entries == 0:
        st.caption(_("No SMO steps to replay here.") if n_entries == 0 else _("Playback needs the plain SVM."))
        return
    st.markdown(
        _(
            "**SMO playback** — the dual is maximised two multipliers at a time (sequential minimal optimisation, "
            "the method section 7.1 cites)."
        )
    )
    position = playback_controls(
        model,
        n_entries,
        key="smo",
        label=_("SMO step (recorded)"),
        points=ctx.scene.points,
        window=ctx.window,
        readout=step_readout(svm, ctx.scene.points.y),
        marks=step_marks(svm),
    )
    with st.container(key=detail_key("smo")):  # dimmed while the browser plays another step
        _smo_step_text(svm, position, ctx.scene.points.y)
    if n_entries < svm.n_iter_:
        st.caption(
            _("The run took {steps} steps; {recorded} of them were recorded evenly for playback.").format(
                steps=f"{svm.n_iter_:,}", recorded=f"{n_entries:,}"
            )
        )
    left, right = st.columns([3, 2])
    chart(objective_figure(svm, position), key="smo_objective", where=left)
    right.markdown(
        _(
            "The dual L̃(a) = Σaₙ − ½ΣΣ aₙaₘtₙtₘxₙᵀxₘ never falls: each step solves the two-variable "
            "problem exactly. At the optimum only the support vectors keep aₙ > 0 (eq. 7.29); those with "
            "aₙ < C sit on the margin (◯), those with aₙ = C are inside it or misclassified (◇, eq. 7.36)."
        )
    )


def _smo_step_text(svm, position, y):
    n_entries = len(svm.history_)
    shown = svm.at_step(position)
    if position == 0:
        st.markdown(_("Start: every aₙ = 0, so w = Σ aₙtₙxₙ = 0 (eq. 7.29) and there is no boundary yet."))
    else:
        i, j = shown.pair_
        final = position == n_entries
        text = _(
            "SMO step **{step}** of {steps}: the multipliers {a_i} ({class_i}) and {a_j} ({class_j}) moved together "
            "along Σ aₙtₙ = 0 (eq. 7.34) to the best point in the box 0 ≤ a ≤ C; L̃(a) = **{dual}**, "
            "margin 1/‖w‖ = {margin}."
        ).format(
            step=shown.smo_step_,
            steps=svm.n_iter_,
            a_i=f"a{subscript(i + 1)}",
            class_i=class_name_markdown(int(y[i])),
            a_j=f"a{subscript(j + 1)}",
            class_j=class_name_markdown(int(y[j])),
            dual=number_text(shown.dual_objective_),
            margin=number_text(shown.margin_, 3),
        )
        final_note = _("This is the fitted model; its support vectors are ringed on the plot.") if final else ""
        st.markdown(join_sentences(text, final_note))


def _render_multiclass(ctx):
    rows = []
    for sub, _unused, description in sub_svms(ctx.model):
        category = np.asarray(sub.margin_category_)
        rows.append(
            {
                _("sub-SVM"): description,
                _("margin 1/‖w‖"): float(sub.margin_),
                _("support vectors"): int(sub.support_.size),
                _("on the margin"): int(np.sum(category == 1)),
                _("inside or wrong (a = C)"): int(np.sum(category == 2)),
                _("SMO steps"): int(sub.n_iter_),
            }
        )
    st.dataframe(rows, hide_index=True, width="stretch")
    st.caption(
        _(
            "The SVM is a two-class machine: with K classes it is trained K times (one-versus-rest) or K(K−1)/2 times "
            "(one-versus-one), and each sub-SVM's margin lines are drawn dashed in the colour of the class it calls "
            "positive. Support vectors and playback are shown for two classes only."
        )
    )


def _applies(ctx):
    return two_class_svm(ctx.model) is not None or bool(sub_svms(ctx.model))


def render(ctx: PanelContext) -> None:
    svm = two_class_svm(ctx.model)
    if svm is not None:
        _render_two_class(ctx, svm)
    else:
        _render_multiclass(ctx)


PANELS = [
    Panel(
        name="svm_margin",
        title=N_("Support vector machine (§7.1)"),
        applies=_applies,
        render=render,
        overlay=overlay,
        order=28,
        help=(
            N_(
                "Section 7.1, figure 7.2: the SVM keeps the boundary as far as possible from the nearest points; the "
                "dashed lines y = ±1 bound the margin, and only the ringed support vectors decide where it lies."
            )
        ),
    )
]
