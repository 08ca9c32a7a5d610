"""A canvas's view report from the scene before a load (issue 44, item 11): a figure press on its
way while the previous figure's canvas reported its zoom or its plot area must not reframe the
figure loaded meanwhile. Every canvas event carries the number of the load its drawing showed
("load", ``ui.plot.canvas.canvas``); the session takes a view and a plot area only from a drawing
of the current scene, and edits from any.

The state functions run in Streamlit's bare mode (st.session_state without a server), which is
what a script run gives them too.
"""

import pytest

from playground.presets import PRESETS
from ui.base.visitor import visitor
from ui.session import edits, loading, state

pytestmark = pytest.mark.usefixtures("bare_session")


def _load(key):
    loading.load_scene(PRESETS[key].scene, source="the test", fit=True)
    loading.apply_pending_load()
    return loading.load_serial()


def _view(nonce, load, x0=-1.0, x1=1.0, y0=-2.0, y1=2.0, area=(900, 450)):
    return {"nonce": nonce, "type": "view", "x0": x0, "x1": x1, "y0": y0, "y1": y1, "area": list(area), "load": load}


def test_a_view_from_the_drawing_before_a_load_leaves_the_loaded_window_and_area():
    before = _load("fig4_6")
    after = _load("fig4_7")
    assert after == before + 1
    window = state.scene().window
    edits.apply_canvas_events([_view(1, before)], 0)
    assert state.scene().window == window  # the previous figure's zoom is not this figure's
    assert state.CANVAS_AREA not in visitor()  # nor its plot area
    assert visitor()["last_event_nonce"] == 1  # taken in, once: a later delivery does not apply it


def test_a_view_from_the_current_drawing_moves_the_view_and_notes_the_area():
    current = _load("fig4_7")
    edits.apply_canvas_events([_view(1, current)], 0)
    assert state.scene().window.as_tuple() == (-1.0, 1.0, -2.0, 2.0)
    assert visitor()[state.CANVAS_AREA] == (900.0, 450.0)


def test_an_edit_from_the_drawing_before_a_load_still_counts():
    before = _load("fig4_6")
    _load("fig4_7")
    count = len(state.scene().points)
    edits.apply_canvas_events([{"nonce": 1, "type": "add", "x": 0.5, "y": 0.5, "load": before}], 0)
    assert len(state.scene().points) == count + 1


def test_an_event_without_a_load_number_is_taken_as_current():
    _load("fig4_7")
    edits.apply_canvas_events([{k: v for k, v in _view(1, 0).items() if k != "load"}], 0)
    assert state.scene().window.as_tuple() == (-1.0, 1.0, -2.0, 2.0)
