"""The SVM panel (margins, support vectors, SMO playback) and the basis-function panel and controls."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import MODELS, Window, make_model
from playground.basis import PolynomialBasis, RBFBasis
from playground.scene import PointSet, Scene, snap
from tests.conftest import clusters, player_data, show_step
from ui.panels import PanelContext
from ui.panels import basis as basis_panel
from ui.panels import svm as svm_panel

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
OVERLAPPING = {"spread": (1.6, 1.2)}


def context(X, y, model, shown=None, step=None, method="svm"):
    points = PointSet.from_arrays(X, y)
    window = Window.around(X)
    scene = Scene(points=points, method=method, window=window, step=step)
    return PanelContext(scene, model, model if shown is None else shown, window, {})


def _named(traces, text):
    return [t for t in traces if (t.name or "").startswith(text)]


# ---- SVM overlays ------------------------------------------------------------------------


def test_margin_lines_lie_at_distance_one_over_norm_w():
    X, y = clusters(2, 40, seed=3, **OVERLAPPING)
    model = make_model("svm", C=1.0).fit(X, y)
    w, b = model.coef_[0], model.intercept_[0]
    pieces = svm_panel.margin_segments(model.coef_, model.intercept_, Window.around(X))
    assert sorted(level for level, _, _ in pieces) == [-1.0, 1.0]
    for level, start, end in pieces:
        for p in (start, end):
            assert w @ p + b == pytest.approx(level, abs=1e-9)
            # Signed distance from the boundary y(x) = 0 (eq. 4.7): +-1/|w| = +-margin_.
            assert (w @ p + b) / np.linalg.norm(w) == pytest.approx(level * model.margin_, abs=1e-9)
    traces = svm_panel.overlay(context(X, y, model))
    (margin,) = _named(traces, "margin")
    assert margin.line.dash == "dash" and margin.hoverinfo == "skip"
    assert sum(v is None for v in margin.x) == 2  # two segments


def test_support_vector_rings_match_support_and_categories():
    X, y = clusters(2, 40, seed=3, **OVERLAPPING)
    model = make_model("svm", C=0.3).fit(X, y)
    traces = svm_panel.support_vector_traces(model, X)
    ringed = np.vstack([np.column_stack([t.x, t.y]) for t in traces])
    assert ringed.shape[0] == model.support_.size
    np.testing.assert_array_equal(np.unique(ringed, axis=0), np.unique(X[model.support_], axis=0))
    free, bound = traces
    assert free.marker.symbol != bound.marker.symbol and free.marker.color != bound.marker.color
    np.testing.assert_array_equal(np.column_stack([bound.x, bound.y]), X[model.margin_violators_])
    assert "α = C" in bound.name and all(t.meta != "points" and t.showlegend is not False for t in traces)


def test_playback_overlay_highlights_the_pair_and_hides_final_rings():
    X, y = clusters(2, 40, seed=5, **OVERLAPPING)
    X = snap(X)  # the points as the scene holds them (on the grid), which the overlay reads
    model = make_model("svm", C=1.0).fit(X, y)
    shown = model.at_step(3)
    traces = svm_panel.overlay(context(X, y, model, shown, step=3))
    (pair,) = _named(traces, "pair optimised")
    i, j = model.history_[2]["pair"]
    np.testing.assert_array_equal(np.column_stack([pair.x, pair.y]), X[[i, j]])
    assert not _named(traces, "support vector")
    (margin,) = _named(traces, "margin")  # the margin of step 3, not the final one
    start = np.array([margin.x[0], margin.y[0]])
    assert abs(shown.coef_[0] @ start + shown.intercept_[0]) == pytest.approx(1.0)
    # Step 0: w = 0, no margin and no pair.
    assert svm_panel.overlay(context(X, y, model, model.at_step(0), step=0)) == []


def test_objective_chart_marks_the_shown_step():
    X, y = clusters(2, 30, seed=2, **OVERLAPPING)
    model = make_model("svm", C=1.0).fit(X, y)
    figure = svm_panel.objective_figure(model, 4)
    line, marker = figure.data
    assert len(line.x) == len(model.history_) + 1 and line.y[0] == 0.0
    assert marker.x[0] == model.history_[3]["step"] and marker.y[0] == model.history_[3]["objective"]


def test_margins_on_a_basis_are_contours_and_rings_still_match():
    X, y = clusters(2, 30, seed=1, **OVERLAPPING)
    model = make_model("svm", C=1.0, basis=RBFBasis(width=1.5)).fit(X, y)
    traces = svm_panel.overlay(context(X, y, model))
    (contour,) = _named(traces, "margin")
    assert contour.type == "contour" and (contour.contours.start, contour.contours.end) == (-1, 1)
    ringed = sum(len(t.x) for t in _named(traces, "support vector"))
    assert ringed == model.estimator_.support_.size


def test_multiclass_svm_draws_each_sub_svms_margins():
    X, y = clusters(3, 30, seed=0)
    for strategy, count in (("ovr", 3), ("ovo", 3)):
        model = make_model("svm", C=1.0, multiclass=strategy).fit(X, y)
        traces = svm_panel.overlay(context(X, y, model))
        assert len(traces) == count and all("margins" in t.name for t in traces)


def test_basis_model_replays_the_inner_fit():
    X, y = clusters(2, 30, seed=4, **OVERLAPPING)
    model = make_model("svm", C=1.0, basis=PolynomialBasis(degree=2)).fit(X, y)
    shown = model.at_step(2)
    entry = model.estimator_.history_[1]
    np.testing.assert_allclose(shown.decision_function(X), model.features(X) @ entry["w"] + entry["b"])
    assert model.at_step(len(model.estimator_.history_)).estimator_.step_ == len(model.estimator_.history_)
    assert not hasattr(make_model("fisher", basis=PolynomialBasis()), "at_step")


# ---- basis-function overlays and the feature-space panel ----------------------------------


def test_rbf_centres_are_drawn_with_circles_of_radius_width():
    X, y = clusters(2, 30, seed=1)
    centres = ((-2.0, 0.0), (2.0, 0.5), (0.0, 1.0))
    model = make_model("logistic", basis=RBFBasis(centres=centres, width=0.7)).fit(X, y)
    circles, markers = basis_panel.overlay(context(X, y, model, method="logistic"))
    assert markers.meta == "centres"
    np.testing.assert_array_equal(markers.customdata, [0, 1, 2])
    np.testing.assert_allclose(np.column_stack([markers.x, markers.y]), centres)
    path = np.array([(px, py) for px, py in zip(circles.x, circles.y) if px is not None])
    radii = np.min(np.linalg.norm(path[:, None, :] - np.array(centres)[None], axis=2), axis=1)
    np.testing.assert_allclose(radii, 0.7, atol=1e-5)
    # Centres on a grid are drawn too, but are not editable.
    grid = make_model("logistic", basis=RBFBasis(placement="grid", n_centres=4)).fit(X, y)
    _, grid_markers = basis_panel.overlay(context(X, y, grid, method="logistic"))
    assert grid_markers.meta == "rbf_centres" and len(grid_markers.x) == 4
    # No RBF, no overlay.
    poly = make_model("logistic", basis=PolynomialBasis(degree=2)).fit(X, y)
    assert basis_panel.overlay(context(X, y, poly, method="logistic")) == []


@pytest.mark.parametrize("method", ["svm", "logistic", "least_squares"])
def test_exact_feature_space_line_matches_the_predictions(method):
    # Two Gaussian features: phi-space is the plane of figure 4.12 and the line is exact.
    X, y = clusters(2, 40, seed=6, **OVERLAPPING)
    model = make_model(method, basis=RBFBasis(centres=((-2.0, 0.0), (2.0, 0.5)), width=1.5)).fit(X, y)
    features, window, line, error = basis_panel.feature_space(model, X, 0, 1)
    assert error is None and line["exact"]
    predicted = np.searchsorted(model.classes_, model.predict(X))
    np.testing.assert_array_equal(basis_panel.line_side(line, features), predicted)
    figure = basis_panel.feature_space_figure(model, X, y, 0, 1)
    (boundary,) = [t for t in figure.data if t.mode == "lines"]
    ends = np.column_stack([boundary.x, boundary.y])
    np.testing.assert_allclose(ends @ line["coef"][0] + line["intercept"][0], 0.0, atol=1e-9)


def test_feature_space_slice_and_default_pair():
    X, y = clusters(2, 40, seed=6, **OVERLAPPING)
    model = make_model("svm", basis=PolynomialBasis(degree=3)).fit(X, y)
    i, j = basis_panel.default_pair(model)
    weights = np.abs(model.estimator_.coef_[0])
    assert set(np.argsort(-weights)[:2]) == {i, j}
    _, _, line, error = basis_panel.feature_space(model, X, i, j)
    assert error is None and not line["exact"]
    assert basis_panel.pretty_name(model, 2) == "x₁²"
    # A method not linear in the features has no line, and says why.
    quadratic = make_model("gaussian_separate", basis=PolynomialBasis(degree=2)).fit(X, y)
    assert basis_panel.feature_space(quadratic, X, 0, 1)[3]


# ---- the app ------------------------------------------------------------------------------


def _button(at, label):
    return next(b for b in at.button if b.label == label)


@pytest.fixture
def two_class_app():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.slider(key="gen_classes").set_value(2)
    _button(at, "Replace points").click().run()
    return at


def test_svm_panel_in_the_app(two_class_app):
    at = two_class_app
    at.selectbox(key="method").set_value("svm").run()
    assert not at.exception
    assert any(t.label.startswith("Support vector machine") for t in at.tabs)
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["Margin 1/‖w‖"]) > 0 and metrics["C"] == "1"
    n_entries = len(_model(at).history_)
    assert len(player_data(at)["steps"]) == n_entries + 1
    show_step(at, 1)
    assert not at.exception and at.session_state.scene.step == 1
    assert any("SMO step **1**" in m.value for m in at.markdown)
    show_step(at, 0)
    assert any("no boundary yet" in m.value for m in at.markdown)
    show_step(at, None)
    assert at.session_state.scene.step is None and n_entries > 0
    at.checkbox(key="svm_hard").check().run()
    assert not at.exception
    assert any(m.label == "C" and m.value.startswith("∞") for m in at.metric) or at.warning


def _model(at):
    from ui.session.compute import scene_model

    return scene_model(at.session_state.scene)


def test_basis_picker_switches_the_scene(two_class_app):
    at = two_class_app
    at.selectbox(key="method").set_value("svm").run()
    at.selectbox(key="basis").set_value("polynomial").run()
    assert not at.exception
    scene = at.session_state.scene
    assert scene.basis == "polynomial" and scene.basis_param_dict == {"degree": 2}
    assert [t.label for t in at.tabs][0].startswith("Feature space")
    at.slider(key="basis_degree").set_value(3).run()
    assert at.session_state.scene.basis_param_dict == {"degree": 3}
    at.selectbox(key="basis").set_value("rbf").run()
    assert not at.exception and at.session_state.scene.basis_param_dict["placement"] == "grid"
    assert any("RBF" in m.value or "curved" in m.value for m in at.markdown)
    at.radio(key="rbf_placement").set_value("data").run()
    assert at.session_state.scene.basis_param_dict["n_centres"] == 10 and not at.exception


def test_hand_placed_centres_survive_switching_placement_and_width(two_class_app):
    at = two_class_app
    at.selectbox(key="basis").set_value("rbf").run()
    at.radio(key="rbf_placement").set_value("given").run()
    assert any("needs centres" in w.value for w in at.warning)
    assert at.radio(key="click_mode").value == "points"
    at.radio(key="click_mode").set_value("centres").run()
    assert any("Clicks now place RBF centres" in i.value for i in at.info)
    # Centre-mode canvas clicks, as state.set_rbf_centres applies them (AppTest cannot click the canvas).
    for x, y in [(-2.0, -1.0), (2.0, 0.0)]:
        scene = at.session_state.scene
        centres = tuple(dict(scene.basis_params).get("centres") or ()) + ((x, y),)
        params = {**dict(scene.basis_params), "centres": centres, "placement": "given"}
        at.session_state.scene = scene.with_basis("rbf", params)
        at.run()
    assert not at.exception and not at.warning
    assert at.session_state.scene.basis_param_dict["centres"] == ((-2.0, -1.0), (2.0, 0.0))
    at.select_slider(key="rbf_width").set_value(2.0).run()
    assert at.session_state.scene.basis_param_dict["centres"] == ((-2.0, -1.0), (2.0, 0.0))
    at.radio(key="rbf_placement").set_value("grid").run()
    assert "centres" not in at.session_state.scene.basis_param_dict
    assert "click_mode" not in at.session_state
    at.radio(key="rbf_placement").set_value("given").run()
    params = at.session_state.scene.basis_param_dict
    assert params["centres"] == ((-2.0, -1.0), (2.0, 0.0)) and params["width"] == 2.0


@pytest.mark.parametrize("method", sorted(MODELS))
def test_every_method_runs_on_an_rbf_basis(method):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="basis").set_value("rbf").run()
    at.selectbox(key="method").set_value(method).run()
    assert not at.exception
    if at.warning:
        assert "one-versus-rest" in at.warning[0].value
        at.radio(key="multiclass").set_value("ovr").run()
        assert not at.exception
    assert any(t.label.startswith("Feature space") for t in at.tabs)
    at.radio(key="multiclass").set_value("ovo").run()
    assert not at.exception


@pytest.mark.parametrize("basis", ["rbf", "polynomial"])
@pytest.mark.parametrize("method", sorted(MODELS))
def test_every_method_runs_on_a_basis_with_two_classes(two_class_app, method, basis):
    at = two_class_app
    at.selectbox(key="basis").set_value(basis).run()
    at.selectbox(key="method").set_value(method).run()
    assert not at.exception and not at.warning
    assert any(t.label.startswith("Feature space") for t in at.tabs)
    data = player_data(at)  # playback on a basis, where there is one
    if data is not None:
        assert data["kind"] == "basis" and data["grid"]["features"] > 2
        show_step(at, 1)
        assert not at.exception and at.session_state.scene.step == 1
