"""The worker pool (ui/engine/workers.py) and the result cache (ui/engine/cache.py): heavy fits run in worker
processes under the budget, one task per scene, cancelled when nobody waits; results are bounded
in bytes, entries and time; the undo history is bounded in bytes.

The pool's decisions are driven by cancellation, leases and the step budget, never by how fast
this machine is.
"""

import os
import time

import numpy as np
import pytest

from playground.scene import History, PointSet
from tests.conftest import clusters
from ui.engine.cache import ResultCache, approx_bytes
from ui.engine.workers import LEASE_SECONDS, WorkerPool, fit_scene

SLOW_GD = (("learning_rate", 0.001), ("max_iter", 100_000), ("solver", "gd"), ("tol", 0.0))


def payload(n_per_class=300, n_classes=2, method="logistic", params=SLOW_GD):
    X, y = clusters(n_classes, n_per_class, spread=(2.5, 2.0))
    return (X, y, method, params, "native", "identity", ())


@pytest.fixture(scope="module")
def pool():
    # A long budget: these tests stop fits by cancelling them or by the step budget.
    pool = WorkerPool(2, seconds=120.0, max_steps=2_000)
    yield pool
    pool.close()


def wait(task, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not task.wait(0.1):
        assert time.monotonic() < deadline, "the task did not finish"
    return task


def test_a_fit_in_a_worker_returns_the_model_under_the_step_budget(pool):
    task = wait(pool.submit("steps", payload()))
    model, error = task.result
    assert error is None and task.failure is None
    assert task.stopped == "steps" and model.n_iter_ == 2_000
    assert "at most 2,000 steps" in model.fit_message_
    assert task.result_bytes > 0


def test_worker_runs_at_a_lower_priority(pool):
    wait(pool.submit("nice", payload(n_per_class=20)))
    worker = next(w for w in pool._workers if w.process is not None)
    assert os.getpriority(os.PRIO_PROCESS, worker.process.pid) >= os.getpriority(os.PRIO_PROCESS, 0) + 5


def test_the_same_scene_is_fitted_once(pool):
    first = pool.submit("same", payload(), waiter="a")
    second = pool.submit("same", payload(), waiter="b")
    assert first is second
    wait(first)


def test_a_cancelled_fit_returns_the_state_it_reached(pool):
    slow = WorkerPool(1, seconds=120.0, max_steps=None)
    try:
        task = slow.submit("cancel", payload(n_per_class=2_000), waiter="a")
        while task.started is None or task.progress[0] < 0.3:  # running, with progress reported
            task.wait(0.05, "a")
        slow.cancel(task)
        wait(task)
        model, _ = task.result
        assert task.stopped == "cancelled"
        assert model.fit_message_.startswith("Stopped on request after")
        assert 0 < model.n_iter_ < 100_000
    finally:
        slow.close()


def test_a_fit_nobody_waits_for_is_cancelled():
    lonely = WorkerPool(1, seconds=120.0, max_steps=None)
    try:
        task = lonely.submit("lonely", payload(n_per_class=2_000), waiter="gone")
        while task.started is None:
            time.sleep(0.05)
            task.want("gone")
        # The waiter stops renewing its lease (its page was closed): the worker is told to stop.
        started = time.monotonic()
        assert task._done.wait(LEASE_SECONDS + 60)
        assert task.stopped == "cancelled"
        assert time.monotonic() - started >= LEASE_SECONDS * 0.9
    finally:
        lonely.close()


def test_a_worker_that_dies_is_replaced():
    pool = WorkerPool(1, seconds=120.0, max_steps=None)
    try:
        task = pool.submit("die", payload(n_per_class=2_000), waiter="a")
        while task.started is None or task.progress[0] < 0.2:
            task.wait(0.05, "a")
        pool._workers[0].process.kill()
        wait(task)
        assert task.failure and "worker" in task.failure
        again = wait(pool.submit("after", payload(n_per_class=20, params=(("solver", "irls"),))))
        assert again.failure is None and again.result[1] is None
    finally:
        pool.close()


def test_fit_scene_reports_playground_errors_as_text():
    X, y = clusters(1, 10)
    model, error = fit_scene(X, y, "fisher", (), "native", "identity", ())
    assert model is None and "class" in error


# ---- the result cache --------------------------------------------------------------------------


def test_cache_is_bounded_in_bytes_and_entries():
    cache = ResultCache(max_bytes=1_000, max_entries=3, ttl=600)
    for k in range(5):
        cache.put(k, f"value {k}", 100)
    assert len(cache) == 3 and cache.get(0, None) is None and cache.get(4) == "value 4"
    cache.put("big", "x", 240)  # a quarter of the cache at most is shared
    cache.put("too big", "x", 260)
    assert cache.get("too big", None) is None
    for k in range(10):
        cache.put(("b", k), k, 240)
    assert cache.bytes <= 1_000


def test_cache_entries_expire_after_their_last_use():
    cache = ResultCache(max_bytes=10_000, max_entries=10, ttl=0.2)
    cache.put("a", 1, 10)
    cache.put("b", 2, 10)
    time.sleep(0.15)
    assert cache.get("a") == 1  # used: its clock starts again
    time.sleep(0.1)
    cache.sweep()
    assert cache.get("b", None) is None and cache.get("a") == 1 and cache.bytes == 10


def test_approx_bytes_counts_arrays_and_history_and_freezes_arrays():
    X, y = clusters(2, 500)
    model, _ = fit_scene(X, y, "perceptron", (("max_epochs", 50),), "native", "identity", ())
    size = approx_bytes(model)
    assert size > sum(entry["w"].nbytes for entry in model.history_)
    assert not model.weights_.flags.writeable  # shared by every visitor: no one may change it


# ---- the undo history ----------------------------------------------------------------------------


def test_undo_history_is_bounded_in_bytes():
    X, y = clusters(4, 5_000)  # 20,000 points, as an upload may bring
    big, smaller = PointSet.from_arrays(X, y), PointSet.from_arrays(X[:-1], y[:-1])
    history = History()
    for k in range(60):
        history = history.pushed(big if k % 2 else smaller)
    assert history.nbytes <= History().max_bytes
    assert 20 <= len(history.past) < 60  # the oldest were forgotten, the recent kept
    history, points = history.undone(big)
    assert len(points) in (20_000, 19_999) and len(history.future) == 1
    np.testing.assert_array_equal(points.X, (big if len(points) == 20_000 else smaller).X)  # bit for bit


def test_undo_history_keeps_the_newest_step_whatever_its_size():
    X, y = clusters(4, 5_000)
    history = History(max_bytes=1_000).pushed(PointSet.from_arrays(X, y))
    assert len(history.past) == 1


# ---- the load section of BENCHMARKS.md ------------------------------------------------------------


def test_load_section_replaces_only_itself():
    from bench import report

    after = {"load at start": "1.0 / 1.0 / 1.0", "interactions": {"click": [20.0, 90.0, 30]}}
    before = {"load at start": "2.0 / 2.0 / 2.0", "interactions": {"click": [44.0, 120.0, 30]}}
    section = report.load_markdown(after, before)
    assert "| click | 44.0 | 120 | 20.0 | 90 | 30 | met |" in section
    text = "# Benchmarks\n\n## Machine\n\nm\n\n## Front-end: x\n\nf\n\n## Summary\n\n- s\n"
    once = report.with_load_section(text, section)
    assert once.index("## Front-end") < once.index(report.LOAD_HEADING) < once.index("## Summary")
    twice = report.with_load_section(once, section.replace("44.0", "45.0"))
    assert twice.count(report.LOAD_HEADING) == 1 and "45.0" in twice and "## Front-end: x\n\nf" in twice
    assert report.load_section_of(twice).startswith(report.LOAD_HEADING)
