// The canvas's gestures: tools, clicks and presses (this file); touch, the wheel, plotly's own
// events and the keys (canvas_touch_wheel_keys.js); a drag of points and the live route
// (canvas_drag_live.js). Each is an ES module importing what it uses from the others (served as
// files by ui/plot/browser_modules.py); the rules below hold for all of them.
//
// Rules that must hold (a lecturer in front of a class relies on them):
// - A gesture does what its tool says, nothing else. add (the default): every click adds a point
//   exactly where the pointer was pressed, on empty space or on a marker (a dense cluster is built
//   by clicking among its points); Alt/⌥-click on a point erases it instead; a press on a point that
//   travels moves it. move: drag points (empty space pans).
//   erase: a click on a point, or a box / lasso, removes. select: a click or a box / lasso selects,
//   a selected point drags the whole selection, Delete erases it.
// - Every click lands: coordinates come from the pointer event itself (never plotly's throttled
//   hover), edits are queued page-wide in order with increasing nonces and re-sent until the
//   session acknowledges them (``send``), never dropped or merged. Two quick clicks at one spot
//   (a double-click, a cluster built fast) are two clicks: the add tool adds both points. The view
//   is fitted by ⌂ in plotly's toolbar, the sidebar's Fit view and the key F, never by a click.
// - The wheel scrolls the page; Ctrl/⌘ + wheel (and a trackpad's pinch) zooms about the pointer;
//   on a touch screen one finger scrolls the page in the add tool (a tap adds), two fingers pan
//   and zoom.
// - A drag is drawn in the browser: the points follow the pointer every frame, and the regions and
//   boundary come from the live route (ui/server/live_route.py, no Streamlit rerun), one request in flight
//   at a time, the latest position always asked for next. The session hears of the drag once, at
//   the release (one undo step). Without the route the drag still commits, and a line says so.
import { placeDragged, requestLive, select, showAdded, startDrag } from './canvas_drag_live.js';
import { keyRoot, touchEnd, touchMove, touchStart, wheel } from './canvas_touch_wheel_keys.js';

const DRAG_SLOP = 4;  // px: a press that moves less is a click
const TAP_SLOP = 10;  // px: a touch that moves less is a tap
const HIT_SLACK = 3;  // px beyond a marker's radius that still press it
const ERASE_SLACK = 6;  // px: the erase tool is a little more generous
const TOOLS = ['add', 'move', 'erase', 'select'];
export const TOOL_KEYS = {a: 'add', m: 'move', e: 'erase', s: 'select'};
export const DRAGMODES = {add: 'zoom', move: 'pan', erase: 'select', select: 'select'};  // each tool's own
// What a drag on empty space may do in each tool (plotly's toolbar picks among these).
export const TOOL_DRAGMODES = {add: ['zoom', 'pan'], move: ['pan', 'zoom'], erase: ['select', 'lasso'], select: ['select', 'lasso']};
export const VIEW_SETTLE_MS = 350;  // a wheel or pinch zoom is reported once the hand has stopped
export const WHEEL_HINT_MS = 1600;

export function currentTool() {
  if (!window.__pgTool) {
    let saved;
    try { saved = window.sessionStorage.getItem('pg-tool'); } catch (err) { saved = null; }  // private mode
    window.__pgTool = TOOLS.includes(saved) ? saved : 'add';
  }
  return window.__pgTool;
}

export function pointIds(points) {
  // Only markers of the data-point traces carry an index in customdata.
  return (points || []).filter(p => p.data && p.data.meta === 'points' && p.customdata >= 0).map(p => p.customdata);
}

export function plotArea(root) {
  // The room inside the margins, which the equal-scale plot area fits into (at the canvas's full
  // height, should it have shrunk to a wide window).
  const layout = root._fullLayout, size = layout && layout._size;
  if (!size) return null;
  return [Math.round(size.w), Math.round(size.h + Math.max(0, (root.__pgRoom || 0) - layout.height))];
}

export function send(root, event) {
  // Two triggers in one tick overwrite each other, so every send carries all events Python
  // has not acknowledged yet. Nonce and queue are page-wide: a re-created canvas (or another
  // canvas of the comparison) sends the edits still on their way too, in the order they were made.
  window.__pgNonce = Math.max(window.__pgNonce || 0, window.__pgAck || 0) + 1;
  event.nonce = window.__pgNonce;
  // A removal or move names points by their place in the set this canvas shows: Python checks that set.
  if (['remove', 'remove_centre'].includes(event.type)) event.revision = root.dataset.revision;
  const area = plotArea(root);
  if (area) event.area = area;  // a fit of the view can match the plot's shape
  // The scene this drawing shows (its load's number): a view or a plot area from the scene
  // before a load (a figure press on its way meanwhile) is not the new scene's.
  event.load = root.__pgData ? root.__pgData.load || 0 : 0;
  let queue = window.__pgQueue || [];
  if (event.type === 'view') queue = queue.filter(e => e.type !== 'view');
  window.__pgQueue = queue.concat([event]);
  root.dataset.lastSent = event.type + ' ' + event.nonce;  // what the browser tests see leave at once
  root.dataset.sent = String(Number(root.dataset.sent || 0) + 1);
  if (event.type === 'add') showAdded(root, event);
  if (['add', 'remove'].includes(event.type) && liveAvailable(root)) {
    // The live route answers first: the session's rerun, started at once, would hold the server
    // (and Python's lock) while the route computes. The click is in the queue; it is committed
    // once its live figure is drawn, or after COMMIT_WAIT_MS at the latest.
    requestLive(root);
    if (!root.__pgCommitTimer) root.__pgCommitTimer = setTimeout(() => commit(root), COMMIT_WAIT_MS);
  } else {
    commit(root);
  }
  return event.nonce;
}

const COMMIT_WAIT_MS = 80;  // the longest a click's commit waits for its live figure

export function commit(root) {
  // Send the session every event not yet acknowledged (each is applied once, in order), through
  // this canvas or, should a rerun have re-created it meanwhile, the one that took its place.
  clearTimeout(root.__pgCommitTimer);
  root.__pgCommitTimer = 0;
  const target = root.isConnected ? root : keyRoot();
  if (target) target.__pgSend('events', window.__pgQueue);
}

export function liveAvailable(root) {
  return !!(root.__pgData && root.__pgData.live) && !root.__pgLiveOff && !root.__pgDrag;
}

// ---- Where the pointer is -----------------------------------------------------------------

export function plotPixel(root, clientX, clientY) {
  // Client coordinates -> pixels within the plot area (the axes' own pixel frame).
  const layout = root._fullLayout, box = root.getBoundingClientRect();
  return [clientX - box.left - layout.xaxis._offset, clientY - box.top - layout.yaxis._offset];
}

export function inPlotArea(root, clientX, clientY) {
  const layout = root._fullLayout;
  if (!layout || !layout.xaxis || !layout.xaxis.l2p) return false;
  const [px, py] = plotPixel(root, clientX, clientY);
  return px >= 0 && py >= 0 && px <= layout.xaxis._length && py <= layout.yaxis._length;
}

export function toData(root, clientX, clientY) {
  const layout = root._fullLayout, [px, py] = plotPixel(root, clientX, clientY);
  return [layout.xaxis.p2l(px), layout.yaxis.p2l(py)];
}

export function shownPoints(root, meta) {
  // id -> [x, y, marker size] of the markers of traces with this meta (visible ones only).
  const shown = new Map();
  (root._fullData || []).forEach((trace) => {
    if (trace.meta !== (meta || 'points') || trace.visible !== true || !trace.customdata) return;
    const size = (trace.marker && trace.marker.size) || 10;
    for (let i = 0; i < trace._length; i++) {
      const id = trace.customdata[i];
      if (id >= 0) shown.set(id, [trace.x[i], trace.y[i], typeof size === 'number' ? size : 10]);
    }
  });
  return shown;
}

function markerAt(root, clientX, clientY, meta, slack) {
  // The id of the marker under the pointer (the nearest one within its radius + slack), or null.
  if (!inPlotArea(root, clientX, clientY)) return null;
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis, [px, py] = plotPixel(root, clientX, clientY);
  let best = null, bestDistance = Infinity;
  shownPoints(root, meta).forEach(([x, y, size], id) => {
    const distance = Math.hypot(xa.l2p(x) - px, ya.l2p(y) - py);
    if (distance <= size / 2 + slack && distance < bestDistance) { best = id; bestDistance = distance; }
  });
  return best;
}

function pointAt(root, clientX, clientY, slack) {
  return markerAt(root, clientX, clientY, 'points', slack === undefined ? HIT_SLACK : slack);
}

// ---- Tools ------------------------------------------------------------------------------------

export function setTool(tool) {
  if (!TOOLS.includes(tool)) return;
  window.__pgTool = tool;
  try { window.sessionStorage.setItem('pg-tool', tool); } catch (err) { /* private mode: not kept */ }
  /** @type {NodeListOf<PlotRoot>} */ (document.querySelectorAll('.pg-canvas')).forEach((root) => { if (root.__pgData) applyTool(root); });
}

export function applyTool(root) {
  // The tool bar's state, the hint line, the cursor, plotly's drag mode and what a finger does.
  const tool = currentTool(), texts = root.__pgData.texts;
  const bar = root.__pgToolbar;
  if (bar) {
    bar.querySelectorAll('button[data-tool]').forEach((b) => b.setAttribute('aria-pressed', String(b.dataset.tool === tool)));
    const hint = bar.querySelector('.pg-hint');
    const touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
    // While clicks switch points between training and test, add and erase switch them (the session decides).
    const switching = root.__pgData.click_switches && (tool === 'add' || tool === 'erase');
    const key = switching ? 'hint_switch' : 'hint_' + tool + (touch && tool === 'add' ? '_touch' : '');
    if (hint && !root.__pgLiveLine) hint.textContent = texts[key] || '';
  }
  root.dataset.tool = tool;
  // One finger scrolls the page in the add tool (a tap still adds); the other tools need the finger.
  root.style.touchAction = tool === 'add' ? 'pan-y' : 'none';
  if (root._fullLayout && window.Plotly && root.__pgToolDrawn !== tool) {
    root.__pgToolDrawn = tool;
    window.Plotly.relayout(root, {dragmode: DRAGMODES[tool]});
  }
}

export function toolbar(root, parentElement, texts) {
  // A small bar above the plot (its height never changes, so the plot never moves under the pointer).
  let bar = parentElement.querySelector('.pg-tools');
  if (!bar) {
    bar = document.createElement('div');
    bar.className = 'pg-tools';
    bar.setAttribute('role', 'toolbar');
    TOOLS.forEach((tool) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.tool = tool;
      button.addEventListener('click', () => setTool(tool));
      bar.appendChild(button);
    });
    const hint = document.createElement('span');
    hint.className = 'pg-hint';
    hint.setAttribute('aria-live', 'polite');
    bar.appendChild(hint);
    parentElement.insertBefore(bar, parentElement.firstChild);
    parentElement.classList.add('pg-host');
  }
  bar.setAttribute('aria-label', texts.tools);
  bar.querySelectorAll('button[data-tool]').forEach((button) => {
    const tool = button.dataset.tool;
    button.textContent = texts['tool_' + tool];
    button.title = texts['tool_' + tool + '_help'];
  });
  root.__pgToolbar = bar;
  return bar;
}

export function liveLine(root, text) {
  // A line in the tool bar about live updates (off, or what a drag shows); null restores the hint.
  root.__pgLiveLine = text;
  const hint = root.__pgToolbar && root.__pgToolbar.querySelector('.pg-hint');
  if (hint) hint.textContent = text || '';
  if (!text) applyTool(root);
}

// ---- Clicks -------------------------------------------------------------------------------------

function click(root, press) {
  // A press that did not travel: what it does depends on the tool (see the rules above), however
  // soon after the last click and however near it.
  const tool = currentTool();
  const centre = markerAt(root, press.clientX, press.clientY, 'centres', ERASE_SLACK);
  if (tool === 'erase') {
    const id = pointAt(root, press.clientX, press.clientY, ERASE_SLACK);
    if (id !== null) send(root, {type: 'remove', ids: [id]});
    else if (centre !== null) send(root, {type: 'remove_centre', ids: [centre]});
  } else if (tool === 'select') {
    if (press.id !== null) select(root, [press.id], press.shiftKey);
    else if (root.__pgSelection) select(root, [], false);
  } else if (tool === 'add') {
    if (press.id !== null && (press.altKey || root.__pgData.click_switches)) {
      send(root, {type: 'remove', ids: [press.id]});  // switch mode: the session switches it
    } else if (press.id === null && press.altKey && centre !== null) {
      send(root, {type: 'remove_centre', ids: [centre]});
    } else {
      send(root, {type: 'add', x: press.start[0], y: press.start[1]});
    }
  }
}

// ---- Presses: mouse and touch alike --------------------------------------------------------------

export function pressStart(root, at, touch) {
  // A press in the plot area. Returns true when the canvas takes the gesture from plotly.
  if (root.__pgDrag || !inPlotArea(root, at.clientX, at.clientY)) return false;
  const tool = currentTool();
  const id = pointAt(root, at.clientX, at.clientY, tool === 'erase' ? ERASE_SLACK : HIT_SLACK);
  const selection = root.__pgSelection;
  root.__pgPress = {
    id: id, x: at.clientX, y: at.clientY, clientX: at.clientX, clientY: at.clientY, touch: touch,
    altKey: at.altKey, shiftKey: at.shiftKey, start: toData(root, at.clientX, at.clientY),
    revision: root.dataset.revision,
    ids: id !== null && selection && selection.ids.includes(id) ? selection.ids.slice() : (id !== null ? [id] : []),
    // A press that travels drags points (add and move: the pressed one; select: a selected one) or
    // is plotly's (zoom box, pan, box / lasso), except a touch in the add tool, which scrolls.
    drags: id !== null && (tool === 'add' || tool === 'move' || (tool === 'select' && selection && selection.ids.includes(id))),
  };
  window.__pgPressRoot = root;
  // The canvas keeps presses on points, and every touch in the add tool (the page scrolls it).
  return id !== null || (touch && tool === 'add');
}

export function pressMove(root, at) {
  const press = root.__pgPress;
  if (!press) return false;
  const travel = Math.hypot(at.clientX - press.x, at.clientY - press.y);
  if (!root.__pgDrag) {
    if (travel < (press.touch ? TAP_SLOP : DRAG_SLOP)) return press.id !== null;
    if (!press.drags) {
      press.travelled = true;  // plotly's gesture (or the page's scroll), not a click
      return false;
    }
    startDrag(root, press);
  }
  const drag = root.__pgDrag, now = toData(root, at.clientX, at.clientY);
  drag.offset = [now[0] - press.start[0], now[1] - press.start[1]];
  drag.pixels = [at.clientX - press.x, at.clientY - press.y];
  if (!drag.frame) drag.frame = requestAnimationFrame(() => { drag.frame = 0; placeDragged(root); });
  requestLive(root);
  return true;
}

export function pressEnd(root, at) {
  const press = root.__pgPress;
  window.__pgPressRoot = null;
  root.__pgPress = null;
  if (!press) return false;
  const drag = root.__pgDrag;
  if (!drag) {
    if (!press.travelled) click(root, press);
    return press.id !== null;
  }
  const now = toData(root, at.clientX, at.clientY);
  drag.offset = [now[0] - press.start[0], now[1] - press.start[1]];
  drag.pixels = [at.clientX - press.x, at.clientY - press.y];
  drag.released = true;
  placeDragged(root);
  drag.finalNonce = send(root, {
    type: 'move', drag: drag.id, revision: drag.revision, ids: drag.ids,
    dx: drag.offset[0], dy: drag.offset[1], final: true,
  });
  return true;
}

export function bindPresses(root) {
  // Capture phase on the canvas: a press the canvas takes never reaches plotly's drag layer.
  root.addEventListener('mousedown', (e) => {
    if (e.button !== 0 || e.target.closest('.modebar')) return;
    if (pressStart(root, e, false)) { e.stopPropagation(); e.preventDefault(); }
  }, true);
  root.addEventListener('mousemove', (e) => {
    // A grab cursor over a point says it can be dragged (checked once a frame).
    if (root.__pgHoverFrame || window.__pgPressRoot) return;
    root.__pgHoverFrame = requestAnimationFrame(() => {
      root.__pgHoverFrame = 0;
      root.classList.toggle('pg-over-point', pointAt(root, e.clientX, e.clientY) !== null);
    });
  });
  root.addEventListener('touchstart', (e) => touchStart(root, e), {capture: true, passive: false});
  root.addEventListener('wheel', (e) => wheel(root, e), {capture: true, passive: false});
  if (window.__pgPressBound) return;
  window.__pgPressBound = true;
  window.addEventListener('mousemove', (e) => {
    const root = window.__pgPressRoot;
    if (root && pressMove(root, e)) { e.stopPropagation(); e.preventDefault(); }
  }, true);
  window.addEventListener('mouseup', (e) => {
    const root = window.__pgPressRoot;
    if (root && pressEnd(root, e)) e.stopPropagation();
  }, true);
  window.addEventListener('touchmove', (e) => touchMove(e), {capture: true, passive: false});
  window.addEventListener('touchend', (e) => touchEnd(e), {capture: true, passive: false});
  window.addEventListener('touchcancel', () => {
    const root = window.__pgPressRoot;
    if (root) { root.__pgPress = null; window.__pgPressRoot = null; }
  }, true);
}

