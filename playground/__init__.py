"""Linear classification after PRML chapter 4, in numpy: the playground's back-end.

>>> from playground import CARDS, criterion, make_model
>>> [card.name for card in CARDS]  # the methods' registry names, in the book's order
>>> model = make_model(CARDS[0].name).fit(X, y)
>>> criterion("logistic", X, y, [0.5, 1.0, -2.0])  # what logistic regression's fit minimises, at a line

Each method's card (``MethodCard``, beside its estimator) holds what the app knows about it: its
estimator class, its settings, its traits (two-class only, iterative) and its cost model.

The import rule: this package imports numpy and the standard library only (never ui, Streamlit,
plotly, pandas, scikit-learn or scipy), so the same fits run in a notebook, a script or a test;
lint-imports (pyproject.toml) fails the test command on an import that breaks it.
"""

from .base import Classifier, LinearClassifier, ProbabilisticMixin
from .basis import BASES, BasisModel, IdentityBasis, PolynomialBasis, RBFBasis, make_basis, with_basis
from .bayesian_logistic import BayesianLogisticRegression
from .card import CostModel, FitShape, MethodCard
from .criteria import CriterionTerms
from .datasets import ClusterSpec, make_clusters
from .errors import (
    Classes,
    ConvergenceError,
    DegenerateFitError,
    InvalidDataError,
    Message,
    NotFittedError,
    PlaygroundError,
    phrase,
)
from .fisher import FisherDiscriminant
from .gaussian import SeparateCovarianceGaussian, SharedCovarianceGaussian
from .geometry import boundary_segments, linear_regions
from .grid import GridResult, Window, evaluate_grid
from .logistic import LogisticRegression, SoftmaxRegression
from .multiclass import OneVsOne, OneVsRest, with_strategy
from .naive_bayes import NaiveBayes
from .perceptron import Perceptron
from .probit import ProbitRegression
from .registry import CARDS, MODELS, criterion, make_model
from .svm import LinearSVM

__all__ = [
    "BASES",
    "CARDS",
    "MODELS",
    "BasisModel",
    "BayesianLogisticRegression",
    "Classes",
    "Classifier",
    "ClusterSpec",
    "ConvergenceError",
    "CostModel",
    "CriterionTerms",
    "DegenerateFitError",
    "FisherDiscriminant",
    "FitShape",
    "GridResult",
    "IdentityBasis",
    "InvalidDataError",
    "LinearClassifier",
    "LinearSVM",
    "LogisticRegression",
    "Message",
    "MethodCard",
    "NotFittedError",
    "NaiveBayes",
    "OneVsOne",
    "OneVsRest",
    "Perceptron",
    "PlaygroundError",
    "PolynomialBasis",
    "ProbitRegression",
    "ProbabilisticMixin",
    "RBFBasis",
    "SeparateCovarianceGaussian",
    "SharedCovarianceGaussian",
    "SoftmaxRegression",
    "Window",
    "boundary_segments",
    "criterion",
    "evaluate_grid",
    "linear_regions",
    "make_basis",
    "make_clusters",
    "make_model",
    "phrase",
    "with_basis",
    "with_strategy",
]
