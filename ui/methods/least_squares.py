"""Least squares for classification (sections 4.1.3 and 4.1.5): its page."""

from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.discriminants import least_squares_equations, least_squares_point
from ui.methods.numpy_cells import discriminants
from ui.text.i18n import N_


def _numpy_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    """1-of-K targets (eq. 4.15), or section 4.1.5's N/N1, -N/N2 (the "fisher" targets)."""
    fisher_targets = settings.get("targets") == "fisher"
    return (discriminants.LEAST_SQUARES_FISHER_TARGETS if fisher_targets else discriminants.LEAST_SQUARES).substitute()


CARD = MethodPage(
    method="least_squares",
    point_equations=least_squares_point,
    equations=least_squares_equations,
    panels=("least_squares_outputs",),
    about=N_(
        "Least squares fits each class's target (1 for the class, 0 otherwise) with a linear function yₖ(x) = "
        "wₖᵀx̃ by minimising the sum of squared errors (eq. 4.16) and assigns x to the class with the largest "
        "yₖ(x). It has a closed form, but it punishes points that are 'too correct', so far-away points pull "
        "its boundary (figure 4.4)."
    ),
    numpy_text=N_(
        "Least squares (section 4.1.3) fits y(x) = W̃ᵀx̃ to 1-of-K targets in one step, W̃ = X̃⁺T (eq. 4.16), "
        "and gives each point the class of the largest output (eq. 4.9)."
    ),
    numpy_code=_numpy_code,
    no_counterpart=N_(
        "scikit-learn has no least-squares classifier with 1-of-K targets (RidgeClassifier fits ±1 targets "
        "with a penalty), so this notebook keeps the numpy part only."
    ),
    controls=(
        Control(
            "targets",
            key="ls_targets",
            label=N_("Targets"),
            labels={"one_of_k": N_("1-of-K (eq. 4.15)"), "fisher": N_("N/N₁ for C₁, −N/N₂ for C₂ (§4.1.5)")},
            horizontal=True,
            help=N_("With the Fisher targets the weight vector is parallel to Fisher's discriminant."),
            # Section 4.1.5's targets exist for two classes only: not offered with more.
            many_classes=N_("Targets: 1-of-K (eq. 4.15). The N/N₁, −N/N₂ targets of section 4.1.5 need two classes."),
        ),
    ),
    compared=True,
)
