"""A panel's plotly figure, drawn by the plotly.js the canvas loads (``Plotly.react``).

Why not ``st.plotly_chart``: it renders with its own plotly bundle inside the page's React update,
a long task of the browser's main thread per chart on every click, all before the canvas above
can draw; this element's work is short and comes after the canvas.
"""

from contextlib import nullcontext
from typing import Any

import streamlit as st

from playground import MODELS
from ui.base.visitor import PRESENTATION_KEY, visitor
from ui.text.i18n import _, current_language

from .browser_modules import module_url
from .canvas import (
    MODULE_LOADER_JS,
    component_data,
    ensure_plotly_js,
    figure_json,
    file_name,
    shared_texts,
)
from .plotly_config import offline
from .projector_sizes import legible, room_data, room_layout
from .theme import DARK_SWAPS, with_font

DEFAULT_HEIGHT = 450  # plotly.js's own default

_CSS = ".pg-chart { width: 100%; }"

_chart = st.components.v2.component("playground_chart", js=MODULE_LOADER_JS, css=_CSS, isolate_styles=False)

# plotly's image button gives way to offline PNG / SVG downloads (added by the chart's JavaScript,
# see ``plotConfig``), and nothing offers an upload (``offline``).
CONFIG = offline({"displaylogo": False, "modeBarButtonsToRemove": ["toImage"]})


def chart(
    figure: Any,
    *,
    key: str,
    config: dict[str, Any] | None = None,
    where: Any = None,
    name: str | None = None,
) -> None:
    """Draw a plotly ``figure`` (a Figure or a dict {"data", "layout"}) across the width of ``where``
    (a column or other container; the current one by default).

    ``key`` must be unique on the page; the height is the figure's ``layout.height``. Downloaded
    images are named after ``name`` (by default the scene's method and ``key``) and the date.
    """
    if not isinstance(figure, dict):
        figure = figure.to_plotly_json()
    layout = with_font(dict(figure["layout"]), current_language())  # a copy: the caller's figure stays
    if visitor().get(PRESENTATION_KEY):  # type and markers for a room (ui.plot.projector_sizes)
        layout = room_layout({"height": DEFAULT_HEIGHT, **layout})
        figure = legible({**figure, "layout": layout, "data": room_data(figure.get("data") or [])})
        layout = figure["layout"]
    height = int(layout.get("height") or DEFAULT_HEIGHT)
    for axis in ("xaxis", "yaxis"):  # room for tick labels and titles (st.plotly_chart's theme gave it)
        layout[axis] = {"automargin": True, **(layout.get(axis) or {})}
    data = {
        "figure": figure_json({**figure, "layout": layout}),
        "config": offline({**CONFIG, **(config or {})}),
        "plotly_url": ensure_plotly_js(),
        "dark_swaps": DARK_SWAPS,
        "module": module_url("plot/chart.js"),
        "height": height,
        "file_name": file_name(*(name,) if name else _default_name(key)),
        "key": key,
        "texts": {**shared_texts(), "chart_not_drawn": _("The chart could not be drawn: {error}")},
    }
    with where if where is not None else nullcontext():
        _chart(data=component_data(data), key=key, height=height)


def _default_name(key):
    """The scene's method and the chart's key, e.g. ("Logistic regression", "irls_log_likelihood")."""
    scene = visitor().get("scene")
    method = MODELS[scene.method].display_name if scene is not None and scene.method in MODELS else None
    return (method, key.replace("_", " "))
