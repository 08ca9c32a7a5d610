"""Probabilistic generative models with Gaussian class-conditional densities (PRML 4.2.1-4.2.2).

Each class C_k has a prior p(C_k) = pi_k and a density p(x|C_k) = N(x|mu_k, Sigma_k); the
posterior is the softmax of the activations a_k(x) = ln p(x|C_k) + ln p(C_k) (eq. 4.62-4.63).
All parameters are the maximum-likelihood estimates of section 4.2.2 (eq. 4.73-4.80).

Singular covariances (collinear or duplicated points, too few points) never fail silently: a
ridge is added to the diagonal and ``fit_message_`` says how large it was.
"""

from collections.abc import Callable
from typing import Any, Self, cast

import numpy as np
from numpy.typing import ArrayLike

from .base import (
    Classifier,
    FloatArray,
    LinearClassifier,
    LinearPosteriorMixin,
    ProbabilisticMixin,
    cached_from,
    softmax_by_class,
)
from .card import MethodCard
from .criteria import DensityFit
from .errors import Classes, InvalidDataError, Message
from .i18n import N_
from .specs import priors_spec
from .validation import check_X_y, class_counts, require_points_per_class, standard_units, to_input_units

#: A covariance counts as singular when its smallest eigenvalue is below this fraction of its largest.
SINGULAR_RTOL = 1e-10
#: The automatic ridge added to a singular covariance, as a fraction of its average variance trace/D.
AUTO_RIDGE = 1e-6
#: Activations are kept within +-ACTIVATION_LIMIT so that nothing becomes infinite.
ACTIVATION_LIMIT = 1e300

_LOG_2PI = np.log(2.0 * np.pi)


def check_priors(priors: ArrayLike | None, n_classes: int, method: str) -> FloatArray | None:
    """``priors`` as K positive numbers normalised to sum to 1, or None (use N_k / N).

    Returns
    -------
    ndarray of shape (K,) or None
    """
    if priors is None:
        return None
    try:
        p = np.asarray(priors, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise InvalidDataError(
            N_("{method}: the priors must be numbers, one per class."), method=Message(method)
        ) from None
    if p.size != n_classes:
        raise InvalidDataError(
            N_("{method}: give one prior per class, {n} numbers in sorted label order; got {size}."),
            method=Message(method),
            n=n_classes,
            size=p.size,
        )
    if not np.all(np.isfinite(p)) or np.any(p <= 0):
        raise InvalidDataError(
            N_("{method}: every prior must be a positive number; got {value}."),
            method=Message(method),
            value=str(p.tolist()),
        )
    return p / p.sum()


def check_nonnegative(value: object, name: str, method: str) -> float:
    """A finite number >= 0 (e.g. the ridge ``reg``), as float."""
    try:
        value = float(value)  # type: ignore[arg-type]  # any value: what float() refuses is reported below
    except (TypeError, ValueError):
        raise InvalidDataError(N_("{method}: {name} must be a number."), method=Message(method), name=name) from None
    if not np.isfinite(value) or value < 0:
        raise InvalidDataError(
            N_("{method}: {name} must be a finite number of at least 0; got {value}."),
            method=Message(method),
            name=name,
            value=value,
        )
    return value


def data_scale(X: FloatArray) -> float:
    """A positive typical variance of the data, for ridges when a covariance is all zero."""
    total = float(np.mean(np.var(X, axis=0)))
    if total > 0 and np.isfinite(total):
        return total
    square = float(np.mean(X**2))
    return square if square > 0 and np.isfinite(square) else 1.0


def regularise(cov: FloatArray, reg: float, fallback_scale: float | np.floating[Any]) -> tuple[FloatArray, float, bool]:
    """Add ``reg`` to the diagonal and, if the result is still singular, a small automatic ridge.

    Parameters
    ----------
    cov : ndarray of shape (D, D)
        A maximum-likelihood covariance (symmetric, positive semi-definite).
    reg : float
        The ridge the user asked for.
    fallback_scale : float
        A positive variance used when ``cov`` is all zero.

    Returns
    -------
    cov : ndarray of shape (D, D)
        ``cov + ridge * I``, symmetric positive definite.
    ridge : float
        The total added to the diagonal (``reg`` plus any automatic part).
    automatic : bool
        Whether the automatic ridge ``AUTO_RIDGE * trace(cov) / D`` was needed.
    """
    dim = cov.shape[0]
    eye = np.eye(dim)
    cov = (cov + cov.T) / 2 + reg * eye
    eig = np.linalg.eigvalsh(cov)
    if eig[-1] > 0 and eig[0] > SINGULAR_RTOL * eig[-1]:
        return cov, reg, False
    scale = np.trace(cov) / dim
    if not (scale > 0 and np.isfinite(scale)):
        scale = fallback_scale
    extra = AUTO_RIDGE * scale
    return cov + extra * eye, reg + extra, True


def _cholesky(cov: FloatArray) -> FloatArray:
    """Cholesky factor of a (regularised) covariance; adds jitter in the rare case rounding defeats it."""
    jitter = 0.0
    scale = max(np.trace(cov) / cov.shape[0], np.finfo(float).tiny)
    for _ in range(10):
        try:
            # numpy's stubs type the factor floating[Any]; of a float64 matrix it is float64.
            return cast(FloatArray, np.linalg.cholesky(cov + jitter * np.eye(cov.shape[0])))
        except np.linalg.LinAlgError:
            jitter = scale * 1e-12 if jitter == 0 else jitter * 100
    raise InvalidDataError(N_("A covariance matrix could not be factorised even after adding a ridge."))


def two_class_or_all(A: FloatArray) -> FloatArray:
    """Decision values from class-major activations A (K, N): a_2 - a_1 for two classes (the
    log-odds), else all of them as (N, K)."""
    if A.shape[0] == 2:
        return A[1] - A[0]
    return np.ascontiguousarray(A.T)


def finite_activations(A: FloatArray) -> FloatArray:
    """A with NaN (from inf - inf) set to -ACTIVATION_LIMIT and everything clipped to
    +-ACTIVATION_LIMIT, in place: the softmax of such activations is never NaN."""
    nan = np.isnan(A)
    if nan.any():
        A[nan] = -ACTIVATION_LIMIT
    return np.clip(A, -ACTIVATION_LIMIT, ACTIVATION_LIMIT, out=A)


class ClassActivationsMixin:
    """activations, decision_function and posteriors of a generative model that provides
    ``_activations_by_class(X)`` -> a_k(x) = ln p(x|C_k) + ln p(C_k), class-major (K, N)."""

    # What the model it is mixed into provides (declared for the type checker).
    _activations_by_class: Callable[[FloatArray], FloatArray]
    _check_X: Callable[[ArrayLike], FloatArray]

    def activations(self, X: ArrayLike) -> FloatArray:
        """a_k(x) = ln p(x|C_k) + ln p(C_k) (eq. 4.63), shape (N, K)."""
        return np.ascontiguousarray(self._activations_by_class(self._check_X(X)).T)

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """The log-odds a_2 - a_1 (N,) for two classes (positive means ``classes_[1]``), else a_k (N, K)."""
        return two_class_or_all(self._activations_by_class(self._check_X(X)))

    def _posterior(self, X: FloatArray, log: bool) -> FloatArray:
        """p(C_k|x) or its log, shape (N, K) (eq. 4.62)."""
        return softmax_by_class(self._activations_by_class(X), log=log, overwrite=True)


class SharedCovarianceGaussian(DensityFit, LinearPosteriorMixin, ProbabilisticMixin, LinearClassifier):
    """Gaussian classes sharing one covariance matrix: a linear classifier (eq. 4.68-4.70).

    Maximum likelihood (section 4.2.2): pi_k = N_k / N (eq. 4.73), mu_k the class means
    (eq. 4.75-4.76) and Sigma = sum_k (N_k / N) S_k with S_k the biased class covariances
    (eq. 4.78-4.80). The quadratic terms cancel, leaving a_k(x) = w_k^T x + w_k0 with
    w_k = Sigma^-1 mu_k and w_k0 = -1/2 mu_k^T Sigma^-1 mu_k + ln p(C_k) (eq. 4.69-4.70),
    computed with linear solves (no inverse).

    Parameters
    ----------
    priors : array-like of shape (K,) or None
        Class priors p(C_k) in sorted label order (normalised); None uses N_k / N.
    reg : float, default 0
        A ridge added to the diagonal of Sigma. If Sigma (+ reg I) is still singular
        (collinear points, duplicates, too few points), ``AUTO_RIDGE`` (1e-6) times its
        average variance is added as well and ``fit_message_`` says so.

    Attributes
    ----------
    classes_ : ndarray (K,)
    priors_ : ndarray (K,)
    means_ : ndarray (K, D)
    covariance_ : ndarray (D, D)
        The maximum-likelihood Sigma (eq. 4.78), before any ridge (a subclass's
        ``_model_covariance`` of it).
    ridge_ : float
        What was added to the diagonal of Sigma before solving (``reg`` plus any automatic ridge).
    class_coef_ : ndarray (K, D)
        w_k = Sigma^-1 mu_k (eq. 4.69).
    class_intercept_ : ndarray (K,)
        w_k0 (eq. 4.70).
    coef_ : ndarray (1, D) or (K, D)
        Two classes: w_2 - w_1 = Sigma^-1 (mu_2 - mu_1), so the decision value is the log-odds
        ln p(C_2|x) / p(C_1|x) (eq. 4.65-4.67 with the classes' roles swapped: positive means
        ``classes_[1]``). K > 2: Sigma^-1 (mu_k - m) with m the mean of the training points,
        i.e. ``class_coef_`` less a vector common to every class.
    intercept_ : ndarray (1,) or (K,)
        The matching biases. ``decision_function``, ``predict_proba`` and ``predict`` are
        computed from ``coef_`` and ``intercept_`` alone (the softmax of the K discriminants,
        or the sigmoid of the log-odds): they are the same posteriors as the book's a_k give,
        and they keep their precision for points far from the origin.
    fit_message_ : str
        Empty, or a sentence about the ridge that had to be added.
    """

    display_name = N_("Gaussian classes, shared covariance")
    book_section = "4.2.1-4.2.2"

    def __init__(self, priors: ArrayLike | None = None, reg: float = 0.0) -> None:
        self.priors = priors
        self.reg = reg

    # The subject of the fit's error messages (a subclass that is its own method names itself).
    fit_subject = N_("The shared-covariance Gaussian classifier")

    def _model_covariance(self, covariance: FloatArray) -> FloatArray:
        """The Sigma the discriminants are computed from, given the pooled maximum-likelihood one
        (eq. 4.78-4.80) in the fit's standard units: that one itself. A subclass changes this one
        step (a shrunk covariance, ``playground.shrinkage``); it is what ``covariance_`` holds."""
        return covariance

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        method = self.fit_subject
        reg = check_nonnegative(self.reg, "reg", method)
        X, y_index, classes = check_X_y(X, y, method=method)
        n_classes, (n_points, dim) = classes.size, X.shape
        priors = check_priors(self.priors, n_classes, method)
        counts = class_counts(y_index, n_classes)
        # Estimate on Z = (X - c) / s (see standard_units) so that an offset of 1e8 or a unit
        # of 1e-9 costs no precision; every estimate is mapped back to the units of X.
        Z, centre, scale = standard_units(X)
        one_hot = np.eye(n_classes)[y_index]
        means = (one_hot.T @ Z) / counts[:, None]
        centred = Z - means[y_index]
        # sum_k (N_k / N) S_k = (1/N) sum_n (x_n - mu_k(n)) (x_n - mu_k(n))^T  (eq. 4.78-4.80)
        covariance = self._model_covariance(centred.T @ centred / n_points)
        sigma, ridge, automatic = regularise(covariance, reg / scale**2, data_scale(Z))

        self.priors_ = counts / n_points if priors is None else priors
        log_priors = np.log(self.priors_)
        self.classes_ = classes
        self.n_features_in_ = dim
        self.means_ = means * scale + centre
        self.covariance_ = (covariance + covariance.T) / 2 * scale**2
        self.ridge_ = float(ridge * scale**2)
        self.fit_message_ = ""
        if automatic:
            self.fit_message_ = Message(
                N_(
                    "The shared covariance matrix is singular (the points are collinear, repeated or too few), "
                    "so a ridge of {ridge:.3g} was added to its diagonal."
                ),
                ridge=self.ridge_,
            )

        # The book's w_k = Sigma^-1 mu_k and w_k0 (eq. 4.69-4.70), for reading.
        self.class_coef_ = np.linalg.solve(sigma, (self.means_ / scale).T).T / scale
        self.class_intercept_ = -0.5 * np.sum(self.means_ * self.class_coef_, axis=1) + log_priors
        # The discriminants the model computes with: the same activations less a part common
        # to every class (it cancels in the softmax), measured from the data mean, where they
        # keep their precision for points far from the origin.
        coef = np.linalg.solve(sigma, means.T).T
        intercept = -0.5 * np.sum(means * coef, axis=1) + log_priors
        coef, intercept = to_input_units(coef, intercept, centre, scale)
        if n_classes == 2:  # the log-odds a_2 - a_1 (eq. 4.65-4.67), positive for classes_[1]
            coef, intercept = coef[1:] - coef[:1], intercept[1:] - intercept[:1]
        self.coef_ = coef
        self.intercept_ = intercept
        return self

    def activations(self, X: ArrayLike) -> FloatArray:
        """The book's a_k(x) = w_k^T x + w_k0 (eq. 4.68) with ``class_coef_`` and
        ``class_intercept_``, shape (N, K). Far from the origin these are large numbers whose
        differences (all that the posteriors depend on) are better read from ``coef_``."""
        X = self._check_X(X)
        return np.clip(X @ self.class_coef_.T + self.class_intercept_, -ACTIVATION_LIMIT, ACTIVATION_LIMIT)


class SeparateCovarianceGaussian(DensityFit, ClassActivationsMixin, ProbabilisticMixin, Classifier):
    """Gaussian classes each with its own covariance: quadratic boundaries (section 4.2.1).

    Maximum likelihood per class: pi_k = N_k / N, mu_k the class mean and Sigma_k = S_k, the
    biased (1/N_k) class covariance (eq. 4.80). The activations keep the quadratic term:
    a_k(x) = ln N(x|mu_k, Sigma_k) + ln p(C_k)
           = -1/2 (x - mu_k)^T Sigma_k^-1 (x - mu_k) - 1/2 ln|Sigma_k| - D/2 ln 2 pi + ln p(C_k),
    evaluated as |L_k^-1 (x - mu_k)|^2 with Sigma_k = L_k L_k^T (Cholesky), L_k^-1 formed once in fit.

    Each class needs at least two points (one point has no spread at all): otherwise fit raises
    DegenerateFitError. A singular Sigma_k (two points in 2-D, collinear or repeated points) gets
    ``reg`` plus, if still singular, ``AUTO_RIDGE`` (1e-6) times its average variance on its
    diagonal, and ``fit_message_`` names the classes concerned.

    Parameters
    ----------
    priors : array-like of shape (K,) or None
        Class priors in sorted label order (normalised); None uses N_k / N.
    reg : float, default 0
        A ridge added to the diagonal of every Sigma_k.

    Attributes
    ----------
    classes_ : ndarray (K,)
    priors_ : ndarray (K,)
    means_ : ndarray (K, D)
    covariances_ : ndarray (K, D, D)
        The maximum-likelihood Sigma_k, before any ridge.
    ridges_ : ndarray (K,)
        What was added to each diagonal.
    fit_message_ : str
    """

    display_name = N_("Gaussian classes, separate covariances")
    book_section = "4.2.1-4.2.2"
    is_linear = False

    def __init__(self, priors: ArrayLike | None = None, reg: float = 0.0) -> None:
        self.priors = priors
        self.reg = reg

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        method = N_("The Gaussian classifier with one covariance per class")
        reg = check_nonnegative(self.reg, "reg", method)
        X, y_index, classes = check_X_y(X, y, method=method)
        n_classes, (n_points, dim) = classes.size, X.shape
        priors = check_priors(self.priors, n_classes, method)
        counts = require_points_per_class(y_index, classes, 2, method)
        one_hot = np.eye(n_classes)[y_index]
        means = (one_hot.T @ X) / counts[:, None]
        centred = X - means[y_index]
        pooled = np.mean(centred**2)
        fallback = pooled if pooled > 0 else data_scale(X)

        covariances = np.empty((n_classes, dim, dim))
        ridges = np.empty(n_classes)
        singular = []
        for k in range(n_classes):  # a loop over classes; each step is vectorised over points
            rows = centred[y_index == k]
            covariances[k] = rows.T @ rows / counts[k]
            _, ridges[k], automatic = regularise(covariances[k], reg, fallback)
            if automatic:
                singular.append(classes[k])

        self.classes_ = classes
        self.n_features_in_ = dim
        self.priors_ = counts / n_points if priors is None else priors
        self.means_ = means
        self.covariances_ = (covariances + covariances.transpose(0, 2, 1)) / 2
        self.ridges_ = ridges
        self.fit_message_ = ""
        if singular:
            if len(singular) == 1:
                template = N_(
                    "The covariance of {classes} is singular (collinear, repeated or too few points), so a small "
                    "ridge ({ridge:g} of its average variance) was added to its diagonal."
                )
            else:
                template = N_(
                    "The covariances of {classes} are singular (collinear, repeated or too few points), so a small "
                    "ridge ({ridge:g} of each average variance) was added to their diagonals."
                )
            self.fit_message_ = Message(template, classes=Classes(*singular), ridge=AUTO_RIDGE)
        self._whitening()  # factorised once here; again only if the attributes are changed
        return self

    def _whitening(self) -> tuple[FloatArray, FloatArray]:
        """(L_k^-1 (K, D, D), constants (K,)) from the public ``covariances_``, ``ridges_`` and
        ``priors_``, with Sigma_k + ridge_k I = L_k L_k^T (Cholesky), so that
        a_k(x) = constant_k - |L_k^-1 (x - mu_k)|^2 / 2: the Mahalanobis distance with one
        product (a triangular inverse, well conditioned since Sigma_k is regularised)."""

        def compute() -> tuple[FloatArray, FloatArray]:
            dim = self.covariances_.shape[1]
            eye = np.eye(dim)
            factors = np.array([_cholesky(c + r * eye) for c, r in zip(self.covariances_, self.ridges_)])
            log_dets = 2 * np.sum(np.log(np.diagonal(factors, axis1=1, axis2=2)), axis=1)
            whitening = np.array([np.linalg.solve(factor, eye) for factor in factors])
            constants = -0.5 * (log_dets + dim * _LOG_2PI) + np.log(self.priors_)
            return whitening, constants

        return cached_from(self, "whitening", (self.covariances_, self.ridges_, self.priors_), compute)

    def _activations_by_class(self, X: FloatArray) -> FloatArray:
        """a_k(x) = ln p(x|C_k) + ln p(C_k) (eq. 4.63 with eq. 4.64) at checked inputs X,
        class-major: shape (K, N)."""
        whitening, constants = self._whitening()
        # Far from a class with a tiny covariance the distance overflows to inf: the
        # activation is then clipped (finite_activations), on purpose and without a warning.
        with np.errstate(over="ignore", invalid="ignore"):
            XT = X.T.copy()  # (D, N): the points along the contiguous axis
            centred, z = np.empty_like(XT), np.empty_like(XT)
            out = np.empty((self.classes_.size, X.shape[0]))
            for k in range(self.classes_.size):  # a loop over classes; each step is vectorised over points
                np.subtract(XT, self.means_[k][:, None], out=centred)
                np.matmul(whitening[k], centred, out=z)  # L_k^-1 (x - mu_k)
                np.square(z, out=z)
                np.sum(z, axis=0, out=out[k])  # the Mahalanobis distance
                out[k] *= -0.5
                out[k] += constants[k]
        return finite_activations(out)


SHARED_CARD = MethodCard(name="gaussian_shared", estimator=SharedCovarianceGaussian, specs=(priors_spec(),))
SEPARATE_CARD = MethodCard(name="gaussian_separate", estimator=SeparateCovarianceGaussian, specs=(priors_spec(),))
