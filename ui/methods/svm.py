"""The linear support vector machine (section 7.1): its page."""

from typing import Any

from ui.methods import Control, MethodPage, Toggle
from ui.methods.equations.svm import svm_equations, svm_point
from ui.methods.numpy_cells import literal, svm
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    c_value = "1e10" if settings.get("C") is None else literal(settings["C"])
    code = f'from sklearn.svm import SVC\n\nestimator = SVC(kernel="linear", C={c_value}, tol=1e-8)\n'
    return code, True


CARD = MethodPage(
    method="svm",
    point_equations=svm_point,
    equations=svm_equations,
    panels=("svm_margin",),
    about=N_(
        "The linear support vector machine finds the boundary with the largest margin to the nearest points, "
        "the support vectors (section 7.1); C trades a wider margin against points inside it."
    ),
    numpy_text=N_(
        "The linear support vector machine (section 7.1) maximises the dual (eq. 7.10) with 0 ≤ aₙ ≤ C, "
        "here by sequential minimal optimisation (SMO), then w = Σₙ aₙtₙxₙ (eq. 7.8)."
    ),
    numpy_code=svm.svm_code,
    sklearn=_sklearn,
    differences=N_(
        'SVC(kernel="linear") solves the same dual by SMO; its coef_ points into the second class, so the '
        "book's w is its negative. SVC has no hard margin: a very large C stands in for it."
    ),
    controls=(
        Control(
            "C",
            key="svm_C",
            label=N_("C (soft-margin penalty, log scale)"),
            toggle=Toggle("svm_hard", N_("Hard margin (C = ∞)"), N_("Fails with a message when the classes overlap.")),
        ),
    ),
    compared=True,
)
