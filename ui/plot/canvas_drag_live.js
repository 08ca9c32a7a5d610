// The canvas's gestures, continued (see canvas_gestures.js, whose rules hold here): a drag of
// points drawn in the browser, the live route that redraws the regions under it, and the points
// a click added, drawn before the session's figure arrives.
import { draw, liveFrame } from './canvas.js';
import { commit, liveAvailable, liveLine, shownPoints } from './canvas_gestures.js';
import { patchFrame } from './canvas_patch.js';
import { fill } from './plotly_shared.js';

// ---- Dragging points --------------------------------------------------------------------------

function markerNodes(root, ids) {
  // id -> the SVG marker node drawing that point (plotly binds each node to its calcdata entry).
  // Traces with a zorder are drawn in layers of their own (scatterlayer2, ...): the points (zorder 1)
  // are not in the first one.
  const nodes = new Map(), wanted = new Set(ids);
  root.querySelectorAll('[class^=scatterlayer] .trace').forEach((group) => {
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

export function placeDragged(root) {
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

export function markSelection(root) {
  // Selected points wear a heavy dark rim; a selection whose points were changed by anything but
  // its own drag (undo, a removal, a new scene) is dropped.
  const selection = root.__pgSelection;
  if (!selection) { root.dataset.selected = '0'; return; }
  if (selection.awaiting && !root.__pgDrag) {
    // Moved by the keyboard (canvas_keyboard.js): kept until the session's figure shows the move,
    // then held at the points' new places.
    if ((window.__pgAck || 0) >= selection.awaiting) {
      const shown = shownPoints(root);
      selection.awaiting = 0;
      selection.at = new Map(selection.ids.filter((id) => shown.has(id)).map((id) => [id, shown.get(id)]));
    }
  } else if (!root.__pgDrag) {
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

export function select(root, ids, add) {
  const shown = shownPoints(root), previous = add && root.__pgSelection ? root.__pgSelection.ids : [];
  const all = Array.from(new Set(previous.concat(ids))).filter((id) => shown.has(id));
  root.__pgSelection = all.length ? {ids: all, at: new Map(all.map((id) => [id, shown.get(id)]))} : null;
  return draw(root, window.Plotly);  // a fresh draw clears the old rims; markSelection draws the new ones
}

export function startDrag(root, press) {
  const shown = shownPoints(root);
  window.__pgDragCount = (window.__pgDragCount || 0) + 1;
  root.__pgDrag = {
    id: `${Date.now()}-${window.__pgDragCount}`, ids: press.ids, revision: press.revision,
    from: new Map(press.ids.map((id) => [id, shown.get(id)])), offset: [0, 0], pixels: [0, 0],
  };
  root.dataset.dragging = '1';
  root.classList.add('pg-dragging');  // no hover label follows
  root.dataset.dragUpdates = '0';
  root.dataset.liveAsked = '0';
  document.querySelectorAll('[role="status"]').forEach((el) => el.classList.add('pg-stale'));
  if (window.Plotly && window.Plotly.Fx) window.Plotly.Fx.unhover(root);
  if (root._fullLayout) delete root._fullLayout._rehover;
}

export function dragAfterDraw(root, data) {
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
    }
  }
  const drag = root.__pgDrag;
  if (drag && !drag.released) {
    if (drag.revision !== revision) return null;
    edits.push({type: 'move', ids: drag.ids, dx: drag.offset[0], dy: drag.offset[1]});
  }
  return edits;
}

export function requestLive(root) {
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
    language: live.language, painted: live.painted,
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

// ---- Pending points ---------------------------------------------------------------------------

export function withAdded(root, figure) {
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

export function showAdded(root, event) {
  if (!root.__pgData || !root.__pgData.new_point) return;
  root.__pgAdded = (root.__pgAdded || []).concat([{nonce: event.nonce, x: event.x, y: event.y}]);
  if (!root.__pgFigure || !window.Plotly) return;
  if (liveAvailable(root)) {
    // The live figure, close behind, draws the point with its boundary in one draw;
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

