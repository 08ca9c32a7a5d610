"""The iterative machinery the likelihood models share (PRML 4.3.2-4.3.5, 4.4): the Newton /
gradient-descent loop, the design matrix with its weighted Gram matrices, the standardiser, and
the fit skeleton of the two-class Newton models (logistic, probit, Bayesian logistic regression).

Rules that hold here:

- ``run`` is the one optimisation loop. Every iterate goes into the history, mapped to the book's
  weights [w0, w1, ..., wD] by the caller's ``to_book``; a Newton step that would raise the error
  is halved until it does not (damped Newton), the full step (eq. 4.99) being taken near the optimum.
- The loop's stop is told in one whole sentence (``stop_message``): the time budget, separable
  classes (no finite maximum likelihood, section 4.3.2), weights too large to evaluate, a learning
  rate too large, or too few iterations.
- A singular Hessian gives the minimum-norm step (least squares), never an inverse.
- ``TwoClassNewton.fit`` is the skeleton the three two-class models share: the data (two classes
  at most, t = 1 for ``classes_[1]``), the model's own set-up (options, internal coordinates, the
  problem), the loop, the model's own fitted attributes.
"""

import functools
import math
from collections.abc import Callable
from typing import Any, NamedTuple, NotRequired, Protocol, Self, TypedDict, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .budget import Budget, current_budget
from .errors import InvalidDataError, Message
from .i18n import N_
from .validation import FloatArray, LabelArray, check_X_y


class Objective(Protocol):
    """What ``run`` asks of a problem, at parameters theta in the model's internal coordinates:
    ln p (the log-likelihood), the penalty added to -ln p, the Newton step H^-1 dE/dw, the mean
    gradient (for gradient descent), and whether theta separates the classes."""

    def log_likelihood(self, w: FloatArray) -> float: ...

    def penalty(self, w: FloatArray) -> float: ...

    def newton_step(self, w: FloatArray) -> FloatArray: ...

    def mean_gradient(self, w: FloatArray) -> FloatArray: ...

    def separates(self, w: FloatArray) -> bool: ...


class NewtonStep(TypedDict):
    """One entry of a Newton model's ``history_``: the update's number (0 for the start), the
    book's weights [w0, w1, ..., wD] after it (one row per class for softmax) and ln p there."""

    iteration: int
    w: FloatArray
    log_likelihood: float
    log_posterior: NotRequired[float]  # the Bayesian model's ln p(t|w) + ln p(w), added by its fit


class RunOptions(TypedDict):
    """``run``'s options as a model's set-up gives them."""

    solver: str
    max_iter: int
    tol: float
    learning_rate: float
    l2: float


#: Singular values of the Hessian below this fraction of the largest are treated as zero.
HESSIAN_RCOND = 1e-12


def _in_row_order(X: FloatArray) -> bool:
    """Whether numpy reduces X (N, D) along axis 0 row after row, each column summed in the
    order of the points: a C-ordered float64 table of two columns or more (numpy sums one
    column, or another layout, pairwise). It does so slowly, with a loop over the D columns
    for every row; ``_running_means`` gives the same numbers from the transposed copy."""
    return X.ndim == 2 and X.shape[1] >= 2 and X.flags.c_contiguous and X.dtype == np.float64


def _running_means(T: FloatArray) -> FloatArray:
    """The mean of each row of T (D, N) summed in order along the row (the last of its running
    sums, np.add.accumulate): bit for bit T.T.mean(axis=0) where ``_in_row_order(T.T)``."""
    return np.add.accumulate(T, axis=1)[:, -1] / T.shape[1]


def _standardiser(X: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Centre c (D,) and scale s (D,) with s = 1 for constant features: X.mean(axis=0) and
    X.std(axis=0), bit for bit (from the transposed copy where numpy would sum row after row,
    which is slow: see ``_in_row_order``)."""
    if _in_row_order(X):
        XT = X.T.copy()  # a copy even where X.T is contiguous already (one point): it is overwritten
        centre = _running_means(XT)
        XT -= centre[:, None]
        XT *= XT
        scale = np.sqrt(_running_means(XT))
    else:
        centre = X.mean(axis=0)
        scale = X.std(axis=0)
    scale[~(scale > 0)] = 1.0
    return centre, scale


def _to_book(w_std: FloatArray, centre: FloatArray, scale: FloatArray) -> FloatArray:
    """Weights on standardised inputs (..., D+1) -> the book's [w0, w1, ..., wD] on the raw inputs."""
    w = np.array(w_std, dtype=float)
    w[..., 1:] = w_std[..., 1:] / scale
    w[..., 0] = w_std[..., 0] - w[..., 1:] @ centre
    return w


def _to_standardised(w: FloatArray, centre: FloatArray, scale: FloatArray) -> FloatArray:
    """The inverse of ``_to_book``."""
    w_std = np.array(w, dtype=float)
    w_std[..., 1:] = w[..., 1:] * scale
    w_std[..., 0] = w[..., 0] + w[..., 1:] @ centre
    return w_std


MAX_STEP_HALVINGS = 40
SIGMOID_STEEPENS = N_("the sigmoid sharpens into a step (section 4.3.2)")


def _all_finite(values: ArrayLike) -> bool:
    """Whether every entry of a small array is finite: told on a few Python floats, quicker than
    numpy's two calls for the handful of weights a Newton step has."""
    return all(map(math.isfinite, np.ravel(values).tolist()))


class _PerWeights:
    """Quantities of one weight vector w, computed once each: ``_cache_for(w)`` gives the dict of
    those already computed at w, emptied when w changes (IRLS asks for the likelihood, the step
    and the separability at the same w)."""

    _key: bytes | None = None  # the bytes of the w the cache belongs to
    # Values of different kinds (numbers, arrays, tuples of them) under their names: each
    # problem reads back what it stored, so the values are Any. Declared only: the first
    # _cache_for sets it (no key matches None).
    _cache: dict[str, Any]

    def _cache_for(self, w: FloatArray) -> dict[str, Any]:
        key = np.asarray(w, dtype=float).tobytes()
        if key != self._key:
            self._key, self._cache = key, {}
        return self._cache


def _newton_solve(hessian: FloatArray, gradient: FloatArray) -> FloatArray:
    """Solve H delta = g by least squares (SVD): a singular H (R -> 0, collinear points) gives the
    minimum-norm step instead of a crash or an inverse of nothing."""
    # numpy's stubs type lstsq's solution floating[Any]; for float64 H and g it is float64.
    delta = cast(FloatArray, np.linalg.lstsq(hessian, gradient, rcond=HESSIAN_RCOND)[0])
    if _all_finite(delta):  # the usual case
        return delta
    return np.where(np.isfinite(delta), delta, 0.0)


class TwoClassProblem(_PerWeights):
    """A two-class objective E(w) in the signed activations z_n = s_n w^T phi_n, s_n = 2 t_n - 1,
    plus the ridge (l2 / 2) w^T I' w on the non-bias weights: what IRLS needs of it besides the
    likelihood. A subclass gives ``gradient(w)``, ``curvature(w)`` (R's diagonal) and
    ``signed_activations(w)``; ``design`` is a ``_Design``, ``pen`` the ridge's weights and ``n``
    the number of points."""

    design: "_Design"
    pen: FloatArray
    n: int

    def log_likelihood(self, w: FloatArray) -> float:
        raise NotImplementedError

    def gradient(self, w: FloatArray) -> FloatArray:
        raise NotImplementedError

    def curvature(self, w: FloatArray) -> FloatArray:
        raise NotImplementedError

    def signed_activations(self, w: FloatArray) -> FloatArray:
        raise NotImplementedError

    def penalty(self, w: FloatArray) -> float:
        return 0.5 * float(np.add.reduce(self.pen * (w * w), axis=None))

    def mean_gradient(self, w: FloatArray) -> FloatArray:
        return self.gradient(w) / self.n

    def hessian(self, w: FloatArray) -> FloatArray:
        """Phi^T R Phi + l2 I' (eq. 4.97 with the model's R)."""
        return self.design.gram(self.curvature(w), ridge=self.pen)

    def newton_step(self, w: FloatArray) -> FloatArray:
        """H^-1 dE/dw (eq. 4.99), by least squares: a singular H, e.g. collinear points, gives the
        minimum-norm step."""
        return _newton_solve(self.hessian(w), self.gradient(w))

    def separates(self, w: FloatArray) -> bool:
        return bool(self.signed_activations(w).min() > 0)  # np.all(z > 0) (N >= 1), one call instead of two


class RunResult(NamedTuple):
    """What ``run`` returns: the last iterate (internal coordinates), the history in the book's
    weights, the number of updates, whether they converged to a finite optimum, and the sentence
    on how the run stopped (empty when it converged)."""

    theta: FloatArray
    history: list[NewtonStep]
    n_iter: int
    converged: bool
    message: Message | str | None


def _rose(new_objective: float, old_objective: float) -> bool:
    """Whether the objective rose beyond rounding."""
    return new_objective > old_objective + 1e-12 * (1 + abs(old_objective))


def _small_change(theta: FloatArray, new: FloatArray, tol: float, new_objective: float, old_objective: float) -> bool:
    """The stopping rule: no weight moved by more than tol (1 + max |w|), or the objective by less
    than tol (1 + |objective|)."""
    old, new_list = theta.ravel().tolist(), new.ravel().tolist()
    return max(abs(b - a) for a, b in zip(old, new_list)) <= tol * (1 + max(map(abs, old))) or abs(
        new_objective - old_objective
    ) <= tol * (1 + abs(old_objective))


def _damped(
    evaluate: Callable[[FloatArray], tuple[float, float]],
    theta: FloatArray,
    step: FloatArray,
    new: FloatArray,
    new_ll: float,
    new_objective: float,
    old_objective: float,
) -> tuple[FloatArray, float, float]:
    """Damped Newton: far from the optimum (e.g. separable data on a polynomial basis) a full step
    can overshoot and the error explode; halve it until the error does not rise. Near the optimum
    the full step (eq. 4.99) is always taken. Returns (new, its ln p, its objective)."""
    for _ in range(MAX_STEP_HALVINGS):
        if math.isfinite(new_ll) and not _rose(new_objective, old_objective):
            break
        step = step / 2
        new = theta - step
        new_ll, new_objective = evaluate(new)
    return new, new_ll, new_objective


def _evaluated(problem: Objective, w: FloatArray) -> tuple[float, float]:
    """(ln p, objective -ln p + penalty) at w; (-inf, inf) where w or ln p is not finite."""
    ll = problem.log_likelihood(w) if _all_finite(w) else -math.inf
    return ll, (-ll + problem.penalty(w) if math.isfinite(ll) else math.inf)


def _next_iterate(
    problem: Objective,
    evaluate: Callable[[FloatArray], tuple[float, float]],
    theta: FloatArray,
    irls: bool,
    learning_rate: float,
    old_objective: float,
) -> tuple[FloatArray, float, float]:
    """One update from theta: the Newton step H^-1 dE/dw (eq. 4.92), damped (``_damped``), or a
    gradient-descent step of ``learning_rate``. Returns (new, its ln p, its objective)."""
    step = problem.newton_step(theta) if irls else learning_rate * problem.mean_gradient(theta)
    new = theta - step
    new_ll, new_objective = evaluate(new)
    if irls:
        return _damped(evaluate, theta, step, new, new_ll, new_objective, old_objective)
    return new, new_ll, new_objective


def run(
    problem: Objective,
    theta: FloatArray,
    *,
    solver: str,
    max_iter: int,
    tol: float,
    learning_rate: float,
    l2: float,
    to_book: Callable[[FloatArray], FloatArray],
    describe: str,
    steepens: str = SIGMOID_STEEPENS,
) -> RunResult:
    """The shared optimisation loop: Newton-Raphson (IRLS, eq. 4.92-4.100 and 4.110) or batch
    gradient descent, from ``theta``.

    ``problem`` supplies ``log_likelihood(theta)``, ``penalty(theta)``, ``newton_step(theta)``,
    ``mean_gradient(theta)`` and ``separates(theta)``; ``to_book`` maps parameters to the
    weights stored in the history; ``describe`` names the model and ``steepens`` says, in the
    separable-data message, what the weights' growth does to it (see ``stop_message``).

    The objective -ln p + penalty of each iterate is computed once and carried to the next
    step (the loop runs a few times per drag of a point, so its own overhead counts).
    """
    evaluate = functools.partial(_evaluated, problem)
    ll = problem.log_likelihood(theta)
    history: list[NewtonStep] = [{"iteration": 0, "w": to_book(theta), "log_likelihood": float(ll)}]
    separable = l2 == 0 and problem.separates(theta)
    converged, went_up, blew_up = False, False, False
    irls = solver == "irls"
    n_iter = 0
    budget = current_budget()  # a hosted app bounds the time and the recorded steps
    old_objective = -ll + problem.penalty(theta)
    for n_iter in range(1, max_iter + 1):
        new, new_ll, new_objective = _next_iterate(problem, evaluate, theta, irls, learning_rate, old_objective)
        if not math.isfinite(new_ll):
            blew_up, n_iter = True, n_iter - 1
            break
        went_up |= _rose(new_objective, old_objective)
        small = _small_change(theta, new, tol, new_objective, old_objective)
        theta, ll, old_objective = new, new_ll, new_objective
        history.append({"iteration": n_iter, "w": to_book(theta), "log_likelihood": float(ll)})
        separable = separable or (l2 == 0 and problem.separates(theta))
        if small:
            converged = True
            break
        if budget.exhausted():
            break
    stop = _Stop(solver, n_iter, max_iter, converged, separable, blew_up, went_up, learning_rate)
    return RunResult(
        theta, history, n_iter, converged and not separable, stop_message(stop, describe, steepens, budget)
    )


class _Stop(NamedTuple):
    """How a run ended, for ``stop_message``."""

    solver: str
    n_iter: int
    max_iter: int
    converged: bool
    separable: bool
    blew_up: bool
    went_up: bool
    learning_rate: float


def stop_message(
    stop: _Stop, describe: str, steepens: str = SIGMOID_STEEPENS, budget: Budget | None = None
) -> Message | str | None:
    """The sentence on how a run stopped, the first that applies: the time budget ran out; the
    classes are separable (the maximum likelihood is at infinity, section 4.3.2); the weights
    overflowed; gradient descent's error rose (learning rate too large); too few iterations.
    Empty when the run converged. ``budget`` is the run's (the one in force by default)."""
    budget = current_budget() if budget is None else budget
    if budget.stopped:
        if stop.solver == "irls":
            progress = Message(N_("{n:,} of {limit:,} Newton steps"), n=stop.n_iter, limit=stop.max_iter)
        else:
            progress = Message(N_("{n:,} of {limit:,} gradient steps"), n=stop.n_iter, limit=stop.max_iter)
        return budget.stop_message(progress)
    if stop.separable:
        return Message(
            N_(
                "The classes are linearly separable, so maximum likelihood has no finite solution: the weights "
                "grow without bound as {steepens}; stopped after {n} "
                "updates; an L2 penalty λ > 0 (l2) gives a finite answer."
            ),
            steepens=Message(steepens),
            n=stop.n_iter,
        )
    if stop.blew_up:
        return Message(
            N_(
                "The weights became too large to evaluate after {n} updates, so the fit stopped there; "
                "try a smaller step size (learning_rate) or an L2 penalty λ > 0 (l2)."
            ),
            n=stop.n_iter,
        )
    if not stop.converged and stop.solver == "gd" and stop.went_up:
        return Message(
            N_(
                "Gradient descent did not settle in {n} steps and the error rose at some steps: "
                "the step size (learning rate) {rate:g} is too large for these data, try a smaller one."
            ),
            n=stop.n_iter,
            rate=stop.learning_rate,
        )
    if not stop.converged and stop.max_iter > 0:
        return Message(_not_converged_template(stop.solver, stop.n_iter), method=Message(describe), n=stop.n_iter)
    return ""


def _not_converged_template(solver: str, n_iter: int) -> str:
    """ "... did not converge in N updates", with the advice that suits the solver."""
    if solver == "gd" and n_iter == 1:
        return N_(
            "{method} did not converge in 1 update; raise the maximum iterations (max_iter) or the step size "
            "(learning_rate)."
        )
    if solver == "gd":
        return N_(
            "{method} did not converge in {n} updates; raise the maximum iterations (max_iter) or the step size "
            "(learning_rate)."
        )
    if n_iter == 1:
        return N_("{method} did not converge in 1 update; raise the maximum iterations (max_iter).")
    return N_("{method} did not converge in {n} updates; raise the maximum iterations (max_iter).")


#: Up to this many parameters per class, Hessian blocks use precomputed products phi_a phi_b.
_PAIRWISE_MAX = 8


@functools.cache
def _pair_layout(m: int) -> tuple[list[int], list[int], NDArray[np.intp], NDArray[np.intp]]:
    """The pairs a <= b of M parameters in ``np.triu_indices`` order, as (rows, columns) lists,
    and where an (M, M) matrix finds them: entry (a, b) is pair number index[a, b] (so the
    matrix is read off the pairs' products in one gather), the diagonal's pairs are at
    ``diagonal``."""
    rows, columns = np.triu_indices(m)
    index = np.empty((m, m), dtype=np.intp)
    index[rows, columns] = index[columns, rows] = np.arange(rows.size)
    index.flags.writeable = False
    diagonal = index.diagonal().copy()
    diagonal.flags.writeable = False
    return rows.tolist(), columns.tolist(), index, diagonal


class _Design:
    """The transposed design Phi^T (M, N), points along the contiguous axis, and weighted Gram
    matrices Phi^T diag(r) Phi from it (eq. 4.97, 4.110).

    With few parameters the products phi_na phi_nb (a <= b) are formed once, so that each
    Gram matrix is one matrix-vector product: BLAS is several times slower at the equivalent
    (M, N) @ (N, M) product with M = 3. With many parameters (a large basis) that product is
    used instead, to keep memory O(N M).
    """

    def __init__(self, design_T: FloatArray) -> None:
        self.T = design_T
        self.m = design_T.shape[0]
        self.pairs: FloatArray | None = None
        if self.m <= _PAIRWISE_MAX:
            rows, columns, self.index, self.diagonal = _pair_layout(self.m)
            self.pairs = np.empty((len(rows), design_T.shape[1]))
            for row, a, b in zip(self.pairs, rows, columns):
                np.multiply(design_T[a], design_T[b], out=row)

    def gram(self, weights: FloatArray, ridge: FloatArray | None = None) -> FloatArray:
        """Phi^T diag(weights) Phi, shape (M, M), exactly symmetric; plus diag(ridge) if given."""
        if self.pairs is None:
            out = (self.T * weights) @ self.T.T
            if ridge is not None:
                out[np.diag_indices(self.m)] += ridge
            return out
        values = self.pairs @ weights
        if ridge is not None:
            values[self.diagonal] += ridge
        return values[self.index]


class NewtonSetup(NamedTuple):
    """A two-class Newton model's set-up for ``run``: the problem (in the model's internal
    coordinates), the start, ``run``'s options (solver, max_iter, tol, learning_rate, l2), the map
    from internal parameters to the book's weights, the checked ``w_init`` (None for zeros), and
    what else the model's ``_store`` needs (``extra``)."""

    problem: Objective
    start: FloatArray
    options: RunOptions
    to_book: Callable[[FloatArray], FloatArray]
    w_init: FloatArray | None = None
    extra: object = None  # read back only by the model that set it up


class TwoClassNewton:
    """The ``fit`` of the two-class Newton models (logistic 4.3.2, probit 4.3.5, Bayesian logistic
    4.4): check the data and refuse K > 2 classes, ``_setup`` the model's problem from the targets
    t_n = 1 for ``classes_[1]`` and 0 for ``classes_[0]``, ``run`` the loop, then ``_store`` the
    fitted attributes. A subclass names itself (``_method``), says what to use for more classes
    (``_too_many_classes``, a sentence with {n}) and what steepens on separable data (``_steepens``)."""

    _method: str
    _too_many_classes: str
    _steepens = SIGMOID_STEEPENS

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        X, y_index, classes = check_X_y(X, y, method=self._method)
        if classes.size > 2:
            raise InvalidDataError(self._too_many_classes, n=classes.size)
        setup = self._setup(X, (y_index == 1).astype(float))
        result = run(
            setup.problem,
            setup.start,
            to_book=setup.to_book,
            describe=self._method,
            steepens=self._steepens,
            **setup.options,
        )
        self._store(classes, X, setup, result)
        return self

    def _setup(self, X: FloatArray, targets: FloatArray) -> NewtonSetup:
        raise NotImplementedError

    def _store(self, classes: LabelArray, X: FloatArray, setup: NewtonSetup, result: RunResult) -> None:
        raise NotImplementedError
