"""One computation per scene, however many ask (issue 30): the result cache's single flight
(``ResultCache.compute_once``) in the server, the worker pool's one task per key, and the
sentence a page shows while it waits for a fit another visitor started.

The tests count computations (a counter, or the fit log ``PLAYGROUND_FIT_LOG``), never time.
"""

import threading
import time

import pytest

from playground.scene import PointSet
from tests.conftest import at_once, clusters
from ui.engine.cache import MISSING, ResultCache
from ui.engine.workers import FIT_LOG, WorkerPool
from ui.session import compute

THREADS = 12


@pytest.fixture
def cache():
    return ResultCache(max_bytes=2**30, max_entries=100, ttl=600.0)


def slow_count(counter, value="value", seconds=0.2, nbytes=8):
    """A computation that counts its runs and lasts long enough for every thread to ask meanwhile."""

    def compute_it():
        with counter["lock"]:
            counter["runs"] += 1
        time.sleep(seconds)
        return value, nbytes

    return compute_it


def counter():
    return {"runs": 0, "lock": threading.Lock()}


def test_many_threads_asking_for_one_key_compute_it_once_and_get_the_same_value(cache):
    runs = counter()
    value = object()
    results, errors = at_once(lambda: cache.compute_once("k", slow_count(runs, value)), THREADS)
    assert errors == []
    assert runs["runs"] == 1
    assert len(results) == THREADS and all(got is value and shared for got, shared in results)
    assert cache.get("k") is value and cache.in_flight() == 0


def test_a_failure_reaches_every_waiter_and_the_next_ask_computes_again(cache):
    runs = counter()

    def failing():
        slow_count(runs)()
        raise ValueError("the fit broke")

    results, errors = at_once(lambda: cache.compute_once("k", failing), THREADS)
    assert results == [] and len(errors) == THREADS
    assert all(isinstance(e, ValueError) and str(e) == "the fit broke" for e in errors)
    assert runs["runs"] == 1
    assert cache.get("k") is MISSING and cache.in_flight() == 0
    assert cache.compute_once("k", slow_count(runs, "again", seconds=0)) == ("again", True)
    assert runs["runs"] == 2


class Stopped(BaseException):
    """Like Streamlit's StopException: not an Exception, raised when a page reruns or closes."""


def test_a_stopped_leader_leaves_no_waiter_hanging_one_of_them_computes_instead(cache):
    runs, leading = counter(), threading.Event()

    def stopped_after_others_came():
        with runs["lock"]:
            runs["runs"] += 1
        leading.set()
        time.sleep(0.3)  # the others ask meanwhile
        raise Stopped

    leader_outcome = []

    def lead():
        try:
            cache.compute_once("k", stopped_after_others_came)
        except Stopped:
            leader_outcome.append("stopped")

    leader = threading.Thread(target=lead)
    leader.start()
    leading.wait(5)
    results, errors = at_once(lambda: cache.compute_once("k", slow_count(runs, "by a waiter", 0.1)), THREADS)
    leader.join(5)
    assert leader_outcome == ["stopped"] and errors == []
    assert results == [("by a waiter", True)] * THREADS
    assert runs["runs"] == 2  # the stopped try, then one waiter's
    assert cache.in_flight() == 0


def test_a_value_not_to_be_cached_still_reaches_every_waiter_once(cache):
    runs = counter()
    results, errors = at_once(lambda: cache.compute_once("k", slow_count(runs, "mine", nbytes=None)), THREADS)
    assert errors == [] and runs["runs"] == 1
    assert results == [("mine", False)] * THREADS
    assert cache.get("k") is MISSING


def test_a_cached_value_is_returned_without_computing(cache):
    cache.put("k", "there", 8)
    assert cache.compute_once("k", lambda: pytest.fail("computed a cached key")) == ("there", True)


def test_different_keys_compute_side_by_side(cache):
    runs = counter()
    keys = iter(range(THREADS))
    lock = threading.Lock()

    def ask():
        with lock:
            key = next(keys)
        return cache.compute_once(key, slow_count(runs, key, seconds=0.05))

    results, errors = at_once(ask, THREADS)
    assert errors == [] and runs["runs"] == THREADS and len(cache) == THREADS


# ---- the app's fit and view, through the single flight -------------------------------------------


def fits_logged(path):
    return len(path.read_text().splitlines()) if path.exists() else 0


@pytest.fixture
def server_side(monkeypatch, tmp_path, cache):
    """ui.session.compute with a fresh cache, no worker pool, an empty session and a fit log."""
    log = tmp_path / "fits.log"
    monkeypatch.setenv(FIT_LOG, str(log))
    monkeypatch.setattr(compute, "result_cache", lambda: cache)
    monkeypatch.setattr(compute, "worker_pool", lambda: None)
    monkeypatch.setattr(compute.st, "session_state", {})
    return log


def test_sessions_opening_one_scene_at_once_fit_it_once_and_evaluate_its_view_once(server_side, monkeypatch):
    X, y = clusters(3, 200)
    points = PointSet.from_arrays(X, y)
    window = compute.window_for(points)
    views = counter()
    evaluate = compute.evaluate_view

    def counted(*args):
        with views["lock"]:
            views["runs"] += 1
        time.sleep(0.1)  # the others ask meanwhile
        return evaluate(*args)

    monkeypatch.setattr(compute, "evaluate_view", counted)
    params = (("max_iter", 100), ("solver", "irls"))
    results, errors = at_once(lambda: compute.fit_view(points, "logistic", params, "ovr", window), THREADS)
    assert errors == []
    assert fits_logged(server_side) == 1
    assert views["runs"] == 1
    assert all(view is results[0] for view in results) and results[0].error is None


# ---- the worker pool: one task per key, and who started it ----------------------------------------

SLOW_GD = (("learning_rate", 0.001), ("max_iter", 3_000), ("solver", "gd"), ("tol", 0.0))


def test_the_pool_fits_a_key_asked_for_by_many_at_once_in_one_task(monkeypatch, tmp_path):
    log = tmp_path / "fits.log"
    monkeypatch.setenv(FIT_LOG, str(log))  # the workers start with the server's environment
    X, y = clusters(2, 300, spread=(2.5, 2.0))
    payload = (X, y, "logistic", SLOW_GD, "native", "identity", ())
    pool = WorkerPool(2, seconds=120.0, max_steps=None)
    try:
        names = iter(f"visitor {k}" for k in range(THREADS))
        lock = threading.Lock()

        def ask():
            with lock:
                waiter = next(names)
            task = pool.submit("scene", payload, waiter)
            while not task.wait(0.1, waiter):
                pass
            return task, waiter

        results, errors = at_once(ask, THREADS)
        assert errors == []
        tasks = {id(task) for task, _ in results}
        assert len(tasks) == 1
        task = results[0][0]
        assert task.result[1] is None and task.result[0].n_iter_ == 3_000
        assert fits_logged(log) == 1
        assert task.owner in {waiter for _, waiter in results}
    finally:
        pool.close()


def test_a_page_waiting_for_another_visitors_fit_says_so_and_the_visitor_who_started_it_does_not():
    pool = WorkerPool(1, seconds=120.0, max_steps=None)
    try:
        X, y = clusters(2, 20)
        task = pool.submit("scene", (X, y, "logistic", SLOW_GD, "native", "identity", ()), "first")
        assert pool.submit("scene", task.payload, "second") is task and task.owner == "first"
        sentence = "waits for the same fit, started by another visitor"
        assert sentence in compute._progress_text(pool, task, "Fitting", False, "second")[1]
        assert sentence not in compute._progress_text(pool, task, "Fitting", False, "first")[1]
        pool.cancel(task)
    finally:
        pool.close()


def test_a_cancelled_task_wakes_everyone_waiting_for_it_and_the_next_ask_starts_a_new_one():
    pool = WorkerPool(1, seconds=120.0, max_steps=None)
    try:
        X, y = clusters(2, 300, spread=(2.5, 2.0))
        slow = (("learning_rate", 0.001), ("max_iter", 100_000), ("solver", "gd"), ("tol", 0.0))
        busy = pool.submit("busy", (X, y, "logistic", slow, "native", "identity", ()), "someone")
        queued = pool.submit("scene", (X, y, "logistic", SLOW_GD, "native", "identity", ()), "first")
        assert pool.submit("scene", queued.payload, "second") is queued
        woken = []
        waiters = [threading.Thread(target=lambda w=w: woken.append(queued.wait(30.0, w))) for w in ("first", "second")]
        for waiter in waiters:
            waiter.start()
        pool.cancel(queued)
        for waiter in waiters:
            waiter.join(35.0)
        assert woken == [True, True] and queued.stopped == "cancelled" and queued.result is None
        again = pool.submit("scene", queued.payload, "third")
        assert again is not queued and again.owner == "third"
        pool.cancel(again)
        pool.cancel(busy)
    finally:
        pool.close()
