"""Process-wide tuning of the Python runtime the app runs in (not of any session's state).

Two of these tunings replace private parts of Streamlit. Rule that must hold: each checks, when it
is installed, that the names it relies on are there in the installed version, and otherwise leaves
Streamlit's own behaviour in place with a warning in the server's log (``STREAMLIT_INTERNALS``
lists the names; tests/test_streamlit_internals.py fails when one disappears).
"""

from __future__ import annotations

import functools
import gc
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from streamlit.config_option import ConfigOption

_LOG = logging.getLogger(__name__)

# The private names of Streamlit the tunings below (and ui/server/forward_queue.py) rely on.
STREAMLIT_INTERNALS = (
    ("streamlit.watcher.polling_path_watcher", "_POLLING_PERIOD_SECS"),
    ("streamlit.config", "get_options_for_section"),
    ("streamlit.config", "get_config_options"),
    ("streamlit.config", "_config_lock"),
    ("streamlit.runtime.forward_msg_queue", "ForwardMsgQueue.clear"),
    ("streamlit.proto.ForwardMsg_pb2", "ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY"),
)


def _not_there(what: str) -> None:
    _LOG.warning("Streamlit's %s is not there in this version: its own behaviour is kept.", what)


# Allocations between two collections of the youngest generation (Python's default is 700). A
# collection examines the young objects still alive, which in a script run are mostly the run's own
# working set, so collecting ten times less often does about ten times less work: at 700 the
# collector ran several times per click. Garbage in reference cycles (rare here)
# waits a little longer; reference counting frees everything else at once, as before.
YOUNG_COLLECTION_THRESHOLD = 10_000


@functools.cache
def freeze_long_lived_objects() -> None:
    """Take the objects alive now out of the cyclic garbage collector's scans, once per process.

    Streamlit collects all three generations after every script run (``runner.postScriptGC``),
    holding the GIL while it walks every object of streamlit, plotly, numpy and this app: a long
    pause on every click, during which the finished run's messages wait to be sent. Called at the end of a run,
    the first call freezes what the imports and the first run built (modules, classes, plotly's
    validators); later calls do nothing, so no session's objects are frozen after that. Frozen
    objects are still freed by reference counting; only reference cycles among them would stay.

    Once per process by ``functools.cache``, not by asking ``gc.get_freeze_count()``: that walks the
    list of frozen objects, a cost on every run of the page. The young generation's threshold
    is raised at the same time (``YOUNG_COLLECTION_THRESHOLD``).
    """
    if gc.get_freeze_count() == 0:  # e.g. frozen already by whoever embeds the app
        gc.freeze()
    threshold, *older = gc.get_threshold()
    if 0 < threshold < YOUNG_COLLECTION_THRESHOLD:  # 0: the collector is off; leave it so
        gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *older)


# Seconds between two looks at a watched file. Streamlit polls its config files (and a secrets
# file, once read) every 0.2 s for the life of the process, whatever server.fileWatcherType says:
# steady CPU work on an idle server, which every click a class makes shares. A hosted
# playground's configuration does not change under it; a change is still seen, a few seconds late.
CONFIG_POLL_SECONDS = 5.0


@functools.cache
def slow_config_polling() -> None:
    """Poll watched configuration files every ``CONFIG_POLL_SECONDS`` instead of every 0.2 s.

    Streamlit's polling watcher reads the module constant at every look, so setting it once per
    process changes the period of the watchers already running. Nothing happens if a Streamlit
    version has no such constant.
    """
    try:
        from streamlit.watcher import polling_path_watcher
    except ImportError:  # pragma: no cover - streamlit is a dependency of the app
        return
    if isinstance(getattr(polling_path_watcher, "_POLLING_PERIOD_SECS", None), int | float):
        # Streamlit declares the constant Final; rebinding it is this patch's whole point (its
        # watchers read it at every look), so it is set by name, where the type checker cannot object.
        setattr(polling_path_watcher, "_POLLING_PERIOD_SECS", CONFIG_POLL_SECONDS)  # noqa: B010
    else:
        _not_there("polling_path_watcher._POLLING_PERIOD_SECS")


@functools.cache
def index_config_sections() -> None:
    """Make Streamlit's ``config.get_options_for_section`` read its section's options from an index.

    Streamlit describes the theme to the page at the start of every script run, fragment runs
    included (two per click): six sections, each found by scanning all of Streamlit's options, on
    the event loop, at every run. The index lists each section's options once per parsed
    configuration (a new parse makes a new options dict, which rebuilds it); the values are read
    live, as the original does, so an option set at run time is seen at once. Nothing happens if a
    Streamlit version has no such function.
    """
    try:
        from streamlit import config
    except ImportError:  # pragma: no cover - streamlit is a dependency of the app
        return
    original = getattr(config, "get_options_for_section", None)
    lock = getattr(config, "_config_lock", None)
    if getattr(original, _INDEXED, False):
        return
    if not callable(original) or lock is None or not callable(getattr(config, "get_config_options", None)):
        _not_there("config.get_options_for_section (or its lock)")
        return
    index = _SectionIndex()  # the process's configuration, not a session's

    def get_options_for_section(section: str) -> dict[str, Any]:
        with lock:
            options = config.get_config_options()
            if index.options is not options or index.size != len(options):
                sections: dict[str, list[ConfigOption]] = {}
                for option in options.values():
                    sections.setdefault(option.section, []).append(option)
                index.options, index.size, index.sections = options, len(options), sections
            return {option.name: option.value for option in index.sections.get(section, ())}

    # As the original did: its docstring and ``__wrapped__`` (a test restores the original from it);
    # the mark is an attribute of the function object, which no type declares: set by name.
    functools.update_wrapper(get_options_for_section, original, assigned=("__doc__",), updated=())
    setattr(get_options_for_section, _INDEXED, True)
    config.get_options_for_section = get_options_for_section


_INDEXED = "indexed"  # the mark of the indexed get_options_for_section (installed once)


@dataclass
class _SectionIndex:
    """The configuration the index was built from (Streamlit's options dict and its size) and, by
    section, that configuration's options."""

    options: dict[str, ConfigOption] | None = None
    size: int = -1
    sections: dict[str, list[ConfigOption]] = field(default_factory=dict)
