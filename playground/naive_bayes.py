"""Naive Bayes (PRML 4.2.2-4.2.3): features independent given the class.

Two variants. "gaussian": each class has a diagonal covariance (the naive Bayes form of
section 4.2.2), so the boundaries are quadratic. "bernoulli": the inputs are first turned
into binary features x_i > threshold_i, and each class has independent Bernoulli features
(eq. 4.81); the activations are then linear in the binary features (eq. 4.82), which in the
input plane gives axis-aligned steps.
"""

from typing import Self

import numpy as np
from numpy.typing import ArrayLike

from .base import Classifier, ProbabilisticMixin
from .card import MethodCard
from .criteria import DensityFit
from .errors import InvalidDataError, Message
from .gaussian import ClassActivationsMixin, check_priors, data_scale, finite_activations
from .i18n import N_
from .scene import MAX_COORDINATE
from .specs import Spec, priors_spec
from .validation import FloatArray, check_X, check_X_y, class_counts

VARIANTS = ("gaussian", "bernoulli")
_LOG_2PI = np.log(2.0 * np.pi)


def _positive(value: object, name: str, method: str) -> float:
    try:
        value = float(value)  # type: ignore[arg-type]  # any value: what float() refuses is reported below
    except (TypeError, ValueError):
        raise InvalidDataError(N_("{method}: {name} must be a number."), method=Message(method), name=name) from None
    if not np.isfinite(value) or value <= 0:
        raise InvalidDataError(
            N_("{method}: {name} must be a positive number; got {value}."),
            method=Message(method),
            name=name,
            value=value,
        )
    return value


class NaiveBayes(DensityFit, ClassActivationsMixin, ProbabilisticMixin, Classifier):
    """Naive Bayes classifier with Gaussian or Bernoulli features.

    Parameters
    ----------
    variant : {"gaussian", "bernoulli"}
    priors : array-like of shape (K,) or None
        Class priors in sorted label order (normalised); None uses N_k / N.
    var_smoothing : float, default 1e-9
        Gaussian variant: ``var_smoothing`` times the largest feature variance of the data is
        added to every class variance (scikit-learn's GaussianNB rule), so a class with one
        point or a constant feature still has a positive variance. If every feature is
        constant, the mean square of the data (or 1) stands in for the largest variance.
    alpha : float, default 1.0
        Bernoulli variant: Laplace smoothing, mu_ki = (N_ki + alpha) / (N_k + 2 alpha), so no
        probability is exactly 0 or 1.
    thresholds : array-like of shape (D,) or None
        Bernoulli variant: binary feature i is 1 where x_i > thresholds[i]; None uses the
        per-feature mean of the training inputs.

    Attributes
    ----------
    classes_ : ndarray (K,)
    priors_ : ndarray (K,)
    means_ : ndarray (K, D)
        Gaussian: the class means.
    variances_ : ndarray (K, D)
        Gaussian: the biased (1/N_k) class variances plus ``epsilon_``.
    epsilon_ : float
        Gaussian: the amount added to every variance.
    thresholds_ : ndarray (D,)
        Bernoulli: the thresholds used.
    feature_prob_ : ndarray (K, D)
        Bernoulli: mu_ki = p(x_i = 1 | C_k) (eq. 4.81), smoothed.
    feature_coef_ : ndarray (K, D)
        Bernoulli: ln mu_ki - ln(1 - mu_ki), the weights of the binary features in a_k (eq. 4.82).
    feature_intercept_ : ndarray (K,)
        Bernoulli: sum_i ln(1 - mu_ki) + ln p(C_k), so a_k = feature_coef_[k] @ b + feature_intercept_[k].
    fit_message_ : str
    """

    display_name = N_("Naive Bayes")
    book_section = "4.2.3"
    is_linear = False

    def __init__(
        self,
        variant: str = "gaussian",
        priors: ArrayLike | None = None,
        var_smoothing: float = 1e-9,
        alpha: float = 1.0,
        thresholds: ArrayLike | None = None,
    ) -> None:
        self.variant = variant
        self.priors = priors
        self.var_smoothing = var_smoothing
        self.alpha = alpha
        self.thresholds = thresholds

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        method = N_("Naive Bayes")
        if self.variant not in VARIANTS:
            raise InvalidDataError(
                N_("Naive Bayes variant must be 'gaussian' or 'bernoulli', not {value!r}."), value=self.variant
            )
        X, y_index, classes = check_X_y(X, y, method=method)
        n_classes, (n_points, dim) = classes.size, X.shape
        priors = check_priors(self.priors, n_classes, method)
        counts = class_counts(y_index, n_classes)
        one_hot = np.eye(n_classes)[y_index]
        self.classes_ = classes
        self.n_features_in_ = dim
        self.priors_ = counts / n_points if priors is None else priors
        self.fit_message_ = ""

        if self.variant == "gaussian":
            smoothing = _positive(self.var_smoothing, "var_smoothing", method)
            means = (one_hot.T @ X) / counts[:, None]
            variances = (one_hot.T @ (X - means[y_index]) ** 2) / counts[:, None]
            largest = float(np.max(np.var(X, axis=0)))
            if not largest > 0:
                largest = data_scale(X)
                self.fit_message_ = Message(
                    N_(
                        "Every feature is constant, so the variances were smoothed relative to the size "
                        "of the coordinates instead."
                    )
                )
            self.epsilon_ = smoothing * largest
            self.means_ = means
            self.variances_ = variances + self.epsilon_
        else:
            alpha = _positive(self.alpha, "alpha", method)
            if self.thresholds is None:
                self.thresholds_ = X.mean(axis=0)
            else:
                thresholds = check_X(np.reshape(self.thresholds, (1, -1)), name=N_("thresholds"))
                if thresholds.shape[1] != dim:
                    raise InvalidDataError(
                        N_("Naive Bayes needs one threshold per input feature: {dim} numbers; got {n}."),
                        dim=dim,
                        n=thresholds.shape[1],
                    )
                self.thresholds_ = thresholds[0]
            binary = self.binarize(X)
            ones = one_hot.T @ binary  # N_ki, (K, D)
            self.feature_prob_ = (ones + alpha) / (counts[:, None] + 2 * alpha)
        return self

    # The Bernoulli model's parameters are feature_prob_ and priors_; its linear form (eq. 4.82)
    # is read from them, so editing them changes the model and nothing can disagree.
    @property
    def feature_coef_(self) -> FloatArray:
        """Bernoulli: ln mu_ki - ln(1 - mu_ki), the weights of the binary features in a_k (eq. 4.82)."""
        if "feature_prob_" not in self.__dict__:
            raise AttributeError("feature_coef_ exists for a fitted 'bernoulli' naive Bayes only.")
        return np.log(self.feature_prob_) - np.log1p(-self.feature_prob_)

    @property
    def feature_intercept_(self) -> FloatArray:
        """Bernoulli: sum_i ln(1 - mu_ki) + ln p(C_k)."""
        if "feature_prob_" not in self.__dict__:
            raise AttributeError("feature_intercept_ exists for a fitted 'bernoulli' naive Bayes only.")
        return np.sum(np.log1p(-self.feature_prob_), axis=1) + np.log(self.priors_)

    def binarize(self, X: ArrayLike) -> FloatArray:
        """The binary features b_i = 1 if x_i > thresholds_[i] else 0, shape (N, D) (Bernoulli variant)."""
        X = self._check_X(X)
        if self.variant != "bernoulli" or not hasattr(self, "thresholds_"):
            raise InvalidDataError(N_("Binary features exist only for the 'bernoulli' variant of naive Bayes."))
        return (X > self.thresholds_).astype(float)

    def _activations_by_class(self, X: FloatArray) -> FloatArray:
        """a_k(x) = ln p(x|C_k) + ln p(C_k) at checked inputs X, class-major: shape (K, N)
        (eq. 4.63; eq. 4.82 for Bernoulli features)."""
        if self.variant == "bernoulli" and hasattr(self, "thresholds_"):
            out = self.feature_coef_ @ (X > self.thresholds_).T.astype(float)
            out += self.feature_intercept_[:, None]  # both from feature_prob_ and priors_
        else:
            # sum_i ln N(x_i | mu_ki, var_ki) + ln p(C_k), with the diagonal covariance of naive Bayes
            # Far from a class with tiny variances the squares overflow to inf: the activation
            # is then clipped (finite_activations), on purpose and without a warning.
            with np.errstate(over="ignore", invalid="ignore"):
                norm = -0.5 * np.sum(np.log(self.variances_) + _LOG_2PI, axis=1) + np.log(self.priors_)
                XT = X.T.copy()  # (D, N): the points along the contiguous axis
                squares = np.empty_like(XT)
                out = np.empty((self.classes_.size, X.shape[0]))
                for k in range(self.classes_.size):  # a loop over classes, vectorised over points
                    np.subtract(XT, self.means_[k][:, None], out=squares)
                    np.square(squares, out=squares)
                    squares /= self.variances_[k][:, None]
                    np.sum(squares, axis=0, out=out[k])
                    out[k] *= -0.5
                    out[k] += norm[k]
        return finite_activations(out)


CARD = MethodCard(
    name="naive_bayes",
    estimator=NaiveBayes,
    specs=(
        Spec("variant", "choice", "gaussian", ("gaussian", "bernoulli")),
        priors_spec(),
        Spec(
            "thresholds",
            "vector",
            None,
            low=-MAX_COORDINATE,
            high=MAX_COORDINATE,
            size=2,
            when=(("variant", "bernoulli"),),
            omit_none=True,
            default_text=N_("the data mean"),
        ),
    ),
)
