"""Your line's scores (issue 46): the person's line in the two sign conventions, and each method's
criterion at it and at the fit's line, each at the line's best scale (``playground.landscape``).

Rules that hold: the person's line is the scene's ``guess`` in the book's convention and becomes
the back-end's through ``ui.text.convention`` alone; a density model (no criterion of a line) is
scored by ``STAND_IN``'s; every number is computed from the scene.
"""

import math
from typing import Any, NamedTuple

import numpy as np

from playground import CARDS, Classifier, LogisticRegression, PlaygroundError, make_model
from playground.landscape import best_scale_values, unit_lines
from playground.scene import Scene
from playground.validation import FloatArray
from ui.text.convention import BookLine, book_classes, book_line, book_weights, is_two_class
from ui.text.i18n import _

GUESS_COLOUR = "#e8590c"  # the person's line, wherever it is drawn
SHARE_SIZES = (6.0, 34.0)  # px: the smallest and largest ring of a point's share
# The criterion that scores a line for a method that has none of its own (a density model): the
# cross-entropy of logistic regression (eq. 4.90), which a density model's posterior also is.
STAND_IN = LogisticRegression


class Scored(NamedTuple):
    """One criterion's values at the person's line and the fit's (NaN: not defined there)."""

    label: str
    guess: float
    fit: float
    maximised: bool
    own: bool  # the method's own criterion (or its stand-in)


# -- the line in the two conventions -----------------------------------------------------------


def guess_line(scene: Scene, model: Classifier) -> BookLine | None:
    """The person's line as a ``BookLine`` of the model's classes, or None."""
    if scene.guess is None or not is_two_class(model):
        return None
    w0, w1, w2 = scene.guess
    first, second = book_classes(model)
    return BookLine(np.array([w1, w2]), w0, first, second)


def back_end_weights(model: Classifier, line: BookLine) -> FloatArray:
    """The line (book) as the back-end's [w0, w1, w2] (a > 0 means ``classes_[1]``)."""
    return book_weights(model, np.concatenate([[line.w0], line.w]))


def accuracy(line: BookLine, X: FloatArray, y: Any) -> float:
    """The share of the points the line puts on their class's side (y(x) >= 0 -> C1)."""
    predicted = np.where(line.value(X) >= 0, line.c1, line.c2)
    return float(np.mean(predicted == np.asarray(y))) if len(X) else math.nan


def fit_accuracy(model: Classifier, X: FloatArray, y: Any) -> float:
    return float(np.mean(model.predict(X) == np.asarray(y))) if len(X) else math.nan


# -- the criteria ----------------------------------------------------------------------------------


def criterion_model(scene: Scene, model: Classifier) -> tuple[Any, bool]:
    """The estimator whose criterion scores lines for this scene (the method's own, with its
    settings; the stand-in for a density model) and whether it is the method's own."""
    if getattr(model, "criterion_defined", False) and hasattr(model, "criterion_at"):
        return model, True
    return STAND_IN(), False


def criterion_label(estimator: Any) -> str:
    """'cross-entropy (eq. 4.90)', in the page's language."""
    return _("{criterion} (eq. {equation})").format(
        criterion=_(estimator.criterion_name), equation=estimator.criterion_equation
    )


def scored_lines(scene: Scene, model: Classifier, lines: FloatArray) -> list[Scored]:
    """Each criterion (the method's first, then each other method's with its defaults, one per
    name) at the back-end lines ``lines`` (2, 3): the person's and the fit's, at their best scales."""
    training = scene.points.training
    X, y = training.X, training.y
    own, is_own = criterion_model(scene, model)
    estimators = [(own, True)]
    names = {own.criterion_name}
    for card in CARDS:
        other: Any = make_model(card.name)
        if getattr(other, "criterion_defined", False) and other.criterion_name not in names:
            names.add(other.criterion_name)
            estimators.append((other, False))
    rows = []
    for estimator, first in estimators:
        try:
            values = best_scale_values(estimator, X, y, unit_lines(lines)).values
        except PlaygroundError:
            values = np.full(2, math.nan)
        label = criterion_label(estimator)
        rows.append(Scored(label, float(values[0]), float(values[1]), estimator.criterion_maximised, first and is_own))
    if not is_own:
        rows[0] = rows[0]._replace(own=True)
    return rows


# -- each point's share ----------------------------------------------------------------------------


def point_shares(scene: Scene, model: Classifier, line: BookLine) -> FloatArray | None:
    """Each training point's share of the method's criterion (or its stand-in's) at ``line``, at the
    line's best scale; None where the criterion is no sum over the points (Fisher's J) or the fit
    is not on this plane (a basis)."""
    estimator, _own = criterion_model(scene, model)
    if scene.basis != "identity" or not getattr(estimator, "criterion_has_shares", False):
        return None
    training = scene.points.training
    X, y = training.X, training.y
    unit = unit_lines(back_end_weights(model, line)[None, :])
    scale = float(best_scale_values(estimator, X, y, unit).scales[0])
    return np.asarray(estimator.criterion_terms(X, y, unit[0] * scale).points, dtype=float)


def share_sizes(shares: FloatArray) -> list[float]:
    """The rings' sizes in px: their areas in proportion to the shares (the largest share
    ``SHARE_SIZES[1]``, none ``SHARE_SIZES[0]``)."""
    largest = float(np.max(shares)) if len(shares) else 0.0
    relative = np.sqrt(shares / largest) if largest > 0 else np.zeros_like(shares)
    low, high = SHARE_SIZES
    return [float(v) for v in (low + (high - low) * relative).round(1)]


# -- while the line is dragged ---------------------------------------------------------------------


class LineNumbers(NamedTuple):
    """What the canvas shows while the person's line moves: its accuracy, the method's criterion at
    it and at the fit (None when the fit is hidden or the criterion is not defined there), and each
    point's ring (None without shares)."""

    accuracy: float
    criterion: str
    value: float | None
    fit: float | None
    maximised: bool
    shares: list[float] | None


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def line_numbers(scene: Scene, model: Classifier, shares: bool) -> LineNumbers | None:
    """The scene's line's numbers (``LineNumbers``), or None without a line of two classes."""
    line = guess_line(scene, model)
    if line is None:
        return None
    training = scene.points.training
    X, y = training.X, training.y
    estimator, _own = criterion_model(scene, model)
    fit = None if scene.fit_hidden else book_line(model)
    lines = [back_end_weights(model, line)] + ([back_end_weights(model, fit)] if fit is not None else [])
    try:
        values = best_scale_values(estimator, X, y, unit_lines(np.array(lines))).values
    except PlaygroundError:
        values = np.full(len(lines), math.nan)
    rings = None
    if shares:
        try:
            found = point_shares(scene, model, line)
        except PlaygroundError:
            found = None
        rings = share_sizes(found) if found is not None and len(found) else None
    return LineNumbers(
        accuracy=accuracy(line, X, y),
        criterion=criterion_label(estimator),
        value=_finite(float(values[0])),
        fit=_finite(float(values[1])) if fit is not None else None,
        maximised=bool(estimator.criterion_maximised),
        shares=rings,
    )
