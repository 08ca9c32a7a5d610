"""Every method card is complete, the back-end half (playground/card.py, issue 45): each card's
name is its registry name, its estimator fits with its specs' defaults, its traits agree with what
the estimator does (a two-class card's fit refuses three classes, an iterative card's fit records
steps to replay), and its cost model grows with the points; a card that breaks a rule stops the
import with a sentence naming it."""

import dataclasses

import numpy as np
import pytest

from playground import CARDS, MODELS, CostModel, MethodCard, PlaygroundError, make_model
from playground.card import NEWTON_COST, CardError, cards, fit_shape
from playground.registry import CARD_BY_NAME, ITERATIVE_METHODS, METHOD_SPECS, TWO_CLASS_METHODS, method_card
from playground.scene import DEFAULT_METHOD, Scene
from playground.specs import Spec, clean_settings
from tests.conftest import clusters

NAMES = [card.name for card in CARDS]


def _defaults(card):
    values, messages = clean_settings(card.specs, {}, "method parameter")
    assert messages == []
    return values


def test_the_registry_lists_each_card_once_and_its_views_follow_the_cards():
    assert len(set(NAMES)) == len(NAMES) == len(MODELS)
    assert list(MODELS) == NAMES == list(METHOD_SPECS) == list(CARD_BY_NAME)
    assert TWO_CLASS_METHODS == {card.name for card in CARDS if card.two_class_only}
    assert ITERATIVE_METHODS == {card.name for card in CARDS if card.iterative}


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
def test_a_cards_name_is_its_registry_name(card):
    assert method_card(card.name) is card and CARD_BY_NAME[card.name] is card
    assert MODELS[card.name] is card.estimator and METHOD_SPECS[card.name] is card.specs
    assert card.display_name == card.estimator.display_name and card.book_section == card.estimator.book_section
    assert type(make_model(card.name)) is card.estimator


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
def test_the_estimator_fits_a_small_dataset_with_the_specs_defaults(card):
    X, y = clusters(2, 15, seed=3)
    model = make_model(card.name, **_defaults(card)).fit(X, y)
    assert model.score(X, y) > 0.8
    direct = card.estimator(**_defaults(card)).fit(X, y)  # the constructor takes the defaults as they are
    np.testing.assert_array_equal(direct.predict(X), model.predict(X))


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
def test_every_spec_default_is_one_its_spec_accepts(card):
    for spec in card.specs:
        assert spec.clean(spec.default) == (spec.default, None), (card.name, spec.name)


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
def test_two_class_only_is_exactly_the_fits_refusing_three_classes(card):
    X, y = clusters(3, 12, seed=4)
    try:
        make_model(card.name).fit(X, y)
    except PlaygroundError as err:
        refused, message = True, str(err)
    else:
        refused, message = False, ""
    assert refused == card.two_class_only, message
    if card.two_class_only:  # ... and the app runs it one-versus-rest instead
        assert card.fitted_strategy("native", 3) == "ovr" and card.fitted_strategy("native", 2) == "native"
        make_model(card.name, multiclass=card.fitted_strategy("native", 3)).fit(X, y)
    else:
        assert card.fitted_strategy("native", 3) == "native"


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
def test_iterative_is_exactly_the_fits_with_a_step_history(card):
    """The Iterations and playback panels read the fit's steps from ``history_``; a replay of the
    boundary (``at_step``, ui/engine/fitview.py) exists for iterative fits only (the Bayesian
    model records its Newton steps, but its Laplace posterior exists at the mode alone)."""
    X, y = clusters(2, 15, seed=3)
    model = make_model(card.name).fit(X, y)
    history = getattr(model, "history_", None)
    assert (history is not None and len(history) >= 1) == card.iterative
    if hasattr(model, "at_step"):
        assert card.iterative
        first = model.at_step(0)
        assert type(first) is card.estimator and first.predict(X).shape == y.shape


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
def test_has_probabilities_is_exactly_the_fits_with_posteriors(card):
    X, y = clusters(3, 12, seed=4)
    model = make_model(card.name, multiclass=card.fitted_strategy("native", 3)).fit(X, y)
    assert hasattr(model, "predict_proba") == card.has_probabilities
    if card.has_probabilities:
        np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize("card", CARDS, ids=NAMES)
@pytest.mark.parametrize("basis, params", [("identity", ()), ("polynomial", (("degree", 3),)), ("rbf", ())])
@pytest.mark.parametrize("strategy", ["native", "ovr", "ovo"])
def test_the_cost_is_positive_and_grows_with_the_points(card, basis, params, strategy):
    costs = []
    for n in (1, 10, 100, 1_000, 5_000):
        shape = fit_shape(n, 3, basis, params, card.fitted_strategy(strategy, 3))
        assert shape.size > 0 and shape.columns == shape.features + 1
        costs.append(card.cost.work(shape, 80))
    assert costs[0] > 0 and all(a < b for a, b in zip(costs, costs[1:], strict=False))


def test_newton_methods_cost_more_than_a_closed_form_on_the_same_scene():
    shape = fit_shape(1_000, 2, "identity", (), "native")
    assert NEWTON_COST.work(shape, 80) > CostModel().work(shape, 80)
    assert method_card("softmax").cost == NEWTON_COST and method_card("least_squares").cost == CostModel()


def test_a_card_is_immutable():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CARDS[0].iterative = True  # type: ignore[misc]


def _card(**changes):
    fields = {"name": "test_method", "estimator": CARDS[0].estimator, "specs": CARDS[0].specs, **changes}
    return MethodCard(**fields)


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"name": "Least Squares"}, "lower case"),
        ({"estimator": int}, "Classifier class"),
        ({"specs": (Spec("nonesuch", "bool", False),)}, "not a parameter"),
        ({"specs": (Spec("targets", "colour", "one_of_k"),)}, "unknown kind"),
        ({"specs": (Spec("targets", "choice", "nonesuch", ("one_of_k",)),)}, "does not accept"),
        ({"specs": (Spec("targets", "choice", "one_of_k", ("one_of_k",), when=(("solver", "irls"),)),)}, "before it"),
        ({"specs": [Spec("targets", "choice", "one_of_k", ("one_of_k",))]}, "tuple of Spec"),
        ({"iterative": 1}, "True or False"),
        ({"cost": 4}, "CostModel"),
    ],
)
def test_a_card_breaking_a_rule_is_refused_with_a_sentence_naming_it(changes, words):
    with pytest.raises(CardError, match=words) as refused:
        _card(**changes)
    assert str(refused.value).endswith(".") and "method card" in str(refused.value)


def test_two_cards_of_one_name_are_refused():
    assert cards(_card(), _card(name="other_method"))[1].name == "other_method"
    with pytest.raises(CardError, match="Two method cards are named 'test_method'"):
        cards(_card(), _card())
    with pytest.raises(CardError, match="not a MethodCard"):
        cards(_card(), MODELS)  # type: ignore[arg-type]
    with pytest.raises(CardError, match="at least 1"):
        CostModel(solves=0)


def test_a_new_scene_starts_with_the_first_card():
    assert Scene().method == DEFAULT_METHOD == CARDS[0].name
