"""Exact boundary segments and regions agree with the classifier they are drawn for."""

import numpy as np
import pytest

from playground import (
    ClusterSpec,
    InvalidDataError,
    Window,
    boundary_segments,
    evaluate_grid,
    linear_regions,
    make_clusters,
    make_model,
)
from playground.geometry import clip_polygon


def _point_in_convex(polygon, point):
    if len(polygon) < 3:
        return False
    edges = np.roll(polygon, -1, axis=0) - polygon
    rel = point - polygon
    cross = edges[:, 0] * rel[:, 1] - edges[:, 1] * rel[:, 0]
    return np.all(cross >= -1e-9) or np.all(cross <= 1e-9)


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_segments_lie_on_ties_between_winning_classes(n_classes):
    specs = [ClusterSpec((3 * np.cos(a), 3 * np.sin(a))) for a in np.linspace(0, 2 * np.pi, n_classes, endpoint=False)]
    X, y = make_clusters(specs, 30, seed=3)
    model = make_model("least_squares").fit(X, y)
    window = Window.around(X)
    segments = boundary_segments(model.coef_, model.intercept_, window)
    assert segments
    for i, j, start, end in segments:
        for t in np.linspace(0, 1, 7):
            point = start + t * (end - start)
            scores = model.class_outputs(point[None])[0] if n_classes > 2 else None
            if scores is not None:
                assert abs(scores[i] - scores[j]) < 1e-9
                assert scores[i] >= scores.max() - 1e-9
            else:
                assert abs(model.decision_function(point[None])[0]) < 1e-9
            assert window.x_min - 1e-9 <= point[0] <= window.x_max + 1e-9


def test_regions_contain_exactly_their_predictions(three_clusters):
    X, y = three_clusters
    model = make_model("least_squares").fit(X, y)
    window = Window.around(X)
    regions = linear_regions(model.coef_, model.intercept_, window)
    grid = evaluate_grid(model, window, 40)
    gx, gy = np.meshgrid(grid.x, grid.y)
    for point, label in zip(np.column_stack([gx.ravel(), gy.ravel()]), grid.labels.ravel()):
        assert _point_in_convex(regions[label], point)
    areas = [0.5 * abs(np.dot(p[:, 0], np.roll(p[:, 1], 1)) - np.dot(p[:, 1], np.roll(p[:, 0], 1))) for p in regions]
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    assert sum(areas) == pytest.approx(width * height)


def test_line_outside_window_gives_no_segment():
    window = Window(0, 1, 0, 1)
    assert boundary_segments(np.array([[1.0, 0.0]]), np.array([-5.0]), window) == []


def test_clip_polygon_half_square():
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    half = clip_polygon(square, np.array([1.0, 0.0]), -0.5)
    assert half[:, 0].min() == pytest.approx(0.5)


def test_grid_shapes_and_cell_centres(two_clusters):
    X, y = two_clusters
    model = make_model("least_squares").fit(X, y)
    grid = evaluate_grid(model, Window(0, 10, -1, 1), 20)
    assert grid.labels.shape == (20, 20) and grid.decision.shape == (20, 20)
    assert grid.x[0] == pytest.approx(0.25) and grid.y[-1] == pytest.approx(0.95)
    assert grid.proba is None


@pytest.mark.parametrize("bounds", [(0, 0, 0, 1), (0, 1, 2, 1), (0, np.inf, 0, 1), (np.nan, 1, 0, 1)])
def test_bad_windows_are_rejected(bounds):
    with pytest.raises(InvalidDataError):
        Window(*bounds)


def test_resolution_is_bounded(two_clusters):
    model = make_model("least_squares").fit(*two_clusters)
    with pytest.raises(InvalidDataError, match="resolution"):
        evaluate_grid(model, Window(), 10_000)
