"""Fisher's linear discriminant (PRML 4.1.4 and 4.1.6): the projection that separates the classes best."""

from typing import Self

import numpy as np
from numpy.typing import ArrayLike

from .base import FloatArray, LinearClassifier
from .card import MethodCard
from .criteria import CriterionTerms, LineCriterion, LineData
from .errors import DegenerateFitError, InvalidDataError, Message, PlaygroundError, sentences
from .i18n import N_
from .specs import Spec
from .validation import (
    BoolArray,
    IndexArray,
    check_X_y,
    require_points_per_class,
    standard_units,
    to_input_units,
)

THRESHOLDS = ("midpoint", "gaussian")

# Relative size of the ridge added to S_W in the K-class eigenproblem when S_W is singular.
RIDGE = 1e-10
_EPS = np.finfo(float).eps


def _within_class_eigen(centred: FloatArray) -> tuple[FloatArray, FloatArray, BoolArray]:
    """(V, eigenvalues, nonsingular) of S_W = Xc^T Xc = V diag(s^2) V^T from the singular values s
    of the centred Xc (N, D); an eigenvalue counts as nonzero as numpy's matrix_rank would count it.
    Full V (D x D) is needed; U is never used, so it stays thin unless N < D."""
    n_points, n_features = centred.shape
    _, s, vt = np.linalg.svd(centred, full_matrices=n_points < n_features)
    eigvals = np.zeros(n_features)
    eigvals[: s.size] = s**2
    tol = (s.max() if s.size else 0.0) * max(n_points, n_features) * _EPS
    nonsingular = np.zeros(n_features, dtype=bool)
    nonsingular[: s.size] = s > tol
    return vt.T, eigvals, nonsingular  # V's columns: eigenvectors of S_W


class FisherDiscriminant(LineCriterion, LinearClassifier):
    """Project onto the direction(s) maximising Fisher's criterion, then threshold.

    Two classes: w is proportional to S_W^-1 (m_1 - m_0) (eq. 4.30), where m_1 is the mean of
    ``classes_[1]``, so the unit vector ``direction_`` points from class 0 towards class 1
    and a positive decision value means ``classes_[1]``. K > 2 classes (section 4.1.6): the
    directions are the leading eigenvectors of S_W^-1 S_B (eq. 4.51), at most K - 1 of them,
    found as the generalised symmetric eigenproblem S_B v = lambda S_W v.

    Everything is computed on the centred and scaled points (see ``standard_units``), from
    the singular value decomposition of the within-class centred points (S_W = Xc^T Xc), so
    the answer does not depend on where the points sit or on their unit, no inverse is ever
    formed and a singular S_W (collinear or coinciding points) is detected reliably. For two
    classes a singular S_W is handled as the limit of a vanishing ridge: if the class means
    differ along a direction in which neither class varies, J(w) is unbounded and w is that
    direction; otherwise w is the pseudo-inverse solution S_W^+ (m_1 - m_0). For K classes a
    tiny ridge (``RIDGE`` times the mean eigenvalue of S_W) is added. Either way
    ``fit_message_`` says so.

    Parameters
    ----------
    threshold : {"midpoint", "gaussian"}
        Where to cut the projection y = w^T x. Two classes:

        - "midpoint": halfway between the projected class means.
        - "gaussian": fit a 1-D Gaussian to each class's projections (maximum-likelihood
          mean and variance, prior N_k / N) and cut where prior times density tie. With
          unequal variances the tie equation is quadratic and can have two roots, i.e. two
          thresholds; to keep the classifier linear the root between the projected means is
          used (the one nearest the midpoint if both are), and the midpoint if there is none.

        K classes: "midpoint" assigns x to the nearest projected class mean, distances
        measured in units of the pooled within-class standard deviation along each
        direction; "gaussian" adds the log prior ln(N_k / N), i.e. Gaussians with a shared
        covariance in the projected space. Both are linear in x. (With two classes,
        "midpoint" is the same nearest-projected-mean rule.)

    Attributes
    ----------
    classes_ : ndarray (K,)
    means_ : ndarray (K, D)
        Class means m_k (eq. 4.21).
    priors_ : ndarray (K,)
        N_k / N.
    within_class_scatter_ : ndarray (D, D)
        S_W (eq. 4.28 for two classes, eq. 4.40 for K).
    between_class_scatter_ : ndarray (D, D)
        S_B: (m_1 - m_0)(m_1 - m_0)^T for two classes (eq. 4.27), sum_k N_k (m_k - m)(m_k - m)^T
        for K classes (eq. 4.43).
    direction_ : ndarray (D,)
        Two classes only: the unit vector w / |w|, oriented from class 0 to class 1.
    directions_ : ndarray (D, n_components)
        Unit directions as columns, n_components = min(K - 1, D); for two classes the single
        column is ``direction_``.
    eigenvalues_ : ndarray (n_components,)
        K classes: the generalised eigenvalues (the criterion J along each direction).
        Two classes: J(direction_), which may be ``inf``.
    projected_means_ : ndarray (K, n_components)
        The class means projected onto ``directions_`` (``transform(means_)``).
    threshold_ : float
        Two classes only: the cut on the projection; x goes to ``classes_[1]`` when
        direction_ . x > threshold_.
    coef_ : ndarray (1, D) or (K, D)
    intercept_ : ndarray (1,) or (K,)
        For two classes coef_ = direction_ and intercept_ = -threshold_, so the decision
        value is the projection minus the threshold and the boundary line is exact. For K
        classes, the nearest-projected-mean discriminants less a part common to every class
        (which changes no decision), written about the data's mean so that they keep their
        precision far from the origin.
    rank_ : int
        Numerical rank of S_W.
    fit_message_ : str or None
        What was done about a singular S_W or a missing Gaussian threshold; None otherwise.

    Criterion of a line (``criterion_at``, two classes, no fit needed): Fisher's
    J(w) = w^T S_B w / w^T S_W w (eq. 4.26) of the direction part (w1, ..., wD), maximised by the
    fit; w0 plays no part and the length of w does not matter. As for the fit, a singular S_W is
    the limit of a vanishing ridge: J = +inf where the classes project to two distinct single
    values (the fit's ``eigenvalues_`` then says inf too), 0 where everything projects to one
    value. A zero direction part raises. J is a ratio of sums, not a sum of shares:
    ``criterion_terms`` raises. (``criterion(direction)`` is J of a fitted model, K classes too.)
    """

    display_name = N_("Fisher's linear discriminant")
    book_section = "4.1.4"
    criterion_name = N_("Fisher criterion J(w)")
    criterion_equation = "4.26"
    criterion_maximised = True
    criterion_has_shares = False
    criterion_scale = "free"  # J depends on the direction alone

    def __init__(self, threshold: str = "midpoint") -> None:
        self.threshold = threshold

    # -- fitting ------------------------------------------------------------------
    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        if self.threshold not in THRESHOLDS:
            raise InvalidDataError(
                N_("Fisher's threshold must be 'midpoint' or 'gaussian', not {threshold!r}."), threshold=self.threshold
            )
        X, y_index, classes = check_X_y(X, y, method=N_("Fisher's discriminant"))
        counts = require_points_per_class(y_index, classes, 2, N_("Fisher's discriminant"))
        n_points, n_features = X.shape
        n_classes = classes.size

        # Work on Z = (X - c) / s (c the mean, s the size of the cloud): the directions and the
        # criterion do not depend on the offset or the unit, and neither a point far from the
        # origin nor a coordinate of 1e-9 or 1e90 costs precision, overflows or underflows.
        Z, centre, scale = standard_units(X)
        if not np.any(Z):
            raise DegenerateFitError(self._coincident_means_message(n_classes))
        one_hot = np.eye(n_classes)[y_index]
        means = (one_hot.T @ Z) / counts[:, None]  # (K, D), eq. 4.21, in units of Z
        centred = Z - means[y_index]
        basis, eigvals, nonsingular = _within_class_eigen(centred)

        self.classes_ = classes
        self.n_features_in_ = n_features
        self.priors_ = counts / n_points
        self.rank_ = int(nonsingular.sum())
        sw = centred.T @ centred
        self.means_ = means * scale + centre
        self.within_class_scatter_ = sw * scale**2
        messages: list[Message] = []

        if n_classes == 2:
            difference = means[1] - means[0]
            if np.linalg.norm(difference) <= 100 * _EPS * np.sqrt(n_features):
                raise DegenerateFitError(self._coincident_means_message(2))
            sb = np.outer(difference, difference)  # eq. 4.27
            w = self._two_class_direction(difference, basis, eigvals, nonsingular, messages)
            direction = w / np.linalg.norm(w)
            self.direction_ = direction
            self.directions_ = direction[:, None]
            self.eigenvalues_ = np.array([_ratio(direction[None, :], sb, sw)[0]])
        else:
            overall = self.priors_ @ means
            between = means - overall
            sb = (between.T * counts) @ between  # eq. 4.43
            if np.linalg.norm(between) <= 100 * _EPS * np.sqrt(n_features):
                raise DegenerateFitError(self._coincident_means_message(n_classes))
            directions, values, sw_eigs = self._k_class_directions(sb, basis, eigvals, nonsingular, n_classes, messages)
            self.directions_ = directions
            self.eigenvalues_ = values
        self.between_class_scatter_ = sb * scale**2

        self.projected_means_ = self.means_ @ self.directions_
        if n_classes == 2:
            self._set_threshold(Z, y_index, means, centre, scale, messages)
        else:
            projected = means @ self.directions_  # centred, in units of Z
            coef, intercept = self._nearest_mean(basis, sw_eigs, projected, n_points)
            self.coef_, self.intercept_ = to_input_units(coef, intercept, centre, scale)
        self.fit_message_ = sentences(messages)
        return self

    def _set_threshold(
        self,
        Z: FloatArray,
        y_index: IndexArray,
        means: FloatArray,
        centre: FloatArray,
        scale: float,
        messages: list[Message],
    ) -> None:
        """Two classes: the threshold on the projection (``threshold``), and the linear decision
        function y = w^T x - threshold it makes (eq. 4.20)."""
        projected = means @ self.directions_  # centred, in units of Z
        cut = self._fit_threshold(Z, y_index, projected[:, 0], messages)
        self.threshold_ = float(cut * scale + centre @ self.direction_)
        self.coef_ = self.direction_[None, :].copy()
        self.intercept_ = np.array([-self.threshold_])

    @staticmethod
    def _coincident_means_message(n_classes: int) -> Message:
        if n_classes == 2:
            return Message(
                N_(
                    "The two class means coincide, so no direction separates them and Fisher's "
                    "discriminant is undefined; move some points apart."
                )
            )
        return Message(
            N_(
                "All class means coincide, so no direction separates the classes and Fisher's "
                "discriminant is undefined; move some points apart."
            )
        )

    @staticmethod
    def _two_class_direction(
        difference: FloatArray, basis: FloatArray, eigvals: FloatArray, nonsingular: BoolArray, messages: list[Message]
    ) -> FloatArray:
        """w proportional to S_W^-1 (m_1 - m_0) (eq. 4.30), through the eigenbasis of S_W."""
        coords = basis.T @ difference
        if np.all(nonsingular):
            return basis @ (coords / eigvals)
        null_part = basis[:, ~nonsingular] @ coords[~nonsingular]
        if np.linalg.norm(null_part) > 1e-8 * np.linalg.norm(difference):
            messages.append(
                Message(
                    N_(
                        "The within-class scatter S_W is singular and the class means differ along a "
                        "direction in which neither class varies, so J(w) is unbounded there and w is "
                        "that direction."
                    )
                )
            )
            return null_part
        messages.append(
            Message(
                N_(
                    "The within-class scatter S_W is singular (the points of each class lie on a line "
                    "or coincide), so w uses its pseudo-inverse: w = S_W^+ (m2 - m1)."
                )
            )
        )
        keep = nonsingular
        return basis[:, keep] @ (coords[keep] / eigvals[keep])

    @staticmethod
    def _k_class_directions(
        sb: FloatArray,
        basis: FloatArray,
        eigvals: FloatArray,
        nonsingular: BoolArray,
        n_classes: int,
        messages: list[Message],
    ) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Leading generalised eigenvectors of S_B v = lambda S_W v (eq. 4.51).

        Returns the unit directions (D, n_components), their eigenvalues, and the eigenvalues
        of S_W actually used (with the ridge, if one was added)."""
        n_features = basis.shape[0]
        if not np.all(nonsingular):
            ridge = RIDGE * (eigvals.sum() / n_features if eigvals.sum() > 0 else 1.0)
            eigvals = np.where(nonsingular, eigvals, 0.0) + ridge
            messages.append(
                Message(
                    N_(
                        "The within-class scatter S_W is singular (some classes lie on a line or "
                        "coincide), so a ridge of {ridge:g} times its mean eigenvalue was added to it."
                    ),
                    ridge=RIDGE,
                )
            )
        # Whiten with S_W^-1/2 = V diag(1/s) V^T, solve an ordinary symmetric eigenproblem.
        root = np.sqrt(eigvals)
        whitened_basis = basis / root  # columns v_i / s_i
        reduced = whitened_basis.T @ sb @ whitened_basis
        values, vectors = np.linalg.eigh((reduced + reduced.T) / 2)
        order = np.argsort(values)[::-1]
        n_components = min(n_classes - 1, n_features)
        chosen = order[:n_components]
        directions = whitened_basis @ vectors[:, chosen]
        directions /= np.linalg.norm(directions, axis=0)
        # A fixed sign: the largest component of each direction is positive.
        biggest = np.argmax(np.abs(directions), axis=0)
        directions *= np.sign(directions[biggest, np.arange(n_components)])
        return directions, np.maximum(values[chosen], 0.0), eigvals

    def _fit_threshold(
        self, Z: FloatArray, y_index: IndexArray, projected_means: FloatArray, messages: list[Message]
    ) -> float:
        """Two classes: the cut on y = direction_ . z, in the units of Z (centred)."""
        low, high = projected_means
        cut = (low + high) / 2
        if self.threshold == "gaussian":
            values = Z @ self.direction_
            variances = np.array([np.mean((values[y_index == k] - projected_means[k]) ** 2) for k in (0, 1)])
            if np.any(variances <= (1e-12 * (high - low)) ** 2):
                messages.append(
                    Message(
                        N_(
                            "A class's points all project to the same value, so its 1-D Gaussian is "
                            "degenerate; the midpoint threshold is used."
                        )
                    )
                )
            else:
                root = _gaussian_tie(projected_means, variances, self.priors_)
                if root is None:
                    messages.append(
                        Message(
                            N_(
                                "The two 1-D Gaussians do not tie between the projected means; the midpoint "
                                "threshold is used."
                            )
                        )
                    )
                else:
                    cut = root
        return cut

    def _nearest_mean(
        self, basis: FloatArray, sw_eigs: FloatArray, projected: FloatArray, n_points: int
    ) -> tuple[FloatArray, FloatArray]:
        """K classes: y_k(z) = -1/2 sum_j ((p_j - mu_kj) / sigma_j)^2 [+ ln pi_k] less its part
        common to every class, a linear form (coef (K, D), intercept (K,)) in the units of Z."""
        # Pooled (maximum-likelihood) within-class variance of each projection, with the ridge if any.
        sw_directions = (basis.T @ self.directions_) * np.sqrt(sw_eigs)[:, None]
        variances = np.sum(sw_directions**2, axis=0) / n_points
        weights = projected / variances  # (K, n_components): mu_kj / sigma_j^2
        coef = weights @ self.directions_.T
        intercept = -0.5 * np.sum(projected * weights, axis=1)
        if self.threshold == "gaussian":
            intercept = intercept + np.log(self.priors_)
        return coef, intercept

    # -- projections and the criterion ---------------------------------------------
    def _criterion_data(self, X: ArrayLike, y: ArrayLike) -> LineData:
        """The fit's checks (two points per class), with X in standard units: J is unchanged by
        x -> (x - c) / s (every projection moves and scales alike), and there nothing overflows."""
        data = super()._criterion_data(X, y)
        require_points_per_class(data.y_index, data.classes, 2, N_("Fisher's discriminant"))
        Z, _, _ = standard_units(data.X)
        return data._replace(X=Z)

    def _values(self, data: LineData, W: FloatArray) -> FloatArray:
        """J at the lines W (M, D + 1) from the projections of the (standardised) points: the
        between-class (m_1 - m_0)^2 over the within-class sum of squares (eq. 4.23-4.26)."""
        size = np.max(np.abs(W[:, 1:]), axis=1)
        if not np.all(size > 0):
            raise DegenerateFitError(
                N_(
                    "Fisher's criterion J(w) needs a direction: w1, ..., wD must not all be zero "
                    "(w0 plays no part in J)."
                )
            )
        V = W[:, 1:] / size[:, None]  # J does not depend on the length of w
        projections = V @ data.X.T  # (M, N)
        members = [data.y_index == k for k in (0, 1)]
        means = [projections[:, member].mean(axis=1) for member in members]
        for member, mean in zip(members, means):
            projections[:, member] -= mean[:, None]
        projections *= projections
        within = projections.sum(axis=1)
        between = (means[1] - means[0]) ** 2
        # The fit's rule for a singular S_W (``_ratio``): a within-class variance below 1e-12 of
        # the total along a unit w counts as 0.
        centred = data.X - np.array([data.X[member].mean(axis=0) for member in members])[data.y_index]
        tiny = 1e-12 * np.einsum("md,md->m", V, V) * max(float(np.sum(centred * centred)), _EPS)
        ratio = between / np.where(within > tiny, within, 1.0)
        degenerate = within <= tiny
        ratio[degenerate] = np.where(between[degenerate] > tiny[degenerate], np.inf, 0.0)
        return ratio

    def _infinite_by_definition(self) -> bool:
        return True  # J is unbounded where the classes project to two distinct single values

    def criterion_terms(self, X: ArrayLike, y: ArrayLike, w: ArrayLike) -> CriterionTerms:
        """Fisher's J has no share per point: raises a PlaygroundError saying so."""
        raise PlaygroundError(
            N_(
                "Fisher's criterion J(w) is a ratio of two sums over the points (the between-class over the "
                "within-class scatter, eq. 4.26), not a sum of one term per point, so it has no shares of points."
            )
        )

    def transform(self, X: ArrayLike) -> FloatArray:
        """The projection y = W^T x onto the unit direction(s), shape (N, n_components).

        Not centred, so the values match the book's y = w^T x (eq. 4.20) and ``threshold_``.
        """
        X = self._check_X(X)
        return X @ self.directions_

    def criterion(self, direction: ArrayLike) -> float | FloatArray:
        """Fisher's criterion J(w) = w^T S_B w / w^T S_W w (eq. 4.26) for any direction.

        Parameters
        ----------
        direction : array (D,) or (M, D)
            One direction, or one per row (e.g. (cos theta, sin theta) for many theta).
            The length does not matter.

        Returns
        -------
        float, or ndarray (M,)
            J(w); ``inf`` where w^T S_W w = 0 but the projected means differ. For K classes
            S_B is the K-class between-class scatter (eq. 4.43).
        """
        self._check_fitted()
        W = np.asarray(direction, dtype=float)
        single = W.ndim == 1
        W = np.atleast_2d(W)
        if W.ndim != 2 or W.shape[1] != self.n_features_in_ or not np.all(np.isfinite(W)):
            raise InvalidDataError(N_("A direction must be {n} finite numbers."), n=self.n_features_in_)
        if np.any(np.linalg.norm(W, axis=1) == 0):
            raise InvalidDataError(N_("The zero vector has no direction; J(w) needs w != 0."))
        W = W / np.linalg.norm(W, axis=1, keepdims=True)
        ratio = _ratio(W, self.between_class_scatter_, self.within_class_scatter_)
        return float(ratio[0]) if single else ratio


def _ratio(W: FloatArray, sb: FloatArray, sw: FloatArray) -> FloatArray:
    """w^T S_B w / w^T S_W w for each row of W (unit rows), ``inf`` where only S_W vanishes.

    Both scatters are divided by their joint size first: J does not depend on the unit, and
    the products then neither overflow nor underflow."""
    size = np.abs(sb).max() + np.abs(sw).max()
    if size > 0:
        sb, sw = sb / size, sw / size
    numerator = np.einsum("md,de,me->m", W, sb, W)
    denominator = np.einsum("md,de,me->m", W, sw, W)
    numerator = np.maximum(numerator, 0.0)
    tiny = 1e-12 * np.einsum("md,md->m", W, W) * max(np.trace(sw), _EPS)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = numerator / denominator
    degenerate = denominator <= tiny
    ratio[degenerate] = np.where(numerator[degenerate] > tiny[degenerate], np.inf, 0.0)
    return ratio


def _gaussian_tie(means: FloatArray, variances: FloatArray, priors: FloatArray) -> float | None:
    """Root between the means of ln pi_1 N(y|mu_1, s1^2) = ln pi_0 N(y|mu_0, s0^2), or None.

    The tie is a y^2 + b y + c = 0 with
    a = 1/(2 s0^2) - 1/(2 s1^2), b = mu_1/s1^2 - mu_0/s0^2,
    c = mu_0^2/(2 s0^2) - mu_1^2/(2 s1^2) + ln(pi_1/pi_0) + 1/2 ln(s0^2/s1^2).
    """
    (m0, m1), (v0, v1), (p0, p1) = means, variances, priors
    a = 0.5 / v0 - 0.5 / v1
    b = m1 / v1 - m0 / v0
    c = 0.5 * m0**2 / v0 - 0.5 * m1**2 / v1 + np.log(p1 / p0) + 0.5 * np.log(v0 / v1)
    roots: list[float] = []
    if a == 0:  # equal variances: the tie is linear
        if b != 0:
            roots.append(-c / b)
    else:
        disc = b * b - 4 * a * c
        if disc >= 0:
            q = -0.5 * (b + np.copysign(np.sqrt(disc), b))  # the stable form: no cancellation
            roots.append(q / a)
            if q != 0:
                roots.append(c / q)
    low, high = min(m0, m1), max(m0, m1)
    inside = [r for r in roots if np.isfinite(r) and low <= r <= high]
    if not inside:
        return None
    middle = (m0 + m1) / 2
    return float(min(inside, key=lambda r: abs(r - middle)))


CARD = MethodCard(
    name="fisher",
    estimator=FisherDiscriminant,
    specs=(Spec("threshold", "choice", "midpoint", ("midpoint", "gaussian")),),
)
