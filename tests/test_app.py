"""AppTest: the widgets and the default scene, driven headless (no browser)."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import MODELS

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


@pytest.fixture
def app():
    return AppTest.from_file(APP, default_timeout=60).run()


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _points(at):
    return at.session_state.scene.points


def _status(at):
    return next(m.value for m in at.markdown if "class 1" in m.value)


def test_default_scene_is_fitted_and_explained(app):
    assert not app.exception
    points = _points(app)
    assert len(points) == 90 and list(points.counts()[:3]) == [30, 30, 30]
    assert "training accuracy" in _status(app)
    assert not app.warning
    assert any("What is drawn" in c.value for c in app.caption)


def test_method_list_comes_from_the_registry(app):
    method_box = next(s for s in app.selectbox if s.label == "Method")
    assert len(method_box.options) == len(MODELS)
    assert method_box.value == "least_squares"


def test_generate_replace_add_undo_redo_clear(app):
    app.slider(key="gen_classes").set_value(2)
    app.slider(key="gen_points").set_value(25)
    app.number_input(key="gen_seed").set_value(11)
    _button(app, "Replace points").click().run()
    first = _points(app)
    assert len(first) == 50 and list(first.counts()[:2]) == [25, 25]

    _button(app, "Add to points").click().run()
    assert len(_points(app)) == 100
    # Same seed, same points: the added half repeats the first.
    np.testing.assert_array_equal(_points(app).X[50:], first.X)

    _button(app, "↶ Undo").click().run()
    assert _points(app) == first
    _button(app, "↷ Redo").click().run()
    assert len(_points(app)) == 100

    _button(app, "✕ Clear all").click().run()
    assert len(_points(app)) == 0
    assert any("no points" in w.value for w in app.warning)
    _button(app, "↶ Undo").click().run()
    assert len(_points(app)) == 100 and not app.warning


def test_one_class_gives_a_message_and_keeps_the_points(app):
    app.slider(key="gen_classes").set_value(1)
    _button(app, "Replace points").click().run()
    assert not app.exception
    assert len(_points(app)) == 30
    assert any("at least 2 classes" in w.value for w in app.warning)
    assert "training accuracy" not in _status(app)


def test_shared_covariance_and_seed_change_the_points(app):
    _button(app, "Replace points").click().run()
    base = _points(app)
    app.number_input(key="gen_seed").set_value(2)
    _button(app, "Replace points").click().run()
    assert _points(app) != base
    app.checkbox(key="gen_shared").check()
    _button(app, "Replace points").click().run()
    X, y = _points(app).X, _points(app).y
    assert len(_points(app)) == 90 and set(np.unique(y)) == {0, 1, 2}
    assert np.all(np.isfinite(X))


def test_fisher_targets_are_offered_for_two_classes_only(app):
    assert not [r for r in app.radio if r.key == "ls_targets"]  # three classes: 1-of-K only
    app.slider(key="gen_classes").set_value(2)
    _button(app, "Replace points").click().run()
    app.radio(key="ls_targets").set_value("fisher").run()
    assert not app.warning and "training accuracy" in _status(app)
    assert app.session_state.scene.param_dict["targets"] == "fisher"


@pytest.mark.parametrize("method", sorted(MODELS))
def test_every_method_runs_on_the_default_scene(app, method):
    # Two-class-only methods run one-versus-rest with three classes, and say so: never an empty page.
    app.selectbox(key="method").set_value(method).run()
    assert not app.exception and not app.warning
    assert "training accuracy" in _status(app) and app.tabs
