"""What is drawn: the clickable canvas component and its browser code (``*.js``), the figures, the
playback and the panel charts.

Rules: ``playback_frames`` is numpy only (no streamlit), so the live route and the worker processes
can use it (the fit's evaluation on the view is ``ui.engine.fitview``); the browser code is in
``.js`` files, never in Python strings; nothing here imports the widgets or the server (the layers
of pyproject.toml ``[tool.importlinter]``): what a canvas event does is
``ui.widgets.canvas_controller``'s, the comparison of several methods ``ui.widgets.compare``.
"""
