"""Least squares for classification (PRML 4.1.3): the fitted outputs and why they are fragile.

The outputs y_k(x) = w_k^T x + w_k0 are planes over the input plane, so they leave [0, 1]:
they are not probabilities. Two buttons rebuild the book's demonstrations: far-away points of
the correct class drag the boundary (figure 4.4), and three aligned classes mask the middle one
(figure 4.5). Both go through ``state.change_points``, so undo brings the old points back.
With the targets of section 4.1.5 the single output is shown in the book's convention
(``ui.text.convention``): t = N/N1 for C1, the first class present, and -N/N2 for C2, so y(x) >= 0 is C1.
"""

from collections.abc import Callable
from typing import Any, Final

import numpy as np
import streamlit as st
from numpy.typing import NDArray

from playground import ClusterSpec, PlaygroundError, make_clusters, make_model
from playground.base import Classifier
from playground.grid import Window, grid_axes
from playground.least_squares import LeastSquaresClassifier
from playground.scene import PointSet
from playground.validation import FloatArray, LabelArray
from ui.base.visitor import visitor
from ui.plot.chart import chart
from ui.plot.theme import CLASS_COLOURS, CLASS_SYMBOLS, MARKER_OUTLINE, TEMPLATE_JSON
from ui.session import state
from ui.text.convention import book_classes, book_least_squares_outputs, book_roles, fisher_target_values
from ui.text.i18n import N_, _, ngettext
from ui.text.markdown import plain
from ui.text.names import class_name, class_name_format, class_name_html, class_name_markdown

from . import (
    SURFACE_MARGIN,
    Panel,
    PanelContext,
    figures_row,
    join_sentences,
    live_section,
    number_text,
    subscript,
    surface_scene,
)

# Cells per side of the outputs' grid: the heatmap interpolates between cell centres (zsmooth), exactly
# for the planes of a linear model, so 40 x 40 draws what 80 x 80 cells did, at a quarter of the data
# sent after every click.
SURFACE_RESOLUTION = 40
N_FAR_POINTS = 15
OUTPUT_KEY: Final = "ls_surface_output"  # the pickers' keys
KIND_KEY: Final = "ls_surface_kind"
SURFACE_KINDS = {"heatmap": N_("map"), "3d": N_("3-D surface")}  # how the output is drawn
# Figure 4.5: three classes along a line; the middle one gets (almost) no region.
ALIGNED_CLUSTERS = (
    ClusterSpec((-3.0, -3.0), (0.7, 0.7), 0.0),
    ClusterSpec((0.0, 0.0), (0.7, 0.7), 0.0),
    ClusterSpec((3.0, 3.0), (0.7, 0.7), 0.0),
)


def least_squares_model(model: object) -> LeastSquaresClassifier | None:
    return model if isinstance(model, LeastSquaresClassifier) else None


def has_fisher_targets(model: LeastSquaresClassifier) -> bool:
    """True for the single output of section 4.1.5's targets N/N1, -N/N2 (two classes)."""
    return model.weights_.shape[1] == 1


def output_symbol(model: LeastSquaresClassifier, k: int) -> str:
    """The symbol of the book's output ``k``: y(x) for section 4.1.5's targets, else y_k(x)."""
    if has_fisher_targets(model):
        return "y(x)"
    return f"y{subscript(int(model.classes_[k]) + 1)}(x)"


def output_names(model: LeastSquaresClassifier, markdown: bool = False) -> list[str]:
    """One name per column of the book's outputs (``book_least_squares_outputs``); ``markdown``: the
    classes' names escaped for a widget whose options render Markdown."""
    name = class_name_markdown if markdown else class_name
    if has_fisher_targets(model):
        first, second = map(name, book_classes(model))
        return [_("y(x) with targets N/N₁ for {first}, −N/N₂ for {second}").format(first=first, second=second)]
    return [_("y{index}(x) for {name}").format(index=subscript(int(c) + 1), name=name(int(c))) for c in model.classes_]


def output_grid(
    model: LeastSquaresClassifier, window: Window, resolution: int = SURFACE_RESOLUTION
) -> tuple[FloatArray, FloatArray, NDArray[np.float32]]:
    """(xs, ys, Y) with Y (resolution, resolution, K) float32: the book's y_k at the cell centres."""
    xs, ys = grid_axes(window, resolution)
    gx, gy = np.meshgrid(xs, ys)
    Y = book_least_squares_outputs(model, np.column_stack([gx.ravel(), gy.ravel()]))
    return xs, ys, Y.reshape(resolution, resolution, -1).astype(np.float32)


def outside_colourscale(zmin: float, zmax: float) -> list[list[float | str]]:
    """White -> blue inside [0, 1]; reds below 0 and purples above 1, with a jump at 0 and at 1."""
    span = zmax - zmin
    p0, p1 = (0.0 - zmin) / span, (1.0 - zmin) / span
    return [
        [0.0, "#7B241C"],
        [p0, "#F1948A"],
        [p0, "#FBFCFC"],
        [p1, "#1F618D"],
        [p1, "#D2B4DE"],
        [1.0, "#4A235A"],
    ]


def sign_colourscale(model: LeastSquaresClassifier, zmin: float, zmax: float) -> list[list[float | str]]:
    """Section 4.1.5's output: C2's colour below 0, white at 0, C1's colour above (y >= 0 is C1)."""
    first, second = book_classes(model)
    zero = (0.0 - zmin) / (zmax - zmin)
    return [[0.0, CLASS_COLOURS[second]], [zero, "#FFFFFF"], [1.0, CLASS_COLOURS[first]]]


def _surface_style(model, z, points):
    """(zmin, zmax, colourscale, colourbar, levels drawn) for the book's output z.

    1-of-K outputs: the slab [0, 1] (levels 0 and 1). Section 4.1.5's output: its zero level (the
    boundary) and the two targets N/N1 and -N/N2.
    """
    if has_fisher_targets(model):
        high, low = fisher_target_values(model, points.y)
        zmin, zmax = min(float(z.min()), 1.25 * low), max(float(z.max()), 1.25 * high)
        ticks = [low, 0.0, high]
        colourbar = dict(title=dict(text="y(x)"), tickvals=ticks, ticktext=[number_text(t, 3) for t in ticks], len=0.8)
        first, second = book_classes(model)
        levels = ((low, CLASS_COLOURS[second]), (0.0, "#222222"), (high, CLASS_COLOURS[first]))
        return zmin, zmax, sign_colourscale(model, zmin, zmax), colourbar, levels
    zmin, zmax = min(float(z.min()), -0.25), max(float(z.max()), 1.25)
    colourbar = dict(title=dict(text="y(x)"), tickvals=[0, 1], ticktext=["0", "1"], len=0.8)
    return zmin, zmax, outside_colourscale(zmin, zmax), colourbar, ((0.0, "#C0392B"), (1.0, "#6C3483"))


def surface_figure(
    model: LeastSquaresClassifier,
    points: PointSet,
    window: Window,
    k: int,
    kind: str = "heatmap",
    grid: tuple[FloatArray, FloatArray, NDArray[np.float32]] | None = None,
) -> dict[str, Any]:
    """y_k(x) over the view: a heatmap with its level contours, or a 3-D plane with its levels as
    translucent planes (the slab [0, 1]; for section 4.1.5's output 0 and the two targets).

    A dict {"data", "layout"} in plotly.js's schema: it is rebuilt after every click, and
    ``plotly.graph_objects`` would validate every property each time (most of this panel's cost);
    the tests validate it once instead. ``grid``: the heatmap's ``output_grid`` if already computed.
    """
    if kind == "3d" or grid is None:
        grid = output_grid(model, window, SURFACE_RESOLUTION if kind == "heatmap" else 25)
    xs, ys, Y = grid
    z = Y[..., k]
    zmin, zmax, scale, colourbar, levels = _surface_style(model, z, points)
    if kind == "3d":
        return _surface_3d(xs, ys, z, (zmin, zmax), scale, levels, window)
    dx, dy = xs[1] - xs[0], ys[1] - ys[0]
    # The heatmap's values and placement, which its level contours share.
    placement: dict[str, Any] = dict(z=z, x0=float(xs[0]), dx=float(dx), y0=float(ys[0]), dy=float(dy))
    heatmap = dict(
        type="heatmap",
        **placement,
        colorscale=scale,
        zmin=zmin,
        zmax=zmax,
        zsmooth="best",
        colorbar=colourbar,
        hovertemplate="x = (%{x:.2f}, %{y:.2f})<br>y(x) = %{z:.3g}<extra></extra>",
    )
    return dict(
        data=[heatmap, *_level_contours(placement, levels), *_class_markers(points)],
        layout=dict(
            template=TEMPLATE_JSON,
            height=420,
            margin=dict(l=10, r=10, t=10, b=30),
            xaxis=dict(range=[window.x_min, window.x_max], constrain="domain"),
            yaxis=dict(range=[window.y_min, window.y_max], scaleanchor="x", scaleratio=1),
            showlegend=False,
        ),
    )


def _surface_3d(xs, ys, z, z_range, scale, levels, window):
    """The plane y_k(x) in 3-D, its levels as translucent planes."""
    zmin, zmax = z_range
    # No colour bar: the z axis gives the values, and the scene needs the width (at 800 px its
    # axis title was cut off).
    traces = [
        dict(type="surface", x=xs, y=ys, z=z, colorscale=scale, cmin=zmin, cmax=zmax, showscale=False, name="y(x)")
    ]
    for level, colour in levels:
        traces.append(
            dict(
                type="surface",
                x=xs[[0, -1]],
                y=ys[[0, -1]],
                z=np.full((2, 2), level),
                showscale=False,
                opacity=0.25,
                colorscale=[[0, colour], [1, colour]],
                hoverinfo="skip",
                name=f"y = {level:.3g}",
            )
        )
    return dict(
        data=traces,
        layout=dict(
            template=TEMPLATE_JSON,
            height=460,
            margin=SURFACE_MARGIN,
            scene=surface_scene(window, dict(title=dict(text="y(x)"), range=[zmin, zmax])),
        ),
    )


def _level_contours(grid, levels):
    """The heatmap's level lines, dashed and labelled."""
    values = sorted(level for level, _unused in levels)
    # One contour trace per run of equally spaced levels with one style: each trace carries the
    # whole grid again (80 x 80 float32 on every click), so the 1-of-K slab's two levels 0 and 1
    # are one trace; section 4.1.5's three levels (N/N1, 0, -N/N2) are not equally spaced and its
    # level 0 is drawn heavier.
    runs = [(values[0], values[-1])] if len(values) == 2 else [(level, level) for level in values]
    return [
        dict(
            type="contour",
            **grid,
            contours=dict(
                start=start,
                end=end,
                size=(end - start) or 1,
                coloring="none",
                showlabels=True,
                labelfont=dict(size=12),
            ),
            line=dict(color="#222222", width=2 if start == end == 0 and len(values) == 3 else 1.5, dash="dash"),
            showscale=False,
            hoverinfo="skip",
        )
        for start, end in runs
    ]


def _class_markers(points):
    """The training points over the heatmap, small, one trace per class."""
    X, y = points.X, points.y
    traces = []
    for label in np.unique(y):
        members = y == label
        traces.append(
            dict(
                type="scatter",
                x=X[members, 0].astype(np.float32),
                y=X[members, 1].astype(np.float32),
                mode="markers",
                marker=dict(
                    color=CLASS_COLOURS[int(label)],
                    symbol=CLASS_SYMBOLS[int(label)],
                    size=6,
                    line=dict(color=MARKER_OUTLINE, width=0.5),
                ),
                name=class_name_html(int(label)),
                hoverinfo="skip",
            )
        )
    return traces


def far_points(
    X: FloatArray,
    y: LabelArray,
    label: int,
    fit: Callable[[FloatArray, LabelArray], Classifier],
    *,
    n: int = N_FAR_POINTS,
    seed: int = 0,
) -> FloatArray:
    """A tight group of ``n`` points of class ``label``, far on its own side (figure 4.4).

    The group sits 2.5 times the distance between the class's mean and the others' mean beyond
    the class's mean, at the angle (within +-75 degrees of that direction) that makes the refitted
    model ``fit(X, y)`` misclassify most of the original points, among the angles where the
    current fit already puts every new point in ``label``: these points are correctly classified
    and far away, and still they drag the least-squares boundary.
    """
    base = fit(X, y)
    own, others = X[y == label], X[y != label]
    difference = own.mean(axis=0) - others.mean(axis=0)
    distance = float(np.linalg.norm(difference)) or 1.0
    along = difference / distance
    across = np.array([-along[1], along[0]])
    spread = float(np.mean(own.std(axis=0))) if len(own) > 1 else 0.1 * distance
    noise = np.random.default_rng(seed).normal(scale=0.4 * max(spread, 1e-3 * distance), size=(n, 2))
    best, best_key = None, None
    for angle in np.deg2rad(np.arange(-75, 76, 15)):
        group = own.mean(axis=0) + 2.5 * distance * (np.cos(angle) * along + np.sin(angle) * across) + noise
        if not np.all(base.predict(group) == label):
            continue
        errors = int(
            np.count_nonzero(fit(np.vstack([X, group]), np.concatenate([y, np.full(n, label)])).predict(X) != y)
        )
        key = (errors, -abs(angle))
        if best_key is None or key > best_key:
            best, best_key = group, key
    if best is None:
        best = own.mean(axis=0) + 2.5 * distance * along + noise
    return best


def aligned_points(n_per_class: int = 30, seed: int = 3) -> PointSet:
    """Figure 4.5's three classes along a diagonal line."""
    X, y = make_clusters(ALIGNED_CLUSTERS, n_per_class, seed=seed)
    return PointSet.from_arrays(X, y)


def _add_far_points(label):
    scene = state.scene()
    points = scene.points
    training = points.training  # test points take part in no fit
    X, y = training.X, training.y

    def fit(X_: FloatArray, y_: LabelArray) -> Classifier:
        return make_model(scene.method, multiclass=scene.multiclass, **scene.param_dict).fit(X_, y_)

    try:
        before = int(np.count_nonzero(fit(X, y).predict(X) != y))
        far = far_points(X, y, label, fit)
        group = PointSet.from_arrays(far, np.full(len(far), label))
        new_points = points.extended(group)
        grown = training.extended(group)
        after = int(np.count_nonzero(fit(grown.X, grown.y).predict(X) != y))
    except PlaygroundError as err:
        state.notify(err.message)  # phrased in the session's language where it is shown
        return
    state.change_points(new_points, refit_view=True)
    state.notify(
        ngettext(
            "Added {n} point of {name} far on its own side: of the original points, least squares now "
            "misclassifies {after} (before: {before}). Undo (↶) to compare.",
            "Added {n} points of {name} far on their own side: of the original points, least squares now "
            "misclassifies {after} (before: {before}). Undo (↶) to compare.",
            len(group),
        ).format(n=len(group), name=class_name(label), after=after, before=before)
    )


def _load_aligned():
    state.change_points(aligned_points(), refit_view=True)
    state.notify(_("Loaded three classes along a line (figure 4.5); undo (↶) brings your points back."))


def _applies(ctx):
    return least_squares_model(ctx.model) is not None


def render(ctx: PanelContext) -> None:
    model = least_squares_model(ctx.model)
    if model is None:  # the panel applies only to a least-squares fit (_applies)
        return
    names = output_names(model, markdown=True)  # segmented control options render Markdown
    # Segmented controls, not a select box and radio buttons: Streamlit's select box and radio copy
    # the whole session state on every run, and this panel reruns after every
    # click while it is open (it is the default scene's panel).
    row = st.container(horizontal=True, gap="medium")
    if len(names) > 1:
        with row:
            st.segmented_control(
                _("Output"),
                range(len(names)),
                default=0,
                required=True,
                format_func=names.__getitem__,
                key=OUTPUT_KEY,
            )
    with row:
        st.segmented_control(
            _("Show as"),
            list(SURFACE_KINDS),
            default="heatmap",
            required=True,
            format_func=lambda kind: _(SURFACE_KINDS[kind]),
            key=KIND_KEY,
        )
    # The pickers above and the demonstrations below stay as they are when a click moves the
    # boundary: only the outputs follow it.
    live_section(ctx, _outputs)
    if not has_fisher_targets(model):  # what 1-of-K outputs are does not change with a click
        fits = _(
            "Least squares fits $y_k(\\mathbf{x}) = \\mathbf{w}_k^T\\mathbf{x} + w_{k0}$ to the targets (eq. 4.16), so "
            "each output is a tilted plane: it drops below 0 (red) and rises above 1 (purple) away from the data."
        )
        not_probabilities = (
            _(
                "Yet **they are not probabilities**: they leave [0, 1], and the squared error they minimise is the "
                "right loss for Gaussian targets, not for class labels (section 4.1.3)."
            )
            if len(names) == 1
            else _(
                "With 1-of-K targets they even sum to 1 at every x (exercise 4.2), yet **they are not "
                "probabilities**: they leave [0, 1], and the squared error they minimise is the right loss for "
                "Gaussian targets, not for class labels (section 4.1.3)."
            )
        )
        st.markdown(join_sentences(fits, not_probabilities))
    _demonstrations(ctx)


def _outputs(ctx):
    """The chosen output over the view, its range and what it says: what a click changes."""
    model = least_squares_model(ctx.model)
    if model is None:  # the method changed meanwhile: the whole page is about to run again
        return
    points = ctx.scene.points
    at_points = book_least_squares_outputs(model, points.X)  # (N, number of outputs)
    n_outputs = at_points.shape[1]
    k = visitor().get(OUTPUT_KEY) if n_outputs > 1 else 0
    k = min(int(k if k is not None else 0), n_outputs - 1)
    kind = visitor().get(KIND_KEY)
    kind = kind if kind in SURFACE_KINDS else "heatmap"
    grid = output_grid(model, ctx.window)
    chart(surface_figure(model, ctx.scene.points, ctx.window, k, kind, grid=grid), key="ls_surface")
    Y = grid[2]
    symbol = output_symbol(model, k)
    figures: list[tuple[str, str, str | None]] = [
        (_("lowest {output} in view").format(output=symbol), number_text(Y[..., k].min(), 3), None),
        (_("highest {output} in view").format(output=symbol), number_text(Y[..., k].max(), 3), None),
    ]
    if has_fisher_targets(model):
        first, second = map(plain, book_roles(model))
        high, low = fisher_target_values(model, points.y)
        t = np.where(points.y == book_classes(model)[0], high, low)
        beyond = float(np.mean(np.abs(at_points[:, 0]) > np.abs(t)))
        figures.append(
            (
                _("points beyond their target"),
                f"{beyond:.0%}",
                _("Training points whose output overshoots their target t."),
            )
        )
        figures_row(figures)
        st.markdown(
            _(
                "With the targets of section 4.1.5, t = N/N₁ = {high} for {first} (the book's C₁) and t = −N/N₂ = "
                "{low} for {second} (C₂), the least-squares weight vector is parallel to Fisher's direction "
                "(eq. 4.37), and x goes to {first} where y(x) ≥ 0 (the level 0 is drawn, and the two target levels). "
                "The output is still a tilted plane: far from the boundary it overshoots the targets, and the "
                "squared error punishes points for being 'too correct'."
            ).format(high=number_text(high, 3), first=first, low=number_text(low, 3), second=second)
        )
    else:
        outside = np.mean(np.any((at_points < 0) | (at_points > 1), axis=1))
        figures.append(
            (_("points outside [0, 1]"), f"{outside:.0%}", _("Training points with an output below 0 or above 1."))
        )
        figures_row(figures)


def _demonstrations(ctx: PanelContext) -> None:
    """Figures 4.4 and 4.5 on demand: far-away points, three aligned classes."""
    model = least_squares_model(ctx.model)
    if model is None:  # the panel applies to least squares only
        return
    st.markdown(_("**Why least squares is fragile**"))
    present = [int(c) for c in model.classes_]
    a, b = st.columns(2)
    with a:
        label = st.segmented_control(
            _("Class of the far-away points"),
            present,
            default=present[-1],
            required=True,
            format_func=class_name_format(markdown=True),  # a segmented control's options are Markdown
            key="ls_far_class",
        )
        if label not in present:  # a class that has gone since it was picked
            label = present[-1]
        st.button(
            _("Add far-away points (fig. 4.4)"),
            key="ls_far_points",
            on_click=_add_far_points,
            args=(int(label),),
            help=_(
                "Adds points that are already classified correctly, far from the boundary: least squares still "
                "moves the boundary towards them, because it penalises predictions that are 'too correct'."
            ),
        )
        st.caption(
            _(
                "Figure 4.4: points far on the correct side are penalised for exceeding their target, so they drag "
                "the boundary; logistic regression (section 4.3.2) would hardly move."
            )
        )
    with b:
        st.button(_("Load three aligned classes (fig. 4.5)"), key="ls_aligned", on_click=_load_aligned)
        st.caption(
            _(
                "Figure 4.5: with three classes in a row, the middle class's output is nearly flat and never the "
                "largest, so its region shrinks or vanishes (masking); softmax regression gets all three."
            )
        )


PANELS = [
    Panel(
        name="least_squares_outputs",
        title=N_("Least-squares outputs (fig. 4.4, 4.5)"),
        applies=_applies,
        render=render,
        order=30,
        help=(
            N_(
                "Section 4.1.3: least squares fits y(x) = W̃ᵀx̃ to 1-of-K targets (eq. 4.17); its outputs are "
                "planes, not probabilities, which is why outliers drag it (figure 4.4) and a middle class gets "
                "masked (figure 4.5)."
            )
        ),
    )
]
