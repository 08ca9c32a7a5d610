"""Least squares beside logistic regression on the same points, with outliers (PRML figure 4.4).

Least squares penalises points that are "too correct" (far on the right side of the boundary),
so a group of distant, correctly labelled points drags its boundary; logistic regression's
cross-entropy hardly notices them. The button adds such a group (undoable).
"""

from typing import Final

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from playground import InvalidDataError, PlaygroundError, Window, boundary_segments, evaluate_grid
from playground.base import LinearClassifier
from playground.least_squares import CARD as LEAST_SQUARES
from playground.scene import PointSet
from playground.validation import FloatArray, LabelArray
from ui.base.visitor import visitor
from ui.plot.chart import chart
from ui.plot.figures import point_traces, region_trace, segment_trace
from ui.plot.theme import TEMPLATE
from ui.session import state
from ui.session.compute import fitted_model, scene_model
from ui.text.i18n import N_, _, ngettext
from ui.text.names import class_label_format, class_name

from . import Panel, PanelContext

N_OUTLIERS = 8
OUTLIER_ANGLE_DEGREES = -25.0
REGION_RESOLUTION = 80
FIGURE_HEIGHT = 380
FIGURE_ASPECT = 1.3  # width / height of a small figure's plot area
OUTLIER_CLASS_KEY: Final = "outlier_class"


def applies(ctx: PanelContext) -> bool:
    model = ctx.model
    return model is not None and hasattr(model, "coef_") and np.asarray(model.classes_).size == 2


def outlier_points(
    X: FloatArray, y: LabelArray, label: int, w: FloatArray | None = None, n: int = N_OUTLIERS, seed: int = 0
) -> FloatArray:
    """``n`` points of class ``label`` far beyond its own cluster, on its side of the boundary.

    They are centred at the class mean plus 1.5 times the data's extent along the direction
    ``w`` (pointing towards the class; by default from the other classes' mean to this class's
    mean) turned by 25 degrees, with a small spread: points a good classifier gets right with
    room to spare, as in figure 4.4.
    """
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    members, others = X[y == label], X[y != label]
    if len(members) == 0:
        raise InvalidDataError(
            _("There are no points of {name} to add outliers to.").format(name=class_name(int(label)))
        )
    mean = members.mean(axis=0)
    towards = mean - (others.mean(axis=0) if len(others) else X.mean(axis=0))
    if w is not None:
        w = np.asarray(w, dtype=float).reshape(-1)
        if np.linalg.norm(w) > 0:
            towards = w if w @ towards >= 0 else -w
    if not np.linalg.norm(towards) > 0:
        towards = np.array([1.0, 0.0])
    towards = towards / np.linalg.norm(towards)
    angle = np.radians(OUTLIER_ANGLE_DEGREES)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    direction = rotation @ towards
    extent = float(np.max(np.ptp(X, axis=0))) or 1.0
    spread = float(np.mean(members.std(axis=0))) * 0.3 or 0.05 * extent
    rng = np.random.default_rng(seed)
    centre = mean + 1.5 * extent * direction
    return centre + spread * rng.standard_normal((n, 2))


def _add_outliers():
    scene = state.scene()
    points = scene.points
    training = points.training  # the outliers go where the fit (to the training points) puts them
    model = scene_model(scene)
    present = [int(c) for c in np.unique(training.y)]
    label = visitor().get(OUTLIER_CLASS_KEY)
    if label not in present:
        label = present[-1] if present else 0
    w = np.asarray(model.coef_)[0] if model is not None and hasattr(model, "coef_") else None
    try:
        new = outlier_points(training.X, training.y, label, w, seed=len(points) + scene.seed)
        extended = points.extended(PointSet.from_arrays(new, np.full(len(new), label)))
    except PlaygroundError as err:
        state.notify(err.message)  # phrased in the session's language where it is shown
        return
    state.change_points(extended, refit_view=True)


def framed_window(X: FloatArray, aspect: float = FIGURE_ASPECT) -> Window:
    """A window around the points widened along one axis to width / height = ``aspect``, so
    that both small figures show x and y to the same scale and fill their frame."""
    window = Window.around(X)
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    cx, cy = (window.x_min + window.x_max) / 2, (window.y_min + window.y_max) / 2
    width, height = max(width, height * aspect), max(height, width / aspect)
    return Window(cx - width / 2, cx + width / 2, cy - height / 2, cy + height / 2)


def _linear_fit_traces(model, points, window, resolution=REGION_RESOLUTION):
    classes = np.asarray(model.classes_, dtype=int)
    grid = evaluate_grid(model, window, resolution)
    traces = [region_trace(classes[grid.labels].astype(np.uint8), window)]
    segments = [
        (int(classes[i]), int(classes[j]), start, end)
        for i, j, start, end in boundary_segments(model.coef_, model.intercept_, window)
    ]
    if segments:
        traces.append(segment_trace(segments))
    traces += point_traces(points)
    return traces


def comparison_figure(model: LinearClassifier, points: PointSet, window: Window, title: str) -> go.Figure:
    """A small figure: regions, boundary and points of a fitted linear model, on ``window``."""
    predicted = model.predict(points.X)
    wrong = int(np.sum(predicted != points.y))
    return go.Figure(
        data=_linear_fit_traces(model, points, window),
        layout=dict(
            template=TEMPLATE,
            height=FIGURE_HEIGHT,
            margin=dict(l=30, r=10, t=40, b=30),
            title=dict(
                text=ngettext("{method}: {n} misclassified", "{method}: {n} misclassified", wrong).format(
                    method=title, n=wrong
                ),
                font_size=14,
            ),
            xaxis=dict(range=[window.x_min, window.x_max]),
            yaxis=dict(range=[window.y_min, window.y_max], scaleanchor="x", scaleratio=1),
            showlegend=False,
            dragmode=False,
        ),
    )


def render(ctx: PanelContext) -> None:
    logistic = ctx.model
    if not isinstance(logistic, LinearClassifier):  # the panel applies to a linear fit, with coef_ (applies)
        return
    points = ctx.scene.points
    classes = [int(c) for c in np.asarray(logistic.classes_)]
    if visitor().get(OUTLIER_CLASS_KEY) not in classes:
        visitor()[OUTLIER_CLASS_KEY] = classes[-1]
    pick_col, button_col = st.columns([2, 1])
    pick_col.radio(
        _("Outliers of"),
        classes,
        format_func=class_label_format(markdown=True),
        key=OUTLIER_CLASS_KEY,
        horizontal=True,
    )
    button_col.button(
        _("Add outliers"),
        key="add_outliers",
        on_click=_add_outliers,
        help=_("Add {n} points of that class far away on its own side of the boundary (undo with ↶ Undo).").format(
            n=N_OUTLIERS
        ),
        width="stretch",
    )
    least_squares, error = fitted_model(points, LEAST_SQUARES.name, (), "native")
    window = framed_window(points.X)
    left, right = st.columns(2)
    with left:
        if least_squares is None:
            st.warning(error)
        elif isinstance(least_squares, LinearClassifier):  # least squares' fit always is
            chart(
                comparison_figure(least_squares, points, window, _("Least squares")),
                key="robustness_least_squares",
                config={"displayModeBar": False},
            )
    with right:
        chart(
            comparison_figure(logistic, points, window, _("Logistic regression")),
            key="robustness_logistic",
            config={"displayModeBar": False},
        )
    st.caption(
        _(
            "Least squares fits targets 0/1 with a straight line, so points far on the correct side still count as "
            "errors and pull its boundary towards them; the cross-entropy of logistic regression (eq. 4.90) gives "
            "such points almost no weight, and its boundary stays put."
        )
    )


PANELS = [
    Panel(
        title=N_("Outliers: least squares vs logistic"),
        name="outliers",
        applies=applies,
        render=render,
        order=60,
        help=(
            N_(
                "Figure 4.4 in your own hands: add a group of far but correctly labelled points and watch least "
                "squares (section 4.1.3) tilt while logistic regression (section 4.3.2) holds its line."
            )
        ),
    )
]
