"""Fit the scene's method and evaluate it over the view: cached pure functions of the scene."""

from dataclasses import dataclass

import numpy as np
import streamlit as st

from playground import PlaygroundError, Window, boundary_segments, evaluate_grid, make_model, phrase
from playground.basis import make_basis
from playground.geometry import linear_regions
from playground.scene import PointSet

GRID_RESOLUTION = 200
# The caches key point sets on their fingerprint, not on every coordinate.
HASH_FUNCS = {PointSet: lambda points: points.digest}


def class_name(label):
    """How a sentence names a class: the app's label k (0..5) is class k + 1, as the book counts."""
    return f"class {int(label) + 1}"


@dataclass(frozen=True)
class FitView:
    """What the figure and the status line need; ``error`` is set when no fit exists."""

    error: str | None = None
    note: str | None = None  # e.g. "did not converge", shown next to a valid fit
    classes: np.ndarray | None = None  # global class indices the model knows
    predicted: np.ndarray | None = None  # (N,) predicted class index per point
    region_labels: np.ndarray | None = None  # (R, R) uint8 global class index per cell
    segments: tuple = ()  # exact boundary segments ((class_i, class_j, start, end), ...)
    region_polygons: tuple = ()  # exact regions of a linear model ((class, (M, 2) polygon), ...)
    contour_field: np.ndarray | None = None  # (R, R) or (R, R, K) float32 for curved boundaries
    accuracy: float | None = None


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH_FUNCS)
def fitted_model(points, method, params, multiclass, basis="identity", basis_params=()):
    """The fitted estimator for these points and settings, or the PlaygroundError raised."""
    try:
        phi = None if basis == "identity" else make_basis(basis, **dict(basis_params))
        model = make_model(method, multiclass=multiclass, basis=phi, **dict(params))
        return model.fit(points.X, points.y), None
    except PlaygroundError as err:
        return None, phrase(err, class_name)


def _is_exactly_linear(model):
    return getattr(model, "is_linear", False) and hasattr(model, "coef_") and not hasattr(model, "predict_index")


def shown_model(model, step):
    """The model as it was after ``step`` updates (playback), or the final fit.

    Iterative estimators provide ``at_step(step)``, a copy carrying that step's weights.
    """
    if model is None or step is None or not hasattr(model, "at_step"):
        return model
    return model.at_step(step)


def scene_model(scene):
    """The fitted model of a scene, or None (the error is reported by ``scene_view``)."""
    if len(scene.points) == 0:
        return None
    return fitted_model(scene.points, scene.method, scene.params, scene.multiclass, scene.basis, scene.basis_params)[0]


def scene_view(scene):
    """``fit_view`` for a scene: everything the canvas and the status line draw."""
    return fit_view(
        scene.points,
        scene.method,
        scene.params,
        scene.multiclass,
        scene.window,
        scene.step,
        basis=scene.basis,
        basis_params=scene.basis_params,
    )


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH_FUNCS)
def fit_view(
    points, method, params, multiclass, window, step=None, resolution=GRID_RESOLUTION, basis="identity", basis_params=()
):
    """Fit (or replay to ``step``), then evaluate on the points and on a resolution^2 grid."""
    if len(points) == 0:
        return FitView(error="There are no points yet: click on the plot to add some, or generate clusters.")
    model, error = fitted_model(points, method, params, multiclass, basis, basis_params)
    if error:
        return FitView(error=error)
    try:
        model = shown_model(model, step)
        grid = evaluate_grid(model, window, resolution)
        predicted_index = np.searchsorted(model.classes_, model.predict(points.X))
    except PlaygroundError as err:
        return FitView(error=phrase(err, class_name))
    classes = np.asarray(model.classes_, dtype=int)
    predicted = classes[predicted_index]
    segments, polygons, contour_field = (), (), None
    if _is_exactly_linear(model):
        segments = tuple(
            (int(classes[i]), int(classes[j]), start, end)
            for i, j, start, end in boundary_segments(model.coef_, model.intercept_, window)
        )
        # Polygons are exact and a few hundred bytes, where the 200 x 200 grid is 54 KB per click.
        polygons = tuple(
            (int(classes[k]), polygon)
            for k, polygon in enumerate(linear_regions(model.coef_, model.intercept_, window))
            if len(polygon) >= 3
        )
    else:
        contour_field = _boundary_field(grid)
    return FitView(
        note=phrase(getattr(model, "fit_message_", None), class_name),
        classes=classes,
        predicted=predicted,
        region_labels=classes[grid.labels].astype(np.uint8),
        segments=segments,
        region_polygons=polygons,
        contour_field=contour_field,
        accuracy=float(np.mean(predicted == points.y)),
    )


def _boundary_field(grid):
    """A field whose zero level set is the decision boundary, for contouring.

    Two classes: the decision value itself. K classes decided by argmax: for each class the
    margin d_k - max_{j != k} d_j. Otherwise (votes): a class indicator centred on 0.5.
    """
    decision = grid.decision
    if decision.ndim == 2 and grid.classes.size == 2:
        field = decision[..., None]
    elif decision.ndim == 3 and np.array_equal(np.argmax(decision, axis=2), grid.labels):
        top2 = np.sort(decision, axis=2)[..., -2:]
        runner_up = np.where(decision == top2[..., 1:], top2[..., :1], top2[..., 1:])
        field = decision - runner_up
    else:
        field = (grid.labels[..., None] == np.arange(grid.classes.size)).astype(float) - 0.5
    scale = np.max(np.abs(field)) or 1.0
    return (field / scale).astype(np.float32)


def window_for(points, fallback=None):
    """A view window framing the points (or the fallback / default when there are none)."""
    if len(points) == 0:
        return fallback or Window()
    return Window.around(points.X)
