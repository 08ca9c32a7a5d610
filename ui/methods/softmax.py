"""Softmax regression, multiclass logistic regression (section 4.3.4): its page."""

from typing import Any

from ui.methods import MethodPage
from ui.methods.equations.probabilistic import softmax_equations, softmax_point
from ui.methods.logistic import logistic_regression_cell, solver_controls
from ui.methods.numpy_cells import probabilistic
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    # With two classes LogisticRegression fits one weight vector, so its C is 2/λ (the card's difference).
    return logistic_regression_cell(settings, 2.0 if n_classes == 2 else 1.0)


CARD = MethodPage(
    method="softmax",
    point_equations=softmax_point,
    posterior_equations=("4.104", "4.104"),
    equations=softmax_equations,
    about=N_(
        "Softmax regression, multiclass logistic regression, models p(Cₖ|φ) = exp(aₖ)/Σⱼexp(aⱼ) with aₖ = "
        "wₖᵀφ and maximises the likelihood (section 4.3.4); every class gets a region of its own."
    ),
    numpy_text=N_(
        "Softmax regression (section 4.3.4) models p(C_k|φ) = exp(a_k) / Σⱼ exp(aⱼ) (eq. 4.104) and "
        "maximises the likelihood with the block Hessian of eq. 4.110, or by gradient descent."
    ),
    numpy_code=probabilistic.iterative_code(probabilistic.SOFTMAX_REGRESSION),
    sklearn=_sklearn,
    differences=N_(
        "LogisticRegression with several classes is softmax regression; C = 1/λ (with two classes it fits "
        "one weight vector, so C = 2/λ). Weights are compared after subtracting their mean over the classes."
    ),
    controls=solver_controls("sm"),
)
