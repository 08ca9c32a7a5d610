"""The logistic sigmoid against the probit function (PRML figure 4.9, section 4.5.2).

sigma(a) and Phi(lambda a) with lambda^2 = pi/8, the value that makes their slopes equal at
a = 0, and their difference; then what the approximation buys: the convolution of the sigmoid
with a Gaussian, integral sigma(a) N(a | mu, s^2) da, computed by Gauss-Hermite quadrature,
against sigma(kappa(s^2) mu) of eq. 4.153, the closed form the Bayesian predictive (eq. 4.155) uses.
"""

from typing import Any

import numpy as np
import streamlit as st
from numpy.typing import ArrayLike

from playground.base import sigmoid
from playground.bayesian_logistic import PROBIT_LAMBDA, moderation
from playground.normal import normal_cdf
from playground.validation import FloatArray
from ui.plot.chart import chart
from ui.plot.theme import TEMPLATE_JSON
from ui.text.i18n import N_, _

from . import Panel, PanelContext, number_text

REACH = 6.0
CURVE_POINTS = 241
VARIANCES = (0.0, 1.0, 4.0, 16.0)  # s^2 of the convolutions drawn
VARIANCE_COLOURS = ("#222222", "#0072B2", "#009E73", "#CC79A7")
HERMITE_NODES = 160  # 1e-9 of the exact integral for the variances drawn (160+ nodes: weights underflow)


def probit_curves(a: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(sigma(a), Phi(lambda a)) at the points ``a`` (figure 4.9)."""
    a = np.asarray(a, dtype=float)
    return sigmoid(a.copy()), normal_cdf(PROBIT_LAMBDA * a)


def convolved_sigmoid(mean: ArrayLike, variance: float, nodes: int = HERMITE_NODES) -> FloatArray:
    """integral sigma(a) N(a | mean, variance) da by Gauss-Hermite quadrature (eq. 4.152), elementwise in mean."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    mean = np.asarray(mean, dtype=float)
    a = mean[..., None] + np.sqrt(2.0 * variance) * x
    return sigmoid(a) @ w / np.sqrt(np.pi)


def approximated_sigmoid(mean: ArrayLike, variance: float) -> FloatArray:
    """sigma(kappa(variance) mean) (eq. 4.153-4.154)."""
    return sigmoid(moderation(variance) * np.asarray(mean, dtype=float))


def _layout(title, x_title, y_title, y_range=None):
    grid = dict(showgrid=True, gridcolor="#EEEEEE", zeroline=False)
    yaxis = dict(title=dict(text=y_title), **grid)
    if y_range:
        yaxis["range"] = y_range
    return dict(
        template=TEMPLATE_JSON,
        height=300,
        margin=dict(l=55, r=10, t=40, b=45),
        title=dict(text=title, font=dict(size=14)),
        xaxis=dict(title=dict(text=x_title), **grid),
        yaxis=yaxis,
        legend=dict(x=0.02, y=0.98, bgcolor="rgba(255,255,255,0.8)"),
    )


def figure_4_9() -> tuple[dict[str, Any], dict[str, Any], float]:
    """sigma(a) (red) and Phi(lambda a) (blue, dashed) over [-6, 6], and their difference."""
    a = np.linspace(-REACH, REACH, CURVE_POINTS)
    logistic, probit = probit_curves(a)
    curves = [
        dict(type="scatter", x=a, y=logistic, mode="lines", line=dict(color="#CC0000", width=2.5), name="σ(a)"),
        dict(
            type="scatter",
            x=a,
            y=probit,
            mode="lines",
            line=dict(color="#0072B2", width=2.5, dash="dash"),
            name="Φ(λa), λ² = π/8",
        ),
    ]
    difference = dict(
        type="scatter",
        x=a,
        y=logistic - probit,
        mode="lines",
        line=dict(color="#555555", width=2),
        name="σ(a) − Φ(λa)",
    )
    return (
        dict(data=curves, layout=_layout(_("Figure 4.9: σ(a) and Φ(λa)"), "a", "", [-0.02, 1.02])),
        dict(data=[difference], layout=_layout(_("Their difference"), "a", "σ(a) − Φ(λa)")),
        float(np.max(np.abs(logistic - probit))),
    )


def convolution_figure() -> tuple[dict[str, Any], float]:
    """integral sigma(a) N(a|mu, s^2) da (solid) and sigma(kappa(s^2) mu) (dotted) against mu."""
    mu = np.linspace(-REACH, REACH, CURVE_POINTS)
    traces: list[dict[str, Any]] = []
    worst = 0.0
    for variance, colour in zip(VARIANCES, VARIANCE_COLOURS):
        exact, approx = convolved_sigmoid(mu, variance), approximated_sigmoid(mu, variance)
        worst = max(worst, float(np.max(np.abs(exact - approx))))
        label = f"σ² = {variance:g}"
        traces.append(dict(type="scatter", x=mu, y=exact, mode="lines", line=dict(color=colour, width=2.5), name=label))
        traces.append(
            dict(
                type="scatter",
                x=mu,
                y=approx,
                mode="lines",
                line=dict(color=colour, width=2, dash="dot"),
                name=f"σ(κμ), {label}",
                showlegend=False,
            )
        )
    layout = _layout(_("∫σ(a)N(a|μ,σ²)da (solid) and σ(κ(σ²)μ) (dotted)"), "μ", "p", [-0.02, 1.02])
    return dict(data=traces, layout=layout), worst


def render(ctx: PanelContext) -> None:
    left, right = st.columns(2)
    curves, difference, largest = figure_4_9()
    with left:
        chart(curves, key="probit_curves")
    with right:
        chart(difference, key="probit_difference")
    st.caption(
        _(
            "Red: the logistic sigmoid σ(a) (eq. 4.59). Blue, dashed: the probit function Φ(λa) (eq. 4.114), the "
            "standard normal's distribution function, scaled by λ = √(π/8) ≈ {lambda_} so that both have slope 1/4 "
            "at a = 0. They never differ by more than {largest}, but Φ's tails fall like exp(−a²/2), σ's like "
            "exp(−|a|): probit regression is more sensitive to outliers (section 4.3.5)."
        ).format(lambda_=f"{PROBIT_LAMBDA:.4f}", largest=number_text(largest, 3))
    )
    figure, worst = convolution_figure()
    chart(figure, key="probit_convolution")
    st.caption(
        _(
            "Why it matters: the Bayesian predictive needs ∫σ(a)N(a|μ,σ²)da (eq. 4.152), which has no closed form. "
            "Replacing σ by Φ(λa) makes it one, σ(κ(σ²)μ) with κ(σ²) = (1 + πσ²/8)^−½ (eq. 4.153-4.154): a wider "
            "Gaussian flattens the curve. Largest difference from the exact integral here: {worst}."
        ).format(worst=number_text(worst, 3))
    )


PANELS = [
    Panel(
        title=N_("Sigmoid and probit (fig. 4.9)"),
        applies=lambda ctx: True,  # for the methods whose cards add it
        name="sigmoid_probit",
        render=render,
        order=85,
        help=(
            N_(
                "The logistic sigmoid and the probit function look alike once the probit is scaled by λ² = π/8; "
                "that likeness is what turns the Bayesian predictive distribution into a formula (section 4.5.2)."
            )
        ),
    )
]
