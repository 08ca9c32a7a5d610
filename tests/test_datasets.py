"""The cluster generator: reproducible, with the covariance it is asked for."""

import numpy as np
import pytest

from playground import ClusterSpec, InvalidDataError, make_clusters


def test_same_seed_same_points_and_different_seed_different_points():
    specs = [ClusterSpec((0, 0)), ClusterSpec((3, 1), (0.5, 2.0), 45)]
    a = make_clusters(specs, 20, seed=7)
    b = make_clusters(specs, 20, seed=7)
    c = make_clusters(specs, 20, seed=8)
    np.testing.assert_array_equal(a[0], b[0])
    assert not np.allclose(a[0], c[0])
    assert a[0].shape == (40, 2) and list(np.bincount(a[1])) == [20, 20]


def test_sample_covariance_matches_rotation_and_spread():
    spec = ClusterSpec((1.0, -2.0), (2.0, 0.5), 30.0)
    X, _ = make_clusters([spec], 20_000 // 4, seed=0)
    np.testing.assert_allclose(X.mean(axis=0), spec.mean, atol=0.08)
    np.testing.assert_allclose(np.cov(X.T), spec.covariance(), atol=0.12)
    theta = np.deg2rad(30)
    major = np.array([np.cos(theta), np.sin(theta)])
    assert major @ spec.covariance() @ major == pytest.approx(4.0)


def test_shared_covariance_uses_the_first_class_shape():
    specs = [ClusterSpec((0, 0), (3.0, 0.3), 0), ClusterSpec((0, 5), (0.3, 3.0), 0)]
    X, y = make_clusters(specs, 3000, shared_covariance=True, seed=1)
    np.testing.assert_allclose(np.cov(X[y == 1].T), specs[0].covariance(), atol=0.3)


def test_first_label_and_zero_spread():
    X, y = make_clusters([ClusterSpec((1, 1), (0, 0))], 5, first_label=4)
    np.testing.assert_array_equal(X, np.ones((5, 2)))
    assert set(y) == {4}


@pytest.mark.parametrize(
    "specs, n",
    [
        ([], 5),
        ([ClusterSpec()] * 7, 5),
        ([ClusterSpec((np.nan, 0))], 5),
        ([ClusterSpec()], 10**6),
        ([ClusterSpec((0, 0), (-1, 1))], 5),
    ],
)
def test_bad_requests_raise(specs, n):
    with pytest.raises(InvalidDataError):
        make_clusters(specs, n)
