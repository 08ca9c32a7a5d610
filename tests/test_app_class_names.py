"""Class names in the app (AppTest, issue 18): renaming class 1 to "setosa" shows in the status line,
the address bar carries it and a reopened link names the class again; a CSV's text labels name
the classes; hostile names from a link are shown as text everywhere Markdown renders them."""

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground.link import encode_class_names, encode_scene
from playground.scene import PointSet, Scene
from ui.text.markdown import unescape

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
HOSTILE = ("<img src=x onerror=f()>", "![](//host/x.png)", r"\input{/etc/passwd}")


def _run(query=None):
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    return at.run()


def _status(at):
    return next(m.value for m in at.markdown if "role='status'" in m.value)


def test_renaming_class_1_shows_in_the_status_line_and_a_reopened_link():
    at = _run()
    assert "</span> class 1:" in _status(at)
    at.text_input(key="class_name_0").set_value("setosa").run()
    assert not at.exception
    assert at.session_state.scene.class_names == ("setosa",)
    assert "●</span> \u2068setosa\u2069: 30" in _status(at) and "</span> class 1:" not in _status(at)
    assert "names" in at.query_params

    copy = _run(dict(at.query_params))
    assert not copy.exception and not copy.warning
    assert copy.session_state.scene.class_names == ("setosa",)
    assert "●</span> \u2068setosa\u2069: 30" in _status(copy)
    assert copy.text_input(key="class_name_0").value == "setosa"
    assert copy.text_input(key="class_name_1").value == ""  # the default name: "class 2"
    assert "■</span> class 2:" in _status(copy)


def test_clearing_a_name_brings_the_default_back_and_the_link_drops_it():
    at = _run()
    at.text_input(key="class_name_1").set_value("  versi\tcolor ").run()
    assert at.session_state.scene.class_names == ("", "versi color")
    assert at.text_input(key="class_name_1").value == "versi color"  # the field shows the cleaned name
    at.text_input(key="class_name_1").set_value("").run()
    assert at.session_state.scene.class_names == ()
    assert "names" not in at.query_params and "■</span> class 2:" in _status(at)


def test_a_link_with_hostile_names_shows_them_as_text():
    points = PointSet.from_arrays([[0, 0], [1, 0], [0, 1], [1, 1], [3, 3], [4, 3]], [0, 0, 1, 1, 2, 2])
    query = encode_scene(Scene(points=points, class_names=HOSTILE))
    at = _run(query)
    assert not at.exception
    status = _status(at)
    # Markdown with HTML: no tag, no image syntax, no backslash command survives as markup.
    assert "<img" not in status and "](//" not in status.replace("\\]", "")
    assert "&lt;img src=x onerror=f()&gt;" in status
    assert r"!\[\](//host/x.png)" in status and r"\\input\{/etc/passwd\}" in status
    assert [at.text_input(key=f"class_name_{k}").value for k in range(3)] == list(HOSTILE)
    # Every Markdown element that names a class shows the name's characters, escaped.
    for element in (*at.markdown, *at.caption, *at.warning, *at.info):
        assert "<img" not in element.value
        assert not re.search(r"(?<!\\)!\[\]\(//host", element.value)


def test_a_link_whose_names_are_not_text_loads_with_a_message():
    query = {**encode_scene(Scene(points=PointSet.from_arrays([[0, 0], [1, 1]], [0, 1]))), "names": "e30"}
    at = _run(query)
    assert not at.exception and at.session_state.scene.class_names == ()
    assert "class names" in unescape(at.warning[0].value)


@pytest.mark.parametrize("names", [["setosa", ["versicolor"]], "setosa"])
def test_names_of_the_wrong_kind_are_dropped_with_a_message(names):
    text = encode_class_names(names) if isinstance(names, list) else "InNldG9zYSI"  # base64url of '"setosa"'
    at = _run({**encode_scene(Scene(points=PointSet.from_arrays([[0, 0], [1, 1]], [0, 1]))), "names": text})
    assert not at.exception
    assert at.session_state.scene.class_names == (("setosa",) if isinstance(names, list) else ())
    assert "class names" in unescape(at.warning[0].value) or "name of class 2" in unescape(at.warning[0].value)


@pytest.mark.parametrize("name", ["שלום", "مرحبا", "אב 12"])
def test_a_right_to_left_name_keeps_the_status_lines_counts_in_order(name):
    """Issue 44: "abcd10 :שלום" — a right-to-left name took the count after it into its own
    direction. The name is isolated (U+2068 ... U+2069) wherever it is embedded; the field, the
    scene and the link hold the name itself."""
    at = _run()
    at.text_input(key="class_name_0").set_value(name).run()
    assert not at.exception
    status = _status(at)
    assert f"●</span> \u2068{name}\u2069: 30 · " in status, status
    assert status.count("\u2068") == status.count("\u2069")  # every isolate is closed
    assert at.session_state.scene.class_names == (name,)
    assert at.text_input(key="class_name_0").value == name
    assert "\u2068" not in at.query_params["names"] and "\u2069" not in at.query_params["names"]
    copy = _run(dict(at.query_params))
    assert copy.session_state.scene.class_names == (name,) and f"\u2068{name}\u2069: 30" in _status(copy)


def test_a_csv_with_text_labels_names_the_classes_and_one_with_numbers_keeps_them():
    at = _run()
    at.file_uploader[0].upload("iris.csv", b"a,b,species\n1,2,setosa\n3,4,virginica\n5,6,setosa\n", "text/csv").run()
    assert not at.exception
    assert at.session_state.scene.class_names == ("setosa", "virginica")
    assert "●</span> \u2068setosa\u2069: 2" in _status(at) and "■</span> \u2068virginica\u2069: 1" in _status(at)
    assert [at.text_input(key=f"class_name_{k}").value for k in range(2)] == ["setosa", "virginica"]
    at.file_uploader[0].upload("p.csv", b"1,2,0\n3,4,1\n", "text/csv").run()
    assert at.session_state.scene.class_names == ("setosa", "virginica")


def test_the_class_names_expander_speaks_japanese():
    """One run only in Japanese (see tests/test_i18n_panels_a.py): the field labels are translated."""
    at = _run({"lang": "ja", **encode_scene(Scene(points=PointSet.from_arrays([[0, 0], [1, 1]], [0, 1])))})
    assert not at.exception
    assert at.text_input(key="class_name_0").label == "● クラス 1 の名前"
    assert at.text_input(key="class_name_0").placeholder == "クラス 1"
    assert any(e.label == "クラス名" for e in at.expander)
