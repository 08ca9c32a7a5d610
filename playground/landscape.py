"""A method's criterion over the lines of the plane (issue 46): the landscape its fit descends.

A line of the plane is its direction and its place, w = s u with u a unit line: (u1, ..., uD) of
length 1 and u0 its offset. The criterion of most methods depends on the scale s too, which a line
drawn on the plane does not have; the landscape shows each line at its best scale, so every cell
is the least value the method's criterion takes over all the weights that draw that line, and the
fit's optimum is the landscape's optimum. Each method's class says how its criterion depends on s
(``criterion_scale``):

- ``"optimised"`` (least squares, the cross-entropies, probit, Bayesian logistic, the SVM): the
  criterion is convex in w, hence in s along a ray; the least value over s in ``SCALE_SPAN`` (times
  the data's unit) is found on a log grid, then refined by golden sections, every line at once. A
  line the data contradict is best at s -> 0, where the value is the one at w = 0; on separable
  data the cross-entropy falls as s grows without end, and the cell is its value at the largest
  scale tried (``at_largest`` says where).
- ``"quadratic"`` (least squares): the criterion is a quadratic in s along a ray, so its least
  value over s >= 0 has a closed form: three evaluations (s = 0, one and two data units) give the
  parabola, a fourth takes the value at its vertex (or at s = 0 when the vertex lies behind it).
- ``"unit"`` (the perceptron): E_P is proportional to s (its minimum over s is 0, at w = 0), so the
  landscape is E_P of the unit line: the sum of the misclassified points' distances from it.
- ``"free"`` (Fisher's J): the criterion depends on the direction alone; s = 1.

Rules that hold: the lines are given, not made here, in the back-end's convention (a > 0 means
``classes_[1]``), so the page chooses the parametrisation and converts to the book's at its one
place; every evaluation is one vectorised pass over all the lines (``criterion_at``); the values
and scales are finite, or a ``PlaygroundError`` says why.
"""

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .criteria import HasCriterion
from .errors import InvalidDataError
from .i18n import N_
from .validation import FloatArray

#: Scales tried on the log grid, as multiples of the data's unit 1 / (the points' spread).
SCALE_SPAN = (1e-2, 1e3)
GRID_SCALES = 10
GOLDEN_STEPS = 16
_GOLDEN = (np.sqrt(5.0) - 1.0) / 2.0


class ScaledValues(NamedTuple):
    """The criterion of each unit line at its best scale (``best_scale_values``)."""

    values: FloatArray  # (M,)
    scales: FloatArray  # (M,) the scale s at which the value is taken (1 for "unit" and "free"; 0: w -> 0)
    at_largest: NDArray[np.bool_]  # (M,) the value is the one at the largest scale tried (it falls on)


def unit_lines(W: ArrayLike) -> FloatArray:
    """Lines (M, D + 1) rescaled so that their direction parts (w1, ..., wD) have length 1."""
    lines = np.atleast_2d(np.asarray(W, dtype=float))
    norms = np.linalg.norm(lines[:, 1:], axis=1)
    if lines.size == 0 or not np.all(np.isfinite(lines)) or np.any(norms == 0):
        raise InvalidDataError(
            N_("A line's direction (w1, ..., wD) must be finite and not zero to be drawn on the criterion's landscape.")
        )
    return lines / norms[:, None]


def data_unit(X: ArrayLike) -> float:
    """The points' spread (the root mean square distance from their mean), 1 when they coincide."""
    points = np.asarray(X, dtype=float)
    spread = float(np.sqrt(np.mean(np.sum((points - points.mean(axis=0)) ** 2, axis=1))))
    return spread if np.isfinite(spread) and spread > 0 else 1.0


def scale_rule(model: object) -> str:
    """How the model's criterion depends on the scale of w: "optimised", "quadratic", "unit" or "free"."""
    rule = getattr(model, "criterion_scale", "optimised")
    return rule if rule in ("optimised", "quadratic", "unit", "free") else "optimised"


def best_scale_values(model: HasCriterion, X: ArrayLike, y: ArrayLike, U: ArrayLike) -> ScaledValues:
    """The model's criterion at each unit line of U (M, D + 1; see ``unit_lines``), at its best scale.

    ``model`` is any estimator with ``criterion_at`` (its hyper-parameters are read, it need not be
    fitted); the rule is its ``criterion_scale`` (see the module's text).
    """
    lines = unit_lines(U)
    ones = np.ones(lines.shape[0])
    rule = scale_rule(model)
    if rule == "quadratic":
        return _vertex_values(model, X, y, lines)
    if rule != "optimised":
        return ScaledValues(np.asarray(model.criterion_at(X, y, lines), dtype=float), ones, np.zeros(ones.shape, bool))
    unit = 1.0 / data_unit(X)
    logs = np.linspace(np.log(SCALE_SPAN[0] * unit), np.log(SCALE_SPAN[1] * unit), GRID_SCALES)

    def at(log_scales: FloatArray) -> FloatArray:
        scaled = lines * np.exp(log_scales)[:, None]
        return np.asarray(model.criterion_at(X, y, scaled), dtype=float)

    # The log grid, every line at once: (GRID_SCALES, M).
    grid = np.stack([at(np.full(lines.shape[0], value)) for value in logs])
    best = np.argmin(grid, axis=0)
    # A convex function of s: the least value lies between the grid's neighbours of its least point.
    low = logs[np.maximum(best - 1, 0)]
    high = logs[np.minimum(best + 1, GRID_SCALES - 1)]
    values, log_best = _golden_sections(at, low, high)
    on_grid = grid[best, np.arange(lines.shape[0])]
    better = on_grid < values  # the refinement never loses what the grid found
    values = np.where(better, on_grid, values)
    scales = np.exp(np.where(better, logs[best], log_best))
    # A line the data contradict is best at s -> 0: its infimum is the value at w = 0.
    at_zero = float(np.asarray(model.criterion_at(X, y, np.zeros(lines.shape[1])), dtype=float))
    vanishing = at_zero < values
    values = np.where(vanishing, at_zero, values)
    scales = np.where(vanishing, 0.0, scales)
    return ScaledValues(values, scales, (best == GRID_SCALES - 1) & ~vanishing)


def _vertex_values(model: HasCriterion, X: ArrayLike, y: ArrayLike, lines: FloatArray) -> ScaledValues:
    """A criterion quadratic in s (``"quadratic"``): each line's least value over s >= 0, exactly."""
    unit = 1.0 / data_unit(X)
    at_zero = float(np.asarray(model.criterion_at(X, y, np.zeros(lines.shape[1])), dtype=float))
    at_one = np.asarray(model.criterion_at(X, y, lines * unit), dtype=float)
    at_two = np.asarray(model.criterion_at(X, y, lines * (2 * unit)), dtype=float)
    # E(k unit) = c0 + c1 k + c2 k^2 for k = 0, 1, 2; its vertex is at k = -c1 / (2 c2).
    curvature = (at_two - 2 * at_one + at_zero) / 2
    slope = at_one - at_zero - curvature
    with np.errstate(divide="ignore", invalid="ignore"):
        vertex = np.where(curvature > 0, -slope / (2 * curvature), 0.0)
    scales = np.maximum(vertex, 0.0) * unit
    values = np.asarray(model.criterion_at(X, y, lines * scales[:, None]), dtype=float)
    return ScaledValues(values, scales, np.zeros(lines.shape[0], bool))


def _golden_sections(
    at: Callable[[FloatArray], FloatArray], low: FloatArray, high: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Golden-section search of a convex function on [low, high] per line, all lines at once:
    (least values found, where)."""
    inner_low = high - _GOLDEN * (high - low)
    inner_high = low + _GOLDEN * (high - low)
    f_low, f_high = at(inner_low), at(inner_high)
    for _step in range(GOLDEN_STEPS):
        left = f_low <= f_high  # the least value lies in [low, inner_high]
        high = np.where(left, inner_high, high)
        low = np.where(left, low, inner_low)
        new_inner = np.where(left, high - _GOLDEN * (high - low), low + _GOLDEN * (high - low))
        f_new = at(new_inner)
        inner_high, f_high, inner_low, f_low = (
            np.where(left, inner_low, new_inner),
            np.where(left, f_low, f_new),
            np.where(left, new_inner, inner_high),
            np.where(left, f_new, f_high),
        )
    take_low = f_low <= f_high
    return np.where(take_low, f_low, f_high), np.where(take_low, inner_low, inner_high)
