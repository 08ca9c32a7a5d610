"""How well a fitted classifier does on a set of points: accuracy, confusion matrix, precision and
recall per class, log loss. numpy only; scikit-learn's ``confusion_matrix``,
``precision_recall_fscore_support`` and ``log_loss`` are the tests' oracles.

>>> import numpy as np
>>> confusion_matrix([0, 0, 1, 1], [0, 1, 1, 1], labels=[0, 1]).tolist()
[[1, 1], [0, 2]]
"""

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

# Probabilities are clipped to [EPS, 1 - EPS] before the logarithm, as scikit-learn's log_loss
# does: a test point of a class the model gives probability 0 costs -log(EPS) = 36, not infinity.
EPS = np.finfo(np.float64).eps


def confusion_matrix(y_true: ArrayLike, y_pred: ArrayLike, labels: ArrayLike) -> NDArray[np.intp]:
    """Counts C[i, j] of points of class ``labels[i]`` predicted as ``labels[j]``: (K, K) int.

    Points whose true or predicted label is not in ``labels`` are not counted (as in scikit-learn).
    """
    labels = np.asarray(labels)
    y_true, y_pred = np.asarray(y_true).reshape(-1), np.asarray(y_pred).reshape(-1)
    k = labels.size
    index = {int(label): i for i, label in enumerate(labels.tolist())}
    rows = np.array([index.get(int(v), -1) for v in y_true], dtype=int)
    cols = np.array([index.get(int(v), -1) for v in y_pred], dtype=int)
    keep = (rows >= 0) & (cols >= 0)
    return np.bincount(rows[keep] * k + cols[keep], minlength=k * k).reshape(k, k)


def precision_recall(matrix: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per-class precision C[k, k] / sum_i C[i, k] and recall C[k, k] / sum_j C[k, j] (K,) each;
    NaN where the denominator is 0 (nothing predicted as, or no point of, that class)."""
    matrix = np.asarray(matrix, dtype=float)
    hits = np.diag(matrix)
    predicted, actual = matrix.sum(axis=0), matrix.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, hits / np.where(predicted > 0, predicted, 1), np.nan)
        recall = np.where(actual > 0, hits / np.where(actual > 0, actual, 1), np.nan)
    return precision, recall


def log_loss(y_true: ArrayLike, proba: ArrayLike, classes: ArrayLike | None) -> float:
    """Mean negative log-probability of each point's true class (the cross-entropy, eq. 4.108).

    Parameters
    ----------
    y_true : (N,) labels
    proba : (N, K) probabilities of ``classes`` (rows sum to 1)
    classes : (K,) the labels of proba's columns; a true label not among them has probability 0.
        None (no classes given) makes numpy raise a ValueError.
    """
    y_true = np.asarray(y_true).reshape(-1)
    proba = np.asarray(proba, dtype=float).reshape(len(y_true), -1)
    classes = np.asarray(classes)
    column = np.searchsorted(classes, y_true)
    found = (column < classes.size) & (classes[np.minimum(column, classes.size - 1)] == y_true)
    p = np.where(found, proba[np.arange(len(y_true)), np.minimum(column, classes.size - 1)], 0.0)
    return float(-np.mean(np.log(np.clip(p, EPS, 1 - EPS))))


@dataclass(frozen=True)
class Scores:
    """A classifier's scores on one set of points (``score``): what the Metrics panel shows.

    ``labels`` are the classes counted (rows and columns of ``confusion``); precision and recall
    are NaN where undefined; ``log_loss`` is None for a method without probabilities.
    """

    n: int
    accuracy: float | None
    labels: NDArray[Any]  # the labels as given (integers or text)
    confusion: NDArray[np.intp]
    precision: NDArray[np.float64]
    recall: NDArray[np.float64]
    log_loss: float | None = None


def score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    labels: ArrayLike,
    proba: ArrayLike | None = None,
    classes: ArrayLike | None = None,
) -> Scores:
    """The ``Scores`` of predictions ``y_pred`` (and probabilities ``proba`` over ``classes``)."""
    y_true, y_pred = np.asarray(y_true).reshape(-1), np.asarray(y_pred).reshape(-1)
    labels = np.asarray(labels)
    matrix = confusion_matrix(y_true, y_pred, labels)
    precision, recall = precision_recall(matrix)
    accuracy = float(np.mean(y_true == y_pred)) if y_true.size else None
    loss = log_loss(y_true, proba, classes) if proba is not None and y_true.size else None
    return Scores(y_true.size, accuracy, labels, matrix, precision, recall, loss)
