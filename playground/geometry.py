"""Exact geometry of linear discriminants in the plane: boundary segments and regions.

A linear model's boundaries are straight, so they are drawn as exact segments instead of
being traced from a grid: each is the set where two discriminants tie and beat all others.
Strategies built from two-class linear classifiers (figure 4.2) are piecewise linear too: a
one-versus-one vote is constant on each cell of the arrangement of their lines, so its regions
and boundaries are exact polygons and segments as well (``exact_regions``).

The browser repeats the clipping by half-planes for playback (ui/plot/playback_frames.js draws each
tick's frame from the score rows without asking the server, so a busy server never slows the
animation); a browser test checks its regions against ``exact_regions``.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias, cast

import numpy as np
from numpy.typing import ArrayLike

from .base import Classifier, LinearFit, ProbabilisticMixin
from .grid import Window
from .validation import FloatArray

if TYPE_CHECKING:  # for the checker only: multiclass does not import geometry, but need not be loaded here
    from .multiclass import OneVsOne, _Strategy

_EPS = 1e-12

#: A convex polygon, (V, 2) vertices in order.
Polygon: TypeAlias = FloatArray
#: A class's region: the class's index into ``classes_`` and a polygon of it.
Region: TypeAlias = tuple[int, Polygon]
#: A boundary segment between classes i < j (indices into ``classes_``): (i, j, start, end).
Segment: TypeAlias = tuple[int, int, FloatArray, FloatArray]


def box_polygon(window: Window) -> Polygon:
    """The window's rectangle as a (4, 2) polygon, counter-clockwise from the lower left corner."""
    return np.array(
        [
            [window.x_min, window.y_min],
            [window.x_max, window.y_min],
            [window.x_max, window.y_max],
            [window.x_min, window.y_max],
        ]
    )


def clip_polygon(polygon: Polygon, normal: FloatArray, offset: float, strict: bool = False) -> Polygon:
    """Keep the part of a convex polygon where normal . x + offset >= 0 (Sutherland-Hodgman); with
    ``strict``, > 0. A tie of a real line lies on the border (no area either way), so ``strict``
    changes only a degenerate half-plane, normal = 0: kept whole when offset >= 0, or > 0 if strict."""
    if len(polygon) == 0:
        return polygon
    if not np.any(normal):
        return polygon if (offset > 0 or (offset == 0 and not strict)) else np.empty((0, 2))
    values = polygon @ normal + offset
    kept: list[FloatArray] = []
    for i in range(len(polygon)):
        current, following = polygon[i], polygon[(i + 1) % len(polygon)]
        v_current, v_following = values[i], values[(i + 1) % len(polygon)]
        if v_current >= 0:
            kept.append(current)
        if (v_current >= 0) != (v_following >= 0):
            t = v_current / (v_current - v_following)
            kept.append(current + t * (following - current))
    return np.array(kept).reshape(-1, 2)


def _pairwise(coef: ArrayLike, intercept: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Discriminants as a (K, 2) / (K,) pair; a two-class (1, 2) model becomes (-y/2, +y/2)."""
    coef = np.asarray(coef, dtype=float)
    intercept = np.asarray(intercept, dtype=float).reshape(-1)
    if coef.shape[0] == 1:
        coef = np.vstack([-coef / 2, coef / 2])
        intercept = np.array([-intercept[0] / 2, intercept[0] / 2])
    return coef, intercept


def linear_regions(coef: ArrayLike, intercept: ArrayLike, window: Window) -> list[Polygon]:
    """Polygon (M, 2) of the window where each class's discriminant is largest.

    A tie goes to the first class (numpy's argmax, ``Classifier.predict``): with two classes a
    back-end y(x) = 0 is ``classes_[0]``, the book's C1 (f(0) = +1, eq. 4.52-4.53); so a zero w
    (the perceptron's step 0) gives the whole window to the first class, not to the last.

    Parameters
    ----------
    coef : (1, 2) or (K, 2); intercept : (1,) or (K,)
    Returns a list of K arrays (possibly empty: a masked class, figure 4.5).
    """
    pair_coef, pair_intercept = _pairwise(coef, intercept)
    regions = []
    for k in range(pair_coef.shape[0]):
        polygon = box_polygon(window)
        for j in range(pair_coef.shape[0]):
            if j != k:
                polygon = clip_polygon(
                    polygon, pair_coef[k] - pair_coef[j], pair_intercept[k] - pair_intercept[j], strict=j < k
                )
        regions.append(polygon)
    return regions


def _line_in_box(
    normal: FloatArray, offset: float, window: Window
) -> tuple[FloatArray, FloatArray, float, float] | None:
    """Endpoints of {x : normal . x + offset = 0} inside the window, or None."""
    if np.linalg.norm(normal) < _EPS:
        return None
    direction = np.array([-normal[1], normal[0]])
    anchor = -offset * normal / (normal @ normal)
    t_low, t_high = -np.inf, np.inf
    for axis, (low, high) in enumerate([(window.x_min, window.x_max), (window.y_min, window.y_max)]):
        if abs(direction[axis]) < _EPS:
            if not low <= anchor[axis] <= high:
                return None
            continue
        t1, t2 = (low - anchor[axis]) / direction[axis], (high - anchor[axis]) / direction[axis]
        t_low, t_high = max(t_low, min(t1, t2)), min(t_high, max(t1, t2))
    if t_high <= t_low:
        return None
    return anchor, direction, t_low, t_high


def boundary_segments(coef: ArrayLike, intercept: ArrayLike, window: Window) -> list[Segment]:
    """Exact decision-boundary segments of a linear model inside the window.

    Returns a list of ``(i, j, start, end)``: the segment where classes i and j tie and no
    other class scores higher (for two classes, the single line y(x) = 0).
    """
    coef, intercept = _pairwise(coef, intercept)
    n_classes = coef.shape[0]
    segments: list[Segment] = []
    for i in range(n_classes):
        for j in range(i + 1, n_classes):
            line = _line_in_box(coef[i] - coef[j], intercept[i] - intercept[j], window)
            if line is None:
                continue
            anchor, direction, t_low, t_high = line
            for k in range(n_classes):
                if k in (i, j):
                    continue
                # On the segment, y_i - y_k = a + b t must stay >= 0.
                a = (coef[i] - coef[k]) @ anchor + intercept[i] - intercept[k]
                b = (coef[i] - coef[k]) @ direction
                if abs(b) < _EPS:
                    if a < 0:
                        t_high = t_low  # class k beats both everywhere on this line
                    continue
                if b > 0:
                    t_low = max(t_low, -a / b)
                else:
                    t_high = min(t_high, -a / b)
            if t_high - t_low > _EPS:
                segments.append((i, j, anchor + t_low * direction, anchor + t_high * direction))
    return segments


def polygon_area(polygon: Polygon) -> float:
    """Area of a simple polygon (M, 2), by the shoelace formula (0 for fewer than three vertices)."""
    if len(polygon) < 3:
        return 0.0
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * abs(x[:-1] @ y[1:] - y[:-1] @ x[1:] + x[-1] * y[0] - y[-1] * x[0])


def _halves(polygon: Polygon, values: FloatArray) -> tuple[Polygon, Polygon]:
    """The parts of a convex polygon where ``values`` (at its vertices, linear) are >= 0 and <= 0."""
    positive: list[FloatArray] = []
    negative: list[FloatArray] = []
    count = len(polygon)
    for i in range(count):
        current, value = polygon[i], values[i]
        following, next_value = polygon[(i + 1) % count], values[(i + 1) % count]
        if value >= 0:
            positive.append(current)
        if value <= 0:
            negative.append(current)
        if (value > 0 and next_value < 0) or (value < 0 and next_value > 0):
            crossing = current + (value / (value - next_value)) * (following - current)
            positive.append(crossing)
            negative.append(crossing)
    return np.array(positive).reshape(-1, 2), np.array(negative).reshape(-1, 2)


def _split_cells(cells: list[Polygon], normals: FloatArray, offsets: FloatArray, tiny: float) -> list[Polygon]:
    """Cut convex cells by each line normal . x + offset = 0 in turn; pieces of area <= tiny go."""
    for normal, offset in zip(normals, offsets):
        if not np.any(normal):
            continue
        pieces: list[Polygon] = []
        for cell in cells:
            values = cell @ normal + offset
            if values.min() >= 0 or values.max() <= 0:  # the line misses the cell's interior
                pieces.append(cell)
                continue
            pieces += [half for half in _halves(cell, values) if len(half) >= 3 and polygon_area(half) > tiny]
        cells = pieces
    return cells


def _tiny_area(window: Window) -> float:
    return 1e-10 * (window.x_max - window.x_min) * (window.y_max - window.y_min)


def arrangement_cells(normals: ArrayLike, offsets: ArrayLike, window: Window) -> list[Polygon]:
    """The convex cells into which the lines normal . x + offset = 0 cut the window.

    Parameters
    ----------
    normals : (M, 2); offsets : (M,)
    Returns a list of (V, 2) polygons that tile the window; lines with a zero normal are skipped.
    """
    normal_rows = np.asarray(normals, float).reshape(-1, 2)
    offset_values = np.asarray(offsets, float).reshape(-1)
    return _split_cells([box_polygon(window)], normal_rows, offset_values, _tiny_area(window))


def boundary_on_lines(
    normals: ArrayLike, offsets: ArrayLike, classify: Callable[[FloatArray], ArrayLike], window: Window
) -> list[Segment]:
    """The parts of the lines normal . x + offset = 0 inside the window where ``classify`` differs
    on either side: the decision boundary of a classifier that can only change class on them.

    Each line is cut where the others cross it; on each piece the labels on either side are
    constant, so one test just off its middle, on each side, decides it.

    Parameters
    ----------
    normals : (M, 2); offsets : (M,)
    classify : callable, (N, 2) -> (N,) labels

    Returns a list of (label_a, label_b, start, end) with label_a < label_b.
    """
    normals = np.asarray(normals, float).reshape(-1, 2)
    offsets = np.asarray(offsets, float).reshape(-1)
    size = np.hypot(window.x_max - window.x_min, window.y_max - window.y_min)
    norms = np.linalg.norm(normals, axis=1)
    pieces: list[tuple[int, float, float]] = []  # (line, t0, t1) on the line anchor + t direction
    lines: dict[int, tuple[FloatArray, FloatArray, FloatArray]] = {}
    for m, (normal, offset) in enumerate(zip(normals, offsets)):
        line = _line_in_box(normal, offset, window)
        if line is None:
            continue
        anchor, direction, t_low, t_high = line
        lines[m] = (anchor, direction, normal / norms[m])
        along = normals @ direction
        crossing = np.abs(along) > _EPS * norms * norms[m]
        ts = -(normals[crossing] @ anchor + offsets[crossing]) / along[crossing]
        breaks = np.unique(np.concatenate([[t_low, t_high], ts[(ts > t_low) & (ts < t_high)]]))
        min_length = 1e-9 * size / norms[m]
        pieces += [(m, t0, t1) for t0, t1 in zip(breaks[:-1], breaks[1:]) if t1 - t0 > min_length]
    if not pieces:
        return []
    middles = np.array([lines[m][0] + 0.5 * (t0 + t1) * lines[m][1] for m, t0, t1 in pieces])
    units = np.array([lines[m][2] for m, _, _ in pieces])
    step = 1e-6 * size
    sides = np.asarray(classify(np.vstack([middles + step * units, middles - step * units]))).reshape(2, -1)
    runs: list[
        tuple[int, tuple[int, int], float, float]
    ] = []  # (line, (label_a, label_b), t0, t1), consecutive pieces of one line merged
    for (m, t0, t1), a, b in zip(pieces, sides[0], sides[1]):
        if a == b:
            continue
        pair = (int(min(a, b)), int(max(a, b)))
        if runs and runs[-1][0] == m and runs[-1][1] == pair and runs[-1][3] == t0:
            runs[-1] = (m, pair, runs[-1][2], t1)
        else:
            runs.append((m, pair, t0, t1))
    return [(a, b, lines[m][0] + t0 * lines[m][1], lines[m][0] + t1 * lines[m][1]) for m, (a, b), t0, t1 in runs]


def one_versus_one_lines(
    coefs: ArrayLike, intercepts: ArrayLike, pairs: ArrayLike, n_classes: int
) -> tuple[FloatArray, FloatArray]:
    """The lines on which a one-versus-one vote (``playground.multiclass.OneVsOne``) can change.

    Each pair's own line w_m . x + w_m0 = 0, and for each two classes i, j the line s_i(x) = s_j(x),
    where s_k sums the pairwise decision values in favour of class k: the vote's tie-break compares
    the s_k through an increasing function, and they are linear in x.

    Returns (normals (L, D), offsets (L,)).
    """
    coefs = np.asarray(coefs, float)
    intercepts = np.asarray(intercepts, float).reshape(-1)
    pairs = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    confidence_coef = np.zeros((n_classes, coefs.shape[1]))
    confidence_intercept = np.zeros(n_classes)
    np.add.at(confidence_coef, pairs[:, 1], coefs)
    np.subtract.at(confidence_coef, pairs[:, 0], coefs)
    np.add.at(confidence_intercept, pairs[:, 1], intercepts)
    np.subtract.at(confidence_intercept, pairs[:, 0], intercepts)
    i, j = np.triu_indices(n_classes, 1)
    normals = np.vstack([coefs, confidence_coef[i] - confidence_coef[j]])
    offsets = np.concatenate([intercepts, confidence_intercept[i] - confidence_intercept[j]])
    return normals, offsets


def exact_regions(model: Classifier, window: Window) -> tuple[list[Region], list[Segment]] | None:
    """Exact decision regions and boundary of a fitted model in the plane, or None when its
    boundaries are curved (a basis, separate covariances: the caller evaluates a grid).

    Linear discriminants (predict = the largest y_k(x)) and one-versus-rest (the largest of the
    K classifiers' y_k(x)) have one convex region per class; one-versus-one is constant on each
    cell of the arrangement of ``one_versus_one_lines``, labelled by the model's own vote.

    Returns
    -------
    regions : list of (class index, (V, 2) polygon); a one-versus-one class may own several
    segments : list of (i, j, start, end): the boundary between classes i < j (indices into
        ``classes_``)
    """
    if not getattr(model, "is_linear", False):
        return None
    if hasattr(model, "estimators_"):  # a multi-class strategy of two-class classifiers (figure 4.2)
        coef, intercept = getattr(model, "coefs_", None), getattr(model, "intercepts_", None)
        strategy = cast("_Strategy", model)  # only the multi-class strategies have estimators_
        if coef is None or intercept is None or np.shape(coef)[1] != 2 or not _decisions_are_affine(strategy, window):
            return None
        if getattr(model, "pairs_", None) is not None and np.size(model.classes_) > 2:
            return _one_versus_one_regions(cast("OneVsOne", model), window)  # only it has pairs_
    elif getattr(model, "coef_", None) is not None and getattr(model, "intercept_", None) is not None:
        linear = cast(LinearFit, model)  # it has both, checked just above
        coef, intercept = linear.coef_, linear.intercept_
        if np.shape(coef)[1] != 2 or not _predicts_the_largest_discriminant(model, coef, intercept, window):
            return None
    else:
        return None
    tiny = _tiny_area(window)  # a masked class (figure 4.5) may keep a polygon of no area
    regions = [
        (k, polygon)
        for k, polygon in enumerate(linear_regions(coef, intercept, window))
        if polygon_area(polygon) > tiny
    ]
    return regions, boundary_segments(coef, intercept, window)


def _predicts_the_largest_discriminant(
    model: Classifier, coef: ArrayLike, intercept: ArrayLike, window: Window, n: int = 7
) -> bool:
    """Whether the model's prediction is the class of the largest y_k(x) = w_k . x + w_k0 (for two
    classes, the sign of y(x)) at an n x n grid of probes: true of every linear model, whose
    posteriors (logistic, softmax, probit, the shared-covariance Gaussians, Bayesian logistic
    regression's moderated sigmoid) increase with y_k; a probe where two y_k all but tie is
    not counted."""
    xs = np.linspace(window.x_min, window.x_max, n + 2)[1:-1]
    ys = np.linspace(window.y_min, window.y_max, n + 2)[1:-1]
    probe = np.array([(x, y) for y in ys for x in xs])
    pair_coef, pair_intercept = _pairwise(coef, intercept)
    scores = probe @ pair_coef.T + pair_intercept
    top2 = np.sort(scores, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-9 * (1 + np.abs(top2).max())
    predicted = np.asarray(model.predict_index(probe) if hasattr(model, "predict_index") else None)
    if predicted.ndim == 0:  # no predict_index: predict gives labels from classes_
        predicted = np.searchsorted(model.classes_, model.predict(probe))
    return bool(np.all(predicted[clear] == np.argmax(scores, axis=1)[clear]))


def _decisions_are_affine(model: "_Strategy", window: Window) -> bool:
    """Whether the strategy decides by comparing affine functions of x: each sub-classifier's
    decision value is its line's w . x + w0, and where the strategy compares probabilities
    instead (one-versus-rest of a probabilistic method), each is a function of that value alone.
    Not so for Bayesian logistic regression's moderated predictive (eq. 4.155), whose
    probability also depends on the variance of the activation at x: its boundaries are curved."""
    probe = np.vstack([box_polygon(window), [(window.x_min + window.x_max) / 2, (window.y_min + window.y_max) / 2]])
    compares_probabilities = getattr(model, "pairs_", None) is None and getattr(model, "is_probabilistic", False)
    size = np.hypot(window.x_max - window.x_min, window.y_max - window.y_min)
    coefs, intercepts = model.coefs_, model.intercepts_
    assert coefs is not None and intercepts is not None  # exact_regions called this for linear lines only
    for estimator, w, w0 in zip(model.estimators_, coefs, intercepts):
        w = np.asarray(w, float)
        linear = probe @ w + float(w0)
        decision = np.asarray(estimator.decision_function(probe), float).reshape(-1)
        if not np.allclose(decision, linear, rtol=1e-7, atol=1e-9 * (1 + np.abs(linear).max())):
            return False
        if compares_probabilities and np.any(w):
            along = 0.37 * size * np.array([-w[1], w[0]]) / np.linalg.norm(w)  # same w . x, other x
            probabilistic = cast(ProbabilisticMixin, estimator)  # the strategy compares their probabilities
            here, there = probabilistic.predict_proba(probe)[:, -1], probabilistic.predict_proba(probe + along)[:, -1]
            if not np.allclose(here, there, rtol=1e-9, atol=1e-12):
                return False
    return True


def _one_versus_one_regions(model: "OneVsOne", window: Window) -> tuple[list[Region], list[Segment]]:
    """Regions and boundary of a one-versus-one vote of linear classifiers (see ``exact_regions``).

    The votes are constant on each cell of the pairwise lines' arrangement; a cell where the
    vote ties is cut further by the tie-break lines of the tied classes only.
    """
    n_classes = np.size(model.classes_)
    coefs, intercepts = model.coefs_, model.intercepts_
    assert coefs is not None and intercepts is not None  # exact_regions called this for linear lines only
    normals, offsets = one_versus_one_lines(coefs, intercepts, model.pairs_, n_classes)
    n_pairs = len(model.pairs_)
    tie_line = {(i, j): n_pairs + m for m, (i, j) in enumerate(zip(*np.triu_indices(n_classes, 1)))}
    cells = arrangement_cells(normals[:n_pairs], offsets[:n_pairs], window)
    votes = model.votes(np.array([cell.mean(axis=0) for cell in cells]))
    regions: list[Region] = []
    for cell, cell_votes in zip(cells, votes):
        tied = np.flatnonzero(cell_votes == cell_votes.max())
        if len(tied) == 1:
            regions.append((int(tied[0]), cell))
            continue
        lines = [tie_line[(i, j)] for i in tied for j in tied if i < j]
        pieces = _split_cells([cell], normals[lines], offsets[lines], _tiny_area(window))
        labels = model.predict_index(np.array([piece.mean(axis=0) for piece in pieces]))
        regions += [(int(label), piece) for label, piece in zip(labels, pieces)]
    return regions, boundary_on_lines(normals, offsets, model.predict_index, window)


def window_with_aspect(window: Window, aspect: float) -> Window:
    """``window`` widened along one axis, about its centre, to width / height = ``aspect`` (the
    shape of the plot area it is shown in, so that equal scales leave no empty band)."""
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    if not (np.isfinite(aspect) and aspect > 0) or abs(width / height / aspect - 1) < 1e-9:
        return window
    cx, cy = (window.x_min + window.x_max) / 2, (window.y_min + window.y_max) / 2
    width, height = max(width, height * aspect), max(height, width / aspect)
    return Window(cx - width / 2, cx + width / 2, cy - height / 2, cy + height / 2)
