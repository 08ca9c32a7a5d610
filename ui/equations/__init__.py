r"""A fitted model written out as equations, with its own numbers, in LaTeX and PRML's numbering.

Pure formatting: no Streamlit and no fitting. ``model_equations(model, point)`` reads a fitted
estimator's attributes (looking through a basis wrapper and a one-versus-rest / one-versus-one
wrapper) and returns a list of ``Equation``, optionally ending with the model evaluated at one
point. Classes are written with the app's numbers: global index k is class k + 1, so
``\mathcal{C}_{2}`` is "class 2" on the canvas. Every two-class formula is in the book's
convention (``ui.text.convention``): of the two classes present the first plays C1, y(x) >= 0 assigns
it, t = +1 (t = 1 for logistic regression, N/N1 in section 4.1.5) is its target, p(C1|x) is the
sigmoid of the activation and w points into its region; the back-end's weights are negated there.

Degenerate or unusual fits never raise: each part of the description stops at the first
attribute it cannot read, and what was written before it is kept.

A method's own equations are on its card (``MethodPage.equations``, written with the formatting of
``ui.methods.equations``); here: which card writes a model (by its estimator's class), the
multi-class strategy, the basis, the generic linear discriminants and the model evaluated at a point.
"""

import functools
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from playground import (
    BasisModel,
    Classifier,
    IdentityBasis,
    OneVsOne,
    OneVsRest,
    PolynomialBasis,
    RBFBasis,
)
from playground.registry import CARDS
from ui.methods import card_of
from ui.methods.equations.core import (
    _UNREADABLE,
    MAX_ENTRIES,
    MAX_FEATURES_NAMED,
    MAX_ROWS,
    MAX_TERMS,
    Equation,
    Space,
    T,
    _more,
    _p,
    affine,
    aligned,
    class_number,
    cls,
    decision_at,
    matrix,
    number,
    side_by_side,
    text_around,
    values_at,
    vector,
    y_k,
)
from ui.text.convention import (
    SubClassifier,
    book_classes,
    book_sub_classifiers,
    book_weights,
    is_two_class,
)
from ui.text.i18n import _
from ui.text.names import class_name_latex, latex_text, scene_class_name


@functools.cache
def _pages_by_estimator() -> dict[type, Any]:
    return {card.estimator: card_of(card.name) for card in CARDS}


def _writer_of(model_class: type) -> Callable[[Any, Space], Iterable[Equation]]:
    """The writer of a model of ``model_class``: the equations of the card whose method's estimator
    is the most specific of its classes (a subclass registered as its own method gets its own
    card's, an unregistered subclass its parent's); ``_generic`` when no card writes it."""
    pages = _pages_by_estimator()
    for klass in model_class.__mro__:
        page = pages.get(klass)
        if page is not None:
            return page.equations or _generic
    return _generic


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
        heads = [rf"y_{{{_pair(sub)}}}({vec})" for sub in subs]
        versus = _("vs")
        sides = [rf"{cls(sub.positive)}\ {latex_text(versus)}\ {cls(_other(sub))}" for sub in subs]
    else:
        heads = [rf"y_{{{class_number(c)}}}({vec})" for c in classes]
        rest = _("vs the rest")
        sides = [rf"{cls(c)}\ {latex_text(rest)}" for c in classes]
    if subs and subs[0].w is not None:
        lines = [
            rf"{head} &= " + affine(sub.w0, sub.w, space) + rf"\qquad ({side})"
            for head, side, sub in zip(heads, sides, subs)
            if sub.w is not None
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
    yield from _writer_of(type(model))(model, space)


def _page_of(model_class: type) -> Any:
    """The card of the most specific of ``model_class``'s classes that is a method's estimator, or None."""
    pages = _pages_by_estimator()
    for klass in model_class.__mro__:
        page = pages.get(klass)
        if page is not None:
            return page
    return None


def _posterior_number(model, n_classes):
    """The equation giving p(C_k|x) for this method (its card's ``posterior_equations``), or None."""
    page = _page_of(type(model))
    return (page.posterior_equations[0 if n_classes == 2 else 1] or None) if page is not None else None


def _inner_values(inner, features, classes, head):
    """What the method computes at the point before deciding (its card's ``point_equations``:
    activations, outputs, a projection); a multi-class strategy's pairwise votes or decisions; else
    the decision value."""
    if isinstance(inner, OneVsOne):
        yield from _pairwise_votes(inner, features, classes, head)
        return
    if isinstance(inner, OneVsRest):
        decisions = [float(np.ravel(e.decision_function(features))[0]) for e in inner.estimators_]
        yield Equation(_("Decisions at the point"), head + values_at(y_k, decisions, classes), "4.9")
        return
    page = _page_of(type(inner))
    if page is not None and page.point_equations is not None:
        yield from page.point_equations(inner, features, classes, head)
    else:
        yield decision_at(inner, features, classes, head)


def _other(sub: SubClassifier) -> int:
    """The other class of a one-versus-one sub-classifier (one-versus-rest's has none)."""
    if sub.negative is None:
        raise TypeError("a one-versus-rest sub-classifier has no other class")
    return sub.negative


def _pair(sub: SubClassifier) -> str:
    """ "12": a one-versus-one sub-classifier's two class numbers, as its y's subscript."""
    return f"{class_number(sub.positive)}{class_number(_other(sub))}"


def _pairwise_votes(inner, features, classes, head):
    """One-versus-one at the point: each pair's decision, then the votes."""
    subs = book_sub_classifiers(inner)
    decisions = [float(sub.decision(e, features)[0]) for sub, e in zip(subs, inner.estimators_)]
    names = [rf"y_{{{_pair(sub)}}}" for sub in subs]
    lines = [rf"{n}(\mathbf{{x}}) &= {number(d)}" for n, d in zip(names, decisions)]
    yield Equation(_("Pairwise decisions at the point"), head + aligned(lines), None)
    votes = inner.votes(features)[0]
    yield Equation(
        _("Votes at the point"),
        side_by_side((rf"{cls(c)}: {int(v)}" for c, v in zip(classes, votes)), per_line=6),
        None,
        _("Each pairwise classifier gives one vote to the class on its side."),
    )


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
            _("Posterior at the point"), values_at(_p, proba, classes), _posterior_number(inner, classes.size), note
        )
    predicted = model.predict(x)[0]
    yield Equation(
        _("Prediction"),
        rf"{where}\ \mapsto\ {cls(predicted)}",
        None,
        _("Class {number}.").format(number=class_number(predicted)),
    )


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


def model_equations(model: Classifier | None, point: ArrayLike | None = None) -> list[Equation]:
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


def class_names_equation(classes: ArrayLike) -> Equation | None:
    r"""The user's names of the model's classes (``\mathcal{C}_{1} = \text{setosa}``), or None when
    none of them is named; each name LaTeX-escaped (``ui.text.names.class_name_latex``)."""
    named = [int(c) for c in np.asarray(classes).reshape(-1) if scene_class_name(c)]
    if not named:
        return None
    items = (rf"{cls(c)} = {class_name_latex(c)}" for c in named)
    return Equation("Class names", side_by_side(items), None, "The names given to the classes in the sidebar.")


__all__ = [
    "MAX_ENTRIES",
    "MAX_ROWS",
    "MAX_TERMS",
    "Equation",
    "class_names_equation",
    "matrix",
    "model_equations",
    "number",
    "vector",
]
