"""The frames the browser replays (ui/plot/playback_frames.py): each frame's score rows give the same
classes and the same boundary as the model's ``at_step`` of that step, in the book's convention;
long runs are thinned to at most MAX_FRAMES, keeping the first and the last step."""

import base64
import json

import numpy as np
import pytest

from playground import Window, make_model
from playground.basis import PolynomialBasis, with_basis
from playground.geometry import exact_regions
from tests.conftest import clusters
from ui.plot.playback_frames import MAX_FRAMES, frame_steps, playback_frames, predict_from_rows, score_rows
from ui.text.convention import book_decision, book_weights_at


def _rows(frames):
    return np.frombuffer(base64.b64decode(frames["rows"]), dtype=np.float64).reshape(frames["shape"])


ITERATIVE = [
    ("perceptron", {}, 2),
    ("logistic", {}, 2),
    ("logistic", {"solver": "gd"}, 2),
    ("softmax", {}, 3),
    ("softmax", {}, 2),
    ("probit", {}, 2),
    ("svm", {}, 2),
]


@pytest.mark.parametrize("name, params, n_classes", ITERATIVE)
def test_each_frame_classifies_as_the_model_at_that_step(name, params, n_classes):
    X, y = clusters(n_classes)
    model = make_model(name, **params).fit(X, y)
    n_steps = len(model.history_) if name == "svm" else model.n_iter_
    window = Window.around(X)
    frames = playback_frames(model, n_steps, window)
    rows = _rows(frames)
    assert frames["steps"][0] == 0 and frames["steps"][-1] == n_steps and frames["kind"] == "linear"
    probes = np.random.default_rng(0).uniform([window.x_min, window.y_min], [window.x_max, window.y_max], (400, 2))
    classes = np.asarray(frames["classes"])
    for index, step in enumerate(frames["steps"]):
        shown = model.at_step(step)
        np.testing.assert_array_equal(classes[predict_from_rows(rows[index], probes)], shown.predict(probes))


@pytest.mark.parametrize("name, params, n_classes", [case for case in ITERATIVE if case[2] == 2])
def test_two_class_rows_are_the_books_y_of_c1(name, params, n_classes):
    """Row 0 is C1's y(x) = w^T x + w0 (>= 0 on C1, the first class present), row 1 is zero, and
    y(x) equals the book's decision value of the model at that step."""
    X, y = clusters(2)
    model = make_model(name, **params).fit(X, y)
    n_steps = len(model.history_) if name == "svm" else model.n_iter_
    frames = playback_frames(model, n_steps, Window.around(X))
    rows = _rows(frames)
    assert frames["classes"] == [int(c) for c in model.classes_]
    for index, step in enumerate(frames["steps"]):
        shown = model.at_step(step)
        np.testing.assert_array_equal(rows[index, 1], 0.0)
        np.testing.assert_allclose(X @ rows[index, 0, 1:] + rows[index, 0, 0], book_decision(shown, X), atol=1e-9)
        if hasattr(model, "weights_at") or name in ("logistic", "probit"):
            np.testing.assert_allclose(rows[index, 0], book_weights_at(model, step), atol=1e-12)


@pytest.mark.parametrize("name, n_classes", [("perceptron", 2), ("softmax", 3), ("svm", 2)])
def test_the_boundary_of_each_frame_is_the_models_exact_boundary(name, n_classes):
    """The browser clips the rows' half-planes to the window; the model's exact boundary
    (``exact_regions`` of ``at_step(k)``) lies where the two best rows tie."""
    X, y = clusters(n_classes)
    model = make_model(name).fit(X, y)
    n_steps = len(model.history_) if name == "svm" else model.n_iter_
    window = Window.around(X)
    frames = playback_frames(model, n_steps, window)
    rows = _rows(frames)
    checked = 0
    for index, step in enumerate(frames["steps"]):
        exact = exact_regions(model.at_step(step), window)
        if exact is None:
            continue
        _, segments = exact
        for _, _, start, end in segments:
            for point in (np.asarray(start), np.asarray(end), (np.asarray(start) + np.asarray(end)) / 2):
                scores = np.sort(rows[index, :, 1:] @ point + rows[index, :, 0])
                assert scores[-1] - scores[-2] == pytest.approx(0.0, abs=1e-7 * (1 + abs(scores[-1])))
                checked += 1
    assert checked > 0


def test_frames_on_a_basis_carry_phi_on_a_grid():
    X, y = clusters(2)
    model = with_basis(make_model("logistic"), PolynomialBasis(degree=2)).fit(X, y)
    window = Window.around(X)
    frames = playback_frames(model, model.n_iter_, window)
    grid = frames["grid"]
    assert frames["kind"] == "basis" and grid["features"] == 5
    phi = np.frombuffer(base64.b64decode(grid["phi"]), dtype=np.float32).reshape(grid["n"] * grid["n"], 5)
    xs = grid["x0"] + grid["dx"] * np.arange(grid["n"])
    ys = grid["y0"] + grid["dy"] * np.arange(grid["n"])
    centres = np.column_stack([a.ravel() for a in np.meshgrid(xs, ys)])
    rows = _rows(frames)
    for index, step in enumerate(frames["steps"]):
        scores = phi @ rows[index, :, 1:].T + rows[index, :, 0]
        expected = book_decision(model.at_step(step), centres)
        error = np.abs(scores[:, 0] - scores[:, 1] - expected)
        assert np.all(error <= 1e-4 * (1 + np.abs(expected)))  # phi is sent as float32


def test_frame_steps_keep_the_first_and_last_and_at_most_the_cap():
    assert frame_steps(5).tolist() == [0, 1, 2, 3, 4, 5]
    assert frame_steps(0).tolist() == [0]
    for n in (MAX_FRAMES - 1, MAX_FRAMES, 50_000, 49_999):
        steps = frame_steps(n)
        assert steps[0] == 0 and steps[-1] == n and len(steps) <= MAX_FRAMES
        assert np.all(np.diff(steps) > 0)
        assert len(steps) == min(n + 1, MAX_FRAMES)


def test_a_long_run_sends_a_few_hundred_frames():
    """A perceptron that never converges on overlapping classes: thousands of updates, a few
    hundred frames of a few bytes each."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(200, 2))
    y = (rng.random(200) < 0.5).astype(int)
    model = make_model("perceptron", max_epochs=100).fit(X, y)
    assert model.n_iter_ > 5_000
    frames = playback_frames(model, model.n_iter_, Window.around(X), readout=lambda step, shown: f"step {step}")
    assert len(frames["steps"]) == MAX_FRAMES and frames["steps"][-1] == model.n_iter_
    assert len(frames["readouts"]) == MAX_FRAMES and frames["readouts"][-1] == f"step {model.n_iter_}"
    assert len(json.dumps(frames)) < 40_000


def test_score_rows_of_k_classes_are_the_discriminants():
    X, y = clusters(3)
    model = make_model("softmax").fit(X, y)
    rows = score_rows(model.at_step(2))
    np.testing.assert_allclose(X @ rows[:, 1:].T + rows[:, 0], model.at_step(2).decision_function(X), atol=1e-9)
