"""The Laplace approximation of Bayesian logistic regression's posterior (PRML 4.4, figure 4.14).

Panel "Laplace approximation": the exact posterior along the leading eigenvector of S_N against its
Gaussian N(w_MAP, S_N) (figure 4.14 in one dimension), and the marginal ellipses over two chosen
weights with the samples the canvas draws boundaries from (``ui.panels.bayesian``, whose model
access, options and colours these share). Everything a person reads is in the book's sign
(``ui.text.convention``): C1 = classes_[0], w = -(the back-end's w_MAP).
"""

from typing import Any

import numpy as np
import streamlit as st

from playground import BayesianLogisticRegression
from playground.base import Classifier
from playground.bayesian_logistic import PosteriorLine
from playground.validation import FloatArray, LabelArray
from ui.base.visitor import visitor, widget_values
from ui.plot.chart import chart
from ui.plot.theme import BOUNDARY_COLOUR, TEMPLATE_JSON
from ui.text.convention import book_weights
from ui.text.i18n import N_, _

from . import Panel, PanelContext, number_text, subscript
from .bayesian import PREDICTIVE_COLOUR, SAMPLES_KEY, SEED_KEY, applies, laplace_of, option, sampled_weights

PAIR_KEYS = ("laplace_i", "laplace_j")  # panel options (playground.specs.PANEL_SPECS): the ellipse's weights
LINE_POINTS = 201  # the 1-D cut through w_MAP


def weight_names(estimator: BayesianLogisticRegression, model: object) -> list[str]:
    """'w₀ (bias)', 'w₁', ...: the weights of phi = (1, x) or (1, phi_1(x), ...)."""
    return [_("w₀ (bias)")] + [f"w{subscript(j)}" for j in range(1, estimator.coef_.shape[1] + 1)]


def chosen_pair(options: dict[str, Any], size: int) -> tuple[int, int]:
    """The two weight indices of the ellipse: the options when both exist and differ, else (1, 2)."""
    pair = tuple(option(options, key) for key in PAIR_KEYS)
    if pair[0] == pair[1] or max(pair) >= size:
        return (1, 2) if size > 2 else (0, 1)
    return pair


def line_figure(model: Classifier, X: FloatArray, y: LabelArray) -> tuple[dict[str, Any], PosteriorLine]:
    """The exact posterior and its Laplace approximation along the leading eigenvector of S_N,
    densities relative to the mode (left of figure 4.14) and their negative logs (right)."""
    estimator, features = laplace_of(model)
    cut = estimator.posterior_along(features(X), y, n_points=LINE_POINTS)
    s = cut["offsets"]
    posterior, laplace = np.exp(cut["log_posterior"]), np.exp(cut["log_laplace"])
    curves: list[dict[str, Any]] = [
        dict(
            type="scatter",
            x=s,
            y=posterior,
            mode="lines",
            line=dict(color="#E69F00", width=2.5),
            name=_("posterior p(w|t) (relative)"),
            hovertemplate="s = %{x:.3g}<br>p(w|t)/p(w_MAP|t) = %{y:.4f}<extra></extra>",
        ),
        dict(
            type="scatter",
            x=s,
            y=laplace,
            mode="lines",
            line=dict(color="#CC0000", width=2, dash="dash"),
            name=_("Laplace N(w_MAP, S_N)"),
            hovertemplate="s = %{x:.3g}<br>q(w)/q(w_MAP) = %{y:.4f}<extra></extra>",
        ),
    ]
    negative_logs = [
        dict(curves[0], y=-cut["log_posterior"], hovertemplate="s = %{x:.3g}<br>−ln = %{y:.4g}<extra></extra>"),
        dict(curves[1], y=-cut["log_laplace"], hovertemplate="s = %{x:.3g}<br>−ln = %{y:.4g}<extra></extra>"),
    ]
    for trace in negative_logs:
        trace.update(xaxis="x2", yaxis="y2", showlegend=False)
    grid = dict(showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    layout = dict(
        template=TEMPLATE_JSON,
        height=340,
        margin=dict(l=50, r=10, t=40, b=100),
        xaxis=dict(domain=[0, 0.46], title=dict(text="s (w = w_MAP + s v)"), **grid),
        yaxis=dict(title=dict(text=_("density / its value at w_MAP")), range=[0, 1.05], **grid),
        xaxis2=dict(domain=[0.56, 1], anchor="y2", title=dict(text=_("s along v")), **grid),
        yaxis2=dict(anchor="x2", title=dict(text=_("− ln (relative)")), **grid),
        legend=dict(orientation="h", x=0, y=-0.42, yanchor="top", font=dict(size=12)),
        title=dict(
            text=_("Along the leading eigenvector v of S_N (σ along v = {std})").format(std=number_text(cut["std"], 3)),
            font=dict(size=14),
        ),
    )
    return dict(data=curves + negative_logs, layout=layout), cut


def _tails(cut):
    """How the exact posterior compares with its Laplace approximation two standard deviations out."""
    s, std = cut["offsets"], cut["std"]
    ratios = []
    for target in (-2 * std, 2 * std):
        k = int(np.argmin(np.abs(s - target)))
        ratios.append(number_text(float(np.exp(cut["log_posterior"][k] - cut["log_laplace"][k])), 3))
    return _(
        "at s = −2σ the exact density is {below} times the Gaussian's; at s = +2σ the exact density is {above} "
        "times the Gaussian's (the logistic likelihood is not symmetric about w_MAP, nor its tails Gaussian)."
    ).format(below=ratios[0], above=ratios[1])


def ellipse_figure(model: Classifier, pair: tuple[int, int], names: list[str], samples: FloatArray) -> dict[str, Any]:
    """The 1, 2 and 3 standard-deviation ellipses of the marginal over weights ``pair`` (the
    book's sign), w_MAP, and the drawn samples (the canvas's thin boundaries)."""
    estimator, _unused = laplace_of(model)
    i, j = pair
    traces = []
    for n_std, width in ((1, 2.2), (2, 1.5), (3, 1.0)):
        ring = book_weights(estimator, estimator.covariance_ellipse(i, j, n_std=n_std, n_points=121))
        traces.append(
            dict(
                type="scatter",
                x=ring[:, 0],
                y=ring[:, 1],
                mode="lines",
                line=dict(color="#CC0000", width=width),
                name=f"{n_std} σ" if n_std > 1 else _("1 σ ellipse of N(w_MAP, S_N)"),
                hoverinfo="skip",
            )
        )
    if len(samples):
        drawn = book_weights(estimator, samples[:, [i, j]])
        traces.append(
            dict(
                type="scatter",
                x=drawn[:, 0],
                y=drawn[:, 1],
                mode="markers",
                marker=dict(size=7, color=PREDICTIVE_COLOUR, opacity=0.8),
                name=_("samples (the thin boundaries)"),
                hovertemplate=f"{names[i]} = %{{x:.4g}}<br>{names[j]} = %{{y:.4g}}<extra></extra>",
            )
        )
    centre = book_weights(estimator, estimator.weights_[[i, j]])
    traces.append(
        dict(
            type="scatter",
            x=[centre[0]],
            y=[centre[1]],
            mode="markers",
            marker=dict(size=12, symbol="x", color=BOUNDARY_COLOUR),
            name="w_MAP",
            hovertemplate=f"w_MAP: {names[i]} = %{{x:.4g}}, {names[j]} = %{{y:.4g}}<extra></extra>",
        )
    )
    grid = dict(showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    layout = dict(
        template=TEMPLATE_JSON,
        height=360,
        margin=dict(l=55, r=10, t=40, b=50),
        xaxis=dict(title=dict(text=names[i]), constrain="domain", **grid),
        yaxis=dict(title=dict(text=names[j]), scaleanchor="x", scaleratio=1, constrain="domain", **grid),
        legend=dict(x=1.02, y=1, xanchor="left"),
        title=dict(
            text=_("Posterior over ({first}, {second})").format(first=names[i], second=names[j]), font=dict(size=14)
        ),
    )
    return dict(data=traces, layout=layout)


def _pair_changed():
    options = visitor()["panel_options"]
    for key in PAIR_KEYS:
        options[key] = int(widget_values()[f"{key}_select"])


def render_laplace(ctx: PanelContext) -> None:
    model = ctx.shown_model
    if model is None:  # None only when the fit failed (PanelContext), when no panel is drawn
        return
    estimator, _unused = laplace_of(model)
    points = ctx.scene.points
    names = weight_names(estimator, model)
    figure, cut = line_figure(model, points.X, points.y)
    chart(figure, key="laplace_line")
    direction = book_weights(estimator, cut["direction"])
    st.caption(
        _(
            "The exact posterior p(w|t) ∝ p(t|w) N(w|0, α⁻¹I) (eq. 4.142, orange) and its Laplace approximation "
            "N(w|w_MAP, S_N) (eq. 4.144, dashed red) along the line w_MAP + s v, v = {v}, the direction in which "
            "S_N is widest. Both are 1 at w_MAP and agree in their curvature there (S_N⁻¹ is the Hessian of "
            "−ln p(w|t), eq. 4.143); away from it they part: {tails}"
        ).format(v=", ".join(f"{n} {number_text(c, 3)}" for n, c in zip(names, direction)), tails=_tails(cut))
    )
    size = len(names)
    pair = chosen_pair(ctx.options, size)
    asked = tuple(ctx.options.get(key) for key in PAIR_KEYS)
    if all(isinstance(index, int) for index in asked) and asked != pair:
        st.caption(
            _(
                "This model has weights w₀ to {last} and the ellipse needs two different ones: showing {first} and "
                "{second}."
            ).format(last=f"w{subscript(size - 1)}", first=names[pair[0]], second=names[pair[1]])
        )
    for key, value in zip(PAIR_KEYS, pair):
        widget_values()[f"{key}_select"] = value
    left, right = st.columns(2)
    for column, key, label in ((left, PAIR_KEYS[0], _("Horizontal axis")), (right, PAIR_KEYS[1], _("Vertical axis"))):
        column.selectbox(
            label, list(range(size)), format_func=names.__getitem__, key=f"{key}_select", on_change=_pair_changed
        )
    if pair[0] == pair[1]:
        st.info(_("Pick two different weights."))
        return
    samples = sampled_weights(model, option(ctx.options, SAMPLES_KEY), option(ctx.options, SEED_KEY))
    chart(ellipse_figure(model, pair, names, samples), key="laplace_ellipse")
    i, j = pair
    block = estimator.covariance_[np.ix_([i, j], [i, j])]
    correlation = block[0, 1] / np.sqrt(block[0, 0] * block[1, 1])
    st.caption(
        _(
            "The marginal of N(w_MAP, S_N) over ({first}, {second}): ellipses at 1, 2 and 3 standard deviations, "
            "standard deviations {std_first} and {std_second}, correlation {correlation}. The dots are the weights "
            "behind the thin boundaries on the canvas (same seed, same number)."
        ).format(
            first=names[i],
            second=names[j],
            std_first=number_text(np.sqrt(block[0, 0]), 3),
            std_second=number_text(np.sqrt(block[1, 1]), 3),
            correlation=number_text(correlation, 3),
        )
    )


PANELS = [
    Panel(
        title=N_("Laplace approximation (fig. 4.14)"),
        applies=applies,
        render=render_laplace,
        order=79,
        help=(
            N_(
                "The Laplace approximation replaces the posterior p(w|t), which has no closed form, by the Gaussian "
                "centred at its mode w_MAP with the curvature there (section 4.4). Here: how close the two are along "
                "one line through w_MAP, and the Gaussian's spread over two weights."
            )
        ),
    ),
]
