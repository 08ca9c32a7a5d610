// An edit's way: queued page-wide and sent to the session until it acknowledges it, and meanwhile
// drawn at once from the live route (ui/server/live_route.py: the regions and the boundary the
// edits give, no Streamlit rerun), with the points a click added shown before either answers.
// Rules: ui/plot/canvas.js.
import { draw, liveFrame, plotArea } from './canvas_draw.js';
import { patchFrame } from './canvas_patch.js';
import { canvasData, canvasPage, canvasState, queueChanged } from './canvas_state.js';
import { liveLine } from './canvas_tools.js';
import { fill } from './plotly_shared.js';

/** @typedef {import('./canvas_state.js').Edit} Edit */
/** @typedef {import('./canvas_state.js').Figure} Figure */

const COMMIT_WAIT_MS = 80;  // the longest a click's commit waits for its live figure
const ADDED_WAIT_MS = 40;  // a new point waits this long for its live figure before it is drawn alone

/**
 * The plot the page's keys go to, and a commit of a canvas a rerun replaced goes through.
 * @returns {PlotRoot | undefined}
 */
export function keyRoot() {
  const canvases = /** @type {PlotRoot[]} */ (Array.from(document.querySelectorAll('.pg-canvas')));
  return [canvasPage.keyRoot].concat(canvases).find((r) => r && r.isConnected && canvasState(r).send) || undefined;
}

/**
 * Queue ``event`` and send it. Two triggers in one tick overwrite each other, so every send carries
 * all events Python has not acknowledged yet. Nonce and queue are page-wide: a re-created canvas
 * (or another canvas of the comparison) sends the edits still on their way too, in the order they
 * were made. Returns the edit's number.
 * @param {PlotRoot} root
 * @param {Edit} event
 * @returns {number}
 */
export function send(root, event) {
  canvasPage.nonce = Math.max(canvasPage.nonce, canvasPage.ack) + 1;
  const nonce = canvasPage.nonce, state = canvasState(root);
  event.nonce = nonce;
  // A removal or move names points by their place in the set this canvas shows: Python checks that set.
  if (['remove', 'remove_centre'].includes(event.type)) event.revision = root.dataset.revision;
  const area = plotArea(root);
  if (area) event.area = area;  // a fit of the view can match the plot's shape
  // The scene this drawing shows (its load's number): a view or a plot area from the scene
  // before a load (a figure press on its way meanwhile) is not the new scene's.
  event.load = state.data ? state.data.load || 0 : 0;
  let queue = canvasPage.queue;
  if (event.type === 'view') queue = queue.filter(e => e.type !== 'view');
  canvasPage.queue = queue.concat([event]);
  queueChanged();
  root.dataset.lastSent = event.type + ' ' + nonce;  // what the browser tests see leave at once
  root.dataset.sent = String(Number(root.dataset.sent || 0) + 1);
  if (event.type === 'add') showAdded(root, nonce, /** @type {number} */ (event.x), /** @type {number} */ (event.y));
  if (['add', 'remove'].includes(event.type) && liveAvailable(root)) {
    // The live route answers first: the session's rerun, started at once, would hold the server
    // (and Python's lock) while the route computes. The click is in the queue; it is committed
    // once its live figure is drawn, or after COMMIT_WAIT_MS at the latest.
    requestLive(root);
    if (!state.commitTimer) state.commitTimer = setTimeout(() => commit(root), COMMIT_WAIT_MS);
  } else {
    commit(root);
  }
  return nonce;
}

/**
 * Send the session every event not yet acknowledged (each is applied once, in order), through this
 * canvas or, should a rerun have re-created it meanwhile, the one that took its place.
 * @param {PlotRoot} root
 */
export function commit(root) {
  const state = canvasState(root);
  clearTimeout(state.commitTimer);
  state.commitTimer = undefined;
  const target = root.isConnected ? root : keyRoot();
  const sendThrough = target && canvasState(target).send;
  if (sendThrough) sendThrough('events', canvasPage.queue);
}

/**
 * The session acknowledged the edits up to ``ack``: they leave the queue.
 * @param {number} ack
 */
export function acknowledged(ack) {
  canvasPage.ack = Math.max(canvasPage.ack, ack || 0);
  canvasPage.queue = canvasPage.queue.filter((e) => (e.nonce || 0) > canvasPage.ack);
  queueChanged();
}

/** @param {PlotRoot} root */
export function liveAvailable(root) {
  const state = canvasState(root);
  return !!(state.data && state.data.live) && !state.liveOff && !state.drag;
}

// ---- The live route ---------------------------------------------------------------------------

/**
 * The edits made on the scene this canvas shows and not yet in it, in order (the live route's
 * request), or null when one of them refers to another drawing (then the session's figure is
 * awaited rather than a guess drawn).
 * @param {PlotRoot} root
 * @returns {Edit[] | null}
 */
function pendingEdits(root) {
  const ack = canvasPage.ack, revision = root.dataset.revision;
  /** @type {Edit[]} */
  const edits = [];
  for (const e of canvasPage.queue) {
    if ((e.nonce || 0) <= ack) continue;
    if (e.type === 'add') edits.push({type: 'add', x: e.x, y: e.y});
    else if (e.type === 'remove') {
      if (e.revision !== revision) return null;
      edits.push({type: 'remove', ids: e.ids});
    } else if (e.type === 'move') {
      if (e.revision !== revision) return null;
      edits.push({type: 'move', ids: e.ids, dx: e.dx, dy: e.dy});
    }
  }
  const drag = canvasState(root).drag;
  if (drag && !drag.released) {
    if (drag.revision !== revision) return null;
    edits.push({type: 'move', ids: drag.ids, dx: drag.offset[0], dy: drag.offset[1]});
  }
  return edits;
}

/**
 * Ask the live route for the figure the pending edits give. One request in flight per canvas; a
 * newer state asked for meanwhile is sent when it answers.
 * @param {PlotRoot} root
 */
export function requestLive(root) {
  const state = canvasState(root), live = state.data && state.data.live;
  if (!live || state.liveOff) return;
  if (state.liveBusy) { state.liveAgain = true; return; }
  const edits = pendingEdits(root);
  if (!edits || !edits.length) return;
  const key = JSON.stringify(edits);
  if (key === state.liveKey) return;
  state.liveBusy = true;
  state.liveAgain = false;
  const body = JSON.stringify({
    scene: live.scene, edits: edits, add_as: live.add_as, add_test: live.add_test, scale: live.scale,
    language: live.language, painted: live.painted,
  });
  root.dataset.liveAsked = String(Number(root.dataset.liveAsked || 0) + 1);
  const asked = {key: key, revision: root.dataset.revision, at: performance.now()};
  fetch(new URL(live.url, document.baseURI).href, {method: 'POST', body: body, headers: {'Content-Type': 'application/json'}})
    .then((response) => response.json().then((answer) => liveAnswered(root, asked, response.status, answer)))
    .catch((err) => liveOff(root, err.message))
    .finally(() => {
      state.liveBusy = false;
      if (state.liveAgain) requestLive(root);
    });
}

/**
 * The live route's answer to a request (the edits' key, the drawing it was for, when it left):
 * drawn if that drawing is still on screen.
 * @param {PlotRoot} root
 * @param {{key: string, revision: string | undefined, at: number}} asked
 * @param {number} status
 * @param {{figure?: Figure, status?: {accuracy: number | null, wrong: number}, error?: string}} answer
 */
function liveAnswered(root, asked, status, answer) {
  const state = canvasState(root);
  if (status === 200 && answer.figure && root.dataset.revision === asked.revision) {
    state.liveKey = asked.key;
    root.dataset.liveMs = (performance.now() - asked.at).toFixed(1);
    // Not awaited: the next request overlaps this draw (draws coalesce); a click waiting for its
    // live figure is committed once it is drawn.
    drawLive(root, answer.figure, answer.status).then(() => { if (state.commitTimer) commit(root); });
    return;
  }
  if (status === 429) return;  // busy for a moment: the next move asks again
  if (status !== 200 && answer && answer.error && status !== 422) liveOff(root, answer.error);
}

/**
 * The gesture still commits when it ends; the line says why the plot does not follow meanwhile.
 * @param {PlotRoot} root
 * @param {string} reason
 */
function liveOff(root, reason) {
  canvasState(root).liveOff = true;
  root.dataset.liveOff = '1';
  liveLine(root, fill(canvasData(root).texts.live_off, {reason: reason}));
}

/**
 * The live figure, with the panels' overlays of the last committed figure kept in their place.
 * @param {PlotRoot} root
 * @param {Figure} figure
 * @param {{accuracy: number | null, wrong: number} | undefined} status
 */
function drawLive(root, figure, status) {
  const state = canvasState(root), committed = /** @type {Figure} */ (state.figure);
  const [a, b] = (committed.compact && committed.compact.overlays) || [0, 0];
  const [c] = (figure.compact && figure.compact.overlays) || [figure.data.length];
  state.liveFigure = {
    data: figure.data.slice(0, c).concat(committed.data.slice(a, b), figure.data.slice(c)),
    layout: committed.layout, compact: committed.compact,
  };
  const texts = canvasData(root).texts;
  if (state.drag && status && status.accuracy !== null) {
    liveLine(root, fill(texts.live_status, {accuracy: (100 * status.accuracy).toFixed(1) + '%', wrong: status.wrong}));
  }
  const drawn = () => {
    root.dataset.dragUpdates = String(Number(root.dataset.dragUpdates || 0) + 1);
    root.dataset.liveDrawn = String(Number(root.dataset.liveDrawn || 0) + 1);
  };
  // A drag's frame in place when it can be (ui/plot/canvas_patch.js), else with the points clicked
  // meanwhile (withAdded) through Plotly.react.
  if (state.drag && !state.drag.released && patchFrame(root, liveFrame(root))) return Promise.resolve().then(drawn);
  return drawAdded(root).then(drawn);
}

// ---- Points clicked in -------------------------------------------------------------------------

/**
 * A point clicked in, drawn before any figure has it (canvas_draw.js withAdded).
 * @param {PlotRoot} root
 * @param {number} nonce
 * @param {number} x
 * @param {number} y
 */
function showAdded(root, nonce, x, y) {
  const state = canvasState(root);
  if (!state.data || !state.data.new_point) return;
  state.added = state.added.concat([{nonce: nonce, x: x, y: y}]);
  if (!state.figure || !window.Plotly) return;
  if (liveAvailable(root)) {
    // The live figure, close behind, draws the point with its boundary in one draw;
    // should it be late, the point is drawn alone meanwhile.
    if (!state.addedTimer) state.addedTimer = setTimeout(() => drawAdded(root), ADDED_WAIT_MS);
  } else {
    drawAdded(root);
  }
}

/** @param {PlotRoot} root */
function drawAdded(root) {
  const state = canvasState(root);
  clearTimeout(state.addedTimer);
  state.addedTimer = undefined;
  return draw(root, window.Plotly);
}
