"""Bayesian logistic regression by the Laplace approximation (PRML 4.4-4.5).

A Gaussian prior p(w) = N(w | 0, alpha^-1 I) over every weight, the bias w0 included (eq. 4.140
with m0 = 0, S0 = alpha^-1 I, phi_0 = 1). The posterior p(w|t) is not Gaussian; the Laplace
approximation replaces it by N(w | w_MAP, S_N) (eq. 4.144): w_MAP maximises
ln p(w|t) = -alpha/2 w^T w + sum_n t_n ln y_n + (1 - t_n) ln(1 - y_n) + const (eq. 4.142), found by
Newton's method, and S_N^-1 = alpha I + sum_n y_n (1 - y_n) phi_n phi_n^T is its negative
Hessian there (eq. 4.143).

Predictions integrate over that posterior (section 4.5.2): the activation a = w^T phi is then
Gaussian with mean mu_a = w_MAP^T phi and variance sigma_a^2 = phi^T S_N phi (eq. 4.149-4.150),
and p(C_1|phi) = integral sigma(a) N(a | mu_a, sigma_a^2) da ~ sigma(kappa(sigma_a^2) mu_a) with
kappa(s^2) = (1 + pi s^2 / 8)^-1/2 (eq. 4.153-4.155): the probit approximation of the sigmoid
(figure 4.9) makes the integral a closed form. Far from the data sigma_a^2 grows and the
predictive relaxes towards 1/2 where the MAP sigmoid stays over-confident.

Numerics: the weights live internally on inputs x_j / s_j with s_j^2 = mean(x_j^2) + alpha / N
(no centring, so the isotropic prior stays diagonal: alpha on w0 and alpha / s_j^2 on the scaled
w_j). This is the diagonal of (Phi^T Phi + alpha I) / N: every feature's row of the Hessian
then has a comparable scale, whether the feature is large (x^6 on a polynomial basis) or
vanishingly small (a Gaussian basis function far from every point, where the prior decides
the weight); Newton is unchanged by the rescaling. The Hessian is positive definite, so the
Newton steps are linear solves, and S_N comes from its eigendecomposition, whose eigenvalues
are at least the smallest prior term because the data term is positive semi-definite.
"""

import math
import numbers
from typing import TypedDict, cast

import numpy as np
from numpy.typing import ArrayLike

from .base import LinearClassifier, ProbabilisticMixin, cached_from, log_sigmoid, two_class_proba
from .card import NEWTON_COST, MethodCard
from .criteria import LineCriterion, LineData, minus_log_sigmoid
from .errors import InvalidDataError, Message
from .i18n import N_
from .logistic import _BinaryProblem
from .newton import (
    NewtonSetup,
    NewtonStep,
    Objective,
    RunOptions,
    RunResult,
    TwoClassNewton,
    _all_finite,
    _Design,
    _in_row_order,
    _newton_solve,
    _running_means,
)
from .specs import PRIOR_ALPHAS, Spec
from .validation import MAX_ITERATIONS, FloatArray, LabelArray, check_iterations, check_w_init, check_X

#: Prior precisions alpha accepted (beyond these the fit is all prior or all likelihood).
ALPHA_RANGE = (1e-8, 1e8)
#: Samples from N(w_MAP, S_N) at most per call (the ui draws a few dozen).
MAX_SAMPLES = 10_000
#: Points along a line through w_MAP at most (``posterior_along``).
MAX_LINE_POINTS = 10_001


#: lambda with sigma(a) ~ Phi(lambda a) (figure 4.9): lambda^2 = pi/8 matches the slopes at a = 0.
PROBIT_LAMBDA = math.sqrt(math.pi / 8.0)


class PosteriorLine(TypedDict):
    """The posterior along a line w_MAP + s v (``posterior_along``)."""

    direction: FloatArray  # (D + 1,), the unit v
    offsets: FloatArray  # (S,), the values of s
    weights: FloatArray  # (S, D + 1)
    std: float  # the Laplace approximation's standard deviation along the line
    log_posterior: FloatArray  # (S,), ln p(w|t) - ln p(w_MAP|t)
    log_laplace: FloatArray  # (S,), the approximation on the same scale


def moderation(variance: ArrayLike) -> FloatArray:
    """kappa(sigma^2) = (1 + pi sigma^2 / 8)^-1/2 (eq. 4.154), elementwise."""
    variance = np.asarray(variance, dtype=float)
    return 1.0 / np.sqrt(1.0 + PROBIT_LAMBDA**2 * variance)


class _PosteriorProblem(_BinaryProblem):
    """The negative log posterior: cross-entropy plus a prior term on every weight. Its Hessian
    Phi^T R Phi + diag(prior) is positive definite, so a Newton step is a linear solve (scaled
    by the Hessian's diagonal), not the least-squares step logistic regression needs for a
    singular Hessian."""

    def newton_step(self, w: FloatArray) -> FloatArray:
        hessian = self.hessian(w)
        gradient = self.gradient(w)
        diagonal = np.sqrt(hessian.diagonal())
        try:
            step = np.linalg.solve(hessian / (diagonal[:, None] * diagonal), gradient / diagonal) / diagonal
        except np.linalg.LinAlgError:
            step = _newton_solve(hessian, gradient)
        return step if _all_finite(step) else np.where(np.isfinite(step), step, 0.0)


def _log_prior(weights: ArrayLike, alpha: float) -> float | FloatArray:
    """ln N(w | 0, alpha^-1 I) of weight vectors (..., M): a float for one vector."""
    weights = np.asarray(weights, dtype=float)
    squares = np.add.reduce(weights * weights, axis=-1)  # np.sum(weights**2, axis=-1), without its wrapper
    value = 0.5 * weights.shape[-1] * math.log(alpha / (2 * math.pi)) - 0.5 * alpha * squares
    return float(value) if np.ndim(value) == 0 else value


def _feature_scales(X: FloatArray, alpha: float) -> FloatArray:
    """s_j = sqrt(mean(x_j^2) + alpha / N) per feature (D,), computed after scaling by the largest
    |x_j| (no overflow, no underflow). Column reductions from the transposed copy where numpy's
    own would go row after row (``newton._in_row_order``)."""
    n_points = X.shape[0]
    XT = X.T.copy()
    largest = np.abs(XT).max(axis=1)
    largest[largest == 0] = 1.0
    if _in_row_order(X):
        XT /= largest[:, None]
        XT *= XT
        mean_square = _running_means(XT)
    else:
        mean_square = np.mean((X / largest) ** 2, axis=0)
    root_mean_square = largest * np.sqrt(mean_square)
    return np.hypot(root_mean_square, math.sqrt(alpha / n_points))


def _polish(
    problem: Objective, theta: FloatArray, n_iter: int, history: list[NewtonStep], to_internal: FloatArray
) -> tuple[FloatArray, int]:
    """One more Newton step after convergence: the stopping rule leaves w within about tol of the
    mode, and the Laplace approximation is taken at the mode itself, so one step (quadratic
    convergence) brings w_MAP to rounding level. Taken only if the objective does not rise
    beyond rounding; it is a real step and goes into the history. Returns (theta, n_iter)."""
    polished = theta - problem.newton_step(theta)
    objective = problem.penalty(theta) - problem.log_likelihood(theta)
    if _all_finite(polished) and problem.penalty(polished) - problem.log_likelihood(polished) <= objective + 1e-12 * (
        1 + abs(objective)
    ):
        theta, n_iter = polished, n_iter + 1
        history.append({"iteration": n_iter, "w": theta / to_internal, "log_likelihood": problem.log_likelihood(theta)})
    return theta, n_iter


def _whole(value: object, low: int, high: int) -> bool:
    """True for an int (not a bool) from low to high."""
    return not isinstance(value, bool) and isinstance(value, numbers.Integral) and low <= int(value) <= high


def _line_offsets(offsets: ArrayLike | None, n_points: int, n_std: float, std: float) -> FloatArray:
    """The line's values of s, checked: ``offsets`` as given, or, for None, ``n_points`` values
    evenly over +-``n_std`` standard deviations ``std`` of the approximation along the line."""
    if offsets is None:
        if not _whole(n_points, 3, MAX_LINE_POINTS):
            raise InvalidDataError(
                N_("n_points must be a whole number from 3 to {limit:,}; got {value!r}."),
                limit=MAX_LINE_POINTS,
                value=n_points,
            )
        offsets = np.linspace(-n_std * std, n_std * std, int(n_points))
    line = np.asarray(offsets, dtype=float).reshape(-1)
    if line.size == 0 or line.size > MAX_LINE_POINTS or not np.all(np.isfinite(line)):
        raise InvalidDataError(N_("The offsets must be 1 to {limit:,} finite numbers."), limit=MAX_LINE_POINTS)
    return line


class BayesianLogisticRegression(LineCriterion, TwoClassNewton, ProbabilisticMixin, LinearClassifier):
    """Two-class logistic regression with a Gaussian prior over the weights and the Laplace
    approximation of the posterior (eq. 4.140-4.144); predictions average over the posterior
    (the moderated predictive distribution, eq. 4.155).

    The target is t = 1 for ``classes_[1]`` (the positive class), t = 0 for ``classes_[0]``.

    ``predict_proba`` is the predictive distribution p(C|phi, t) ~ sigma(kappa(sigma_a^2) mu_a);
    ``predict_proba_map`` is the plain sigma(w_MAP^T phi), for comparison. ``predict`` is the
    argmax of the predictive distribution, which for two classes is the MAP decision: kappa > 0
    does not change the sign of mu_a = w_MAP^T phi, so the decision boundary is the MAP
    boundary, a straight line w_MAP^T phi = 0 (section 4.5.2: "the decision boundary
    corresponding to p(C_1|phi) = 0.5 is given by mu_a = 0"); ``decision_function`` is mu_a.
    Only the probabilities away from the boundary change.

    Parameters
    ----------
    alpha : float, default 1.0
        Precision of the prior N(w | 0, alpha^-1 I) over (w0, w1, ..., wD), between 1e-8 and 1e8.
    max_iter : int, default 100
        Newton steps at most in the search for w_MAP.
    tol : float, default 1e-8
        Stop when a step changes no weight by more than tol * (1 + max |w|) or the negative log
        posterior by less than tol * (1 + its value).
    w_init : array-like of shape (D + 1,) or None
        Where Newton's method starts, [w0, w1, ..., wD]; None means zeros.

    Attributes
    ----------
    classes_ : ndarray (2,)
    weights_ : ndarray (D + 1,)
        w_MAP = [w0, w1, ..., wD] (eq. 4.142-4.143 maximised).
    coef_ : ndarray (1, D)
    intercept_ : ndarray (1,)
        w_MAP without and with only the bias.
    covariance_ : ndarray (D + 1, D + 1)
        S_N (eq. 4.143), over (w0, w1, ..., wD), bias first.
    precision_ : ndarray (D + 1, D + 1)
        S_N^-1 = alpha I + Phi^T R Phi at w_MAP, the negative Hessian of ln p(w|t) (the A of eq. 4.137).
    log_likelihood_ : float
        ln p(t | w_MAP).
    log_posterior_ : float
        ln p(t | w_MAP) + ln p(w_MAP), the log joint at the mode (ln f(z_0) of section 4.4).
    log_evidence_ : float
        The Laplace approximation of the log marginal likelihood ln p(t | alpha) (eq. 4.137):
        ln p(t|w_MAP) + ln p(w_MAP) + (M/2) ln 2 pi - (1/2) ln |S_N^-1|, M = D + 1.
    history_ : list of dict
        Newton's iterates: {"iteration": 0, 1, ..., "w": ndarray (D + 1,), "log_likelihood": float,
        "log_posterior": float}, the start included. The Laplace approximation exists only at
        the mode, so there is no playback (``at_step``) of intermediate posteriors.
    n_iter_ : int
    converged_ : bool
    fit_message_ : str
        Empty, or a sentence when Newton's method stopped at max_iter.

    Criterion of a line (``criterion_at``): the negative log posterior of eq. 4.142 without its
    constant, E(w) = (alpha / 2) |w|^2 - sum_n t_n ln y_n + (1 - t_n) ln(1 - y_n), the prior over
    every weight, the bias w0 included, as in the fit (so E = -``log_posterior`` - (M/2) ln(alpha/2 pi)).
    w_MAP is its minimum. Each point's share is -ln p(t_n | w); the prior term is the penalty.
    """

    display_name = N_("Bayesian logistic regression (Laplace)")
    book_section = "4.4–4.5"
    section = "4.4–4.5"
    criterion_name = N_("negative log posterior")
    criterion_equation = "4.142"

    def __init__(
        self, alpha: float = 1.0, max_iter: int = 100, tol: float = 1e-8, w_init: ArrayLike | None = None
    ) -> None:
        self.alpha = alpha
        self.max_iter = max_iter
        self.tol = tol
        self.w_init = w_init

    # -- fitting -------------------------------------------------------------------------------

    def _check_criterion_params(self) -> None:
        self._check_options(self._method)

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        return minus_log_sigmoid(data, A)

    def _penalty(self, W: FloatArray) -> FloatArray:
        """(alpha / 2) |w|^2 over (w0, w1, ..., wD): the prior of eq. 4.140 with m0 = 0, S0 = I / alpha."""
        penalty: FloatArray = np.einsum("md,md->m", W, W)
        penalty *= 0.5 * float(self.alpha)
        return penalty

    def _check_options(self, method: str) -> tuple[float, int, float]:
        low, high = ALPHA_RANGE
        if isinstance(self.alpha, bool) or not isinstance(self.alpha, numbers.Real):
            raise InvalidDataError(
                N_("{method}: the prior precision alpha must be a number; got {value!r}."),
                method=Message(method),
                value=self.alpha,
            )
        alpha = float(self.alpha)
        if not (math.isfinite(alpha) and low <= alpha <= high):
            raise InvalidDataError(
                N_("{method}: the prior precision alpha must be between {low:g} and {high:g}; got {value!r}."),
                method=Message(method),
                low=low,
                high=high,
                value=self.alpha,
            )
        max_iter = check_iterations(self.max_iter, Message(N_("{method}: max_iter"), method=Message(method)), minimum=0)
        try:
            tol = float(self.tol)
        except (TypeError, ValueError):
            raise InvalidDataError(N_("{method}: tol must be a number."), method=Message(method)) from None
        if not (math.isfinite(tol) and tol >= 0):
            raise InvalidDataError(
                N_("{method}: tol must be a finite number at least 0; got {value!r}."),
                method=Message(method),
                value=self.tol,
            )
        return alpha, min(max_iter, MAX_ITERATIONS), tol

    _method = N_("Bayesian logistic regression")
    _too_many_classes = N_(
        "Bayesian logistic regression separates two classes but the points have {n}; "
        "use a one-versus-rest or one-versus-one strategy."
    )

    def _setup(self, X: FloatArray, targets: FloatArray) -> NewtonSetup:
        """Newton's search for w_MAP (``newton.TwoClassNewton``) on phi_s = (1, x / s), with
        w = theta / (1, s) and s_j^2 = mean(x_j^2) + alpha / N (see the module notes)."""
        alpha, max_iter, tol = self._check_options(self._method)
        n_points, dim = X.shape
        w_init = check_w_init(self.w_init, dim + 1, self._method)
        to_internal = np.concatenate([[1.0], _feature_scales(X, alpha)])
        design_T = np.empty((dim + 1, n_points))
        design_T[0] = 1.0
        design_T[1:] = X.T / to_internal[1:, None]
        # alpha/2 |w|^2 = alpha/2 (theta_0^2 + sum_j theta_j^2 / s_j^2): still diagonal.
        penalty = alpha / to_internal**2
        problem = _PosteriorProblem(_Design(design_T), targets, penalty, n_points)
        start = np.zeros(dim + 1) if w_init is None else w_init * to_internal
        options: RunOptions = {
            "solver": "irls",
            "max_iter": max_iter,
            "tol": tol,
            "learning_rate": 1.0,  # unused by Newton's method
            "l2": alpha,  # > 0: a finite w_MAP exists even for separable classes
        }
        return NewtonSetup(problem, start, options, lambda th: th / to_internal, w_init, extra=(alpha, to_internal))

    def _store(self, classes: LabelArray, X: FloatArray, setup: NewtonSetup, result: RunResult) -> None:
        alpha, to_internal = cast(tuple[float, FloatArray], setup.extra)  # what _setup put there
        problem = setup.problem
        assert isinstance(problem, _PosteriorProblem)  # made by _setup
        theta, history, n_iter = result.theta, result.history, result.n_iter
        if result.converged:
            theta, n_iter = _polish(problem, theta, n_iter, history, to_internal)
        for entry in history:
            # one weight vector: _log_prior gives a float (float() of it is the same number)
            entry["log_posterior"] = entry["log_likelihood"] + float(_log_prior(entry["w"], alpha))
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        self._store_laplace(problem, theta, alpha, to_internal)
        self.history_ = history
        self.n_iter_ = n_iter
        self.converged_ = result.converged
        self.fit_message_ = result.message
        self._derived: dict[str, object] = {}  # factors of covariance_, made on first use (base.cached_from)

    def _store_laplace(
        self, problem: _PosteriorProblem, theta: FloatArray, alpha: float, to_internal: FloatArray
    ) -> None:
        """The Laplace approximation at the mode theta (eq. 4.143-4.144), from the internal Hessian
        H = Phi_s^T R Phi_s + diag(penalty) = T S_N^-1 T with T = diag(1, s); the evidence (eq. 4.137)."""
        hessian = problem.hessian(theta)
        eigenvalues, eigenvectors = np.linalg.eigh(hessian)
        # H - diag(penalty) is positive semi-definite, so no eigenvalue lies below min(penalty);
        # rounding must not push one there (or to 0).
        eigenvalues = np.maximum(eigenvalues, problem.pen.min())
        weights = theta / to_internal
        self.coef_ = weights[None, 1:].copy()
        self.intercept_ = weights[:1].copy()
        outer = to_internal[:, None] * to_internal
        self.covariance_ = (eigenvectors / eigenvalues) @ eigenvectors.T / outer
        self.precision_ = hessian * outer
        log_det_precision = float(np.sum(np.log(eigenvalues)) + 2.0 * np.sum(np.log(to_internal)))
        n_weights = weights.size
        self.log_likelihood_ = problem.log_likelihood(theta)
        self.log_posterior_ = self.log_likelihood_ + _log_prior(weights, alpha)
        self.log_evidence_ = self.log_posterior_ + 0.5 * n_weights * math.log(2 * math.pi) - 0.5 * log_det_precision

    @property
    def weights_(self) -> FloatArray:
        """w_MAP = [w0, w1, ..., wD], read from ``intercept_`` and ``coef_`` (not a copy of its own)."""
        self._check_fitted()
        return np.concatenate([np.asarray(self.intercept_, dtype=float).reshape(-1), np.asarray(self.coef_[0], float)])

    # -- the predictive distribution -----------------------------------------------------------

    def _laplace_factors(self) -> tuple[FloatArray, FloatArray]:
        """(d, C) derived from the public ``covariance_`` S_N: d = sqrt(diag S_N) and the
        correlation matrix C = S_N / d d^T.

        Predictions go through C and d rather than S_N itself: on a basis whose features differ
        by many orders of magnitude (x^6 next to 1), C's entries are all within [-1, 1]. Cached
        against ``covariance_``, so an edited S_N changes every answer (one source of truth)."""

        def compute() -> tuple[FloatArray, FloatArray]:
            covariance = np.asarray(self.covariance_, dtype=float)
            scale = np.sqrt(np.maximum(np.diag(covariance), np.finfo(float).tiny))
            return scale, covariance / np.outer(scale, scale)

        return cached_from(self, "laplace", (self.covariance_,), compute)

    def _covariance_root(self) -> FloatArray:
        """R (M, M) with R R^T = S_N, from the eigendecomposition of the correlation matrix (for
        the samples; cached against ``covariance_`` like ``_laplace_factors``)."""

        def compute() -> FloatArray:
            scale, correlation = self._laplace_factors()
            eigenvalues, eigenvectors = np.linalg.eigh(correlation)
            return scale[:, None] * (eigenvectors * np.sqrt(np.maximum(eigenvalues, 0.0)))

        return cached_from(self, "laplace_root", (self.covariance_,), compute)

    def _moments(self, X: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(mu_a, sigma_a^2) at checked inputs, each (N,) (eq. 4.149-4.150), from the public
        ``coef_``, ``intercept_`` and ``covariance_``.

        sigma_a^2 = phi^T S_N phi = |R^T phi|^2 with R R^T = S_N: a sum of squares, never negative
        and never the difference of large terms. R comes from the correlation matrix (see
        ``_laplace_factors``), so features of very different sizes stay in range. R^T Phi^T is
        formed as an (M, N) array and its rows summed one by one: numpy reduces the short axis of
        an (N, M) array several times slower (this is most of a 200 x 200 predictive grid).
        """
        mean = X @ self.coef_[0]
        mean += self.intercept_[0]
        root = self._covariance_root()
        rotated = root[1:].T @ X.T  # (M, N): R^T phi without the bias row
        rotated += root[0][:, None]  # phi_0 = 1
        rotated *= rotated
        variance = rotated[0].copy()
        for row in rotated[1:]:
            variance += row
        return mean, variance

    def predictive_moments(self, X: ArrayLike) -> tuple[FloatArray, FloatArray]:
        """The activation's mean mu_a = w_MAP^T phi and variance sigma_a^2 = phi^T S_N phi under the
        Laplace posterior (eq. 4.149-4.150).

        Returns
        -------
        mean, variance : ndarrays (N,)
        """
        X = self._check_X(X)
        return self._moments(X)

    def _moderation_factors(self) -> tuple[FloatArray, FloatArray, float]:
        """(B, e, c) with 1 + (pi/8) sigma_a^2 = c + |B x + e|^2, B (D, D), e (D,), c >= 1: the
        denominator of kappa (eq. 4.154) as a quadratic in x with one square fewer than
        |R^T phi|^2 (``_moments``). Cached against ``covariance_``, like the root R.

        With phi = (1, x), R^T phi = r_0 + R_x^T x (r_0 the bias row of R, R_x the others). An
        orthogonal Q with Q^T R_x^T = [T; 0] (the complete QR of R_x^T) leaves the norm
        unchanged: |R^T phi|^2 = |T x + (Q^T r_0)_{:D}|^2 + |(Q^T r_0)_{D:}|^2, the last a
        constant, so the grid's variances need D rows instead of D + 1. pi/8 and the 1 are
        folded into B, e and c.
        """

        def compute() -> tuple[FloatArray, FloatArray, float]:
            root = self._covariance_root()
            dim = root.shape[0] - 1
            q, r = np.linalg.qr(root[1:].T, mode="complete")
            offsets = q.T @ root[0]
            rest = offsets[dim:]
            return PROBIT_LAMBDA * r[:dim], PROBIT_LAMBDA * offsets[:dim], 1.0 + PROBIT_LAMBDA**2 * float(rest @ rest)

        return cached_from(self, "moderation", (self.covariance_,), compute)

    def _posterior(self, X: FloatArray, log: bool) -> FloatArray:
        """p(C|phi) ~ (sigma(-kappa mu_a), sigma(kappa mu_a)) (eq. 4.155), or their logs, (N, 2).

        kappa mu_a = mu_a / sqrt(1 + (pi/8) sigma_a^2) with the denominator from
        ``_moderation_factors``: D rows of (D, N) formed, squared and summed (as in ``_moments``),
        the square root taken and mu_a divided by it in place."""
        mean = X @ self.coef_[0]
        mean += self.intercept_[0]
        rows, offsets, constant = self._moderation_factors()
        rotated = rows @ X.T
        rotated += offsets[:, None]
        rotated *= rotated
        denominator = rotated[0] + constant
        for row in rotated[1:]:
            denominator += row
        np.sqrt(denominator, out=denominator)
        mean /= denominator
        return two_class_proba(mean, log=log)

    def predict_proba_map(self, X: ArrayLike) -> FloatArray:
        """The plain (unmoderated) posterior with the MAP weights, (sigma(-mu_a), sigma(mu_a)), shape (N, 2)."""
        X = self._check_X(X)
        mean, _ = self._moments(X)
        return two_class_proba(mean)

    # -- the posterior over the weights --------------------------------------------------------

    def _rng_samples(self, n_samples: int, random_state: int) -> FloatArray:
        if not _whole(n_samples, 1, MAX_SAMPLES):
            raise InvalidDataError(
                N_("The number of samples must be a whole number from 1 to {limit:,}; got {value!r}."),
                limit=MAX_SAMPLES,
                value=n_samples,
            )
        if not _whole(random_state, 0, 2**63 - 1):
            raise InvalidDataError(
                N_("random_state must be a whole number at least 0; got {value!r}."), value=random_state
            )
        rng = np.random.default_rng(int(random_state))
        return rng.standard_normal((int(n_samples), self.coef_.shape[1] + 1))

    def sample_weights(self, n_samples: int = 20, random_state: int = 0) -> FloatArray:
        """Weight vectors drawn from the Laplace posterior N(w_MAP, S_N), shape (n_samples, D + 1),
        each [w0, w1, ..., wD]. The same ``random_state`` gives the same draws."""
        self._check_fitted()
        normal = self._rng_samples(n_samples, random_state)
        return self.weights_ + normal @ self._covariance_root().T

    def sample_activations(self, X: ArrayLike, n_samples: int = 20, random_state: int = 0) -> FloatArray:
        """a = w^T phi(x) for the weights of ``sample_weights(n_samples, random_state)``, shape (N, n_samples):
        each column's zero level set is one boundary sampled from the posterior."""
        X = self._check_X(X)
        weights = self.sample_weights(n_samples, random_state)
        return X @ weights[:, 1:].T + weights[:, 0]

    def log_posterior(self, X: ArrayLike, y: ArrayLike, weights: ArrayLike) -> float | FloatArray:
        """ln p(t | w) + ln N(w | 0, alpha^-1 I) at each weight vector, the log joint whose maximum is w_MAP.

        Parameters
        ----------
        X, y : the training points (N, D) and labels (N,), labels among ``classes_``
        weights : array (D + 1,) or (S, D + 1) of [w0, w1, ..., wD]

        Returns
        -------
        float or ndarray (S,)
        """
        X, targets = self._training(X, y)
        W = np.asarray(weights, dtype=float)
        single = W.ndim == 1
        W = np.atleast_2d(W)
        if W.ndim != 2 or W.shape[1] != self.n_features_in_ + 1 or not np.all(np.isfinite(W)):
            raise InvalidDataError(
                N_("Weight vectors must be rows of {n} finite numbers [w0, w1, ...]."), n=self.n_features_in_ + 1
            )
        sign = 2.0 * targets - 1.0
        margins = (X @ W[:, 1:].T + W[:, 0]) * sign[:, None]  # (N, S)
        out = log_sigmoid(margins).sum(axis=0) + _log_prior(W, float(self.alpha))
        return float(out[0]) if single else out

    def _training(self, X: ArrayLike, y: ArrayLike) -> tuple[FloatArray, FloatArray]:
        self._check_fitted()
        X = check_X(X, n_features=self.n_features_in_)
        y = np.asarray(y).reshape(-1)
        if y.shape[0] != X.shape[0]:
            raise InvalidDataError(
                N_("There must be one label per point: {n_points} points but {n_labels} labels."),
                n_points=X.shape[0],
                n_labels=y.size,
            )
        known = np.isin(y, self.classes_)
        if not np.all(known):
            raise InvalidDataError(
                N_("Label {label!r} is not one of the fitted classes {classes}."),
                label=y[~known][0],
                classes=str(list(self.classes_)),
            )
        return X, (y == self.classes_[1]).astype(float)

    def posterior_along(
        self,
        X: ArrayLike,
        y: ArrayLike,
        direction: ArrayLike | None = None,
        offsets: ArrayLike | None = None,
        n_points: int = 201,
        n_std: float = 4.0,
    ) -> PosteriorLine:
        """The posterior against its Laplace approximation along a line w_MAP + s v (figure 4.14 in one dimension).

        Parameters
        ----------
        X, y : the training points and labels (the true posterior needs them)
        direction : array (D + 1,) or None
            v, in weight space [w0, w1, ...]; normalised here. None: the leading eigenvector of
            S_N (the direction in which the posterior is widest), its largest entry positive.
        offsets : array (S,) or None
            The values of s; None: ``n_points`` values evenly over +-``n_std`` standard deviations
            of the approximation along v.

        Returns
        -------
        dict with "direction" (D + 1,) the unit v; "offsets" (S,); "weights" (S, D + 1); "std",
        1 / sqrt(v^T S_N^-1 v), the approximation's standard deviation along the line;
        "log_posterior" (S,) ln p(w|t) - ln p(w_MAP|t) (0 at s = 0); "log_laplace" (S,)
        -s^2 v^T S_N^-1 v / 2, the Laplace approximation on the same scale. Both are logs of
        densities relative to their value at w_MAP, so exp() of them can be drawn together.
        """
        self._check_fitted()
        v = self._unit_direction(direction)
        curvature = float(v @ self.precision_ @ v)
        std = 1.0 / math.sqrt(curvature)
        offsets = _line_offsets(offsets, n_points, n_std, std)
        weights = self.weights_ + offsets[:, None] * v
        # weights has rows, so the first term is an array (S,) and the difference too.
        log_posterior = cast(FloatArray, self.log_posterior(X, y, weights) - self.log_posterior(X, y, self.weights_))
        return {
            "direction": v,
            "offsets": offsets,
            "weights": weights,
            "std": std,
            "log_posterior": log_posterior,
            "log_laplace": -0.5 * curvature * offsets**2,
        }

    def _unit_direction(self, direction: ArrayLike | None) -> FloatArray:
        """The line's v, of unit length: ``direction`` normalised, or, for None, the leading
        eigenvector of S_N (where the posterior is widest) with its largest entry positive."""
        if direction is None:
            _eigenvalues, eigenvectors = np.linalg.eigh(self.covariance_)
            v = eigenvectors[:, -1]
            return v if v[np.argmax(np.abs(v))] > 0 else -v
        v = np.asarray(direction, dtype=float).reshape(-1)
        norm = np.linalg.norm(v) if v.size == self.weights_.size and np.all(np.isfinite(v)) else 0.0
        if not norm > 0:
            raise InvalidDataError(
                N_("The direction must be {n} finite numbers, not all zero [w0, w1, ...]."), n=self.weights_.size
            )
        return v / norm

    def covariance_ellipse(self, i: int = 1, j: int = 2, n_std: float = 1.0, n_points: int = 100) -> FloatArray:
        """The n_std-standard-deviation ellipse of the Laplace posterior's marginal over weights i and j.

        Indices count the bias as 0 ([w0, w1, ..., wD]). Returns an (n_points, 2) array of
        (w_i, w_j) on the curve (w - m)^T S^-1 (w - m) = n_std^2, S the 2 x 2 block of S_N,
        m the matching entries of w_MAP; the first point is repeated last, closing it.
        """
        self._check_fitted()
        size = self.weights_.size
        for index in (i, j):
            if not _whole(index, 0, size - 1):
                raise InvalidDataError(
                    N_("Weight indices run from 0 (the bias) to {largest}; got {value!r}."),
                    largest=size - 1,
                    value=index,
                )
        if i == j:
            raise InvalidDataError(N_("Pick two different weights for the ellipse."))
        if not _whole(n_points, 3, MAX_LINE_POINTS):
            raise InvalidDataError(N_("n_points must be a whole number from 3 to {limit:,}."), limit=MAX_LINE_POINTS)
        block = self.covariance_[np.ix_([i, j], [i, j])]
        eigenvalues, eigenvectors = np.linalg.eigh(block)
        angles = np.linspace(0.0, 2 * math.pi, int(n_points))
        circle = np.stack([np.cos(angles), np.sin(angles)])
        radii = float(n_std) * np.sqrt(np.maximum(eigenvalues, 0.0))
        points = (eigenvectors * radii) @ circle
        points[:, -1] = points[:, 0]
        return points.T + self.weights_[[i, j]]


CARD = MethodCard(
    name="bayesian_logistic",
    estimator=BayesianLogisticRegression,
    specs=(Spec("alpha", "choice", 1.0, PRIOR_ALPHAS),),
    two_class_only=True,
    iterative=True,
    cost=NEWTON_COST,
)
