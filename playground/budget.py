"""A budget for one fit: the iterative loops ask it once per iteration whether to stop.

A hosted playground must not let one visitor's fit hold a processor for long, nor keep an
unbounded playback history. The caller sets the limits around a fit::

    with limited(seconds=2.0, max_steps=50_000) as budget:
        model.fit(X, y)
    budget.stopped  # None, "time", "steps" or "cancelled"

and every iterative loop (perceptron, IRLS / gradient descent, SMO) reads the budget in force
with ``current_budget()`` and stops early, keeping the state it reached, when
``budget.exhausted()`` says so. Without ``limited`` a fit is unlimited, as a library call
should be. One-versus-rest and one-versus-one fit their sub-problems under ``budget.part``,
so the limits hold for the whole fit, shared fairly among its sub-problems.

``cancel()`` may be called from another thread: the loop stops at its next iteration.
"""

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Optional

from .errors import Message, sentences
from .i18n import N_

# Optional, not "Budget | None": the class is defined below, and a string union cannot be subscripted at run time.
_CURRENT: ContextVar[Optional["Budget"]] = ContextVar("playground_budget", default=None)

REASONS = ("time", "steps", "cancelled")


class Budget:
    """Time and step limits for one fit (or one sub-problem of it), and whether they ran out.

    Parameters
    ----------
    seconds : float or None
        Wall-clock time the fit may take; None for no limit.
    max_steps : int or None
        Steps the fit may record (perceptron updates, gradient or Newton steps, each kept in
        ``history_``); None for no limit.

    Attributes
    ----------
    steps : int
        Steps counted so far (calls of ``exhausted``).
    stopped : str or None
        Why the fit was stopped: "time", "steps" or "cancelled"; None while it may go on.
    label : str
        What is being fitted now, for progress: the whole fit's budget names its current
        sub-problem (e.g. "sub-problem 4 of 15 (class 2 versus class 5)").
    parts_stopped : int
        Sub-problems (``part``) that were stopped early.
    """

    def __init__(
        self,
        seconds: float | None = None,
        max_steps: int | None = None,
        *,
        clock: Callable[[], float] | None = None,
        _parent: "Budget | None" = None,
        _deadline: float | None = None,
        _step_limit: int | None = None,
    ) -> None:
        self.seconds = None if seconds is None else float(seconds)
        self.max_steps = None if max_steps is None else int(max_steps)
        # Wall-clock time by default; time.thread_time counts the fit's own processor time only.
        self.clock: Callable[[], float] = clock or (_parent.clock if _parent is not None else time.monotonic)
        self.started = self.clock()
        self._root: Budget = self if _parent is None else _parent._root
        self._parent = _parent
        self._cancel: threading.Event = threading.Event() if _parent is None else _parent._cancel
        self.deadline: float | None = (
            _deadline if _parent is not None else (None if seconds is None else self.started + seconds)
        )
        self.step_limit = _step_limit if _parent is not None else self.max_steps
        self.steps = 0
        self.stopped: str | None = None
        self.label: str = ""
        self.parts_stopped = 0
        self.parts_total = 0
        self.reasons: set[str] = set()  # every reason any part of the fit stopped for (kept by the whole fit's budget)

    # -- the loops' check ----------------------------------------------------------------------
    def exhausted(self) -> bool:
        """Count one recorded step; True when the fit must stop now (time, steps or cancelled).

        Called once per iteration, right after the step is recorded, by loops that keep every
        step in ``history_``.
        """
        self.steps += 1
        if self.step_limit is not None and self.steps >= self.step_limit:
            self._stop("steps")
        return self.expired()

    def expired(self) -> bool:
        """True when the time is up or the fit was cancelled (no step is counted: for loops
        whose history is thinned, such as SMO)."""
        if self.stopped is None:
            if self._cancel.is_set():
                self._stop("cancelled")
            elif self.deadline is not None and self.clock() >= self.deadline:
                self._stop("time")
        return self.stopped is not None

    def _stop(self, reason: str) -> None:
        if self.stopped is None:
            self.stopped = reason
            self._root.reasons.add(reason)
            if self._parent is not None:
                self._parent.parts_stopped += 1
                if reason == "cancelled":
                    self._parent._stop(reason)

    # -- control from outside ------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop the fit (and every part of it) at its next iteration; safe from any thread."""
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def elapsed(self) -> float:
        return self.clock() - self.started

    def progress(self) -> tuple[float, float | None, str]:
        """(elapsed seconds, fraction of the time used or None, what is being fitted now), of the
        whole fit; safe to call from another thread."""
        root = self._root
        fraction = min(root.elapsed / root.seconds, 1.0) if root.seconds else None
        return root.elapsed, fraction, root.label

    # -- sub-problems --------------------------------------------------------------------------
    @contextmanager
    def part(self, index: int, count: int, label: str = "") -> Iterator["Budget"]:
        """Run sub-problem ``index`` of ``count`` under its share of this budget (the current
        budget inside the block).

        The shares are cumulative: part k must end by the time k + 1 of ``count`` shares have
        passed since the fit started, so time a quick part leaves over goes to the later ones.
        """
        count = max(int(count), 1)
        share = (int(index) + 1) / count
        deadline = None
        if self.deadline is not None:
            total = self.deadline - self.started
            deadline = min(self.started + share * total, self.deadline)
        step_limit = None
        if self.step_limit is not None:
            step_limit = max(int(share * self.step_limit) - self.steps, 0)
        child = Budget(_parent=self, _deadline=deadline, _step_limit=step_limit)
        child.label = label
        self.parts_total = max(self.parts_total, count)
        if label:
            self._root.label = Message(
                N_("sub-problem {index} of {count} ({label})"), index=int(index) + 1, count=count, label=label
            )
        else:
            self._root.label = Message(N_("sub-problem {index} of {count}"), index=int(index) + 1, count=count)
        token = _CURRENT.set(child)
        try:
            yield child
        finally:
            _CURRENT.reset(token)
            self.steps += child.steps

    # -- what to tell the user -----------------------------------------------------------------
    def stop_message(self, progress: Message, tail: Message | None = None) -> Message | None:
        """A Message for ``fit_message_`` when the fit stopped early; ``progress`` (a Message) says
        how far it got, e.g. "41,000 of 100,000 gradient steps"; ``tail`` (a Message) follows it,
        by default "The boundary shown is the last one reached."."""
        root = self._root
        shared = root.parts_total > 1
        values: dict[str, object] = {"progress": progress, "parts": root.parts_total}
        if self.stopped == "cancelled":
            head = Message(N_("Stopped on request after {seconds:.1f} s, {progress}."), seconds=self.elapsed, **values)
        elif self.stopped == "steps":
            if shared:
                template = N_(
                    "Stopped after {progress}: one fit may record at most {limit:,} steps here, shared among its "
                    "{parts} sub-problems."
                )
            else:
                template = N_("Stopped after {progress}: one fit may record at most {limit:,} steps here.")
            head = Message(template, limit=root.max_steps, **values)
        elif root.seconds is not None:
            if shared:
                template = N_(
                    "Stopped after {seconds:.1f} s, {progress}: one fit may take at most {limit:g} s here, shared "
                    "among its {parts} sub-problems."
                )
            else:
                template = N_("Stopped after {seconds:.1f} s, {progress}: one fit may take at most {limit:g} s here.")
            head = Message(template, seconds=self.elapsed, limit=root.seconds, **values)
        else:
            if shared:
                template = N_(
                    "Stopped after {seconds:.1f} s, {progress}: one fit may take at most its time here, shared "
                    "among its {parts} sub-problems."
                )
            else:
                template = N_("Stopped after {seconds:.1f} s, {progress}: one fit may take at most its time here.")
            head = Message(template, seconds=self.elapsed, **values)
        if tail is None:
            tail = Message(N_("The boundary shown is the last one reached."))
        return sentences([head, tail])


def current_budget() -> Budget:
    """The budget in force (set by ``limited`` or ``Budget.part``), or an unlimited one."""
    budget = _CURRENT.get()
    return budget if budget is not None else Budget()


@contextmanager
def limited(
    seconds: float | None = None,
    max_steps: int | None = None,
    budget: Budget | None = None,
    clock: Callable[[], float] | None = None,
) -> Iterator[Budget]:
    """Fit under a budget inside the block; yields it (``budget`` may be given, e.g. to cancel it
    from another thread; ``clock`` e.g. ``time.thread_time`` to count processor time only)."""
    budget = budget if budget is not None else Budget(seconds, max_steps, clock=clock)
    token = _CURRENT.set(budget)
    try:
        yield budget
    finally:
        _CURRENT.reset(token)
