"""One rule at every playback step of the perceptron: the book's f(a) = +1 for a >= 0 (eq. 4.52-4.53),
so a point with w^T phi = 0 goes to C1 (the first class). The canvas's shading at the points, its
misclassified rings, the caption's accuracy, the panel's error count, the player's readout and the
browser's frames (their score rows) all say the same at each step, the step 0 of w = 0 included
(issue 44, item 7): there every point is C1's and the errors are C2's points.

The oracle is the drawing itself: the server's regions (polygons) and rings as rendered, the
caption as written, the panel's numbers as the panel computes them."""

import dataclasses
import re

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground import Window
from playground.presets import PRESETS
from playground.scene import PointSet, Scene
from ui.engine.fitview import evaluate_view
from ui.engine.workers import fit_scene
from ui.panels import perceptron as perceptron_panel
from ui.plot.playback_frames import predict_from_rows, score_rows
from ui.plot.render import render_scene


def _inside(polygon, point, tol):
    """The signed distance of ``point`` into the convex ``polygon`` (positive inside), its least
    over the edges; the polygon's orientation is taken from its area."""
    polygon = np.asarray(polygon, dtype=float)
    edges = np.roll(polygon, -1, axis=0) - polygon
    keep = np.hypot(edges[:, 0], edges[:, 1]) > tol
    polygon, edges = polygon[keep], edges[keep]
    area = np.sum(polygon[:, 0] * np.roll(polygon[:, 1], -1) - np.roll(polygon[:, 0], -1) * polygon[:, 1])
    rel = point - polygon
    cross = (edges[:, 0] * rel[:, 1] - edges[:, 1] * rel[:, 0]) / np.hypot(edges[:, 0], edges[:, 1])
    return float(np.min(np.sign(area) * cross))


def _step_view(scene, step):
    """What the page shows at ``step``: the drawing, the fit's view and the final model."""
    scene = dataclasses.replace(scene, step=step)
    training = scene.training.points
    result = fit_scene(training.X, training.y, scene.method, scene.params, scene.multiclass, scene.basis, ())
    view = evaluate_view(result, training.X, training.y, scene.window, step, 200)
    return render_scene(scene, result[0], view), view, result[0]


def _agreement(scene, step):
    """Each surface's misclassified training points (or count) at ``step``; asserts they agree and
    returns the errors."""
    drawn, view, model = _step_view(scene, step)
    X, y = scene.training.points.X, scene.training.points.y
    shown = model.at_step(step)
    span = max(scene.window.x_max - scene.window.x_min, scene.window.y_max - scene.window.y_min)
    tol = 1e-9 * span
    predicted = np.asarray(shown.predict(X)).astype(int)
    wrong = set(np.flatnonzero(predicted != y).tolist())
    # The shading: the predicted class's region holds each point (its closure: a point on the
    # boundary touches both), and no other region holds it inside.
    polygons = view.region_polygons
    assert polygons, "a linear fit is drawn with exact polygons"
    for n, point in enumerate(X):
        depths = {}
        for label, polygon in polygons:
            depths[label] = max(depths.get(label, -np.inf), _inside(polygon, point, tol))
        assert depths.get(int(predicted[n]), -np.inf) >= -1e-7 * span, (step, n, depths, predicted[n])
        for label, depth in depths.items():
            if label != predicted[n]:
                assert depth <= 1e-7 * span, (step, n, label, depths)
    # The rings: the trace of misclassified marks rings exactly those points.
    marks = [t for t in drawn.figure["data"] if t.get("meta") == "marks"]
    ringed = set()
    for trace in marks:
        for x, y_ in zip(np.asarray(trace.get("x", []), dtype=float), np.asarray(trace.get("y", []), dtype=float)):
            matches = np.flatnonzero(np.all(np.isclose(X, [x, y_], atol=1e-4), axis=1))
            ringed.update(matches.tolist())
    assert ringed == wrong, (step, ringed, wrong)
    # The caption's accuracy.
    caption = " ".join(a["text"] for a in drawn.figure["layout"]["annotations"] if a.get("name") == "caption")
    accuracy = float(re.search(r"training accuracy (\d+\.\d)%", caption).group(1)) / 100
    assert round((1 - accuracy) * len(y)) == len(wrong), (step, caption, wrong)
    # The panel's count, its chart's and the player's readout.
    assert perceptron_panel.errors_at(model, X, y, step) == len(wrong), step
    readout = perceptron_panel.step_readout(model, X, y)(step, shown)
    assert f"{len(wrong)} training error" in readout, (step, readout)
    # The browser's frame: its rows (the book's y(x) and 0), ties to the first row, as argmax.
    rows = score_rows(shown)
    frame_classes = np.asarray(model.classes_)[predict_from_rows(rows, X)]
    assert np.array_equal(frame_classes, predicted), (step, rows)
    return len(wrong)


def _seed003_perceptron():
    scene = PRESETS["seed003"].scene
    return dataclasses.replace(scene, step=None).with_method("perceptron", {}, "native")


def test_every_step_of_the_six_point_run_from_w0_agrees():
    scene = _seed003_perceptron()
    model = _step_view(scene, 0)[2]
    assert not np.any(model.initial_weights_)  # blank initial weights: w = 0
    counts = [_agreement(scene, step) for step in range(model.n_iter_ + 1)]
    # w = 0: f(0) = +1 puts every point in C1, so C2's three points are the errors.
    assert counts[0] == int(np.count_nonzero(scene.points.y == 1)) == 3
    assert counts[-1] == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    xy=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=4, max_size=9, unique=True),
    labels=st.lists(st.integers(0, 1), min_size=9, max_size=9),
    w_init=st.one_of(st.none(), st.tuples(*[st.integers(-2, 2)] * 3)),
    pick=st.floats(0, 1),
)
def test_any_data_any_step_agrees(xy, labels, w_init, pick):
    """Integer points and weights: many points lie exactly on a step's boundary (w^T phi = 0)."""
    X = np.array(xy, dtype=float)
    y = np.array(labels[: len(X)])
    if len(set(y.tolist())) < 2:
        y[0], y[-1] = 0, 1
    points = PointSet.from_arrays(X, y)
    params = {"w_init": None if w_init is None else [float(v) for v in w_init], "max_epochs": 5}
    scene = Scene(points=points, method="perceptron", params=tuple(params.items()), window=Window.around(X))
    model = _step_view(scene, 0)[2]
    step = int(round(pick * model.n_iter_))
    _agreement(scene, step)


def test_a_c1_point_on_the_boundary_is_not_called_misclassified():
    """From w = 0 the first update visits x1 of class 1 (t·wᵀφ = 0 <= 0, the update rule), which
    f(0) = +1 had classified right: the texts say it lay on the boundary, not that it was wrong."""
    scene = _seed003_perceptron()
    X, y = scene.training.points.X, scene.training.points.y
    model = _step_view(scene, 0)[2]
    first = model.history_[0]["index"]
    assert y[first] == model.classes_[0]  # a point of C1
    readout = perceptron_panel.step_readout(model, X, y)(1, model.at_step(1))
    update = perceptron_panel.update_text(model, X, y, 1, model.eta)
    for text in (readout, update):
        assert "misclassified" not in text and "lay on the" in text, text
    # A point of C2 there would be misclassified (f(0) = +1 gives C1): the second update's is.
    second = model.history_[1]["index"]
    assert y[second] == model.classes_[1]
    assert "was misclassified" in perceptron_panel.update_text(model, X, y, 2, model.eta)
