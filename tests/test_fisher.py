"""Fisher's discriminant (PRML 4.1.4, 4.1.6) against seed 003's worked example and scikit-learn's LDA."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from playground import DegenerateFitError, FisherDiscriminant, InvalidDataError, PlaygroundError, make_model
from tests.conftest import clusters

# Seed 003: unit direction (-0.83, 0.56) and the projections y = -0.83 x1 + 0.56 x2 of its six points.
SEED_DIRECTION = np.array([-0.83, 0.56])
SEED_PROJECTIONS = np.array([0.29, 0.025, 0.26, -1.10, -1.36, -1.13])


def _aligned(direction, reference):
    """``direction`` flipped to point the same way as ``reference`` (a direction has no sign)."""
    return direction * np.sign(direction @ reference)


def _projection_matrix(columns):
    q, _ = np.linalg.qr(columns)
    return q @ q.T


# -- seed 003 -------------------------------------------------------------------------


def test_seed003_scatter_means_and_direction(seed003):
    X, y = seed003
    model = make_model("fisher").fit(X, y)
    np.testing.assert_allclose(model.means_, [[2, 3.3], [3, 2.3]], atol=1e-12)
    np.testing.assert_allclose(model.within_class_scatter_, [[4, 5.8], [5.8, 8.68]], atol=1e-12)
    np.testing.assert_allclose(model.between_class_scatter_, [[1, -1], [-1, 1]], atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(model.direction_), 1.0)
    np.testing.assert_allclose(_aligned(model.direction_, SEED_DIRECTION), SEED_DIRECTION, atol=1e-2)
    assert model.fit_message_ is None


def test_seed003_projections(seed003):
    X, y = seed003
    # The seed's own arithmetic, with its rounded direction.
    np.testing.assert_allclose(X @ SEED_DIRECTION, SEED_PROJECTIONS, atol=0.02)
    model = make_model("fisher").fit(X, y)
    sign = np.sign(model.direction_ @ SEED_DIRECTION)
    np.testing.assert_allclose(sign * model.transform(X)[:, 0], SEED_PROJECTIONS, atol=0.02)
    assert model.transform(X).shape == (6, 1)


def test_seed003_orientation_and_exact_boundary(seed003):
    X, y = seed003
    model = make_model("fisher").fit(X, y)
    # Oriented from classes_[0] = 1 towards classes_[1] = 2: w = S_W^-1 (m_2 - m_1) itself,
    # which is minus the seed's (-13.41, 9.07).
    np.testing.assert_allclose(model.direction_, np.array([13.41, -9.07]) / np.hypot(13.41, 9.07), atol=1e-3)
    assert model.direction_ @ (model.means_[1] - model.means_[0]) > 0
    np.testing.assert_allclose(model.threshold_, model.projected_means_.mean(), atol=1e-12)
    np.testing.assert_allclose(model.decision_function(X), model.transform(X)[:, 0] - model.threshold_, atol=1e-12)
    np.testing.assert_array_equal(model.coef_, model.direction_[None, :])
    np.testing.assert_array_equal(model.predict(X), y)
    # Swapping the labels flips the direction and keeps the boundary.
    swapped = make_model("fisher").fit(X, 3 - y)
    np.testing.assert_allclose(swapped.direction_, -model.direction_, atol=1e-12)
    np.testing.assert_array_equal(swapped.predict(X), 3 - y)


def test_criterion_is_largest_along_the_fitted_direction(seed003):
    X, y = seed003
    model = make_model("fisher").fit(X, y)
    theta = np.linspace(0, np.pi, 721)
    curve = model.criterion(np.column_stack([np.cos(theta), np.sin(theta)]))
    best = model.criterion(model.direction_)
    assert curve.shape == (721,) and np.all(curve <= best + 1e-9)
    assert curve.max() > best * 0.999
    np.testing.assert_allclose(model.criterion(5 * model.direction_), best)  # length does not matter
    np.testing.assert_allclose(model.eigenvalues_[0], best)
    # Eq. 4.25 by hand: (m2 - m1)^2 / (s1^2 + s2^2) of the projections.
    for w in ([1.0, 0.0], [0.3, -0.7], SEED_DIRECTION):
        w = np.asarray(w) / np.linalg.norm(w)
        p = X @ w
        m1, m2 = p[y == 1].mean(), p[y == 2].mean()
        by_hand = (m2 - m1) ** 2 / (np.sum((p[y == 1] - m1) ** 2) + np.sum((p[y == 2] - m2) ** 2))
        np.testing.assert_allclose(model.criterion(w), by_hand, rtol=1e-10)
    with pytest.raises(InvalidDataError, match="zero vector"):
        model.criterion([0.0, 0.0])


# -- scikit-learn's LinearDiscriminantAnalysis ------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_two_class_direction_parallel_to_lda(seed):
    X, y = clusters(2, 40, seed=seed)
    model = make_model("fisher").fit(X, y)
    oracle = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    lda_direction = oracle.coef_[0] / np.linalg.norm(oracle.coef_[0])
    np.testing.assert_allclose(model.direction_, lda_direction, atol=1e-9)  # same orientation too


@pytest.mark.parametrize("n_classes", [3, 4, 5])
def test_k_class_subspace_and_predictions_match_lda(n_classes):
    X, y = clusters(n_classes, 40, seed=n_classes)
    model = make_model("fisher").fit(X, y)
    n_components = min(n_classes - 1, 2)
    assert model.directions_.shape == (2, n_components) and model.transform(X).shape == (X.shape[0], n_components)
    np.testing.assert_allclose(np.linalg.norm(model.directions_, axis=0), 1.0)
    oracle = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    np.testing.assert_allclose(
        _projection_matrix(model.directions_), _projection_matrix(oracle.scalings_[:, :n_components]), atol=1e-9
    )
    assert model.coef_.shape == (n_classes, 2) and model.intercept_.shape == (n_classes,)
    # Nearest projected mean (in pooled within-class standard deviations) is LDA's rule;
    # "gaussian" adds the log priors, "midpoint" is LDA with equal priors.
    points = np.vstack([X, np.random.default_rng(0).uniform(-8, 8, size=(2000, 2))])
    gaussian = make_model("fisher", threshold="gaussian").fit(X, y)
    np.testing.assert_array_equal(gaussian.predict(points), oracle.predict(points))
    equal_priors = LinearDiscriminantAnalysis(solver="eigen", priors=np.ones(n_classes) / n_classes).fit(X, y)
    np.testing.assert_array_equal(model.predict(points), equal_priors.predict(points))


def test_k_class_subspace_in_three_dimensions():
    rng = np.random.default_rng(3)
    means = np.array([[0, 0, 0], [3, 1, 0], [1, 3, 1]], dtype=float)
    X = np.vstack([rng.normal(m, [1.0, 0.5, 2.0], size=(30, 3)) for m in means])
    y = np.repeat([4, 7, 9], 30)
    model = make_model("fisher").fit(X, y)
    oracle = LinearDiscriminantAnalysis(solver="eigen").fit(X, y)
    assert model.directions_.shape == (3, 2)
    np.testing.assert_allclose(
        _projection_matrix(model.directions_), _projection_matrix(oracle.scalings_[:, :2]), atol=1e-9
    )
    np.testing.assert_allclose(model.eigenvalues_ / model.eigenvalues_.sum(), oracle.explained_variance_ratio_[:2])


# -- the Gaussian threshold ---------------------------------------------------------------


def test_gaussian_threshold_is_where_weighted_densities_tie():
    rng = np.random.default_rng(5)
    X = np.vstack([rng.normal([0, 0], [0.4, 1.0], size=(50, 2)), rng.normal([3, 1], [1.5, 1.0], size=(20, 2))])
    y = np.repeat([0, 1], [50, 20])
    model = make_model("fisher", threshold="gaussian").fit(X, y)
    p = model.transform(X)[:, 0]
    mu = np.array([p[y == 0].mean(), p[y == 1].mean()])
    var = np.array([p[y == 0].var(), p[y == 1].var()])  # maximum likelihood (divide by N_k)
    prior = np.array([50, 20]) / 70

    def log_joint(t, k):
        return np.log(prior[k]) - 0.5 * np.log(2 * np.pi * var[k]) - (t - mu[k]) ** 2 / (2 * var[k])

    t = model.threshold_
    assert mu[0] < t < mu[1]
    np.testing.assert_allclose(log_joint(t, 0), log_joint(t, 1), atol=1e-9)
    midpoint = make_model("fisher").fit(X, y)
    assert abs(midpoint.threshold_ - mu.mean()) < 1e-12 and abs(t - mu.mean()) > 1e-3
    np.testing.assert_allclose(model.direction_, midpoint.direction_)
    np.testing.assert_allclose(model.decision_function(X), p - t, atol=1e-12)


def test_gaussian_threshold_equal_spreads_and_priors_is_midpoint(seed003):
    X, y = seed003  # class 2 is class 1 shifted by (1, -1): equal projected variances
    model = make_model("fisher", threshold="gaussian").fit(X, y)
    np.testing.assert_allclose(model.threshold_, model.projected_means_.mean(), atol=1e-9)


def test_unknown_threshold():
    with pytest.raises(InvalidDataError, match="midpoint"):
        make_model("fisher", threshold="median").fit(np.eye(4), [0, 0, 1, 1])


# -- degenerate data ----------------------------------------------------------------------


def test_one_point_in_a_class(seed003):
    X, y = seed003
    with pytest.raises(DegenerateFitError, match="needs at least 2 points in each class; class 2 has one"):
        make_model("fisher").fit(X[:4], y[:4])


def test_one_class():
    with pytest.raises(InvalidDataError, match="only one class"):
        make_model("fisher").fit(np.random.default_rng(0).normal(size=(5, 2)), np.zeros(5, int))


@pytest.mark.parametrize("scale", [1.0, 0.0])
def test_all_points_identical(scale):
    X = np.full((4, 2), 3.0 * scale)
    with pytest.raises(DegenerateFitError, match="means coincide"):
        make_model("fisher").fit(X, [0, 0, 1, 1])
    with pytest.raises(DegenerateFitError, match="means coincide"):
        make_model("fisher").fit(np.full((6, 2), 2.0), [0, 0, 1, 1, 2, 2])


def test_equal_means_different_spreads():
    X = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]], dtype=float)
    with pytest.raises(DegenerateFitError, match="means coincide"):
        make_model("fisher").fit(X, [0, 0, 1, 1])


def test_collinear_points_use_the_pseudo_inverse():
    # Every point on the line x2 = x1: S_W has rank one and m_1 - m_0 lies along the line.
    X = np.array([[0, 0], [1, 1], [3, 3], [4, 4]], dtype=float)
    y = np.array([0, 0, 1, 1])
    model = make_model("fisher").fit(X, y)
    assert model.rank_ == 1 and "pseudo-inverse" in model.fit_message_
    np.testing.assert_allclose(model.direction_, [2**-0.5, 2**-0.5], atol=1e-12)
    np.testing.assert_array_equal(model.predict(X), y)
    assert np.all(np.isfinite(model.decision_function(X)))


def test_means_differ_where_neither_class_varies():
    # Both classes horizontal: S_W = diag(1, 0) and the means differ only vertically, so
    # J(w) is unbounded along (0, 1) and that is the direction.
    X = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=float)
    y = np.array([0, 0, 1, 1])
    for threshold in ("midpoint", "gaussian"):
        model = make_model("fisher", threshold=threshold).fit(X, y)
        np.testing.assert_allclose(model.direction_, [0, 1], atol=1e-12)
        assert "unbounded" in model.fit_message_
        assert model.criterion([0, 1]) == np.inf and np.isfinite(model.criterion([1, 0]))
        np.testing.assert_allclose(model.threshold_, 0.5)
    assert "degenerate" in model.fit_message_  # the Gaussian threshold fell back to the midpoint


def test_duplicate_points_within_each_class():
    X = np.array([[0, 0], [0, 0], [2, 1], [2, 1]], dtype=float)
    model = make_model("fisher").fit(X, [0, 0, 1, 1])
    np.testing.assert_allclose(model.direction_, np.array([2, 1]) / np.sqrt(5), atol=1e-12)
    assert model.rank_ == 0 and model.fit_message_


def test_k_class_singular_scatter_uses_a_stated_ridge():
    X = np.array([[0, 0], [1, 0], [0, 2], [1, 2], [0, 4], [1, 4]], dtype=float)  # every class horizontal
    y = np.array([0, 0, 1, 1, 2, 2])
    model = make_model("fisher").fit(X, y)
    assert "ridge" in model.fit_message_
    np.testing.assert_allclose(np.abs(model.directions_[:, 0]), [0, 1], atol=1e-6)
    np.testing.assert_array_equal(model.predict(X), y)
    assert np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_))


@pytest.mark.parametrize("scale", [1e9, 1e-9, 1e90, 1e-90])
@pytest.mark.parametrize("threshold", ["midpoint", "gaussian"])
def test_huge_and_tiny_coordinates(seed003, scale, threshold):
    X, y = seed003
    base = make_model("fisher", threshold=threshold).fit(X, y)
    model = make_model("fisher", threshold=threshold).fit(X * scale, y)
    np.testing.assert_allclose(model.direction_, base.direction_, atol=1e-9)
    np.testing.assert_allclose(model.threshold_, base.threshold_ * scale, rtol=1e-9)
    np.testing.assert_array_equal(model.predict(X * scale), y)
    np.testing.assert_allclose(model.criterion(model.direction_), base.criterion(base.direction_), rtol=1e-9)
    three = np.vstack([X, X + [4, 4]]) * scale
    labels = np.concatenate([y, [3, 3, 3, 3, 3, 3]])
    k_model = make_model("fisher", threshold=threshold).fit(three, labels)
    k_base = make_model("fisher", threshold=threshold).fit(three / scale, labels)
    np.testing.assert_array_equal(k_model.predict(three), k_base.predict(three / scale))
    assert np.all(np.isfinite(k_model.decision_function(three)))


def test_params_and_registry():
    model = make_model("fisher", threshold="gaussian")
    assert isinstance(model, FisherDiscriminant) and model.get_params() == {"threshold": "gaussian"}
    with pytest.raises(PlaygroundError, match="not been fitted"):
        model.transform(np.zeros((1, 2)))


# -- property test ------------------------------------------------------------------------

coordinates = st.integers(-3, 3)
scales = st.sampled_from([1e-9, 1e-3, 1.0, 1e3, 1e9])


@settings(max_examples=50, deadline=None)
@given(
    points=st.lists(st.tuples(coordinates, coordinates, st.integers(0, 3)), min_size=1, max_size=12),
    scale=scales,
    threshold=st.sampled_from(["midpoint", "gaussian"]),
)
def test_any_data_gives_a_finite_fit_or_a_sentence(points, scale, threshold):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale, data[:, 2].astype(int)
    model = make_model("fisher", threshold=threshold)
    try:
        model.fit(X, y)
    except PlaygroundError as err:
        message = str(err)
        assert message.endswith(".") and len(message) > 20
        return
    for name in ("coef_", "intercept_", "directions_", "projected_means_"):
        assert np.all(np.isfinite(getattr(model, name))), name
    decision = model.decision_function(X)
    assert np.all(np.isfinite(decision))
    assert set(model.predict(X)) <= set(model.classes_)
    np.testing.assert_allclose(np.linalg.norm(model.directions_, axis=0), 1.0)
    if model.classes_.size == 2:
        assert model.projected_means_[1, 0] > model.projected_means_[0, 0]
        best = model.criterion(model.direction_)
        theta = np.linspace(0, np.pi, 61)
        assert np.all(model.criterion(np.column_stack([np.cos(theta), np.sin(theta)])) <= best * (1 + 1e-6) + 1e-9)
