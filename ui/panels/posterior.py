"""Posterior surfaces p(C_k|x) for every probabilistic model (PRML 4.2-4.3, figures 4.10-4.11).

On the canvas: for two classes p(C1|x) = sigma(a) (the book's C1, the first class present; see
``ui.text.convention``) as a heatmap between the two class colours with contours at 0.1, 0.5 and 0.9;
for three or more classes each pixel's colour mixed from the class colours weighted by the
posteriors (the RGB picture of figure 4.11), sent as a uint8 heatmap of palette indices. An
invisible coarse heatmap gives a hover read-out of a_k(x) and every p(C_k|x) anywhere on the
plane. Below the canvas: the display choice and a 3-D surface of p(C_k|x).
"""

from collections.abc import Iterable
from typing import Any, Final, Protocol, TypeGuard

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from numpy.typing import ArrayLike, NDArray
from plotly.basedatatypes import BaseTraceType

from playground import BayesianLogisticRegression, LogisticRegression, ProbitRegression, evaluate_grid
from playground.base import Classifier
from playground.basis import BasisModel, features_estimator
from playground.grid import Window
from playground.scene import PointSet
from playground.validation import FloatArray
from ui.base.visitor import visitor
from ui.plot.chart import chart
from ui.plot.theme import BOUNDARY_COLOUR, CLASS_COLOURS, CLASS_SYMBOLS_3D, TEMPLATE
from ui.text.convention import book_decision, book_line, book_roles
from ui.text.i18n import N_, _
from ui.text.markdown import plain

from . import SURFACE_MARGIN, Panel, PanelContext, join_sentences, posteriors, surface_scene

DISPLAY_KEY: Final = "posterior_display"  # visitor()["panel_options"][DISPLAY_KEY]: "regions" or "posterior"
DISPLAYS = {"regions": N_("decision regions"), "posterior": N_("posterior p(Cₖ|x)")}
SURFACE_CLASS_KEY: Final = "posterior_surface_class"
HEATMAP_RESOLUTION = 200
IMAGE_RESOLUTION = 200
MAX_PALETTE = 250
PALETTE_STEPS = (4, 6, 8, 9, 10, 12, 14, 16, 20, 24, 32, 48, 64, 128)  # colour rounding per channel, finest first
CONTOUR_RESOLUTION = 64
# p is sent as round(250 p): plotly's JSON escapes "/" (as \u002f, six characters) and bytes
# of 0xFF (p = 1) would encode as runs of "/" in base64; 250 = 0xFA never does.
HEATMAP_LEVELS = 250
HOVER_RESOLUTION = 40
SURFACE_RESOLUTION = 60
CONTOUR_LEVELS = (0.1, 0.5, 0.9)
HEATMAP_OPACITY = 1.0
IMAGE_OPACITY = 1.0
MIX_STRENGTH = 0.6  # the colour mix blended with white: 1 = pure class colours
SURFACE_FLOOR = "#C8CDD2"  # the 3-D surface's colour where p(C_k|x) = 0

_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def class_symbol(k: int) -> str:
    """'C₁' for global class index 0."""
    return "C" + str(k + 1).translate(_SUBSCRIPTS)


class WithActivations(Protocol):
    """A model with the activations a_k(x) (N, K) of its classes (softmax regression, eq. 4.63)."""

    def activations(self, X: ArrayLike) -> FloatArray: ...


def _has_activations(model: object) -> TypeGuard[WithActivations]:
    return hasattr(model, "activations")


def is_probabilistic(model: Classifier | None) -> TypeGuard[Classifier]:
    """True for a fitted model that gives posteriors (and says so): the models this panel draws."""
    return model is not None and bool(getattr(model, "is_probabilistic", False)) and hasattr(model, "predict_proba")


def display_choice(options: dict[str, Any]) -> str:
    value = options.get(DISPLAY_KEY, "regions")
    return value if value in DISPLAYS else "regions"


def hex_to_rgb(colour: str) -> FloatArray:
    colour = colour.lstrip("#")
    return np.array([int(colour[i : i + 2], 16) for i in (0, 2, 4)], dtype=float)


def class_colours(classes: Iterable[int]) -> FloatArray:
    """The (K, 3) RGB colours (0-255 floats) of the global class indices ``classes``."""
    return np.array([hex_to_rgb(CLASS_COLOURS[int(c) % len(CLASS_COLOURS)]) for c in classes])


def grid_axes(window: Window, resolution: int) -> dict[str, float]:
    """x0, dx, y0, dy of the cell centres of a resolution^2 grid over ``window`` (as evaluate_grid)."""
    dx = (window.x_max - window.x_min) / resolution
    dy = (window.y_max - window.y_min) / resolution
    return dict(x0=window.x_min + dx / 2, dx=dx, y0=window.y_min + dy / 2, dy=dy)


def posterior_grid(model: Classifier, window: Window, resolution: int) -> FloatArray:
    """p(C_k|x) at the cell centres, shape (rows = y, cols = x, K), float64."""
    grid = evaluate_grid(model, window, resolution)
    if grid.proba is not None:
        return np.asarray(grid.proba, dtype=float)
    xs, ys = np.meshgrid(grid.x, grid.y)
    proba = posteriors(model, np.column_stack([xs.ravel(), ys.ravel()]))
    return proba.reshape(xs.shape + (-1,))


def mix_colours(proba: FloatArray, classes: Iterable[int], strength: float = MIX_STRENGTH) -> NDArray[np.uint8]:
    """Each pixel's colour sum_k p(C_k|x) colour_k (figure 4.11), (rows, cols, 3) uint8.

    The mix is then blended with white, ``strength`` of the mix and the rest white, so points and
    ellipses drawn in the full class colours stay visible on top.
    """
    rgb = np.asarray(proba, dtype=float) @ class_colours(classes)
    rgb = strength * rgb + (1 - strength) * 255.0
    return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)


def _pastel(rgb, strength=MIX_STRENGTH):
    r, g, b = np.clip(np.rint(strength * np.asarray(rgb, dtype=float) + (1 - strength) * 255.0), 0, 255).astype(int)
    return f"#{r:02X}{g:02X}{b:02X}"


def _diverging_scale(classes):
    """p(C1|x) = 0 -> colour of C2 (classes[1]), 0.5 -> white, 1 -> colour of C1 (classes[0]), blended
    with white as in ``mix_colours``, so the points stay visible."""
    first, second = (_pastel(colour) for colour in class_colours(classes[:2]))
    return [[0.0, second], [0.5, "#FFFFFF"], [1.0, first]]


def two_class_traces(
    model: Classifier,
    window: Window,
    resolution: int = HEATMAP_RESOLUTION,
    contour_resolution: int = CONTOUR_RESOLUTION,
) -> list[BaseTraceType]:
    """p(C1|x) as a uint8 heatmap (round(250 p)) and contour lines at 0.1, 0.5, 0.9 (float32 field)."""
    classes = np.asarray(model.classes_)
    p1 = posterior_grid(model, window, resolution)[..., 0]
    z = np.clip(np.rint(p1 * HEATMAP_LEVELS), 0, HEATMAP_LEVELS).astype(np.uint8)
    heatmap = go.Heatmap(
        z=z,
        **grid_axes(window, resolution),
        zmin=0,
        zmax=HEATMAP_LEVELS,
        colorscale=_diverging_scale(classes),
        opacity=HEATMAP_OPACITY,
        showscale=False,
        hoverinfo="skip",
        name=f"p({class_symbol(classes[0])}|x)",
        meta="posterior",
    )
    field = posterior_grid(model, window, contour_resolution)[..., 0].astype(np.float32)
    contours = go.Contour(
        z=field,
        **grid_axes(window, contour_resolution),
        contours=dict(
            start=CONTOUR_LEVELS[0],
            end=CONTOUR_LEVELS[-1],
            size=CONTOUR_LEVELS[1] - CONTOUR_LEVELS[0],
            coloring="none",
            showlabels=True,
            labelfont=dict(size=11, color=BOUNDARY_COLOUR),
        ),
        line=dict(color=BOUNDARY_COLOUR, width=1.2, dash="dot"),
        showscale=False,
        hoverinfo="skip",
        name=f"p({class_symbol(classes[0])}|x) = 0.1, 0.5, 0.9",
        meta="posterior contours",
    )
    return [heatmap, contours]


def palette_indices(colours: ArrayLike, max_colours: int = MAX_PALETTE) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    """Quantise (rows, cols, 3) colours to a palette: (indices uint8 (rows, cols), palette (P, 3) uint8).

    Colours are rounded on a grid of ``step`` levels per channel, the finest of STEPS that leaves
    at most ``max_colours`` distinct colours in this picture (most pixels lie near a pure class
    colour, so few occur).
    """
    flat = np.asarray(colours, dtype=float).reshape(-1, 3)
    for step in PALETTE_STEPS:
        rounded = np.clip(np.rint(flat / step) * step, 0, 255).astype(np.uint8)
        palette, inverse = np.unique(rounded, axis=0, return_inverse=True)
        if palette.shape[0] <= max_colours:
            break
    return inverse.reshape(np.shape(colours)[:2]).astype(np.uint8), palette


def _palette_scale(palette):
    """A colourscale showing integer z = 0..P-1 (zmin -0.5, zmax P-0.5) in the palette's flat colours."""
    n = max(len(palette), 1)
    scale = []
    for k, (r, g, b) in enumerate(palette):
        colour = f"#{int(r):02X}{int(g):02X}{int(b):02X}"
        scale += [[k / n, colour], [(k + 1) / n, colour]]
    return scale if len(palette) > 1 else [[0, scale[0][1]], [1, scale[0][1]]]


def mixed_colour_trace(model: Classifier, window: Window, resolution: int = IMAGE_RESOLUTION) -> BaseTraceType:
    """The RGB mixing of figure 4.11 as a heatmap of palette indices (uint8) with a flat colourscale.

    A heatmap, not an image trace: plotly draws every image below every heatmap, so an image
    would sit under the regions. The boundary, drawn by the canvas above all heatmaps, stays visible.
    """
    colours = mix_colours(posterior_grid(model, window, resolution), model.classes_)
    indices, palette = palette_indices(colours)
    return go.Heatmap(
        z=indices,
        **grid_axes(window, resolution),
        zmin=-0.5,
        zmax=len(palette) - 0.5,
        colorscale=_palette_scale(palette),
        opacity=IMAGE_OPACITY,
        showscale=False,
        hoverinfo="skip",
        name=_("posterior colour mix"),
        meta="posterior",
    )


def hover_fields(model: Classifier, X: FloatArray) -> tuple[list[str], FloatArray]:
    """(labels, values (N, M)) read out on hover: the activations a_k(x), then every p(C_k|x).

    Logistic regression: the book's single activation a = w^T phi with p(C1|x) = sigma(a). For a
    two-class linear model also the book's y(x) and the signed distance r of the geometry panel:
    this read-out is drawn after (so above) the geometry panel's, which it replaces for these models.
    """
    classes = np.asarray(model.classes_)
    proba = posteriors(model, X)
    labels: list[str] = []
    columns: list[FloatArray] = []
    line = book_line(model)
    inner: Classifier = model
    inputs = X
    if isinstance(model, BasisModel) and "estimator_" in model.__dict__:  # on basis functions: a_k of phi(x)
        inner, inputs = model.estimator_, model.features(X)
    logistic = isinstance(inner, LogisticRegression)
    if logistic:
        labels.append("a = wᵀφ(x)" if line is None else "a = y(x) = wᵀx + w₀")
        columns.append(book_decision(inner, inputs)[:, None])
    elif _has_activations(inner):
        labels += [f"a{str(int(c) + 1).translate(_SUBSCRIPTS)}(x)" for c in classes]
        columns.append(inner.activations(inputs))
    if line is not None:  # a two-class linear model: also the geometry of figure 4.1 (eq. 4.4, 4.7)
        y = line.value(X)
        if not logistic:
            labels.append("y(x) = wᵀx + w₀")
            columns.append(y[:, None])
        labels.append("r = y(x)/‖w‖")
        columns.append((y / line.norm)[:, None])
    labels += [f"p({class_symbol(c)}|x)" for c in classes]
    columns.append(proba)
    return labels, np.column_stack(columns)


def hover_trace(model: Classifier, window: Window, resolution: int = HOVER_RESOLUTION) -> BaseTraceType:
    """An invisible coarse heatmap whose hover shows a_k(x) and p(C_k|x); customdata float32."""
    axes = grid_axes(window, resolution)
    xs = axes["x0"] + axes["dx"] * np.arange(resolution)
    ys = axes["y0"] + axes["dy"] * np.arange(resolution)
    gx, gy = np.meshgrid(xs, ys)
    labels, values = hover_fields(model, np.column_stack([gx.ravel(), gy.ravel()]))
    values = np.nan_to_num(values, nan=0.0, posinf=3e38, neginf=-3e38)
    customdata = np.clip(values, -3e38, 3e38).astype(np.float32).reshape(resolution, resolution, len(labels))
    lines = ["x = (%{x:.2f}, %{y:.2f})"]
    for m, label in enumerate(labels):
        fmt = ".3f" if label.startswith("p(") else ".3g"
        lines.append(f"{label} = %{{customdata[{m}]:{fmt}}}")
    return go.Heatmap(
        z=np.zeros((resolution, resolution), dtype=np.uint8),
        customdata=customdata,
        **axes,
        opacity=0,
        showscale=False,
        hovertemplate="<br>".join(lines) + "<extra></extra>",
        name=_("hover read-out"),
        meta="hover",
        showlegend=False,
    )


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    model = ctx.shown_model
    if not is_probabilistic(model):
        return []
    traces: list[BaseTraceType] = []
    if display_choice(ctx.options) == "posterior":
        if np.asarray(model.classes_).size == 2:
            traces += two_class_traces(model, ctx.window)
        else:
            traces.append(mixed_colour_trace(model, ctx.window))
    traces.append(hover_trace(model, ctx.window))
    return traces


def surface_figure(
    model: Classifier,
    window: Window,
    class_position: int = 0,
    resolution: int = SURFACE_RESOLUTION,
    points: PointSet | None = None,
) -> go.Figure:
    """A 3-D surface of p(C_k|x) over the window (k = classes_[class_position]); training points
    drawn at height 1 (in class k) or 0 (not), as the targets t_n."""
    k = int(np.asarray(model.classes_)[class_position])
    traces = [_posterior_surface(model, window, class_position, resolution)]
    if points is not None and len(points):
        traces.append(_targets_at_their_heights(points, window, k))
    return go.Figure(
        data=traces,
        layout=dict(
            template=TEMPLATE,
            height=460,
            margin=SURFACE_MARGIN,
            showlegend=False,
            scene=surface_scene(window, dict(title=dict(text=f"p({class_symbol(k)}|x)"), range=[0, 1])),
        ),
    )


def _posterior_surface(model: Classifier, window: Window, class_position: int, resolution: int) -> go.Surface:
    """p(C_k|x) over the window's grid, from a light grey floor (p = 0) to class k's colour."""
    k = int(np.asarray(model.classes_)[class_position])
    axes = grid_axes(window, resolution)
    xs = axes["x0"] + axes["dx"] * np.arange(resolution)
    ys = axes["y0"] + axes["dy"] * np.arange(resolution)
    p = posterior_grid(model, window, resolution)[..., class_position].astype(np.float32)
    colour = CLASS_COLOURS[k % len(CLASS_COLOURS)]
    return go.Surface(
        x=xs.astype(np.float32),
        y=ys.astype(np.float32),
        z=p,
        cmin=0,
        cmax=1,
        # p = 0 is a light grey, not white: the floor of the surface must show on the white page.
        colorscale=[[0, SURFACE_FLOOR], [1, colour]],
        showscale=False,
        opacity=0.95,
        contours=dict(z=dict(show=True, start=0.1, end=0.9, size=0.4, color=BOUNDARY_COLOUR, width=2)),
        hovertemplate=f"x = (%{{x:.2f}}, %{{y:.2f}})<br>p({class_symbol(k)}|x) = %{{z:.3f}}<extra></extra>",
        name=f"p({class_symbol(k)}|x)",
    )


def _targets_at_their_heights(points: PointSet, window: Window, k: int) -> go.Scatter3d:
    """The training points inside the window at their targets t_n: height 1 in class k, 0 not."""
    X, y = points.X, points.y
    inside = (X[:, 0] >= window.x_min) & (X[:, 0] <= window.x_max)
    inside &= (X[:, 1] >= window.y_min) & (X[:, 1] <= window.y_max)
    X, y = X[inside], y[inside]
    return go.Scatter3d(
        x=X[:, 0],
        y=X[:, 1],
        z=(y == k).astype(float),
        mode="markers",
        marker=dict(
            size=3,
            color=[CLASS_COLOURS[int(c) % len(CLASS_COLOURS)] for c in y],
            symbol=[CLASS_SYMBOLS_3D[int(c) % len(CLASS_SYMBOLS_3D)] for c in y],  # not colour alone
        ),
        hoverinfo="skip",
        name=_("training points at t = 0 or 1"),
    )


def _display_changed() -> None:
    visitor()["panel_options"][DISPLAY_KEY] = visitor()[DISPLAY_KEY]


def _two_class_estimator(model: Classifier) -> Classifier:
    """The two-class estimator behind a basis or a strategy of two classes (itself otherwise)."""
    inner = features_estimator(model)
    estimators = inner.__dict__.get("estimators_", ())
    return estimators[0] if len(estimators) == 1 else inner


def _describe_own_link(model: Classifier, display: str) -> str | None:
    """The wording for probit regression and the Bayesian predictive, whose p(C1|x) is not the
    sigmoid of a log ratio of class densities; None for the other models."""
    inner = _two_class_estimator(model)
    if np.asarray(model.classes_).size != 2 or not isinstance(inner, ProbitRegression | BayesianLogisticRegression):
        return None
    first, second = map(plain, book_roles(model))
    c1 = class_symbol(model.classes_[0])
    probit = isinstance(inner, ProbitRegression)
    if display == "regions":
        if probit:
            return _(
                "The canvas shows the decision regions. Hover anywhere to read p({c1}|x) = Φ(wᵀφ) (eq. 4.114), "
                "Φ the standard normal's distribution function."
            ).format(c1=c1)
        return _(
            "The canvas shows the decision regions. Hover anywhere to read the predictive distribution "
            "p({c1}|x) ≈ σ(κ(σₐ²) μₐ) (eq. 4.155): the sigmoid averaged over the Laplace posterior of the "
            "weights, so it relaxes towards 0.5 where σₐ² = φᵀS_Nφ is large, away from the data; the MAP sigmoid "
            "σ(μₐ) would not (compare them in the *Predictive vs MAP* tab)."
        ).format(c1=c1)
    if probit:
        colour = _(
            "Colour = p({c1}|x) = Φ(wᵀφ) (eq. 4.114), Φ the standard normal's distribution function: {first}'s "
            "colour near 1, white at 0.5, {second}'s colour near 0; dotted contours at 0.1, 0.5 and 0.9."
        )
    else:
        colour = _(
            "Colour = the predictive distribution p({c1}|x) ≈ σ(κ(σₐ²) μₐ) (eq. 4.155): the sigmoid averaged "
            "over the Laplace posterior of the weights, so it relaxes towards 0.5 where σₐ² = φᵀS_Nφ is large, "
            "away from the data; the MAP sigmoid σ(μₐ) would not (compare them in the *Predictive vs MAP* tab): "
            "{first}'s colour near 1, white at 0.5, {second}'s colour near 0; dotted contours at 0.1, 0.5 and 0.9."
        )
    return join_sentences(
        colour.format(c1=c1, first=first, second=second),
        _(
            "The 0.5 contour is the decision boundary; how far apart the 0.1 and 0.9 contours lie shows how "
            "sure the model is."
        ),
    )


def _describe(model: Classifier, display: str) -> str:
    own = _describe_own_link(model, display)
    if own is not None:
        return own
    classes = np.asarray(model.classes_)
    names = [class_symbol(c) for c in classes]
    if display == "regions":
        return _(
            "The canvas shows the decision regions. Hover anywhere on the plane to read the activations "
            "aₖ(x) and the posteriors p(Cₖ|x) = exp(aₖ) / Σⱼ exp(aⱼ) (eq. 4.62)."
        )
    if classes.size == 2:
        first, second = map(plain, book_roles(model))
        return _(
            "Colour = p({c1}|x) = σ(a) (eq. 4.57), a = ln p(x|{c1})p({c1}) / p(x|{c2})p({c2}): {first}'s colour "
            "where it is near 1, white at 0.5, {second}'s colour near 0; dotted contours at 0.1, 0.5 and 0.9. "
            "The 0.5 contour (a = 0) is the decision boundary; how far apart the 0.1 and 0.9 contours lie shows "
            "how sure the model is."
        ).format(c1=names[0], c2=names[1], first=first, second=second)
    return _(
        "Each pixel's colour is the class colours mixed in proportion to the posteriors p(Cₖ|x), as in "
        "figure 4.11 (right): pure colours where one class is certain, blends near the boundaries."
    )


def render(ctx: PanelContext) -> None:
    model = ctx.shown_model
    if model is None:  # None only when the fit failed (PanelContext), when no panel is drawn
        return
    options = ctx.options
    visitor()[DISPLAY_KEY] = display_choice(options)
    st.radio(
        _("Canvas shows"),
        list(DISPLAYS),
        format_func=lambda display: _(DISPLAYS[display]),
        key=DISPLAY_KEY,
        horizontal=True,
        on_change=_display_changed,
    )
    st.caption(_describe(model, display_choice(options)))
    classes = np.asarray(model.classes_)
    position = 0
    if classes.size > 2:
        labels = {i: f"p({class_symbol(c)}|x)" for i, c in enumerate(classes)}
        if visitor().get(SURFACE_CLASS_KEY, 0) not in labels:
            visitor()[SURFACE_CLASS_KEY] = 0
        position = st.radio(
            _("Surface of"), list(labels), format_func=labels.get, key=SURFACE_CLASS_KEY, horizontal=True
        )
    position = int(min(position, classes.size - 1))
    chart(surface_figure(model, ctx.window, position, points=ctx.scene.points), key="posterior_surface")
    st.caption(
        _(
            "The surface rises from 0 to 1 across the boundary; the training points sit at their targets "
            "(height 1 for the class shown, 0 for the others). Drag to turn it."
        )
    )


PANELS = [
    Panel(
        title=N_("Posterior p(Cₖ|x)"),
        applies=lambda ctx: is_probabilistic(ctx.model),
        render=render,
        overlay=overlay,
        order=75,  # after the geometry panel (70): this hover read-out must be the topmost
        help=(
            N_(
                "A probabilistic model gives more than a boundary: the posterior p(Cₖ|x) is a logistic sigmoid "
                "(eq. 4.57) or a softmax (eq. 4.62) of the activations aₖ(x); compare figures 4.10 and 4.11."
            )
        ),
    )
]
