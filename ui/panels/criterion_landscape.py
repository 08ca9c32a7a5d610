"""The criterion's landscape (issue 46): the method's criterion at every line of the view, over the
angle of the book's w (into C1) and the boundary's signed distance from the origin (-w0/||w||,
eq. 4.5), centred on the fit, with the fit, the person's line and the optimiser's path on it.

Rules that hold: one vectorised pass over all the lines (``playground.landscape``), computed once
per training points, settings and view in the server's shared cache; angles are wrapped into the
figure's range, and its ticks are written in (-180°, 180°].
"""

import math
from typing import Any, NamedTuple

import numpy as np
import streamlit as st

from playground import Classifier, PlaygroundError
from playground.landscape import best_scale_values
from playground.scene import Scene
from playground.validation import FloatArray
from ui.engine.cache import approx_bytes, result_cache
from ui.engine.keys import scene_fit_key
from ui.plot.line_scores import GUESS_COLOUR, criterion_model, guess_line
from ui.plot.theme import FIT_INK, TEMPLATE
from ui.text.convention import BookLine, book_line, book_weights
from ui.text.i18n import _

from . import PanelContext, number_text

LANDSCAPE_ANGLES = 72  # 5° apart
LANDSCAPE_OFFSETS = 60
MAX_PATH_POINTS = 300  # the optimiser's steps drawn on the landscape (evenly sampled beyond)


class Landscape(NamedTuple):
    angles: FloatArray  # degrees, the book's w direction
    offsets: FloatArray  # the boundary's signed distance from the origin (eq. 4.5)
    values: FloatArray  # (offsets, angles), NaN where not finite


def polar(line: BookLine) -> tuple[float, float]:
    """(angle of w in degrees, -w0/||w||): the line's place on the landscape."""
    return math.degrees(math.atan2(line.w[1], line.w[0])), line.distance_from_origin


def offset_range(scene: Scene) -> tuple[float, float]:
    """The distances from the origin of the lines that cross the view."""
    window = scene.window
    corners = np.array(
        [
            [window.x_min, window.y_min],
            [window.x_min, window.y_max],
            [window.x_max, window.y_min],
            [window.x_max, window.y_max],
        ]
    )
    reach = float(np.max(np.linalg.norm(corners, axis=1)))
    return -reach, reach


def centre_angle(model: Classifier) -> float:
    """The angle the landscape is centred on: the fit's (its basin then lies whole in the middle)."""
    fit = book_line(model)
    return 0.0 if fit is None else round(polar(fit)[0])


def wrapped(angle: float, centre: float) -> float:
    """``angle`` moved by whole turns into [centre - 180, centre + 180)."""
    return centre + (angle - centre + 180.0) % 360.0 - 180.0


def landscape(scene: Scene, model: Classifier) -> Landscape:
    """The method's criterion (at the best scale) over the lines of the view, one vectorised pass."""
    estimator, _own = criterion_model(scene, model)
    angles = centre_angle(model) + np.linspace(-180.0, 180.0, LANDSCAPE_ANGLES + 1)
    low, high = offset_range(scene)
    offsets = np.linspace(low, high, LANDSCAPE_OFFSETS)
    theta, offset = np.meshgrid(np.radians(angles), offsets)
    book = np.stack([-offset.ravel(), np.cos(theta.ravel()), np.sin(theta.ravel())], axis=1)
    training = scene.points.training
    values = best_scale_values(estimator, training.X, training.y, book_weights(model, book)).values
    values = np.where(np.isfinite(values), values, np.nan).reshape(offset.shape)
    return Landscape(angles, offsets, values)


def cached_landscape(scene: Scene, model: Classifier) -> Landscape:
    """``landscape`` from the server's shared cache: it depends on the training points, the
    method's settings and the view alone, the same for every visitor and every guess."""
    key = ("your_line_landscape", scene_fit_key(scene), scene.window)

    def compute() -> tuple[Landscape, int]:
        with st.spinner(_("Drawing the criterion's landscape over the lines of the plane…")):
            made = landscape(scene, model)  # about 0.5 s for probit's exact ln Φ, 50 ms for the others
        return made, approx_bytes(made)

    return result_cache().compute_once(key, compute)[0]


def path_points(model: Classifier, upto: int | None = None) -> list[tuple[float, float]]:
    """The optimiser's iterates (playback's steps 0, 1, ..., ``upto``; all when None) as landscape
    points, at most ``MAX_PATH_POINTS`` of them (evenly sampled, the last step always in)."""
    steps = len(getattr(model, "history_", ()) or ())
    if not steps or not hasattr(model, "at_step"):
        return []
    last = steps if upto is None else max(0, min(int(upto), steps))
    chosen = sorted(set(np.linspace(0, last, min(last + 1, MAX_PATH_POINTS)).round().astype(int).tolist()))
    points = []
    for step in chosen:
        try:
            line = book_line(model.at_step(step))
        except (PlaygroundError, IndexError, ValueError):
            continue
        if line is not None:
            points.append(polar(line))
    return points


def _contour_trace(land: Landscape, estimator: Any) -> dict[str, Any]:
    return dict(
        type="contour",
        x=land.angles.tolist(),
        y=land.offsets.tolist(),
        z=[[None if math.isnan(v) else round(float(v), 6) for v in row] for row in land.values],
        colorscale="Viridis",
        reversescale=not estimator.criterion_maximised,  # the optimum bright
        contours=dict(coloring="heatmap"),
        ncontours=24,
        line=dict(width=0.5),
        colorbar=dict(thickness=12, title=dict(text=_(estimator.criterion_name), side="right")),
        hovertemplate=_("angle of w %{x:.0f}°<br>−w₀/‖w‖ = %{y:.2f}<br>value %{z:.4g}") + "<extra></extra>",
        name=_(estimator.criterion_name),
    )


def _marker_trace(line: BookLine, centre: float, marker: dict[str, Any], name: str) -> dict[str, Any]:
    """One line as a marker on the landscape, its angle wrapped into the figure's range."""
    angle, offset = polar(line)
    return dict(type="scatter", x=[wrapped(angle, centre)], y=[offset], mode="markers", marker=marker, name=name)


def _landscape_layout(centre: float) -> dict[str, Any]:
    ticks = [45 * k for k in range(math.ceil((centre - 180) / 45), math.floor((centre + 180) / 45) + 1)]
    return dict(
        template=TEMPLATE,
        height=380,
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(
            title=dict(text=_("angle of w (°), into C₁")),
            range=[centre - 180, centre + 180],
            # Ticks at the multiples of 45°, each written as the angle in (−180°, 180°].
            tickvals=ticks,
            ticktext=[number_text(-((180 - tick) % 360) + 180, 3) for tick in ticks],
        ),
        yaxis=dict(title=dict(text=_("−w₀/‖w‖ (eq. 4.5)"))),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
        showlegend=True,
    )


def landscape_figure(scene: Scene, ctx: PanelContext, land: Landscape, estimator: Any) -> dict[str, Any]:
    """The landscape as a plotly figure (a dict in plotly.js's schema): the criterion's contours, the
    fit's optimum, the optimiser's path up to the step shown, and the person's line."""
    data = [_contour_trace(land, estimator)]
    centre = float(land.angles[0]) + 180.0
    steps = path_points(ctx.model, scene.step) if ctx.model is not None else []
    upto = [(wrapped(angle, centre), offset) for angle, offset in steps]
    if upto:
        data.append(
            dict(
                type="scatter",
                x=[p[0] for p in upto],
                y=[p[1] for p in upto],
                mode="lines+markers",
                line=dict(color="white", width=1.5),
                marker=dict(size=4, color="white"),
                name=_("the optimiser's path"),
                hoverinfo="skip",
            )
        )
    fit = book_line(ctx.shown_model)
    if fit is not None:
        star = dict(symbol="star", size=16, color=FIT_INK, line=dict(color="white", width=1.5))
        data.append(_marker_trace(fit, centre, star, _("the fit")))
    guess = guess_line(scene, ctx.model) if ctx.model is not None else None
    if guess is not None:
        circle = dict(symbol="circle", size=13, color=GUESS_COLOUR, line=dict(color="white", width=2))
        marker = _marker_trace(guess, centre, circle, _("your line"))
        # The browser moves it with the line on the plot, and the line with it (ui/plot/landscape_drag.js).
        marker.update(
            meta="landscape_guess", hovertemplate=_("your line · drag it to move the line") + "<extra></extra>"
        )
        data.append(marker)
    return {"data": data, "layout": _landscape_layout(centre)}
