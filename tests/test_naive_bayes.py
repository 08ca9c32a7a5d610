"""Naive Bayes (PRML 4.2.2-4.2.3) against scikit-learn's GaussianNB and BernoulliNB."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.naive_bayes import BernoulliNB, GaussianNB

from playground import InvalidDataError, PlaygroundError, Window, evaluate_grid, make_model
from tests.conftest import clusters


@pytest.mark.parametrize("n_classes", [2, 3, 5])
def test_gaussian_variant_matches_gaussian_nb(n_classes):
    X, y = clusters(n_classes, 30, seed=40 + n_classes)
    X, y = X[:-6], y[:-6]
    model = make_model("naive_bayes").fit(X, y)
    oracle = GaussianNB().fit(X, y)  # var_smoothing=1e-9, the same rule
    grid = np.random.default_rng(4).uniform(-7, 7, size=(400, 2))
    np.testing.assert_allclose(model.predict_proba(grid), oracle.predict_proba(grid), atol=1e-10)
    np.testing.assert_allclose(model.variances_, oracle.var_, rtol=1e-12)
    np.testing.assert_allclose(model.means_, oracle.theta_)
    np.testing.assert_allclose(model.epsilon_, oracle.epsilon_)
    np.testing.assert_array_equal(model.predict(grid), oracle.predict(grid))
    joint = oracle.predict_joint_log_proba(grid)
    np.testing.assert_allclose(model.activations(grid), joint, rtol=1e-10)
    if n_classes == 2:
        np.testing.assert_allclose(model.decision_function(grid), joint[:, 1] - joint[:, 0], rtol=1e-9, atol=1e-9)


def test_gaussian_variant_with_priors_and_smoothing(three_clusters):
    X, y = three_clusters
    model = make_model("naive_bayes", priors=[1, 2, 1], var_smoothing=1e-3).fit(X, y)
    oracle = GaussianNB(priors=[0.25, 0.5, 0.25], var_smoothing=1e-3).fit(X, y)
    grid = np.random.default_rng(5).uniform(-7, 7, size=(200, 2))
    np.testing.assert_allclose(model.predict_proba(grid), oracle.predict_proba(grid), atol=1e-10)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_bernoulli_variant_matches_bernoulli_nb_on_the_same_binary_features(n_classes):
    X, y = clusters(n_classes, 35, seed=50 + n_classes)
    X, y = X[:-3], y[:-3]
    model = make_model("naive_bayes", variant="bernoulli").fit(X, y)
    np.testing.assert_allclose(model.thresholds_, X.mean(axis=0))
    binary = (X > X.mean(axis=0)).astype(float)
    np.testing.assert_array_equal(model.binarize(X), binary)
    oracle = BernoulliNB(alpha=1.0, binarize=None).fit(binary, y)
    grid = np.random.default_rng(6).uniform(-7, 7, size=(400, 2))
    grid_binary = model.binarize(grid)
    np.testing.assert_allclose(model.predict_proba(grid), oracle.predict_proba(grid_binary), atol=1e-12)
    np.testing.assert_allclose(np.log(model.feature_prob_), oracle.feature_log_prob_, atol=1e-12)
    # a_k is linear in the binary features (eq. 4.82).
    np.testing.assert_allclose(
        model.activations(grid), grid_binary @ model.feature_coef_.T + model.feature_intercept_, atol=1e-12
    )
    np.testing.assert_allclose(model.activations(grid), oracle.predict_joint_log_proba(grid_binary), atol=1e-10)


def test_bernoulli_feature_probabilities_by_hand():
    # Class 0: features (1,0), (1,1); class 1: (0,0). alpha = 1: mu = (N_ki + 1) / (N_k + 2).
    X = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 0.0]])
    model = make_model("naive_bayes", variant="bernoulli", thresholds=[0.5, 0.5]).fit(X, [0, 0, 1])
    np.testing.assert_allclose(model.feature_prob_, [[3 / 4, 2 / 4], [1 / 3, 1 / 3]])
    np.testing.assert_allclose(model.priors_, [2 / 3, 1 / 3])
    a = np.log(3 / 4) + np.log(2 / 4) + np.log(2 / 3)  # x = (1, 1) under class 0
    assert model.activations(np.array([[2.0, 2.0]]))[0, 0] == pytest.approx(a)
    assert not model.is_linear and model.is_probabilistic


def test_bernoulli_custom_thresholds_and_alpha(two_clusters):
    X, y = two_clusters
    model = make_model("naive_bayes", variant="bernoulli", thresholds=[0.0, 1.0], alpha=0.5).fit(X, y)
    binary = (X > np.array([0.0, 1.0])).astype(float)
    oracle = BernoulliNB(alpha=0.5, binarize=None).fit(binary, y)
    np.testing.assert_allclose(model.predict_proba(X), oracle.predict_proba(binary), atol=1e-12)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"variant": "multinomial"}, "'gaussian' or 'bernoulli'"),
        ({"variant": "bernoulli", "alpha": 0}, "alpha must be a positive number"),
        ({"variant": "bernoulli", "thresholds": [1, 2, 3]}, "one threshold per input feature"),
        ({"variant": "bernoulli", "thresholds": [1, np.inf]}, "NaN or infinite"),
        ({"var_smoothing": -1}, "var_smoothing must be a positive number"),
        ({"priors": [1]}, "one prior per class"),
    ],
)
def test_bad_parameters_give_a_sentence(params, message, two_clusters):
    with pytest.raises(InvalidDataError, match=message):
        make_model("naive_bayes", **params).fit(*two_clusters)


def test_binarize_is_only_for_the_bernoulli_variant(two_clusters):
    model = make_model("naive_bayes").fit(*two_clusters)
    with pytest.raises(InvalidDataError, match="bernoulli"):
        model.binarize(two_clusters[0])


@pytest.mark.parametrize("variant", ["gaussian", "bernoulli"])
def test_degenerate_data_stay_finite(variant):
    window = Window(-3, 3, -3, 3)
    cases = [
        (np.array([[0.0, 0], [1, 1], [2, 2], [3, 3]]), [0, 0, 1, 1]),  # collinear
        (np.array([[1.0, 1], [1, 1], [1, 1], [1, 1]]), [0, 0, 1, 1]),  # all identical
        (np.array([[0.0, 0], [1, 0], [0, 1], [2, 2]]), [0, 0, 0, 3]),  # a class with one point
    ]
    for X, y in cases:
        model = make_model("naive_bayes", variant=variant).fit(X, y)
        result = evaluate_grid(model, window, resolution=20)
        assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    identical = make_model("naive_bayes").fit(cases[1][0], cases[1][1])
    assert "constant" in identical.fit_message_


def test_one_class_is_refused():
    with pytest.raises(InvalidDataError, match="only one class"):
        make_model("naive_bayes").fit(np.ones((3, 2)), [1, 1, 1])


@pytest.mark.parametrize("offset", [1e9, -1e9])
def test_far_from_origin(offset, three_clusters):
    X, y = three_clusters
    near = make_model("naive_bayes").fit(X, y)
    far = make_model("naive_bayes").fit(X + offset, y)
    grid = np.random.default_rng(7).uniform(-5, 5, size=(100, 2))
    np.testing.assert_allclose(far.predict_proba(grid + offset), near.predict_proba(grid), atol=1e-4)


@settings(max_examples=50, deadline=None)
@given(
    variant=st.sampled_from(["gaussian", "bernoulli"]),
    points=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 2)), min_size=1, max_size=12),
    scale=st.sampled_from([1e-9, 1.0, 1e9]),
    shift=st.sampled_from([0.0, 1e9]),
)
def test_degenerate_data_give_finite_grids_or_a_sentence(variant, points, scale, shift):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale + shift, data[:, 2].astype(int)
    try:
        model = make_model("naive_bayes", variant=variant).fit(X, y)
    except PlaygroundError as err:
        assert str(err).endswith(".")
        return
    result = evaluate_grid(model, Window.around(X), resolution=12)
    assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    np.testing.assert_allclose(result.proba.sum(axis=-1), 1.0, atol=1e-9)
