"""Probit regression: p(C|phi) = Phi(w^T phi) with Phi the standard normal CDF (PRML 4.3.5).

The activation a = w^T phi is thresholded at a noisy theta ~ N(0, 1) (eq. 4.112-4.113), which
gives the inverse-probit activation function Phi(a) (eq. 4.114) in place of the logistic
sigmoid. The weights maximise the likelihood sum_n t_n ln Phi(a_n) + (1 - t_n) ln Phi(-a_n)
by Newton-Raphson exactly as logistic regression does (same options, same standardised
internal coordinates, same damping and messages): only the weights R_nn of the Hessian and
the residuals change, computed from phi/Phi without underflow (``playground.normal``).

The probit's tails fall off like exp(-a^2/2), the sigmoid's like exp(-|a|): one point on the
wrong side pulls the probit fit harder (the book's remark on outliers, section 4.3.5).
"""

import numpy as np

from .base import LinearClassifier, ProbabilisticMixin
from .card import NEWTON_COST, MethodCard
from .criteria import LineCriterion, LineData, ridge
from .i18n import N_
from .logistic import _check_options, _TwoClassIterative
from .newton import TwoClassProblem, _Design
from .normal import NormalCDF, log_normal_cdf, normal_cdf_pair
from .specs import iterative_solver_specs
from .validation import FloatArray

PROBIT_STEEPENS = N_("the probit function Φ(a) sharpens into a step (section 4.3.5)")


class _AtZero:
    """``NormalCDF`` of N zeros, for the fit's start w = 0 (every activation 0): ln Phi(0) and
    phi/Phi at 0 from one evaluation at a single zero, repeated; the same numbers as the
    evaluation at N zeros (either sign), without its N-point work."""

    _one = NormalCDF(np.zeros(1))
    _log_cdf = _one.log_cdf()[0]
    _ratio, _curvature = (value[0] for value in _one.pdf_over_cdf())

    def __init__(self, n: int) -> None:
        self.n = n

    def log_cdf(self) -> FloatArray:
        return np.full(self.n, self._log_cdf)

    def pdf_over_cdf(self) -> tuple[FloatArray, FloatArray]:
        return np.full(self.n, self._ratio), np.full(self.n, self._curvature)


class _ProbitProblem(TwoClassProblem):
    """The probit cross-entropy E(w) = -sum_n ln Phi(z_n), with signed activations
    z_n = s_n w^T phi_n, s_n = 2 t_n - 1 (Phi(-a) = 1 - Phi(a)), and an optional ridge on w1..wD.

    With lambda(z) = phi(z) / Phi(z), the gradient is -sum_n s_n lambda(z_n) phi_n and the
    Hessian sum_n lambda(z_n) (lambda(z_n) + z_n) phi_n phi_n^T, positive definite whenever
    Phi has full rank (ln Phi is concave): the weighted least-squares of IRLS with weights
    R_nn = lambda (lambda + z) in (0, 1) instead of y_n (1 - y_n). The quantities of the last
    w are kept: the loop asks for the likelihood, the step and the separability at one w.
    """

    def __init__(self, design: _Design, targets: FloatArray, penalty_weights: FloatArray, n_points: int) -> None:
        self.design, self.pen, self.n = design, penalty_weights, n_points
        self.sign = 2.0 * targets - 1.0

    def _state(self, w: FloatArray) -> tuple[FloatArray, NormalCDF | _AtZero]:
        """(z, NormalCDF(z)) at w: ln Phi and phi/Phi at one w share one evaluation of Phi; a new
        w empties the cache of derived quantities."""
        cache = self._cache_for(w)
        if "state" not in cache:
            z = np.asarray(w, dtype=float) @ self.design.T
            z *= self.sign
            cache["state"] = (z, NormalCDF(z) if z.any() else _AtZero(z.size))
        return cache["state"]

    def _derivatives(self, w: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(lambda(z), lambda(z) (lambda(z) + z)) at w, computed once per w."""
        _, normal = self._state(w)
        if "derivatives" not in self._cache:
            self._cache["derivatives"] = normal.pdf_over_cdf()
        return self._cache["derivatives"]

    def log_likelihood(self, w: FloatArray) -> float:
        """sum_n ln Phi(z_n) = sum_n t_n ln Phi(a_n) + (1 - t_n) ln Phi(-a_n)."""
        _, normal = self._state(w)
        if "ll" not in self._cache:
            self._cache["ll"] = float(np.add.reduce(normal.log_cdf()))
        return self._cache["ll"]

    def gradient(self, w: FloatArray) -> FloatArray:
        """dE/dw = -Phi^T (s lambda(z)), plus the ridge."""
        ratio, _ = self._derivatives(w)
        return -(self.design.T @ (self.sign * ratio)) + self.pen * w

    def curvature(self, w: FloatArray) -> FloatArray:
        """R_nn = lambda(z_n) (lambda(z_n) + z_n)."""
        _, curvature = self._derivatives(w)
        return curvature

    def signed_activations(self, w: FloatArray) -> FloatArray:
        z, _ = self._state(w)
        return z


class ProbitRegression(LineCriterion, _TwoClassIterative, ProbabilisticMixin, LinearClassifier):
    """Two-class probit regression p(C|phi) = Phi(w^T phi), phi = (1, x) (eq. 4.114).

    The target is t = 1 for ``classes_[1]`` (the positive class) and t = 0 for ``classes_[0]``;
    the weights maximise sum_n t_n ln Phi(a_n) + (1 - t_n) ln Phi(-a_n), a_n = w^T phi_n
    (the cross-entropy of eq. 4.90 with y_n = Phi(a_n)), minus (l2 / 2) (w1^2 + ... + wD^2) if
    ``l2`` > 0. On separable data the maximum is at infinity, as for logistic regression:
    the fit stops and ``fit_message_`` says so.

    Parameters
    ----------
    solver : {"irls", "gd"}
        "irls": Newton-Raphson, w_new = w_old - H^-1 grad E with H = Phi^T R Phi (+ l2 I'),
        R_nn = lambda_n (lambda_n + z_n), lambda = phi/Phi (section 4.3.5: "IRLS"); solved by
        least squares. "gd": batch gradient descent on the mean gradient.
    max_iter, tol, l2, learning_rate, w_init
        As for ``LogisticRegression``.

    Attributes
    ----------
    classes_ : ndarray (2,)
    weights_ : ndarray (D + 1,)
        [w0, w1, ..., wD].
    coef_ : ndarray (1, D)
    intercept_ : ndarray (1,)
    history_ : list of dict
        {"iteration": 0, 1, ..., "w": ndarray (D + 1,), "log_likelihood": float}, the start included.
    n_iter_ : int
    converged_ : bool
        False if max_iter was reached or the data are separable.
    fit_message_ : str
        Empty, or a sentence on separability, non-convergence or a too large learning rate.

    Criterion of a line (``criterion_at``): the negative log-likelihood
    E(w) = -sum_n ln Phi(t_n a_n) (t = +-1; eq. 4.90 with y_n = Phi(a_n), section 4.3.5) plus
    (l2 / 2) (w1^2 + ... + wD^2); ln Phi from ``playground.normal``, without underflow.
    """

    display_name = N_("Probit regression")
    book_section = "4.3.5"
    section = "4.3.5"
    criterion_name = N_("negative log-likelihood")
    criterion_equation = "4.90"

    _method = N_("Probit regression")
    _too_many_classes = N_(
        "Probit regression separates two classes but the points have {n}; "
        "use a one-versus-rest or one-versus-one strategy."
    )
    _steepens = PROBIT_STEEPENS
    _problem = _ProbitProblem

    def _check_criterion_params(self) -> None:
        _check_options(self, self._method)

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        """-ln Phi(t_n a_n) (Phi(-a) = 1 - Phi(a))."""
        A *= data.t
        terms = log_normal_cdf(A)
        return np.negative(terms, out=terms)

    def _penalty(self, W: FloatArray) -> FloatArray:
        return ridge(W, float(self.l2))

    def _posterior(self, X: FloatArray, log: bool) -> FloatArray:
        """(Phi(-a), Phi(a)) for a = w^T phi(x) from ``coef_`` and ``intercept_``, or their logs,
        shape (N, 2) (eq. 4.114)."""
        return normal_cdf_pair(X @ self.coef_[0] + self.intercept_[0], log=log)


CARD = MethodCard(
    name="probit",
    estimator=ProbitRegression,
    specs=iterative_solver_specs(),
    two_class_only=True,
    iterative=True,
    cost=NEWTON_COST,
)
