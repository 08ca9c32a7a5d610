"""The shareable link: compact, exact round trip after quantisation, and unbreakable decoding."""

import urllib.parse

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playground import ClusterSpec, Window, make_clusters
from playground.link import MAX_LINK_POINTS, decode_points, decode_scene, encode_points, encode_scene, quantise
from playground.scene import PointSet, Scene


def _scene(n_per_class=(67, 67, 66)):
    X, y = make_clusters([ClusterSpec((-2, 0), (1, 0.5), 20), ClusterSpec((2, 1)), ClusterSpec((0, 3))], n_per_class)
    return Scene(
        points=PointSet.from_arrays(X, y),
        method="svm",
        params=(("C", 3.0),),
        multiclass="ovo",
        basis="rbf",
        basis_params=(("centres", ((0.0, 1.0), (2.5, -1.0))), ("width", 0.8)),
        window=Window(-4, 4, -3, 5),
        step=7,
        seed=42,
    )


def test_two_hundred_points_fit_in_a_short_link():
    query = encode_scene(_scene())
    assert len(urllib.parse.urlencode(query)) < 2000


def test_round_trip_reproduces_the_scene():
    scene = _scene()
    decoded, messages = decode_scene(encode_scene(scene))
    assert messages == []
    assert decoded == Scene(**{**scene.__dict__, "points": quantise(scene.points)})
    # Quantisation error is below 1/65535 of the points' extent; labels are exact.
    np.testing.assert_allclose(decoded.points.X, scene.points.X, atol=1e-4 * np.ptp(scene.points.X))
    np.testing.assert_array_equal(decoded.points.y, scene.points.y)
    # A link made from a decoded scene is the same link: sharing is idempotent.
    assert encode_scene(decoded) == encode_scene(scene)


def test_query_string_round_trip_through_a_real_url():
    scene = _scene()
    url = "https://example.org/?" + urllib.parse.urlencode(encode_scene(scene))
    parsed = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    assert decode_scene(parsed)[0] == decode_scene(encode_scene(scene))[0]


def test_degenerate_point_sets_encode():
    for X in ([[1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]], [[0.0, 0.0], [0.0, 5.0]]):
        points = PointSet.from_arrays(X, [0] * len(X))
        np.testing.assert_allclose(decode_points(encode_points(points)).X, X)


@pytest.mark.parametrize(
    "query, expected",
    [
        ({"p": "garbage"}, "points were ignored"),
        ({"p": "0,1,0,1~@@@@"}, "points were ignored"),
        ({"p": "0,1,0,nan~eJwLAAA"}, "bounding box"),
        ({"m": "quantum"}, "unknown method"),
        ({"mp": "{not json"}, "not readable"),
        ({"mp": '{"bogus": 1}'}, "unknown"),
        ({"m": "svm", "mp": '{"C": 1e300}'}, "not allowed"),
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
