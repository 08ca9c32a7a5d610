"""Exact geometry of linear discriminants in the plane: boundary segments and regions.

A linear model's boundaries are straight, so they are drawn as exact segments instead of
being traced from a grid: each is the set where two discriminants tie and beat all others.
"""

import numpy as np

_EPS = 1e-12


def _box_corners(window):
    return np.array(
        [
            [window.x_min, window.y_min],
            [window.x_max, window.y_min],
            [window.x_max, window.y_max],
            [window.x_min, window.y_max],
        ]
    )


def clip_polygon(polygon, normal, offset):
    """Keep the part of a convex polygon where normal . x + offset >= 0 (Sutherland-Hodgman)."""
    if len(polygon) == 0:
        return polygon
    values = polygon @ normal + offset
    kept = []
    for i in range(len(polygon)):
        current, following = polygon[i], polygon[(i + 1) % len(polygon)]
        v_current, v_following = values[i], values[(i + 1) % len(polygon)]
        if v_current >= 0:
            kept.append(current)
        if (v_current >= 0) != (v_following >= 0):
            t = v_current / (v_current - v_following)
            kept.append(current + t * (following - current))
    return np.array(kept).reshape(-1, 2)


def _pairwise(coef, intercept):
    """Discriminants as a (K, 2) / (K,) pair; a two-class (1, 2) model becomes (-y/2, +y/2)."""
    coef = np.asarray(coef, dtype=float)
    intercept = np.asarray(intercept, dtype=float).reshape(-1)
    if coef.shape[0] == 1:
        coef = np.vstack([-coef / 2, coef / 2])
        intercept = np.array([-intercept[0] / 2, intercept[0] / 2])
    return coef, intercept


def linear_regions(coef, intercept, window):
    """Polygon (M, 2) of the window where each class's discriminant is largest.

    Parameters
    ----------
    coef : (1, 2) or (K, 2); intercept : (1,) or (K,)
    Returns a list of K arrays (possibly empty: a masked class, figure 4.5).
    """
    coef, intercept = _pairwise(coef, intercept)
    regions = []
    for k in range(coef.shape[0]):
        polygon = _box_corners(window)
        for j in range(coef.shape[0]):
            if j != k:
                polygon = clip_polygon(polygon, coef[k] - coef[j], intercept[k] - intercept[j])
        regions.append(polygon)
    return regions


def _line_in_box(normal, offset, window):
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


def boundary_segments(coef, intercept, window):
    """Exact decision-boundary segments of a linear model inside the window.

    Returns a list of ``(i, j, start, end)``: the segment where classes i and j tie and no
    other class scores higher (for two classes, the single line y(x) = 0).
    """
    coef, intercept = _pairwise(coef, intercept)
    n_classes = coef.shape[0]
    segments = []
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
