"""Your line's scores (issue 46): the person's line in the two sign conventions, and each method's
criterion at it and at the fit's line, each at the line's best scale (``playground.landscape``).

Rules that hold: the person's line is the scene's ``guess`` in the book's convention and becomes
the back-end's through ``ui.text.convention`` alone; a density model (no criterion of a line) is
scored by ``STAND_IN``'s; every number is computed from the scene.
"""

import math
from typing import Any, NamedTuple

import numpy as np

from playground import CARDS, Classifier, PlaygroundError, make_model
from playground.landscape import best_scale_values, unit_lines
from playground.scene import Scene
from playground.validation import FloatArray
from ui.text.convention import BookLine, book_classes, book_weights, is_two_class
from ui.text.i18n import _

GUESS_COLOUR = "#e8590c"  # the person's line, wherever it is drawn
# The criterion that scores a line for a method that has none of its own (a density model).
STAND_IN = "logistic"


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
    return make_model(STAND_IN), False


def criterion_label(estimator: Any) -> str:
    """'cross-entropy (eq. 4.90)', in the page's language."""
    return _("{criterion} (eq. {equation})").format(
        criterion=_(estimator.criterion_name), equation=estimator.criterion_equation
    )


def scored_lines(scene: Scene, model: Classifier, lines: FloatArray) -> list[Scored]:
    """Each criterion (the method's first, then each other method's with its defaults, one per
    name) at the back-end lines ``lines`` (2, 3): the person's and the fit's, at their best scales."""
    X, y = scene.points.X, scene.points.y
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
