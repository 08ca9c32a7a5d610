"""The floor for click-to-repaint: the playground's own canvas component, echoing clicks only.

No fit, no regions, no sidebar: a click on empty space adds a point to a figure that holds
nothing but the points (``?points=N`` seeds N random ones, to match the playground's count;
``?scene=default`` draws the playground's default scene, for the first-screen benchmark).
Whatever the playground spends beyond this is its own cost. ``?tuned=1`` also applies the
playground's runtime tuning (``ui/server/runtime.py``); without it the floor runs on Streamlit's defaults.
Run by the benchmark as ``streamlit run bench/floor_app.py`` from the repository root
(``bench/static`` links to the root's ``static/`` so plotly.js is served the same way).
"""

import sys
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playground import Window  # noqa: E402
from ui.plot.canvas import canvas  # noqa: E402
from ui.server.runtime import freeze_long_lived_objects  # noqa: E402

WINDOW = Window(-5.0, 5.0, -5.0, 5.0)
CONFIG = {"displaylogo": False, "scrollZoom": True, "doubleClick": "reset"}


def _on_events():
    result = st.session_state.get("floor_canvas")
    events = result.get("events") if result is not None else None
    if not isinstance(events, list):
        return
    for event in events:
        nonce = event.get("nonce") if isinstance(event, dict) else None
        if not isinstance(nonce, int | float) or nonce <= st.session_state.ack:
            continue
        st.session_state.ack = nonce
        if event.get("type") == "add":
            st.session_state.points.append((float(event["x"]), float(event["y"])))


def _initial_points():
    """``?points=N`` starts with N random points, so the floor draws as many markers as the app;
    ``?scene=default`` with the playground's default scene's points."""
    if st.query_params.get("scene") == "default":
        from ui.session.state import default_scene

        return [tuple(p) for p in default_scene().points.X]
    try:
        n = min(max(int(st.query_params.get("points", 0)), 0), 10_000)
    except ValueError:
        n = 0
    rng = np.random.default_rng(0)
    return [tuple(p) for p in rng.uniform(-4.0, 4.0, size=(n, 2))]


def main():
    st.set_page_config(page_title="Canvas floor", layout="wide")
    if "points" not in st.session_state:
        st.session_state.points = _initial_points()
    st.session_state.setdefault("ack", 0)
    points = np.array(st.session_state.points, dtype=float).reshape(-1, 2)
    figure = go.Figure(
        go.Scatter(
            x=points[:, 0],
            y=points[:, 1],
            customdata=np.arange(len(points)),
            mode="markers",
            marker=dict(size=10),
            name="clicked",
            meta="points",
        )
    )
    figure.update_layout(
        template="plotly_white",
        margin=dict(l=40, r=10, t=30, b=30),
        xaxis=dict(range=[WINDOW.x_min, WINDOW.x_max]),
        yaxis=dict(range=[WINDOW.y_min, WINDOW.y_max]),
        uirevision="floor",
        dragmode="zoom",
        hovermode="closest",
        clickmode="event",
        clickanywhere=True,
    )
    canvas(
        figure,
        config=CONFIG,
        window=WINDOW,
        revision=len(points),
        n_points=len(points),
        ack=st.session_state.ack,
        key="floor_canvas",
        on_events=_on_events,
    )
    if st.query_params.get("tuned") == "1":
        # The playground's runtime tuning: the two then differ only in the app's own work.
        freeze_long_lived_objects()


main()
