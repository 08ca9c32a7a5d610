"""Shared fixtures: seed 003's six-point worked example and random cluster sets."""

import functools
import os
import threading

import numpy as np
import pytest
from hypothesis import settings
from playwright.sync_api import sync_playwright

from playground import ClusterSpec, PlaygroundError, make_clusters, make_model
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path, streamlit_server
from tests.redis_server import redis_server

# In CI the property tests draw the same examples every run, so a submission cannot fail on a
# lucky draw; locally they stay random and keep exploring.
# The servers the browser tests start share the test process's room-open secret, so a test can
# open a room through the route as the lecturer's page does (ui.rooms.guard.open_token).
os.environ.setdefault("PLAYGROUND_SECRET", "browser-tests-room-open-secret")

settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def bare_session():
    """A fresh session for the state functions in Streamlit's bare mode (st.session_state without a
    server, which is what a script run gives them too), emptied again afterwards."""
    import logging

    import streamlit as st

    from ui.session import loading

    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(logging.ERROR)
    for key in list(st.session_state.keys()):
        del st.session_state[key]
    loading.init_state()
    yield
    for key in list(st.session_state.keys()):
        del st.session_state[key]


@pytest.fixture(scope="module")
def server():
    """A live Streamlit server on a free port, one per browser-test module."""
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as url:
        yield url


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A real Redis (Debian's redis-server, tests/redis_server.py) for one test module: its URL."""
    with redis_server(tmp_path_factory.mktemp("redis")) as (url, _restart):
        yield url


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium driven by Playwright, one per browser-test module."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# Seed 003 (lecture notes on PRML 4): C1 = (1,2), (2,3), (3,4.9); C2 = (2,1), (3,2), (4,3.9).
SEED003_X = np.array([[1, 2], [2, 3], [3, 4.9], [2, 1], [3, 2], [4, 3.9]], dtype=float)
SEED003_CLASS = np.array([1, 1, 1, 2, 2, 2])


@pytest.fixture
def seed003():
    return SEED003_X.copy(), SEED003_CLASS.copy()


@functools.cache
def two_class_only(name):
    """Whether method ``name`` separates two classes only: its fit refuses three classes and
    points to the multi-class strategies (so tests need not list such methods by hand)."""
    X = np.array([[0.0, 0.0], [1.0, 0.2], [0.1, 3.0], [1.2, 3.1], [4.0, 0.0], [4.8, 1.0]])
    try:
        make_model(name).fit(X, [0, 0, 1, 1, 2, 2])
    except PlaygroundError as err:
        return "one-versus" in str(err) or "two classes" in str(err)
    return False


def clusters(n_classes=3, n_per_class=40, seed=0, spread=(1.0, 0.6)):
    means = [(-2.0, 0.0), (2.0, 0.5), (0.0, 3.0), (3.0, 3.5), (-3.0, 3.0), (0.0, -3.0)]
    specs = [ClusterSpec(means[k], spread, 30.0 * k) for k in range(n_classes)]
    return make_clusters(specs, n_per_class, seed=seed)


@pytest.fixture
def three_clusters():
    return clusters(3)


@pytest.fixture
def two_clusters():
    return clusters(2)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A skipped browser test is a failure: CI must never pass without having clicked."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and item.get_closest_marker("browser"):
        report.outcome = "failed"
        report.longrepr = f"browser test {item.name} was skipped; browser tests must run"


def show_step(at, step):
    """What the browser's player does when playback pauses at ``step`` (an AppTest cannot press
    its buttons, which live in the browser): the scene's step is set and the app runs again."""
    from dataclasses import replace

    at.session_state["scene"] = replace(at.session_state.scene, step=step)
    return at.run()


def component_json(proto):
    """The JSON text of a custom element's data: the canvas and the charts send it as bytes
    (``ui.plot.canvas.component_data``), other elements as Streamlit's own JSON field."""
    return proto.bytes.decode() if proto.WhichOneof("data") == "bytes" else proto.json


def player_data(at):
    """The data of the playback element on an AppTest page (the frames sent to the browser), or None."""
    import json

    for element in at.get("bidi_component"):
        if element.proto.component_name.endswith("playground_playback"):
            return json.loads(component_json(element.proto))
    return None


def at_once(job, threads=16):
    """Run ``job`` in ``threads`` threads released together (as the first sessions of a fresh
    server arrive); return (the results, the exceptions raised)."""
    start, errors, results = threading.Barrier(threads), [], []

    def run():
        start.wait()
        try:
            results.append(job())
        except Exception as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return results, errors
