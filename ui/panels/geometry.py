"""Geometry of a two-class linear discriminant (PRML 4.1.1, figure 4.1) drawn on the canvas.

y(x) = w^T x + w0 (eq. 4.4): w is orthogonal to the boundary y(x) = 0, the boundary lies at
signed distance -w0 / ||w|| from the origin (eq. 4.5), and y(x) / ||w|| is the signed
distance r of any x from it (eq. 4.7). The overlay draws w as an arrow standing on the
boundary, the distance from the origin as a dashed segment, and gives y(x), r and the class
on hover anywhere on the plane through a coarse invisible heatmap.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from playground.grid import grid_axes

from ..theme import CLASS_NAMES
from . import Panel, option_checkbox

OPTION = "geometry"  # ctx.options key: show the overlay (default True)
HOVER_RESOLUTION = 40  # 40 x 40 cells; z and customdata float32 for both halves: about 26 KB
ARROW_FRACTION = 0.2  # arrow length as a fraction of the window's smaller side
W_COLOUR = "#111111"
DISTANCE_COLOUR = "#555555"


def two_class_line(model):
    """(w (2,), w0, classes (2,)) of a fitted two-class linear model in the plane, or None.

    Reads ``coef_`` (1, 2) / ``intercept_``; a one-versus-rest / one-versus-one wrapper of two
    classes (one sub-classifier) is read through its ``coefs_`` / ``intercepts_``.
    """
    if model is None or np.size(getattr(model, "classes_", ())) != 2:
        return None
    coef = getattr(model, "coef_", None)
    intercept = getattr(model, "intercept_", None)
    if coef is None:
        coef, intercept = getattr(model, "coefs_", None), getattr(model, "intercepts_", None)
    if coef is None or intercept is None or np.shape(coef) != (1, 2) or np.size(intercept) != 1:
        return None
    w = np.asarray(coef, dtype=float).reshape(2)
    w0 = float(np.ravel(intercept)[0])
    if not (np.all(np.isfinite(w)) and np.isfinite(w0)) or np.linalg.norm(w) == 0:
        return None
    return w, w0, np.asarray(model.classes_, dtype=int)


def _inside(point, window, margin=0.0):
    dx, dy = margin * (window.x_max - window.x_min), margin * (window.y_max - window.y_min)
    return (window.x_min + dx <= point[0] <= window.x_max - dx) and (window.y_min + dy <= point[1] <= window.y_max - dy)


def arrow_anchor(w, w0, window):
    """Where the w arrow stands: the boundary point nearest the origin, -w0 w / ||w||^2, when it is
    in view; otherwise the boundary point nearest the window's centre (or the centre itself when
    the boundary is out of view)."""
    foot = -w0 * w / (w @ w)
    if _inside(foot, window, 0.05):
        return foot
    centre = np.array([(window.x_min + window.x_max) / 2, (window.y_min + window.y_max) / 2])
    nearest = centre - (w @ centre + w0) * w / (w @ w)
    return nearest if _inside(nearest, window) else centre


def arrow_trace(start, end, *, colour, name, width=3, dash=None, text=None, legend=True):
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


def weight_arrow_traces(w, w0, window, *, name="w (orthogonal to the boundary)"):
    """Figure 4.1's w: an arrow from the boundary, pointing into the region where y(x) > 0."""
    length = ARROW_FRACTION * min(window.x_max - window.x_min, window.y_max - window.y_min)
    start = arrow_anchor(w, w0, window)
    end = start + length * w / np.linalg.norm(w)
    return [arrow_trace(start, end, colour=W_COLOUR, name=name, text="<b>w</b>")]


def distance_traces(w, w0, window):
    """The dashed segment from the origin to the boundary, of signed length -w0 / ||w|| (eq. 4.5)."""
    norm = np.linalg.norm(w)
    foot = -w0 * w / (w @ w)
    distance = -w0 / norm
    # The label sits at the origin, on the side away from the boundary, so a short segment
    # does not hide it.
    if abs(foot[0]) >= abs(foot[1]):
        position = "middle left" if foot[0] > 0 else "middle right"
    else:
        position = "bottom center" if foot[1] > 0 else "top center"
    return [
        go.Scatter(
            x=[0.0, float(foot[0])],
            y=[0.0, float(foot[1])],
            mode="lines+markers",
            line=dict(color=DISTANCE_COLOUR, width=1.5, dash="dash"),
            marker=dict(symbol=["x-thin-open", "circle"], size=[10, 5], color=DISTANCE_COLOUR, line=dict(width=2)),
            hoverinfo="skip",
            name="distance from the origin −w₀/‖w‖",
        ),
        go.Scatter(
            x=[0.0],
            y=[0.0],
            mode="text",
            text=[f" −w₀/‖w‖ = {distance:.3g} "],
            textposition=position,
            textfont=dict(color=DISTANCE_COLOUR, size=12),
            hoverinfo="skip",
            showlegend=False,
            name="distance label",
        ),
    ]


def hover_traces(w, w0, classes, window, resolution=HOVER_RESOLUTION):
    """Two invisible heatmaps (one per side of the boundary) whose hover gives y(x), r and the class.

    z = y(x) and customdata = r = y(x) / ||w||, float32 at the cell centres; each half is NaN on
    the other side, so its hover template can name its own class without any text arrays.
    """
    xs, ys = grid_axes(window, resolution)
    values = (xs[None, :] * w[0] + ys[:, None] * w[1] + w0).astype(np.float32)
    distances = (values / np.float32(np.linalg.norm(w))).astype(np.float32)
    transparent = [[0, "rgba(0,0,0,0)"], [1, "rgba(0,0,0,0)"]]
    traces = []
    for side, label in ((values > 0, classes[1]), (values <= 0, classes[0])):
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
                    f"predicted: {CLASS_NAMES[int(label)]}<extra></extra>"
                ),
                name="geometry read-out",
                showlegend=False,
            )
        )
    return traces


def enabled(ctx):
    return bool(ctx.options.get(OPTION, True))


def _applies(ctx):
    return two_class_line(ctx.shown_model) is not None


def overlay(ctx):
    line = two_class_line(ctx.shown_model)
    if line is None or not enabled(ctx):
        return []
    w, w0, classes = line
    # A probabilistic model's posterior read-out (ui/panels/posterior.py) already shows y(x) and r
    # on hover, drawn above this one: sending both doubled the bytes of every click.
    probabilistic = getattr(ctx.shown_model, "is_probabilistic", False)
    hover = [] if probabilistic else hover_traces(w, w0, classes, ctx.window)
    return hover + distance_traces(w, w0, ctx.window) + weight_arrow_traces(w, w0, ctx.window)


def render(ctx):
    key = "geometry_show"
    option_checkbox("Draw w, the distance from the origin and the hover read-out on the plot", ctx, OPTION, key)
    w, w0, classes = two_class_line(ctx.shown_model)
    norm = float(np.linalg.norm(w))
    positive, negative = CLASS_NAMES[int(classes[1])], CLASS_NAMES[int(classes[0])]
    columns = st.columns(5)
    columns[0].metric("w₁", f"{w[0]:.3g}")
    columns[1].metric("w₂", f"{w[1]:.3g}")
    columns[2].metric("w₀ (bias)", f"{w0:.3g}")
    columns[3].metric("‖w‖", f"{norm:.3g}")
    columns[4].metric("−w₀/‖w‖", f"{-w0 / norm:.3g}", help="Signed distance of the boundary from the origin (eq. 4.5).")
    st.markdown(
        f"$y(\\mathbf{{x}}) = \\mathbf{{w}}^T\\mathbf{{x}} + w_0$ (eq. 4.4) is positive on the {positive} side, "
        f"where **w** points, and negative on the {negative} side. The boundary $y(\\mathbf{{x}}) = 0$ is "
        "orthogonal to **w** and passes at signed distance $-w_0/\\lVert\\mathbf{w}\\rVert$ from the origin "
        "(eq. 4.5); any point lies at signed distance $r = y(\\mathbf{x})/\\lVert\\mathbf{w}\\rVert$ from it "
        "(eq. 4.7). Hover anywhere on the plot to read $y(\\mathbf{x})$ and $r$ (cell centres of a coarse grid)."
    )


PANELS = [
    Panel(
        title="Geometry (fig. 4.1)",
        applies=_applies,
        render=render,
        overlay=overlay,
        order=70,
        help=(
            "Figure 4.1: w is orthogonal to the decision boundary, w₀ sets its distance from the origin, "
            "and y(x)/‖w‖ is the signed distance of x from it (eqs. 4.4-4.7)."
        ),
    )
]
