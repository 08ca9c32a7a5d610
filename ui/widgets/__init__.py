"""The controls a person uses: the sidebar, the presenter bar, the table of points, the share box.

Rules: each function draws widgets and returns their values or records an edit through
``ui.session.state``; none fits a model or builds a figure.
"""
