"""Files: points as CSV and the scene as JSON round-trip exactly; the labels people use map to
classes with a sentence; a malformed file raises one sentence naming the problem and its line;
random damage never escapes as another exception."""

import json
import re
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground import ClusterSpec, Window, make_clusters
from playground.errors import InvalidDataError, PlaygroundError
from playground.fileio import MAX_UPLOAD_BYTES, MAX_UPLOAD_MB, points_to_csv, scene_from_json, scene_to_json
from playground.link import MAX_OPTIONS
from playground.points_csv import points_from_csv, read_points_csv
from playground.scene import PointSet, Scene
from playground.validation import MAX_POINTS


def _points(n_per_class=(20, 20, 20)):
    X, y = make_clusters([ClusterSpec((-2, 0), (1, 0.5), 20), ClusterSpec((2, 1)), ClusterSpec((0, 3))], n_per_class)
    return PointSet.from_arrays(X, y)


def _scene():
    return Scene(
        points=_points(),
        method="perceptron",
        params=(("eta", 0.5), ("max_epochs", 7), ("random_state", 0), ("shuffle", False), ("w_init", (5.0, -6.0, 1.0))),
        multiclass="ovo",
        basis="rbf",
        basis_params=(
            ("centres", ((0.0, 1.0), (2.5, -1.0))),
            ("include_input", False),
            ("placement", "given"),
            ("width", 0.7),
        ),
        window=Window(-4.5, 4.25, -3.0, 5.0),
        view_revision=3,  # not part of a file: the app's own counter
        step=7,
        seed=42,
    )


VIEW = {"panel_options": {"posterior_display": "posterior", "fisher_angle": 30.5}, "tab": "Iterations"}


# ---- CSV ----------------------------------------------------------------------------------------


def test_csv_round_trip_is_exact():
    points = _points()
    text = points_to_csv(points)
    assert text.splitlines()[0] == "x1,x2,class"
    assert points_from_csv(text) == points
    assert points_from_csv(text.encode()) == points


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=True),
            st.floats(-1e6, 1e6, allow_nan=False),
            st.integers(0, 5),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_csv_round_trip_keeps_every_bit(rows):
    points = PointSet.from_arrays([r[:2] for r in rows], [r[2] for r in rows])
    assert points_from_csv(points_to_csv(points)) == points


@pytest.mark.parametrize(
    "text",
    [
        "1.5,2,1\n-3,4e-3,2\n",  # no header
        "x,y,label\n1.5,2,1\n-3,0.004,2\n",
        "X1;X2;Class\n1.5;2;1\n-3;0.004;2\n",  # semicolons
        "x1\tx2\tclass\n１．５\t２\t１\n－3\t٠٫٠٠٤\t٢\n",  # full-width and Arabic-Indic digits, as typed
        "x1\tx2\tclass\n1.5\t2\t1\n-3\t0.004\t2\n",
        "\ufeffx1,x2,class\r\n\r\n1.5,2,1\r\n\r\n-3,0.004,2\r\n\r\n",  # BOM, CRLF, blank lines
        '"x1","x2","class"\n"1.5", "2", "1"\n -3 , 0.004 , 2.0 \n',  # quotes, spaces, a whole float
        "label,y,x\n1,2,1.5\n2,0.004,-3\n",  # named columns in another order
        "x1,x2,y\n1.5,2,1\n-3,0.004,2\n",  # scikit-learn's names: y is the class
        "height,weight,species\n1.5,2,1\n-3,0.004,2\n",  # unknown names: taken in order
    ],
)
def test_csv_variants_are_read(text):
    expected = PointSet.from_arrays([[1.5, 2.0], [-3.0, 0.004]], [0, 1])
    assert points_from_csv(text) == expected
    assert points_from_csv(text.encode("utf-8")) == expected


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("x1,x2,class\n1,2,1\n\n1,2\n", ["Line 4", "expected 3 columns", "found 2 columns"]),
        ("1,2,1\n1,2,1,4\n", ["Line 2", "found 4 columns"]),
        (
            "x1,x2,class\n1,2,1\n1,2,1\n3,4,2\n5,6,2\n1,1,1\nabc_is_not,abc,1\n",
            ["Line 7, column x1: abc_is_not is not"],
        ),
        ("x1,x2,class\n1,2,1\n1,2,1\n3,4,2\n5,6,2\n1,1,1\n1,abc,1\n", ["Line 7, column x2: abc is not a number."]),
        ("1,nan,1\n", ["Line 1, column x2: nan is not a finite number"]),
        ("1,2,1\n-inf,2,1\n", ["Line 2, column x1: -inf is not a finite number"]),
        ("1,2,1\n1e999,2,1\n", ["Line 2, column x1: 1e999 is outside the range ±1,000,000"]),
        ("X1;X2;Class\n1,5;2;1\n", ["Line 2, column x1: 1,5 has a comma", "decimal point"]),
        ("x1\tx2\tclass\n1.5\t2\t1\n0\t1,000\t2\n", ["Line 3, column x2: 1,000 has a comma"]),
        ("x1\tx2\tclass\n1.5\t2\t1\n0\t1\t1,5\n", ["Line 3, column class: 1,5 has a comma"]),
        ("1,2,1\n1_000,2,1\n", ["Line 2, column x1: 1_000 is not a number."]),
        ("1,2,1\n1e300,2,1\n", ["Line 2", "outside the range ±1,000,000"]),
        ("1,2,1\n1,2,setosa\n", ["mixes numbers and text", "line 1: 1", "line 2: 'setosa'"]),
        ("".join(f"{k},0,{k}\n" for k in range(7)), ["7 different labels", "(0, 1, 2, 3, 4, 5, 6)", "at most 6"]),
        ("".join(f"{k},0,c{k}\n" for k in range(9)), ["9 different labels", "'c0', 'c1'", "…"]),
        ("1,2,1\n1,2,nan\n", ["Line 2, column class: nan is not a finite number"]),
        ("1,2,1\n1,2,\n", ["Line 2, column class: the cell is empty."]),
        ("1,2,1\n1,,1\n", ["Line 2, column x2: the cell is empty."]),
        ("a,b\n1,2\n", ["Line 1", "header has 2 columns"]),
        ("", ["empty"]),
        ("\n \r\n\t\n", ["empty"]),
        ("x1,x2,class\n\n", ["header but no rows"]),
    ],
)
def test_malformed_csv_names_the_problem_and_the_line(text, fragments):
    with pytest.raises(InvalidDataError) as raised:
        points_from_csv(text)
    message = str(raised.value)
    assert all(fragment in message for fragment in fragments), message
    assert message.count(".") >= 1 and "\n" not in message  # one sentence


def test_csv_that_is_not_utf8_names_the_line():
    with pytest.raises(InvalidDataError, match=r"Line 3: the file is not UTF-8 text \(byte 0xe9"):
        points_from_csv("x1,x2,class\n1,2,1\ncaf\u00e9,2,1\n".encode("latin-1"))


def test_csv_over_the_size_limit_is_refused_before_parsing():
    with pytest.raises(InvalidDataError, match=r"the limit is 2 MB \(2,000,000 bytes\)"):
        points_from_csv(b"1,2,1\n" * (MAX_UPLOAD_BYTES // 6 + 1))
    at_the_limit = b"1,2,1" + b" " * (MAX_UPLOAD_BYTES - 6) + b"\n"
    assert len(at_the_limit) == MAX_UPLOAD_BYTES and len(points_from_csv(at_the_limit)) == 1


def test_the_upload_limit_is_one_number():
    """The app's check, the uploader's and Streamlit's server.maxUploadSize are the same 2 MB.

    The uploader counts 10^6 bytes to the MB and the server 2^20, so the server refuses only what
    the app would refuse anyway, and a file the uploader lets through gets the app's own message.
    """
    import tomllib
    from pathlib import Path

    config = tomllib.loads((Path(__file__).resolve().parent.parent / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == MAX_UPLOAD_MB
    assert MAX_UPLOAD_BYTES == MAX_UPLOAD_MB * 10**6 <= MAX_UPLOAD_MB * 2**20


@pytest.mark.parametrize(
    ("text", "classes", "names", "fragments"),
    [
        ("1,2,0\n3,4,1\n5,6,1\n", (0, 1, 1), ("0", "1"), ["sorted order", "0 → class 1", "1 → class 2"]),
        ("x,y,target\n1,2,2\n3,4,0\n5,6,1\n", (2, 0, 1), ("0", "1", "2"), ["0 → class 1", "2 → class 3"]),
        ("1,2,-1\n3,4,1\n", (1, 0), ("+1", "-1"), ["t = +1 is C₁", "+1 → class 1", "-1 → class 2"]),
        ("1,2,-1.0\n3,4,+1\n", (1, 0), ("+1", "-1"), ["+1 → class 1"]),
        ("1,2,10\n3,4,20\n5,6,7\n", (1, 2, 0), ("7", "10", "20"), ["7 → class 1", "20 → class 3"]),
        ("1,2,0.5\n3,4,1.5\n", (0, 1), ("0.5", "1.5"), ["0.5 → class 1"]),
        (
            "sepal,petal,species\n1,2,setosa\n3,4,virginica\n5,6,versicolor\n7,8,setosa\n",
            (0, 2, 1, 0),
            ("setosa", "versicolor", "virginica"),
            ["'setosa' → class 1", "'versicolor' → class 2", "'virginica' → class 3"],
        ),
        ('1;2;"Iris setosa"\n3;4;B\n', (1, 0), ("B", "Iris setosa"), ["'B' → class 1"]),
    ],
)
def test_labels_people_have_map_to_classes_in_sorted_order(text, classes, names, fragments):
    result = read_points_csv(text)
    assert result.points.labels == classes
    assert result.class_labels[: len(names)] == names and set(result.class_labels[len(names) :]) == {None}
    assert all(fragment in result.message for fragment in fragments), result.message


def test_the_classes_themselves_are_kept_without_a_message():
    """A file the playground wrote (classes 1-6, some unused) comes back as it was."""
    result = read_points_csv("1,2,2\n3,4,5\n5,6,2.0\n")
    assert result.points.labels == (1, 4, 1) and result.message is None
    assert result.class_labels == (None,) * 6


def test_csv_with_too_many_rows_says_how_many_and_the_limit():
    with pytest.raises(InvalidDataError, match=r"25,000 rows of points; at most 20,000"):
        points_from_csv("x1,x2,class\n" + "0,0,1\n" * 25_000)
    assert len(points_from_csv("0,0,1\n" * MAX_POINTS)) == MAX_POINTS


# ---- JSON ---------------------------------------------------------------------------------------


def test_json_round_trip_reproduces_the_scene_and_the_view():
    scene = _scene()
    text = scene_to_json(scene, VIEW)
    loaded, view, messages = scene_from_json(text)
    assert messages == []
    assert loaded == replace(scene, view_revision=0)
    assert view == VIEW
    assert scene_to_json(loaded, view) == text  # saving a loaded file gives the same file


def test_json_lists_one_point_per_line():
    scene = _scene()
    lines = scene_to_json(scene).splitlines()
    rows = [json.loads(line.strip().rstrip(",")) for line in lines if line.startswith("    [")]
    assert len(rows) == len(scene.points)
    assert rows[0] == [*scene.points.xy[0], scene.points.labels[0] + 1]


def test_empty_scene_round_trips():
    loaded, view, messages = scene_from_json(scene_to_json(Scene()))
    assert loaded == Scene() and view == {} and messages == []


def test_hand_written_json_with_points_only_is_framed():
    loaded, _, messages = scene_from_json('{"points": [[10, 20, 1], [12, 22, 2]]}')
    assert loaded.points == PointSet.from_arrays([[10, 20], [12, 22]], [0, 1])
    assert loaded.window.x_min < 10 < 12 < loaded.window.x_max
    assert messages == ["The file does not say it is a playground scene; it was read as well as possible."]


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ('{\n  "method": "svm",\n  "points": [[1, 2, 1],,]\n}', ["Line 3, column 24", "not valid JSON"]),
        ('{"points": [[1, 2, 1]]', ["Line 1, column 23", "not valid JSON"]),
        ("[[1, 2, 1]]", ["not a scene"]),
        ('{"method": "svm"}', ["no 'points'"]),
        ('{\n"seed": 1,\n"points": {"a": 1}\n}', ["Line 3", "'points' must be a list"]),
        (
            '{"points": [\n  [1, 2, 1],\n  [1, 2, 7]\n]}',
            ["Line 3: point 2, class: 7 is not a class; classes are 1 to 6"],
        ),
        ('{"points": [\n  [1, 2, 1],\n  [1, "abc", 1]\n]}', ["Line 3", "point 2", 'x2 = "abc"', "not a number"]),
        ('{"points": [[1, 2, 1], [1, 2]]}', ["Line 1", "point 2", "[1, 2]", "not a row"]),
        ('{"points": [\n[NaN, 2, 1]]}', ["Line 2", "point 1", "not a finite number"]),
        ('{"points": [[1, 2, 1], [1e400, 2, 1]]}', ["point 2, x1: inf is not a finite number"]),
        ('{"points": [[1, 2e300, 1]]}', ["point 1, x2: 2e+300 is outside the range ±1,000,000"]),
        ('{"points": [[1, 2, 1.5]]}', ["point 1, class: 1.5 is not a class"]),
        ('{"points": [[1, 2, true]]}', ["point 1", "class = true", "not a number"]),
        ("", ["empty"]),
        ("[" * 100_000, ["nested too deeply"]),
    ],
)
def test_unusable_json_names_the_problem_and_the_line(text, fragments):
    with pytest.raises(InvalidDataError) as raised:
        scene_from_json(text)
    message = str(raised.value)
    assert all(fragment in message for fragment in fragments), message


def test_the_line_of_a_bad_point_follows_the_layout():
    scene = replace(_scene(), points=_points((3, 3, 3)))
    text = scene_to_json(scene, VIEW)
    lines = text.splitlines()
    target = next(i for i, line in enumerate(lines) if line.startswith("    [")) + 4  # the fifth point
    lines[target] = lines[target].replace("[", '["oops", ', 1)
    with pytest.raises(InvalidDataError, match=rf"^Line {target + 1}: point 5 is "):
        scene_from_json("\r\n".join(lines))


def test_json_too_big_or_with_too_many_points_is_refused():
    with pytest.raises(InvalidDataError, match="the limit is 2 MB"):
        scene_from_json(b" " * (MAX_UPLOAD_BYTES + 1))
    with pytest.raises(InvalidDataError, match=r"20,001 points; at most 20,000"):
        scene_from_json('{"points": [' + ",".join(["[0,0,1]"] * (MAX_POINTS + 1)) + "]}")
    with pytest.raises(InvalidDataError, match=r"Line 1: the file is not UTF-8"):
        scene_from_json(b'{"points": [], "method": "\xff"}')


def test_unusable_settings_fall_back_with_one_sentence_each():
    raw = json.loads(scene_to_json(_scene(), VIEW))
    raw.update(
        version=99,
        method="quantum",
        params={"eta": 0.5},  # validated against least squares, the fallback method
        multiclass="all-vs-all",
        basis="fourier",
        basis_params={"degree": "x" * 500},
        window=[0, 0, 0, 1],
        step=-3,
        seed="seven",
        colour="blue",
        view={"panel_options": {"a": {"nested": 1}, "b": 2}, "tab": "x" * 100, "compare": ["svm", "fisher"]},
    )
    scene, view, messages = scene_from_json(json.dumps(raw))
    text = "\n".join(messages)
    for fragment in (
        "another version",
        "unknown method 'quantum'",
        "method parameter 'eta' is unknown",
        "multi-class strategy 'all-vs-all'",
        "basis 'fourier'",
        "view window",
        "playback step",
        "seed",
        "field 'colour'",
        "panel setting 'a' is unknown",
        "open tab",
    ):
        assert fragment in text, (fragment, messages)
    assert (scene.method, scene.params, scene.multiclass, scene.basis, scene.step, scene.seed) == (
        "least_squares",
        (("targets", "one_of_k"),),  # the defaults
        "native",
        "identity",
        None,
        0,
    )
    assert scene.points == _scene().points
    assert view == {"panel_options": {}, "compare": ("svm", "fisher")}


def test_file_view_obeys_the_links_bounds():
    many = {f"option{i}": i for i in range(3 * MAX_OPTIONS - 1)} | {"geometry": False}
    junk = {f"junk{i}": {"x": 1} for i in range(50)}
    _, view, messages = scene_from_json(json.dumps({"points": [], "view": {"panel_options": many, **junk}}))
    assert view["panel_options"] == {}  # the known setting came after the first MAX_OPTIONS
    assert any(f"holds {3 * MAX_OPTIONS} panel settings; the first {MAX_OPTIONS} were read" in m for m in messages)
    assert any("25 more panel settings were ignored" in m for m in messages)
    assert any("45 more view settings were ignored" in m for m in messages)  # counted, not listed
    assert len(messages) <= 15


def test_thousands_of_unknown_parameters_give_a_short_report():
    params = {f"p{i}": i for i in range(5000)}
    _, _, messages = scene_from_json(json.dumps({"points": [], "params": params}))
    assert len(messages) <= 8 and "4,995 more method parameters were ignored" in messages[-1]


# ---- Fuzzing: damage never escapes as another exception ------------------------------------------

VALID_CSV = points_to_csv(_points((4, 4, 4))).encode()
VALID_JSON = scene_to_json(replace(_scene(), points=_points((4, 4, 4))), VIEW).encode()


def _check(reader, data):
    """Either a usable result or a PlaygroundError; never NaN or infinity in the points."""
    try:
        result = reader(data)
    except PlaygroundError as err:
        assert str(err)
        return
    points = result if isinstance(result, PointSet) else result[0].points
    assert np.all(np.isfinite(points.X)) and np.all((points.y >= 0) & (points.y < 6))
    if not isinstance(result, PointSet):
        assert all(isinstance(m, str) and m for m in result[2])


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_never_raise_anything_else(data):
    _check(points_from_csv, data)
    _check(scene_from_json, data)


JUNK = st.sampled_from(
    [b"abc", b"1e999", b"-1e308", b"9" * 400, b"NaN", b"Infinity", b",,,", b";", b"\t", b'"', b"[", b"]", b"{", b"}"]
    + [b"\xff\xfe", b"\x00", b"\r", b"\n", b"1,2,99", b"[1, 2, 3]", b'"points": 1,', b"\xef\xbb\xbf"]
)


@st.composite
def mutations(draw, valid):
    """One or two kinds of damage: truncation, a bit flip, inserted junk, a number replaced by junk
    or by a huge number, a junk line; most leave the rest of the file readable."""
    data = bytearray(valid)
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["truncate", "flip", "insert", "number", "number", "line"]))
        if kind == "truncate":
            del data[draw(st.integers(len(data) // 2, len(data))) :]
        elif kind == "flip" and data:
            data[draw(st.integers(0, len(data) - 1))] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            position = draw(st.integers(0, len(data)))
            data[position:position] = draw(JUNK)
        elif kind == "number":
            numbers = list(re.finditer(rb"-?[0-9][0-9.e+-]*", bytes(data)))
            if numbers:
                match = draw(st.sampled_from(numbers))
                data[match.start() : match.end()] = draw(JUNK | st.sampled_from([b"1e308", b"-1e300", b"7", b"0"]))
        else:
            lines = bytes(data).split(b"\n")
            lines.insert(draw(st.integers(0, len(lines))), draw(JUNK) + b"," + draw(JUNK))
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@settings(max_examples=150, deadline=None)
@given(mutations(VALID_CSV))
def test_damaged_csv_never_raises_anything_else(data):
    _check(points_from_csv, data)


@settings(max_examples=150, deadline=None)
@given(mutations(VALID_JSON))
def test_damaged_json_never_raises_anything_else(data):
    _check(scene_from_json, data)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 30), st.sampled_from(["1e308", "-1e999", "1" * 5000, "1e-400", "0x10", "1_0"]))
def test_huge_and_odd_numbers_in_a_json_row_are_caught(index, number):
    rows = [json.dumps([1.0, 2.0, 1])] * 31
    rows[index] = f"[{number}, 2.0, 1]"
    _check(scene_from_json, ('{"points": [\n' + ",\n".join(rows) + "\n]}").encode())
