"""The session-state keys of the method and basis widgets: the ui's half of ``playground.specs``.

``playground.specs`` says what a setting is (its kind, range, options, default); this table says
which Streamlit widget shows it. Rules that must hold:

- Every spec of ``METHOD_SPECS`` and ``BASIS_SPECS`` that a widget shows has exactly one key here,
  found by its owner (a method or a basis), its name and its condition (``Spec.when``): one name
  may be two widgets under two conditions (IRLS's and gradient descent's maximum iterations).
- The key strings never change: AppTest tests, links' widget values and a visitor's session all
  name widgets by them.
- A priors key is a prefix (``{key}_set_priors``, ``{key}_prior_{k}``); the Bernoulli thresholds'
  key is one too (``{key}1``, ``{key}2``).
- Plain data and lookups only: nothing here draws a widget.
"""

from collections.abc import Mapping
from typing import Final, NamedTuple

from playground.specs import BASIS_SPECS, METHOD_SPECS, Spec, spec_for

HARD_MARGIN_KEY = "svm_hard"  # the SVM's "hard margin" checkbox (C = None)
THRESHOLDS_KEY = "nb_set_thresholds"  # naive Bayes: thresholds set by hand
BASIS_KEY: Final = "basis"  # the basis picker
CLICK_MODE_KEY: Final = "click_mode"  # a click adds points or places RBF centres
HAND_CENTRES_KEY: Final = "rbf_hand_centres"  # the RBF centres last placed by hand
LAST_PLACEMENT_KEY: Final = "rbf_last_placement"  # the RBF placement chosen on the last run

_SOLVER_IRLS = (("solver", "irls"),)
_SOLVER_GD = (("solver", "gd"),)


def _logistic(prefix: str) -> dict[tuple[str, tuple], str]:
    return {
        ("solver", ()): f"{prefix}_solver",
        ("max_iter", _SOLVER_IRLS): f"{prefix}_iter_irls",
        ("max_iter", _SOLVER_GD): f"{prefix}_iter_gd",
        ("learning_rate", _SOLVER_GD): f"{prefix}_lr",
        ("l2", ()): f"{prefix}_l2",
    }


# owner -> (spec name, spec condition) -> key; "" for a setting no widget shows.
METHOD_KEYS: Mapping[str, Mapping[tuple[str, tuple], str]] = {
    "least_squares": {("targets", ()): "ls_targets"},
    "fisher": {("threshold", ()): "fisher_threshold"},
    "perceptron": {
        ("eta", ()): "perc_eta",
        ("max_epochs", ()): "perc_epochs",
        ("shuffle", ()): "perc_shuffle",
        ("random_state", (("shuffle", True),)): "perc_seed",
        ("w_init", ()): "perc_w_init",
    },
    "gaussian_shared": {("priors", ()): "gs"},
    "gaussian_separate": {("priors", ()): "gsep"},
    "naive_bayes": {
        ("variant", ()): "nb_variant",
        ("priors", ()): "nb",
        ("thresholds", (("variant", "bernoulli"),)): "nb_t",
    },
    "logistic": {**_logistic("lr"), ("w_init", ()): "lr_w_init"},
    "softmax": _logistic("sm"),
    "probit": _logistic("pb"),
    "bayesian_logistic": {("alpha", ()): "bayes_alpha"},
    "svm": {("C", ()): "svm_C"},
}

BASIS_KEYS: Mapping[str, Mapping[tuple[str, tuple], str]] = {
    "identity": {},
    "polynomial": {("degree", ()): "basis_degree"},
    "rbf": {
        ("placement", ()): "rbf_placement",
        ("n_centres", (("placement", "grid"),)): "rbf_grid_n",
        ("n_centres", (("placement", "data"),)): "rbf_data_n",
        ("random_state", (("placement", "data"),)): "rbf_seed",
        ("centres", (("placement", "given"),)): "",  # placed by clicks on the canvas, not a widget
        ("width", ()): "rbf_width",
        ("include_input", ()): "rbf_include_input",
    },
}

# Widget keys owned by the basis picker: cleared on a load so it starts from the new scene.
BASIS_WIDGET_KEYS = (
    BASIS_KEY,
    "basis_degree",
    "rbf_placement",
    "rbf_width",
    "rbf_grid_n",
    "rbf_data_n",
    "rbf_seed",
    "rbf_include_input",
    HAND_CENTRES_KEY,
    LAST_PLACEMENT_KEY,
    CLICK_MODE_KEY,
)


class Widget(NamedTuple):
    """A setting's spec and the key of the widget that shows it."""

    spec: Spec
    key: str


def method_key(method: str, spec: Spec) -> str:
    """The key of the widget showing ``spec``, one of ``METHOD_SPECS[method]`` ("" for none)."""
    return METHOD_KEYS[method][(spec.name, spec.when)]


def basis_key(basis: str, spec: Spec) -> str:
    """The key of the widget showing ``spec``, one of ``BASIS_SPECS[basis]`` ("" for none)."""
    return BASIS_KEYS[basis][(spec.name, spec.when)]


def method_widget(method: str, name: str, values: Mapping | None = None) -> Widget:
    """The widget of the method's setting ``name`` that applies given the other ``values``."""
    spec = spec_for(METHOD_SPECS[method], name, values)
    return Widget(spec, method_key(method, spec))


def basis_widget(basis: str, name: str, values: Mapping | None = None) -> Widget:
    """The widget of the basis's setting ``name`` that applies given the other ``values``."""
    spec = spec_for(BASIS_SPECS[basis], name, values)
    return Widget(spec, basis_key(basis, spec))


def setting_widget_keys() -> set[str]:
    """The session keys of every method and basis widget (those a load or a reset clears)."""
    keys = {HARD_MARGIN_KEY, THRESHOLDS_KEY, *BASIS_WIDGET_KEYS}
    for method, specs in METHOD_SPECS.items():
        for spec in specs:
            key = method_key(method, spec)
            if spec.kind == "priors":
                keys.add(f"{key}_set_priors")
                keys.update(f"{key}_prior_{k}" for k in range(6))
            elif spec.name == "thresholds":
                keys.update((f"{key}1", f"{key}2"))
            elif key:
                keys.add(key)
    return keys
