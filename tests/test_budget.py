"""The per-fit budget (playground/budget.py): iterative fits stop early, keep a usable state and
say so; one-versus-rest / one-versus-one share one budget; cancelling from another thread works.

No assertion here depends on the machine's speed: a zero time budget, a step budget or a
cancellation decides where each fit stops.
"""

import threading
import time

import numpy as np
import pytest

from playground import make_model
from playground.basis import make_basis
from playground.budget import Budget, current_budget, limited
from tests.conftest import clusters


def overlapping(n_classes=2, n_per_class=200, seed=0):
    return clusters(n_classes, n_per_class, seed=seed, spread=(2.5, 2.0))


def test_no_budget_is_unlimited_and_changes_nothing():
    X, y = overlapping()
    plain = make_model("logistic", solver="gd", max_iter=300).fit(X, y)
    with limited() as budget:
        budgeted = make_model("logistic", solver="gd", max_iter=300).fit(X, y)
    assert budget.stopped is None
    assert budgeted.n_iter_ == plain.n_iter_
    np.testing.assert_array_equal(budgeted.weights_, plain.weights_)
    assert current_budget().seconds is None  # outside the block, no limit is in force


@pytest.mark.parametrize(
    "method, params, unit",
    [
        ("logistic", {"solver": "gd", "max_iter": 100_000}, "gradient steps"),
        ("softmax", {"solver": "gd", "max_iter": 100_000}, "gradient steps"),
        ("logistic", {"solver": "irls", "max_iter": 100}, "Newton steps"),
        ("perceptron", {"max_epochs": 10_000}, "updates"),
        ("svm", {"C": 1000.0}, "SMO steps"),
    ],
)
def test_a_fit_out_of_time_stops_with_its_state_and_a_message(method, params, unit):
    X, y = overlapping()
    with limited(seconds=0.0) as budget:
        model = make_model(method, **params).fit(X, y)
    assert budget.stopped == "time"
    assert not model.converged_
    assert model.fit_message_.startswith("Stopped after 0.0 s, ")
    assert unit in model.fit_message_ and "at most 0 s" in model.fit_message_
    grid = np.random.default_rng(0).normal(size=(50, 2))
    assert np.all(np.isfinite(model.decision_function(grid)))
    assert set(model.predict(X)) <= set(np.unique(y))


def test_gradient_descent_stops_at_the_step_budget_with_a_consistent_history():
    X, y = overlapping()
    with limited(max_steps=250) as budget:
        model = make_model("logistic", solver="gd", max_iter=100_000, learning_rate=0.001).fit(X, y)
    assert budget.stopped == "steps"
    assert model.n_iter_ == 250 and len(model.history_) == 251  # the initial weights + 250 steps
    np.testing.assert_array_equal(model.weights_, model.history_[-1]["w"])
    assert "250 of 100,000 gradient steps" in model.fit_message_
    assert "at most 250 steps" in model.fit_message_
    replay = model.at_step(100)  # playback still works on the shortened run
    np.testing.assert_array_equal(replay.weights_, model.history_[100]["w"])


def test_perceptron_step_budget_bounds_its_recorded_updates():
    X, y = overlapping()
    with limited(max_steps=500) as budget:
        model = make_model("perceptron", max_epochs=10_000).fit(X, y)
    assert budget.stopped == "steps"
    assert model.n_iter_ == len(model.history_) == 500
    assert "500 updates in" in model.fit_message_
    np.testing.assert_array_equal(model.weights_at(500), model.weights_)


def test_one_versus_one_shares_the_step_budget_among_its_sub_problems():
    X, y = overlapping(n_classes=4, n_per_class=80)
    basis = make_basis("polynomial", degree=3)
    with limited(max_steps=3_000) as budget:
        model = make_model("perceptron", multiclass="ovo", basis=basis, max_epochs=10_000).fit(X, y)
    inner = model.estimator_
    recorded = [len(sub.history_) for sub in inner.estimators_]
    assert len(recorded) == 6
    assert sum(recorded) <= 3_000  # the whole fit, not each sub-problem
    assert min(recorded) > 0  # every sub-problem got a share
    assert budget.parts_total == 6 and budget.parts_stopped >= 1
    stopped = [sub.fit_message_ for sub in inner.estimators_ if "Stopped after" in (sub.fit_message_ or "")]
    assert stopped and all("shared among its 6 sub-problems" in text for text in stopped)


def test_one_versus_rest_time_shares_are_cumulative():
    budget = Budget(seconds=3.0)
    with budget.part(0, 3) as first:
        assert first.deadline == pytest.approx(budget.started + 1.0)
    with budget.part(2, 3) as last:
        assert last.deadline == pytest.approx(budget.deadline)
    assert budget.label.startswith("sub-problem 3 of 3")


def test_a_fit_can_be_cancelled_from_another_thread():
    X, y = overlapping(n_per_class=2_000)
    budget = Budget()
    threading.Timer(0.2, budget.cancel).start()
    started = time.monotonic()
    with limited(budget=budget):
        model = make_model("logistic", solver="gd", max_iter=100_000, learning_rate=1e-4).fit(X, y)
    assert budget.stopped == "cancelled"
    assert model.fit_message_.startswith("Stopped on request after")
    assert model.n_iter_ < 100_000
    assert time.monotonic() - started < 60  # not the whole run (a generous bound: only a hang fails)


def test_hard_margin_svm_out_of_time_on_overlapping_classes_says_so():
    X, y = overlapping()
    with limited(seconds=0.0):
        with pytest.raises(Exception, match="No hard margin was found by then"):
            make_model("svm", C=None).fit(X, y)


def test_budget_is_per_thread():
    """Two sessions fitting at once (two script threads) each see only their own budget."""
    seen = {}

    def fit(name, seconds):
        with limited(seconds=seconds):
            time.sleep(0.05)
            seen[name] = current_budget().seconds

    threads = [threading.Thread(target=fit, args=(name, s)) for name, s in (("a", 1.0), ("b", 2.0))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == {"a": 1.0, "b": 2.0}
