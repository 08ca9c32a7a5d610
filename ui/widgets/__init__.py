"""The controls a person uses: the sidebar, the presenter bar, the table of points, the share box,
the language picker; the canvas's controller (what its events do, ``canvas_controller``) and the
comparison of several methods (``compare``), which put the plot's components together.

Rules: each function draws widgets and returns their values or records an edit through
``ui.session.state``; the fits come from ``ui.session.compute`` and the figures from ``ui.plot``,
never computed here.
"""
