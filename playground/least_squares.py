"""Least squares for classification (PRML 4.1.3): 1-of-K targets, one linear solve."""

import numpy as np

from .base import LinearClassifier
from .errors import InvalidDataError
from .validation import add_bias, check_X_y


class LeastSquaresClassifier(LinearClassifier):
    """Fit y(x) = W~^T x~ to 1-of-K targets by minimising the sum of squares (eq. 4.15).

    W~ = X~^+ T (eq. 4.16), computed with ``numpy.linalg.lstsq`` (SVD), so a rank-deficient
    design (duplicate or collinear points) gives the minimum-norm solution instead of
    failing. A point is assigned to the class whose output y_k(x) is largest (eq. 4.9).

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
    """

    display_name = "Least squares"
    book_section = "4.1.3"

    def __init__(self, targets="one_of_k"):
        self.targets = targets

    def fit(self, X, y):
        if self.targets not in ("one_of_k", "fisher"):
            raise InvalidDataError(f"Least squares targets must be 'one_of_k' or 'fisher', not {self.targets!r}.")
        X, y_index, classes = check_X_y(X, y, method="Least squares")
        n_classes = classes.size
        if self.targets == "fisher":
            if n_classes != 2:
                raise InvalidDataError(
                    f"Fisher targets (t = N/N1, -N/N2) are defined for two classes; the points have {n_classes}."
                )
            counts = np.bincount(y_index, minlength=2)
            n = y_index.size
            # Section 4.1.5 labels the first class C1 (t = N/N1); our positive class is
            # classes_[1], so it gets +N/N2 and the decision sign matches the other methods.
            T = np.where(y_index == 1, n / counts[1], -n / counts[0])[:, None]
        else:
            T = np.eye(n_classes)[y_index]

        design = add_bias(X)
        weights, _, rank, _ = np.linalg.lstsq(design, T, rcond=None)
        self.weights_ = weights
        self.rank_ = int(rank)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]

        W = weights.T  # (outputs, D + 1)
        if W.shape[0] == 2:
            W = W[1:] - W[:1]
        self.coef_ = W[:, 1:].copy()
        self.intercept_ = W[:, 0].copy()
        return self

    def class_outputs(self, X):
        """The fitted y_k(x) = w_k^T x + w_k0 for each output, shape (N, K) (or (N, 1) for
        Fisher targets). Least squares does not keep them in [0, 1]: they are not probabilities."""
        X = self._check_X(X)
        return add_bias(X) @ self.weights_
