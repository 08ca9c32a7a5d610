"""What is drawn: the clickable canvas and its browser code (``*.js``), the figures, the playback,
the panel charts and the comparison view.

Rules: ``fitview`` and ``playback_frames`` are numpy only (no streamlit), so the live route and the
worker processes can use them; the browser code is in ``.js`` files, never in Python strings.
"""
