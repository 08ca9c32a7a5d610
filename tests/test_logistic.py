"""Logistic and softmax regression (PRML 4.3.2-4.3.4) against seed 003's IRLS table and scikit-learn."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import LogisticRegression as SklearnLogisticRegression

from playground import InvalidDataError, PlaygroundError, Window, evaluate_grid, make_model
from tests.conftest import SEED003_X, clusters

# Seed 003's IRLS table: the six points with t = 1 for the first three (label 1 = C1, the
# positive class classes_[1]) and t = 0 for the others, starting from w = (1, -1, 1).
SEED_Y = np.array([1, 1, 1, 0, 0, 0])
SEED_W_INIT = [1.0, -1.0, 1.0]


def _oracle(X, y, C=np.inf):
    return SklearnLogisticRegression(C=C, tol=1e-12, max_iter=100_000).fit(X, y)


def overlapping(n_classes, seed):
    """Clusters wide enough to overlap: maximum likelihood has a finite solution."""
    return clusters(n_classes, 50, seed=seed, spread=(2.0, 1.5))


def test_seed003_irls_table():
    model = make_model("logistic", w_init=SEED_W_INIT, max_iter=5).fit(SEED003_X, SEED_Y)
    history = model.history_
    assert [h["iteration"] for h in history] == [0, 1, 2, 3, 4, 5] and model.n_iter_ == 5
    np.testing.assert_allclose(history[0]["w"], SEED_W_INIT)
    assert history[0]["log_likelihood"] == pytest.approx(-2.93486703, abs=1e-8)
    np.testing.assert_allclose(history[1]["w"], [2.620188714, -3.16480455, 2.080220871], rtol=1e-8)
    np.testing.assert_allclose(history[5]["w"], [5.713665154, -8.53726067, 5.768785273], rtol=1e-8)
    assert history[5]["log_likelihood"] == pytest.approx(-0.00960079, abs=1e-8)
    np.testing.assert_allclose(model.weights_, history[5]["w"])
    np.testing.assert_allclose(model.coef_, [[-8.53726067, 5.768785273]], rtol=1e-8)
    np.testing.assert_allclose(model.intercept_, [5.713665154], rtol=1e-8)
    # The seed's sigmoid row after five updates: p(C1|x_n).
    expected = [0.999835753, 0.99738924, 0.99976809, 0.00371346, 0.000233862, 0.002632685]
    np.testing.assert_allclose(model.predict_proba(SEED003_X)[:, 1], expected, rtol=1e-6)
    # These six points are linearly separable: no finite maximum (section 4.3.2).
    assert not model.converged_
    assert "linearly separable" in model.fit_message_ and "l2" in model.fit_message_


# The notes' IRLS table (seed 003) in the book's convention, p(C1|phi) = sigma(w^T phi), from
# w = (1, -1, 1): the start, the first update and the fifth, and ln p after the fifth.
NOTES_W = {0: [1.0, -1.0, 1.0], 1: [2.620188714, -3.16480455, 2.080220871], 5: [5.713665154, -8.53726067, 5.768785273]}
NOTES_LOG_LIKELIHOOD = {0: -2.93486703, 5: -0.00960079}
NOTES_P_C1 = [0.999835753, 0.99738924, 0.99976809, 0.00371346, 0.000233862, 0.002632685]


def test_seed003_irls_table_from_the_notes_start_in_the_app_convention():
    """The app's labels: C1 (the first three points) is label 0, C2 label 1. The back-end's
    positive class is classes_[1] = C2, so the notes' start w = (1, -1, 1) is w_init =
    (-1, 1, -1) and every weight vector of the run is the negative of the notes' table."""
    y = np.array([0, 0, 0, 1, 1, 1])
    model = make_model("logistic", w_init=[-1.0, 1.0, -1.0], max_iter=5).fit(SEED003_X, y)
    assert model.n_iter_ == 5 and [h["iteration"] for h in model.history_] == list(range(6))
    assert model.history_[0]["w"].tolist() == [-1.0, 1.0, -1.0]  # step 0 is w_init, exactly
    for step, w in NOTES_W.items():
        np.testing.assert_allclose(model.history_[step]["w"], -np.array(w), rtol=1e-8)
    for step, value in NOTES_LOG_LIKELIHOOD.items():
        assert model.history_[step]["log_likelihood"] == pytest.approx(value, abs=1e-8)
    assert model.history_[5]["log_likelihood"] == pytest.approx(-0.0096, abs=5e-5)
    np.testing.assert_allclose(model.weights_, -np.array(NOTES_W[5]), rtol=1e-8)
    np.testing.assert_allclose(model.predict_proba(SEED003_X)[:, 0], NOTES_P_C1, rtol=1e-6)  # p(C1|x)
    np.testing.assert_array_equal(model.predict(SEED003_X), y)


def test_w_init_starts_gradient_descent_too():
    y = np.array([0, 0, 0, 1, 1, 1])
    w_init = np.array([-1.0, 1.0, -1.0])
    model = make_model("logistic", solver="gd", w_init=w_init, learning_rate=0.5, max_iter=3).fit(SEED003_X, y)
    assert model.history_[0]["w"].tolist() == w_init.tolist()
    phi = np.column_stack([np.ones(6), SEED003_X])
    gradient = phi.T @ (1 / (1 + np.exp(-phi @ w_init)) - y)  # eq. 4.91
    np.testing.assert_allclose(model.history_[1]["w"], w_init - 0.5 * gradient / 6, rtol=1e-12)
    # Replaying step 0 shows the start.
    np.testing.assert_allclose(model.at_step(0).decision_function(SEED003_X), phi @ w_init, rtol=1e-12)


def test_w_init_must_be_d_plus_one_finite_numbers():
    for bad in ([1.0, 2.0], [0.0, np.nan, 1.0], "abc", [0.0, 1e300, 0.0]):
        with pytest.raises(InvalidDataError, match="initial weights"):
            make_model("logistic", w_init=bad).fit(SEED003_X, SEED_Y)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
@pytest.mark.parametrize("solver", ["irls", "gd"])
def test_predictions_follow_the_public_weights(name, solver):
    """One source of truth: no hidden (standardised) copy of the weights."""
    X, y = overlapping(2 if name == "logistic" else 3, 6)
    model = make_model(name, solver=solver, max_iter=20).fit(X + 1000.0, y)
    model.coef_[:] = 0
    model.intercept_[:] = 0
    k = model.classes_.size
    np.testing.assert_array_equal(model.decision_function(X), 0.0)
    np.testing.assert_allclose(model.predict_proba(X), 1.0 / k)
    np.testing.assert_allclose(model.predict_log_proba(X), -np.log(k))
    # A replacement weight vector is read too.
    model.coef_ = np.ones_like(model.coef_)
    np.testing.assert_allclose(
        model.decision_function(X[:3]), (X[:3] @ np.ones((X.shape[1], model.coef_.shape[0])) + 0).squeeze()
    )


def test_seed003_separable_run_stops_and_says_why():
    model = make_model("logistic", w_init=SEED_W_INIT).fit(SEED003_X, SEED_Y)
    assert not model.converged_ and model.n_iter_ < 100
    assert "no finite solution" in model.fit_message_
    norms = [np.linalg.norm(h["w"]) for h in model.history_]
    assert np.all(np.diff(norms[1:]) > 0)  # ||w|| keeps growing
    lls = np.array([h["log_likelihood"] for h in model.history_])
    assert np.all(np.diff(lls) > 0) and lls[-1] > -1e-6
    # A penalty gives a finite answer.
    ridge = make_model("logistic", l2=0.1).fit(SEED003_X, SEED_Y)
    assert ridge.converged_ and ridge.fit_message_ == ""
    np.testing.assert_array_equal(ridge.predict(SEED003_X), SEED_Y)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_irls_matches_sklearn_without_penalty(seed):
    X, y = overlapping(2, seed)
    model = make_model("logistic").fit(X, y)
    oracle = _oracle(X, y)
    assert model.converged_ and model.fit_message_ == ""
    np.testing.assert_allclose(model.coef_, oracle.coef_, atol=1e-6)
    np.testing.assert_allclose(model.intercept_, oracle.intercept_, atol=1e-6)
    np.testing.assert_allclose(model.predict_proba(X), oracle.predict_proba(X), atol=1e-7)
    np.testing.assert_allclose(model.decision_function(X), oracle.decision_function(X), atol=1e-6)
    lls = [h["log_likelihood"] for h in model.history_]
    assert np.all(np.diff(lls) >= -1e-9)  # Newton climbs the concave log-likelihood


def test_irls_matches_sklearn_with_l2():
    # sklearn minimises C * cross-entropy + |w|^2 / 2 without penalising the intercept: l2 = 1/C.
    X, y = overlapping(2, 4)
    model = make_model("logistic", l2=2.0).fit(X, y)
    oracle = _oracle(X, y, C=0.5)
    np.testing.assert_allclose(model.coef_, oracle.coef_, atol=1e-6)
    np.testing.assert_allclose(model.intercept_, oracle.intercept_, atol=1e-6)


def test_gradient_descent_approaches_the_same_answer():
    X, y = overlapping(2, 1)
    oracle = _oracle(X, y)
    model = make_model("logistic", solver="gd", max_iter=20_000, tol=1e-12).fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X), oracle.predict_proba(X), atol=1e-4)
    np.testing.assert_allclose(model.coef_, oracle.coef_, atol=1e-3)
    default = make_model("logistic", solver="gd").fit(X, y)
    assert default.n_iter_ <= 1000
    np.testing.assert_allclose(default.predict_proba(X), oracle.predict_proba(X), atol=1e-2)


def test_gradient_descent_steps_follow_the_mean_gradient():
    X, y = overlapping(2, 5)
    model = make_model("logistic", solver="gd", max_iter=3, learning_rate=0.5, w_init=[0.1, -0.2, 0.3]).fit(X, y)
    phi = np.hstack([np.ones((len(X), 1)), X])
    w = np.array([0.1, -0.2, 0.3])
    for entry in model.history_[1:]:
        w = w - 0.5 * phi.T @ (1 / (1 + np.exp(-phi @ w)) - y) / len(X)
        np.testing.assert_allclose(entry["w"], w, rtol=1e-12)
    assert model.n_iter_ == 3 and len(model.history_) == 4


def test_gradient_descent_too_large_a_step_is_reported():
    X, y = overlapping(2, 6)
    model = make_model("logistic", solver="gd", learning_rate=50.0, max_iter=200).fit(X * 10, y)
    assert "learning rate" in model.fit_message_ and not model.converged_
    assert np.all(np.isfinite(model.predict_proba(X)))


def test_gradient_descent_on_separable_data():
    model = make_model("logistic", solver="gd", learning_rate=0.5).fit(SEED003_X, SEED_Y)
    assert not model.converged_ and "linearly separable" in model.fit_message_


def test_history_format():
    X, y = overlapping(2, 7)
    model = make_model("logistic").fit(X, y)
    assert len(model.history_) == model.n_iter_ + 1
    for i, entry in enumerate(model.history_):
        assert set(entry) == {"iteration", "w", "log_likelihood"}
        assert entry["iteration"] == i and entry["w"].shape == (3,)
        assert isinstance(entry["log_likelihood"], float)
    np.testing.assert_allclose(model.history_[0]["w"], 0.0)
    assert model.history_[0]["log_likelihood"] == pytest.approx(len(X) * np.log(0.5))
    zero = make_model("logistic", max_iter=0).fit(X, y)
    assert zero.n_iter_ == 0 and len(zero.history_) == 1 and not zero.converged_


def test_positive_class_is_the_larger_label(two_clusters):
    X, y = two_clusters
    relabelled = np.where(y == 0, 7, -3)  # classes_ = [-3, 7]: t = 1 for label 7
    model = make_model("logistic").fit(X, relabelled)
    np.testing.assert_array_equal(model.classes_, [-3, 7])
    proba = model.predict_proba(X)
    np.testing.assert_array_equal(model.predict(X), np.where(proba[:, 1] > 0.5, 7, -3))
    np.testing.assert_allclose(model.activations(X)[:, 1], model.decision_function(X), atol=1e-9)
    np.testing.assert_allclose(model.activations(X)[:, 0], 0.0)


def test_logistic_refuses_three_classes_and_points_to_softmax(three_clusters):
    with pytest.raises(InvalidDataError, match="softmax"):
        make_model("logistic").fit(*three_clusters)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"solver": "lbfgs"}, "'irls' or 'gd'"),
        ({"max_iter": -1}, "max_iter"),
        ({"max_iter": 2.5}, "max_iter"),
        ({"max_iter": 100_001}, "max_iter must be a whole number from 0 to 100,000"),
        ({"solver": "gd", "max_iter": 10**9}, "max_iter must be a whole number from 0 to 100,000"),
        ({"tol": -1}, "tol must be"),
        ({"l2": np.nan}, "l2 must be"),
        ({"learning_rate": 0}, "learning_rate must be"),
        ({"w_init": [1, 2]}, "3 finite numbers"),
    ],
)
def test_bad_parameters_give_a_sentence(params, message, two_clusters):
    with pytest.raises(InvalidDataError, match=message):
        make_model("logistic", **params).fit(*two_clusters)


@pytest.mark.parametrize("n_classes", [3, 4])
def test_softmax_irls_matches_sklearn_multinomial(n_classes):
    X, y = overlapping(n_classes, 10 + n_classes)
    model = make_model("softmax").fit(X, y)
    oracle = _oracle(X, y)
    assert model.converged_ and model.fit_message_ == ""
    grid = np.random.default_rng(8).uniform(-6, 6, size=(300, 2))
    np.testing.assert_allclose(model.predict_proba(grid), oracle.predict_proba(grid), atol=1e-5)
    np.testing.assert_array_equal(model.predict(X), oracle.predict(X))
    # Weights are identified up to a shared shift: compare differences w_k - w_1.
    np.testing.assert_allclose(model.coef_ - model.coef_[0], oracle.coef_ - oracle.coef_[0], atol=1e-5)
    np.testing.assert_allclose(
        model.intercept_ - model.intercept_[0], oracle.intercept_ - oracle.intercept_[0], atol=1e-5
    )
    # From the zero start the minimum-norm Newton steps keep sum_k w_k = 0.
    np.testing.assert_allclose(model.weights_.sum(axis=0), 0.0, atol=1e-9)
    assert model.history_[-1]["w"].shape == (n_classes, 3)
    np.testing.assert_allclose(model.decision_function(X), model.activations(X))


def test_softmax_iterations_are_bounded(three_clusters):
    with pytest.raises(InvalidDataError, match="max_iter must be a whole number from 0 to 100,000"):
        make_model("softmax", solver="gd", max_iter=100_001).fit(*three_clusters)
    assert make_model("softmax", max_iter=100_000).fit(*three_clusters).converged_


def test_softmax_with_l2_matches_sklearn():
    X, y = overlapping(3, 20)
    model = make_model("softmax", l2=2.0).fit(X, y)
    oracle = _oracle(X, y, C=0.5)
    np.testing.assert_allclose(model.predict_proba(X), oracle.predict_proba(X), atol=1e-6)


def test_softmax_gradient_descent_approaches_sklearn():
    X, y = overlapping(3, 21)
    model = make_model("softmax", solver="gd", max_iter=20_000, tol=1e-12).fit(X, y)
    oracle = _oracle(X, y)
    np.testing.assert_allclose(model.predict_proba(X), oracle.predict_proba(X), atol=1e-4)


def test_softmax_with_two_classes_agrees_with_logistic():
    X, y = overlapping(2, 22)
    soft = make_model("softmax").fit(X, y)
    logistic = make_model("logistic").fit(X, y)
    np.testing.assert_allclose(soft.predict_proba(X), logistic.predict_proba(X), atol=1e-9)
    np.testing.assert_allclose(soft.coef_, logistic.coef_, atol=1e-7)
    np.testing.assert_allclose(soft.intercept_, logistic.intercept_, atol=1e-7)
    np.testing.assert_allclose(soft.decision_function(X), logistic.decision_function(X), atol=1e-7)
    assert soft.coef_.shape == (1, 2) and soft.weights_.shape == (2, 3)


def test_softmax_w_init_and_separable_data():
    X, y = clusters(3, 20, seed=23, spread=(0.3, 0.2))
    w_init = np.arange(9.0).reshape(3, 3) / 10
    model = make_model("softmax", w_init=w_init, max_iter=2).fit(X, y)
    np.testing.assert_allclose(model.history_[0]["w"], w_init)
    assert model.n_iter_ == 2
    full = make_model("softmax").fit(X, y)
    assert not full.converged_ and "linearly separable" in full.fit_message_
    with pytest.raises(InvalidDataError, match="3 rows of 3"):
        make_model("softmax", w_init=np.zeros((2, 3))).fit(X, y)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
@pytest.mark.parametrize("offset", [1e9, -1e9])
def test_far_from_origin_irls_is_unchanged(name, offset):
    # Newton's method is affine-invariant; the internal standardisation keeps it accurate.
    X, y = overlapping(2 if name == "logistic" else 3, 24)
    near = make_model(name).fit(X, y)
    far = make_model(name).fit(X + offset, y)
    np.testing.assert_allclose(far.predict_proba(X + offset), near.predict_proba(X), atol=1e-6)
    np.testing.assert_allclose(far.coef_, near.coef_, rtol=1e-5)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_tiny_coordinates(name):
    X, y = overlapping(2, 25)
    near = make_model(name).fit(X, y)
    tiny = make_model(name).fit(X * 1e-9, y)
    np.testing.assert_allclose(tiny.predict_proba(X * 1e-9), near.predict_proba(X), atol=1e-7)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
@pytest.mark.parametrize("solver", ["irls", "gd"])
def test_singular_hessians_do_not_crash(name, solver):
    cases = [
        (np.array([[0.0, 0], [1, 1], [2, 2], [3, 3], [1.5, 1.5]]), [0, 1, 0, 1, 1]),  # collinear, overlapping
        (np.array([[1.0, 1], [1, 1], [1, 1], [1, 1]]), [0, 1, 0, 1]),  # identical points, both labels
        (np.array([[0.0, 5], [1, 5], [2, 5], [3, 5]]), [0, 0, 1, 1]),  # constant feature, separable
        (np.array([[0.0, 0], [1, 0]]), [0, 1]),  # fewer points than weights
    ]
    for X, y in cases:
        model = make_model(name, solver=solver).fit(X, y)
        result = evaluate_grid(model, Window(-2, 5, -2, 7), resolution=15)
        assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
        assert all(np.all(np.isfinite(h["w"])) and np.isfinite(h["log_likelihood"]) for h in model.history_)
    identical = make_model(name, solver=solver).fit(*cases[1][:1], cases[1][1])
    np.testing.assert_allclose(identical.predict_proba(np.array([[1.0, 1.0]])), 0.5, atol=1e-9)


@settings(max_examples=50, deadline=None)
@given(
    name=st.sampled_from(["logistic", "softmax"]),
    solver=st.sampled_from(["irls", "gd"]),
    points=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 2)), min_size=1, max_size=12),
    scale=st.sampled_from([1e-9, 1.0, 1e9]),
    shift=st.sampled_from([0.0, 1e9]),
)
def test_degenerate_data_give_finite_grids_or_a_sentence(name, solver, points, scale, shift):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale + shift, data[:, 2].astype(int)
    try:
        model = make_model(name, solver=solver, max_iter=60).fit(X, y)
    except PlaygroundError as err:
        assert str(err).endswith(".")
        return
    result = evaluate_grid(model, Window.around(X), resolution=12)
    assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    np.testing.assert_allclose(result.proba.sum(axis=-1), 1.0, atol=1e-9)
    assert all(np.all(np.isfinite(h["w"])) and np.isfinite(h["log_likelihood"]) for h in model.history_)
    assert np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_))


# -- replaying the fit: at_step ------------------------------------------------------------


def test_at_step_replays_the_seed003_irls_table():
    model = make_model("logistic", w_init=SEED_W_INIT, max_iter=5).fit(SEED003_X, SEED_Y)
    start = model.at_step(0)
    np.testing.assert_allclose(start.weights_, SEED_W_INIT)
    np.testing.assert_allclose(start.coef_, [[-1.0, 1.0]])
    np.testing.assert_allclose(start.intercept_, [1.0])
    a0 = 1.0 - SEED003_X[:, 0] + SEED003_X[:, 1]
    np.testing.assert_allclose(start.predict_proba(SEED003_X)[:, 1], 1 / (1 + np.exp(-a0)), rtol=1e-12)
    np.testing.assert_allclose(start.decision_function(SEED003_X), a0, rtol=1e-12)
    first = model.at_step(1)
    np.testing.assert_allclose(first.weights_, [2.620188714, -3.16480455, 2.080220871], rtol=1e-8)
    assert first.step_ == 1 and first.history_ is model.history_ and first.n_iter_ == 5
    # The last step is the fitted model; steps outside 0..n_iter_ are clipped.
    final = model.at_step(99)
    assert final.step_ == 5
    np.testing.assert_allclose(final.predict_proba(SEED003_X), model.predict_proba(SEED003_X), rtol=1e-12)
    assert model.at_step(-3).step_ == 0
    # The original is untouched.
    np.testing.assert_allclose(model.weights_, [5.713665154, -8.53726067, 5.768785273], rtol=1e-8)


@pytest.mark.parametrize("solver", ["irls", "gd"])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_softmax_at_step_matches_each_history_entry(solver, n_classes):
    X, y = overlapping(n_classes, 4)
    model = make_model("softmax", solver=solver, max_iter=6).fit(X, y)
    for step, entry in enumerate(model.history_):
        replay = model.at_step(step)
        W = entry["w"]
        np.testing.assert_allclose(replay.weights_, W)
        a = X @ W[:, 1:].T + W[:, 0]
        expected = np.exp(a - a.max(axis=1, keepdims=True))
        expected /= expected.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(replay.predict_proba(X), expected, rtol=1e-9, atol=1e-12)
        np.testing.assert_array_equal(replay.predict(X), model.classes_[np.argmax(a, axis=1)])
        # The log-likelihood recorded for that step is the one of its weights.
        log_p = np.log(np.maximum(expected[np.arange(len(y)), np.searchsorted(model.classes_, y)], 1e-300))
        assert np.sum(log_p) == pytest.approx(entry["log_likelihood"], rel=1e-8)


def test_logistic_at_step_linear_geometry_follows_the_weights():
    X, y = overlapping(2, 5)
    model = make_model("logistic", solver="gd", max_iter=20).fit(X, y)
    for step in (0, 3, 20):
        replay = model.at_step(step)
        w = model.history_[step]["w"]
        np.testing.assert_allclose(replay.coef_, [w[1:]])
        np.testing.assert_allclose(replay.intercept_, [w[0]])
        np.testing.assert_allclose(replay.decision_function(X), X @ w[1:] + w[0], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("seed", [3, 4])
def test_irls_is_damped_so_the_likelihood_never_falls(seed):
    """A full Newton step on separable data through a cubic basis overshot: the log-likelihood fell
    to -1e13 and the 'fit' misclassified 60% of the points. Step halving keeps it rising."""
    from playground import ClusterSpec, make_clusters, make_model
    from playground.basis import make_basis

    X, y = make_clusters([ClusterSpec((-2, -1), (1, 0.6), 30), ClusterSpec((2, -0.6), (0.9, 0.6), -20)], 30, seed=seed)
    model = make_model("logistic", basis=make_basis("polynomial", degree=3)).fit(X, y)
    lls = [entry["log_likelihood"] for entry in model.estimator_.history_]
    assert all(b >= a - 1e-9 * (1 + abs(a)) for a, b in zip(lls, lls[1:]))
    assert np.mean(model.predict(X) == y) == 1.0


# -- the two-class posterior from one exponential (playground.base.two_class_proba) ----------------

# Log-odds at which both columns must keep their relative precision: near the boundary, far
# from it, where exp(a) is subnormal-adjacent (700), and where it overflows (740, 800).
LOG_ODDS = np.array([0.0, -0.0, 1e-300, -1e-300, 1e-8, -1e-8, 0.5, -0.5, 3.0, -3.0, 30.0, -30.0, 36.7, -36.7,
                     700.0, -700.0, 708.0, -708.0, 740.0, -740.0, 800.0, -800.0, np.inf, -np.inf])  # fmt: skip


def _ulps(computed, exact):
    """|computed - exact| in units of the last place of exact. Below the smallest normal number
    (sigma(a) for a < -708) the sigmoid gives 0 (exp(-a) overflows), as it always has: there
    the error must only stay under that number."""
    exact = np.asarray(exact, dtype=float)
    tiny = np.finfo(float).tiny
    subnormal = np.where(np.abs(computed - exact) < tiny, 0.0, np.inf)
    return np.where(exact < tiny, subnormal, np.abs(computed - exact) / np.spacing(np.maximum(exact, tiny)))


def test_two_class_proba_keeps_each_columns_relative_precision():
    """Both columns against sigma(a) = 1/(1 + e^-a) evaluated in long double (64-bit mantissa,
    so the reference is good to about 1e-19 relative), within two units in the last place of
    double precision; the rows sum to 1 to rounding."""
    from playground.base import two_class_proba

    rng = np.random.default_rng(17)
    a = np.concatenate([LOG_ODDS, rng.normal(scale=10.0, size=2000), rng.uniform(-745.0, 745.0, size=2000)])
    proba = two_class_proba(a)
    assert proba.shape == (a.size, 2)
    with np.errstate(over="ignore"):
        long_a = a.astype(np.longdouble)
        exact_pos = (1 / (1 + np.exp(-long_a))).astype(float)  # sigma(a)
        exact_neg = (1 / (1 + np.exp(long_a))).astype(float)  # sigma(-a)
    assert np.all(_ulps(proba[:, 1], exact_pos) <= 2)
    assert np.all(_ulps(proba[:, 0], exact_neg) <= 2)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=4.5e-16)
    # Far from the boundary the small column is tiny and precise, never 1 - (nearly 1).
    # sigma(-30) and sigma(30), sigma(-700) and sigma(700) to 17 digits (mpmath, 40 digits).
    for value, small, large in ((30.0, 9.357622968839299e-14, 0.9999999999999064), (700.0, 9.85967654375977e-305, 1.0)):
        row = two_class_proba(np.array([value, -value]))
        assert row[0, 0] == pytest.approx(small, rel=5e-16) and row[0, 1] == pytest.approx(large, rel=2.3e-16)
        assert row[1, 1] == pytest.approx(small, rel=5e-16) and row[1, 0] == pytest.approx(large, rel=2.3e-16)
    np.testing.assert_array_equal(two_class_proba(np.array([800.0, -800.0, np.inf, -np.inf])), [[0, 1], [1, 0]] * 2)


def test_two_class_proba_agrees_with_two_sigmoids():
    """The one-exponential form against the two-sigmoid formula it replaced: sigma(a) is the
    same expression, so it is identical; sigma(-a) = 1/(1 + 1/e^-a) against 1/(1 + e^a) within
    two units in the last place. The log branch against log_sigmoid of each sign."""
    from playground.base import log_sigmoid, sigmoid, two_class_proba

    rng = np.random.default_rng(4)
    a = np.concatenate([LOG_ODDS, rng.normal(scale=20.0, size=5000)])
    proba = two_class_proba(a)
    np.testing.assert_array_equal(proba[:, 1], sigmoid(a))
    assert np.all(_ulps(proba[:, 0], sigmoid(-a)) <= 2)
    log_proba = two_class_proba(a, log=True)
    np.testing.assert_array_equal(log_proba[:, 1], log_sigmoid(a))
    np.testing.assert_array_equal(log_proba[:, 0], log_sigmoid(-a))
    finite = np.isfinite(a)
    np.testing.assert_allclose(np.exp(log_proba[finite]), proba[finite], rtol=1e-14, atol=np.finfo(float).tiny)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(1, 2), (1, 5), (2, 2), (17, 3), (1_000, 2), (9_000, 2), (300, 1), (50, 28)])
def test_the_standardiser_is_numpys_mean_and_std_bit_for_bit(shape, order):
    """The IRLS fits' centre and scale (running sums on the transposed copy) are exactly
    X.mean(axis=0) and X.std(axis=0), so the iterates are unchanged; the points are left alone."""
    from playground.logistic import _standardiser

    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    X = np.asarray(rng.normal(size=shape) * rng.uniform(1e-3, 1e3) + rng.normal(size=shape[1]) * 50, order=order)
    if shape[1] > 2:
        X[:, 1] = 3.0  # a constant feature: scale 1
    before = X.copy()
    centre, scale = _standardiser(X)
    expected_scale = X.std(axis=0)
    expected_scale[~(expected_scale > 0)] = 1.0
    np.testing.assert_array_equal(centre, X.mean(axis=0))
    np.testing.assert_array_equal(scale, expected_scale)
    np.testing.assert_array_equal(X, before)
