"""A method's card: what the app knows about a method, beside its estimator.

Each estimator module ends with its ``CARD = MethodCard(...)`` (a module with two methods has
two, e.g. ``gaussian.SHARED_CARD`` and ``gaussian.SEPARATE_CARD``), and ``playground.registry``
lists the cards in the book's order; every table that was keyed by a method's name (the
estimator classes, the settings, the two-class machines, the iterative ones, the cost of a fit)
is a view of these cards. Rules that hold:

- A card holds the method's estimator class, its settings (``Spec``) and its traits: two-class
  only, iterative, has probabilities (read from the estimator's class) and its cost model.
- A card is immutable (a frozen dataclass) and checked when it is made: its name is a registry
  name (lower case letters, digits and underscores), its estimator a ``Classifier`` with a
  display name and a book section, every spec names a constructor parameter of the estimator,
  a spec's condition names a setting listed before it, and every default is a value its spec
  accepts. ``cards(...)`` checks that the names are unique. A card that breaks a rule stops the
  import with a ``CardError`` naming the card and the rule: a mistake in the code, never a
  visitor's (so in plain English, not a translated sentence).
- One cost model for every decision made before a fit (``FitShape`` and ``CostModel``): the
  page sends a large iterative fit straight to a worker and skips the spinner for a small one
  (``FitShape.size``, ui/session/compute.py), and the live route refuses a scene too heavy to
  follow the pointer (``CostModel.work``, ui/server/live_budget.py). Both read the same sizes:
  N training points, K classes, the basis's M features and J design-matrix columns, and the
  sub-problems of the multi-class strategy (figure 4.2).
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import comb
from typing import Any

from .base import Classifier, constructor_params
from .specs import Spec

_NAME = re.compile(r"[a-z][a-z0-9_]*\Z")
_KINDS = ("choice", "int", "float", "bool", "vector", "points", "priors")


class CardError(TypeError):
    """A method card breaks one of the rules above (a programming error, raised at import)."""


@dataclass(frozen=True)
class FitShape:
    """The sizes a fit's cost grows with, known from the request before any fit.

    Attributes
    ----------
    points : int
        N, the training points.
    classes : int
        K, the classes the fit sees.
    features : int
        M, the basis functions phi_1..phi_M (section 4.3.1), the bias not counted: 2 without a
        basis (the two inputs).
    columns : int
        J, the design matrix's columns: the bias, the features, and the inputs an RBF basis keeps
        beside its centres.
    strategy : str or None
        The multi-class strategy: "ovr" (K sub-problems), "ovo" (K(K-1)/2), else one problem.
    """

    points: int
    classes: int
    features: int
    columns: int
    strategy: str | None

    @property
    def sub_problems(self) -> int:
        """The separate fits the strategy makes (at least one)."""
        k = self.classes
        return max({"ovo": k * (k - 1) // 2, "ovr": k}.get(self.strategy or "", 1), 1)

    @property
    def size(self) -> int:
        """N x M x sub-problems: the size a fit's time grows with, the page's measure of
        whether a fit is quick (no spinner) or surely slow (straight to a worker)."""
        return self.points * self.features * self.sub_problems


def fit_shape(
    points: int,
    classes: int,
    basis: str,
    basis_params: Iterable[tuple[str, object]] | Mapping[str, object],
    strategy: str | None,
    dim: int = 2,
) -> FitShape:
    """The ``FitShape`` of a fit of ``points`` points in ``classes`` classes with this basis
    (its settings as a link's pairs or a dict). Raises TypeError, ValueError or OverflowError
    when a setting is too strange to count (the fit itself validates settings)."""
    options: dict[str, Any] = dict(basis_params)  # a link's values, of any type: int() and len() check them
    inputs = 0  # the inputs a basis keeps beside its own features
    if basis == "polynomial":
        degree = int(options.get("degree", 2))
        features = comb(dim + degree, degree) - 1  # monomials of degree 1..d in D inputs
    elif basis == "rbf":
        centres = options.get("centres")
        if centres:
            features = len(centres)
        else:
            features = int(options.get("n_centres", 9) or 9)
        inputs = dim if options.get("include_input") else 0
    else:
        features = dim
    return FitShape(
        points=int(points), classes=int(classes), features=features, columns=features + inputs + 1, strategy=strategy
    )


@dataclass(frozen=True)
class CostModel:
    """What one fit of a method costs, in multiply-adds, from its ``FitShape``.

    Parameters
    ----------
    solves : int
        The passes over the points, each a J x J solve, that a fit makes: 1 for a closed form
        (least squares eq. 4.16, the Gaussians' means and covariances, one pass of the perceptron
        or of SMO over a small set); a few Newton steps for IRLS (eq. 4.99).
    """

    solves: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.solves, int) or isinstance(self.solves, bool) or self.solves < 1:
            raise CardError(f"A cost model's solves must be a whole number of at least 1, not {self.solves!r}.")

    def work(self, shape: FitShape, grid: int) -> float:
        """The fit and its evaluation on a grid x grid view, in multiply-adds, roughly.

        ``shape.strategy`` is the strategy the fit runs (``MethodCard.fitted_strategy``):
        N * J^2 * solves per sub-problem's share of the points (one-versus-one: every point is in
        K-1 of the pairs; one-versus-rest: in all K), plus grid^2 * J per sub-model on the grid.
        """
        n, k, j = shape.points, max(2, shape.classes), shape.columns
        if shape.strategy == "ovo" and k > 2:
            share, models = n * (k - 1), k * (k - 1) // 2
        elif shape.strategy == "ovr" and k > 2:
            share, models = n * k, k
        else:
            share, models = n, max(1, k - 1)
        return share * j * j * self.solves + grid * grid * j * models


#: A fit by IRLS (eq. 4.99): a few Newton steps on the app's scenes, each a J x J solve over the points.
NEWTON_COST = CostModel(solves=4)


@dataclass(frozen=True)
class MethodCard:
    """One method: its registry name, its estimator and its traits.

    Parameters
    ----------
    name : str
        The registry name (a link's ``m``, ``make_model``'s first argument).
    estimator : type of Classifier
        The class ``make_model`` builds; its ``display_name``, ``book_section`` and whether it has
        probabilities (``is_probabilistic``) are the card's, read from the class.
    specs : tuple of Spec
        The method's settings (``playground.specs``), in the order its widgets are drawn.
    two_class_only : bool
        The method has no K-class form of its own: its fit refuses three classes, and a K-class
        scene runs one-versus-rest or one-versus-one (figure 4.2).
    iterative : bool
        The fit is a loop whose steps are recorded in ``history_``: the app shows them (and plays
        the boundary back where the estimator has ``at_step``), and a large fit may run long
        enough to need a worker.
    cost : CostModel
        The cost of one fit, for the page's and the live route's budgets.
    """

    name: str
    estimator: type[Classifier]
    specs: tuple[Spec, ...] = ()
    two_class_only: bool = False
    iterative: bool = False
    cost: CostModel = field(default_factory=CostModel)

    def __post_init__(self) -> None:
        _check_card(self)

    @property
    def display_name(self) -> str:
        return self.estimator.display_name

    @property
    def book_section(self) -> str:
        return self.estimator.book_section

    @property
    def has_probabilities(self) -> bool:
        """The fit gives posterior probabilities p(C_k|x) (``predict_proba``): the estimator's trait."""
        return bool(self.estimator.is_probabilistic)

    def fitted_strategy(self, multiclass: str, n_classes: int) -> str:
        """The multi-class strategy a fit on ``n_classes`` classes runs: a two-class method has no
        K-class form, so a K-class ("native") choice runs one-versus-rest (what the sidebar offers
        instead; the comparison, the class rooms and the export alike)."""
        if multiclass == "native" and self.two_class_only and n_classes > 2:
            return "ovr"
        return multiclass


def _check_card(card: MethodCard) -> None:
    where = f"The method card {card.name!r}"
    if not isinstance(card.name, str) or not _NAME.match(card.name):
        raise CardError(f"{where}: a name is lower case letters, digits and underscores, starting with a letter.")
    if not (isinstance(card.estimator, type) and issubclass(card.estimator, Classifier)):
        raise CardError(f"{where}: its estimator must be a Classifier class, not {card.estimator!r}.")
    if not card.estimator.book_section or card.estimator.display_name == Classifier.display_name:
        raise CardError(f"{where}: its estimator {card.estimator.__name__} needs a display_name and a book_section.")
    for trait in ("two_class_only", "iterative"):
        if not isinstance(getattr(card, trait), bool):
            raise CardError(f"{where}: {trait} must be True or False.")
    if not isinstance(card.cost, CostModel):
        raise CardError(f"{where}: its cost must be a CostModel.")
    if not isinstance(card.specs, tuple) or not all(isinstance(spec, Spec) for spec in card.specs):
        raise CardError(f"{where}: its specs must be a tuple of Spec.")
    _check_specs(where, card.specs, constructor_params(card.estimator))


def _check_specs(where: str, specs: Sequence[Spec], parameters: Sequence[str]) -> None:
    seen: list[str] = []
    for spec in specs:
        setting = f"{where}: the setting {spec.name!r}"
        if spec.name not in parameters:
            raise CardError(f"{setting} is not a parameter of the estimator ({', '.join(parameters)}).")
        if spec.kind not in _KINDS:
            raise CardError(f"{setting} has the unknown kind {spec.kind!r} (one of {', '.join(_KINDS)}).")
        for condition, _value in spec.when:
            if condition not in seen:
                raise CardError(f"{setting} depends on {condition!r}, which is not a setting listed before it.")
        value, problem = spec.clean(spec.default)
        if problem or value != spec.default:
            raise CardError(f"{setting} has the default {spec.default!r}, which its spec does not accept.")
        seen.append(spec.name)


def cards(*listed: MethodCard) -> tuple[MethodCard, ...]:
    """The cards in the order given (the app's method list), checked to have unique names."""
    names: set[str] = set()
    for card in listed:
        if not isinstance(card, MethodCard):
            raise CardError(f"The registry lists {card!r}, which is not a MethodCard.")
        if card.name in names:
            raise CardError(f"Two method cards are named {card.name!r}: a registry name names one method.")
        names.add(card.name)
    return tuple(listed)
