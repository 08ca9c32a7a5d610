"""Input checks shared by every estimator, so each method's messages read the same."""

import numbers

import numpy as np

from .errors import InvalidDataError

# A hosted instance must not be asked to fit arbitrarily much (issue 7 states the limits).
MAX_POINTS = 20_000
MAX_FEATURES = 1_000
#: Upper bound on the updates of an iterative fit (IRLS or gradient steps, SMO steps).
MAX_ITERATIONS = 100_000


def check_iterations(value, what, minimum=1):
    """``value`` as an int from ``minimum`` to ``MAX_ITERATIONS``, or raise InvalidDataError.

    ``what`` names the parameter in the message, e.g. "The SVM's max_iter".
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not minimum <= value <= MAX_ITERATIONS:
        raise InvalidDataError(f"{what} must be a whole number from {minimum} to {MAX_ITERATIONS:,}; got {value!r}.")
    return int(value)


def check_X(X, *, name="X", n_features=None, max_points=None):
    """Return ``X`` as a finite float array of shape (N, D), or raise InvalidDataError.

    ``max_points`` bounds training sets (a hosted instance must not fit without limit);
    evaluation (e.g. a 200 x 200 grid) is not bounded here.
    """
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise InvalidDataError(f"{name} must contain numbers only.") from None
    if X.ndim == 1 and n_features is not None and X.shape[0] == n_features:
        X = X[None, :]
    if X.ndim != 2:
        raise InvalidDataError(f"{name} must be a table of points, one row per point (got {X.ndim} dimensions).")
    if X.shape[0] == 0:
        raise InvalidDataError("There are no points yet: add some by clicking on the plot or generating clusters.")
    if X.shape[1] == 0:
        raise InvalidDataError(f"{name} has no coordinates (zero columns).")
    if max_points is not None and X.shape[0] > max_points:
        raise InvalidDataError(f"Too many points: {X.shape[0]:,}; the limit is {max_points:,}.")
    if X.shape[1] > MAX_FEATURES:
        raise InvalidDataError(f"Too many features: {X.shape[1]:,}; the limit is {MAX_FEATURES:,}.")
    if not np.all(np.isfinite(X)):
        raise InvalidDataError(f"{name} contains NaN or infinite coordinates; every coordinate must be finite.")
    if n_features is not None and X.shape[1] != n_features:
        raise InvalidDataError(f"The model was fitted on {n_features} features but {name} has {X.shape[1]}.")
    return X


def check_X_y(X, y, *, min_classes=2, max_classes=None, method="This method"):
    """Validate training data.

    Returns
    -------
    X : ndarray of shape (N, D)
    y_index : ndarray of shape (N,), int
        Position of each label in ``classes``.
    classes : ndarray of shape (K,)
        Sorted unique labels.
    """
    X = check_X(X, max_points=MAX_POINTS)
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise InvalidDataError(f"There must be one label per point: {X.shape[0]} points but {y.size} labels.")
    if y.dtype.kind == "f":
        if not np.all(np.isfinite(y)) or np.any(y != np.round(y)):
            raise InvalidDataError("Class labels must be whole numbers.")
        y = y.astype(np.int64)
    elif y.dtype.kind not in "iub":
        raise InvalidDataError("Class labels must be whole numbers.")
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < min_classes:
        have = "one class" if classes.size == 1 else f"{classes.size} classes"
        raise InvalidDataError(
            f"{method} needs points from at least {min_classes} classes; there is only {have}. "
            "Pick another class and click to add points of it."
        )
    if max_classes is not None and classes.size > max_classes:
        raise InvalidDataError(
            f"{method} handles at most {max_classes} classes directly; the points have {classes.size}. "
            "Use a multi-class strategy (one-versus-rest or one-versus-one)."
        )
    return X, y_index.reshape(-1), classes


def class_counts(y_index, n_classes):
    """Number of points in each class, shape (K,)."""
    return np.bincount(y_index, minlength=n_classes)


def require_points_per_class(y_index, classes, minimum, method):
    """Raise a DegenerateFitError naming the first class with fewer than ``minimum`` points."""
    from .errors import DegenerateFitError

    counts = class_counts(y_index, classes.size)
    for label, count in zip(classes, counts):
        if count < minimum:
            have = "one" if count == 1 else str(count)
            raise DegenerateFitError(
                f"{method} needs at least {minimum} points in each class; class {label} has {have}."
            )
    return counts


def add_bias(X):
    """Prepend a column of ones: phi(x) = (1, x1, ..., xD), the book's dummy input x0 = 1."""
    return np.hstack([np.ones((X.shape[0], 1)), X])


def check_w_init(w_init, n_params, method):
    """``w_init`` given as [w0, w1, ..., wD] (bias first), as the book writes it."""
    if w_init is None:
        return None
    w = np.asarray(w_init, dtype=float).reshape(-1)
    if w.size != n_params or not np.all(np.isfinite(w)):
        raise InvalidDataError(
            f"{method}: the initial weights must be {n_params} finite numbers [w0, w1, ...]; got {w.size}."
        )
    return w
