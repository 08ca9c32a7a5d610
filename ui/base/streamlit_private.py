"""The private parts of Streamlit that the page's own code reads, behind guarded accessors.

Rules that hold:

- Every private Streamlit name a module of ``ui/`` reads during a script run is reached through
  this module, and listed in ``PRIVATE_NAMES`` (tests/test_streamlit_internals.py fails when one
  disappears from the installed version). The server's patches of Streamlit's internals keep their
  own list, ``ui.server.runtime.STREAMLIT_INTERNALS``, and the ASGI server's ``ui.server.watchdog``.
- Each accessor degrades instead of raising when its name is gone: no run context means no session
  id and no captured state, a missing queued request means no Stop pressed, and ``StopException``
  falls back to a class nothing raises.
- This module imports Streamlit alone, lazily where it can: any layer of ``ui/`` may use it.
"""

from __future__ import annotations

from typing import Any

PRIVATE_NAMES = (
    ("streamlit.runtime.scriptrunner", "get_script_run_ctx"),
    ("streamlit.runtime.scriptrunner_utils.exceptions", "StopException"),
    ("streamlit.runtime.scriptrunner_utils.script_requests", "ScriptRequests"),
    ("streamlit.runtime.scriptrunner_utils.script_requests", "RerunData.widget_states"),
)
# An attribute set on each instance (not on the class): the test makes a ScriptRequests to see it.
QUEUED_RERUN_ATTRIBUTE = "_rerun_data"

try:
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException
except ImportError:  # pragma: no cover - kept by the installed version (tested)

    class StopException(Exception):  # type: ignore[no-redef]  # noqa: N818  (Streamlit's own name)
        """Stands in for Streamlit's, which this version does not have: never raised."""


def run_context() -> Any:
    """The script run's context, or None outside a run (the live route, a worker) or if gone."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # pragma: no cover - kept by the installed version (tested)
        return None
    return get_script_run_ctx(suppress_warning=True)


def session_id() -> str | None:
    """This visitor's session id, or None outside a script run."""
    ctx = run_context()
    return getattr(ctx, "session_id", None)


def captured_session_state() -> Any:
    """The session's own thread-safe state object, for work served outside the script thread (a
    download button's click), where ``st.session_state`` is unavailable; None outside a run."""
    ctx = run_context()
    return getattr(ctx, "session_state", None)


def queued_widget_states() -> Any:
    """The widget states of the rerun request waiting while this run goes on, or None: a press
    inside a fragment does not interrupt the run in progress (Streamlit queues fragment reruns), so
    a wait loop can only see it there."""
    requests = getattr(run_context(), "script_requests", None)
    return getattr(getattr(requests, QUEUED_RERUN_ATTRIBUTE, None), "widget_states", None)
