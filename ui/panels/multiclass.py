"""One-versus-rest and one-versus-one (PRML 4.1.2, figure 4.2): the regions no single class owns.

The overlay hatches the ambiguous regions computed by the strategy's own ``ambiguous(X)`` and
draws each two-class classifier's line, thin and dashed, labelled "1 vs rest" or "1 vs 2". The
region colours underneath stay the strategy's actual prediction (argmax for one-versus-rest,
majority vote with confidence tie-break for one-versus-one), so the hatching shows where that
prediction is a convention rather than an answer of the two-class classifiers.

For linear sub-classifiers the ambiguous regions are exact polygons: the lines cut the view into
convex cells on which every sub-classifier's sign, hence ambiguity, is constant; each cell is
tested at its centroid. Otherwise a coarse uint8 grid is drawn.
"""

from collections.abc import Iterator
from typing import Any, Protocol, TypeGuard

import numpy as np
import streamlit as st
from numpy.typing import ArrayLike, NDArray

from playground.base import Classifier, FittedClassifier
from playground.geometry import arrangement_cells, boundary_segments, polygon_area
from playground.grid import Window, grid_axes
from playground.registry import TWO_CLASS_METHODS
from playground.validation import BoolArray, FloatArray, IndexArray
from ui.plot.figures import gapped_paths
from ui.plot.theme import CLASS_COLOURS
from ui.text.convention import book_sub_classifiers
from ui.text.i18n import N_, _
from ui.text.names import class_name_html

from . import Panel, PanelContext, option_checkbox

OPTION = "multiclass_overlay"  # ctx.options key: draw the overlay (default True)
GRID_RESOLUTION = 120
HATCH = dict(shape="/", fgcolor="rgba(40,40,40,0.55)", bgcolor="rgba(110,110,110,0.22)", size=9, solidity=0.25)
PAIR_LINE_COLOUR = "#444444"
# Half a label's width and height plus a marker's radius, as shares of the view's width.
LABEL_HALF_SIZE = (0.065, 0.025)
GREY_MASK = [[0, "rgba(0,0,0,0)"], [0.5, "rgba(0,0,0,0)"], [0.5, "rgba(70,70,70,0.4)"], [1, "rgba(70,70,70,0.4)"]]


class StrategyFit(FittedClassifier, Protocol):
    """What this panel reads of a fitted one-versus-rest / one-versus-one model: its classes and
    where its two-class answers leave a point ambiguous. A protocol, not playground's OneVsRest or
    OneVsOne: a model on a basis wrapping a strategy is neither, yet answers ``ambiguous`` (its
    delegate) and reads ``pairs_``, ``coefs_`` and ``intercepts_`` through to the strategy inside
    (``BasisModel.__getattr__``), and the panel is shown for it too."""

    def ambiguous(self, X: ArrayLike) -> BoolArray: ...


class PairwiseFit(StrategyFit, Protocol):
    """A one-versus-one fit (or a model on a basis reading one through): its pairs of classes."""

    @property
    def pairs_(self) -> IndexArray: ...


def _is_strategy(model: Classifier) -> TypeGuard[StrategyFit]:
    """Duck-typed on purpose (see ``StrategyFit``): an isinstance check would drop the panel for
    a model on a basis."""
    return hasattr(model, "ambiguous")


def _is_pairwise(model: StrategyFit) -> TypeGuard[PairwiseFit]:
    return hasattr(model, "pairs_")


def _lines(model: StrategyFit) -> tuple[FloatArray, FloatArray] | None:
    """The sub-classifiers' lines (``coefs_`` (M, D), ``intercepts_`` (M,)), or None when they are
    not linear. Read with getattr: a model on a basis has them only on the identity basis (they
    raise AttributeError otherwise), a strategy of a curved method has them as None."""
    coefs: FloatArray | None = getattr(model, "coefs_", None)
    intercepts: FloatArray | None = getattr(model, "intercepts_", None)
    if coefs is None or intercepts is None:
        return None
    return coefs, intercepts


def strategy_model(ctx: PanelContext) -> StrategyFit | None:
    """The one-versus-rest / one-versus-one model of more than two classes, or None."""
    model = ctx.model
    if ctx.scene.multiclass not in ("ovr", "ovo") or model is None or not _is_strategy(model):
        return None
    return model if np.size(model.classes_) > 2 else None


def sub_classifier_names(model: StrategyFit) -> list[str]:
    """'1 vs rest' per one-versus-rest classifier, '1 vs 2' per one-versus-one pair (1-based class numbers)."""
    classes = [int(c) + 1 for c in model.classes_]
    if _is_pairwise(model):
        return [_("{first} vs {second}").format(first=classes[i], second=classes[j]) for i, j in model.pairs_]
    return [_("{number} vs rest").format(number=c) for c in classes]


def ambiguous_polygons(model: StrategyFit, window: Window) -> list[FloatArray] | None:
    """Exact ambiguous polygons for linear sub-classifiers (None when they are not linear)."""
    lines = _lines(model)
    if lines is None:
        return None
    cells = arrangement_cells(*lines, window)
    if not cells:
        return []
    centroids = np.array([cell.mean(axis=0) for cell in cells])
    flags = np.asarray(model.ambiguous(centroids), dtype=bool)
    return [cell for cell, flag in zip(cells, flags) if flag]


def ambiguous_grid(
    model: StrategyFit, window: Window, resolution: int = GRID_RESOLUTION
) -> tuple[FloatArray, FloatArray, NDArray[np.uint8]]:
    """(xs, ys, mask) with mask (resolution, resolution) uint8: 1 where the strategy is ambiguous."""
    xs, ys = grid_axes(window, resolution)
    gx, gy = np.meshgrid(xs, ys)
    mask = np.asarray(model.ambiguous(np.column_stack([gx.ravel(), gy.ravel()])), dtype=np.uint8)
    return xs, ys, mask.reshape(resolution, resolution)


def ambiguous_share(model: StrategyFit, window: Window) -> float:
    """Fraction of the window's area that is ambiguous (exact for linear sub-classifiers)."""
    polygons = ambiguous_polygons(model, window)
    if polygons is None:
        return float(ambiguous_grid(model, window, 100)[2].mean())
    total = (window.x_max - window.x_min) * (window.y_max - window.y_min)
    return float(sum(polygon_area(polygon) for polygon in polygons) / total)


def ambiguous_traces(model: StrategyFit, window: Window) -> list[dict[str, Any]]:
    polygons = ambiguous_polygons(model, window)
    if polygons is not None:
        xs, ys = gapped_paths((np.vstack([polygon, polygon[:1]]) for polygon in polygons), digits=6)
        return [
            dict(
                type="scatter",
                x=xs or [None],
                y=ys or [None],
                mode="lines",
                fill="toself",
                fillcolor="rgba(110,110,110,0.22)",
                fillpattern=HATCH,
                line=dict(width=1, color="rgba(40,40,40,0.7)"),
                hoverinfo="skip",
                hoveron="points",
                name=_("ambiguous region (fig. 4.2)"),
            )
        ]
    grid_xs, grid_ys, mask = ambiguous_grid(model, window)
    return [
        dict(
            type="heatmap",
            z=mask,
            x0=float(grid_xs[0]),
            dx=float(grid_xs[1] - grid_xs[0]),
            y0=float(grid_ys[0]),
            dy=float(grid_ys[1] - grid_ys[0]),
            colorscale=GREY_MASK,
            zmin=0,
            zmax=1,
            showscale=False,
            hoverinfo="skip",
            name=_("ambiguous region (fig. 4.2)"),
        )
    ]


def _label_position(
    start: FloatArray,
    end: FloatArray,
    preferred: float,
    window: Window,
    avoid: FloatArray,
    placed: list[tuple[float, float]],
) -> FloatArray:
    """Where along the segment start-end a label sits clear of the points ``avoid`` (n, 2) and of
    the labels already ``placed``: the clear spot nearest the ``preferred`` fraction, else the
    spot farthest from them. Sizes are shares of the view's width, which sets the scale of both
    axes (equal aspect): a label is about 60 x 15 px on a plot some 600 px wide."""
    width = window.x_max - window.x_min
    half_w, half_h = LABEL_HALF_SIZE[0] * width, LABEL_HALF_SIZE[1] * width
    fractions = np.linspace(0.06, 0.94, 45)
    spots = start + fractions[:, None] * (end - start)
    clearance = np.full(len(spots), np.inf)
    for others, scale in ((avoid, 1.0), (np.asarray(placed, dtype=float).reshape(-1, 2), 2.0)):
        if len(others):
            dx = np.abs(spots[:, None, 0] - others[None, :, 0]) / (scale * half_w)
            dy = np.abs(spots[:, None, 1] - others[None, :, 1]) / (scale * half_h)
            clearance = np.minimum(clearance, np.maximum(dx, dy).min(axis=1))
    inside = (
        (spots[:, 0] - half_w >= window.x_min)
        & (spots[:, 0] + half_w <= window.x_max)
        & (spots[:, 1] - half_h >= window.y_min)
        & (spots[:, 1] + half_h <= window.y_max)
    )
    clearance = np.where(inside, clearance, np.minimum(clearance, 0.5))
    clear = clearance >= 1.0
    if clear.any():
        best = np.flatnonzero(clear)[np.argmin(np.abs(fractions[clear] - preferred))]
    else:
        best = int(np.argmax(clearance))
    return spots[best]


def sub_classifier_traces(model: StrategyFit, window: Window, points: FloatArray | None = None) -> list[dict[str, Any]]:
    """Each two-class classifier's line, thin and dashed, with a label placed along it where it
    covers none of ``points`` (n, 2) when it can: a label never hides a point."""
    avoid = np.zeros((0, 2)) if points is None else np.asarray(points, dtype=float).reshape(-1, 2)
    lines = _lines(model)
    if lines is None:
        return []
    one_vs_rest = not _is_pairwise(model)
    traces: list[dict[str, Any]] = []
    pairwise: list[tuple[FloatArray, FloatArray]] = []
    labels: list[tuple[FloatArray, str]] = []
    for m, name, start, end, where in _placed_lines(model, lines, window, avoid):
        if one_vs_rest:
            traces.append(_one_vs_rest_line(model, m, start, end))
        else:
            pairwise.append((start, end))
        labels.append((where, name))
    if pairwise:
        traces.append(_pairwise_lines(pairwise))
    if labels:
        traces.append(_line_labels(labels))
    return traces


def _placed_lines(
    model: StrategyFit, lines: tuple[FloatArray, FloatArray], window: Window, avoid: FloatArray
) -> Iterator[tuple[int, str, FloatArray, FloatArray, FloatArray]]:
    """(m, name, start, end, label position) for each sub-classifier whose line crosses the view
    (``lines``: the model's coefs_ and intercepts_); labels are spread along the lines in order
    and kept clear of ``avoid`` and of each other."""
    coefs, intercepts = lines
    names = sub_classifier_names(model)
    placed: list[tuple[float, float]] = []
    for m, name in enumerate(names):
        segments = boundary_segments(coefs[m : m + 1], intercepts[m : m + 1], window)
        if not segments:
            continue
        _unused, _unused, start, end = segments[0]
        preferred = 0.1 + 0.8 * (m + 0.5) / len(names)
        where = _label_position(start, end, preferred, window, avoid, placed)
        placed.append((float(where[0]), float(where[1])))
        yield m, name, start, end, where


def _one_vs_rest_line(model: StrategyFit, m: int, start: FloatArray, end: FloatArray) -> dict[str, Any]:
    """Classifier m of one-versus-rest, dashed in the colour of the class it calls positive."""
    return dict(
        type="scatter",
        x=[float(start[0]), float(end[0])],
        y=[float(start[1]), float(end[1])],
        mode="lines",
        line=dict(color=CLASS_COLOURS[int(model.classes_[m])], width=2, dash="dash"),
        hoverinfo="skip",
        name=_("{name} vs rest").format(name=class_name_html(int(model.classes_[m]))),
    )


def _pairwise_lines(segments: list[tuple[FloatArray, FloatArray]]) -> dict[str, Any]:
    """One-versus-one's classifiers as one grey dashed trace (the segments split by None)."""
    xs, ys = gapped_paths((start, end) for start, end in segments)
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        line=dict(color=PAIR_LINE_COLOUR, width=1.5, dash="dash"),
        hoverinfo="skip",
        name=_("pairwise classifiers"),
    )


def _line_labels(labels: list[tuple[FloatArray, str]]) -> dict[str, Any]:
    """The classifiers' names in bold at their ``(position, name)``."""
    return dict(
        type="scatter",
        x=[float(where[0]) for where, _name in labels],
        y=[float(where[1]) for where, _name in labels],
        mode="text",
        text=[f"<b>{name}</b>" for _where, name in labels],
        textfont=dict(size=12, color="#222222"),
        textposition="middle center",
        hoverinfo="skip",
        showlegend=False,
        name=_("classifier labels"),
    )


def enabled(ctx: PanelContext) -> bool:
    return bool(ctx.options.get(OPTION, True))


def _applies(ctx: PanelContext) -> bool:
    return strategy_model(ctx) is not None


def overlay(ctx: PanelContext) -> list[dict[str, Any]]:
    model = strategy_model(ctx)
    if model is None or not enabled(ctx):
        return []
    shown = ctx.all_points if ctx.all_points is not None else ctx.scene.points  # test points are drawn too
    return ambiguous_traces(model, ctx.window) + sub_classifier_traces(model, ctx.window, shown.X)


def render(ctx: PanelContext) -> None:
    model = strategy_model(ctx)
    if model is None:  # the panel applies only to a strategy's model (``_applies``)
        return
    key = "multiclass_overlay_show"
    option_checkbox(_("Hatch the ambiguous regions and draw every two-class classifier's line"), ctx, OPTION, key)
    names = sub_classifier_names(model)
    n_classes = np.size(model.classes_)
    share = ambiguous_share(model, ctx.window)
    if _is_pairwise(model):
        st.markdown(
            _(
                "**One-versus-one** (figure 4.2, right): {n} = K(K−1)/2 classifiers, one per pair of classes "
                "(dashed grey lines, each fitted on the points of its two classes only); each votes, and x goes to "
                "the class with most votes. Where the vote ties (hatched) no class wins: here the shading shows the "
                "tie broken by the classifiers' summed confidence, a convention the book does not have."
            ).format(n=len(names))
        )
    else:
        st.markdown(
            _(
                "**One-versus-rest** (figure 4.2, left): {n} classifiers, each separating one class from all the "
                "others (dashed lines in that class's colour). The rule 'x is in class k where classifier k says "
                "yes' is ambiguous where no classifier or more than one says yes (hatched). The shading shows the "
                "usual fix, the largest yₖ(x) — which is then the K-class discriminant of eq. 4.9 built from "
                "separately trained parts."
            ).format(n=n_classes)
        )
    st.metric(_("Share of the view that is ambiguous"), f"{share:.1%}" if share >= 0.001 or share == 0 else "< 0.1%")
    if ctx.scene.method in TWO_CLASS_METHODS:
        compare = _(
            "Compare with a single K-class discriminant (a method that has one, such as softmax regression or "
            "least squares (sidebar: Method)), whose regions are always singly connected and convex (figure 4.3), "
            "with no ambiguous region."
        )
    else:
        compare = _(
            "Compare with a single K-class discriminant (the sidebar's 'With more than two classes'), whose regions "
            "are always singly connected and convex (figure 4.3), with no ambiguous region."
        )
    st.caption(compare)
    # A strategy's sub-classifiers are all straight lines (w, w0) or all curved (None, None).
    straight = [
        (name, sub.w, sub.w0)
        for name, sub in zip(names, book_sub_classifiers(model))
        if sub.w is not None and sub.w0 is not None
    ]
    if straight:
        rows = [
            {_("classifier"): name, "w₁": float(w[0]), "w₂": float(w[1]), "w₀": float(w0)} for name, w, w0 in straight
        ]
        st.dataframe(rows, hide_index=True, width="content")
        st.caption(
            _(
                "Each classifier's y(x) = wᵀx + w₀ is positive on the side of the first class named (for a pair, "
                "the lower-numbered class plays the book's C₁)."
            )
        )


PANELS = [
    Panel(
        title=N_("Multi-class strategy (fig. 4.2)"),
        applies=_applies,
        render=render,
        overlay=overlay,
        order=40,
        help=(
            N_(
                "Figure 4.2: building K classes from two-class classifiers (one-versus-rest or one-versus-one) "
                "leaves regions that no single class claims; they are hatched here, computed, not hidden."
            )
        ),
    )
]
