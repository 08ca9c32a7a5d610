// The canvas element: draws the scene's figure with plotly.js, fitted to its box, and binds the
// gestures once per plot. Loaded by module_loader.js. This module only wires the canvas's modules,
// each of which imports only modules listed above it (no loop: eslint's import-x/no-cycle):
//   canvas_state.js    one typed record per plot, the page's edit queue and tool (imports nothing)
//   geometry.js        data coordinates <-> pixels (imports nothing; the rooms' plots use it too)
//   canvas_tools.js    the tools and the tool bar
//   canvas_patch.js    a drag's live frames drawn in place
//   canvas_draw.js     the height, the legend and caption fitted, one draw at a time
//   canvas_edits.js    the edit queue sent to the session, the live route, points shown at once
//   canvas_drag.js     dragging points, the selection
//   canvas_line_drag.js moving the person's line: its handles, its arrow, the landscape's point
//   canvas_line.js     drawing the person's line
//   canvas_presses.js  clicks and presses, mouse and touch alike
//   canvas_input.js    the listeners: presses, touch, the wheel, plotly's events
//   page_shortcuts.js  the canvas's keys anywhere on the page
//   canvas_keyboard.js the plot by keyboard (its own rules there)
//
// Rules that must hold (a lecturer in front of a class relies on them):
// - A gesture does what its tool says, nothing else. add (the default): every click adds a point
//   exactly where the pointer was pressed, on empty space or on a marker (a dense cluster is built
//   by clicking among its points); Alt/⌥-click on a point erases it instead; a press on a point that
//   travels moves it. move: drag points (empty space pans).
//   erase: a click on a point, or a box / lasso, removes. select: a click or a box / lasso selects,
//   a selected point drags the whole selection, Delete erases it.
// - Every click lands: coordinates come from the pointer event itself (never plotly's throttled
//   hover), edits are queued page-wide in order with increasing nonces and re-sent until the
//   session acknowledges them (``send``), never dropped or merged. Two quick clicks at one spot
//   (a double-click, a cluster built fast) are two clicks: the add tool adds both points. The view
//   is fitted by ⌂ in plotly's toolbar, the sidebar's Fit view and the key F, never by a click.
// - The wheel scrolls the page; Ctrl/⌘ + wheel (and a trackpad's pinch) zooms about the pointer;
//   on a touch screen one finger scrolls the page in the add tool (a tap adds), two fingers pan
//   and zoom.
// - A drag is drawn in the browser: the points follow the pointer every frame, and the regions and
//   boundary come from the live route (ui/server/live_route.py, no Streamlit rerun), one request in flight
//   at a time, the latest position always asked for next. The session hears of the drag once, at
//   the release (one undo step). Without the route the drag still commits, and a line says so.
import { classPicker } from './class_picker.js';
import { dragAfterDraw } from './canvas_drag.js';
import { canvasHeight, draw, fitToPlotArea, redraw } from './canvas_draw.js';
import { acknowledged, commit, requestLive, send } from './canvas_edits.js';
import { bindInput } from './canvas_input.js';
import { bindLandscapeLine, lineAfterDraw } from './canvas_line_drag.js';
import { kbAfterDraw, kbSetUp } from './canvas_keyboard.js';
import { canvasData, canvasPage, canvasState } from './canvas_state.js';
import { applyTool, liveLine, toolbar } from './canvas_tools.js';
import { bindShortcuts } from './page_shortcuts.js';
import { fill, loadPlotly, observeWidth, plotConfig, plotRoot, themed } from './plotly_shared.js';

/** @typedef {import('./canvas_state.js').CanvasData} CanvasData */
/** @typedef {import('./canvas_state.js').Figure} Figure */

/** @param {PlotRoot} root */
function pageTop(root) {
  return root.getBoundingClientRect().top + window.scrollY;
}

/**
 * The canvas hears of a resize, of its width changing and of its top moving (once per plot).
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 */
function followSize(root, Plotly) {
  const state = canvasState(root);
  // A new width may fit the full legend again, and changes the height a wide window needs.
  observeWidth(root, Plotly, () => redraw(root, Plotly, true));
  window.addEventListener('resize', () => { if (root.isConnected) redraw(root, Plotly, false); });
  // In presentation the room is the window below the canvas's top, and that top moves when
  // elements above it change (a rerun's stale elements going away, the presenter bar taking a
  // second row), with no resize event. The page's block may keep its size meanwhile (the canvas
  // under the bar keeps its height), so the bar is watched too.
  const page = root.closest('[data-testid="stMainBlockContainer"]') || document.body;
  const follow = new ResizeObserver(() => {
    if (root.isConnected && canvasData(root).fill_screen && state.figure) redraw(root, Plotly, false);
  });
  follow.observe(page);
  state.follow = follow;
}

/**
 * The presenter bar drawn anew is a new element to watch; in presentation, a look twice a second
 * too: an element above can move the plot without any size the observers watch changing (a button
 * wrapping to the bar's next row inside a fixed block). Only a moved top redraws: a redraw at any
 * other moment could catch a view being framed.
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {CanvasData} data
 */
function followTop(root, Plotly, data) {
  const state = canvasState(root), bar = document.querySelector('.st-key-pg_view_row');
  if (bar && state.followedBar !== bar && state.follow) {
    state.followedBar = bar;
    state.follow.observe(bar);
  }
  state.top = pageTop(root);
  if (!data.fill_screen || state.topWatch) return;
  const watch = setInterval(() => {
    if (!root.isConnected) { clearInterval(watch); return; }
    const top = pageTop(root);
    if (Math.abs(top - state.top) <= 1 || !canvasData(root).fill_screen || !state.figure || state.drag) return;
    state.top = top;
    redraw(root, Plotly, false);
  }, 500);
  state.topWatch = watch;
}

/**
 * The session's figure is on screen: what follows it (the tool, the fitted window, the drag's end,
 * the keyboard's sayings, the live figure of edits made since, the panels below).
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {CanvasData} data
 * @param {number} started  when the draw began (performance.now)
 */
function drawn(root, Plotly, data, started) {
  const state = canvasState(root);
  if (!state.bound) {
    bindInput(root);
    followSize(root, Plotly);
    state.bound = true;
  }
  followTop(root, Plotly, data);
  applyTool(root);
  root.dataset.revision = data.revision;
  root.dataset.points = String(data.n_points);
  root.dataset.renderMs = (performance.now() - started).toFixed(1);
  fitToPlotArea(root, Plotly, data);
  dragAfterDraw(root, data);
  kbAfterDraw(root, data);
  lineAfterDraw(root);
  requestLive(root);  // edits made since this figure was asked for: their boundary at once
  // Now that the new scene is on screen, the panels below catch up (follow_canvas).
  const panels = canvasPage.panels;
  if (data.panels_follow && panels && panels.drawnFor !== data.panels_follow && !state.drag) {
    panels.drawnFor = data.panels_follow;
    panels.refresh(data.panels_follow);
  }
}

/**
 * Draw the session's ``figure`` (the live one gives way to it, unless a drag is under way).
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {CanvasData} data
 * @param {Figure} figure
 */
function drawSession(root, Plotly, data, figure) {
  const state = canvasState(root);
  state.figure = figure;
  if (!state.drag) {  // the session's figure takes over from the live one
    state.liveFigure = null;
    state.liveKey = null;
    if (state.liveOff) { state.liveOff = false; root.dataset.liveOff = ''; liveLine(root, null); }
  }
  plotConfig(Plotly, root, data.config, [{name: 'pgFitView', title: data.texts.fit_view,
    icon: Plotly.Icons.home, click: () => send(root, {type: 'fit'})}], data.texts);
  const started = performance.now();
  return draw(root, Plotly).then(() => drawn(root, Plotly, data, started));
}

/**
 * The canvas's data arrived: the acknowledged edits leave the queue, the tool bar and the keyboard
 * are set up, and the page's keys go to this canvas.
 * @param {PlotRoot} root
 * @param {CanvasData} data
 * @param {(name: string, value: unknown) => void} setTriggerValue
 * @param {HTMLElement} parentElement
 */
function received(root, data, setTriggerValue, parentElement) {
  const state = canvasState(root);
  state.data = data;
  const fresh = !state.send;
  state.send = setTriggerValue;
  acknowledged(data.ack || 0);
  // A canvas made anew (a rerun re-created the element): edits sent through the one it replaced
  // may never have left, so it sends what is still unacknowledged.
  if (fresh && canvasPage.queue.length) setTimeout(() => commit(root), 0);
  classPicker(root, toolbar(root, parentElement, data.texts));
  kbSetUp(root, parentElement);
  root.__pgFileName = data.file_name;
  canvasPage.keyRoot = root;
  bindShortcuts();
  bindLandscapeLine();
}

/**
 * The element's function (Streamlit's components v2), run on every data change.
 * @param {ComponentArgs<CanvasData>} component
 */
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = plotRoot(parentElement, 'pg-canvas');
  // Where the canvas's state is, for the browser tests (they read it through the module itself).
  root.dataset.stateModule = new URL('./canvas_state.js', import.meta.url).href;
  received(root, data, setTriggerValue, parentElement);
  /** @type {Figure} */
  const figure = JSON.parse(themed(data.figure, data.dark_swaps));
  const height = canvasHeight(root, data, figure.layout);
  root.style.height = height + 'px';
  root.dataset.receivedAt = performance.now().toFixed(1);  // the benchmark's page-update split
  const status = parentElement.querySelector('.pg-status') || (() => {
    const el = document.createElement('div'); el.className = 'pg-status'; parentElement.appendChild(el); return el;
  })();
  loadPlotly(data.plotly_url).then((Plotly) => {
    figure.layout.height = height;  // plotly keeps its first height otherwise
    return drawSession(root, Plotly, data, figure).then(() => { status.textContent = ''; });
  }).catch((err) => { status.textContent = fill(data.texts.not_drawn, {error: err.message}); });
}
