"""The probabilistic discriminative models' equations (sections 4.3-4.5): logistic, softmax, probit
and Bayesian logistic regression, with how their weights were found (IRLS or gradient descent).
"""

import numpy as np

from ui.text.convention import book_classes, book_decision, book_weights
from ui.text.i18n import _
from ui.text.names import class_name, phrased

from .core import (
    Equation,
    T,
    _classes_listed,
    _p,
    _then,
    a_k,
    affine,
    aligned,
    class_number,
    matrix,
    number,
    values_at,
    vector,
)


def _iteration_note(model, newton):
    """(step shown, a sentence on the run): Newton steps (``newton``) or gradient steps."""
    step = getattr(model, "step_", model.n_iter_)
    if step != model.n_iter_:
        if newton:
            note = _("Playback: the weights after {step} of {total} Newton steps.")
        else:
            note = _("Playback: the weights after {step} of {total} gradient steps.")
        return step, note.format(step=step, total=model.n_iter_)
    if newton:
        note = _("{n} Newton steps; converged.") if model.converged_ else _("{n} Newton steps; did not converge.")
    else:
        note = _("{n} gradient steps; converged.") if model.converged_ else _("{n} gradient steps; did not converge.")
    return step, note.format(n=model.n_iter_)


def _inputs(space):
    """What follows the 1 in φ = (1, ...): x itself, or the basis's features φ(x)."""
    return "x" if space.is_inputs else "φ(x)"


def _solver(model, multiclass):
    l2 = float(model.l2)
    grad = r"\nabla E" if not multiclass else r"\nabla_{\mathbf{w}_j}E"
    if model.solver == "irls":
        if multiclass:
            latex = (
                r"\mathbf{w}^{(\text{new})} = \mathbf{w}^{(\text{old})} - \mathbf{H}^{-1}\nabla E,\quad "
                r"\nabla_{\mathbf{w}_k}\nabla_{\mathbf{w}_j}E = \sum_n y_{nk}(I_{kj} - y_{nj})"
                r"\boldsymbol{\phi}_n\boldsymbol{\phi}_n" + T
            )
            number_ = "4.110"
        else:
            penalty = "" if l2 == 0 else rf" + {number(l2)}\,\mathbf{{I}}'"
            latex = (
                r"\mathbf{w}^{(\text{new})} = \mathbf{w}^{(\text{old})} - (\boldsymbol{\Phi}"
                + T
                + r"\mathbf{R}\boldsymbol{\Phi}"
                + penalty
                + r")^{-1}\boldsymbol{\Phi}"
                + T
                + r"(\mathbf{y} - \mathbf{t})"
                + ("" if l2 == 0 else r" + \dots")
            )
            number_ = "4.99"
        title, newton = _("IRLS update (Newton-Raphson)"), True
    else:
        if multiclass:
            latex = rf"{grad} = \sum_n (y_{{nj}} - t_{{nj}})\boldsymbol{{\phi}}_n"
            number_ = "4.109"
        else:
            latex = rf"{grad}(\mathbf{{w}}) = \sum_n (y_n - t_n)\boldsymbol{{\phi}}_n"
            number_ = "4.91"
        latex += r",\qquad \mathbf{w} \leftarrow \mathbf{w} - \eta\,\frac{1}{N}\nabla E,\quad \eta = " + number(
            model.learning_rate
        )
        title, newton = _("Gradient descent"), False
    step, note = _iteration_note(model, newton)
    if l2 > 0:
        note += " " + _("With a penalty (λ/2)‖w‖² on the non-bias weights, λ = {l2}.").format(l2=f"{l2:g}")
    return step, Equation(title, latex, number_, note)


def logistic_equations(model, space):
    first, second = book_classes(model)
    weights = book_weights(model, model.weights_)
    phi = r"\boldsymbol{\phi}"
    yield Equation(
        _("Logistic regression"),
        rf"{_p(first, phi)} = \sigma(\mathbf{{w}}{T}{phi}) = \sigma\left("
        + affine(weights[0], weights[1:], space)
        + r"\right)",
        "4.87",
        _then(
            _(
                "φ = (1, {inputs}) so that w₀ is the bias; t = 1 for class {first} (C₁), 0 for class {second} (C₂)."
            ).format(inputs=_inputs(space), first=class_number(first), second=class_number(second)),
            model.fit_message_,
        ),
    )
    step, update = _solver(model, multiclass=False)
    yield update
    log_likelihood = model.history_[step]["log_likelihood"]
    yield Equation(
        _("Cross-entropy error"),
        r"E(\mathbf{w}) = -\ln p(\mathbf{t}\mid\mathbf{w}) = -\sum_n\{t_n\ln y_n + (1 - t_n)\ln(1 - y_n)\} = "
        + number(-log_likelihood),
        "4.90",
    )


def softmax_equations(model, space):
    classes = model.classes_
    weights = np.asarray(model.weights_, dtype=float)
    phi = r"\boldsymbol{\phi}"
    lines = [rf"a_{{{class_number(c)}}} &= " + affine(w[0], w[1:], space) for c, w in zip(classes, weights)]
    yield Equation(
        _("Activations"),
        rf"a_k = \mathbf{{w}}_k{T}{phi}:\quad " + aligned(lines),
        "4.105",
        _("Row k of W = (w₀, w₁, …): only differences between the wₖ matter."),
    )
    yield Equation(
        _("Weight matrix"),
        r"\mathbf{W} = " + matrix(weights),
        None,
        _("One row per class ({classes}), bias first.").format(classes=_classes_listed(classes)),
    )
    yield Equation(
        _("Posterior (softmax)"),
        rf"p(\mathcal{{C}}_k\mid{phi}) = y_k({phi}) = \frac{{\exp(a_k)}}{{\sum_j\exp(a_j)}}",
        "4.104",
        phrased(model.fit_message_, name=class_name) or None,
    )
    step, update = _solver(model, multiclass=True)
    yield update
    yield Equation(
        _("Cross-entropy error"),
        r"E(\mathbf{w}_1,\dots,\mathbf{w}_K) = -\sum_n\sum_k t_{nk}\ln y_{nk} = "
        + number(-model.history_[step]["log_likelihood"]),
        "4.108",
    )


def probit_equations(model, space):
    first, second = book_classes(model)
    weights = book_weights(model, model.weights_)
    phi = r"\boldsymbol{\phi}"
    yield Equation(
        _("Probit regression"),
        rf"{_p(first, phi)} = \Phi(\mathbf{{w}}{T}{phi}) = \Phi\left("
        + affine(weights[0], weights[1:], space)
        + r"\right),\quad \Phi(a) = \int_{-\infty}^{a}\mathcal{N}(\theta\mid 0, 1)\,d\theta",
        "4.114",
        _then(
            _(
                "φ = (1, {inputs}); t = 1 for class {first} (C₁), 0 for class {second} (C₂). Φ is the standard "
                "normal's distribution function (the inverse probit)."
            ).format(inputs=_inputs(space), first=class_number(first), second=class_number(second)),
            model.fit_message_,
        ),
    )
    step, note = _iteration_note(model, model.solver == "irls")
    if model.solver == "irls":
        latex = (
            r"\mathbf{w}^{(\text{new})} = \mathbf{w}^{(\text{old})} - \mathbf{H}^{-1}\nabla E,\quad "
            r"\mathbf{H} = \sum_n \lambda_n(\lambda_n + z_n)\boldsymbol{\phi}_n\boldsymbol{\phi}_n" + T
        )
        note += " " + _("λₙ = N(zₙ|0,1)/Φ(zₙ), zₙ = ±wᵀφₙ (+ for C₁): IRLS with these weights in place of yₙ(1 − yₙ).")
        yield Equation(_("Newton-Raphson update"), latex, "4.92", note)
    else:
        descent = r"\mathbf{w} \leftarrow \mathbf{w} - \eta\,\frac{1}{N}\nabla E"
        yield Equation(_("Gradient descent"), descent, None, note)
    yield Equation(
        _("Cross-entropy error"),
        r"E(\mathbf{w}) = -\sum_n\{t_n\ln\Phi(a_n) + (1 - t_n)\ln\Phi(-a_n)\} = "
        + number(-model.history_[step]["log_likelihood"]),
        None,
        _("The logistic regression error (eq. 4.90) with Φ in place of σ; Φ(−a) = 1 − Φ(a)."),
    )


def bayesian_logistic_equations(model, space):
    first, second = book_classes(model)
    weights = book_weights(model, model.weights_)
    alpha = float(model.alpha)
    yield Equation(
        _("Prior"),
        r"p(\mathbf{w}) = \mathcal{N}(\mathbf{w}\mid\mathbf{0}, \alpha^{-1}\mathbf{I}),\quad \alpha = " + number(alpha),
        "4.140",
        _("m₀ = 0 and S₀ = α⁻¹I, over every weight, the bias w₀ included."),
    )
    yield Equation(
        _("Log posterior"),
        r"\ln p(\mathbf{w}\mid\mathbf{t}) = -\frac{\alpha}{2}\mathbf{w}" + T + r"\mathbf{w} + "
        r"\sum_n\{t_n\ln y_n + (1 - t_n)\ln(1 - y_n)\} + \text{const} = "
        + number(model.log_posterior_)
        + r" + \text{const}",
        "4.142",
        _(
            "yₙ = σ(wᵀφₙ), t = 1 for class {first} (C₁), 0 for class {second} (C₂); the value is at w_MAP, the "
            "constant being the normaliser ln p(t)."
        ).format(first=class_number(first), second=class_number(second)),
    )
    if model.converged_:
        found = _("Found by Newton's method; {n} steps, converged.").format(n=model.n_iter_)
    elif model.fit_message_:
        found = _("Found by Newton's method; {message}").format(message=phrased(model.fit_message_, name=class_name))
    else:
        found = _("Found by Newton's method; did not converge.")
    yield Equation(_("Mode (MAP weights)"), r"\mathbf{w}_{\text{MAP}} = " + vector(weights), None, found)
    yield from _laplace(model, first)


def _laplace(model, first):
    """The Laplace approximation around w_MAP, its evidence and the predictive it gives (section 4.5)."""
    phi = r"\boldsymbol{\phi}"
    yield Equation(
        _("Laplace covariance"),
        r"\mathbf{S}_N^{-1} = \alpha\mathbf{I} + \sum_n y_n(1 - y_n)\boldsymbol{\phi}_n\boldsymbol{\phi}_n"
        + T
        + r",\quad \mathbf{S}_N = "
        + matrix(model.covariance_),
        "4.143",
        _("The negative Hessian of ln p(w|t) at w_MAP (rows and columns w₀, w₁, …); unchanged by the book's sign."),
    )
    yield Equation(
        _("Laplace approximation"),
        r"q(\mathbf{w}) = \mathcal{N}(\mathbf{w}\mid\mathbf{w}_{\text{MAP}}, \mathbf{S}_N)",
        "4.144",
    )
    yield Equation(
        _("Log evidence (Laplace)"),
        r"\ln p(\mathbf{t}\mid\alpha) \simeq \ln p(\mathbf{t}\mid\mathbf{w}_{\text{MAP}}) + "
        r"\ln p(\mathbf{w}_{\text{MAP}}) + \frac{M}{2}\ln 2\pi - \frac{1}{2}\ln|\mathbf{S}_N^{-1}| = "
        + number(model.log_evidence_),
        "4.137",
        _("M = {m} weights; compare it across α to choose the prior.").format(m=model.coef_.shape[1] + 1),
    )
    yield Equation(
        _("Predictive distribution"),
        rf"{_p(first, phi)} \simeq \sigma\big(\kappa(\sigma_a^2)\,\mu_a\big),\quad "
        rf"\mu_a = \mathbf{{w}}_{{\text{{MAP}}}}{T}{phi},\ \sigma_a^2 = {phi}{T}\mathbf{{S}}_N{phi},\ "
        r"\kappa(\sigma^2) = (1 + \pi\sigma^2/8)^{-1/2}",
        "4.149-4.155",
        _(
            "σ(a) averaged over a ~ N(μₐ, σₐ²) (eq. 4.151), with σ approximated by the probit Φ(λa), λ² = π/8 "
            "(eq. 4.152-4.153). The boundary p = 0.5 is μₐ = 0, the MAP boundary; only the probabilities relax."
        ),
    )


# -- at a point --------------------------------------------------------------------------------------


def _activation(inner, features, head, number_):
    a = float(book_decision(inner, features)[0])
    return Equation(
        _("Activation at the point"), head + rf"a = \mathbf{{w}}{T}\boldsymbol{{\phi}} = {number(a)}", number_
    )


def logistic_point(inner, features, classes, head):
    weights = book_weights(inner, inner.weights_)
    a = float(weights[0] + features[0] @ weights[1:])
    yield Equation(
        _("Activation at the point"), head + rf"a = \mathbf{{w}}{T}\boldsymbol{{\phi}} = {number(a)}", "4.87"
    )


def probit_point(inner, features, classes, head):
    yield _activation(inner, features, head, "4.114")


def softmax_point(inner, features, classes, head):
    a = inner.weights_[:, 0] + features[0] @ inner.weights_[:, 1:].T
    yield Equation(_("Activations at the point"), head + values_at(a_k, a, classes), "4.105")


def bayesian_logistic_point(inner, features, classes, head):
    """The activation's mean and variance (4.149-4.150) and the MAP's over-confident posterior."""
    _mean, variance = inner.predictive_moments(features)
    mu, var = float(book_decision(inner, features)[0]), float(variance[0])
    kappa = float(1.0 / np.sqrt(1.0 + np.pi * var / 8.0))
    p_map = float(inner.predict_proba_map(features)[0, 0])
    first = int(classes[0])
    yield Equation(
        _("Activation at the point"),
        head
        + rf"\mu_a = {number(mu)},\ \sigma_a^2 = {number(var)},\ \kappa = {number(kappa)},\ "
        + rf"\sigma(\mu_a) = {number(p_map)}",
        "4.149-4.150",
        _(
            "σ(μₐ) is the MAP p(C{first}|x), over-confident where σₐ² is large; the posterior below is σ(κμₐ) "
            "(eq. 4.155)."
        ).format(first=first + 1),
    )
