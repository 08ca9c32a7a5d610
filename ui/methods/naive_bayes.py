"""Naive Bayes, Gaussian or Bernoulli features (section 4.2.3): its page."""

from typing import Any

from ui.methods import Control, MethodPage, Toggle
from ui.methods.equations.generative import naive_bayes_equations, naive_bayes_point
from ui.methods.numpy_cells import generative, literal
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    priors = literal(settings.get("priors"))
    if settings.get("variant") == "bernoulli":
        code = (
            "from sklearn.naive_bayes import BernoulliNB\n"
            "from sklearn.pipeline import make_pipeline\n"
            "from sklearn.preprocessing import FunctionTransformer\n\n"
            f"THRESHOLDS_SK = {literal(settings.get('thresholds'))}\n"
            "cut = np.mean(phi(X), axis=0) if THRESHOLDS_SK is None else np.array(THRESHOLDS_SK)\n"
            "estimator = make_pipeline(\n"
            "    FunctionTransformer(lambda F: (F > cut).astype(float)),  # the binary features\n"
            f"    BernoulliNB(alpha=1.0, binarize=None, class_prior={priors}),\n"
            ")\n"
        )
    else:
        code = f"from sklearn.naive_bayes import GaussianNB\n\nestimator = GaussianNB(priors={priors})\n"
    return code, False


CARD = MethodPage(
    method="naive_bayes",
    point_equations=naive_bayes_point,
    posterior_equations=("4.57", "4.62"),
    equations=naive_bayes_equations,
    about=N_(
        "Naive Bayes treats the features as independent within each class (section 4.2.3): each class is a "
        "product of one-dimensional densities, and Bayes' theorem gives the posteriors."
    ),
    numpy_text=N_(
        "Naive Bayes (section 4.2.3) treats the features as independent within a class: one variance per "
        "class and feature, or binary features with p(xᵢ = 1|C_k) = μ_ki (eq. 4.81-4.82)."
    ),
    numpy_code=generative.naive_bayes_code,
    sklearn=_sklearn,
    differences=N_("GaussianNB and BernoulliNB are the same models, with the same smoothing."),
    controls=(
        Control(
            "variant",
            key="nb_variant",
            label=N_("Features"),
            labels={
                "gaussian": N_("Gaussian (diagonal covariances)"),
                "bernoulli": N_("binary, by thresholds (eq. 4.81)"),
            },
        ),
        Control("priors", key="nb"),
        Control(
            "thresholds",
            (("variant", "bernoulli"),),
            key="nb_t",
            label=N_("x{index} threshold"),
            toggle=Toggle(
                "nb_set_thresholds", N_("Set the thresholds by hand (default: the data mean)"), checked_means_none=False
            ),
        ),
    ),
    panels=("class_gaussians",),
)
