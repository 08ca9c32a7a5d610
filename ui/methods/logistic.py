"""Logistic regression (section 4.3.2): its page, and the solver's widgets and scikit-learn cell
that softmax and probit regression share (``solver_controls``, ``logistic_regression_cell``)."""

from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.probabilistic import logistic_equations, logistic_point
from ui.methods.numpy_cells import probabilistic
from ui.text.i18n import N_


def solver_controls(prefix: str) -> tuple[Control, ...]:
    """The widgets of a method fitted by IRLS or gradient descent, under today's keys "{prefix}_...";
    both maximum iterations are one setting under two conditions (their ranges differ)."""
    irls, gd = (("solver", "irls"),), (("solver", "gd"),)
    return (
        Control(
            "solver",
            key=f"{prefix}_solver",
            label=N_("Solver"),
            labels={"irls": N_("IRLS / Newton-Raphson (eq. 4.99)"), "gd": N_("gradient descent")},
            horizontal=True,
        ),
        Control("max_iter", irls, key=f"{prefix}_iter_irls", label=N_("Maximum iterations")),
        Control("max_iter", gd, key=f"{prefix}_iter_gd", label=N_("Maximum iterations")),
        Control("learning_rate", gd, key=f"{prefix}_lr", label=N_("Step size")),
        Control("l2", key=f"{prefix}_l2", label=N_("L2 penalty λ (0 = maximum likelihood)")),
    )


def logistic_regression_cell(settings: dict[str, Any], factor: float = 1.0) -> tuple[str, bool]:
    """scikit-learn's LogisticRegression with C = factor/λ (it penalises (1/2C)|w|²), no penalty for λ = 0."""
    l2 = float(settings.get("l2") or 0.0)
    c_value = "np.inf" if l2 == 0 else repr(factor / l2)
    code = (
        "from sklearn.linear_model import LogisticRegression\n\n"
        f'estimator = LogisticRegression(C={c_value}, solver="newton-cg", tol=1e-10, max_iter=10_000)\n'
    )
    return code, settings.get("solver") == "irls" and settings.get("w_init") is None


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    return logistic_regression_cell(settings)


CARD = MethodPage(
    method="logistic",
    point_equations=logistic_point,
    posterior_equations=("4.87", "4.87"),
    equations=logistic_equations,
    about=N_(
        "Logistic regression models p(C₁|φ) = σ(wᵀφ) directly and maximises the likelihood with IRLS, "
        "Newton-Raphson steps (eq. 4.99), or gradient descent. On separable data the weights grow without "
        "bound. Its initial weights are set below."
    ),
    numpy_text=N_(
        "Logistic regression (section 4.3.2) models p(C₁|φ) = σ(wᵀφ) (eq. 4.87) and maximises the "
        "likelihood by Newton-Raphson, iterative reweighted least squares (eq. 4.99-4.100), or by "
        "gradient descent."
    ),
    numpy_code=probabilistic.iterative_code(probabilistic.LOGISTIC),
    sklearn=_sklearn,
    differences=N_(
        "LogisticRegression penalises (1/2C)|w|², so C = 1/λ; its coef_ points into the second class, so the "
        "book's w is its negative. Gradient descent that stops early is not the optimum scikit-learn finds."
    ),
    # Where the run starts first (as the perceptron's card says).
    controls=(Control("w_init", key="lr_w_init", book_weights=True), *solver_controls("lr")),
    panels=("sigmoid_probit", "outliers"),
    compared=True,
)
