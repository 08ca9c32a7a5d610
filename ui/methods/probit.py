"""Probit regression (section 4.3.5): its page."""

from ui.methods import MethodPage
from ui.methods.equations.probabilistic import probit_equations, probit_point
from ui.methods.logistic import solver_controls
from ui.methods.numpy_cells import probabilistic
from ui.text.i18n import N_

CARD = MethodPage(
    method="probit",
    point_equations=probit_point,
    posterior_equations=("4.114", "4.114"),
    equations=probit_equations,
    about=N_(
        "Probit regression models p(C₁|φ) = Φ(wᵀφ), the standard normal's distribution function in place of "
        "the logistic sigmoid (section 4.3.5): nearly the same boundary, with thinner tails."
    ),
    numpy_text=N_(
        "Probit regression (section 4.3.5) replaces the sigmoid by the normal distribution function Φ(a) "
        "(eq. 4.114) and is fitted by the same Newton-Raphson iterations."
    ),
    numpy_code=probabilistic.iterative_code(probabilistic.PROBIT),
    no_counterpart=N_("scikit-learn has no probit regression, so this notebook keeps the numpy part only."),
    controls=solver_controls("pb"),
    panels=("sigmoid_probit",),
)
