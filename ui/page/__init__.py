"""The page: the top layer of the ui (``ui.page.app``, started by ``streamlit_app.py``), which
draws the sidebar, the canvas and the panels from the layers below it and is imported by none."""
