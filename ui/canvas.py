"""The clickable canvas: a Streamlit Components v2 element that draws a plotly figure with
plotly.js and reports clicks, selections and zooms back to Python.

Why a custom component: ``st.plotly_chart`` only reports clicks on existing markers; with
``clickanywhere`` plotly.js reports the data coordinates of clicks on empty space too.
"""

import base64
import hashlib
import os
import re
import shutil
from pathlib import Path

import numpy as np
import plotly
import streamlit as st
from plotly.io.json import to_json_plotly

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
PLOTLY_JS = f"plotly-{plotly.__version__}.min.js"

PLOTLY_SHARED_JS = r"""
function loadPlotly(url) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__pgPlotlyLoading) {
    window.__pgPlotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => {
        window.__pgPlotlyLoading = null;
        reject(new Error('plotly.js did not load from ' + url));
      };
      document.head.appendChild(script);
    });
  }
  return window.__pgPlotlyLoading;
}

function plotRoot(parentElement, className) {
  // The component's function runs again on every data change: reuse the element it made.
  let root = parentElement.querySelector('.' + className);
  if (!root) {
    root = document.createElement('div');
    root.className = className;
    parentElement.appendChild(root);
  }
  return root;
}

function observeWidth(root, Plotly, onResize) {
  // Columns change width with the window, and the sidebar folding away (presentation mode)
  // widens a plot without a window resize; plotly notices neither by itself.
  let lastWidth = root.clientWidth;
  new ResizeObserver(() => {
    // A hidden plot (a rerun swapping elements) has no width; plotly cannot resize it.
    if (!root.clientWidth || Math.abs(root.clientWidth - lastWidth) < 2) return;
    lastWidth = root.clientWidth;
    if (onResize) onResize(); else Plotly.Plots.resize(root);
  }).observe(root);
}

// Figures to take away: PNG and SVG drawn by plotly.js in the browser (no server, no cloud),
// named after what they show and the day, e.g. "least-squares-2026-05-04.svg".
function today() {
  const now = new Date(), pad = (n) => String(n).padStart(2, '0');
  return now.getFullYear() + '-' + pad(now.getMonth() + 1) + '-' + pad(now.getDate());
}

function downloadFigure(Plotly, gd, format, name) {
  const layout = gd._fullLayout;
  return Plotly.downloadImage(gd, {
    format: format, filename: (name || 'figure') + '-' + today(),
    width: layout.width, height: layout.height, scale: format === 'png' ? 2 : 1,
  });
}

function plotConfig(Plotly, root, config, buttons) {
  // The config with PNG / SVG buttons (functions, so added here rather than sent from Python),
  // made once per config: Plotly.react redraws the whole plot, even its drag layers, when the
  // config changes, and new functions would change it on every render.
  const key = JSON.stringify(config);
  if (root.__pgConfigKey !== key) {
    root.__pgConfigKey = key;
    root.__pgConfig = Object.assign({}, config, {
      modeBarButtonsToAdd: (buttons || []).concat([
        {name: 'pgDownloadPng', title: 'Download as PNG', icon: Plotly.Icons.camera,
         click: (gd) => downloadFigure(Plotly, gd, 'png', gd.__pgFileName)},
        {name: 'pgDownloadSvg', title: 'Download as SVG (vector)', icon: Plotly.Icons.disk,
         click: (gd) => downloadFigure(Plotly, gd, 'svg', gd.__pgFileName)},
      ]),
    });
  }
  return root.__pgConfig;
}
"""

_JS = (
    PLOTLY_SHARED_JS
    + r"""
const MIN_HEIGHT = 240;  // px: the canvas never gets shorter than this to fit a wide window
const DOUBLE_CLICK_SLOP = 8;  // px: two clicks further apart are two clicks, however quick
const DOUBLE_CLICK_MS = 500;  // the longest double-click interval systems allow by default
// 0 the full legend, 1 short names, 2 short names in a smaller font, 3 and on: without the
// first, then the second, optional entry (the figure's compact.optional)
const LEGEND_LEVELS = 4;

function pointIds(points) {
  // Only markers of the data-point traces carry an index in customdata.
  return (points || []).filter(p => p.data && p.data.meta === 'points').map(p => p.customdata);
}

function plotArea(root) {
  // The room inside the margins, which the equal-scale plot area fits into (at the canvas's full
  // height, should it have shrunk to a wide window).
  const layout = root._fullLayout, size = layout && layout._size;
  if (!size) return null;
  return [Math.round(size.w), Math.round(size.h + Math.max(0, (root.__pgRoom || 0) - layout.height))];
}

function send(root, event) {
  // Two triggers in one tick overwrite each other, so every send carries all events Python
  // has not acknowledged yet. Nonce and queue are page-wide: a re-created canvas (or another
  // canvas of the comparison) sends the edits still on their way too, in the order they were made.
  window.__pgNonce = (window.__pgNonce || 0) + 1;
  event.nonce = window.__pgNonce;
  // A removal names points by their place in the set this canvas shows: Python checks that set.
  if (event.type === 'remove' || event.type === 'remove_centre') event.revision = root.dataset.revision;
  const area = plotArea(root);
  if (area) event.area = area;  // a fit of the view can match the plot's shape
  let queue = window.__pgQueue || [];
  if (event.type === 'view') queue = queue.filter(e => e.type !== 'view');
  window.__pgQueue = queue.concat([event]).slice(-100);
  root.__pgSend('events', window.__pgQueue);
  root.dataset.lastSent = event.type + ' ' + event.nonce;  // what the browser tests see leave at once
  return event.nonce;
}

function bind(root) {
  // The component's function runs on every data change; handlers are bound once.
  root.on('plotly_click', (ev) => {
    if (root.__pgSelecting) return;
    // A double-click only fits the view. Its first click's edit was sent at once (no waiting for a
    // second click), so the second click takes it back, in the same undo step. Detected here in
    // every drag mode (plotly.js reports both clicks, and a double-click only in zoom mode).
    const mouse = ev.event || {}, now = performance.now();
    const here = {x: mouse.clientX, y: mouse.clientY, t: now, nonce: null};
    const last = root.__pgLastClick;
    const interval = Math.max(DOUBLE_CLICK_MS, root._context.doubleClickDelay || 0);
    if (last && now - last.t < interval && Math.hypot(here.x - last.x, here.y - last.y) <= DOUBLE_CLICK_SLOP) {
      root.__pgLastClick = null;
      if (last.nonce !== null) send(root, {type: 'retract', of: last.nonce});
      send(root, {type: 'fit'});
      return;
    }
    root.__pgLastClick = here;
    const ids = pointIds(ev.points);
    if (ids.length) { here.nonce = send(root, {type: 'remove', ids: [ids[0]]}); return; }
    // Editable overlay markers (e.g. RBF centres) carry meta 'centres' and their index.
    const centre = (ev.points || []).find(p => p.data && p.data.meta === 'centres');
    if (centre) { here.nonce = send(root, {type: 'remove_centre', ids: [centre.customdata]}); return; }
    if (ev.xvals && ev.xvals.length && ev.yvals && ev.yvals.length) {
      here.nonce = send(root, {type: 'add', x: ev.xvals[0], y: ev.yvals[0]});
    }
  });
  root.on('plotly_selected', (ev) => {
    if (!ev) return;
    const ids = pointIds(ev.points);
    // Clear the box/lasso outline so the next selection starts fresh.
    Plotly.relayout(root, {selections: []});
    if (ids.length) send(root, {type: 'remove', ids: ids});
  });
  root.on('plotly_relayout', (ev) => {
    const keys = Object.keys(ev || {});
    if (!keys.some(k => k.startsWith('xaxis.range') || k.startsWith('yaxis.range') || k.endsWith('autorange'))) return;
    const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
    send(root, {type: 'view', x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1]});
  });
}

function isTextField(element) {
  if (!element || !element.tagName) return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const notText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'];
  return !notText.includes((element.type || '').toLowerCase());
}

function bindKeys() {
  // Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo, anywhere on the page but in a text
  // field (which keeps its own undo). Sent through the canvas like its other edits.
  if (window.__pgKeysBound) return;
  window.__pgKeysBound = true;
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || e.repeat) return;
    const key = (e.key || '').toLowerCase();
    const action = key === 'z' ? (e.shiftKey ? 'redo' : 'undo') : (key === 'y' && !e.shiftKey ? 'redo' : null);
    if (!action || isTextField(e.target)) return;
    const root = [window.__pgKeyRoot].concat(Array.from(document.querySelectorAll('.pg-canvas')))
      .find(r => r && r.isConnected && r.__pgSend);
    if (!root) return;
    e.preventDefault();
    send(root, {type: action});
  });
}

function roomHeight(root, data) {
  // The height the canvas has: the script's, or in presentation down to the window's bottom.
  if (!data.fill_screen) return data.height;
  const top = root.getBoundingClientRect().top + window.scrollY;
  return Math.max(data.min_height, Math.floor(window.innerHeight - top - 12));
}

function canvasHeight(root, data, layout) {
  // Equal scales: a window wider than the room makes the plot area shorter than the canvas;
  // the canvas then shrinks to it rather than leave an empty band below the plot (not while
  // a fitted window is about to take the room's shape).
  const room = roomHeight(root, data);
  root.__pgRoom = room;
  if (data.fit && root.__pgFitted !== data.fit) return room;
  const margin = (layout && layout.margin) || {}, [x0, x1, y0, y1] = data.window;
  const width = root.clientWidth - (margin.l || 0) - (margin.r || 0);
  if (width <= 0) return room;
  const needed = Math.ceil((margin.t || 0) + (margin.b || 0) + width * (y1 - y0) / (x1 - x0)) + 2;
  return Math.min(room, Math.max(MIN_HEIGHT, needed));
}

function legendRows(root) {
  const rows = new Set();
  root.querySelectorAll('.legend .traces').forEach((entry) => {
    const match = /translate\(\s*[-\d.e]+[ ,]+([-\d.e]+)\s*\)/.exec(entry.getAttribute('transform') || '');
    if (match) rows.add(Math.round(parseFloat(match[1])));
  });
  return rows.size;
}

function shownFigure(figure, level, legendX) {
  // The legend stays one row: shorter names (and a legend title) where the full ones do not fit;
  // it starts where the plot area does (equal scales may centre a narrower plot).
  const layout = Object.assign({}, figure.layout, {legend: Object.assign({}, figure.layout.legend, {x: legendX})});
  if (!level || !figure.compact) return {data: figure.data, layout: layout};
  const names = figure.compact.names || [];
  const optional = (figure.compact.optional || []).slice(0, Math.max(0, level - 2)).flat();
  const data = figure.data.map((trace, i) => {
    if (optional.includes(i)) return Object.assign({}, trace, {showlegend: false});
    return names[i] ? Object.assign({}, trace, {name: names[i]}) : trace;
  });
  const size = (figure.layout.font || {}).size || 13;
  const font = {size: level >= 2 ? 0.8 * size : size};
  Object.assign(layout.legend, {
    title: {text: figure.compact.legend_title, side: 'left', font: font}, font: font,
    itemwidth: level >= 2 ? 30 : undefined,
  });
  return {data: data, layout: layout};
}

function plotStart(root, layout, window) {
  // Where the plot area starts across the room (0..1): equal scales centre a narrower plot.
  const margin = layout.margin || {}, [x0, x1, y0, y1] = window;
  const width = root.clientWidth - (margin.l || 0) - (margin.r || 0);
  const height = layout.height - (margin.t || 0) - (margin.b || 0);
  if (width <= 0 || height <= 0) return 0;
  return Math.max(0, (1 - Math.min(1, (height * (x1 - x0)) / (y1 - y0) / width)) / 2);
}

function draw(root, Plotly, depth) {
  // Plotly.react; then again with a shorter legend while the full one wraps to a second row. The
  // level is kept while the legend's entries and the plot area's width stay (a click draws once);
  // other entries (a method, strategy or scene) or another width start again from the full legend.
  const start = plotStart(root, root.__pgFigure.layout, root.__pgData.window);
  const key = JSON.stringify([root.__pgFigure.data.map(t => (t.showlegend === false ? null : t.name)),
                              root.clientWidth, start.toFixed(3)]);
  if (!depth && root.__pgLegendKey !== key) {
    root.__pgLegendKey = key;
    root.__pgLegendLevel = 0;
  }
  const level = root.__pgLegendLevel || 0;
  const figure = shownFigure(root.__pgFigure, level, start);
  // The width too, explicitly: Plotly.react keeps the width of the first draw otherwise, so a
  // window made wider (a laptop's page moved to the projector) kept a small plot.
  if (root.clientWidth) figure.layout.width = root.clientWidth;
  return Plotly.react(root, figure.data, figure.layout, root.__pgConfig).then(() => {
    // Browser-side playback (ui/playback.js) keeps the server's figure and draws its step over it.
    if (window.__pgAfterCanvasDraw) window.__pgAfterCanvasDraw(root);
    if ((depth || 0) >= LEGEND_LEVELS || !figure.layout.showlegend) return;
    if (legendRows(root) > 1 && level < LEGEND_LEVELS) {
      root.__pgLegendLevel = level + 1;
      return draw(root, Plotly, (depth || 0) + 1);
    }
  });
}

function fitToPlotArea(root, Plotly, data) {
  // A window the app fitted to the points (Fit view, new clusters, a preset, the first scene)
  // takes the plot area's shape, so the regions fill it; the user sees and keeps that window.
  if (!data.fit || root.__pgFitted === data.fit) return;
  root.__pgFitted = data.fit;
  const [w, h] = plotArea(root) || [0, 0];
  if (!w || !h) return;
  const [x0, x1, y0, y1] = data.window, want = w / h, have = (x1 - x0) / (y1 - y0);
  if (Math.abs(have / want - 1) < 0.005) return;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const half = have < want ? [(y1 - y0) * want / 2, (y1 - y0) / 2] : [(x1 - x0) / 2, (x1 - x0) / want / 2];
  // The relayout is reported like a zoom (plotly_relayout), so Python keeps this window.
  Plotly.relayout(root, {'xaxis.range': [cx - half[0], cx + half[0]], 'yaxis.range': [cy - half[1], cy + half[1]]});
}

function redraw(root, Plotly, widthChanged) {
  // After a resize: the height the plot now needs (presentation: the window's); on a wider
  // canvas the full legend may fit again.
  const data = root.__pgData, figure = root.__pgFigure;
  const height = canvasHeight(root, data, figure.layout);
  if (!widthChanged && Math.abs(height - figure.layout.height) < 2) return;
  root.style.height = height + 'px';
  figure.layout.height = height;
  return draw(root, Plotly);
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = plotRoot(parentElement, 'pg-canvas');
  root.__pgData = data;
  root.__pgSend = setTriggerValue;
  window.__pgQueue = (window.__pgQueue || []).filter(e => e.nonce > (data.ack || 0));
  root.__pgFileName = data.file_name;
  window.__pgKeyRoot = root;
  bindKeys();
  const figure = JSON.parse(data.figure);
  const height = canvasHeight(root, data, figure.layout);
  root.style.height = height + 'px';
  root.dataset.receivedAt = performance.now().toFixed(1);  // the benchmark's page-update split
  const status = parentElement.querySelector('.pg-status') || (() => {
    const el = document.createElement('div'); el.className = 'pg-status'; parentElement.appendChild(el); return el;
  })();
  loadPlotly(data.plotly_url).then((Plotly) => {
    figure.layout.height = height;  // plotly keeps its first height otherwise
    root.__pgFigure = figure;
    plotConfig(Plotly, root, data.config, [{name: 'pgFitView', title: 'Fit the view to the points (or double-click)',
      icon: Plotly.Icons.home, click: () => send(root, {type: 'fit'})}]);
    const started = performance.now();
    return draw(root, Plotly).then(() => {
      if (!root.__pgBound) {
        bind(root);
        // A new width may fit the full legend again, and changes the height a wide window needs.
        observeWidth(root, Plotly, () => redraw(root, Plotly, true));
        window.addEventListener('resize', () => { if (root.isConnected) redraw(root, Plotly, false); });
        root.__pgBound = true;
      }
      root.dataset.revision = data.revision;
      root.dataset.points = data.n_points;
      root.dataset.renderMs = (performance.now() - started).toFixed(1);
      fitToPlotArea(root, Plotly, data);
      status.textContent = '';
      // Now that the new scene is on screen, the panels below catch up (follow_canvas).
      const panels = window.__pgPanels;
      if (data.panels_follow && panels && panels.drawnFor !== data.panels_follow) {
        panels.drawnFor = data.panels_follow;
        panels.refresh(data.panels_follow);
      }
    });
  }).catch((err) => { status.textContent = 'The plot could not be drawn: ' + err.message; });
}
"""
)

_CSS = """
.pg-canvas { width: 100%; }
.pg-status { color: #b00020; font-size: 0.9rem; }
"""

# Streamlit sends an inline component's JavaScript with every update of the element, i.e. with
# every click; the canvas's is ~15 KB. So the element's own JavaScript only imports the real
# module, written to static/ once (see ``static_module``) and cached by the browser.
MODULE_LOADER_JS = r"""
export default function (component) {
  // A full URL: this code runs from a blob, against which a path does not resolve.
  const url = new URL(component.data.module, document.baseURI).href;
  import(url).then((module) => module.default(component)).catch((err) => {
    component.parentElement.textContent = 'The plot could not be drawn: ' + err.message;
  });
}
"""

_canvas = st.components.v2.component("playground_canvas", js=MODULE_LOADER_JS, css=_CSS, isolate_styles=False)


def _static_url(filename):
    base = st.get_option("server.baseUrlPath").strip("/")
    return f"/{base}/app/static/{filename}" if base else f"/app/static/{filename}"


def static_module(name, source):
    """The URL of JavaScript ``source`` served from static/, written there on first use under a
    name carrying its digest (a changed module is a new file, never a stale cached one)."""
    digest = hashlib.blake2b(source.encode(), digest_size=8).hexdigest()
    filename = f"pg-{name}-{digest}.js"
    target = STATIC_DIR / filename
    if not target.exists():
        STATIC_DIR.mkdir(exist_ok=True)
        temporary = target.with_name(f"{filename}.{os.getpid()}.tmp")  # several servers may start at once
        temporary.write_text(source, encoding="utf-8")
        temporary.replace(target)
    return _static_url(filename)


def ensure_plotly_js():
    """Copy plotly.js from the plotly package into static/ (served by Streamlit as app/static/).

    The file name carries the version so browsers never keep a stale copy.
    """
    target = STATIC_DIR / PLOTLY_JS
    source = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    if not target.exists() or target.stat().st_size != source.stat().st_size:
        STATIC_DIR.mkdir(exist_ok=True)
        temporary = target.with_name(f"{PLOTLY_JS}.{os.getpid()}.tmp")  # several servers may start at once
        shutil.copyfile(source, temporary)
        temporary.replace(target)
    return _static_url(PLOTLY_JS)


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
        spec = {"dtype": code, "bdata": base64.b64encode(np.ascontiguousarray(value)).decode("ascii")}
        if value.ndim > 1:
            spec["shape"] = ", ".join(str(n) for n in value.shape)
        return spec
    if isinstance(value, dict):
        return {k: _typed_arrays(v, k) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_typed_arrays(v) for v in value]
    return value


def figure_json(figure):
    """The JSON text of a figure: a dict {"data", "layout"} (see ``figures``) or a plotly Figure."""
    if not isinstance(figure, dict):
        figure = figure.to_plotly_json()
    # plotly escapes "/" as \u002f for embedding in HTML; here it only inflates the base64.
    return to_json_plotly(_typed_arrays(figure)).replace("\\u002f", "/")


def canvas(
    figure,
    *,
    config,
    window,
    revision,
    n_points,
    ack,
    height=560,
    fill_screen=False,
    fit=None,
    file_name="playground",
    key="canvas",
    on_events=None,
    panels_follow=None,
):
    """Draw ``figure`` (a dict {"data", "layout"} or a plotly Figure) with plotly.js ``config``;
    return the component result.

    ``result.events`` is None or a list of unacknowledged events, oldest first, each one of
    {"type": "add", "x", "y"}, {"type": "remove", "ids": [...]}, {"type": "remove_centre", "ids"},
    {"type": "view", "x0", "x1", "y0", "y1"} (a zoom or pan), {"type": "retract", "of": nonce}
    (a double-click takes back its first click), {"type": "fit"} (double-click, toolbar),
    {"type": "undo"} or {"type": "redo"} (keyboard), with an increasing "nonce" and the plot
    area's size in pixels as "area"; ``ack`` is the last nonce applied.
    ``height``: of the plot in pixels, or its least height when ``fill_screen`` (presentation:
    the plot reaches the bottom of the browser window). ``fit``: a token, set once when the app
    has just fitted ``window`` to the points; the canvas then widens it to the plot area's shape
    (reported as a view event). ``file_name``: the start of downloaded images' names.
    ``panels_follow``: a key of what is drawn; once drawn, the ``follow_canvas`` element reruns
    its fragment unless it last ran for that key.
    """
    data = {
        "figure": figure_json(figure),
        "config": config,
        "plotly_url": ensure_plotly_js(),
        "module": static_module("canvas", _JS),
        "height": height,
        "fill_screen": fill_screen,
        "min_height": height,
        "fit": fit,
        "file_name": file_name,
        "revision": revision,
        "n_points": n_points,
        "ack": ack or 0,
        "window": list(window.as_tuple()),
        "panels_follow": panels_follow,
    }
    # The element takes the height the script gives the plot (in presentation, the window's).
    return _canvas(data=data, key=key, height="content", on_events_change=on_events or (lambda: None))


def file_name(*parts):
    """A download's file name from words, e.g. ("Least squares", "one-versus-one") ->
    "least-squares-one-versus-one" (the canvas adds the date and the extension)."""
    text = " ".join(str(part) for part in parts if part).lower().replace("'", "").replace("’", "")
    words = re.findall(r"[a-z0-9]+", text)
    return "-".join(words)[:80] or "playground"


_FOLLOW_JS = r"""
export default function (component) {
  // The canvas calls refresh() after drawing a scene these panels were not drawn for.
  const { data, setTriggerValue } = component;
  window.__pgPanels = { drawnFor: data.drawn_for, refresh: (key) => setTriggerValue('refresh', key) };
}
"""

_follow = st.components.v2.component("playground_follow_canvas", js=_FOLLOW_JS, isolate_styles=False)


def follow_canvas(drawn_for, key="follow_canvas"):
    """An invisible element that reruns its fragment when the canvas has drawn something other
    than ``drawn_for`` (the canvas's ``panels_follow`` key this fragment last ran for)."""
    _follow(data={"drawn_for": drawn_for}, key=key, height=0, on_refresh_change=lambda: None)
