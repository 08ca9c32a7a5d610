// The criterion's landscape and the person's line, both ways (issue 46): the landscape's point of
// the line follows the line moved on the plot, and dragging the point moves the line on the plot.
// The landscape's axes are the angle of the book's w (degrees, wrapped into the chart's range) and
// -w0/||w|| (ui/panels/criterion_landscape.py); the line at (θ, d) is w = (cos θ, sin θ), w0 = -d.
//
// Rules that hold:
// - The point is moved in the browser (its SVG node's transform, no plotly redraw of the contours);
//   the page events are canvas_state.js's YOUR_LINE_MOVED (from the canvas) and YOUR_LINE_SET (to it).
// - A press on the point (within POINT_SLACK px) drags it, and only then: the chart's own zoom and
//   hover work everywhere else.
// - While the line moves, its numbers (the canvas's, YOUR_LINE_NUMBERS) are written over the
//   chart's top (right of the legend, left of plotly's tool bar) as text, and gone at the release.
import { YOUR_LINE_MOVED, YOUR_LINE_NUMBERS, YOUR_LINE_SET } from './canvas_state.js';
import { areaPixelAt } from './geometry.js';

const META = 'landscape_guess';
const POINT_SLACK = 14;  // px

/** @typedef {{bound: boolean, dragging: boolean, moved: [number, number, number] | null}} LandscapeState */
/** @type {WeakMap<PlotRoot, LandscapeState>} */
const states = new WeakMap();

/** @param {PlotRoot} root @returns {LandscapeState} */
function landscapeState(root) {
  let state = states.get(root);
  if (!state) { state = {bound: false, dragging: false, moved: null}; states.set(root, state); }
  return state;
}

/**
 * The guess marker's SVG node and its trace.
 * @param {PlotRoot} root
 * @returns {{node: SVGElement, trace: PlotlyObject} | null}
 */
function guessPoint(root) {
  for (const group of Array.from(root.querySelectorAll('[class^=scatterlayer] .trace'))) {
    const cd = /** @type {Element & {__data__?: PlotlyObject}} */ (group).__data__, trace = cd && cd[0] && cd[0].trace;
    const node = group.querySelector('path.point');
    if (trace && trace.meta === META && node) return {node: /** @type {SVGElement} */ (node), trace: trace};
  }
  return null;
}

/**
 * (angle, offset) of the book's line, the angle wrapped into the chart's x range.
 * @param {PlotRoot} root
 * @param {number[]} w
 * @returns {[number, number]}
 */
function placeOf(root, [w0, w1, w2]) {
  const range = root._fullLayout.xaxis.range, centre = (range[0] + range[1]) / 2;
  const angle = Math.atan2(w2, w1) * 180 / Math.PI, norm = Math.hypot(w1, w2);
  return [centre + ((((angle - centre + 180) % 360) + 360) % 360) - 180, -w0 / norm];
}

/**
 * Draw the point at (angle, offset) by its node's transform.
 * @param {PlotRoot} root
 * @param {[number, number]} at
 */
function putPoint(root, [angle, offset]) {
  const found = guessPoint(root), layout = root._fullLayout;
  if (!found || !layout) return;
  const px = layout.xaxis.l2p(angle), py = layout.yaxis.l2p(offset);
  if (!Number.isFinite(px) || !Number.isFinite(py)) return;
  found.node.setAttribute('transform', `translate(${px},${py})`);
  root.dataset.guessAt = `${angle.toFixed(2)},${offset.toFixed(4)}`;
}

/**
 * The landscape point under a press, or null; the line the pointer's place makes.
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 * @returns {[number, number, number]}
 */
function lineAt(root, clientX, clientY) {
  const layout = root._fullLayout, [px, py] = areaPixelAt(root, clientX, clientY);
  const angle = layout.xaxis.p2l(px), offset = layout.yaxis.p2l(py), theta = angle * Math.PI / 180;
  return [-offset, Math.cos(theta), Math.sin(theta)];
}

/**
 * @param {PlotRoot} root
 * @param {number} clientX
 * @param {number} clientY
 */
function onPoint(root, clientX, clientY) {
  const found = guessPoint(root);
  if (!found) return false;
  const box = found.node.getBoundingClientRect();
  return Math.hypot(clientX - (box.left + box.width / 2), clientY - (box.top + box.height / 2)) <= POINT_SLACK;
}

/**
 * The line of text over the chart that shows the moving line's numbers (made once).
 * @param {PlotRoot} root
 * @returns {HTMLElement}
 */
function readout(root) {
  let line = /** @type {HTMLElement | null} */ (root.querySelector('.pg-landscape-readout'));
  if (!line) {
    line = document.createElement('div');
    line.className = 'pg-landscape-readout';
    line.setAttribute('role', 'status');
    Object.assign(line.style, {position: 'absolute', right: '70px', top: '2px', zIndex: '3', fontSize: '13px',
      pointerEvents: 'none', background: 'rgba(128, 128, 128, 0.18)', borderRadius: '4px', padding: '0 6px'});
    root.style.position = 'relative';
    root.appendChild(line);
  }
  return line;
}

/**
 * The landscape chart's point bound to the canvas's line (once per chart element).
 * @param {PlotRoot} root
 */
export function bindLandscape(root) {
  const state = landscapeState(root);
  if (state.bound) return;
  state.bound = true;
  document.addEventListener(YOUR_LINE_MOVED, (event) => {
    const detail = /** @type {CustomEvent<{w: number[]}>} */ (event).detail;
    if (root.isConnected && !state.dragging && detail && root._fullLayout) putPoint(root, placeOf(root, detail.w));
  });
  document.addEventListener(YOUR_LINE_NUMBERS, (event) => {
    const detail = /** @type {CustomEvent<{text: string}>} */ (event).detail;
    if (!root.isConnected || !detail) return;
    const line = readout(root);
    line.textContent = detail.text || '';
    line.hidden = !detail.text;
  });
  const tell = (/** @type {[number, number, number]} */ w, /** @type {boolean} */ final) =>
    document.dispatchEvent(new CustomEvent(YOUR_LINE_SET, {detail: {w: w, final: final}}));
  // plotly's drag box starts on mousedown / touchstart: a press on the point is the point's.
  const keep = (/** @type {MouseEvent | TouchEvent} */ event) => {
    const at = 'touches' in event ? event.touches[0] : event;
    if (at && root._fullLayout && onPoint(root, at.clientX, at.clientY)) { event.stopPropagation(); event.preventDefault(); }
  };
  root.addEventListener('mousedown', keep, {capture: true});
  root.addEventListener('touchstart', keep, {capture: true, passive: false});
  root.addEventListener('pointerdown', (event) => {
    if (!root._fullLayout || !onPoint(root, event.clientX, event.clientY)) return;
    event.preventDefault();
    event.stopPropagation();  // plotly's zoom box does not start
    state.dragging = true;
    state.moved = null;
    root.setPointerCapture(event.pointerId);
  }, {capture: true});
  root.addEventListener('pointermove', (event) => {
    if (!state.dragging) return;
    event.preventDefault();
    event.stopPropagation();
    const w = lineAt(root, event.clientX, event.clientY);
    state.moved = w;
    putPoint(root, placeOf(root, w));
    tell(w, false);
  }, {capture: true});
  const release = (/** @type {PointerEvent} */ event) => {
    if (!state.dragging) return;
    event.stopPropagation();
    state.dragging = false;
    if (state.moved) tell(state.moved, true);
    state.moved = null;
  };
  root.addEventListener('pointerup', release, {capture: true});
  root.addEventListener('pointercancel', release, {capture: true});
}
