"""AppTest: the lecturer's side of a room on the page (ui/rooms/panel.py), with the in-process
store: opening a room of the current scene, each control reaching the room through the session's
token, a student's points arriving, the freeze loading the room's points into the scene exactly
(and its link), and the way back to the room.
"""

import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground.link import decode_scene
from ui.rooms import guard, model, store
from ui.rooms.panel import ROOM_KEY
from ui.server.limits import TokenBuckets

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


@pytest.fixture
def room_store(monkeypatch):
    memory = store.MemoryStore()
    monkeypatch.setattr(store, "_STORE", memory)
    return memory


def _button(at, label):
    return next(b for b in at.button if b.label == label)


def _opened(at):
    _button(at, "Open a class room").click().run()
    assert not at.exception
    info = at.session_state[ROOM_KEY]
    return info["code"], info["token"]


def test_open_run_and_freeze_a_room(room_store):
    at = AppTest.from_file(APP, default_timeout=60).run()
    scene = at.session_state.scene
    code, token = _opened(at)
    room = room_store.get(code)
    assert room["token"] == model.digest(token)
    assert len(room["points"]) == len(scene.points)
    assert any(f"?c={code}" in m.value for m in at.markdown)  # the join link holds the code ...
    assert not any(token in c.value for c in at.code) and not any(token in m.value for m in at.markdown)

    # A student joins and adds a point (as the routes do).
    sid, key = room_store.update(code, lambda r: model.join(r, "<b>ann</b>", None, None, time.time()))
    room_store.update(code, lambda r: model.add_point(r, sid, key, 0.123456, 1.5, 1, 0, time.time()))

    at.toggle(key="room_lock").set_value(True).run()
    at.toggle(key="room_hide").set_value(True).run()
    at.selectbox(key="room_method").set_value("logistic").run()
    at.number_input(key="room_limit").set_value(5).run()
    at.selectbox(key="room_everyone").set_value(1).run()
    settings = model.settings(room_store.get(code))
    assert settings["locked"] and settings["hidden"] and settings["method"] == "logistic"
    assert settings["limit"] == 5 and settings["everyone"] == 1
    # The nickname as text, isolated: a right-to-left one keeps its count after it.
    assert "\u2068<b>ann</b>\u2069 (1)" in at.selectbox(key="room_student").options[0]

    _button(at, "Remove this student's points").click().run()
    assert model.student_view(room_store.get(code), sid)["count"] == 0
    room_store.update(code, lambda r: model.control(r, token, "lock", False, None, time.time()))
    room_store.update(code, lambda r: model.add_point(r, sid, key, -0.5, 0.25, 0, 1, time.time()))

    expected = decode_scene(model.frozen_query(room_store.get(code)))[0].points
    _button(at, "Freeze into a scene and link").click().run()
    assert not at.exception
    frozen = at.session_state.scene
    assert frozen.points.X.tobytes() == expected.X.tobytes() and frozen.points.y.tolist() == expected.y.tolist()
    assert frozen.method == "logistic"
    _button(at, f"Back to the class room {code}").click().run()
    assert at.session_state[ROOM_KEY]["shown"]
    _button(at, "Clear the room's points").click().run()
    assert room_store.get(code)["points"]  # asked first (issue 48) ...
    _button(at, "Keep them").click().run()
    assert room_store.get(code)["points"] and not [b for b in at.button if b.label == "Clear them"]
    _button(at, "Clear the room's points").click().run()
    _button(at, "Clear them").click().run()  # ... then cleared
    assert room_store.get(code)["points"] == []
    _button(at, "Close the room").click().run()
    closed = room_store.get(code)  # kept, closed and emptied, so its students are told (and shown the link)
    assert closed["closed"] and closed["points"] == [] and closed["students"] == {}
    assert decode_scene(closed["frozen"])[0].points.X.tobytes() == expected.X.tobytes()
    assert ROOM_KEY not in at.session_state


def _keys(at, kind):
    return {w.key for w in getattr(at, kind)}


def test_in_presentation_the_bar_runs_the_room_on_the_projector(room_store):
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.toggle(key="presentation").set_value(True).run()
    code, _token = _opened(at)
    own_method = at.session_state.scene.method
    # The bar holds the room's method, the students' class, pause and hide; not the scene's controls.
    assert {"pbr_method", "pbr_everyone"} <= _keys(at, "selectbox") and "pb_method" not in _keys(at, "selectbox")
    assert {"pbr_lock", "pbr_hide"} <= _keys(at, "toggle")
    assert not {"room_method", "room_everyone"} & _keys(at, "selectbox")  # each control in one place
    assert not {"room_lock", "room_hide"} & _keys(at, "toggle")
    assert not [b for b in at.button if (b.key or "").startswith("pb_")]  # no figures, undo, play
    # The students and the room's actions in the bar's Room menu, once (issue 48: no scrolling).
    for key in ("room_freeze", "room_close", "room_clear"):
        assert [b.key for b in at.button].count(key) == 1, key

    at.selectbox(key="pbr_method").set_value("logistic").run()
    at.selectbox(key="pbr_everyone").set_value(2).run()
    at.toggle(key="pbr_lock").set_value(True).run()
    at.toggle(key="pbr_hide").set_value(True).run()
    assert not at.exception
    settings = model.settings(room_store.get(code))
    assert settings["method"] == "logistic" and settings["everyone"] == 2
    assert settings["locked"] and settings["hidden"]
    assert at.session_state.scene.method == own_method  # the lecturer's own scene is untouched
    assert at.selectbox(key="pbr_everyone").format_func(2) == "Students add ◆ class 3"

    # Back to the scene: the bar is the scene's again; out of presentation the controls are below.
    _button(at, "Back to my scene").click().run()
    assert "pb_method" in _keys(at, "selectbox") and "pbr_method" not in _keys(at, "selectbox")
    _button(at, f"Back to the class room {code}").click().run()
    at.toggle(key="presentation").set_value(False).run()
    assert {"room_method", "room_everyone"} <= _keys(at, "selectbox") and "pbr_method" not in _keys(at, "selectbox")


def test_closing_with_points_asks_and_the_door_and_removal_act(room_store, monkeypatch):
    monkeypatch.setattr(guard, "LIMITS", guard.Limits(lambda _name, rate, burst: TokenBuckets(rate, burst)))
    at = AppTest.from_file(APP, default_timeout=60).run()
    code, token = _opened(at)
    sid, key = room_store.update(code, lambda r: model.join(r, "ann", None, None, time.time()))
    room_store.update(code, lambda r: model.add_point(r, sid, key, 0.5, 0.5, 0, 0, time.time()))
    at.run()
    at.toggle(key="room_door").set_value(True).run()
    assert model.settings(room_store.get(code))["door_closed"]
    at.checkbox(key="room_expel_points").check().run()
    _button(at, "Remove this student from the room").click().run()
    room = room_store.get(code)
    assert sid not in room["students"] and all(p[3] != sid for p in room["points"])

    _button(at, "Close the room").click().run()
    assert not room_store.get(code).get("closed")  # the room holds the lecturer's points: it asks first
    assert any("Closing it loses them" in w.value for w in at.warning)
    _button(at, "Keep the room open").click().run()
    assert not room_store.get(code).get("closed") and not any("Closing it loses them" in w.value for w in at.warning)
    _button(at, "Close the room").click().run()
    points = len(room_store.get(code)["points"])
    _button(at, "Freeze, then close").click().run()
    closed = room_store.get(code)  # kept, closed and emptied, with the link it was frozen into, for its students
    assert closed["closed"] and closed["points"] == [] and closed["frozen"] and ROOM_KEY not in at.session_state
    assert len(at.session_state.scene.points) == points  # frozen into the scene first


def test_the_page_opens_rooms_within_its_addresses_allowance(room_store, monkeypatch):
    monkeypatch.setattr(
        guard, "LIMITS", guard.Limits(lambda _name, rate, burst: TokenBuckets(rate, burst, clock=lambda: 0.0))
    )
    for _ in range(int(guard.OPEN_LIMIT[1])):
        at = AppTest.from_file(APP, default_timeout=60).run()
        _opened(at)
    at = AppTest.from_file(APP, default_timeout=60).run()
    _button(at, "Open a class room").click().run()
    assert ROOM_KEY not in at.session_state and any("Too many attempts" in e.value for e in at.error)
