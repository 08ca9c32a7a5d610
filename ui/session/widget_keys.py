"""The session-state keys of the method and basis widgets: the ui's half of ``playground.specs``.

``playground.specs`` says what a setting is (its kind, range, options, default); these tables say
which Streamlit widget shows it (a method's keys are its card's, ``ui.methods``). Rules that must hold:

- Every spec of ``METHOD_SPECS`` and ``BASIS_SPECS`` that a widget shows has exactly one key here,
  found by its owner (a method or a basis), its name and its condition (``Spec.when``): one name
  may be two widgets under two conditions (IRLS's and gradient descent's maximum iterations).
- The key strings never change: AppTest tests, links' widget values and a visitor's session all
  name widgets by them.
- A priors key is a prefix (``{key}_set_priors``, ``{key}_prior_{k}``); a vector's key is one too
  (``{key}1``, ``{key}2``: the Bernoulli thresholds), but for the initial weights' text input; a
  setting behind a checkbox (``ui.methods.Toggle``) has that checkbox's key as well.
- Plain data and lookups only: nothing here draws a widget.
"""

from collections.abc import Mapping
from typing import Final, NamedTuple

from playground.specs import BASIS_SPECS, METHOD_SPECS, Spec, spec_for
from ui.methods import CARDS

BASIS_KEY: Final = "basis"  # the basis picker
CLICK_MODE_KEY: Final = "click_mode"  # a click adds points or places RBF centres
HAND_CENTRES_KEY: Final = "rbf_hand_centres"  # the RBF centres last placed by hand
LAST_PLACEMENT_KEY: Final = "rbf_last_placement"  # the RBF placement chosen on the last run

# owner -> (spec name, spec condition) -> key; "" for a setting no widget shows. The methods' keys
# are a view of their cards (``ui.methods``): today's keys kept on the cards, the rest generated.
METHOD_KEYS: Mapping[str, Mapping[tuple[str, tuple], str]] = {
    card.method: {(spec.name, spec.when): card.widget_key(spec) for spec in card.specs} for card in CARDS.values()
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
    keys = set(BASIS_WIDGET_KEYS)
    for card in CARDS.values():
        for spec in card.specs:
            key, control = card.widget_key(spec), card.control(spec)
            if control.toggle:
                keys.add(control.toggle.key)
            if spec.kind == "priors":
                keys.add(f"{key}_set_priors")
                keys.update(f"{key}_prior_{k}" for k in range(6))
            elif spec.kind == "vector" and not control.book_weights:
                keys.update(f"{key}{i + 1}" for i in range(spec.size or 0))
            else:
                keys.add(key)
    return keys
