"""The linear SVM by SMO (seed 001, PRML 7.1) against scikit-learn's SVC(kernel="linear")."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sklearn.svm import SVC

import playground.svm as svm_module
from playground import ConvergenceError, InvalidDataError, PlaygroundError, make_model
from tests.conftest import clusters

OVERLAPPING = {"spread": (1.6, 1.2)}


def sklearn_dual(oracle):
    """L~(a) = sum a_n - |w|^2 / 2 from SVC's dual_coef_ (a_n t_n) and support vectors."""
    coef = oracle.dual_coef_[0]
    w = coef @ oracle.support_vectors_
    return np.abs(coef).sum() - 0.5 * w @ w


def primal(model, X, t, C):
    w, b = model.coef_[0], model.intercept_[0]
    return 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - t * (X @ w + b)))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
def test_matches_svc_on_overlapping_clusters(seed, C):
    X, y = clusters(2, 60, seed=seed, **OVERLAPPING)
    model = make_model("svm", C=C, tol=1e-5).fit(X, y)
    oracle = SVC(kernel="linear", C=C, tol=1e-5).fit(X, y)
    assert model.converged_
    expected = sklearn_dual(oracle)
    assert abs(model.dual_objective_ - expected) <= 1e-4 * abs(expected)
    # Same support vectors, up to multipliers that are zero to rounding in either solver.
    tiny = 1e-6 * C
    ours = set(np.flatnonzero(model.alpha_ > tiny))
    theirs = set(oracle.support_[np.abs(oracle.dual_coef_[0]) > tiny])
    assert ours == theirs
    np.testing.assert_allclose(model.coef_, oracle.coef_, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(model.intercept_, oracle.intercept_, atol=1e-3)
    grid = np.random.default_rng(seed).uniform(-6, 6, size=(500, 2))
    points = np.vstack([X, grid])
    near = np.abs(oracle.decision_function(points)) < 1e-6
    disagree = model.predict(points) != oracle.predict(points)
    assert not np.any(disagree & ~near)
    # Strong duality: the primal value at (w, b) equals the dual objective.
    t = np.where(y == model.classes_[1], 1.0, -1.0)
    assert abs(primal(model, X, t, C) - model.dual_objective_) <= 1e-3 * model.dual_objective_


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hard_margin_matches_svc_with_huge_c_on_separable_data(seed):
    X, y = clusters(2, 40, seed=seed, spread=(0.5, 0.3))
    model = make_model("svm", C=None, tol=1e-5).fit(X, y)
    oracle = SVC(kernel="linear", C=1e10, tol=1e-5).fit(X, y)
    assert model.converged_ and model.margin_violators_.size == 0
    assert abs(model.dual_objective_ - sklearn_dual(oracle)) <= 1e-4 * sklearn_dual(oracle)
    np.testing.assert_array_equal(model.support_, oracle.support_)
    np.testing.assert_allclose(model.coef_, oracle.coef_, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(model.intercept_, oracle.intercept_, atol=1e-4)
    # Every point is on or outside the margin; the support vectors are on it (eq. 7.5).
    t = np.where(y == model.classes_[1], 1.0, -1.0)
    functional = t * model.decision_function(X)
    assert functional.min() > 1 - 1e-4
    np.testing.assert_allclose(functional[model.support_], 1.0, atol=1e-4)
    # Hard margin: the dual objective is |w|^2 / 2 = 1 / (2 margin^2).
    assert model.dual_objective_ == pytest.approx(0.5 / model.margin_**2, rel=1e-4)


def test_one_point_per_class_has_the_closed_form():
    # The boundary is the perpendicular bisector, with the points on the margin: w = 2 d / |d|^2.
    X = np.array([[1.0, 2.0], [3.0, 5.0]])
    model = make_model("svm", C=None).fit(X, [4, 9])
    d = X[1] - X[0]
    np.testing.assert_allclose(model.coef_[0], 2 * d / (d @ d), rtol=1e-12)
    np.testing.assert_allclose(model.decision_function(X), [-1.0, 1.0], atol=1e-12)
    assert model.margin_ == pytest.approx(np.linalg.norm(d) / 2)
    np.testing.assert_array_equal(model.predict(X), [4, 9])
    # A small C caps both multipliers: w = C d, both points inside the margin.
    soft = make_model("svm", C=0.01).fit(X, [4, 9])
    np.testing.assert_allclose(soft.alpha_, [0.01, 0.01])
    np.testing.assert_allclose(soft.coef_[0], 0.01 * d)
    np.testing.assert_array_equal(soft.margin_category_, [2, 2])


@pytest.mark.parametrize("spread", [(1.0, 0.6), (2.0, 1.5), (5.0, 5.0)])
def test_hard_margin_on_overlapping_classes_says_so(spread):
    X, y = clusters(2, 200, seed=1, spread=spread)
    with pytest.raises(ConvergenceError, match="The classes overlap, so no hard margin exists; choose a finite C"):
        make_model("svm", C=None).fit(X, y)


def test_duplicate_points_with_different_labels():
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [2.0, 0.5]])
    y = np.array([0, 1, 1, 1])
    with pytest.raises(ConvergenceError, match="overlap"):
        make_model("svm", C=None).fit(X, y)
    model = make_model("svm", C=1.0).fit(X, y)
    assert model.converged_ and np.all(np.isfinite(model.decision_function(X)))
    assert model.alpha_[0] == model.alpha_[1] == 1.0  # both stuck at the box, inside the margin
    # Every point at one place: w = 0, a finite constant decision and a sentence saying so.
    flat = make_model("svm").fit(np.zeros((2, 2)), [0, 1])
    assert np.all(flat.coef_ == 0) and flat.margin_ == np.inf and "w = 0" in flat.fit_message_
    with pytest.raises(ConvergenceError, match="overlap"):
        make_model("svm", C=None).fit(np.zeros((2, 2)), [0, 1])


def test_fitted_attributes_follow_sklearns_conventions():
    X, y = clusters(2, 50, seed=4, **OVERLAPPING)
    y = np.where(y == 0, -3, 7)
    C = 0.5
    model = make_model("svm", C=C).fit(X, y)
    np.testing.assert_array_equal(model.classes_, [-3, 7])
    t = np.where(y == 7, 1.0, -1.0)
    assert np.all((model.alpha_ >= 0) & (model.alpha_ <= C))
    assert abs(model.alpha_ @ t) < 1e-10
    np.testing.assert_array_equal(model.support_, np.flatnonzero(model.alpha_ > 0))
    np.testing.assert_allclose(model.dual_coef_, (model.alpha_ * t)[model.support_][None, :])
    np.testing.assert_allclose(model.coef_, model.dual_coef_ @ model.support_vectors_, atol=1e-12)
    assert model.coef_.shape == (1, 2) and model.intercept_.shape == (1,)
    np.testing.assert_array_equal(model.n_support_, [np.sum(t[model.support_] < 0), np.sum(t[model.support_] > 0)])
    assert model.margin_ == pytest.approx(1 / np.linalg.norm(model.coef_))
    # The margin categories agree with t y(x): outside, on, inside the margin (eq. 7.36).
    functional = t * model.decision_function(X)
    category = model.margin_category_
    assert np.all(functional[category == 0] >= 1 - 1e-3)
    np.testing.assert_allclose(functional[category == 1], 1.0, atol=1e-3)
    assert np.all(functional[category == 2] <= 1 + 1e-3)
    np.testing.assert_array_equal(model.margin_violators_, np.flatnonzero(model.alpha_ == C))
    assert set(model.margin_labels()) <= set(model.MARGIN_CATEGORIES)
    assert model.fit_message_.startswith("Converged after") and model.fit_message_.endswith(".")


def test_history_replays_the_smo_steps():
    X, y = clusters(2, 40, seed=5, **OVERLAPPING)
    model = make_model("svm", C=1.0).fit(X, y)
    history = model.history_
    assert len(history) == model.n_iter_ > 0
    assert [entry["step"] for entry in history] == list(range(1, model.n_iter_ + 1))
    for entry in history:
        assert set(entry) == {"step", "pair", "objective", "w", "b"}
        i, j = entry["pair"]
        assert i != j and 0 <= i < X.shape[0] and 0 <= j < X.shape[0]
        assert entry["w"].shape == (2,) and np.isfinite(entry["b"])
    objectives = np.array([entry["objective"] for entry in history])
    assert np.all(np.diff(objectives) >= -1e-12)  # each SMO step increases the dual
    assert history[-1]["objective"] == pytest.approx(model.dual_objective_)
    np.testing.assert_allclose(history[-1]["w"], model.coef_[0])
    assert history[-1]["b"] == pytest.approx(model.intercept_[0])
    # The first step moves the pair chosen from w = 0: all v_n = t_n, so one point of each class.
    i, j = history[0]["pair"]
    assert y[i] != y[j]


def test_long_runs_keep_a_bounded_thinned_history(monkeypatch):
    monkeypatch.setattr(svm_module, "HISTORY_LIMIT", 16)
    X, y = clusters(2, 150, seed=1, spread=(2.0, 1.5))
    model = make_model("svm", C=1.0).fit(X, y)
    steps = [entry["step"] for entry in model.history_]
    assert model.n_iter_ > 100 and len(steps) <= 17
    assert steps[-1] == model.n_iter_ and steps == sorted(set(steps))
    stride = steps[1] - steps[0]
    assert stride > 1 and all(s % stride == 0 for s in steps[:-1])
    np.testing.assert_allclose(model.history_[-1]["w"], model.coef_[0])


def test_max_iter_stops_with_a_message():
    X, y = clusters(2, 100, seed=1, spread=(2.0, 1.5))
    model = make_model("svm", C=10.0, max_iter=5).fit(X, y)
    assert not model.converged_ and model.n_iter_ == 5
    assert "approximate" in model.fit_message_ and np.all(np.isfinite(model.coef_))


@pytest.mark.parametrize("options", [{"shrinking": False}, {"selection": "first_order"}])
def test_variants_reach_the_same_optimum(options):
    X, y = clusters(2, 300, seed=3, spread=(2.0, 1.5))
    reference = make_model("svm", C=1.0, tol=1e-5).fit(X, y)
    model = make_model("svm", C=1.0, tol=1e-5, **options).fit(X, y)
    assert model.dual_objective_ == pytest.approx(reference.dual_objective_, rel=1e-6)
    np.testing.assert_allclose(model.coef_, reference.coef_, rtol=1e-3, atol=1e-4)


def test_translation_and_huge_coordinates():
    X, y = clusters(2, 40, seed=6, **OVERLAPPING)
    base = make_model("svm", C=1.0, tol=1e-6).fit(X, y)
    shifted = make_model("svm", C=1.0, tol=1e-6).fit(X + 1e6, y)
    np.testing.assert_allclose(shifted.coef_, base.coef_, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(shifted.predict(X + 1e6), base.predict(X))
    big = make_model("svm", C=None).fit(np.array([[0.0, 0.0], [3e8, 4e8]]), [0, 1])
    assert big.margin_ == pytest.approx(2.5e8)


def test_more_than_two_classes_point_to_a_strategy():
    X, y = clusters(3, 30, seed=0)
    with pytest.raises(InvalidDataError, match="one-versus-rest or one-versus-one"):
        make_model("svm").fit(X, y)
    model = make_model("svm", multiclass="ovr").fit(X, y)
    assert model.score(X, y) > 0.9


@pytest.mark.parametrize(
    "params, message",
    [
        ({"C": 0}, "C must be a positive finite number"),
        ({"C": -1.0}, "C must be a positive finite number"),
        ({"C": np.inf}, "C must be a positive finite number"),
        ({"C": "big"}, "C must be a positive number or None"),
        ({"tol": 0}, "tolerance must be a positive number"),
        ({"max_iter": 0}, "max_iter must be a whole number"),
        ({"max_iter": 2.5}, "max_iter must be a whole number"),
        ({"max_iter": 100_001}, "max_iter must be a whole number from 1 to 100,000"),
        ({"selection": "random"}, "selection must be"),
    ],
)
def test_bad_parameters_give_a_sentence(params, message):
    with pytest.raises(InvalidDataError, match=message):
        make_model("svm", **params).fit(np.array([[0.0, 0.0], [1.0, 1.0]]), [0, 1])


def test_params_round_trip_and_before_fit():
    model = make_model("svm", C=None, tol=1e-4)
    assert model.get_params() == {
        "C": None,
        "tol": 1e-4,
        "max_iter": 100_000,
        "shrinking": True,
        "selection": "second_order",
    }
    assert model.clone().C is None
    with pytest.raises(PlaygroundError, match="not been fitted"):
        model.decision_function(np.zeros((1, 2)))


coordinates = st.integers(-4, 4)


@settings(max_examples=40, deadline=None)
@given(
    points=st.lists(st.tuples(coordinates, coordinates, st.integers(0, 1)), min_size=1, max_size=14),
    scale=st.sampled_from([1e-6, 1.0, 1e6]),
    C=st.sampled_from([None, 0.01, 1.0, 100.0]),
)
@example(points=[(0, 0, 0), (0, 0, 1), (-1, -2, 0), (-2, -2, 1)], scale=1e6, C=1.0)  # found by CI
@example(points=[(0, 0, 0), (0, 0, 0), (0, 0, 1), (0, 1, 1)], scale=1e6, C=100.0)
def test_any_data_gives_an_optimal_fit_or_a_sentence(points, scale, C):
    data = np.array(points, dtype=float)
    X, y = data[:, :2] * scale, data[:, 2].astype(int)
    try:
        model = make_model("svm", C=C, max_iter=3000).fit(X, y)
    except PlaygroundError as err:
        message = str(err)
        assert message.endswith(".") and "\n" not in message
        return
    t = np.where(y == model.classes_[1], 1.0, -1.0)
    box = np.inf if C is None else C
    assert np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_))
    assert np.all(np.isfinite(model.decision_function(X)))
    assert np.all((model.alpha_ >= 0) & (model.alpha_ <= box))
    assert abs(model.alpha_ @ t) <= 1e-9 * max(1.0, model.alpha_.sum())
    if not model.converged_:
        # SMO zig-zags on badly scaled data (libsvm too), or meets its stopping rule on gradients
        # that lost their digits (a box C s^2 far above 1): a feasible, finite, flagged answer.
        assert "approximate" in model.fit_message_
        assert model.n_iter_ == 3000 or "floating point" in model.fit_message_
        return
    # KKT to the tolerance, in units of the functional margin t y(x).
    functional = t * model.decision_function(X)
    assert np.all(functional[model.margin_category_ == 0] >= 1 - 2e-3)
    assert np.all(functional[model.margin_category_ == 2] <= 1 + 2e-3)
    if C is None:
        assert np.all(functional >= 1 - 2e-3)  # a hard margin separates every point
    else:
        gap = primal(model, X, t, C) - model.dual_objective_
        assert -1e-9 <= gap <= 2e-3 * max(1.0, C * t.size)


def test_at_step_replays_the_history():
    X, y = clusters(2, 40, seed=5, **OVERLAPPING)
    model = make_model("svm", C=1.0).fit(X, y)
    n_entries = len(model.history_)
    start = model.at_step(0)
    np.testing.assert_array_equal(start.coef_, np.zeros((1, 2)))
    assert start.intercept_[0] == 0.0 and start.margin_ == np.inf and start.pair_ is None
    assert start.step_ == 0 and start.smo_step_ == 0 and start.dual_objective_ == 0.0
    np.testing.assert_array_equal(start.decision_function(X), np.zeros(X.shape[0]))
    for k in (1, n_entries // 2, n_entries - 1):
        replay, entry = model.at_step(k), model.history_[k - 1]
        np.testing.assert_array_equal(replay.coef_[0], entry["w"])
        assert replay.intercept_[0] == entry["b"] and replay.pair_ == tuple(entry["pair"])
        assert replay.smo_step_ == entry["step"] and replay.dual_objective_ == entry["objective"]
        assert replay.margin_ == pytest.approx(1 / np.linalg.norm(entry["w"]))
        np.testing.assert_allclose(replay.decision_function(X), X @ entry["w"] + entry["b"])
    final = model.at_step(n_entries)
    np.testing.assert_array_equal(final.coef_, model.coef_)
    assert final.margin_ == model.margin_ and final.smo_step_ == model.n_iter_
    # Clipped at both ends; the fitted model itself is untouched.
    assert model.at_step(-5).step_ == 0 and model.at_step(10**6).step_ == n_entries
    assert not hasattr(model, "step_")


def test_at_step_maps_positions_to_a_thinned_history(monkeypatch):
    monkeypatch.setattr(svm_module, "HISTORY_LIMIT", 16)
    X, y = clusters(2, 150, seed=1, spread=(2.0, 1.5))
    model = make_model("svm", C=1.0).fit(X, y)
    steps = [entry["step"] for entry in model.history_]
    assert [model.at_step(k).smo_step_ for k in range(1, len(steps) + 1)] == steps
    objectives = [model.at_step(k).dual_objective_ for k in range(len(steps) + 1)]
    assert np.all(np.diff(objectives) >= -1e-9)
