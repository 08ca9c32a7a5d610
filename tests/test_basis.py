"""Fixed basis functions (PRML 4.3.1, figure 4.12): features, composition with every method."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.preprocessing import PolynomialFeatures

import playground
from playground import (
    IdentityBasis,
    InvalidDataError,
    PlaygroundError,
    PolynomialBasis,
    RBFBasis,
    Window,
    evaluate_grid,
    make_basis,
    make_model,
)
from tests.conftest import clusters


def ring(n=120, seed=0):
    """Class 0 inside radius 1, class 1 in the annulus 1.5 < r < 2.5: not linearly separable in x."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * np.pi, 2 * n)
    radius = np.concatenate([rng.uniform(0, 1, n), rng.uniform(1.5, 2.5, n)])
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return X, np.repeat([0, 1], n)


BASES = {
    "polynomial": lambda: PolynomialBasis(2),
    "rbf": lambda: RBFBasis(width=1.0, n_centres=9),
}


@pytest.mark.parametrize("degree", range(1, 7))
@pytest.mark.parametrize("dim", [1, 2, 3])
def test_polynomial_features_match_sklearn(degree, dim):
    X = np.random.default_rng(degree + 10 * dim).normal(size=(25, dim))
    basis = PolynomialBasis(degree).fit(X)
    oracle = PolynomialFeatures(degree, include_bias=False).fit(X)
    np.testing.assert_allclose(basis.transform(X), oracle.transform(X), rtol=1e-12)
    # Same order, same names up to 1-based indices.
    names = [
        " ".join(
            f"x{int(part[1:].split('^')[0]) + 1}" + (f"^{part.split('^')[1]}" if "^" in part else "")
            for part in name.split()
        )
        for name in oracle.get_feature_names_out()
    ]
    assert basis.feature_names() == names
    assert basis.n_output_features_ == oracle.n_output_features_


def test_polynomial_names_and_powers_for_the_plane():
    basis = PolynomialBasis(2).fit(np.zeros((1, 2)))
    assert basis.feature_names() == ["x1", "x2", "x1^2", "x1 x2", "x2^2"]
    np.testing.assert_array_equal(basis.powers(), [[1, 0], [0, 1], [2, 0], [1, 1], [0, 2]])
    assert PolynomialBasis(3).fit(np.zeros((1, 2))).feature_names()[-4:] == ["x1^3", "x1^2 x2", "x1 x2^2", "x2^3"]


def test_rbf_features_match_the_formula():
    X = np.random.default_rng(1).normal(size=(30, 2))
    centres = np.array([[0.0, 0.0], [1.0, -1.0], [-0.5, 2.0]])
    s = 0.7
    basis = RBFBasis(centres=centres, width=s).fit(X)
    expected = np.array([[np.exp(-np.sum((x - c) ** 2) / (2 * s**2)) for c in centres] for x in X])
    np.testing.assert_allclose(basis.transform(X), expected, rtol=1e-13)
    assert basis.feature_names() == [f"exp(-|x-c{j}|^2/2s^2)" for j in (1, 2, 3)]
    with_x = RBFBasis(centres=centres, width=s, include_input=True).fit(X)
    np.testing.assert_allclose(with_x.transform(X), np.hstack([X, expected]))
    assert with_x.feature_names()[:2] == ["x1", "x2"] and with_x.n_output_features_ == 5


def test_rbf_placements():
    X, _ = ring()
    grid = RBFBasis(n_centres=9).fit(X)
    assert grid.centres_.shape == (9, 2)
    np.testing.assert_allclose(grid.centres_.min(axis=0), X.min(axis=0))
    np.testing.assert_allclose(grid.centres_.max(axis=0), X.max(axis=0))
    assert len(np.unique(grid.centres_[:, 0])) == 3
    data = RBFBasis(placement="data", n_centres=7, random_state=3).fit(X)
    assert data.centres_.shape == (7, 2)
    assert all(np.any(np.all(X == c, axis=1)) for c in data.centres_)
    np.testing.assert_array_equal(
        RBFBasis(placement="data", n_centres=7, random_state=3).fit(X).centres_, data.centres_
    )
    assert not np.array_equal(RBFBasis(placement="data", n_centres=7, random_state=4).fit(X).centres_, data.centres_)
    # Fewer distinct points than centres asked for: every distinct point once.
    few = RBFBasis(placement="data", n_centres=50).fit(np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]))
    assert few.centres_.shape == (2, 2)
    # All points in one place: the grid collapses to one centre instead of duplicates.
    assert RBFBasis(n_centres=9).fit(np.ones((4, 2))).centres_.shape == (1, 2)


def test_identity_basis_changes_nothing():
    X, y = clusters(2, 40, seed=2)
    plain = make_model("svm").fit(X, y)
    wrapped = make_model("svm", basis=IdentityBasis()).fit(X, y)
    assert wrapped.is_linear
    np.testing.assert_allclose(wrapped.coef_, plain.coef_)
    np.testing.assert_allclose(wrapped.decision_function(X), plain.decision_function(X))
    assert wrapped.basis_.feature_names() == ["x1", "x2"]


@pytest.mark.parametrize("basis_name", sorted(BASES))
def test_every_registered_method_composes_with_a_basis(basis_name):
    # Iterates the registry at test time, so methods added later are covered too.
    X, y = ring()
    window = Window.around(X)
    for name in playground.MODELS:
        model = make_model(name, basis=BASES[basis_name]())
        try:
            model.fit(X, y)
        except PlaygroundError as err:  # a method may refuse (e.g. no convergence): with a sentence
            assert str(err).endswith("."), name
            continue
        assert model.n_features_in_ == 2 and model.features(X).shape[0] == X.shape[0]
        np.testing.assert_array_equal(model.classes_, [0, 1])
        grid = evaluate_grid(model, window, resolution=40)
        assert np.all(np.isfinite(grid.decision)), name
        if grid.proba is not None:
            assert np.all(np.isfinite(grid.proba)) and np.allclose(grid.proba.sum(axis=-1), 1.0), name
        assert set(np.unique(model.predict(X))) <= {0, 1}
        if name in ("least_squares", "svm"):
            assert model.score(X, y) >= 0.95, (name, basis_name, model.score(X, y))
        # hasattr tells the truth about what the inner method offers.
        for method in ("predict_proba", "predict_log_proba", "predict_index", "ambiguous"):
            assert hasattr(model, method) == hasattr(model.estimator_, method), (name, method)
        assert model.is_probabilistic == model.estimator_.is_probabilistic
        assert not model.is_linear and not hasattr(model, "coef_")


def test_the_ring_is_not_linearly_separable_without_a_basis():
    X, y = ring()
    assert make_model("least_squares").fit(X, y).score(X, y) < 0.8
    with pytest.raises(PlaygroundError, match="overlap"):
        make_model("svm", C=None).fit(X, y)
    # x1^2 + x2^2 is a feature: the hard margin exists in phi-space.
    model = make_model("svm", C=None, basis=PolynomialBasis(2)).fit(X, y)
    assert model.score(X, y) == 1.0 and model.converged_


def test_svm_on_a_basis_reads_through_to_the_inner_model():
    X, y = ring()
    model = make_model("svm", C=10.0, basis=RBFBasis(width=1.0)).fit(X, y)
    inner = model.estimator_
    assert model.history_ is inner.history_ and model.n_iter_ == inner.n_iter_
    assert model.history_[-1]["w"].shape == (model.basis_.n_output_features_,)
    np.testing.assert_array_equal(model.support_, inner.support_)
    np.testing.assert_allclose(model.decision_function(X), inner.decision_function(model.features(X)))
    assert "Support vector machine on gaussian basis" == model.display_name
    with pytest.raises(AttributeError, match="feature_line"):
        _ = model.coef_


def test_feature_line_is_exact_for_two_features():
    # Figure 4.12: two Gaussian basis functions; the boundary is a line in (phi1, phi2).
    X, y = ring(60, seed=3)
    model = make_model("least_squares", basis=RBFBasis(centres=[[0.0, 0.0], [2.0, 0.0]], width=1.0)).fit(X, y)
    line = model.feature_line(0, 1)
    assert line["exact"] and line["names"] == ("exp(-|x-c1|^2/2s^2)", "exp(-|x-c2|^2/2s^2)")
    phi = model.features(X)
    np.testing.assert_allclose(phi @ line["coef"].T + line["intercept"], model.decision_function(X)[:, None])
    boundary = playground.boundary_segments(line["coef"], line["intercept"], Window(0, 1, 0, 1))
    assert len(boundary) <= 1


def test_feature_line_slices_through_the_feature_means():
    X, y = ring()
    model = make_model("svm", basis=PolynomialBasis(2)).fit(X, y)
    line = model.feature_line(2, 4)  # x1^2 and x2^2
    assert not line["exact"] and line["coef"].shape == (1, 2) and line["intercept"].shape == (1,)
    phi = np.tile(model.feature_means_, (5, 1))
    phi[:, 2], phi[:, 4] = np.linspace(0, 3, 5), np.linspace(3, 0, 5)
    direct = phi @ model.estimator_.coef_[0] + model.estimator_.intercept_[0]
    np.testing.assert_allclose(phi[:, [2, 4]] @ line["coef"][0] + line["intercept"][0], direct)
    with pytest.raises(InvalidDataError, match="two different features"):
        model.feature_line(1, 1)


def test_feature_line_for_k_classes_and_nonlinear_inner_models():
    X, y = clusters(3, 30, seed=1)
    model = make_model("least_squares", basis=PolynomialBasis(2)).fit(X, y)
    line = model.feature_line(0, 1)
    assert line["coef"].shape == (3, 2) and line["intercept"].shape == (3,)
    if "gaussian_separate" in playground.MODELS:
        quadratic = make_model("gaussian_separate", basis=PolynomialBasis(1)).fit(X, y)
        with pytest.raises(PlaygroundError, match="not linear in the features"):
            quadratic.feature_line(0, 1)


def test_multiclass_strategy_on_a_basis():
    X, y = clusters(3, 30, seed=0)
    model = make_model("svm", multiclass="ovr", basis=RBFBasis(width=1.5)).fit(X, y)
    assert model.score(X, y) > 0.9 and hasattr(model, "predict_index")
    grid = evaluate_grid(model, Window.around(X), resolution=20)
    assert grid.labels.shape == (20, 20)


def test_the_callers_objects_are_not_fitted_in_place():
    X, y = ring()
    basis, inner = RBFBasis(), make_model("svm")
    model = playground.with_basis(inner, basis).fit(X, y)
    assert not hasattr(basis, "centres_") and not hasattr(inner, "classes_")
    assert model.clone().fit(X, y).score(X, y) == model.score(X, y)
    assert make_model("svm", basis="polynomial").basis.degree == 2


@pytest.mark.parametrize(
    "basis, message",
    [
        (PolynomialBasis(0), "degree must be a whole number from 1 to 6"),
        (PolynomialBasis(7), "degree must be a whole number from 1 to 6"),
        (PolynomialBasis(2.5), "degree must be a whole number from 1 to 6"),
        (PolynomialBasis(True), "degree must be a whole number from 1 to 6"),
        (RBFBasis(width=0), "width s must be a positive number"),
        (RBFBasis(width=np.nan), "width s must be a positive number"),
        (RBFBasis(n_centres=0), "number of centres must be a whole number from 1 to 100"),
        (RBFBasis(n_centres=101), "number of centres must be a whole number from 1 to 100"),
        (RBFBasis(placement="random"), "placement must be one of grid, data, given"),
        (RBFBasis(placement="given"), "needs centres"),
        (RBFBasis(centres=[[0, 0]], placement="grid"), "placement must be 'given'"),
        (RBFBasis(centres=[[0, 0, 0]]), "centres have 3 coordinates but the points have 2"),
        (RBFBasis(centres=[[0, np.nan]]), "NaN"),
        (RBFBasis(centres=np.zeros((101, 2))), "Too many centres"),
        (RBFBasis(random_state=None), "random_state must be a whole number"),
    ],
)
def test_bad_parameters_give_a_sentence(basis, message):
    with pytest.raises(InvalidDataError, match=message):
        make_model("least_squares", basis=basis).fit(*ring(10))


def test_other_misuse_gives_a_sentence():
    with pytest.raises(PlaygroundError, match="Unknown basis 'spline'"):
        make_basis("spline")
    with pytest.raises(PlaygroundError, match="basis-function object"):
        make_model("svm", basis=3)
    with pytest.raises(PlaygroundError, match="not been fitted"):
        PolynomialBasis(2).transform(np.zeros((1, 2)))
    with pytest.raises(PlaygroundError, match="not been fitted"):
        make_model("svm", basis=PolynomialBasis(2)).features(np.zeros((1, 2)))
    with pytest.raises(InvalidDataError, match="features beyond ±1e100"):
        PolynomialBasis(6).fit_transform(np.array([[1e100, 0.0]]))
    with pytest.raises(InvalidDataError, match="limit is 1,000"):
        PolynomialBasis(6).fit(np.zeros((1, 10)))
    model = make_model("svm", basis=PolynomialBasis(2)).fit(*ring(10))
    with pytest.raises(InvalidDataError, match="X has 5 features, but BasisModel is expecting 2"):
        model.predict(np.zeros((1, 5)))


@settings(max_examples=40, deadline=None)
@given(
    X=st.lists(st.lists(st.floats(-50, 50), min_size=2, max_size=2), min_size=1, max_size=20).map(np.array),
    degree=st.integers(1, 6),
    width=st.floats(0.05, 20),
)
def test_features_are_finite_and_match_their_definitions(X, degree, width):
    poly = PolynomialBasis(degree).fit_transform(X)
    # Products of tiny coordinates are subnormal, where relative precision is lost; hence atol.
    expected = PolynomialFeatures(degree, include_bias=False).fit_transform(X)
    np.testing.assert_allclose(poly, expected, rtol=1e-10, atol=1e-300)
    basis = RBFBasis(n_centres=4, width=width).fit(X)
    phi = basis.transform(X)
    assert phi.shape == (X.shape[0], basis.centres_.shape[0]) and np.all((phi >= 0) & (phi <= 1))
    distances = ((X[:, None, :] - basis.centres_[None, :, :]) ** 2).sum(axis=-1)
    np.testing.assert_allclose(phi, np.exp(-distances / (2 * width**2)), rtol=1e-12, atol=1e-300)
