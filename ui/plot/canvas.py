"""The clickable canvas: a Streamlit Components v2 element that draws a plotly figure with
plotly.js and reports clicks, selections and zooms back to Python.

Why a custom component: ``st.plotly_chart`` only reports clicks on existing markers; with
``clickanywhere`` plotly.js reports the data coordinates of clicks on empty space too.
"""

import base64
import functools
import json
import re
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import plotly
import streamlit as st
from plotly.basedatatypes import BaseFigure
from plotly.io.json import to_json_plotly

from playground.grid import Window
from ui.base.visitor import PRESENTATION_KEY, visitor
from ui.text.i18n import _, current_language

from . import browser_modules
from .browser_modules import module_url, static_url, write_atomically
from .projector_sizes import legible
from .theme import DARK_SWAPS, with_font

PLOTLY_JS = f"plotly-{plotly.__version__}.min.js"

_HERE = Path(__file__).resolve().parent

_CSS = (_HERE / "canvas.css").read_text(encoding="utf-8")

# Streamlit sends an inline component's JavaScript with every update of the element, i.e. with
# every click. So the element's own JavaScript only imports the real module (ui/plot/canvas.js and
# what it imports), served from static/ (ui/plot/browser_modules.py) and cached by the browser.
MODULE_LOADER_JS = (_HERE / "module_loader.js").read_text(encoding="utf-8")


def component_data(payload: dict[str, Any]) -> bytes:
    """The data of an element whose JavaScript is ``MODULE_LOADER_JS``, as the bytes of one JSON text
    (the text Streamlit itself would have made of ``payload``).

    Given a dict, Streamlit asks of each of its values whether it is a dataframe (slow for a nested
    dict: a canvas has five), writes the JSON twice (once sorted, to name the element) and hashes
    it, on every click, for the canvas and for each chart. Bytes it sends as they are and hashes
    once; the loader parses them in the browser.
    """
    return json.dumps(payload).encode()


def shared_texts() -> dict[str, str]:
    """The sentences every plotly element's JavaScript shows, in the session's language: the
    download buttons' titles and the message of a module that did not load ({error}: why)."""
    return {
        "download_png": _("Download as PNG"),
        "download_svg": _("Download as SVG (vector)"),
        "not_drawn": _("The plot could not be drawn: {error}"),
    }


def canvas_texts() -> dict[str, str]:
    """The canvas's sentences (its JavaScript holds none), in the session's language."""
    return {
        **shared_texts(),
        "fit_view": _("Fit the view to the points (key F)"),
        "tools": _("Tools"),
        "class_pick": _("Class of new points"),
        "tool_add": _("✚ Add"),
        "tool_move": _("✥ Move"),
        "tool_erase": _("⌫ Erase"),
        "tool_select": _("⬚ Select"),
        "tool_line": _("╱ Your line"),
        "tool_add_help": _("Add points: click empty space (key A)"),
        "tool_move_help": _("Move points: drag them; drag empty space to pan (key M)"),
        "tool_erase_help": _("Erase points: click one, or drag a box around several (key E)"),
        "tool_select_help": _("Select points: click or drag a box, then drag one to move them all (key S)"),
        "tool_line_help": _("Draw the boundary you expect: click two points or drag (key L)"),
        "hint_add": _("Click to add a point · drag a point to move it · Alt-click erases · Ctrl+scroll zooms"),
        "hint_add_touch": _("Tap to add a point · drag a point to move it · one finger scrolls, two fingers zoom"),
        "hint_switch": _("Click a point to switch it between training and test · Ctrl+scroll zooms"),
        "hint_move": _("Drag a point to move it · drag empty space to pan"),
        "hint_erase": _("Click a point to erase it · drag a box to erase several"),
        "hint_select": _("Click or drag a box to select · drag a selected point to move all · Delete erases"),
        "hint_line": _("Click two points or drag to draw your line · drag its handles to move it"),
        "hint_line_second": _("Now click the line's second point"),
        "line_live": _("Your line: {accuracy} correct · {criterion} {value}"),
        "line_live_fit": _("Your line: {accuracy} correct · {criterion} {value} (the fit: {fit})"),
        "wheel_hint": _("Use Ctrl + scroll (⌘ + scroll on a Mac) to zoom the plot; two fingers on a touch screen"),
        "live_status": _("Training accuracy {accuracy} ({wrong} misclassified)"),
        "live_off": _("Live updates are off ({reason}); the plot is updated when you let go."),
        # The plot by keyboard (canvas_keyboard.js), said in a live region.
        "kb_role": _("interactive plot"),
        "kb_label": _(
            "Plot of the points. Keys: arrows move a cursor; Enter adds a point of the current class there; "
            "Tab chooses the points one by one, arrows then move the chosen point and Delete erases it; "
            "Esc lets it go."
        ),
        "kb_cursor": _("Cursor at ({x}, {y})"),
        "kb_chosen": _(
            "Point {n}, {name}, at ({x}, {y}): {index} of {total} in view. Arrows move it, Delete erases it."
        ),
        "kb_released": _("No point chosen: arrows move the cursor, Tab leaves the plot."),
        "kb_added": _("Added {name} at ({x}, {y})"),
        "kb_moved": _("Moved point {n} to ({x}, {y})"),
        "kb_moved_many": _("Moved {count} points"),
        "kb_erased": _("Erased point {n}"),
        "kb_erased_many": _("Erased {count} points"),
        "kb_undone": _("Undone"),
        "kb_redone": _("Redone"),
        "kb_then": _("{action}. {boundary}"),
        "kb_line_handle": _(
            "Your line's handle {n} at ({x}, {y}). Arrows move it, the other handle stays; Tab chooses the other."
        ),
        "kb_line_moved": _("Moved your line's handle {n} to ({x}, {y})"),
    }


_canvas = st.components.v2.component("playground_canvas", js=MODULE_LOADER_JS, css=_CSS, isolate_styles=False)


@functools.lru_cache(maxsize=1)
def _plotly_source():
    """plotly.js in the installed plotly package, and its size (resolving the path costs a syscall per part)."""
    source = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    return source, source.stat().st_size


def ensure_plotly_js() -> str:
    """Copy plotly.js from the plotly package into static/ (served by Streamlit as app/static/).

    The file name carries the version so browsers never keep a stale copy.
    """
    _copy_plotly_js()
    return static_url(PLOTLY_JS)


@functools.cache
def _copy_plotly_js():
    # Once per process: looking for the file on every run cost two system calls a chart.
    target = browser_modules.STATIC_DIR / PLOTLY_JS
    source, size = _plotly_source()
    if not target.exists() or target.stat().st_size != size:
        write_atomically(target, lambda temporary: shutil.copyfile(source, temporary))


# plotly.js typed arrays ("bdata"): base64 of the raw bytes, a third of the size of a JSON list.
TYPED_ARRAY_CODES = {
    "int8": "i1",
    "uint8": "u1",
    "int16": "i2",
    "uint16": "u2",
    "int32": "i4",
    "uint32": "u4",
    "float32": "f4",
    "float64": "f8",
}


def _typed_arrays(value, key=None):
    """``value`` with every numpy array replaced by a plotly.js typed-array spec (axis ranges stay lists)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "b" or (value.dtype.kind in "iu" and value.dtype.itemsize == 8):
            value = value.astype(np.int32)  # plotly.js has no 64-bit integers
        code = TYPED_ARRAY_CODES.get(value.dtype.name)
        if code is None or value.size == 0 or key == "range":
            return value.tolist()
        spec = {"dtype": code, "bdata": base64.b64encode(np.ascontiguousarray(value).data).decode("ascii")}
        if value.ndim > 1:
            spec["shape"] = ", ".join(str(n) for n in value.shape)
        return spec
    if isinstance(value, dict):
        return {k: _typed_arrays(v, k) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_typed_arrays(v) for v in value]
    return value


def _plain_number(value):
    """numpy scalars as Python numbers (``json.dumps``'s fallback for what it cannot write)."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def figure_json(figure: Mapping[str, object] | BaseFigure) -> str:
    """The JSON text of a figure: a dict {"data", "layout"} (see ``figures``) or a plotly Figure.

    After ``_typed_arrays`` a figure is plain lists, dicts, strings and numbers, which the standard
    library writes in one pass. plotly's encoder writes, parses and writes again (to turn NaN into
    null) and escapes characters for HTML the canvas does not embed in: three times the work on
    every click. A figure holding NaN or infinity still goes through plotly's encoder.
    """
    if isinstance(figure, BaseFigure):
        figure = figure.to_plotly_json()
    figure = _typed_arrays(figure)
    try:
        return json.dumps(figure, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=_plain_number)
    except (ValueError, TypeError):  # NaN / inf (null in plotly.js), or a type only plotly knows
        # plotly's encoder escapes "/" (and, with its standard-library engine, where orjson is not
        # installed, every non-ASCII character): written again, the text is itself either way.
        plain = json.loads(to_json_plotly(figure))
        return json.dumps(plain, separators=(",", ":"), ensure_ascii=False)


def canvas(
    figure: Mapping[str, object] | BaseFigure,
    *,
    config: dict[str, Any],
    window: Window,
    revision: str,
    n_points: int,
    ack: int | None,
    height: int = 560,
    fill_screen: bool | int = False,
    within_window: int = 0,
    fit: object = None,
    file_name: str = "playground",
    key: str = "canvas",
    on_events: Callable[[], None] | None = None,
    panels_follow: str | None = None,
    new_point: dict[str, Any] | None = None,
    live: dict[str, Any] | None = None,
    click_switches: bool = False,
    spoken: dict[str, Any] | None = None,
    load: int = 0,
) -> Any:
    """Draw ``figure`` (a dict {"data", "layout"} or a plotly Figure) with plotly.js ``config``; return the result.

    ``result.events`` is None or a list of unacknowledged events, oldest first (the protocol's
    ``canvas_protocol.CanvasEvent``: an add, a removal, a drag's moves, which replace each other
    while unacknowledged until the final one, a zoom or pan, the toolbar's ⌂ or the key F, undo
    and redo); ``ack`` is the last nonce applied. ``height``, ``fill_screen``, ``within_window``:
    how tall the plot is (``_plot_height``). ``fit``: a token, set once when the app has just
    fitted ``window`` to the points; the canvas then widens it to the plot area's shape (reported
    as a view event). ``file_name``: the start of downloaded images' names.
    ``panels_follow``: a key of what is drawn; once drawn, the ``follow_canvas`` element reruns its fragment
    unless it last ran for that key. ``new_point``: the plotly marker of a point a click adds, drawn at once in
    the browser (before the refit arrives); None draws nothing (e.g. while clicks place RBF centres).
    ``spoken``: what the keyboard's announcements name ({"boundary": the fitted boundary in words,
    "classes": the classes' names, "symbols": their marker symbols, "add_as": the class a new point
    gets}), or None. ``load``: the number of the last scene loaded (``ui.session.loading.load_serial``):
    every event carries it as "load", so the session knows an event this drawing sent from one
    drawn before the scene it now has.
    """
    data = {
        **_drawing(figure, config),
        **_plot_height(height, fill_screen, within_window),
        "fit": fit,
        "file_name": file_name,
        "revision": revision,
        "n_points": n_points,
        "ack": ack or 0,
        "window": list(window.as_tuple()),
        "panels_follow": panels_follow,
        "new_point": new_point,
        "live": live,
        "click_switches": click_switches,
        "spoken": spoken,
        "load": load,
        "texts": canvas_texts(),
    }
    # The element takes the height the script gives the plot (in presentation, the window's).
    return _canvas(data=component_data(data), key=key, height="content", on_events_change=on_events or (lambda: None))


def _plot_height(height: int, fill_screen: bool | int, within_window: int) -> dict[str, object]:
    """How tall the canvas draws the plot. ``height``: in pixels, or its least height when
    ``fill_screen`` (presentation: the plot reaches the bottom of the browser window; a number
    n > 1 shares that room with the n - 1 canvases stacked below it in its column, each under a
    title like its own). ``within_window``: outside ``fill_screen``, the plot is shortened to end
    within the browser window's first screen, though never below this many pixels (0: the plot
    keeps ``height``)."""
    return {"height": height, "fill_screen": fill_screen, "min_height": height, "within_window": within_window}


def _drawing(figure, config):
    """The figure's JSON (in the font of the session's language) and what draws it: the plotly.js
    ``config``, plotly.js's URL, the dark theme's colour swaps and the canvas's module."""
    if not isinstance(figure, dict):
        figure = figure.to_plotly_json()
    figure = {**figure, "layout": with_font(figure["layout"], current_language())}
    if visitor().get(PRESENTATION_KEY):  # no text on a projected plot below the floor
        figure = legible(figure)
    return {
        "figure": figure_json(figure),
        "config": config,
        "plotly_url": ensure_plotly_js(),
        "dark_swaps": DARK_SWAPS,
        "module": module_url("plot/canvas.js"),
    }


def file_name(*parts: str | None) -> str:
    """A download's file name from words, e.g. ("Least squares", "one-versus-one") ->
    "least-squares-one-versus-one" (the canvas adds the date and the extension); a None or empty part is left out."""
    text = " ".join(str(part) for part in parts if part).lower().replace("'", "").replace("’", "")
    words = re.findall(r"[a-z0-9]+", text)
    return "-".join(words)[:80] or "playground"


# Through the module loader, as the canvas: its module and the canvas's share the page's one
# canvas_state.js (a module given inline runs from a blob, whence no relative import resolves).
_follow = st.components.v2.component("playground_follow_canvas", js=MODULE_LOADER_JS, isolate_styles=False)


def follow_canvas(drawn_for: str | None, key: str = "follow_canvas") -> None:
    """An invisible element that reruns its fragment when the canvas has drawn something other
    than ``drawn_for`` (the canvas's ``panels_follow`` key this fragment last ran for)."""
    data = {"drawn_for": drawn_for, "module": module_url("plot/follow_canvas.js"), "texts": shared_texts()}
    _follow(data=component_data(data), key=key, height=0, on_refresh_change=lambda: None)
