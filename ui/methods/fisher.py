"""Fisher's linear discriminant (sections 4.1.4 and 4.1.6): its page."""

from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.discriminants import fisher_equations, fisher_point
from ui.methods.numpy_cells import discriminants
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    code = "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n\n"
    return code + "estimator = LinearDiscriminantAnalysis()\n", False


CARD = MethodPage(
    method="fisher",
    point_equations=fisher_point,
    equations=fisher_equations,
    panels=("fisher_projection",),
    about=N_(
        "Fisher's linear discriminant projects the points onto the direction w ∝ S_W⁻¹(m₂ − m₁) that "
        "maximises the ratio J(w) of the between-class to the within-class variance (eq. 4.26-4.30), then "
        "classifies with a threshold on that projection."
    ),
    numpy_text=N_(
        "Fisher's discriminant (section 4.1.4) projects onto w ∝ S_W⁻¹(m₂ − m₁) (eq. 4.30; here written "
        "m₁ − m₂ so that w points into C₁) and cuts the projection at a threshold; with more classes it "
        "keeps the leading eigenvectors of S_W⁻¹S_B (eq. 4.51)."
    ),
    numpy_code=discriminants.fisher_code,
    sklearn=_sklearn,
    differences=N_(
        "LinearDiscriminantAnalysis finds the same directions but places the threshold as a Gaussian model "
        "with shared covariance does (with the priors), so its predictions may differ near the boundary."
    ),
    controls=(
        Control(
            "threshold",
            key="fisher_threshold",
            label=N_("Threshold on the projection"),
            labels={"midpoint": N_("midpoint of projected means"), "gaussian": N_("1-D Gaussians with priors")},
            help=N_(
                "Fisher's criterion gives only a direction; the threshold y0 is a separate choice (section 4.1.4)."
            ),
        ),
    ),
    compared=True,
)
