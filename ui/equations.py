"""A fitted model written out as equations, with its own numbers, in LaTeX and PRML's numbering.

Pure formatting: no Streamlit and no fitting. ``model_equations(model, point)`` reads a fitted
estimator's attributes (looking through a basis wrapper and a one-versus-rest / one-versus-one
wrapper) and returns a list of ``Equation``, optionally ending with the model evaluated at one
point. Classes are written with the app's numbers: global index k is class k + 1, so
``\\mathcal{C}_{2}`` is "class 2" on the canvas. Every two-class formula is in the book's
convention (``ui.convention``): of the two classes present the first plays C1, y(x) >= 0 assigns
it, t = +1 (t = 1 for logistic regression, N/N1 in section 4.1.5) is its target, p(C1|x) is the
sigmoid of the activation and w points into its region; the back-end's weights are negated there.

Degenerate or unusual fits never raise: each part of the description stops at the first
attribute it cannot read, and what was written before it is kept.
"""

import re
from dataclasses import dataclass

import numpy as np

from playground import (
    BasisModel,
    BayesianLogisticRegression,
    FisherDiscriminant,
    IdentityBasis,
    LinearSVM,
    LogisticRegression,
    NaiveBayes,
    OneVsOne,
    OneVsRest,
    Perceptron,
    PlaygroundError,
    PolynomialBasis,
    ProbitRegression,
    RBFBasis,
    SeparateCovarianceGaussian,
    SharedCovarianceGaussian,
    SoftmaxRegression,
)
from playground.least_squares import LeastSquaresClassifier

from .convention import (
    book_classes,
    book_decision,
    book_fisher,
    book_least_squares_outputs,
    book_sub_classifiers,
    book_weights,
    book_weights_at,
    is_two_class,
)
from .i18n import _, ngettext
from .names import class_name, class_name_latex, latex_text, phrased, scene_class_name

SIGNIFICANT = 4  # significant digits of every printed number
MAX_ENTRIES = 5  # entries of a long vector shown before "... (J more)"
MAX_TERMS = 4  # terms of a long sum (a model in feature space) shown before "... (J more terms)"
MAX_ROWS = 4  # rows and columns of a large matrix shown before the dots
SUM_BUDGET = 48  # visible characters of a long sum before the rest is abbreviated
SHORT = 3  # vectors up to this long are columns and sit side by side; longer ones get a line each
MAX_FEATURES_NAMED = 10  # monomials of a polynomial basis written out
PER_LINE = 3  # short class means or covariances side by side on one line
T = r"^{\mathrm{T}}"
HALF = r"\tfrac{1}{2}"

# What a part of the description may meet on an unusual fit; anything else is a bug and raises.
_UNREADABLE = (AttributeError, TypeError, ValueError, IndexError, KeyError, np.linalg.LinAlgError, PlaygroundError)


@dataclass(frozen=True)
class Equation:
    """One displayed formula.

    Attributes
    ----------
    title : str
        What it is, in words ("Shared covariance").
    latex : str
        The formula with the fitted numbers, for ``st.latex`` (KaTeX).
    number : str or None
        PRML's equation number(s), e.g. "4.66" or "4.78-4.79"; None when the book numbers none.
    note : str or None
        A sentence on how the numbers came about (plain text).
    """

    title: str
    latex: str
    number: str | None = None
    note: str | None = None


# -- numbers, vectors, matrices ----------------------------------------------------------------


def number(value):
    """``value`` with 4 significant digits: "0.1235", "-12.5", "1.2\\times 10^{-7}", "\\infty"."""
    value = float(value)
    if np.isnan(value):
        return r"\text{NaN}"
    if np.isinf(value):
        return r"\infty" if value > 0 else r"-\infty"
    if value == 0:
        return "0"  # also -0
    text = f"{value:.{SIGNIFICANT}g}"
    if "e" not in text:
        return text
    mantissa, exponent = text.split("e")
    return rf"{mantissa}\times 10^{{{int(exponent)}}}"


def _more(hidden, terms=False):
    """``\\text{(J more)}`` (or "(J more terms)") after a shortened list; nothing when all is shown."""
    if not hidden:
        return ""
    text = _("({n} more terms)") if terms else _("({n} more)")
    return r"\;" + latex_text(text.format(n=hidden))


def vector(values, limit=MAX_ENTRIES):
    """A column vector (up to 3 entries) or a transposed row, the first ``limit`` entries of a long one."""
    values = np.ravel(np.asarray(values, dtype=float))
    shown, hidden = values[:limit], max(values.size - limit, 0)
    if values.size <= SHORT:
        return r"\begin{pmatrix}" + r" \\ ".join(number(v) for v in shown) + r"\end{pmatrix}"
    entries = " & ".join(number(v) for v in shown) + (r" & \cdots" if hidden else "")
    return r"\begin{pmatrix}" + entries + r"\end{pmatrix}" + T + _more(hidden)


def matrix(values, limit=MAX_ROWS):
    """A pmatrix; beyond ``limit`` rows or columns the rest is dots and a count."""
    values = np.atleast_2d(np.asarray(values, dtype=float))
    n_rows, n_cols = values.shape
    more_rows, more_cols = n_rows > limit, n_cols > limit
    rows = []
    for row in values[:limit]:
        cells = [number(v) for v in row[:limit]] + ([r"\cdots"] if more_cols else [])
        rows.append(" & ".join(cells))
    if more_rows:
        rows.append(" & ".join([r"\vdots"] * min(n_cols, limit) + ([r"\ddots"] if more_cols else [])))
    text = r"\begin{pmatrix}" + r" \\ ".join(rows) + r"\end{pmatrix}"
    if more_rows or more_cols:
        text += rf"\;({n_rows}\times {n_cols})"
    return text


def _plus(value):
    """`` + 1.5`` or `` - 1.5``: a constant term after others."""
    return (" - " if value < 0 else " + ") + number(abs(value))


def aligned(lines, gap=""):
    """Lines aligned at their first ``&``; ``gap`` (e.g. "6pt") spaces tall lines apart."""
    lines = list(lines)
    if len(lines) == 1:
        return lines[0].replace("&", "", 1)
    separator = rf" \\[{gap}] " if gap else r" \\ "
    return r"\begin{aligned}" + separator.join(lines) + r"\end{aligned}"


def side_by_side(items, per_line=PER_LINE):
    """Short formulas, ``per_line`` to a line, separated by quads."""
    items = list(items)
    lines = [r",\quad ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return lines[0] if len(lines) == 1 else r"\begin{gathered}" + r" \\ ".join(lines) + r"\end{gathered}"


def class_number(label):
    """The app's number of a class: global index k is class k + 1."""
    return int(label) + 1


def cls(label):
    """``\\mathcal{C}_{k}`` for class label (global index) ``label``."""
    return rf"\mathcal{{C}}_{{{class_number(label)}}}"


# -- the space a model works in: x, or phi(x) on a basis --------------------------------------


@dataclass(frozen=True)
class Space:
    """How the inputs of a model are written: the vector symbol and one name per component."""

    vector: str
    names: tuple

    @classmethod
    def inputs(cls, dim):
        return cls(r"\mathbf{x}", tuple(f"x_{{{d + 1}}}" for d in range(dim)))

    def name(self, i):
        return self.names[i] if i < len(self.names) else rf"\phi_{{{i + 1}}}"

    @property
    def is_inputs(self):
        return self.vector == r"\mathbf{x}"


def visible_length(latex):
    """A rough count of the characters ``latex`` shows, to keep a long sum within the panel."""
    text = latex.replace(r"\times", "x")
    text = re.sub(r"\\[A-Za-z]+", "", text)  # \mathbf, \, and the like show nothing of their own
    return len(re.sub(r"[{}^_\\\s]", "", text))


def affine(bias, weights, space, limit=MAX_TERMS, budget=SUM_BUDGET):
    """``w0 + w1 x_1 - w2 x_2 ...`` (bias omitted when None).

    A long sum shows its first terms, at most ``limit`` of them and (after the first) no more than
    fit in ``budget`` visible characters, then "... (J more terms)".
    """
    weights = np.ravel(np.asarray(weights, dtype=float))
    terms = [] if bias is None else [number(bias)]
    shown = 0
    for i, w in enumerate(weights[:limit]):
        coefficient = number(abs(w)) if np.isfinite(w) else number(w)
        negative = w < 0 and np.isfinite(w)
        if not terms:
            term = ("-" if negative else "") + rf"{coefficient}\,{space.name(i)}"
        else:
            term = rf"{'-' if negative else '+'} {coefficient}\,{space.name(i)}"
        if shown and visible_length(" ".join(terms + [term])) > budget:
            break
        terms.append(term)
        shown += 1
    hidden = weights.size - shown
    if hidden:
        terms.append(r"+ \cdots" + _more(hidden, terms=True))
    return " ".join(terms) if terms else "0"


def text_around(sentence, symbol):
    """``sentence`` (one placeholder ``{class}``) as LaTeX: its words in ``\\text{}``, ``symbol`` in math.

    The placeholder may stand anywhere, as word order differs between languages.
    """
    before, _placeholder, after = sentence.partition("{class}")
    return (latex_text(before) + " " if before else "") + symbol + (latex_text(after) if after else "")


def _p(label, given=r"\mathbf{x}"):
    return rf"p({cls(label)}\mid {given})"


# -- the description of each method ------------------------------------------------------------


def _priors(model):
    values = side_by_side(rf"p({cls(c)}) = {number(p)}" for c, p in zip(model.classes_, model.priors_))
    by_hand = getattr(model, "priors", None) is not None
    note = _("Set by hand (normalised).") if by_hand else _("The fraction Nₖ/N of the points in each class.")
    return Equation(_("Class priors"), values, "4.73", note)


def _means(model, space, symbol=r"\boldsymbol{\mu}", number_="4.75"):
    items = (rf"{symbol}_{{{class_number(c)}}} = {vector(m)}" for c, m in zip(model.classes_, model.means_))
    per_line = PER_LINE if np.shape(model.means_)[1] <= SHORT else 1
    note = None if space.is_inputs else _("In feature space.")
    return Equation(_("Class means"), side_by_side(items, per_line), number_, note)


def _ridge_note(ridge):
    if ridge <= 0:
        return None
    return _("A ridge of {ridge} was added to the diagonal before solving.").format(ridge=number(ridge))


def _classes_listed(classes):
    """ "class 1, class 2, class 3": the classes named in the session's language."""
    return ", ".join(class_name(c) for c in classes)


def _then(note, message):
    """``note`` followed by the back-end's own message (in the session's language), when there is one."""
    return note + (f" {phrased(message, name=class_name)}" if message else "")


def _posterior_rule(classes, given, number_):
    """p(C_k|x) as the softmax of the activations (eq. 4.62), or the logistic sigmoid for two."""
    if len(classes) == 2:
        first, second = classes
        difference = rf"a = a_{{{class_number(first)}}} - a_{{{class_number(second)}}}"
        latex = rf"{_p(first, given)} = \sigma(a) = \frac{{1}}{{1 + e^{{-a}}}},\quad " + difference
        note = _("a = ln p(x|C₁)p(C₁) / p(x|C₂)p(C₂) with class {first} as C₁ (eq. 4.58).").format(
            first=class_number(first)
        )
        return Equation(_("Posterior"), latex, "4.57-4.59", note)
    return Equation(
        _("Posterior (softmax of the activations)"),
        rf"p(\mathcal{{C}}_k\mid {given}) = \frac{{\exp(a_k)}}{{\sum_j \exp(a_j)}}",
        number_,
    )


def _least_squares(model, space):
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


def _fisher(model, space):
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
    vec = space.vector
    if two:
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
            _("Class {first} (C₁) where y ≥ y₀, else class {second}.").format(
                first=class_number(a), second=class_number(b)
            )
            + f" {how}",
        )
        return
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


def _perceptron(model, space):
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


def _shared_gaussian(model, space):
    yield _priors(model)
    yield _means(model, space)
    ridge = float(getattr(model, "ridge_", 0.0))
    yield Equation(
        _("Shared covariance"),
        r"\boldsymbol{\Sigma} = \sum_k \frac{N_k}{N}\mathbf{S}_k = " + matrix(model.covariance_),
        "4.78-4.79",
        _ridge_note(ridge),
    )
    classes = model.classes_
    vec = space.vector
    sigma = r"\boldsymbol{\Sigma}^{-1}"
    if len(classes) == 2:
        a, b = classes  # C1 and C2 (ui.convention)
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


def _separate_gaussian(model, space):
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


def _naive_bayes(model, space):
    yield _priors(model)
    classes = model.classes_
    vec = space.vector
    if model.variant == "bernoulli":
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
            r"a_k = \sum_i \{b_i\ln\mu_{ki} + (1 - b_i)\ln(1 - \mu_{ki})\} + \ln p(\mathcal{C}_k):\quad "
            + aligned(lines),
            "4.82",
            _("Linear in the binary features, so the boundaries in the plane are axis-aligned steps."),
        )
    else:
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
            _(
                "aₖ(x) = Σᵢ ln N(xᵢ|μₖᵢ, σ²ₖᵢ) + ln p(Cₖ): a diagonal-covariance Gaussian, so the boundaries are "
                "conics."
            ),
        )
    yield _posterior_rule(classes, vec, "4.62")


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


def _logistic(model, space):
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


def _softmax(model, space):
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


def _probit(model, space):
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


def _bayesian_logistic(model, space):
    first, second = book_classes(model)
    weights = book_weights(model, model.weights_)
    phi = r"\boldsymbol{\phi}"
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


def _svm(model, space):
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
    yield Equation(
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
    margin = float(model.margin_)
    yield Equation(
        _("Margin"),
        r"\frac{1}{\|\mathbf{w}\|} = " + number(margin) + r",\qquad \frac{2}{\|\mathbf{w}\|} = " + number(2 * margin),
        "7.3",
        _("1/‖w‖ is the distance from the boundary to each margin line y = ±1; 2/‖w‖ the width of the band."),
    )


_METHODS = (
    (LeastSquaresClassifier, _least_squares),
    (FisherDiscriminant, _fisher),
    (Perceptron, _perceptron),
    (SharedCovarianceGaussian, _shared_gaussian),
    (SeparateCovarianceGaussian, _separate_gaussian),
    (NaiveBayes, _naive_bayes),
    (LogisticRegression, _logistic),
    (SoftmaxRegression, _softmax),
    (LinearSVM, _svm),
    (ProbitRegression, _probit),
    (BayesianLogisticRegression, _bayesian_logistic),
)


def _generic(model, space):
    """A method this module does not know: its linear discriminants, if it has them."""
    coef = np.atleast_2d(book_weights(model, model.coef_))
    intercept = np.ravel(book_weights(model, model.intercept_))
    if coef.shape[0] == 1 and is_two_class(model):
        first, second = book_classes(model)
        yield Equation(
            _("Linear discriminant"),
            rf"y({space.vector}) = " + affine(intercept[0], coef[0], space),
            "4.4",
            _("Class {first} (C₁) where y ≥ 0, else class {second}.").format(
                first=class_number(first), second=class_number(second)
            ),
        )
        return
    lines = [
        rf"y_{{{m + 1}}}({space.vector}) &= " + affine(b0, w, space) for m, (w, b0) in enumerate(zip(coef, intercept))
    ]
    yield Equation(_("Linear discriminants"), aligned(lines), "4.9")


# -- wrappers: multi-class strategies and bases -------------------------------------------------


def _strategy(model, space):
    estimators = model.estimators_
    if len(estimators) == 1:  # two classes: the plain two-class model
        yield from _describe(estimators[0], space)
        return
    classes = model.classes_
    name = _(model.estimator.display_name)
    vec = space.vector
    ovo = isinstance(model, OneVsOne)
    subs = book_sub_classifiers(model)
    if ovo:
        heads = [rf"y_{{{class_number(sub.positive)}{class_number(sub.negative)}}}({vec})" for sub in subs]
        versus = _("vs")
        sides = [rf"{cls(sub.positive)}\ {latex_text(versus)}\ {cls(sub.negative)}" for sub in subs]
    else:
        heads = [rf"y_{{{class_number(c)}}}({vec})" for c in classes]
        rest = _("vs the rest")
        sides = [rf"{cls(c)}\ {latex_text(rest)}" for c in classes]
    if subs and subs[0].w is not None:
        lines = [
            rf"{head} &= " + affine(sub.w0, sub.w, space) + rf"\qquad ({side})"
            for head, side, sub in zip(heads, sides, subs)
        ]
        note = _(
            "{n} {method} sub-classifiers; each is positive (≥ 0) on the side of the first class named, the book's "
            "C₁ of its two-class problem."
        ).format(n=len(estimators), method=name)
    else:
        value = _("decision value of {method}").format(method=name)
        lines = [rf"{head} &: {latex_text(value)}\ ({side})" for head, side in zip(heads, sides)]
        note = _("{n} {method} sub-classifiers, each with its own (curved) boundary.").format(
            n=len(estimators), method=name
        )
    title = _("Pairwise classifiers") if ovo else _("One-versus-rest classifiers")
    yield Equation(title, aligned(lines), None, note + " " + _("Section 4.1.2, figure 4.2."))
    if ovo:
        yield Equation(
            _("Majority vote"),
            r"k^\star = \arg\max_k \#\{" + text_around(_("pairwise contests won by {class}"), r"\mathcal{C}_k") + r"\}",
            None,
            _(
                "Ties are broken by the summed confidences (as scikit-learn does); where the vote ties the point is "
                "ambiguous (figure 4.2, right)."
            ),
        )
    else:
        yield Equation(
            _("Combining the classifiers"),
            rf"k^\star = \arg\max_k y_k({vec})",
            "4.9",
            _(
                "The largest output wins; the raw rule 'class k where yₖ > 0' leaves ambiguous regions (figure 4.2, "
                "left)."
            ),
        )


def _basis_space(basis):
    """The feature names of a fitted basis, in LaTeX."""
    dim = basis.n_features_in_
    if isinstance(basis, PolynomialBasis):
        names = []
        for row in basis.powers():
            parts = [f"x_{{{d + 1}}}" + (f"^{{{p}}}" if p > 1 else "") for d, p in enumerate(row) if p]
            names.append("".join(parts))
        return Space(r"\boldsymbol{\phi}", tuple(names))
    if isinstance(basis, RBFBasis):
        inputs = [f"x_{{{d + 1}}}" for d in range(dim)] if basis.include_input else []
        radial = [rf"\phi_{{{j + 1}}}" for j in range(basis.centres_.shape[0])]
        return Space(r"\boldsymbol{\phi}", tuple(inputs + radial))
    return Space.inputs(dim)


def _basis(model):
    basis = model.basis_
    space = _basis_space(basis)
    if isinstance(basis, IdentityBasis):
        yield Equation(
            _("No basis functions"),
            r"\boldsymbol{\phi}(\mathbf{x}) = \mathbf{x}",
            None,
            _("The method works on x itself."),
        )
    elif isinstance(basis, PolynomialBasis):
        shown = space.names[:MAX_FEATURES_NAMED]
        hidden = len(space.names) - len(shown)
        latex = (
            r"\boldsymbol{\phi}(\mathbf{x}) = ("
            + ", ".join(shown)
            + (r", \dots" if hidden else "")
            + ")"
            + T
            + _more(hidden)
        )
        yield Equation(
            _("Polynomial basis, degree {degree}").format(degree=basis.degree),
            latex,
            None,
            _(
                "M = {m} monomials with cross terms (section 4.3.1): a model linear in φ has a curved boundary in x "
                "(figure 4.12)."
            ).format(m=len(space.names)),
        )
    elif isinstance(basis, RBFBasis):
        centres = basis.centres_
        latex = (
            r"\phi_j(\mathbf{x}) = \exp\left(-\frac{\|\mathbf{x} - \mathbf{c}_j\|^2}{2s^2}\right),\quad s = "
            + number(basis.width)
            + rf",\quad j = 1,\dots,{centres.shape[0]}"
        )
        if basis.include_input:
            latex += r",\qquad \boldsymbol{\phi} = (x_1, x_2, \phi_1, \dots, \phi_J)" + T
        yield Equation(
            _("Gaussian basis functions, {n} centres").format(n=centres.shape[0]),
            latex,
            "3.4",
            _("A linear model in φ has a curved boundary in x (section 4.3.1, figure 4.12)."),
        )
        yield Equation(
            _("Centres"),
            r"(\mathbf{c}_1\ \cdots\ \mathbf{c}_J) = " + matrix(centres.T),
            None,
            _("One column per centre."),
        )
    else:
        yield Equation(_(basis.display_name), r"\boldsymbol{\phi}(\mathbf{x})", None, None)
    yield from _describe(model.estimator_, space)


def _describe(model, space):
    if isinstance(model, BasisModel):
        yield from _basis(model)
        return
    if isinstance(model, OneVsRest | OneVsOne):
        yield from _strategy(model, space)
        return
    for kind, describe in _METHODS:
        if isinstance(model, kind):
            yield from describe(model, space)
            return
    yield from _generic(model, space)


# -- the model at one point ---------------------------------------------------------------------


def _posterior_number(model, n_classes):
    """The equation giving p(C_k|x) for this method."""
    if isinstance(model, LogisticRegression):
        return "4.87"
    if isinstance(model, SoftmaxRegression):
        return "4.104"
    if isinstance(model, ProbitRegression):
        return "4.114"
    if isinstance(model, BayesianLogisticRegression):
        return "4.155"
    if isinstance(model, SharedCovarianceGaussian) and n_classes == 2:
        return "4.65"
    if isinstance(model, SeparateCovarianceGaussian | NaiveBayes | SharedCovarianceGaussian):
        return "4.57" if n_classes == 2 else "4.62"
    return None


def _values(head, values, classes):
    return aligned(rf"{head(c)} &= {number(v)}" for c, v in zip(classes, values))


def _y(c):
    return rf"y_{{{class_number(c)}}}(\mathbf{{x}})"


def _a(c):
    return rf"a_{{{class_number(c)}}}(\mathbf{{x}})"


def _inner_values(inner, features, classes, head):
    """What the method computes at the point before deciding: activations, outputs, projections."""
    if isinstance(inner, LogisticRegression):
        weights = book_weights(inner, inner.weights_)
        a = float(weights[0] + features[0] @ weights[1:])
        yield Equation(
            _("Activation at the point"), head + rf"a = \mathbf{{w}}{T}\boldsymbol{{\phi}} = {number(a)}", "4.87"
        )
    elif isinstance(inner, ProbitRegression):
        a = float(book_decision(inner, features)[0])
        yield Equation(
            _("Activation at the point"), head + rf"a = \mathbf{{w}}{T}\boldsymbol{{\phi}} = {number(a)}", "4.114"
        )
    elif isinstance(inner, BayesianLogisticRegression):
        mean, variance = inner.predictive_moments(features)
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
    elif isinstance(inner, SoftmaxRegression):
        a = inner.weights_[:, 0] + features[0] @ inner.weights_[:, 1:].T
        yield Equation(_("Activations at the point"), head + _values(_a, a, classes), "4.105")
    elif hasattr(inner, "activations"):
        bernoulli = isinstance(inner, NaiveBayes) and inner.variant == "bernoulli"
        a = inner.activations(features)[0]
        number_ = "4.82" if bernoulli else "4.68" if isinstance(inner, SharedCovarianceGaussian) else "4.63"
        yield Equation(_("Activations at the point"), head + _values(_a, a, classes), number_)
    elif isinstance(inner, LeastSquaresClassifier):
        outputs = book_least_squares_outputs(inner, features)[0]
        latex = rf"y(\mathbf{{x}}) = {number(outputs[0])}" if outputs.size == 1 else _values(_y, outputs, classes)
        yield Equation(_("Outputs at the point"), head + latex, "4.17")
    elif isinstance(inner, FisherDiscriminant) and classes.size == 2:
        fisher = book_fisher(inner)
        projection = float(features[0] @ fisher.direction)
        yield Equation(
            _("Projection at the point"),
            head
            + rf"y = \hat{{\mathbf{{w}}}}{T}\mathbf{{x}} = {number(projection)},\quad y - y_0 = "
            + number(projection - fisher.threshold),
            "4.20",
        )
    elif isinstance(inner, OneVsOne):
        subs = book_sub_classifiers(inner)
        decisions = [float(sub.decision(e, features)[0]) for sub, e in zip(subs, inner.estimators_)]
        names = [rf"y_{{{class_number(sub.positive)}{class_number(sub.negative)}}}" for sub in subs]
        lines = [rf"{n}(\mathbf{{x}}) &= {number(d)}" for n, d in zip(names, decisions)]
        yield Equation(_("Pairwise decisions at the point"), head + aligned(lines), None)
        votes = inner.votes(features)[0]
        yield Equation(
            _("Votes at the point"),
            side_by_side((rf"{cls(c)}: {int(v)}" for c, v in zip(classes, votes)), per_line=6),
            None,
            _("Each pairwise classifier gives one vote to the class on its side."),
        )
    elif isinstance(inner, OneVsRest):
        decisions = [float(np.ravel(e.decision_function(features))[0]) for e in inner.estimators_]
        yield Equation(_("Decisions at the point"), head + _values(_y, decisions, classes), "4.9")
    else:
        decision = np.ravel(book_decision(inner, features))
        if decision.size == 1:
            perceptron = isinstance(inner, Perceptron)
            symbol = rf"\mathbf{{w}}{T}\boldsymbol{{\phi}}" if perceptron else r"y(\mathbf{x})"
            number_ = "4.52" if perceptron else "7.1" if isinstance(inner, LinearSVM) else "4.4"
            yield Equation(_("Decision value at the point"), head + rf"{symbol} = {number(decision[0])}", number_)
        else:
            yield Equation(_("Decisions at the point"), head + _values(_y, decision, classes), "4.9")


def _at_point(model, point):
    x = np.asarray(point, dtype=float).reshape(1, -1)
    where = r"\mathbf{x} = (" + ", ".join(number(v) for v in x[0]) + ")"
    head = where + r":\quad "
    features, inner = x, model
    if isinstance(model, BasisModel):
        features, inner = model.features(x), model.estimator_
        # Without the "x = ..." head: a vector of tiny numbers is wide enough on its own.
        yield Equation(_("Features at the point"), r"\boldsymbol{\phi}(\mathbf{x}) = " + vector(features[0]), None)
    if isinstance(inner, OneVsRest | OneVsOne) and len(inner.estimators_) == 1:
        inner = inner.estimators_[0]  # two classes: the plain two-class model
    classes = np.asarray(model.classes_)
    yield from _inner_values(inner, features, classes, head)
    if getattr(model, "is_probabilistic", False) and hasattr(model, "predict_proba"):
        proba = model.predict_proba(x)[0]
        note = _("The one-versus-rest posteriors, normalised to sum to 1.") if isinstance(inner, OneVsRest) else None
        yield Equation(
            _("Posterior at the point"), _values(_p, proba, classes), _posterior_number(inner, classes.size), note
        )
    predicted = model.predict(x)[0]
    yield Equation(
        _("Prediction"),
        rf"{where}\ \mapsto\ {cls(predicted)}",
        None,
        _("Class {number}.").format(number=class_number(predicted)),
    )


# -- the entry point ----------------------------------------------------------------------------


def _collect(parts):
    """The equations a generator yields before anything it needs turns out to be missing."""
    equations = []
    try:
        with np.errstate(all="ignore"):
            for equation in parts:
                equations.append(equation)
    except _UNREADABLE:
        pass  # an unusual fit: write what is available
    return equations


def model_equations(model, point=None):
    """The fitted model as equations with its own numbers, and its values at ``point``.

    Parameters
    ----------
    model : fitted estimator of the playground (possibly on a basis, possibly one-versus-rest /
        one-versus-one), or None
    point : (x1, x2) or None
        Where to evaluate the activations, posteriors or decision values and the predicted class.

    Returns
    -------
    list of Equation
        Empty for None or an unfitted model; never raises on an unusual fit.
    """
    if model is None or not hasattr(model, "classes_"):
        return []
    dim = int(getattr(model, "n_features_in_", 2))
    equations = _collect(_describe(model, Space.inputs(dim)))
    if point is not None:
        equations += _collect(_at_point(model, point))
    named = class_names_equation(model.classes_)
    return equations + ([named] if named else [])


def class_names_equation(classes):
    r"""The user's names of the model's classes (``\mathcal{C}_{1} = \text{setosa}``), or None when
    none of them is named; each name LaTeX-escaped (``ui.names.class_name_latex``)."""
    named = [int(c) for c in np.asarray(classes).reshape(-1) if scene_class_name(c)]
    if not named:
        return None
    items = (rf"{cls(c)} = {class_name_latex(c)}" for c in named)
    return Equation("Class names", side_by_side(items), None, "The names given to the classes in the sidebar.")
