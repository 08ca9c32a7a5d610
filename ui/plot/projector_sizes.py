"""Sizes for a lecture hall's projector: a panel chart's fonts and markers in presentation mode
(not the class rooms of ui/rooms/).

Rules that hold:

- In presentation every panel chart's type grows by ``FONT_FACTOR`` (its base font, the axes'
  tick labels and titles, its legend and annotations; its title by ``TITLE_FACTOR``, a line across
  a column), with tick labels at least
  ``MIN_TICK_PX`` (the canvas's own grow with its scale); markers grow by ``MARKER_FACTOR`` and the
  chart's height by ``HEIGHT_FACTOR``, so the larger type keeps its room.
- A legibility floor (``legible``): in presentation no text of a plot, the canvas's or a panel
  chart's (tick labels, legends, titles, annotations, a trace's text, contour labels), is set
  smaller than ``LEGIBLE_PX`` (18 px, what the back row of a lecture hall reads at 1280 x 720).
- The layout given is never changed: a scaled copy is returned.
"""

import re
from collections.abc import Iterable
from typing import Any

FONT_FACTOR = 1.5
TITLE_FACTOR = 1.15
MARKER_FACTOR = 1.4
HEIGHT_FACTOR = 1.3
MIN_TICK_PX = 18
LEGIBLE_PX = 18  # presentation: the least size of any text on a plot
BASE_FONT_PX = 12  # plotly's default when a layout names none
_AXIS = re.compile(r"^[xy]axis\d*$")


def _font(font, size):
    return {**(font or {}), "size": size}


def _scaled_size(font, fallback):
    size = (font or {}).get("size")
    return round((size or fallback) * FONT_FACTOR)


def _axis(axis, base):
    axis = dict(axis or {})
    axis["tickfont"] = _font(axis.get("tickfont"), max(MIN_TICK_PX, _scaled_size(axis.get("tickfont"), base)))
    title = axis.get("title")
    if isinstance(title, dict):
        axis["title"] = {**title, "font": _font(title.get("font"), _scaled_size(title.get("font"), base))}
    elif isinstance(title, str):
        axis["title"] = {"text": title, "font": {"size": round(base * FONT_FACTOR)}}
    return axis


def room_layout(layout: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``layout`` (a plotly layout dict) with the room's sizes."""
    layout = dict(layout)
    base = (layout.get("font") or {}).get("size") or BASE_FONT_PX
    layout["font"] = _font(layout.get("font"), round(base * FONT_FACTOR))
    for key in [key for key in layout if _AXIS.match(key)] or ["xaxis", "yaxis"]:
        layout[key] = _axis(layout.get(key), base)
    title = layout.get("title")
    if isinstance(title, dict):
        # Less than the rest: a chart's title is one line across a column, which can be half the page.
        size = (title.get("font") or {}).get("size") or base * 1.2
        layout["title"] = {**title, "font": _font(title.get("font"), round(size * TITLE_FACTOR))}
    if isinstance(layout.get("legend"), dict) and layout["legend"].get("font"):
        layout["legend"] = {
            **layout["legend"],
            "font": _font(layout["legend"]["font"], _scaled_size(layout["legend"]["font"], base)),
        }
    if layout.get("annotations"):
        layout["annotations"] = [
            {**note, "font": _font(note.get("font"), _scaled_size(note.get("font"), base))}
            for note in layout["annotations"]
        ]
    if layout.get("height"):
        layout["height"] = round(layout["height"] * HEIGHT_FACTOR)
    return layout


def room_data(data: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of the traces with their markers (and lines) grown for the room."""
    scaled = []
    for trace in data:
        trace = dict(trace)
        marker = trace.get("marker")
        if isinstance(marker, dict) and isinstance(marker.get("size"), int | float):
            trace["marker"] = {**marker, "size": marker["size"] * MARKER_FACTOR}
        line = trace.get("line")
        if isinstance(line, dict) and isinstance(line.get("width"), int | float):
            trace["line"] = {**line, "width": line["width"] * MARKER_FACTOR}
        scaled.append(trace)
    return scaled


# The keys under which plotly nests a font: a layout's, an axis's, a legend's, an annotation's, a
# title's, a trace's text and a contour's labels.
_FONT_KEYS = frozenset({"font", "tickfont", "textfont", "labelfont", "insidetextfont", "outsidetextfont"})
_NOT_TEXT = frozenset({"hoverlabel"})  # a hover label shows on demand, close to the eye


def _floored(value, floor):
    """``value`` (any part of a plotly figure) with every font size in it at least ``floor``."""
    if isinstance(value, list | tuple):
        return [_floored(item, floor) for item in value]
    if not isinstance(value, dict):
        return value
    out = {}
    for key, item in value.items():
        if key in _NOT_TEXT:
            out[key] = item
        elif key in _FONT_KEYS and isinstance(item, dict):
            size = item.get("size")
            out[key] = {**item, "size": max(floor, size) if isinstance(size, int | float) else floor}
        else:
            out[key] = _floored(item, floor)
    return out


def legible(figure: dict[str, Any], floor: float = LEGIBLE_PX) -> dict[str, Any]:
    """A copy of ``figure`` (a dict {"data", "layout"}) whose every text is at least ``floor`` px:
    the layout's base font and each font set anywhere in it or in a trace (a trace's ``textfont``
    and a contour trace's ``labelfont`` are set when missing, as plotly's defaults are 12 px)."""
    layout = _floored(dict(figure.get("layout") or {}), floor)
    font = dict(layout.get("font") or {})
    layout["font"] = {**font, "size": max(floor, font.get("size") or BASE_FONT_PX)}
    data = []
    for trace in figure.get("data") or []:
        trace = _floored(dict(trace if isinstance(trace, dict) else trace.to_plotly_json()), floor)
        if "text" in str(trace.get("mode", "")) and "textfont" not in trace:
            trace["textfont"] = {"size": floor}
        contours = trace.get("contours")
        if isinstance(contours, dict) and contours.get("showlabels") and "labelfont" not in contours:
            trace["contours"] = {**contours, "labelfont": {"size": floor}}
        data.append(trace)
    return {**figure, "layout": layout, "data": data}
