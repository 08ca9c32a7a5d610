"""The formatting every method's equations share: numbers, vectors, matrices and sums in LaTeX,
class symbols, the feature space's names, and the ``Equation`` a panel shows.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Self

import numpy as np
from numpy.typing import ArrayLike

from playground import (
    PlaygroundError,
)
from ui.text.convention import book_decision
from ui.text.i18n import _
from ui.text.names import class_name, latex_text, phrased

SIGNIFICANT = 4  # significant digits of every printed number


SIGNIFICANT = 4  # significant digits of every printed number
MAX_ENTRIES = 5  # entries of a long vector shown before "... (J more)"


MAX_ENTRIES = 5  # entries of a long vector shown before "... (J more)"
MAX_TERMS = 4  # terms of a long sum (a model in feature space) shown before "... (J more terms)"


MAX_TERMS = 4  # terms of a long sum (a model in feature space) shown before "... (J more terms)"
MAX_ROWS = 4  # rows and columns of a large matrix shown before the dots


MAX_ROWS = 4  # rows and columns of a large matrix shown before the dots
SUM_BUDGET = 48  # visible characters of a long sum before the rest is abbreviated


SUM_BUDGET = 48  # visible characters of a long sum before the rest is abbreviated
SHORT = 3  # vectors up to this long are columns and sit side by side; longer ones get a line each


SHORT = 3  # vectors up to this long are columns and sit side by side; longer ones get a line each
MAX_FEATURES_NAMED = 10  # monomials of a polynomial basis written out


MAX_FEATURES_NAMED = 10  # monomials of a polynomial basis written out
PER_LINE = 3  # short class means or covariances side by side on one line


PER_LINE = 3  # short class means or covariances side by side on one line
T = r"^{\mathrm{T}}"


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


def number(value: float) -> str:
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


def vector(values: ArrayLike, limit: int = MAX_ENTRIES) -> str:
    """A column vector (up to 3 entries) or a transposed row, the first ``limit`` entries of a long one."""
    values = np.ravel(np.asarray(values, dtype=float))
    shown, hidden = values[:limit], max(values.size - limit, 0)
    if values.size <= SHORT:
        return r"\begin{pmatrix}" + r" \\ ".join(number(v) for v in shown) + r"\end{pmatrix}"
    entries = " & ".join(number(v) for v in shown) + (r" & \cdots" if hidden else "")
    return r"\begin{pmatrix}" + entries + r"\end{pmatrix}" + T + _more(hidden)


def matrix(values: ArrayLike, limit: int = MAX_ROWS) -> str:
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


def aligned(lines: Sequence[str], gap: str = "") -> str:
    """Lines aligned at their first ``&``; ``gap`` (e.g. "6pt") spaces tall lines apart."""
    lines = list(lines)
    if len(lines) == 1:
        return lines[0].replace("&", "", 1)
    separator = rf" \\[{gap}] " if gap else r" \\ "
    return r"\begin{aligned}" + separator.join(lines) + r"\end{aligned}"


def side_by_side(items: Iterable[str], per_line: int = PER_LINE) -> str:
    """Short formulas, ``per_line`` to a line, separated by quads."""
    items = list(items)
    lines = [r",\quad ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return lines[0] if len(lines) == 1 else r"\begin{gathered}" + r" \\ ".join(lines) + r"\end{gathered}"


def class_number(label: int) -> int:
    """The app's number of a class: global index k is class k + 1."""
    return int(label) + 1


def cls(label: int) -> str:
    """``\\mathcal{C}_{k}`` for class label (global index) ``label``."""
    return rf"\mathcal{{C}}_{{{class_number(label)}}}"


@dataclass(frozen=True)
class Space:
    """How the inputs of a model are written: the vector symbol and one name per component."""

    vector: str
    names: tuple

    @classmethod
    def inputs(cls, dim: int) -> Self:
        return cls(r"\mathbf{x}", tuple(f"x_{{{d + 1}}}" for d in range(dim)))

    def name(self, i: int) -> str:
        return self.names[i] if i < len(self.names) else rf"\phi_{{{i + 1}}}"

    @property
    def is_inputs(self) -> bool:
        return self.vector == r"\mathbf{x}"


def visible_length(latex: str) -> int:
    """A rough count of the characters ``latex`` shows, to keep a long sum within the panel."""
    text = latex.replace(r"\times", "x")
    text = re.sub(r"\\[A-Za-z]+", "", text)  # \mathbf, \, and the like show nothing of their own
    return len(re.sub(r"[{}^_\\\s]", "", text))


def affine(
    bias: float | None, weights: ArrayLike, space: Space, limit: int = MAX_TERMS, budget: int = SUM_BUDGET
) -> str:
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


def text_around(sentence: str, symbol: str) -> str:
    """``sentence`` (one placeholder ``{class}``) as LaTeX: its words in ``\\text{}``, ``symbol`` in math.

    The placeholder may stand anywhere, as word order differs between languages.
    """
    before, _placeholder, after = sentence.partition("{class}")
    return (latex_text(before) + " " if before else "") + symbol + (latex_text(after) if after else "")


def _p(label, given=r"\mathbf{x}"):
    return rf"p({cls(label)}\mid {given})"


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


# -- at a point (the Equations tab's "at the point", ``MethodPage.point_equations``) ----------------


def values_at(head, values, classes):
    """One aligned line per class: ``head(class) = value``."""
    return aligned([rf"{head(c)} &= {number(v)}" for c, v in zip(classes, values)])


def y_k(c):
    return rf"y_{{{class_number(c)}}}(\mathbf{{x}})"


def a_k(c):
    return rf"a_{{{class_number(c)}}}(\mathbf{{x}})"


def decision_at(inner, features, classes, head, symbol=r"y(\mathbf{x})", number_="4.4"):
    """The model's decision value(s) at the point in the book's sign: one value (``symbol``, eq.
    ``number_``), or one per class (eq. 4.9)."""
    decision = np.ravel(book_decision(inner, features))
    if decision.size == 1:
        return Equation(_("Decision value at the point"), head + rf"{symbol} = {number(decision[0])}", number_)
    return Equation(_("Decisions at the point"), head + values_at(y_k, decision, classes), "4.9")
