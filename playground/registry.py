"""The method registry: name -> estimator class, the one list the app and tests read."""

from .basis import with_basis
from .bayesian_logistic import BayesianLogisticRegression
from .errors import PlaygroundError
from .fisher import FisherDiscriminant
from .gaussian import SeparateCovarianceGaussian, SharedCovarianceGaussian
from .least_squares import LeastSquaresClassifier
from .logistic import LogisticRegression, SoftmaxRegression
from .multiclass import with_strategy
from .naive_bayes import NaiveBayes
from .perceptron import Perceptron
from .probit import ProbitRegression
from .svm import LinearSVM

# Each method adds its class here; the app's method list is built from this dict.
MODELS = {
    "least_squares": LeastSquaresClassifier,
    "gaussian_shared": SharedCovarianceGaussian,
    "gaussian_separate": SeparateCovarianceGaussian,
    "naive_bayes": NaiveBayes,
    "logistic": LogisticRegression,
    "softmax": SoftmaxRegression,
    "probit": ProbitRegression,  # 4.3.5
    "bayesian_logistic": BayesianLogisticRegression,  # 4.4-4.5
    "fisher": FisherDiscriminant,
    "perceptron": Perceptron,
    "svm": LinearSVM,
}

MULTICLASS_STRATEGIES = ("native", "ovr", "ovo")


def make_model(name, *, multiclass="native", basis=None, **params):
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
        raise PlaygroundError(f"Unknown method '{name}'. Known methods: {known}.") from None
    if multiclass not in MULTICLASS_STRATEGIES:
        raise PlaygroundError(f"Unknown multi-class strategy '{multiclass}'; use one of {MULTICLASS_STRATEGIES}.")
    try:
        model = cls(**params)
    except TypeError as err:
        raise PlaygroundError(f"Bad parameters for {cls.display_name}: {err}.") from None
    if multiclass != "native":
        model = with_strategy(model, multiclass)
    if basis is not None:
        model = with_basis(model, basis)
    return model
