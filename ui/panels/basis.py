"""Fixed basis functions (PRML section 4.3.1, figure 4.12): the data in feature space.

The overlay draws the Gaussian RBF centres on the plane with a circle of radius s around each
(for centres placed by hand the markers carry meta="centres" and their index, so a click removes
one). The panel shows, as figure 4.12 does, the data in the plane of two chosen basis functions
phi_i, phi_j, where the model's boundary is the straight line of ``BasisModel.feature_line``
(exact when there are only two features; otherwise a slice with the other features at their
training means), beside the curved boundary it makes in x.
"""

from collections.abc import Iterable

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from numpy.typing import ArrayLike
from plotly.basedatatypes import BaseTraceType

from playground import PlaygroundError, Window, boundary_segments, evaluate_grid
from playground.basis import BasisModel, FeatureLine, RBFBasis
from playground.validation import FloatArray, IndexArray, LabelArray
from ui.base.visitor import visitor
from ui.plot.chart import chart
from ui.plot.figures import region_trace
from ui.plot.theme import BOUNDARY_COLOUR, CLASS_COLOURS, CLASS_SYMBOLS, MARKER_OUTLINE, TEMPLATE
from ui.text.i18n import N_, _
from ui.text.names import N_CLASSES, class_name_html, class_name_markdown, phrased

from . import Panel, PanelContext, join_sentences

CENTRE_COLOUR = "#5B2C6F"
CHOSEN_COLOUR = "#C0392B"
CIRCLE_SIDES = 40
SMALL_RESOLUTION = 120
SUPERSCRIPTS = {"^2": "²", "^3": "³", "^4": "⁴", "^5": "⁵", "^6": "⁶"}


def basis_model(model: object) -> BasisModel | None:
    return model if isinstance(model, BasisModel) and hasattr(model, "basis_") else None


def rbf_basis(model: object) -> RBFBasis | None:
    """The fitted RBFBasis of a model on Gaussian basis functions, or None."""
    model = basis_model(model)
    return model.basis_ if model is not None and isinstance(model.basis_, RBFBasis) else None


def circle_path(
    centres: ArrayLike, radius: float, sides: int = CIRCLE_SIDES
) -> tuple[list[float | None], list[float | None]]:
    """x, y lists tracing a circle of ``radius`` around every centre, None between circles."""
    angles = np.linspace(0.0, 2.0 * np.pi, sides + 1)
    xs, ys = [], []
    for cx, cy in np.asarray(centres, dtype=float):
        xs += (cx + radius * np.cos(angles)).round(6).tolist() + [None]
        ys += (cy + radius * np.sin(angles)).round(6).tolist() + [None]
    return xs, ys


def centre_traces(basis: RBFBasis, *, editable: bool) -> list[BaseTraceType]:
    """The RBF centres c_j and circles of radius s; editable centres carry meta="centres"."""
    centres = np.asarray(basis.centres_, dtype=float)
    xs, ys = circle_path(centres, float(basis.width))
    circles = go.Scatter(
        x=xs,
        y=ys,
        mode="lines",
        line=dict(color=CENTRE_COLOUR, width=1, dash="dot"),
        hoverinfo="skip",
        name=_("radius s around each centre"),
        showlegend=False,
    )
    hint = "<br>" + _("click to remove") if editable else ""
    markers = go.Scatter(
        x=centres[:, 0],
        y=centres[:, 1],
        customdata=np.arange(centres.shape[0]),
        mode="markers",
        marker=dict(symbol="cross-thin-open", size=15, color=CENTRE_COLOUR, line=dict(width=3, color=CENTRE_COLOUR)),
        name=_("RBF centres cⱼ (radius s dotted)"),
        meta="centres" if editable else "rbf_centres",
        hovertemplate=_("RBF centre (%{x:.3g}, %{y:.3g})") + hint + "<extra></extra>",
    )
    return [circles, markers]


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    basis = rbf_basis(ctx.model)
    if basis is None:
        return []
    return centre_traces(basis, editable=basis._placement() == "given")


def pretty_name(model: BasisModel, index: int) -> str:
    """A readable label for feature ``index``: 'φ3: Gaussian at (0.5, -1)' or 'x₁ x₂²'."""
    names = model.feature_names()
    basis = model.basis_
    if isinstance(basis, RBFBasis):
        offset = model.n_features_in_ if basis.include_input else 0
        if index >= offset:
            j = index - offset
            cx, cy = basis.centres_[j][:2]
            return _("φ{index}: Gaussian at ({x}, {y})").format(index=j + 1, x=f"{cx:.2g}", y=f"{cy:.2g}")
    name = names[index]
    for power, glyph in SUPERSCRIPTS.items():
        name = name.replace(power, glyph)
    return name.replace("x1", "x₁").replace("x2", "x₂")


CANDIDATE_FEATURES = 16  # the default pair is sought among this many of the most telling features


def _feature_scores(model, features):
    """How much each feature tells about the classes on the training points: its spread over the
    points times the spread of its weights across the classes (|w_j| for two classes); the spread
    alone for a method that is not linear in the features."""
    spread = features.std(axis=0)
    coef = getattr(model.estimator_, "coef_", None)
    if coef is None or np.shape(coef)[-1] != features.shape[1]:
        return spread
    coef = np.atleast_2d(np.asarray(coef, dtype=float))
    weight = np.abs(coef[0]) if coef.shape[0] == 1 else np.ptp(coef, axis=0)
    return spread * weight


def default_pair(model: BasisModel, X: FloatArray | None = None) -> tuple[int, int]:
    """The two features whose plane shows the data best.

    Among the features that vary most on the points ``X`` and weigh most in the model, the pair
    whose straight line (a slice, other features at their means) agrees with the model's own
    predictions on the most points; ties go to the larger scores. Without ``X``: the two features
    with the largest |weight| (two classes), else the first two.
    """
    inner = model.estimator_
    coef = getattr(inner, "coef_", None)
    if X is None or len(X) == 0:
        if coef is not None and np.shape(coef)[0] == 1 and np.size(coef) >= 2:
            order = np.argsort(-np.abs(np.ravel(coef)), kind="stable")
            first, second = sorted(int(k) for k in order[:2])
            return first, second
        return 0, 1
    features = model.features(X)
    spread = features.std(axis=0)
    scores = _feature_scores(model, features)
    candidates = [int(k) for k in np.argsort(-scores, kind="stable")[:CANDIDATE_FEATURES]]
    predicted = np.searchsorted(model.classes_, model.predict(X))
    first, second = sorted(candidates[:2])  # two features at least: the panel draws none with one
    best: tuple[int, int] = (first, second)
    best_key = None
    for a in range(len(candidates)):
        for b in range(a + 1, len(candidates)):
            i, j = sorted((candidates[a], candidates[b]))
            try:
                line = model.feature_line(i, j)
                agree = float(np.mean(line_side(line, features[:, [i, j]]) == predicted))
            except PlaygroundError:
                agree = 0.0  # no line in this plane (a method not linear in phi): the spread decides
            # Agreement first, in steps of 5% so that near-ties go to the plane where the points
            # spread out most (Gaussian features far from the data are ~0 for every point).
            key = (np.floor(agree * 20 + 1e-9) / 20, float(spread[i] + spread[j]), float(scores[i] + scores[j]))
            if best_key is None or key > best_key:
                best, best_key = (i, j), key
    return best


def feature_space(
    model: BasisModel, X: FloatArray, i: int, j: int
) -> tuple[FloatArray, Window, FeatureLine | None, str | None]:
    """Features i, j of the points, the model's line there (or None and why) and its window."""
    features = model.features(X)[:, [i, j]]
    window = Window.around(features, margin=0.12, minimum_size=0.2)
    try:
        line = model.feature_line(i, j)
    except PlaygroundError as err:
        return features, window, None, phrased(err, name=class_name_markdown)  # shown as Markdown
    return features, window, line, None


def line_side(line: FeatureLine, features: FloatArray) -> IndexArray:
    """Class index (into ``classes_``) each feature point gets from the line: argmax / sign."""
    scores = features @ line["coef"].T + line["intercept"]
    if scores.shape[1] == 1:
        return (scores[:, 0] > 0).astype(int)
    return np.argmax(scores, axis=1)


def _point_scatter(xy, y, *, size=8):
    traces = []
    for k in range(N_CLASSES):
        members = np.flatnonzero(y == k)
        if members.size:
            traces.append(
                go.Scatter(
                    x=xy[members, 0],
                    y=xy[members, 1],
                    mode="markers",
                    marker=dict(
                        color=CLASS_COLOURS[k],
                        symbol=CLASS_SYMBOLS[k],
                        size=size,
                        line=dict(color=MARKER_OUTLINE, width=1),
                    ),
                    name=class_name_html(k),
                    hoverinfo="skip",
                )
            )
    return traces


def feature_space_figure(model: BasisModel, X: FloatArray, y: LabelArray, i: int, j: int) -> go.Figure:
    features, window, line, _error = feature_space(model, X, i, j)
    traces = []
    if line is not None:
        for _unused, _unused, start, end in boundary_segments(line["coef"], line["intercept"], window):
            traces.append(
                go.Scatter(
                    x=[float(start[0]), float(end[0])],
                    y=[float(start[1]), float(end[1])],
                    mode="lines",
                    line=dict(color=BOUNDARY_COLOUR, width=2.5, dash=None if line["exact"] else "dash"),
                    hoverinfo="skip",
                    name=_("boundary (a straight line)") if line["exact"] else _("boundary slice"),
                    showlegend=False,
                )
            )
    traces += _point_scatter(features, y)
    return go.Figure(
        data=traces,
        layout=dict(
            template=TEMPLATE,
            title=dict(text=_("feature space (φ-space)"), font=dict(size=14)),
            height=380,
            margin=dict(l=50, r=10, t=40, b=45),
            xaxis=dict(range=[window.x_min, window.x_max], title=pretty_name(model, i)),
            yaxis=dict(range=[window.y_min, window.y_max], title=pretty_name(model, j)),
            showlegend=False,
        ),
    )


def covering_window(window: Window, widest: float = 1.7, tallest: float = 1 / 0.8) -> Window:
    """The view widened so that it covers whatever plotly shows of it at any plot shape from
    width / height = 0.8 to 1.7: under the equal-aspect lock plotly extends one axis's range to fill
    the plot, and the regions must reach the edges instead of leaving white bands."""
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    cx, cy = (window.x_min + window.x_max) / 2, (window.y_min + window.y_max) / 2
    width, height = max(width, height * widest), max(height, width * tallest)
    return Window(cx - width / 2, cx + width / 2, cy - height / 2, cy + height / 2)


def input_space_figure(
    model: BasisModel, X: FloatArray, y: LabelArray, window: Window, chosen: Iterable[int]
) -> go.Figure:
    """A small copy of the plane: regions, the curved boundary, the chosen Gaussians' centres."""
    cover = covering_window(window)
    grid = evaluate_grid(model, cover, SMALL_RESOLUTION)
    classes = np.asarray(model.classes_, dtype=int)
    traces = [region_trace(classes[grid.labels].astype(np.uint8), cover)]
    if grid.decision.ndim == 2:
        traces.append(
            go.Contour(
                z=grid.decision.astype(np.float32),
                x0=float(grid.x[0]),
                dx=float(grid.x[1] - grid.x[0]),
                y0=float(grid.y[0]),
                dy=float(grid.y[1] - grid.y[0]),
                contours=dict(start=0, end=0, size=1, coloring="none"),
                line=dict(color=BOUNDARY_COLOUR, width=2.5),
                showscale=False,
                hoverinfo="skip",
            )
        )
    traces += _point_scatter(X, y, size=7)
    basis = model.basis_
    if isinstance(basis, RBFBasis):
        offset = model.n_features_in_ if basis.include_input else 0
        picked = [k - offset for k in chosen if k >= offset]
        if picked:
            centres = basis.centres_[picked]
            xs, ys = circle_path(centres, float(basis.width))
            traces.append(
                go.Scatter(x=xs, y=ys, mode="lines", line=dict(color=CHOSEN_COLOUR, width=1.5), hoverinfo="skip")
            )
            traces.append(
                go.Scatter(
                    x=centres[:, 0],
                    y=centres[:, 1],
                    mode="markers+text",
                    marker=dict(symbol="cross-thin-open", size=14, line=dict(width=3, color=CHOSEN_COLOUR)),
                    text=[f"φ{k + 1}" for k in picked],
                    textposition="top right",
                    textfont=dict(color=CHOSEN_COLOUR, size=14),
                    hoverinfo="skip",
                )
            )
    return go.Figure(
        data=traces,
        layout=dict(
            template=TEMPLATE,
            title=dict(text=_("input space (x)"), font=dict(size=14)),
            height=380,
            margin=dict(l=40, r=10, t=40, b=45),
            xaxis=dict(range=[window.x_min, window.x_max], title="x₁"),
            yaxis=dict(range=[window.y_min, window.y_max], title="x₂", scaleanchor="x", scaleratio=1),
            showlegend=False,
        ),
    )


def _choose_features(model, X):
    """Two selectboxes over the features; returns (i, j)."""
    n_features = len(model.feature_names())
    signature = (type(model.basis_).__name__, n_features, tuple(model.feature_names()))
    if visitor().get("fs_signature") != signature:
        visitor()["fs_signature"] = signature
        visitor()["fs_i"], visitor()["fs_j"] = default_pair(model, X)
    options = list(range(n_features))
    left, right = st.columns(2)
    i = left.selectbox(_("Horizontal axis"), options, format_func=lambda k: pretty_name(model, k), key="fs_i")
    j = right.selectbox(_("Vertical axis"), options, format_func=lambda k: pretty_name(model, k), key="fs_j")
    return i, j


def _explanation(model, line, error, features, predicted, i, j):
    n_features = len(model.feature_names())
    if error:
        return _("No straight line to draw here: {reason}").format(reason=error)
    first, second = pretty_name(model, i), pretty_name(model, j)
    agree = float(np.mean(line_side(line, features) == np.searchsorted(model.classes_, predicted)))
    sentences = [
        _(
            "On the canvas the boundary is **curved** in x. The method itself is linear: it only ever sees "
            "φ(x) (here M = {m} features) and draws a hyperplane wᵀφ + w₀ = 0 there (section 4.3.1)."
        ).format(m=n_features)
    ]
    if line["exact"]:
        sentences.append(
            _(
                "With exactly two basis functions, {first} and {second}, φ-space is this plane and the boundary is "
                "**exactly** the straight line on the right: every point on its side is classified as the model "
                "classifies it."
            ).format(first=first, second=second)
        )
    else:
        sentences.append(
            _(
                "With M = {m} features this plane of {first} and {second} is a **slice**: the dashed line is the "
                "boundary with the other features held at their training means, so it agrees with the model on "
                "{agree} of the points. Pick the two features with the largest weights to see the most of it."
            ).format(m=n_features, first=first, second=second, agree=f"{agree:.0%}")
        )
    if isinstance(model.basis_, RBFBasis):
        sentences.append(
            _(
                "A Gaussian feature is near 1 close to its centre (red ✚ on the left) and near 0 far from it, "
                "so points that curl around each other in x can fall on either side of a line in φ."
            )
        )
    return join_sentences(*sentences)


def render(ctx: PanelContext) -> None:
    model = basis_model(ctx.model)
    if model is None:  # the panel applies to a model on a basis only
        return
    X, y = ctx.scene.points.X, ctx.scene.points.y
    n_features = len(model.feature_names())
    if n_features < 2:
        st.info(_("This basis gives only one feature: add centres (or keep x) to see a plane of two features."))
        return
    i, j = _choose_features(model, X)
    if i == j:
        st.warning(_("Choose two different basis functions."))
        return
    features, _unused, line, error = feature_space(model, X, i, j)
    left, right = st.columns(2)
    chart(input_space_figure(model, X, y, ctx.window, (i, j)), key="fs_input", where=left)
    chart(feature_space_figure(model, X, y, i, j), key="fs_feature", where=right)
    st.markdown(_explanation(model, line, error, features, model.predict(X), i, j))


PANELS = [
    Panel(
        title=N_("Feature space φ (fig. 4.12)"),
        applies=lambda ctx: basis_model(ctx.model) is not None,
        render=render,
        overlay=overlay,
        order=5,
        help=(
            N_(
                "Figure 4.12: fixed nonlinear basis functions φ(x) turn a curved boundary in x into a straight line "
                "(a hyperplane) in feature space; pick two features to look at the data there."
            )
        ),
    )
]
