// The line tool: the person draws the boundary they expect (issue 46), by two clicks or one drag,
// and the session keeps it as the scene's line (ui/session/edits.py, "line"). Rules: ui/plot/canvas.js.
//
// Rules that hold:
// - Every press in the plot area is the tool's (plotly zooms or pans nothing meanwhile); a press
//   that travels draws the line from where it came down to where it is let go, a press that does
//   not is one of two clicks (the first is kept in the plot's state, shown as a dot, the hint says
//   what comes next; another tool forgets it, canvas_tools.js).
// - A press on the line's handle or its arrow's tip that travels moves the line instead
//   (canvas_line_drag.js).
// - The line is previewed in the browser (a plotly shape, no round trip) and sent once, as one
//   edit with its two points in data coordinates; the session orients it and scores it.
import { send } from './canvas_edits.js';
import { handleEnd, handleMove } from './canvas_line_drag.js';
import { canvasState } from './canvas_state.js';
import { applyTool } from './canvas_tools.js';
import { dataAt } from './geometry.js';

const PREVIEW = {type: 'line', xref: 'x', yref: 'y', line: {color: '#e8590c', width: 3, dash: 'dash'}};
const MIN_TRAVEL = 4;  // px: a press that moves less is a click

/**
 * The preview: the line so far (two points) or the first click alone (one point); none for [].
 * @param {PlotRoot} root
 * @param {[number, number][]} ends
 */
function preview(root, ends) {
  if (!window.Plotly || !root._fullLayout) return;
  /** @type {PlotlyObject[]} */
  let shapes = [];
  if (ends.length === 2) {
    shapes = [{...PREVIEW, x0: ends[0][0], y0: ends[0][1], x1: ends[1][0], y1: ends[1][1]}];
  } else if (ends.length === 1) {
    const [x, y] = ends[0], dx = 0.006 * (root._fullLayout.xaxis.range[1] - root._fullLayout.xaxis.range[0]);
    const dy = dx * (root._fullLayout.yaxis.range[1] - root._fullLayout.yaxis.range[0]) /
      (root._fullLayout.xaxis.range[1] - root._fullLayout.xaxis.range[0]);
    shapes = [{type: 'circle', xref: 'x', yref: 'y', x0: x - dx, x1: x + dx, y0: y - dy, y1: y + dy,
      fillcolor: '#e8590c', line: {color: '#e8590c'}}];
  }
  window.Plotly.relayout(root, {shapes: shapes});
}

/**
 * Send the line through two data points (distinct: the session refuses one point).
 * @param {PlotRoot} root
 * @param {[number, number]} from
 * @param {[number, number]} to
 */
function sendLine(root, from, to) {
  send(root, {type: 'line', x1: from[0], y1: from[1], x2: to[0], y2: to[1]});
}

/**
 * The pointer moved while pressed in the line tool: the line follows it.
 * @param {PlotRoot} root
 * @param {import('./canvas_state.js').Press} press
 * @param {number} clientX
 * @param {number} clientY
 */
export function lineMove(root, press, clientX, clientY) {
  if (Math.hypot(clientX - press.x, clientY - press.y) < MIN_TRAVEL && !press.travelled) return;
  press.travelled = true;
  if (press.handle) { handleMove(root, press.handle, clientX, clientY); return; }
  preview(root, [press.start, dataAt(root, clientX, clientY)]);
}

/**
 * The press ended in the line tool: a drag's line is sent; a click is the first or the second point.
 * @param {PlotRoot} root
 * @param {import('./canvas_state.js').Press} press
 * @param {number} clientX
 * @param {number} clientY
 */
export function lineEnd(root, press, clientX, clientY) {
  const state = canvasState(root), end = dataAt(root, clientX, clientY);
  if (press.handle && press.travelled) { handleEnd(root, press.handle); return; }
  if (press.travelled) {
    state.lineStart = null;
    sendLine(root, press.start, end);
  } else if (state.lineStart) {
    const start = state.lineStart;
    state.lineStart = null;
    preview(root, [start, press.start]);
    sendLine(root, start, press.start);
  } else {
    state.lineStart = press.start;
    preview(root, [press.start]);
  }
  applyTool(root);  // the hint says whether a second point is awaited
}
