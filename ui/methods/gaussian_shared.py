"""Gaussian classes with a shared covariance (sections 4.2.1-4.2.2): its page."""

from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.generative import gaussian_shared_point, shared_gaussian_equations
from ui.methods.numpy_cells import generative, literal
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    priors = settings.get("priors")
    code = (
        "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n\n"
        f'estimator = LinearDiscriminantAnalysis(solver="lsqr", priors={literal(priors)})\n'
    )
    return code, priors is None


CARD = MethodPage(
    method="gaussian_shared",
    point_equations=gaussian_shared_point,
    posterior_equations=("4.65", "4.62"),
    equations=shared_gaussian_equations,
    about=N_(
        "A generative model: each class is a Gaussian with its own mean and one covariance shared by all "
        "classes, fitted by maximum likelihood (eq. 4.65-4.70). Bayes' theorem then gives the posteriors, and "
        "the shared covariance makes every boundary a straight line."
    ),
    numpy_text=N_(
        "Gaussian classes with one shared covariance (sections 4.2.1-4.2.2): maximum-likelihood means, "
        "priors and covariance (eq. 4.73-4.80) give linear discriminants w_k = Σ⁻¹μ_k (eq. 4.69-4.70)."
    ),
    numpy_code=generative.gaussian_shared_code,
    sklearn=_sklearn,
    differences=N_(
        'LinearDiscriminantAnalysis(solver="lsqr") is the same model; its coef_ is the log-odds of the '
        "second class, so the book's w is its negative."
    ),
    controls=(Control("priors", key="gs"),),
    panels=("class_gaussians",),
)
