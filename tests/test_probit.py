"""Probit regression (PRML 4.3.5) and the normal CDF behind it, against scipy.

Oracles: scipy.special (ndtr, log_ndtr, erfcx) for Phi, ln Phi and phi/Phi; scipy.optimize's
BFGS on the probit log-likelihood (written with log_ndtr) for the maximum-likelihood weights;
central differences of that log-likelihood's gradient for the Hessian Newton's method uses.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.special import erfcx, log_ndtr, ndtr

from playground import (
    InvalidDataError,
    PlaygroundError,
    PolynomialBasis,
    ProbitRegression,
    Window,
    evaluate_grid,
    make_model,
)
from playground.normal import log_normal_cdf, normal_cdf, normal_cdf_pair, normal_pdf, pdf_over_cdf
from playground.probit import _ProbitProblem
from tests.conftest import SEED003_X, clusters

SEED_Y = np.array([1, 1, 1, 0, 0, 0])


# -- the normal CDF ------------------------------------------------------------------------------

WIDE = np.concatenate(
    [
        np.linspace(-60, 60, 120_001),
        -np.logspace(0, 150, 600),
        np.logspace(0, 150, 600),
        [0.0, 0.67448975, -0.67448975, np.sqrt(32), -np.sqrt(32), 1e-300, -1e-300, 5e-324],
    ]
)


def test_normal_cdf_matches_scipy_ndtr():
    ours, reference = normal_cdf(WIDE), ndtr(WIDE)
    shown = reference > 1e-300  # below, both are (sub)normal zeros
    # scipy's own relative error reaches 2.4e-13 near x = -37 (ours agrees with an exact
    # evaluation there to 2e-16); 1e-15 absolute near Phi = 1.
    np.testing.assert_allclose(ours[shown], reference[shown], rtol=5e-13, atol=0)
    assert np.all(ours[~shown] < 1e-300) and np.all(ours >= 0) and np.all(ours <= 1)
    assert np.all(np.diff(normal_cdf(np.linspace(-40, 10, 5001))) >= 0)


def test_log_normal_cdf_matches_scipy_log_ndtr_without_underflow():
    ours, reference = log_normal_cdf(WIDE), log_ndtr(WIDE)
    np.testing.assert_allclose(ours, reference, rtol=5e-13, atol=1e-300)
    # Far in the lower tail: ln Phi(x) ~ -x^2/2 - ln(-x sqrt(2 pi)), finite, no underflow.
    x = np.array([-40.0, -1e3, -1e6, -1e20, -1e100])
    np.testing.assert_allclose(log_normal_cdf(x), log_ndtr(x), rtol=1e-14)
    assert np.all(np.isfinite(log_normal_cdf(x)))


def test_normal_cdf_pair_columns_sum_to_one_and_keep_their_precision():
    x = np.linspace(-40, 40, 8001)
    pair = normal_cdf_pair(x)
    assert pair.shape == (x.size, 2)
    np.testing.assert_allclose(pair.sum(axis=1), 1.0, atol=1e-15)
    np.testing.assert_allclose(pair[:, 0], ndtr(-x), rtol=5e-13, atol=1e-300)
    np.testing.assert_allclose(pair[:, 1], ndtr(x), rtol=5e-13, atol=1e-300)
    logs = normal_cdf_pair(x, log=True)
    np.testing.assert_allclose(logs, np.column_stack([log_ndtr(-x), log_ndtr(x)]), rtol=5e-13, atol=1e-300)


def test_shapes_and_infinite_arguments():
    assert normal_cdf(0.0) == pytest.approx(0.5) and np.ndim(normal_cdf(0.0)) == 0
    grid = np.linspace(-3, 3, 12).reshape(3, 4)
    np.testing.assert_allclose(normal_cdf(grid), ndtr(grid), rtol=1e-14)
    np.testing.assert_allclose(log_normal_cdf(grid), log_ndtr(grid), rtol=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or invalid-value warnings either
        np.testing.assert_array_equal(normal_cdf(np.array([-np.inf, np.inf])), [0.0, 1.0])
        assert log_normal_cdf(np.array([np.inf]))[0] == 0.0
        ratio, curvature = pdf_over_cdf(np.array([-np.inf, -1e300, 1e300, np.inf]))
    assert np.all(np.isfinite(ratio)) and np.all(np.isfinite(curvature))
    np.testing.assert_allclose(curvature, [1.0, 1.0, 0.0, 0.0])


def test_normal_pdf():
    x = np.linspace(-38, 38, 1001)
    np.testing.assert_allclose(normal_pdf(x), np.exp(-(x**2) / 2) / np.sqrt(2 * np.pi), rtol=1e-13)


def test_pdf_over_cdf_and_its_curvature():
    """lambda = phi/Phi = d ln Phi/dx and lambda (lambda + x) = -d^2 ln Phi/dx^2, the probit's
    IRLS weights; oracle: lambda = sqrt(2/pi) / erfcx(-x/sqrt 2) for x < 0 (no underflow)."""
    x = np.concatenate([np.linspace(-50, 35, 85_001), -np.logspace(0, 100, 300)])
    with np.errstate(all="ignore"):  # np.where evaluates both branches everywhere
        reference = np.where(
            x < 0,
            np.sqrt(2 / np.pi) / erfcx(-x / np.sqrt(2)),
            np.exp(-(np.minimum(x, 40) ** 2) / 2) / np.sqrt(2 * np.pi) / ndtr(x),
        )
    ratio, curvature = pdf_over_cdf(x)
    np.testing.assert_allclose(ratio, reference, rtol=1e-12)
    moderate = x > -5  # lambda (lambda + x) evaluated directly is accurate only where it does not cancel
    np.testing.assert_allclose(curvature[moderate], (reference * (reference + x))[moderate], rtol=1e-12)
    # Everywhere: 0 < curvature < 1, tending to 1 - 1/x^2 + 6/x^4 as x -> -inf (not a cancelled 0).
    assert np.all(curvature >= 0) and np.all(curvature < 1 + 1e-15)
    far = x < -1e3
    inverse_square = 1 / x[far] ** 2
    np.testing.assert_allclose(curvature[far], 1 - inverse_square + 6 * inverse_square**2, rtol=1e-14)
    # The derivative of ln Phi, by central differences of scipy's log_ndtr.
    points = np.array([-30.0, -8.0, -2.0, -0.3, 0.0, 0.5, 2.0, 6.0])
    h = 1e-5
    slope = (log_ndtr(points + h) - log_ndtr(points - h)) / (2 * h)
    bend = -(log_ndtr(points + h) - 2 * log_ndtr(points) + log_ndtr(points - h)) / h**2
    np.testing.assert_allclose(pdf_over_cdf(points)[0], slope, rtol=1e-7, atol=1e-12)
    np.testing.assert_allclose(pdf_over_cdf(points)[1], bend, rtol=2e-3, atol=1e-6)


# -- maximum likelihood ----------------------------------------------------------------------


def overlapping(seed, n=50, spread=(2.0, 1.5)):
    return clusters(2, n, seed=seed, spread=spread)


def oracle_weights(features, y, positive, l2=0.0):
    """The probit ML (or ridge) weights [w0, w1, ...] by scipy's BFGS on -sum ln Phi(s w^T phi)."""
    phi = np.column_stack([np.ones(len(features)), features])
    sign = np.where(np.asarray(y) == positive, 1.0, -1.0)
    ridge = np.r_[0.0, np.full(phi.shape[1] - 1, l2)]

    def objective(w):
        z = sign * (phi @ w)
        lam = np.exp(-0.5 * z**2 - 0.5 * np.log(2 * np.pi) - log_ndtr(z))
        return -np.sum(log_ndtr(z)) + 0.5 * np.sum(ridge * w**2), -phi.T @ (sign * lam) + ridge * w

    result = minimize(objective, np.zeros(phi.shape[1]), jac=True, method="BFGS", options={"gtol": 1e-11})
    return result.x, objective


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_maximum_likelihood_matches_scipy(seed):
    X, y = overlapping(seed)
    model = make_model("probit").fit(X, y)
    expected, _ = oracle_weights(X, y, model.classes_[1])
    assert model.converged_ and model.fit_message_ == ""
    np.testing.assert_allclose(model.weights_, expected, atol=1e-6)
    np.testing.assert_allclose(model.coef_, [expected[1:]], atol=1e-6)
    np.testing.assert_allclose(model.intercept_, expected[:1], atol=1e-6)
    assert model.coef_.shape == (1, 2) and model.intercept_.shape == (1,)
    a = X @ expected[1:] + expected[0]
    np.testing.assert_allclose(model.decision_function(X), a, atol=1e-5)
    np.testing.assert_allclose(model.predict_proba(X), np.column_stack([ndtr(-a), ndtr(a)]), atol=1e-6)
    fitted = model.decision_function(X)
    np.testing.assert_allclose(
        model.predict_log_proba(X), np.column_stack([log_ndtr(-fitted), log_ndtr(fitted)]), rtol=1e-12
    )
    np.testing.assert_array_equal(model.predict(X), model.classes_[(a > 0).astype(int)])
    lls = [h["log_likelihood"] for h in model.history_]
    assert np.all(np.diff(lls) >= -1e-9)  # Newton climbs the concave log-likelihood
    assert lls[-1] == pytest.approx(np.sum(log_ndtr(np.where(y == model.classes_[1], a, -a))), rel=1e-9)


def test_positive_class_is_the_larger_label_and_l2_matches_scipy():
    X, y = overlapping(5)
    labels = np.where(y == 0, 7, -3)  # classes_ = [-3, 7]: t = 1 for label 7
    model = make_model("probit", l2=2.0).fit(X, labels)
    np.testing.assert_array_equal(model.classes_, [-3, 7])
    expected, _ = oracle_weights(X, labels, 7, l2=2.0)
    np.testing.assert_allclose(model.weights_, expected, atol=1e-6)
    proba = model.predict_proba(X)
    np.testing.assert_array_equal(model.predict(X), np.where(proba[:, 1] > 0.5, 7, -3))


def test_newton_uses_the_true_hessian():
    """At the fitted weights the Hessian Phi^T R Phi with R = lambda (lambda + z) equals central
    differences of the oracle's gradient, and the gradient vanishes."""
    X, y = overlapping(6)
    model = make_model("probit").fit(X, y)
    expected, objective = oracle_weights(X, y, model.classes_[1])
    h = 1e-6
    numeric = np.array([(objective(expected + h * e)[1] - objective(expected - h * e)[1]) / (2 * h) for e in np.eye(3)])
    from playground.logistic import _Design

    phi_T = np.vstack([np.ones(len(X)), X.T])
    problem = _ProbitProblem(_Design(phi_T), (y == model.classes_[1]).astype(float), np.zeros(3), len(X))
    np.testing.assert_allclose(problem.hessian(model.weights_), numeric, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(problem.gradient(model.weights_), 0.0, atol=1e-7)


def test_through_a_polynomial_basis_matches_scipy_on_the_features():
    X, y = overlapping(7, n=60)
    model = make_model("probit", basis=PolynomialBasis(2)).fit(X, y)
    features = model.features(X)
    expected, _ = oracle_weights(features, y, model.classes_[1])
    np.testing.assert_allclose(model.estimator_.weights_, expected, atol=1e-6)
    a = features @ expected[1:] + expected[0]
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], ndtr(a), atol=1e-6)
    # playback through the basis
    replay = model.at_step(1)
    np.testing.assert_allclose(replay.estimator_.weights_, model.history_[1]["w"])


def test_gradient_descent_approaches_the_same_answer():
    X, y = overlapping(8)
    expected, _ = oracle_weights(X, y, 1)
    model = make_model("probit", solver="gd", learning_rate=0.5, max_iter=50_000, tol=1e-13).fit(X, y)
    np.testing.assert_allclose(model.weights_, expected, atol=1e-4)


def test_probit_and_logistic_weights_differ_by_the_figure_4_9_factor():
    """sigma(a) ~ Phi(lambda a) with lambda^2 = pi/8 (section 4.5.2): on the same data the
    logistic weights are roughly the probit ones divided by lambda (about 1.6 times larger)."""
    X, y = overlapping(9, n=200)
    probit = make_model("probit").fit(X, y)
    logistic = make_model("logistic").fit(X, y)
    ratio = logistic.weights_ / probit.weights_
    assert np.all((ratio > 1.45) & (ratio < 1.85)), ratio
    assert np.mean(probit.predict(X) == logistic.predict(X)) > 0.97


# -- playback ------------------------------------------------------------------------------------


def test_history_and_at_step():
    X, y = overlapping(10)
    model = make_model("probit", w_init=[0.5, -0.5, 0.2]).fit(X, y)
    assert len(model.history_) == model.n_iter_ + 1 and model.n_iter_ >= 3
    for i, entry in enumerate(model.history_):
        assert set(entry) == {"iteration", "w", "log_likelihood"} and entry["iteration"] == i
        replay = model.at_step(i)
        w = entry["w"]
        a = X @ w[1:] + w[0]
        np.testing.assert_allclose(replay.weights_, w)
        np.testing.assert_allclose(replay.coef_, [w[1:]])
        np.testing.assert_allclose(replay.predict_proba(X)[:, 1], ndtr(a), rtol=1e-9, atol=1e-12)
        assert np.sum(log_ndtr(np.where(y == 1, a, -a))) == pytest.approx(entry["log_likelihood"], rel=1e-9)
        assert replay.step_ == i and replay.history_ is model.history_
    np.testing.assert_allclose(model.history_[0]["w"], [0.5, -0.5, 0.2])
    assert model.at_step(10**6).step_ == model.n_iter_ and model.at_step(-1).step_ == 0


# -- separable and degenerate data -----------------------------------------------------------------


def test_separable_data_gives_the_logistic_message():
    model = make_model("probit").fit(SEED003_X, SEED_Y)
    logistic = make_model("logistic").fit(SEED003_X, SEED_Y)
    assert not model.converged_ and model.n_iter_ < 100
    for phrase in ("linearly separable", "no finite solution", "an L2 penalty λ > 0 (l2) gives a finite answer"):
        assert phrase in model.fit_message_ and phrase in logistic.fit_message_
    assert "probit function Φ(a)" in model.fit_message_ and "4.3.5" in model.fit_message_
    np.testing.assert_array_equal(model.predict(SEED003_X), SEED_Y)
    assert np.all(np.isfinite(model.weights_))
    lls = np.array([h["log_likelihood"] for h in model.history_])
    assert np.all(np.diff(lls) > 0) and lls[-1] > -1e-6
    ridge = make_model("probit", l2=0.1).fit(SEED003_X, SEED_Y)
    assert ridge.converged_ and ridge.fit_message_ == ""
    expected, _ = oracle_weights(SEED003_X, SEED_Y, 1, l2=0.1)
    np.testing.assert_allclose(ridge.weights_, expected, atol=1e-6)


def test_iteration_limit_message_is_logistic_regressions():
    X, y = overlapping(11)
    model = make_model("probit", max_iter=1).fit(X, y)
    assert not model.converged_ and model.n_iter_ == 1
    assert (
        model.fit_message_ == "Probit regression did not converge in 1 update; raise the maximum iterations (max_iter)."
    )
    logistic = make_model("logistic", max_iter=1).fit(X, y)
    assert logistic.fit_message_ == model.fit_message_.replace("Probit", "Logistic")


def test_more_than_two_classes_need_a_strategy():
    X, y = clusters(3, 30, seed=12, spread=(1.5, 1.0))
    with pytest.raises(InvalidDataError, match="one-versus-rest"):
        make_model("probit").fit(X, y)
    for strategy in ("ovr", "ovo"):
        model = make_model("probit", multiclass=strategy).fit(X, y)
        assert model.predict(X).shape == (len(X),) and np.mean(model.predict(X) == y) > 0.8
    proba = make_model("probit", multiclass="ovr").fit(X, y).predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_one_class_is_refused_with_a_sentence():
    with pytest.raises(InvalidDataError, match="at least 2 classes"):
        make_model("probit").fit(np.zeros((3, 2)), [1, 1, 1])


@pytest.mark.parametrize(
    "X, y",
    [
        (np.array([[0.0, 0], [1, 1], [2, 2], [3, 3], [1.5, 1.5]]), [0, 1, 0, 1, 1]),  # collinear, overlapping
        (np.array([[1.0, 1], [1, 1], [1, 1], [1, 1]]), [0, 1, 0, 1]),  # identical points, both labels
        (np.array([[0.0, 5], [1, 5], [2, 5], [3, 5]]), [0, 0, 1, 1]),  # constant feature, separable
        (np.array([[0.0, 0], [1, 0]]), [0, 1]),  # one point per class
        (np.array([[0.0, 0], [0, 0], [1, 1], [1, 1]]), [0, 0, 1, 1]),  # duplicates
    ],
)
def test_degenerate_data_give_finite_answers(X, y):
    model = make_model("probit").fit(X, y)
    result = evaluate_grid(model, Window(-2, 5, -2, 7), resolution=15)
    assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    assert all(np.all(np.isfinite(h["w"])) and np.isfinite(h["log_likelihood"]) for h in model.history_)
    if len(X) == 4 and np.all(X == 1):  # both labels at one point: p = 1/2 there
        np.testing.assert_allclose(model.predict_proba(np.array([[1.0, 1.0]])), 0.5, atol=1e-9)


@pytest.mark.parametrize("offset", [1e9, -1e9])
def test_far_from_origin_and_tiny_coordinates(offset):
    X, y = overlapping(13)
    near = make_model("probit").fit(X, y)
    far = make_model("probit").fit(X + offset, y)
    np.testing.assert_allclose(far.predict_proba(X + offset), near.predict_proba(X), atol=1e-6)
    tiny = make_model("probit").fit(X * 1e-9, y)
    np.testing.assert_allclose(tiny.predict_proba(X * 1e-9), near.predict_proba(X), atol=1e-7)


@settings(max_examples=50, deadline=None)
@given(
    solver=st.sampled_from(["irls", "gd"]),
    points=st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 1)), min_size=1, max_size=12),
    scale=st.sampled_from([1e-9, 1.0, 1e9]),
    shift=st.sampled_from([0.0, 1e9]),
)
def test_degenerate_data_give_finite_grids_or_a_sentence(solver, points, scale, shift):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale + shift, data[:, 2].astype(int)
    try:
        model = make_model("probit", solver=solver, max_iter=60).fit(X, y)
    except PlaygroundError as err:
        assert str(err).endswith(".")
        return
    result = evaluate_grid(model, Window.around(X), resolution=12)
    assert np.all(np.isfinite(result.decision)) and np.all(np.isfinite(result.proba))
    np.testing.assert_allclose(result.proba.sum(axis=-1), 1.0, atol=1e-9)
    assert all(np.all(np.isfinite(h["w"])) and np.isfinite(h["log_likelihood"]) for h in model.history_)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"solver": "lbfgs"}, "'irls' or 'gd'"),
        ({"max_iter": -1}, "max_iter"),
        ({"max_iter": 100_001}, "max_iter must be a whole number from 0 to 100,000"),
        ({"tol": -1}, "tol must be"),
        ({"l2": np.nan}, "l2 must be"),
        ({"w_init": [1, 2]}, "3 finite numbers"),
    ],
)
def test_bad_parameters_give_a_sentence(params, message):
    with pytest.raises(InvalidDataError, match=message):
        make_model("probit", **params).fit(*overlapping(14))


def test_registry_entry():
    from playground import MODELS

    assert MODELS["probit"] is ProbitRegression
    assert ProbitRegression.book_section == "4.3.5" and ProbitRegression.section == "4.3.5"
    names = list(MODELS)
    assert names.index("probit") == names.index("softmax") + 1  # book order: 4.3.4, then 4.3.5
    assert names.index("probit") < names.index("svm")


def test_the_app_fits_it_with_the_logistic_regression_controls():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parent.parent / "streamlit_app.py"), default_timeout=60).run()
    at.selectbox(key="method").set_value("probit").run()
    at.radio(key="multiclass").set_value("ovo").run()
    at.select_slider(key="pb_l2").set_value(0.1).run()
    assert not at.exception and not at.warning
    assert dict(at.session_state.scene.params) == {"l2": 0.1, "max_iter": 100, "solver": "irls"}
    assert any("training accuracy" in m.value for m in at.markdown)
