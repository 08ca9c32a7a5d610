// A prediction round on the projector (issue 47; ui/rooms/rounds.py has its rules): how many have
// answered while the round takes lines, then every line over the plot (thin, translucent: where the
// class agrees the ink is dense), then at the reveal the fit under them and how the lines scored.
// Rules that must hold:
// - The lines are drawn on a canvas of their own over the plot's drawing area, under the points'
//   (projector_points.js) and redrawn after every plotly drawing; they take no pointer events.
// - A second round's lines are drawn over the first's, the first's grey: kept apart, never mixed.
// - Nothing here is a visitor's text: the lines are numbers, the summary's sentences the server's.
import { fill } from '../plot/plotly_shared.js';
import { plotPixel } from '../plot/geometry.js';
import { clearedLayer } from './projector_points.js';

const INK = '232, 89, 12';  // the person's line, as on the app's page (ui/plot/line_scores.py GUESS_COLOUR)
const FIRST_INK = '90, 90, 90';
const BINS = 10;

/** @typedef {{phase: string, stage: number, predictions: number, lines?: number[][], first_lines?: number[][],
 *   results?: RoundResults, question?: string}} LecturerRound */
/** @typedef {{accuracy?: number[], angle?: number[], median_accuracy?: number | null, median_angle?: number | null,
 *   spread?: {direction: number, apart: number} | null, angle_defined?: boolean, first?: RoundResults}} RoundResults */

/** P (no modifier, not while typing): the round's next step, the primary button of the round's row
 * on the presenter bar or under the projector (ui/rooms/round_panel.py), one key for a lecturer. */
export function listenRoundKey() {
  if (window.__pgRoundKey) return;
  window.__pgRoundKey = true;
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'p' && e.key !== 'P') return;
    if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    const target = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement ? e.target : null);
    const tag = target ? target.tagName.toLowerCase() : '';
    const input = tag === 'input' && !['button', 'checkbox', 'radio'].includes(/** @type {HTMLInputElement} */ (target).type);
    if (input || tag === 'textarea' || tag === 'select' || (target && target.isContentEditable)) return;
    const buttons = /** @type {HTMLButtonElement[]} */ (Array.from(document.querySelectorAll(
      '.st-key-pbr_round_row [data-testid="stBaseButton-primary"], .st-key-room_round_row [data-testid="stBaseButton-primary"]')));
    const next = buttons.find((b) => b.offsetParent !== null && !b.disabled);
    if (!next) return;
    e.preventDefault();
    next.click();
  });
}

/** How opaque one line is: alone, clearly seen; among 500, agreement reads as density. @param {number} n */
function alpha(n) { return Math.max(0.06, Math.min(0.7, 2.2 / Math.sqrt(Math.max(n, 1)))); }

/** The legend's entries of the lines drawn on the canvas (empty traces: plotly draws no line of them).
 * @param {LecturerRound | null} round @param {Record<string, string>} T @returns {PlotlyObject[]} */
export function linesLegend(round, T) {
  if (!round || round.phase === 'predict' || !round.lines || !round.lines.length) return [];
  const entry = (/** @type {string} */ name, /** @type {string} */ rgb) => ({type: 'scatter', mode: 'lines', name,
    x: [null], y: [null], hoverinfo: 'skip', line: {color: `rgb(${rgb})`, width: 2.5}, meta: 'round_lines'});
  const entries = [entry(T.round_lines, INK)];
  if (round.first_lines && round.first_lines.length) entries.push(entry(T.round_first_lines, FIRST_INK));
  return entries;
}

/** @param {CanvasRenderingContext2D} ctx @param {PlotRoot} root @param {number[][]} lines @param {string} rgb */
function stroke(ctx, root, lines, rgb) {
  const span = 1e4;  // far beyond the window on both sides: the clip keeps the drawing area
  ctx.beginPath();
  for (const [x1, y1, x2, y2] of lines) {
    const [ax, ay] = plotPixel(root, x1, y1), [bx, by] = plotPixel(root, x2, y2);
    const length = Math.hypot(bx - ax, by - ay);
    if (!(length > 0)) continue;
    const ux = (bx - ax) / length, uy = (by - ay) / length;
    ctx.moveTo(ax - ux * span, ay - uy * span);
    ctx.lineTo(ax + ux * span, ay + uy * span);
  }
  ctx.strokeStyle = `rgba(${rgb}, ${alpha(lines.length)})`;
  ctx.stroke();
}

/** Draw the round's lines over ``root`` as plotly last laid it out (nothing outside a show or reveal).
 * @param {PlotRoot} root @param {LecturerRound | null} round */
export function drawLines(root, round) {
  const ctx = clearedLayer(root, 'pg-lines-layer', 'pg-points-layer');  // under the points
  if (!ctx) return;
  const layout = root._fullLayout;
  const lines = (round && round.lines) || [];
  if (!round || round.phase === 'predict') { root.dataset.lines = '0'; return; }
  // The axes' own extent: with equal scales plotly draws a smaller area than the layout's margins leave.
  const {xaxis, yaxis} = layout;
  ctx.save();
  ctx.beginPath();
  ctx.rect(xaxis._offset, yaxis._offset, xaxis._length, yaxis._length);
  ctx.clip();
  ctx.lineCap = 'round';
  ctx.lineWidth = 2;
  if (round.first_lines && round.first_lines.length) stroke(ctx, root, round.first_lines, FIRST_INK);
  ctx.lineWidth = 2.5;
  stroke(ctx, root, lines, INK);
  ctx.restore();
  root.dataset.lines = String(lines.length);  // drawn (the tests and the benchmark wait on it)
}

/** A small bar chart of ``values`` in [0, top] (SVG, drawn with the DOM: no markup from text).
 * @param {number[]} values @param {number} top @param {string} label @param {(v: number) => string} tick */
function histogram(values, top, label, tick) {
  const ns = 'http://www.w3.org/2000/svg';
  const figure = document.createElement('figure');
  figure.className = 'pg-round-histogram';
  const svg = document.createElementNS(ns, 'svg');
  const w = 220, h = 64;
  svg.setAttribute('viewBox', `0 0 ${w} ${h + 16}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  const counts = new Array(BINS).fill(0);
  for (const v of values) counts[Math.min(BINS - 1, Math.max(0, Math.floor((v / top) * BINS)))] += 1;
  const most = Math.max(1, ...counts);
  counts.forEach((count, i) => {
    const bar = document.createElementNS(ns, 'rect');
    const bh = (count / most) * h;
    bar.setAttribute('x', String((i * w) / BINS + 1));
    bar.setAttribute('y', String(h - bh));
    bar.setAttribute('width', String(w / BINS - 2));
    bar.setAttribute('height', String(bh));
    bar.setAttribute('fill', `rgb(${INK})`);
    svg.appendChild(bar);
  });
  for (const [x, text, anchor] of [[0, tick(0), 'start'], [w, tick(top), 'end']]) {
    const t = document.createElementNS(ns, 'text');
    t.setAttribute('x', String(x));
    t.setAttribute('y', String(h + 14));
    t.setAttribute('text-anchor', String(anchor));
    t.setAttribute('font-size', '12');
    t.textContent = String(text);
    svg.appendChild(t);
  }
  const caption = document.createElement('figcaption');
  caption.textContent = label;
  figure.append(svg, caption);
  return figure;
}

/** @param {number | null | undefined} v */
const percent = (v) => (v === null || v === undefined ? '—' : Math.round(v * 100) + ' %');
/** @param {number | null | undefined} v */
const degrees = (v) => (v === null || v === undefined ? '—' : Math.round(v) + '°');

/** The round's sentence for the status line. @param {LecturerRound} round @param {number} students
 * @param {Record<string, string>} T */
export function roundSentence(round, students, T) {
  const asked = round.question ? round.question + ' · ' : '';  // the figure's question, first
  return asked + phaseSentence(round, students, T);
}

/** @param {LecturerRound} round @param {number} students @param {Record<string, string>} T */
function phaseSentence(round, students, T) {
  const count = fill(T.round_count, {n: round.predictions, students});
  if (round.phase === 'predict') return fill(round.stage === 2 ? T.round_predict_again : T.round_predict, {count});
  const results = round.results || {};
  const spread = results.spread ? fill(T.round_spread, {apart: degrees(results.spread.apart)}) : '';
  if (round.phase === 'show') return [fill(T.round_show, {count}), spread].filter(Boolean).join(' · ');
  const parts = [fill(T.round_reveal, {count}), fill(T.round_accuracy, {accuracy: percent(results.median_accuracy)})];
  if (results.angle_defined) parts.push(fill(T.round_angle, {angle: degrees(results.median_angle)}));
  if (results.first && results.angle_defined) {
    parts.push(fill(T.round_moved, {before: degrees(results.first.median_angle), after: degrees(results.median_angle)}));
  }
  return parts.join(' · ');
}

/** The reveal's distributions under the plot (emptied outside a reveal).
 * @param {HTMLElement} box @param {LecturerRound | null} round @param {Record<string, string>} T */
export function showResults(box, round, T) {
  box.textContent = '';
  const shown = !!round && round.phase !== 'predict';
  box.hidden = !shown;
  if (!round || !shown) return;
  const results = round.phase === 'reveal' ? round.results : null;
  if (results) {
    box.appendChild(histogram(results.accuracy || [], 1, T.round_accuracy_chart, percent));
    if (results.angle_defined) box.appendChild(histogram(results.angle || [], 90, T.round_angle_chart, degrees));
  }
  const save = document.createElement('button');
  save.type = 'button';
  save.className = 'pg-round-save';
  save.textContent = T.round_save;
  save.addEventListener('click', () => {
    const root = /** @type {PlotRoot | null} */ (box.parentElement && box.parentElement.querySelector('.pg-projector'));
    if (root && window.Plotly) saveOverlay(window.Plotly, root, 'round-' + round.phase + '.png');
  });
  box.appendChild(save);
}

/** The projector's plot with its lines and points, as one PNG: plotly's image of the plot, the lines'
 * and the points' canvases drawn over it at the same scale.
 * @param {PlotlyApi} Plotly @param {PlotRoot} root @param {string} name */
async function saveOverlay(Plotly, root, name) {
  const ratio = window.devicePixelRatio || 1;
  const width = root.clientWidth, height = root.clientHeight;
  const url = await Plotly.toImage(root, {format: 'png', width, height, scale: ratio});
  const image = new Image();
  await new Promise((resolve, reject) => { image.onload = resolve; image.onerror = reject; image.src = url; });
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  for (const layer of root.querySelectorAll(':scope > canvas.pg-lines-layer, :scope > canvas.pg-points-layer')) {
    ctx.drawImage(/** @type {HTMLCanvasElement} */ (layer), 0, 0, canvas.width, canvas.height);
  }
  const link = document.createElement('a');
  link.download = name;
  link.href = canvas.toDataURL('image/png');
  link.click();
}
