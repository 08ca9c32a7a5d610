"""Probabilistic discriminative models: logistic and softmax regression (PRML 4.3.2-4.3.4).

Both maximise the likelihood of the class labels directly, either by Newton-Raphson
(iterative reweighted least squares, eq. 4.92-4.100 and 4.110) or by batch gradient descent,
and record every iterate in ``history_`` so the ui can replay the fit.

Newton's method is unchanged by an affine change of the inputs, so IRLS works internally on
standardised inputs (x - mean) / std and maps every iterate back to the book's weights
[w0, w1, ..., wD]: the iterates are the book's, but large or tiny coordinates do not spoil the
linear solves. Gradient descent is not affine-invariant and runs on the inputs as given.

The fitted model keeps one set of weights, ``weights_`` (with ``coef_`` and ``intercept_``
views of it, or for softmax with two classes their difference): ``decision_function``,
``predict_proba`` and ``predict`` are computed from ``coef_`` and ``intercept_`` alone.

The loop, the design matrix and the standardiser are shared with probit and Bayesian logistic
regression and live in ``playground.newton``; logistic regression's ``fit`` is its two-class skeleton.
"""

import copy
from collections.abc import Callable
from typing import NamedTuple, Self

import numpy as np
from numpy.typing import ArrayLike

from .base import FloatArray, LinearClassifier, LinearPosteriorMixin, ProbabilisticMixin
from .card import NEWTON_COST, MethodCard
from .criteria import LineCriterion, LineData, minus_log_sigmoid, ridge
from .errors import InvalidDataError, Message
from .i18n import N_
from .newton import (
    NewtonSetup,
    NewtonStep,
    RunOptions,
    RunResult,
    TwoClassNewton,
    TwoClassProblem,
    _Design,
    _newton_solve,
    _standardiser,
    _to_book,
    _to_standardised,
    run,
)
from .specs import iterative_solver_specs, w_init_spec
from .validation import (
    MAX_ITERATIONS,
    IndexArray,
    LabelArray,
    check_iterations,
    check_w_init,
    check_X_y,
)

SOLVERS = ("irls", "gd")
#: Default number of updates when ``max_iter`` is None.
DEFAULT_MAX_ITER = {"irls": 100, "gd": 1000}
#: Upper bound on ``max_iter`` (a hosted instance must not be asked to loop for ever).
MAX_ITER_LIMIT = MAX_ITERATIONS


def _check_options(model: "_IterativeMixin", method: str) -> tuple[str, int, float, float, float]:
    """Validate the shared hyper-parameters; return (solver, max_iter, tol, l2, learning_rate)."""
    if model.solver not in SOLVERS:
        raise InvalidDataError(
            N_("{method}: solver must be 'irls' or 'gd', not {value!r}."), method=Message(method), value=model.solver
        )
    max_iter = DEFAULT_MAX_ITER[model.solver] if model.max_iter is None else model.max_iter
    max_iter = check_iterations(max_iter, Message(N_("{method}: max_iter"), method=Message(method)), minimum=0)
    values: dict[str, float] = {}
    for name, positive in (("tol", False), ("l2", False), ("learning_rate", True)):
        try:
            value = float(getattr(model, name))
        except (TypeError, ValueError):
            raise InvalidDataError(
                N_("{method}: {name} must be a number."), method=Message(method), name=name
            ) from None
        if not np.isfinite(value) or value < 0 or (positive and value == 0):
            if positive:
                template = N_("{method}: {name} must be a finite positive number; got {value}.")
            else:
                template = N_("{method}: {name} must be a finite number at least 0; got {value}.")
            raise InvalidDataError(template, method=Message(method), name=name, value=value)
        values[name] = value
    return model.solver, int(max_iter), values["tol"], values["l2"], values["learning_rate"]


class _BinaryProblem(TwoClassProblem):
    """Cross-entropy for two classes (eq. 4.90) with an optional ridge on the non-bias weights.

    ``design`` is a ``_Design``. Everything is written in the signed activations
    z_n = s_n w^T phi_n, s_n = 2 t_n - 1 (positive: the point is on its class's side), from
    which ln y_n, y_n - t_n and R_nn follow without cancellation. The quantities of the last
    w are kept: IRLS asks for the likelihood, the step and the separability at the same w.
    """

    def __init__(self, design: _Design, targets: FloatArray, penalty_weights: FloatArray, n_points: int) -> None:
        self.design, self.t, self.pen, self.n = design, targets, penalty_weights, n_points
        self.sign = 2.0 * targets - 1.0
        self._minus_sign = -self.sign

    def _margins(self, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(z, exp(-|z|)) at w, each shape (N,); a new w empties the cache of derived quantities."""
        cache = self._cache_for(w)
        if "margins" not in cache:
            z = np.asarray(w, dtype=float) @ self.design.T
            z *= self.sign
            e = np.abs(z)
            np.negative(e, out=e)
            np.exp(e, out=e)
            cache["margins"] = (z, e)
        return cache["margins"]

    def log_likelihood(self, w: FloatArray) -> float:
        """sum_n ln sigma(z_n) = sum_n min(z_n, 0) - ln(1 + exp(-|z_n|)) (eq. 4.90)."""
        z, e = self._margins(w)
        if "ll" not in self._cache:
            self._cache["ll"] = float(np.add.reduce(np.minimum(z, 0.0)) - np.add.reduce(np.log1p(e)))
        return self._cache["ll"]

    def _residuals_and_curvature(self, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        """y_n - t_n = -s_n sigma(-z_n) and R_nn = y_n (1 - y_n) (eq. 4.98), both precise."""
        z, e = self._margins(w)
        if "residuals" not in self._cache:
            big = e + 1.0
            np.divide(1.0, big, out=big)  # sigma(|z|)
            small = e * big  # sigma(-|z|)
            residuals = np.where(z >= 0, small, big)
            residuals *= self._minus_sign
            self._cache["residuals"] = (residuals, np.multiply(big, small, out=big))
        return self._cache["residuals"]

    def likelihood_gradient(self, w: FloatArray) -> FloatArray:
        """Phi^T (y - t) (eq. 4.91)."""
        residuals, _ = self._residuals_and_curvature(w)
        return self.design.T @ residuals

    def gradient(self, w: FloatArray) -> FloatArray:
        """Phi^T (y - t) + l2 I' w (eq. 4.91 / 4.96)."""
        return self.likelihood_gradient(w) + self.pen * w

    def curvature(self, w: FloatArray) -> FloatArray:
        """R_nn = y_n (1 - y_n) (eq. 4.98)."""
        _, curvature = self._residuals_and_curvature(w)
        return curvature

    def signed_activations(self, w: FloatArray) -> FloatArray:
        z, _ = self._margins(w)
        return z


class _MulticlassProblem:
    """Multi-class cross-entropy (eq. 4.108) over W (K, M), with an optional ridge on the non-bias weights.

    ``design`` is a ``_Design``; activations and posteriors are class-major (K, N) and kept
    for the last W. With two classes the likelihood depends on W only through d = w_2 - w_1,
    so it and its derivatives come from the two-class problem in d (penalty weight halved:
    |w_1|^2 + |w_2|^2 = |d|^2 / 2 when w_1 + w_2 = 0), which is cheaper.
    """

    def __init__(self, design: _Design, y_index: IndexArray, n_classes: int, penalty_weights: FloatArray) -> None:
        self.design, self.y, self.k, self.pen = design, y_index, n_classes, penalty_weights
        self.n = design.T.shape[1]
        self.targets = np.zeros((n_classes, self.n))  # t_nk, class-major
        self.targets[y_index, np.arange(self.n)] = 1.0
        self.pair: _BinaryProblem | None = None
        if n_classes == 2:
            self.pair = _BinaryProblem(design, (y_index == 1).astype(float), penalty_weights / 2, self.n)
        self._last: tuple[FloatArray, FloatArray, FloatArray, float] | None = None

    def _state(self, W: FloatArray) -> tuple[FloatArray, FloatArray, float]:
        """(a_nk, y_nk) at W, both class-major (K, N), and sum_n ln y_n,t_n."""
        if self._last is None or not np.array_equal(self._last[0], W):
            A = W @ self.design.T
            shift = A.max(axis=0)  # log-sum-exp: exp never overflows
            proba = np.subtract(A, shift, out=np.empty_like(A))
            np.exp(proba, out=proba)
            total = proba.sum(axis=0)
            proba /= total
            # ln y_nk = a_nk - shift_n - ln total_n at the points' own classes (eq. 4.108)
            log_likelihood = float(np.sum(A[self.y, np.arange(self.n)] - shift) - np.sum(np.log(total)))
            self._last = (np.array(W, dtype=float), A, proba, log_likelihood)
        return self._last[1:]

    def log_likelihood(self, W: FloatArray) -> float:
        if self.pair is not None:
            return self.pair.log_likelihood(W[1] - W[0])
        return self._state(W)[2]

    def penalty(self, W: FloatArray) -> float:
        return 0.5 * float(np.sum(self.pen * W**2))

    def gradient(self, W: FloatArray) -> FloatArray:
        """grad_{w_j} E = sum_n (y_nj - t_nj) phi_n (eq. 4.109), shape (K, M)."""
        if self.pair is not None:
            g = self.pair.likelihood_gradient(W[1] - W[0])  # y_n2 - t_n2 = -(y_n1 - t_n1)
            return np.array([-g, g]) + self.pen * W
        _, proba, _ = self._state(W)
        residuals = proba - self.targets
        return np.array([self.design.T @ row for row in residuals]) + self.pen * W

    def mean_gradient(self, W: FloatArray) -> FloatArray:
        return self.gradient(W) / self.n

    def newton_step(self, W: FloatArray) -> FloatArray:
        """Solve the block Hessian system (eq. 4.110), K*M square.

        The Hessian is singular along the directions that add one vector to every w_k (the
        softmax does not change); the gradient has no component there. Adding s * P, with P the
        projector onto those directions, makes the system positive definite and yields exactly
        the minimum-norm Newton step, so the weights' sum over classes never changes.
        """
        if self.pair is not None and not np.any(self.pen * (W[0] + W[1])):
            # The system splits into the sum w_1 + w_2 (no gradient, so no step) and the
            # difference d, whose Newton step delta moves w_1 by +delta/2 and w_2 by -delta/2.
            delta = self.pair.newton_step(W[1] - W[0]) / 2
            return np.array([-delta, delta])
        _, proba, _ = self._state(W)
        k_classes, m = W.shape
        hessian = np.empty((k_classes * m, k_classes * m))
        for k in range(k_classes):  # K(K+1)/2 blocks, each vectorised over the points
            for j in range(k, k_classes):
                block = self.design.gram(proba[k] * ((k == j) - proba[j]))
                if k == j:
                    block += np.diag(self.pen)
                hessian[k * m : (k + 1) * m, j * m : (j + 1) * m] = block
                hessian[j * m : (j + 1) * m, k * m : (k + 1) * m] = block.T
        scale = np.trace(hessian) / hessian.shape[0]
        scale = scale if scale > 0 and np.isfinite(scale) else 1.0
        hessian += scale * np.kron(np.full((k_classes, k_classes), 1.0 / k_classes), np.eye(m))
        return _newton_solve(hessian, self.gradient(W).ravel()).reshape(W.shape)

    def separates(self, W: FloatArray) -> bool:
        if self.pair is not None:
            return self.pair.separates(W[1] - W[0])
        A, _, _ = self._state(W)
        own = A[self.y, np.arange(self.n)]
        below = np.count_nonzero(A < own, axis=0)  # every other class strictly below its own
        return bool(np.all(below == self.k - 1))


class _Prepared(NamedTuple):
    """The inputs of a run on standardised inputs (``_IterativeMixin._prepare``)."""

    design_T: FloatArray  # Phi^T (M, N), the points along the contiguous axis
    penalty_weights: FloatArray  # (M,), 0 for the bias
    options: RunOptions  # run's solver, max_iter, tol, learning_rate, l2
    centre: FloatArray  # (D,)
    scale: FloatArray  # (D,)


class _IterativeMixin:
    """What logistic and softmax regression share: the options, the weights and playback."""

    step_: int  # set on the copies at_step returns
    _check_fitted: Callable[[], None]  # the classifier's, which this is mixed into

    def __init__(
        self,
        solver: str = "irls",
        max_iter: int | None = None,
        tol: float = 1e-8,
        l2: float = 0.0,
        learning_rate: float = 0.1,
        w_init: ArrayLike | None = None,
    ) -> None:
        self.solver = solver
        self.max_iter = max_iter
        self.tol = tol
        self.l2 = l2
        self.learning_rate = learning_rate
        self.w_init = w_init

    def _store_fit(
        self,
        classes: LabelArray,
        dim: int,
        history: list[NewtonStep],
        n_iter: int,
        converged: bool,
        message: Message | str | None,
    ) -> None:
        """Fitted attributes common to both models; the weights are the last entry of the history."""
        self.classes_ = classes
        self.n_features_in_ = dim
        self.history_ = history
        self.n_iter_ = n_iter
        self.converged_ = converged
        self.fit_message_ = message
        self._set_weights(history[-1]["w"])

    def _prepare(self, X: FloatArray, method: str) -> _Prepared:
        """The options, the transposed design Phi^T, the penalty weights and the standardiser
        (centre, scale) that maps the internal weights to the book's (``_Prepared``)."""
        solver, max_iter, tol, l2, learning_rate = _check_options(self, method)
        if solver == "irls":
            centre, scale = _standardiser(X)
        else:
            centre, scale = np.zeros(X.shape[1]), np.ones(X.shape[1])
        # Phi^T (M, N): the points along the contiguous axis (see _Design).
        design_T = np.empty((X.shape[1] + 1, X.shape[0]))
        design_T[0] = 1.0  # the book's dummy input x0 = 1
        design_T[1:] = X.T
        design_T[1:] -= centre[:, None]
        design_T[1:] /= scale[:, None]
        penalty_weights = np.concatenate([[0.0], np.full(X.shape[1], l2) / scale**2])  # l2 on w1..wD only
        options: RunOptions = {
            "solver": solver,
            "max_iter": max_iter,
            "tol": tol,
            "learning_rate": learning_rate,
            "l2": l2,
        }
        return _Prepared(design_T, penalty_weights, options, centre, scale)

    def _set_weights(self, weights: ArrayLike) -> None:
        """Set ``weights_`` and, from it, ``coef_`` and ``intercept_``: views of ``weights_``
        where they can be (one weight vector, or K > 2 of them), so the two never disagree;
        for softmax with two classes the difference w_2 - w_1."""
        weights = np.array(weights, dtype=float)
        self.weights_ = weights
        if weights.ndim == 1:
            self.coef_ = weights[None, 1:]
            self.intercept_ = weights[:1]
        elif weights.shape[0] == 2:
            diff = weights[1] - weights[0]
            self.coef_ = diff[None, 1:]
            self.intercept_ = diff[:1]
        else:
            self.coef_ = weights[:, 1:]
            self.intercept_ = weights[:, 0]

    def at_step(self, step: int) -> Self:
        """A copy of the fitted model as it was after ``step`` updates, for replaying the fit.

        Step 0 is the initial weights, ``n_iter_`` the final fit; steps outside 0..n_iter_ are
        clipped. The copy's ``weights_``, ``coef_``, ``intercept_`` (and so ``decision_function``,
        ``predict_proba``) are those of ``history_[step]``; ``history_`` and ``n_iter_`` stay the
        whole run's, and ``step_`` records the step shown.
        """
        self._check_fitted()
        step = int(min(max(int(step), 0), len(self.history_) - 1))
        replay = copy.copy(self)
        replay._set_weights(self.history_[step]["w"])
        replay.step_ = step
        return replay


class _TwoClassIterative(TwoClassNewton, _IterativeMixin):
    """Logistic and probit regression: the shared two-class Newton fit (``newton.TwoClassNewton``)
    on standardised inputs, from ``w_init`` or zeros, with the options of ``_IterativeMixin``.
    ``_problem`` is the model's likelihood (``_BinaryProblem`` for the sigmoid)."""

    # The model's likelihood, made from (design, targets, penalty weights, N).
    _problem: Callable[[_Design, FloatArray, FloatArray, int], TwoClassProblem] = _BinaryProblem

    def _setup(self, X: FloatArray, targets: FloatArray) -> NewtonSetup:
        dim = X.shape[1]
        w_init = check_w_init(self.w_init, dim + 1, self._method)
        prepared = self._prepare(X, self._method)
        centre, scale = prepared.centre, prepared.scale
        problem = self._problem(_Design(prepared.design_T), targets, prepared.penalty_weights, X.shape[0])
        start = np.zeros(dim + 1) if w_init is None else _to_standardised(w_init, centre, scale)
        return NewtonSetup(problem, start, prepared.options, lambda w: _to_book(w, centre, scale), w_init)

    def _store(self, classes: LabelArray, X: FloatArray, setup: NewtonSetup, result: RunResult) -> None:
        history = result.history
        if setup.w_init is not None:
            history[0]["w"] = setup.w_init.copy()  # exactly as given, not through the standardiser and back
        self._store_fit(classes, X.shape[1], history, result.n_iter, result.converged, result.message)


class LogisticRegression(LineCriterion, _TwoClassIterative, LinearPosteriorMixin, ProbabilisticMixin, LinearClassifier):
    """Two-class logistic regression p(C|phi) = sigma(w^T phi), phi = (1, x) (eq. 4.87).

    The target is t = 1 for ``classes_[1]`` (the positive class) and t = 0 for ``classes_[0]``;
    the weights maximise the log-likelihood sum_n t_n ln y_n + (1 - t_n) ln(1 - y_n) (eq. 4.89-4.90),
    minus (l2 / 2) (w1^2 + ... + wD^2) if ``l2`` > 0 (the bias w0 is not penalised).

    Parameters
    ----------
    solver : {"irls", "gd"}
        "irls": Newton-Raphson, w_new = w_old - (Phi^T R Phi + l2 I')^-1 (Phi^T (y - t) + l2 I' w_old)
        (eq. 4.92-4.100), solved by least squares, never by an inverse. "gd": batch gradient
        descent w_new = w_old - learning_rate * (the gradient above) / N.
    max_iter : int or None
        Number of updates (Newton steps or gradient steps) at most; None means 100 for "irls"
        and 1000 for "gd".
    tol : float, default 1e-8
        Stop when an update changes no weight by more than tol * (1 + max |w|) or the error
        (minus the log-likelihood, plus the l2 term) by less than tol * (1 + |error|).
    l2 : float, default 0
        Weight of the quadratic penalty on w1..wD.
    learning_rate : float, default 0.1
        Step size of gradient descent on the mean gradient.
    w_init : array-like of shape (D + 1,) or None
        Initial weights [w0, w1, ..., wD] (bias first, as the perceptron's), in this
        convention: sigma(w^T phi) is p(``classes_[1]``|x). None means zeros. Both solvers
        start from it, and it is ``history_[0]["w"]``. (The book writes p(C1|phi) =
        sigma(w^T phi); with C1 = ``classes_[0]``, its start w is ``-w_init``.)

    Attributes
    ----------
    classes_ : ndarray (2,)
    weights_ : ndarray (D + 1,)
        [w0, w1, ..., wD].
    coef_ : ndarray (1, D)
    intercept_ : ndarray (1,)
    history_ : list of dict
        One entry per iterate, starting with the initial weights:
        {"iteration": 0, 1, ..., "w": ndarray (D + 1,), "log_likelihood": float}.
    n_iter_ : int
        Number of updates made (``len(history_) - 1``).
    converged_ : bool
        False if max_iter was reached or the data are separable (no finite maximum).
    fit_message_ : str
        Empty, or a sentence on separability, non-convergence or a too large learning rate.

    Criterion of a line (``criterion_at``): the cross-entropy E(w) = -sum_n t_n ln y_n +
    (1 - t_n) ln(1 - y_n), y_n = sigma(w^T phi_n) (eq. 4.90), plus (l2 / 2) (w1^2 + ... + wD^2)
    (the bias is not penalised, as in the fit); each point's share is -ln p(t_n | w). On
    separable data with l2 = 0 it has no minimum (it falls towards 0 as |w| grows).
    """

    display_name = N_("Logistic regression")
    book_section = "4.3.2"
    criterion_name = N_("cross-entropy")
    criterion_equation = "4.90"

    _method = N_("Logistic regression")
    _too_many_classes = N_(
        "Logistic regression separates two classes but the points have {n}; "
        "use softmax regression (multiclass logistic regression) or a one-versus-rest strategy."
    )

    def _check_criterion_params(self) -> None:
        _check_options(self, self._method)

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        return minus_log_sigmoid(data, A)

    def _penalty(self, W: FloatArray) -> FloatArray:
        return ridge(W, float(self.l2))

    def activations(self, X: ArrayLike) -> FloatArray:
        """(0, a(x)) with a = w^T phi(x), shape (N, 2): the softmax of these is (1 - sigma(a), sigma(a))."""
        a = self.decision_function(X)
        return np.column_stack([np.zeros_like(a), a])


class SoftmaxRegression(LineCriterion, _IterativeMixin, LinearPosteriorMixin, ProbabilisticMixin, LinearClassifier):
    """Multiclass logistic regression p(C_k|phi) = exp(a_k) / sum_j exp(a_j), a_k = w_k^T phi (eq. 4.104-4.105).

    Maximises sum_n sum_k t_nk ln y_nk (eq. 4.107-4.108) by Newton-Raphson with the K(D+1)-square
    block Hessian (eq. 4.110) or by batch gradient descent on the mean gradient (eq. 4.109).

    The weights are identified only up to a vector added to every w_k. Newton's method takes the
    minimum-norm step on the singular Hessian (see ``_MulticlassProblem.newton_step``), so from the
    default zero start the weights stay centred, sum_k w_k = 0; gradient steps keep that sum too.
    Probabilities, argmax and the differences w_j - w_k are unaffected by the choice. With two
    classes and l2 = 0 the fit gives the same probabilities as ``LogisticRegression`` (with l2 > 0
    the penalties differ: here each of w_1, w_2 is penalised).

    Parameters
    ----------
    solver, max_iter, tol, l2, learning_rate
        As for ``LogisticRegression``.
    w_init : array-like of shape (K, D + 1) or None
        Initial weights, one row [w_k0, w_k1, ..., w_kD] per class in sorted label order; None means zeros.

    Attributes
    ----------
    classes_ : ndarray (K,)
    weights_ : ndarray (K, D + 1)
        Row k is [w_k0, w_k1, ..., w_kD].
    coef_ : ndarray (1, D) for two classes (w_2 - w_1, so the decision value is the log-odds), else (K, D)
    intercept_ : ndarray (1,) or (K,)
    history_ : list of dict
        {"iteration": 0, 1, ..., "w": ndarray (K, D + 1), "log_likelihood": float}, the start included.
    n_iter_, converged_, fit_message_
        As for ``LogisticRegression``.

    Criterion of a line (``criterion_at``, two classes): eq. 4.108 with K = 2 as a function of the
    line w = w_2 - w_1 (``coef_``, ``intercept_``), i.e. the cross-entropy of eq. 4.90, plus the
    ridge at its least over the pairs with that difference: (l2 / 2) (|w_1|^2 + |w_2|^2) over
    w1..wD is smallest, (l2 / 4) |w|^2, at w_1 = -w_2 = -w/2, where the fit keeps its weights.
    """

    display_name = N_("Softmax regression (multiclass logistic)")
    book_section = "4.3.4"
    criterion_name = N_("cross-entropy")
    criterion_equation = "4.108"

    def _check_criterion_params(self) -> None:
        _check_options(self, N_("Softmax regression"))

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        return minus_log_sigmoid(data, A)  # eq. 4.108 with K = 2: ln y_n,t_n = ln sigma(+-(a_2 - a_1))

    def _penalty(self, W: FloatArray) -> FloatArray:
        return ridge(W, float(self.l2) / 2)  # (l2 / 4) |w|^2: see the class's notes

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        method = N_("Softmax regression")
        X, y_index, classes = check_X_y(X, y, method=method)
        n_classes, dim = classes.size, X.shape[1]
        start = np.zeros((n_classes, dim + 1))
        if self.w_init is not None:
            try:
                w_init = np.asarray(self.w_init, dtype=float)
            except (TypeError, ValueError):
                w_init = np.full(1, np.nan)
            if w_init.shape != start.shape or not np.all(np.isfinite(w_init)):
                raise InvalidDataError(
                    N_(
                        "Softmax regression: the initial weights must be {n_classes} rows of {n} finite numbers "
                        "[w_k0, w_k1, ...], one row per class; got shape {shape}."
                    ),
                    n_classes=n_classes,
                    n=dim + 1,
                    shape=w_init.shape,
                )
        prepared = self._prepare(X, method)
        centre, scale = prepared.centre, prepared.scale
        if self.w_init is not None:
            start = _to_standardised(w_init, centre, scale)
        problem = _MulticlassProblem(_Design(prepared.design_T), y_index, n_classes, prepared.penalty_weights)
        _, history, n_iter, converged, message = run(
            problem,
            start,
            to_book=lambda W: _to_book(W, centre, scale),
            describe=N_("Softmax regression"),
            **prepared.options,
        )
        if self.w_init is not None:
            history[0]["w"] = w_init.copy()
        self._store_fit(classes, dim, history, n_iter, converged, message)
        return self

    def activations(self, X: ArrayLike) -> FloatArray:
        """a_k = w_k^T phi(x) from ``weights_``, shape (N, K) (eq. 4.105)."""
        X = self._check_X(X)
        return X @ self.weights_[:, 1:].T + self.weights_[:, 0]


LOGISTIC_CARD = MethodCard(
    name="logistic",
    estimator=LogisticRegression,
    specs=(*iterative_solver_specs(), w_init_spec()),
    two_class_only=True,
    iterative=True,
    cost=NEWTON_COST,
)
SOFTMAX_CARD = MethodCard(
    name="softmax", estimator=SoftmaxRegression, specs=iterative_solver_specs(), iterative=True, cost=NEWTON_COST
)
