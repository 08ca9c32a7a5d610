"""Process-wide tuning of the Python runtime the app runs in (not of any session's state)."""

import functools
import gc


@functools.cache
def freeze_long_lived_objects():
    """Take the objects alive now out of the cyclic garbage collector's scans, once per process.

    Streamlit collects all three generations after every script run (``runner.postScriptGC``),
    holding the GIL while it walks every object of streamlit, plotly, numpy and this app: 55-60 ms
    per click, during which the finished run's messages wait to be sent. Called at the end of a run,
    the first call freezes what the imports and the first run built (modules, classes, plotly's
    validators); later calls do nothing, so no session's objects are frozen after that. Frozen
    objects are still freed by reference counting; only reference cycles among them would stay.

    Once per process by ``functools.cache``, not by asking ``gc.get_freeze_count()``: that walks the
    list of frozen objects, about 13 ms on every run of the page.
    """
    if gc.get_freeze_count() == 0:  # e.g. frozen already by whoever embeds the app
        gc.freeze()
