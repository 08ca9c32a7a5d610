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
  if (event.type === 'move') queue = queue.filter(e => !(e.type === 'move' && e.drag === event.drag));
  window.__pgQueue = queue.concat([event]).slice(-100);
  root.__pgSend('events', window.__pgQueue);
  root.dataset.lastSent = event.type + ' ' + event.nonce;  // what the browser tests see leave at once
  if (event.type === 'add' || event.type === 'retract') showAdded(root, event);
  return event.nonce;
}

function clickStart(root, mouse) {
  // A double-click only fits the view. Its first click's edit was sent at once (no waiting for a
  // second click), so the second click takes it back, in the same undo step. Detected here in
  // every drag mode (plotly.js reports both clicks, and a double-click only in zoom mode), and
  // for presses on a point (taken from plotly, see bindDrag). Returns the click's record (its
  // edit's nonce to be filled in), or null when it completed a double-click.
  const now = performance.now();
  const here = {x: mouse.clientX, y: mouse.clientY, t: now, nonce: null};
  const last = root.__pgLastClick;
  const interval = Math.max(DOUBLE_CLICK_MS, root._context.doubleClickDelay || 0);
  if (last && now - last.t < interval && Math.hypot(here.x - last.x, here.y - last.y) <= DOUBLE_CLICK_SLOP) {
    root.__pgLastClick = null;
    if (last.nonce !== null) send(root, {type: 'retract', of: last.nonce});
    send(root, {type: 'fit'});
    return null;
  }
  root.__pgLastClick = here;
  return here;
}

function bind(root) {
  // The component's function runs on every data change; handlers are bound once.
  root.on('plotly_click', (ev) => {
    if (root.__pgSelecting) return;
    const here = clickStart(root, ev.event || {});
    if (!here) return;
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
    if (ids.length && root.__pgShiftGesture) select(root, ids, true);  // Shift: select to drag
    else if (ids.length) send(root, {type: 'remove', ids: ids});
  });
  root.on('plotly_afterplot', () => {
    root.__pgDrawn = (root.__pgDrawn || 0) + 1;
    if (root.__pgDrag && root._fullLayout) delete root._fullLayout._rehover;  // no hover work per update
    placeDragged(root);
    markSelection(root);
  });
  bindDrag(root);
  root.on('plotly_relayout', (ev) => {
    const keys = Object.keys(ev || {});
    if (!keys.some(k => k.startsWith('xaxis.range') || k.startsWith('yaxis.range') || k.endsWith('autorange'))) return;
    const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
    send(root, {type: 'view', x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1]});
  });
}

// ---- Dragging points (issue 16): pointer handling of its own, beside plotly's gestures ----------
// A press on a data point is taken from plotly (no zoom box or lasso starts); moved less than
// DRAG_SLOP it is a click (the point is removed, as before), further it drags: the point follows
// the pointer in every frame (its marker moved in the SVG), while moves go to the server one at
// a time (the next once the last is acknowledged: stale positions are never sent, the last always
// is) and the regions, boundary and status line follow. The release sends the final move, which
// the server records as one undo step. Shift + box/lasso selects points (instead of removing
// them); pressing one of them drags the whole selection.
const DRAG_SLOP = 4;  // px: a press that moves less is a click
const DRAG_MIN_INTERVAL_MS = 30;  // the least time between two moves sent while dragging
const HIT_SLACK = 3;  // px beyond a marker's radius that still press it

function plotPixel(root, clientX, clientY) {
  // Client coordinates -> pixels within the plot area (the axes' own pixel frame).
  const layout = root._fullLayout, box = root.getBoundingClientRect();
  return [clientX - box.left - layout.xaxis._offset, clientY - box.top - layout.yaxis._offset];
}

function toData(root, clientX, clientY) {
  const layout = root._fullLayout, [px, py] = plotPixel(root, clientX, clientY);
  return [layout.xaxis.p2l(px), layout.yaxis.p2l(py)];
}

function shownPoints(root) {
  // id -> [x, y, marker size] of the data points as plotly holds them now (visible classes only).
  const shown = new Map();
  (root._fullData || []).forEach((trace) => {
    if (trace.meta !== 'points' || trace.visible !== true || !trace.customdata) return;
    const size = (trace.marker && trace.marker.size) || 10;
    for (let i = 0; i < trace._length; i++) shown.set(trace.customdata[i], [trace.x[i], trace.y[i], size]);
  });
  return shown;
}

function pointAt(root, clientX, clientY) {
  // The id of the data point under the pointer (the nearest one), or null.
  const layout = root._fullLayout;
  if (!layout || !layout.xaxis || !layout.xaxis.l2p) return null;
  const xa = layout.xaxis, ya = layout.yaxis, [px, py] = plotPixel(root, clientX, clientY);
  if (px < 0 || py < 0 || px > xa._length || py > ya._length) return null;
  let best = null, bestDistance = Infinity;
  shownPoints(root).forEach(([x, y, size], id) => {
    const distance = Math.hypot(xa.l2p(x) - px, ya.l2p(y) - py);
    if (distance <= size / 2 + HIT_SLACK && distance < bestDistance) { best = id; bestDistance = distance; }
  });
  return best;
}

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
  // moving the layer each frame is a compositor transform, not a repaint of the whole plot (its
  // regions and, at N = 1,000, a thousand markers). Made at the press from the markers as drawn.
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
  // The markers plotly draws for the dragged points, hidden while their copies move (plotly
  // draws new ones with every figure from the server).
  markerNodes(root, drag.ids).forEach((node) => { node.style.visibility = hidden ? 'hidden' : ''; });
}

function placeDragged(root) {
  // Draw the dragged points where the pointer has taken them (called once per frame).
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

function endDragLayer(root, drag) {
  if (drag.layer) drag.layer.remove();
  hideDragged(root, drag, false);
}

function markSelection(root) {
  // Selected points (Shift + box / lasso) wear a heavy dark rim; a selection whose points were
  // changed by anything but its own drag (undo, a removal, a new scene) is dropped.
  const selection = root.__pgSelection;
  if (!selection) { root.dataset.selected = '0'; return; }
  if (!root.__pgDrag) {  // while its own drag moves them, the points are where the drag put them
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

function sendMove(root, final) {
  // One move in flight at a time (stale positions are never sent; the latest is sent as soon as
  // the server has taken the last one); the final move always goes at once.
  const drag = root.__pgDrag;
  if (!drag) return;
  clearTimeout(drag.timer);
  drag.timer = 0;
  if (!final) {
    if (drag.released || (drag.inFlight && drag.inFlight > (window.__pgAck || 0))) return;
    if (drag.sent && drag.sent[0] === drag.offset[0] && drag.sent[1] === drag.offset[1]) return;
    const wait = DRAG_MIN_INTERVAL_MS - (performance.now() - (drag.sentAt || 0));
    if (wait > 0) { drag.timer = setTimeout(() => sendMove(root, false), wait); return; }
  }
  drag.sentAt = performance.now();
  drag.sent = drag.offset.slice();
  drag.inFlight = send(root, {
    type: 'move', drag: drag.id, revision: drag.revision, ids: drag.ids,
    dx: drag.offset[0], dy: drag.offset[1], final: !!final,
  });
  if (final) drag.finalNonce = drag.inFlight;
  root.dataset.movesSent = String(Number(root.dataset.movesSent || 0) + 1);
}

function dragOnData(root, data) {
  // A new figure arrived: the server has taken the moves up to data.ack; send the latest.
  window.__pgAck = data.ack || 0;
  const drag = root.__pgDrag;
  if (drag && !drag.released) sendMove(root, false);
}

function dragAfterDraw(root, data) {
  // After each figure from the server is drawn (plotly_afterplot has put the dragged points back
  // under the pointer): count the live updates; end the drag once the final move is on screen.
  const drag = root.__pgDrag;
  if (drag) {
    if (drag.lastRevision !== data.revision) {
      drag.lastRevision = data.revision;
      root.dataset.dragUpdates = String(Number(root.dataset.dragUpdates || 0) + 1);
    }
    if (drag.finalNonce && (data.ack || 0) >= drag.finalNonce) {
      root.__pgDrag = null;
      endDragLayer(root, drag);
      root.dataset.dragging = '';
      root.classList.remove('pg-dragging');
      if (root.__pgSelection && drag.ids.length > 1) {
        const shown = shownPoints(root);  // the selection moved with the drag: it stays selected
        root.__pgSelection.at = new Map(root.__pgSelection.ids.map((id) => [id, shown.get(id)]));
      }
      markSelection(root);
    }
  }
}

function startDrag(root, press) {
  const shown = shownPoints(root);
  window.__pgDragCount = (window.__pgDragCount || 0) + 1;
  root.__pgDrag = {
    id: `${Date.now()}-${window.__pgDragCount}`, ids: press.ids, revision: press.revision,
    from: new Map(press.ids.map((id) => [id, shown.get(id)])), offset: [0, 0], pixels: [0, 0],
    lastRevision: press.revision,
  };
  root.__pgLastClick = null;  // a drag is no half of a double-click
  root.dataset.dragging = '1';
  root.classList.add('pg-dragging');  // no hover label follows (plotly re-hovers after each draw)
  root.dataset.dragUpdates = '0';
  root.dataset.movesSent = '0';
  if (window.Plotly && window.Plotly.Fx) window.Plotly.Fx.unhover(root);
  if (root._fullLayout) delete root._fullLayout._rehover;  // plotly would hover again after each draw
}

function bindDrag(root) {
  // Capture phase on the canvas: a press on a point never reaches plotly's drag layer.
  root.addEventListener('mousedown', (e) => {
    if (e.button !== 0 || e.shiftKey || e.ctrlKey || e.metaKey || e.altKey || root.__pgDrag) return;
    const id = pointAt(root, e.clientX, e.clientY);
    if (id === null) return;
    e.stopPropagation();
    e.preventDefault();
    const selection = root.__pgSelection;
    const ids = selection && selection.ids.includes(id) ? selection.ids.slice() : [id];
    root.__pgPress = {id: id, ids: ids, x: e.clientX, y: e.clientY, start: toData(root, e.clientX, e.clientY),
                      revision: root.dataset.revision};
    window.__pgPressRoot = root;
  }, true);
  // Box / lasso with Shift held selects (for a group drag) instead of removing.
  root.addEventListener('mousedown', (e) => { root.__pgShiftGesture = e.shiftKey; }, true);
  root.addEventListener('mousemove', (e) => {
    // A grab cursor over a point says it can be dragged (checked once a frame).
    if (root.__pgHoverFrame || window.__pgPressRoot) return;
    root.__pgHoverFrame = requestAnimationFrame(() => {
      root.__pgHoverFrame = 0;
      root.classList.toggle('pg-over-point', pointAt(root, e.clientX, e.clientY) !== null);
    });
  });
  if (window.__pgDragBound) return;
  window.__pgDragBound = true;
  window.addEventListener('mousemove', (e) => {
    const root = window.__pgPressRoot, press = root && root.__pgPress;
    if (!press) return;
    e.stopPropagation();  // no hover labels, no plotly gesture while a point is pressed
    e.preventDefault();
    if (!root.__pgDrag) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_SLOP) return;
      startDrag(root, press);
    }
    const at = toData(root, e.clientX, e.clientY), drag = root.__pgDrag;
    drag.offset = [at[0] - press.start[0], at[1] - press.start[1]];
    drag.pixels = [e.clientX - press.x, e.clientY - press.y];
    if (!drag.frame) drag.frame = requestAnimationFrame(() => { drag.frame = 0; placeDragged(root); });
    sendMove(root, false);
  }, true);
  window.addEventListener('mouseup', (e) => {
    const root = window.__pgPressRoot, press = root && root.__pgPress;
    if (!press) return;
    window.__pgPressRoot = null;
    root.__pgPress = null;
    e.stopPropagation();
    const drag = root.__pgDrag;
    if (!drag) {  // a click on the point: removed, as plotly's click would have done
      const here = clickStart(root, e);
      if (here) here.nonce = send(root, {type: 'remove', ids: [press.id]});
      return;
    }
    const at = toData(root, e.clientX, e.clientY);
    drag.offset = [at[0] - press.start[0], at[1] - press.start[1]];
    drag.pixels = [e.clientX - press.x, e.clientY - press.y];
    drag.released = true;
    placeDragged(root);
    sendMove(root, true);
  }, true);
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape') return;
    document.querySelectorAll('.pg-canvas').forEach((r) => { if (r.__pgSelection) select(r, [], false); });
  });
}

function withAdded(root, figure) {
  // Points clicked in and not yet in a figure from the server, drawn at once in the active class's
  // marker (the server's figure then draws them with the refit).
  const marker = root.__pgData && root.__pgData.new_point;
  const added = (root.__pgAdded || []).filter((p) => p.nonce > (window.__pgAck || 0));
  root.__pgAdded = added;
  if (!marker || !added.length) return figure;
  return {layout: figure.layout, data: figure.data.concat([{
    type: 'scatter', mode: 'markers', x: added.map((p) => p.x), y: added.map((p) => p.y), marker: marker,
    hoverinfo: 'skip', showlegend: false, meta: 'added',
  }])};
}

function showAdded(root, event) {
  if (event.type === 'retract') {
    root.__pgAdded = (root.__pgAdded || []).filter((p) => p.nonce !== event.of);
  } else {
    if (!root.__pgData || !root.__pgData.new_point) return;
    root.__pgAdded = (root.__pgAdded || []).concat([{nonce: event.nonce, x: event.x, y: event.y}]);
  }
  if (root.__pgFigure && window.Plotly) draw(root, window.Plotly);
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
  const figure = withAdded(root, shownFigure(root.__pgFigure, level, start));
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
  dragOnData(root, data);
  root.__pgFileName = data.file_name;
  window.__pgKeyRoot = root;
  bindKeys();
  const figure = JSON.parse(themed(data.figure, data.dark_swaps));
  const height = canvasHeight(root, data, figure.layout);
  root.style.height = height + 'px';
  root.dataset.receivedAt = performance.now().toFixed(1);  // the benchmark's page-update split
  const status = parentElement.querySelector('.pg-status') || (() => {
    const el = document.createElement('div'); el.className = 'pg-status'; parentElement.appendChild(el); return el;
  })();
  loadPlotly(data.plotly_url).then((Plotly) => {
    figure.layout.height = height;  // plotly keeps its first height otherwise
    root.__pgFigure = figure;
    plotConfig(Plotly, root, data.config, [{name: 'pgFitView', title: data.texts.fit_view,
      icon: Plotly.Icons.home, click: () => send(root, {type: 'fit'})}], data.texts);
    const started = performance.now();
    return draw(root, Plotly).then(() => {
      if (!root.__pgBound) {
        bind(root);
        // A new width may fit the full legend again, and changes the height a wide window needs.
        observeWidth(root, Plotly, () => redraw(root, Plotly, true));
        window.addEventListener('resize', () => { if (root.isConnected) redraw(root, Plotly, false); });
        // In presentation the room is the window below the canvas's top, and that top moves when
        // elements above it change (a rerun's stale elements going away), with no resize event.
        const page = root.closest('[data-testid="stMainBlockContainer"]') || document.body;
        new ResizeObserver(() => {
          if (root.isConnected && root.__pgData.fill_screen && root.__pgFigure) redraw(root, Plotly, false);
        }).observe(page);
        root.__pgBound = true;
      }
      root.dataset.revision = data.revision;
      root.dataset.points = data.n_points;
      root.dataset.renderMs = (performance.now() - started).toFixed(1);
      fitToPlotArea(root, Plotly, data);
      dragAfterDraw(root, data);
      status.textContent = '';
      // Now that the new scene is on screen, the panels below catch up (follow_canvas).
      const panels = window.__pgPanels;
      if (data.panels_follow && panels && panels.drawnFor !== data.panels_follow && !root.__pgDrag) {
        panels.drawnFor = data.panels_follow;
        panels.refresh(data.panels_follow);
      }
    });
  }).catch((err) => { status.textContent = fill(data.texts.not_drawn, {error: err.message}); });
}
