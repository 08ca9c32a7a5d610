"""Fisher's linear discriminant as a projection (PRML 4.1.4, figure 4.6; 4.1.6 for K classes).

Two classes: the points projected onto the line joining the class means and onto Fisher's
direction, side by side with J(w) (eq. 4.26); an angle slider rotates the projection direction,
with the curve J(theta) whose maximum sits at Fisher's direction, and the slider's direction and
its threshold drawn on the plane. K classes: the points in the (K-1)-dimensional Fisher space.
"""

from typing import Any

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseTraceType

from playground.fisher import FisherDiscriminant
from playground.geometry import boundary_segments
from playground.presets import elongated_points
from playground.validation import FloatArray, IndexArray, LabelArray
from ui.base.visitor import widget_values
from ui.plot.chart import chart
from ui.plot.theme import CLASS_COLOURS, CLASS_PATTERNS, CLASS_SYMBOLS, MARKER_OUTLINE, TEMPLATE
from ui.session import state
from ui.text.i18n import N_, _
from ui.text.names import class_name_html

from . import Panel, PanelContext, count_axis, join_sentences, option_checkbox

ANGLE_OPTION = "fisher_angle"  # ctx.options key: the slider's projection angle in degrees
SHOW_OPTION = "fisher_show_direction"  # ctx.options key: draw the slider direction on the plane
SLIDER_COLOUR = "#8E44AD"  # the rotated direction and its threshold (not the fitted boundary)
N_BINS = 24
ANGLE_STEP = 0.5


def fisher_model(model: object) -> FisherDiscriminant | None:
    """The fitted FisherDiscriminant behind ``model`` (a wrapper of two classes is unwrapped), or None."""
    estimators = getattr(model, "estimators_", None)
    if estimators is not None and len(estimators) == 1:
        model = estimators[0]
    # A model on a basis is none: the discriminant lives in feature space, which the plane's panel
    # cannot show (and it passes no criterion through).
    if not isinstance(model, FisherDiscriminant) or not hasattr(model, "directions_"):  # and fitted
        return None
    return model if np.shape(model.means_)[-1] == 2 else None


def unit(angle_deg: float) -> FloatArray:
    theta = np.deg2rad(angle_deg)
    return np.array([np.cos(theta), np.sin(theta)])


def angle_of(direction: FloatArray) -> float:
    """The angle in [0, 180) of a direction (J(w) does not depend on the sign of w)."""
    return float(np.rad2deg(np.arctan2(direction[1], direction[0])) % 180.0)


def means_direction(model: FisherDiscriminant) -> FloatArray:
    difference = model.means_[1] - model.means_[0]
    return difference / np.linalg.norm(difference)


def oriented(model: FisherDiscriminant, direction: FloatArray) -> FloatArray:
    """``direction`` turned (if needed) to point from class 0's mean towards class 1's."""
    return direction if (model.means_[1] - model.means_[0]) @ direction >= 0 else -direction


def midpoint_threshold(model: FisherDiscriminant, direction: FloatArray) -> float:
    """Halfway between the projected class means along ``direction``."""
    return float((model.means_[0] + model.means_[1]) @ direction / 2)


def current_angle(ctx: PanelContext, model: FisherDiscriminant) -> float:
    """The slider's angle: the stored option, or the line joining the means to begin with."""
    angle = ctx.options.get(ANGLE_OPTION)
    return angle_of(means_direction(model)) if angle is None else float(angle) % 180.0


def criterion_curve(model: FisherDiscriminant, step: float = ANGLE_STEP) -> tuple[FloatArray, FloatArray]:
    """(angles in degrees over [0, 180], J at each): Fisher's criterion as the direction rotates."""
    angles = np.arange(0.0, 180.0 + step / 2, step)
    # an array for an array of directions
    values = np.asarray(model.criterion(np.column_stack([np.cos(np.deg2rad(angles)), np.sin(np.deg2rad(angles))])))
    return angles, values


def _safe_j(value):
    return "∞" if not np.isfinite(value) else f"{value:.3g}"


def vline(x: float, line: dict[str, Any]) -> dict[str, Any]:
    """A vertical line across the plot at x, as ``figure.add_vline`` would draw it."""
    return dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="y domain", line=line)


def projection_figure(
    model: FisherDiscriminant,
    X: FloatArray,
    y: LabelArray,
    direction: FloatArray,
    threshold: float,
    title: str,
    height: int = 260,
) -> go.Figure:
    """Histograms of each class's projections w^T x on a shared set of bins, and the threshold."""
    values = X @ direction
    edges = _shared_bins(values)
    bars, heights = [], [0]
    for label in model.classes_:
        counts, _unused = np.histogram(values[y == label], bins=edges)
        heights.append(int(counts.max(initial=0)))
        bars.append(_class_bar(int(label), counts, edges))
    return go.Figure(
        data=bars,
        layout=dict(
            template=TEMPLATE,
            title=dict(text=title, font=dict(size=14)),
            barmode="overlay",
            bargap=0,
            height=height,
            margin=dict(l=10, r=10, t=50, b=30),
            xaxis_title=_("projection wᵀx (w of unit length)"),
            yaxis=count_axis(max(int(np.max(heights)), 1), _("points"), rangemode="tozero"),
            showlegend=False,
            shapes=[vline(threshold, dict(color="#222222", width=2, dash="dash"))],
            annotations=[
                dict(
                    x=threshold,
                    y=1,
                    yref="paper",
                    text=_("threshold"),
                    showarrow=False,
                    yanchor="bottom",
                    font=dict(size=11),
                )
            ],
        ),
    )


def _shared_bins(values: FloatArray) -> FloatArray:
    """``N_BINS`` equal bins over the projections' range (a unit-wide range when all are equal)."""
    low, high = float(values.min()), float(values.max())
    if high - low < 1e-12:
        low, high = low - 0.5, high + 0.5
    return np.linspace(low, high, N_BINS + 1)


def _class_bar(label: int, counts: IndexArray, edges: FloatArray) -> go.Bar:
    """One class's histogram: its counts per bin, in its colour and fill pattern."""
    centres, width = (edges[:-1] + edges[1:]) / 2, edges[1] - edges[0]
    return go.Bar(
        x=centres.astype(np.float32),
        y=counts.astype(np.uint16),
        width=width,
        # A fill pattern per class besides the colour (the bars overlap; greyscale reads).
        marker=dict(color=CLASS_COLOURS[label], line=dict(width=0), pattern=dict(shape=CLASS_PATTERNS[label])),
        opacity=0.6,
        name=class_name_html(label),
        hovertemplate=_("{name}: {count} points near {value}").format(
            name=class_name_html(label), count="%{y}", value="%{x:.3g}"
        )
        + "<extra></extra>",
    )


def _label_side(position, centre, vertical):
    """A text position that keeps a label near either end of the axis inside the plot."""
    offset = position - centre
    horizontal = "left" if offset > 45 else "right" if offset < -45 else "center"
    return f"{vertical} {horizontal}"


def wrapped(angle: float, centre: float) -> float:
    """``angle`` (degrees) moved by a multiple of 180 into [centre - 90, centre + 90): directions
    that differ by 180 degrees are the same line, so the axis wraps around Fisher's direction."""
    return centre + (float(angle) - centre + 90.0) % 180.0 - 90.0


def wrapped_ticks(centre: float, step: int = 30) -> dict[str, Any]:
    """Tick positions every ``step`` degrees across [centre - 90, centre + 90], labelled mod 180."""
    first = np.ceil((centre - 90.0) / step) * step
    values = np.arange(first, centre + 90.0 + 1e-9, step)
    return dict(tickvals=values.tolist(), ticktext=[f"{v % 180:g}°" for v in values])


def _load_elongated():
    state.change_points(elongated_points(), refit_view=True)
    state.notify(_("Loaded two elongated classes (figure 4.6); undo (↶) brings your points back."))


def criterion_figure(model: FisherDiscriminant, angle: float) -> go.Figure:
    """J(theta) over half a turn centred on Fisher's direction, with the means line and the slider.

    A direction and its opposite are the same line (J(w) = J(-w)), so the angle axis wraps: it runs
    from 90 degrees before Fisher's direction to 90 after, labelled modulo 180, and directions that
    are close are drawn close (e.g. 175 and 2.6 degrees, 7.6 degrees apart).
    """
    centre = angle_of(model.direction_)
    positions = np.arange(centre - 90.0, centre + 90.0 + ANGLE_STEP / 2, ANGLE_STEP)
    directions = np.column_stack([np.cos(np.deg2rad(positions)), np.sin(np.deg2rad(positions))])
    values = np.asarray(model.criterion(directions))  # an array for an array of directions
    finite = np.isfinite(values)
    top = float(values[finite].max()) if finite.any() else 1.0
    curve = go.Scatter(
        x=positions[finite].astype(np.float32),
        y=values[finite].astype(np.float32),
        mode="lines",
        line=dict(color="#333333", width=2),
        name="J(θ)",
        customdata=(positions[finite] % 180.0).astype(np.float32),
        hovertemplate="θ = %{customdata:.1f}°<br>J = %{y:.3g}<extra></extra>",
    )
    return go.Figure(data=[curve, *_criterion_marks(model, centre, top)], layout=_criterion_layout(angle, centre, top))


def _criterion_marks(model, centre, top):
    """The two marked directions on the J(theta) curve: Fisher's (its maximum, at ``centre``) and
    the line joining the means; a J that is not finite is drawn at ``top``."""
    means_position = wrapped(angle_of(means_direction(model)), centre)
    fisher_j = model.criterion(model.direction_)
    return [
        go.Scatter(
            x=[centre],
            y=[fisher_j if np.isfinite(fisher_j) else top],
            mode="markers+text",
            marker=dict(symbol="star", size=15, color="#C0392B"),
            text=[_("Fisher (maximum)")],
            textposition="top center",
            name=_("Fisher's direction"),
            customdata=[centre],
            hovertemplate=_("Fisher's direction θ = {angle}°").format(angle="%{customdata:.1f}")
            + "<br>J = %{y:.3g}<extra></extra>",
        ),
        go.Scatter(
            x=[means_position],
            y=[model.criterion(means_direction(model))],
            mode="markers+text",
            marker=dict(symbol="diamond", size=11, color="#555555"),
            text=[_("means line")],
            # Beside the marker, on the side away from the peak, where the curve has fallen below it.
            textposition="top right" if means_position >= centre else "top left",
            name=_("line joining the means"),
            customdata=[means_position % 180.0],
            hovertemplate=_("line joining the means θ = {angle}°").format(angle="%{customdata:.1f}")
            + "<br>J = %{y:.3g}<extra></extra>",
        ),
    ]


def _criterion_layout(angle, centre, top):
    """The J(theta) chart's axes: half a turn around ``centre`` labelled mod 180, the slider's line."""
    return dict(
        template=TEMPLATE,
        title=dict(  # two lines: whole in a half-width column at a projector's type size
            text=_("J(θ) as the direction rotates") + "<br>" + _("slider at θ = {angle}°").format(angle=f"{angle:.1f}"),
            font=dict(size=14),
        ),
        height=300,
        margin=dict(l=10, r=10, t=70, b=30),
        xaxis=dict(
            title=dict(text=_("direction θ, mod 180° (θ and θ + 180° are one line)")),
            range=[centre - 90.0, centre + 90.0],
            **wrapped_ticks(centre),
        ),
        yaxis=dict(title="J(θ)", rangemode="tozero", range=[0, 1.2 * top]),
        showlegend=False,
        shapes=[vline(wrapped(angle, centre), dict(color=SLIDER_COLOUR, width=2))],
    )


def fisher_space_figure(model: FisherDiscriminant, X: FloatArray, y: LabelArray) -> go.Figure:
    """K classes: the points in the Fisher space y = W^T x (1-D strip or 2-D scatter)."""
    Z = model.transform(X)
    two_d = Z.shape[1] >= 2
    traces = []
    for label in model.classes_:
        members = y == label
        k = int(label)
        traces.append(
            go.Scatter(
                x=Z[members, 0].astype(np.float32),
                y=(Z[members, 1] if two_d else np.full(members.sum(), float(k))).astype(np.float32),
                mode="markers",
                marker=dict(
                    color=CLASS_COLOURS[k], symbol=CLASS_SYMBOLS[k], size=8, line=dict(color=MARKER_OUTLINE, width=1)
                ),
                name=class_name_html(k),
            )
        )
    means = model.projected_means_
    traces.append(
        go.Scatter(
            x=means[:, 0],
            y=means[:, 1] if two_d else model.classes_.astype(float),
            mode="markers",
            marker=dict(symbol="x", size=13, color="#222222"),
            name=_("projected class means"),
        )
    )
    return go.Figure(
        data=traces,
        layout=dict(
            template=TEMPLATE,
            height=380,
            margin=dict(l=10, r=10, t=30, b=30),
            xaxis_title=f"y₁ = w₁ᵀx   (J = {model.eigenvalues_[0]:.3g})",
            yaxis_title=f"y₂ = w₂ᵀx   (J = {model.eigenvalues_[1]:.3g})" if two_d else _("class"),
            legend=dict(orientation="h", y=1.02, yanchor="bottom"),
        ),
    )


def _line_through(point, direction, window):
    """The segment of the line {point + t direction} inside the window, as (x, y) lists, or None."""
    normal = np.array([-direction[1], direction[0]])
    segments = boundary_segments(normal[None, :], np.array([-normal @ point]), window)
    if not segments:
        return None
    _unused, _unused, start, end = segments[0]
    return [float(start[0]), float(end[0])], [float(start[1]), float(end[1])]


def _applies(ctx):
    return fisher_model(ctx.model) is not None


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    """Two classes: the slider's projection direction through the data mean, and its threshold line."""
    model = fisher_model(ctx.model)
    if model is None or model.classes_.size != 2 or not ctx.options.get(SHOW_OPTION, True):
        return []
    direction = oriented(model, unit(current_angle(ctx, model)))
    centre = ctx.scene.points.X.mean(axis=0)
    threshold = midpoint_threshold(model, direction)
    traces = []
    projection = _line_through(centre, direction, ctx.window)
    if projection is not None:
        traces.append(
            go.Scatter(
                x=projection[0],
                y=projection[1],
                mode="lines",
                line=dict(color=SLIDER_COLOUR, width=1.5, dash="dot"),
                hoverinfo="skip",
                name=_("projection direction (slider)"),
            )
        )
    cut = _line_through(threshold * direction, np.array([-direction[1], direction[0]]), ctx.window)
    if cut is not None:
        traces.append(
            go.Scatter(
                x=cut[0],
                y=cut[1],
                mode="lines",
                line=dict(color=SLIDER_COLOUR, width=2.5, dash="dashdot"),
                hoverinfo="skip",
                name=_("threshold for the slider direction"),
            )
        )
    return traces


def _set_angle(options, angle, key):
    options[ANGLE_OPTION] = float(angle) % 180.0
    widget_values()[key] = options[ANGLE_OPTION]


def _slider_moved(options, key):
    options[ANGLE_OPTION] = float(widget_values()[key])


def _render_two_classes(ctx, model, X, y):
    _two_projections(model, X, y)
    _rotated_projection(ctx, model, X, y)


def _two_projections(model, X, y):
    """Figure 4.6's two histograms: onto the line joining the means and onto Fisher's direction."""
    means_dir, fisher_dir = means_direction(model), model.direction_
    left, right = st.columns(2)
    chart(
        projection_figure(
            model,
            X,
            y,
            means_dir,
            midpoint_threshold(model, means_dir),
            _("(a) onto the line joining the means: J = {value}").format(value=_safe_j(model.criterion(means_dir))),
        ),
        key="fisher_hist_means",
        where=left,
    )
    chart(
        projection_figure(
            model,
            X,
            y,
            fisher_dir,
            model.threshold_,
            _("(b) onto Fisher's direction: J = {value}").format(value=_safe_j(model.criterion(fisher_dir))),
        ),
        key="fisher_hist_fisher",
        where=right,
    )
    st.caption(
        join_sentences(
            _(
                "Left: projecting onto m₂ − m₁ separates the means as much as possible, but the classes' spread "
                "along it makes them overlap."
            ),
            _(
                "Right: Fisher's w ∝ S_W⁻¹(m₂ − m₁) (eq. 4.30; J(w) = J(−w), so the sign is free, and the "
                "Equations tab turns w towards C₁ so that y ≥ y₀ means C₁) also keeps each class compact, "
                "maximising J(w) (eq. 4.26)."
            ),
            _("Its threshold (halfway between the projected means) is the solid line on the plot.")
            if model.threshold == "midpoint"
            else _("Its threshold (where the 1-D Gaussians tie) is the solid line on the plot."),
            _("Threshold on the left: the midpoint of the projected means."),
        )
    )
    st.button(
        _("Load two elongated classes (fig. 4.6)"),
        key="fisher_load_elongated",
        on_click=_load_elongated,
        help=_("Replaces the points (undoable) with data where the two projections differ the most."),
    )


def _rotated_projection(ctx, model, X, y):
    """The projection onto a direction the slider turns, with J(θ) beside it (in presentation the
    slider, its two snap buttons and its histogram are in the drawer: ``drawer``)."""
    if ctx.controls_in_drawer:
        angle = current_angle(ctx, model)
    else:
        st.markdown(_("**Rotate the projection direction**"))
        angle = _angle_controls(ctx, model)
    option_checkbox(
        _("Draw this direction (dotted) and its threshold (dash-dot, purple) on the plot"),
        ctx,
        SHOW_OPTION,
        "fisher_show_direction",
    )
    left, right = st.columns(2)
    chart(criterion_figure(model, angle), key="fisher_criterion", where=left)
    if not ctx.controls_in_drawer:
        _slider_histogram(model, X, y, angle, right)
    st.caption(
        _(
            "J(θ) is the ratio of the between-class to the within-class variance of the projections; it peaks at "
            "Fisher's direction (★) and is lower along the line joining the means (◆). The threshold for the "
            "slider's direction is the midpoint of the projected means."
        )
    )


def _angle_controls(ctx, model):
    """The angle slider and its two snap buttons (their whole words on one row); returns the angle."""
    key = "fisher_angle_slider"
    angle = current_angle(ctx, model)
    widget_values()[key] = angle
    st.slider(
        _("Direction angle θ (degrees from the x₁ axis)"),
        0.0,
        180.0,
        step=ANGLE_STEP,
        key=key,
        on_change=_slider_moved,
        args=(ctx.options, key),
    )
    row = st.container(horizontal=True, gap="small")
    for label, direction, button_key in (
        (_("Means line"), means_direction(model), "fisher_snap_means"),
        (_("Fisher's w"), model.direction_, "fisher_snap_fisher"),
    ):
        row.button(
            label, key=button_key, on_click=_set_angle, args=(ctx.options, angle_of(direction), key), width="content"
        )
    return angle


# In the drawer the histogram shares a 720 px screen with the figure's text and the slider above it.
DRAWER_HISTOGRAM_HEIGHT = 128  # drawn 1.3 times taller in presentation (ui.plot.projector_sizes)


def _slider_histogram(model, X, y, angle, where=None, height=300):
    direction = oriented(model, unit(angle))
    chart(
        projection_figure(
            model,
            X,
            y,
            direction,
            midpoint_threshold(model, direction),
            _("onto θ = {angle}°: J = {value}").format(angle=f"{angle:.1f}", value=_safe_j(model.criterion(direction))),
            height=height,
        ),
        key="fisher_hist_slider",
        where=where,
    )


def drawer(ctx: PanelContext) -> None:
    """Presentation: figure 4.6's "Try:" beside its text: the angle slider, its snap buttons and the
    projection it turns (J beside it), for two classes."""
    model = fisher_model(ctx.model)
    if model is None or model.classes_.size != 2:
        return
    angle = _angle_controls(ctx, model)
    _slider_histogram(model, ctx.scene.points.X, ctx.scene.points.y, angle, height=DRAWER_HISTOGRAM_HEIGHT)


def render(ctx: PanelContext) -> None:
    model = fisher_model(ctx.model)
    if model is None:  # the panel applies to a Fisher discriminant only
        return
    X, y = ctx.scene.points.X, ctx.scene.points.y
    if model.classes_.size == 2:
        _render_two_classes(ctx, model, X, y)
        return
    chart(fisher_space_figure(model, X, y), key="fisher_space")
    st.button(
        _("Load two elongated classes (fig. 4.6)"),
        key="fisher_load_elongated",
        on_click=_load_elongated,
        help=_("Replaces the points (undoable) with two classes, to compare the projections of figure 4.6."),
    )
    values = ", ".join(f"{v:.3g}" for v in model.eigenvalues_)
    directions = _(
        "With K = {k} classes Fisher's criterion gives at most K − 1 directions: the leading eigenvectors of "
        "S_W⁻¹S_B (eq. 4.51), here {n} in the plane, with eigenvalues {values}."
    ).format(k=model.classes_.size, n=model.directions_.shape[1], values=values)
    classified = (
        _(
            "The points are classified in this projected space (nearest projected mean, with the log priors), "
            "which draws the straight boundaries on the plot."
        )
        if model.threshold == "gaussian"
        else _(
            "The points are classified in this projected space (nearest projected mean), which draws the "
            "straight boundaries on the plot."
        )
    )
    st.caption(join_sentences(directions, classified))


PANELS = [
    Panel(
        name="fisher_projection",
        title=N_("Fisher projection (fig. 4.6)"),
        applies=_applies,
        render=render,
        overlay=overlay,
        drawer=drawer,
        order=30,
        help=(
            N_(
                "Figure 4.6: projecting onto the line joining the means leaves the classes overlapping; Fisher's "
                "direction w ∝ S_W⁻¹(m₂ − m₁) maximises J(w) (eq. 4.26), the ratio of between- to within-class spread."
            )
        ),
    )
]
