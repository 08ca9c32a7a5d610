"""The app side of sections 4.3.5-4.5 (issue 17): the predictive vs MAP contours and the posterior
boundaries on the canvas, the Laplace panel, the sigmoid/probit panel, probit playback.

Unit tests compare what the panels draw with the back-end (and scipy for the integrals); AppTest
tests drive the widgets headless and check the panel options a link carries.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, stats
from streamlit.testing.v1 import AppTest

from playground import Window, make_model
from playground.basis import PolynomialBasis
from playground.link import decode_options
from playground.presets import PRESETS, few_points, overlapping_points
from playground.scene import Scene
from playground.specs import PANEL_SPEC
from tests.conftest import component_json, show_step
from ui.panels import PanelContext, bayesian, iterations, laplace
from ui.panels import probit as probit_panel

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
WINDOW = Window(-5.0, 5.0, -4.0, 4.0)


def _context(options=None, basis=None, alpha=0.1, points=None, multiclass="native"):
    points = few_points() if points is None else points
    model = make_model("bayesian_logistic", alpha=alpha, basis=basis, multiclass=multiclass).fit(points.X, points.y)
    scene = Scene(points=points, method="bayesian_logistic", window=WINDOW)
    return PanelContext(scene, model, model, WINDOW, dict(options or {}))


def _cell_centres(trace):
    rows, cols = np.shape(trace["z"])
    xs = trace["x0"] + trace["dx"] * np.arange(cols)
    ys = trace["y0"] + trace["dy"] * np.arange(rows)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


# -- the canvas ------------------------------------------------------------------------------------


def test_overlay_draws_shading_both_contours_and_the_samples_by_default():
    ctx = _context()
    assert bayesian.applies(ctx)
    traces = bayesian.overlay(ctx)
    assert [t["meta"] for t in traces] == ["posterior", "map", "predictive", "posterior samples"]
    model = ctx.model
    shading, map_, predictive, _ = traces
    X = _cell_centres(predictive)
    np.testing.assert_allclose(np.ravel(predictive["z"]), model.predict_proba(X)[:, 0], atol=1e-6)
    np.testing.assert_allclose(np.ravel(map_["z"]), model.predict_proba_map(X)[:, 0], atol=1e-6)
    assert predictive["contours"]["start"] == 0.1 and predictive["contours"]["size"] == 0.4
    assert map_["line"]["dash"] == "dash" and predictive["line"]["dash"] == "solid"
    shade = np.asarray(shading["z"])
    assert shade.dtype == np.uint8 and shade.shape == (200, 200)
    np.testing.assert_array_equal(np.ravel(shade), np.rint(250 * model.predict_proba(_cell_centres(shading))[:, 0]))


def test_the_predictive_relaxes_away_from_the_data_and_the_map_does_not():
    ctx = _context()
    _, map_, predictive, _ = bayesian.overlay(ctx)
    corner = np.asarray(predictive["z"])[-1, -1], np.asarray(map_["z"])[-1, -1]  # top right of the view
    assert corner[1] < 1e-6 and 0.1 < corner[0] < 0.15


@pytest.mark.parametrize(
    ("choice", "metas"), [("map", ["posterior", "map"]), ("predictive", ["posterior", "predictive"]), ("none", [])]
)
def test_contour_choice(choice, metas):
    traces = bayesian.overlay(_context({"bayes_contours": choice, "bayes_samples": 0}))
    assert [t["meta"] for t in traces] == metas


def test_sampled_boundaries_are_the_lines_of_seeded_posterior_draws():
    ctx = _context({"bayes_samples": 7, "bayes_seed": 42})
    samples = bayesian.overlay(ctx)[-1]
    weights = ctx.model.sample_weights(7, random_state=42)
    x = np.array(samples["x"], dtype=float)
    y = np.array(samples["y"], dtype=float)
    segments = np.split(np.column_stack([x, y]), np.flatnonzero(np.isnan(x)))
    ends = [part[~np.isnan(part[:, 0])] for part in segments]
    ends = [part for part in ends if len(part)]
    assert len(ends) == 7  # every draw's boundary crosses this view
    for w, part in zip(weights, ends):
        np.testing.assert_allclose(part @ w[1:] + w[0], 0.0, atol=1e-9)  # on w^T phi = 0
        assert np.all(part[:, 0] >= WINDOW.x_min - 1e-9) and np.all(part[:, 0] <= WINDOW.x_max + 1e-9)
    other = bayesian.overlay(_context({"bayes_samples": 7, "bayes_seed": 43}))[-1]
    assert other["x"] != samples["x"]
    again = bayesian.overlay(_context({"bayes_samples": 7, "bayes_seed": 42}))[-1]
    assert again["x"] == samples["x"]  # the seed in the link redraws the same boundaries


def test_on_a_basis_the_sampled_boundaries_are_zero_contours_of_the_sampled_activations():
    ctx = _context({"bayes_samples": 4, "bayes_seed": 3}, basis=PolynomialBasis(2), alpha=1.0)
    traces = [t for t in bayesian.overlay(ctx) if t["meta"] == "posterior samples"]
    assert len(traces) == 4 and all(t["type"] == "contour" for t in traces)
    inner = ctx.model.estimator_
    X = _cell_centres(traces[0])
    expected = inner.sample_activations(ctx.model.features(X), 4, random_state=3)
    for s, trace in enumerate(traces):
        np.testing.assert_allclose(np.ravel(trace["z"]), expected[:, s], rtol=1e-5, atol=1e-5)


def test_two_classes_through_a_strategy_and_not_more():
    assert bayesian.applies(_context(multiclass="ovr"))
    X = np.vstack([few_points().X, [[0.0, 3.0], [0.5, 3.5]]])
    y = np.r_[few_points().y, 2, 2]
    model = make_model("bayesian_logistic", multiclass="ovr").fit(X, y)
    ctx = PanelContext(Scene(method="bayesian_logistic", window=WINDOW), model, model, WINDOW, {})
    assert not bayesian.applies(ctx) and bayesian.overlay(ctx) == []


def test_hand_edited_options_fall_back_to_their_defaults():
    ctx = _context({"bayes_samples": "many", "bayes_seed": -1, "bayes_contours": ["map"]})
    assert bayesian.option(ctx.options, "bayes_samples") == PANEL_SPEC["bayes_samples"].default
    assert bayesian.option(ctx.options, "bayes_seed") == 0
    assert [t["meta"] for t in bayesian.overlay(ctx)][:3] == ["posterior", "map", "predictive"]


def test_the_point_table_is_the_back_ends_predictive_in_the_books_sign():
    ctx = _context()
    values = bayesian.predictive_at(ctx.model, np.array([[1.0, 2.0], [-4.0, 3.0]]))
    mean, variance = ctx.model.predictive_moments(np.array([[1.0, 2.0], [-4.0, 3.0]]))
    np.testing.assert_allclose(values["mu"], -mean)  # the book's a for C1 = classes_[0]
    np.testing.assert_allclose(values["variance"], variance)
    np.testing.assert_allclose(values["p_predictive"], 1 / (1 + np.exp(-values["kappa"] * values["mu"])))
    np.testing.assert_allclose(values["p_map"], 1 / (1 + np.exp(-values["mu"])))


# -- the Laplace panel -------------------------------------------------------------------------------


def test_the_cut_through_w_map_is_the_back_ends_posterior_along_the_leading_eigenvector():
    ctx = _context()
    figure, cut = laplace.line_figure(ctx.model, ctx.scene.points.X, ctx.scene.points.y)
    eigenvalues, eigenvectors = np.linalg.eigh(ctx.model.covariance_)
    assert abs(cut["direction"] @ eigenvectors[:, -1]) == pytest.approx(1.0)
    posterior, gaussian = figure["data"][0], figure["data"][1]
    np.testing.assert_allclose(posterior["y"], np.exp(cut["log_posterior"]))
    np.testing.assert_allclose(gaussian["y"], np.exp(-0.5 * cut["offsets"] ** 2 / eigenvalues[-1]), rtol=1e-9)
    assert np.max(posterior["y"]) == pytest.approx(1.0)  # the mode, both scaled to 1 there
    # The exact log posterior by hand at one offset: the log likelihood plus the prior.
    k = 30
    w = ctx.model.weights_ + cut["offsets"][k] * cut["direction"]
    X, t = ctx.scene.points.X, (ctx.scene.points.y == ctx.model.classes_[1]).astype(float)

    def log_joint(w):
        a = X @ w[1:] + w[0]
        return np.sum(t * a - np.logaddexp(0, a)) - 0.05 * w @ w  # alpha = 0.1

    assert cut["log_posterior"][k] == pytest.approx(log_joint(w) - log_joint(ctx.model.weights_), rel=1e-9)


def test_the_ellipse_and_the_samples_are_in_the_books_sign():
    ctx = _context({"bayes_samples": 5, "bayes_seed": 9})
    samples = bayesian.sampled_weights(ctx.model, 5, 9)
    names = laplace.weight_names(ctx.model, ctx.model)
    figure = laplace.ellipse_figure(ctx.model, (0, 2), names, samples)
    ring = figure["data"][0]
    expected = -ctx.model.covariance_ellipse(0, 2, n_std=1, n_points=121)
    np.testing.assert_allclose(np.column_stack([ring["x"], ring["y"]]), expected)
    dots = next(t for t in figure["data"] if t["mode"] == "markers" and t["name"].startswith("samples"))
    np.testing.assert_allclose(np.column_stack([dots["x"], dots["y"]]), -samples[:, [0, 2]])
    centre = figure["data"][-1]
    np.testing.assert_allclose([centre["x"][0], centre["y"][0]], -ctx.model.weights_[[0, 2]])
    # The 1-sigma ellipse holds about 39 % of many draws (a 2-D Gaussian's mass within 1 sigma).
    many = ctx.model.sample_weights(4000, random_state=1)[:, [0, 2]] - ctx.model.weights_[[0, 2]]
    block = ctx.model.covariance_[np.ix_([0, 2], [0, 2])]
    inside = np.mean(np.sum(many * np.linalg.solve(block, many.T).T, axis=1) <= 1.0)
    assert inside == pytest.approx(1 - np.exp(-0.5), abs=0.03)


@pytest.mark.parametrize(
    ("asked", "size", "shown"), [((1, 2), 3, (1, 2)), ((0, 0), 3, (1, 2)), ((5, 1), 3, (1, 2)), ((0, 5), 6, (0, 5))]
)
def test_chosen_pair(asked, size, shown):
    assert laplace.chosen_pair(dict(zip(laplace.PAIR_KEYS, asked)), size) == shown


# -- figure 4.9 ----------------------------------------------------------------------------------------


def test_figure_4_9_curves_and_the_convolution_against_scipy():
    a = np.linspace(-6, 6, 13)
    logistic, probit = probit_panel.probit_curves(a)
    np.testing.assert_allclose(logistic, 1 / (1 + np.exp(-a)))
    np.testing.assert_allclose(probit, stats.norm.cdf(np.sqrt(np.pi / 8) * a), atol=1e-15)
    _, _, largest = probit_panel.figure_4_9()
    assert largest == pytest.approx(0.0177, abs=5e-4)  # what the caption says
    for mu, variance in ((0.7, 1.0), (-2.0, 4.0), (3.0, 16.0)):

        def integrand(t, mu=mu, variance=variance):
            return stats.norm.pdf(t, mu, np.sqrt(variance)) / (1 + np.exp(-t))

        exact, _ = integrate.quad(integrand, -80, 80, epsabs=1e-14, epsrel=1e-12, limit=500)
        assert probit_panel.convolved_sigmoid(np.array([mu]), variance)[0] == pytest.approx(exact, abs=1e-8)
        kappa = 1 / np.sqrt(1 + np.pi * variance / 8)
        assert probit_panel.approximated_sigmoid(np.array([mu]), variance)[0] == pytest.approx(
            1 / (1 + np.exp(-kappa * mu))
        )
    _, worst = probit_panel.convolution_figure()
    assert 0.005 < worst < 0.02


# -- probit playback ----------------------------------------------------------------------------------


def test_probit_iterations_show_phi_of_the_books_activation():
    points = overlapping_points()
    model = make_model("probit").fit(points.X, points.y)
    scene = Scene(points=points, method="probit", window=Window.around(points.X))
    ctx = PanelContext(scene, model, model, scene.window, {})
    assert iterations.applies(ctx)
    x = points.X[3]
    a, p, k = iterations.point_activation(model.at_step(2), x, int(points.y[3]))
    assert k == model.classes_[0]
    assert a == pytest.approx(-model.at_step(2).decision_function(x[None])[0])
    assert p == pytest.approx(stats.norm.cdf(a)) and p == pytest.approx(model.at_step(2).predict_proba(x[None])[0, 0])
    figure = iterations.sigmoid_figure(a, p, k, 4, iterations.link_function(model))
    assert figure["data"][0]["name"] == "Φ(a)" and "= Φ(a) =" in figure["layout"]["title"]["text"]
    table = iterations.weights_table(model, 2)
    assert table.index[0].startswith("w (Φ(wᵀφ)")
    np.testing.assert_allclose(table.to_numpy()[0], -model.history_[2]["w"])


# -- the app (AppTest) ------------------------------------------------------------------------------


def _tabs(at):
    return [t.label for t in at.tabs]


def _open_tab(at, prefix):
    at.session_state["panel_tab"] = next(label for label in _tabs(at) if label.startswith(prefix))
    return at.run()


def _preset(at, key):
    next(b for b in at.button if b.key == f"preset_{key}").click().run()
    return at


def _link_options(at):
    query = dict(at.query_params)
    return decode_options(query["po"], []) if "po" in query else {}


def test_bayes_preset_shows_its_panels_and_the_options_reach_the_link():
    at = AppTest.from_file(APP, default_timeout=90).run()
    _preset(at, "bayes_predictive")
    assert not at.exception
    scene = at.session_state.scene
    assert scene.method == "bayesian_logistic" and scene.window == PRESETS["bayes_predictive"].scene.window
    assert {
        "Predictive vs MAP (sec. 4.5.2)",
        "Laplace approximation (fig. 4.14)",
        "Sigmoid and probit (fig. 4.9)",
    } <= set(_tabs(at))
    assert at.session_state["panel_tab"] == "Predictive vs MAP (sec. 4.5.2)"
    # The table's numbers are the back-end's at the last point and the view's corner.
    model = make_model("bayesian_logistic", **scene.param_dict).fit(scene.points.X, scene.points.y)
    table = at.table[0].value
    expected = model.predict_proba(np.array([scene.points.X[-1], [scene.window.x_max, scene.window.y_max]]))[:, 0]
    shown = [float(v.replace("−", "-")) for v in table.iloc[:, -1]]
    np.testing.assert_allclose(shown, expected, rtol=1e-3)
    # Samples, the seed and the contours go into the panel options and the link.
    at.slider(key="bayes_samples_slider").set_value(3).run()
    next(b for b in at.button if b.key == "bayes_resample").click().run()
    at.radio(key="bayes_contours_radio").set_value("map").run()
    assert not at.exception
    options = at.session_state.panel_options
    assert (options["bayes_samples"], options["bayes_seed"], options["bayes_contours"]) == (3, 1, "map")
    link = _link_options(at)
    assert (link["bayes_samples"], link["bayes_seed"], link["bayes_contours"]) == (3, 1, "map")
    at.number_input(key="bayes_seed_input").set_value(77).run()
    assert at.session_state.panel_options["bayes_seed"] == 77 and _link_options(at)["bayes_seed"] == 77
    # The Laplace panel: choosing the ellipse's weights.
    _open_tab(at, "Laplace")
    assert not at.exception
    at.selectbox(key="laplace_i_select").set_value(0).run()
    assert not at.exception and at.session_state.panel_options["laplace_i"] == 0
    assert any("standard deviations" in c.value for c in at.caption)
    # Raising alpha narrows the posterior: the table follows the refit.
    _open_tab(at, "Predictive")
    at.select_slider(key="bayes_alpha").set_value(10.0).run()
    assert not at.exception and at.session_state.scene.param_dict["alpha"] == 10.0


def test_a_link_with_bayes_options_opens_them():
    scene = PRESETS["bayes_predictive"].scene
    from playground.link import encode_options, encode_scene

    at = AppTest.from_file(APP, default_timeout=90)
    query = encode_scene(scene) | {
        "po": encode_options({"bayes_samples": 5, "bayes_seed": 123, "bayes_contours": "predictive"}),
        "tab": "Predictive vs MAP (sec. 4.5.2)",
    }
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    assert at.slider(key="bayes_samples_slider").value == 5
    assert at.number_input(key="bayes_seed_input").value == 123
    assert at.radio(key="bayes_contours_radio").value == "predictive"


def test_probit_has_iterations_and_figure_4_9():
    at = AppTest.from_file(APP, default_timeout=90).run()
    _preset(at, "fig4_9")
    assert not at.exception and at.session_state.scene.method == "probit"
    assert {"Iterations", "Sigmoid and probit (fig. 4.9)"} <= set(_tabs(at))
    assert any("never differ by more than 0.0177" in c.value for c in at.caption)
    _open_tab(at, "Iterations")
    show_step(at, 1)
    assert not at.exception and at.session_state.scene.step == 1
    charts = [
        json.loads(component_json(c.proto))
        for c in at.get("bidi_component")
        if c.proto.component_name.endswith("playground_chart")
    ]
    assert charts  # the log-likelihood and Φ(a) figures
