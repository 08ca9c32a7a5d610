"""A link without a window (hand-written: ``?lang=ja``, or points alone) opens framed in the plot's
own shape, as a plain visit does; a link's own window is kept as sent."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground.link import encode_scene
from tests.conftest import component_json

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _canvas_data(at):
    canvas = next(c for c in at.get("bidi_component") if "playground_canvas" in c.proto.component_name)
    return json.loads(component_json(canvas.proto))


def _opened(query):
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in query.items():
        at.query_params[name] = value
    return at.run()


@pytest.mark.parametrize("query", [{}, {"lang": "ja"}, {"lang": "en", "tab": "Geometry"}])
def test_a_link_without_a_window_is_framed_like_a_plain_visit(query):
    at = _opened(query)
    assert not at.exception
    assert _canvas_data(at)["fit"] is not None  # the canvas widens the window to its plot area


def test_a_link_with_points_and_no_window_frames_them():
    plain = AppTest.from_file(APP, default_timeout=60).run()
    query = encode_scene(plain.session_state.scene)
    query.pop("w")
    at = _opened(query)
    assert not at.exception
    assert _canvas_data(at)["fit"] is not None


def test_a_link_with_its_window_keeps_it():
    plain = AppTest.from_file(APP, default_timeout=60).run()
    query = encode_scene(plain.session_state.scene)
    at = _opened(query)
    assert not at.exception
    assert _canvas_data(at)["fit"] is None
    assert at.session_state.scene.window == plain.session_state.scene.window
