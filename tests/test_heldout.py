"""Test points (issue 16): the train/test flag in the point set, links, files and undo."""

import numpy as np
import pytest

from playground import InvalidDataError, PlaygroundError
from playground.fileio import points_to_csv, scene_from_json, scene_to_json
from playground.link import decode_points, decode_scene, encode_points, encode_scene
from playground.points_csv import read_points_csv
from playground.scene import History, PointSet, Scene


def _mixed(n=40, seed=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * 3
    y = rng.integers(0, 3, n)
    test = rng.random(n) < 0.3
    return PointSet.from_arrays(X, y, test)


def test_a_set_without_test_points_is_one_value_however_it_is_made():
    a = PointSet.from_arrays([[0, 1], [2, 3]], [0, 1])
    b = PointSet.from_arrays([[0, 1], [2, 3]], [0, 1], [False, False])
    c = PointSet(a.xy, a.labels, (False, False))
    assert a == b == c and a.test == () and a.digest == b.digest
    assert a.training is a and len(a.testing) == 0


def test_training_and_testing_split_the_points():
    points = _mixed()
    assert points.n_test == int(points.is_test.sum()) > 0
    np.testing.assert_array_equal(points.training.X, points.X[~points.is_test])
    np.testing.assert_array_equal(points.testing.y, points.y[points.is_test])
    assert len(points.training) + len(points.testing) == len(points)
    # the flags change the fingerprint the caches key on
    assert points.digest != PointSet(points.xy, points.labels).digest


def test_edits_keep_every_points_flag():
    points = PointSet().added(0, 0, 0).added(1, 1, 1, test=True).added(2, 2, 0)
    assert points.test == (False, True, False)
    assert points.removed([0]).test == (True, False)
    assert points.removed([1]).test == ()
    assert points.extended(PointSet().added(5, 5, 2, test=True)).test == (False, True, False, True)
    assert points.with_test([1], False).test == ()
    assert points.with_test([0, 2]).test == (True, True, True)
    assert PointSet.from_rows(points.rows()) == points
    with pytest.raises(InvalidDataError):
        PointSet(points.xy, points.labels, (True,))


def test_scene_training_holds_the_training_points_alone():
    points = _mixed()
    scene = Scene(points=points, method="svm")
    assert scene.training.points == points.training and scene.training.method == "svm"
    plain = Scene(points=points.training)
    assert plain.training is plain


def test_the_flag_round_trips_through_the_link_exactly():
    points = _mixed(200)
    decoded = decode_points(encode_points(points))
    assert decoded == points and decoded.test == points.test
    scene, messages = decode_scene(encode_scene(Scene(points=points, window=Scene().window)))
    assert scene.points == points and messages == []


def test_a_link_without_test_points_is_unchanged_and_old_links_are_all_training():
    points = _mixed().training
    # The label bytes are what they were before the flag existed: every old link reads the same.
    assert encode_points(points) == encode_points(PointSet(points.xy, points.labels))
    assert decode_points(encode_points(points)).test == ()


def test_test_points_cost_the_link_about_a_bit_each():
    points = _mixed(200)
    same_without_flags = PointSet(points.xy, points.labels)
    # 200 random flags carry about 180 bits of information: 30 base64 characters at the least.
    assert len(encode_points(points)) - len(encode_points(same_without_flags)) <= 60


def test_a_damaged_label_byte_is_refused_with_a_sentence():
    import base64
    import zlib

    points = PointSet.from_arrays([[0, 0], [1, 1]], [0, 1], [True, False])
    raw = bytearray(zlib.decompress(base64.urlsafe_b64decode(encode_points(points) + "==")))
    raw[-1] = 0x40 | 1  # a bit that means nothing
    text = base64.urlsafe_b64encode(zlib.compress(bytes(raw))).rstrip(b"=").decode()
    with pytest.raises(PlaygroundError, match="class"):
        decode_points(text)
    scene, messages = decode_scene({"v": "2", "p": text})
    assert len(scene.points) == 0 and "points were ignored" in messages[0]


def test_the_flag_round_trips_through_csv():
    points = _mixed()
    text = points_to_csv(points)
    assert text.splitlines()[0] == "x1,x2,class,set"
    assert read_points_csv(text).points == points
    # no test points: no set column, as before
    assert points_to_csv(points.training).splitlines()[0] == "x1,x2,class"


@pytest.mark.parametrize(
    "text, flags",
    [
        ("x1,x2,class,set\n1,2,1,train\n3,4,2,test\n", (False, True)),
        ("set;x;y;label\nTEST;1;2;a\n;3;4;b\n", (True, False)),
        ("1,2,1,Testing\n3,4,2,training\n", (True, False)),
        ("x1\tx2\tclass\n1\t2\t1\n", ()),
    ],
)
def test_the_set_column_is_read_in_any_place_and_case(text, flags):
    assert read_points_csv(text).points.test == flags


@pytest.mark.parametrize(
    "text, message",
    [
        ("x1,x2,class,set\n1,2,1,validation\n", "Line 2: the set 'validation' is neither train nor test"),
        ("x1,x2,class,colour\n1,2,1,red\n", "no single 'set' column"),
        ("x1,x2,class,set\n1,2,1\n", "Line 2: expected 4 columns (x1, x2, class, set)"),
        ("1,2,1,test\n3,4,2\n", "Line 2: expected 4 columns"),
        ("x1,x2,class,set,more\n1,2,1,test,0\n", "expected 3 (x1, x2, class) or 4"),
    ],
)
def test_a_bad_set_column_is_named_and_refused(text, message):
    with pytest.raises(InvalidDataError) as err:
        read_points_csv(text)
    assert message in str(err.value)


def test_the_flag_round_trips_through_json():
    points = _mixed()
    scene, _, messages = scene_from_json(scene_to_json(Scene(points=points, method="logistic")))
    assert scene.points == points and messages == []
    assert '"test"]' in scene_to_json(Scene(points=points))
    assert '"test"' not in scene_to_json(Scene(points=points.training))


@pytest.mark.parametrize("fourth", ['"holdout"', "true", "1", '["test"]'])
def test_a_bad_json_set_value_is_named_and_refused(fourth):
    text = '{"points": [[1, 2, 1], [3, 4, 2, ' + fourth + "]]}"
    with pytest.raises(InvalidDataError, match="point 2"):
        scene_from_json(text)


def test_undo_and_redo_keep_the_flags():
    points = _mixed()
    changed = points.with_test(range(len(points)), False)
    history = History().pushed(points)
    history, back = history.undone(changed)
    assert back == points and back.test == points.test
    _, forward = history.redone(back)
    assert forward == changed


def test_a_click_or_a_selection_in_switch_mode_moves_points_to_the_other_set():
    from ui.session.edits import _switched, _without

    points = PointSet().added(0, 0, 0).added(1, 1, 1, test=True).added(2, 2, 0).added(2, 2, 0)
    rows = points.rows()
    assert _switched(points, [rows[0], rows[1]]).test == (True, False, False, False)
    assert _switched(points, [rows[1]]).test == ()
    assert _switched(points, [rows[2], rows[3]]).test == (False, True, True, True)  # equal points: both
    # A removal keeps the other points' flags.
    assert PointSet.from_rows(_without(rows, [rows[0]])).test == (True, False, False)


def test_held_out_is_stratified_and_reproducible():
    points = PointSet.from_arrays(np.random.default_rng(0).normal(size=(50, 2)), [0] * 20 + [1] * 30)
    held = points.held_out(0.2, 7)
    assert list(held.testing.counts()[:2]) == [4, 6] and held == points.held_out(0.2, 7)
    assert held != points.held_out(0.2, 8) and points.held_out(0.0, 7) == points
    with pytest.raises(InvalidDataError):
        points.held_out(1.0)
