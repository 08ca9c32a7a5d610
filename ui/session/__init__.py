"""One visitor's session: the scene and its undo history, the language, and the fits.

Rules: the scene is an immutable value replaced whole by each edit (``state``); the canvas's edits
are applied once each, in order (``edits``); whole scenes come in and go out through ``loading``
(links, presets, files); fits are computed once per scene however many sessions ask (``compute``,
sharing ``cache``), heavy ones in worker processes (``workers``). The only widgets drawn here are the
language picker (``language``) and the progress box of a fit in a worker (``compute``).
"""
