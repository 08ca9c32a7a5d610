"""Property tests: every method with every basis survives random and degenerate point sets.

The promise (bad input never crashes and never yields NaN; docs/security.md's "Limits" table says what
is refused): a fit either succeeds and then every output on a 30 x 30 grid over a window around
the data is finite (decision values, posteriors that sum to one, labels among the classes), or it
raises a PlaygroundError carrying a message. Any other exception, a NaN or an infinity fails the
test."""

import warnings
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playground import MODELS, PlaygroundError, PolynomialBasis, RBFBasis, Window, evaluate_grid, make_model
from tests.conftest import two_class_only

RESOLUTION = 30
TWO_CLASS_ONLY = {name for name in MODELS if two_class_only(name)}
BASES = {
    "identity": lambda: None,
    "poly2": lambda: PolynomialBasis(2),
    "rbf4": lambda: RBFBasis(n_centres=4),
}
LABEL_SETS = ((0, 1, 2, 3), (1, 2, 3, 4), (-5, 7, 100, 3))
DEGENERATE = (
    "one_class",
    "one_per_class",
    "identical",
    "collinear",
    "tiny",
    "huge_spread",
    "huge_offset",
    "duplicates",
)
CASES = [(method, basis) for method in MODELS for basis in BASES]
CASE_IDS = [f"{method}-{basis}" for method, basis in CASES]


def windows_around(X):
    """A window with the default minimum size, and one scaled to the data (tight around it)."""
    scale = float(np.max(np.abs(X))) if X.size else 1.0
    tight = max(1e-9, 1e-6 * scale, float(np.max(np.ptp(X, axis=0))) if X.size else 0.0)
    return [Window.around(X), Window.around(X, minimum_size=tight)]


def check_fit(method, basis, X, y):
    """Fit and evaluate; assert the promise. Returns "fit" or "refused" (a PlaygroundError)."""
    n_classes = np.unique(y).size
    multiclass = "ovr" if n_classes > 2 and method in TWO_CLASS_ONLY else "native"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # the promise is about values, not warnings
            model = make_model(method, multiclass=multiclass, basis=BASES[basis]())
            model.fit(X, y)
            predicted = model.predict(X)
            grids = [evaluate_grid(model, window, RESOLUTION) for window in windows_around(X)]
    except PlaygroundError as err:
        assert str(err).strip(), f"{method}/{basis}: a PlaygroundError without a message"
        return "refused"
    classes = np.asarray(model.classes_)
    assert np.all(np.isin(predicted, classes)), f"{method}/{basis}: predict returned labels outside classes_"
    for grid in grids:
        assert grid.decision.shape[:2] == (RESOLUTION, RESOLUTION)
        assert np.all(np.isfinite(grid.decision)), f"{method}/{basis}: non-finite decision values on the grid"
        assert np.all((grid.labels >= 0) & (grid.labels < classes.size))
        if grid.proba is not None:
            assert np.all(np.isfinite(grid.proba)), f"{method}/{basis}: non-finite posteriors on the grid"
            assert np.all((grid.proba >= 0) & (grid.proba <= 1))
            np.testing.assert_allclose(grid.proba.sum(axis=-1), 1.0, atol=1e-6)
    return "fit"


def degenerate_points(kind, rng, labels):
    """One of the degenerate point sets, drawn with ``rng``; labels taken from ``labels``."""
    labels = np.asarray(labels)
    if kind == "one_class":
        n = int(rng.integers(1, 30))
        return rng.normal(size=(n, 2)) * rng.uniform(0.1, 10), np.full(n, labels[0])
    if kind == "one_per_class":
        k = int(rng.integers(2, 5))
        return rng.normal(size=(k, 2)) * 3, labels[:k].copy()
    if kind == "identical":
        n = int(rng.integers(2, 40))
        X = np.tile(rng.normal(size=2) * 5, (n, 1))
        y = labels[rng.integers(0, int(rng.integers(1, 4)), size=n)]
        return X, y
    if kind == "collinear":
        n = int(rng.integers(2, 60))
        t = rng.normal(size=n)
        direction = rng.normal(size=2)
        if rng.random() < 0.3:
            direction = np.array([1.0, 0.0]) if rng.random() < 0.5 else np.array([0.0, 1.0])  # axis-aligned
        X = rng.normal(size=2) + t[:, None] * direction
        y = labels[(t > np.median(t)).astype(int)] if rng.random() < 0.5 else labels[rng.integers(0, 3, size=n)]
        return X, y
    if kind == "tiny":
        n = int(rng.integers(2, 60))
        X = rng.normal(size=(n, 2)) * 1e-9
        return X, labels[rng.integers(0, 3, size=n)]
    if kind == "huge_spread":
        n = int(rng.integers(2, 60))
        X = rng.normal(size=(n, 2)) * 1e9
        return X, labels[rng.integers(0, 3, size=n)]
    if kind == "huge_offset":
        n = int(rng.integers(2, 60))
        X = 1e9 + rng.normal(size=(n, 2))
        return X, labels[rng.integers(0, 3, size=n)]
    if kind == "duplicates":
        distinct = int(rng.integers(2, 5))
        base = rng.normal(size=(distinct, 2)) * 2
        counts = rng.integers(200, 800, size=distinct)
        X = np.repeat(base, counts, axis=0)
        y = np.repeat(labels[np.arange(distinct) % 3], counts)
        if rng.random() < 0.5:  # conflicting labels on identical coordinates
            flip = rng.random(X.shape[0]) < 0.1
            y[flip] = labels[(np.arange(X.shape[0])[flip]) % 3]
        return X, y
    raise ValueError(kind)


@st.composite
def random_points(draw):
    """Random point sets: 1 to 40 points, 1 to 4 classes, coordinates at a random scale."""
    n = draw(st.integers(1, 40))
    k = draw(st.integers(1, 4))
    label_set = draw(st.sampled_from(LABEL_SETS))
    scale = draw(st.sampled_from([1e-9, 1e-3, 1.0, 10.0, 1e3, 1e9]))
    offset = draw(st.sampled_from([0.0, 1.0, -50.0, 1e9]))
    coordinate = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
    X = np.array(draw(st.lists(st.tuples(coordinate, coordinate), min_size=n, max_size=n))) * scale + offset
    y = np.array([label_set[i] for i in draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))])
    return X.reshape(n, 2), y


@pytest.mark.parametrize(("method", "basis"), CASES, ids=CASE_IDS)
@pytest.mark.parametrize("kind", DEGENERATE)
def test_degenerate_point_sets(method, basis, kind):
    """Each degenerate kind, a few draws, for every method and basis."""
    rng = np.random.default_rng(zlib.crc32(f"{method}/{basis}/{kind}".encode()))
    for draw in range(2):
        X, y = degenerate_points(kind, np.random.default_rng(rng.integers(2**32)), LABEL_SETS[draw % 3])
        check_fit(method, basis, X, y)


@pytest.mark.parametrize(("method", "basis"), CASES, ids=CASE_IDS)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=random_points())
def test_random_point_sets(method, basis, data):
    X, y = data
    check_fit(method, basis, X, y)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    case=st.sampled_from(CASES),
    kind=st.sampled_from(DEGENERATE),
    seed=st.integers(0, 2**32 - 1),
    label_set=st.sampled_from(LABEL_SETS),
)
def test_degenerate_point_sets_random_draws(case, kind, seed, label_set):
    """More draws of the degenerate kinds, with hypothesis choosing method, basis and seed."""
    method, basis = case
    X, y = degenerate_points(kind, np.random.default_rng(seed), label_set)
    check_fit(method, basis, X, y)


def test_both_outcomes_occur():
    """The suite exercises both sides of the promise: fits that succeed and fits that are refused."""
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.2]])
    assert check_fit("least_squares", "identity", X, np.array([0, 0, 1, 1])) == "fit"
    assert check_fit("least_squares", "identity", X, np.zeros(4, dtype=int)) == "refused"


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("method", list(MODELS))
def test_large_inputs_are_evaluated_in_blocks_like_small_ones(method, n_classes):
    """More points than one evaluation block (playground.base.BLOCK): the same numbers as
    evaluating a few points at a time, C-ordered, posteriors normalised."""
    from playground.base import BLOCK

    rng = np.random.default_rng(n_classes)
    X = np.vstack([rng.normal(size=(30, 2)) + 2 * k for k in range(n_classes)])
    y = np.repeat(np.arange(n_classes), 30)
    multiclass = "ovr" if n_classes > 2 and method in TWO_CLASS_ONLY else "native"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        model = make_model(method, multiclass=multiclass).fit(X, y)
    points = rng.normal(size=(2 * BLOCK + 123, 2)) * 5
    pieces = np.array_split(np.arange(points.shape[0]), 7)
    outputs = ["decision_function"] + (["predict_proba", "predict_log_proba"] if model.is_probabilistic else [])
    for name in outputs:
        whole = getattr(model, name)(points)
        assert whole.flags["C_CONTIGUOUS"]
        by_piece = np.concatenate([getattr(model, name)(points[piece]) for piece in pieces])
        np.testing.assert_allclose(whole, by_piece, rtol=1e-12, atol=1e-15)
    if model.is_probabilistic:
        np.testing.assert_allclose(model.predict_proba(points).sum(axis=1), 1.0, atol=1e-12)
