// Dragging points and the selection: the dragged markers drawn in a layer of their own that follows
// the pointer every frame, the selection's rims, the drag ended once the session's figure shows its
// final move. Rules: ui/plot/canvas.js.
import { draw, shownPoints } from './canvas_draw.js';
import { canvasPage, canvasState } from './canvas_state.js';
import { liveLine } from './canvas_tools.js';
import { areaOffset, areaPixel } from './geometry.js';

/** @typedef {import('./canvas_state.js').CanvasData} CanvasData */
/** @typedef {import('./canvas_state.js').Drag} Drag */
/** @typedef {import('./canvas_state.js').Press} Press */

/** plotly's SVG node of a trace or a marker, bound to its calcdata (d3's __data__).
 * @typedef {Element & {__data__?: PlotlyObject}} BoundNode */

/**
 * id -> the SVG marker node drawing that point (plotly binds each node to its calcdata entry).
 * Traces with a zorder are drawn in layers of their own (scatterlayer2, ...): the points (zorder 1)
 * are not in the first one.
 * @param {PlotRoot} root
 * @param {number[]} ids
 * @returns {Map<number, SVGElement>}
 */
function markerNodes(root, ids) {
  /** @type {Map<number, SVGElement>} */
  const nodes = new Map();
  const wanted = new Set(ids);
  root.querySelectorAll('[class^=scatterlayer] .trace').forEach((group) => {
    const cd = /** @type {BoundNode} */ (group).__data__, trace = cd && cd[0] && cd[0].trace;
    if (!cd || !trace || trace.meta !== 'points' || !trace.customdata) return;
    const index = new Map(cd.map((/** @type {unknown} */ entry, /** @type {number} */ i) => [entry, i]));
    group.querySelectorAll('path.point').forEach((node) => {
      const i = index.get(/** @type {BoundNode} */ (node).__data__);
      if (i !== undefined && wanted.has(trace.customdata[i])) nodes.set(trace.customdata[i], /** @type {SVGElement} */ (node));
    });
  });
  return nodes;
}

/**
 * The dragged markers, copied into a layer of their own above the plot, the originals hidden:
 * moving the layer each frame is a compositor transform, not a repaint of the whole plot.
 * @param {PlotRoot} root
 * @param {Drag} drag
 * @returns {SVGSVGElement | null}
 */
function dragLayer(root, drag) {
  if (drag.layer && drag.layer.isConnected) return drag.layer;
  const main = root.querySelector('.main-svg');
  if (!main || !main.parentNode || !root._fullLayout) return null;
  const ns = 'http://www.w3.org/2000/svg', layer = document.createElementNS(ns, 'svg');
  layer.setAttribute('class', 'pg-drag-layer');
  layer.setAttribute('width', main.getAttribute('width') || '');
  layer.setAttribute('height', main.getAttribute('height') || '');
  const group = document.createElementNS(ns, 'g'), [left, top] = areaOffset(root);
  group.setAttribute('transform', `translate(${left},${top})`);
  markerNodes(root, drag.ids).forEach((node, id) => {
    const from = drag.from.get(id), copy = /** @type {SVGElement} */ (node.cloneNode(true));
    if (!from) return;
    const [px, py] = areaPixel(root, from[0], from[1]);
    copy.setAttribute('transform', `translate(${px},${py})`);
    copy.style.visibility = 'visible';
    group.appendChild(copy);
  });
  layer.appendChild(group);
  main.parentNode.appendChild(layer);
  drag.layer = layer;
  return layer;
}

/**
 * @param {PlotRoot} root
 * @param {Drag} drag
 * @param {boolean} hidden
 */
function hideDragged(root, drag, hidden) {
  markerNodes(root, drag.ids).forEach((node) => { node.style.visibility = hidden ? 'hidden' : ''; });
}

/**
 * Draw the dragged points where the pointer has taken them (once per frame, and after each draw).
 * @param {PlotRoot} root
 */
export function placeDragged(root) {
  const state = canvasState(root), drag = state.drag;
  if (!drag || !root._fullLayout) return;
  if (drag.hiddenFor !== state.drawn) {
    hideDragged(root, drag, true);
    drag.hiddenFor = state.drawn;
  }
  const layer = dragLayer(root, drag);
  if (layer) layer.style.transform = `translate(${drag.pixels[0]}px, ${drag.pixels[1]}px)`;
  root.dataset.dragAt = `${drag.offset[0]} ${drag.offset[1]}`;
}

/**
 * The drag has the pointer at data ``at`` and client pixels ``pixels`` from where it was pressed.
 * @param {PlotRoot} root
 * @param {Press} press
 * @param {[number, number]} at
 * @param {number} clientX
 * @param {number} clientY
 */
export function dragTo(root, press, at, clientX, clientY) {
  const drag = /** @type {Drag} */ (canvasState(root).drag);
  drag.offset = [at[0] - press.start[0], at[1] - press.start[1]];
  drag.pixels = [clientX - press.x, clientY - press.y];
  return drag;
}

/**
 * @param {PlotRoot} root
 * @param {Drag} drag
 */
function endDrag(root, drag) {
  const state = canvasState(root);
  state.drag = null;
  if (drag.layer) drag.layer.remove();
  hideDragged(root, drag, false);
  root.dataset.dragging = '';
  root.classList.remove('pg-dragging');
  document.querySelectorAll('[role="status"]').forEach((el) => el.classList.remove('pg-stale'));
  // The session's figure is on screen: the next gesture tries the live route afresh.
  state.liveOff = false;
  root.dataset.liveOff = '';
  if (state.liveLine) liveLine(root, null);
}

/**
 * Whether the selection still stands: moved by the keyboard (canvas_keyboard.js), it is kept until
 * the session's figure shows the move, then held at the points' new places; changed by anything
 * but its own drag (undo, a removal, a new scene), it is dropped.
 * @param {PlotRoot} root
 * @param {import('./canvas_state.js').Selection} selection
 */
function selectionStands(root, selection) {
  if (canvasState(root).drag) return true;
  const shown = shownPoints(root);
  if (selection.awaiting) {
    if (canvasPage.ack >= selection.awaiting) {
      selection.awaiting = 0;
      selection.at = new Map(selection.ids.filter((id) => shown.has(id)).map((id) => [id, shown.get(id)]));
    }
    return true;
  }
  return selection.ids.every((id) => {
    const now = shown.get(id), then = selection.at.get(id);
    return now && then && now[0] === then[0] && now[1] === then[1];
  });
}

/**
 * Selected points wear a heavy dark rim.
 * @param {PlotRoot} root
 */
export function markSelection(root) {
  const state = canvasState(root), selection = state.selection;
  if (!selection) { root.dataset.selected = '0'; return; }
  if (!selectionStands(root, selection)) { state.selection = null; root.dataset.selected = '0'; return; }
  markerNodes(root, selection.ids).forEach((node) => {
    node.style.stroke = '#111';
    node.style.strokeWidth = '3px';
    node.style.strokeOpacity = '1';
  });
  root.dataset.selected = String(selection.ids.length);
}

/**
 * Select ``ids`` (added to the selection with ``add``); none: the selection is cleared.
 * @param {PlotRoot} root
 * @param {number[]} ids
 * @param {boolean} add
 */
export function select(root, ids, add) {
  const state = canvasState(root), shown = shownPoints(root);
  const previous = add && state.selection ? state.selection.ids : [];
  const all = Array.from(new Set(previous.concat(ids))).filter((id) => shown.has(id));
  state.selection = all.length ? {ids: all, at: new Map(all.map((id) => [id, shown.get(id)]))} : null;
  return draw(root, window.Plotly);  // a fresh draw clears the old rims; markSelection draws the new ones
}

/**
 * A press that travels starts a drag of the points it names.
 * @param {PlotRoot} root
 * @param {Press} press
 */
export function startDrag(root, press) {
  const shown = shownPoints(root);
  canvasPage.dragCount += 1;
  canvasState(root).drag = {
    id: `${Date.now()}-${canvasPage.dragCount}`, ids: press.ids, revision: press.revision,
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

/**
 * After a figure from the session is drawn: the drag ends once its final move is on screen.
 * @param {PlotRoot} root
 * @param {CanvasData} data
 */
export function dragAfterDraw(root, data) {
  const state = canvasState(root), drag = state.drag;
  if (!drag || !drag.finalNonce || (data.ack || 0) < drag.finalNonce) return;
  endDrag(root, drag);
  const selection = state.selection;
  if (selection && drag.ids.length > 1) {
    const shown = shownPoints(root);  // the selection moved with the drag: it stays selected
    selection.at = new Map(selection.ids.map((id) => [id, shown.get(id)]));
  }
  markSelection(root);
}
