"""Gaussian classes with a covariance each (section 4.2.2): its page."""

from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.generative import gaussian_separate_point, separate_gaussian_equations
from ui.methods.numpy_cells import generative, literal
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    code = (
        "from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\n\n"
        f"estimator = QuadraticDiscriminantAnalysis(priors={literal(settings.get('priors'))})\n"
    )
    return code, False


CARD = MethodPage(
    method="gaussian_separate",
    point_equations=gaussian_separate_point,
    posterior_equations=("4.57", "4.62"),
    equations=separate_gaussian_equations,
    about=N_(
        "A generative model: each class is a Gaussian with its own mean and its own covariance. The quadratic "
        "terms no longer cancel, so the boundaries are conics (figure 4.11)."
    ),
    numpy_text=N_(
        "Gaussian classes with a covariance each (section 4.2.2): a_k = ln p(x|C_k) + ln p(C_k) (eq. 4.63) "
        "keeps its quadratic term, so the boundary is curved."
    ),
    numpy_code=generative.gaussian_separate_code,
    sklearn=_sklearn,
    differences=N_(
        "QuadraticDiscriminantAnalysis divides each covariance by N_k − 1 (unbiased) where the book's maximum "
        "likelihood divides by N_k, so predictions may differ near the boundary."
    ),
    controls=(Control("priors", key="gsep"),),
    panels=("class_gaussians",),
)
