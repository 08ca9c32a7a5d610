"""The shareable link in the app (AppTest): the address bar follows the scene, a link reproduces
it exactly in a fresh session, and a damaged link loads what it can with a message."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground.link import encode_scene
from playground.scene import Scene
from playground.specs import C_VALUES
from ui.session.widget_values import widget_state
from ui.text.markdown import unescape

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _run(query=None):
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    return at.run()


def _open_copy(at):
    """A fresh session opened on the first session's address bar."""
    return _run(dict(at.query_params))


def test_address_bar_follows_the_scene_and_reopens_it():
    at = _run()
    at.selectbox(key="method").set_value("softmax").run()
    at.radio(key="sm_solver").set_value("gd").run()
    at.select_slider(key="sm_lr").set_value(0.3).run()
    at.select_slider(key="sm_l2").set_value(0.01).run()
    assert not at.exception
    query = dict(at.query_params)
    assert query["m"] == "softmax" and '"learning_rate":0.3' in query["mp"]

    copy = _open_copy(at)
    assert not copy.exception and not copy.warning
    original, reopened = at.session_state.scene, copy.session_state.scene
    assert reopened.points.X.tobytes() == original.points.X.tobytes()  # the very same float64 values
    assert (reopened.method, reopened.params, reopened.multiclass) == (
        original.method,
        original.params,
        original.multiclass,
    )
    assert copy.select_slider(key="sm_lr").value == 0.3 and copy.radio(key="sm_solver").value == "gd"
    assert reopened.window == original.window
    assert dict(copy.query_params) == query  # link -> scene -> link is stable


def test_an_opened_link_is_where_the_session_starts():
    """Undo is off after opening a link: the default scene it replaced was never on screen."""
    copy = _open_copy(_run())
    assert not copy.exception
    assert next(b for b in copy.button if b.label == "↶ Undo").disabled
    assert not copy.session_state.history.past


@pytest.mark.parametrize(
    ("method", "params", "widget_key", "value"),
    [
        ("svm", {"C": 30.0}, "svm_C", 30.0),
        ("svm", {"C": None}, "svm_hard", True),
        # The input shows the book's w (into C1), the back-end's w_init negated (ui/text/convention.py).
        ("perceptron", {"eta": 0.5, "max_epochs": 7, "w_init": (5.0, -6.0, 1.0)}, "perc_w_init", "-5, 6, -1"),
        ("logistic", {"w_init": (1.0, -1.0, 1.0)}, "lr_w_init", "-1, 1, -1"),
        ("fisher", {"threshold": "gaussian"}, "fisher_threshold", "gaussian"),
        ("naive_bayes", {"variant": "bernoulli"}, "nb_variant", "bernoulli"),
        ("gaussian_shared", {"priors": (0.2, 0.3, 0.5)}, "gs_prior_2", 0.5),
    ],
)
def test_a_link_sets_the_method_widgets(method, params, widget_key, value):
    at = _run()
    multiclass = "ovr" if method in ("svm", "perceptron", "logistic") else "native"  # two-class methods, 3 classes
    scene = Scene(at.session_state.scene.points, method, tuple(sorted(params.items())), multiclass)
    copy = _run(encode_scene(scene))
    assert not copy.exception and not copy.warning, [w.value for w in copy.warning]
    assert copy.session_state.scene.method == method
    assert copy.session_state[widget_key] == value
    for name, expected in params.items():
        assert copy.session_state.scene.param_dict[name] == expected


def test_a_damaged_link_loads_what_it_can_and_says_what_was_ignored():
    at = _run()
    query = encode_scene(at.session_state.scene.with_method("svm", {"C": 3.0}))
    query.update(m="no_such_method", w="1,2", s="-5", v="9", po="[]")
    copy = _run(query)
    assert not copy.exception
    text = unescape(copy.warning[0].value)
    for fragment in ("unknown method 'no_such_method'", "view window", "playback step", "another version"):
        assert fragment in text
    assert copy.session_state.scene.points == at.session_state.scene.points  # the readable part
    assert copy.session_state.scene.method == "least_squares"
    copy.button(key="dismiss_load_messages").click().run()
    assert not any("could not be used" in w.value for w in copy.warning)


def test_unreadable_points_fall_back_to_the_default_clusters():
    copy = _run({"v": "1", "p": "1,2,3,4~@@@", "m": "fisher"})
    assert "points were ignored" in unescape(copy.warning[0].value)
    assert len(copy.session_state.scene.points) == 90 and copy.session_state.scene.method == "fisher"


def test_values_the_widgets_cannot_show_are_named():
    values, messages = widget_state("svm", {"C": 7.0}, [0, 1])
    assert values["svm_C"] == 1.0 and "C = 7.0 is not one of the values offered" in messages[0]
    values, messages = widget_state("logistic", {"max_iter": 10**6}, [0, 1])
    assert values["lr_iter_irls"] == 100 and "outside 1 to 500; the default (100)" in messages[0]
    values, messages = widget_state("gaussian_shared", {"priors": (0.123, 0.877)}, [0, 1])
    assert (values["gs_prior_0"], values["gs_prior_1"]) == (0.12, 0.88) and "rounded" in messages[0]
    assert set(C_VALUES) >= {0.01, 1000.0}


def test_oversized_link_is_refused_with_a_message():
    copy = _run({"v": "1", "p": "x" * 300_000, "mp": "{" * 5000})
    assert not copy.exception
    assert "too long" in unescape(copy.warning[0].value)


def test_every_method_and_basis_has_its_widget_specs():
    """The one table covers every method the registry offers (a new method needs its specs, or a link
    could not carry its settings), and names only its constructor's arguments (that every method has
    its widgets: tests/test_method_cards.py)."""
    import inspect

    from playground.basis import BASES
    from playground.registry import MODELS
    from playground.specs import BASIS_SPECS, METHOD_SPECS

    assert set(METHOD_SPECS) == set(MODELS) and set(BASIS_SPECS) == set(BASES)
    for table, classes in ((METHOD_SPECS, MODELS), (BASIS_SPECS, BASES)):
        for name, specs in table.items():
            arguments = set(inspect.signature(classes[name].__init__).parameters)
            assert {spec.name for spec in specs} <= arguments, name


@pytest.mark.parametrize("method", ["probit", "bayesian_logistic"])
def test_the_newer_methods_round_trip_through_a_link(method):
    at = _run()
    at.selectbox(key="method").set_value(method).run()
    at.radio(key="multiclass").set_value("ovr").run()  # two-class methods, three classes
    assert not at.exception and not at.warning
    copy = _open_copy(at)
    assert not copy.exception and not copy.warning, [w.value for w in copy.warning]
    assert copy.session_state.scene.params == at.session_state.scene.params
