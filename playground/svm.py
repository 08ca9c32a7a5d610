"""The linear support vector machine trained by sequential minimal optimisation (SMO).

PRML section 7.1: maximise the dual (eq. 7.10 with the box of eq. 7.32)

    L~(a) = sum_n a_n - 1/2 sum_n sum_m a_n a_m t_n t_m x_n^T x_m
    subject to 0 <= a_n <= C and sum_n a_n t_n = 0,

two multipliers at a time, as libsvm does (Fan, Chen & Lin 2005); the solver is ``playground.smo``.
For the linear kernel the gradient follows from w = sum_n a_n t_n x_n (eq. 7.29), so no N x N
matrix is ever formed: memory is O(N D) and each step costs two matrix-vector products.
"""

import copy
from typing import Any, Self, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .base import LinearClassifier
from .budget import current_budget
from .card import MethodCard
from .criteria import LineCriterion, LineData, ridge
from .errors import ConvergenceError, InvalidDataError, Message, sentences
from .i18n import N_
from .smo import Pair, StepLog, intercept, solve
from .specs import C_VALUES, Spec
from .validation import FloatArray, LabelArray, check_iterations, check_X_y, standard_units

#: After SMO, multipliers below this fraction of the largest are set to 0, and those within
#: this fraction of C below C are set to C.
_AT_BOUND = 1e-12
#: At most this many SMO steps are kept in ``history_`` (then every 2nd, 4th, ... step).
HISTORY_LIMIT = 2000
#: Hard margin: margins below this fraction of the data's radius count as overlap.
_HARD_MARGIN_MIN_RELATIVE = 1e-4

#: Labels of ``margin_category_`` codes 0, 1, 2.
MARGIN_CATEGORIES = (
    "outside margin",
    "on margin (free SV)",
    "inside margin or misclassified (alpha = C)",
)

_OVERLAP = N_("The classes overlap, so no hard margin exists; choose a finite C (soft margin).")


class SVMStep(TypedDict):
    """One entry of ``history_``: the SMO step number, the pair (i, j) it updated, the dual
    objective L~(a) and w, b after it (in the units of X)."""

    step: int
    pair: Pair
    objective: float
    w: FloatArray
    b: float


class _SMOOptions(TypedDict):
    """The options every SMO run of one fit shares (``smo.solve``'s keywords)."""

    tol: float
    shrinking: bool
    second_order: bool
    history: StepLog | None


def _smo_steps(n: int) -> Message:
    """'1 SMO step', '2,000 SMO steps'."""
    return Message(N_("1 SMO step")) if n == 1 else Message(N_("{n:,} SMO steps"), n=n)


class _History:
    """Bounded log of SMO steps: every step until ``limit`` entries, then thinned by half
    (keeping steps that are multiples of a doubled stride) whenever it fills up.

    Columns are kept as flat lists while SMO runs (no per-step dicts, so no garbage
    collector passes); ``entries()`` builds the dicts once at the end."""

    _COLUMNS = ("step", "i", "j", "objective", "w", "b")

    def __init__(self, limit: int | None = None) -> None:
        self.limit = HISTORY_LIMIT if limit is None else limit
        self.stride = 1
        # Columns of different types (ints, floats, arrays) in one dict: list[Any], each column's
        # type is the one of its SVMStep field (``entries`` builds them).
        self.columns: dict[str, list[Any]] = {name: [] for name in self._COLUMNS}

    def wants(self, step: int) -> bool:
        return step % self.stride == 0

    def add(self, step: int, i: int, j: int, objective: float, w: FloatArray, b: float) -> None:
        columns = self.columns
        for name, value in zip(self._COLUMNS, (step, i, j, objective, w, b)):
            columns[name].append(value)
        if len(columns["step"]) > self.limit:
            self.stride *= 2
            keep = [k for k, s in enumerate(columns["step"]) if s % self.stride == 0]
            self.columns = {name: [values[k] for k in keep] for name, values in columns.items()}

    def entries(self) -> list[SVMStep]:
        c = self.columns
        return [
            {"step": s, "pair": (i, j), "objective": o, "w": w, "b": b}
            for s, i, j, o, w, b in zip(c["step"], c["i"], c["j"], c["objective"], c["w"], c["b"])
        ]


def _kkt_violation(functional: FloatArray, category: NDArray[np.int_]) -> float:
    """The largest violation of the KKT conditions in units of the functional margin t y(x): a
    point with a_n = 0 needs t y >= 1, one on the margin t y = 1, one at C t y <= 1 (7.41-7.43)."""
    off = np.concatenate(
        [
            1.0 - functional[category == 0],
            np.abs(functional[category == 1] - 1.0),
            functional[category == 2] - 1.0,
        ]
    )
    return float(max(off.max(initial=0.0), 0.0))


def _snap_to_bounds(alpha: FloatArray, box: float) -> None:
    """Set in place a multiplier within rounding of a bound to the bound: a_n = 1e-16 left by the
    arithmetic of a step (next to multipliers of order 1) is no free support vector (b and the
    margin categories say so)."""
    alpha[alpha <= _AT_BOUND * alpha.max()] = 0.0
    alpha[alpha >= (1 - _AT_BOUND) * box] = box


class LinearSVM(LineCriterion, LinearClassifier):
    """Two-class linear support vector machine, trained by SMO on the dual (PRML 7.1).

    The decision function is y(x) = w^T x + b (eq. 7.1 with phi(x) = x) with
    w = sum_n a_n t_n x_n (eq. 7.29); t_n = +1 for ``classes_[1]`` and -1 for
    ``classes_[0]``. The multipliers maximise the dual L~(a) (eq. 7.32) subject to
    0 <= a_n <= C (eq. 7.33) and sum_n a_n t_n = 0 (eq. 7.34). For K > 2 classes wrap it:
    ``make_model("svm", multiclass="ovr")`` or ``"ovo"``.

    Parameters
    ----------
    C : float > 0 or None
        Penalty on slack (eq. 7.21). None asks for the hard margin of section 7.1
        (C = infinity): it is solved with a finite box that is raised until no multiplier
        touches it, and a ConvergenceError says so when the classes overlap.
    tol : float
        Stopping tolerance on the maximal KKT violation, as libsvm's ``eps``.
    max_iter : int
        Cap on the number of SMO steps, at most ``MAX_ITERATIONS`` (100,000); reaching it
        leaves ``converged_`` False.
    shrinking : bool
        Set aside bounded multipliers that cannot change (libsvm's heuristic); the result
        is checked on every point before stopping.
    selection : {"second_order", "first_order"}
        Working-set selection: the second-order rule of Fan, Chen & Lin (2005) or the
        maximal violating pair.

    Attributes
    ----------
    classes_ : ndarray (2,)
    alpha_ : ndarray (N,)
        Lagrange multipliers a_n, 0 <= a_n <= C.
    support_ : ndarray (n_SV,) of int
        Indices of the support vectors (a_n > 0).
    support_vectors_ : ndarray (n_SV, D)
    dual_coef_ : ndarray (1, n_SV)
        a_n t_n of the support vectors (scikit-learn's convention).
    n_support_ : ndarray (2,)
        Number of support vectors in each class.
    coef_ : ndarray (1, D)
        w (eq. 7.29).
    intercept_ : ndarray (1,)
        b: the mean of t_n - w^T x_n over the free support vectors (eq. 7.37), or the
        midpoint of the interval the KKT conditions allow when there are none (libsvm).
    margin_ : float
        1 / |w|, the distance from the boundary to the margin (inf when w = 0).
    dual_objective_ : float
        L~(a) at the solution.
    margin_category_ : ndarray (N,) of int
        Code into ``MARGIN_CATEGORIES`` per training point: 0 outside the margin (a_n = 0),
        1 on the margin (0 < a_n < C), 2 inside the margin or misclassified (a_n = C).
    margin_violators_ : ndarray of int
        Indices with a_n = C (slack xi_n > 0 possible, eq. 7.36).
    history_ : list of dict
        One entry per SMO step: {"step": 1, 2, ..., "pair": (i, j) the two multipliers
        updated (training-point indices), "objective": L~ after the step, "w": ndarray (D,),
        "b": float}. At most ``HISTORY_LIMIT`` entries are kept: beyond that only every
        2nd, 4th, ... step is stored (the stride doubles as needed), and the last step is
        always present with the fitted w and b.
    n_iter_ : int
        SMO steps taken.
    converged_ : bool
    fit_message_ : str
        One sentence on how the fit went.

    Criterion of a line (``criterion_at``): the primal objective 1/2 |w|^2 + C sum_n xi_n
    (eq. 7.21) over w = (w1, ..., wD), the slacks at their least for the line,
    xi_n = max(0, 1 - t_n y(x_n)) (the hinge loss, eq. 7.44), which is each point's share
    (times C). The bias is not penalised. The hard margin (C = None) is the constraint form of
    eq. 7.6: 1/2 |w|^2 where every t_n y(x_n) >= 1 (eq. 7.5), checked to the fit's own tolerance
    2 tol (what ``converged_`` asks of the KKT conditions), and +inf elsewhere; a point's share
    is then 0 or +inf.
    """

    # Set on the copies at_step returns.
    step_: int
    smo_step_: int
    pair_: tuple[int, ...] | None

    display_name = N_("Support vector machine")
    book_section = "7.1"
    criterion_name = N_("primal objective ½‖w‖² + C Σ ξ")
    criterion_equation = "7.21"
    MARGIN_CATEGORIES = MARGIN_CATEGORIES

    def __init__(
        self,
        C: float | None = 1.0,
        tol: float = 1e-3,
        max_iter: int = 100_000,
        shrinking: bool = True,
        selection: str = "second_order",
    ) -> None:
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.shrinking = shrinking
        self.selection = selection

    def _check_params(self) -> None:
        if self.C is not None:
            if isinstance(self.C, bool) or not isinstance(self.C, (int, float, np.integer, np.floating)):
                raise InvalidDataError(
                    N_("The SVM's C must be a positive number or None (hard margin), not {value!r}."), value=self.C
                )
            if not (np.isfinite(self.C) and self.C > 0):
                raise InvalidDataError(
                    N_("The SVM's C must be a positive finite number or None; got {value}."), value=self.C
                )
        if not (isinstance(self.tol, (int, float, np.integer, np.floating)) and np.isfinite(self.tol) and self.tol > 0):
            raise InvalidDataError(N_("The SVM's tolerance must be a positive number; got {value!r}."), value=self.tol)
        check_iterations(self.max_iter, N_("The SVM's max_iter"))
        if self.selection not in ("second_order", "first_order"):
            raise InvalidDataError(
                N_("SMO selection must be 'second_order' or 'first_order', not {value!r}."), value=self.selection
            )

    def _check_criterion_params(self) -> None:
        self._check_params()

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        """C xi_n = C max(0, 1 - t_n y_n); for the hard margin 0 where t_n y_n >= 1 - 2 tol, else +inf."""
        A *= data.t  # the functional margins t_n y(x_n)
        if self.C is None:
            return np.where(A >= 1.0 - 2.0 * float(self.tol), 0.0, np.inf)
        np.subtract(1.0, A, out=A)
        np.maximum(A, 0.0, out=A)
        A *= float(self.C)
        return A

    def _penalty(self, W: FloatArray) -> FloatArray:
        return ridge(W, 1.0)  # 1/2 |w|^2, the bias free

    def _infinite_by_definition(self) -> bool:
        return self.C is None  # the hard margin's constraints: +inf outside them

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        self._check_params()
        X, y_index, classes = check_X_y(X, y, max_classes=2, method=N_("The linear SVM"))
        t = np.where(y_index == 1, 1.0, -1.0)
        n_points = X.shape[0]
        # SMO runs on Z = (X - m) / s (m the mean, s a power of two near the cloud's size).
        # The SVM does not depend on where the points sit (sum a_n t_n = 0), and the problem on
        # Z with the box C s^2 is the problem on X with the box C: its multipliers are s^2 a_n,
        # its w is s w (the steps are the same, exactly so since s is a power of two). So
        # |x_i - x_j|^2 stays accurate far from the origin, and 1e-90 or 1e90 coordinates
        # neither underflow nor overflow.
        Z, mean, scale = standard_units(X)
        alpha = np.zeros(n_points)
        history = _History()
        box, steps, converged, pair = self._solve(Z, t, alpha, scale, history)
        _snap_to_bounds(alpha, box)
        w_z = Z.T @ (alpha * t)
        v = t - Z @ w_z
        b_z = intercept(v, alpha, t, box)
        w = w_z / scale
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        self.alpha_ = alpha / scale**2
        self.support_ = np.flatnonzero(alpha > 0)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = (self.alpha_ * t)[self.support_][None, :]
        self.n_support_ = np.array([np.sum(t[self.support_] < 0), np.sum(t[self.support_] > 0)])
        self.coef_ = w[None, :]
        self.intercept_ = np.array([b_z - w @ mean])
        norm = float(np.linalg.norm(w))
        self.margin_ = 1.0 / norm if norm > 0 else np.inf
        self.dual_objective_ = float(alpha.sum() - 0.5 * w_z @ w_z) / scale**2
        category = np.zeros(n_points, dtype=int)
        category[(alpha > 0) & (alpha < box)] = 1
        category[alpha >= box] = 2
        self.margin_category_ = category
        self.margin_violators_ = np.flatnonzero(category == 2)
        self.n_iter_ = int(steps)
        # SMO's stopping rule is met on gradients it updates step by step; with a box C s^2 many
        # orders of magnitude above 1 (points far apart for their C) those lose every digit, and
        # the rule can be met far from the optimum. The KKT conditions are checked once more on
        # the final w and b, so such a fit is flagged as approximate instead of "converged".
        self._kkt_off = _kkt_violation(t * (Z @ w_z + b_z), category)
        self.converged_ = bool(converged) and self._kkt_off <= 2 * self.tol

        self.history_ = self._history_in_units(history, steps, pair, w_z, mean, scale)
        budget = current_budget()
        stopped = budget.stop_message(_smo_steps(steps)) if budget.stopped else None
        self.fit_message_ = self._message(norm, stopped)
        return self

    def _solve(
        self, Z: FloatArray, t: FloatArray, alpha: FloatArray, scale: float, history: _History
    ) -> tuple[float, int, bool, Pair | None]:
        """SMO on the standardised points ``Z`` (``alpha`` updated in place): (box, steps, converged,
        last pair); the box is C s^2 (the problem on Z), or found by ``_hard_margin`` for C = None."""
        options: _SMOOptions = {
            "tol": float(self.tol),
            "shrinking": bool(self.shrinking),
            "second_order": self.selection == "second_order",
            "history": history,
        }
        if self.C is None:
            return self._hard_margin(Z, t, alpha, options)
        box = float(self.C) * scale**2
        steps, status, pair = solve(Z, t, box, alpha, max_steps=int(self.max_iter), first_step=0, **options)
        return box, steps, status == "converged", pair

    def _history_in_units(
        self, history: _History, steps: int, pair: Pair | None, w_z: FloatArray, mean: FloatArray, scale: float
    ) -> list[SVMStep]:
        """``history_`` in the units of X (SMO ran on (X - mean) / scale), its last entry the fitted
        model (added when thinning left the last step out)."""
        entries = history.entries()
        if pair is not None and (not entries or entries[-1]["step"] != steps):
            entries.append({"step": steps, "pair": pair, "objective": 0.0, "w": w_z.copy(), "b": 0.0})
        for entry in entries:
            entry["w"] = entry["w"] / scale
            entry["b"] -= float(entry["w"] @ mean)
            entry["objective"] /= scale**2
        if entries:
            entries[-1].update(
                {"objective": self.dual_objective_, "w": self.coef_[0].copy(), "b": float(self.intercept_[0])}
            )
        return entries

    def _hard_margin(
        self, Xc: FloatArray, t: FloatArray, alpha: FloatArray, options: _SMOOptions
    ) -> tuple[float, int, bool, Pair | None]:
        """C = infinity: raise a finite box by factors of 100 (warm-starting SMO) until no
        multiplier reaches it. For separable data with margin gamma every a_n <= 1/gamma^2,
        so a multiplier stuck at the box 1/gamma_min^2 means the margin is below gamma_min
        (a 10^-4 fraction of the data's radius): the classes overlap. Since each class's
        multipliers sum to sum_n a_n / 2, the distance between the two classes' convex hulls
        (twice the margin) is at most 2 |w| / sum_n a_n at any feasible a: SMO checks this
        bound as it goes and stops as soon as it proves the margin is below gamma_min."""
        radius = float(np.sqrt(np.max(np.einsum("ij,ij->i", Xc, Xc))))
        if radius == 0:
            raise ConvergenceError(_OVERLAP)
        gamma_min = _HARD_MARGIN_MIN_RELATIVE * radius
        box_max = 1.0 / gamma_min**2
        box = 1.0 / radius**2
        steps_total = 0
        pair: Pair | None = None
        while True:
            steps, status, last = solve(
                Xc,
                t,
                box,
                alpha,
                max_steps=int(self.max_iter) - steps_total,
                first_step=steps_total,
                overlap_below=gamma_min,
                **options,
            )
            steps_total += steps
            pair = last or pair
            at_box = np.any(alpha >= box)
            if status == "overlap":
                raise ConvergenceError(_OVERLAP)
            if status in ("max_iter", "budget"):
                w = Xc.T @ (alpha * t)
                v = t - Xc @ w
                b = intercept(v, alpha, t, box)
                if np.all(t * (Xc @ w + b) > 0):
                    return box, steps_total, False, pair  # separable; stopped early
                if status == "budget":
                    raise ConvergenceError(
                        current_budget().stop_message(
                            _smo_steps(steps_total), Message(N_("No hard margin was found by then: choose a finite C."))
                        )
                    )
                raise ConvergenceError(
                    N_(
                        "SMO stopped after max_iter = {n} steps before finding the hard margin; "
                        "the classes may overlap: choose a finite C or allow more steps."
                    ),
                    n=self.max_iter,
                )
            if not at_box:
                return box, steps_total, True, pair
            if box >= box_max:
                raise ConvergenceError(_OVERLAP)
            box = min(box * 100.0, box_max)

    def _message(self, norm: float, stopped: Message | None = None) -> Message | None:
        n_sv = self.support_.size
        n_bound = self.margin_violators_.size
        if norm == 0:
            result = Message(N_("w = 0, so every point gets the same decision value and there is no boundary."))
        else:
            result = Message(
                N_(
                    "{n} support vectors ({on} on the margin, {inside} inside it or misclassified), "
                    "margin 1/|w| = {margin:.3g}."
                ),
                n=n_sv,
                on=n_sv - n_bound,
                inside=n_bound,
                margin=self.margin_,
            )
        if stopped:  # the time budget of a hosted app ran out
            return sentences([stopped, result])
        if self.converged_:
            head = Message(N_("Converged after {steps}."), steps=_smo_steps(self.n_iter_))
        elif self.n_iter_ < self.max_iter and getattr(self, "_kkt_off", 0.0) > 2 * self.tol:
            head = Message(
                N_(
                    "SMO's stopping rule was met after {steps}, but in floating point the KKT conditions hold "
                    "only to {off:.2g}, not to tol = {tol:g}, so the boundary is approximate (C is very large "
                    "for points this far apart: try a smaller C)."
                ),
                steps=_smo_steps(self.n_iter_),
                off=self._kkt_off,
                tol=self.tol,
            )
        else:
            head = Message(
                N_(
                    "Stopped after max_iter = {steps} before the KKT conditions held to tol = {tol:g}, so the "
                    "boundary is approximate (allow more steps, or change C or the tolerance)."
                ),
                steps=_smo_steps(self.n_iter_),
                tol=self.tol,
            )
        return sentences([head, result])

    def at_step(self, step: int) -> Self:
        """A copy of the fitted SVM as it was at playback position ``step``, for replaying SMO.

        ``step`` counts entries of ``history_``, not SMO steps (the history may be thinned):
        0 is the start, a = 0 and so w = 0 and b = 0 (every decision value is 0, there is no
        boundary and the margin is infinite); k in 1..len(history_) is the state after SMO step
        ``history_[k - 1]["step"]``; values outside 0..len(history_) are clipped, and
        len(history_) is the fitted model. The copy's ``coef_``, ``intercept_`` (so
        ``decision_function`` and ``predict``), ``margin_`` and ``dual_objective_`` are those of
        that position; ``step_`` records it, ``smo_step_`` the SMO step number (0 at the start)
        and ``pair_`` the pair (i, j) updated by that step (None at the start). The multipliers
        of intermediate steps are not recorded, so ``alpha_``, ``support_``,
        ``margin_category_`` and the rest stay the whole run's.
        """
        self._check_fitted()
        n_entries = len(self.history_)
        step = int(min(max(int(step), 0), n_entries))
        replay = copy.copy(self)
        replay.step_ = step
        if step == n_entries:  # the fitted model itself (also when SMO took no step)
            replay.smo_step_ = self.n_iter_
            replay.pair_ = tuple(self.history_[-1]["pair"]) if n_entries else None
            return replay
        if step == 0:
            w, b, objective, smo_step, pair = np.zeros(self.n_features_in_), 0.0, 0.0, 0, None
        else:
            entry = self.history_[step - 1]
            w, b, objective = np.asarray(entry["w"], dtype=float), float(entry["b"]), float(entry["objective"])
            smo_step, pair = int(entry["step"]), tuple(int(k) for k in entry["pair"])
        replay.coef_ = w[None, :].copy()
        replay.intercept_ = np.array([b])
        norm = float(np.linalg.norm(w))
        replay.margin_ = 1.0 / norm if norm > 0 else np.inf
        replay.dual_objective_ = objective
        replay.smo_step_ = smo_step
        replay.pair_ = pair
        return replay

    def margin_labels(self) -> LabelArray:
        """``MARGIN_CATEGORIES`` text for each training point, shape (N,)."""
        self._check_fitted()
        return np.asarray(MARGIN_CATEGORIES, dtype=object)[self.margin_category_]


CARD = MethodCard(
    name="svm",
    estimator=LinearSVM,
    specs=(Spec("C", "choice", 1.0, C_VALUES, nullable=True),),
    two_class_only=True,
    iterative=True,
)
