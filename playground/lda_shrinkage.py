"""Fisher's discriminant / linear discriminant analysis with a shrunk covariance (sections 4.1.4, 4.2.2).

The shared-covariance Gaussian classifier (``playground.gaussian``) estimates one covariance
Sigma from the points and solves w = Sigma^-1 (mu_2 - mu_1) (eq. 4.66), the same direction as
Fisher's w ∝ S_W^-1 (m_2 - m_1) (eq. 4.30). With few points for the dimension (a basis of many
features, a handful of clicks) that estimate is poor or singular and w follows the noise in it.
Shrinkage pulls it towards a multiple of the identity with the same total variance:

    Sigma_lambda = (1 - lambda) Sigma + lambda (tr Sigma / D) I,   0 <= lambda <= 1,

so lambda = 0 is the maximum-likelihood model and lambda = 1 projects onto the line joining the
means (the left plot of figure 4.6, w ∝ m_2 - m_1): the slider walks between the two directions
the figure compares. It is scikit-learn's ``LinearDiscriminantAnalysis(solver="lsqr",
shrinkage=lambda)`` with its default priors N_k / N.

Rules that hold: everything but the covariance is the shared-covariance model's fit (this class
changes its ``_model_covariance`` step alone); ``covariance_`` is Sigma_lambda and
``empirical_covariance_`` the Sigma it was shrunk from; lambda is validated before any fit.
"""

from typing import Self

import numpy as np
from numpy.typing import ArrayLike

from .base import FloatArray
from .card import MethodCard
from .errors import InvalidDataError, Message
from .gaussian import SharedCovarianceGaussian
from .i18n import N_
from .specs import Spec, priors_spec


class ShrinkageGaussian(SharedCovarianceGaussian):
    """Gaussian classes sharing one shrunk covariance Sigma_lambda: Fisher/LDA with shrinkage.

    Parameters
    ----------
    shrinkage : float in [0, 1], default 0.1
        lambda, the weight of (tr Sigma / D) I in Sigma_lambda.
    priors, reg
        As ``SharedCovarianceGaussian``.

    Attributes
    ----------
    covariance_ : ndarray (D, D)
        Sigma_lambda = (1 - lambda) Sigma + lambda (tr Sigma / D) I.
    empirical_covariance_ : ndarray (D, D)
        The maximum-likelihood Sigma = sum_k (N_k / N) S_k (eq. 4.78-4.80).
    shrinkage_ : float
        The lambda the fit used.
    Every other attribute is the shared-covariance model's.
    """

    display_name = N_("Fisher/LDA with shrinkage")
    book_section = "4.2.2"
    fit_subject = N_("Fisher/LDA with shrinkage")

    def __init__(self, shrinkage: float = 0.1, priors: ArrayLike | None = None, reg: float = 0.0) -> None:
        super().__init__(priors=priors, reg=reg)
        self.shrinkage = shrinkage

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        self.shrinkage_ = _check_shrinkage(self.shrinkage, self.fit_subject)
        super().fit(X, y)
        # Shrinking keeps the trace, so the ratio of the traces is the fit's unit squared (a power
        # of two: exact); a zero trace is a zero Sigma in any unit.
        pooled = self._pooled_in_fit_units
        trace = float(np.trace(pooled))
        unit_squared = float(np.trace(self.covariance_)) / trace if trace > 0 else 0.0
        self.empirical_covariance_ = (pooled + pooled.T) / 2 * unit_squared
        return self

    def _model_covariance(self, covariance: FloatArray) -> FloatArray:
        """Sigma_lambda from Sigma (in the fit's standard units: one scalar unit, so the same
        formula in the input units)."""
        lam, dim = self.shrinkage_, covariance.shape[0]
        self._pooled_in_fit_units = covariance
        return (1.0 - lam) * covariance + lam * (np.trace(covariance) / dim) * np.eye(dim)


def _check_shrinkage(value: object, method: str) -> float:
    """lambda as a float in [0, 1], or an InvalidDataError saying what it must be."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating | np.integer):
        raise InvalidDataError(N_("{method}: the shrinkage λ must be a number."), method=Message(method))
    lam = float(value)
    if not (0.0 <= lam <= 1.0):  # also refuses nan
        raise InvalidDataError(
            N_("{method}: the shrinkage λ must be between 0 and 1; got {value}."), method=Message(method), value=lam
        )
    return lam


CARD = MethodCard(
    name="lda_shrinkage",
    estimator=ShrinkageGaussian,
    specs=(Spec("shrinkage", "float", 0.1, low=0.0, high=1.0), priors_spec()),
)
