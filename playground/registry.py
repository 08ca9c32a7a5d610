"""The method registry: the methods' cards (``playground.card``), the one list the app and tests read;
what a name gives: a model (``make_model``), or the criterion its fit optimises at a line (``criterion``).

Rules that hold: one line per method, in the book's order; every table keyed by a method's name
(``MODELS``, ``METHOD_SPECS``, ``TWO_CLASS_METHODS``, ``ITERATIVE_METHODS``) is a view of the cards.
"""

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import (
    bayesian_logistic,
    fisher,
    gaussian,
    lda_shrinkage,
    least_squares,
    logistic,
    naive_bayes,
    perceptron,
    probit,
    svm,
)
from .base import Classifier
from .basis import Basis, with_basis
from .card import MethodCard, cards
from .criteria import HasCriterion, no_criterion_message
from .errors import InvalidDataError, Message, PlaygroundError
from .i18n import N_
from .multiclass import with_strategy
from .specs import Spec

# Each method adds its card here, one line: the app's method list is built from these cards, in
# this order: the book's (each card's ``book_section`` says where), then the SVM of chapter 7.
CARDS: tuple[MethodCard, ...] = cards(
    least_squares.CARD,  # 4.1.3
    fisher.CARD,  # 4.1.4
    perceptron.CARD,  # 4.1.7
    gaussian.SHARED_CARD,  # 4.2.1-4.2.2
    gaussian.SEPARATE_CARD,  # 4.2.1-4.2.2
    lda_shrinkage.CARD,  # 4.2.2 (and 4.1.4's direction): the shared covariance shrunk
    naive_bayes.CARD,  # 4.2.3
    logistic.LOGISTIC_CARD,  # 4.3.2
    logistic.SOFTMAX_CARD,  # 4.3.4
    probit.CARD,  # 4.3.5
    bayesian_logistic.CARD,  # 4.4-4.5
    svm.CARD,  # 7.1, outside chapter 4: last
)

# The views of the cards, under the names their callers have always read (in the cards' order).
CARD_BY_NAME: dict[str, MethodCard] = {card.name: card for card in CARDS}
MODELS: dict[str, type[Classifier]] = {card.name: card.estimator for card in CARDS}
METHOD_SPECS: dict[str, tuple[Spec, ...]] = {card.name: card.specs for card in CARDS}
# The two-class machines: no K-class form of their own (their fit refuses three classes and
# names the strategies; tests/test_conventions.py checks this set against the fits).
TWO_CLASS_METHODS = frozenset(card.name for card in CARDS if card.two_class_only)
# The methods whose fit is a loop of recorded steps (playback, a worker for a large fit).
ITERATIVE_METHODS = frozenset(card.name for card in CARDS if card.iterative)

MULTICLASS_STRATEGIES = ("native", "ovr", "ovo")


def method_card(name: str) -> MethodCard:
    """The card of method ``name`` (a key of ``MODELS``); PlaygroundError for an unknown name."""
    try:
        return CARD_BY_NAME[name]
    except KeyError:
        known = ", ".join(sorted(CARD_BY_NAME))
        raise PlaygroundError(
            N_("Unknown method '{name}'. Known methods: {known}."), name=str(name), known=known
        ) from None


def fitted_strategy(method: str, multiclass: str, n_classes: int) -> str:
    """The multi-class strategy a fit of ``method`` runs on ``n_classes`` classes
    (``MethodCard.fitted_strategy``; an unknown method runs what was asked)."""
    card = CARD_BY_NAME.get(method)
    return multiclass if card is None else card.fitted_strategy(multiclass, n_classes)


def make_model(name: str, *, multiclass: str = "native", basis: Basis | None = None, **params: Any) -> Classifier:
    """Return an unfitted estimator for method ``name``.

    Parameters
    ----------
    name : str
        A key of ``MODELS``.
    multiclass : {"native", "ovr", "ovo"}
        "native" uses the method's own K-class form (eq. 4.9) where it has one; "ovr" and
        "ovo" wrap a two-class method as one-versus-rest / one-versus-one (figure 4.2).
    basis : basis-function object or None
        A fixed transform phi(x) (section 4.3.1) applied before the method.
    **params
        The method's hyper-parameters.
    """
    cls = method_card(name).estimator
    if multiclass not in MULTICLASS_STRATEGIES:
        raise PlaygroundError(
            N_("Unknown multi-class strategy '{strategy}'; use one of {known}."),
            strategy=str(multiclass),
            known=str(MULTICLASS_STRATEGIES),
        )
    try:
        model = cls(**params)
    except TypeError as err:
        raise PlaygroundError(
            N_("Bad parameters for {method}: {error}."), method=Message(cls.display_name), error=str(err)
        ) from None
    if multiclass != "native":
        model = with_strategy(model, multiclass)
    if basis is not None:
        model = with_basis(model, basis)
    return model


def criterion(name: str, X: ArrayLike, y: ArrayLike, w: ArrayLike, **params: Any) -> float:
    """The value at the line w = (w0, w1, ..., wD) of the function method ``name``'s fit optimises
    : ``make_model(name, **params).criterion_at(X, y, w)`` (``playground.criteria``).

    Two classes; w0 + w^T x > 0 means ``classes_[1]``. ``params`` are the method's
    hyper-parameters (C, alpha, l2, targets...), and ``basis=`` puts the method on phi(x): w is
    then (w0, w1, ..., wM), one weight per feature. Whether the fit minimises or maximises it, its
    name and equation: the model's ``criterion_maximised``, ``criterion_name``,
    ``criterion_equation``. The density models (Gaussian classes, naive Bayes) raise: they fit
    densities, not a line. For many lines at once (a landscape) call the model's ``criterion_at``
    with a table of lines.
    """
    model = make_model(name, **params)
    if not isinstance(model, HasCriterion):
        raise PlaygroundError(no_criterion_message(model.display_name))
    if np.ndim(w) != 1:
        raise InvalidDataError(
            N_(
                "{method}: w must be one line's weights [w0, w1, ...], a vector; for a table of lines "
                "use the model's criterion_at(X, y, W)."
            ),
            method=Message(model.display_name),
        )
    return float(model.criterion_at(X, y, w))
