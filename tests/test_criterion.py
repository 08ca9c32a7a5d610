"""The criterion of a line (issue 46): what each method's fit optimises, evaluated at any w.

Oracles, not the code under test: scipy.optimize from the fitted weights and random lines
(the fit is the optimum), scikit-learn's log_loss and hinge_loss, scipy.stats.norm, numpy's
least squares and scatter matrices written out here, and seed 003's worked perceptron example.
"""

import numpy as np
import pytest
import scipy.optimize
import scipy.stats
from sklearn.metrics import hinge_loss, log_loss

import playground
from playground import (
    CriterionTerms,
    DegenerateFitError,
    InvalidDataError,
    PlaygroundError,
    PolynomialBasis,
    criterion,
    make_model,
)
from playground.criteria import DensityFit, LineCriterion
from playground.registry import MODELS

# Each two-class method with hyper-parameters its criterion reads (the SVM's tol tight enough
# for the primal to be optimal to 1e-6; its default 1e-3 leaves 3e-4).
METHODS = [
    ("least_squares", {}),
    ("least_squares", {"targets": "fisher"}),
    ("fisher", {}),
    ("perceptron", {}),
    ("logistic", {}),
    ("logistic", {"l2": 2.0}),
    ("softmax", {}),
    ("softmax", {"l2": 2.0}),
    ("probit", {}),
    ("probit", {"l2": 0.5}),
    ("bayesian_logistic", {"alpha": 3.0}),
    ("svm", {"C": 0.7, "tol": 1e-6}),
]
SMOOTH = [(name, params) for name, params in METHODS if name not in ("perceptron", "svm")]
DENSITIES = ["gaussian_shared", "gaussian_separate", "naive_bayes"]


def overlapping(seed=1, n=30):
    """Two overlapping Gaussian clouds: every method has a finite optimum."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal((0.0, 0.0), 1.0, (n, 2)), rng.normal((1.5, 1.0), 1.0, (n, 2))])
    return X, np.repeat([3, 7], n)  # labels: 7 is classes_[1], the positive side


def separable(seed=2, n=20):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal((0.0, 0.0), 0.5, (n, 2)), rng.normal((4.0, 3.0), 0.5, (n, 2))])
    return X, np.repeat([0, 1], n)


def line(model):
    """The fitted weights as (w0, w1, ..., wD)."""
    return np.concatenate([np.ravel(model.intercept_)[:1], np.asarray(model.coef_)[0]])


def value(model, X, y, w):
    return float(model.criterion_at(X, y, w))


def targets(y):
    return np.where(y == np.unique(y)[1], 1.0, -1.0)


def activations(X, W):
    W = np.atleast_2d(W)
    return X @ W[:, 1:].T + W[:, 0]


# -- the fitted weights are the optimum ------------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), METHODS)
def test_scipy_does_not_improve_on_the_fitted_weights(name, params):
    """Nelder-Mead from the fitted line finds nothing better (nothing larger for Fisher's J)."""
    X, y = overlapping() if name != "perceptron" else separable()
    model = make_model(name, **params).fit(X, y)
    sign = -1.0 if model.criterion_maximised else 1.0
    w = line(model)
    best = sign * value(model, X, y, w)
    found = scipy.optimize.minimize(
        lambda v: sign * value(model, X, y, v),
        w,
        method="Nelder-Mead",
        options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 20_000},
    )
    assert found.fun >= best - 1e-6 * (1 + abs(best))


@pytest.mark.parametrize(("name", "params"), METHODS)
def test_two_hundred_random_lines_are_no_better(name, params):
    X, y = overlapping() if name != "perceptron" else separable()
    model = make_model(name, **params).fit(X, y)
    sign = -1.0 if model.criterion_maximised else 1.0
    w = line(model)
    rng = np.random.default_rng(5)
    others = w + rng.normal(size=(200, 3)) * np.abs(w).max() * rng.uniform(0.01, 1.0, (200, 1))
    best = sign * value(model, X, y, w)
    assert np.all(sign * model.criterion_at(X, y, others) >= best - 1e-9 * (1 + abs(best)))


@pytest.mark.parametrize(("name", "params"), SMOOTH)
def test_the_gradient_vanishes_at_the_fit(name, params):
    """A smooth criterion's numerical gradient is 0 at the fitted line (scipy's finite differences)."""
    X, y = overlapping()
    model = make_model(name, **params).fit(X, y)
    w = line(model)
    gradient = scipy.optimize.approx_fprime(w, lambda v: value(model, X, y, v), 1e-7)
    assert np.max(np.abs(gradient)) < 1e-4 * (1 + abs(value(model, X, y, w)))


def test_least_squares_is_the_plus_minus_one_regression():
    """Two classes, 1-of-K targets: the fitted w_2 - w_1 is numpy's least-squares solution for targets +-1,
    and the criterion is 1/2 of its sum of squares (eq. 4.15 with one output)."""
    X, y = overlapping()
    design = np.column_stack([np.ones(len(X)), X])
    w, *_ = np.linalg.lstsq(design, targets(y), rcond=None)
    model = make_model("least_squares").fit(X, y)
    np.testing.assert_allclose(line(model), w, rtol=1e-10, atol=1e-12)
    at = np.array([0.3, -0.2, 0.9])
    assert value(model, X, y, at) == pytest.approx(0.5 * np.sum((design @ at - targets(y)) ** 2), rel=1e-13)
    # Eq. 4.15 at the 1-of-K pair whose difference is the line is half the criterion.
    W = np.column_stack([(np.eye(3)[0] - at) / 2, (np.eye(3)[0] + at) / 2])
    one_of_k = np.eye(2)[(y == 7).astype(int)]
    assert 0.5 * np.sum((design @ W - one_of_k) ** 2) == pytest.approx(value(model, X, y, at) / 2, rel=1e-13)


def test_fisher_is_largest_along_the_fitted_direction_and_ignores_w0_and_scale():
    X, y = overlapping()
    model = make_model("fisher").fit(X, y)
    m0, m1 = X[y == 3].mean(axis=0), X[y == 7].mean(axis=0)
    sw = sum((X[y == k] - X[y == k].mean(axis=0)).T @ (X[y == k] - X[y == k].mean(axis=0)) for k in (3, 7))
    sb = np.outer(m1 - m0, m1 - m0)
    theta = np.linspace(0, np.pi, 721)
    directions = np.column_stack([np.cos(theta), np.sin(theta)])
    W = np.column_stack([np.zeros(theta.size), directions])
    by_hand = np.einsum("md,de,me->m", directions, sb, directions) / np.einsum(
        "md,de,me->m", directions, sw, directions
    )
    # J near 0 (w across the means' difference) is a difference of near-equal numbers in either form.
    np.testing.assert_allclose(model.criterion_at(X, y, W), by_hand, rtol=1e-10, atol=1e-12 * by_hand.max())
    best = value(model, X, y, line(model))
    assert best == pytest.approx(model.eigenvalues_[0], rel=1e-10)
    assert best >= by_hand.max() * (1 - 1e-12)
    w = np.array([4.0, 0.3, -1.2])
    for other in (np.array([-7.0, 0.3, -1.2]), np.array([0.0, 3.0, -12.0]), np.array([1.0, -0.3, 1.2])):
        assert value(model, X, y, other) == pytest.approx(value(model, X, y, w), rel=1e-12)


def test_fisher_is_infinite_where_the_classes_project_to_two_points_as_the_fit_says():
    """Each class on a horizontal line: along (0, 1) the within-class scatter is 0 and J = +inf,
    the fit's own eigenvalue; along (1, 0) J is finite."""
    X = np.array([[0.0, 0.0], [1.0, 0.0], [2.5, 0.0], [0.5, 1.0], [1.5, 1.0], [3.0, 1.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    model = make_model("fisher").fit(X, y)
    assert model.eigenvalues_[0] == np.inf
    values = model.criterion_at(X, y, [[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [2.0, 1.0, 1e-3]])
    assert values[0] == np.inf and np.all(np.isfinite(values[1:]))
    with pytest.raises(DegenerateFitError, match="needs a direction"):
        model.criterion_at(X, y, [5.0, 0.0, 0.0])


def test_perceptron_on_seed003_worked_example():
    """Seed 003's table: w = [5, -6, 1] misclassifies points 2 and 3 (terms 4 and 8.1); after the
    first update [6, -4, 4] misclassifies points 4-6 (2, 2, 5.6); [5, -6, 3] separates (E_P = 0).
    Class 1 (the book's t = +1) is label 1, the back-end's positive class; class -1 is label -1."""
    X = np.array([[1, 2], [2, 3], [3, 4.9], [2, 1], [3, 2], [4, 3.9]], dtype=float)
    y = np.array([1, 1, 1, -1, -1, -1])
    model = make_model("perceptron")
    np.testing.assert_allclose(model.criterion_at(X, y, [[5, -6, 1], [6, -4, 4], [5, -6, 3]]), [12.1, 9.6, 0.0])
    np.testing.assert_allclose(model.criterion_terms(X, y, [5, -6, 1]).points, [0, 4, 8.1, 0, 0, 0])
    np.testing.assert_allclose(model.criterion_terms(X, y, [6, -4, 4]).points, [0, 0, 0, 2, 2, 5.6])
    assert criterion("perceptron", X, y, [5, -6, 1]) == pytest.approx(12.1)


def test_perceptron_is_zero_at_the_converged_fit_and_positive_at_misclassifying_lines():
    X, y = separable()
    model = make_model("perceptron").fit(X, y)
    assert model.converged_
    w = line(model)
    assert value(model, X, y, w) == 0.0
    assert value(model, X, y, np.zeros(3)) == 0.0  # every point on the boundary: in M, term 0
    assert value(model, X, y, -w) > 0
    # Piecewise linear: scaling a line scales E_P.
    other = np.array([1.0, -2.0, 0.5])
    assert value(model, X, y, 3 * other) == pytest.approx(3 * value(model, X, y, other), rel=1e-13)


def test_perceptron_counts_the_points_the_fit_updates_on():
    """M is the points with t w^T phi <= 0 (the fit's test): their terms are the positive ones or
    0 on the boundary, never a correctly classified point's."""
    X, y = overlapping()
    w = np.array([0.2, 1.0, -0.5])
    margins = targets(y) * activations(X, w)[:, 0]
    shares = make_model("perceptron").criterion_terms(X, y, w).points
    np.testing.assert_array_equal(shares > 0, margins < 0)
    np.testing.assert_allclose(shares[margins <= 0], -margins[margins <= 0])


# -- independent formulas ------------------------------------------------------------------------


def some_lines(n=25, seed=9):
    return np.random.default_rng(seed).normal(size=(n, 3)) * 2.0


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_cross_entropy_is_sklearn_log_loss(name):
    X, y = overlapping()
    model = make_model(name)
    for w in some_lines():
        p = scipy.special.expit(activations(X, w)[:, 0])
        assert value(model, X, y, w) == pytest.approx(log_loss(y, p, normalize=False, labels=[3, 7]), rel=1e-9)


def test_the_ridges_leave_the_bias_free():
    """Logistic and probit add (l2/2)|w1..wD|^2, softmax (l2/4)|w1..wD|^2 (its two weight vectors
    at their least-penalised split); Bayesian logistic's prior covers the bias too."""
    X, y = overlapping()
    w = np.array([5.0, 0.4, -0.3])
    for name, share in (("logistic", 0.5), ("probit", 0.5), ("softmax", 0.25)):
        plain, ridged = make_model(name), make_model(name, l2=2.0)
        assert value(ridged, X, y, w) - value(plain, X, y, w) == pytest.approx(share * 2.0 * 0.25, rel=1e-9)
    bayes = make_model("bayesian_logistic", alpha=2.0)
    assert value(bayes, X, y, w) - value(make_model("logistic"), X, y, w) == pytest.approx(0.5 * 2.0 * 25.25)


def test_probit_is_scipy_norm_logcdf():
    X, y = overlapping()
    model = make_model("probit")
    for w in some_lines():
        by_scipy = -np.sum(scipy.stats.norm.logcdf(targets(y) * activations(X, w)[:, 0]))
        assert value(model, X, y, w) == pytest.approx(by_scipy, rel=1e-12)
    far = np.array([0.0, 40.0, 40.0])  # ln Phi far in the lower tail, without underflow
    by_scipy = -np.sum(scipy.stats.norm.logcdf(targets(y) * activations(X, far)[:, 0]))
    assert value(model, X, y, far) == pytest.approx(by_scipy, rel=1e-12)


def test_bayesian_logistic_is_minus_its_log_posterior():
    X, y = overlapping()
    model = make_model("bayesian_logistic", alpha=3.0).fit(X, y)
    constant = 0.5 * 3 * np.log(3.0 / (2 * np.pi))  # the prior's normaliser, dropped by eq. 4.142
    W = some_lines()
    np.testing.assert_allclose(model.criterion_at(X, y, W), -(model.log_posterior(X, y, W) - constant), rtol=1e-12)


def test_svm_is_sklearn_hinge_loss_plus_half_the_squared_norm():
    X, y = overlapping()
    model = make_model("svm", C=0.7)
    t = targets(y)
    for w in some_lines():
        hinge = hinge_loss(t, activations(X, w)[:, 0]) * len(X)
        assert value(model, X, y, w) == pytest.approx(0.5 * w[1:] @ w[1:] + 0.7 * hinge, rel=1e-12)


def test_hard_margin_is_half_the_squared_norm_inside_the_constraints_and_inf_outside():
    X, y = separable()
    model = make_model("svm", C=None, tol=1e-6).fit(X, y)
    w = line(model)
    assert value(model, X, y, w) == pytest.approx(0.5 * w[1:] @ w[1:], rel=1e-12)
    assert value(model, X, y, 0.9 * w) == np.inf  # the support vectors' margins drop below 1
    rng = np.random.default_rng(3)
    others = model.criterion_at(X, y, w * rng.uniform(0.5, 3.0, (300, 1)) + rng.normal(0, 0.2, (300, 3)))
    assert np.all(others >= value(model, X, y, w) * (1 - 1e-9))
    assert np.isfinite(others).any() and np.isinf(others).any()
    shares = model.criterion_terms(X, y, 0.9 * w)
    assert set(np.unique(shares.points)) == {0.0, np.inf} and shares.total == np.inf
    overlap_X, overlap_y = overlapping()
    assert np.all(model.criterion_at(overlap_X, overlap_y, some_lines()) == np.inf)


# -- vectorised, shares, the public function --------------------------------------------------------


@pytest.mark.parametrize(("name", "params"), METHODS)
def test_ten_thousand_lines_at_once_equal_the_loop(name, params, monkeypatch):
    """M = 10,000 lines in one call give each line's value alone; blocks small enough that the
    stack is cut several times (the boundaries fall at uneven places)."""
    X, y = overlapping()
    monkeypatch.setattr(playground.criteria, "BLOCK_PAIRS", len(X) * 1237)
    model = make_model(name, **params)
    W = np.random.default_rng(4).normal(size=(10_000, 3)) * 3
    together = model.criterion_at(X, y, W)
    assert together.shape == (10_000,)
    picked = np.r_[0:10_000:7, 1236, 1237, 1238, 9_999]
    alone = np.array([value(model, X, y, W[i]) for i in picked])
    np.testing.assert_allclose(together[picked], alone, rtol=1e-12)


@pytest.mark.parametrize(("name", "params"), [m for m in METHODS if m[0] != "fisher"])
def test_the_shares_and_the_penalty_sum_to_the_criterion(name, params):
    X, y = overlapping()
    model = make_model(name, **params)
    for w in some_lines(5):
        shares = model.criterion_terms(X, y, w)
        assert isinstance(shares, CriterionTerms) and shares.points.shape == (len(X),)
        assert np.all(shares.points >= 0)
        assert shares.total == pytest.approx(value(model, X, y, w), rel=1e-12)


def test_each_share_is_the_methods_own_term():
    X, y = overlapping()
    t, w = targets(y), np.array([0.5, -1.0, 2.0])
    a = activations(X, w)[:, 0]
    expected = {
        "least_squares": (0.5 * (a - t) ** 2, 0.0),
        "logistic": (-np.log(scipy.special.expit(t * a)), 0.0),
        "probit": (-scipy.stats.norm.logcdf(t * a), 0.0),
        "svm": (np.maximum(0, 1 - t * a), 0.5 * 5.0),
        "perceptron": (np.maximum(0, -t * a), 0.0),
    }
    for name, (points, penalty) in expected.items():
        shares = make_model(name).criterion_terms(X, y, w)
        np.testing.assert_allclose(shares.points, points, rtol=1e-10, atol=1e-300)
        assert shares.penalty == pytest.approx(penalty)
    with pytest.raises(PlaygroundError, match="no shares of points"):
        make_model("fisher").criterion_terms(X, y, w)


def test_the_public_function_is_make_model_then_criterion_at():
    X, y = overlapping()
    w = [0.1, 0.8, -0.4]
    assert criterion("svm", X, y, w, C=2.5) == value(make_model("svm", C=2.5), X, y, w)
    assert isinstance(criterion("logistic", X, y, w), float)
    assert "criterion" in playground.__all__
    with pytest.raises(InvalidDataError, match="criterion_at"):
        criterion("logistic", X, y, [w, w])
    with pytest.raises(PlaygroundError, match="multi-class strategy"):
        criterion("logistic", X, y, w, multiclass="ovr")


def test_every_method_says_what_its_criterion_is():
    """On the class, never in a table keyed by name: a phrase, PRML's equation, min or max."""
    equations = {}
    for name, cls in MODELS.items():
        assert issubclass(cls, LineCriterion | DensityFit), name
        if issubclass(cls, DensityFit):
            assert not cls.criterion_defined
            continue
        assert cls.criterion_defined and cls.criterion_name and cls.criterion_equation
        equations[name] = (cls.criterion_equation, cls.criterion_maximised, cls.criterion_has_shares)
    assert equations == {
        "least_squares": ("4.15", False, True),
        "fisher": ("4.26", True, False),
        "perceptron": ("4.54", False, True),
        "logistic": ("4.90", False, True),
        "softmax": ("4.108", False, True),
        "probit": ("4.90", False, True),
        "bayesian_logistic": ("4.142", False, True),
        "svm": ("7.21", False, True),
    }


@pytest.mark.parametrize("name", DENSITIES)
def test_density_models_refuse_with_their_sentence(name):
    X, y = overlapping()
    model = make_model(name)
    for call in (lambda: model.criterion_at(X, y, [0, 1, 1]), lambda: criterion(name, X, y, [0, 1, 1])):
        with pytest.raises(PlaygroundError) as caught:
            call()
        assert "fits a density to each class by maximum likelihood" in str(caught.value)
        assert model.display_name in str(caught.value) and model.book_section in str(caught.value)
    with pytest.raises(PlaygroundError, match="density"):
        model.criterion_terms(X, y, [0, 1, 1])


# -- basis functions ---------------------------------------------------------------------------------


def test_a_basis_model_evaluates_the_method_in_phi_space():
    X, y = overlapping()
    basis = PolynomialBasis(degree=2)
    phi = basis.clone().fit_transform(X)  # 5 features: x1, x2, x1^2, x1 x2, x2^2
    w = np.array([0.2, 0.5, -0.3, 0.1, 0.05, -0.2])
    assert criterion("logistic", X, y, w, basis=basis) == value(make_model("logistic"), phi, y, w)
    model = make_model("logistic", basis=basis).fit(X, y)
    inner = line(model.estimator_)
    assert model.criterion_name == "cross-entropy" and model.criterion_equation == "4.90"
    found = scipy.optimize.minimize(lambda v: value(model, X, y, v), inner, method="Nelder-Mead")
    assert found.fun >= value(model, X, y, inner) - 1e-6
    with pytest.raises(InvalidDataError, match="feature space: w must have 6 numbers"):
        model.criterion_at(X, y, [0.0, 1.0, 1.0])
    terms = model.criterion_terms(X, y, w)
    assert terms.total == pytest.approx(value(model, X, y, w), rel=1e-12)


# -- degenerate input ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [name for name, _ in METHODS[::2]] + ["svm"])
def test_degenerate_input_gets_the_usual_messages(name):
    X, y = overlapping()
    model = make_model(name)
    with pytest.raises(InvalidDataError, match="only one class"):
        model.criterion_at(X, np.full(len(X), 3), [0, 1, 1])
    bad = X.copy()
    bad[4, 1] = np.nan
    with pytest.raises(InvalidDataError, match="NaN or infinite"):
        model.criterion_at(bad, y, [0, 1, 1])
    with pytest.raises(InvalidDataError, match=r"3 finite numbers \[w0, w1, \.\.\.\].*shape \(2,\)"):
        model.criterion_at(X, y, [1, 1])
    with pytest.raises(InvalidDataError, match="3 finite numbers"):
        model.criterion_at(X, y, [0, np.nan, 1])
    with pytest.raises(InvalidDataError, match="must lie between"):
        model.criterion_at(X, y, [0, 1e200, 1])
    three = np.where(np.arange(len(X)) % 3 == 0, 5, y)
    with pytest.raises(InvalidDataError, match="defined here for two classes.*the points have 3"):
        model.criterion_at(X, three, [0, 1, 1])


@pytest.mark.parametrize(("name", "params"), [m for m in METHODS if m[0] != "fisher"])
def test_zero_weights_and_large_margins_are_finite(name, params):
    X, y = overlapping()
    model = make_model(name, **params)
    values = model.criterion_at(X, y, [[0.0, 0.0, 0.0], [3.0, 1e4, -1e4], [0.0, 1e-300, 0.0]])
    assert np.all(np.isfinite(values))


def test_a_value_beyond_double_precision_is_an_error_not_inf():
    X, y = overlapping()
    X = X * 1e60  # activations near 1e160: their squares overflow
    for name in ("least_squares", "probit"):
        with pytest.raises(InvalidDataError, match="double precision"):
            make_model(name).criterion_at(X, y, [0.0, 1e100, 1e100])
    assert np.isfinite(value(make_model("logistic"), X, y, [0.0, 1e100, 1e100]))


def test_fisher_needs_two_points_per_class_as_its_fit():
    X = np.array([[0.0, 0.0], [1.0, 0.5], [2.0, 2.0]])
    with pytest.raises(DegenerateFitError, match="at least 2 points in each class"):
        make_model("fisher").criterion_at(X, [0, 0, 1], [0, 1, 1])


def test_bad_hyper_parameters_are_refused_as_the_fit_refuses_them():
    X, y = overlapping()
    for name, params, words in (
        ("least_squares", {"targets": "other"}, "targets must be"),
        ("logistic", {"l2": -1.0}, "l2 must be"),
        ("bayesian_logistic", {"alpha": 0.0}, "alpha must be between"),
        ("svm", {"C": -1.0}, "C must be"),
    ):
        with pytest.raises(InvalidDataError, match=words):
            criterion(name, X, y, [0, 1, 1], **params)
