"""The estimator contract every method follows (sklearn conventions, no sklearn).

A subclass implements ``fit`` and either sets ``coef_`` / ``intercept_`` (a linear model:
``LinearClassifier`` supplies ``decision_function``) or overrides ``decision_function``
itself. Probabilistic models implement ``_posterior(X, log)``, which gives ``predict_proba``
and ``predict_log_proba`` (or only ``predict_log_proba``; ``predict_proba`` follows); a linear
one takes it from ``LinearPosteriorMixin``, i.e. from ``coef_`` and ``intercept_``. Their
``predict`` is ``argmax(predict_proba)``.

One source of truth: every answer a fitted model gives is computed from its public fitted
attributes (``coef_``, ``intercept_``; a generative model's means, covariances and priors),
never from a hidden copy, so editing them in place changes the answers. A quantity derived
from them for speed (e.g. Cholesky factors) is cached with ``cached_from``, which notices when
they change.
"""

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Self, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import Message, NotFittedError, PlaygroundError
from .i18n import N_
from .validation import FloatArray, IndexArray, LabelArray, check_X

_Derived = TypeVar("_Derived")


class _ClassAlias:
    """A class attribute that reads another one (on the class or an instance)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: object, owner: type) -> str:
        value: str = getattr(owner, self.name)  # the aliased attributes are texts (book_section)
        return value


class FittedClassifier(Protocol):
    """What a fitted model answers, whatever its kind (a method, a strategy, a model on a basis):
    the labels it knows and, at points X (N, D), its labels and decision values."""

    @property
    def classes_(self) -> LabelArray: ...

    def predict(self, X: ArrayLike) -> LabelArray: ...

    def decision_function(self, X: ArrayLike) -> FloatArray: ...


class LinearFit(FittedClassifier, Protocol):
    """A fitted linear model: y_k(x) = w_k^T x + w_k0, ``coef_`` (1, D) or (K, D) and ``intercept_``
    (1,) or (K,) (what the exact geometry and the equations read)."""

    @property
    def coef_(self) -> FloatArray: ...

    @property
    def intercept_(self) -> FloatArray: ...


class Replayable(FittedClassifier, Protocol):
    """A fitted iterative model: ``at_step(step)`` is a copy with the weights of that step."""

    def at_step(self, step: int) -> "Classifier": ...


def constructor_params(cls: type) -> list[str]:
    """The names of ``cls.__init__``'s parameters (positional-or-keyword and keyword-only), the
    parameters ``get_params`` reports (a classifier's, a basis's)."""
    # mypy calls reading __init__ off a class object unsound (a subclass may change it): read here, not called.
    signature = inspect.signature(cls.__init__)  # type: ignore[misc]
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in signature.parameters.values() if p.name != "self" and p.kind in kinds]


class Classifier:
    """Base class: parameters, prediction from decision values, accuracy."""

    # Fitted attributes every model sets in fit (declared for the type checker, not given here).
    classes_: LabelArray
    n_features_in_: int
    # A note on the fit (a ``Message``), set by the models that have one and by the server's
    # fit for a multi-class fit stopped early (``ui.engine.workers``); absent otherwise.
    fit_message_: str | None

    #: Name shown in the app's method list.
    display_name = N_("classifier")
    #: The book's section, shown next to the name: "Least squares (§4.1.3)".
    book_section = ""
    #: The same, under its short name (both are read).
    section = _ClassAlias("book_section")
    #: scikit-learn's marker for classifiers (read by some of its test utilities).
    _estimator_type = "classifier"
    #: Whether ``predict_proba`` is meaningful.
    is_probabilistic = False
    #: Whether the decision boundary is a straight line in the model's input space.
    is_linear = False

    # -- parameters (sklearn's get_params / set_params, enough for cloning) --
    @classmethod
    def _param_names(cls) -> list[str]:
        return constructor_params(cls)

    # The values are Any: each method's hyper-parameters have their own types, and the dict is
    # passed back as keyword arguments to constructors whose parameters are typed one by one.
    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters; with ``deep``, also those of a wrapped estimator or
        basis as ``estimator__eta`` (scikit-learn's convention, so its ``clone`` works)."""
        params = {name: getattr(self, name) for name in self._param_names()}
        if deep:
            for name, value in list(params.items()):
                if hasattr(value, "get_params") and not isinstance(value, type):
                    params.update((f"{name}__{key}", inner) for key, inner in value.get_params().items())
        return params

    def set_params(self, **params: Any) -> Self:
        valid = set(self._param_names())
        for name, value in params.items():
            outer, _, inner = name.partition("__")
            if outer not in valid:
                raise PlaygroundError(
                    N_("{method} has no parameter '{name}'."), method=Message(self.display_name), name=outer
                )
            if inner:
                getattr(self, outer).set_params(**{inner: value})
            else:
                setattr(self, name, value)
        return self

    def clone(self) -> Self:
        return type(self)(**self.get_params(deep=False))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items())
        return f"{type(self).__name__}({args})"

    # -- prediction --
    def _check_fitted(self) -> None:
        if "classes_" not in self.__dict__:
            raise NotFittedError(
                N_("{method} has not been fitted yet: call fit(X, y) first."), method=Message(self.display_name)
            )

    def _check_X(self, X: ArrayLike) -> FloatArray:
        self._check_fitted()
        return check_X(X, n_features=self.n_features_in_, model=type(self).__name__)

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        """Fit to points X (N, D) and labels y (N,): what each method defines."""
        raise NotImplementedError

    def decision_function(self, X: ArrayLike) -> FloatArray:
        raise NotImplementedError

    def predict(self, X: ArrayLike) -> LabelArray:
        """Labels from ``classes_``, shape (N,).

        Two classes: ``classes_[1]`` where the decision value is positive. K classes: the
        largest of the K decision values (eq. 4.9).
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def score(self, X: ArrayLike, y: ArrayLike) -> float:
        """Fraction of points classified correctly."""
        return float(np.mean(self.predict(X) == np.asarray(y)))


class LinearClassifier(Classifier):
    """A model with linear discriminants y_k(x) = w_k^T x + w_k0 (eq. 4.4 and 4.9).

    Fitted attributes the subclass sets: ``coef_`` (1, D) for two classes or (K, D),
    ``intercept_`` (1,) or (K,), ``classes_``, ``n_features_in_``.
    """

    is_linear = True
    coef_: FloatArray
    intercept_: FloatArray

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """y(x) = w^T x + w0: shape (N,) for two classes, (N, K) otherwise."""
        X = self._check_X(X)
        if self.coef_.shape[0] == 1:
            return X @ self.coef_[0] + self.intercept_[0]
        return in_blocks(self._linear_by_class, X, self.coef_.shape[0])

    def _linear_by_class(self, X: FloatArray) -> FloatArray:
        """The K discriminants computed class-major, (K, N), returned transposed (see in_blocks)."""
        scores = self.coef_ @ X.T
        scores += self.intercept_[:, None]
        return scores.T


class ProbabilisticMixin:
    """``predict_proba`` and ``predict_log_proba`` from the subclass's ``_posterior(X, log)``
    (X already checked), evaluated in blocks of points: rows sum to 1, never NaN.

    ``predict`` is the class of largest posterior, ``argmax(predict_proba)``, exactly, even
    where rounding makes two posteriors equal although the decision values differ in their
    last digits (then the first of the tied classes wins, as ``numpy.argmax`` has it).
    """

    is_probabilistic = True
    # What the classifier it is mixed into provides (declared for the type checker).
    classes_: LabelArray
    _check_X: Callable[[ArrayLike], FloatArray]

    def predict(self, X: ArrayLike) -> LabelArray:
        """Labels from ``classes_``: the largest posterior p(C_k|x), shape (N,)."""
        index = self.predict_index(X)  # first: an unfitted model has no classes_
        return self.classes_[index]

    def predict_index(self, X: ArrayLike) -> IndexArray:
        """Position in ``classes_`` of the largest posterior, shape (N,)."""
        return argmax_rows(self.predict_proba(X))

    def predict_proba(self, X: ArrayLike) -> FloatArray:
        """p(C_k|x), shape (N, K), columns in the order of ``classes_``."""
        return in_blocks(lambda block: self._posterior(block, log=False), self._check_X(X), self.classes_.size)

    def predict_log_proba(self, X: ArrayLike) -> FloatArray:
        """ln p(C_k|x), shape (N, K)."""
        return in_blocks(lambda block: self._posterior(block, log=True), self._check_X(X), self.classes_.size)

    def _posterior(self, X: FloatArray, log: bool) -> FloatArray:
        """Posteriors (or their logs) at checked inputs, shape (N, K). This default serves a
        subclass that defines only ``predict_log_proba``."""
        if type(self).predict_log_proba is ProbabilisticMixin.predict_log_proba:
            raise NotImplementedError(f"{type(self).__name__} defines neither _posterior nor predict_log_proba.")
        log_proba = self.predict_log_proba(X)
        return log_proba if log else np.exp(log_proba)


def argmax_rows(proba: FloatArray) -> IndexArray:
    """``np.argmax(proba, axis=1)`` (ties to the first), with two columns compared directly:
    numpy's argmax along the short axis of an (N, 2) array is much slower."""
    if proba.shape[1] == 2:
        return (proba[:, 1] > proba[:, 0]).astype(np.intp)
    return np.argmax(proba, axis=1)


class LinearPosteriorMixin:
    """Posteriors of a linear probabilistic model from its public ``coef_`` and ``intercept_``:
    the sigmoid of the decision value y(x) = w^T x + w0 for two classes (eq. 4.57, 4.87), the
    softmax of the K discriminants otherwise (eq. 4.62, 4.104). There is no other copy of the
    weights: change ``coef_`` and the posteriors change with it."""

    # What the linear classifier it is mixed into provides (declared for the type checker).
    coef_: FloatArray
    intercept_: FloatArray

    def _posterior(self, X: FloatArray, log: bool) -> FloatArray:
        if self.coef_.shape[0] == 1:
            return two_class_proba(X @ self.coef_[0] + self.intercept_[0], log=log)
        A = self.coef_ @ X.T
        A += self.intercept_[:, None]
        return softmax_by_class(A, log=log, overwrite=True)


def cached_from(owner: object, key: str, sources: Sequence[NDArray[Any]], compute: Callable[[], _Derived]) -> _Derived:
    """``compute()``, recomputed only when an array in ``sources`` changed since the last call.

    For quantities derived from public fitted attributes (e.g. Cholesky factors of
    ``covariances_``): the attributes stay the one source of truth, and a user who edits them
    in place changes the model's answers, while an unchanged model does not refactor its
    matrices on every call. The cache lives in ``owner._derived`` (set up at fit time).
    """
    cache = owner.__dict__.setdefault("_derived", {})
    entry = cache.get(key)
    if entry is not None and len(entry[0]) == len(sources):
        if all(np.array_equal(old, new) for old, new in zip(entry[0], sources)):
            return entry[1]
    value = compute()
    cache[key] = (tuple(np.array(source, copy=True) for source in sources), value)
    return value


# Posteriors are computed from class-major activations A of shape (K, N): numpy reduces an
# (N, K) array along its short axis 1 far more slowly than it combines K rows of length N,
# and the grid behind the regions has 40,000 points for K = 2 or 3 classes. The points go
# through in blocks: temporaries of a block are recycled by the memory allocator, whereas
# temporaries of a whole grid are fresh memory (page faults) on every call and cost more
# than the arithmetic.

#: Points evaluated at a time by ``in_blocks``.
BLOCK = 8192


def in_blocks(function: Callable[[FloatArray], ArrayLike], X: FloatArray, width: int) -> FloatArray:
    """``function(X[i:j])`` over consecutive blocks of ``BLOCK`` rows, gathered into one
    C-ordered array of shape (N, width)."""
    out = np.empty((X.shape[0], width))
    for start in range(0, X.shape[0], BLOCK):
        _store(out[start : start + BLOCK], function(X[start : start + BLOCK]))
    return out


def _store(out: FloatArray, values: ArrayLike) -> None:
    """``out[...] = values`` for (B, width) arrays; a column-major ``values`` (the transpose of a
    class-major (width, B) array) column by column: numpy's own copy across the two layouts is
    several times slower than ``width`` contiguous copies."""
    values = np.asarray(values)
    if values.ndim == 2 and values.shape[1] > 1 and values.strides[0] < values.strides[1]:
        for column in range(values.shape[1]):
            out[:, column] = values[:, column]
    else:
        out[...] = values


def softmax_by_class(A: ArrayLike, log: bool = False, overwrite: bool = False) -> FloatArray:
    """p(C_k|x) = exp(a_k) / sum_j exp(a_j) (eq. 4.62-4.63), or its log, from A of shape (K, N).

    Returns an (N, K) array (the transpose of a (K, N) one). The largest activation is
    subtracted first (log-sum-exp), so nothing overflows and every row sums to 1 up to
    rounding. ``overwrite=True`` lets the function work in A (a float array the caller no
    longer needs) and return it transposed.
    """
    A = np.asarray(A, dtype=float)
    shift = A[0].copy()
    for row in A[1:]:
        np.maximum(shift, row, out=shift)
    shift[~np.isfinite(shift)] = 0.0  # an all -inf column must not give -inf - (-inf)
    out = np.subtract(A, shift, out=A if overwrite else np.empty(A.shape))
    total = shift  # reused: the shift is no longer needed
    if log:
        np.exp(out[0], out=total)
        for row in out[1:]:
            total += np.exp(row)
        np.log(total, out=total)
        out -= total
    else:
        np.exp(out, out=out)
        np.sum(out, axis=0, out=total)
        out /= total
    return out.T


def log_softmax(activations: ArrayLike) -> FloatArray:
    """log p(C_k|x) from activations a_k (N, K), via log-sum-exp so nothing overflows (eq. 4.62)."""
    return softmax_by_class(np.asarray(activations, dtype=float).T, log=True)


def softmax(activations: ArrayLike) -> FloatArray:
    """p(C_k|x) from activations a_k (N, K) (eq. 4.62); rows sum to 1."""
    return softmax_by_class(np.asarray(activations, dtype=float).T)


def log_sigmoid(a: ArrayLike) -> FloatArray:
    """log sigma(a) without overflow: min(a, 0) - log(1 + exp(-|a|)) (eq. 4.59)."""
    a = np.asarray(a, dtype=float)
    out = _log1p_exp_minus_abs(a)
    return np.subtract(np.minimum(a, 0.0), out, out=out)


def _log1p_exp_minus_abs(a: FloatArray) -> FloatArray:
    """log(1 + exp(-|a|)), the part of log sigma(+-a) that cannot overflow, as a new array."""
    out = np.abs(a, out=np.empty(a.shape))  # an array even for a 0-d input
    np.negative(out, out=out)
    np.exp(out, out=out)
    return np.log1p(out, out=out)


def sigmoid(a: ArrayLike, out: FloatArray | None = None) -> FloatArray:
    """The logistic sigmoid 1 / (1 + exp(-a)) (eq. 4.59), written to ``out`` if given.

    exp(-a) overflows to inf for a < -709, which gives the correct 0 without a NaN; the
    result keeps its relative precision everywhere (it is never formed as 1 - something).
    """
    a = np.asarray(a, dtype=float)
    e = np.negative(a, out=np.empty(a.shape))
    with np.errstate(over="ignore"):
        np.exp(e, out=e)
    e += 1.0
    return np.divide(1.0, e, out=e if out is None else out)


def two_class_proba(log_odds: ArrayLike, log: bool = False) -> FloatArray:
    """(p(C_1|x), p(C_2|x)) = (sigma(-a), sigma(a)) from the log-odds a (N,), shape (N, 2) (eq. 4.57).

    Each column is computed on its own (never as 1 - the other), so both keep their relative
    precision far from the boundary; the rows sum to 1 up to rounding. One exponential serves
    both: with E = exp(-a), sigma(a) = 1 / (1 + E) (as ``sigmoid``) and sigma(-a) = 1 / (1 + 1/E),
    within two units in the last place of 1 / (1 + exp(a)); E = inf (a < -709) gives (1, 0) and
    E = 0 gives (0, 1), the limits. ``log=True`` gives their logs,
    ln sigma(+-a) = min(+-a, 0) - ln(1 + exp(-|a|)). Returns the transpose of a (2, N) array.
    """
    a = np.asarray(log_odds, dtype=float)
    out = np.empty((2, a.shape[0]))
    if not log:
        e = np.negative(a, out=out[1])
        with np.errstate(over="ignore", divide="ignore"):
            np.exp(e, out=e)  # E = exp(-a), inf for a < -709
            np.divide(1.0, e, out=out[0])  # 1/E = exp(a), inf where E = 0
        for row in out:  # sigma(-a) = 1 / (1 + 1/E), sigma(a) = 1 / (1 + E)
            row += 1.0
            np.divide(1.0, row, out=row)
        return out.T
    common = _log1p_exp_minus_abs(a)
    np.minimum(a, 0.0, out=out[1])
    out[1] -= common
    np.negative(a, out=out[0])
    np.minimum(out[0], 0.0, out=out[0])
    out[0] -= common
    return out.T
