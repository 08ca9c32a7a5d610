"""One visitor's session: the scene and its undo history, the widgets' keys and values, and the page's fits.

Rules: the scene is an immutable value replaced whole by each edit (``state``); the canvas's edits
are applied once each, in order (``edits``); whole scenes come in and go out through ``loading``
(links, presets, files), which sets the widgets' values (``widget_values``, under the keys of
``widget_keys``) without drawing them; the page's fits (``compute``) go through the server's shared
cache and worker pool (``ui.engine``: once per scene however many sessions, the live route or the
rooms ask), adding the page's policy: a try in the server, then a worker with progress and Stop,
and what only this session may keep. The only widget drawn here is the progress box of a fit in a worker
(``compute``). What the session keeps between runs is read and written through ``ui.base.visitor``
(its keys declared and typed there), never Streamlit's session state directly. Below the widgets,
panels and plot in the layers (pyproject.toml ``[tool.importlinter]``): nothing here imports them.
"""
