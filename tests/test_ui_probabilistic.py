"""The app side of the probabilistic models (issue 4): posterior surfaces, class Gaussians,
IRLS playback, least squares against logistic regression with outliers.

Unit tests call the overlay and figure builders with a PanelContext built from a fitted model;
AppTest tests drive the widgets headless.
"""

from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from playground import Window, make_model
from playground.scene import PointSet, Scene
from tests.conftest import clusters, component_json, player_data, show_step
from ui.panels import PanelContext, generative, iterations, posterior, robustness
from ui.plot.theme import CLASS_COLOURS

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def context(name, n_classes, options=None, spread=(1.5, 1.0), seed=1, **params):
    X, y = clusters(n_classes, 30, seed=seed, spread=spread)
    model = make_model(name, **params).fit(X, y)
    scene = Scene(points=PointSet.from_arrays(X, y), method=name, window=Window.around(X))
    return PanelContext(scene, model, model, scene.window, dict(options or {}))


def _rgb(colour):
    return np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)], dtype=float)


# -- posterior surfaces ------------------------------------------------------------------------


def test_colour_mixing_of_known_posteriors():
    proba = np.array([[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.5, 0.5, 0.0], [0.2, 0.3, 0.5]]])
    classes = np.array([0, 1, 2])
    pure = posterior.mix_colours(proba, classes, strength=1.0)
    assert pure.dtype == np.uint8 and pure.shape == (1, 4, 3)
    np.testing.assert_array_equal(pure[0, 0], _rgb(CLASS_COLOURS[0]))
    np.testing.assert_array_equal(pure[0, 1], _rgb(CLASS_COLOURS[2]))
    expected = (_rgb(CLASS_COLOURS[0]) + _rgb(CLASS_COLOURS[1])) / 2
    np.testing.assert_allclose(pure[0, 2], expected, atol=0.5)
    expected = 0.2 * _rgb(CLASS_COLOURS[0]) + 0.3 * _rgb(CLASS_COLOURS[1]) + 0.5 * _rgb(CLASS_COLOURS[2])
    np.testing.assert_allclose(pure[0, 3], expected, atol=0.5)
    # The shown colours are the mix blended with white.
    light = posterior.mix_colours(proba, classes)
    s = posterior.MIX_STRENGTH
    np.testing.assert_allclose(light[0, 0], s * _rgb(CLASS_COLOURS[0]) + (1 - s) * 255, atol=0.5)
    # Global class indices pick the colours: classes 1, 3, 4 use colours 1, 3, 4.
    other = posterior.mix_colours(proba, np.array([1, 3, 4]), strength=1.0)
    np.testing.assert_array_equal(other[0, 1], _rgb(CLASS_COLOURS[4]))


def test_palette_reproduces_the_colours_closely():
    rng = np.random.default_rng(0)
    proba = rng.dirichlet([0.3, 0.3, 0.3], size=(60, 70))
    colours = posterior.mix_colours(proba, np.array([0, 1, 2]))
    indices, palette = posterior.palette_indices(colours)
    assert indices.dtype == np.uint8 and indices.shape == (60, 70)
    assert len(palette) <= posterior.MAX_PALETTE
    assert np.max(np.abs(palette[indices].astype(int) - colours.astype(int))) <= max(posterior.PALETTE_STEPS) / 2


def test_three_class_colour_mix_trace_matches_the_posteriors():
    ctx = context("gaussian_separate", 3, {"posterior_display": "posterior"})
    traces = posterior.overlay(ctx)
    assert [t.meta for t in traces] == ["posterior", "hover"]
    mix = traces[0]
    z = np.asarray(mix.z)
    assert mix.type == "heatmap" and z.dtype == np.uint8 and z.shape == (posterior.IMAGE_RESOLUTION,) * 2
    assert mix.hoverinfo == "skip"
    # Cell (row, col) shows the colour mixed from p(C_k|x) at that cell's centre.
    palette = np.array([_rgb(entry[1]) for entry in mix.colorscale[::2]])
    row, col = 37, 151
    x = mix.x0 + col * mix.dx
    y = mix.y0 + row * mix.dy
    p = ctx.model.predict_proba(np.array([[x, y]]))
    expected = posterior.mix_colours(p[None], ctx.model.classes_)[0, 0]
    assert np.max(np.abs(palette[z[row, col]] - expected)) <= max(posterior.PALETTE_STEPS) / 2


def test_two_class_heatmap_and_contours():
    ctx = context("gaussian_shared", 2, {"posterior_display": "posterior"})
    heatmap, contours, hover = posterior.overlay(ctx)
    z = np.asarray(heatmap.z)
    assert z.dtype == np.uint8 and z.max() <= posterior.HEATMAP_LEVELS and heatmap.zmax == posterior.HEATMAP_LEVELS
    # z = round(250 p(C1|x)) at the cell centres: the book's sigma(a) for C1 = class 1 (eq. 4.57).
    row, col = 120, 80
    x, y = heatmap.x0 + col * heatmap.dx, heatmap.y0 + row * heatmap.dy
    p1 = ctx.model.predict_proba(np.array([[x, y]]))[0, 0]
    assert abs(int(z[row, col]) - p1 * posterior.HEATMAP_LEVELS) <= 0.5 + 1e-9
    assert heatmap.name == "p(C₁|x)"
    # Diverging scale between the two (lightened) class colours through white: class 1's at p(C1|x) = 1.
    assert heatmap.colorscale[1][1].upper() == "#FFFFFF"
    first = posterior.class_colours([0])[0]
    top = _rgb(heatmap.colorscale[2][1])
    assert np.allclose(top, posterior.MIX_STRENGTH * first + (1 - posterior.MIX_STRENGTH) * 255, atol=1)
    assert np.asarray(contours.z).dtype == np.float32
    levels = np.arange(contours.contours.start, contours.contours.end + 1e-9, contours.contours.size)
    np.testing.assert_allclose(levels, [0.1, 0.5, 0.9])
    assert hover.meta == "hover"


def test_hover_trace_reads_out_activations_and_posteriors():
    ctx = context("gaussian_separate", 3)
    (hover,) = posterior.overlay(ctx)  # regions display: the read-out only
    data = np.asarray(hover.customdata)
    r = posterior.HOVER_RESOLUTION
    assert data.dtype == np.float32 and data.shape == (r, r, 6)
    assert np.asarray(hover.z).dtype == np.uint8 and hover.opacity == 0
    row, col = 5, 33
    X = np.array([[hover.x0 + col * hover.dx, hover.y0 + row * hover.dy]])
    np.testing.assert_allclose(data[row, col, :3], ctx.model.activations(X)[0], rtol=1e-5)
    np.testing.assert_allclose(data[row, col, 3:], ctx.model.predict_proba(X)[0], rtol=1e-5, atol=1e-7)
    assert "a₁(x)" in hover.hovertemplate and "p(C₃|x)" in hover.hovertemplate


def test_logistic_hover_shows_the_single_activation():
    ctx = context("logistic", 2)
    X = ctx.scene.points.X[:4]
    labels, values = posterior.hover_fields(ctx.model, X)
    # With the geometry of figure 4.1: the signed distance r = y(x) / |w| (eq. 4.7).
    assert labels == ["a = y(x) = wᵀx + w₀", "r = y(x)/‖w‖", "p(C₁|x)", "p(C₂|x)"]
    # The book's a: p(C1|x) = sigma(a) (eq. 4.87), so a is the log-odds of class 1, ln p(C1|x)/p(C2|x).
    proba = ctx.model.predict_proba(X)
    np.testing.assert_allclose(values[:, 0], np.log(proba[:, 0] / proba[:, 1]), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(values[:, 1], values[:, 0] / np.linalg.norm(ctx.model.coef_), rtol=1e-9)
    np.testing.assert_allclose(1 / (1 + np.exp(-values[:, 0])), values[:, 2], rtol=1e-9)


def test_two_class_generative_hover_adds_the_log_odds_and_distance():
    ctx = context("gaussian_shared", 2)
    X = ctx.scene.points.X[:5]
    labels, values = posterior.hover_fields(ctx.model, X)
    assert labels == ["a₁(x)", "a₂(x)", "y(x) = wᵀx + w₀", "r = y(x)/‖w‖", "p(C₁|x)", "p(C₂|x)"]
    # The book's y(x) is the log-odds a = a₁ - a₂ of C1 = class 1 (eq. 4.58, 4.66): p(C1|x) = sigma(y).
    np.testing.assert_allclose(values[:, 2], values[:, 0] - values[:, 1], rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(1 / (1 + np.exp(-values[:, 2])), values[:, 4], rtol=1e-7)


def test_posterior_hover_is_drawn_above_the_geometry_read_out():
    from ui.panels import all_panels

    titles = [panel.title for panel in all_panels()]
    assert titles.index("Posterior p(Cₖ|x)") > titles.index("Geometry (fig. 4.1)")


@pytest.mark.parametrize("name, n_classes", [("naive_bayes", 3), ("softmax", 3), ("logistic", 2)])
def test_overlays_never_pose_as_points_and_skip_hover(name, n_classes):
    for display in ("regions", "posterior"):
        ctx = context(name, n_classes, {"posterior_display": display})
        # Some overlays are plotly.js dicts (cheap on every click): validated here, read as objects.
        traces = go.Figure(data=posterior.overlay(ctx) + generative.overlay(ctx) + iterations.overlay(ctx)).data
        for trace in traces:
            assert trace.meta != "points"
            if trace.meta not in ("hover", "means"):
                assert trace.hoverinfo == "skip"


def test_non_probabilistic_models_get_no_posterior_panel():
    ctx = context("least_squares", 3, {"posterior_display": "posterior"})
    assert not posterior.PANELS[0].applies(ctx)
    assert posterior.overlay(ctx) == []


def test_surface_figure():
    ctx = context("softmax", 3)
    figure = posterior.surface_figure(ctx.model, ctx.window, 1, points=ctx.scene.points)
    surface, scatter = figure.data
    assert surface.type == "surface" and np.asarray(surface.z).shape == (posterior.SURFACE_RESOLUTION,) * 2
    assert np.asarray(surface.z).dtype == np.float32
    assert figure.layout.template.layout.paper_bgcolor == "white"
    np.testing.assert_array_equal(np.unique(scatter.z), [0.0, 1.0])


# -- class Gaussians ---------------------------------------------------------------------------


def test_ellipse_radii_are_the_square_roots_of_the_eigenvalues():
    mean = np.array([1.0, -2.0])
    cov = np.array([[2.0, 0.9], [0.9, 1.0]])
    values, vectors = np.linalg.eigh(cov)
    for radius in (1.0, 2.0):
        outline = generative.ellipse(mean, cov, radius, n=720)
        offsets = outline - mean
        # Every point lies on the Mahalanobis circle of that radius.
        mahalanobis = np.einsum("ni,ij,nj->n", offsets, np.linalg.inv(cov), offsets)
        np.testing.assert_allclose(mahalanobis, radius**2, rtol=1e-9)
        # The semi-axes: the extent along each eigenvector is radius * sqrt(eigenvalue).
        extents = np.max(np.abs(offsets @ vectors), axis=0)
        np.testing.assert_allclose(extents, radius * np.sqrt(values), rtol=1e-4)
        np.testing.assert_allclose(outline[0], outline[-1])


@pytest.mark.parametrize("name", ["gaussian_shared", "gaussian_separate", "naive_bayes"])
def test_generative_overlay_draws_each_class_mean_and_two_ellipses(name):
    ctx = context(name, 3)
    assert generative.applies(ctx)
    traces = go.Figure(data=generative.overlay(ctx)).data  # dicts for plotly.js, validated here
    halos = [t for t in traces if t.name.endswith("(halo)")]
    lines = [t for t in traces if t.meta == "ellipse" and t not in halos]
    assert len(lines) == 2 * 3 and len(halos) == 2  # one white halo under each radius's ellipses
    outline, means = [t for t in traces if t.meta == "means"]
    np.testing.assert_allclose(np.column_stack([means.x, means.y]), ctx.model.means_)
    np.testing.assert_allclose(np.column_stack([outline.x, outline.y]), ctx.model.means_)
    assert outline.marker.size > means.marker.size and outline.marker.color == generative.OUTLINE_COLOUR
    assert traces.index(outline) < traces.index(means)  # the dark outline is drawn first, under the colour
    covariances = generative.class_covariances(ctx.model)
    if name == "gaussian_shared":
        assert np.allclose(covariances, ctx.model.covariance_)
    elif name == "naive_bayes":
        assert np.allclose(covariances[:, 0, 1], 0) and np.allclose(covariances[:, 1, 1], ctx.model.variances_[:, 1])
    one_sigma = lines[0]
    assert np.asarray(one_sigma.x).dtype == np.float32
    assert one_sigma.line.color == CLASS_COLOURS[0] and lines[3].line.dash == "dash"
    assert halos[0].line.width > one_sigma.line.width and traces.index(halos[0]) < traces.index(one_sigma)


def test_generative_panel_is_not_for_bernoulli_naive_bayes():
    assert not generative.applies(context("naive_bayes", 3, variant="bernoulli"))
    assert not generative.applies(context("logistic", 2))


def test_prior_note_states_the_parallel_shift():
    equal = context("gaussian_shared", 2, priors=(0.5, 0.5))
    assert "priors are equal" in generative.prior_note(equal.model)
    shifted = context("gaussian_shared", 2, priors=(0.9, 0.1))
    note = generative.prior_note(shifted.model)
    assert "parallel to itself" in note and "towards the mean of C₂" in note
    # The stated distance is the true one: the boundary moved along w by ln(pi2/pi1) / |w|.
    w = shifted.model.coef_[0]
    np.testing.assert_allclose(w, equal.model.coef_[0])  # same direction: a parallel shift
    shift = np.log(0.1 / 0.9) / np.linalg.norm(w)
    assert f"{abs(shift):.3f} units" in note
    x0 = -equal.model.intercept_[0] * w / (w @ w)  # a point on the equal-priors boundary
    moved = x0 - shift * w / np.linalg.norm(w)
    assert abs(shifted.model.decision_function(moved[None])[0]) < 1e-9


# -- iterations --------------------------------------------------------------------------------


def test_point_activation_is_the_posterior_through_the_sigmoid():
    logistic = context("logistic", 2)
    X, y = logistic.scene.points.X, logistic.scene.points.y
    for step in (0, 1, logistic.model.n_iter_):
        model = logistic.model.at_step(step)
        a, p, k = iterations.point_activation(model, X[3], y[3])
        assert k == model.classes_[0]  # the book's p(C1|x) = sigma(w^T phi), C1 = class 1
        assert p == pytest.approx(model.predict_proba(X[3:4])[0, 0], rel=1e-12)
        assert 1 / (1 + np.exp(-a)) == pytest.approx(p, rel=1e-9)
    softmax = context("softmax", 3)
    X, y = softmax.scene.points.X, softmax.scene.points.y
    for n in (0, 45, 80):
        a, p, k = iterations.point_activation(softmax.model.at_step(2), X[n], y[n])
        assert k == y[n]
        assert 1 / (1 + np.exp(-a)) == pytest.approx(p, rel=1e-9)
        assert p == pytest.approx(softmax.model.at_step(2).predict_proba(X[n : n + 1])[0, k], rel=1e-12)


def test_log_likelihood_figure_marks_the_step():
    ctx = context("logistic", 2, spread=(2.5, 2.0))
    history = ctx.model.history_
    figure = iterations.log_likelihood_figure(history, 2)
    figure = go.Figure(figure)  # a plotly.js dict: it must pass plotly's validation
    curve, marker = figure.data
    assert len(curve.x) == len(history)
    assert marker.x[0] == 2 and marker.y[0] == pytest.approx(history[2]["log_likelihood"])
    assert figure.layout.template.layout.paper_bgcolor == "white"
    assert figure.layout.xaxis.title.text == "iteration" and figure.layout.title.font.size == 14


def test_chosen_point_defaults_to_the_last_and_is_ringed():
    ctx = context("softmax", 3)
    assert iterations.applies(ctx)
    assert iterations.chosen_point(ctx) == len(ctx.scene.points) - 1
    (ring,) = iterations.overlay(ctx)
    np.testing.assert_allclose([ring.x[0], ring.y[0]], ctx.scene.points.X[-1])
    picked = PanelContext(ctx.scene, ctx.model, ctx.model, ctx.window, {iterations.POINT_KEY: 4})
    assert iterations.chosen_point(picked) == 4
    stale = PanelContext(ctx.scene, ctx.model, ctx.model, ctx.window, {iterations.POINT_KEY: 10_000})
    assert iterations.chosen_point(stale) == len(ctx.scene.points) - 1


# -- least squares against logistic regression --------------------------------------------------


def test_outliers_pull_least_squares_but_not_logistic_regression():
    X, y = clusters(2, 30, seed=3, spread=(1.0, 0.8))
    new = robustness.outlier_points(X, y, 1, seed=0)
    assert new.shape == (robustness.N_OUTLIERS, 2)
    X2, y2 = np.vstack([X, new]), np.concatenate([y, np.ones(len(new), dtype=int)])
    before_ls = make_model("least_squares").fit(X, y)
    after_ls = make_model("least_squares").fit(X2, y2)
    after_lr = make_model("logistic", l2=1e-3).fit(X2, y2)
    # The outliers lie far on their own side: logistic regression gets them and the rest right.
    assert np.all(after_lr.predict(new) == 1)
    assert after_lr.score(X2, y2) >= before_ls.score(X, y) - 0.02
    # Least squares is dragged: it now misclassifies points it got right before.
    assert after_ls.score(X, y) < before_ls.score(X, y) - 0.05


def test_comparison_figures_share_the_axes():
    ctx = context("logistic", 2)
    window = robustness.framed_window(ctx.scene.points.X)
    assert (window.x_max - window.x_min) / (window.y_max - window.y_min) == pytest.approx(robustness.FIGURE_ASPECT)
    ls = make_model("least_squares").fit(ctx.scene.points.X, ctx.scene.points.y)
    left = robustness.comparison_figure(ls, ctx.scene.points, window, "Least squares")
    right = robustness.comparison_figure(ctx.model, ctx.scene.points, window, "Logistic regression")
    assert left.layout.xaxis.range == right.layout.xaxis.range and left.layout.yaxis.range == right.layout.yaxis.range
    assert np.asarray(left.data[0].z).dtype == np.uint8


# -- the app (AppTest) ------------------------------------------------------------------------


@pytest.fixture
def app():
    return AppTest.from_file(APP, default_timeout=60).run()


def _tabs(at):
    return [t.label for t in at.tabs]


def _open_tab(at, prefix):
    """Open the panel tab whose title starts with ``prefix`` (only the open tab renders)."""
    at.session_state["panel_tab"] = next(label for label in _tabs(at) if label.startswith(prefix))
    return at.run()


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _two_classes(at):
    at.slider(key="gen_classes").set_value(2)
    _button(at, "Replace points").click().run()


def _fitted(at):
    scene = at.session_state.scene
    return make_model(scene.method, **scene.param_dict).fit(scene.points.X, scene.points.y)


@pytest.mark.parametrize("method", ["gaussian_shared", "gaussian_separate", "naive_bayes"])
def test_generative_methods_show_their_panels(app, method):
    app.selectbox(key="method").set_value(method).run()
    assert not app.exception
    assert {"Class Gaussians", "Posterior p(Cₖ|x)"} <= set(_tabs(app))
    _open_tab(app, "Posterior")
    app.radio(key="posterior_display").set_value("posterior").run()
    assert not app.exception
    assert app.session_state.panel_options["posterior_display"] == "posterior"


def test_toggle_between_shared_and_separate_covariance_keeps_the_priors(app):
    app.selectbox(key="method").set_value("gaussian_shared").run()
    app.checkbox(key="gs_set_priors").check().run()
    app.slider(key="gs_prior_0").set_value(0.8).run()
    assert app.session_state.scene.method == "gaussian_shared"
    _button(app, "Give each class its own covariance ⟶ conic boundary").click().run()
    assert not app.exception
    assert app.session_state.scene.method == "gaussian_separate"
    assert app.selectbox(key="method").value == "gaussian_separate"
    assert app.session_state.scene.param_dict["priors"][0] == pytest.approx(0.8 / (0.8 + 2 / 3), abs=1e-3)
    _button(app, "Share one covariance between the classes ⟶ straight boundary").click().run()
    assert app.session_state.scene.method == "gaussian_shared"


def test_prior_slider_shifts_the_shared_covariance_boundary_in_parallel(app):
    _two_classes(app)
    app.selectbox(key="method").set_value("gaussian_shared").run()
    before = _fitted(app)
    app.checkbox(key="gs_set_priors").check().run()
    app.slider(key="gs_prior_0").set_value(0.9).run()
    app.slider(key="gs_prior_1").set_value(0.1).run()
    assert not app.exception
    after = _fitted(app)
    np.testing.assert_allclose(after.priors_, [0.9, 0.1])
    np.testing.assert_allclose(after.coef_, before.coef_)  # same normal: parallel
    assert after.intercept_[0] < before.intercept_[0] - 1  # shifted towards class 2
    assert any("parallel to itself" in m.value for m in app.markdown)


def test_logistic_iterations_playback_and_outliers(app):
    _two_classes(app)
    app.selectbox(key="method").set_value("logistic").run()
    assert not app.exception
    assert {"Iterations", "Posterior p(Cₖ|x)", "Outliers: least squares vs logistic"} <= set(_tabs(app))
    _open_tab(app, "Iterations")
    assert player_data(app)["steps"][:2] == [0, 1]
    show_step(app, 1)
    assert not app.exception and app.session_state.scene.step == 1
    charts = [
        component_json(c.proto)
        for c in app.get("bidi_component")
        if c.proto.component_name.endswith("playground_chart")
    ]
    assert any("step 1" in spec for spec in charts)
    app.checkbox(key="sigmoid_follow_last").uncheck().run()
    app.number_input(key="sigmoid_point_number").set_value(4).run()  # points are numbered from 1
    assert not app.exception and app.session_state.panel_options["sigmoid_point"] == 3
    n = len(app.session_state.scene.points)
    _open_tab(app, "Outliers")
    _button(app, "Add outliers").click().run()
    assert not app.exception
    assert len(app.session_state.scene.points) == n + robustness.N_OUTLIERS
    _button(app, "↶ Undo").click().run()
    assert len(app.session_state.scene.points) == n


def test_softmax_iterations_on_the_default_scene(app):
    app.selectbox(key="method").set_value("softmax").run()
    assert not app.exception
    assert "Iterations" in _tabs(app) and "Outliers: least squares vs logistic" not in _tabs(app)
    _open_tab(app, "Posterior")
    app.radio(key="posterior_display").set_value("posterior").run()
    _open_tab(app, "Iterations")
    show_step(app, 0)
    assert not app.exception and app.session_state.scene.step == 0


# -- on basis functions (section 4.3.1) --------------------------------------------------------


@pytest.mark.parametrize("name, n_classes", [("logistic", 2), ("softmax", 3)])
def test_iterations_and_read_out_work_on_a_basis(name, n_classes):
    from playground.basis import make_basis

    X, y = clusters(n_classes, 30, seed=2, spread=(1.5, 1.0))
    model = make_model(name, basis=make_basis("polynomial"), l2=0.1).fit(X, y)
    scene = Scene(points=PointSet.from_arrays(X, y), method=name, window=Window.around(X), basis="polynomial")
    ctx = PanelContext(scene, model, model.at_step(1), scene.window, {})
    assert iterations.applies(ctx)
    inner = model.estimator_
    table = iterations.weights_table(model, 1)
    assert table.shape[1] == inner.history_[1]["w"].shape[-1]
    a, p, k = iterations.point_activation(ctx.shown_model, X[7], y[7])
    assert 1 / (1 + np.exp(-a)) == pytest.approx(p, rel=1e-9)
    labels, values = posterior.hover_fields(model, X[:3])
    features = model.features(X[:3])
    if name == "logistic":
        np.testing.assert_allclose(values[:, 0], -inner.decision_function(features), rtol=1e-9)  # the book's a
    else:
        np.testing.assert_allclose(values[:, :3], inner.activations(features), rtol=1e-9)
    np.testing.assert_allclose(values[:, -n_classes:], model.predict_proba(X[:3]), rtol=1e-9)
    # The Gaussian and least-squares comparison panels stay away from phi-space models.
    assert not robustness.applies(ctx)


def test_class_gaussians_only_in_the_input_plane():
    from playground.basis import make_basis

    X, y = clusters(3, 30, seed=2)
    model = make_model("gaussian_shared", basis=make_basis("rbf")).fit(X, y)
    scene = Scene(points=PointSet.from_arrays(X, y), method="gaussian_shared", window=Window.around(X), basis="rbf")
    assert not generative.applies(PanelContext(scene, model, model, scene.window, {}))
    assert posterior.is_probabilistic(model)
