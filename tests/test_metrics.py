"""playground.metrics against scikit-learn's confusion_matrix, precision_recall_fscore_support and
log_loss, on random labels and on the predictions of fitted playground models."""

import numpy as np
import pytest
from sklearn import metrics as sk

from playground import make_model
from playground.metrics import confusion_matrix, log_loss, precision_recall, score


@pytest.mark.parametrize("seed", range(8))
def test_confusion_precision_recall_equal_scikit_learns(seed):
    rng = np.random.default_rng(seed)
    n, k = rng.integers(1, 60), rng.integers(2, 7)
    y_true, y_pred = rng.integers(0, k, n), rng.integers(0, k, n)
    labels = np.arange(k)
    matrix = confusion_matrix(y_true, y_pred, labels)
    np.testing.assert_array_equal(matrix, sk.confusion_matrix(y_true, y_pred, labels=labels))
    precision, recall = precision_recall(matrix)
    expected = sk.precision_recall_fscore_support(y_true, y_pred, labels=labels, zero_division=np.nan)
    np.testing.assert_allclose(precision, expected[0], rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(recall, expected[1], rtol=1e-12, equal_nan=True)


def test_labels_outside_the_list_are_not_counted_as_in_scikit_learn():
    y_true, y_pred, labels = [0, 1, 2, 5], [0, 2, 2, 1], [0, 2]
    np.testing.assert_array_equal(
        confusion_matrix(y_true, y_pred, labels), sk.confusion_matrix(y_true, y_pred, labels=labels)
    )


@pytest.mark.parametrize("seed", range(6))
def test_log_loss_equals_scikit_learns(seed):
    rng = np.random.default_rng(seed)
    n, k = 40, 3
    proba = rng.dirichlet(np.ones(k), n)
    proba[0] = [1.0, 0.0, 0.0]  # a certain, wrong prediction: clipped, as scikit-learn clips
    y_true = rng.integers(0, k, n)
    y_true[0] = 2
    assert log_loss(y_true, proba, np.arange(k)) == pytest.approx(
        sk.log_loss(y_true, proba, labels=np.arange(k)), rel=1e-12
    )


def test_a_true_class_the_model_does_not_know_has_probability_zero():
    proba = np.array([[0.7, 0.3], [0.2, 0.8], [0.5, 0.5]])
    classes, y_true = np.array([0, 2]), np.array([0, 2, 4])
    padded = np.column_stack([proba, np.zeros(3)])  # class 4's column
    expected = sk.log_loss(y_true, padded, labels=[0, 2, 4])
    assert log_loss(y_true, proba, classes) == pytest.approx(expected, rel=1e-12)


def _split(seed, k=3, n=120):
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=2.0, size=(k, 2))
    y = rng.integers(0, k, n)
    X = means[y] + rng.normal(size=(n, 2)) * 1.3
    return X[: n // 2], y[: n // 2], X[n // 2 :], y[n // 2 :]


@pytest.mark.parametrize("method", ["softmax", "gaussian_shared", "gaussian_separate", "naive_bayes", "least_squares"])
@pytest.mark.parametrize("seed", range(3))
def test_scores_of_a_fitted_model_equal_scikit_learns_on_the_same_predictions(method, seed):
    X, y, X_test, y_test = _split(seed)
    model = make_model(method).fit(X, y)
    predicted = model.predict(X_test)
    proba = model.predict_proba(X_test) if hasattr(model, "predict_proba") else None
    labels = np.unique(np.concatenate([y, y_test]))
    scores = score(y_test, predicted, labels, proba, model.classes_)
    assert scores.accuracy == pytest.approx(sk.accuracy_score(y_test, predicted))
    np.testing.assert_array_equal(scores.confusion, sk.confusion_matrix(y_test, predicted, labels=labels))
    expected = sk.precision_recall_fscore_support(y_test, predicted, labels=labels, zero_division=np.nan)
    np.testing.assert_allclose(scores.precision, expected[0], equal_nan=True)
    np.testing.assert_allclose(scores.recall, expected[1], equal_nan=True)
    if proba is None:
        assert scores.log_loss is None
    else:
        assert scores.log_loss == pytest.approx(sk.log_loss(y_test, proba, labels=model.classes_), rel=1e-12)


def test_no_points_have_no_accuracy():
    scores = score([], [], [0, 1])
    assert scores.n == 0 and scores.accuracy is None and scores.confusion.sum() == 0
