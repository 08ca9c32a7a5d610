"""Step through logistic / softmax regression's fit (PRML 4.3.3, IRLS; or gradient descent).

The step slider and play/pause write the scene's step, so the canvas draws the boundary of
``history_[step]`` (through ``shown_model``); here the log-likelihood curve with the current step
marked, the weights at that step, and the sigmoid of the activation for a chosen point. Logistic
regression is shown in the book's parameterisation (``ui.text.convention``): p(C1|phi) = sigma(w^T phi)
with C1 the first class present, t = 1 for C1 and 0 for C2. Points are numbered from 1.
"""

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseTraceType

from playground import LogisticRegression, ProbitRegression, SoftmaxRegression
from playground.base import Classifier, sigmoid
from playground.basis import BasisModel
from playground.newton import NewtonStep
from playground.normal import normal_cdf
from playground.validation import FloatArray
from ui.base.visitor import visitor
from ui.plot.chart import chart
from ui.plot.playback import detail_key, playback_controls
from ui.plot.theme import BOUNDARY_COLOUR, CLASS_COLOURS, TEMPLATE_JSON
from ui.text.convention import book_classes, book_decision, book_weights_at
from ui.text.i18n import N_, _, ngettext
from ui.text.names import class_name_markdown

from . import Panel, PanelContext, count_axis, is_open, join_sentences, number_text, subscript
from .posterior import class_symbol

PLAYBACK_KEY = "irls"
POINT_KEY = "sigmoid_point"  # panel option: the chosen point's index (0-based), or None for the last point
NUMBER_KEY: Final = "sigmoid_point_number"  # the widget: the point's number, 1 to N
SIGMOID_REACH = 40.0  # the sigmoid chart spans at most a in [-40, 40]; beyond, sigma is 0 or 1 to 17 digits


Iterated = LogisticRegression | ProbitRegression | SoftmaxRegression  # the fits this panel replays


def unwrap(model: object) -> Iterated | None:
    """The logistic / probit / softmax estimator itself, also inside a basis-function wrapper (whose
    ``estimator_`` works on phi(x)); None for anything else."""
    inner = model.__dict__.get("estimator_", model) if model is not None else None
    return inner if isinstance(inner, TWO_CLASS | SoftmaxRegression) else None


def replayed(model: object) -> Iterated:
    """``unwrap(model)`` of a model the panel applies to (``applies`` checked that it is one)."""
    inner = unwrap(model)
    if inner is None:
        raise TypeError("the Iterations panel replays logistic, probit or softmax regression only")
    return inner


TWO_CLASS = LogisticRegression | ProbitRegression  # one weight vector, p(C1|phi) = f(w^T phi)


def link_function(model: object) -> tuple[Callable[[FloatArray], FloatArray], str]:
    """(f, its name) with p(C1|phi) = f(a): the sigmoid (eq. 4.59) or the probit Phi (eq. 4.114)."""
    if isinstance(unwrap(model), ProbitRegression):
        return normal_cdf, "Φ"
    return sigmoid, "σ"


def applies(ctx: PanelContext) -> bool:
    inner = unwrap(ctx.model)
    return inner is not None and len(getattr(inner, "history_", ())) > 0


def current_step(ctx: PanelContext) -> int:
    """The step the canvas shows (0..n_iter_), the final one when not replaying."""
    step = ctx.scene.step
    n = replayed(ctx.model).n_iter_  # a model on a basis reads its n_iter_ through to this one
    return n if step is None else int(min(max(step, 0), n))


def chosen_point(ctx: PanelContext) -> int | None:
    """Index of the point whose sigmoid is plotted: the panel option, else the last point; None if none."""
    n_points = len(ctx.scene.points)
    if n_points == 0:
        return None
    index = ctx.options.get(POINT_KEY)
    if index is None or not 0 <= int(index) < n_points:
        return n_points - 1
    return int(index)


def log_likelihood_figure(history: Sequence[NewtonStep], step: int) -> dict[str, Any]:
    """ln p(t|w) against the iteration, the current step marked: a plotly.js figure dict (this panel
    redraws on every click, and plotly's validating objects cost more than the rest of it)."""
    iterations = np.array([h["iteration"] for h in history], dtype=float)
    values = np.array([h["log_likelihood"] for h in history], dtype=float)
    step = int(min(max(step, 0), len(history) - 1))
    curve = dict(
        type="scatter",
        x=iterations,
        y=values,
        mode="lines+markers" if len(history) <= 60 else "lines",
        line=dict(color="#555555", width=2),
        marker=dict(size=5, color="#555555"),
        hovertemplate=_("iteration {iteration}").format(iteration="%{x}") + "<br>ln p(t|w) = %{y:.5g}<extra></extra>",
        name=_("log-likelihood"),
    )
    marker = dict(
        type="scatter",
        x=[iterations[step]],
        y=[values[step]],
        mode="markers",
        marker=dict(size=13, color="#D55E00", line=dict(color="white", width=1.5)),
        hovertemplate=_("step {step}").format(step="%{x}") + "<br>ln p(t|w) = %{y:.5g}<extra></extra>",
        name=_("current step"),
    )
    layout = _small_layout(
        log_likelihood_title(step, values[step]),
        count_axis(iterations[-1], _("iteration"), zeroline=False),
        dict(title=dict(text="ln p(t|w)"), zeroline=False),
    )
    return dict(data=[curve, marker], layout=layout)


def log_likelihood_title(step: int, value: float) -> str:
    """The log-likelihood chart's title at ``step``."""
    return _("Log-likelihood ln p(t|w), step {step}: {value}").format(step=step, value=f"{value:.5g}")


def _small_layout(title, xaxis, yaxis):
    """The layout of this panel's two small figures (in plotly.js's own form: no shorthands)."""
    grid = dict(showgrid=True, gridcolor="#EEEEEE")
    return dict(
        template=TEMPLATE_JSON,
        height=260,
        margin=dict(l=50, r=10, t=30, b=40),
        title=dict(text=title, font=dict(size=14)),
        xaxis={**xaxis, **grid},
        yaxis={**yaxis, **grid},
        showlegend=False,
    )


def weights_table(model: object, step: int) -> pd.DataFrame:
    """The book's weights [w0, w1, ..., wM] (one row per class for softmax) at ``step``."""
    inner = replayed(model)
    w = np.atleast_2d(book_weights_at(inner, step))
    if isinstance(inner, TWO_CLASS):
        first, _unused = book_classes(inner)
        index = [f"w ({link_function(inner)[1]}(wᵀφ) = p(C{subscript(first + 1)}|φ))"]
    else:
        # st.table renders its cells' Markdown
        index = [_("w for {name}").format(name=class_name_markdown(int(c))) for c in inner.classes_]
    columns = [_("w₀ (bias)")] + [f"w{subscript(j)}" for j in range(1, w.shape[1])]
    return pd.DataFrame(w, index=index, columns=columns)


def point_activation(model: Classifier, x: FloatArray, label: int) -> tuple[float, float, int]:
    """(a, p, class k) for point x: p(C_k|x) = sigma(a) for the class k whose posterior is shown.

    Logistic regression: the book's a = w^T phi(x) and k = C1, the first class present (eq. 4.87).
    Softmax: k is the point's own class and a = a_k - ln sum_{j != k} exp(a_j), so that sigma(a) is
    exactly the softmax p(C_k|x) (eq. 4.104).
    """
    classes = np.asarray(model.classes_)
    X = np.asarray(x, dtype=float).reshape(1, -1)
    inner = replayed(model)  # the model itself, or the estimator inside a model on a basis
    if isinstance(model, BasisModel):  # on basis functions: the estimator sees phi(x)
        X = model.features(X)
    if isinstance(inner, TWO_CLASS):
        a = float(book_decision(inner, X)[0])
        return a, float(link_function(inner)[0](np.array([a]))[0]), int(classes[0])
    activations = np.asarray(inner.activations(X), dtype=np.float64)[0]
    positions = np.flatnonzero(classes == label)
    position = int(positions[0]) if positions.size else int(np.argmax(activations))
    others = np.delete(activations, position)
    a = float(activations[position] - (np.max(others) + np.log(np.sum(np.exp(others - np.max(others))))))
    return a, float(np.asarray(inner.predict_proba(X))[0, position]), int(classes[position])


def sigmoid_figure(
    a: float, p: float, k: int, point_number: int, link: tuple[Callable[[FloatArray], FloatArray], str] = (sigmoid, "σ")
) -> dict[str, Any]:
    """sigma(a) over a range holding a, with the point's (a, p) marked (figure 4.9); a figure dict.

    The range grows with |a| up to [-40, 40]; a point beyond it is drawn as an arrow head at the
    edge and the title says that it is off the chart, so the marker is always where the text says.
    """
    finite = bool(np.isfinite(a))
    reach = max(6.0, min(abs(a) * 1.25 + 1.0, SIGMOID_REACH)) if finite else SIGMOID_REACH
    grid = np.linspace(-reach, reach, 241)
    off_chart = not finite or abs(a) > reach
    shown_a = float(np.clip(a, -reach, reach)) if finite else float(np.copysign(reach, a))
    colour = CLASS_COLOURS[k % len(CLASS_COLOURS)]
    curve = dict(
        type="scatter",
        x=grid,
        y=link[0](grid),
        mode="lines",
        line=dict(color=BOUNDARY_COLOUR, width=2),
        hoverinfo="skip",
        name=f"{link[1]}(a)",
    )
    guides = dict(
        type="scatter",
        x=[shown_a, shown_a, -reach],
        y=[0, p, p],
        mode="lines",
        line=dict(color=colour, width=1, dash="dot"),
        hoverinfo="skip",
    )
    symbol = ("triangle-right" if shown_a > 0 else "triangle-left") if off_chart else "circle"
    point = dict(
        type="scatter",
        x=[shown_a],
        y=[p],
        mode="markers",
        marker=dict(size=15 if off_chart else 13, symbol=symbol, color=colour, line=dict(color="#222222", width=1.5)),
        hovertemplate=f"a = {a:.4g}<br>p({class_symbol(k)}|x) = {p:.4f}<extra></extra>",
        name=_("point {number}").format(number=point_number),
    )
    posterior = f"p({class_symbol(k)}|x) = {link[1]}(a) = {p:.3f}"
    if not off_chart:
        title = _("Point {number}: a = {a}, {posterior}")
    elif shown_a > 0:
        title = _("Point {number}: a = {a}, off the chart (right), {posterior}")
    else:
        title = _("Point {number}: a = {a}, off the chart (left), {posterior}")
    layout = _small_layout(
        title.format(number=point_number, a=f"{a:.3g}", posterior=posterior),
        dict(title=dict(text=_("activation a")), range=[-reach * 1.04, reach * 1.04]),
        dict(title=dict(text=f"p({class_symbol(k)}|x)"), range=[-0.03, 1.03]),
    )
    return dict(data=[curve, guides, point], layout=layout)


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    """A ring around the point whose sigmoid is plotted, while this tab is open (named in the legend)."""
    index = chosen_point(ctx) if is_open(ctx, TITLE) else None
    if index is None:
        return []
    x, y = ctx.scene.points.X[index]
    return [
        go.Scatter(
            x=[x],
            y=[y],
            mode="markers",
            marker=dict(symbol="circle-open", size=24, color="#D55E00", line=dict(width=3)),
            hoverinfo="skip",
            name=_("point for σ(a)"),
            meta="chosen point",
        )
    ]


def _point_changed():
    options = visitor()["panel_options"]
    if visitor().get("sigmoid_follow_last", True):
        options[POINT_KEY] = None
    else:
        options[POINT_KEY] = int(visitor().get(NUMBER_KEY, 1)) - 1


def _point_picker(ctx: PanelContext) -> int | None:
    n_points = len(ctx.scene.points)
    index = chosen_point(ctx)
    if index is None:  # no points (then there is no fit to replay either)
        return None
    follow_col, index_col = st.columns([1, 1])
    follow = follow_col.checkbox(
        _("Follow the last added point"),
        value=ctx.options.get(POINT_KEY) is None,
        key="sigmoid_follow_last",
        on_change=_point_changed,
    )
    visitor()[NUMBER_KEY] = index + 1
    index_col.number_input(
        _("Point number (1 to {n})").format(n=n_points),
        min_value=1,
        max_value=n_points,
        step=1,
        key=NUMBER_KEY,
        disabled=follow,
        on_change=_point_changed,
    )
    return index


def step_readout(model: object) -> Callable[[int, Classifier], str]:
    """The player's line per step: the log-likelihood and (logistic regression) the book's w."""
    inner = replayed(model)

    def readout(step: int, shown: Classifier) -> str:
        entry = inner.history_[min(step, len(inner.history_) - 1)]
        value = number_text(entry["log_likelihood"], 6)
        weights = np.asarray(book_weights_at(inner, step))
        if weights.ndim == 1 and weights.size <= 8:
            w = f"({', '.join(number_text(v, 4) for v in weights)})"
            if step == 0:
                return _("Iteration {step}: ln p(t|w) = {value}, w = {w}; the initial weights.").format(
                    step=step, value=value, w=w
                )
            return _("Iteration {step}: ln p(t|w) = {value}, w = {w}.").format(step=step, value=value, w=w)
        if step == 0:
            return _("Iteration {step}: ln p(t|w) = {value}; the initial weights.").format(step=step, value=value)
        return _("Iteration {step}: ln p(t|w) = {value}.").format(step=step, value=value)

    return readout


def chart_marks(model: object) -> Callable[[int, Classifier], dict[str, Any]]:
    """Where the log-likelihood chart marks each step while the browser plays."""
    history = replayed(model).history_

    def marks(step: int, shown: Classifier) -> dict[str, Any]:
        entry = history[int(min(max(step, 0), len(history) - 1))]
        value = float(entry["log_likelihood"])
        title = log_likelihood_title(step, value)
        chart = dict(key="irls_log_likelihood", trace=1, x=float(entry["iteration"]), y=value, title=title)
        return dict(charts=[chart])

    return marks


def squashing_text(model: object) -> str:
    """How the model turns its activation into the posterior drawn in the sigmoid chart."""
    if isinstance(model, ProbitRegression):
        return _(
            "Probit regression squashes its activation a = wᵀφ(x) through Φ, the standard normal's distribution "
            "function (eq. 4.114)."
        )
    if isinstance(model, LogisticRegression):
        return _("Logistic regression squashes its activation a = wᵀφ(x) through the sigmoid (eq. 4.59, 4.87).")
    return _("For softmax, p(Cₖ|x) = σ(a) with a = aₖ − ln Σⱼ≠ₖ exp(aⱼ) (eq. 4.104).")


def _solver_summary(solver: str, n_steps: int) -> str:
    """The solver (IRLS or gradient descent) and its number of updates, in Markdown."""
    if solver == "irls":
        summary = ngettext(
            "**IRLS (Newton-Raphson, eq. 4.92-4.100)**: {n} update; step 0 is the initial weights.",
            "**IRLS (Newton-Raphson, eq. 4.92-4.100)**: {n} updates; step 0 is the initial weights.",
            n_steps,
        )
    else:
        summary = ngettext(
            "**gradient descent**: {n} update; step 0 is the initial weights.",
            "**gradient descent**: {n} updates; step 0 is the initial weights.",
            n_steps,
        )
    return summary.format(n=n_steps)


def _book_form(model: TWO_CLASS) -> str:
    """A two-class model as the book writes it: which class t = 1 is, so where w points."""
    first, second = book_classes(model)
    function, number = ("Φ", "4.114") if isinstance(model, ProbitRegression) else ("σ", "4.87")
    return _(
        "In the book's form: p(C{index}|φ) = {function}(wᵀφ) (eq. {number}), t = 1 for {first} and 0 for "
        "{second}, so w points towards {first}."
    ).format(
        index=subscript(first + 1),
        function=function,
        number=number,
        first=class_name_markdown(first),
        second=class_name_markdown(second),
    )


def render(ctx: PanelContext) -> None:
    shown = ctx.shown_model
    if shown is None:  # None only when the fit failed (PanelContext), when no panel is drawn
        return
    model = replayed(ctx.model)
    n_steps = model.n_iter_
    st.markdown(_solver_summary(model.solver, n_steps))
    if isinstance(model, TWO_CLASS):
        st.caption(_book_form(model))
    step = playback_controls(
        ctx.model,
        n_steps,
        key=PLAYBACK_KEY,
        label=_("Iteration"),
        points=ctx.scene.points,
        window=ctx.window,
        readout=step_readout(ctx.model),
        marks=chart_marks(ctx.model),
    )
    left, right = st.columns(2)
    with left:
        chart(log_likelihood_figure(model.history_, step), key="irls_log_likelihood")
        # A plain table: a data grid costs several times as much to send and draw, on every click.
        with st.container(key=detail_key(PLAYBACK_KEY) + "_weights"):  # dimmed while the browser plays
            st.table(weights_table(ctx.model, step).map(lambda value: number_text(value, 5)))
    with right, st.container(key=detail_key(PLAYBACK_KEY) + "_sigmoid"):
        index = _point_picker(ctx)
        if index is not None:
            point = ctx.scene.points.X[index]
            label = int(ctx.scene.points.y[index])
            a, p, k = point_activation(shown, point, label)
            chart(sigmoid_figure(a, p, k, index + 1, link_function(model)), key="irls_sigmoid")
            where = _("Point {number} ({name}, ringed on the canvas) at ({x1}, {x2}).").format(
                number=index + 1, name=class_name_markdown(label), x1=f"{point[0]:.2f}", x2=f"{point[1]:.2f}"
            )
            st.caption(join_sentences(where, squashing_text(model)))


TITLE = N_("Iterations")
PANELS = [
    Panel(
        title=TITLE,
        applies=applies,
        render=render,
        overlay=overlay,
        overlay_while_open=True,  # the ring belongs to this tab's σ(a) chart; elsewhere it reads as a mistake
        order=20,
        help=(
            N_(
                "Replay the maximum-likelihood fit one update at a time (IRLS, eq. 4.99-4.100, or gradient steps on "
                "eq. 4.91): the boundary on the canvas and the log-likelihood (eq. 4.90) move together."
            )
        ),
    )
]
