"""What a run of the page computes, counted rather than timed (issue 15, "cost per interaction").

The server's CPU per click was cut by building the figures that change on every click as plotly.js
dicts (``plotly.graph_objects`` validate every property each time), by fitting and drawing each
panel once per run, and by doing process-wide work once per process. A change that quietly brings
one of those back fails here; the milliseconds themselves are measured by ``python -m bench --load``.
"""

import gc
import pkgutil
from pathlib import Path

import plotly.basedatatypes
import pytest
from streamlit.testing.v1 import AppTest

from ui.panels import all_panels
from ui.panels import least_squares as least_squares_panel
from ui.server import runtime
from ui.session import compute

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _counted(monkeypatch, owner, name):
    """Replace ``owner.name`` by a wrapper that records its calls; returns the list of calls."""
    calls = []
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


def _button(at, label):
    return next(b for b in at.button if b.label == label)


@pytest.mark.parametrize(
    "method, allowed",
    # The default scene (three classes): least squares and its outputs panel; the perceptron's
    # multi-class overlay; the class Gaussians' ellipses (naive Bayes; its posterior's hover
    # read-out is still one graph object).
    [("least_squares", 0), ("perceptron", 0), ("naive_bayes", 1)],
)
def test_a_run_of_the_page_builds_no_plotly_graph_objects(monkeypatch, method, allowed):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="method").set_value(method).run()
    assert not at.exception
    built = _counted(monkeypatch, plotly.basedatatypes.BasePlotlyType, "__init__")
    at.run()
    assert not at.exception
    assert len(built) <= allowed, f"{len(built)} plotly graph_objects in one run with {method}: build dicts"


def test_a_run_fits_once_draws_the_panel_once_and_the_cache_serves_what_was_seen(monkeypatch):
    at = AppTest.from_file(APP, default_timeout=60).run()
    fits = _counted(monkeypatch, compute, "fit_scene")
    surfaces = _counted(monkeypatch, least_squares_panel, "surface_figure")
    at.number_input(key="gen_seed").set_value(12345)
    _button(at, "Replace points").click().run()  # new points: one fit, one outputs panel
    assert not at.exception
    assert (len(fits), len(surfaces)) == (1, 1)
    fits.clear(), surfaces.clear()
    _button(at, "↶ Undo").click().run()  # back to the default scene, fitted before: from the cache
    assert (len(fits), len(surfaces)) == (0, 1)
    at.selectbox(key="method").set_value("logistic").run()
    fits.clear()
    at.selectbox(key="method").set_value("least_squares").run()  # switching back refits nothing
    assert len(fits) == 0 and not at.exception


def test_the_panels_are_found_once_per_process(monkeypatch):
    panels = all_panels()

    def listing(*args, **kwargs):
        raise AssertionError("the panels' package was listed again")

    monkeypatch.setattr(pkgutil, "iter_modules", listing)
    assert all_panels() is panels and isinstance(panels, tuple)


def test_freezing_asks_the_collector_once_per_process(monkeypatch):
    runtime.freeze_long_lived_objects()

    def walk(*args, **kwargs):  # gc.get_freeze_count walks every frozen object
        raise AssertionError("gc.get_freeze_count called on a later run")

    monkeypatch.setattr(gc, "get_freeze_count", walk)
    runtime.freeze_long_lived_objects()


def test_a_quick_fit_shows_no_spinner_and_a_large_one_does(monkeypatch):
    import streamlit as st

    spinners = _counted(monkeypatch, st, "spinner")
    at = AppTest.from_file(APP, default_timeout=60).run()  # the default scene: 90 points, least squares
    assert not at.exception
    assert spinners == []  # a timer thread per run, for work that takes milliseconds
    at.slider(key="gen_points").set_value(at.slider(key="gen_points").max)
    at.slider(key="gen_classes").set_value(6)
    _button(at, "Replace points").click().run()
    at.selectbox(key="method").set_value("svm").run()
    assert not at.exception
    assert spinners, "a fit of thousands of points ran with no spinner"


def test_config_files_are_polled_slowly():
    from streamlit.watcher import polling_path_watcher

    runtime.slow_config_polling()
    assert polling_path_watcher._POLLING_PERIOD_SECS == runtime.CONFIG_POLL_SECONDS >= 1


def test_config_sections_read_from_the_index_are_what_streamlit_would_read(monkeypatch):
    from streamlit import config

    runtime.index_config_sections()
    indexed = config.get_options_for_section
    original = indexed.__wrapped__  # Streamlit's own, which scans every option
    assert getattr(indexed, "indexed", False) and not getattr(original, "indexed", False)
    for section in {option.section for option in config.get_config_options().values()}:
        got, expected = indexed(section), original(section)
        assert got == expected and list(got) == list(expected), section
    # A value set at run time is read at once (the values are not cached, only where they are).
    monkeypatch.setitem(config.get_config_options()["theme.primaryColor"].__dict__, "_get_val_func", lambda: "#123456")
    assert indexed("theme")["primaryColor"] == "#123456"
    # A new parse (a new options dict) rebuilds the index.
    options = config.get_config_options()
    monkeypatch.setattr(config, "_config_options", dict(options))
    assert indexed("theme.sidebar") == {o.name: o.value for o in options.values() if o.section == "theme.sidebar"}
