"""The private parts of Streamlit that ui/server/runtime.py and ui/server/forward_queue.py replace are there in
the installed version, and each tuning falls back to Streamlit's own behaviour, with a warning,
where they are not."""

import importlib
import logging

import pytest

from ui.base import streamlit_private
from ui.server import forward_queue, runtime, watchdog


@pytest.mark.parametrize(
    "module, name",
    runtime.STREAMLIT_INTERNALS + watchdog.UVICORN_INTERNALS + streamlit_private.PRIVATE_NAMES,
    ids=lambda v: str(v),
)
def test_each_private_name_the_app_relies_on_is_in_the_installed_streamlit(module, name):
    value = importlib.import_module(module)
    for part in name.split("."):
        assert hasattr(value, part), (
            f"{module}.{name} is gone: update ui/server/runtime.py, forward_queue.py, watchdog.py "
            "or ui/base/streamlit_private.py"
        )
        value = getattr(value, part)


def test_a_script_requests_object_keeps_its_queued_rerun_where_the_stop_button_looks():
    from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequests

    assert hasattr(ScriptRequests(), streamlit_private.QUEUED_RERUN_ATTRIBUTE)


def test_a_forward_msg_queue_keeps_its_messages_where_the_queue_fix_moves_them():
    from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

    assert isinstance(getattr(ForwardMsgQueue(), forward_queue.QUEUE_ATTRIBUTE), list)


def test_outside_a_script_run_the_accessors_answer_nothing():
    assert streamlit_private.run_context() is None
    assert streamlit_private.session_id() is None
    assert streamlit_private.captured_session_state() is None
    assert streamlit_private.queued_widget_states() is None


def test_the_queue_fix_knows_the_installed_signature():
    import inspect

    from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

    clear = getattr(ForwardMsgQueue.clear, "__wrapped__", ForwardMsgQueue.clear)
    assert list(inspect.signature(clear).parameters) == forward_queue.EXPECTED_PARAMETERS


def test_a_missing_name_keeps_streamlits_behaviour_and_says_so(monkeypatch, caplog):
    from streamlit import config
    from streamlit.watcher import polling_path_watcher

    # Streamlit's own function (an earlier test may have installed the index over it already).
    original = getattr(config.get_options_for_section, "__wrapped__", config.get_options_for_section)
    monkeypatch.setattr(config, "get_options_for_section", original)
    monkeypatch.delattr(config, "_config_lock")
    monkeypatch.delattr(polling_path_watcher, "_POLLING_PERIOD_SECS")
    runtime.index_config_sections.cache_clear()
    runtime.slow_config_polling.cache_clear()
    with caplog.at_level(logging.WARNING, logger="ui.server.runtime"):
        runtime.index_config_sections()
        runtime.slow_config_polling()
    runtime.index_config_sections.cache_clear()
    runtime.slow_config_polling.cache_clear()
    assert config.get_options_for_section is original
    assert sum("is not there in this version" in r.getMessage() for r in caplog.records) == 2


def test_a_changed_queue_keeps_streamlits_clear_and_says_so(monkeypatch, caplog):
    from streamlit.runtime.forward_msg_queue import ForwardMsgQueue

    def clear(self, retain_lifecycle_msgs=False):  # a future signature
        self._queue = []

    monkeypatch.setattr(ForwardMsgQueue, "clear", clear)
    forward_queue.keep_finished_runs.cache_clear()
    with caplog.at_level(logging.WARNING, logger="ui.server.forward_queue"):
        forward_queue.keep_finished_runs()
    forward_queue.keep_finished_runs.cache_clear()
    assert ForwardMsgQueue.clear is clear
    assert any("its own is kept" in r.getMessage() for r in caplog.records)
