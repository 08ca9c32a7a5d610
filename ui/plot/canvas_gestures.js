// The canvas's gestures: tools, clicks, drags, the wheel, touch, and the live route.
//
// Rules that must hold (a lecturer in front of a class relies on them):
// - A gesture does what its tool says, nothing else. add (the default): a click on empty space adds
//   a point exactly where the pointer was pressed; a click on a point does nothing (Alt/⌥-click
//   erases it); a press on a point that travels moves it. move: drag points (empty space pans).
//   erase: a click on a point, or a box / lasso, removes. select: a click or a box / lasso selects,
//   a selected point drags the whole selection, Delete erases it.
// - Every click lands: coordinates come from the pointer event itself (never plotly's throttled
//   hover), edits are queued page-wide in order with increasing nonces and re-sent until the
//   session acknowledges them (``send``), never dropped or merged.
// - The wheel scrolls the page; Ctrl/⌘ + wheel (and a trackpad's pinch) zooms about the pointer;
//   on a touch screen one finger scrolls the page in the add tool (a tap adds), two fingers pan
//   and zoom.
// - A drag is drawn in the browser: the points follow the pointer every frame, and the regions and
//   boundary come from the live route (ui/server/live_route.py, no Streamlit rerun), one request in flight
//   at a time, the latest position always asked for next. The session hears of the drag once, at
//   the release (one undo step). Without the route the drag still commits, and a line says so.

const DOUBLE_CLICK_SLOP = 8;  // px: two clicks further apart are two clicks, however quick
const DOUBLE_CLICK_MS = 500;  // the longest double-click interval systems allow by default
const DRAG_SLOP = 4;  // px: a press that moves less is a click
const TAP_SLOP = 10;  // px: a touch that moves less is a tap
const HIT_SLACK = 3;  // px beyond a marker's radius that still press it
const ERASE_SLACK = 6;  // px: the erase tool is a little more generous
const TOOLS = ['add', 'move', 'erase', 'select'];
const TOOL_KEYS = {a: 'add', m: 'move', e: 'erase', s: 'select'};
const DRAGMODES = {add: 'zoom', move: 'pan', erase: 'select', select: 'select'};  // each tool's own
// What a drag on empty space may do in each tool (plotly's toolbar picks among these).
const TOOL_DRAGMODES = {add: ['zoom', 'pan'], move: ['pan', 'zoom'], erase: ['select', 'lasso'], select: ['select', 'lasso']};
const VIEW_SETTLE_MS = 350;  // a wheel or pinch zoom is reported once the hand has stopped
const WHEEL_HINT_MS = 1600;

function currentTool() {
  if (!window.__pgTool) {
    let saved = null;
    try { saved = window.sessionStorage.getItem('pg-tool'); } catch (err) { saved = null; }
    window.__pgTool = TOOLS.includes(saved) ? saved : 'add';
  }
  return window.__pgTool;
}

function pointIds(points) {
  // Only markers of the data-point traces carry an index in customdata.
  return (points || []).filter(p => p.data && p.data.meta === 'points' && p.customdata >= 0).map(p => p.customdata);
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
  window.__pgNonce = Math.max(window.__pgNonce || 0, window.__pgAck || 0) + 1;
  event.nonce = window.__pgNonce;
  // A removal or move names points by their place in the set this canvas shows: Python checks that set.
  if (['remove', 'remove_centre'].includes(event.type)) event.revision = root.dataset.revision;
  const area = plotArea(root);
  if (area) event.area = area;  // a fit of the view can match the plot's shape
  let queue = window.__pgQueue || [];
  if (event.type === 'view') queue = queue.filter(e => e.type !== 'view');
  window.__pgQueue = queue.concat([event]);
  root.dataset.lastSent = event.type + ' ' + event.nonce;  // what the browser tests see leave at once
  root.dataset.sent = String(Number(root.dataset.sent || 0) + 1);
  if (event.type === 'add' || event.type === 'retract') showAdded(root, event);
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

function commit(root) {
  // Send the session every event not yet acknowledged (each is applied once, in order), through
  // this canvas or, should a rerun have re-created it meanwhile, the one that took its place.
  clearTimeout(root.__pgCommitTimer);
  root.__pgCommitTimer = 0;
  const target = root.isConnected ? root : keyRoot();
  if (target) target.__pgSend('events', window.__pgQueue);
}

function liveAvailable(root) {
  return !!(root.__pgData && root.__pgData.live) && !root.__pgLiveOff && !root.__pgDrag;
}

// ---- Where the pointer is -----------------------------------------------------------------

function plotPixel(root, clientX, clientY) {
  // Client coordinates -> pixels within the plot area (the axes' own pixel frame).
  const layout = root._fullLayout, box = root.getBoundingClientRect();
  return [clientX - box.left - layout.xaxis._offset, clientY - box.top - layout.yaxis._offset];
}

function inPlotArea(root, clientX, clientY) {
  const layout = root._fullLayout;
  if (!layout || !layout.xaxis || !layout.xaxis.l2p) return false;
  const [px, py] = plotPixel(root, clientX, clientY);
  return px >= 0 && py >= 0 && px <= layout.xaxis._length && py <= layout.yaxis._length;
}

function toData(root, clientX, clientY) {
  const layout = root._fullLayout, [px, py] = plotPixel(root, clientX, clientY);
  return [layout.xaxis.p2l(px), layout.yaxis.p2l(py)];
}

function shownPoints(root, meta) {
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

function setTool(tool) {
  if (!TOOLS.includes(tool)) return;
  window.__pgTool = tool;
  document.querySelectorAll('.pg-canvas').forEach((root) => { root.__pgLastClick = null; });  // no double-click across tools
  try { window.sessionStorage.setItem('pg-tool', tool); } catch (err) { /* private mode: not kept */ }
  document.querySelectorAll('.pg-canvas').forEach((root) => { if (root.__pgData) applyTool(root); });
}

function applyTool(root) {
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

function toolbar(root, parentElement, texts) {
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

function liveLine(root, text) {
  // A line in the tool bar about live updates (off, or what a drag shows); null restores the hint.
  root.__pgLiveLine = text;
  const hint = root.__pgToolbar && root.__pgToolbar.querySelector('.pg-hint');
  if (hint) hint.textContent = text || '';
  if (!text) applyTool(root);
}

// ---- Clicks -------------------------------------------------------------------------------------

function clickStart(root, at) {
  // A double-click only fits the view. Its first click's edit was sent at once (no waiting for a
  // second click), so the second click takes it back, in the same undo step. Returns the click's
  // record (its edit's nonce to be filled in), or null when it completed a double-click.
  const now = performance.now();
  const here = {x: at.clientX, y: at.clientY, t: now, nonce: null};
  const last = root.__pgLastClick;
  if (last && now - last.t < DOUBLE_CLICK_MS && Math.hypot(here.x - last.x, here.y - last.y) <= DOUBLE_CLICK_SLOP) {
    root.__pgLastClick = null;
    if (last.nonce !== null) send(root, {type: 'retract', of: last.nonce});
    send(root, {type: 'fit'});
    return null;
  }
  root.__pgLastClick = here;
  return here;
}

function click(root, press) {
  // A press that did not travel: what it does depends on the tool (see the rules above).
  const tool = currentTool(), here = clickStart(root, press);
  if (!here) return;
  const centre = markerAt(root, press.clientX, press.clientY, 'centres', ERASE_SLACK);
  if (tool === 'erase') {
    const id = pointAt(root, press.clientX, press.clientY, ERASE_SLACK);
    if (id !== null) here.nonce = send(root, {type: 'remove', ids: [id]});
    else if (centre !== null) here.nonce = send(root, {type: 'remove_centre', ids: [centre]});
  } else if (tool === 'select') {
    if (press.id !== null) select(root, [press.id], press.shiftKey);
    else if (root.__pgSelection) select(root, [], false);
  } else if (tool === 'add') {
    if (press.id !== null && (press.altKey || root.__pgData.click_switches)) {
      here.nonce = send(root, {type: 'remove', ids: [press.id]});  // switch mode: the session switches it
    } else if (press.id === null && press.altKey && centre !== null) {
      here.nonce = send(root, {type: 'remove_centre', ids: [centre]});
    } else if (press.id === null) {
      here.nonce = send(root, {type: 'add', x: press.start[0], y: press.start[1]});
    }
  }
}

// ---- Presses: mouse and touch alike --------------------------------------------------------------

function pressStart(root, at, touch) {
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

function pressMove(root, at) {
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

function pressEnd(root, at) {
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

function bindPresses(root) {
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

// ---- Touch: taps, one-finger scrolling, two-finger pan and zoom ----------------------------------

function touchStart(root, e) {
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

function touchMove(e) {
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

function touchEnd(e) {
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
    // the same spot would be a second one, i.e. a double-click (the point taken back, the view fitted).
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

function wheel(root, e) {
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

function bind(root) {
  // The component's function runs on every data change; handlers are bound once.
  root.on('plotly_selected', (ev) => {
    // plotly reports an empty selection as a box starts (and again when its outline is cleared):
    // only a selection with points does something. It is handled after plotly's own handling of
    // the gesture (a redraw from inside it overflows plotly.js's stack).
    const ids = pointIds(ev && ev.points), tool = currentTool(), shift = !!root.__pgShiftGesture;
    if (!ids.length) return;
    setTimeout(() => {
      Promise.resolve(Plotly.relayout(root, {selections: []})).finally(() => {  // the next box starts fresh
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

// ---- Dragging points --------------------------------------------------------------------------

function markerNodes(root, ids) {
  // id -> the SVG marker node drawing that point (plotly binds each node to its calcdata entry).
  const nodes = new Map(), wanted = new Set(ids);
  root.querySelectorAll('.scatterlayer .trace').forEach((group) => {
    const cd = group.__data__, trace = cd && cd[0] && cd[0].trace;
    if (!trace || trace.meta !== 'points' || !trace.customdata) return;
    const index = new Map(cd.map((entry, i) => [entry, i]));
    group.querySelectorAll('path.point').forEach((node) => {
      const i = index.get(node.__data__);
      if (i !== undefined && wanted.has(trace.customdata[i])) nodes.set(trace.customdata[i], node);
    });
  });
  return nodes;
}

function dragLayer(root, drag) {
  // The dragged markers, copied into a layer of their own above the plot, the originals hidden:
  // moving the layer each frame is a compositor transform, not a repaint of the whole plot.
  if (drag.layer && drag.layer.isConnected) return drag.layer;
  const main = root.querySelector('.main-svg'), layout = root._fullLayout;
  if (!main || !main.parentNode || !layout) return null;
  const ns = 'http://www.w3.org/2000/svg', layer = document.createElementNS(ns, 'svg');
  layer.setAttribute('class', 'pg-drag-layer');
  layer.setAttribute('width', main.getAttribute('width'));
  layer.setAttribute('height', main.getAttribute('height'));
  const group = document.createElementNS(ns, 'g');
  group.setAttribute('transform', `translate(${layout.xaxis._offset},${layout.yaxis._offset})`);
  markerNodes(root, drag.ids).forEach((node, id) => {
    const from = drag.from.get(id), copy = node.cloneNode(true);
    if (!from) return;
    copy.setAttribute('transform', `translate(${layout.xaxis.l2p(from[0])},${layout.yaxis.l2p(from[1])})`);
    copy.style.visibility = 'visible';
    group.appendChild(copy);
  });
  layer.appendChild(group);
  main.parentNode.appendChild(layer);
  drag.layer = layer;
  return layer;
}

function hideDragged(root, drag, hidden) {
  markerNodes(root, drag.ids).forEach((node) => { node.style.visibility = hidden ? 'hidden' : ''; });
}

function placeDragged(root) {
  // Draw the dragged points where the pointer has taken them (once per frame, and after each draw).
  const drag = root.__pgDrag;
  if (!drag || !root._fullLayout) return;
  if (drag.hiddenFor !== root.__pgDrawn) {
    hideDragged(root, drag, true);
    drag.hiddenFor = root.__pgDrawn;
  }
  const layer = dragLayer(root, drag);
  if (layer) layer.style.transform = `translate(${drag.pixels[0]}px, ${drag.pixels[1]}px)`;
  root.dataset.dragAt = `${drag.offset[0]} ${drag.offset[1]}`;
}

function endDrag(root, drag) {
  root.__pgDrag = null;
  if (drag.layer) drag.layer.remove();
  hideDragged(root, drag, false);
  root.dataset.dragging = '';
  root.classList.remove('pg-dragging');
  document.querySelectorAll('[role="status"]').forEach((el) => el.classList.remove('pg-stale'));
  // The session's figure is on screen: the next gesture tries the live route afresh.
  root.__pgLiveOff = false;
  root.dataset.liveOff = '';
  if (root.__pgLiveLine) liveLine(root, null);
}

function markSelection(root) {
  // Selected points wear a heavy dark rim; a selection whose points were changed by anything but
  // its own drag (undo, a removal, a new scene) is dropped.
  const selection = root.__pgSelection;
  if (!selection) { root.dataset.selected = '0'; return; }
  if (!root.__pgDrag) {
    const shown = shownPoints(root);
    const same = selection.ids.every((id) => {
      const now = shown.get(id), then = selection.at.get(id);
      return now && then && now[0] === then[0] && now[1] === then[1];
    });
    if (!same) { root.__pgSelection = null; root.dataset.selected = '0'; return; }
  }
  markerNodes(root, selection.ids).forEach((node) => {
    node.style.stroke = '#111';
    node.style.strokeWidth = '3px';
    node.style.strokeOpacity = '1';
  });
  root.dataset.selected = String(selection.ids.length);
}

function select(root, ids, add) {
  const shown = shownPoints(root), previous = add && root.__pgSelection ? root.__pgSelection.ids : [];
  const all = Array.from(new Set(previous.concat(ids))).filter((id) => shown.has(id));
  root.__pgSelection = all.length ? {ids: all, at: new Map(all.map((id) => [id, shown.get(id)]))} : null;
  return draw(root, window.Plotly);  // a fresh draw clears the old rims; markSelection draws the new ones
}

function startDrag(root, press) {
  const shown = shownPoints(root);
  window.__pgDragCount = (window.__pgDragCount || 0) + 1;
  root.__pgDrag = {
    id: `${Date.now()}-${window.__pgDragCount}`, ids: press.ids, revision: press.revision,
    from: new Map(press.ids.map((id) => [id, shown.get(id)])), offset: [0, 0], pixels: [0, 0],
  };
  root.__pgLastClick = null;  // a drag is no half of a double-click
  root.dataset.dragging = '1';
  root.classList.add('pg-dragging');  // no hover label follows
  root.dataset.dragUpdates = '0';
  root.dataset.liveAsked = '0';
  document.querySelectorAll('[role="status"]').forEach((el) => el.classList.add('pg-stale'));
  if (window.Plotly && window.Plotly.Fx) window.Plotly.Fx.unhover(root);
  if (root._fullLayout) delete root._fullLayout._rehover;
}

function dragAfterDraw(root, data) {
  // After a figure from the session is drawn: the drag ends once its final move is on screen.
  const drag = root.__pgDrag;
  if (!drag || !drag.finalNonce || (data.ack || 0) < drag.finalNonce) return;
  endDrag(root, drag);
  if (root.__pgSelection && drag.ids.length > 1) {
    const shown = shownPoints(root);  // the selection moved with the drag: it stays selected
    root.__pgSelection.at = new Map(root.__pgSelection.ids.map((id) => [id, shown.get(id)]));
  }
  markSelection(root);
}

// ---- The live route ---------------------------------------------------------------------------

function pendingEdits(root) {
  // The edits made on the scene this canvas shows and not yet in it, in order (the live route's
  // request), or null when one of them refers to another drawing (then the session's figure is
  // awaited rather than a guess drawn).
  const ack = window.__pgAck || 0, revision = root.dataset.revision, edits = [];
  for (const e of window.__pgQueue || []) {
    if (e.nonce <= ack) continue;
    if (e.type === 'add') edits.push({type: 'add', x: e.x, y: e.y});
    else if (e.type === 'remove') {
      if (e.revision !== revision) return null;
      edits.push({type: 'remove', ids: e.ids});
    } else if (e.type === 'move') {
      if (e.revision !== revision) return null;
      edits.push({type: 'move', ids: e.ids, dx: e.dx, dy: e.dy});
    } else if (e.type === 'retract') {
      return null;
    }
  }
  const drag = root.__pgDrag;
  if (drag && !drag.released) {
    if (drag.revision !== revision) return null;
    edits.push({type: 'move', ids: drag.ids, dx: drag.offset[0], dy: drag.offset[1]});
  }
  return edits;
}

function requestLive(root) {
  // One request in flight per canvas; a newer state asked for meanwhile is sent when it answers.
  const live = root.__pgData && root.__pgData.live;
  if (!live || root.__pgLiveOff) return;
  if (root.__pgLiveBusy) { root.__pgLiveAgain = true; return; }
  const edits = pendingEdits(root);
  if (!edits || !edits.length) return;
  const key = JSON.stringify(edits);
  if (key === root.__pgLiveKey) return;
  root.__pgLiveBusy = true;
  root.__pgLiveAgain = false;
  const revision = root.dataset.revision;
  const body = JSON.stringify({
    scene: live.scene, edits: edits, add_as: live.add_as, add_test: live.add_test, scale: live.scale,
    language: live.language, painted: live.painted, client: live.client,
  });
  root.dataset.liveAsked = String(Number(root.dataset.liveAsked || 0) + 1);
  const asked = performance.now();
  fetch(new URL(live.url, document.baseURI).href, {method: 'POST', body: body, headers: {'Content-Type': 'application/json'}})
    .then((response) => response.json().then((answer) => [response.status, answer]))
    .then(([status, answer]) => {
      if (status === 200 && answer.figure && root.dataset.revision === revision) {
        root.__pgLiveKey = key;
        root.dataset.liveMs = (performance.now() - asked).toFixed(1);
        // Not awaited: the next request overlaps this draw (draws coalesce); a click waiting for its
        // live figure is committed once it is drawn.
        drawLive(root, answer).then(() => { if (root.__pgCommitTimer) commit(root); });
        return null;
      }
      if (status === 429) return null;  // busy for a moment: the next move asks again
      if (status !== 200 && answer && answer.error && status !== 422) liveOff(root, answer.error);
      return null;
    })
    .catch((err) => liveOff(root, err.message))
    .finally(() => {
      root.__pgLiveBusy = false;
      if (root.__pgLiveAgain) requestLive(root);
    });
}

function liveOff(root, reason) {
  // The gesture still commits when it ends; the line says why the plot does not follow meanwhile.
  root.__pgLiveOff = true;
  root.dataset.liveOff = '1';
  liveLine(root, fill(root.__pgData.texts.live_off, {reason: reason}));
}

function drawLive(root, answer) {
  // The live figure, with the panels' overlays of the last committed figure kept in their place.
  const committed = root.__pgFigure, figure = answer.figure;
  const [a, b] = (committed.compact && committed.compact.overlays) || [0, 0];
  const [c] = (figure.compact && figure.compact.overlays) || [figure.data.length];
  root.__pgLiveFigure = {
    data: figure.data.slice(0, c).concat(committed.data.slice(a, b), figure.data.slice(c)),
    layout: committed.layout, compact: committed.compact,
  };
  const status = answer.status, texts = root.__pgData.texts;
  if (root.__pgDrag && status && status.accuracy !== null) {
    liveLine(root, fill(texts.live_status, {accuracy: (100 * status.accuracy).toFixed(1) + '%', wrong: status.wrong}));
  }
  const drawn = () => {
    root.dataset.dragUpdates = String(Number(root.dataset.dragUpdates || 0) + 1);
    root.dataset.liveDrawn = String(Number(root.dataset.liveDrawn || 0) + 1);
  };
  // A drag's frame in place when it can be (ui/plot/canvas_patch.js), else with the points clicked
  // meanwhile (withAdded) through Plotly.react.
  if (root.__pgDrag && !root.__pgDrag.released && patchFrame(root, liveFrame(root))) return Promise.resolve().then(drawn);
  return drawAdded(root).then(drawn);
}

// ---- Pending points and keys ------------------------------------------------------------------

function withAdded(root, figure) {
  // Points clicked in and not yet in a figure from the server, drawn at once in the active class's
  // marker (the live route's figure, then the session's, draw them with the refit).
  const marker = root.__pgData && root.__pgData.new_point;
  const added = (root.__pgAdded || []).filter((p) => p.nonce > (window.__pgAck || 0));
  root.__pgAdded = added;
  if (!marker || !added.length) return figure;
  return {layout: figure.layout, data: figure.data.concat([{
    type: 'scatter', mode: 'markers', x: added.map((p) => p.x), y: added.map((p) => p.y), marker: marker,
    hoverinfo: 'skip', showlegend: false, meta: 'added',
  }])};
}

const ADDED_WAIT_MS = 40;  // a new point waits this long for its live figure before it is drawn alone

function showAdded(root, event) {
  if (event.type === 'retract') {
    root.__pgAdded = (root.__pgAdded || []).filter((p) => p.nonce !== event.of);
  } else {
    if (!root.__pgData || !root.__pgData.new_point) return;
    root.__pgAdded = (root.__pgAdded || []).concat([{nonce: event.nonce, x: event.x, y: event.y}]);
  }
  if (!root.__pgFigure || !window.Plotly) return;
  if (event.type === 'add' && liveAvailable(root)) {
    // The live figure, a few milliseconds away, draws the point with its boundary in one draw;
    // should it be late, the point is drawn alone meanwhile.
    if (!root.__pgAddedTimer) root.__pgAddedTimer = setTimeout(() => drawAdded(root), ADDED_WAIT_MS);
  } else {
    drawAdded(root);
  }
}

function drawAdded(root) {
  clearTimeout(root.__pgAddedTimer);
  root.__pgAddedTimer = 0;
  return draw(root, window.Plotly);
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

function keyRoot() {
  return [window.__pgKeyRoot].concat(Array.from(document.querySelectorAll('.pg-canvas')))
    .find(r => r && r.isConnected && r.__pgSend);
}

function bindKeys() {
  // Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo; A, M, E, S pick a tool; Delete erases the
  // selection; Esc clears it. Anywhere on the page but in a text field (which keeps its own keys).
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
    } else if ((key === 'delete' || key === 'backspace') && root.__pgSelection) {
      e.preventDefault();
      const ids = root.__pgSelection.ids;
      root.__pgSelection = null;
      send(root, {type: 'remove', ids: ids});
    } else if (key === 'escape') {
      document.querySelectorAll('.pg-canvas').forEach((r) => { if (r.__pgSelection) select(r, [], false); });
    }
  });
}
