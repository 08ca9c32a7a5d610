"""What the canvas draws of a fitted model: predictions, regions, boundary (numpy only, no streamlit).

Computed in the server, or by the worker process that fitted the model (``ui.engine.workers``), so a
heavy model's 200 x 200 evaluation does not hold the server either.
"""

from dataclasses import dataclass
from typing import Any, TypeAlias, overload

import numpy as np
from numpy.typing import NDArray

from playground import Classifier, GridResult, Message, PlaygroundError, Window, evaluate_grid
from playground.geometry import exact_regions
from playground.i18n import N_
from playground.scene import PointSet

GRID_RESOLUTION = 200  # the view's grid: resolution x resolution points over the window

# An exact boundary segment: (class i, class j, start (2,), end (2,)) between the regions of i and j.
Segment: TypeAlias = tuple[int, int, NDArray[np.float64], NDArray[np.float64]]
# An exact region: (class, (M, 2) polygon).
RegionPolygon: TypeAlias = tuple[int, NDArray[np.float64]]


@dataclass(frozen=True)
class FitView:
    """What the figure and the status line need; ``error`` is set when no fit exists.

    ``error`` and ``note`` are ``Message`` values (or plain text): the session phrases them in its
    own language where they are shown (``ui.text.names.phrased``), since a view is shared by every
    session that draws the same scene.
    """

    error: Message | str | None = None
    note: Message | str | None = None  # e.g. "did not converge", shown next to a valid fit
    classes: np.ndarray | None = None  # global class indices the model knows
    predicted: np.ndarray | None = None  # (N,) predicted class index per point
    region_labels: np.ndarray | None = None  # (R, R) uint8 global class index per cell (curved boundaries)
    segments: tuple[Segment, ...] = ()  # exact boundary segments ((class_i, class_j, start, end), ...)
    region_polygons: tuple[RegionPolygon, ...] = ()  # exact regions of a linear model ((class, (M, 2) polygon), ...)
    contour_field: np.ndarray | None = None  # (R, R) or (R, R, K) float32 for curved boundaries
    accuracy: float | None = None


@overload
def shown_model(model: None, step: int | None) -> None: ...
@overload
def shown_model(model: Classifier, step: int | None) -> Classifier: ...
@overload
def shown_model(model: Classifier | None, step: int | None) -> Classifier | None: ...


def shown_model(model: Classifier | None, step: int | None) -> Classifier | None:
    """The model as it was after ``step`` updates (playback), or the final fit.

    Iterative estimators provide ``at_step(step)``, a copy carrying that step's weights.
    """
    if model is None or step is None or not hasattr(model, "at_step"):
        return model
    return model.at_step(step)


def test_predictions(model: Classifier | None, step: int | None, points: PointSet) -> NDArray[np.int_] | None:
    """The fitted model's labels (class indices) of the test points of ``points``, as shown at
    playback ``step``, or None when there are no test points, no fit, or the model cannot say."""
    if model is None or not points.test:
        return None
    try:
        return np.asarray(shown_model(model, step).predict(points.testing.X)).astype(int)
    except PlaygroundError:
        return None


def evaluate_view(
    result: tuple[Classifier | None, Message | str | None],
    X: NDArray[np.float64],
    y: NDArray[Any],
    window: Window,
    step: int | None,
    resolution: int,
) -> FitView:
    """The ``FitView`` of a fit ``result`` = (model, error) on points (X, y): replayed to ``step``,
    evaluated on the points and on a resolution^2 grid over ``window``."""
    model, error = result
    if error:
        return FitView(error=error)
    assert model is not None  # a fit gives a model or an error
    try:
        model = shown_model(model, step)
        predicted_index = np.searchsorted(model.classes_, model.predict(X))
    except PlaygroundError as err:
        return FitView(error=err.message)
    classes = np.asarray(model.classes_, dtype=int)
    predicted = classes[predicted_index]
    segments: tuple[Segment, ...] = ()
    polygons: tuple[RegionPolygon, ...] = ()
    contour_field: np.ndarray | None = None
    region_labels: np.ndarray | None = None
    exact = exact_regions(model, window)  # straight boundaries: exact segments and polygons
    if exact is not None:
        # Polygons are exact and a few hundred bytes, where the 200 x 200 grid is 54 KB per click
        # (and the server's time to evaluate it, on every click of a linear model).
        regions, boundary = exact
        segments = tuple((int(classes[i]), int(classes[j]), start, end) for i, j, start, end in boundary)
        polygons = tuple((int(classes[k]), polygon) for k, polygon in regions if len(polygon) >= 3)
    if not polygons:  # curved boundaries (or no region left whole in view): the grid shows them
        try:
            grid = evaluate_grid(model, window, resolution)
        except PlaygroundError as err:
            return FitView(error=err.message)
        region_labels = classes[grid.labels].astype(np.uint8)
        if exact is None:
            contour_field = _boundary_field(grid)
    return FitView(
        note=playback_note(model, step),
        classes=classes,
        predicted=predicted,
        region_labels=region_labels,
        segments=segments,
        region_polygons=polygons,
        contour_field=contour_field,
        accuracy=float(np.mean(predicted == y)),
    )


def playback_note(model: Classifier, step: int | None) -> Message | str | None:
    """The fit's message (a ``Message``); while playback shows an earlier step it says so, as the
    message describes the end of the run (e.g. "did not converge"), not the boundary shown."""
    message = getattr(model, "fit_message_", None) or None
    if not message or step is None:
        return message
    # SVM playback counts recorded entries (history_); the perceptron and IRLS / GD count updates.
    history = getattr(model, "history_", None) if hasattr(model, "smo_step_") else None  # an SVM records it
    last = len(history) if history is not None else getattr(model, "n_iter_", None)
    if last is None or step >= last:
        return message
    return Message(
        N_("Playback: step {step} of {last} is shown, not the final fit. At the end of the run: {message}"),
        step=step,
        last=last,
        message=Message(message),
    )


def _boundary_field(grid: GridResult) -> NDArray[np.float32]:
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
