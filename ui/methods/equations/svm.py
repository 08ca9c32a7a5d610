"""The linear support vector machine's equations (section 7.1), with the fitted model's own numbers."""

import numpy as np

from ui.text.convention import book_weights
from ui.text.i18n import _, ngettext
from ui.text.names import latex_text

from .core import HALF, Equation, T, affine, class_number, decision_at, number, vector


def _decision_note(model, first, second):
    """Which class is where, and how b was found: from the support vectors on the margin (eq. 7.37),
    or without any."""
    if np.any(np.asarray(model.margin_category_) == 1):
        note = _(
            "Class {first} (t = +1) where y ≥ 0, class {second} (t = −1) where y < 0; b averages tₙ − wᵀxₙ over "
            "the support vectors on the margin (eq. 7.37)."
        )
    else:
        note = _(
            "Class {first} (t = +1) where y ≥ 0, class {second} (t = −1) where y < 0; no support vector lies "
            "exactly on the margin, so b is the midpoint of the interval the KKT conditions allow."
        )
    return note.format(first=class_number(first), second=class_number(second))


def svm_equations(model, space):
    a, b = model.classes_  # C1 (t = +1) and C2 (t = -1)
    w = book_weights(model, np.ravel(model.coef_))
    bias = float(book_weights(model, np.ravel(model.intercept_))[0])
    vec = space.vector
    playback = getattr(model, "smo_step_", model.n_iter_) != model.n_iter_
    yield Equation(
        _("Decision function"),
        rf"y({vec}) = \mathbf{{w}}{T}{vec} + b = " + affine(bias, w, space),
        "7.1",
        _decision_note(model, a, b)
        + (
            " " + _("Playback: SMO step {step} of {total}.").format(step=model.smo_step_, total=model.n_iter_)
            if playback
            else ""
        ),
    )
    n_sv = int(np.size(model.support_))
    n_at_c = int(np.size(model.margin_violators_))
    yield Equation(
        _("Weights from the support vectors"),
        rf"\mathbf{{w}} = \sum_{{n\in\mathcal{{S}}}} a_n t_n {vec}_n = "
        + vector(w)
        + rf",\qquad |\mathcal{{S}}| = {n_sv}",
        "7.29",
        (
            _(
                "{n} support vectors (aₙ > 0): {n_first} of class {first}, {n_second} of class {second} (the final "
                "fit's)."
            )
            if playback
            else _("{n} support vectors (aₙ > 0): {n_first} of class {first}, {n_second} of class {second}.")
        ).format(
            n=n_sv,
            n_first=int(model.n_support_[0]),
            first=class_number(a),
            n_second=int(model.n_support_[1]),
            second=class_number(b),
        ),
    )
    yield _dual_problem(model, vec, n_sv, n_at_c)
    margin = float(model.margin_)
    yield Equation(
        _("Margin"),
        r"\frac{1}{\|\mathbf{w}\|} = " + number(margin) + r",\qquad \frac{2}{\|\mathbf{w}\|} = " + number(2 * margin),
        "7.3",
        _("1/‖w‖ is the distance from the boundary to each margin line y = ±1; 2/‖w‖ the width of the band."),
    )


def _dual_problem(model, vec, n_sv, n_at_c):
    """The dual's value at the multipliers found, its box constraint and how SMO ended (7.32-7.33)."""
    box = rf"\infty\ ({latex_text(_('hard margin'))})" if model.C is None else number(model.C)
    steps = ngettext("{n} SMO step", "{n} SMO steps", model.n_iter_).format(n=model.n_iter_)
    if model.converged_:
        multipliers = _(
            "{inside} multipliers strictly between 0 and C (support vectors on the margin), {at_c} at C (inside the "
            "margin or misclassified); {steps}, converged."
        )
    else:
        multipliers = _(
            "{inside} multipliers strictly between 0 and C (support vectors on the margin), {at_c} at C (inside the "
            "margin or misclassified); {steps}, not converged."
        )
    return Equation(
        _("Dual problem"),
        r"\widetilde{L}(\mathbf{a}) = \sum_n a_n - "
        + HALF
        + r"\sum_n\sum_m a_n a_m t_n t_m "
        + rf"{vec}_n{T}{vec}_m = "
        + number(model.dual_objective_)
        + rf",\qquad 0 \le a_n \le C = {box},\quad \sum_n a_n t_n = 0",
        "7.32-7.33",
        multipliers.format(inside=n_sv - n_at_c, at_c=n_at_c, steps=steps),
    )


def svm_point(inner, features, classes, head):
    yield decision_at(inner, features, classes, head, r"y(\mathbf{x})", "7.1")
