"""Evaluate a fitted model on a regular grid over the view window (what the regions show)."""

from dataclasses import dataclass
from typing import Self, cast

import numpy as np
from numpy.typing import ArrayLike

from .base import Classifier, argmax_rows
from .errors import InvalidDataError
from .i18n import N_
from .validation import FloatArray, IndexArray, LabelArray

MIN_RESOLUTION = 10
MAX_RESOLUTION = 400


@dataclass(frozen=True)
class Window:
    """The visible rectangle of the input plane."""

    x_min: float = -5.0
    x_max: float = 5.0
    y_min: float = -5.0
    y_max: float = 5.0

    def __post_init__(self) -> None:
        values = (self.x_min, self.x_max, self.y_min, self.y_max)
        if not all(np.isfinite(values)) or self.x_max <= self.x_min or self.y_max <= self.y_min:
            raise InvalidDataError(
                N_("A view window needs finite bounds with min < max; got {values}."), values=str(values)
            )

    @classmethod
    def around(cls, X: ArrayLike, margin: float = 0.15, minimum_size: float = 1.0) -> Self:
        """The smallest window holding the points, padded by ``margin`` of its size."""
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        if X.shape[0] == 0:
            return cls()
        low, high = X.min(axis=0), X.max(axis=0)
        centre, half = (low + high) / 2, np.maximum((high - low) / 2, minimum_size / 2)
        half = half * (1 + 2 * margin)
        return cls(centre[0] - half[0], centre[0] + half[0], centre[1] - half[1], centre[1] + half[1])

    def as_tuple(self) -> tuple[float, float, float, float]:
        return (self.x_min, self.x_max, self.y_min, self.y_max)


@dataclass(frozen=True)
class GridResult:
    """A model evaluated at the centres of a resolution x resolution grid.

    ``labels`` holds class indices into ``classes`` (row = y, column = x, as a heatmap
    wants them); ``proba`` is (rows, cols, K) or None; ``decision`` is (rows, cols) or
    (rows, cols, K).
    """

    x: FloatArray
    y: FloatArray
    classes: LabelArray
    labels: IndexArray
    decision: FloatArray
    proba: FloatArray | None


def grid_axes(window: Window, resolution: int) -> tuple[FloatArray, FloatArray]:
    """Cell-centre coordinates along x and y, each of length ``resolution``."""
    resolution = int(resolution)
    if not MIN_RESOLUTION <= resolution <= MAX_RESOLUTION:
        raise InvalidDataError(
            N_("Grid resolution must be between {low} and {high}."), low=MIN_RESOLUTION, high=MAX_RESOLUTION
        )
    dx = (window.x_max - window.x_min) / resolution
    dy = (window.y_max - window.y_min) / resolution
    xs = window.x_min + dx * (np.arange(resolution) + 0.5)
    ys = window.y_min + dy * (np.arange(resolution) + 0.5)
    # numpy's stubs type float + float * (intp array + float) floating[Any]; it is float64.
    return cast(FloatArray, xs), cast(FloatArray, ys)


def evaluate_grid(model: Classifier, window: Window, resolution: int = 200) -> GridResult:
    """Predicted class, decision values and (if the model has them) posteriors on the grid."""
    xs, ys = grid_axes(window, resolution)
    gx, gy = np.meshgrid(xs, ys)
    points = np.column_stack([gx.ravel(), gy.ravel()])
    shape = gx.shape
    decision = np.asarray(model.decision_function(points))
    proba = None
    if getattr(model, "is_probabilistic", False):
        # A probabilistic model predicts the class of largest posterior: the regions are
        # exactly what predict() and the posterior read-outs say, ties included.
        proba = model.predict_proba(points)  # type: ignore[attr-defined]  # is_probabilistic promises it
        labels = argmax_rows(proba)
        proba = proba.reshape(shape + (-1,))
    elif hasattr(model, "predict_index"):
        # Models whose predict is not argmax of decision values (e.g. one-versus-one votes)
        # say so by providing predict_index; the grid then uses it.
        labels = model.predict_index(points)
    elif decision.ndim == 1:
        labels = (decision > 0).astype(np.intp)
    else:
        labels = np.argmax(decision, axis=1)
    return GridResult(
        x=xs,
        y=ys,
        classes=model.classes_,
        labels=labels.reshape(shape),
        decision=decision.reshape(shape + decision.shape[1:]),
        proba=proba,
    )
