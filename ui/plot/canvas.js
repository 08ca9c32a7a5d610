// The canvas element: draws the scene's figure with plotly.js, fitted to its box, and binds the
// gestures (canvas_gestures.js and the modules it names) once per plot. Loaded by module_loader.js.
import { dragAfterDraw, requestLive, withAdded } from './canvas_drag_live.js';
import { classPicker } from './class_picker.js';
import { DRAGMODES, TOOL_DRAGMODES, applyTool, commit, currentTool, liveLine, plotArea, send, toolbar } from './canvas_gestures.js';
import { kbAfterDraw, kbSetUp } from './canvas_keyboard.js';
import { afterPatches } from './canvas_patch.js';
import { bind, bindKeys } from './canvas_touch_wheel_keys.js';
import { fill, loadPlotly, observeWidth, plotConfig, plotRoot, themed } from './plotly_shared.js';

const MIN_HEIGHT = 240;  // px: the canvas never gets shorter than this to fit a wide window
// 0 the full legend, 1 short names, 2 short names in a smaller font, 3 and on: without the
// first, then the second, optional entry (the figure's compact.optional)
const LEGEND_LEVELS = 4;

function roomHeight(root, data) {
  // The height the canvas has: the script's, or in presentation down to the window's bottom,
  // shared with the canvases stacked below it in its column (fill_screen = how many share it),
  // each of which sits under a title as tall as this one's, one gap (1rem) further down. A
  // share below the least height would leave a strip no one can read: then each canvas takes
  // the window's height and the rest are a scroll away (one below the window's bottom gets the
  // window's height less its title, what it has once scrolled to its title).
  const rows = Number(data.fill_screen) || 0;
  const top = root.getBoundingClientRect().top + window.scrollY;
  if (!rows) {
    // Outside presentation the script's height, shortened (down to within_window px) so that the
    // whole plot is on the first screen: the page's first look shows all of it (a 1280 x 800 laptop).
    if (!data.within_window) return data.height;
    // The layout viewport's height, not innerHeight: a phone's address bar folding away as the page
    // scrolls changes innerHeight, and the plot must not change size under the finger.
    const screen = document.documentElement.clientHeight || window.innerHeight;
    return Math.min(data.height, Math.max(data.within_window, Math.floor(screen - top - 12)));
  }
  // A column of several canvases (a comparison): each sits under a title like the first one's.
  const column = root.closest('[data-testid="stColumn"]');
  const stacked = column ? column.querySelectorAll('.pg-canvas') : [];
  const several = stacked.length > 1 || (column && rows > 1);  // the next may not be drawn yet
  const header = several ? stacked[0].getBoundingClientRect().top - column.getBoundingClientRect().top : 0;
  const below = stacked.length > 1 && top + data.min_height > window.innerHeight;
  const room = below ? window.innerHeight - header - 24 : window.innerHeight - top - 12;
  if (rows > 1) {
    const gap = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    const share = Math.floor((room - (rows - 1) * (header + gap)) / rows);
    if (share >= data.min_height) return share;
  }
  return Math.max(data.min_height, Math.floor(room));
}

function canvasHeight(root, data, layout) {
  // Equal scales: a window wider than the room makes the plot area shorter than the canvas;
  // the canvas then shrinks to it rather than leave an empty band below the plot (not while
  // a fitted window is about to take the room's shape).
  const room = roomHeight(root, data);
  root.__pgRoom = room;
  if (data.fit && root.__pgFitted !== data.fit) return room;
  const margin = (layout && layout.margin) || {}, [x0, x1, y0, y1] = data.window;
  const width = root.clientWidth - (margin.l || 0) - (margin.r || 0);
  if (width <= 0) return room;
  const needed = Math.ceil((margin.t || 0) + (margin.b || 0) + width * (y1 - y0) / (x1 - x0)) + 2;
  return Math.min(room, Math.max(MIN_HEIGHT, needed));
}

function legendRows(root) {
  const rows = new Set();
  root.querySelectorAll('.legend .traces').forEach((entry) => {
    const match = /translate\(\s*[-\d.e]+[ ,]+([-\d.e]+)\s*\)/.exec(entry.getAttribute('transform') || '');
    if (match) rows.add(Math.round(parseFloat(match[1])));
  });
  return rows.size;
}

function shownFigure(figure, level, legendX) {
  // The legend stays one row: shorter names (and a legend title) where the full ones do not fit;
  // it starts where the plot area does (equal scales may centre a narrower plot).
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

const CAPTION_MIN_PX = 9;  // a caption is never made smaller than this to fit a narrow canvas
// Presentation's legibility floor (ui/plot/projector_sizes.py): a text sent at this size or more
// is never made smaller than it to fit (the caption wraps instead, ui/plot/caption.py).
const LEGIBLE_PX = 18;

function captionKey(root) {
  // The caption as the server sent it (its text and type size) and the canvas's width.
  const layout = root.__pgFigure.layout;
  const note = (layout.annotations || []).find((a) => a.name === 'caption');
  return note ? JSON.stringify([note.text, (note.font || {}).size, root.clientWidth]) : null;
}

function withCaptionFitted(root, layout) {
  // The caption (ui/plot/caption.py) in the smaller type it was found to need on this canvas.
  const fit = root.__pgCaptionFit;
  if (!fit || fit.key !== captionKey(root)) return layout;
  return Object.assign({}, layout, {annotations: layout.annotations.map((a) =>
    a.name === 'caption' ? Object.assign({}, a, {font: Object.assign({}, a.font, {size: fit.size})}) : a)});
}

function captionTooWide(root, layout) {
  // plotly does not wrap a label: on a narrow canvas (a phone) the caption's longest line may run
  // under the mode bar and out of the canvas. Then its type is made smaller, once for this text
  // and width, so that the line fits (true: draw again).
  const key = captionKey(root);
  const index = (layout.annotations || []).findIndex((a) => a.name === 'caption');
  const node = index >= 0 && root.querySelector(`.annotation[data-index="${index}"] .annotation-text-g`);
  if (!key || !node || (root.__pgCaptionFit && root.__pgCaptionFit.key === key)) return false;
  const room = root.clientWidth - ((layout.margin || {}).l || 0) - 36;  // the mode bar's column
  const width = node.getBBox().width, size = ((layout.annotations[index].font || {}).size) || 14;
  if (!width || width <= room) return false;
  const least = size >= LEGIBLE_PX ? LEGIBLE_PX : CAPTION_MIN_PX;
  root.__pgCaptionFit = {key: key, size: Math.max(least, Math.floor(size * room / width))};
  return true;
}

function plotStart(root, layout, window) {
  // Where the plot area starts across the room (0..1): equal scales centre a narrower plot.
  const margin = layout.margin || {}, [x0, x1, y0, y1] = window;
  const width = root.clientWidth - (margin.l || 0) - (margin.r || 0);
  const height = layout.height - (margin.t || 0) - (margin.b || 0);
  if (width <= 0 || height <= 0) return 0;
  return Math.max(0, (1 - Math.min(1, (height * (x1 - x0)) / (y1 - y0) / width)) / 2);
}

export function draw(root, Plotly) {
  // One draw at a time per canvas: plotly.js fails (inside its own timers) when a Plotly.react starts
  // while another is under way. A draw asked for meanwhile runs once the current one is done, and
  // several such asks are one draw (of the newest figure).
  if (root.__pgDrawing) {
    if (!root.__pgNextDraw) {
      const again = () => { root.__pgNextDraw = null; return draw(root, Plotly); };
      root.__pgNextDraw = root.__pgDrawing.then(again, again);
    }
    return root.__pgNextDraw;
  }
  return exclusive(root, () => drawNow(root, Plotly, 0));
}

export function exclusive(root, job) {
  // ``job`` (a plotly call on this canvas) once the draw or job under way is done, and a draw asked
  // for meanwhile after it (see draw): two plotly calls on one plot never overlap.
  const started = root.__pgDrawing ? root.__pgDrawing.then(job, job) : Promise.resolve(job());
  const mine = started.then(
    () => { if (root.__pgDrawing === mine) root.__pgDrawing = null; },
    (err) => { if (root.__pgDrawing === mine) root.__pgDrawing = null; throw err; });
  root.__pgDrawing = mine;
  return mine;
}

function drawNow(root, Plotly, depth) {
  // Plotly.react; then again with a shorter legend while the full one wraps to a second row. The
  // level is kept while the legend's entries and the plot area's width stay (a click draws once);
  // other entries (a method, strategy or scene) or another width start again from the full legend.
  const start = plotStart(root, root.__pgFigure.layout, root.__pgData.window);
  const key = JSON.stringify([(root.__pgLiveFigure || root.__pgFigure).data.map(t => (t.showlegend === false ? null : t.name)),
                              root.clientWidth, start.toFixed(3)]);
  if (!depth && root.__pgLegendKey !== key) {
    root.__pgLegendKey = key;
    root.__pgLegendLevel = 0;
  }
  const level = root.__pgLegendLevel || 0;
  // A gesture in progress shows the live route's figure (ui/plot/canvas_drag_live.js), else the session's.
  const figure = withAdded(root, shownFigure(root.__pgLiveFigure || root.__pgFigure, level, start));
  // The width too, explicitly: Plotly.react keeps the width of the first draw otherwise, so a
  // window made wider (a laptop's page moved to the projector) kept a small plot.
  if (root.clientWidth) figure.layout.width = root.clientWidth;
  figure.layout = afterPatches(withCaptionFitted(root, figure.layout), root);
  return Plotly.react(root, figure.data, figure.layout, root.__pgConfig).then(() => {
    // The tool's drag mode, set as plotly's own toolbar sets it (given to Plotly.react instead,
    // plotly.js 7.1 overflows its stack styling a box selection).
    const tool = currentTool();
    if (!TOOL_DRAGMODES[tool].includes(root._fullLayout.dragmode)) return Plotly.relayout(root, {dragmode: DRAGMODES[tool]});
  }).then(() => {
    // Browser-side playback (ui/plot/playback.js) keeps the server's figure and draws its step over it.
    if (window.__pgAfterCanvasDraw) window.__pgAfterCanvasDraw(root);
    if ((depth || 0) < LEGEND_LEVELS + 1 && captionTooWide(root, figure.layout)) return drawNow(root, Plotly, (depth || 0) + 1);
    if ((depth || 0) >= LEGEND_LEVELS || !figure.layout.showlegend) return;
    if (legendRows(root) > 1 && level < LEGEND_LEVELS) {
      root.__pgLegendLevel = level + 1;
      return drawNow(root, Plotly, (depth || 0) + 1);
    }
  });
}

export function liveFrame(root) {
  // The live figure as drawNow would give it to plotly (the legend's level and place kept).
  const start = plotStart(root, root.__pgFigure.layout, root.__pgData.window);
  return withAdded(root, shownFigure(root.__pgLiveFigure, root.__pgLegendLevel || 0, start));
}

function fitToPlotArea(root, Plotly, data) {
  // A window the app fitted to the points (Fit view, new clusters, a preset, the first scene)
  // takes the plot area's shape, so the regions fill it; the user sees and keeps that window.
  if (!data.fit || root.__pgFitted === data.fit) return;
  root.__pgFitted = data.fit;
  const [w, h] = plotArea(root) || [0, 0];
  if (!w || !h) return;
  const [x0, x1, y0, y1] = data.window, want = w / h, have = (x1 - x0) / (y1 - y0);
  if (Math.abs(have / want - 1) < 0.005) return;
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const half = have < want ? [(y1 - y0) * want / 2, (y1 - y0) / 2] : [(x1 - x0) / 2, (x1 - x0) / want / 2];
  // The relayout is reported like a zoom (plotly_relayout), so Python keeps this window.
  Plotly.relayout(root, {'xaxis.range': [cx - half[0], cx + half[0]], 'yaxis.range': [cy - half[1], cy + half[1]]});
}

function pageTop(root) {
  return root.getBoundingClientRect().top + window.scrollY;
}

function redraw(root, Plotly, widthChanged) {
  // After a resize: the height the plot now needs (presentation: the window's); on a wider
  // canvas the full legend may fit again.
  const data = root.__pgData, figure = root.__pgFigure;
  const height = canvasHeight(root, data, figure.layout);
  if (!widthChanged && Math.abs(height - figure.layout.height) < 2) return;
  root.style.height = height + 'px';
  figure.layout.height = height;
  return draw(root, Plotly);
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = plotRoot(parentElement, 'pg-canvas');
  root.__pgData = data;
  const fresh = !root.__pgSend;
  root.__pgSend = setTriggerValue;
  window.__pgAck = Math.max(window.__pgAck || 0, data.ack || 0);
  window.__pgQueue = (window.__pgQueue || []).filter(e => e.nonce > window.__pgAck);
  // A canvas made anew (a rerun re-created the element): edits sent through the one it replaced
  // may never have left, so it sends what is still unacknowledged.
  if (fresh && window.__pgQueue.length) setTimeout(() => commit(root), 0);
  classPicker(root, toolbar(root, parentElement, data.texts));
  kbSetUp(root, parentElement);
  root.__pgFileName = data.file_name;
  window.__pgKeyRoot = root;
  bindKeys();
  const figure = JSON.parse(themed(data.figure, data.dark_swaps));
  const height = canvasHeight(root, data, figure.layout);
  root.style.height = height + 'px';
  root.dataset.receivedAt = performance.now().toFixed(1);  // the benchmark's page-update split
  const status = parentElement.querySelector('.pg-status') || (() => {
    const el = document.createElement('div'); el.className = 'pg-status'; parentElement.appendChild(el); return el;
  })();
  loadPlotly(data.plotly_url).then((Plotly) => {
    figure.layout.height = height;  // plotly keeps its first height otherwise
    root.__pgFigure = figure;
    if (!root.__pgDrag) {  // the session's figure takes over from the live one
      root.__pgLiveFigure = null;
      root.__pgLiveKey = null;
      if (root.__pgLiveOff) { root.__pgLiveOff = false; root.dataset.liveOff = ''; liveLine(root, null); }
    }
    plotConfig(Plotly, root, data.config, [{name: 'pgFitView', title: data.texts.fit_view,
      icon: Plotly.Icons.home, click: () => send(root, {type: 'fit'})}], data.texts);
    const started = performance.now();
    return draw(root, Plotly).then(() => {
      if (!root.__pgBound) {
        bind(root);
        // A new width may fit the full legend again, and changes the height a wide window needs.
        observeWidth(root, Plotly, () => redraw(root, Plotly, true));
        window.addEventListener('resize', () => { if (root.isConnected) redraw(root, Plotly, false); });
        // In presentation the room is the window below the canvas's top, and that top moves when
        // elements above it change (a rerun's stale elements going away, the presenter bar taking
        // a second row), with no resize event. The page's block may keep its size meanwhile (the
        // canvas under the bar keeps its height), so the bar is watched too.
        const page = root.closest('[data-testid="stMainBlockContainer"]') || document.body;
        const follow = new ResizeObserver(() => {
          if (root.isConnected && root.__pgData.fill_screen && root.__pgFigure) redraw(root, Plotly, false);
        });
        follow.observe(page);
        root.__pgFollow = follow;
        root.__pgBound = true;
      }
      const bar = document.querySelector('.st-key-pg_view_row');
      if (bar && root.__pgFollowedBar !== bar) {  // the bar drawn anew is a new element to watch
        root.__pgFollowedBar = bar;
        root.__pgFollow.observe(bar);
      }
      root.__pgTop = pageTop(root);
      if (data.fill_screen && !root.__pgTopWatch) {
        // And a look twice a second: an element above can move the plot without any size the
        // observers watch changing (a button wrapping to the bar's next row inside a fixed block).
        // Only a moved top redraws: a redraw at any other moment could catch a view being framed.
        root.__pgTopWatch = setInterval(() => {
          if (!root.isConnected) { clearInterval(root.__pgTopWatch); return; }
          const top = pageTop(root);
          if (Math.abs(top - root.__pgTop) <= 1 || !root.__pgData.fill_screen || !root.__pgFigure || root.__pgDrag) return;
          root.__pgTop = top;
          redraw(root, Plotly, false);
        }, 500);
      }
      applyTool(root);
      root.dataset.revision = data.revision;
      root.dataset.points = data.n_points;
      root.dataset.renderMs = (performance.now() - started).toFixed(1);
      fitToPlotArea(root, Plotly, data);
      dragAfterDraw(root, data);
      kbAfterDraw(root, data);
      requestLive(root);  // edits made since this figure was asked for: their boundary at once
      status.textContent = '';
      // Now that the new scene is on screen, the panels below catch up (follow_canvas).
      const panels = window.__pgPanels;
      if (data.panels_follow && panels && panels.drawnFor !== data.panels_follow && !root.__pgDrag) {
        panels.drawnFor = data.panels_follow;
        panels.refresh(data.panels_follow);
      }
    });
  }).catch((err) => { status.textContent = fill(data.texts.not_drawn, {error: err.message}); });
}
