"""A finished page run's messages reach the browser whole, even when a fragment run starts at once.

Rule that must hold: when a run starts, no message of a run that already *finished* is taken out of
the session's outgoing queue. Only the messages of a run that is being cut short may be dropped.

Why: Streamlit (1.67) clears the outgoing queue of every delta that belongs to the fragments a new
fragment run is about to redraw (``ForwardMsgQueue.clear(fragment_ids_this_run=...)``), and keeps the
lifecycle messages, among them the ``script_finished`` of a whole-page run that completed. When the
page's run has just finished and its messages have not yet left (a busy server: the event loop that
sends them had no turn), the browser then hears "the page's run finished" without the canvas's and
the panels' blocks of that run. It removes their older blocks as stale, the page's tree closes up
behind them, and the fragment run's next delta points into a container that is no longer there:
"Cannot set a node at a delta path", and the page goes blank (seen with quick clicks on a loaded
server: BENCHMARKS.md, "Clicks").

Keeping the finished run's messages costs nothing but sending them: the fragment run that follows
redraws the same blocks, in order, after them.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

_LOG = logging.getLogger(__name__)
if TYPE_CHECKING:
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
    from streamlit.runtime.forward_msg_queue import ForwardMsgQueue


class _Clear(Protocol):
    """ForwardMsgQueue.clear, called on the class (its parameters are checked against
    EXPECTED_PARAMETERS before it is replaced)."""

    def __call__(
        self,
        queue: ForwardMsgQueue,
        retain_lifecycle_msgs: bool = False,
        fragment_ids_this_run: list[str] | None = None,
        /,
    ) -> None: ...


_PATCHED = "_pg_keeps_finished_runs"
# The queue's list of messages, which the fix reads and writes as ``self._queue``: an attribute set
# on each instance (not on the class), so the test makes a ForwardMsgQueue to see it
# (tests/test_streamlit_internals.py; the class's names are in runtime.STREAMLIT_INTERNALS).
QUEUE_ATTRIBUTE = "_queue"


def _finished_whole_run_end(queue: Sequence[ForwardMsg]) -> int:
    """The index just past the last "whole-page run finished" message in ``queue``, or 0."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    done = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
    for index in range(len(queue) - 1, -1, -1):
        message = queue[index]
        if message.WhichOneof("type") == "script_finished" and message.script_finished == done:
            return index + 1
    return 0


def _keeping_finished_runs(clear: _Clear) -> Callable[..., None]:
    """``clear`` keeping the messages of a finished whole-page run (a function with clear's parameters,
    typed loosely: a Protocol's instance cannot stand for a method, and a Callable has no defaults)."""

    @functools.wraps(clear)
    def clear_after_finished_runs(
        self: ForwardMsgQueue, retain_lifecycle_msgs: bool = False, fragment_ids_this_run: list[str] | None = None
    ) -> None:
        end = _finished_whole_run_end(self._queue) if retain_lifecycle_msgs and fragment_ids_this_run else 0
        if not end:
            return clear(self, retain_lifecycle_msgs, fragment_ids_this_run)
        finished, self._queue = self._queue[:end], self._queue[end:]
        clear(self, retain_lifecycle_msgs, fragment_ids_this_run)  # what followed the finished run
        self._queue = finished + self._queue
        return None

    setattr(clear_after_finished_runs, _PATCHED, True)
    return clear_after_finished_runs


@functools.cache
def keep_finished_runs() -> None:
    """Install the rule above on Streamlit's outgoing queue, once per process.

    A Streamlit whose queue has no such ``clear`` keeps its own, with a warning in the log (the
    method's signature is checked here and by tests/test_forward_queue.py).
    """
    try:
        from streamlit.runtime.forward_msg_queue import ForwardMsgQueue
    except ImportError:  # pragma: no cover - streamlit is a dependency of the app
        return
    clear = getattr(ForwardMsgQueue, "clear", None)
    if getattr(clear, _PATCHED, False):
        return
    if not callable(clear) or list(inspect.signature(clear).parameters) != EXPECTED_PARAMETERS:
        _LOG.warning("Streamlit's ForwardMsgQueue.clear is not the one this fix knows: its own is kept.")
        return
    # Replacing a method of Streamlit's class is this fix's whole point; mypy forbids assigning to a
    # method, so this one line is exempt (the replacement's signature is checked above and in tests).
    ForwardMsgQueue.clear = _keeping_finished_runs(clear)  # type: ignore[method-assign]


EXPECTED_PARAMETERS = ["self", "retain_lifecycle_msgs", "fragment_ids_this_run"]
