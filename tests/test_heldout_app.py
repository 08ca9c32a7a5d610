"""Test points in the app (issue 16): ignored by every fit, scored in the status line and the
Metrics panel (checked against scikit-learn), carried by links, files, undo and the generator."""

import re
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as sk
from streamlit.testing.v1 import AppTest

from playground import make_model
from playground.fileio import scene_from_json, scene_to_json
from playground.link import decode_scene, encode_scene
from playground.points_csv import read_points_csv
from playground.presets import PRESETS
from playground.scene import PointSet, Scene
from tests.hostile_cases import TWO_CLASSES
from ui.engine.workers import fit_scene

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")

# Two classes; the test points include far, "wrong" points that would move any fit that used them.
_FAR = PointSet.from_arrays([[9.0, 9.0], [-9.0, -8.0], [8.5, -9.0], [0.0, 9.5]], [0, 1, 0, 1], [True] * 4)
SPLIT = TWO_CLASSES.held_out(0.3, 2).extended(_FAR)


def _open(scene, **extra):
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in {**encode_scene(scene), **extra}.items():
        at.query_params[name] = value
    return at.run()


def _status(at):
    return next(m.value for m in at.markdown if "class 1" in m.value and "accuracy" in m.value)


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _percent(text, what):
    return float(re.search(rf"{what} accuracy \*\*([\d.]+)%\*\*", text).group(1)) / 100


@pytest.mark.parametrize(
    ("method", "multiclass"),
    [("least_squares", "native"), ("logistic", "native"), ("svm", "native"), ("perceptron", "native")],
)
def test_the_app_fits_the_training_points_alone(method, multiclass):
    """The model the app shows equals the model fitted to the training points only: the status
    line's accuracies are those of that model, on the training and on the test points."""
    scene = Scene(points=SPLIT, method=method, multiclass=multiclass, window=Scene().window)
    at = _open(scene)
    assert not at.exception
    training, testing = SPLIT.training, SPLIT.testing
    alone, error = fit_scene(training.X, training.y, method, (), multiclass, "identity", ())
    with_all, _ = fit_scene(SPLIT.X, SPLIT.y, method, (), multiclass, "identity", ())
    assert error is None
    assert not np.allclose(alone.coef_, with_all.coef_)  # the test points would have moved it
    status = _status(at)
    assert _percent(status, "training") == pytest.approx(np.mean(alone.predict(training.X) == training.y), abs=5e-4)
    assert _percent(status, "test") == pytest.approx(np.mean(alone.predict(testing.X) == testing.y), abs=5e-4)
    assert f"{int(np.sum(SPLIT.testing.y == 0))} test" in status


def test_every_panel_and_overlay_sees_the_training_points_alone(monkeypatch):
    """The panels' context (overlays on the canvas, the open panel) holds the training points; the
    Metrics panel alone reads every point."""
    import ui.page.app

    seen = []
    original = ui.page.app.active_panels

    def recording(context):
        seen.append(context)
        return original(context)

    monkeypatch.setattr(ui.page.app, "active_panels", recording)
    at = _open(Scene(points=SPLIT, method="fisher", window=Scene().window), tab="Fisher projection (fig. 4.6)")
    assert not at.exception and len(seen) >= 2
    for context in seen:
        assert context.scene.points == SPLIT.training and context.all_points == SPLIT


def test_metrics_panel_equals_scikit_learn_on_the_same_predictions():
    scene = Scene(points=SPLIT, method="logistic", window=Scene().window)
    at = _open(scene, tab="Metrics")
    assert not at.exception and at.session_state.panel_tab == "Metrics"
    training, testing = SPLIT.training, SPLIT.testing
    model = make_model("logistic").fit(training.X, training.y)
    metrics = {m.label: m.value for m in at.metric}
    for what, points in (("Training", training), ("Test", testing)):
        predicted = model.predict(points.X)
        assert metrics[f"{what} accuracy"] == f"{sk.accuracy_score(points.y, predicted):.1%}"
        loss = sk.log_loss(points.y, model.predict_proba(points.X), labels=model.classes_)
        assert float(metrics[f"{what} log loss"].replace("−", "-")) == pytest.approx(loss, rel=1e-3)
    tables = [frame.value for frame in at.dataframe if "precision" in frame.value.columns]
    assert len(tables) == 2
    for table, points in zip(tables, (training, testing)):
        predicted = model.predict(points.X)
        precision, recall, _, support = sk.precision_recall_fscore_support(
            points.y, predicted, labels=[0, 1], zero_division=np.nan
        )
        assert list(table["class"]) == ["class 1", "class 2"]  # numbered from 1
        assert list(table["points"]) == list(support)
        assert list(table["precision"]) == [f"{v:.1%}" for v in precision]
        assert list(table["recall"]) == [f"{v:.1%}" for v in recall]


def test_metrics_panel_without_test_points_says_how_to_make_some():
    at = _open(Scene(points=TWO_CLASSES, method="svm", window=Scene().window), tab="Metrics")
    assert not at.exception
    assert any("No test points" in i.value for i in at.info)
    assert "Test log loss" not in {m.label for m in at.metric}
    assert "Training log loss" not in {m.label for m in at.metric}  # the SVM gives no probabilities


def test_hold_out_undo_redo_and_back_to_training():
    at = AppTest.from_file(APP, default_timeout=120).run()
    before = at.session_state.scene.points
    at.slider(key="split_fraction").set_value(40)
    at.number_input(key="split_seed").set_value(5).run()
    _button(at, "Hold out").click().run()
    held = at.session_state.scene.points
    assert held.n_test == 36  # 40 % of 30 in each of 3 classes
    assert held == before.held_out(0.4, 5)
    assert held.n_test == 36 and list(held.testing.counts()[:3]) == [12, 12, 12]
    assert "test accuracy" in _status(at)
    decoded, messages = decode_scene(dict(at.query_params))  # the address bar carries the flags
    assert messages == [] and decoded.points == held
    _button(at, "↶ Undo").click().run()
    assert at.session_state.scene.points == before and "test accuracy" not in _status(at)
    _button(at, "↷ Redo").click().run()
    assert at.session_state.scene.points == held
    _button(at, "All training").click().run()
    assert at.session_state.scene.points == before


def test_the_generator_holds_out_a_share_of_each_class():
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.slider(key="gen_classes").set_value(2)
    at.slider(key="gen_points").set_value(20)
    at.slider(key="gen_held_out").set_value(25).run()
    _button(at, "Replace points").click().run()
    points = at.session_state.scene.points
    assert len(points) == 40 and list(points.testing.counts()[:2]) == [5, 5]
    again = AppTest.from_file(APP, default_timeout=120).run()
    again.slider(key="gen_classes").set_value(2)
    again.slider(key="gen_points").set_value(20)
    again.slider(key="gen_held_out").set_value(25).run()
    _button(again, "Replace points").click().run()
    assert again.session_state.scene.points == points  # the generator's seed draws the split too


def test_a_csv_with_a_set_column_loads_test_points_and_a_bad_one_changes_nothing():
    at = AppTest.from_file(APP, default_timeout=120).run()
    before = at.session_state.scene.points
    at.file_uploader[0].upload("p.csv", b"x1,x2,class,set\n0,0,1,train\n1,1,2,train\n2,0,1,test\n", "text/csv").run()
    points = at.session_state.scene.points
    assert points == read_points_csv("x1,x2,class,set\n0,0,1,train\n1,1,2,train\n2,0,1,test\n").points
    assert points.test == (False, False, True)
    at.file_uploader[0].upload("bad.csv", b"x1,x2,class,set\n0,0,1,maybe\n", "text/csv").run()
    assert at.session_state.scene.points == points
    assert any("neither train nor test" in e.value for e in at.error)
    _button(at, "↶ Undo").click().run()
    assert at.session_state.scene.points == before


def test_a_scene_file_with_test_points_loads_them():
    scene = Scene(points=SPLIT, method="softmax", window=Scene().window)
    data = scene_to_json(scene).encode()
    assert scene_from_json(data)[0].points == SPLIT
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.file_uploader[0].upload("s.json", data, "application/json").run()
    assert at.session_state.scene.points == SPLIT and "test accuracy" in _status(at)


def test_the_overfitting_preset_is_perfect_on_training_and_poor_on_test():
    at = AppTest.from_file(APP, default_timeout=120).run()
    next(b for b in at.button if b.key == "preset_overfit").click().run()
    assert not at.exception
    status = _status(at)
    assert _percent(status, "training") == 1.0
    assert _percent(status, "test") == pytest.approx(0.575)
    assert at.session_state.panel_tab == "Metrics"
    assert any("over-fitting" in i.value for i in at.info)
    scene = PRESETS["overfit"].scene
    straight = fit_scene(
        *(scene.training.points.X, scene.training.points.y), "least_squares", (), "native", "identity", ()
    )
    assert np.mean(straight[0].predict(scene.points.testing.X) == scene.points.testing.y) == pytest.approx(0.9)


def test_compared_methods_are_scored_on_the_training_and_the_test_points():
    scene = PRESETS["overfit"].scene
    at = _open(scene, cmp="least_squares,svm")
    assert not at.exception
    titles = [m.value for m in at.markdown if "wrong)" in m.value]
    training, testing = scene.training.points, scene.points.testing
    svm, _ = fit_scene(training.X, training.y, "svm", (), "native", scene.basis, scene.basis_params)
    svm_test = np.mean(svm.predict(testing.X) == testing.y)
    assert titles[0] == "**Least squares**: training **100.0%** (0 wrong) · test **57.5%**"
    assert titles[1].startswith("**Support vector machine**: training") and f"test **{svm_test:.1%}**" in titles[1]


def test_all_test_points_say_why_there_is_no_fit_and_all_training_brings_it_back():
    everything = TWO_CLASSES.with_test(range(len(TWO_CLASSES)))
    at = _open(Scene(points=everything, method="logistic", window=Scene().window))
    assert not at.exception
    assert any(f"All {len(everything)} points are test points" in w.value for w in at.warning)
    assert "●</span> class 1: 0 + 15 test" in next(m.value for m in at.markdown if "class 1" in m.value)
    _button(at, "All training").click().run()
    assert at.session_state.scene.points == TWO_CLASSES and not at.warning
