"""Import / export files in the app (AppTest): a CSV replaces the points (undoable), a JSON loads
the whole scene and its widgets, a malformed file changes nothing and says which line is wrong,
and what the download buttons give loads back to the same scene."""

import os
from pathlib import Path

import pytest
import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from playground.fileio import points_to_csv, scene_from_json, scene_to_json
from playground.points_csv import points_from_csv
from playground.scene import PointSet, Scene
from ui.text.markdown import unescape

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
NEW_POINTS = PointSet.from_arrays([[0.125, 1.5], [2.0, -1.0], [3.5, 0.25], [-1.0, 2.0]], [0, 0, 1, 1])


def _run():
    return AppTest.from_file(APP, default_timeout=60).run()


def _upload(at, name, data):
    at.file_uploader[0].upload(name, data, "application/octet-stream").run()
    assert not at.exception, at.exception
    return at


def _import_error(at):
    return [e.value for e in at.error if "was not loaded" in e.value]


def test_a_csv_replaces_the_points_and_undo_restores_them():
    at = _run()
    before = at.session_state.scene
    at.selectbox(key="method").set_value("fisher").run()
    _upload(at, "mine.csv", points_to_csv(NEW_POINTS).encode())
    assert at.session_state.scene.points == NEW_POINTS
    assert at.session_state.scene.method == "fisher"  # a CSV changes only the points
    window = at.session_state.scene.window
    assert window.x_min < -1.0 and window.x_max > 3.5  # the view was fitted to the new points
    assert not _import_error(at)
    assert len(at.file_uploader) == 1 and not at.file_uploader[0].value  # ready for the next file
    next(b for b in at.button if b.label == "↶ Undo").click().run()
    assert at.session_state.scene.points == before.points


def test_a_json_loads_the_method_and_its_widgets():
    at = _run()
    scene = Scene(
        points=NEW_POINTS,
        method="svm",
        params=(("C", 30.0),),
        basis="polynomial",
        basis_params=(("degree", 3),),
        seed=5,
    )
    view = {"panel_options": {"posterior_display": "posterior"}, "tab": None}
    _upload(at, "saved.json", scene_to_json(scene, view).encode())
    loaded = at.session_state.scene
    assert loaded.points == NEW_POINTS
    assert (loaded.method, loaded.param_dict["C"], loaded.basis, loaded.basis_param_dict["degree"]) == (
        "svm",
        30.0,
        "polynomial",
        3,
    )
    assert at.selectbox(key="method").value == "svm" and at.session_state["svm_C"] == 30.0
    assert at.session_state.panel_options == {"posterior_display": "posterior"}
    assert not at.warning or not any("could not be used" in w.value for w in at.warning)


def test_a_json_with_unusable_settings_loads_the_rest_and_says_so():
    at = _run()
    text = scene_to_json(Scene(points=NEW_POINTS, method="svm")).replace('"svm"', '"quantum"')
    _upload(at, "odd.json", text.encode())
    assert at.session_state.scene.points == NEW_POINTS
    message = next(w.value for w in at.warning if "could not be used" in w.value)
    assert "'\u2068odd.json\u2069'" in message and "unknown method 'quantum'" in message


BAD_CSV, BAD_JSON = "'\u2068bad.csv\u2069'", "'\u2068bad.json\u2069'"  # a file's name is shown isolated


@pytest.mark.parametrize(
    ("name", "data", "fragments"),
    [
        ("bad.csv", b"x1,x2,class\n1,2,1\n3,4,2\n4,abc,1\n", [BAD_CSV, "Line 4, column x2: abc is not a number."]),
        ("bad.csv", b"1,2,1\n1,2\n", ["Line 2", "found 2 columns"]),
        ("bad.csv", "".join(f"{k},0,{k}\n" for k in range(7)).encode(), ["7 different labels", "at most 6"]),
        ("bad.csv", b"1,2,1\n1,2,setosa\n", ["mixes numbers and text", "line 2: 'setosa'"]),
        ("bad.csv", b"1,2,1\n1,nan,2\n", ["Line 2", "not a finite number"]),
        ("bad.csv", b"1,2,1\n1,2,\xff\n", ["Line 2", "not UTF-8"]),
        ("bad.csv", b"", ["empty"]),
        ("bad.json", b'{\n  "points": [\n    [1, 2, 1],\n    [1, 2]\n  ]\n}', [BAD_JSON, "Line 4", "point 2"]),
        ("bad.json", b'{\n  "points": [[1, 2, 1],\n', ["Line 3, column 1", "not valid JSON"]),
    ],
)
def test_a_malformed_file_changes_nothing_and_names_the_line(name, data, fragments):
    at = _run()
    at.selectbox(key="method").set_value("logistic").run()
    before = at.session_state.scene
    _upload(at, name, data)
    (message,) = _import_error(at)
    assert all(fragment in message for fragment in fragments), message
    assert "unchanged" in message
    assert at.session_state.scene == before
    assert at.selectbox(key="method").value == "logistic"
    at.button(key="dismiss_import_error").click().run()
    assert not _import_error(at)


@pytest.mark.parametrize(
    ("data", "labels", "fragments"),
    [
        (b"x1,x2,target\n0,1,0\n1,2,1\n2,0,1\n", (0, 1, 1), ["0 → class 1", "1 → class 2"]),
        (b"1,2,-1\n3,4,1\n", (1, 0), ["+1 → class 1", "-1 → class 2"]),
        (b"a,b,species\n1,2,setosa\n3,4,virginica\n", (0, 1), ["'setosa' → class 1"]),
    ],
)
def test_a_csv_with_labels_of_its_own_loads_and_names_the_mapping(data, labels, fragments):
    at = _run()
    _upload(at, "iris.csv", data)
    assert at.session_state.scene.points.labels == labels
    assert any("labels were mapped" in t.value for t in at.toast)
    note = unescape(next(i.value for i in at.info if "iris.csv" in i.value))
    assert all(fragment in note for fragment in fragments), note
    at.button(key="dismiss_import_error").click().run()
    assert not any("iris.csv" in i.value for i in at.info)
    assert not _import_error(at)


def test_a_file_name_or_a_value_with_markdown_is_shown_as_text():
    at = _run()
    name = "![x](%2F%2F127.0.0.1%3A9%2Fx.png)[Log in](http:%2F%2Fh).json"
    _upload(at, name, b'{"points": [[1, 2, 1], [2, 3, 2]], "method": "![y](//h/y.png) http://h.org"}')
    message = next(w.value for w in at.warning if "could not be used" in w.value)
    assert "![" not in message.replace("\\[", "") and "](" not in message.replace("\\]", "")
    assert "\\[x\\]" in message and "\\[Log in\\]" in message and "http:\u2060//h.org" in message
    assert name in unescape(message) and "![y](//h/y.png) http://h.org" in unescape(message)


@pytest.fixture
def media_managers(monkeypatch):
    """The media file manager of each AppTest run, to fetch what a download button would give."""
    managers = []

    class Recording(MediaFileManager):
        def __init__(self, storage):
            super().__init__(storage)
            managers.append(self)

    monkeypatch.setattr(app_test_module, "MediaFileManager", Recording)
    return managers


def _download(at, managers, key):
    """The bytes a click on the download button ``key`` gives (the file is made on the click)."""
    file_id = at.download_button(key=key).proto.deferred_file_id
    url = managers[-1].execute_deferred(file_id)
    return managers[-1].read_file(os.path.splitext(os.path.basename(url))[0]).content


def test_downloads_round_trip(media_managers):
    at = _run()
    at.selectbox(key="method").set_value("softmax").run()
    at.radio(key="sm_solver").set_value("gd").run()
    scene = at.session_state.scene
    assert scene.method == "softmax" and scene.param_dict["solver"] == "gd"  # the current run's settings

    assert points_from_csv(_download(at, media_managers, "download_points_csv")) == scene.points
    data = _download(at, media_managers, "download_scene_json")
    loaded, view, messages = scene_from_json(data)
    assert messages == [] and loaded == Scene(**{**scene.__dict__, "view_revision": 0})
    assert view["panel_options"] == at.session_state.panel_options

    fresh = _upload(_run(), "scene.json", data)  # another session opens the file
    assert fresh.session_state.scene.points == scene.points
    assert fresh.session_state.scene.params == scene.params
    assert fresh.radio(key="sm_solver").value == "gd"
