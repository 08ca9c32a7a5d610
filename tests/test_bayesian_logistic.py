"""Bayesian logistic regression by the Laplace approximation (PRML 4.4-4.5), against independent
computations: scipy.optimize for w_MAP, the Hessian in closed form and by central differences,
the evidence (eq. 4.137) from those, and the predictive distribution by numerical integration
over the activation (scipy.integrate.quad of sigma(a) N(a | mu_a, sigma_a^2))."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import dblquad, quad
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from playground import (
    MODELS,
    BayesianLogisticRegression,
    InvalidDataError,
    PlaygroundError,
    PolynomialBasis,
    RBFBasis,
    Window,
    evaluate_grid,
    make_model,
)
from playground.bayesian_logistic import moderation
from tests.conftest import SEED003_X, clusters

SEED_Y = np.array([1, 1, 1, 0, 0, 0])
ALPHAS = (0.01, 0.1, 1.0, 10.0, 100.0)


def overlapping(seed, n=40, spread=(2.0, 1.5)):
    return clusters(2, n, seed=seed, spread=spread)


def separable(seed, n=20):
    return clusters(2, n, seed=seed, spread=(0.5, 0.3))


class Oracle:
    """The Laplace posterior computed independently: w_MAP by scipy's BFGS on the negative log
    posterior, S_N^-1 = alpha I + Phi^T R Phi in closed form, the evidence of eq. 4.137."""

    def __init__(self, features, y, positive, alpha):
        self.phi = np.column_stack([np.ones(len(features)), features])
        self.sign = np.where(np.asarray(y) == positive, 1.0, -1.0)
        self.alpha = alpha
        m = self.phi.shape[1]
        # scipy's trust-region Newton on the exact Hessian, then plain Newton steps until the
        # gradient is at rounding level (trust-exact may stop early on flat, separable
        # posteriors): the oracle's w_MAP must be far more accurate than the 1e-6 asked.
        result = minimize(
            self.objective,
            np.zeros(m),
            jac=True,
            hess=self.exact_hessian,
            method="trust-exact",
            options={"gtol": 1e-12},
        )
        w = result.x
        for _ in range(5):
            w = w - np.linalg.solve(self.exact_hessian(w), self.objective(w)[1])
        self.w = w
        self.hessian = self.exact_hessian(self.w)
        self.covariance = np.linalg.inv(self.hessian)
        log_joint = -self.objective(self.w)[0] + 0.5 * m * math.log(alpha / (2 * math.pi))
        self.log_evidence = log_joint + 0.5 * m * math.log(2 * math.pi) - 0.5 * np.linalg.slogdet(self.hessian)[1]

    def objective(self, w):
        """-ln p(t|w) + alpha/2 |w|^2 (eq. 4.142 negated, without constants) and its gradient."""
        z = self.sign * (self.phi @ w)
        value = -np.sum(log_expit(z)) + 0.5 * self.alpha * w @ w
        gradient = -self.phi.T @ (self.sign * expit(-z)) + self.alpha * w
        return value, gradient

    def exact_hessian(self, w):
        p = expit(self.phi @ w)
        return self.phi.T @ (self.phi * (p * (1 - p))[:, None]) + self.alpha * np.eye(w.size)

    def numeric_hessian(self, h=1e-5):
        m = self.w.size
        return np.array(
            [(self.objective(self.w + h * e)[1] - self.objective(self.w - h * e)[1]) / (2 * h) for e in np.eye(m)]
        )


def exact_predictive(mean, variance):
    """integral sigma(a) N(a | mean, variance) da by adaptive quadrature (eq. 4.153 before approximating)."""
    sd = math.sqrt(variance)
    if sd == 0:
        return float(expit(mean))

    def integrand(a):
        return expit(a) * math.exp(-0.5 * ((a - mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))

    return quad(integrand, mean - 14 * sd, mean + 14 * sd, epsabs=1e-13, epsrel=1e-12, limit=200)[0]


# -- w_MAP, S_N and the evidence against the independent computation ----------------------------


@pytest.mark.parametrize("alpha", ALPHAS)
@pytest.mark.parametrize("data", ["overlapping", "separable", "seed003"])
def test_laplace_posterior_matches_the_oracle(data, alpha):
    X, y = {"overlapping": overlapping(1), "separable": separable(2), "seed003": (SEED003_X, SEED_Y)}[data]
    model = make_model("bayesian_logistic", alpha=alpha).fit(X, y)
    oracle = Oracle(X, y, model.classes_[1], alpha)
    assert model.converged_ and model.fit_message_ == ""
    np.testing.assert_allclose(model.weights_, oracle.w, atol=1e-6)
    np.testing.assert_allclose(model.coef_, [oracle.w[1:]], atol=1e-6)
    np.testing.assert_allclose(model.intercept_, oracle.w[:1], atol=1e-6)
    np.testing.assert_allclose(model.covariance_, oracle.covariance, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(model.precision_, oracle.hessian, rtol=1e-6, atol=1e-9)
    assert model.log_evidence_ == pytest.approx(oracle.log_evidence, abs=1e-6)
    assert model.covariance_.shape == (3, 3) and np.allclose(model.covariance_, model.covariance_.T)
    assert np.all(np.linalg.eigvalsh(model.covariance_) > 0)


@pytest.mark.parametrize("alpha", [0.05, 2.0])
def test_hessian_at_w_map_equals_central_differences(alpha):
    X, y = overlapping(3)
    model = make_model("bayesian_logistic", alpha=alpha).fit(X, y)
    oracle = Oracle(X, y, model.classes_[1], alpha)
    np.testing.assert_allclose(model.precision_, oracle.numeric_hessian(), rtol=1e-6)
    np.testing.assert_allclose(model.covariance_ @ model.precision_, np.eye(3), atol=1e-9)
    # The gradient of the log posterior vanishes at w_MAP.
    np.testing.assert_allclose(oracle.objective(model.weights_)[1], 0.0, atol=1e-8)


@pytest.mark.parametrize("alpha", [0.1, 1.0, 10.0])
def test_through_bases_matches_the_oracle_on_the_features(alpha):
    X, y = overlapping(4, n=30)
    for basis in (PolynomialBasis(3), RBFBasis(n_centres=4, width=1.5, include_input=True)):
        model = make_model("bayesian_logistic", alpha=alpha, basis=basis).fit(X, y)
        features = model.features(X)
        oracle = Oracle(features, y, model.classes_[1], alpha)
        inner = model.estimator_
        np.testing.assert_allclose(inner.weights_, oracle.w, atol=1e-6)
        np.testing.assert_allclose(model.covariance_, oracle.covariance, rtol=1e-6, atol=1e-9)
        assert model.log_evidence_ == pytest.approx(oracle.log_evidence, abs=1e-6)
        # Every point-taking method goes through phi(x).
        grid = np.random.default_rng(0).uniform(-6, 6, size=(50, 2))
        phi = model.features(grid)
        np.testing.assert_allclose(model.predict_proba(grid), inner.predict_proba(phi))
        np.testing.assert_allclose(model.predict_proba_map(grid), inner.predict_proba_map(phi))
        mean, variance = model.predictive_moments(grid)
        design = np.column_stack([np.ones(len(phi)), phi])
        np.testing.assert_allclose(mean, design @ oracle.w, atol=1e-5)
        np.testing.assert_allclose(variance, np.sum(design @ oracle.covariance * design, axis=1), rtol=1e-5)
        np.testing.assert_allclose(model.sample_weights(3, 5), inner.sample_weights(3, 5))
        np.testing.assert_allclose(model.sample_activations(grid, 3, 5), inner.sample_activations(phi, 3, 5))
        assert model.log_posterior(X, y, inner.weights_) == pytest.approx(
            inner.log_posterior(features, y, inner.weights_)
        )
        assert model.posterior_along(X, y)["std"] == pytest.approx(inner.posterior_along(features, y)["std"])


def test_laplace_evidence_is_close_to_the_true_marginal_likelihood():
    """With one input (two weights) the evidence integral is a 2-D quadrature: the Laplace value
    (eq. 4.137) is within a few hundredths of a nat on 60 overlapping points."""
    rng = np.random.default_rng(5)
    x = np.r_[rng.normal(-1, 1, 30), rng.normal(1, 1, 30)][:, None]
    y = np.repeat([0, 1], 30)
    alpha = 0.5
    model = make_model("bayesian_logistic", alpha=alpha).fit(x, y)
    w0, w1 = model.weights_
    sd = np.sqrt(np.diag(model.covariance_))
    peak = model.log_posterior(x, y, model.weights_)

    def joint(b, a):  # exp(ln p(t|w) + ln p(w) - peak)
        return math.exp(model.log_posterior(x, y, np.array([a, b])) - peak)

    integral = dblquad(joint, w0 - 9 * sd[0], w0 + 9 * sd[0], w1 - 9 * sd[1], w1 + 9 * sd[1], epsabs=1e-10)[0]
    exact = peak + math.log(integral)
    assert model.log_evidence_ == pytest.approx(exact, abs=0.05)
    assert model.log_posterior_ == pytest.approx(peak, rel=1e-12)


def test_small_alpha_tends_to_maximum_likelihood_and_large_alpha_to_the_prior():
    X, y = overlapping(6)
    ml = make_model("logistic").fit(X, y)
    weak = make_model("bayesian_logistic", alpha=1e-8).fit(X, y)
    np.testing.assert_allclose(weak.weights_, ml.weights_, atol=1e-5)
    strong = make_model("bayesian_logistic", alpha=1e8).fit(X, y)
    np.testing.assert_allclose(strong.weights_, 0.0, atol=1e-6)
    np.testing.assert_allclose(strong.covariance_, np.eye(3) / 1e8, rtol=1e-4, atol=1e-14)
    np.testing.assert_allclose(strong.predict_proba(X), 0.5, atol=1e-5)


# -- the predictive distribution ------------------------------------------------------------------


def test_moderated_predictive_is_the_books_formula():
    X, y = overlapping(7)
    model = make_model("bayesian_logistic", alpha=0.5).fit(X, y)
    oracle = Oracle(X, y, model.classes_[1], 0.5)
    grid = np.random.default_rng(1).uniform(-10, 10, size=(500, 2))
    design = np.column_stack([np.ones(len(grid)), grid])
    mean = design @ oracle.w  # eq. 4.149
    variance = np.sum(design @ oracle.covariance * design, axis=1)  # eq. 4.150
    mu, var = model.predictive_moments(grid)
    np.testing.assert_allclose(mu, mean, atol=1e-6)
    np.testing.assert_allclose(var, variance, rtol=1e-6)
    kappa = 1 / np.sqrt(1 + np.pi * variance / 8)  # eq. 4.154
    np.testing.assert_allclose(moderation(variance), kappa, rtol=1e-14)
    expected = expit(kappa * mean)  # eq. 4.155
    proba = model.predict_proba(grid)
    np.testing.assert_allclose(proba[:, 1], expected, atol=1e-6)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(model.predict_log_proba(grid), np.log(proba), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(model.predict_proba_map(grid)[:, 1], expit(mean), atol=1e-6)
    np.testing.assert_allclose(model.decision_function(grid), mean, atol=1e-6)


def test_the_probit_approximation_is_close_to_the_integral():
    """Eq. 4.155 against the exact integral (4.153) by quadrature: at the fitted model's points,
    and over a sweep of (mu_a, sigma_a^2). The largest difference is under 0.02 (it approaches
    about 0.018 where mu_a and sigma_a both grow); MAP is much further off."""
    X, y = separable(8)
    model = make_model("bayesian_logistic", alpha=0.1).fit(X, y)
    grid = np.random.default_rng(2).uniform(-8, 8, size=(200, 2))
    mean, variance = model.predictive_moments(grid)
    exact = np.array([exact_predictive(m, v) for m, v in zip(mean, variance)])
    moderated = model.predict_proba(grid)[:, 1]
    plain = model.predict_proba_map(grid)[:, 1]
    assert np.max(np.abs(moderated - exact)) < 0.02
    assert np.max(np.abs(plain - exact)) > 0.1  # the MAP sigmoid is over-confident away from the data
    sweep = [(m, v) for m in np.linspace(-8, 8, 17) for v in np.logspace(-2, 2.5, 10)]
    differences = [abs(exact_predictive(m, v) - expit(moderation(v) * m)) for m, v in sweep]
    assert max(differences) < 0.02
    assert abs(exact_predictive(0.0, 5.0) - 0.5) < 1e-12  # symmetric: exactly 1/2 on the boundary


def test_predictive_is_less_confident_than_map_and_predicts_like_map():
    X, y = separable(9)
    model = make_model("bayesian_logistic", alpha=0.01).fit(X, y)
    grid = np.random.default_rng(3).uniform(-15, 15, size=(2000, 2))
    moderated = model.predict_proba(grid)[:, 1]
    plain = model.predict_proba_map(grid)[:, 1]
    assert np.all(np.abs(moderated - 0.5) <= np.abs(plain - 0.5) + 1e-12)
    assert np.all(np.sign(moderated - 0.5) == np.sign(plain - 0.5))
    mean, _ = model.predictive_moments(grid)
    labels = model.classes_[(mean > 0).astype(int)]
    np.testing.assert_array_equal(model.predict(grid), labels)
    np.testing.assert_array_equal(model.predict(grid), model.classes_[np.argmax(model.predict_proba(grid), axis=1)])
    # Far from the data the predictive relaxes towards 1/2 while MAP stays near 0 or 1.
    far = np.array([[60.0, -60.0], [-60.0, 60.0]])
    assert np.all(np.abs(model.predict_proba(far)[:, 1] - 0.5) < np.abs(model.predict_proba_map(far)[:, 1] - 0.5))


def test_positive_class_is_the_larger_label():
    X, y = overlapping(10)
    labels = np.where(y == 0, 9, -4)
    model = make_model("bayesian_logistic").fit(X, labels)
    np.testing.assert_array_equal(model.classes_, [-4, 9])
    oracle = Oracle(X, labels, 9, 1.0)
    np.testing.assert_allclose(model.weights_, oracle.w, atol=1e-6)


# -- the posterior over the weights -----------------------------------------------------------


def test_sample_weights_are_seeded_draws_from_the_laplace_posterior():
    X, y = overlapping(11)
    model = make_model("bayesian_logistic", alpha=0.3).fit(X, y)
    first = model.sample_weights(2000, random_state=4)
    np.testing.assert_array_equal(first, model.sample_weights(2000, random_state=4))
    assert not np.allclose(first, model.sample_weights(2000, random_state=5))
    assert first.shape == (2000, 3)
    many = model.sample_weights(10_000, random_state=6)
    assert np.all(np.abs(many.mean(axis=0) - model.weights_) < 4 * np.sqrt(np.diag(model.covariance_) / 10_000))
    np.testing.assert_allclose(np.cov(many.T), model.covariance_, rtol=0.06, atol=0.06 * np.max(model.covariance_))
    grid = np.random.default_rng(7).normal(size=(30, 2))
    activations = model.sample_activations(grid, 5, random_state=8)
    weights = model.sample_weights(5, random_state=8)
    np.testing.assert_allclose(activations, grid @ weights[:, 1:].T + weights[:, 0])


def test_log_posterior_and_the_line_through_w_map():
    X, y = overlapping(12)
    model = make_model("bayesian_logistic", alpha=0.7).fit(X, y)
    oracle = Oracle(X, y, model.classes_[1], 0.7)
    constant = 1.5 * math.log(0.7 / (2 * math.pi))
    W = model.sample_weights(7, 0)
    expected = [-oracle.objective(w)[0] + constant for w in W]
    np.testing.assert_allclose(model.log_posterior(X, y, W), expected, rtol=1e-10)
    assert model.log_posterior(X, y, model.weights_) == pytest.approx(model.log_posterior_, rel=1e-10)
    line = model.posterior_along(X, y)
    v = line["direction"]
    eigenvalues, eigenvectors = np.linalg.eigh(model.covariance_)
    assert abs(v @ eigenvectors[:, -1]) == pytest.approx(1.0) and np.linalg.norm(v) == pytest.approx(1.0)
    assert line["std"] == pytest.approx(math.sqrt(eigenvalues[-1]), rel=1e-9)
    offsets = line["offsets"]
    assert offsets.size == 201 and offsets[0] == pytest.approx(-4 * line["std"]) and offsets[100] == 0
    np.testing.assert_allclose(line["weights"], model.weights_ + offsets[:, None] * v)
    assert line["log_posterior"][100] == pytest.approx(0.0, abs=1e-12)
    # The Laplace approximation is the second-order expansion at the mode: near 0 they agree to O(s^3).
    near = np.abs(offsets) <= 0.2 * line["std"]
    np.testing.assert_allclose(line["log_posterior"][near], line["log_laplace"][near], atol=1e-3)
    assert np.all(line["log_posterior"] <= 1e-12)  # w_MAP is the maximum
    custom = model.posterior_along(X, y, direction=[0, 0, 2.0], offsets=[-1.0, 0.0, 1.0])
    np.testing.assert_allclose(custom["direction"], [0, 0, 1])
    np.testing.assert_allclose(custom["log_laplace"], -0.5 * model.precision_[2, 2] * np.array([1.0, 0, 1.0]))


def test_covariance_ellipse_lies_on_the_level_set():
    X, y = overlapping(13)
    model = make_model("bayesian_logistic").fit(X, y)
    points = model.covariance_ellipse(1, 2, n_std=2.0, n_points=60)
    assert points.shape == (60, 2)
    np.testing.assert_allclose(points[0], points[-1])
    block = model.covariance_[1:, 1:]
    centred = points - model.weights_[1:]
    np.testing.assert_allclose(np.sum(centred @ np.linalg.inv(block) * centred, axis=1), 4.0, rtol=1e-9)
    with pytest.raises(InvalidDataError, match="two different"):
        model.covariance_ellipse(1, 1)
    with pytest.raises(InvalidDataError, match="from 0"):
        model.covariance_ellipse(0, 3)


# -- fitting details, strategies, degenerate data --------------------------------------------------


def test_history_records_newtons_climb():
    X, y = overlapping(14)
    model = make_model("bayesian_logistic", alpha=0.2, w_init=[1.0, -1.0, 1.0]).fit(X, y)
    assert len(model.history_) == model.n_iter_ + 1
    np.testing.assert_allclose(model.history_[0]["w"], [1.0, -1.0, 1.0])
    posts = [h["log_posterior"] for h in model.history_]
    assert np.all(np.diff(posts) >= -1e-9)
    for entry in model.history_:
        assert set(entry) == {"iteration", "w", "log_likelihood", "log_posterior"}
        assert entry["log_posterior"] == pytest.approx(model.log_posterior(X, y, entry["w"]), rel=1e-9)
    np.testing.assert_allclose(model.history_[-1]["w"], model.weights_)
    assert not hasattr(model, "at_step")  # the Laplace approximation exists at the mode only
    limited = make_model("bayesian_logistic", max_iter=1).fit(X, y)
    assert not limited.converged_
    assert limited.fit_message_ == (
        "Bayesian logistic regression did not converge in 1 update; raise the maximum iterations (max_iter)."
    )


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
def test_multiclass_strategies_fit_each_subproblem_exactly(strategy):
    X, y = clusters(3, 25, seed=15, spread=(1.5, 1.0))
    with pytest.raises(InvalidDataError, match="one-versus-rest"):
        make_model("bayesian_logistic").fit(X, y)
    model = make_model("bayesian_logistic", multiclass=strategy, alpha=0.3).fit(X, y)
    for estimator in model.estimators_:
        rows = np.isin(y, estimator.classes_) if strategy == "ovo" else np.ones(len(y), dtype=bool)
        labels = y[rows] if strategy == "ovo" else np.where(y == estimator.classes_[1], estimator.classes_[1], -1)
        oracle = Oracle(X[rows], labels, estimator.classes_[1], 0.3)
        np.testing.assert_allclose(estimator.weights_, oracle.w, atol=1e-6)
        np.testing.assert_allclose(estimator.covariance_, oracle.covariance, rtol=1e-6, atol=1e-9)
    assert np.mean(model.predict(X) == y) > 0.8
    if strategy == "ovr":
        proba = model.predict_proba(X)
        np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_one_class_is_refused_with_a_sentence():
    with pytest.raises(InvalidDataError, match="at least 2 classes"):
        make_model("bayesian_logistic").fit(np.zeros((3, 2)), [1, 1, 1])


@pytest.mark.parametrize(
    "X, y",
    [
        (np.array([[0.0, 0], [1, 0]]), [0, 1]),  # one point per class: the prior keeps w finite
        (np.array([[1.0, 1], [1, 1]]), [0, 1]),  # both labels at one point
        (np.array([[0.0, 0], [0, 0], [2, 1], [2, 1]]), [0, 0, 1, 1]),  # duplicates
        (np.array([[0.0, 0], [1, 1], [2, 2], [3, 3]]), [0, 0, 1, 1]),  # collinear
        (np.array([[0.0, 5], [1, 5], [2, 5], [3, 5]]), [0, 1, 0, 1]),  # constant feature
    ],
)
@pytest.mark.parametrize("alpha", [1e-8, 1.0])
def test_degenerate_data_give_a_finite_posterior(X, y, alpha):
    model = make_model("bayesian_logistic", alpha=alpha).fit(X, y)
    oracle = Oracle(X, y, 1, alpha)
    if alpha == 1.0:
        np.testing.assert_allclose(model.weights_, oracle.w, atol=1e-6)
        np.testing.assert_allclose(model.covariance_, oracle.covariance, rtol=1e-6, atol=1e-9)
    values = [model.weights_, model.covariance_, model.precision_, model.log_evidence_]
    assert all(np.all(np.isfinite(v)) for v in values)
    assert np.all(np.linalg.eigvalsh(model.covariance_) > 0)
    result = evaluate_grid(model, Window(-3, 5, -3, 8), resolution=15)
    assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    if np.all(X == 1):
        np.testing.assert_allclose(model.weights_, 0.0, atol=1e-12)  # symmetric: w_MAP = 0
        np.testing.assert_allclose(model.predict_proba(X), 0.5)


@pytest.mark.parametrize("offset", [1e3, -1e3])
def test_shifted_and_scaled_inputs_stay_accurate(offset):
    # The prior is not shift-invariant, so the oracle is refitted on the shifted data.
    X, y = overlapping(16)
    for data in (X + offset, X * 1e3, X * 1e-3):
        model = make_model("bayesian_logistic", alpha=0.1).fit(data, y)
        oracle = Oracle(data, y, 1, 0.1)
        np.testing.assert_allclose(model.predict_proba_map(data)[:, 1], expit(oracle.phi @ oracle.w), atol=1e-6)
        np.testing.assert_allclose(model.covariance_, oracle.covariance, rtol=1e-5, atol=1e-12)


@settings(max_examples=50, deadline=None)
@given(
    points=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 1)), min_size=1, max_size=12),
    scale=st.sampled_from([1e-9, 1.0, 1e9]),
    shift=st.sampled_from([0.0, 1e9]),
    alpha=st.sampled_from([1e-8, 1e-2, 1.0, 1e8]),
)
def test_degenerate_data_give_finite_grids_or_a_sentence(points, scale, shift, alpha):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale + shift, data[:, 2].astype(int)
    try:
        model = make_model("bayesian_logistic", alpha=alpha).fit(X, y)
    except PlaygroundError as err:
        assert str(err).endswith(".")
        return
    result = evaluate_grid(model, Window.around(X), resolution=12)
    assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    np.testing.assert_allclose(result.proba.sum(axis=-1), 1.0, atol=1e-9)
    assert np.all(np.isfinite(model.covariance_)) and np.isfinite(model.log_evidence_)
    assert np.all(np.isfinite(model.sample_weights(3)))


@pytest.mark.parametrize(
    "params, message",
    [
        ({"alpha": 0}, "between 1e-08 and 1e\\+08"),
        ({"alpha": -1.0}, "between"),
        ({"alpha": np.nan}, "between"),
        ({"alpha": True}, "must be a number"),
        ({"alpha": "1"}, "must be a number"),
        ({"alpha": 1e9}, "between"),
        ({"max_iter": -1}, "max_iter"),
        ({"tol": -1.0}, "tol must be"),
        ({"w_init": [1, 2]}, "3 finite numbers"),
    ],
)
def test_bad_parameters_give_a_sentence(params, message):
    with pytest.raises(InvalidDataError, match=message):
        make_model("bayesian_logistic", **params).fit(*overlapping(17))


def test_bad_arguments_to_the_posterior_methods():
    X, y = overlapping(18)
    model = make_model("bayesian_logistic").fit(X, y)
    with pytest.raises(InvalidDataError, match="samples"):
        model.sample_weights(0)
    with pytest.raises(InvalidDataError, match="random_state"):
        model.sample_weights(3, random_state=-1)
    with pytest.raises(InvalidDataError, match="not all zero"):
        model.posterior_along(X, y, direction=[0, 0, 0])
    with pytest.raises(InvalidDataError, match="not one of the fitted classes"):
        model.log_posterior(X, np.full(len(X), 5), model.weights_)
    with pytest.raises(InvalidDataError, match="rows of 3"):
        model.log_posterior(X, y, [1.0, 2.0])
    with pytest.raises(PlaygroundError, match="not been fitted"):
        BayesianLogisticRegression().sample_weights(2)


def test_registry_entry():
    assert MODELS["bayesian_logistic"] is BayesianLogisticRegression
    names = list(MODELS)
    assert names.index("bayesian_logistic") == names.index("probit") + 1  # book order: 4.3.5, then 4.4-4.5
    assert BayesianLogisticRegression.section == "4.4–4.5"
    assert BayesianLogisticRegression().get_params() == {"alpha": 1.0, "max_iter": 100, "tol": 1e-8, "w_init": None}


# -- in the app (the minimum this phase: selectable, with an alpha slider that a link carries) ------


def test_the_app_fits_it_with_an_alpha_slider_that_a_link_carries():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    from ui.session.widget_values import widget_state

    app_file = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
    at = AppTest.from_file(app_file, default_timeout=60).run()
    at.selectbox(key="method").set_value("bayesian_logistic").run()
    # Three clusters and a two-class method: one-versus-rest at once, and the sidebar says so.
    assert not at.exception and not at.warning and at.session_state.scene.multiclass == "ovr"
    assert any("has no K-class discriminant" in c.value for c in at.caption)
    at.select_slider(key="bayes_alpha").set_value(0.1).run()
    assert not at.exception and not at.warning
    assert at.session_state.scene.params == (("alpha", 0.1),)
    copy = AppTest.from_file(app_file, default_timeout=60)
    for name, value in at.query_params.items():
        copy.query_params[name] = value
    copy.run()
    assert not copy.exception and copy.select_slider(key="bayes_alpha").value == 0.1
    values, messages = widget_state("bayesian_logistic", {"alpha": 7.0}, [0, 1])
    assert values == {"bayes_alpha": 1.0} and "alpha = 7.0" in messages[0]


def test_figure_4_9_the_scaled_probit_matches_the_sigmoid():
    """sigma(a) against Phi(lambda a), lambda^2 = pi/8: equal slopes at 0 and a largest gap under 0.02."""
    from scipy.special import ndtr

    from playground.bayesian_logistic import PROBIT_LAMBDA
    from playground.normal import normal_cdf

    a = np.linspace(-10, 10, 20_001)
    gap = np.abs(expit(a) - normal_cdf(PROBIT_LAMBDA * a))
    assert PROBIT_LAMBDA**2 == pytest.approx(np.pi / 8)
    np.testing.assert_allclose(normal_cdf(PROBIT_LAMBDA * a), ndtr(PROBIT_LAMBDA * a), rtol=1e-13)
    assert 0.015 < gap.max() < 0.02
    h = 1e-6
    slope = (normal_cdf(np.array([PROBIT_LAMBDA * h])) - normal_cdf(np.array([-PROBIT_LAMBDA * h]))) / (2 * h)
    assert slope[0] == pytest.approx(0.25, rel=1e-8)  # sigma'(0) = 1/4


@pytest.mark.parametrize("factor", [1e-190, 1e-7, 1e4])
def test_features_of_very_different_sizes(factor):
    """A Gaussian basis function far from every point is ~1e-190 everywhere: its weight is the
    prior's (w = 0, variance 1/alpha), and the others are unaffected. (Scaling by the root mean
    square alone made the prior term overflow, and Newton's least-squares step dropped the
    data's directions beside it.)"""
    X, y = overlapping(19, n=30)
    features = np.column_stack([X, factor * np.exp(-((X[:, 0] - 1) ** 2))])
    model = make_model("bayesian_logistic", alpha=0.5).fit(features, y)
    oracle = Oracle(features, y, 1, 0.5)
    assert model.converged_
    np.testing.assert_allclose(model.weights_, oracle.w, atol=1e-6)
    np.testing.assert_allclose(model.covariance_, oracle.covariance, rtol=1e-6, atol=1e-9)
    assert model.log_evidence_ == pytest.approx(oracle.log_evidence, abs=1e-6)
    if factor < 1e-100:
        assert model.covariance_[3, 3] == pytest.approx(1 / 0.5) and abs(model.weights_[3]) < 1e-100


def test_a_basis_function_far_from_every_point():
    """The property-test example that made the Newton solve fail (an RBF feature of 1e-196)."""
    X = np.array([[0.0, 0.0]] * 8 + [[0.0, -100.0], [30.0, -73.125]])
    y = np.array([0] * 9 + [1])
    model = make_model("bayesian_logistic", basis=RBFBasis(n_centres=4)).fit(X, y)
    oracle = Oracle(model.features(X), y, 1, 1.0)
    np.testing.assert_allclose(model.estimator_.weights_, oracle.w, atol=1e-6)
    assert np.all(np.isfinite(model.covariance_)) and np.isfinite(model.log_evidence_)


@pytest.mark.parametrize("basis", [None, "poly6", "rbf"])
def test_predict_proba_is_the_moderated_sigmoid_of_the_predictive_moments(basis):
    """predict_proba forms 1 + (pi/8) sigma_a^2 from its own factors (one square fewer than
    phi^T S_N phi, ``_moderation_factors``): the same numbers as sigma(kappa(sigma_a^2) mu_a) from
    predictive_moments and moderation, to rounding, also on a degree-6 polynomial basis (features
    from 1 to x^6) and a Gaussian one, and after S_N is edited in place."""
    from playground.base import two_class_proba

    X, y = overlapping(21)
    chosen = {None: None, "poly6": PolynomialBasis(6), "rbf": RBFBasis()}[basis]
    model = make_model("bayesian_logistic", alpha=0.5, basis=chosen).fit(X, y)
    estimator = getattr(model, "estimator_", model)
    grid = np.random.default_rng(5).uniform(-10, 10, size=(3_000, 2))
    features = model.features(grid) if chosen is not None else grid
    for _ in range(2):
        mean, variance = estimator.predictive_moments(features)
        expected = two_class_proba(mean * moderation(variance))
        np.testing.assert_allclose(model.predict_proba(grid), expected, rtol=1e-12, atol=0)
        np.testing.assert_allclose(model.predict_log_proba(grid), np.log(expected), rtol=1e-12, atol=1e-300)
        estimator.covariance_ *= 4.0  # an edited S_N: the factors follow it
