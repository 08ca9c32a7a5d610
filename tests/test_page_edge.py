"""The page's edge (issue 19): an unexpected exception in a fit, a panel, the canvas or the sidebar
is reported in one plain sentence, the scene is kept, and the session is not left dead.

Faults are injected into the running app (AppTest runs the script in this process, so patching
``ui.page.app``'s names reaches it); once the fault is gone, the same session works again.
"""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import ui.page.app
from playground.link import encode_points
from tests.hostile_cases import TWO_CLASSES, has_canvas, has_sidebar

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
LINK = {"v": "2", "p": encode_points(TWO_CLASSES), "m": "logistic", "tab": "Equations"}


class Injected(RuntimeError):
    """A fault no part of the app expects (its name must reach the sentence, its text must not)."""


def _open():
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in LINK.items():
        at.query_params[name] = value
    return at.run()


def _failing(*args, **kwargs):
    raise Injected("/srv/secret/path.py line 12")


def _sentences(at):
    return [str(e.value) for kind in ("error", "warning", "toast") for e in getattr(at, kind)]


def _failure_sentences(at):
    return [p for p in _sentences(at) if "Something went wrong" in p]


@pytest.mark.parametrize(
    ("target", "part"),
    [
        ("scene_view", "the fit or the plot"),  # the fit
        ("render_scene", "the fit or the plot"),  # the canvas's figure
        ("points_table", "the points table"),
        ("_render_panels", "the panel"),
        ("canvas_description", "the status line"),
    ],
)
def test_a_fault_is_one_sentence_the_scene_is_kept_and_the_session_recovers(monkeypatch, target, part):
    healthy = _open()
    assert not healthy.exception and not _failure_sentences(healthy)
    at = _open()
    monkeypatch.setattr(ui.page.app, target, _failing)
    at.run()
    assert not at.exception, at.exception
    sentences = _failure_sentences(at)
    assert len(sentences) == 1, _sentences(at)
    assert part in sentences[0] and "Injected" in sentences[0] and "secret" not in sentences[0]
    assert has_sidebar(at)
    if target != "render_scene":  # the drawing itself failed: nothing to draw the points with
        assert has_canvas(at)
    assert at.query_params["p"] == LINK["p"]  # the scene is kept (the link still carries it)
    monkeypatch.undo()
    at.run()  # the same session, the fault gone: a whole page again
    assert not at.exception and not _failure_sentences(at) and has_canvas(at) and has_sidebar(at)


def test_a_sidebar_that_fails_once_is_reset_and_the_page_drawn(monkeypatch):
    at = _open()
    calls = []
    widgets = ui.page.app._sidebar_widgets

    def fails_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise Injected("once")
        return widgets(*args, **kwargs)

    monkeypatch.setattr(ui.page.app, "_sidebar_widgets", fails_once)
    at.run()
    assert not at.exception, at.exception
    assert len(calls) == 2 and has_sidebar(at) and has_canvas(at)
    assert any("the sidebar" in s and "reset to the defaults" in s for s in _sentences(at)), _sentences(at)


def test_a_sidebar_that_keeps_failing_still_leaves_a_canvas(monkeypatch):
    at = _open()
    monkeypatch.setattr(ui.page.app, "_sidebar_widgets", _failing)
    at.run()
    assert not at.exception, at.exception
    assert has_canvas(at)
    assert any("the sidebar" in s for s in _sentences(at)), _sentences(at)
    monkeypatch.undo()
    at.run()
    assert not at.exception and has_canvas(at) and has_sidebar(at)


def test_the_sentence_and_the_part_it_names_are_in_the_sessions_language(monkeypatch):
    """The part of the page is named in the visitor's language too, not in English inside a
    Japanese sentence (the server's log keeps the English name)."""
    at = _open()
    at.session_state["lang"] = "ja"  # as the language picker sets it (AppTest cannot drive it in Japanese)
    monkeypatch.setattr(ui.page.app, "points_table", _failing)
    monkeypatch.setattr(ui.page.app, "_sidebar_widgets", _failing)
    at.run()
    assert not at.exception, at.exception
    sentences = [s for s in _sentences(at) if "Injected" in s]
    assert any("点の表" in s and "問題が起きました" in s for s in sentences), sentences
    assert any("サイドバー" in s for s in sentences), sentences
    assert not any("the points table" in s or "the sidebar" in s for s in sentences), sentences
