"""One-versus-rest and one-versus-one (PRML 4.1.2, figure 4.2) against scikit-learn's wrappers."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SklearnPerceptron
from sklearn.linear_model import RidgeClassifier
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier

from playground import (
    DegenerateFitError,
    LinearClassifier,
    OneVsOne,
    OneVsRest,
    PlaygroundError,
    ProbabilisticMixin,
    Window,
    evaluate_grid,
    make_model,
    with_strategy,
)
from playground.base import log_sigmoid
from playground.validation import check_X_y
from tests.conftest import clusters

WRAPPERS = {"ovr": OneVsRestClassifier, "ovo": OneVsOneClassifier}


class Bisector(ProbabilisticMixin, LinearClassifier):
    """A two-class rule with an analytic boundary: the line perpendicular to m_1 - m_0 through
    m_0 + fraction (m_1 - m_0). p(C_1 | x) = sigma(y(x)), so it also tests predict_proba."""

    display_name = "bisector"
    book_section = "test"

    def __init__(self, fraction=0.5):
        self.fraction = fraction

    def fit(self, X, y):
        X, y_index, classes = check_X_y(X, y, max_classes=2)
        m0, m1 = X[y_index == 0].mean(axis=0), X[y_index == 1].mean(axis=0)
        self.classes_, self.n_features_in_ = classes, X.shape[1]
        self.coef_ = (m1 - m0)[None, :]
        self.intercept_ = np.array([-(m1 - m0) @ (m0 + self.fraction * (m1 - m0))])
        return self

    def predict_log_proba(self, X):
        a = self.decision_function(X)
        return np.column_stack([log_sigmoid(-a), log_sigmoid(a)])


def _triangle(radius=1.0, spread=0.1):
    """Three classes of three points each, centred on an equilateral triangle's corners."""
    angles = np.deg2rad([90, 210, 330])
    centres = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    offsets = spread * np.array([[1, 0], [-0.5, 0.75**0.5], [-0.5, -(0.75**0.5)]])
    X = np.vstack([c + offsets for c in centres])
    return X, np.repeat([0, 1, 2], 3), centres


def _grid(low=-3, high=3, n=20_000):
    """Random points (a regular grid would put points exactly on the lines, where rounding decides)."""
    return np.random.default_rng(0).uniform(low, high, size=(n, 2))


def _sklearn_perceptron(max_epochs):
    return SklearnPerceptron(eta0=1.0, shuffle=False, penalty=None, tol=None, max_iter=max_epochs)


# -- against scikit-learn --------------------------------------------------------------------


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
@pytest.mark.parametrize("n_classes", [3, 4, 5])
def test_perceptron_strategies_match_sklearn(strategy, n_classes):
    X, y = clusters(n_classes, 30, seed=n_classes)
    y = y * 10 - 3  # any integer labels
    model = make_model("perceptron", multiclass=strategy, max_epochs=15).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        oracle = WRAPPERS[strategy](_sklearn_perceptron(15)).fit(X, y)
    points = np.vstack([X, np.random.default_rng(1).uniform(-7, 7, size=(3000, 2))])
    np.testing.assert_array_equal(model.classes_, oracle.classes_)
    np.testing.assert_allclose(model.decision_function(points), oracle.decision_function(points), atol=1e-9)
    np.testing.assert_array_equal(model.predict(points), oracle.predict(points))
    np.testing.assert_array_equal(model.classes_[model.predict_index(points)], model.predict(points))


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
def test_least_squares_strategies_match_ridge_classifier(strategy):
    # Two-class least squares on 1-of-K targets has decision y_1 - y_0: the least-squares fit
    # to t = +-1, which is RidgeClassifier with a vanishing penalty.
    X, y = clusters(4, 25, seed=11)
    model = make_model("least_squares", multiclass=strategy).fit(X, y)
    oracle = WRAPPERS[strategy](RidgeClassifier(alpha=1e-10)).fit(X, y)
    points = np.random.default_rng(2).uniform(-7, 7, size=(3000, 2))
    np.testing.assert_allclose(model.decision_function(points), oracle.decision_function(points), atol=1e-8)
    np.testing.assert_array_equal(model.predict(points), oracle.predict(points))


# -- the ambiguous regions of figure 4.2 ---------------------------------------------------------


def test_one_versus_rest_ambiguity_analytically():
    # Class k against the rest: m_rest = -m_k / 2, so the line is u_k . x = 1/4 (u_k = m_k).
    X, y, centres = _triangle()
    model = OneVsRest(Bisector()).fit(X, y)
    points = _grid()
    claims = points @ centres.T > 0.25
    np.testing.assert_array_equal(model.ambiguous(points), claims.sum(axis=1) != 1)
    assert model.ambiguous([[0.0, 0.0]])[0]  # claimed by none: the central triangle
    assert model.ambiguous([2 * (centres[0] + centres[1]) / np.linalg.norm(centres[0] + centres[1])])[0]  # by two
    assert not model.ambiguous([2 * centres[0]])[0]
    np.testing.assert_allclose(model.coefs_ / np.linalg.norm(model.coefs_, axis=1, keepdims=True), centres, atol=1e-12)
    np.testing.assert_allclose(-model.intercepts_ / np.linalg.norm(model.coefs_, axis=1), 0.25, atol=1e-12)
    # Outside the ambiguous regions the argmax agrees with "the one classifier that claims x".
    clear = ~model.ambiguous(points)
    np.testing.assert_array_equal(model.predict_index(points)[clear], np.argmax(claims[clear], axis=1))


def test_one_versus_one_ambiguity_analytically():
    # Pair (i, j) cuts at m_i + 3/4 (m_j - m_i): the three lines do not meet in one point and
    # leave a small triangle where each class wins exactly one vote.
    X, y, centres = _triangle()
    model = OneVsOne(Bisector(fraction=0.75)).fit(X, y)
    np.testing.assert_array_equal(model.pairs_, [[0, 1], [0, 2], [1, 2]])
    points = _grid(-1, 1, 40_000)
    votes = np.zeros((len(points), 3), dtype=int)
    for i, j in model.pairs_:
        normal = centres[j] - centres[i]
        j_wins = (points - centres[i] - 0.75 * normal) @ normal > 0
        votes[:, j] += j_wins
        votes[:, i] += ~j_wins
    expected = np.all(votes == 1, axis=1)
    np.testing.assert_array_equal(model.votes(points), votes)
    np.testing.assert_array_equal(model.ambiguous(points), expected)
    assert 0 < expected.mean() < 0.2
    assert model.ambiguous(points[expected].mean(axis=0, keepdims=True))[0]  # the region is a triangle: convex
    # Ties are broken by summed confidence, never against the vote.
    index = model.predict_index(points)
    np.testing.assert_array_equal(votes[np.arange(len(points)), index], votes.max(axis=1))
    # With the midpoint rule the lines meet at the circumcentre and nothing is ambiguous.
    assert not OneVsOne(Bisector()).fit(X, y).ambiguous(points).any()


def test_grid_uses_predict_index(three_clusters):
    X, y = three_clusters
    model = make_model("perceptron", multiclass="ovo", max_epochs=10).fit(X, y)
    result = evaluate_grid(model, Window(-6, 6, -5, 7), resolution=50)
    points = np.column_stack([a.ravel() for a in np.meshgrid(result.x, result.y)])
    np.testing.assert_array_equal(result.labels.ravel(), model.predict_index(points))
    assert result.decision.shape == (50, 50, 3)


# -- two classes, probabilities, parameters -----------------------------------------------------


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
@pytest.mark.parametrize("name", ["least_squares", "fisher", "perceptron"])
def test_two_classes_behave_as_the_plain_model(two_clusters, strategy, name):
    X, y = two_clusters
    y = np.where(y == 0, 5, -2)
    plain = make_model(name).fit(X, y)
    wrapped = make_model(name, multiclass=strategy).fit(X, y)
    points = np.random.default_rng(0).uniform(-6, 6, size=(500, 2))
    np.testing.assert_allclose(wrapped.decision_function(points), plain.decision_function(points))
    np.testing.assert_array_equal(wrapped.predict(points), plain.predict(points))
    assert not wrapped.ambiguous(points).any()
    assert len(wrapped.estimators_) == 1
    np.testing.assert_allclose(wrapped.coefs_, plain.coef_)
    np.testing.assert_allclose(wrapped.intercepts_, plain.intercept_)


def test_one_versus_rest_probabilities():
    X, y, _ = _triangle()
    model = OneVsRest(Bisector()).fit(X, y)
    assert model.is_probabilistic and not OneVsOne(Bisector()).is_probabilistic
    points = np.vstack([_grid(), [[1e6, -1e6], [-1e100, 0.0]]])
    proba = model.predict_proba(points)
    assert np.all(np.isfinite(proba)) and proba.shape == (len(points), 3)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    positive = 1 / (1 + np.exp(-model.decision_function(points[:-2])))
    np.testing.assert_allclose(proba[:-2], positive / positive.sum(axis=1, keepdims=True), atol=1e-12)
    with pytest.raises(PlaygroundError, match="probabilities"):
        make_model("perceptron", multiclass="ovr").fit(*clusters(3, 10)).predict_proba(X)


@pytest.mark.parametrize("name", ["logistic", "probit", "bayesian_logistic"])
def test_one_versus_rest_posteriors_renormalised_directly_and_far_out(name, three_clusters):
    """predict_proba divides each sub-classifier's own-class posterior by their sum where all
    are normal numbers, to a few units in the last place of that quotient in long double;
    where one underflows (far from the data) the log-domain route takes over: finite rows
    summing to 1, the same as renormalising the logs, and the argmax of the decision values."""
    from playground.base import softmax_by_class

    X, y = three_clusters
    model = make_model(name, multiclass="ovr").fit(X, y)
    near = _grid(-6, 8, 5_000)
    far = np.array([[1e4, 1e4], [-1e5, 2e3], [3e6, -3e6], [-1e6, -1e6], [0.0, 5e3]])
    points = np.vstack([near, far])
    proba = model.predict_proba(points)
    positive = np.array([e.predict_proba(near)[:, 1] for e in model.estimators_]).astype(np.longdouble)
    expected = (positive / positive.sum(axis=0)).T.astype(float)
    np.testing.assert_allclose(proba[: len(near)], expected, rtol=3e-15, atol=0)
    logs = np.array([e.predict_log_proba(points)[:, 1] for e in model.estimators_])
    np.testing.assert_allclose(proba, softmax_by_class(logs), rtol=1e-12, atol=1e-300)
    assert np.all(np.isfinite(proba)) and np.all(proba >= 0)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=0, atol=5e-16)
    if name != "bayesian_logistic":  # its predictive relaxes towards 1/2 far out: nothing underflows
        with np.errstate(under="ignore"):
            own = np.array([e.predict_proba(far)[:, 1] for e in model.estimators_])
        assert np.any(own < np.finfo(float).tiny)  # the far points did take the log-domain route


def test_make_model_and_attributes(three_clusters):
    X, y = three_clusters
    ovr = make_model("fisher", multiclass="ovr", threshold="gaussian").fit(X, y)
    ovo = make_model("fisher", multiclass="ovo").fit(X, y)
    assert isinstance(ovr, OneVsRest) and isinstance(ovo, OneVsOne)
    assert ovr.is_linear and ovo.is_linear
    assert ovr.coefs_.shape == (3, 2) and ovr.intercepts_.shape == (3,)
    assert ovo.coefs_.shape == (3, 2) and ovo.pairs_.shape == (3, 2)
    assert all(e.threshold == "gaussian" for e in ovr.estimators_)
    assert ovr.display_name == "Fisher's linear discriminant (one-versus-rest)"
    four = make_model("perceptron", multiclass="ovo").fit(*clusters(4, 20))
    assert four.coefs_.shape == (6, 2) and len(four.estimators_) == 6
    clone = ovr.clone()
    assert clone.estimator is not ovr.estimator and clone.estimator.get_params() == {"threshold": "gaussian"}
    assert with_strategy(ovr.estimator, "native") is ovr.estimator
    with pytest.raises(PlaygroundError, match="Unknown multi-class strategy"):
        with_strategy(ovr.estimator, "ecoc")
    with pytest.raises(PlaygroundError, match="Unknown multi-class strategy"):
        make_model("fisher", multiclass="all")
    with pytest.raises(PlaygroundError, match="not been fitted"):
        make_model("fisher", multiclass="ovo").predict(X)


def test_sub_problem_errors_name_the_real_classes(three_clusters):
    X, y = three_clusters
    X, y = np.vstack([X, [[9.0, 9.0]]]), np.append(y, 7)  # class 7 has a single point
    with pytest.raises(DegenerateFitError, match=r"sub-problem class 0 versus class 7: .*class 7 has one"):
        make_model("fisher", multiclass="ovo").fit(X, y)
    with pytest.raises(DegenerateFitError, match=r"sub-problem class 7 versus the rest: .*class 7 has one"):
        make_model("fisher", multiclass="ovr").fit(X, y)


def test_one_class_is_rejected():
    with pytest.raises(PlaygroundError, match="only one class"):
        make_model("perceptron", multiclass="ovr").fit(np.eye(3), [1, 1, 1])


def test_sub_classifier_messages(three_clusters):
    X, y = three_clusters
    model = make_model("perceptron", multiclass="ovr", max_epochs=2).fit(X, y)
    assert all("did not converge" in m for m in model.fit_messages_)


# -- property test ------------------------------------------------------------------------------

coordinates = st.integers(-3, 3)


@settings(max_examples=50, deadline=None)
@given(
    points=st.lists(st.tuples(coordinates, coordinates, st.integers(0, 3)), min_size=1, max_size=14),
    scale=st.sampled_from([1e-9, 1.0, 1e9]),
    strategy=st.sampled_from(["ovr", "ovo"]),
    name=st.sampled_from(["least_squares", "fisher", "perceptron"]),
)
def test_any_data_gives_finite_predictions_or_a_sentence(points, scale, strategy, name):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale, data[:, 2].astype(int)
    params = {"max_epochs": 5} if name == "perceptron" else {}
    model = make_model(name, multiclass=strategy, **params)
    try:
        model.fit(X, y)
    except PlaygroundError as err:
        assert str(err).endswith(".")
        return
    probe = np.vstack([X, scale * np.random.default_rng(0).uniform(-4, 4, size=(50, 2))])
    decision = model.decision_function(probe)
    assert np.all(np.isfinite(decision))
    index = model.predict_index(probe)
    np.testing.assert_array_equal(model.classes_[index], model.predict(probe))
    ambiguous = model.ambiguous(probe)
    assert ambiguous.dtype == bool and ambiguous.shape == (len(probe),)
    assert np.all(np.isfinite(model.coefs_)) and np.all(np.isfinite(model.intercepts_))
