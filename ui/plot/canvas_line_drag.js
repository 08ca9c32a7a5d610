// Moving the person's line (issue 46): its two handles and the tip of its w arrow dragged in the
// line tool, or its point dragged on the criterion's landscape (ui/plot/landscape_drag.js), with
// the line's numbers from the live route as the hand moves. Rules: ui/plot/canvas.js.
//
// Rules that hold:
// - A handle drags its end of the line, the other handle stays; the arrow's tip turns w about the
//   line's middle. w keeps the side it had (the person moved the line, not its classes): the new
//   normal is turned to the old one's half-plane.
// - The moving line is drawn in the browser (plotly shapes over the hidden committed traces) and
//   the landscape's marker follows it (a page event, YOUR_LINE_MOVED); the live route answers the
//   line's accuracy and criterion (one request in flight, the latest line always asked next); the
//   session hears of the line once, at the release (one "guess" edit). Its numbers stay on the
//   tool bar's line after the release until anything else is edited, the line changes or another
//   tool is chosen (lineAfterDraw, setTool).
// - A press on a handle that does not travel is the line tool's click, as anywhere else.
import { send } from './canvas_edits.js';
import { YOUR_LINE_MOVED, YOUR_LINE_NUMBERS, YOUR_LINE_SET, canvasData, canvasPage, canvasState } from './canvas_state.js';
import { liveLine } from './canvas_tools.js';
import { areaPixel, areaPixelAt, dataAt, inPlotArea } from './geometry.js';
import { fill } from './plotly_shared.js';

/** @typedef {[number, number, number]} Guess  w0, w1, w2 in the book's convention */
/** @typedef {{handle: number, guess: Guess, ends: [number, number][], w: Guess | null}} LineDrag
 *  which handle (0, 1; 2 the arrow's tip), the line when pressed, its handles then, the line now */

const COLOUR = '#e8590c';
const HANDLE_SLACK = 10;  // px around a handle that still press it (a finger: TOUCH_SLACK)
const TOUCH_SLACK = 18;
const ARROW_SHARE = 0.12;  // the arrow's length, a share of the view's shorter side (as the overlay's)
const MOVED_TRACES = ['your_line', 'your_line_handles'];

/**
 * The committed line's traces: its handles (with the line's weights) and its arrow.
 * @param {PlotRoot} root
 * @returns {{ends: [number, number][], tip: [number, number] | null, guess: Guess} | null}
 */
export function committedLine(root) {
  const traces = root._fullData || [];
  const handles = traces.find((t) => t.meta === 'your_line_handles' && t.visible === true);
  if (!handles || !handles.customdata || handles.x.length !== 2) return null;
  const arrow = traces.find((t) => t.meta === 'your_line' && t.mode === 'lines+markers');
  const tip = arrow && arrow.x.length === 2 ? /** @type {[number, number]} */ ([arrow.x[1], arrow.y[1]]) : null;
  return {
    ends: [[handles.x[0], handles.y[0]], [handles.x[1], handles.y[1]]], tip: tip,
    guess: /** @type {Guess} */ (Array.from(handles.customdata[0]).map(Number)),
  };
}

/**
 * The handle under the pointer: 0 or 1, 2 for the arrow's tip, or null.
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 * @param {boolean} touch
 * @returns {LineDrag | null}
 */
export function handleAt(root, clientX, clientY, touch) {
  const line = committedLine(root);
  if (!line || !inPlotArea(root, clientX, clientY)) return null;
  const [px, py] = areaPixelAt(root, clientX, clientY), slack = touch ? TOUCH_SLACK : HANDLE_SLACK;
  const places = line.tip ? line.ends.concat([line.tip]) : line.ends;
  let best = null, bestDistance = Infinity;
  places.forEach(([x, y], i) => {
    const [hx, hy] = areaPixel(root, x, y), distance = Math.hypot(hx - px, hy - py);
    if (distance <= slack && distance < bestDistance) { best = i; bestDistance = distance; }
  });
  return best === null ? null : {handle: best, guess: line.guess, ends: line.ends, w: null};
}

/**
 * The line through ``a`` and ``b``, its normal in the half-plane of ``old``'s; null for one point.
 * @param {[number, number]} a
 * @param {[number, number]} b
 * @param {Guess} old
 * @returns {Guess | null}
 */
export function through(a, b, old) {
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (!(length > 1e-9)) return null;
  let n1 = -(b[1] - a[1]) / length, n2 = (b[0] - a[0]) / length;
  if (n1 * old[1] + n2 * old[2] < 0) { n1 = -n1; n2 = -n2; }
  return [-(n1 * a[0] + n2 * a[1]), n1, n2];
}

/**
 * The line a handle at ``to`` (data) makes: an end moved, or w turned about the middle.
 * @param {LineDrag} drag
 * @param {[number, number]} to
 * @returns {Guess | null}
 */
function moved(drag, to) {
  const [a, b] = drag.ends;
  if (drag.handle < 2) return through(drag.handle === 0 ? to : a, drag.handle === 0 ? b : to, drag.guess);
  const middle = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], d = [to[0] - middle[0], to[1] - middle[1]];
  const length = Math.hypot(d[0], d[1]);
  if (!(length > 1e-9)) return null;
  const n1 = d[0] / length, n2 = d[1] / length;
  return [-(n1 * middle[0] + n2 * middle[1]), n1, n2];
}

/**
 * Where the line w0 + w1 x + w2 y = 0 crosses the view (its two ends), or null.
 * @param {Guess} w
 * @param {number[]} xr
 * @param {number[]} yr
 * @returns {[number, number][] | null}
 */
function acrossView([w0, w1, w2], xr, yr) {
  /** @type {[number, number][]} */
  const found = [];
  const [x0, x1] = [Math.min(...xr), Math.max(...xr)], [y0, y1] = [Math.min(...yr), Math.max(...yr)];
  if (Math.abs(w2) > 1e-12) for (const x of [x0, x1]) { const y = -(w0 + w1 * x) / w2; if (y >= y0 && y <= y1) found.push([x, y]); }
  if (Math.abs(w1) > 1e-12) for (const y of [y0, y1]) { const x = -(w0 + w2 * y) / w1; if (x >= x0 && x <= x1) found.push([x, y]); }
  if (found.length < 2) return null;
  let best = [found[0], found[1]], longest = -1;
  for (const p of found) for (const q of found) {
    const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (d > longest) { longest = d; best = [p, q]; }
  }
  return /** @type {[number, number][]} */ (best);
}

/**
 * The committed line's traces hidden (plotly's next draw styles them again) or shown.
 * @param {PlotRoot} root
 * @param {boolean} hidden
 */
function hideCommitted(root, hidden) {
  root.querySelectorAll('[class^=scatterlayer] .trace').forEach((group) => {
    const cd = /** @type {Element & {__data__?: PlotlyObject}} */ (group).__data__;
    const trace = cd && cd[0] && cd[0].trace;
    if (trace && MOVED_TRACES.includes(trace.meta)) /** @type {SVGElement} */ (group).style.opacity = hidden ? '0' : '';
  });
}

/**
 * The moving line drawn as plotly shapes: across the view, its handles, its arrow.
 * @param {PlotRoot} root
 * @param {Guess} w
 */
function preview(root, w) {
  const layout = root._fullLayout;
  if (!window.Plotly || !layout) return;
  const xr = layout.xaxis.range, yr = layout.yaxis.range, ends = acrossView(w, xr, yr);
  if (!ends) { window.Plotly.relayout(root, {shapes: []}); return; }
  const [a, b] = ends, at = (/** @type {number} */ f) => [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
  const middle = at(0.5), norm = Math.hypot(w[1], w[2]);
  const reach = ARROW_SHARE * Math.min(Math.abs(xr[1] - xr[0]), Math.abs(yr[1] - yr[0]));
  const tip = [middle[0] + reach * w[1] / norm, middle[1] + reach * w[2] / norm];
  const rx = 0.008 * Math.abs(xr[1] - xr[0]), ry = 0.008 * Math.abs(yr[1] - yr[0]) * (layout.xaxis._length / layout.yaxis._length);
  const dot = (/** @type {number[]} */ p, /** @type {string} */ fillcolor) => ({
    type: 'circle', xref: 'x', yref: 'y', x0: p[0] - rx, x1: p[0] + rx, y0: p[1] - ry, y1: p[1] + ry,
    fillcolor: fillcolor, line: {color: COLOUR, width: 2},
  });
  window.Plotly.relayout(root, {shapes: [
    {type: 'line', xref: 'x', yref: 'y', x0: a[0], y0: a[1], x1: b[0], y1: b[1], line: {color: COLOUR, width: 3, dash: 'dash'}},
    {type: 'line', xref: 'x', yref: 'y', x0: middle[0], y0: middle[1], x1: tip[0], y1: tip[1], line: {color: COLOUR, width: 2}},
    dot(at(0.25), 'white'), dot(at(0.75), 'white'), dot(tip, COLOUR),
  ]});
}

/**
 * A number as the page writes it: four significant digits.
 * @param {number | null} value
 */
function shown(value) {
  return value === null ? '–' : String(Number(value.toPrecision(4)));
}

/** @typedef {{accuracy: number, criterion: string, value: number | null, fit: number | null,
 *   shares: number[] | null}} LineNumbers  the live route's answer for a line (ui.plot.canvas_protocol.LiveLine) */

/**
 * The line's numbers in words: its accuracy and the method's criterion at it (and at the fit).
 * @param {PlotRoot} root
 * @param {LineNumbers} line
 * @returns {string}
 */
export function numbersText(root, line) {
  const texts = canvasData(root).texts;
  const values = {
    accuracy: (100 * line.accuracy).toFixed(1) + ' %', criterion: line.criterion,
    value: shown(line.value), fit: shown(line.fit),
  };
  return fill(line.fit === null ? texts.line_live : texts.line_live_fit, values);
}

/**
 * The live route's numbers of the line ``w`` (with each point's ring when ``shares``), or null.
 * @param {PlotRoot} root
 * @param {Guess} w
 * @param {boolean} shares
 * @returns {Promise<LineNumbers | null>}
 */
export function askNumbers(root, w, shares) {
  const data = canvasState(root).data, live = data && data.live;
  if (!live) return Promise.resolve(null);
  const body = JSON.stringify({
    scene: live.scene, edits: [], guess: w, shares: shares, add_as: live.add_as, add_test: live.add_test,
    scale: live.scale, language: live.language, painted: live.painted,
  });
  return fetch(new URL(live.url, document.baseURI).href, {method: 'POST', body: body, headers: {'Content-Type': 'application/json'}})
    .then((response) => response.json().then((answer) => (response.status === 200 && answer.line ? answer.line : null)))
    .catch(() => null);  // the numbers wait for the release: the session's table has them
}

/** @param {PlotRoot} root */
function ringsIndex(root) {
  return (root._fullData || []).findIndex((t) => t.meta === 'your_line_shares' && t.legendgroup === 'guess');
}

/**
 * The numbers on the tool bar's line, and each point's ring resized.
 * @param {PlotRoot} root
 * @param {LineNumbers} line
 */
function showNumbers(root, line) {
  const state = canvasState(root);
  const text = numbersText(root, line);
  liveLine(root, text);
  document.dispatchEvent(new CustomEvent(YOUR_LINE_NUMBERS, {detail: {text: text}}));  // the landscape says them too
  root.dataset.lineNumbers = String(Number(root.dataset.lineNumbers || 0) + 1);
  const rings = ringsIndex(root);
  if (line.shares && rings >= 0 && window.Plotly && state.lineDrag) {
    // plotly's redraw styles every trace again: the committed line stays hidden meanwhile.
    window.Plotly.restyle(root, {'marker.size': [line.shares]}, [rings]).then(() => {
      if (canvasState(root).lineDrag) hideCommitted(root, true);
    });
  }
}

/**
 * Ask the live route for the numbers of the line being moved (the latest, one request at a time).
 * @param {PlotRoot} root
 */
function requestNumbers(root) {
  const state = canvasState(root), drag = state.lineDrag;
  if (!drag || !drag.w) return;
  if (state.lineAsking) { state.lineAskAgain = true; return; }
  state.lineAsking = true;
  state.lineAskAgain = false;
  askNumbers(root, drag.w, ringsIndex(root) >= 0).then((line) => {
    if (line && state.lineDrag) showNumbers(root, line);
  }).finally(() => {
    state.lineAsking = false;
    if (state.lineAskAgain) requestNumbers(root);
  });
}

/**
 * The line moved to ``w``: drawn, its numbers asked for, the landscape told.
 * @param {PlotRoot} root
 * @param {LineDrag} drag
 * @param {Guess} w
 * @param {boolean} fromLandscape
 */
function follow(root, drag, w, fromLandscape) {
  drag.w = w;
  if (!canvasState(root).lineHidden) { hideCommitted(root, true); canvasState(root).lineHidden = true; }
  preview(root, w);
  requestNumbers(root);
  if (!fromLandscape) document.dispatchEvent(new CustomEvent(YOUR_LINE_MOVED, {detail: {w: w}}));
}

/**
 * The pointer moved while a handle is pressed.
 * @param {PlotRoot} root
 * @param {LineDrag} drag
 * @param {number} clientX
 * @param {number} clientY
 */
export function handleMove(root, drag, clientX, clientY) {
  canvasState(root).lineDrag = drag;
  const w = moved(drag, dataAt(root, clientX, clientY));
  if (w) follow(root, drag, w, false);
}

/**
 * The line let go where it is: one "guess" edit; the preview stays until the session's figure.
 * @param {PlotRoot} root
 * @param {LineDrag} drag
 */
export function handleEnd(root, drag) {
  const state = canvasState(root);
  state.lineDrag = null;
  state.lineHidden = false;
  if (!drag.w) { hideCommitted(root, false); return; }
  const [w0, w1, w2] = drag.w;
  state.lineNumbersNonce = send(root, {type: 'guess', w0: w0, w1: w1, w2: w2});
  document.dispatchEvent(new CustomEvent(YOUR_LINE_NUMBERS, {detail: {text: ''}}));
  document.dispatchEvent(new CustomEvent(YOUR_LINE_MOVED, {detail: {w: drag.w, final: true}}));
}

/**
 * The landscape's point dragged (ui/plot/landscape_drag.js): the line on the plot follows it, and
 * its release is the line's edit. Bound once per page.
 */
export function bindLandscapeLine() {
  if (canvasPage.landscapeBound) return;
  canvasPage.landscapeBound = true;
  document.addEventListener(YOUR_LINE_SET, (event) => {
    const detail = /** @type {CustomEvent<{w: Guess, final: boolean}>} */ (event).detail;
    const root = canvasPage.keyRoot;
    if (!root || !root.isConnected || !detail || !Array.isArray(detail.w)) return;
    const line = committedLine(root), state = canvasState(root);
    if (!line) return;
    const drag = state.lineDrag || {handle: -1, guess: line.guess, ends: line.ends, w: null};
    state.lineDrag = drag;
    follow(root, drag, detail.w, true);
    if (detail.final) handleEnd(root, drag);
  });
}

/**
 * After the session's figure: a released line's numbers go once they are no longer its (another
 * edit was sent since, or the line drawn is another).
 * @param {PlotRoot} root
 */
export function lineAfterDraw(root) {
  const state = canvasState(root);
  if (!state.lineNumbersNonce || state.lineDrag) return;
  if (canvasPage.nonce > state.lineNumbersNonce || !committedLine(root)) {
    state.lineNumbersNonce = 0;
    liveLine(root, null);
  }
}
