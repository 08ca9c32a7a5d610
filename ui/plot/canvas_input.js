// The canvas's input, bound once per plot (and once per page for what the window hears): the mouse
// and touch presses (canvas_presses.js), two-finger pan and zoom, the wheel, and plotly's own zoom,
// pan, box and lasso events. Rules: ui/plot/canvas.js.
import { markSelection, placeDragged, select } from './canvas_drag.js';
import { exclusive } from './canvas_draw.js';
import { send } from './canvas_edits.js';
import { pointAt, pressEnd, pressMove, pressStart } from './canvas_presses.js';
import { canvasData, canvasPage, canvasState } from './canvas_state.js';
import { currentTool } from './canvas_tools.js';
import { areaPixelAt, dataAt, inPlotArea } from './geometry.js';

const VIEW_SETTLE_MS = 350;  // a wheel or pinch zoom is reported once the hand has stopped
const WHEEL_HINT_MS = 1600;

// ---- Touch: taps, one-finger scrolling, two-finger pan and zoom ----------------------------------

/**
 * @param {PlotRoot} root
 * @param {TouchEvent} e
 */
function touchStart(root, e) {
  const state = canvasState(root);
  if (e.touches.length >= 2) {
    // Two fingers: pan and zoom the view (never plotly's one-finger drag, never the page's zoom).
    state.press = null;
    canvasPage.pressRoot = null;
    pinchStart(root, e.touches[0], e.touches[1]);
    e.stopPropagation();
    e.preventDefault();
    return;
  }
  const t = e.touches[0];
  if (pressStart(root, {clientX: t.clientX, clientY: t.clientY, altKey: false, shiftKey: false}, true)) {
    e.stopPropagation();  // plotly would start its own drag (and stop the page's scroll)
    if (state.press && state.press.drags) e.preventDefault();
  }
}

/** @param {TouchEvent} e */
function touchMove(e) {
  const pinchRoot = canvasPage.pinchRoot;
  if (pinchRoot && e.touches.length >= 2) {
    pinchMove(pinchRoot, e.touches[0], e.touches[1]);
    e.stopPropagation();
    e.preventDefault();
    return;
  }
  const root = canvasPage.pressRoot;
  if (!root || !e.touches.length) return;
  const t = e.touches[0];
  if (pressMove(root, {clientX: t.clientX, clientY: t.clientY})) { e.stopPropagation(); e.preventDefault(); }
}

/** @param {TouchEvent} e */
function touchEnd(e) {
  const pinchRoot = canvasPage.pinchRoot;
  if (pinchRoot) {
    if (e.touches.length < 2) pinchEnd(pinchRoot);
    e.stopPropagation();
    return;
  }
  const root = canvasPage.pressRoot;
  if (!root) return;
  const t = e.changedTouches[0], press = canvasState(root).press;
  if (pressEnd(root, {clientX: t.clientX, clientY: t.clientY, altKey: false, shiftKey: false})) {
    e.stopPropagation();
    e.preventDefault();  // no emulated mouse click after the tap
  } else if (press && !press.travelled) {
    // A tap on empty space was a click already (pressEnd): the browser's emulated mouse click at
    // the same spot would be a second click (a second point).
    e.preventDefault();
  }
}

/**
 * @param {PlotRoot} root
 * @param {Touch} a
 * @param {Touch} b
 */
function pinchStart(root, a, b) {
  const layout = root._fullLayout;
  if (!layout || !layout.xaxis) return;
  canvasPage.pinchRoot = root;
  canvasState(root).pinch = {
    x: layout.xaxis.range.slice(), y: layout.yaxis.range.slice(),
    mid: [(a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2],
    distance: Math.max(10, Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY)),
  };
}

/**
 * @param {PlotRoot} root
 * @param {Touch} a
 * @param {Touch} b
 */
function pinchMove(root, a, b) {
  const pinch = canvasState(root).pinch;
  if (!pinch) return;
  const mid = [(a.clientX + b.clientX) / 2, (a.clientY + b.clientY) / 2];
  const ratio = pinch.distance / Math.max(10, Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY));
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const [p0x, p0y] = areaPixelAt(root, pinch.mid[0], pinch.mid[1]), [p1x, p1y] = areaPixelAt(root, mid[0], mid[1]);
  // The data point under the fingers' first midpoint stays under their midpoint now.
  const wx = (pinch.x[1] - pinch.x[0]) * ratio, wy = (pinch.y[1] - pinch.y[0]) * ratio;
  const ax = pinch.x[0] + p0x * (pinch.x[1] - pinch.x[0]) / xa._length;
  const ay = pinch.y[1] - p0y * (pinch.y[1] - pinch.y[0]) / ya._length;
  const x0 = ax - p1x * wx / xa._length, y1 = ay + p1y * wy / ya._length;
  zoomTo(root, [x0, x0 + wx], [y1 - wy, y1]);
}

/** @param {PlotRoot} root */
function pinchEnd(root) {
  canvasPage.pinchRoot = null;
  canvasState(root).pinch = null;
  settleView(root, 0);
}

// ---- The wheel: the page scrolls; Ctrl/⌘ + wheel (or a trackpad pinch) zooms ---------------------

/**
 * @param {PlotRoot} root
 * @param {WheelEvent} e
 */
function wheel(root, e) {
  if (!inPlotArea(root, e.clientX, e.clientY)) return;
  e.stopPropagation();  // plotly's own wheel zoom is off (scrollZoom false); nothing else of it runs
  if (!(e.ctrlKey || e.metaKey)) { wheelHint(root); return; }
  e.preventDefault();  // not the browser's page zoom
  const layout = root._fullLayout, xa = layout.xaxis, ya = layout.yaxis;
  const factor = Math.exp(Math.max(-1, Math.min(1, e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.002))));
  const [x, y] = dataAt(root, e.clientX, e.clientY);
  const xr = xa.range, yr = ya.range;
  zoomTo(root, [x + (xr[0] - x) * factor, x + (xr[1] - x) * factor], [y + (yr[0] - y) * factor, y + (yr[1] - y) * factor]);
  settleView(root, VIEW_SETTLE_MS);
}

/**
 * As maps do: say once per little while how to zoom, over the plot, without blocking the scroll.
 * @param {PlotRoot} root
 */
function wheelHint(root) {
  const state = canvasState(root), now = performance.now();
  if (state.wheelHintAt && now - state.wheelHintAt < WHEEL_HINT_MS) return;
  state.wheelHintAt = now;
  let hint = root.querySelector('.pg-wheel-hint');
  if (!hint) {
    hint = document.createElement('div');
    hint.className = 'pg-wheel-hint';
    root.appendChild(hint);
  }
  const shown = hint;
  shown.textContent = canvasData(root).texts.wheel_hint;
  shown.classList.add('pg-shown');
  clearTimeout(state.wheelHintTimer);
  state.wheelHintTimer = setTimeout(() => shown.classList.remove('pg-shown'), WHEEL_HINT_MS);
}

/**
 * Move the view now (the report to the session waits until the hand stops: settleView).
 * @param {PlotRoot} root
 * @param {number[]} x
 * @param {number[]} y
 */
function zoomTo(root, x, y) {
  canvasState(root).zooming = true;
  window.Plotly.relayout(root, {'xaxis.range': x, 'yaxis.range': y});
}

/**
 * @param {PlotRoot} root
 * @param {number} delay
 */
function settleView(root, delay) {
  const state = canvasState(root);
  clearTimeout(state.settleTimer);
  state.settleTimer = setTimeout(() => {
    state.zooming = false;
    sendView(root);
  }, delay);
}

/** @param {PlotRoot} root */
function sendView(root) {
  const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
  send(root, {type: 'view', x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1]});
}

// ---- Plotly's own events: zoom boxes, pans, box and lasso ------------------------------------------

/**
 * Only markers of the data-point traces carry an index in customdata.
 * @param {PlotlyObject[] | undefined} points
 * @returns {number[]}
 */
function pointIds(points) {
  return (points || []).filter((p) => p.data && p.data.meta === 'points' && p.customdata >= 0).map((p) => p.customdata);
}

/**
 * plotly's own selection dims every point a box or lasso left out (the traces' selectedpoints, kept
 * across Plotly.react by the layout's uirevision) and leaves the box drawn. The canvas's tools only
 * use a box to name points (erase removes them, select rims them): once it has, every point is
 * drawn in full again and the box goes.
 * @param {PlotRoot} root
 */
function clearBoxSelection(root) {
  const dimmed = () => (root.data || []).some((trace) => trace.selectedpoints != null);
  const boxed = () => ((root.layout && root.layout.selections) || []).length > 0;
  if (!window.Plotly || !(dimmed() || boxed())) return null;
  return exclusive(root, () => (dimmed() || boxed() ? window.Plotly.update(root, {selectedpoints: null}, {selections: []}) : null));
}

/**
 * plotly reports an empty selection as a box starts (and again when its outline is cleared): only a
 * selection with points does something. It is handled after plotly's own handling of the gesture
 * (a redraw from inside it overflows plotly.js's stack).
 * @param {PlotRoot} root
 * @param {PlotlyObject} ev
 */
function boxSelected(root, ev) {
  const ids = pointIds(ev && ev.points), tool = currentTool(), shift = canvasState(root).shiftGesture;
  if (!ids.length) { setTimeout(() => clearBoxSelection(root), 0); return; }
  setTimeout(() => {
    Promise.resolve(clearBoxSelection(root)).finally(() => {  // the next box starts fresh
      if (tool === 'select') select(root, ids, shift);
      else if (tool === 'erase') send(root, {type: 'remove', ids: ids});
    });
  }, 0);
}

/**
 * plotly's events on the plot (the component's function runs on every data change; handlers are
 * bound once).
 * @param {PlotRoot} root
 */
function bindPlotlyEvents(root) {
  const state = canvasState(root);
  root.on('plotly_selected', (ev) => boxSelected(root, ev));
  root.on('plotly_afterplot', () => {
    state.drawn += 1;
    if (state.drag && root._fullLayout) delete root._fullLayout._rehover;  // no hover work per update
    placeDragged(root);
    markSelection(root);
  });
  root.on('plotly_relayout', (ev) => {
    if (state.zooming) return;  // reported by settleView
    const keys = Object.keys(ev || {});
    if (!keys.some(k => k.startsWith('xaxis.range') || k.startsWith('yaxis.range') || k.endsWith('autorange'))) return;
    sendView(root);
  });
  root.addEventListener('mousedown', (e) => { state.shiftGesture = e.shiftKey; }, true);
}

/**
 * The plot's own listeners: presses (capture phase, so a press the canvas takes never reaches
 * plotly's drag layer), the grab cursor over a point, touch and the wheel.
 * @param {PlotRoot} root
 */
function bindPlotPresses(root) {
  const state = canvasState(root);
  root.addEventListener('mousedown', (e) => {
    if (e.button !== 0 || (e.target instanceof Element && e.target.closest('.modebar'))) return;
    if (pressStart(root, e, false)) { e.stopPropagation(); e.preventDefault(); }
  }, true);
  root.addEventListener('mousemove', (e) => {
    // A grab cursor over a point says it can be dragged (checked once a frame).
    if (state.hoverFrame || canvasPage.pressRoot) return;
    state.hoverFrame = requestAnimationFrame(() => {
      state.hoverFrame = 0;
      root.classList.toggle('pg-over-point', pointAt(root, e.clientX, e.clientY) !== null);
    });
  });
  root.addEventListener('touchstart', (e) => touchStart(root, e), {capture: true, passive: false});
  root.addEventListener('wheel', (e) => wheel(root, e), {capture: true, passive: false});
}

/** What a press that began on a plot does when the pointer leaves it: the window hears (once per page). */
function bindWindowPresses() {
  if (canvasPage.pressBound) return;
  canvasPage.pressBound = true;
  window.addEventListener('mousemove', (e) => {
    const root = canvasPage.pressRoot;
    if (root && pressMove(root, e)) { e.stopPropagation(); e.preventDefault(); }
  }, true);
  window.addEventListener('mouseup', (e) => {
    const root = canvasPage.pressRoot;
    if (root && pressEnd(root, e)) e.stopPropagation();
  }, true);
  window.addEventListener('touchmove', (e) => touchMove(e), {capture: true, passive: false});
  window.addEventListener('touchend', (e) => touchEnd(e), {capture: true, passive: false});
  window.addEventListener('touchcancel', () => {
    const root = canvasPage.pressRoot;
    if (root) { canvasState(root).press = null; canvasPage.pressRoot = null; }
  }, true);
}

/**
 * Bind the plot's input, once per plot.
 * @param {PlotRoot} root
 */
export function bindInput(root) {
  bindPlotlyEvents(root);
  bindPlotPresses(root);
  bindWindowPresses();
}
