// Drawing the canvas: its height (the script's, or the window's in presentation), the figure drawn
// with plotly.js one draw at a time, the legend made shorter and the caption smaller where they do
// not fit, points clicked in drawn before the session's figure has them. Rules: ui/plot/canvas.js.
import { afterPatches } from './canvas_patch.js';
import { canvasData, canvasPage, canvasState } from './canvas_state.js';
import { DRAGMODES, TOOL_DRAGMODES, currentTool } from './canvas_tools.js';

/** @typedef {import('./canvas_state.js').CanvasData} CanvasData */
/** @typedef {import('./canvas_state.js').Figure} Figure */
/** @typedef {import('./canvas_state.js').ShownPoint} ShownPoint */
/** @typedef {import('./canvas_state.js').Window} Window */

const MIN_HEIGHT = 240;  // px: the canvas never gets shorter than this to fit a wide window
// 0 the full legend, 1 short names, 2 short names in a smaller font, 3 and on: without the
// first, then the second, optional entry (the figure's compact.optional)
const LEGEND_LEVELS = 4;
const CAPTION_MIN_PX = 9;  // a caption is never made smaller than this to fit a narrow canvas
// Presentation's legibility floor (ui/plot/projector_sizes.py): a text sent at this size or more
// is never made smaller than it to fit (the caption wraps instead, ui/plot/caption.py).
const LEGIBLE_PX = 18;

// ---- The canvas's height -------------------------------------------------------------------------

/**
 * The height outside presentation: the script's, shortened (down to within_window px) so that the
 * whole plot is on the first screen (the page's first look shows all of it on a 1280 x 800 laptop).
 * @param {CanvasData} data
 * @param {number} top  the canvas's top on the page
 */
function heightInPage(data, top) {
  if (!data.within_window) return data.height;
  // The layout viewport's height, not innerHeight: a phone's address bar folding away as the page
  // scrolls changes innerHeight, and the plot must not change size under the finger.
  const screen = document.documentElement.clientHeight || window.innerHeight;
  return Math.min(data.height, Math.max(data.within_window, Math.floor(screen - top - 12)));
}

/**
 * The height the canvas has: the script's, or in presentation down to the window's bottom, shared
 * with the canvases stacked below it in its column (fill_screen = how many share it), each of which
 * sits under a title as tall as this one's, one gap (1rem) further down. A share below the least
 * height would leave a strip no one can read: then each canvas takes the window's height and the
 * rest are a scroll away (one below the window's bottom gets the window's height less its title,
 * what it has once scrolled to its title).
 * @param {PlotRoot} root
 * @param {CanvasData} data
 * @returns {number}
 */
function roomHeight(root, data) {
  const rows = Number(data.fill_screen) || 0;
  const top = root.getBoundingClientRect().top + window.scrollY;
  if (!rows) return heightInPage(data, top);
  // A column of several canvases (a comparison): each sits under a title like the first one's.
  const column = root.closest('[data-testid="stColumn"]');
  const stacked = column ? column.querySelectorAll('.pg-canvas') : [];
  const several = stacked.length > 1 || (column && rows > 1);  // the next may not be drawn yet
  const header = several && column ? stacked[0].getBoundingClientRect().top - column.getBoundingClientRect().top : 0;
  const below = stacked.length > 1 && top + data.min_height > window.innerHeight;
  const room = below ? window.innerHeight - header - 24 : window.innerHeight - top - 12;
  if (rows > 1) {
    const gap = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const share = Math.floor((room - (rows - 1) * (header + gap)) / rows);
    if (share >= data.min_height) return share;
  }
  return Math.max(data.min_height, Math.floor(room));
}

/**
 * Equal scales: a window wider than the room makes the plot area shorter than the canvas; the
 * canvas then shrinks to it rather than leave an empty band below the plot (not while a fitted
 * window is about to take the room's shape).
 * @param {PlotRoot} root
 * @param {CanvasData} data
 * @param {PlotlyObject} layout
 * @returns {number}
 */
export function canvasHeight(root, data, layout) {
  const room = roomHeight(root, data), state = canvasState(root);
  state.room = room;
  root.dataset.room = String(room);  // read by the browser tests
  if (data.fit && state.fitted !== data.fit) return room;
  const margin = (layout && layout.margin) || {}, [x0, x1, y0, y1] = data.window;
  const width = root.clientWidth - (margin.l || 0) - (margin.r || 0);
  if (width <= 0) return room;
  const needed = Math.ceil((margin.t || 0) + (margin.b || 0) + width * (y1 - y0) / (x1 - x0)) + 2;
  return Math.min(room, Math.max(MIN_HEIGHT, needed));
}

/**
 * The room inside the margins, which the equal-scale plot area fits into (at the canvas's full
 * height, should it have shrunk to a wide window).
 * @param {PlotRoot} root
 * @returns {[number, number] | null}
 */
export function plotArea(root) {
  const layout = root._fullLayout, size = layout && layout._size;
  if (!size) return null;
  return [Math.round(size.w), Math.round(size.h + Math.max(0, canvasState(root).room - layout.height))];
}

// ---- The legend and the caption ------------------------------------------------------------------

/** @param {PlotRoot} root */
function legendRows(root) {
  const rows = new Set();
  root.querySelectorAll('.legend .traces').forEach((entry) => {
    const match = /translate\(\s*[-\d.e]+[ ,]+([-\d.e]+)\s*\)/.exec(entry.getAttribute('transform') || '');
    if (match) rows.add(Math.round(parseFloat(match[1])));
  });
  return rows.size;
}

/**
 * The legend stays one row: shorter names (and a legend title) where the full ones do not fit;
 * it starts where the plot area does (equal scales may centre a narrower plot).
 * @param {Figure} figure
 * @param {number} level
 * @param {number} legendX
 * @returns {Figure}
 */
function shownFigure(figure, level, legendX) {
  const layout = Object.assign({}, figure.layout, {legend: Object.assign({}, figure.layout.legend, {x: legendX})});
  if (!level || !figure.compact) return {data: figure.data, layout: layout};
  const names = figure.compact.names || [];
  const optional = (figure.compact.optional || []).slice(0, Math.max(0, level - 2)).flat();
  const data = figure.data.map((trace, i) => {
    if (optional.includes(i)) return Object.assign({}, trace, {showlegend: false});
    return names[i] ? Object.assign({}, trace, {name: names[i]}) : trace;
  });
  const size = ((figure.layout.legend || {}).font || {}).size || (figure.layout.font || {}).size || 13;
  const font = {size: level >= 2 && size < LEGIBLE_PX ? 0.8 * size : size};  // presentation's stays
  Object.assign(layout.legend, {
    title: {text: figure.compact.legend_title, side: 'left', font: font}, font: font,
    itemwidth: level >= 2 ? 30 : undefined,
  });
  return {data: data, layout: layout};
}

/**
 * The caption as the server sent it (its text and type size) and the canvas's width.
 * @param {PlotRoot} root
 * @param {Figure} figure
 */
function captionKey(root, figure) {
  const note = (figure.layout.annotations || []).find((/** @type {PlotlyObject} */ a) => a.name === 'caption');
  return note ? JSON.stringify([note.text, (note.font || {}).size, root.clientWidth]) : null;
}

/**
 * The caption (ui/plot/caption.py) in the smaller type it was found to need on this canvas.
 * @param {PlotRoot} root
 * @param {Figure} figure  the session's
 * @param {PlotlyObject} layout  the one to draw
 */
function withCaptionFitted(root, figure, layout) {
  const fit = canvasState(root).captionFit;
  if (!fit || fit.key !== captionKey(root, figure)) return layout;
  return Object.assign({}, layout, {annotations: layout.annotations.map((/** @type {PlotlyObject} */ a) =>
    a.name === 'caption' ? Object.assign({}, a, {font: Object.assign({}, a.font, {size: fit.size})}) : a)});
}

/**
 * plotly does not wrap a label: on a narrow canvas (a phone) the caption's longest line may run
 * under the mode bar and out of the canvas. Then its type is made smaller, once for this text and
 * width, so that the line fits (true: draw again).
 * @param {PlotRoot} root
 * @param {Figure} figure  the session's
 * @param {PlotlyObject} layout  the one drawn
 */
function captionTooWide(root, figure, layout) {
  const key = captionKey(root, figure), state = canvasState(root);
  const index = (layout.annotations || []).findIndex((/** @type {PlotlyObject} */ a) => a.name === 'caption');
  const node = index >= 0 ? /** @type {SVGGraphicsElement | null} */ (root.querySelector(`.annotation[data-index="${index}"] .annotation-text-g`)) : null;
  if (!key || !node || (state.captionFit && state.captionFit.key === key)) return false;
  const room = root.clientWidth - ((layout.margin || {}).l || 0) - 36;  // the mode bar's column
  const width = node.getBBox().width, size = ((layout.annotations[index].font || {}).size) || 14;
  if (!width || width <= room) return false;
  const least = size >= LEGIBLE_PX ? LEGIBLE_PX : CAPTION_MIN_PX;
  state.captionFit = {key: key, size: Math.max(least, Math.floor(size * room / width))};
  return true;
}

/**
 * Where the plot area starts across the room (0..1): equal scales centre a narrower plot.
 * @param {PlotRoot} root
 * @param {PlotlyObject} layout
 * @param {Window} window
 */
function plotStart(root, layout, window) {
  const margin = layout.margin || {}, [x0, x1, y0, y1] = window;
  const width = root.clientWidth - (margin.l || 0) - (margin.r || 0);
  const height = layout.height - (margin.t || 0) - (margin.b || 0);
  if (width <= 0 || height <= 0) return 0;
  return Math.max(0, (1 - Math.min(1, (height * (x1 - x0)) / (y1 - y0) / width)) / 2);
}

// ---- Drawing, one draw at a time -----------------------------------------------------------------

/**
 * One draw at a time per canvas: plotly.js fails (inside its own timers) when a Plotly.react starts
 * while another is under way. A draw asked for meanwhile runs once the current one is done, and
 * several such asks are one draw (of the newest figure).
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @returns {Promise<void>}
 */
export function draw(root, Plotly) {
  const state = canvasState(root);
  if (state.drawing) {
    if (!state.nextDraw) {
      const again = () => { state.nextDraw = null; return draw(root, Plotly); };
      state.nextDraw = state.drawing.then(again, again);
    }
    return state.nextDraw;
  }
  return exclusive(root, () => drawNow(root, Plotly, 0));
}

/**
 * ``job`` (a plotly call on this canvas) once the draw or job under way is done, and a draw asked
 * for meanwhile after it (see draw): two plotly calls on one plot never overlap.
 * @param {PlotRoot} root
 * @param {() => unknown} job
 * @returns {Promise<void>}
 */
export function exclusive(root, job) {
  const state = canvasState(root);
  const started = state.drawing ? state.drawing.then(job, job) : Promise.resolve(job());
  /** @type {Promise<void>} */
  const mine = started.then(
    () => { if (state.drawing === mine) state.drawing = null; },
    (err) => { if (state.drawing === mine) state.drawing = null; throw err; });
  state.drawing = mine;
  return mine;
}

/**
 * The session's figure (or the live route's, while a gesture is under way) as it is drawn: the
 * legend at its level and place, the points clicked in meanwhile, the caption fitted, plotly's
 * width given.
 * @param {PlotRoot} root
 * @param {Figure} shown
 * @param {number} level
 */
function drawnFigure(root, shown, level) {
  const session = /** @type {Figure} */ (canvasState(root).figure);
  const figure = withAdded(root, shownFigure(shown, level, plotStart(root, session.layout, canvasData(root).window)));
  // The width too, explicitly: Plotly.react keeps the width of the first draw otherwise, so a
  // window made wider (a laptop's page moved to the projector) kept a small plot.
  if (root.clientWidth) figure.layout.width = root.clientWidth;
  figure.layout = afterPatches(withCaptionFitted(root, session, figure.layout), root);
  return figure;
}

/**
 * Plotly.react; then again with a shorter legend while the full one wraps to a second row. The
 * level is kept while the legend's entries and the plot area's width stay (a click draws once);
 * other entries (a method, strategy or scene) or another width start again from the full legend.
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {number} depth  the draws before this one in this chain
 * @returns {Promise<void>}
 */
function drawNow(root, Plotly, depth) {
  const state = canvasState(root), session = /** @type {Figure} */ (state.figure);
  // A gesture in progress shows the live route's figure (ui/plot/canvas_edits.js), else the session's.
  const shown = state.liveFigure || session;
  const start = plotStart(root, session.layout, canvasData(root).window);
  const key = JSON.stringify([shown.data.map((t) => (t.showlegend === false ? null : t.name)), root.clientWidth, start.toFixed(3)]);
  if (!depth && state.legendKey !== key) {
    state.legendKey = key;
    state.legendLevel = 0;
  }
  const level = state.legendLevel;
  const figure = drawnFigure(root, shown, level);
  return Plotly.react(root, figure.data, figure.layout, root.__pgConfig).then(() => {
    // The tool's drag mode, set as plotly's own toolbar sets it (given to Plotly.react instead,
    // plotly.js 7.1 overflows its stack styling a box selection).
    const tool = currentTool();
    if (!TOOL_DRAGMODES[tool].includes(root._fullLayout.dragmode)) return Plotly.relayout(root, {dragmode: DRAGMODES[tool]});
  }).then(() => {
    // Browser-side playback (ui/plot/playback.js) keeps the server's figure and draws its step over it.
    if (canvasPage.afterDraw) canvasPage.afterDraw(root);
    if (depth < LEGEND_LEVELS + 1 && captionTooWide(root, session, figure.layout)) return drawNow(root, Plotly, depth + 1);
    if (depth >= LEGEND_LEVELS || !figure.layout.showlegend) return;
    if (legendRows(root) > 1 && level < LEGEND_LEVELS) {
      state.legendLevel = level + 1;
      return drawNow(root, Plotly, depth + 1);
    }
  });
}

/**
 * The live figure as drawNow would give it to plotly (the legend's level and place kept).
 * @param {PlotRoot} root
 * @returns {Figure}
 */
export function liveFrame(root) {
  const state = canvasState(root), session = /** @type {Figure} */ (state.figure);
  const start = plotStart(root, session.layout, canvasData(root).window);
  return withAdded(root, shownFigure(/** @type {Figure} */ (state.liveFigure), state.legendLevel, start));
}

/**
 * A window the app fitted to the points (Fit view, new clusters, a preset, the first scene) takes
 * the plot area's shape, so the regions fill it; the user sees and keeps that window.
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {CanvasData} data
 */
export function fitToPlotArea(root, Plotly, data) {
  const state = canvasState(root);
  if (!data.fit || state.fitted === data.fit) return;
  state.fitted = data.fit;
  const [w, h] = plotArea(root) || [0, 0];
  if (!w || !h) return;
  const [x0, x1, y0, y1] = data.window, want = w / h, have = (x1 - x0) / (y1 - y0);
  if (Math.abs(have / want - 1) < 0.005) return;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const half = have < want ? [(y1 - y0) * want / 2, (y1 - y0) / 2] : [(x1 - x0) / 2, (x1 - x0) / want / 2];
  // The relayout is reported like a zoom (plotly_relayout), so Python keeps this window.
  Plotly.relayout(root, {'xaxis.range': [cx - half[0], cx + half[0]], 'yaxis.range': [cy - half[1], cy + half[1]]});
}

/**
 * After a resize: the height the plot now needs (presentation: the window's); on a wider canvas
 * the full legend may fit again.
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {boolean} widthChanged
 */
export function redraw(root, Plotly, widthChanged) {
  const data = canvasData(root), figure = /** @type {Figure} */ (canvasState(root).figure);
  const height = canvasHeight(root, data, figure.layout);
  if (!widthChanged && Math.abs(height - figure.layout.height) < 2) return;
  root.style.height = height + 'px';
  figure.layout.height = height;
  return draw(root, Plotly);
}

// ---- What the plot shows -------------------------------------------------------------------------

/**
 * id -> [x, y, marker size] of the markers of traces with this meta (visible ones only).
 * @param {PlotRoot} root
 * @param {string} [meta]
 * @returns {Map<number, ShownPoint>}
 */
export function shownPoints(root, meta) {
  /** @type {Map<number, ShownPoint>} */
  const shown = new Map();
  (root._fullData || []).forEach((trace) => {
    if (trace.meta !== (meta || 'points') || trace.visible !== true || !trace.customdata) return;
    const size = (trace.marker && trace.marker.size) || 10;
    for (let i = 0; i < trace._length; i++) {
      const id = trace.customdata[i];
      if (id >= 0) shown.set(id, [trace.x[i], trace.y[i], typeof size === 'number' ? size : 10]);
    }
  });
  return shown;
}

/**
 * Points clicked in and not yet in a figure from the server, drawn at once in the active class's
 * marker (the live route's figure, then the session's, draw them with the refit).
 * @param {PlotRoot} root
 * @param {Figure} figure
 * @returns {Figure}
 */
export function withAdded(root, figure) {
  const state = canvasState(root), marker = state.data && state.data.new_point;
  const added = state.added.filter((p) => p.nonce > canvasPage.ack);
  state.added = added;
  if (!marker || !added.length) return figure;
  return {layout: figure.layout, data: figure.data.concat([{
    type: 'scatter', mode: 'markers', x: added.map((p) => p.x), y: added.map((p) => p.y), marker: marker,
    hoverinfo: 'skip', showlegend: false, meta: 'added',
  }])};
}
