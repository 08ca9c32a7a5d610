"""The method registry: name -> estimator class, the one list the app and tests read."""

from .errors import PlaygroundError
from .least_squares import LeastSquaresClassifier

# Each method issue adds its class here; the app's method list is built from this dict.
MODELS = {
    "least_squares": LeastSquaresClassifier,
}


def make_model(name, **params):
    """Return an unfitted estimator for method ``name`` with hyper-parameters ``params``."""
    try:
        cls = MODELS[name]
    except KeyError:
        known = ", ".join(sorted(MODELS))
        raise PlaygroundError(f"Unknown method '{name}'. Known methods: {known}.") from None
    try:
        return cls(**params)
    except TypeError as err:
        raise PlaygroundError(f"Bad parameters for {cls.display_name}: {err}.") from None
