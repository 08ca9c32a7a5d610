// Presses on the plot, mouse and touch alike: what a click does in each tool, a press on a point
// that travels becoming a drag, the release committing it. Rules: ui/plot/canvas.js.
import { dragTo, placeDragged, select, startDrag } from './canvas_drag.js';
import { shownPoints } from './canvas_draw.js';
import { requestLive, send } from './canvas_edits.js';
import { lineEnd, lineMove } from './canvas_line.js';
import { handleAt } from './canvas_line_drag.js';
import { canvasData, canvasPage, canvasState } from './canvas_state.js';
import { currentTool } from './canvas_tools.js';
import { areaPixel, areaPixelAt, dataAt, inPlotArea } from './geometry.js';

/** @typedef {import('./canvas_state.js').Press} Press */
/** @typedef {{clientX: number, clientY: number, altKey?: boolean, shiftKey?: boolean}} PointerAt
 *  where a pointer (a mouse event, a touch) is, and the keys held */

const DRAG_SLOP = 4;  // px: a press that moves less is a click
const TAP_SLOP = 10;  // px: a touch that moves less is a tap
const HIT_SLACK = 3;  // px beyond a marker's radius that still press it
const ERASE_SLACK = 6;  // px: the erase tool is a little more generous

/**
 * The id of the marker under the pointer (the nearest one within its radius + slack), or null.
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 * @param {string} meta  the traces' (points or centres)
 * @param {number} slack
 * @returns {number | null}
 */
function markerAt(root, clientX, clientY, meta, slack) {
  if (!inPlotArea(root, clientX, clientY)) return null;
  const [px, py] = areaPixelAt(root, clientX, clientY);
  /** @type {number | null} */
  let best = null;
  let bestDistance = Infinity;
  shownPoints(root, meta).forEach(([x, y, size], id) => {
    const [mx, my] = areaPixel(root, x, y), distance = Math.hypot(mx - px, my - py);
    if (distance <= size / 2 + slack && distance < bestDistance) { best = id; bestDistance = distance; }
  });
  return best;
}

/**
 * The data point under the pointer, or null.
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 * @param {number} [slack]
 */
export function pointAt(root, clientX, clientY, slack) {
  return markerAt(root, clientX, clientY, 'points', slack === undefined ? HIT_SLACK : slack);
}

/**
 * A press that did not travel: what it does depends on the tool (see the rules), however soon
 * after the last click and however near it.
 * @param {PlotRoot} root
 * @param {Press} press
 */
function click(root, press) {
  const tool = currentTool();
  const centre = markerAt(root, press.clientX, press.clientY, 'centres', ERASE_SLACK);
  if (tool === 'erase') {
    const id = pointAt(root, press.clientX, press.clientY, ERASE_SLACK);
    if (id !== null) send(root, {type: 'remove', ids: [id]});
    else if (centre !== null) send(root, {type: 'remove_centre', ids: [centre]});
  } else if (tool === 'select') {
    if (press.id !== null) select(root, [press.id], press.shiftKey);
    else if (canvasState(root).selection) select(root, [], false);
  } else if (tool === 'add') {
    if (press.id !== null && (press.altKey || canvasData(root).click_switches)) {
      send(root, {type: 'remove', ids: [press.id]});  // switch mode: the session switches it
    } else if (press.id === null && press.altKey && centre !== null) {
      send(root, {type: 'remove_centre', ids: [centre]});
    } else {
      send(root, {type: 'add', x: press.start[0], y: press.start[1]});
    }
  }
}

/**
 * A press in the plot area. Returns true when the canvas takes the gesture from plotly.
 * @param {PlotRoot} root
 * @param {PointerAt} at
 * @param {boolean} touch
 */
export function pressStart(root, at, touch) {
  const state = canvasState(root);
  if (state.drag || !inPlotArea(root, at.clientX, at.clientY)) return false;
  const tool = currentTool();
  const id = pointAt(root, at.clientX, at.clientY, tool === 'erase' ? ERASE_SLACK : HIT_SLACK);
  const selected = id !== null && !!state.selection && state.selection.ids.includes(id);
  state.press = {
    id: id, x: at.clientX, y: at.clientY, clientX: at.clientX, clientY: at.clientY, touch: touch,
    altKey: !!at.altKey, shiftKey: !!at.shiftKey, start: dataAt(root, at.clientX, at.clientY),
    revision: root.dataset.revision,
    ids: selected && state.selection ? state.selection.ids.slice() : (id !== null ? [id] : []),
    // A press that travels drags points (add and move: the pressed one; select: a selected one) or
    // is plotly's (zoom box, pan, box / lasso), except a touch in the add tool, which scrolls.
    drags: id !== null && (tool === 'add' || tool === 'move' || (tool === 'select' && selected)),
    line: tool === 'line',
    handle: tool === 'line' ? handleAt(root, at.clientX, at.clientY, touch) : null,
  };
  canvasPage.pressRoot = root;
  if (tool === 'line') return true;  // every press draws the line (plotly neither zooms nor pans)
  // The canvas keeps presses on points, and every touch in the add tool (the page scrolls it).
  return id !== null || (touch && tool === 'add');
}

/**
 * The pointer moved while pressed. Returns true when the canvas keeps the move from plotly.
 * @param {PlotRoot} root
 * @param {PointerAt} at
 */
export function pressMove(root, at) {
  const state = canvasState(root), press = state.press;
  if (!press) return false;
  if (press.line) {
    lineMove(root, press, at.clientX, at.clientY);
    return true;
  }
  const travel = Math.hypot(at.clientX - press.x, at.clientY - press.y);
  if (!state.drag) {
    if (travel < (press.touch ? TAP_SLOP : DRAG_SLOP)) return press.id !== null;
    if (!press.drags) {
      press.travelled = true;  // plotly's gesture (or the page's scroll), not a click
      return false;
    }
    startDrag(root, press);
  }
  const drag = dragTo(root, press, dataAt(root, at.clientX, at.clientY), at.clientX, at.clientY);
  if (!drag.frame) drag.frame = requestAnimationFrame(() => { drag.frame = 0; placeDragged(root); });
  requestLive(root);
  return true;
}

/**
 * The press ended: a click, or a drag's release (its one move sent). Returns true when the canvas
 * keeps the release from plotly.
 * @param {PlotRoot} root
 * @param {PointerAt} at
 */
export function pressEnd(root, at) {
  const state = canvasState(root), press = state.press;
  canvasPage.pressRoot = null;
  state.press = null;
  if (!press) return false;
  if (press.line) {
    lineEnd(root, press, at.clientX, at.clientY);
    return true;
  }
  if (!state.drag) {
    if (!press.travelled) click(root, press);
    return press.id !== null;
  }
  const drag = dragTo(root, press, dataAt(root, at.clientX, at.clientY), at.clientX, at.clientY);
  drag.released = true;
  placeDragged(root);
  drag.finalNonce = send(root, {
    type: 'move', drag: drag.id, revision: drag.revision, ids: drag.ids,
    dx: drag.offset[0], dy: drag.offset[1], final: true,
  });
  return true;
}
