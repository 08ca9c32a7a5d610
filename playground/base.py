"""The estimator contract every method follows (sklearn conventions, no sklearn).

A subclass implements ``fit`` and either sets ``coef_`` / ``intercept_`` (a linear model:
``LinearClassifier`` supplies ``decision_function``) or overrides ``decision_function``
itself. Probabilistic models implement ``predict_log_proba``; ``predict_proba`` follows.
"""

import inspect

import numpy as np

from .errors import PlaygroundError
from .validation import check_X


class Classifier:
    """Base class: parameters, prediction from decision values, accuracy."""

    #: Name shown in the app's method list.
    display_name = "classifier"
    #: The book's section, shown next to the name.
    book_section = ""
    #: Whether ``predict_proba`` is meaningful.
    is_probabilistic = False
    #: Whether the decision boundary is a straight line in the model's input space.
    is_linear = False

    # -- parameters (sklearn's get_params / set_params, enough for cloning) --
    @classmethod
    def _param_names(cls):
        signature = inspect.signature(cls.__init__)
        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        return [p.name for p in signature.parameters.values() if p.name != "self" and p.kind in kinds]

    def get_params(self):
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        valid = set(self._param_names())
        for name, value in params.items():
            if name not in valid:
                raise PlaygroundError(f"{self.display_name} has no parameter '{name}'.")
            setattr(self, name, value)
        return self

    def clone(self):
        return type(self)(**self.get_params())

    def __repr__(self):
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    # -- prediction --
    def _check_fitted(self):
        if not hasattr(self, "classes_"):
            raise PlaygroundError(f"{self.display_name} has not been fitted yet: call fit(X, y) first.")

    def _check_X(self, X):
        self._check_fitted()
        return check_X(X, n_features=self.n_features_in_)

    def decision_function(self, X):
        raise NotImplementedError

    def predict(self, X):
        """Labels from ``classes_``, shape (N,).

        Two classes: ``classes_[1]`` where the decision value is positive. K classes: the
        largest of the K decision values (eq. 4.9).
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[(scores > 0).astype(int)]
        return self.classes_[np.argmax(scores, axis=1)]

    def score(self, X, y):
        """Fraction of points classified correctly."""
        return float(np.mean(self.predict(X) == np.asarray(y)))


class LinearClassifier(Classifier):
    """A model with linear discriminants y_k(x) = w_k^T x + w_k0 (eq. 4.4 and 4.9).

    Fitted attributes the subclass sets: ``coef_`` (1, D) for two classes or (K, D),
    ``intercept_`` (1,) or (K,), ``classes_``, ``n_features_in_``.
    """

    is_linear = True

    def decision_function(self, X):
        """y(x) = w^T x + w0: shape (N,) for two classes, (N, K) otherwise."""
        X = self._check_X(X)
        scores = X @ self.coef_.T + self.intercept_
        return scores[:, 0] if scores.shape[1] == 1 else scores


class ProbabilisticMixin:
    """``predict_proba`` from ``predict_log_proba``: rows sum to 1, never NaN."""

    is_probabilistic = True

    def predict_proba(self, X):
        return np.exp(self.predict_log_proba(X))


def log_softmax(activations):
    """log p(C_k|x) from activations a_k (N, K), via log-sum-exp so nothing overflows (eq. 4.62)."""
    a = np.asarray(activations, dtype=float)
    shift = np.max(a, axis=1, keepdims=True)
    shift[~np.isfinite(shift)] = 0.0
    shifted = a - shift
    return shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))


def log_sigmoid(a):
    """log sigma(a) without overflow: -log(1 + exp(-a)) = -logaddexp(0, -a) (eq. 4.59)."""
    return -np.logaddexp(0.0, -np.asarray(a, dtype=float))


def sigmoid(a):
    """The logistic sigmoid, stable for large |a| (eq. 4.59)."""
    a = np.asarray(a, dtype=float)
    out = np.empty_like(a)
    positive = a >= 0
    out[positive] = 1.0 / (1.0 + np.exp(-a[positive]))
    exp_a = np.exp(a[~positive])
    out[~positive] = exp_a / (1.0 + exp_a)
    return out
