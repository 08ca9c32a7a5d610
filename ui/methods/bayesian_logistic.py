"""Bayesian logistic regression with the Laplace approximation (sections 4.4-4.5): its page."""

from ui.methods import Control, MethodPage
from ui.methods.equations.probabilistic import bayesian_logistic_equations, bayesian_logistic_point
from ui.methods.numpy_cells import probabilistic
from ui.text.i18n import N_

CARD = MethodPage(
    method="bayesian_logistic",
    point_equations=bayesian_logistic_point,
    posterior_equations=("4.155", "4.155"),
    equations=bayesian_logistic_equations,
    about=N_(
        "Bayesian logistic regression puts a Gaussian prior of precision α on w and approximates the posterior "
        "over w by a Gaussian at its mode (the Laplace approximation, section 4.4); the predictive distribution "
        "(eq. 4.155) is less sure away from the data than the MAP fit."
    ),
    numpy_text=N_(
        "Bayesian logistic regression (sections 4.4-4.5): a Gaussian prior with precision α, the mode "
        "w_MAP, the Laplace covariance S_N⁻¹ = αI + ΦᵀRΦ (eq. 4.143), and the moderated prediction "
        "σ(κ(σₐ²)μₐ) (eq. 4.155)."
    ),
    numpy_code=probabilistic.bayesian_logistic_code,
    no_counterpart=N_(
        "scikit-learn has no Bayesian logistic regression with the Laplace approximation, so this notebook "
        "keeps the numpy part only."
    ),
    controls=(
        Control(
            "alpha",
            key="bayes_alpha",
            label=N_("Prior precision α (log scale)"),
            help=N_(
                "The prior N(w | 0, α⁻¹I) over every weight, the bias included (eq. 4.140): a larger α pulls w_MAP "
                "towards 0 and narrows the posterior."
            ),
        ),
    ),
    panels=("sigmoid_probit",),
    presenter_setting="alpha",
    presenter_format="α = {:g}",
)
