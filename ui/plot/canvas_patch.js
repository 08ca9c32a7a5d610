// ---- A drag's live frames drawn in place -----------------------------------------------------
//
// Plotly.react redraws every trace whenever one array changes: with many points that is a long
// task per frame, mostly restyling the markers of points that did not move (the dragged ones move
// in their own layer; BENCHMARKS.md, "Drag", has the figures). A drag frame changes the regions, the boundary and the misclassified rings
// only, so it is drawn by rewriting those traces' SVG paths in plotly's own nodes.
//
// Rules that must hold:
// - a frame is patched only when every trace that differs from what plotly last drew is a line or
//   filled polygon (rewritten path by path), the rings (moved ring by ring) or the points (the drag
//   layer shows the moved ones); anything else (a heatmap, a trace added or renamed, a style that
//   changed) draws the frame with Plotly.react as before, and so does a frame asked for while a
//   Plotly.react is under way;
// - the paths are what plotly draws for the same data (tests/test_browser_gestures.py compares
//   them with plotly's own, point by point);
// - the next Plotly.react after a patched frame redraws every trace (a new layout.datarevision),
//   so the session's figure at the release never keeps a patched path.
import { canvasState } from './canvas_state.js';
import { numbers } from './figure_numbers.js';

/** @typedef {Array<[number, number]>} Run  a line's vertices in pixels, between two gaps */
/** @typedef {() => void} Step  one change of plotly's nodes */

/** @param {PlotlyObject} a @param {PlotlyObject} b  two traces' x (or y) */
function sameNumbers(a, b) {
  if (a === b) return true;
  if (a && b && typeof a.bdata === 'string' && typeof b.bdata === 'string') return a.dtype === b.dtype && a.bdata === b.bdata;
  const u = numbers(a), v = numbers(b);
  if (!u || !v || u.length !== v.length) return false;
  for (let i = 0; i < u.length; i++) if (u[i] !== v[i] && !(u[i] !== u[i] && v[i] !== v[i])) return false;
  return true;
}

/** @param {PlotlyObject} trace */
function styleKey(trace) {
  // Everything of a trace but its coordinates (and the points' ids): equal keys, equal looks.
  // (plotly.js writes a uid, and private underscored keys, into the traces it is given.)
  /** @type {Record<string, unknown>} */
  const rest = {};
  for (const key of Object.keys(trace).sort()) {
    if (!['x', 'y', 'customdata', 'text', 'hovertext', 'uid'].includes(key) && key[0] !== '_') rest[key] = trace[key];
  }
  return JSON.stringify(rest);
}

/** @param {PlotlyObject} trace @param {PlotlyObject} xaxis @param {PlotlyObject} yaxis @returns {Run[] | null} */
function pixelRuns(trace, xaxis, yaxis) {
  // The trace's points in the subplot's pixels, one run per stretch between gaps; null if its
  // coordinates cannot be read.
  const xs = numbers(trace.x), ys = numbers(trace.y);
  if (!xs || !ys || xs.length !== ys.length) return null;
  /** @type {Run[]} */
  const runs = [];
  /** @type {Run} */
  let run = [];
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i], y = ys[i];
    if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) {
      if (run.length) runs.push(run);
      run = [];
    } else {
      run.push([xaxis.c2p(x), yaxis.c2p(y)]);
    }
  }
  if (run.length) runs.push(run);
  return runs;
}

/** @param {Run} run */
const pathOf = (run) => 'M' + run.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join('L');

/** @type {WeakMap<Element, Node>} */
const spares = new WeakMap();  // a group of lines or rings -> a node of its kind, to copy from

/** @param {Element} holder @param {Element[]} nodes @param {number} count */
function resized(holder, nodes, count) {
  // ``holder``'s ``nodes`` made ``count`` long: copies of one plotly drew added, the extra removed
  // (not hidden: plotly's next draw reuses the nodes it finds, and would keep them hidden).
  if (nodes.length) spares.set(holder, nodes[0].cloneNode(false));
  const spare = spares.get(holder);
  while (spare && nodes.length < count) nodes.push(/** @type {Element} */ (holder.appendChild(spare.cloneNode(false))));
  while (nodes.length > count) /** @type {Element} */ (nodes.pop()).remove();
  return nodes;
}

/** @type {(holder: Element | null, nodes: Element[], count: number) => holder is Element} */
const canResize = (holder, nodes, count) => !!holder && (!count || nodes.length > 0 || spares.has(holder));

/** @param {Element} group @param {PlotlyObject} trace @param {Run[]} runs @returns {Step | null} */
function linesPlan(group, trace, runs) {
  // A line (and its fill) rewritten: one path per run, as plotly draws them.
  const fill = group.querySelector('.js-fill'), holder = group.querySelector('g.lines');
  const lines = holder ? Array.from(holder.querySelectorAll('path.js-line')) : [];
  const filled = trace.fill && trace.fill !== 'none';
  if ((filled && (trace.fill !== 'toself' || !fill)) || !canResize(holder, lines, runs.length)) return null;
  return () => {
    if (filled && fill) fill.setAttribute('d', runs.map((run) => pathOf(run) + 'Z').join(''));
    resized(holder, lines, runs.length).forEach((path, i) => path.setAttribute('d', pathOf(runs[i])));
  };
}

/** @param {Element} group @param {Run[]} runs @returns {Step | null} */
function ringsPlan(group, runs) {
  // The rings moved to the points now misclassified; a ring is copied from one plotly drew.
  const holder = group.querySelector('g.points');
  const rings = holder ? Array.from(holder.querySelectorAll('path.point')) : [];
  const at = runs.flat();
  if (!canResize(holder, rings, at.length)) return null;
  return () => {
    resized(holder, rings, at.length).forEach((ring, i) => {
      ring.setAttribute('transform', `translate(${at[i][0].toFixed(2)},${at[i][1].toFixed(2)})`);
    });
  };
}

/** @param {PlotRoot} root @returns {Map<number, Element>} */
function traceGroups(root) {
  /** @type {Map<number, Element>} */
  const groups = new Map();
  root.querySelectorAll('[class^=scatterlayer] > .trace').forEach((group) => {
    const cd = /** @type {Element & {__data__?: PlotlyObject}} */ (group).__data__, trace = cd && cd[0] && cd[0].trace;
    if (trace) groups.set(trace.index, group);
  });
  return groups;
}

/** @param {PlotRoot} root @param {import('./canvas_state.js').Figure} figure @returns {Step[] | string} */
function patchPlan(root, figure) {
  // The changes that draw ``figure`` over what plotly drew last, or a string saying why it cannot
  // be patched (kept in data-patch-missed for the tests and the benchmark).
  const drawn = root.data, layout = root._fullLayout;
  if (!drawn || !layout || !layout.xaxis || !layout.yaxis) return 'nothing drawn';
  if (drawn.length !== figure.data.length) return 'traces added or removed';
  const groups = traceGroups(root), plan = [];
  for (let i = 0; i < figure.data.length; i++) {
    const was = drawn[i], now = figure.data[i];
    if (was === now) continue;
    if (was.type !== 'scatter' || now.type !== 'scatter') return `trace ${i}: ${now.type}`;
    if (styleKey(was) !== styleKey(now)) return `trace ${i} (${now.meta || now.name}): its style`;
    if (now.meta === 'points') continue;  // the moved points are in the drag layer
    if (sameNumbers(was.x, now.x) && sameNumbers(was.y, now.y)) continue;
    const group = groups.get(i), runs = group && pixelRuns(now, layout.xaxis, layout.yaxis);
    const step = !runs ? null : now.mode === 'lines' ? linesPlan(group, now, runs)
      : now.meta === 'marks' && now.mode === 'markers' ? ringsPlan(group, runs) : null;
    if (!step) return `trace ${i} (${now.meta || now.name}): not a line or the rings`;
    plan.push(step);
  }
  return plan;
}

/**
 * Draw a drag's live ``figure`` in place; false when it has to go through Plotly.react.
 * @param {PlotRoot} root
 * @param {import('./canvas_state.js').Figure} figure
 */
export function patchFrame(root, figure) {
  const state = canvasState(root);
  if (state.drawing || !state.drag) return false;
  const plan = patchPlan(root, figure);
  if (typeof plan === 'string') { root.dataset.patchMissed = plan; return false; }
  plan.forEach((step) => step());
  state.patched = true;
  root.dataset.livePatched = String(Number(root.dataset.livePatched || 0) + 1);
  return true;
}

/**
 * The layout of the next Plotly.react: after patched frames, every trace is drawn anew.
 * @param {PlotlyObject} layout
 * @param {PlotRoot} root
 * @returns {PlotlyObject}
 */
export function afterPatches(layout, root) {
  const state = canvasState(root);
  if (!state.patched) return layout;
  state.patched = false;
  state.dataRevision += 1;
  return Object.assign({}, layout, {datarevision: 'pg-' + state.dataRevision});
}
