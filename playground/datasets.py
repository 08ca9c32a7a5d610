"""Gaussian cluster generator: reproducible point sets for the canvas and the tests."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .errors import InvalidDataError
from .i18n import N_

MAX_CLASSES = 6
MAX_POINTS_PER_CLASS = 5_000


@dataclass(frozen=True)
class ClusterSpec:
    """One class's Gaussian: mean, standard deviations along its own axes, rotation.

    The covariance is R diag(sx^2, sy^2) R^T with R the rotation by ``angle_deg``.
    """

    mean: tuple[float, float] = (0.0, 0.0)
    spread: tuple[float, float] = (1.0, 1.0)
    angle_deg: float = 0.0

    def covariance(self) -> NDArray[np.float64]:
        theta = np.deg2rad(self.angle_deg)
        rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
        return rotation @ np.diag(np.square(self.spread)) @ rotation.T


def make_clusters(
    specs: Sequence[ClusterSpec],
    n_per_class: int | Sequence[int],
    *,
    shared_covariance: bool = False,
    seed: int = 0,
    first_label: int = 0,
) -> tuple[NDArray[np.float64], NDArray[np.int_]]:
    """Draw ``n_per_class`` points from each spec's Gaussian.

    Parameters
    ----------
    specs : sequence of ClusterSpec, length K (1 to 6)
    n_per_class : int or sequence of K ints
    shared_covariance : bool
        If True every class uses the first spec's spread and rotation (the setting of
        section 4.2.1, where the boundaries are straight lines).
    seed : int
        Same seed, same points.
    first_label : int
        Label of the first spec; the others follow.

    Returns
    -------
    X : ndarray (N, 2)
    y : ndarray (N,) of int
    """
    specs = list(specs)
    if not 1 <= len(specs) <= MAX_CLASSES:
        raise InvalidDataError(
            N_("Between 1 and {limit} clusters can be generated; asked for {n}."), limit=MAX_CLASSES, n=len(specs)
        )
    counts = np.broadcast_to(np.asarray(n_per_class, dtype=int), (len(specs),))
    if np.any(counts < 0) or np.any(counts > MAX_POINTS_PER_CLASS):
        raise InvalidDataError(N_("Points per class must be between 0 and {limit:,}."), limit=MAX_POINTS_PER_CLASS)
    for spec in specs:
        values = np.r_[spec.mean, spec.spread, spec.angle_deg]
        if not np.all(np.isfinite(values)) or np.any(np.asarray(spec.spread) < 0):
            raise InvalidDataError(N_("Cluster means, spreads and angles must be finite, spreads not negative."))
    rng = np.random.default_rng(seed)
    shared = specs[0].covariance()
    points, labels = [], []
    for k, (spec, count) in enumerate(zip(specs, counts)):
        cov = shared if shared_covariance else spec.covariance()
        # Cholesky of a PSD matrix that may be singular (zero spread): eigh is safe.
        values, vectors = np.linalg.eigh(cov)
        factor = vectors * np.sqrt(np.clip(values, 0.0, None))
        points.append(np.asarray(spec.mean, dtype=float) + rng.standard_normal((count, 2)) @ factor.T)
        labels.append(np.full(count, first_label + k, dtype=int))
    return np.vstack(points), np.concatenate(labels)
