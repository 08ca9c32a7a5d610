"""Input checks shared by every estimator, so each method's messages read the same."""

import numbers
from typing import Any, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import Classes, DegenerateFitError, InvalidDataError, InvalidTypeError, Message
from .i18n import N_

# A hosted instance must not be asked to fit arbitrarily much: these bound every fit.
MAX_POINTS = 20_000
MAX_FEATURES = 1_000
#: Upper bound on the updates of an iterative fit (IRLS or gradient steps, SMO steps).
MAX_ITERATIONS = 100_000


def check_iterations(value: object, what: str, minimum: int = 1) -> int:
    """``value`` as an int from ``minimum`` to ``MAX_ITERATIONS``, or raise InvalidDataError.

    ``what`` names the parameter in the message, e.g. "The SVM's max_iter".
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Integral)
        or not minimum <= int(value) <= MAX_ITERATIONS
    ):
        raise InvalidDataError(
            N_("{what} must be a whole number from {minimum} to {maximum:,}; got {value!r}."),
            what=Message(what),
            minimum=minimum,
            maximum=MAX_ITERATIONS,
            value=value,
        )
    return int(value)


#: Largest |coordinate| accepted anywhere (inputs, features, evaluation points): squares and
#: products of coordinates (covariances, kernels, scores) must stay far from the float64
#: overflow at 1.8e308. The app accepts +-1e6 (link.MAX_COORDINATE), well inside.
MAX_MAGNITUDE = 1e100
#: Training inputs that are not all equal must differ by at least this much in some coordinate
#: (squared differences must not underflow)...
MIN_SPREAD = 1e-100
#: ...and by at least this fraction of their largest |coordinate|: otherwise a boundary
#: w^T x + w0 = 0 written in those coordinates cannot be evaluated to any useful precision.
MIN_RELATIVE_SPREAD = 1e-12


def magnitude_text(value: float) -> str:
    """1e+100 -> "1e100", for messages."""
    return f"{value:.0e}".replace("e+", "e")


_LIMIT = magnitude_text(MAX_MAGNITUDE)
THIS_METHOD = N_("This method")  # how a message names a method that was not named


#: Arrays of floats, as every checked input and fitted model's numbers are.
FloatArray: TypeAlias = NDArray[np.float64]
#: Positions (indices into an array), e.g. each point's class as its position in ``classes_``.
IndexArray: TypeAlias = NDArray[np.intp]
#: Class labels as the caller gave them: integers, booleans or text, so the dtype is the caller's
#: (``NDArray[Any]``: numpy has no dtype meaning "integer or string").
LabelArray: TypeAlias = NDArray[Any]
#: Masks: which entries pass a test.
BoolArray: TypeAlias = NDArray[np.bool_]


class Training(NamedTuple):
    """Checked training data (``check_X_y``)."""

    X: FloatArray  # (N, D), finite
    y_index: IndexArray  # (N,), the position of each label in classes
    classes: LabelArray  # (K,), the sorted unique labels


def check_X(
    X: ArrayLike,
    *,
    name: str = "X",
    n_features: int | None = None,
    max_points: int | None = None,
    model: str | None = None,
) -> FloatArray:
    """Return ``X`` as a finite float array of shape (N, D), or raise InvalidDataError.

    Any array-like of real numbers is accepted (lists, integers, float32, objects holding
    numbers, sparse matrices, which are made dense); every coordinate must be finite and
    within +-``MAX_MAGNITUDE``. ``max_points`` bounds training sets (a hosted instance must
    not fit without limit); evaluation (e.g. a 200 x 200 grid) is not bounded here.
    ``n_features`` is the number of features a fitted ``model`` (named in the message) expects.
    """
    name = Message(name)
    X = _as_table(X, name)
    _check_shape(X, name, n_features, max_points, model)
    _check_values(X, name)
    return X


def _as_table(X: object, name: Message) -> FloatArray:
    """X as a 2-D float array: sparse matrices made dense (if not too big), text, complex numbers
    and other than 2 dimensions refused."""
    if hasattr(X, "toarray") and hasattr(X, "nnz"):  # a scipy.sparse matrix, made dense if not too big
        if np.prod(getattr(X, "shape", (np.inf,)), dtype=float) > MAX_POINTS * MAX_FEATURES:
            raise InvalidDataError(
                N_("{name} is a sparse matrix too large to work with: at most {rows:,} x {columns:,} entries."),
                name=name,
                rows=MAX_POINTS,
                columns=MAX_FEATURES,
            )
        X = X.toarray()
    try:
        X = np.asarray(X)
    except (TypeError, ValueError) as err:
        raise InvalidDataError(N_("{name} must be a table of numbers ({error})."), name=name, error=str(err)) from None
    if X.dtype.kind == "c":
        raise InvalidDataError(
            N_("{name} contains complex numbers. Complex data not supported: use real numbers."), name=name
        )
    if X.dtype.kind in "USV":  # numpy would read "1.5" as a number
        raise InvalidDataError(N_("{name} must contain numbers, not text."), name=name)
    try:
        X = X.astype(float, copy=False)
    except (TypeError, ValueError) as err:
        raise InvalidTypeError(N_("{name} must contain numbers only ({error})."), name=name, error=str(err)) from None
    if X.ndim == 1:
        raise InvalidDataError(
            N_(
                "{name} must be a table of points, one row per point, not a 1-D array. Reshape your data: "
                "X.reshape(1, -1) for a single point, X.reshape(-1, 1) for points with one coordinate."
            ),
            name=name,
        )
    if X.ndim != 2:
        raise InvalidDataError(
            N_("{name} must be a table of points, one row per point (got {ndim} dimensions)."), name=name, ndim=X.ndim
        )
    return X


def _check_shape(
    X: FloatArray, name: Message, n_features: int | None, max_points: int | None, model: str | None
) -> None:
    """At least one point and one feature, within the limits, and the fitted model's number of features."""
    if X.shape[0] == 0:
        raise InvalidDataError(N_("There are no points yet: add some by clicking on the plot or generating clusters."))
    if X.shape[1] == 0:
        raise InvalidDataError(
            N_("{name} has no coordinates: 0 feature(s) (shape={shape}) while a minimum of 1 is required."),
            name=name,
            shape=X.shape,
        )
    if max_points is not None and X.shape[0] > max_points:
        raise InvalidDataError(N_("Too many points: {n:,}; the limit is {limit:,}."), n=X.shape[0], limit=max_points)
    if X.shape[1] > MAX_FEATURES:
        raise InvalidDataError(
            N_("Too many features: {n:,}; the limit is {limit:,}."), n=X.shape[1], limit=MAX_FEATURES
        )
    if n_features is not None and X.shape[1] != n_features:
        if model:
            raise InvalidDataError(
                N_(
                    "{name} has {n} features, but {model} is expecting {expected} features as input: it was fitted "
                    "on points with {expected} coordinates."
                ),
                name=name,
                n=X.shape[1],
                model=Message(model),
                expected=n_features,
            )
        raise InvalidDataError(
            N_(
                "{name} has {n} features, but the model is expecting {expected} features as input: it was fitted "
                "on points with {expected} coordinates."
            ),
            name=name,
            n=X.shape[1],
            expected=n_features,
        )


def _check_values(X: FloatArray, name: Message) -> None:
    """Every coordinate finite and within +-``MAX_MAGNITUDE``."""
    # Two reductions instead of a boolean temporary: NaN propagates into both, inf shows in one.
    low, high = float(X.min()), float(X.max())
    if not (np.isfinite(low) and np.isfinite(high)):
        raise InvalidDataError(
            N_("{name} contains NaN or infinite coordinates; every coordinate must be finite."), name=name
        )
    if max(-low, high) > MAX_MAGNITUDE:
        biggest = high if high > -low else low
        raise InvalidDataError(
            N_(
                "{name} has a coordinate of {biggest:.3g}; the playground works with coordinates from "
                "-{limit} to {limit} (the app itself accepts ±1e6), beyond which squares and products of "
                "coordinates overflow. Rescale the points, e.g. change their unit."
            ),
            name=name,
            biggest=biggest,
            limit=_LIMIT,
        )


def check_spread(X: FloatArray) -> None:
    """Raise InvalidDataError if training inputs differ, but too little for float64 to carry.

    Inputs that are all equal pass (each method says what it makes of them). Otherwise the
    largest range of a coordinate must be at least ``MIN_SPREAD`` and at least
    ``MIN_RELATIVE_SPREAD`` times the largest |coordinate|.
    """
    XT = np.ascontiguousarray(X.T)  # numpy reduces (N, D) along axis 0 much more slowly
    high, low = XT.max(axis=1), XT.min(axis=1)
    spread = float(np.max(high - low))
    if spread == 0:
        return
    size = max(-float(low.min()), float(high.max()))
    if spread < MIN_SPREAD:
        raise InvalidDataError(
            N_(
                "The training inputs differ by at most {spread:.3g}: too little for double-precision arithmetic "
                "(at least {needed} is needed). Rescale the points, e.g. change their unit."
            ),
            spread=spread,
            needed=magnitude_text(MIN_SPREAD),
        )
    if spread < MIN_RELATIVE_SPREAD * size:
        raise InvalidDataError(
            N_(
                "The training inputs differ by at most {spread:.3g} but lie {size:.3g} from the origin: double "
                "precision cannot resolve a boundary between them there. Subtract a common offset (e.g. the first "
                "point) from every coordinate."
            ),
            spread=spread,
            size=size,
        )


def check_labels(y: ArrayLike | None, n_points: int) -> LabelArray:
    """Class labels as a 1-D array: whole numbers (any integers, bools, whole floats) or text.

    A column vector (N, 1) is accepted as (N,).
    """
    if y is None:
        raise InvalidDataError(
            N_("Fitting requires y to be passed, but the target y is None: give each point its class.")
        )
    if hasattr(y, "toarray") and hasattr(y, "nnz"):
        y = y.toarray()
    y = np.asarray(y)
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1 or y.shape[0] != n_points:
        raise InvalidDataError(
            N_("There must be one label per point: {n_points} points but {n_labels} labels."),
            n_points=n_points,
            n_labels=y.size,
        )
    kind = y.dtype.kind
    if kind == "O":
        values = y.tolist()
        if all(isinstance(v, str) for v in values):
            return np.array(values, dtype=str)
        if all(isinstance(v, numbers.Real) for v in values):
            try:
                y = np.array(values, dtype=float if any(isinstance(v, float) for v in values) else np.int64)
            except OverflowError:
                raise InvalidDataError(N_("Class labels must be whole numbers of at most 18 digits.")) from None
            kind = y.dtype.kind
        else:
            raise InvalidDataError(N_("Class labels must be all whole numbers or all text, not a mixture."))
    if kind == "f":
        if not np.all(np.isfinite(y)):
            raise InvalidDataError(N_("Class labels must be whole numbers or text, not NaN or infinity."))
        if np.any(y != np.round(y)) or np.any(np.abs(y) > 2.0**53):
            example = y[(y != np.round(y)) | (np.abs(y) > 2.0**53)][0]
            raise InvalidDataError(
                N_(
                    "Class labels must be whole numbers or text; these look continuous (e.g. {example:g}), "
                    "like a quantity to predict rather than a class."
                ),
                example=example,
            )
        return y.astype(np.int64)
    if kind in "iubUS":
        return y
    raise InvalidDataError(
        N_("Unknown label type: class labels must be whole numbers or text, not {dtype}."), dtype=str(y.dtype)
    )


def check_X_y(
    X: ArrayLike, y: ArrayLike, *, min_classes: int = 2, max_classes: int | None = None, method: str = THIS_METHOD
) -> Training:
    """Validate training data.

    Returns
    -------
    Training
        X : ndarray of shape (N, D); y_index : ndarray of shape (N,), int, the position of each
        label in ``classes``; classes : ndarray of shape (K,), the sorted unique labels.
    """
    X = check_X(X, max_points=MAX_POINTS)
    y = check_labels(y, X.shape[0])
    check_spread(X)
    classes, y_index = np.unique(y, return_inverse=True)
    if classes.size < min_classes:
        if classes.size == 1:
            raise InvalidDataError(
                N_(
                    "{method} needs points from at least {minimum} classes; there is only one class. "
                    "Pick another class and click to add points of it."
                ),
                method=Message(method),
                minimum=min_classes,
            )
        raise InvalidDataError(
            N_(
                "{method} needs points from at least {minimum} classes; there is only {n} classes. "
                "Pick another class and click to add points of it."
            ),
            method=Message(method),
            minimum=min_classes,
            n=classes.size,
        )
    if max_classes is not None and classes.size > max_classes:
        raise InvalidDataError(
            N_(
                "{method} handles at most {maximum} classes directly; the points have {n}. "
                "Use a multi-class strategy (one-versus-rest or one-versus-one)."
            ),
            method=Message(method),
            maximum=max_classes,
            n=classes.size,
        )
    return Training(X, y_index.reshape(-1), classes)


def class_counts(y_index: IndexArray, n_classes: int) -> IndexArray:
    """Number of points in each class, shape (K,)."""
    return np.bincount(y_index, minlength=n_classes)


def require_points_per_class(y_index: IndexArray, classes: LabelArray, minimum: int, method: str) -> IndexArray:
    """Raise a DegenerateFitError naming the first class with fewer than ``minimum`` points."""
    counts = class_counts(y_index, classes.size)
    for label, count in zip(classes, counts):
        if count < minimum:
            if count == 1:
                raise DegenerateFitError(
                    N_("{method} needs at least {minimum} points in each class; {classes} has one."),
                    method=Message(method),
                    minimum=minimum,
                    classes=Classes(label),
                )
            raise DegenerateFitError(
                N_("{method} needs at least {minimum} points in each class; {classes} has {n}."),
                method=Message(method),
                minimum=minimum,
                classes=Classes(label),
                n=count,
            )
    return counts


def standard_units(X: FloatArray) -> tuple[FloatArray, FloatArray, float]:
    """Centre and scale for fitting: Z = (X - centre) / scale.

    ``centre`` (D,) is the mean of the points and ``scale`` a power of two near the largest
    |X - centre| (1 when all points coincide), so dividing by it is exact. A method whose
    answer does not depend on where the points sit or on their unit fits on Z, where nothing
    loses precision to a large offset and nothing overflows or underflows, and maps its
    coefficients back with ``to_input_units``.

    Returns
    -------
    Z : ndarray (N, D)
    centre : ndarray (D,)
    scale : float
    """
    # Worked on the transpose: numpy reduces and broadcasts along the long axis far faster.
    ZT = np.array(X.T, order="C")
    centre = ZT.mean(axis=1)
    ZT -= centre[:, None]
    largest = max(-float(ZT.min()), float(ZT.max()))
    scale = float(np.ldexp(1.0, int(np.frexp(largest)[1]))) if largest > 0 else 1.0
    ZT /= scale
    return np.ascontiguousarray(ZT.T), centre, scale


def to_input_units(
    coef: ArrayLike, intercept: ArrayLike, centre: FloatArray, scale: float
) -> tuple[FloatArray, FloatArray]:
    """Linear discriminants fitted on Z = (X - centre) / scale, written in X.

    y = coef_Z . z + intercept_Z = (coef_Z / scale) . x + (intercept_Z - (coef_Z / scale) . centre).

    Parameters
    ----------
    coef : ndarray (M, D)
    intercept : ndarray (M,)

    Returns
    -------
    coef, intercept : ndarrays (M, D) and (M,)
    """
    coef = np.asarray(coef, dtype=float) / scale
    return coef, np.asarray(intercept, dtype=float) - coef @ centre


def add_bias(X: FloatArray) -> FloatArray:
    """Prepend a column of ones: phi(x) = (1, x1, ..., xD), the book's dummy input x0 = 1."""
    return np.hstack([np.ones((X.shape[0], 1)), X])


def check_w_init(w_init: ArrayLike | None, n_params: int, method: str) -> FloatArray | None:
    """``w_init`` given as [w0, w1, ..., wD] (bias first), as the book writes it."""
    if w_init is None:
        return None
    try:
        w = np.asarray(w_init, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        w = np.full(1, np.nan)
    if w.size != n_params or not np.all(np.isfinite(w)):
        raise InvalidDataError(
            N_("{method}: the initial weights must be {n} finite numbers [w0, w1, ...]; got {size}."),
            method=Message(method),
            n=n_params,
            size=w.size,
        )
    if np.max(np.abs(w)) > MAX_MAGNITUDE:
        raise InvalidDataError(
            N_("{method}: the initial weights must lie between -{limit} and {limit}."),
            method=Message(method),
            limit=_LIMIT,
        )
    return w
