"""ui.server.forward_queue: a finished page run's messages are never dropped by the next fragment run's start.

The oracle is the browser's rule for a finished whole-page run: every block of that run must reach it
before its ``script_finished``, or the browser removes the block as stale (the blank page of
quick clicks on a busy server, "Cannot set a node at a delta path").
"""

import inspect

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

from ui.server import forward_queue

CANVAS, PANEL = "canvas-fragment", "panel-fragment"
DONE = ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY
FRAGMENT_DONE = ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY


def _delta(path, text, fragment=""):
    message = ForwardMsg()
    message.metadata.delta_path[:] = path
    message.delta.new_element.markdown.body = text
    message.delta.fragment_id = fragment
    return message


def _finished(status):
    message = ForwardMsg()
    message.script_finished = status
    return message


def _started():
    message = ForwardMsg()
    message.new_session.name = "run"
    return message


def _texts(queue):
    return [m.delta.new_element.markdown.body for m in queue._queue if m.WhichOneof("type") == "delta"]


def _statuses(queue):
    return [m.script_finished for m in queue._queue if m.WhichOneof("type") == "script_finished"]


def _whole_run(queue):
    """A whole-page run, finished, its messages not yet sent: its own blocks and two fragments'."""
    queue.enqueue(_started())
    queue.enqueue(_delta([0, 0], "title"))
    queue.enqueue(_delta([0, 5], "canvas", CANVAS))
    queue.enqueue(_delta([0, 6], "caption"))
    queue.enqueue(_delta([0, 7], "panel", PANEL))
    queue.enqueue(_finished(DONE))


def setup_module():
    forward_queue.keep_finished_runs()


def test_a_finished_page_run_keeps_its_fragments_blocks_when_a_fragment_run_starts():
    queue = ForwardMsgQueue()
    _whole_run(queue)
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=[CANVAS, PANEL])
    assert _texts(queue) == ["title", "canvas", "caption", "panel"]
    assert _statuses(queue) == [DONE]


def test_what_follows_the_finished_run_is_cleared_as_streamlit_does():
    """A fragment run cut short after the page's run: its blocks go, the page run's stay."""
    queue = ForwardMsgQueue()
    _whole_run(queue)
    queue.enqueue(_started())
    queue.enqueue(_delta([0, 5, 0], "canvas again", CANVAS))
    queue.enqueue(_delta([0, 8], "not a fragment's"))
    queue.enqueue(_finished(FRAGMENT_DONE))
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=[CANVAS])
    assert _texts(queue) == ["title", "canvas", "caption", "panel", "not a fragment's"]
    # Streamlit marks the interrupted fragment run's end as "finished early"; the page's stays.
    assert _statuses(queue) == [DONE, ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN]


def test_without_a_finished_page_run_the_queue_is_cleared_as_before():
    queue = ForwardMsgQueue()
    queue.enqueue(_started())
    queue.enqueue(_delta([0, 5], "canvas", CANVAS))
    queue.enqueue(_delta([0, 6], "caption"))
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=[CANVAS])
    assert _texts(queue) == ["caption"]


def test_a_whole_page_run_starting_clears_everything_as_before():
    """A new whole-page run redraws every block: the old run's need not be sent."""
    queue = ForwardMsgQueue()
    _whole_run(queue)
    queue.clear(retain_lifecycle_msgs=True, fragment_ids_this_run=None)
    assert _texts(queue) == []
    queue = ForwardMsgQueue()
    _whole_run(queue)
    queue.clear()
    assert queue.is_empty()


def test_the_patch_is_installed_once_on_the_installed_streamlits_queue():
    parameters = inspect.signature(ForwardMsgQueue.clear).parameters
    assert list(parameters)[1:] == ["retain_lifecycle_msgs", "fragment_ids_this_run"]
    assert getattr(ForwardMsgQueue.clear, forward_queue._PATCHED)
    patched = ForwardMsgQueue.clear
    forward_queue.keep_finished_runs.cache_clear()
    forward_queue.keep_finished_runs()
    assert ForwardMsgQueue.clear is patched  # not wrapped twice
