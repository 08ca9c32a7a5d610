"""The linear support vector machine trained by sequential minimal optimisation (SMO).

PRML section 7.1 and seed 001: maximise the dual (eq. 7.10 with the box of eq. 7.32)

    L~(a) = sum_n a_n - 1/2 sum_n sum_m a_n a_m t_n t_m x_n^T x_m
    subject to 0 <= a_n <= C and sum_n a_n t_n = 0,

two multipliers at a time, as libsvm does (Fan, Chen & Lin 2005). For the linear kernel the
gradient follows from w = sum_n a_n t_n x_n (eq. 7.29), so no N x N matrix is ever formed:
memory is O(N D) and each step costs two matrix-vector products.
"""

import copy

import numpy as np

from .base import LinearClassifier
from .budget import current_budget
from .errors import ConvergenceError, InvalidDataError, Message, sentences
from .i18n import N_
from .validation import check_iterations, check_X_y, standard_units

#: libsvm's floor on the curvature a_ij = |x_i - x_j|^2 of a pair (duplicated points).
_TAU = 1e-12
#: After SMO, multipliers below this fraction of the largest are set to 0, and those within
#: this fraction of C below C are set to C.
_AT_BOUND = 1e-12
#: At most this many SMO steps are kept in ``history_`` (then every 2nd, 4th, ... step).
HISTORY_LIMIT = 2000
#: With shrinking, bounded multipliers that cannot violate the KKT conditions are set aside
#: every this many steps (libsvm uses min(N, 1000); measured here, 200 suits numpy).
_SHRINK_EVERY = 200
#: Hard margin: margins below this fraction of the data's radius count as overlap.
_HARD_MARGIN_MIN_RELATIVE = 1e-4

#: Labels of ``margin_category_`` codes 0, 1, 2.
MARGIN_CATEGORIES = (
    "outside margin",
    "on margin (free SV)",
    "inside margin or misclassified (alpha = C)",
)

_OVERLAP = N_("The classes overlap, so no hard margin exists; choose a finite C (soft margin).")


def _smo_steps(n):
    """'1 SMO step', '2,000 SMO steps'."""
    return Message(N_("1 SMO step")) if n == 1 else Message(N_("{n:,} SMO steps"), n=n)


class _History:
    """Bounded log of SMO steps: every step until ``limit`` entries, then thinned by half
    (keeping steps that are multiples of a doubled stride) whenever it fills up.

    Columns are kept as flat lists while SMO runs (no per-step dicts, so no garbage
    collector passes); ``entries()`` builds the dicts once at the end."""

    _COLUMNS = ("step", "i", "j", "objective", "w", "b")

    def __init__(self, limit=None):
        self.limit = HISTORY_LIMIT if limit is None else limit
        self.stride = 1
        self.columns = {name: [] for name in self._COLUMNS}

    def wants(self, step):
        return step % self.stride == 0

    def add(self, step, i, j, objective, w, b):
        columns = self.columns
        for name, value in zip(self._COLUMNS, (step, i, j, objective, w, b)):
            columns[name].append(value)
        if len(columns["step"]) > self.limit:
            self.stride *= 2
            keep = [k for k, s in enumerate(columns["step"]) if s % self.stride == 0]
            self.columns = {name: [values[k] for k in keep] for name, values in columns.items()}

    def entries(self):
        c = self.columns
        return [
            {"step": s, "pair": (i, j), "objective": o, "w": w, "b": b}
            for s, i, j, o, w, b in zip(c["step"], c["i"], c["j"], c["objective"], c["w"], c["b"])
        ]


def _intercept(v, alpha, t, C):
    """b from the KKT conditions, as libsvm computes -rho.

    ``v`` is t_n - w^T x_n (N,). A free SV (0 < a_n < C) lies on the margin, so b = v_n
    there; the free SVs are averaged. With none, b is the midpoint of the interval the
    bounded multipliers allow (eq. 7.37 cannot be used).
    """
    free = (alpha > 0) & (alpha < C)
    if np.any(free):
        return float(np.mean(v[free]))
    positive = t > 0
    at_zero, at_c = alpha <= 0, alpha >= C
    lower = v[(positive & at_zero) | (~positive & at_c)]  # b >= v_n for these
    upper = v[(positive & at_c) | (~positive & at_zero)]  # b <= v_n for these
    if lower.size and upper.size:
        return float((lower.max() + upper.min()) / 2)
    return float(lower.max() if lower.size else upper.min())


def _snap_to_bounds(alpha, box):
    """Set in place a multiplier within rounding of a bound to the bound: a_n = 1e-16 left by the
    arithmetic of a step (next to multipliers of order 1) is no free support vector (b and the
    margin categories say so)."""
    alpha[alpha <= _AT_BOUND * alpha.max()] = 0.0
    alpha[alpha >= (1 - _AT_BOUND) * box] = box


def _midpoint(v, pen_up, pen_low):
    """b between the extremes of I_up and I_low when no multiplier is free (history only)."""
    ends = [float(np.max(v + pen_up)), float(np.min(v + pen_low))]
    ends = [e for e in ends if np.isfinite(e)]
    return sum(ends) / len(ends) if ends else 0.0


def _smo(X, t, C, alpha, *, tol, max_steps, shrinking, second_order, history, first_step, overlap_below=None):
    """Run SMO from the feasible ``alpha`` (modified in place) on centred inputs X (N, D).

    Returns (steps taken, status, last pair) with status "converged", "max_iter", "budget" (the
    time budget of ``playground.budget`` ran out) or, when
    ``overlap_below`` is given and |w| / sum a_n drops below it, "overlap" (half the distance
    between the classes' convex hulls is at most that). Working-set selection: i maximises v_i = -t_i g_i
    over I_up; j maximises (v_i - v_j)^2 / |x_i - x_j|^2 over I_low with v_j < v_i (the
    second-order rule; first order takes the smallest v_j). Stops when the maximal KKT
    violation max_up v - min_low v falls below ``tol`` on every point.
    """
    solver = _Solver(X, t, C, alpha, tol=tol, shrinking=shrinking, second_order=second_order, history=history)
    solver.step = first_step
    status = solver.solve(max_steps=max_steps, overlap_below=overlap_below)
    return solver.step - first_step, status, solver.pair


class _ActiveSet:
    """The multipliers SMO optimises now (every one, or those left after shrinking), as arrays
    indexed 0..n_active-1 and rebuilt from the global state after each shrink or unshrink.

    ``v`` is t_n - w^T x_n; ``pen_up`` is 0 on I_up and -inf elsewhere, ``pen_low`` 0 on I_low
    and +inf elsewhere, so that argmax (v + pen_up) and argmin (v + pen_low) range over those
    sets; the multipliers themselves live in the plain list ``a_list`` (scalar updates)."""

    def __init__(self, index, solver):
        C = solver.C
        self.index = index
        self.X, self.augmented, t = solver.X[index], solver.augmented[index], solver.t[index]
        alpha = solver.alpha[index]
        self.v = t - self.X @ solver.w
        positive = t > 0
        up = (positive & (alpha < C)) | (~positive & (alpha > 0))
        low = (positive & (alpha > 0)) | (~positive & (alpha < C))
        self.pen_up = np.where(up, 0.0, -np.inf)
        self.pen_low = np.where(low, 0.0, np.inf)
        self.free = ((alpha > 0) & (alpha < C)).astype(float)
        self.n_free = int(self.free.sum())
        self.t_list, self.a_list, self.sq_list = t.tolist(), alpha.tolist(), solver.sq[index].tolist()
        self.buf_up, self.buf_low, self.score, self.curv, self.dv = (np.empty(index.size) for _ in range(5))
        dim = self.X.shape[1]
        self.vec = np.empty(dim + 2)
        self.vec[dim] = 1.0

    def maximal_violation(self):
        """i = argmax v over I_up, its v, the minimiser of v over I_low and the gap between them
        (the maximal KKT violation; nan or -inf when I_up or I_low is empty)."""
        np.add(self.v, self.pen_up, out=self.buf_up)
        p = int(self.buf_up.argmax())
        m = float(self.buf_up[p])
        np.add(self.v, self.pen_low, out=self.buf_low)
        np.subtract(m, self.buf_low, out=self.score)
        q_first = int(self.score.argmax())
        return p, m, q_first, float(self.score[q_first])

    def select_j(self, p, q_first, second_order):
        """j for the pair (i = p, j): the curvatures |x_p - x_n|^2 are left in ``curv``; the
        second-order rule picks the largest (v_p - v_j)^2 / |x_p - x_j|^2 (``score`` is reused)."""
        vec, dim = self.vec, self.X.shape[1]
        vec[:dim] = self.X[p]
        vec[:dim] *= -2.0
        vec[dim + 1] = self.sq_list[p]
        # [x, |x|^2, 1] @ [-2 x_p, 1, |x_p|^2] = |x - x_p|^2 in one product.
        np.dot(self.augmented, vec, out=self.curv)
        np.maximum(self.curv, _TAU, out=self.curv)
        if not second_order:
            return q_first
        score = self.score
        np.maximum(score, 0.0, out=score)
        np.square(score, out=score)
        np.divide(score, self.curv, out=score)
        return int(score.argmax())

    def take_step(self, p, q, m, C, w):
        """The two-variable step on (p, q); updates w in place and returns the change of sum_n a_n.

        Move a_p += t_p lam, a_q -= t_q lam: sum a_n t_n stays 0, w moves by lam (x_p - x_q),
        and L~ gains lam (v_p - v_q) - lam^2 |x_p - x_q|^2 / 2, largest at the unclipped lam."""
        t_list, a_list = self.t_list, self.a_list
        tp, tq, ap, aq = t_list[p], t_list[q], a_list[p], a_list[q]
        room_p = C - ap if tp > 0 else ap
        room_q = aq if tq > 0 else C - aq
        lam = min((m - float(self.v[q])) / float(self.curv[q]), room_p, room_q)
        # Land exactly on a bound when the box stops the step, as libsvm does.
        ap = (C if tp > 0 else 0.0) if lam == room_p else ap + tp * lam
        aq = (0.0 if tq > 0 else C) if lam == room_q else aq - tq * lam
        a_list[p], a_list[q] = ap, aq
        dw = lam * (self.X[p] - self.X[q])
        w += dw
        np.dot(self.X, dw, out=self.dv)
        self.v -= self.dv
        free, pen_up, pen_low = self.free, self.pen_up, self.pen_low
        for k, a_k, t_k in ((p, ap, tp), (q, aq, tq)):
            is_free = 0.0 < a_k < C
            self.n_free += int(is_free) - int(free[k])
            free[k] = is_free
            pen_up[k] = 0.0 if (a_k < C if t_k > 0 else a_k > 0) else -np.inf
            pen_low[k] = 0.0 if (a_k > 0 if t_k > 0 else a_k < C) else np.inf
        return (tp - tq) * lam

    def shrinkable(self, m, gap):
        """libsvm's do_shrinking rule: a bounded multiplier in only one of I_up / I_low whose v is
        beyond the current extremes cannot be picked. Returns the mask of those to keep."""
        return ~(((self.pen_low > 0) & (self.v < m - gap)) | ((self.pen_up < 0) & (self.v > m)))

    def bias(self):
        """b for the history (libsvm's calculate_rho, negated): the mean of v over the free
        multipliers, or the midpoint of the interval I_up and I_low allow when none is free."""
        if self.n_free:
            return float(self.free @ self.v) / self.n_free
        return _midpoint(self.v, self.pen_up, self.pen_low)


class _Solver:
    """One SMO run on X (N, D): the global state (alpha, w, sum_n a_n, the step count) and the
    loop that alternates optimising an active set with shrinking and unshrinking it."""

    def __init__(self, X, t, C, alpha, *, tol, shrinking, second_order, history):
        self.X, self.t, self.C, self.alpha = X, t, C, alpha
        self.tol, self.shrinking, self.second_order, self.history = tol, shrinking, second_order, history
        self.sq = np.einsum("ij,ij->i", X, X)
        self.augmented = np.column_stack([X, self.sq, np.ones(X.shape[0])])
        self.w = X.T @ (alpha * t)
        self.sum_alpha = float(alpha.sum())
        self.step = 0
        self.pair = None
        self.budget = current_budget()  # a hosted app bounds the time

    def solve(self, *, max_steps, overlap_below):
        """Optimise until a stop that is not a shrink; returns the status."""
        n_points = self.X.shape[0]
        self.last_step = self.step + max_steps
        self.overlap_below = overlap_below
        self.unshrunk, self.early_unshrink_done = True, False
        active = np.arange(n_points)
        while True:
            status, active_next = self._optimise(_ActiveSet(active, self))
            if active_next is not None:
                active = active_next
                self.unshrunk = active.size == n_points
                continue
            if status == "converged" and not self.unshrunk:
                # Converged on the active set: check every point again (libsvm's unshrinking).
                active = np.arange(n_points)
                self.unshrunk = True
                continue
            return status

    def _optimise(self, act):
        """SMO steps on the active set ``act`` until a stop. Returns (status, None) or, when the
        active set should change (shrinking, or unshrinking near the end), (None, its new index)."""
        since_shrink = 0
        pair = None
        try:
            while True:
                p, m, q_first, gap = act.maximal_violation()
                status = self._status(gap)
                if status is not None:
                    return status, None
                if not self.unshrunk and not self.early_unshrink_done and gap <= 10 * self.tol:
                    # Near the end, bring every point back once (libsvm's unshrinking).
                    self.early_unshrink_done = True
                    return None, np.arange(self.X.shape[0])
                if self.shrinking and since_shrink >= _SHRINK_EVERY:
                    # Set aside the multipliers that cannot be picked (libsvm's do_shrinking).
                    since_shrink = 0
                    keep = act.shrinkable(m, gap)
                    if not keep.all() and keep.sum() >= 2:
                        return None, act.index[keep]
                since_shrink += 1
                q = act.select_j(p, q_first, self.second_order)
                self.sum_alpha += act.take_step(p, q, m, self.C, self.w)
                self.step += 1
                pair = (p, q)
                if self.history is not None and self.history.wants(self.step):
                    objective = self.sum_alpha - 0.5 * float(self.w @ self.w)
                    self.history.add(
                        self.step, int(act.index[p]), int(act.index[q]), objective, self.w.copy(), act.bias()
                    )
        finally:
            self.alpha[act.index] = act.a_list
            if pair is not None:
                self.pair = (int(act.index[pair[0]]), int(act.index[pair[1]]))

    def _status(self, gap):
        """Why SMO stops here, or None to go on."""
        if not gap >= self.tol:  # also stops when one of I_up, I_low is empty (-inf / nan)
            return "converged"
        if self.step >= self.last_step:
            return "max_iter"
        if self.budget.expired():
            return "budget"
        w, below = self.w, self.overlap_below
        if below is not None and self.step % 16 == 0 and w @ w < (below * self.sum_alpha) ** 2:
            return "overlap"
        return None


class LinearSVM(LinearClassifier):
    """Two-class linear support vector machine, trained by SMO on the dual (seed 001).

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
    """

    display_name = N_("Support vector machine")
    book_section = "7.1"
    MARGIN_CATEGORIES = MARGIN_CATEGORIES

    def __init__(self, C=1.0, tol=1e-3, max_iter=100_000, shrinking=True, selection="second_order"):
        self.C = C
        self.tol = tol
        self.max_iter = max_iter
        self.shrinking = shrinking
        self.selection = selection

    def _check_params(self):
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

    def fit(self, X, y):
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
        options = {
            "tol": float(self.tol),
            "shrinking": bool(self.shrinking),
            "second_order": self.selection == "second_order",
            "history": history,
        }
        if self.C is not None:
            box = float(self.C) * scale**2
            steps, status, pair = _smo(Z, t, box, alpha, max_steps=int(self.max_iter), first_step=0, **options)
            converged = status == "converged"
        else:
            box, steps, converged, pair = self._hard_margin(Z, t, alpha, options)

        _snap_to_bounds(alpha, box)
        w_z = Z.T @ (alpha * t)
        v = t - Z @ w_z
        b_z = _intercept(v, alpha, t, box)
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
        self.converged_ = bool(converged)

        self.history_ = self._history_in_units(history, steps, pair, w_z, mean, scale)
        budget = current_budget()
        stopped = budget.stop_message(_smo_steps(steps)) if budget.stopped else None
        self.fit_message_ = self._message(norm, stopped)
        return self

    def _history_in_units(self, history, steps, pair, w_z, mean, scale):
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
            entries[-1].update(objective=self.dual_objective_, w=self.coef_[0].copy(), b=float(self.intercept_[0]))
        return entries

    def _hard_margin(self, Xc, t, alpha, options):
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
        pair = None
        while True:
            steps, status, last = _smo(
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
                b = _intercept(v, alpha, t, box)
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

    def _message(self, norm, stopped=None):
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

    def at_step(self, step):
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

    def margin_labels(self):
        """``MARGIN_CATEGORIES`` text for each training point, shape (N,)."""
        self._check_fitted()
        return np.asarray(MARGIN_CATEGORIES, dtype=object)[self.margin_category_]
