"""The perceptron (PRML 4.1.7) against seed 003's worked run, seed 001's algorithm and scikit-learn."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron

from playground import ConvergenceError, InvalidDataError, Perceptron, PlaygroundError, make_model
from tests.conftest import clusters

XOR_X = np.array([[0, 0], [1, 1], [0, 1], [1, 0]], dtype=float)
XOR_Y = np.array([0, 0, 1, 1])


def _sklearn(max_epochs):
    # The same algorithm: constant step eta0 = 1, data order, no penalty, no early stop.
    return SklearnPerceptron(eta0=1.0, shuffle=False, penalty=None, fit_intercept=True, tol=None, max_iter=max_epochs)


def _reference_seed001(phi, t, eta):
    """Seed 001's MATLAB ``percept`` (with phi = (1, x)): cycle until n consecutive hits."""
    w = np.zeros(phi.shape[1])
    hits, current = 0, 0
    while hits < len(t):
        if t[current] * (w @ phi[current]) <= 0:
            w = w + eta * t[current] * phi[current]
            hits = 0
        else:
            hits += 1
        current = (current + 1) % len(t)
    return w


# -- seed 003 ----------------------------------------------------------------------------


def test_seed003_run_two_updates(seed003):
    X, _ = seed003
    y = np.array([1, 1, 1, -1, -1, -1])  # classes_ = [-1, 1]: C1 has t = +1
    model = make_model("perceptron", w_init=[5, -6, 1], eta=1.0).fit(X, y)
    assert model.n_iter_ == 2 and len(model.history_) == 2
    np.testing.assert_array_equal(model.history_[0]["w"], [6, -4, 4])
    np.testing.assert_array_equal(model.history_[1]["w"], [5, -6, 3])
    assert [h["index"] for h in model.history_] == [1, 3]
    assert [h["epoch"] for h in model.history_] == [1, 1]
    # Seed 003's prediction rows: after the 1st update every point is C1 (3 errors), after the 2nd none.
    assert [h["errors"] for h in model.history_] == [3, 0]
    assert model.converged_ and model.fit_message_ is None
    assert model.errors_per_epoch_ == [2, 0] and model.n_epochs_ == 2
    np.testing.assert_array_equal(model.initial_weights_, [5, -6, 1])
    np.testing.assert_array_equal(model.weights_, [5, -6, 3])
    np.testing.assert_array_equal(model.coef_, [[-6, 3]])
    np.testing.assert_array_equal(model.intercept_, [5])
    # The seed prints w-hat = [0.598, -0.717, 0.585]; the last entry is a slip (that vector is not
    # of unit length): (5, -6, 3) / sqrt(70) = (0.598, -0.717, 0.359).
    np.testing.assert_allclose(model.weights_ / np.linalg.norm(model.weights_), [0.598, -0.717, 0.359], atol=1e-3)
    np.testing.assert_array_equal(model.predict(X), y)


def test_seed003_initial_predictions(seed003):
    # Seed 003's "Initialization" row: sign(5 - 6 x1 + x2) = (1, -1, -1, -1, -1, -1).
    X, _ = seed003
    model = make_model("perceptron", w_init=[5, -6, 1], max_epochs=1).fit(X, [1, 1, 1, -1, -1, -1])
    first = np.sign(np.column_stack([np.ones(6), X]) @ model.initial_weights_)
    np.testing.assert_array_equal(first, [1, -1, -1, -1, -1, -1])


# -- seed 001 and scikit-learn ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_seed001_algorithm_eta_02_zero_start(seed):
    X, y = clusters(2, 20, seed=seed, spread=(0.5, 0.3))
    model = make_model("perceptron", eta=0.2, max_epochs=1000).fit(X, y)
    assert model.converged_
    phi = np.column_stack([np.ones(len(y)), X])
    t = np.where(y == 1, 1.0, -1.0)
    np.testing.assert_allclose(model.weights_, _reference_seed001(phi, t, 0.2), atol=1e-12)
    # From zero weights eta only rescales w: the same updates with eta = 1.
    unit = make_model("perceptron", eta=1.0, max_epochs=1000).fit(X, y)
    assert [h["index"] for h in unit.history_] == [h["index"] for h in model.history_]
    np.testing.assert_allclose(model.weights_, 0.2 * unit.weights_, atol=1e-9)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("spread", [(0.5, 0.3), (1.5, 1.2)])  # separable and overlapping
def test_same_weights_as_sklearn(seed, spread):
    X, y = clusters(2, 30, seed=seed, spread=spread)
    model = make_model("perceptron", max_epochs=25).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        oracle = _sklearn(25).fit(X, y)
    np.testing.assert_allclose(model.coef_, oracle.coef_, atol=1e-9)
    np.testing.assert_allclose(model.intercept_, oracle.intercept_, atol=1e-9)
    np.testing.assert_array_equal(model.predict(X), oracle.predict(X))


@pytest.mark.parametrize("seed", range(4))
def test_separable_data_is_separated(seed):
    X, y = clusters(2, 50, seed=seed, spread=(0.6, 0.4))
    y = np.where(y == 0, 3, 8)
    for shuffle in (False, True):
        model = make_model("perceptron", shuffle=shuffle, random_state=seed, max_epochs=1000).fit(X, y)
        oracle = _sklearn(1000).fit(X, y)
        assert model.converged_ and model.score(X, y) == 1.0 and oracle.score(X, y) == 1.0
        t = np.where(y == 8, 1, -1)
        assert np.all(t * model.decision_function(X) > 0)
        assert model.errors_per_epoch_[-1] == 0 and all(e > 0 for e in model.errors_per_epoch_[:-1])


def test_history_replays_the_updates(two_clusters):
    X, y = two_clusters
    eta = 0.5
    model = make_model("perceptron", eta=eta, w_init=[1, 2, -1], max_epochs=5).fit(X, y)
    phi = np.column_stack([np.ones(len(y)), X])
    t = np.where(y == model.classes_[1], 1.0, -1.0)
    w = model.initial_weights_
    np.testing.assert_array_equal(model.weights_at(0), w)
    for step, entry in enumerate(model.history_, start=1):
        n = entry["index"]
        assert t[n] * (w @ phi[n]) <= 0  # only misclassified points cause updates
        w = w + eta * t[n] * phi[n]
        np.testing.assert_allclose(entry["w"], w)
        # predict's errors: w^T phi = 0 is classes_[0] (the book's C1, f(0) = +1)
        assert entry["errors"] == np.count_nonzero((phi @ w > 0) != (t > 0))
        np.testing.assert_array_equal(model.weights_at(step), entry["w"])
    np.testing.assert_allclose(model.weights_, w)
    assert sum(model.errors_per_epoch_) == model.n_iter_
    epochs = [h["epoch"] for h in model.history_]
    assert epochs == sorted(epochs) and epochs[-1] <= model.n_epochs_
    with pytest.raises(InvalidDataError, match="step"):
        model.weights_at(model.n_iter_ + 1)


def test_at_step_is_a_copy_with_that_steps_weights(seed003):
    X, _ = seed003
    y = np.array([1, 1, 1, -1, -1, -1])
    model = make_model("perceptron", w_init=[5, -6, 1], eta=1.0).fit(X, y)
    expected = {0: [5, -6, 1], 1: [6, -4, 4], 2: [5, -6, 3]}
    for step, w in expected.items():
        replay = model.at_step(step)
        assert replay is not model and replay.step_ == step
        np.testing.assert_array_equal(replay.weights_, w)
        np.testing.assert_array_equal(replay.coef_, [w[1:]])
        np.testing.assert_array_equal(replay.intercept_, [w[0]])
        np.testing.assert_array_equal(replay.decision_function(X), X @ np.array(w[1:], float) + w[0])
    # Seed 003's prediction rows: initialisation (1, -1, -1, -1, -1, -1), after the 1st update all C1.
    np.testing.assert_array_equal(model.at_step(0).predict(X), [1, -1, -1, -1, -1, -1])
    np.testing.assert_array_equal(model.at_step(1).predict(X), np.ones(6))
    np.testing.assert_array_equal(model.at_step(2).predict(X), y)
    # The fitted model is untouched.
    np.testing.assert_array_equal(model.weights_, [5, -6, 3])
    np.testing.assert_array_equal(model.coef_, [[-6, 3]])
    with pytest.raises(InvalidDataError, match="step"):
        model.at_step(3)
    with pytest.raises(InvalidDataError, match="step"):
        model.at_step(-1)


def test_shuffle_is_reproducible(two_clusters):
    X, y = two_clusters
    runs = [make_model("perceptron", shuffle=True, random_state=s).fit(X, y) for s in (7, 7, 8)]
    assert [h["index"] for h in runs[0].history_] == [h["index"] for h in runs[1].history_]
    np.testing.assert_array_equal(runs[0].weights_, runs[1].weights_)
    assert [h["index"] for h in runs[0].history_] != [h["index"] for h in runs[2].history_]


# -- data that are not separable, and other degenerate data ------------------------------------


def test_xor_never_converges_and_says_so():
    model = make_model("perceptron", max_epochs=20).fit(XOR_X, XOR_Y)
    assert not model.converged_ and model.n_epochs_ == 20
    assert model.fit_message_.startswith("The perceptron did not converge in 20 epochs")
    assert "linearly separable" in model.fit_message_
    assert np.all(np.isfinite(model.weights_)) and all(e > 0 for e in model.errors_per_epoch_)


def test_duplicate_points_with_both_labels():
    X = np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    model = make_model("perceptron", max_epochs=10).fit(X, [0, 1, 1])
    assert not model.converged_ and model.fit_message_


def test_one_point_per_class_and_all_points_identical():
    model = make_model("perceptron").fit([[0.0, 0.0], [1.0, 2.0]], [0, 1])
    assert model.converged_ and model.score([[0.0, 0.0], [1.0, 2.0]], [0, 1]) == 1.0
    same = make_model("perceptron", max_epochs=5).fit(np.ones((4, 2)), [0, 1, 0, 1])
    assert not same.converged_ and np.all(np.isfinite(same.weights_))


def test_collinear_points():
    X = np.array([[0, 0], [1, 1], [2, 2], [3, 3]], dtype=float)
    model = make_model("perceptron", max_epochs=1000).fit(X, [0, 0, 1, 1])
    assert model.converged_ and model.score(X, [0, 0, 1, 1]) == 1.0


@pytest.mark.parametrize("scale", [1e9, 1e-9])
def test_huge_and_tiny_coordinates(seed003, scale):
    X, _ = seed003
    y = np.array([1, 1, 1, -1, -1, -1])
    model = make_model("perceptron", max_epochs=50).fit(X * scale, y)
    assert np.all(np.isfinite(model.weights_))
    assert model.converged_ or model.fit_message_
    # Through the origin the scale does not matter: w scales with the points.
    centred = (X - X.mean(axis=0)) * scale
    model = make_model("perceptron", max_epochs=1000).fit(centred, y)
    base = make_model("perceptron", max_epochs=1000).fit(X - X.mean(axis=0), y)
    assert model.converged_ == base.converged_


def test_coordinates_too_large_for_floats():
    X = np.array([[1e308, 1e308], [-1e308, -1e308], [1e308, -1e308]])
    with pytest.raises(InvalidDataError, match="from -1e100 to 1e100"):
        make_model("perceptron").fit(X, [0, 1, 1])
    with pytest.raises(InvalidDataError, match="initial weights"):
        make_model("perceptron", w_init=[0, 1e308, 1e308]).fit(X / 1e250, [0, 1, 1])
    # Accepted coordinates, but a learning rate that overflows the weights: a sentence, no inf.
    with pytest.raises(ConvergenceError, match="too large"):
        make_model("perceptron", eta=1e300).fit(X / 1e210, [0, 1, 1])


def test_more_than_two_classes_points_to_the_strategies(three_clusters):
    with pytest.raises(InvalidDataError, match="one-versus-rest or one-versus-one"):
        make_model("perceptron").fit(*three_clusters)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"eta": 0}, "positive"),
        ({"eta": -1.0}, "positive"),
        ({"eta": "fast"}, "positive number"),
        ({"max_epochs": 0}, "max_epochs"),
        ({"max_epochs": 2.5}, "max_epochs"),
        ({"w_init": [1, 2]}, "3 finite numbers"),
        ({"w_init": [0, np.nan, 1]}, "3 finite numbers"),
        ({"random_state": None}, "random_state"),
    ],
)
def test_bad_parameters_give_a_sentence(params, message):
    with pytest.raises(InvalidDataError, match=message):
        make_model("perceptron", **params).fit(XOR_X, XOR_Y)


def test_params_round_trip():
    model = make_model("perceptron", eta=0.2, w_init=[1, 0, 0], shuffle=True, random_state=3, max_epochs=7)
    assert isinstance(model, Perceptron)
    assert model.clone().get_params() == model.get_params()


# -- property test ------------------------------------------------------------------------------

coordinates = st.integers(-3, 3)


@settings(max_examples=50, deadline=None)
@given(
    points=st.lists(st.tuples(coordinates, coordinates, st.integers(0, 1)), min_size=1, max_size=12),
    scale=st.sampled_from([1e-9, 1.0, 1e9]),
    shuffle=st.booleans(),
)
def test_any_data_gives_finite_weights_or_a_sentence(points, scale, shuffle):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale, data[:, 2].astype(int)
    model = make_model("perceptron", shuffle=shuffle, max_epochs=20)
    try:
        model.fit(X, y)
    except PlaygroundError as err:
        assert str(err).endswith(".")
        return
    assert np.all(np.isfinite(model.weights_)) and np.all(np.isfinite(model.decision_function(X)))
    assert model.n_iter_ == len(model.history_) == sum(model.errors_per_epoch_)
    t = np.where(y == model.classes_[1], 1, -1)
    if model.converged_:
        assert model.fit_message_ is None and np.all(t * model.decision_function(X) > 0)
    else:
        assert model.fit_message_ and model.n_epochs_ == 20
