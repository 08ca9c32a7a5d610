// The line a student draws in a prediction round (issue 47): two taps place its ends, a later tap
// moves the nearer end there, and a press on an end drags it. The line is drawn across the whole
// window (a boundary has no ends), its two ends as handles.
// Rules that must hold:
// - The plot takes a drag only while the student may draw (``ready()``): then a press on a
//   handle never scrolls the page (touch-action none on the plot, given back afterwards).
// - Ends are data coordinates inside the room's window (dataPoint clamps them to the axes).
// - Nothing is sent from here: student.js sends the line when the student presses Send.

import { plotPixel } from '../plot/geometry.js';
import { dataPoint } from './student_taps.js';

const GRAB_PX = 30;  // a press this close to an end drags it
export const GUESS_COLOUR = '#e8590c';  // the person's line, as on the app's page (ui/plot/line_scores.py)

/** @typedef {{x: number, y: number}} End */

/** The two points where the line through ``a`` and ``b`` crosses the box, or null (it misses it).
 * @param {End} a @param {End} b @param {number[]} xr the x range @param {number[]} yr the y range
 * @returns {End[] | null} */
export function acrossBox(a, b, xr, yr) {
  const dx = b.x - a.x, dy = b.y - a.y;
  let low = -Infinity, high = Infinity;
  for (const [p, d, min, max] of [[a.x, dx, Math.min(...xr), Math.max(...xr)], [a.y, dy, Math.min(...yr), Math.max(...yr)]]) {
    if (d === 0) {
      if (p < min || p > max) return null;
      continue;
    }
    const t1 = (min - p) / d, t2 = (max - p) / d;
    low = Math.max(low, Math.min(t1, t2));
    high = Math.min(high, Math.max(t1, t2));
  }
  if (!(low <= high)) return null;
  return [{x: a.x + low * dx, y: a.y + low * dy}, {x: a.x + high * dx, y: a.y + high * dy}];
}

/** The traces of a line: across the window (dashed until it is sent) and its ends as handles.
 * @param {End[]} ends @param {{data: PlotlyObject[], layout: PlotlyObject}} figure
 * @param {{sent: boolean, name: string, handles: boolean, colour?: string}} how */
export function lineTraces(ends, figure, how) {
  if (ends.length === 0) return [];
  const colour = how.colour || GUESS_COLOUR;
  const traces = [];
  if (ends.length === 2) {
    const across = acrossBox(ends[0], ends[1], figure.layout.xaxis.range, figure.layout.yaxis.range) || ends;
    traces.push({type: 'scatter', mode: 'lines', meta: how.handles ? 'my_line' : 'line', name: how.name, hoverinfo: 'skip',
      x: across.map((p) => p.x), y: across.map((p) => p.y),
      line: {color: colour, width: 4, dash: how.sent ? 'solid' : 'dash'}});
  }
  if (how.handles) {
    traces.push({type: 'scatter', mode: 'markers', meta: 'my_line_handles', showlegend: false, hoverinfo: 'skip',
      x: ends.map((p) => p.x), y: ends.map((p) => p.y),
      marker: {size: 22, color: 'rgba(255,255,255,0.85)', line: {width: 3, color: colour}}});
  }
  return traces;
}

/**
 * Read the student's drawing on ``plot``: taps through ``onTap`` (student_taps.js calls it),
 * drags of an end here. ``ends()`` gives the current ends, ``changed(ends)`` takes new ones.
 * @param {PlotRoot} plot
 * @param {() => boolean} ready  whether the student may draw now
 * @param {() => End[]} ends
 * @param {(ends: End[]) => void} changed
 * @returns {(x: number, y: number) => void} what a tap at (x, y) does
 */
export function readLine(plot, ready, ends, changed) {
  /** @type {{id: number, index: number} | null} */
  let drag = null;

  /** The index of the end within GRAB_PX of the press, or -1. @param {number} clientX @param {number} clientY */
  function grabbed(clientX, clientY) {
    const box = plot.getBoundingClientRect();
    const current = ends();
    let best = -1, distance = GRAB_PX;
    current.forEach((end, index) => {
      const [px, py] = plotPixel(plot, end.x, end.y);
      const d = Math.hypot(box.left + px - clientX, box.top + py - clientY);
      if (d < distance) { best = index; distance = d; }
    });
    return best;
  }

  plot.addEventListener('pointerdown', (event) => {
    if (!ready() || !event.isPrimary) return;
    const index = grabbed(event.clientX, event.clientY);
    if (index < 0) return;
    drag = {id: event.pointerId, index};
    plot.dataset.dragging = 'true';  // until the finger lifts (the tests wait on it)
  });
  plot.addEventListener('pointermove', (event) => {
    if (!drag || drag.id !== event.pointerId) return;
    const point = dataPoint(plot, event.clientX, event.clientY);
    if (!point) return;
    const next = ends().slice();
    next[drag.index] = point;
    changed(next);
  });
  const stop = () => { drag = null; plot.dataset.dragging = ''; };
  plot.addEventListener('pointerup', stop);
  plot.addEventListener('pointercancel', stop);

  return (x, y) => {
    const current = ends();
    if (current.length < 2) { changed(current.concat([{x, y}])); return; }
    const [px, py] = plotPixel(plot, x, y);
    const apart = current.map((end) => { const [ex, ey] = plotPixel(plot, end.x, end.y); return Math.hypot(ex - px, ey - py); });
    const next = current.slice();
    next[apart[0] <= apart[1] ? 0 : 1] = {x, y};
    changed(next);
  };
}

/** Whether the drawing can be sent: two ends apart (the server asks a hundredth of the window's width).
 * @param {End[]} ends @param {number[]} xr */
export function sendable(ends, xr) {
  return ends.length === 2 && Math.hypot(ends[1].x - ends[0].x, ends[1].y - ends[0].y) >= 0.011 * Math.abs(xr[1] - xr[0]);
}
