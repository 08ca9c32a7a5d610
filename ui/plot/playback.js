// Playback of an iterative fit, in the browser (served from static/ by ui/plot/playback.py).
// The player and its drawing on the canvas (this module); the frames' geometry and traces are
// playback_frames.js's.
//
// The server sends every frame of the run once (ui/plot/playback_frames.py): per frame one affine
// score row per class in the book's convention, and the step's readout. Here a timer shows one
// frame per tick, whatever the server is doing, drawing the regions and the boundary on the
// canvas (the element with class pg-canvas) from the rows, clipped to the plot window. When
// playback pauses, or a scrub is let go, the shown step goes to the server once: it then draws
// that step itself (panels, link) and the canvas is its again.
import { frameTraces, pointsOf, unpack } from './playback_frames.js';
import { canvasPage } from './canvas_state.js';
import { fill } from './plotly_shared.js';

/** @typedef {import('./playback_frames.js').Player} Player */
/** @typedef {import('./playback_frames.js').PlaybackData} PlaybackData */

const BASE_INTERVAL_MS = 700;  // one frame per tick at 1x
const SPEEDS = [0.25, 0.5, 1, 2, 4];
const SEND_DELAY_MS = 350;  // step -1/+1: the step goes to the server once the clicks stop
const AWAIT_MS = 15000;  // a step sent is the server's answer to wait for, at most this long
// Traces of the server's figure that hold during playback (the points and what does not depend
// on the step); the rest (regions, boundary, marks, panel overlays of the step) is replaced or
// hidden until the server draws the paused step.
const KEEP_META = new Set(['points', 'chosen point', 'centres', 'rbf_centres']);

// Every sentence the player shows comes translated in data.texts (ui/plot/playback.py player_texts),
// whole, with {named} places that fill() puts the numbers in.


// -- drawing on the canvas -------------------------------------------------------------------------

/** @returns {PlotRoot | null} */
function canvasRoot() {
  return document.querySelector('.pg-canvas');
}

/** @param {Player} player */
function drawFrame(player) {
  // The server's figure with the step's regions, boundary and marks in place of its own.
  const root = canvasRoot();
  if (!root || !root._fullLayout || !window.Plotly || !root.__pgPlaybackBase) return;
  const base = root.__pgPlaybackBase;
  const {regions, lines, marks, wrong} = frameTraces(player, root, player.index);
  /** @type {PlotlyObject[]} */
  const kept = [];
  /** @type {PlotlyObject | null} */
  let boundaryStyle = null;
  /** @type {PlotlyObject | null} */
  let marksStyle = null;
  for (const trace of base) {
    if (trace.meta === 'boundary' && !boundaryStyle) boundaryStyle = trace;
    if (trace.meta === 'marks') marksStyle = trace;
    if (KEEP_META.has(trace.meta)) kept.push(trace);
  }
  if (boundaryStyle && lines.length) {
    // The legend keeps its entry for the boundary, named as the server named it.
    Object.assign(lines[0], {showlegend: boundaryStyle.showlegend !== false, name: boundaryStyle.name,
      legendrank: boundaryStyle.legendrank});
  }
  /** @type {PlotlyObject[]} */
  const traces = [...regions, ...lines, ...kept, ...marks];
  if (wrong.x.length || marksStyle) {  // kept (maybe empty) where the legend lists it
    const size = marksStyle ? marksStyle.marker.size : 19 * (player.data.style.scale || 1);
    traces.push({type: 'scatter', x: wrong.x, y: wrong.y, mode: 'markers', hoverinfo: 'skip',
      name: marksStyle ? marksStyle.name : player.data.texts.misclassified, meta: 'marks',
      // A legend entry only where the server's figure has one: a new entry could wrap the legend
      // to a second row and move the plot while it plays.
      showlegend: marksStyle ? marksStyle.showlegend !== false : false,
      marker: {symbol: 'circle-open', size: size, color: player.data.style.boundary_colour,
        line: {width: marksStyle ? marksStyle.marker.line.width : 2}}});
  }
  player.wrong = player.data.kind === 'linear' ? wrong.x.length : null;
  root.__pgPlaybackDrawn = true;
  root.dataset.playbackStep = String(player.data.steps[player.index]);
  window.Plotly.react(root, traces, stepLayout(root.layout), root.__pgConfig);
}

/** @param {PlotlyObject} layout @param {boolean} [dimmed] */
function stepLayout(layout, dimmed = true) {
  // The caption (ui/plot/caption.py) counts the server's fit: dimmed while another step is drawn,
  // whose counts the strip on the plot and the status line give. A copy (gd.layout keeps the zoom).
  const notes = (layout.annotations || []).map((/** @type {PlotlyObject} */ a) => (a.name === 'caption'
    ? Object.assign({}, a, {opacity: dimmed ? 0.35 : 1}) : a));
  return Object.assign({}, layout, {annotations: notes});
}

function restoreCanvas() {
  // The server's own figure (it has drawn the step the playback paused at, or is about to).
  const root = canvasRoot();
  if (!root || !root.__pgPlaybackDrawn || !root.__pgPlaybackBase || !window.Plotly) return;
  root.__pgPlaybackDrawn = false;
  delete root.dataset.playbackStep;
  window.Plotly.react(root, root.__pgPlaybackBase, stepLayout(root.layout, false), root.__pgConfig);
}

/** @param {PlotRoot} root */
function afterCanvasDraw(root) {
  // The canvas has drawn the server's figure: keep it as the base, and while the browser shows
  // a step of its own, draw that step over it again.
  root.__pgPlaybackBase = root.data;
  root.__pgPlaybackPoints = pointsOf(root._fullData || []);
  root.__pgPlaybackDrawn = false;
  delete root.dataset.playbackStep;
  const player = window.__pgPlayer;
  if (player && player.root.isConnected && player.overriding) drawFrame(player);
  if (player && player.root.isConnected) strip(player, root); else dropStrip();
}

// -- the player ------------------------------------------------------------------------------------

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attributes]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function element(tag, attributes, text) {
  const el = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([k, v]) => el.setAttribute(k, v));
  if (text !== undefined) el.textContent = text;
  return el;
}

/**
 * @param {HTMLElement} root
 * @param {Record<string, string>} texts
 * @returns {import('./playback_frames.js').PlayerUi}
 */
function build(root, texts) {
  root.innerHTML = '';
  const row = element('div', {class: 'pg-player-row'});
  const play = element('button', {type: 'button', class: 'pg-player-play', 'aria-label': texts.play}, texts.play_button);
  const back = element('button', {type: 'button', 'aria-label': texts.step_back, title: texts.step_back_title}, '−1');
  const forward = element('button', {type: 'button', 'aria-label': texts.step_forward,
    title: texts.step_forward_title}, '+1');
  const final = element('button', {type: 'button', 'aria-label': texts.final_fit, title: texts.final_fit_title},
    texts.final_fit);
  const speedLabel = element('label', {class: 'pg-player-speed'}, texts.speed + ' ');
  const speed = element('select', {'aria-label': texts.speed});
  SPEEDS.forEach((s) => {
    const option = element('option', {value: String(s)}, s + '×');
    if (s === 1) option.selected = true;
    speed.appendChild(option);
  });
  speedLabel.appendChild(speed);
  const slider = element('input', {type: 'range', min: '0', step: '1', class: 'pg-player-slider'});
  row.append(play, back, forward, final, speedLabel);
  const stepLine = element('div', {class: 'pg-player-step', 'aria-live': 'polite'});
  const readout = element('div', {class: 'pg-player-readout'});
  const note = element('div', {class: 'pg-player-note'});
  root.append(row, slider, stepLine, readout, note);
  return {play, back, forward, final, speed, slider, stepLine, readout, note};
}

/** @param {Player} player */
function show(player) {
  const {data, ui, index} = player, texts = data.texts;
  const serverStep = data.step === null || data.step === undefined ? data.n_steps : data.step;
  // A step between two frames of a thinned run (a link may carry any step) is the server's to show:
  // the player names it, and its slider stands at the frame before it.
  const between = !player.overriding && data.steps[index] !== serverStep;
  const step = between ? serverStep : data.steps[index];
  ui.slider.value = String(index);
  ui.slider.setAttribute('aria-valuetext', String(step));
  const stepLine = step === data.n_steps ? texts.step_of_last : texts.step_of;
  ui.stepLine.textContent = fill(stepLine, {label: data.label, step: step, n: data.n_steps});
  ui.readout.textContent = between ? '' : data.readouts[index] || '';
  player.root.dataset.step = String(step);
  if (!between) moveChartMarkers(data.marks[index]);
  // The panel's details (metrics, text, tables) are the server's step: dimmed while another shows.
  /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[class*="st-key-' + data.detail + '"]')).forEach((el) => {
    const other = step !== serverStep;
    el.style.opacity = other ? '0.35' : '';
    el.style.transition = 'opacity 0.2s';
    el.title = other ? fill(texts.details_of_step, {server_step: serverStep, step: step}) : '';
  });
  player.root.dataset.playing = player.playing ? 'true' : 'false';
  ui.play.textContent = player.playing ? texts.pause_button : texts.play_button;
  ui.play.setAttribute('aria-label', player.playing ? texts.pause : texts.play);
  ui.back.disabled = index === 0 && !between;
  ui.forward.disabled = index === data.steps.length - 1;
  player.wrong = null;
  if (player.overriding) drawFrame(player);
  // The status line under the plot counts the server's step; the player counts the one it draws.
  if (player.wrong !== null && player.wrong !== undefined) {
    ui.stepLine.textContent += ' · ' + (player.wrong ? fill(texts.n_misclassified, {count: player.wrong})
      : texts.all_correct);
  }
  mirror(player, step !== serverStep);
}

// -- the player where it is watched: on the plot, and in the status line ---------------------------

/** @param {Player} player @param {boolean} other  another step than the server's is shown */
function mirror(player, other) {
  // A strip on the plot itself (▶ / ❚❚, −1, +1 and the step's line, its buttons the player's own),
  // so Play and the moving boundary are on screen together wherever the panel is; and the status
  // line under the plot names the step drawn while it is not the server's (its own counts dimmed).
  const root = canvasRoot();
  if (root) strip(player, root);
  // Its words for a screen reader (the boundary's equation) are the drawn step's too.
  const said = other ? (player.data.spoken || [])[player.index] : undefined;
  document.querySelectorAll('[role="status"]').forEach((el) => {
    let line = el.querySelector('.pg-status-step');
    spokenBoundary(el, said);
    if (!other) {
      el.classList.remove('pg-playing');
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = element('div', {class: 'pg-status-step'});
      el.prepend(line);
    }
    line.textContent = player.ui.stepLine.textContent;
    el.classList.add('pg-playing');
  });
}

/** @param {Element} status @param {string | undefined} said */
function spokenBoundary(status, said) {
  // The status line's hidden sentences (ui/page/app.py: the method and the boundary in words) are the
  // server's step; while the player draws another (``said``) a sentence of its own replaces them
  // for a screen reader. The server's element is React's: only an attribute of it changes.
  const server = status.querySelector('.pg-sr-only:not(.pg-status-said)');
  let own = status.querySelector('.pg-status-said');
  if (!said) {
    if (own) own.remove();
    if (server) server.removeAttribute('aria-hidden');
    return;
  }
  if (!own) {
    own = element('span', {class: 'pg-sr-only pg-status-said'});
    status.append(own);
  }
  own.textContent = said;
  if (server) server.setAttribute('aria-hidden', 'true');
}

/** @typedef {HTMLElement & {__pg?: {play: HTMLButtonElement, back: HTMLButtonElement, forward: HTMLButtonElement,
 *   text: HTMLElement}, __pgWatch?: ReturnType<typeof setInterval>}} StripElement  the strip, its parts and its watch */

/** @param {Player} player @param {PlotRoot} root */
function strip(player, root) {
  // In a zero-height holder right after the canvas, drawn up over the plot's lower left: outside
  // the canvas's element, whose presses add points.
  let holder = root.nextElementSibling;
  if (!holder || !holder.classList.contains('pg-strip-holder')) {
    holder = element('div', {class: 'pg-strip-holder'});
    root.after(holder);
  }
  let el = /** @type {StripElement | null} */ (holder.querySelector('.pg-player-strip'));
  if (!el) {
    // A copy for the eye (the room watching): keyboards and screen readers have the player itself.
    /** @type {StripElement} */
    const made = element('div', {class: 'pg-player-strip', 'aria-hidden': 'true'});
    el = made;
    const play = element('button', {type: 'button', class: 'pg-strip-play', tabindex: '-1'});
    const back = element('button', {type: 'button', tabindex: '-1'}, '−1');
    const forward = element('button', {type: 'button', tabindex: '-1'}, '+1');
    const text = element('span', {class: 'pg-strip-step', 'aria-hidden': 'true'});
    // Each button presses the player's own (the one of the open tab, wherever it is).
    play.addEventListener('click', () => { const p = window.__pgPlayer; if (p && p.root.isConnected) p.ui.play.click(); });
    back.addEventListener('click', () => { const p = window.__pgPlayer; if (p && p.root.isConnected) p.ui.back.click(); });
    forward.addEventListener('click', () => {
      const p = window.__pgPlayer; if (p && p.root.isConnected) p.ui.forward.click();
    });
    made.append(play, back, forward, text);
    made.__pg = {play, back, forward, text};
    holder.appendChild(made);
    // Another tab may close the player without a new canvas figure: then the strip goes.
    made.__pgWatch = setInterval(() => {
      const p = window.__pgPlayer;
      if (!made.isConnected || !p || !p.root.isConnected) { clearInterval(made.__pgWatch); dropStrip(); }
    }, 500);
  }
  const ui = player.ui, texts = player.data.texts, parts = el.__pg;
  if (!parts) return;
  const margin = (root._fullLayout && root._fullLayout.margin) || {l: 44, b: 44};
  el.style.left = (margin.l + 6) + 'px';
  el.style.bottom = (margin.b + 6) + 'px';
  parts.play.textContent = player.playing ? texts.pause_button : texts.play_button;
  parts.back.disabled = ui.back.disabled;
  parts.forward.disabled = ui.forward.disabled;
  parts.text.textContent = ui.stepLine.textContent;
}

function dropStrip() {
  // The player left the page (another tab, another method): its strip and step line go too.
  const el = document.querySelector('.pg-strip-holder');
  if (el) el.remove();
  document.querySelectorAll('[role="status"]').forEach((status) => {
    status.classList.remove('pg-playing');
    const line = status.querySelector('.pg-status-step');
    if (line) line.remove();
    spokenBoundary(status, undefined);
  });
}

/** @param {import('./playback_frames.js').StepMarks | undefined} marks */
function moveChartMarkers(marks) {
  // The open panel's charts mark the shown step too: {key, trace, x, y, title} per chart.
  if (!window.Plotly) return;
  ((marks && marks.charts) || []).forEach((chart) => {
    const el = /** @type {PlotRoot | null} */ (document.querySelector('.pg-chart[data-chart-key="' + chart.key + '"]'));
    if (!el || !el._fullLayout || !el.data || el.data.length <= chart.trace) return;
    // One update (a restyle and a relayout would draw the chart twice).
    window.Plotly.update(el, {x: [[chart.x]], y: [[chart.y]]}, chart.title ? {'title.text': chart.title} : {}, [chart.trace]);
  });
}

/** @param {PlaybackData} data */
function stepOf(data) {
  // The step the server shows (null: the final fit).
  return data.step === null || data.step === undefined ? data.n_steps : data.step;
}

/** @param {Player} player @param {number | null} step */
function send(player, step) {
  // The step the user stopped at goes to the server once (it draws the panels, writes the link).
  clearTimeout(player.sendTimer ?? undefined);
  player.sendTimer = null;
  player.sentStep = step;
  player.awaiting = true;
  clearTimeout(player.awaitTimer);  // should its rerun never come (a refused step), stop waiting
  player.awaitTimer = setTimeout(() => { player.awaiting = false; }, AWAIT_MS);
  window.__pgPlaybackNonce = (window.__pgPlaybackNonce || 0) + 1;
  player.setTrigger('step', {step: step, nonce: window.__pgPlaybackNonce});
}

/** @param {Player} player */
function interval(player) {
  const ms = BASE_INTERVAL_MS / player.speed;
  player.root.dataset.interval = String(ms);  // what the tests read: the tick the speed asks for
  return ms;
}

/** @param {Player} player */
function schedule(player) {
  // Steady ticks: each is due one interval after the one before; a starved page that wakes up late
  // still takes one step per tick (no frame is skipped to catch up).
  clearTimeout(player.timer);
  const now = performance.now();
  player.due = Math.max(now, (player.due || now) + interval(player));
  player.timer = setTimeout(() => tick(player), player.due - now);
}

/** @param {Player} player */
function tick(player) {
  if (!player.playing) return;
  if (!player.root.isConnected) {  // the panel closed (another tab, another method)
    player.playing = false;
    if (player.overriding) { player.overriding = false; restoreCanvas(); }
    return;
  }
  if (player.index >= player.data.steps.length - 1) { pause(player); return; }
  player.index += 1;
  const started = performance.now();
  show(player);
  player.root.dataset.tickMs = (performance.now() - started).toFixed(1);  // the benchmark's figure
  // What the tests read: the steps shown by ticks, in order, with when they were shown.
  (window.__pgPlaybackLog = window.__pgPlaybackLog || []).push(player.data.steps[player.index]);
  (window.__pgPlaybackTimes = window.__pgPlaybackTimes || []).push(performance.now());
  if (player.index >= player.data.steps.length - 1) { pause(player); return; }
  schedule(player);
}

/** @param {Player} player */
function play(player) {
  if (player.index >= player.data.steps.length - 1) player.index = 0;  // from the start when at the end
  player.playing = true;
  player.overriding = true;
  player.due = performance.now();
  show(player);
  schedule(player);
}

/** @param {Player} player */
function pause(player) {
  player.playing = false;
  clearTimeout(player.timer);
  show(player);
  send(player, player.data.steps[player.index]);
}

/** @param {Player} player @param {number} index @param {boolean} sendNow */
function moveTo(player, index, sendNow) {
  player.playing = false;
  clearTimeout(player.timer);
  player.index = Math.max(0, Math.min(player.data.steps.length - 1, index));
  player.overriding = true;
  show(player);
  clearTimeout(player.sendTimer ?? undefined);
  if (sendNow) send(player, player.data.steps[player.index]);
  else player.sendTimer = setTimeout(() => send(player, player.data.steps[player.index]), SEND_DELAY_MS);
}

/** @param {PlaybackData} data @param {number | null | undefined} step */
function indexOf(data, step) {
  // The frame showing ``step`` (the final one for null), or the last frame before it.
  if (step === null || step === undefined) return data.steps.length - 1;
  let index = 0;
  data.steps.forEach((s, i) => { if (s <= step) index = i; });
  return index;
}

/** @param {Player} player */
function bindPlayer(player) {
  const ui = player.ui;
  ui.play.addEventListener('click', () => (player.playing ? pause(player) : play(player)));
  ui.back.addEventListener('click', () => {
    // From a step between two frames (a link's), back is the frame before it.
    const data = player.data, serverStep = data.step === null || data.step === undefined ? data.n_steps : data.step;
    const between = !player.overriding && data.steps[player.index] !== serverStep;
    moveTo(player, between ? player.index : player.index - 1, false);
  });
  ui.forward.addEventListener('click', () => moveTo(player, player.index + 1, false));
  ui.final.addEventListener('click', () => {
    moveTo(player, player.data.steps.length - 1, false);
    send(player, null);
  });
  ui.speed.addEventListener('change', () => {
    player.speed = parseFloat(ui.speed.value) || 1;
    player.root.dataset.speed = String(player.speed);
    if (player.playing) { player.due = performance.now(); schedule(player); }
  });
  // Scrubbing shows each frame at once; letting go sends the step.
  ui.slider.addEventListener('input', () => {
    player.playing = false;
    clearTimeout(player.timer);
    player.overriding = true;
    player.index = parseInt(ui.slider.value, 10) || 0;
    show(player);
  });
  ui.slider.addEventListener('change', () => send(player, player.data.steps[player.index]));
  player.root.addEventListener('keydown', (e) => {
    if (e.target === ui.slider || e.target === ui.speed) return;
    if (e.key === 'ArrowLeft') { moveTo(player, player.index - 1, false); e.preventDefault(); }
    if (e.key === 'ArrowRight') { moveTo(player, player.index + 1, false); e.preventDefault(); }
  });
}

/**
 * The player of this element's key. A rerun may mount the element anew (e.g. the panel's tabs
 * redrawn): the page keeps the player of each key, which moves into the new element with its step,
 * speed and ticking; a new run (other points, method or parameters) starts a new player.
 * @param {HTMLElement} root
 * @param {PlaybackData} data
 * @returns {Player}
 */
function playerFor(root, data) {
  /** @type {Record<string, Player>} */
  const players = window.__pgPlayers = window.__pgPlayers || {};
  let player = root.__pgPlayer || players[data.player_key];
  if (player && player.root !== root && player.signature === data.signature) {
    player.root = root;
    player.ui = build(root, data.texts);
    bindPlayer(player);
    player.ui.speed.value = String(player.speed);
    root.dataset.speed = String(player.speed);
    interval(player);  // the new element shows the tick too (a rerun may mount it between two reads)
    root.__pgPlayer = player;
  }
  if (!player || player.signature !== data.signature) {
    // A new run: start over at the server's step.
    if (player) {
      clearTimeout(player.timer);
      clearTimeout(player.sendTimer ?? undefined);
      if (player.overriding) restoreCanvas();  // the old run's step must not stay on the new plot
    }
    const ui = build(root, data.texts);
    // Its data, trigger and frames are the element's, set on every run (the element's function).
    player = /** @type {Player} */ ({root, ui, signature: data.signature, speed: player ? player.speed : 1, playing: false,
      overriding: false, index: 0, serverStep: undefined, sentStep: undefined, awaiting: false, sendTimer: null});
    root.__pgPlayer = player;
    players[data.player_key] = player;
    bindPlayer(player);
    ui.speed.value = String(player.speed);
    root.dataset.speed = String(player.speed);
  }
  return player;
}

/** @param {ComponentArgs<PlaybackData>} component */
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = /** @type {HTMLElement | null} */ (parentElement.querySelector('.pg-player'));
  if (!root) {
    root = element('div', {class: 'pg-player', tabindex: '-1'});
    parentElement.appendChild(root);
  }
  canvasPage.afterDraw = afterCanvasDraw;
  const canvas = canvasRoot();
  if (canvas && canvas.data && !canvas.__pgPlaybackBase) afterCanvasDraw(canvas);
  const player = playerFor(root, data);
  player.data = data;
  player.setTrigger = setTriggerValue;
  player.unpacked = player.unpacked && player.unpacked.rows === data.rows ? player.unpacked
    : Object.assign(unpack(data), {rows: data.rows});
  window.__pgPlayer = player;
  const ui = player.ui;
  ui.slider.max = String(data.steps.length - 1);
  ui.slider.setAttribute('aria-label', data.label);
  ui.note.textContent = data.note || '';
  const changed = data.step !== player.serverStep;
  player.serverStep = data.step;
  if (player.awaiting && data.step === player.sentStep) player.awaiting = false;  // the server caught up
  // Until then, a step the server shows is an earlier send's (the user has moved on since), and
  // while playing, pending a send or scrubbing the browser's step is the one that counts.
  const busy = player.playing || player.awaiting || player.sendTimer !== null;
  if (!busy && player.overriding && player.data.steps[player.index] === stepOf(data)) {
    player.overriding = false;  // the server draws what the browser shows: the canvas is its again
    restoreCanvas();
  } else if (!busy && !player.overriding && changed) {
    player.index = indexOf(data, data.step);  // another step from the server (undo, a link)
  }
  show(player);
}
