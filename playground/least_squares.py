"""Least squares for classification (PRML 4.1.3): 1-of-K targets, one linear solve."""

from typing import Self

import numpy as np
from numpy.typing import ArrayLike

from .base import LinearClassifier
from .card import MethodCard
from .criteria import LineCriterion, LineData
from .errors import InvalidDataError
from .i18n import N_
from .specs import Spec
from .validation import FloatArray, add_bias, check_X_y, standard_units, to_input_units


class LeastSquaresClassifier(LineCriterion, LinearClassifier):
    """Fit y(x) = W~^T x~ to 1-of-K targets by minimising the sum of squares (eq. 4.15).

    W~ = X~^+ T (eq. 4.16), computed with ``numpy.linalg.lstsq`` (SVD) on centred and scaled
    inputs, so a rank-deficient design (duplicate or collinear points) gives the minimum-norm
    solution (in w; the biases are free) instead of failing, and neither a large offset nor
    the unit of the coordinates changes the answer. A point is assigned to the class whose
    output y_k(x) is largest (eq. 4.9).

    Parameters
    ----------
    targets : {"one_of_k", "fisher"}
        "one_of_k": t_n is the 1-of-K vector of its class (eq. 4.15). "fisher" (two classes
        only): t = N/N1 for the first class and -N/N2 for the second (section 4.1.5), which
        makes w parallel to Fisher's direction.

    Attributes
    ----------
    classes_ : ndarray (K,)
    weights_ : ndarray (D + 1, K)
        W~ with the biases in row 0; one column per class for "one_of_k", a single column
        for "fisher".
    coef_ : ndarray (1, D) or (K, D)
    intercept_ : ndarray (1,) or (K,)
        For two classes with "one_of_k", coef_ = w_2 - w_1 so that the decision value is
        positive for ``classes_[1]``.
    outputs_ : callable
        See ``class_outputs``: the raw y_k(x), which are not probabilities.

    Criterion (``criterion``, two classes): E(w) = 1/2 sum_n (w0 + w^T x_n - t_n)^2, the sum of
    squares of eq. 4.15 for one output. With "one_of_k" targets t_n = +1 for ``classes_[1]`` and -1
    for ``classes_[0]``: the fit's two columns w_1, w_2 solve separate problems whose targets sum to
    1, so w_1 + w_2 = (1, 0, ..., 0) and the line w = w_2 - w_1 minimises this +-1 form (eq. 4.15 at
    the pair w_{1,2} = ((1, 0, ...) -/+ w) / 2 is half of it). With "fisher" targets t_n = N/N2 and
    -N/N1 (section 4.1.5), the fit's single column. Each point's share is its squared residual / 2.
    """

    display_name = N_("Least squares")
    book_section = "4.1.3"
    criterion_name = N_("sum of squares")
    criterion_equation = "4.15"
    criterion_scale = "quadratic"  # E(s u) is a quadratic in s: its least value has a closed form

    def __init__(self, targets: str = "one_of_k") -> None:
        self.targets = targets

    def _check_criterion_params(self) -> None:
        if self.targets not in ("one_of_k", "fisher"):
            raise InvalidDataError(
                N_("Least squares targets must be 'one_of_k' or 'fisher', not {value!r}."), value=self.targets
            )

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        """1/2 (a_n - t_n)^2 with the targets of the fit (see the class's notes)."""
        if self.targets == "fisher":
            counts = np.bincount(data.y_index, minlength=2)
            n = data.y_index.size
            targets = np.where(data.y_index == 1, n / counts[1], -n / counts[0])
        else:
            targets = data.t
        residuals = np.subtract(A, targets, out=A)
        residuals *= residuals
        residuals *= 0.5
        return residuals

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        self._check_criterion_params()
        X, y_index, classes = check_X_y(X, y, method=N_("Least squares"))
        n_classes = classes.size
        if self.targets == "fisher":
            if n_classes != 2:
                raise InvalidDataError(
                    N_("Fisher targets (t = N/N1, -N/N2) are defined for two classes; the points have {n}."),
                    n=n_classes,
                )
            counts = np.bincount(y_index, minlength=2)
            n = y_index.size
            # Section 4.1.5 labels the first class C1 (t = N/N1); our positive class is
            # classes_[1], so it gets +N/N2 and the decision sign matches the other methods.
            T = np.where(y_index == 1, n / counts[1], -n / counts[0])[:, None]
        else:
            T = np.eye(n_classes)[y_index]

        # Fit on centred, scaled inputs: least squares is unchanged by where the points sit and
        # by their unit, and the solve then keeps its precision for any accepted coordinates.
        # The design's bias column is orthogonal to the centred inputs, so a rank-deficient
        # design gives the minimum-norm w of the centred problem (as scikit-learn's
        # LinearRegression does): the answer does not depend on the origin either.
        Z, centre, scale = standard_units(X)
        weights_z, _, rank, _ = np.linalg.lstsq(add_bias(Z), T, rcond=None)
        coef, intercept = to_input_units(weights_z[1:].T, weights_z[0], centre, scale)
        self.weights_ = np.vstack([intercept, coef.T])
        self.rank_ = int(rank)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]

        if coef.shape[0] == 2:  # two classes: y_2 - y_1, positive for classes_[1]
            self.coef_, self.intercept_ = coef[1:] - coef[:1], intercept[1:] - intercept[:1]
        else:  # views of weights_: one set of weights
            self.coef_, self.intercept_ = self.weights_[1:].T, self.weights_[0]
        return self

    def class_outputs(self, X: ArrayLike) -> FloatArray:
        """The fitted y_k(x) = w_k^T x + w_k0 for each output, shape (N, K) (or (N, 1) for
        Fisher targets). Least squares does not keep them in [0, 1]: they are not probabilities."""
        X = self._check_X(X)
        return add_bias(X) @ self.weights_


CARD = MethodCard(
    name="least_squares",
    estimator=LeastSquaresClassifier,
    specs=(Spec("targets", "choice", "one_of_k", ("one_of_k", "fisher")),),
)
