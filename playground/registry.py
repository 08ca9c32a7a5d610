"""The method registry: name -> estimator class, the one list the app and tests read; what a
name gives: a model (``make_model``), or the criterion its fit optimises at a line (``criterion``)."""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .base import Classifier
from .basis import Basis, with_basis
from .bayesian_logistic import BayesianLogisticRegression
from .criteria import HasCriterion, no_criterion_message
from .errors import InvalidDataError, Message, PlaygroundError
from .fisher import FisherDiscriminant
from .gaussian import SeparateCovarianceGaussian, SharedCovarianceGaussian
from .i18n import N_
from .least_squares import LeastSquaresClassifier
from .logistic import LogisticRegression, SoftmaxRegression
from .multiclass import with_strategy
from .naive_bayes import NaiveBayes
from .perceptron import Perceptron
from .probit import ProbitRegression
from .svm import LinearSVM

# Each method adds its class here; the app's method list is built from this dict, in this
# order: the book's (each class's ``book_section`` says where), then the SVM of chapter 7.
MODELS: dict[str, type[Classifier]] = {
    "least_squares": LeastSquaresClassifier,  # 4.1.3
    "fisher": FisherDiscriminant,  # 4.1.4
    "perceptron": Perceptron,  # 4.1.7
    "gaussian_shared": SharedCovarianceGaussian,  # 4.2.1-4.2.2
    "gaussian_separate": SeparateCovarianceGaussian,  # 4.2.1-4.2.2
    "naive_bayes": NaiveBayes,  # 4.2.3
    "logistic": LogisticRegression,  # 4.3.2
    "softmax": SoftmaxRegression,  # 4.3.4
    "probit": ProbitRegression,  # 4.3.5
    "bayesian_logistic": BayesianLogisticRegression,  # 4.4-4.5
    "svm": LinearSVM,  # 7.1, outside chapter 4: last
}

MULTICLASS_STRATEGIES = ("native", "ovr", "ovo")

# The two-class machines: no K-class form of their own (their fit refuses three classes and
# names the strategies; tests/test_conventions.py checks this set against the fits).
TWO_CLASS_METHODS = frozenset({"perceptron", "logistic", "probit", "bayesian_logistic", "svm"})


def fitted_strategy(method: str, multiclass: str, n_classes: int) -> str:
    """The multi-class strategy a fit of ``method`` runs on ``n_classes`` classes: a two-class
    method has no K-class form, so a K-class ("native") choice runs one-versus-rest (what the
    sidebar offers instead; the comparison, the class rooms and the export alike)."""
    if multiclass == "native" and method in TWO_CLASS_METHODS and n_classes > 2:
        return "ovr"
    return multiclass


def make_model(name: str, *, multiclass: str = "native", basis: Basis | None = None, **params: Any) -> Classifier:
    """Return an unfitted estimator for method ``name``.

    Parameters
    ----------
    name : str
        A key of ``MODELS``.
    multiclass : {"native", "ovr", "ovo"}
        "native" uses the method's own K-class form (eq. 4.9) where it has one; "ovr" and
        "ovo" wrap a two-class method as one-versus-rest / one-versus-one (figure 4.2).
    basis : basis-function object or None
        A fixed transform phi(x) (section 4.3.1) applied before the method.
    **params
        The method's hyper-parameters.
    """
    try:
        cls = MODELS[name]
    except KeyError:
        known = ", ".join(sorted(MODELS))
        raise PlaygroundError(
            N_("Unknown method '{name}'. Known methods: {known}."), name=str(name), known=known
        ) from None
    if multiclass not in MULTICLASS_STRATEGIES:
        raise PlaygroundError(
            N_("Unknown multi-class strategy '{strategy}'; use one of {known}."),
            strategy=str(multiclass),
            known=str(MULTICLASS_STRATEGIES),
        )
    try:
        model = cls(**params)
    except TypeError as err:
        raise PlaygroundError(
            N_("Bad parameters for {method}: {error}."), method=Message(cls.display_name), error=str(err)
        ) from None
    if multiclass != "native":
        model = with_strategy(model, multiclass)
    if basis is not None:
        model = with_basis(model, basis)
    return model


def criterion(name: str, X: ArrayLike, y: ArrayLike, w: ArrayLike, **params: Any) -> float:
    """The value at the line w = (w0, w1, ..., wD) of the function method ``name``'s fit optimises
    (issue 46): ``make_model(name, **params).criterion_at(X, y, w)`` (``playground.criteria``).

    Two classes; w0 + w^T x > 0 means ``classes_[1]``. ``params`` are the method's
    hyper-parameters (C, alpha, l2, targets...), and ``basis=`` puts the method on phi(x): w is
    then (w0, w1, ..., wM), one weight per feature. Whether the fit minimises or maximises it, its
    name and equation: the model's ``criterion_maximised``, ``criterion_name``,
    ``criterion_equation``. The density models (Gaussian classes, naive Bayes) raise: they fit
    densities, not a line. For many lines at once (a landscape) call the model's ``criterion_at``
    with a table of lines.
    """
    model = make_model(name, **params)
    if not isinstance(model, HasCriterion):
        raise PlaygroundError(no_criterion_message(model.display_name))
    if np.ndim(w) != 1:
        raise InvalidDataError(
            N_(
                "{method}: w must be one line's weights [w0, w1, ...], a vector; for a table of lines "
                "use the model's criterion_at(X, y, W)."
            ),
            method=Message(model.display_name),
        )
    return float(model.criterion_at(X, y, w))
