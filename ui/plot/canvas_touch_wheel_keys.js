// The canvas's gestures, continued (see canvas_gestures.js, whose rules hold here): touch, the
// wheel, plotly's own zoom, pan, box and lasso events, and the keys.
import { exclusive } from './canvas.js';
import { markSelection, placeDragged, select } from './canvas_drag_live.js';
import { TOOL_KEYS, VIEW_SETTLE_MS, WHEEL_HINT_MS, bindPresses, currentTool, inPlotArea, plotPixel, pointIds, pressEnd, pressMove, pressStart, send, setTool, toData } from './canvas_gestures.js';

// ---- Touch: taps, one-finger scrolling, two-finger pan and zoom ----------------------------------

export function touchStart(root, e) {
  if (e.touches.length >= 2) {
    // Two fingers: pan and zoom the view (never plotly's one-finger drag, never the page's zoom).
    root.__pgPress = null;
    window.__pgPressRoot = null;
    pinchStart(root, e.touches[0], e.touches[1]);
    e.stopPropagation();
    e.preventDefault();
    return;
  }
  const t = e.touches[0];
  if (pressStart(root, {clientX: t.clientX, clientY: t.clientY, altKey: false, shiftKey: false}, true)) {
    e.stopPropagation();  // plotly would start its own drag (and stop the page's scroll)
    if (root.__pgPress && root.__pgPress.drags) e.preventDefault();
  }
}

export function touchMove(e) {
  const pinchRoot = window.__pgPinchRoot;
  if (pinchRoot && e.touches.length >= 2) {
    pinchMove(pinchRoot, e.touches[0], e.touches[1]);
    e.stopPropagation();
    e.preventDefault();
    return;
  }
  const root = window.__pgPressRoot;
  if (!root || !e.touches.length) return;
  const t = e.touches[0];
  if (pressMove(root, {clientX: t.clientX, clientY: t.clientY})) { e.stopPropagation(); e.preventDefault(); }
}

export function touchEnd(e) {
  const pinchRoot = window.__pgPinchRoot;
  if (pinchRoot) {
    if (e.touches.length < 2) pinchEnd(pinchRoot);
    e.stopPropagation();
    return;
  }
  const root = window.__pgPressRoot;
  if (!root) return;
  const t = e.changedTouches[0], press = root.__pgPress;
  if (pressEnd(root, {clientX: t.clientX, clientY: t.clientY, altKey: false, shiftKey: false})) {
    e.stopPropagation();
    e.preventDefault();  // no emulated mouse click after the tap
  } else if (press && !press.travelled) {
    // A tap on empty space was a click already (pressEnd): the browser's emulated mouse click at
    // the same spot would be a second click (a second point).
    e.preventDefault();
  }
}

function pinchStart(root, a, b) {
  const layout = root._fullLayout;
  if (!layout || !layout.xaxis) return;
  window.__pgPinchRoot = root;
  root.__pgPinch = {
    x: layout.xaxis.range.slice(), y: layout.yaxis.range.slice(),
    mid: [(a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2],
    distance: Math.max(10, Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY)),
  };
}

function pinchMove(root, a, b) {
  const pinch = root.__pgPinch;
  if (!pinch) return;
  const mid = [(a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2];
  const ratio = pinch.distance / Math.max(10, Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY));
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const [p0x, p0y] = plotPixel(root, pinch.mid[0], pinch.mid[1]), [p1x, p1y] = plotPixel(root, mid[0], mid[1]);
  // The data point under the fingers' first midpoint stays under their midpoint now.
  const wx = (pinch.x[1] - pinch.x[0]) * ratio, wy = (pinch.y[1] - pinch.y[0]) * ratio;
  const ax = pinch.x[0] + p0x * (pinch.x[1] - pinch.x[0]) / xa._length;
  const ay = pinch.y[1] - p0y * (pinch.y[1] - pinch.y[0]) / ya._length;
  const x0 = ax - p1x * wx / xa._length, y1 = ay + p1y * wy / ya._length;
  zoomTo(root, [x0, x0 + wx], [y1 - wy, y1]);
}

function pinchEnd(root) {
  window.__pgPinchRoot = null;
  root.__pgPinch = null;
  settleView(root, 0);
}

// ---- The wheel: the page scrolls; Ctrl/⌘ + wheel (or a trackpad pinch) zooms ---------------------

export function wheel(root, e) {
  if (!inPlotArea(root, e.clientX, e.clientY)) return;
  e.stopPropagation();  // plotly's own wheel zoom is off (scrollZoom false); nothing else of it runs
  if (!(e.ctrlKey || e.metaKey)) { wheelHint(root); return; }
  e.preventDefault();  // not the browser's page zoom
  const layout = root._fullLayout, xa = layout.xaxis, ya = layout.yaxis;
  const factor = Math.exp(Math.max(-1, Math.min(1, e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002))));
  const [x, y] = toData(root, e.clientX, e.clientY);
  const xr = xa.range, yr = ya.range;
  zoomTo(root, [x + (xr[0] - x) * factor, x + (xr[1] - x) * factor], [y + (yr[0] - y) * factor, y + (yr[1] - y) * factor]);
  settleView(root, VIEW_SETTLE_MS);
}

function wheelHint(root) {
  // As maps do: say once per little while how to zoom, over the plot, without blocking the scroll.
  const now = performance.now();
  if (root.__pgWheelHintAt && now - root.__pgWheelHintAt < WHEEL_HINT_MS) return;
  root.__pgWheelHintAt = now;
  let hint = root.querySelector('.pg-wheel-hint');
  if (!hint) {
    hint = document.createElement('div');
    hint.className = 'pg-wheel-hint';
    root.appendChild(hint);
  }
  hint.textContent = root.__pgData.texts.wheel_hint;
  hint.classList.add('pg-shown');
  clearTimeout(root.__pgWheelHintTimer);
  root.__pgWheelHintTimer = setTimeout(() => hint.classList.remove('pg-shown'), WHEEL_HINT_MS);
}

function zoomTo(root, x, y) {
  // Move the view now (the report to the session waits until the hand stops: settleView).
  root.__pgZooming = true;
  window.Plotly.relayout(root, {'xaxis.range': x, 'yaxis.range': y});
}

function settleView(root, delay) {
  clearTimeout(root.__pgSettleTimer);
  root.__pgSettleTimer = setTimeout(() => {
    root.__pgZooming = false;
    const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
    send(root, {type: 'view', x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1]});
  }, delay);
}

// ---- Plotly's own events: zoom boxes, pans, box and lasso ------------------------------------------

function clearBoxSelection(root) {
  // plotly's own selection dims every point a box or lasso left out (the traces' selectedpoints,
  // kept across Plotly.react by the layout's uirevision) and leaves the box drawn. The canvas's
  // tools only use a box to name points (erase removes them, select rims them): once it has, every
  // point is drawn in full again and the box goes.
  const dimmed = () => (root.data || []).some((trace) => trace.selectedpoints != null);
  const boxed = () => ((root.layout && root.layout.selections) || []).length > 0;
  if (!window.Plotly || !(dimmed() || boxed())) return null;
  return exclusive(root, () => (dimmed() || boxed() ? window.Plotly.update(root, {selectedpoints: null}, {selections: []}) : null));
}

export function bind(root) {
  // The component's function runs on every data change; handlers are bound once.
  root.on('plotly_selected', (ev) => {
    // plotly reports an empty selection as a box starts (and again when its outline is cleared):
    // only a selection with points does something. It is handled after plotly's own handling of
    // the gesture (a redraw from inside it overflows plotly.js's stack).
    const ids = pointIds(ev && ev.points), tool = currentTool(), shift = !!root.__pgShiftGesture;
    if (!ids.length) { setTimeout(() => clearBoxSelection(root), 0); return; }
    setTimeout(() => {
      Promise.resolve(clearBoxSelection(root)).finally(() => {  // the next box starts fresh
        if (tool === 'select') select(root, ids, shift);
        else if (tool === 'erase') send(root, {type: 'remove', ids: ids});
      });
    }, 0);
  });
  root.on('plotly_afterplot', () => {
    root.__pgDrawn = (root.__pgDrawn || 0) + 1;
    if (root.__pgDrag && root._fullLayout) delete root._fullLayout._rehover;  // no hover work per update
    placeDragged(root);
    markSelection(root);
  });
  root.on('plotly_relayout', (ev) => {
    if (root.__pgZooming) return;  // reported by settleView
    const keys = Object.keys(ev || {});
    if (!keys.some(k => k.startsWith('xaxis.range') || k.startsWith('yaxis.range') || k.endsWith('autorange'))) return;
    const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
    send(root, {type: 'view', x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1]});
  });
  root.addEventListener('mousedown', (e) => { root.__pgShiftGesture = e.shiftKey; }, true);
  bindPresses(root);
}

// ---- Keys: undo and redo, the tools, fitting the view, erasing the selection -----------------------

function isTextField(element) {
  if (!element || !element.tagName) return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const notText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'];
  return !notText.includes((element.type || '').toLowerCase());
}

const FIT_KEY = 'f';  // fits the view to the points

export function keyRoot() {
  return [window.__pgKeyRoot].concat(Array.from(document.querySelectorAll('.pg-canvas')))
    .find(r => r && r.isConnected && r.__pgSend);
}

export function bindKeys() {
  // Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo; A, M, E, S pick a tool; F fits the view to
  // the points (as ⌂ and the sidebar's Fit view do); Delete erases the selection; Esc clears it.
  // Anywhere on the page but in a text field (which keeps its own keys).
  if (window.__pgKeysBound) return;
  window.__pgKeysBound = true;
  document.addEventListener('keydown', (e) => {
    if (isTextField(e.target) || e.altKey || e.repeat) return;
    const key = (e.key || '').toLowerCase(), root = keyRoot();
    if (!root) return;
    if (e.ctrlKey || e.metaKey) {
      const action = key === 'z' ? (e.shiftKey ? 'redo' : 'undo') : (key === 'y' && !e.shiftKey ? 'redo' : null);
      if (!action) return;
      e.preventDefault();
      send(root, {type: action});
    } else if (TOOL_KEYS[key] && !e.shiftKey) {
      setTool(TOOL_KEYS[key]);
    } else if (key === FIT_KEY && !e.shiftKey) {
      send(root, {type: 'fit'});
    } else if ((key === 'delete' || key === 'backspace') && root.__pgSelection) {
      e.preventDefault();
      const ids = root.__pgSelection.ids;
      root.__pgSelection = null;
      send(root, {type: 'remove', ids: ids});
    } else if (key === 'escape') {
      /** @type {NodeListOf<PlotRoot>} */ (document.querySelectorAll('.pg-canvas')).forEach((r) => { if (r.__pgSelection) select(r, [], false); });
    }
  });
}

