"""The ui's card of every method: what the page says and draws for it, one module per method.

Each module of this package (its subpackages are the shared templates, ``numpy_cells``) defines
``CARD``, a ``MethodPage``; ``CARDS`` maps a registry name (``playground.MODELS``) to its card. The
tables that were keyed by a method's name are views of the cards: the about texts, the notebooks'
numpy and scikit-learn cells, the sidebar's widgets and their session keys (``ui.session.widget_keys``,
``ui.widgets.method_params``), and the equations (``equations``, a writer of
``ui.methods.equations``, which ``ui.equations`` calls for a model of the method's estimator class).
Adding a method's page = one module here; a card without equations gets its linear discriminants.

Rules that hold (``tests/test_method_cards.py`` checks them for every card):

- One card per method of ``playground.MODELS``, and one method per card; the card names its method
  by the registry name (``method``) and reads the method's settings from
  ``playground.specs.METHOD_SPECS[method]``.
- Every text is English marked with ``N_`` (shown translated); the about text has no number a scene
  would give (the book's equation and section numbers apart).
- Every setting has a widget: the one its spec's kind gives (``ui.widgets.method_params``), shaped by
  the card's ``Control`` for it where one is given. A session key never changes (links, AppTest tests
  and a visitor's session name widgets by it): a card keeps today's keys as ``Control.key``; a setting
  without one gets ``generated_key``. No two widgets of any two cards share a key.
- Plain data: nothing here draws a widget (the package sits below the session, which reads the keys).
"""

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from playground.specs import METHOD_SPECS, Spec


@dataclass(frozen=True)
class Toggle:
    """A checkbox in front of a nullable setting: the SVM's hard margin (checked: C = None), naive
    Bayes's thresholds set by hand (unchecked: None, the data mean)."""

    key: str
    label: str  # English marked with N_
    help: str = ""
    checked_means_none: bool = True


@dataclass(frozen=True)
class Control:
    """How the sidebar shows one of the method's settings, where its kind's widget needs more.

    ``name`` and ``when`` find the spec (one name may be two settings under two conditions). A
    choice with ``labels`` is a radio showing them (else a select slider); an int with
    ``number_input`` is a number input (else a slider); a vector is a number input per entry
    (``label`` formatted with ``index``, the subscript) unless ``book_weights``: the initial weights
    typed as the book writes them (``ui.text.convention``). ``many_classes``: with more than two
    classes present no widget is drawn, this caption is shown and the spec's default is used.
    """

    name: str
    when: tuple[tuple[str, object], ...] = ()
    key: str = ""  # today's session key ("" : ``generated_key``)
    label: str = ""  # English marked with N_
    help: str = ""
    labels: Mapping[Any, str] | None = None
    horizontal: bool = False
    number_input: bool = False
    book_weights: bool = False
    toggle: Toggle | None = None
    many_classes: str = ""


@dataclass(frozen=True)
class MethodPage:
    """One method's page.

    method : str
        Its registry name (``playground.MODELS``, ``playground.specs.METHOD_SPECS``).
    about : str
        What the method does, in a paragraph (the presenter's drawer), N_-marked, without numbers.
    numpy_text, numpy_code
        The notebook's Markdown before the numpy cell and the cell: ``numpy_code(settings,
        literals)`` from the complete settings and the same as ``literal`` text
        (``ui.methods.numpy_cells``).
    sklearn : ``sklearn(settings, n_classes) -> (code, same_weights)``, or None
        The scikit-learn cell: defines ``estimator``; ``same_weights`` says whether its weights are
        the numpy part's. None: no counterpart, and ``no_counterpart`` says why in a sentence.
    differences : str
        What differs between the book's method and the scikit-learn estimator ("" for nothing).
    controls : tuple of Control
        The sidebar's widgets that need more than their kind gives, in the order they are drawn;
        the settings without one follow in the specs' order.
    panels : tuple of str
        The panels the method adds beyond those every fit gets, by their ``Panel.name``
        (``ui.panels``): a panel with a name is shown only for the methods whose cards list it.
    compared : bool
        The method is in the comparison's first selection (``ui.widgets.compare``).
    presenter_setting : str
        The name of the one setting the presenter bar offers for the method ("" for none); its
        widget key and options are the card's, its label the card's ``Control`` label for it.
    presenter_format : str
        How the bar shows one of that setting's options (``str.format`` of the value).
    equations : ``equations(model, space) -> Iterable[Equation]``, or None
        The fitted model written out (``ui.methods.equations``); None: its linear discriminants.
    point_equations : ``point_equations(model, features, classes, head) -> Iterable[Equation]``, or None
        What the method computes at a point before deciding (activations, outputs, a projection),
        written out (``ui.methods.equations``); None: its decision value.
    posterior_equations : (str, str)
        PRML's equation of the posterior p(C_k|x) the method gives, for two classes and for more
        (the Equations tab's "posterior at the point"); ("", "") for a method with none.
    """

    method: str
    about: str
    numpy_text: str
    numpy_code: Callable[[dict[str, Any], dict[str, str]], str]
    sklearn: Callable[[dict[str, Any], int], tuple[str, bool]] | None = None
    no_counterpart: str = ""
    differences: str = ""
    controls: tuple[Control, ...] = field(default_factory=tuple)
    panels: tuple[str, ...] = ()
    compared: bool = False
    presenter_setting: str = ""
    presenter_format: str = "{}"
    equations: Callable[[Any, Any], Iterable[Any]] | None = None
    point_equations: Callable[[Any, Any, Any, str], Iterable[Any]] | None = None
    posterior_equations: tuple[str, str] = ("", "")

    @property
    def specs(self) -> tuple[Spec, ...]:
        return METHOD_SPECS[self.method]

    def control(self, spec: Spec) -> Control:
        """The card's control of ``spec``, or the plain one its kind gives."""
        for control in self.controls:
            if (control.name, control.when) == (spec.name, spec.when):
                return control
        return Control(spec.name, spec.when)

    def widget_key(self, spec: Spec) -> str:
        """The session key of the widget showing ``spec`` (a prefix for priors and vectors)."""
        return self.control(spec).key or generated_key(self.method, spec)

    def drawing_order(self) -> tuple[Spec, ...]:
        """The specs in the order their widgets are drawn: the card's controls, then the rest."""
        listed = [spec for control in self.controls for spec in self.specs if _finds(control, spec)]
        return (*listed, *(spec for spec in self.specs if spec not in listed))


def _finds(control: Control, spec: Spec) -> bool:
    return (control.name, control.when) == (spec.name, spec.when)


def generated_key(method: str, spec: Spec) -> str:
    """The session key of a setting whose card keeps no key of its own: "<method>_<name>", with the
    values of its condition ("logistic_max_iter_gd")."""
    return "_".join([method, spec.name, *(str(value) for _name, value in spec.when)])


def _discover() -> Mapping[str, MethodPage]:
    cards: dict[str, MethodPage] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:  # the shared templates
            continue
        card = importlib.import_module(f"{__name__}.{info.name}").CARD
        if card.method in cards:
            raise ValueError(f"two cards for the method {card.method!r}")
        cards[card.method] = card
    return MappingProxyType(cards)


#: registry name -> its card
CARDS: Mapping[str, MethodPage] = _discover()


def card_of(method: str) -> MethodPage:
    """The card of ``method`` (a registry name); a name without a card is an error."""
    if method not in CARDS:
        raise ValueError(f"unknown method {method!r}")
    return CARDS[method]
