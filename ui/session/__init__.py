"""One visitor's session: the scene and its undo history, the language, and the fits.

Rules: the scene is an immutable value replaced whole by each edit (``state``); fits are computed
once per scene however many sessions ask (``compute``), heavy ones in worker processes (``workers``).
Nothing here draws a widget.
"""
