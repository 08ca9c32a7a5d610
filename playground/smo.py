"""Sequential minimal optimisation (SMO) for the linear SVM's dual, as libsvm's ``Solve`` does it
(Fan, Chen & Lin 2005), and the bias it implies (libsvm's ``calculate_rho``).

The dual (PRML eq. 7.32-7.34) is maximised two multipliers at a time. Rules that hold here:

- Only w = sum_n a_n t_n x_n (eq. 7.29) and v_n = t_n - w^T x_n are kept, never the N x N kernel
  matrix: memory is O(N D) and each step costs two matrix-vector products.
- ``alpha`` stays feasible after every step (0 <= a_n <= C, sum_n a_n t_n = 0); a step stopped
  by the box lands exactly on the bound.
- The working set is (i, j) = (argmax v over I_up, the second-order choice over I_low)
  (``_ActiveSet.maximal_violation``, ``_ActiveSet.select_j``); the two-variable step is
  ``_ActiveSet.take_step``; shrinking sets aside multipliers that cannot be picked
  (``_ActiveSet.shrinkable``), and the solver checks every point again before it stops
  (``_Solver.solve``).
"""

from typing import Literal, Protocol, TypeAlias

import numpy as np

from .budget import current_budget
from .validation import BoolArray, FloatArray, IndexArray

#: Why ``solve`` stopped.
Status: TypeAlias = Literal["converged", "max_iter", "budget", "overlap"]
#: A pair (i, j) of points, positions in the inputs.
Pair: TypeAlias = tuple[int, int]


class StepLog(Protocol):
    """Where SMO records its steps (the SVM's thinned history): ``wants(step)`` says whether step
    ``step`` is kept; ``add`` keeps it (the pair, the dual objective and w, b after the step)."""

    def wants(self, step: int) -> bool: ...

    def add(self, step: int, i: int, j: int, objective: float, w: FloatArray, b: float) -> None: ...


#: libsvm's floor on the curvature a_ij = |x_i - x_j|^2 of a pair (duplicated points).
_TAU = 1e-12
#: With shrinking, bounded multipliers that cannot violate the KKT conditions are set aside
#: every this many steps (libsvm uses min(N, 1000); 200 was the better period for this numpy
#: solver in the benchmark).
_SHRINK_EVERY = 200


def intercept(v: FloatArray, alpha: FloatArray, t: FloatArray, C: float) -> float:
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


def _midpoint(v: FloatArray, pen_up: FloatArray, pen_low: FloatArray) -> float:
    """b between the extremes of I_up and I_low when no multiplier is free (history only)."""
    ends = [float(np.max(v + pen_up)), float(np.min(v + pen_low))]
    ends = [e for e in ends if np.isfinite(e)]
    return sum(ends) / len(ends) if ends else 0.0


def solve(
    X: FloatArray,
    t: FloatArray,
    C: float,
    alpha: FloatArray,
    *,
    tol: float,
    max_steps: int,
    shrinking: bool,
    second_order: bool,
    history: StepLog | None,
    first_step: int,
    overlap_below: float | None = None,
) -> tuple[int, Status, Pair | None]:
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

    def __init__(self, index: IndexArray, solver: "_Solver") -> None:
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

    def maximal_violation(self) -> tuple[int, float, int, float]:
        """i = argmax v over I_up, its v, the minimiser of v over I_low and the gap between them
        (the maximal KKT violation; nan or -inf when I_up or I_low is empty)."""
        np.add(self.v, self.pen_up, out=self.buf_up)
        p = int(self.buf_up.argmax())
        m = float(self.buf_up[p])
        np.add(self.v, self.pen_low, out=self.buf_low)
        np.subtract(m, self.buf_low, out=self.score)
        q_first = int(self.score.argmax())
        return p, m, q_first, float(self.score[q_first])

    def select_j(self, p: int, q_first: int, second_order: bool) -> int:
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

    def take_step(self, p: int, q: int, m: float, C: float, w: FloatArray) -> float:
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

    def shrinkable(self, m: float, gap: float) -> BoolArray:
        """libsvm's do_shrinking rule: a bounded multiplier in only one of I_up / I_low whose v is
        beyond the current extremes cannot be picked. Returns the mask of those to keep."""
        return ~(((self.pen_low > 0) & (self.v < m - gap)) | ((self.pen_up < 0) & (self.v > m)))

    def bias(self) -> float:
        """b for the history (libsvm's calculate_rho, negated): the mean of v over the free
        multipliers, or the midpoint of the interval I_up and I_low allow when none is free."""
        if self.n_free:
            return float(self.free @ self.v) / self.n_free
        return _midpoint(self.v, self.pen_up, self.pen_low)


class _Solver:
    """One SMO run on X (N, D): the global state (alpha, w, sum_n a_n, the step count) and the
    loop that alternates optimising an active set with shrinking and unshrinking it."""

    def __init__(
        self,
        X: FloatArray,
        t: FloatArray,
        C: float,
        alpha: FloatArray,
        *,
        tol: float,
        shrinking: bool,
        second_order: bool,
        history: StepLog | None,
    ) -> None:
        self.X, self.t, self.C, self.alpha = X, t, C, alpha
        self.tol, self.shrinking, self.second_order, self.history = tol, shrinking, second_order, history
        self.sq = np.einsum("ij,ij->i", X, X)
        self.augmented = np.column_stack([X, self.sq, np.ones(X.shape[0])])
        self.w = X.T @ (alpha * t)
        self.sum_alpha = float(alpha.sum())
        self.step = 0
        self.pair: Pair | None = None
        self.budget = current_budget()  # a hosted app bounds the time

    def solve(self, *, max_steps: int, overlap_below: float | None) -> Status:
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
            assert status is not None  # _optimise gives a status whenever it gives no new active set
            return status

    def _optimise(self, act: _ActiveSet) -> tuple[Status, None] | tuple[None, IndexArray]:
        """SMO steps on the active set ``act`` until a stop. Returns (status, None) or, when the
        active set should change (shrinking, or unshrinking near the end), (None, its new index)."""
        since_shrink = 0
        pair: Pair | None = None
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

    def _status(self, gap: float) -> Status | None:
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
