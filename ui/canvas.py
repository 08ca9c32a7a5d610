"""The clickable canvas: a Streamlit Components v2 element that draws a plotly figure with
plotly.js and reports clicks, selections and zooms back to Python.

Why a custom component: ``st.plotly_chart`` only reports clicks on existing markers; with
``clickanywhere`` plotly.js reports the data coordinates of clicks on empty space too.
"""

import base64
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

function observeWidth(root, Plotly, afterResize) {
  // Columns change width with the window, and the sidebar folding away (presentation mode)
  // widens a plot without a window resize; plotly notices neither by itself.
  let lastWidth = root.clientWidth;
  new ResizeObserver(() => {
    // A hidden plot (a rerun swapping elements) has no width; plotly cannot resize it.
    if (!root.clientWidth || Math.abs(root.clientWidth - lastWidth) < 2) return;
    lastWidth = root.clientWidth;
    Plotly.Plots.resize(root).then(afterResize || (() => {}));
  }).observe(root);
}
"""

_JS = (
    PLOTLY_SHARED_JS
    + r"""
function pointIds(points) {
  // Only markers of the data-point traces carry an index in customdata.
  return (points || []).filter(p => p.data && p.data.meta === 'points').map(p => p.customdata);
}

function send(root, event) {
  // Two triggers in one tick overwrite each other, so every send carries all events Python
  // has not acknowledged yet. Nonce and queue are page-wide: a re-created canvas (or another
  // canvas of the comparison) sends the edits still on their way too, in the order they were made.
  window.__pgNonce = (window.__pgNonce || 0) + 1;
  event.nonce = window.__pgNonce;
  // A removal names points by their place in the set this canvas shows: Python checks that set.
  if (event.type === 'remove' || event.type === 'remove_centre') event.revision = root.dataset.revision;
  let queue = window.__pgQueue || [];
  if (event.type === 'view') queue = queue.filter(e => e.type !== 'view');
  window.__pgQueue = queue.concat([event]).slice(-100);
  root.__pgSend('events', window.__pgQueue);
}

function bind(root) {
  // The component's function runs on every data change; handlers are bound once.
  root.on('plotly_click', (ev) => {
    if (root.__pgSelecting) return;
    const ids = pointIds(ev.points);
    if (ids.length) { send(root, {type: 'remove', ids: [ids[0]]}); return; }
    // Editable overlay markers (e.g. RBF centres) carry meta 'centres' and their index.
    const centre = (ev.points || []).find(p => p.data && p.data.meta === 'centres');
    if (centre) { send(root, {type: 'remove_centre', ids: [centre.customdata]}); return; }
    if (ev.xvals && ev.xvals.length && ev.yvals && ev.yvals.length) {
      send(root, {type: 'add', x: ev.xvals[0], y: ev.yvals[0]});
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

function reportViewIfAdjusted(root, want) {
  // Equal axis scales make plotly widen one range to fill the plot; tell Python the visible
  // window so the regions are evaluated over all of it.
  const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
  const tx = 1e-3 * (want[1] - want[0]), ty = 1e-3 * (want[3] - want[2]);
  const differs = (a, b) => Math.abs(a[0] - b[0]) > tx || Math.abs(a[1] - b[1]) > tx ||
      Math.abs(a[2] - b[2]) > ty || Math.abs(a[3] - b[3]) > ty;
  const have = [xr[0], xr[1], yr[0], yr[1]];
  // A render of stale data (a rerun still on its way) must not re-report the same view.
  if (differs(have, want) && (!root.__pgLastView || differs(have, root.__pgLastView))) {
    root.__pgLastView = have;
    send(root, {type: 'view', x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1]});
  }
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = plotRoot(parentElement, 'pg-canvas');
  root.style.height = data.height + 'px';
  root.dataset.receivedAt = performance.now().toFixed(1);  // the benchmark's page-update split
  root.__pgSend = setTriggerValue;
  window.__pgQueue = (window.__pgQueue || []).filter(e => e.nonce > (data.ack || 0));
  const status = parentElement.querySelector('.pg-status') || (() => {
    const el = document.createElement('div'); el.className = 'pg-status'; parentElement.appendChild(el); return el;
  })();
  loadPlotly(data.plotly_url).then((Plotly) => {
    const figure = JSON.parse(data.figure);
    figure.layout.height = data.height;  // plotly keeps its first height otherwise
    root.__pgWant = data.window;
    const started = performance.now();
    return Plotly.react(root, figure.data, figure.layout, data.config).then(() => {
      if (!root.__pgBound) {
        bind(root);
        observeWidth(root, Plotly, () => reportViewIfAdjusted(root, root.__pgWant));
        root.__pgBound = true;
      }
      root.dataset.revision = data.revision;
      root.dataset.points = data.n_points;
      root.dataset.renderMs = (performance.now() - started).toFixed(1);
      reportViewIfAdjusted(root, data.window);
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

_canvas = st.components.v2.component("playground_canvas", js=_JS, css=_CSS, isolate_styles=False)


def ensure_plotly_js():
    """Copy plotly.js from the plotly package into static/ (served by Streamlit as app/static/).

    The file name carries the version so browsers never keep a stale copy.
    """
    target = STATIC_DIR / PLOTLY_JS
    source = Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"
    if not target.exists() or target.stat().st_size != source.stat().st_size:
        STATIC_DIR.mkdir(exist_ok=True)
        temporary = target.with_suffix(".tmp")
        shutil.copyfile(source, temporary)
        temporary.replace(target)
    base = st.get_option("server.baseUrlPath").strip("/")
    return f"/{base}/app/static/{PLOTLY_JS}" if base else f"/app/static/{PLOTLY_JS}"


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
    figure, *, config, window, revision, n_points, ack, height=560, key="canvas", on_events=None, panels_follow=None
):
    """Draw ``figure`` (a dict {"data", "layout"} or a plotly Figure) with plotly.js ``config``;
    return the component result.

    ``result.events`` is None or a list of unacknowledged events, oldest first, each one of
    {"type": "add", "x", "y"}, {"type": "remove", "ids": [...]} or {"type": "view", "x0",
    "x1", "y0", "y1"}, with an increasing "nonce"; ``ack`` is the last nonce applied.
    ``panels_follow``: a key of what is drawn; once drawn, the ``follow_canvas`` element reruns its
    fragment unless it last ran for that key.
    """
    data = {
        "figure": figure_json(figure),
        "config": config,
        "plotly_url": ensure_plotly_js(),
        "height": height,
        "revision": revision,
        "n_points": n_points,
        "ack": ack or 0,
        "window": list(window.as_tuple()),
        "panels_follow": panels_follow,
    }
    return _canvas(data=data, key=key, height=height + 24, on_events_change=on_events or (lambda: None))


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
