"""Fisher/LDA with shrinkage (sections 4.1.4, 4.2.2): its page, with its own numpy cell."""

from string import Template
from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.core import Equation, _ridge_note, matrix, number
from ui.methods.equations.generative import gaussian_shared_point, shared_gaussian_equations
from ui.methods.numpy_cells import literal
from ui.methods.numpy_cells.core import DESIGN, SOFTMAX
from ui.methods.numpy_cells.generative import CLASS_PRIORS
from ui.text.i18n import N_, _

NUMPY_CELL = Template(
    DESIGN
    + SOFTMAX
    + CLASS_PRIORS
    + """
SHRINKAGE = $shrinkage  # lambda: 0 is the maximum-likelihood Sigma, 1 a multiple of the identity


def fit(Phi, k, w_init=None):
    K, N, D = k.max() + 1, len(k), Phi.shape[1]
    pi = class_priors(k)
    mu = np.array([Phi[k == c].mean(axis=0) for c in range(K)])  # class means (eq. 4.75-4.76)
    Sigma = (Phi - mu[k]).T @ (Phi - mu[k]) / N  # the shared covariance, sum_k (N_k/N) S_k (eq. 4.78-4.80)
    # shrunk towards the identity with the same total variance: (1 - lambda) Sigma + lambda (tr Sigma / D) I
    Sigma = (1 - SHRINKAGE) * Sigma + SHRINKAGE * np.trace(Sigma) / D * np.eye(D)
    W = np.linalg.solve(Sigma, mu.T).T  # w_k = Sigma^-1 mu_k (eq. 4.69)
    w0 = -0.5 * np.sum(mu * W, axis=1) + np.log(pi)  # w_k0 (eq. 4.70)
    return {"W": np.column_stack([w0, W])}


def discriminants(model, Phi):
    return design(Phi) @ model["W"].T  # a_k(x) = w_k^T x + w_k0 (eq. 4.68)


def weights(model):
    return model["W"]


def posteriors(model, Phi):
    return softmax(discriminants(model, Phi))  # eq. 4.62
"""
)


def _numpy_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return NUMPY_CELL.substitute(shrinkage=s["shrinkage"], priors=s.get("priors", "None"))


def _shrunk_covariance(model: Any) -> Any:
    """Σ from the points (eq. 4.78-4.79), then Σ_λ, the one the discriminants below use."""
    yield Equation(
        _("Shared covariance"),
        r"\boldsymbol{\Sigma} = \sum_k \frac{N_k}{N}\mathbf{S}_k = " + matrix(model.empirical_covariance_),
        "4.78-4.79",
    )
    yield Equation(
        _("Shrunk covariance"),
        r"\boldsymbol{\Sigma}_\lambda = (1 - \lambda)\boldsymbol{\Sigma}"
        r" + \lambda\frac{\mathrm{tr}\,\boldsymbol{\Sigma}}{D}\mathbf{I} = " + matrix(model.covariance_),
        None,
        " ".join(
            note
            for note in (
                _("λ = {shrinkage}; Σ below stands for Σ_λ.").format(shrinkage=number(model.shrinkage_)),
                _ridge_note(float(getattr(model, "ridge_", 0.0))),
            )
            if note
        ),
    )


def _equations(model: Any, space: Any) -> Any:
    """The shared-covariance model's equations with Σ_λ in place of Σ."""
    return shared_gaussian_equations(model, space, covariance=_shrunk_covariance)


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    priors = settings.get("priors")
    code = (
        "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n\n"
        "estimator = LinearDiscriminantAnalysis(\n"
        f'    solver="lsqr", shrinkage={literal(settings["shrinkage"])}, priors={literal(priors)}\n'
        ")\n"
    )
    # scikit-learn weighs the class covariances by the priors; with priors N_k / N that is Sigma.
    return code, priors is None


CARD = MethodPage(
    method="lda_shrinkage",
    point_equations=gaussian_shared_point,
    posterior_equations=("4.65", "4.62"),  # the shared-covariance posterior, with the shrunk Σ
    equations=_equations,
    about=N_(
        "Fisher's discriminant, or equally Gaussian classes with a shared covariance, with that covariance "
        "shrunk towards a multiple of the identity: Σ_λ = (1 − λ)Σ + λ(tr Σ / D)I. With λ = 0 it is the "
        "maximum-likelihood model (eq. 4.66, the direction of eq. 4.30); with λ = 1 the direction is the line "
        "joining the means, the left plot of figure 4.6. In between, a covariance estimated from a few points "
        "or many features stops steering the boundary with its noise."
    ),
    numpy_text=N_(
        "Fisher/LDA with shrinkage (sections 4.1.4, 4.2.2): the shared-covariance Gaussian model (eq. 4.73-4.80) "
        "with Σ replaced by (1 − λ)Σ + λ(tr Σ / D)I before the discriminants w_k = Σ⁻¹μ_k (eq. 4.69-4.70)."
    ),
    numpy_code=_numpy_code,
    sklearn=_sklearn,
    differences=N_(
        'LinearDiscriminantAnalysis(solver="lsqr", shrinkage=λ) is the same model; it shrinks each class\'s '
        "covariance and weighs them by the priors, which with the priors Nₖ/N is the same Σ_λ, and its coef_ is "
        "the log-odds of the second class, so the book's w is its negative."
    ),
    controls=(
        Control(
            "shrinkage",
            label=N_("Shrinkage λ"),
            help=N_(
                "0: the maximum-likelihood covariance (Fisher's direction); 1: the identity's shape, so w points "
                "along the line joining the means (figure 4.6, left)."
            ),
        ),
    ),
    panels=("class_gaussians",),
    compared=False,
)
