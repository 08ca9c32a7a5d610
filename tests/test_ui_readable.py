"""Every panel readable (issue 13): what the charts show agrees with what their text says, count
axes have whole-number ticks, overlays read on any background, the J(theta) axis wraps, the
feature-space panel opens on the data, the Equations tab marks its point, six region colours
differ (also in greyscale), and the playback message says which step is shown.
"""

import numpy as np
import plotly.graph_objects as go
import pytest

from playground import Window, make_model
from playground.basis import RBFBasis
from playground.presets import ring_points
from playground.scene import PointSet, Scene
from tests.conftest import clusters
from ui.engine.fitview import playback_note
from ui.panels import (
    PanelContext,
    count_axis,
    iterations,
    posterior,
)
from ui.panels import (
    basis as basis_panel,
)
from ui.panels import (
    fisher as fisher_panel,
)
from ui.panels import (
    model_equations as equations,
)
from ui.plot.figures import scene_figure
from ui.plot.theme import REGION_COLOURS
from ui.session.compute import fit_view


def _context(method, X, y, options=None, open_tab=None, **params):
    points = PointSet.from_arrays(X, y)
    model = make_model(method, **params).fit(points.X, points.y)
    scene = Scene(points=points, method=method, window=Window.around(points.X))
    return PanelContext(scene, model, model, scene.window, dict(options or {}), open_tab)


# -- the sigma(a) read-out -----------------------------------------------------------------------


@pytest.mark.parametrize("a", [-3.0, 29.0, 39.0])
def test_the_sigmoid_marker_is_where_the_title_says(a):
    p = 1 / (1 + np.exp(-a))
    figure = go.Figure(iterations.sigmoid_figure(a, p, 0, 4))
    marker = figure.data[2]
    assert marker.x[0] == pytest.approx(a) and marker.marker.symbol == "circle"
    low, high = figure.layout.xaxis.range
    assert low < a < high
    assert f"a = {a:.3g}," in figure.layout.title.text and "off the chart" not in figure.layout.title.text


@pytest.mark.parametrize("a", [88.7, -250.0, np.inf])
def test_an_activation_beyond_the_chart_is_drawn_at_its_edge_and_said_to_be_off_it(a):
    p = float(1 / (1 + np.exp(-a)))
    figure = go.Figure(iterations.sigmoid_figure(a, p, 0, 4))
    marker = figure.data[2]
    low, high = figure.layout.xaxis.range
    assert low < marker.x[0] < high and abs(marker.x[0]) == iterations.SIGMOID_REACH
    assert marker.marker.symbol == ("triangle-right" if a > 0 else "triangle-left")
    assert "off the chart" in figure.layout.title.text and f"a = {a:.3g}" in figure.layout.title.text


# -- whole-number axes -----------------------------------------------------------------------------


@pytest.mark.parametrize("largest", [1, 2, 3, 5, 7, 12, 48, 233, 1271, 50_000])
def test_count_axes_tick_at_whole_numbers_only(largest):
    axis = count_axis(largest, "points")
    assert isinstance(axis["dtick"], int) and axis["dtick"] >= 1 and axis["tick0"] == 0
    assert 1 <= largest / axis["dtick"] <= 6 or axis["dtick"] == 1
    assert axis["tickformat"] == "d" and axis["title"]["text"] == "points"


def test_histograms_and_playback_charts_count_in_whole_numbers():
    points = fisher_panel.elongated_points()
    ctx = _context("fisher", points.X, points.y)
    model = fisher_panel.fisher_model(ctx.model)
    figure = fisher_panel.projection_figure(model, points.X, points.y, model.direction_, model.threshold_, "t")
    assert figure.layout.yaxis.dtick >= 1 and figure.layout.yaxis.tickformat == "d"
    from ui.panels import perceptron as perceptron_panel
    from ui.panels import svm as svm_panel

    close = perceptron_panel.close_points()
    perceptron = make_model("perceptron").fit(close.X, close.y)
    for chart in (
        perceptron_panel.errors_figure(perceptron, 3),
        perceptron_panel.errors_by_step_figure(perceptron, close.X, close.y, 3),
    ):
        assert chart.layout.xaxis.tickformat == "d" and chart.layout.yaxis.tickformat == "d"
    svm = make_model("svm").fit(*clusters(2, 20, seed=2))
    assert svm_panel.objective_figure(svm, 1).layout.xaxis.tickformat == "d"
    history = make_model("logistic").fit(*clusters(2, 20, seed=2, spread=(2.0, 1.5))).history_
    assert go.Figure(iterations.log_likelihood_figure(history, 1)).layout.xaxis.tickformat == "d"


# -- Fisher's criterion on a wrapped angle axis -------------------------------------------------------


def test_directions_a_few_degrees_apart_across_0_and_180_are_drawn_close():
    # Fisher's direction near 175 degrees, the means line near 2.6 degrees: 7.6 degrees apart as lines.
    rng = np.random.default_rng(0)
    base = rng.normal(size=(60, 2)) * [2.0, 0.35]
    angle = np.deg2rad(2.6)
    rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    X = np.vstack([base[:30] @ rotation.T, base[30:] @ rotation.T + [3.0, 0.14]])
    y = np.repeat([0, 1], 30)
    ctx = _context("fisher", X, y)
    model = fisher_panel.fisher_model(ctx.model)
    fisher_angle = fisher_panel.angle_of(model.direction_)
    means_angle = fisher_panel.angle_of(fisher_panel.means_direction(model))
    apart = min(abs(fisher_angle - means_angle), 180 - abs(fisher_angle - means_angle))
    figure = fisher_panel.criterion_figure(model, means_angle)
    curve, star, diamond = figure.data
    assert abs(star.x[0] - diamond.x[0]) == pytest.approx(apart, abs=1e-6)  # drawn as far apart as they are
    low, high = figure.layout.xaxis.range
    assert high - low == pytest.approx(180.0) and low <= diamond.x[0] <= high
    # Tick labels are angles modulo 180 at their positions.
    for value, text in zip(figure.layout.xaxis.tickvals, figure.layout.xaxis.ticktext):
        assert text == f"{value % 180:g}°"
    # The curve is J at the angle each position names.
    position = curve.x[10]
    direction = fisher_panel.unit(position % 180)
    assert curve.y[10] == pytest.approx(model.criterion(direction), rel=1e-5)


# -- the feature-space panel ------------------------------------------------------------------------


def test_the_default_feature_plane_shows_the_data_and_agrees_with_the_model():
    points = ring_points()
    X, y = points.X, points.y
    model = make_model("svm", basis=RBFBasis(placement="grid", n_centres=16)).fit(X, y)
    predicted = np.searchsorted(model.classes_, model.predict(X))

    def agreement(pair):
        features, _, line, _ = basis_panel.feature_space(model, X, *pair)
        return float(np.mean(basis_panel.line_side(line, features) == predicted)), features.std(axis=0)

    old_agreement, old_spread = agreement((0, 1))  # the corner of the grid: every phi near 0
    new_agreement, new_spread = agreement(basis_panel.default_pair(model, X))
    assert new_agreement >= old_agreement + 0.2 and new_agreement >= 0.85
    assert np.all(new_spread > old_spread.max())


def test_the_small_input_plane_is_filled_by_its_regions():
    points = ring_points()
    model = make_model("logistic", basis=RBFBasis(placement="data", n_centres=8)).fit(points.X, points.y)
    window = Window.around(points.X)
    figure = basis_panel.input_space_figure(model, points.X, points.y, window, (0, 1))
    regions = figure.data[0]
    covered = (regions.x0 - regions.dx / 2, regions.y0 - regions.dy / 2)
    size = np.shape(regions.z)
    right, top = covered[0] + size[1] * regions.dx, covered[1] + size[0] * regions.dy
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    # Whatever shape the plot has (width / height from 0.8 to 1.7), the regions reach its edges.
    assert right - covered[0] >= max(width, 1.7 * height) - 1e-9
    assert top - covered[1] >= max(height, width / 0.8) - 1e-9
    assert list(figure.layout.xaxis.range) == [window.x_min, window.x_max]  # the view itself is unchanged


# -- the Equations tab's point -------------------------------------------------------------------------


def test_the_equations_point_is_marked_while_its_tab_is_open():
    X, y = clusters(2, 20, seed=1)
    closed = _context("logistic", X, y, open_tab="Posterior p(Cₖ|x)")
    assert equations.overlay(closed) == []
    opened = _context("logistic", X, y, open_tab="Equations")
    (mark,) = equations.overlay(opened)
    np.testing.assert_allclose([mark.x[0], mark.y[0]], opened.scene.points.X[-1])  # points live on a grid
    typed = _context("logistic", X, y, options={equations.POINT_OPTION: [0.5, -1.0]}, open_tab="Equations")
    (mark,) = equations.overlay(typed)
    assert (mark.x[0], mark.y[0]) == (0.5, -1.0)
    from ui.panels import open_tab_signature

    assert open_tab_signature("Equations") == "Equations" and open_tab_signature("Posterior p(Cₖ|x)") is None
    assert open_tab_signature("Iterations") == "Iterations"  # its σ(a) ring too, only while open (issue 26)


# -- colours ----------------------------------------------------------------------------------------


def _lab(colour):
    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ linear
    xyz /= [0.95047, 1.0, 1.08883]
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_six_region_colours_differ_from_each_other_and_in_greyscale():
    labs = [_lab(c) for c in REGION_COLOURS]
    for i in range(6):
        for j in range(i + 1, 6):
            assert np.linalg.norm(labs[i] - labs[j]) > 20, (i + 1, j + 1)  # CIE76 distance
            assert abs(labs[i][0] - labs[j][0]) > 3.5, (i + 1, j + 1)  # lightness: greyscale


def test_the_posterior_display_is_not_hidden_under_the_regions():
    X, y = clusters(2, 30, seed=1, spread=(1.5, 1.0))
    ctx = _context("logistic", X, y, options={posterior.DISPLAY_KEY: "posterior"})
    view = fit_view(ctx.scene.points, "logistic", (), "native", ctx.window)
    assert view.region_polygons  # a linear model: exact region polygons
    figure = scene_figure(ctx.scene.points, view, ctx.window, 0, posterior.overlay(ctx))
    names = [trace.get("name") for trace in figure["data"]]
    assert "regions" not in names  # filled polygons would cover the heatmap (plotly draws heatmaps first)
    assert any(trace.get("meta") == "posterior" for trace in figure["data"])
    plain = scene_figure(ctx.scene.points, view, ctx.window, 0, ())
    assert "regions" in [trace.get("name") for trace in plain["data"]]


# -- playback messages ------------------------------------------------------------------------------------


def test_the_message_of_an_unconverged_fit_says_which_step_is_shown():
    X, y = clusters(2, 30, seed=3, spread=(2.0, 1.5))
    model = make_model("perceptron", max_epochs=3).fit(X, y)
    assert not model.converged_ and "last boundary" in model.fit_message_
    assert playback_note(model.at_step(model.n_iter_), None) == model.fit_message_
    assert playback_note(model.at_step(model.n_iter_), model.n_iter_) == model.fit_message_
    note = playback_note(model.at_step(3), 3)
    assert note.startswith(f"Playback: step 3 of {model.n_iter_} is shown, not the final fit.")
    assert note.endswith(model.fit_message_)
