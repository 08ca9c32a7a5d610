"""Geometry of a two-class linear discriminant (PRML 4.1.1, figure 4.1) drawn on the canvas.

y(x) = w^T x + w0 (eq. 4.4) in the book's convention (``ui.text.convention``): y(x) >= 0 on C1's side,
the first class present, and w points into it. w is orthogonal to the boundary y(x) = 0, the
boundary lies at signed distance -w0 / ||w|| from the origin (eq. 4.5), and r = y(x) / ||w|| is
the signed distance of any x from it (eq. 4.7). The overlay draws w as an arrow standing on the
boundary, the distance from the origin as a dashed segment (its value in the panel's text, never on
the plane, where it could cover a point or the arrow), and gives y(x), r and the class on hover anywhere on the
plane through a coarse invisible heatmap.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseTraceType

from playground.grid import Window, grid_axes
from playground.validation import FloatArray
from ui.plot.theme import FIT_INK
from ui.text.convention import BookLine, book_line
from ui.text.i18n import N_, _
from ui.text.names import class_name_html, class_name_markdown

from . import Panel, PanelContext, join_sentences, number_text, option_checkbox, vector_text

OPTION = "geometry"  # ctx.options key: show the overlay (default True)
HOVER_RESOLUTION = 40  # 40 x 40 cells; z and customdata float32 for both halves: about 26 KB
ARROW_FRACTION = 0.2  # arrow length as a fraction of the window's smaller side
W_COLOUR = FIT_INK
DISTANCE_COLOUR = "#555555"


def _inside(point, window, margin=0.0):
    dx, dy = margin * (window.x_max - window.x_min), margin * (window.y_max - window.y_min)
    return (window.x_min + dx <= point[0] <= window.x_max - dx) and (window.y_min + dy <= point[1] <= window.y_max - dy)


def arrow_anchor(w: FloatArray, w0: float, window: Window) -> FloatArray:
    """Where the w arrow stands: the boundary point nearest the origin, -w0 w / ||w||^2, when it is
    in view; otherwise the boundary point nearest the window's centre (or the centre itself when
    the boundary is out of view)."""
    foot = -w0 * w / (w @ w)
    if _inside(foot, window, 0.05):
        return foot
    centre = np.array([(window.x_min + window.x_max) / 2, (window.y_min + window.y_max) / 2])
    nearest = centre - (w @ centre + w0) * w / (w @ w)
    return nearest if _inside(nearest, window) else centre


def arrow_trace(
    start: FloatArray,
    end: FloatArray,
    *,
    colour: str,
    name: str,
    width: float = 3,
    dash: str | None = None,
    text: str | None = None,
    legend: bool = True,
) -> BaseTraceType:
    """A straight arrow from ``start`` to ``end`` (a line with an arrow-head marker), optionally labelled at the tip."""
    return go.Scatter(
        x=[float(start[0]), float(end[0])],
        y=[float(start[1]), float(end[1])],
        mode="lines+markers+text" if text else "lines+markers",
        line=dict(color=colour, width=width, dash=dash),
        marker=dict(symbol="arrow", angleref="previous", size=[0, 15], color=colour),
        text=["", text] if text else None,
        textposition="top right",
        textfont=dict(color=colour, size=15),
        hoverinfo="skip",
        name=name,
        showlegend=legend,
    )


W_NAME = N_("w (into C₁, orthogonal to the boundary)")


def weight_arrow_traces(line: BookLine, window: Window, *, name: str = W_NAME) -> list[BaseTraceType]:
    """Figure 4.1's w: an arrow from the boundary, pointing into C₁'s region, where y(x) > 0."""
    length = ARROW_FRACTION * min(window.x_max - window.x_min, window.y_max - window.y_min)
    start = arrow_anchor(line.w, line.w0, window)
    end = start + length * line.w / line.norm
    return [arrow_trace(start, end, colour=W_COLOUR, name=_(name), text="<b>w</b>")]


def distance_name(line: BookLine) -> str:
    """The distance segment's name, with its value (eq. 4.5); the panel's text states the value."""
    return _("−w₀/‖w‖ = {value} (dashed)").format(value=number_text(line.distance_from_origin, 3))


def distance_traces(line: BookLine) -> list[BaseTraceType]:
    """The dashed segment from the origin to the boundary, of signed length -w0 / ||w|| (eq. 4.5).

    Its value is in the panel's text, never written on the plot, so it never covers a point or w
    (the canvas's one-row legend leaves panel overlays out).
    """
    foot = -line.w0 * line.w / (line.w @ line.w)
    return [
        go.Scatter(
            x=[0.0, float(foot[0])],
            y=[0.0, float(foot[1])],
            mode="lines+markers",
            line=dict(color=DISTANCE_COLOUR, width=1.5, dash="dash"),
            marker=dict(symbol=["x-thin-open", "circle"], size=[10, 5], color=DISTANCE_COLOUR, line=dict(width=2)),
            hoverinfo="skip",
            name=distance_name(line),
            meta="distance",
        ),
    ]


def hover_traces(line: BookLine, window: Window, resolution: int = HOVER_RESOLUTION) -> list[BaseTraceType]:
    """Two invisible heatmaps (one per side of the boundary) whose hover gives y(x), r and the class.

    z = y(x) and customdata = r = y(x) / ||w||, float32 at the cell centres, in the book's sign
    (>= 0 on C1's side); each half is NaN on the other side, so its hover template can name its
    own class without any text arrays.
    """
    xs, ys = grid_axes(window, resolution)
    values = (xs[None, :] * line.w[0] + ys[:, None] * line.w[1] + line.w0).astype(np.float32)
    distances = (values / np.float32(line.norm)).astype(np.float32)
    transparent = [[0, "rgba(0,0,0,0)"], [1, "rgba(0,0,0,0)"]]
    traces = []
    for side, label, symbol in ((values >= 0, line.c1, "C₁"), (values < 0, line.c2, "C₂")):
        z = np.where(side, values, np.float32(np.nan)).astype(np.float32)
        traces.append(
            go.Heatmap(
                z=z,
                customdata=distances,
                x0=float(xs[0]),
                dx=float(xs[1] - xs[0]),
                y0=float(ys[0]),
                dy=float(ys[1] - ys[0]),
                colorscale=transparent,
                showscale=False,
                hoverongaps=False,
                hovertemplate=(
                    "x = (%{x:.2f}, %{y:.2f})<br>y(x) = wᵀx + w₀ = %{z:.3g}<br>"
                    "r = y(x)/‖w‖ = %{customdata:.3g}<br>"
                    + _("predicted: {name} ({symbol})").format(name=class_name_html(int(label)), symbol=symbol)
                    + "<extra></extra>"
                ),
                name=_("geometry read-out"),
                showlegend=False,
            )
        )
    return traces


def enabled(ctx: PanelContext) -> bool:
    return bool(ctx.options.get(OPTION, True))


def _applies(ctx):
    return book_line(ctx.shown_model) is not None


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    line = book_line(ctx.shown_model)
    if line is None or not enabled(ctx):
        return []
    # A probabilistic model's posterior read-out (ui/panels/posterior.py) already shows y(x) and r
    # on hover, drawn above this one: sending both doubled the bytes of every click.
    probabilistic = getattr(ctx.shown_model, "is_probabilistic", False)
    hover = [] if probabilistic else hover_traces(line, ctx.window)
    return hover + distance_traces(line) + weight_arrow_traces(line, ctx.window)


def render(ctx: PanelContext) -> None:
    key = "geometry_show"
    option_checkbox(_("Draw w, the distance from the origin and the hover read-out on the plot"), ctx, OPTION, key)
    line = book_line(ctx.shown_model)
    if line is None:  # the panel applies only to a model with a line (_applies)
        return
    first, second = class_name_markdown(line.c1), class_name_markdown(line.c2)
    # One line that wraps, not five metrics: a metric cuts its number off in a narrow column ("-0.…").
    st.markdown(
        _(
            "**w** = (w₁, w₂) = **{w}**, w₀ = **{w0}**, ‖w‖ = **{norm}**, −w₀/‖w‖ = **{distance}** "
            "(the boundary's signed distance from the origin, eq. 4.5)."
        ).format(
            w=vector_text(line.w, 3),
            w0=number_text(line.w0, 3),
            norm=number_text(line.norm, 3),
            distance=number_text(line.distance_from_origin, 3),
        )
    )
    st.markdown(
        join_sentences(
            _("C₁ is {first} and C₂ is {second}.").format(first=first, second=second),
            _(
                "$y(\\mathbf{x}) = \\mathbf{w}^T\\mathbf{x} + w_0$ (eq. 4.4) is positive on the C₁ side, where **w** "
                "points, and negative on the C₂ side: x is assigned to C₁ when $y(\\mathbf{x}) \\ge 0$ (eq. 4.6). The "
                "boundary $y(\\mathbf{x}) = 0$ is orthogonal to **w** and passes at signed distance "
                "$-w_0/\\lVert\\mathbf{w}\\rVert$ from the origin (eq. 4.5; the dashed segment, its value above); any "
                "point lies at signed distance $r = y(\\mathbf{x})/\\lVert\\mathbf{w}\\rVert$ from it (eq. 4.7), "
                "positive on the C₁ side. Hover anywhere on the plot to read $y(\\mathbf{x})$ and $r$ (cell centres of "
                "a coarse grid)."
            ),
        )
    )


PANELS = [
    Panel(
        title=N_("Geometry (fig. 4.1)"),
        applies=_applies,
        render=render,
        overlay=overlay,
        order=70,
        help=(
            N_(
                "Figure 4.1: w is orthogonal to the decision boundary and points into C₁'s region, w₀ sets the "
                "boundary's distance from the origin, and y(x)/‖w‖ is the signed distance of x from it (eqs. 4.4-4.7)."
            )
        ),
    )
]
