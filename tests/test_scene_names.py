"""Class names (issue 18): the scene carries a user's names of its classes, a link and a scene file
carry them exactly, a CSV's text labels become them, and hostile text is cleaned and bounded
(strings only, at most MAX_NAME_CHARS characters, no control or format characters, at most six)
with a sentence for whatever was dropped."""

import base64
import json
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground.fileio import scene_from_json, scene_to_json
from playground.link import decode_scene, encode_scene
from playground.points_csv import read_points_csv
from playground.scene import MAX_NAME_CHARS, PointSet, Scene, clean_class_names

HTML = "<img src=x onerror=alert(1)>"  # 28 characters: longer than a name may be
SHORT_HTML = "<img src=x onerror=f()>"
MARKDOWN = "![](//host/x.png)"
LATEX = r"\input{/etc/passwd}"
POINTS = PointSet.from_arrays([[0, 0], [1, 1], [2, 0]], [0, 1, 2])


def _named(*names):
    return Scene(points=POINTS, class_names=tuple(names))


def _link_names(names):
    """The class names a link with ``names`` (any JSON value) opens with, and its messages."""
    text = base64.urlsafe_b64encode(json.dumps(names).encode()).decode().rstrip("=")
    query = {**encode_scene(Scene(points=POINTS)), "names": text}
    scene, messages = decode_scene(query)
    return scene.class_names, messages


def test_a_scene_without_names_is_the_default_and_its_link_has_no_names_part():
    scene = Scene(points=POINTS)
    assert scene.class_names == () and scene.class_name_of(0) is None
    assert "names" not in encode_scene(scene)
    assert "class_names" not in json.loads(scene_to_json(scene))


def test_names_are_kept_per_class_and_empty_ones_mean_the_default():
    scene = _named("setosa", "", "virginica")
    assert [scene.class_name_of(k) for k in range(6)] == ["setosa", None, "virginica", None, None, None]
    assert _named("setosa", "", "").class_names == ("setosa",)  # trailing defaults are not stored
    assert _named("", "").class_names == ()
    assert Scene().with_class_names(["a", None]).class_names == ("a",)


@pytest.mark.parametrize(
    "names",
    [
        ("setosa", "versicolor", "virginica"),
        ("", "Iris versicolor"),
        ("セトサ", "山鸢尾", "x²", "1 & 2", "a_b*c", "6"),
        (SHORT_HTML, MARKDOWN, LATEX, "%{x}", '"quoted"', "$x$"),
    ],
)
def test_names_round_trip_through_a_real_url_and_a_scene_file(names):
    scene = _named(*names)
    query = encode_scene(scene)
    url = "https://host/?" + urllib.parse.urlencode(query)
    assert set(query["names"]) <= set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
    back = {k: v[-1] for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).items()}
    linked, messages = decode_scene(back)
    assert linked.class_names == names and messages == []
    filed, _view, messages = scene_from_json(scene_to_json(scene))
    assert filed.class_names == names and messages == []
    assert json.loads(scene_to_json(scene))["class_names"] == list(names)


def test_old_links_and_files_without_names_still_open():
    query = encode_scene(Scene(points=POINTS))
    scene, messages = decode_scene(query)
    assert scene.class_names == () and messages == []
    text = scene_to_json(Scene(points=POINTS))
    assert "class_names" not in text
    scene, _view, messages = scene_from_json(text)
    assert scene.class_names == () and messages == []


def test_markup_is_kept_as_text_for_the_ui_to_escape():
    """Cleaning bounds and strips; escaping is each sink's job (HTML, Markdown, LaTeX differ)."""
    names, messages = clean_class_names([HTML[:MAX_NAME_CHARS], MARKDOWN, LATEX])
    assert names == ("<img src=x onerror=alert", "![](//host/x.png)", r"\input{/etc/passwd}") and messages == []


def test_a_long_name_is_cut_to_the_limit_with_a_sentence():
    text = scene_to_json(_named("a")).replace(
        '"class_names": ["a"]', json.dumps({"class_names": ["x" * 10_000, HTML]})[1:-1]
    )
    scene, _view, messages = scene_from_json(text)
    assert scene.class_names == ("x" * MAX_NAME_CHARS, "<img src=x onerror=alert")
    assert messages == [
        "The file's name of class 1 was shortened to 24 characters.",
        "The file's name of class 2 was shortened to 24 characters.",
    ]
    assert _link_names([HTML])[0] == ("<img src=x onerror=alert",)
    assert MAX_NAME_CHARS == 24


def test_control_and_format_characters_are_stripped_and_spaces_collapse():
    raw = "se\x00to\x1b[31m\x7fsa\u202e\u200b\n\tlong\u2028 name\x85 "
    names, messages = clean_class_names([raw, "\x00\x01", "  "])
    assert names == ("seto[31msa long name",) and messages == []


@pytest.mark.parametrize(
    ("raw", "expected", "message"),
    [
        ([["setosa"]], (), "The link's name of class 1 is not text and was ignored."),
        (["a", {"b": 1}, "c"], ("a", "", "c"), "The link's name of class 2 is not text and was ignored."),
        (["a", 7, True], ("a",), "The link's name of class 2 is not text and was ignored."),
        ("setosa", (), "The link's class names are not a list of names and were ignored."),
        ({"1": "setosa"}, (), "The link's class names are not a list of names and were ignored."),
        (list("abcdefgh"), tuple("abcdef"), "The link names 8 classes; the first 6 names were kept."),
    ],
)
def test_anything_but_a_list_of_strings_is_dropped_with_a_sentence(raw, expected, message):
    names, messages = _link_names(raw)
    assert names == expected
    assert messages[0] == message


def test_a_file_reports_its_own_bad_names():
    text = scene_to_json(_named("a")).replace('"class_names": ["a"]', '"class_names": [["a"], "b"]')
    scene, _view, messages = scene_from_json(text)
    assert scene.class_names == ("", "b")
    assert messages == ["The file's name of class 1 is not text and was ignored."]


@pytest.mark.parametrize("text", ["!!!", "e30", "_w", "WyJh", "gICA", "4pyTIOC4hyDigb4"])
def test_unreadable_names_in_a_link_are_ignored_with_a_sentence(text):
    """Not base64, base64 of a JSON object, of bytes that are not UTF-8, of broken JSON."""
    scene, messages = decode_scene({**encode_scene(Scene(points=POINTS)), "names": text})
    assert scene.class_names == () and scene.points == POINTS
    assert len(messages) == 1 and "class names" in messages[0]


def test_a_huge_names_part_is_refused_before_it_is_decoded():
    scene, messages = decode_scene({**encode_scene(Scene(points=POINTS)), "names": "A" * 100_000})
    assert scene.class_names == () and messages == ["The link's 'names' part is too long and was ignored."]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=60), st.none(), st.integers(), st.lists(st.text(), max_size=2)), max_size=9))
def test_any_names_come_out_bounded_and_printable(raw):
    names, _messages = clean_class_names(raw)
    assert len(names) <= 6 and all(isinstance(name, str) for name in names)
    assert all(len(name) <= MAX_NAME_CHARS and name.isprintable() and name == name.strip() for name in names)
    assert clean_class_names(list(names)) == (names, [])  # clean names are left as they are
    assert _link_names(list(names))[0] == names


def test_a_csv_with_text_labels_names_the_classes():
    read = read_points_csv("sepal,petal,species\n1,2,setosa\n3,4,virginica\n5,6,versicolor\n")
    assert read.class_names == ("setosa", "versicolor", "virginica")
    assert read_points_csv("1,2,0\n3,4,1\n").class_names == ()  # numbers: no class is named "0"
    assert read_points_csv("1,2,1\n3,4,2\n").class_names == ()
    hostile = read_points_csv(f"1,2,{'y' * 40}\n3,4,a\x01b\n")
    assert hostile.class_names == ("ab", "y" * MAX_NAME_CHARS)
