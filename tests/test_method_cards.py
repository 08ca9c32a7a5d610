"""Every method card is complete (ui/methods/): what a new method's page must define, checked for
every card the package discovers against every method the registry offers, both ways.

A card says what the method does (its about text), how the notebook writes it in numpy and with
scikit-learn (or why not), and how the sidebar shows each of its settings under which session key;
its equations come from ``ui.equations`` by the estimator's class. The notebooks' full runs, against
the app, are tests/test_export.py's (one scene per card at least, checked here).
"""

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import MODELS, make_model
from playground.registry import TWO_CLASS_METHODS, method_card
from playground.scene import Scene
from playground.specs import BASIS_SPECS, clean_settings
from scripts.catalogs import catalog_entries, messages_in
from tests.test_export import SCRIPT_SCENES, clusters
from ui.equations import _writer_of, model_equations
from ui.export.cells import numpy_code, settings_of
from ui.methods import CARDS, MethodPage
from ui.session.widget_keys import BASIS_KEYS, BASIS_WIDGET_KEYS, setting_widget_keys

ROOT = Path(__file__).resolve().parents[1]
NAMES = sorted(MODELS)
WIDGET_KINDS = {"choice", "int", "float", "bool", "priors", "vector"}  # the kinds ui.widgets.method_params draws
# A book reference ("eq. 4.26-4.30", "section 4.1.5", "figure 4.4", "§4.1.5"): an equation's number, not a scene's.
BOOK_REFERENCE = re.compile(r"(eq\.|section|sections|figure|§)\s*\d+(\.\d+)*(-\d+(\.\d+)*)?")


def card(name: str) -> MethodPage:
    return CARDS[name]


def marked_in_its_module(name: str) -> set[str]:
    """The N_-marked messages of the card's module (and of the shared card modules it imports)."""
    paths = [ROOT / "ui" / "methods" / f"{name}.py", *(ROOT / "ui" / "methods").glob("*.py")]
    return {msgid for path in paths for msgid, _line, _problem in messages_in(path) if msgid}


@pytest.fixture(scope="module")
def translated():
    """{msgid} translated in both catalogs' languages."""
    ja, zh = catalog_entries("ja"), catalog_entries("zh")
    return {msgid for msgid in ja if msgid and ja[msgid][0][1] and zh.get(msgid, [("", "")])[0][1]}


def two_class_scene(name: str) -> Scene:
    return Scene(points=clusters(2, spread=1.4)).with_method(name, {}, "native")


def test_every_method_has_one_card_and_every_card_a_method():
    assert set(CARDS) == set(MODELS)
    assert all(CARDS[name].method == name for name in CARDS)


@pytest.mark.parametrize("name", NAMES)
def test_the_about_text_is_marked_translated_and_gives_no_scene_s_numbers(name, translated):
    about = card(name).about
    assert about and about in marked_in_its_module(name) and about in translated
    without_references = BOOK_REFERENCE.sub("", about)
    assert not re.search(r"\d\.\d|\{", without_references), about  # no decimal, no placeholder


@pytest.mark.parametrize("name", NAMES)
def test_the_equations_describe_the_fitted_model(name):
    scene = two_class_scene(name)
    model = make_model(name).fit(scene.points.X, scene.points.y)
    assert _writer_of(type(model)) is (card(name).equations or _writer_of(object))  # the card's own writer
    if card(name).equations is None:
        # A card without equations is written as its linear discriminants: it must have them.
        assert getattr(model, "is_linear", False) and hasattr(model, "coef_"), "ui.equations cannot write it"
    equations = model_equations(model, point=(0.5, 0.5))
    assert equations and any(equation.number for equation in equations)
    assert equations[-1].title  # the prediction at the point closes them


# Three classes only for the methods with a K-class form: a two-class method's notebook runs it on
# more through its one-versus-rest cell (tests/test_export.py), so no case here is skipped.
CELL_CASES = [(name, k) for name in NAMES for k in (2, 3) if k == 2 or name not in TWO_CLASS_METHODS]


@pytest.mark.parametrize(("name", "k"), CELL_CASES)
def test_the_numpy_cell_runs_and_predicts_as_the_app(name, k):
    scene = Scene(points=clusters(k, spread=1.4)).with_method(name, {}, "native")
    text = card(name).numpy_text
    assert text in marked_in_its_module(name)
    namespace = {"np": np}
    exec(numpy_code(name, settings_of(scene)), namespace)  # noqa: S102  (the exported cell, as the notebook runs it)
    X, y = scene.points.X, scene.points.y
    fitted = namespace["fit"](X, y)
    predicted = np.argmax(namespace["discriminants"](fitted, X), axis=1)
    app = make_model(name, **settings_of(scene)).fit(X, y)
    np.testing.assert_array_equal(predicted, app.predict(X))
    assert set(namespace) >= {"fit", "discriminants", "weights", "posteriors"}


def test_every_card_has_a_scene_the_export_tests_run():
    assert {scene.method for scene in SCRIPT_SCENES.values()} >= set(CARDS)


@pytest.mark.parametrize("name", NAMES)
def test_scikit_learn_is_a_cell_or_a_sentence_saying_why_not(name, translated):
    page = card(name)
    assert (page.sklearn is None) == bool(page.no_counterpart)
    if page.sklearn is None:
        assert page.no_counterpart in marked_in_its_module(name) and page.no_counterpart in translated
        return
    scene = two_class_scene(name)
    code, same_weights = page.sklearn(settings_of(scene), 2)
    namespace = {"np": np, "X": scene.points.X, "phi": lambda F: F}
    exec(code, namespace)  # noqa: S102  (the exported cell)
    estimator = namespace["estimator"].fit(scene.points.X, scene.points.y)
    assert estimator.predict(scene.points.X).shape == (len(scene.points.X),) and isinstance(same_weights, bool)
    if page.differences:
        assert page.differences in marked_in_its_module(name) and page.differences in translated


@pytest.mark.parametrize("name", NAMES)
def test_every_setting_has_a_widget_and_every_control_a_setting(name, translated):
    page = card(name)
    for spec in page.specs:
        assert spec.kind in WIDGET_KINDS, spec
        assert page.widget_key(spec), spec
        control = page.control(spec)
        if spec.kind not in ("priors",) and not control.book_weights:
            assert control.label in marked_in_its_module(name) and control.label in translated, spec
        for text in (
            control.help,
            *(control.labels or {}).values(),
            *(control.toggle and (control.toggle.label,) or ()),
        ):
            if text:
                assert text in marked_in_its_module(name) and text in translated, spec
        if control.labels:
            assert set(control.labels) == set(spec.options), spec
    named = {(spec.name, spec.when) for spec in page.specs}
    assert all((control.name, control.when) in named for control in page.controls)
    assert set(page.drawing_order()) == set(page.specs) and len(page.drawing_order()) == len(page.specs)
    assert all(set(dict(spec.when)) <= {s.name for s in page.specs} for spec in page.specs)


def _widget_keys(page: MethodPage) -> list[str]:
    """Every session key the card's widgets use (priors and vectors expanded, checkboxes in front)."""
    keys = []
    for spec in page.specs:
        key, control = page.widget_key(spec), page.control(spec)
        keys += [control.toggle.key] if control.toggle else []
        if spec.kind == "priors":
            keys += [f"{key}_set_priors", *(f"{key}_prior_{k}" for k in range(6))]
        elif spec.kind == "vector" and not control.book_weights:
            keys += [f"{key}{i + 1}" for i in range(spec.size or 0)]
        else:
            keys.append(key)
    return keys


def test_no_two_widgets_of_any_cards_or_the_basis_share_a_key():
    keys = [key for page in CARDS.values() for key in _widget_keys(page)]
    basis = [key for owned in BASIS_KEYS.values() for key in owned.values() if key]
    assert len(keys) == len(set(keys)) and not set(keys) & set(basis) and not set(keys) & set(BASIS_WIDGET_KEYS)
    assert set(keys) <= setting_widget_keys()  # a load or a reset clears them all
    assert set(BASIS_SPECS) == set(BASIS_KEYS)


def _draw(method: str, classes: list[int]) -> None:
    import streamlit as st

    from ui.widgets.method_params import method_widgets

    st.session_state["params"] = method_widgets(method, classes)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("classes", [[0, 1], [0, 1, 2]])
def test_the_generated_widgets_draw_and_give_the_specs_defaults(name, classes):
    at = AppTest.from_function(_draw, args=(name, classes), default_timeout=30).run()
    assert not at.exception
    defaults, _unused = clean_settings(card(name).specs, {}, "parameter", "scene")
    assert at.session_state["params"] == defaults
    kinds = (at.radio, at.select_slider, at.slider, at.checkbox, at.number_input, at.text_input)
    widget_keys = {widget.key for widgets in kinds for widget in widgets}
    assert widget_keys <= set(_widget_keys(card(name)))
    assert widget_keys or len(classes) > 2  # least squares' targets: a caption with more than two classes


def _draw_bare(method: str, classes: list[int]) -> None:
    import dataclasses

    import streamlit as st

    from ui.methods import CARDS
    from ui.widgets.method_params import page_widgets

    st.session_state["params"] = page_widgets(dataclasses.replace(CARDS[method], controls=()), classes)


@pytest.mark.parametrize("name", NAMES)
def test_a_card_without_controls_still_gets_a_widget_per_setting_under_generated_keys(name):
    """What a new method's card gets when it keeps no keys and shapes nothing: its kinds' widgets."""
    bare = dataclasses.replace(card(name), controls=())
    at = AppTest.from_function(_draw_bare, args=(name, [0, 1]), default_timeout=30).run()
    assert not at.exception
    kinds = (at.radio, at.select_slider, at.slider, at.checkbox, at.number_input, at.text_input)
    drawn = {widget.key for widgets in kinds for widget in widgets}
    assert drawn and drawn <= set(_widget_keys(bare))
    assert all(key.startswith(f"{name}_") for key in drawn)
    defaults, _unused = clean_settings(bare.specs, {}, "parameter", "scene")
    params = at.session_state["params"]
    for spec in bare.specs:
        if spec.kind != "vector" and spec.applies(defaults):  # a bare vector is numbers, not None
            assert params[spec.name] == defaults[spec.name], spec


def test_every_panel_a_card_lists_exists_and_every_named_panel_is_some_card_s():
    from ui.panels import all_panels

    named = {panel.name for panel in all_panels() if panel.name}
    listed = {name for card in CARDS.values() for name in card.panels}
    assert listed <= named, f"cards list panels no module defines: {sorted(listed - named)}"
    assert named <= listed, f"named panels no card lists (they would never show): {sorted(named - listed)}"


def test_the_presenter_setting_is_a_choice_of_the_card_s_method():
    for card in CARDS.values():
        if card.presenter_setting:
            specs = {spec.name: spec for spec in card.specs}
            assert specs[card.presenter_setting].kind == "choice", card.method
            for option in specs[card.presenter_setting].options:
                card.presenter_format.format(option)


def test_a_subclass_registered_as_its_own_method_is_written_by_its_own_card_and_an_unregistered_one_by_its_parents():
    from playground.gaussian import SharedCovarianceGaussian

    class Unregistered(SharedCovarianceGaussian):
        pass

    assert _writer_of(Unregistered) is card("gaussian_shared").equations
    for name in NAMES:
        estimator = method_card(name).estimator
        assert _writer_of(estimator) is (card(name).equations or _writer_of(object)), name
