"""Exact regions and boundaries of multi-class strategies (figure 4.2) agree with the models' own
predictions: one-versus-rest and one-versus-one are drawn as polygons and segments, not traced
from a grid (issue 12, item 10)."""

import numpy as np
import pytest

from playground import Window, evaluate_grid, make_model
from playground.basis import make_basis
from playground.geometry import (
    arrangement_cells,
    exact_regions,
    one_versus_one_lines,
    polygon_area,
    window_with_aspect,
)
from tests.conftest import clusters, two_class_only

LINEAR_METHODS = ["least_squares", "fisher", "perceptron", "logistic", "probit", "svm", "gaussian_shared"]


def _inside_convex(polygon, points):
    """Which of ``points`` (N, 2) lie in the convex polygon (boundary included)."""
    inside_left = np.ones(len(points), bool)
    inside_right = np.ones(len(points), bool)
    for vertex, edge in zip(polygon, np.roll(polygon, -1, axis=0) - polygon):
        cross = edge[0] * (points[:, 1] - vertex[1]) - edge[1] * (points[:, 0] - vertex[0])
        inside_left &= cross >= -1e-12
        inside_right &= cross <= 1e-12
    return inside_left | inside_right


def _fitted(method, strategy, n_classes, seed=0):
    X, y = clusters(n_classes, 30, seed=seed)
    return make_model(method, multiclass=strategy).fit(X, y), Window.around(X)


@pytest.mark.parametrize("n_per_class", [30, 40])
@pytest.mark.parametrize("n_classes", [3, 4, 6])
@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
@pytest.mark.parametrize("method", LINEAR_METHODS)
def test_regions_hold_exactly_the_models_predictions(method, strategy, n_classes, n_per_class):
    X, y = clusters(n_classes, n_per_class)
    model, window = make_model(method, multiclass=strategy).fit(X, y), Window.around(X)
    regions, segments = exact_regions(model, window)
    grid = evaluate_grid(model, window, 120)
    gx, gy = np.meshgrid(grid.x, grid.y)
    centres = np.column_stack([gx.ravel(), gy.ravel()])
    drawn = np.full(len(centres), -1)
    for k, polygon in regions:
        drawn[_inside_convex(polygon, centres)] = k
    predicted = grid.labels.ravel()
    if grid.proba is not None:
        # Far from the data a probit's one-versus-rest probabilities saturate to exact float ties,
        # which its argmax breaks by order; the regions show the largest activation there.
        top2 = np.sort(grid.proba.reshape(len(centres), -1), axis=1)[:, -2:]
        predicted = np.where(top2[:, 1] > top2[:, 0], predicted, drawn)
    assert np.array_equal(drawn, predicted)
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    assert sum(polygon_area(polygon) for _, polygon in regions) == pytest.approx(width * height)  # a tiling
    assert segments


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
@pytest.mark.parametrize("method", LINEAR_METHODS)
def test_boundary_segments_separate_the_classes_they_name(method, strategy):
    model, window = _fitted(method, strategy, 4, seed=1)
    _, segments = exact_regions(model, window)
    size = np.hypot(window.x_max - window.x_min, window.y_max - window.y_min)
    for i, j, start, end in segments:
        assert i < j
        for point in (start, end):
            assert window.x_min - 1e-9 <= point[0] <= window.x_max + 1e-9
            assert window.y_min - 1e-9 <= point[1] <= window.y_max + 1e-9
        direction = end - start
        normal = np.array([-direction[1], direction[0]]) / np.linalg.norm(direction)
        for t in (0.25, 0.5, 0.75):
            middle = start + t * direction
            sides = model.predict_index(np.array([middle + 1e-5 * size * normal, middle - 1e-5 * size * normal]))
            assert sorted(sides) == [i, j]


@pytest.mark.parametrize("method", LINEAR_METHODS)
def test_one_versus_one_lines_follow_the_pairwise_decisions(method):
    """The tie-break lines assume each pair's decision value is w . x + w0: it is."""
    model, window = _fitted(method, "ovo", 4)
    X = np.random.default_rng(0).uniform(-5, 5, size=(50, 2))
    for estimator, w, w0 in zip(model.estimators_, model.coefs_, model.intercepts_):
        np.testing.assert_allclose(estimator.decision_function(X), X @ w + w0, rtol=1e-9, atol=1e-9)
    normals, offsets = one_versus_one_lines(model.coefs_, model.intercepts_, model.pairs_, 4)
    assert normals.shape == (12, 2) and offsets.shape == (12,)  # 6 pairs and 6 tie-breaks


def test_curved_boundaries_are_left_to_the_grid():
    X, y = clusters(3)
    window = Window.around(X)
    # The moderated predictive (eq. 4.155) bends the probabilities one-versus-rest compares; a
    # one-versus-one vote reads the activations' signs and sums, which stay straight.
    assert exact_regions(make_model("bayesian_logistic", multiclass="ovr").fit(X, y), window) is None
    assert exact_regions(make_model("bayesian_logistic", multiclass="ovo").fit(X, y), window) is not None
    assert exact_regions(make_model("gaussian_separate").fit(X, y), window) is None
    curved = make_model("least_squares", basis=make_basis("polynomial", degree=2)).fit(X, y)
    assert exact_regions(curved, window) is None


def test_arrangement_cells_tile_the_window():
    window = Window(-2, 3, -1, 4)
    normals = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]])  # a zero normal is skipped
    cells = arrangement_cells(normals, np.array([-0.5, 0.0, -1.0, 1.0]), window)
    assert len(cells) == 7  # three lines crossing pairwise inside the window
    assert sum(polygon_area(cell) for cell in cells) == pytest.approx(25.0)


@pytest.mark.parametrize("aspect", [0.5, 1.0, 1.7, 3.0])
def test_window_with_aspect_widens_one_side_about_the_centre(aspect):
    window = Window(-1.0, 3.0, 0.0, 2.0)
    wide = window_with_aspect(window, aspect)
    width, height = wide.x_max - wide.x_min, wide.y_max - wide.y_min
    assert width / height == pytest.approx(aspect)
    assert width >= 4.0 - 1e-12 and height >= 2.0 - 1e-12 and min(width - 4.0, height - 2.0) == pytest.approx(0)
    assert (wide.x_min + wide.x_max) / 2 == pytest.approx(1.0) and (wide.y_min + wide.y_max) / 2 == pytest.approx(1.0)


NATIVE = [*LINEAR_METHODS, "bayesian_logistic", "softmax"]
NATIVE_CASES = [(method, 2) for method in NATIVE] + [(m, 3) for m in NATIVE if not two_class_only(m)]


@pytest.mark.parametrize(("method", "n_classes"), NATIVE_CASES)
def test_linear_models_of_their_own_are_exact_whatever_their_posterior(method, n_classes):
    """A probabilistic model predicts the largest posterior, an increasing function of the largest
    y_k(x): its regions are still the exact polygons (not a 200 x 200 grid sent on every click)."""
    X, y = clusters(n_classes, 40)
    model, window = make_model(method).fit(X, y), Window.around(X)
    regions, segments = exact_regions(model, window)
    grid = evaluate_grid(model, window, 120)
    gx, gy = np.meshgrid(grid.x, grid.y)
    centres = np.column_stack([gx.ravel(), gy.ravel()])
    drawn = np.full(len(centres), -1)
    for k, polygon in regions:
        drawn[_inside_convex(polygon, centres)] = k
    assert np.array_equal(drawn, grid.labels.ravel()) and segments
