"""The one place where the back-end's sign convention becomes the book's.

The back-end follows scikit-learn: with two classes ``classes_ = (a, b)``, a < b, a positive
decision value means b (``classes_[1]``), the perceptron and the SVM use t = +1 for b, and
logistic regression models p(b|phi) = sigma(w^T phi). Notebooks and the back-end's tests rely on
that, so it stays.

Everything a person reads follows PRML instead (eq. 4.4-4.6, 4.52-4.55, 4.87, figure 4.1): of the
two classes present, the first (the lower class number) is C1 and the second C2;
y(x) = w^T x + w0 >= 0 assigns C1, t = +1 for C1 and -1 for C2 (t = N/N1 and -N/N2 in section
4.1.5; t = 1 and 0 for logistic regression), p(C1|phi) = sigma(w^T phi), and w points into C1's
region. For two classes the book's weights, biases, decision values and targets are therefore
the back-end's with the opposite sign; with K > 2 classes the K discriminants y_k(x) are the
same in both conventions and nothing changes.

Panels, the equations, the hover read-outs and the initial-weight inputs call these functions
and never negate anything themselves.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from playground import Classifier, FisherDiscriminant
from playground.least_squares import LeastSquaresClassifier

from .names import class_name

FloatArray = NDArray[np.float64]


class Fitted(Protocol):
    """A fitted estimator, of which these functions read the classes (every ``Classifier``)."""

    @property
    def classes_(self) -> NDArray[Any]: ...


class IterativeFit(Fitted, Protocol):
    """A fitted estimator that recorded its iterates in ``history_`` (one dict per step with the
    weights under "w"): the perceptron, logistic and softmax regression."""

    @property
    def history_(self) -> Sequence[Mapping[str, Any]]: ...


class Probabilistic(Fitted, Protocol):
    """A fitted estimator with ``predict_proba`` (p(C_k|x) per row, in ``classes_`` order)."""

    def predict_proba(self, X: ArrayLike) -> FloatArray: ...


class BookClasses(NamedTuple):
    """The global class indices the book calls C1 and C2 (of a two-class model)."""

    c1: int
    c2: int


class BookRoles(NamedTuple):
    """The names of C1 and C2 as the app writes them (raw text: escape it where it is shown)."""

    c1: str
    c2: str


class FisherTargets(NamedTuple):
    """The book's targets of C1 and C2 in section 4.1.5: N/N1 and -N/N2."""

    c1: float
    c2: float


# -- which class is C1 -----------------------------------------------------------------------------


def is_two_class(model: object) -> bool:
    """True for a fitted model of exactly two classes (where the two conventions differ)."""
    return model is not None and np.size(getattr(model, "classes_", ())) == 2


def sign(model: object) -> float:
    """The factor from the back-end's numbers to the book's: -1 for two classes, else +1."""
    return -1.0 if is_two_class(model) else 1.0


def book_classes(model: Fitted) -> BookClasses:
    """(C1, C2): the global class indices the book calls C1 and C2, for a two-class model.

    C1 is the first class present (``classes_[0]``), the one with y(x) >= 0 and t = +1.
    """
    if not is_two_class(model):
        raise ValueError("C1 and C2 are defined for a model of two classes.")
    first, second = (int(c) for c in np.asarray(model.classes_))
    return BookClasses(first, second)


def book_roles(model: Fitted) -> BookRoles:
    """The names of C1 and C2 as the app writes them, e.g. ("class 1", "class 2").

    The app numbers classes 1-6 everywhere (legend, status line, equations); the book's roles go
    to the two classes present in order, so with classes 2 and 3 "class 2" plays C1.
    """
    first, second = book_classes(model)
    return BookRoles(class_name(first), class_name(second))


# -- values ------------------------------------------------------------------------------------------


def book_decision(model: Classifier, X: ArrayLike) -> FloatArray:
    """The book's y(x) at the rows of X: (N,) for two classes (>= 0 on C1), (N, K) otherwise."""
    return sign(model) * np.asarray(model.decision_function(X), dtype=float)


def book_targets(model: Fitted, y: ArrayLike) -> FloatArray:
    """t_n = +1 for C1 and -1 for C2 (eq. 4.53; the SVM's t_n), for global labels ``y`` (N,)."""
    first, _unused = book_classes(model)
    return np.where(np.asarray(y) == first, 1.0, -1.0)


def book_weights(model: object, weights: ArrayLike) -> FloatArray:
    """A weight vector or array of the model in the book's sign: negated for two classes.

    Works for bias-first vectors [w0, w1, ..., wD] (perceptron, logistic regression), for
    (1, D) ``coef_`` / (1,) ``intercept_``, and leaves K-class weights (one row per class) alone.
    """
    return sign(model) * np.asarray(weights, dtype=float)


def c1_probability(model: Probabilistic, X: ArrayLike) -> FloatArray:
    """p(C1|x) of a two-class probabilistic model (eq. 4.57, 4.87)."""
    return np.asarray(model.predict_proba(X), dtype=float)[:, 0]


# -- the two-class line of figure 4.1 ---------------------------------------------------------------


@dataclass(frozen=True)
class BookLine:
    """A two-class linear discriminant y(x) = w^T x + w0 in the book's convention (eq. 4.4).

    ``w`` points into C1's region (figure 4.1); ``c1`` and ``c2`` are global class indices.
    """

    w: FloatArray
    w0: float
    c1: int
    c2: int

    @property
    def norm(self) -> float:
        return float(np.linalg.norm(self.w))

    @property
    def distance_from_origin(self) -> float:
        """-w0 / ||w||: the boundary's signed distance from the origin (eq. 4.5)."""
        return -self.w0 / self.norm

    def value(self, X: ArrayLike) -> FloatArray:
        """y(x) = w^T x + w0 at the rows of X (eq. 4.4)."""
        return np.asarray(X, dtype=float) @ self.w + self.w0

    def distance(self, X: ArrayLike) -> FloatArray:
        """r = y(x) / ||w||, the signed distance from the boundary, positive on C1's side (eq. 4.7)."""
        return self.value(X) / self.norm


def book_line(model: Classifier | None) -> BookLine | None:
    """The ``BookLine`` of a fitted two-class linear model, or None.

    Reads ``coef_`` (1, D) / ``intercept_``; a one-versus-rest / one-versus-one wrapper of two
    classes (one sub-classifier) is read through its ``coefs_`` / ``intercepts_``. None for K > 2
    classes, a curved model, a zero or non-finite w.
    """
    if model is None or not is_two_class(model):
        return None
    coef = getattr(model, "coef_", None)
    intercept = getattr(model, "intercept_", None)
    if coef is None:
        coef, intercept = getattr(model, "coefs_", None), getattr(model, "intercepts_", None)
    if coef is None or intercept is None or np.shape(coef)[0] != 1 or np.size(intercept) != 1:
        return None
    w = -np.asarray(coef, dtype=float).reshape(-1)
    w0 = -float(np.ravel(intercept)[0])
    if not (np.all(np.isfinite(w)) and np.isfinite(w0)) or np.linalg.norm(w) == 0:
        return None
    first, second = book_classes(model)
    return BookLine(w, w0, first, second)


def signed_number(value: float, digits: int = 3) -> str:
    """A number as a person reads it: ``digits`` significant digits, a true minus sign "−", and
    never "−0" (a negative zero, or a value that rounds to 0, is "0")."""
    text = f"{float(value):.{digits}g}"
    return "0" if float(text) == 0 else text.replace("-", "−")


def affine_text(w0: float, w: ArrayLike, inputs: Sequence[str] = ("x₁", "x₂"), digits: int = 3) -> str:
    """The book's y(x) = w1 x1 + w2 x2 + w0 written out as text, "1.5·x₁ − 2·x₂ + 3": zero terms
    (at ``digits``) left out, a true minus sign between terms, "0" when every term is zero.
    ``w`` / ``w0`` are already in the book's sign (``book_line``, ``book_weights``)."""
    terms = [(float(v), f"·{name}") for v, name in zip(np.ravel(np.asarray(w, dtype=float)), inputs)]
    terms.append((float(w0), ""))
    text = ""
    for value, name in terms:
        magnitude = signed_number(abs(value), digits)
        if magnitude == "0":
            continue
        negative = value < 0
        if not text:
            text = ("−" if negative else "") + magnitude + name
        else:
            text += (" − " if negative else " + ") + magnitude + name
    return text or "0"


# -- sub-classifiers of one-versus-rest / one-versus-one (figure 4.2) -------------------------------


@dataclass(frozen=True)
class SubClassifier:
    """One two-class classifier of a K-class strategy, positive (y >= 0) on ``positive``'s side.

    One-versus-rest: "class k vs the rest", positive on class k (``negative`` is None), as the
    back-end has it. One-versus-one: "class i vs class j" for i < j, positive on class i, the
    first of the pair (C1 of that two-class problem): the back-end's pairwise weights negated.
    ``w`` / ``w0`` are None for curved sub-classifiers.
    """

    positive: int
    negative: int | None
    w: FloatArray | None
    w0: float | None
    sign: float  # book value = sign * the sub-estimator's decision value

    def decision(self, estimator: Classifier, X: ArrayLike) -> FloatArray:
        return self.sign * np.asarray(estimator.decision_function(X), dtype=float).reshape(-1)


def book_sub_classifiers(model: Fitted | None) -> list[SubClassifier]:
    """[SubClassifier] of a fitted one-versus-rest / one-versus-one model of K > 2 classes, else []."""
    estimators = getattr(model, "estimators_", None)
    if model is None or not estimators or len(estimators) < 2:
        return []
    classes = np.asarray(model.classes_, dtype=int)
    coefs, intercepts = getattr(model, "coefs_", None), getattr(model, "intercepts_", None)
    pairs = getattr(model, "pairs_", None)
    result = []
    for m in range(len(estimators)):
        if pairs is not None:
            i, j = (int(v) for v in np.asarray(pairs)[m])
            positive, negative, flip = int(classes[i]), int(classes[j]), -1.0  # the back-end's positive is j
        else:
            positive, negative, flip = int(classes[m]), None, 1.0
        w = w0 = None
        if coefs is not None and intercepts is not None:
            w, w0 = flip * np.asarray(coefs[m], dtype=float), flip * float(intercepts[m])
        result.append(SubClassifier(positive, negative, w, w0, flip))
    return result


# -- iterative fits: the weights of each step --------------------------------------------------------


def _iterate_weights(model: IterativeFit, weights: ArrayLike) -> FloatArray:
    """An iterate's weights in the book's sign: one discriminant w (perceptron, logistic regression)
    negated for two classes; one row w_k per class (softmax, a_k = w_k^T phi) as they are."""
    weights = np.asarray(weights, dtype=float)
    if weights.ndim == 2 and weights.shape[0] == np.size(model.classes_):
        return weights.copy()
    return book_weights(model, weights)


def book_weights_at(model: IterativeFit, step: int) -> FloatArray:
    """The book's [w0, w1, ..., wM] after ``step`` updates of a perceptron or a logistic / softmax
    regression (step 0: the initial weights); softmax keeps one row per class, unchanged."""
    if hasattr(model, "weights_at"):
        return _iterate_weights(model, model.weights_at(step))
    return _iterate_weights(model, model.history_[step]["w"])


def book_history(model: IterativeFit, labels: ArrayLike | None = None) -> list[dict[str, Any]]:
    """The model's ``history_`` with every weight vector in the book's sign (new dicts).

    Perceptron entries keep "epoch", "index" and "errors"; given the training ``labels`` (global
    class indices) each also gains "t", the book's target of the point used. Logistic / softmax
    entries keep "iteration" and "log_likelihood".
    """
    entries = []
    for entry in model.history_:
        copy = dict(entry)
        copy["w"] = _iterate_weights(model, entry["w"])
        if "index" in entry and labels is not None:
            copy["t"] = point_target(model, np.asarray(labels)[int(entry["index"])])
        entries.append(copy)
    return entries


def point_target(model: Fitted, label: int) -> int:
    """The book's t (+1 for C1, -1 for C2) of a point of global class ``label``."""
    return int(book_targets(model, np.array([label]))[0])


# -- initial weights a person types -------------------------------------------------------------------


@overload
def backend_w_init(book_w: None) -> None: ...
@overload
def backend_w_init(book_w: Sequence[float]) -> tuple[float, ...]: ...
def backend_w_init(book_w: Sequence[float] | None) -> tuple[float, ...] | None:
    """Initial weights typed in the book's convention (w points into C1, the first class present)
    -> the ``w_init`` the back-end wants (whose positive class is the second): every sign flips.

    Two-class methods only: the perceptron and logistic regression take w_init for two classes.
    """
    if book_w is None:
        return None
    return tuple(0.0 - float(v) for v in book_w)  # 0.0 - v: no "-0.0" in a link


@overload
def book_w_init(backend_w: None) -> None: ...
@overload
def book_w_init(backend_w: Sequence[float]) -> tuple[float, ...]: ...
def book_w_init(backend_w: Sequence[float] | None) -> tuple[float, ...] | None:
    """The inverse of ``backend_w_init``: a stored ``w_init`` as the person typed it."""
    return backend_w_init(backend_w)


# -- Fisher's discriminant with two classes ---------------------------------------------------------


@dataclass(frozen=True)
class BookFisher:
    """Fisher's two-class projection y = w^T x with the threshold rule of section 4.1.4, "C1 if
    y(x) >= y0", in the book's sign: w points from C2's mean towards C1's (w proportional to
    S_W^-1 (m1 - m2); eq. 4.30 writes m2 - m1, and J(w) = J(-w) leaves the sign free)."""

    direction: FloatArray  # unit w
    threshold: float  # y0
    projected_means: FloatArray  # (w^T m1, w^T m2)


def book_fisher(model: FisherDiscriminant) -> BookFisher:
    """The ``BookFisher`` of a fitted two-class ``FisherDiscriminant``."""
    return BookFisher(
        -np.asarray(model.direction_, dtype=float),
        -float(model.threshold_),
        -np.ravel(np.asarray(model.projected_means_, dtype=float)),
    )


# -- least squares with the targets of section 4.1.5 ---------------------------------------------------


def book_least_squares_outputs(model: LeastSquaresClassifier, X: ArrayLike) -> FloatArray:
    """Least squares' outputs in the book's convention, (N, K): 1-of-K outputs y_k(x) unchanged;
    with the targets of section 4.1.5 the single output y(x) that is N/N1 on C1 and -N/N2 on C2."""
    outputs = np.asarray(model.class_outputs(X), dtype=float)
    return -outputs if outputs.shape[1] == 1 else outputs


def fisher_target_values(model: Fitted, y: ArrayLike) -> FisherTargets:
    """(N/N1, -N/N2): the book's targets of C1 and C2 in section 4.1.5, for training labels ``y``."""
    first, _unused = book_classes(model)
    n, n1 = np.size(y), int(np.sum(np.asarray(y) == first))
    return FisherTargets(n / n1, -n / (n - n1))
