"""The probabilistic generative models' equations (section 4.2): Gaussian classes with shared or
separate covariances and naive Bayes, with the fitted model's own numbers.
"""

import numpy as np

from ui.text.convention import book_weights
from ui.text.i18n import _

from .core import (
    HALF,
    MAX_ENTRIES,
    MAX_TERMS,
    PER_LINE,
    SHORT,
    Equation,
    Space,
    T,
    _classes_listed,
    _means,
    _more,
    _p,
    _plus,
    _posterior_rule,
    _priors,
    _ridge_note,
    a_k,
    affine,
    aligned,
    class_number,
    cls,
    matrix,
    number,
    side_by_side,
    values_at,
    vector,
)


def _shared_covariance(model):
    """The maximum-likelihood Σ (eq. 4.78-4.79), with the ridge the fit added."""
    yield Equation(
        _("Shared covariance"),
        r"\boldsymbol{\Sigma} = \sum_k \frac{N_k}{N}\mathbf{S}_k = " + matrix(model.covariance_),
        "4.78-4.79",
        _ridge_note(float(getattr(model, "ridge_", 0.0))),
    )


def shared_gaussian_equations(model, space, covariance=_shared_covariance):
    """The shared-covariance model (eq. 4.65-4.80). ``covariance``: the equations that give the Σ
    the rest uses, where a method estimates it otherwise (a shrunk Σ)."""
    yield _priors(model)
    yield _means(model, space)
    yield from covariance(model)
    classes = model.classes_
    vec = space.vector
    sigma = r"\boldsymbol{\Sigma}^{-1}"
    if len(classes) == 2:
        a, b = classes  # C1 and C2 (ui.text.convention)
        mu_a, mu_b = (rf"\boldsymbol{{\mu}}_{{{class_number(c)}}}" for c in (a, b))
        w, w0 = book_weights(model, np.ravel(model.coef_)), float(book_weights(model, np.ravel(model.intercept_))[0])
        roles = _("Class {first} plays the book's C₁ and class {second} its C₂.").format(
            first=class_number(a), second=class_number(b)
        )
        yield Equation(_("Weight vector"), rf"\mathbf{{w}} = {sigma}({mu_a} - {mu_b}) = " + vector(w), "4.66", roles)
        yield Equation(
            _("Bias"),
            rf"w_0 = -{HALF}{mu_a}{T}{sigma}{mu_a} + {HALF}{mu_b}{T}{sigma}{mu_b} + "
            + rf"\ln\frac{{p({cls(a)})}}{{p({cls(b)})}} = {number(w0)}",
            "4.67",
        )
        yield Equation(
            _("Posterior"),
            rf"{_p(a, vec)} = \sigma(\mathbf{{w}}{T}{vec} + w_0) = \sigma\left(" + affine(w0, w, space) + r"\right)",
            "4.65",
            _(
                "p(C{second}|x) = 1 − p(C{first}|x); the boundary is the line wᵀx + w₀ = 0, with class {first} where "
                "it is ≥ 0."
            ).format(first=class_number(a), second=class_number(b)),
        )
        return
    lines = [rf"\mathbf{{w}}_{{{class_number(c)}}} = " + vector(w) for c, w in zip(classes, model.class_coef_)]
    yield Equation(
        _("Weight vectors"),
        rf"\mathbf{{w}}_k = {sigma}\boldsymbol{{\mu}}_k:\quad "
        + side_by_side(lines, PER_LINE if len(space.names) <= SHORT else 1),
        "4.69",
    )
    biases = [rf"w_{{{class_number(c)}0}} = {number(w0)}" for c, w0 in zip(classes, model.class_intercept_)]
    yield Equation(
        _("Biases"),
        rf"w_{{k0}} = -{HALF}\boldsymbol{{\mu}}_k{T}{sigma}\boldsymbol{{\mu}}_k + \ln p(\mathcal{{C}}_k):\quad "
        + side_by_side(biases),
        "4.70",
    )
    lines = [
        rf"a_{{{class_number(c)}}}({vec}) &= " + affine(w0, w, space)
        for c, w, w0 in zip(classes, model.class_coef_, model.class_intercept_)
    ]
    linear_in = "x" if space.is_inputs else "φ"
    note = _("Linear in {symbol}: the quadratic terms cancel.").format(symbol=linear_in)
    yield Equation(_("Activations"), aligned(lines), "4.68", note)
    yield _posterior_rule(classes, vec, "4.62")


def _log_det(covariance, ridge):
    """ln|Sigma + ridge I| (the covariance the model solved with), for the constant of a_k."""
    sign, value = np.linalg.slogdet(np.asarray(covariance, dtype=float) + ridge * np.eye(np.shape(covariance)[0]))
    return value if sign > 0 else -np.inf


def separate_gaussian_equations(model, space):
    yield _priors(model)
    yield _means(model, space)
    classes = model.classes_
    ridges = np.ravel(getattr(model, "ridges_", np.zeros(len(classes))))
    items = [
        rf"\boldsymbol{{\Sigma}}_{{{class_number(c)}}} = " + matrix(s) for c, s in zip(classes, model.covariances_)
    ]
    note = _("Each class's own maximum-likelihood covariance.")
    if np.any(ridges > 0):
        note += " " + _("Ridges added to the diagonals: {ridges}.").format(ridges=", ".join(f"{r:.4g}" for r in ridges))
    dim = np.shape(model.means_)[1]
    yield Equation(_("Class covariances"), side_by_side(items, 2 if dim <= SHORT else 1), "4.80", note)
    vec = space.vector
    lines = []
    for k, c in enumerate(classes):
        constant = -0.5 * _log_det(model.covariances_[k], ridges[k]) - 0.5 * dim * np.log(2 * np.pi)
        constant += np.log(model.priors_[k])
        if dim <= SHORT:  # small enough to write the numbers in
            mean, covariance = vector(model.means_[k]), matrix(model.covariances_[k])
        else:  # in feature space: the symbols, whose numbers are printed above
            mean, covariance = (rf"\boldsymbol{{{s}}}_{{{class_number(c)}}}" for s in (r"\mu", r"\Sigma"))
        centred = rf"\left({vec} - {mean}\right)"
        lines.append(
            rf"a_{{{class_number(c)}}}({vec}) &= -{HALF}{centred}{T}{covariance}^{{-1}}{centred}" + _plus(constant)
        )
    yield Equation(
        _("Activations (quadratic)"),
        aligned(lines, gap="6pt"),
        "4.63-4.64",
        _(
            "aₖ(x) = ln p(x|Cₖ) + ln p(Cₖ); the constant is −½ln|Σₖ| − (D/2)ln 2π + ln p(Cₖ). "
            "The quadratic terms differ between classes, so the boundaries are conics (figure 4.11)."
        ),
    )
    yield _posterior_rule(classes, vec, "4.62")


def naive_bayes_equations(model, space):
    yield _priors(model)
    if model.variant == "bernoulli":
        yield from _bernoulli_naive_bayes(model, space)
    else:
        yield from _gaussian_naive_bayes(model, space)
    yield _posterior_rule(model.classes_, space.vector, "4.62")


def _bernoulli_naive_bayes(model, space):
    """Naive Bayes on thresholded inputs: binary features, their probabilities, linear activations (4.81-4.82)."""
    classes, vec = model.classes_, space.vector
    dim = np.size(model.thresholds_)
    bits = side_by_side(
        (
            rf"b_{{{i + 1}}} = [\,{space.name(i)} > {number(t)}\,]"
            for i, t in enumerate(model.thresholds_[:MAX_ENTRIES])
        ),
        per_line=MAX_ENTRIES,
    ) + _more(max(dim - MAX_ENTRIES, 0))
    yield Equation(_("Binary features"), bits, None, _("Each input is thresholded (by default at its mean)."))
    rows = r"\mu_{ki} = p(b_i = 1\mid\mathcal{C}_k) = " + matrix(model.feature_prob_)
    yield Equation(
        _("Feature probabilities"),
        r"p(\mathbf{b}\mid\mathcal{C}_k) = \prod_i \mu_{ki}^{b_i}(1 - \mu_{ki})^{1 - b_i},\qquad " + rows,
        "4.81",
        _("One row per class ({classes}); Laplace-smoothed with α = {alpha}.").format(
            classes=_classes_listed(classes), alpha=f"{model.alpha:g}"
        ),
    )
    bit_space = Space(r"\mathbf{b}", tuple(f"b_{{{i + 1}}}" for i in range(dim)))
    lines = [
        rf"a_{{{class_number(c)}}}({vec}) &= " + affine(b0, w, bit_space)
        for c, w, b0 in zip(classes, model.feature_coef_, model.feature_intercept_)
    ]
    yield Equation(
        _("Activations (linear in b)"),
        r"a_k = \sum_i \{b_i\ln\mu_{ki} + (1 - b_i)\ln(1 - \mu_{ki})\} + \ln p(\mathcal{C}_k):\quad " + aligned(lines),
        "4.82",
        _("Linear in the binary features, so the boundaries in the plane are axis-aligned steps."),
    )


def _gaussian_naive_bayes(model, space):
    """Naive Bayes with a 1-D Gaussian per feature and class: means, variances, activations (4.63, 4.75, 4.80)."""
    classes, vec = model.classes_, space.vector
    yield Equation(
        _("Per-feature means"),
        r"\mu_{ki} = " + matrix(model.means_),
        "4.75",
        _("One row per class, one column per feature: each feature has its own 1-D Gaussian per class."),
    )
    yield Equation(
        _("Per-feature variances"),
        r"\sigma^2_{ki} = " + matrix(model.variances_),
        "4.80",
        _(
            "The diagonal of Σₖ (naive Bayes: features independent given the class), each plus ε = {epsilon} so "
            "that none is zero."
        ).format(epsilon=f"{model.epsilon_:.4g}"),
    )
    lines = []
    fractions = MAX_TERMS - 1  # stacked fractions are wide
    for c, mu, var, prior in zip(classes, model.means_, model.variances_, model.priors_):
        terms = [
            rf"\frac{{({space.name(i)} {'-' if m >= 0 else '+'} {number(abs(m))})^2}}{{2\cdot {number(v)}}}"
            for i, (m, v) in enumerate(zip(mu[:fractions], var[:fractions]))
        ]
        constant = -0.5 * np.sum(np.log(2 * np.pi * np.asarray(var))) + np.log(prior)
        hidden = _more(max(len(mu) - fractions, 0), terms=True)
        lines.append(rf"a_{{{class_number(c)}}}({vec}) &= -" + " - ".join(terms) + hidden + _plus(constant))
    yield Equation(
        _("Activations"),
        aligned(lines, gap="6pt"),
        "4.63",
        _("aₖ(x) = Σᵢ ln N(xᵢ|μₖᵢ, σ²ₖᵢ) + ln p(Cₖ): a diagonal-covariance Gaussian, so the boundaries are conics."),
    )


# -- at a point --------------------------------------------------------------------------------------


def _activations(inner, features, classes, head, number_):
    a = inner.activations(features)[0]
    return Equation(_("Activations at the point"), head + values_at(a_k, a, classes), number_)


def gaussian_shared_point(inner, features, classes, head):
    yield _activations(inner, features, classes, head, "4.68")


def gaussian_separate_point(inner, features, classes, head):
    yield _activations(inner, features, classes, head, "4.63")


def naive_bayes_point(inner, features, classes, head):
    yield _activations(inner, features, classes, head, "4.82" if inner.variant == "bernoulli" else "4.63")
