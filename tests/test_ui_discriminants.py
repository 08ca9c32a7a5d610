"""The section 4.1 panels: geometry (fig. 4.1), Fisher (fig. 4.6), perceptron playback (fig. 4.7),
least squares (figs. 4.4, 4.5) and the multi-class strategies (fig. 4.2).

Unit tests call the overlay and figure builders on a PanelContext built from a fitted model;
AppTest drives the panels' widgets in the real app (no browser).
"""

from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from playground import Window, make_model
from playground.geometry import polygon_area
from playground.grid import grid_axes
from playground.scene import PointSet, Scene
from tests.conftest import clusters, player_data, show_step
from ui.panels import (
    PanelContext,
    all_panels,
    geometry,
)
from ui.panels import (
    fisher as fisher_panel,
)
from ui.panels import (
    least_squares as least_squares_panel,
)
from ui.panels import (
    multiclass as multiclass_panel,
)
from ui.panels import (
    perceptron as perceptron_panel,
)
from ui.plot.theme import CLASS_COLOURS
from ui.text.convention import book_line, fisher_target_values

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def context(method, X, y, *, multiclass="native", step=None, options=None, **params):
    points = PointSet.from_arrays(X, y)
    model = make_model(method, multiclass=multiclass, **params).fit(points.X, points.y)
    scene = Scene(points=points, method=method, multiclass=multiclass, window=Window.around(points.X), step=step)
    shown = model.at_step(step) if step is not None and hasattr(model, "at_step") else model
    return PanelContext(scene, model, shown, scene.window, {} if options is None else options)


def titles(ctx):
    return [panel.title for panel in all_panels() if panel.applies(ctx)]


def _two():
    X, y = clusters(2, 30, seed=3)
    return X, y


def _three():
    return clusters(3, 30, seed=3)


def _named(traces, name):
    return [t for t in traces if t.name == name]


# -- every overlay is a valid, light plotly trace that never claims to be a data point -------------


@pytest.mark.parametrize(
    "method, multiclass, n_classes",
    [
        ("fisher", "native", 2),
        ("fisher", "native", 3),
        ("perceptron", "native", 2),
        ("least_squares", "native", 3),
        ("least_squares", "ovr", 3),
        ("least_squares", "ovo", 3),
        ("gaussian_separate", "ovr", 3),
        ("logistic", "native", 2),
    ],
)
def test_overlays_are_small_and_never_points(method, multiclass, n_classes):
    X, y = _two() if n_classes == 2 else _three()
    ctx = context(method, X, y, multiclass=multiclass)
    for panel in all_panels():
        if panel.overlay is None or not panel.applies(ctx):
            continue
        traces = panel.overlay(ctx)
        figure = go.Figure(traces)
        assert all(getattr(t, "meta", None) != "points" for t in traces)
        assert len(figure.to_json()) < 60_000, panel.title


# -- geometry (figure 4.1) -----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["fisher", "perceptron", "least_squares", "logistic", "svm"])
def test_geometry_applies_to_two_class_linear_models_only(method):
    X, y = _two()
    assert "Geometry (fig. 4.1)" in titles(context(method, X, y))
    X3, y3 = _three()
    assert "Geometry (fig. 4.1)" not in titles(context("least_squares", X3, y3))


def _book_line_by_hand(X, y):
    """Independently of ui.text.convention: the least-squares line with the book's targets t = +1 on
    C1 (the first class, y == 0) and -1 on C2, i.e. y(x) >= 0 on C1 (section 4.1.5 up to a scale)."""
    t = np.where(y == 0, 1.0, -1.0)
    weights = np.linalg.lstsq(np.column_stack([np.ones(len(X)), X]), t, rcond=None)[0]
    return weights[1:], weights[0]


def test_geometry_arrow_stands_on_the_boundary_and_points_into_class_1():
    X, y = _two()
    ctx = context("least_squares", X, y)
    line = book_line(ctx.shown_model)
    w_hand, w0_hand = _book_line_by_hand(X, y)
    # The book's w is the back-end's negated; parallel to the hand-made one, same orientation.
    np.testing.assert_allclose(line.w, -ctx.model.coef_[0])
    assert line.w @ w_hand > 0.999 * np.linalg.norm(line.w) * np.linalg.norm(w_hand)
    assert (line.c1, line.c2) == (0, 1)
    assert np.mean(line.value(X[y == 0]) >= 0) > 0.9 and np.mean(line.value(X[y == 1]) < 0) > 0.9  # y >= 0 on C1
    arrow = _named(geometry.overlay(ctx), geometry.W_NAME)[0]
    start, end = np.array([arrow.x[0], arrow.y[0]]), np.array([arrow.x[1], arrow.y[1]])
    assert abs(line.w @ start + line.w0) < 1e-9 * max(1.0, abs(line.w0))  # on the boundary y(x) = 0
    direction = (end - start) / np.linalg.norm(end - start)
    np.testing.assert_allclose(direction, line.w / line.norm, atol=1e-9)  # orthogonal to it
    assert ctx.model.predict(end[None, :])[0] == 0  # w points into class 1's region (figure 4.1)
    assert direction @ (X[y == 0].mean(axis=0) - X[y == 1].mean(axis=0)) > 0  # from class 2 towards class 1


def test_geometry_distance_is_in_the_legend_never_on_the_plot():
    X, y = _two()
    X = X + np.array([3.0, 1.0])  # move the boundary away from the origin
    ctx = context("fisher", X, y)
    line = book_line(ctx.shown_model)
    traces = geometry.overlay(ctx)
    (segment,) = [t for t in traces if t.meta == "distance"]
    assert (segment.x[0], segment.y[0]) == (0.0, 0.0)
    foot = np.array([segment.x[1], segment.y[1]])
    assert np.linalg.norm(foot) == pytest.approx(abs(line.w0) / line.norm)
    assert abs(line.w @ foot + line.w0) < 1e-9
    # The book's sign: -w0/||w|| is positive when the origin is on C2's side (y(0) = w0 < 0).
    distance = -line.w0 / line.norm
    assert f"−w₀/‖w‖ = {distance:.3g}".replace("-", "−") in segment.name
    assert np.sign(distance) == -np.sign(line.value(np.zeros((1, 2)))[0])
    # No text trace may sit on the plane (it covered points and the arrow): the value is in the legend.
    texts = [t for t in traces if "text" in (getattr(t, "mode", None) or "")]
    assert [t.name for t in texts] == [geometry.W_NAME]  # only the arrow's own "w"


def test_geometry_hover_reads_the_books_y_r_and_class():
    X, y = _two()
    ctx = context("perceptron", X, y)
    line = book_line(ctx.shown_model)
    first, second = geometry.hover_traces(line, ctx.window)
    xs, ys = grid_axes(ctx.window, geometry.HOVER_RESOLUTION)
    gx, gy = np.meshgrid(xs, ys)
    # The book's y(x): minus the back-end's decision value (whose positive side is class 2).
    expected = -ctx.model.decision_function(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
    for trace, side in ((first, expected >= 0), (second, expected < 0)):
        z = np.asarray(trace.z)
        assert z.dtype == np.float32 and z.shape == gx.shape
        assert np.all(np.isnan(z[~side]))
        np.testing.assert_allclose(z[side], expected[side], rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(np.asarray(trace.customdata), expected / line.norm, rtol=1e-5, atol=1e-4)
        assert trace.x0 == pytest.approx(xs[0]) and trace.dx == pytest.approx(xs[1] - xs[0])
    assert "class 1" in first.hovertemplate and "class 2" in second.hovertemplate


def test_geometry_toggle_and_anchor_outside_the_view():
    X, y = _two()
    ctx = context("least_squares", X, y, options={geometry.OPTION: False})
    assert geometry.overlay(ctx) == []
    # A boundary whose nearest point to the origin is far out of view: the arrow stays in view.
    w, w0 = np.array([1.0, 0.0]), -50.0
    window = Window(45.0, 55.0, 95.0, 105.0)
    start = geometry.arrow_anchor(w, w0, window)
    assert window.x_min <= start[0] <= window.x_max and window.y_min <= start[1] <= window.y_max
    assert w @ start + w0 == pytest.approx(0.0)


# -- Fisher (figure 4.6) --------------------------------------------------------------------------


def test_fisher_curve_peaks_at_fishers_direction():
    points = fisher_panel.elongated_points()
    ctx = context("fisher", points.X, points.y)
    model = fisher_panel.fisher_model(ctx.model)
    angles, values = fisher_panel.criterion_curve(model)
    best = angles[np.argmax(values)]
    fisher_angle = fisher_panel.angle_of(model.direction_)
    gap = abs(best - fisher_angle) % 180
    assert min(gap, 180 - gap) <= fisher_panel.ANGLE_STEP
    assert values.max() <= model.criterion(model.direction_) + 1e-12
    # The data of figure 4.6: the means line is clearly worse than Fisher's direction.
    assert model.criterion(fisher_panel.means_direction(model)) < 0.5 * model.criterion(model.direction_)


def test_fisher_overlay_threshold_line_is_perpendicular_at_the_midpoint():
    X, y = _two()
    ctx = context("fisher", X, y, options={fisher_panel.ANGLE_OPTION: 30.0})
    model = ctx.model
    traces = fisher_panel.overlay(ctx)
    direction = fisher_panel.oriented(model, fisher_panel.unit(30.0))
    cut = _named(traces, "threshold for the slider direction")[0]
    threshold = fisher_panel.midpoint_threshold(model, direction)
    for x, y_ in zip(cut.x, cut.y):
        assert np.array([x, y_]) @ direction == pytest.approx(threshold)
    line = _named(traces, "projection direction (slider)")[0]
    along = np.array([line.x[1] - line.x[0], line.y[1] - line.y[0]])
    assert abs(along @ np.array([-direction[1], direction[0]])) < 1e-9 * np.linalg.norm(along)
    centre = ctx.scene.points.X.mean(axis=0)
    offset = centre - np.array([line.x[0], line.y[0]])
    assert abs(along[0] * offset[1] - along[1] * offset[0]) < 1e-6 * np.linalg.norm(along)
    assert fisher_panel.overlay(context("fisher", X, y, options={fisher_panel.SHOW_OPTION: False})) == []


def test_fisher_figures():
    X, y = _two()
    ctx = context("fisher", X, y)
    model = ctx.model
    figure = fisher_panel.projection_figure(model, X, y, model.direction_, model.threshold_, "t")
    bars = [t for t in figure.data if t.type == "bar"]
    assert len(bars) == 2 and sum(int(np.sum(b.y)) for b in bars) == len(y)
    assert figure.layout.shapes[0].x0 == pytest.approx(model.threshold_)
    curve = fisher_panel.criterion_figure(model, 42.0)
    star = [t for t in curve.data if t.name == "Fisher's direction"][0]
    assert star.x[0] == pytest.approx(fisher_panel.angle_of(model.direction_))
    X3, y3 = _three()
    space = fisher_panel.fisher_space_figure(context("fisher", X3, y3).model, X3, y3)
    assert len(space.data) == 4  # three classes and the projected means
    assert "Fisher projection (fig. 4.6)" in titles(context("fisher", X3, y3))
    assert fisher_panel.overlay(context("fisher", X3, y3)) == []


# -- perceptron playback (figure 4.7) -------------------------------------------------------------


def test_perceptron_overlay_rings_the_point_used_and_the_previous_boundary():
    points = perceptron_panel.close_points()
    X, y = points.X, points.y
    full = context("perceptron", X, y)
    assert full.model.converged_ and full.model.n_iter_ >= 10  # a run worth stepping through
    for step in (1, 5, full.model.n_iter_):
        ctx = context("perceptron", X, y, step=step)
        traces = perceptron_panel.overlay(ctx)
        ring = _named(traces, "misclassified point used for this update")[0]
        n = ctx.model.history_[step - 1]["index"]
        assert (ring.x[0], ring.y[0]) == (X[n, 0], X[n, 1])
        w = ctx.model.weights_at(step - 1)
        before = _named(traces, "boundary before this update")
        if step == 1:  # from w = 0 there is no boundary before the first update
            assert not np.any(w) and before == []
            continue
        for x, y_ in zip(before[0].x, before[0].y):
            assert w[1] * x + w[2] * y_ + w[0] == pytest.approx(0.0, abs=1e-9)
        assert perceptron_panel.errors_at(ctx.model, X, y, step) == ctx.model.history_[step - 1]["errors"]
    start = context("perceptron", X, y, step=0)
    assert _named(perceptron_panel.overlay(start), "misclassified point used for this update") == []
    # w = 0: f(0) = +1 gives every point to C1 (the first class), so C2's points are the errors
    assert perceptron_panel.errors_at(start.model, X, y, 0) == np.count_nonzero(y == start.model.classes_[1])


def test_perceptron_overlay_draws_w_itself_when_geometry_is_off():
    X, y = _two()
    ctx = context("perceptron", X, y, step=1, options={geometry.OPTION: False})
    assert _named(perceptron_panel.overlay(ctx), geometry.W_NAME)


def test_perceptron_charts():
    points = perceptron_panel.close_points()
    ctx = context("perceptron", points.X, points.y)
    model = ctx.model
    epochs = perceptron_panel.errors_figure(model, 3)
    np.testing.assert_array_equal(epochs.data[0].y, model.errors_per_epoch_)
    steps = perceptron_panel.errors_by_step_figure(model, points.X, points.y, 3)
    assert len(steps.data[0].y) == model.n_iter_ + 1 and steps.data[1].x[0] == 3


# -- least squares (figures 4.4, 4.5) -------------------------------------------------------------


def test_least_squares_surface_is_the_class_outputs():
    X, y = _three()
    ctx = context("least_squares", X, y)
    xs, ys, Y = least_squares_panel.output_grid(ctx.model, ctx.window, 30)
    gx, gy = np.meshgrid(xs, ys)
    expected = ctx.model.class_outputs(np.column_stack([gx.ravel(), gy.ravel()])).reshape(30, 30, 3)
    np.testing.assert_allclose(Y, expected, rtol=1e-5, atol=1e-5)
    assert Y.min() < 0 and Y.max() > 1  # not probabilities
    np.testing.assert_allclose(Y.sum(axis=2), 1.0, atol=1e-4)  # but they do sum to one (exercise 4.2)
    figure = least_squares_panel.surface_figure(ctx.model, ctx.scene.points, ctx.window, 1)
    heatmap = go.Figure(figure).data[0]  # a dict for plotly.js; validated here, not on every click
    assert heatmap.zmin < 0 and heatmap.zmax > 1
    positions = [stop[0] for stop in heatmap.colorscale]
    assert positions[1] == positions[2] == pytest.approx((0 - heatmap.zmin) / (heatmap.zmax - heatmap.zmin))
    assert positions[3] == positions[4] == pytest.approx((1 - heatmap.zmin) / (heatmap.zmax - heatmap.zmin))
    assert _contour_levels(figure) == [[0.0, 1.0]]  # the slab [0, 1], one trace (the grid sent once more)
    surface = go.Figure(least_squares_panel.surface_figure(ctx.model, ctx.scene.points, ctx.window, 0, "3d"))
    assert surface.data[0].type == "surface"
    fisher_targets = context("least_squares", *_two(), targets="fisher")
    names = least_squares_panel.output_names(fisher_targets.model)
    assert names == ["y(x) with targets N/N₁ for class 1, −N/N₂ for class 2"]


def test_least_squares_with_the_targets_of_section_4_1_5_is_in_the_books_sign():
    X, y = _two()
    ctx = context("least_squares", X, y, targets="fisher")
    n, n1 = len(y), int(np.sum(y == 0))
    t = np.where(y == 0, n / n1, -n / (n - n1))  # t = N/N1 for C1 = class 1, -N/N2 for C2
    weights = np.linalg.lstsq(np.column_stack([np.ones(n), X]), t, rcond=None)[0]
    xs, ys, Y = least_squares_panel.output_grid(ctx.model, ctx.window, 20)
    gx, gy = np.meshgrid(xs, ys)
    expected = np.column_stack([np.ones(gx.size), gx.ravel(), gy.ravel()]) @ weights
    np.testing.assert_allclose(Y[..., 0].ravel(), expected, rtol=1e-5, atol=1e-5)
    assert fisher_target_values(ctx.model, y) == pytest.approx((n / n1, -n / (n - n1)))
    heatmap = go.Figure(least_squares_panel.surface_figure(ctx.model, ctx.scene.points, ctx.window, 0)).data[0]
    ticks = heatmap.colorbar.tickvals
    assert ticks[0] == pytest.approx(-n / (n - n1)) and ticks[2] == pytest.approx(n / n1)
    assert heatmap.colorscale[-1][1] == CLASS_COLOURS[0]  # high values: class 1's colour
    figure = least_squares_panel.surface_figure(ctx.model, ctx.scene.points, ctx.window, 0)
    levels = _contour_levels(figure)
    assert sorted(level for trace in levels for level in trace) == pytest.approx([-n / (n - n1), 0.0, n / n1])


def _contour_levels(figure):
    """The levels each contour trace of a figure draws (plotly.js: start, start + size, ... end)."""
    levels = []
    for trace in figure["data"]:
        if trace["type"] == "contour":
            c = trace["contours"]
            count = int(round((c["end"] - c["start"]) / c["size"])) + 1
            levels.append([c["start"] + i * c["size"] for i in range(count)])
    return levels


def test_far_points_are_correct_far_and_drag_the_boundary():
    X, y = clusters(2, 30, seed=3)

    def fit(X_, y_):
        return make_model("least_squares").fit(X_, y_)

    before = fit(X, y)
    group = least_squares_panel.far_points(X, y, 1, fit)
    assert group.shape == (least_squares_panel.N_FAR_POINTS, 2)
    assert np.all(before.predict(group) == 1)  # on their own, correct side
    w = before.coef_[0]
    assert np.min(before.decision_function(group)) > np.max(np.abs(before.decision_function(X[y == 1])))
    after = fit(np.vstack([X, group]), np.concatenate([y, np.ones(len(group), int)]))
    assert np.count_nonzero(after.predict(X) != y) > np.count_nonzero(before.predict(X) != y)
    assert np.linalg.norm(after.coef_[0] / np.linalg.norm(after.coef_[0]) - w / np.linalg.norm(w)) > 1e-3


def test_aligned_points_mask_the_middle_class():
    points = least_squares_panel.aligned_points()
    assert list(points.counts()[:3]) == [30, 30, 30]
    least_squares = make_model("least_squares").fit(points.X, points.y)
    softmax = make_model("softmax").fit(points.X, points.y)
    middle = points.y == 1
    assert np.mean(least_squares.predict(points.X[middle]) == 1) < 0.5
    assert np.mean(softmax.predict(points.X[middle]) == 1) > 0.9


# -- multi-class strategies (figure 4.2) ----------------------------------------------------------


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
@pytest.mark.parametrize("method", ["least_squares", "perceptron", "logistic"])
def test_ambiguous_polygons_match_the_models_own_ambiguity(method, strategy):
    X, y = _three()
    ctx = context(method, X, y, multiclass=strategy)
    model = ctx.model
    cells = multiclass_panel.arrangement_cells(model.coefs_, model.intercepts_, ctx.window)
    total = (ctx.window.x_max - ctx.window.x_min) * (ctx.window.y_max - ctx.window.y_min)
    assert sum(polygon_area(c) for c in cells) == pytest.approx(total)  # a partition
    exact = multiclass_panel.ambiguous_share(model, ctx.window)
    _, _, mask = multiclass_panel.ambiguous_grid(model, ctx.window, 200)
    assert exact == pytest.approx(mask.mean(), abs=0.01)
    if strategy == "ovr":
        assert exact > 0.05  # figure 4.2, left: large regions claimed by none or by two
    traces = go.Figure(data=multiclass_panel.overlay(ctx)).data  # dicts for plotly.js, validated here
    hatched = _named(traces, "ambiguous region (fig. 4.2)")[0]
    assert hatched.fill == "toself" and hatched.fillpattern.shape == "/"
    labels = [t for t in traces if t.name == "classifier labels"][0]
    expected = ["1 vs rest", "2 vs rest", "3 vs rest"] if strategy == "ovr" else ["1 vs 2", "1 vs 3", "2 vs 3"]
    assert [text.strip("<b>/") for text in labels.text] == expected


def test_ambiguous_grid_fallback_for_curved_sub_classifiers():
    X, y = _three()
    ctx = context("gaussian_separate", X, y, multiclass="ovr")
    assert multiclass_panel.ambiguous_polygons(ctx.model, ctx.window) is None
    (heatmap,) = go.Figure(data=multiclass_panel.overlay(ctx)).data
    assert heatmap.type == "heatmap" and np.asarray(heatmap.z).dtype == np.uint8


def test_multiclass_panel_applies_to_strategies_of_three_classes():
    X, y = _three()
    assert "Multi-class strategy (fig. 4.2)" in titles(context("least_squares", X, y, multiclass="ovo"))
    assert "Multi-class strategy (fig. 4.2)" not in titles(context("least_squares", X, y))
    assert "Multi-class strategy (fig. 4.2)" not in titles(context("least_squares", *_two(), multiclass="ovr"))
    ctx = context("least_squares", X, y, multiclass="ovr", options={multiclass_panel.OPTION: False})
    assert multiclass_panel.overlay(ctx) == []


# -- in the app (AppTest) --------------------------------------------------------------------------


@pytest.fixture
def app():
    return AppTest.from_file(APP, default_timeout=60).run()


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _tabs(at):
    return [tab.label for tab in at.tabs]


def _open_tab(at, prefix):
    """Open the panel tab whose title starts with ``prefix`` (only the open tab renders)."""
    at.session_state["panel_tab"] = next(label for label in _tabs(at) if label.startswith(prefix))
    return at.run()


def test_app_fisher_panel_slider_and_snap(app):
    app.selectbox(key="method").set_value("fisher").run()
    assert "Fisher projection (fig. 4.6)" in _tabs(app)  # K = 3: the Fisher space
    _button(app, "Load two elongated classes (fig. 4.6)").click().run()
    assert not app.exception and len(app.session_state.scene.points) == 100
    assert {"Fisher projection (fig. 4.6)", "Geometry (fig. 4.1)"} <= set(_tabs(app))
    app.slider(key="fisher_angle_slider").set_value(60.0).run()
    assert app.session_state.panel_options[fisher_panel.ANGLE_OPTION] == 60.0
    _button(app, "Fisher's w").click().run()
    model = app.session_state.scene  # the snap stores Fisher's angle
    angle = app.session_state.panel_options[fisher_panel.ANGLE_OPTION]
    fitted = make_model("fisher").fit(model.points.X, model.points.y)
    assert angle == pytest.approx(fisher_panel.angle_of(fitted.direction_))
    assert not app.exception


def test_app_perceptron_playback(app):
    app.selectbox(key="method").set_value("fisher").run()
    _button(app, "Load two elongated classes (fig. 4.6)").click().run()
    app.selectbox(key="method").set_value("perceptron").run()
    assert "Perceptron playback (fig. 4.7)" in _tabs(app)
    _button(app, "Load two close classes (fig. 4.7)").click().run()
    assert player_data(app)["steps"] == list(range(19))  # every update goes to the browser
    show_step(app, 3)
    assert not app.exception and app.session_state.scene.step == 3
    assert any(m.label == "Step" and m.value == f"3 of {18}" for m in app.metric)
    assert any("Update 3:" in m.value for m in app.markdown)


def test_app_least_squares_buttons_are_undoable(app):
    assert "Least-squares outputs (fig. 4.4, 4.5)" in _tabs(app)
    original = app.session_state.scene.points
    _button(app, "Load three aligned classes (fig. 4.5)").click().run()
    assert app.session_state.scene.points == least_squares_panel.aligned_points()
    _button(app, "Add far-away points (fig. 4.4)").click().run()
    assert len(app.session_state.scene.points) == 90 + least_squares_panel.N_FAR_POINTS
    _button(app, "↶ Undo").click().run()
    _button(app, "↶ Undo").click().run()
    assert app.session_state.scene.points == original and not app.exception
    app.segmented_control(key="ls_surface_kind").set_value("3d").run()
    assert not app.exception


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
def test_app_multiclass_panel_and_geometry_toggle(app, strategy):
    app.radio(key="multiclass").set_value(strategy).run()
    assert "Multi-class strategy (fig. 4.2)" in _tabs(app) and not app.exception
    assert any("ambiguous" in m.label for m in app.metric)
    app.checkbox(key="multiclass_overlay_show").uncheck().run()
    assert app.session_state.panel_options[multiclass_panel.OPTION] is False


def test_app_geometry_toggle(app):
    app.selectbox(key="method").set_value("fisher").run()
    _button(app, "Load two elongated classes (fig. 4.6)").click().run()
    _open_tab(app, "Geometry")
    app.checkbox(key="geometry_show").uncheck().run()
    assert app.session_state.panel_options[geometry.OPTION] is False and not app.exception
    app.checkbox(key="geometry_show").check().run()
    assert app.session_state.panel_options[geometry.OPTION] is True
