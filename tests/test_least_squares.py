"""Least squares (PRML 4.1.3) against scikit-learn's LinearRegression and the book's closed forms."""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression

from playground import InvalidDataError, make_model
from tests.conftest import clusters


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_outputs_match_linear_regression_on_one_of_k_targets(n_classes):
    X, y = clusters(n_classes, 50, seed=n_classes)
    model = make_model("least_squares").fit(X, y)
    targets = (y[:, None] == np.unique(y)[None, :]).astype(float)
    oracle = LinearRegression().fit(X, targets)
    np.testing.assert_allclose(model.class_outputs(X), oracle.predict(X), atol=1e-9)
    expected = np.unique(y)[np.argmax(oracle.predict(X), axis=1)]
    np.testing.assert_array_equal(model.predict(X), expected)


def test_one_of_k_outputs_sum_to_one_but_are_not_probabilities(three_clusters):
    # Section 4.1.3: with a bias, the outputs sum to 1 for any x, yet leave [0, 1].
    X, y = three_clusters
    model = make_model("least_squares").fit(X, y)
    far = np.array([[40.0, -40.0], [-30.0, 25.0]])
    outputs = model.class_outputs(np.vstack([X, far]))
    np.testing.assert_allclose(outputs.sum(axis=1), 1.0, atol=1e-9)
    assert outputs.min() < 0 or outputs.max() > 1


def test_two_classes_decision_is_difference_of_outputs(two_clusters):
    X, y = two_clusters
    model = make_model("least_squares").fit(X, y)
    outputs = model.class_outputs(X)
    np.testing.assert_allclose(model.decision_function(X), outputs[:, 1] - outputs[:, 0], atol=1e-12)
    assert model.coef_.shape == (1, 2) and model.intercept_.shape == (1,)
    assert set(model.predict(X)) <= set(np.unique(y))


def test_labels_of_any_integer_values(two_clusters):
    X, y = two_clusters
    relabelled = np.where(y == 0, -7, 42)
    model = make_model("least_squares").fit(X, relabelled)
    np.testing.assert_array_equal(model.classes_, [-7, 42])
    base = make_model("least_squares").fit(X, y)
    np.testing.assert_array_equal(model.predict(X) == 42, base.predict(X) == 1)


def test_fisher_targets_give_fishers_direction(seed003):
    # Section 4.1.5: with t = N/N1, -N/N2 the weight vector is parallel to S_W^-1 (m2 - m1).
    # Seed 003 works the same six points to the unit direction (-0.83, 0.56).
    X, y = seed003
    model = make_model("least_squares", targets="fisher").fit(X, y)
    direction = model.coef_[0] / np.linalg.norm(model.coef_[0])
    assert abs(abs(direction @ np.array([-0.83, 0.56]) / np.linalg.norm([-0.83, 0.56])) - 1) < 1e-3
    # w0 = -w^T m (the overall mean), as the seed derives.
    np.testing.assert_allclose(model.intercept_[0], -model.coef_[0] @ X.mean(axis=0), atol=1e-9)


def test_fisher_targets_need_two_classes(three_clusters):
    with pytest.raises(InvalidDataError, match="two classes"):
        make_model("least_squares", targets="fisher").fit(*three_clusters)


def test_rank_deficient_design_still_fits():
    # All points on one line: X~^T X~ is singular; lstsq gives the minimum-norm solution.
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    y = np.array([0, 0, 1, 1])
    model = make_model("least_squares").fit(X, y)
    assert np.all(np.isfinite(model.coef_)) and model.rank_ == 2
    np.testing.assert_array_equal(model.predict(X), y)


@pytest.mark.parametrize(
    "X, y, message",
    [
        (np.zeros((0, 2)), np.zeros(0, int), "no points"),
        (np.ones((3, 2)), np.array([1, 1, 1]), "at least 2 classes; there is only one class"),
        (np.array([[0, np.nan], [1, 1]]), np.array([0, 1]), "NaN"),
        (np.ones((3, 2)), np.array([0, 1]), "one label per point"),
        (np.ones((2, 2)), np.array([0.5, 1.0]), "whole numbers"),
        ([["a", "b"], ["c", "d"]], [0, 1], "must contain numbers, not text"),
    ],
)
def test_bad_input_gives_a_sentence(X, y, message):
    with pytest.raises(InvalidDataError, match=message):
        make_model("least_squares").fit(X, y)


def test_predict_before_fit_and_wrong_width():
    model = make_model("least_squares")
    with pytest.raises(Exception, match="not been fitted"):
        model.predict(np.zeros((1, 2)))
    model.fit(np.array([[0.0, 0], [1, 1]]), [0, 1])
    with pytest.raises(InvalidDataError, match="2 features"):
        model.predict(np.zeros((1, 3)))


def test_params_round_trip():
    model = make_model("least_squares", targets="fisher")
    assert model.get_params() == {"targets": "fisher"}
    assert model.clone().targets == "fisher"
    with pytest.raises(Exception, match="no parameter"):
        model.set_params(eta=3)
