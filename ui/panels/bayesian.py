"""Bayesian logistic regression on the canvas and the Laplace approximation (PRML 4.4-4.5).

Canvas: the predictive p(C1|x) of eq. 4.155 (solid contours) beside the MAP sigmoid
sigma(w_MAP^T phi) (dashed), and a few decision boundaries w^T phi = 0 for weights drawn from the
Laplace posterior N(w_MAP, S_N), thin; the seed and the number of draws are panel options, so a
link redraws the same boundaries. Panel "Predictive vs MAP": the choices and the numbers at a
point (mu_a, sigma_a^2, kappa, both probabilities). The panel "Laplace approximation" (figure
4.14) is ``ui.panels.laplace``'s, over this module's model access, options and colours. Everything
a person reads is in the book's sign (``ui.text.convention``): C1 = classes_[0], w = -(the back-end's w_MAP).
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from playground import BayesianLogisticRegression
from playground.base import Classifier
from playground.basis import BasisModel, IdentityBasis
from playground.bayesian_logistic import moderation
from playground.geometry import boundary_segments
from playground.grid import Window
from playground.multiclass import OneVsOne, OneVsRest
from playground.specs import PANEL_SPEC
from playground.validation import FloatArray
from ui.base.visitor import visitor, widget_values
from ui.plot.figures import gapped_paths
from ui.text.convention import book_classes, book_weights, is_two_class
from ui.text.i18n import N_, _, ngettext
from ui.text.names import class_name_markdown

from . import Panel, PanelContext, number_text
from .posterior import HEATMAP_LEVELS, HEATMAP_RESOLUTION, _diverging_scale, class_symbol, grid_axes

CONTOURS_KEY = "bayes_contours"  # panel options (playground.specs.PANEL_SPECS)
SAMPLES_KEY = "bayes_samples"
SEED_KEY = "bayes_seed"
CONTOUR_CHOICES = {
    "both": N_("predictive and MAP"),
    "predictive": N_("predictive only"),
    "map": N_("MAP only"),
    "none": N_("neither"),
}
CONTOUR_RESOLUTION = 64  # the contour fields (float32)
SAMPLE_RESOLUTION = 48  # a sampled boundary's field on a basis (a curve, not a line)
PREDICTIVE_COLOUR = "#7B3294"  # purple: the predictive and the posterior samples
MAP_COLOUR = "#444444"
SAMPLE_OPACITY = 0.55
LEVELS = dict(start=0.1, end=0.9, size=0.4)  # p(C1|x) = 0.1, 0.5, 0.9


# -- the model, whatever wraps it ---------------------------------------------------------------


Laplace = tuple[BayesianLogisticRegression, Callable[[FloatArray], FloatArray]]  # (estimator, x -> phi(x))


def laplace_model(model: Classifier | None) -> Laplace | None:
    """(estimator, features) of a two-class Bayesian logistic regression: the fitted
    ``BayesianLogisticRegression`` and the map x -> phi(x) it works on; None for anything else.

    Sees through a basis (its estimator works on phi(x)) and a one-versus-rest / one-versus-one
    wrapper of two classes (its single sub-classifier is the model)."""
    if model is None or not is_two_class(model):
        return None
    features, inner = (lambda X: X), model
    if isinstance(inner, BasisModel) and "estimator_" in inner.__dict__:
        features, inner = inner.features, inner.__dict__["estimator_"]
    if isinstance(inner, OneVsRest | OneVsOne) and len(getattr(inner, "estimators_", ())) == 1:
        inner = inner.estimators_[0]
    if not isinstance(inner, BayesianLogisticRegression) or not np.array_equal(inner.classes_, model.classes_):
        return None
    return inner, features


def laplace_of(model: Classifier | None) -> Laplace:
    """``laplace_model(model)`` of a model the panel applies to (``applies`` checked that it is one)."""
    laplace = laplace_model(model)
    if laplace is None:
        raise TypeError("the Laplace panels show a two-class Bayesian logistic regression only")
    return laplace


def applies(ctx: PanelContext) -> bool:
    return laplace_model(ctx.shown_model) is not None


def option(options: dict[str, Any], name: str) -> Any:
    """A panel option, checked against its Spec (a hand-edited session value must not reach numpy)."""
    value, problem = PANEL_SPEC[name].clean(options.get(name, PANEL_SPEC[name].default))
    return PANEL_SPEC[name].default if problem or value is None else value


def grid_points(window: Window, resolution: int) -> tuple[FloatArray, dict[str, float]]:
    """The cell centres of a resolution^2 grid over the window, (resolution^2, 2), rows along x."""
    axes = grid_axes(window, resolution)
    xs = axes["x0"] + axes["dx"] * np.arange(resolution)
    ys = axes["y0"] + axes["dy"] * np.arange(resolution)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()]), axes


def c1_fields(
    model: Classifier, window: Window, resolution: int = CONTOUR_RESOLUTION
) -> tuple[FloatArray, FloatArray, dict[str, float]]:
    """(predictive, MAP) p(C1|x) on the grid, each (resolution, resolution) float64, and the axes."""
    estimator, features = laplace_of(model)
    X, axes = grid_points(window, resolution)
    phi = features(X)
    predictive = estimator.predict_proba(phi)[:, 0]  # C1 = classes_[0]
    map_ = estimator.predict_proba_map(phi)[:, 0]
    shape = (resolution, resolution)
    return predictive.reshape(shape), map_.reshape(shape), axes


def sampled_weights(model: Classifier, n_samples: int, seed: int) -> FloatArray:
    """Weights drawn from N(w_MAP, S_N) in the back-end's sign, (n_samples, M + 1); (0, M + 1) for none."""
    estimator, _unused = laplace_of(model)
    if n_samples <= 0:
        return np.empty((0, estimator.coef_.shape[1] + 1))
    return estimator.sample_weights(int(n_samples), random_state=int(seed))


# -- canvas ------------------------------------------------------------------------------------


def _contour(field, axes, colour, dash, name, meta, labels=True):
    return dict(
        type="contour",
        z=field.astype(np.float32),
        **axes,
        contours=dict(**LEVELS, coloring="none", showlabels=labels, labelfont=dict(size=11, color=colour)),
        line=dict(color=colour, width=1.8 if dash == "solid" else 1.4, dash=dash),
        showscale=False,
        hoverinfo="skip",
        name=name,
        meta=meta,
    )


def shading_trace(
    model: Classifier, window: Window, choice: str, resolution: int = HEATMAP_RESOLUTION
) -> dict[str, Any]:
    """p(C1|x) as shading between the class colours (white at 0.5), the predictive unless only
    the MAP contours are shown: a uint8 heatmap (round(250 p)) with meta "posterior", which
    stands in for the region polygons (plotly draws contours below filled scatters, so the
    polygons would hide them); p > 0.5 is C1's colour, so the regions still read."""
    predictive, map_, axes = c1_fields(model, window, resolution)
    field = map_ if choice == "map" else predictive
    return dict(
        type="heatmap",
        z=np.clip(np.rint(field * HEATMAP_LEVELS), 0, HEATMAP_LEVELS).astype(np.uint8),
        **axes,
        zmin=0,
        zmax=HEATMAP_LEVELS,
        colorscale=_diverging_scale(np.asarray(model.classes_)),
        showscale=False,
        hoverinfo="skip",
        name=(_("MAP p({c1}|x)") if choice == "map" else _("predictive p({c1}|x)")).format(
            c1=class_symbol(model.classes_[0])
        ),
        meta="posterior",
    )


def contour_traces(model: Classifier, window: Window, choice: str) -> list[dict[str, Any]]:
    """The shading, then the predictive (solid) and MAP (dashed) contours at p(C1|x) = 0.1, 0.5, 0.9."""
    if choice == "none":
        return []
    predictive, map_, axes = c1_fields(model, window)
    c1 = class_symbol(model.classes_[0])
    traces = [shading_trace(model, window, choice)]
    if choice in ("both", "map"):
        traces.append(_contour(map_, axes, MAP_COLOUR, "dash", f"MAP σ(w_MAPᵀφ) = p({c1}|x) 0.1/0.5/0.9", "map"))
    if choice in ("both", "predictive"):
        traces.append(
            _contour(
                predictive,
                axes,
                PREDICTIVE_COLOUR,
                "solid",
                _("predictive p({c1}|x) 0.1/0.5/0.9").format(c1=c1),
                "predictive",
                True,
            )
        )
    return traces


def sample_traces(model: Classifier, window: Window, n_samples: int, seed: int) -> list[dict[str, Any]]:
    """The boundaries w^T phi(x) = 0 of ``n_samples`` posterior draws: exact segments on the
    inputs (one trace with gaps), zero contours on a basis (one trace per draw)."""
    weights = sampled_weights(model, n_samples, seed)
    if not len(weights):
        return []
    estimator, features = laplace_of(model)
    name = ngettext(
        "{n} boundary from N(w_MAP, S_N), seed {seed}", "{n} boundaries from N(w_MAP, S_N), seed {seed}", len(weights)
    ).format(n=len(weights), seed=seed)
    line = dict(color=PREDICTIVE_COLOUR, width=1)
    curved = isinstance(model, BasisModel) and not isinstance(model.basis_, IdentityBasis)
    if not curved:  # lines in x
        xs, ys = gapped_paths(
            (start, end)
            for w in weights
            for _unused, _unused, start, end in boundary_segments(w[None, 1:], w[:1], window)
        )
        return [
            dict(
                type="scatter",
                x=xs,
                y=ys,
                mode="lines",
                line=line,
                opacity=SAMPLE_OPACITY,
                hoverinfo="skip",
                name=name,
                meta="posterior samples",
            )
        ]
    X, axes = grid_points(window, SAMPLE_RESOLUTION)
    activations = estimator.sample_activations(features(X), int(n_samples), random_state=int(seed))
    shape = (SAMPLE_RESOLUTION, SAMPLE_RESOLUTION)
    return [
        dict(
            type="contour",
            z=activations[:, s].reshape(shape).astype(np.float32),
            **axes,
            contours=dict(start=0, end=0, size=1, coloring="none"),
            line=line,
            opacity=SAMPLE_OPACITY,
            showscale=False,
            hoverinfo="skip",
            name=name,
            meta="posterior samples",
            showlegend=s == 0,
            legendgroup="posterior samples",
        )
        for s in range(activations.shape[1])
    ]


def overlay(ctx: PanelContext) -> list[dict[str, Any]]:
    model = ctx.shown_model
    if model is None or laplace_model(model) is None:
        return []
    traces = contour_traces(model, ctx.window, option(ctx.options, CONTOURS_KEY))
    traces += sample_traces(model, ctx.window, option(ctx.options, SAMPLES_KEY), option(ctx.options, SEED_KEY))
    return traces


# -- the numbers at a point ----------------------------------------------------------------------


def predictive_at(model: Classifier, X: FloatArray) -> dict[str, FloatArray]:
    """A table of the predictive's parts at the rows of X (eq. 4.149-4.155), book's sign:
    mu_a = w_MAP^T phi for C1, sigma_a^2, kappa, the MAP and the moderated p(C1|x)."""
    estimator, features = laplace_of(model)
    phi = features(np.asarray(X, dtype=float).reshape(-1, 2))
    mean, variance = estimator.predictive_moments(phi)
    mean = book_weights(estimator, mean)  # a for C1 (the back-end's mu_a is for classes_[1])
    return dict(
        mu=mean,
        variance=variance,
        kappa=moderation(variance),
        p_map=estimator.predict_proba_map(phi)[:, 0],
        p_predictive=estimator.predict_proba(phi)[:, 0],
    )


def _point_table(ctx, model):
    points = ctx.scene.points
    rows, names = [], []
    if len(points):
        x = points.X[-1]
        rows.append(x)
        names.append(_("last point ({x1}, {x2})").format(x1=number_text(x[0], 3), x2=number_text(x[1], 3)))
    window = ctx.window
    corner = np.array([window.x_max, window.y_max])
    rows.append(corner)
    names.append(
        _("corner of the view ({x1}, {x2})").format(x1=number_text(corner[0], 3), x2=number_text(corner[1], 3))
    )
    values = predictive_at(model, np.array(rows))
    c1 = class_symbol(model.classes_[0])
    table = pd.DataFrame(
        {
            "μₐ = w_MAPᵀφ": values["mu"],
            "σₐ² = φᵀS_Nφ": values["variance"],
            "κ(σₐ²)": values["kappa"],
            f"MAP σ(μₐ) = p({c1}|x)": values["p_map"],
            _("predictive σ(κμₐ) = p({c1}|x)").format(c1=c1): values["p_predictive"],
        },
        index=names,
    )
    return table.map(lambda value: number_text(value, 4))


# -- widgets -------------------------------------------------------------------------------------


def _set_option(name, key, convert=lambda value: value):
    visitor()["panel_options"][name] = convert(widget_values()[key])


def _whole_bounds(name: str) -> tuple[int, int]:
    """The bounds of a whole-number panel setting (PANEL_SPEC gives both for the samples and the seed)."""
    spec = PANEL_SPEC[name]
    if spec.low is None or spec.high is None:
        raise ValueError(f"the panel setting {name} has no bounds")
    return int(spec.low), int(spec.high)


def _resample():
    options = visitor()["panel_options"]
    options[SEED_KEY] = (option(options, SEED_KEY) + 1) % (_whole_bounds(SEED_KEY)[1] + 1)


def render_predictive(ctx: PanelContext) -> None:
    model = ctx.shown_model
    if model is None:  # None only when the fit failed (PanelContext), when no panel is drawn
        return
    estimator, _unused = laplace_of(model)
    first, second = book_classes(model)
    c1 = class_symbol(first)
    _predictive_controls(ctx.options, c1)
    st.caption(
        _(
            "Solid purple: the predictive p({c1}|x) ≈ σ(κ(σₐ²) μₐ) (eq. 4.155) at 0.1, 0.5 and 0.9; dashed grey: "
            "the MAP sigmoid σ(w_MAPᵀφ). The 0.5 contours coincide (κ > 0 does not change the sign of μₐ), but away "
            "from the data σₐ² = φᵀS_Nφ grows, κ shrinks and the predictive's 0.1 and 0.9 contours fan out: the "
            "model is less sure where it has seen nothing. The thin purple lines are boundaries wᵀφ = 0 of weights "
            "drawn from N(w_MAP, S_N): where they spread, the boundary is uncertain. While contours are shown, the "
            "shading is p({c1}|x) itself (the predictive's, or the MAP's with MAP only), white at 0.5."
        ).format(c1=c1)
    )
    st.table(_point_table(ctx, model))
    st.caption(
        _(
            "t = 1 for {first} (C₁), 0 for {second} (C₂); prior precision α = {alpha}; Laplace log evidence "
            "ln p(t|α) ≈ {evidence} (eq. 4.137). Try: raise α and watch the samples bunch together and the contours "
            "close in."
        ).format(
            first=class_name_markdown(first),
            second=class_name_markdown(second),
            alpha=number_text(estimator.alpha),
            evidence=number_text(float(estimator.log_evidence_), 6),  # a float (typed float | array)
        )
    )


def _predictive_controls(options, c1):
    """The contours' choice, the number of posterior boundaries and their seed, seeded from the
    panel ``options`` (which a link carries) and written back to them on change."""
    contour_key, samples_key, seed_key = "bayes_contours_radio", "bayes_samples_slider", "bayes_seed_input"
    widget_values()[contour_key] = option(options, CONTOURS_KEY)
    widget_values()[samples_key] = option(options, SAMPLES_KEY)
    widget_values()[seed_key] = option(options, SEED_KEY)
    st.radio(
        _("Contours of p({c1}|x) on the canvas").format(c1=c1),
        list(CONTOUR_CHOICES),
        format_func=lambda choice: _(CONTOUR_CHOICES[choice]),
        key=contour_key,
        horizontal=True,
        on_change=_set_option,
        args=(CONTOURS_KEY, contour_key),
    )
    (fewest_samples, most_samples), (lowest_seed, highest_seed) = _whole_bounds(SAMPLES_KEY), _whole_bounds(SEED_KEY)
    left, middle, right = st.columns([3, 2, 2], vertical_alignment="bottom")
    left.slider(
        _("Boundaries drawn from the posterior"),
        fewest_samples,
        most_samples,
        key=samples_key,
        on_change=_set_option,
        args=(SAMPLES_KEY, samples_key, int),
    )
    middle.number_input(
        _("Seed"),
        lowest_seed,
        highest_seed,
        step=1,
        key=seed_key,
        on_change=_set_option,
        args=(SEED_KEY, seed_key, int),
        help=_("The same seed draws the same boundaries; a shared link carries it."),
    )
    right.button(_("Draw new samples"), key="bayes_resample", on_click=_resample, help=_("The next seed."))


PANELS = [
    Panel(
        title=N_("Predictive vs MAP (sec. 4.5.2)"),
        applies=applies,
        render=render_predictive,
        overlay=overlay,
        order=78,
        help=(
            N_(
                "Bayesian logistic regression keeps a whole distribution over the weights, the Laplace "
                "approximation N(w_MAP, S_N) (eq. 4.144). Averaging the sigmoid over it gives the predictive "
                "distribution (eq. 4.155), "
                "which is less sure than the MAP sigmoid wherever the weights are uncertain, i.e. away from the data."
            )
        ),
    ),
]
