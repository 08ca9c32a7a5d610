"""The function each method's fit optimises, evaluated at any line (issue 46).

A line is w = (w0, w1, ..., wD), the back-end's convention: the activation is
a(x) = w0 + w^T x and a > 0 means ``classes_[1]``, whose target is t = +1 (t = -1, or 0 where
the book writes 0/1 targets, for ``classes_[0]``). Each method's class says what its criterion is
(``criterion_name``, a translatable phrase; ``criterion_equation``, PRML's number;
``criterion_maximised``; ``criterion_has_shares``) and computes it with its own hyper-parameters
(C, alpha, l2, the least-squares targets...): what the app knows of a method lives on its class.
The method is ``criterion_at`` (Fisher's ``criterion(direction)`` of a fitted model, for K
classes too, is older and stays); ``playground.criterion(name, X, y, w)`` is the public form.

Rules that hold:

- Two classes only; K > 2 and one class are refused with a sentence (``two_class_data``).
- ``criterion_at(X, y, W)`` takes one line (D + 1,) or a stack (M, D + 1) and returns
  W.shape[:-1] values; a stack goes through in blocks of lines, each one vectorised numpy pass,
  and gives the values the lines give one at a time (up to rounding).
- The fitted weights are the criterion's optimum (its minimum; Fisher's J: its maximum): each
  method's formula is the one its ``fit`` optimises, penalties and targets included.
- The value is finite for finite input, w = 0 included, with two infinities by definition:
  the hard-margin SVM's +inf outside its constraints and Fisher's +inf where J is unbounded.
  A value too large for double precision raises, it is never returned as inf or NaN.
- ``criterion_terms(X, y, w)`` splits one line's value into one share per point and the penalty
  (a prior or a ridge) that belongs to no point: ``points.sum() + penalty`` is the value.

Density models (the Gaussian classes, naive Bayes) fit densities, not a line: their
``criterion_at`` raises a ``PlaygroundError`` saying so (``DensityFit``).
"""

from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np
from numpy.typing import ArrayLike

from .base import log_sigmoid
from .errors import InvalidDataError, Message, PlaygroundError
from .i18n import N_
from .validation import MAX_MAGNITUDE, FloatArray, IndexArray, LabelArray, check_X_y, magnitude_text

#: Line-point pairs evaluated at once: a block of lines makes an (M_block, N) array of this size.
BLOCK_PAIRS = 1 << 20
#: Line-point pairs one call evaluates at most (a hosted instance must not be asked for more).
MAX_PAIRS = 50_000_000


class CriterionTerms(NamedTuple):
    """One line's criterion split into each point's share and the penalty (``criterion_terms``).

    points : (N,) the term of each point (squared residual, -ln p(t_n), hinge loss, perceptron term)
    penalty : the part that belongs to no point (a ridge, a prior, the SVM's 1/2 |w|^2), 0 if none
    """

    points: FloatArray
    penalty: float

    @property
    def total(self) -> float:
        """The criterion itself: the shares and the penalty summed."""
        return float(np.sum(self.points)) + self.penalty


class LineData(NamedTuple):
    """Checked two-class data for a criterion."""

    X: FloatArray  # (N, D)
    y_index: IndexArray  # (N,), 0 or 1
    classes: LabelArray  # (2,)
    t: FloatArray  # (N,), +1 for classes_[1], -1 for classes_[0]


@runtime_checkable
class HasCriterion(Protocol):
    """A model that evaluates its criterion at lines (or says why it has none)."""

    def criterion_at(self, X: ArrayLike, y: ArrayLike, W: ArrayLike) -> FloatArray: ...

    def criterion_terms(self, X: ArrayLike, y: ArrayLike, w: ArrayLike) -> CriterionTerms: ...


def two_class_data(X: ArrayLike, y: ArrayLike, method: str) -> LineData:
    """X, y checked as a fit checks them (``check_X_y``), then two classes exactly."""
    X, y_index, classes = check_X_y(X, y, method=method)
    if classes.size != 2:
        raise InvalidDataError(
            N_(
                "{method}: the criterion of a line w0 + w^T x is defined here for two classes (the line "
                "separates one from the other); the points have {n}. Keep two classes to evaluate it."
            ),
            method=Message(method),
            n=classes.size,
        )
    return LineData(X, y_index, classes, np.where(y_index == 1, 1.0, -1.0))


def check_lines(W: ArrayLike, n_weights: int, method: str) -> tuple[FloatArray, tuple[int, ...]]:
    """W as an (M, n_weights) float array of finite weights within +-``MAX_MAGNITUDE``, and the
    shape of the values to return (() for one line given as a vector)."""
    try:
        lines = np.asarray(W, dtype=float)
    except (TypeError, ValueError):
        lines = np.full(1, np.nan)
    if lines.ndim not in (1, 2) or lines.shape[-1] != n_weights or lines.size == 0 or not np.all(np.isfinite(lines)):
        raise InvalidDataError(
            N_(
                "{method}: a line's weights must be {n} finite numbers [w0, w1, ...] (or a table of such "
                "rows, one line each); got shape {shape}."
            ),
            method=Message(method),
            n=n_weights,
            shape=lines.shape,
        )
    if np.max(np.abs(lines)) > MAX_MAGNITUDE:
        raise InvalidDataError(
            N_("{method}: a line's weights must lie between -{limit} and {limit}."),
            method=Message(method),
            limit=magnitude_text(MAX_MAGNITUDE),
        )
    return np.atleast_2d(lines), lines.shape[:-1]


def check_pairs(n_lines: int, n_points: int, method: str) -> None:
    """Refuse more than ``MAX_PAIRS`` line-point pairs in one call."""
    if n_lines * n_points > MAX_PAIRS:
        raise InvalidDataError(
            N_(
                "{method}: {lines:,} lines at {points:,} points are more than the playground evaluates "
                "at once ({limit:,} line-point pairs); take fewer lines."
            ),
            method=Message(method),
            lines=n_lines,
            points=n_points,
            limit=MAX_PAIRS,
        )


def activations(data: LineData, W: FloatArray) -> FloatArray:
    """a_mn = w_m0 + w_m^T x_n for lines W (M, D + 1), line-major (M, N): each line's terms are
    then a contiguous row, summed the same way whatever the block."""
    A = W[:, 1:] @ data.X.T
    A += W[:, :1]
    return A


def ridge(W: FloatArray, l2: float) -> FloatArray:
    """(l2 / 2) (w1^2 + ... + wD^2) per line (M,): the ridge of the fits with ``l2``, the bias w0 free."""
    penalty: FloatArray = np.einsum("md,md->m", W[:, 1:], W[:, 1:])
    penalty *= 0.5 * l2
    return penalty


def minus_log_sigmoid(data: LineData, A: FloatArray) -> FloatArray:
    """-ln p(t_n | w) = -ln sigma(t_n a_n) (eq. 4.90, t = +-1), in place of A (M, N), without
    overflow: -min(z, 0) + ln(1 + exp(-|z|)) (``base.log_sigmoid``)."""
    A *= data.t
    out = log_sigmoid(A)
    return np.negative(out, out=out)


def overflow_error(method: str) -> InvalidDataError:
    return InvalidDataError(
        N_(
            "{method}: the criterion at these weights is beyond the largest number double precision "
            "holds (about 1.8e308); take smaller weights."
        ),
        method=Message(method),
    )


def no_criterion_message(method: str) -> Message:
    """What a model without a criterion of a line (a multi-class strategy) says when asked for one."""
    return Message(
        N_(
            "{method} has no criterion of a line: a criterion belongs to a method itself (least squares, "
            "logistic regression, the SVM...), not to a multi-class strategy built of several fits."
        ),
        method=Message(method),
    )


class LineCriterion:
    """The criterion of a two-class method at lines: the class attributes say what it is, a method
    supplies ``_point_terms`` (one share per point) and ``_penalty`` (what belongs to no point),
    or overrides ``_values`` when its criterion is no sum over the points (Fisher's J)."""

    #: The criterion's name, a translatable phrase ("cross-entropy").
    criterion_name = ""
    #: PRML's equation number of the criterion ("4.90").
    criterion_equation = ""
    #: Whether the fit maximises the criterion (Fisher's J) rather than minimises it.
    criterion_maximised = False
    #: Whether the criterion is a sum of one share per point (``criterion_terms``).
    criterion_has_shares = True
    #: Whether the method has a criterion of a line at all (the density models have none).
    criterion_defined = True
    #: How the criterion depends on the scale s of w = s u (``playground.landscape``): "optimised"
    #: (a convex function of s, shown at its best), "quadratic" (a quadratic in s: its best in closed
    #: form), "unit" (proportional to s) or "free" (none).
    criterion_scale = "optimised"

    display_name: str  # the classifier's, which this is mixed into

    def criterion_at(self, X: ArrayLike, y: ArrayLike, W: ArrayLike) -> FloatArray:
        """The criterion at each line of W, (D + 1,) or (M, D + 1) as [w0, w1, ..., wD]; values of
        shape W.shape[:-1] (a 0-d array for one line: ``float()`` of it is the value)."""
        data = self._criterion_data(X, y)
        lines, shape = check_lines(W, data.X.shape[1] + 1, self.display_name)
        check_pairs(lines.shape[0], data.X.shape[0], self.display_name)
        self._check_criterion_params()
        values = np.empty(lines.shape[0])
        block = max(1, BLOCK_PAIRS // data.X.shape[0])
        with np.errstate(over="ignore", invalid="ignore"):
            for start in range(0, lines.shape[0], block):
                values[start : start + block] = self._values(data, lines[start : start + block])
        self._check_values(values)
        return values.reshape(shape)

    def criterion_terms(self, X: ArrayLike, y: ArrayLike, w: ArrayLike) -> CriterionTerms:
        """Each point's share of the criterion at the line w (D + 1,) and the penalty; they sum to
        ``criterion_at(X, y, w)``."""
        data = self._criterion_data(X, y)
        lines, shape = check_lines(w, data.X.shape[1] + 1, self.display_name)
        if shape != ():
            raise InvalidDataError(
                N_("{method}: the shares of the points are those of one line: give w as {n} numbers [w0, w1, ...]."),
                method=Message(self.display_name),
                n=data.X.shape[1] + 1,
            )
        self._check_criterion_params()
        with np.errstate(over="ignore", invalid="ignore"):
            points = self._point_terms(data, activations(data, lines))[0]
            penalty = float(self._penalty(lines)[0])
        self._check_values(np.append(points, penalty))
        return CriterionTerms(points, penalty)

    # -- what a method supplies ----------------------------------------------------------------

    def _criterion_data(self, X: ArrayLike, y: ArrayLike) -> LineData:
        """The checked data; a method with further requirements (Fisher's two points per class) adds them."""
        return two_class_data(X, y, self.display_name)

    def _check_criterion_params(self) -> None:
        """Raise on a hyper-parameter the criterion reads, as the fit would."""

    def _values(self, data: LineData, W: FloatArray) -> FloatArray:
        """The criterion at the lines W (M, D + 1), shape (M,): the points' shares summed, plus the penalty."""
        values: FloatArray = self._point_terms(data, activations(data, W)).sum(axis=1)
        values += self._penalty(W)
        return values

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        """Each point's share at activations A (M, N), shape (M, N)."""
        raise NotImplementedError

    def _penalty(self, W: FloatArray) -> FloatArray:
        """The part of the criterion that belongs to no point, per line (M,); none by default."""
        return np.zeros(W.shape[0])

    def _infinite_by_definition(self) -> bool:
        """Whether +inf is a value of the criterion (a constraint, an unbounded ratio), not an overflow."""
        return False

    def _check_values(self, values: FloatArray) -> None:
        bad = np.isnan(values) if self._infinite_by_definition() else ~np.isfinite(values)
        if np.any(bad):
            raise overflow_error(self.display_name)


class DensityFit:
    """What a density model says when asked for the criterion of a line: its fit maximises the
    likelihood of class densities (section 4.2), which is no function of a line, so there is
    none to evaluate (the page scores a line for it by the cross-entropy and says why)."""

    criterion_name = ""
    criterion_equation = ""
    criterion_maximised = False
    criterion_has_shares = False
    criterion_defined = False

    display_name: str  # the classifier's, which this is mixed into
    book_section: str

    def criterion_at(self, X: ArrayLike, y: ArrayLike, W: ArrayLike) -> FloatArray:
        raise self._no_criterion()

    def criterion_terms(self, X: ArrayLike, y: ArrayLike, w: ArrayLike) -> CriterionTerms:
        raise self._no_criterion()

    def _no_criterion(self) -> PlaygroundError:
        return PlaygroundError(
            N_(
                "{method} fits a density to each class by maximum likelihood (section {section}), not a "
                "function of a line w0 + w^T x, so it has no criterion of its own to evaluate at a line."
            ),
            method=Message(self.display_name),
            section=self.book_section,
        )
