"""The discriminant functions' equations (section 4.1): least squares, Fisher's discriminant and the
perceptron, with the fitted model's own numbers.
"""

import numpy as np

from ui.text.convention import book_classes, book_fisher, book_least_squares_outputs, book_weights, book_weights_at
from ui.text.i18n import _, ngettext

from .core import (
    HALF,
    Equation,
    T,
    _means,
    _plus,
    _then,
    affine,
    aligned,
    class_number,
    decision_at,
    matrix,
    number,
    values_at,
    vector,
    y_k,
)
from .probabilistic import _inputs


def least_squares_equations(model, space):
    classes = model.classes_
    fisher_targets = np.shape(model.weights_)[1] == 1
    # Section 4.1.5's single output in the book's sign (t = N/N1 for C1); 1-of-K outputs as they are.
    weights = book_weights(model, model.weights_) if fisher_targets else np.asarray(model.weights_, dtype=float)
    rank = getattr(model, "rank_", None)
    note = _("Row 0 holds the biases; computed by an SVD (numpy lstsq), never an explicit inverse.")
    if rank is not None and rank < weights.shape[0]:
        note += " " + _("X̃ has rank {rank} < {size}, so this is the minimum-norm solution X̃†T.").format(
            rank=rank, size=weights.shape[0]
        )
    if fisher_targets:
        first, second = book_classes(model)
        note += " " + _(
            "Targets t = N/N₁ for class {first} (C₁) and −N/N₂ for class {second} (C₂) (section 4.1.5): w is "
            "parallel to Fisher's direction (eq. 4.37)."
        ).format(first=class_number(first), second=class_number(second))
    yield Equation(
        _("Least-squares weights"),
        r"\widetilde{\mathbf{W}} = (\widetilde{\mathbf{X}}"
        + T
        + r"\widetilde{\mathbf{X}})^{-1}\widetilde{\mathbf{X}}"
        + T
        + r"\mathbf{T} = "
        + matrix(weights),
        "4.16",
        note,
    )
    vec = space.vector
    if weights.shape[1] == 1:
        latex = rf"y({vec}) = \widetilde{{\mathbf{{w}}}}{T}\widetilde{{{vec}}} = " + affine(
            weights[0, 0], weights[1:, 0], space
        )
        rule = _("Class {first} (C₁) where y ≥ 0, else class {second}.").format(
            first=class_number(classes[0]), second=class_number(classes[1])
        )
    else:
        lines = [
            rf"y_{{{class_number(c)}}}({vec}) &= " + affine(weights[0, k], weights[1:, k], space)
            for k, c in enumerate(classes)
        ]
        latex = (
            r"\mathbf{y}("
            + vec
            + r") = \widetilde{\mathbf{W}}"
            + T
            + r"\widetilde{"
            + vec
            + "}:"
            + r"\quad "
            + aligned(lines)
        )
        rule = _("x goes to the class whose output yₖ is largest (eq. 4.9); the outputs are not probabilities.")
    augmented = "x̃ = (1, x)." if space.is_inputs else _("Here x̃ = (1, φ(x)): the features with a 1 for the bias.")
    yield Equation(_("Discriminants"), latex, "4.17", f"{rule} {augmented}")


def fisher_equations(model, space):
    classes = model.classes_
    yield _means(model, space, r"\mathbf{m}", "4.21")
    two = len(classes) == 2
    yield Equation(
        _("Within-class scatter"),
        r"\mathbf{S}_W = \sum_k \sum_{n\in\mathcal{C}_k} (\mathbf{x}_n - \mathbf{m}_k)(\mathbf{x}_n - \mathbf{m}_k)"
        + T
        + " = "
        + matrix(model.within_class_scatter_),
        "4.28" if two else "4.40",
        _("Numerical rank {rank}.").format(rank=model.rank_)
        if model.rank_ < np.shape(model.within_class_scatter_)[0]
        else None,
    )
    if two:
        yield from _fisher_two_classes(model, space)
    else:
        yield from _fisher_many_classes(model, space)


def _fisher_two_classes(model, space):
    """Fisher's direction, its criterion and the threshold on the projection (section 4.1.4)."""
    classes, vec = model.classes_, space.vector
    a, b = classes
    fisher = book_fisher(model)
    m_a, m_b = (rf"\mathbf{{m}}_{{{class_number(c)}}}" for c in (a, b))
    yield Equation(
        _("Fisher's direction"),
        rf"\mathbf{{w}} \propto \mathbf{{S}}_W^{{-1}}({m_a} - {m_b}),\qquad \hat{{\mathbf{{w}}}} = "
        + vector(fisher.direction),
        "4.30",
        _then(
            _(
                "Scaled to unit length, pointing from the mean of class {second} to that of class {first} (C₁), "
                "so that y ≥ y₀ means C₁ as in section 4.1.4; eq. 4.30 writes m₂ − m₁, and the sign is free: "
                "J(w) = J(−w)."
            ).format(first=class_number(a), second=class_number(b)),
            model.fit_message_,
        ),
    )
    yield Equation(
        _("Fisher criterion"),
        r"J(\hat{\mathbf{w}}) = \frac{\hat{\mathbf{w}}"
        + T
        + r"\mathbf{S}_B\hat{\mathbf{w}}}{\hat{\mathbf{w}}"
        + T
        + r"\mathbf{S}_W\hat{\mathbf{w}}} = "
        + number(model.eigenvalues_[0]),
        "4.26",
        _("S_B = (m₂ − m₁)(m₂ − m₁)ᵀ (eq. 4.27); ŵ is the direction that maximises J."),
    )
    low, high = (number(v) for v in fisher.projected_means)
    low_plus_high = number(fisher.projected_means[0]) + _plus(fisher.projected_means[1])  # no "+ -1.2"
    if model.threshold == "gaussian" and not (model.fit_message_ and "midpoint" in model.fit_message_):
        how = _(
            "Where the two 1-D Gaussians fitted to the projected classes, times their priors, are equal "
            "(the root between the projected means {low} and {high})."
        ).format(low=low, high=high)
        cut = rf"y_0 = {number(fisher.threshold)}"
    else:
        how = _("Halfway between the projected class means (the midpoint threshold).")
        w_hat = r"\hat{\mathbf{w}}" + T
        cut = rf"y_0 = {HALF}({w_hat}{m_a} + {w_hat}{m_b}) = {HALF}({low_plus_high}) = {number(fisher.threshold)}"
    yield Equation(
        _("Projection and threshold"),
        rf"y = \hat{{\mathbf{{w}}}}{T}{vec} = " + affine(None, fisher.direction, space) + r",\qquad " + cut,
        "4.20",
        _("Class {first} (C₁) where y ≥ y₀, else class {second}.").format(first=class_number(a), second=class_number(b))
        + f" {how}",
    )


def _fisher_many_classes(model, space):
    """The K − 1 projections and the nearest projected mean as linear discriminants (section 4.1.6)."""
    classes, vec = model.classes_, space.vector
    yield Equation(
        _("Between-class scatter"),
        r"\mathbf{S}_B = \sum_k N_k(\mathbf{m}_k - \mathbf{m})(\mathbf{m}_k - \mathbf{m})"
        + T
        + " = "
        + matrix(model.between_class_scatter_),
        "4.43",
    )
    yield Equation(
        _("Projection"),
        rf"\mathbf{{y}} = \mathbf{{W}}{T}{vec},\qquad \mathbf{{W}} = " + matrix(model.directions_),
        "4.39",
        _then(
            _(
                "The columns are the leading eigenvectors of S_W⁻¹S_B (unit length), maximising J(W) (eq. 4.51); "
                "their eigenvalues are {values}."
            ).format(values=", ".join(f"{v:.4g}" for v in model.eigenvalues_)),
            model.fit_message_,
        ),
    )
    if model.threshold == "gaussian":
        rule = _(
            "x goes to the class whose projected mean is nearest (in units of the pooled within-class spread along "
            "each direction, plus ln p(Cₖ)): the largest yₖ(x)."
        )
    else:
        rule = _(
            "x goes to the class whose projected mean is nearest (in units of the pooled within-class spread along "
            "each direction): the largest yₖ(x)."
        )
    lines = [
        rf"y_{{{class_number(c)}}}({vec}) &= " + affine(b0, w, space)
        for c, w, b0 in zip(classes, model.coef_, model.intercept_)
    ]
    yield Equation(
        _("Nearest projected mean, as linear discriminants"),
        aligned(lines),
        "4.9",
        rule,
    )


def perceptron_equations(model, space):
    first, second = book_classes(model)
    weights = book_weights(model, model.weights_)
    phi = r"\boldsymbol{\phi}" if space.is_inputs else r"\widetilde{\boldsymbol{\phi}}"
    yield Equation(
        _("Perceptron"),
        rf"y({space.vector}) = f(\mathbf{{w}}{T}{phi}) = f\left(" + affine(weights[0], weights[1:], space) + r"\right)",
        "4.52-4.53",
        _(
            "f(a) = +1 (class {first}, C₁) for a ≥ 0 and −1 (class {second}, C₂) otherwise; φ = (1, {inputs}) so "
            "that w₀ is the bias."
        ).format(first=class_number(first), second=class_number(second), inputs=_inputs(space)),
    )
    step = getattr(model, "step_", model.n_iter_)
    if step > 0 and model.history_:
        wrong = model.history_[step - 1]["errors"]
        yield Equation(
            _("Perceptron criterion"),
            r"E_P(\mathbf{w}) = -\sum_{n\in\mathcal{M}} \mathbf{w}"
            + T
            + rf"\boldsymbol{{\phi}}_n t_n,\qquad |\mathcal{{M}}| = {wrong}",
            "4.54",
            _(
                "𝓜 is the set of misclassified training points; tₙ = +1 for class {first} and −1 for class {second}."
            ).format(first=class_number(first), second=class_number(second)),
        )
    if step != model.n_iter_:
        run = _("Playback: the weights after {step} of {total} updates.").format(step=step, total=model.n_iter_)
    else:
        # The epochs that made updates, as the player and the chart of the playback tab count them;
        # a converged run adds one epoch without a mistake, said in words.
        epochs = sum(1 for count in model.errors_per_epoch_ if count)
        counts = dict(
            updates=ngettext("{n} update", "{n} updates", model.n_iter_).format(n=model.n_iter_),
            epochs=ngettext("{n} epoch", "{n} epochs", epochs).format(n=epochs),
        )
        if model.converged_:
            run = _("{updates} in {epochs}, then a whole epoch without a mistake: it converged.").format(**counts)
        else:
            run = _("{updates} in {epochs}; it did not converge (the last weights are kept).").format(**counts)
    yield Equation(
        _("Update rule"),
        r"\mathbf{w}^{(\tau+1)} = \mathbf{w}^{(\tau)} + \eta\,\boldsymbol{\phi}_n t_n,\qquad \eta = "
        + number(model.eta)
        + r",\quad \mathbf{w}^{(0)} = "
        + vector(book_weights_at(model, 0)),
        "4.55",
        run,
    )


# -- at a point --------------------------------------------------------------------------------------


def least_squares_point(inner, features, classes, head):
    outputs = book_least_squares_outputs(inner, features)[0]
    latex = rf"y(\mathbf{{x}}) = {number(outputs[0])}" if outputs.size == 1 else values_at(y_k, outputs, classes)
    yield Equation(_("Outputs at the point"), head + latex, "4.17")


def fisher_point(inner, features, classes, head):
    """Two classes: the projection and its distance from the threshold (eq. 4.20); more: the
    decisions."""
    if classes.size != 2:
        yield decision_at(inner, features, classes, head)
        return
    fisher = book_fisher(inner)
    projection = float(features[0] @ fisher.direction)
    yield Equation(
        _("Projection at the point"),
        head
        + rf"y = \hat{{\mathbf{{w}}}}{T}\mathbf{{x}} = {number(projection)},\quad y - y_0 = "
        + number(projection - fisher.threshold),
        "4.20",
    )


def perceptron_point(inner, features, classes, head):
    yield decision_at(inner, features, classes, head, rf"\mathbf{{w}}{T}\boldsymbol{{\phi}}", "4.52")
