"""The shareable link: compact, bit-exact round trip of points on the grid, old links still open,
and unbreakable decoding that checks every value against the widgets' own table."""

import urllib.parse

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground import ClusterSpec, Window, make_clusters
from playground.link import (
    MAX_LINK_POINTS,
    decode_method_list,
    decode_options,
    decode_points,
    decode_scene,
    encode_points,
    encode_scene,
    simple_value,
)
from playground.scene import GRID_STEP, MIN_VIEW, PointSet, Scene


def _scene(n_per_class=(67, 67, 66)):
    X, y = make_clusters([ClusterSpec((-2, 0), (1, 0.5), 20), ClusterSpec((2, 1)), ClusterSpec((0, 3))], n_per_class)
    return Scene(
        points=PointSet.from_arrays(X, y),
        method="svm",
        params=(("C", 3.0),),
        multiclass="ovo",
        basis="rbf",
        basis_params=(
            ("centres", ((0.0, 1.0), (2.5, -1.0))),
            ("include_input", False),
            ("placement", "given"),
            ("width", 0.7),
        ),
        window=Window(-4, 4, -3, 5),
        step=7,
        seed=42,
    )


def _link_length(n_points):
    X, y = make_clusters(
        [ClusterSpec((-2, 0), (1, 0.5), 20), ClusterSpec((2, 1)), ClusterSpec((0, 3))],
        [n_points // 3, n_points // 3, n_points - 2 * (n_points // 3)],
    )
    scene = Scene(points=PointSet.from_arrays(X, y), window=Window.around(X))
    return len(urllib.parse.urlencode(encode_scene(scene)))


def test_two_hundred_points_fit_in_a_short_link():
    assert len(urllib.parse.urlencode(encode_scene(_scene()))) < 2000
    # docs/sharing.md states these lengths (whole query string, three clusters in a view about 10 wide).
    assert _link_length(200) < 1_800 and _link_length(1_000) < 8_000


def test_round_trip_is_bit_exact():
    scene = _scene()
    decoded, messages = decode_scene(encode_scene(scene))
    assert messages == []
    assert decoded == scene  # points, window, every parameter
    # The very same float64 values, not merely close ones: every number a panel shows is the same.
    assert decoded.points.X.tobytes() == scene.points.X.tobytes()
    assert decoded.points.digest == scene.points.digest
    # A link made from a decoded scene is the same link: sharing is idempotent.
    assert encode_scene(decoded) == encode_scene(scene)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e6, 1e6, allow_nan=False),
            st.floats(-1e6, 1e6, allow_nan=False),
            st.integers(0, 5),
        ),
        max_size=60,
    ),
    st.sampled_from([1.0, 1e-3, 1e3, 1e6]),
)
def test_any_points_round_trip_bit_for_bit(rows, scale):
    """Tiny clouds, huge offsets, the ±1e6 limits: the receiver holds the sender's float64 values."""
    X = np.clip(np.array([r[:2] for r in rows], dtype=float).reshape(-1, 2) / 1e6 * scale, -1e6, 1e6)
    points = PointSet.from_arrays(X, [r[2] for r in rows])
    decoded = decode_points(encode_points(points))
    assert decoded == points and decoded.X.tobytes() == points.X.tobytes()
    # Snapping moved nothing by more than half a grid step, and snapping again moves nothing.
    assert np.all(np.abs(points.X - X) <= GRID_STEP / 2 * (1 + 1e-9))
    assert PointSet.from_arrays(points.X, points.y) == points


def test_points_typed_with_few_decimals_stay_exactly_as_typed():
    points = PointSet.from_arrays([[1, 2], [3, 4.9], [-0.25, 1e6], [0.1, -0.3]], [0, 0, 1, 1])
    assert points.xy == ((1.0, 2.0), (3.0, 4.9), (-0.25, 1e6), (0.1, -0.3))
    assert decode_points(encode_points(points)).xy == points.xy


def test_version_1_links_still_open():
    """A link made before the grid (16-bit quantised over the bounding box) opens, snapped."""
    link_v1 = {
        "v": "1",
        "p": "-2.5,3.5,-1.0,4.0~eNpjZoCA_0DA0ACEjIwAKykFAg",  # made by the version 1 encoder
        "m": "svm",
        "mp": '{"C":3.0}',
        "w": "-4,4,-3,5",
    }
    scene, messages = decode_scene(link_v1)
    assert messages == [] and scene.method == "svm" and scene.param_dict == {"C": 3.0}
    # Version 1 was lossy (16 bits over the box): within 1e-4 here, then snapped to the grid.
    np.testing.assert_allclose(scene.points.X, [[-2.5, -1.0], [3.5, 4.0], [0.5, 1.5]], atol=1e-4)
    assert scene.points.labels == (0, 1, 1)
    assert PointSet.from_arrays(scene.points.X, scene.points.y) == scene.points  # on the grid


def test_query_string_round_trip_through_a_real_url():
    scene = _scene()
    url = "https://example.org/?" + urllib.parse.urlencode(encode_scene(scene))
    parsed = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    assert decode_scene(parsed)[0] == decode_scene(encode_scene(scene))[0]


def test_degenerate_point_sets_encode():
    for X in ([[1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]], [[0.0, 0.0], [0.0, 5.0]], [[-1e6, 1e6], [1e6, -1e6]]):
        points = PointSet.from_arrays(X, [0] * len(X))
        np.testing.assert_array_equal(decode_points(encode_points(points)).X, X)
    assert decode_points(encode_points(PointSet())) == PointSet()


@pytest.mark.parametrize(
    "query, expected",
    [
        ({"p": "garbage"}, "points were ignored"),
        ({"p": "0,1,0,1~@@@@"}, "points were ignored"),
        ({"p": "0,1,0,nan~eJwLAAA"}, "bounding box"),
        ({"p": "eJwLAAA"}, "points were ignored"),
        ({"m": "quantum"}, "unknown method"),
        ({"mp": "{not json"}, "not readable"),
        ({"mp": '{"bogus": 1}'}, "unknown"),
        ({"m": "svm", "mp": '{"C": 1e300}'}, "not one of the values offered"),
        ({"m": "svm", "mp": '{"C": ' + "9" * 400 + "}"}, "400 digits"),
        ({"m": "perceptron", "mp": '{"w_init": ["a", "b", "c"]}'}, "not a number"),
        ({"m": "perceptron", "mp": '{"w_init": [[1], [2], [3]]}'}, "w_init"),
        ({"m": "perceptron", "mp": '{"max_epochs": 501}'}, "outside 1 to 500"),
        ({"m": "naive_bayes", "mp": '{"variant": "bernoulli", "thresholds": ["a", "b"]}'}, "thresholds"),
        ({"m": "gaussian_shared", "mp": '{"priors": [0, 1]}'}, "priors must be positive"),
        ({"m": "gaussian_shared", "mp": '{"priors": [-0.5, 1.5]}'}, "priors must be positive"),
        ({"m": "logistic", "mp": '{"learning_rate": 0.3}'}, "does not apply"),
        ({"b": "polynomial", "bp": '{"degree": 7}'}, "outside 1 to 6"),
        ({"b": "polynomial", "bp": '{"degree": "abc"}'}, "not a whole number"),
        ({"b": "polynomial", "bp": '{"degree": [1, 2]}'}, "not a whole number"),
        ({"b": "rbf", "bp": '{"placement": "data", "n_centres": 100}'}, "outside 1 to 50"),
        ({"b": "rbf", "bp": '{"centres": 5}'}, "points [x, y]"),
        ({"w": "0,5e-324,0,5e-324"}, "narrower than the smallest view"),
        ({"w": "0,0.001,0,1"}, "narrower than the smallest view"),
        ({"w": ",".join(["9" * 400] * 4)}, "view window"),
        ({"mc": "all-vs-all"}, "strategy"),
        ({"b": "fourier"}, "basis"),
        ({"w": "0,0,0,1"}, "view window"),
        ({"w": "inf,1,0,1"}, "view window"),
        ({"s": "-3"}, "playback step"),
        ({"seed": "x"}, "seed"),
        ({"v": "99"}, "another version"),
        ({"mp": "x" * 5000}, "too long"),
    ],
)
def test_malformed_links_fall_back_with_a_message(query, expected):
    default = _scene()
    scene, messages = decode_scene(query, default=default)
    assert any(expected in message for message in messages), messages
    assert isinstance(scene, Scene)


def test_truncated_points_keep_the_default_points():
    default = _scene()
    text = encode_scene(default)["p"]
    scene, messages = decode_scene({"p": text[: len(text) // 2]}, default=default)
    assert scene.points == default.points and messages


def test_oversized_point_count_is_refused():
    X = np.zeros((MAX_LINK_POINTS + 1, 2))
    X[:, 0] = np.arange(X.shape[0]) % 97
    big = encode_points(PointSet.from_arrays(X[:20_000], np.zeros(min(len(X), 20_000), int)))
    scene, messages = decode_scene({"p": big})
    assert len(scene.points) == 0 and "at most" in messages[0]


def test_zip_bomb_is_bounded():
    import base64
    import zlib

    bomb = base64.urlsafe_b64encode(zlib.compress(b"\0" * 50_000_000, 9)).decode().rstrip("=")
    scene, messages = decode_scene({"p": f"0,1,0,1~{bomb}"})
    assert len(scene.points) == 0 and messages


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["p", "m", "mp", "mc", "b", "bp", "w", "s", "seed", "v", "zz"]), st.text(max_size=300)
    )
)
def test_random_queries_never_raise(query):
    scene, messages = decode_scene(query)
    assert isinstance(scene, Scene) and all(isinstance(m, str) and m for m in messages)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400), st.integers(0, 399))
def test_mutated_links_never_raise(noise, position):
    text = encode_scene(_scene((5, 5, 5)))["p"]
    mutated = text[:position] + noise.decode("latin-1") + text[position + len(noise) :]
    scene, messages = decode_scene({"p": mutated, "w": mutated[:40], "mp": mutated[:60]})
    assert isinstance(scene, Scene)


def test_a_huge_whole_number_parameter_is_dropped_not_raised():
    """JSON allows integers of any length; float(10**400) overflows, the bound check must not."""
    from playground.link import simple_value

    assert simple_value(10**400) is None and simple_value(-(10**400)) is None
    assert simple_value(7) == 7 and simple_value(float("nan")) is None and simple_value(float("inf")) is None


def test_values_the_widgets_offer_pass_and_come_back_unchanged():
    """A scene the widgets can produce goes through the link without a message or a change."""
    scene = _scene().with_method(
        "perceptron", {"eta": 0.5, "max_epochs": 7, "shuffle": True, "random_state": 12, "w_init": (5.0, -6.0, 1.0)}
    )
    decoded, messages = decode_scene(encode_scene(scene))
    assert messages == [] and decoded.params == scene.params
    logistic = scene.with_method(
        "logistic", {"solver": "gd", "max_iter": 4000, "learning_rate": 0.3, "l2": 0.01, "w_init": (1.0, -1.0, 1.0)}
    )
    decoded, messages = decode_scene(encode_scene(logistic))
    assert messages == [] and decoded.params == logistic.params


def test_a_whole_number_written_as_a_float_or_an_int_finds_the_offered_value():
    scene, messages = decode_scene({"m": "svm", "mp": '{"C": 3}'})
    assert messages == [] and scene.param_dict["C"] == 3.0 and isinstance(scene.param_dict["C"], float)
    scene, messages = decode_scene({"b": "polynomial", "bp": '{"degree": 3.0}'})
    assert messages == [] and scene.basis_param_dict["degree"] == 3
    scene, messages = decode_scene({"m": "svm", "mp": '{"C": true}'})  # True == 1.0 in Python, not here
    assert scene.param_dict["C"] == 1.0 and "not one of the values offered" in messages[0]


def test_integers_too_large_for_a_float_never_overflow():
    huge = int("9" * 400)
    assert simple_value(huge) is None and simple_value([1, huge]) is None and simple_value(10**12) == 10**12
    messages = []
    assert decode_options('{"fisher_angle": ' + "9" * 400 + "}", messages) == {} and messages


def test_panel_options_are_checked_against_their_specs():
    messages = []
    options = decode_options(
        '{"fisher_angle": 190, "sigmoid_point": "x", "posterior_display": ["posterior"], '
        '"equation_point": [1, 2], "geometry": false, "made_up": 1}',
        messages,
    )
    assert options == {"fisher_angle": 10.0, "equation_point": (1.0, 2.0), "geometry": False}
    assert len(messages) == 3 and any("made_up" in m for m in messages)


def test_narrow_windows_fall_back_to_the_points():
    scene = _scene()
    query = encode_scene(scene)
    query["w"] = f"0,{MIN_VIEW / 2},0,1"
    decoded, messages = decode_scene(query)
    assert decoded.window == Window.around(scene.points.X) and "frames the points" in messages[0]
    query["w"] = f"0,{MIN_VIEW},0,{MIN_VIEW}"
    assert decode_scene(query)[0].window == Window(0, MIN_VIEW, 0, MIN_VIEW)


def test_comparing_fewer_than_two_known_methods_shows_one_method():
    messages = []
    assert decode_method_list("svm,svm,quantum", messages) == ()
    assert any("fewer than two" in m for m in messages)
    assert decode_method_list("svm,logistic", []) == ("svm", "logistic")


def test_a_scene_too_big_for_a_link_leaves_its_points_out_and_says_so():
    X = np.column_stack([np.arange(MAX_LINK_POINTS + 1) % 101, np.arange(MAX_LINK_POINTS + 1) // 101]) / 10
    scene = Scene(points=PointSet.from_arrays(X, np.arange(len(X)) % 2), method="svm")
    query = encode_scene(scene)
    assert "p" not in query and query["pn"] == f"{MAX_LINK_POINTS + 1}"
    decoded, messages = decode_scene(query)
    assert len(decoded.points) == 0 and decoded.method == "svm"
    assert f"{MAX_LINK_POINTS + 1:,} points, more than a link carries" in messages[0]
