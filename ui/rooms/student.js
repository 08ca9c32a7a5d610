// The student page of a class room (ui/rooms/routes.py serves it; its texts come as JSON data in
// the page, in the student's language): joining, the room's state, the student's points.
// Rules that must hold:
// - A tap on the plot adds a point of the student's class (student_taps.js reads the taps).
// - The point shows at once, marked as theirs, and is sent with the student's own counter (seq),
//   so a request retried after a blinking connection is added once.
// - The page tells the room's state: the method's name; paused (a message at the top, the plot
//   dimmed, taps not sent); closed (the plot and buttons replaced by a message, and the link the
//   lecturer froze the room into); removed by the lecturer; a join refused (the room takes no new
//   students, is full or closed). Every sentence comes from the server in the student's language.
// - The plot shows exactly the room's window (what the projector shows; student_plot.js).
// - The room is polled cheaply: the server answers with the version alone until something changed.
//   Visitors' text (class names) only ever goes through textContent.
import { fill } from '../plot/plotly_shared.js';
import { call, forgetSeat, roomState, savedSeat, saveSeat } from './student_api.js';
import { drawRoom, loadPlotly, ownTrace, pendingTrace } from './student_plot.js';
import { createRound } from './student_round.js';
import { readTaps } from './student_taps.js';

const data = JSON.parse(/** @type {HTMLElement} */ (document.getElementById('room-data')).textContent || '{}');
const T = data.texts;
const api = data.api;
/** The page's element ``id`` (the page has every one the code names). @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const POLL_MS = 1500;
const RETRY_MS = 1000;
const params = new URLSearchParams(location.search);
let code = (params.get('c') || '').toUpperCase();
/** @type {{sid: string, key: string, seq: number} | null} */
let me = null;
let joinedVersion = 0;  // the room's version when this student joined
let version = 0;
/** @typedef {{everyone: number | null, classes: number, names?: string[], method: string, hidden: boolean,
 *   locked: boolean, limit: number, round?: {id: number, phase: string, stage: number} | null}} RoomSettings
 *   the room as the lecturer set it */
/** @type {RoomSettings | null} */
let settings = null;
/** @type {{data: PlotlyObject[], layout: PlotlyObject} | null} */
let figure = null;
/** @type {number[][]} */
let own = [];  // [x, y] of the student's acknowledged points
/** @type {{x: number, y: number, label: number, seq: number}[]} */
let pending = [];  // not yet acknowledged, oldest first
let label = 0;
let sending = false;
/** @type {PlotlyApi} */
let plotly = null;
let ended = false;  // closed, or the student removed: nothing more to poll or send
/** @type {{count?: number, own?: number[][], assigned?: number | null}} */
let lastMe = {};  // the room's answer about this student: {count, own, assigned}
/** @type {ReturnType<typeof createRound>} */
let round;  // a prediction round, when the lecturer runs one (student_round.js)

/** @param {string} text @param {boolean} [calm] */
function status(text, calm) {
  $('status').textContent = text || '';
  $('status').className = calm ? 'calm' : '';
}

/** @param {string} text */
function notice(text) {
  // The message at the top of the page (paused, closed, removed, refused); empty: hidden.
  $('notice-text').textContent = text || '';
  $('notice').hidden = !text;
}

/** @param {string} nick */
async function join(nick) {
  const saved = savedSeat(code) || {};
  const {ok, status: code_, answer} = await call(api, 'join', {code, nick, sid: saved.sid, key: saved.key}, data.lang);
  if (!ok) {
    if (code_ === 409 || code_ === 410 || code_ === 403) {
      // The room takes no new students (its door closed, full, or closed): say so, no form.
      $('join').hidden = true;
      notice(answer.error || T.offline);
      status('');
    } else {
      status(answer.error || T.offline);
      $('join').hidden = false;
    }
    return false;
  }
  code = answer.code;
  joinedVersion = answer.version || 0;
  me = {sid: answer.sid, key: answer.key, seq: answer.sid === saved.sid ? (saved.seq || 0) : 0};
  saveSeat(code, me);
  history.replaceState(null, '', location.pathname + '?c=' + encodeURIComponent(code) + '&lang=' + data.lang);
  $('join').hidden = true;
  $('room').hidden = false;
  document.title = $('title').textContent = fill(T.joined, {code});  // the tab says the student is in
  status('');
  poll();
  return true;
}

function classButtons() {
  const box = $('classes');
  const fixed = settings && (settings.everyone !== null ? settings.everyone : (lastMe.assigned ?? null));
  box.hidden = fixed !== null;
  $('class-label').hidden = fixed !== null;
  $('assigned').hidden = fixed === null;
  if (fixed !== null) {
    label = fixed;
    $('assigned').textContent = fill(T.assigned, {name: className(fixed)});
    return;
  }
  const n = settings ? settings.classes : 2;
  if (box.childElementCount !== n) {
    box.textContent = '';
    for (let k = 0; k < n; k++) {
      const button = document.createElement('button');
      button.type = 'button';
      button.setAttribute('role', 'radio');
      button.addEventListener('click', () => { label = k; paintButtons(); });
      box.appendChild(button);
    }
  }
  if (label >= n) label = 0;
  paintButtons();
}

/** @param {number} k */
function className(k) {
  const names = (settings && settings.names) || [];
  return names[k] ? isolated(names[k]) : fill(T.class_n, {number: k + 1});
}

// A visitor's text (a class name) as it goes into a sentence or a label: between U+2068 FIRST
// STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, with no bidirectional control of its own, so a
// right-to-left name neither reorders the words around it nor takes their direction
// (ui/text/names.py's ``isolated``, whose twin this is).
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** @param {string} text */
function isolated(text) {
  const inner = String(text).replace(BIDI_CONTROLS, '');
  return inner ? '\u2068' + inner + '\u2069' : '';
}

function paintButtons() {
  /** @type {HTMLElement[]} */ ([...$('classes').children]).forEach((button, k) => {
    button.textContent = data.glyphs[k] + ' ' + className(k);
    button.setAttribute('aria-checked', String(k === label));
    button.style.borderColor = data.colours[k];
    button.style.background = k === label ? data.colours[k] : '';
  });
}

async function poll() {
  if (ended || !me) return;
  try {
    const {ok, status: code_, answer} = await roomState(api, {c: code, since: String(version), sid: me.sid, lang: data.lang});
    if (code_ === 404) {
      end(T.closed, null);  // the room is gone (it expired, or closed on a server that deletes it)
    } else if (!ok) {
      status(answer.error || T.offline);
    } else if (answer.closed) {
      end(T.closed, answer.frozen);
    } else if (answer.figure && !answer.me && answer.version >= joinedVersion) {
      forgetSeat(code);
      end(T.removed, null);
    } else if (answer.figure) {
      version = answer.version;
      figure = answer.figure;
      settings = /** @type {RoomSettings} */ (answer.settings);
      lastMe = answer.me || lastMe;
      own = lastMe.own || own;
      $('method').textContent = fill(T.method, {name: answer.method_name || settings.method});
      $('people').textContent = fill(T.students, {n: answer.students, points: answer.points});
      round.update(settings.round || null, answer.round, answer.figure);
      showSettings();
      draw();
    } else if (!sending && pending.length === 0 && !round.active()) {
      status(settings && settings.hidden && !settings.locked ? T.hidden : '', true);
    }
  } catch (e) {
    status(T.offline);
  }
  if (!ended) setTimeout(poll, POLL_MS);
}

/** @param {string} sentence @param {string | null} frozen  the frozen room's link's query */
function end(sentence, frozen) {
  // Closed or removed: the plot, the class buttons and the hint give way to the message.
  ended = true;
  pending = [];
  $('room').hidden = true;
  $('people').hidden = true;
  status('');
  notice(sentence);
  const link = /** @type {HTMLAnchorElement} */ ($('frozen'));
  link.hidden = !frozen;
  if (frozen) {
    link.textContent = T.frozen_link;
    link.href = data.base + '/?' + frozen + '&lang=' + encodeURIComponent(data.lang);
  }
}

function showSettings() {
  classButtons();
  if (!settings) return;
  const predicting = round.active();  // a round pauses the points: its line is what a tap draws
  $('points-row').hidden = predicting;
  if (predicting) for (const id of ['classes', 'class-label', 'assigned', 'hint']) $(id).hidden = true;
  if (predicting) {
    $('room').classList.remove('paused');
    notice('');
    status('', true);
    return;
  }
  const count = (lastMe.count || 0);
  $('count').textContent = fill(T.count, {n: count + pending.length, limit: settings.limit});
  const paused = !!settings.locked;
  $('room').classList.toggle('paused', paused);
  $('hint').hidden = paused;
  notice(paused ? T.locked : '');
  status(!paused && settings.hidden ? T.hidden : '', true);
}

async function draw() {
  if (!figure || ended) return;
  try {
    plotly = plotly || await loadPlotly(data.plotly);
  } catch (e) {
    status(fill(T.not_drawn, {error: /** @type {Error} */ (e).message}));
    return;
  }
  const gd = /** @type {PlotRoot} */ ($('plot'));
  const traces = round.active() ? round.traces(figure) : [pendingTrace(pending, data.colours), ownTrace(own, pending, T.mine)];
  await drawRoom(plotly, gd, figure, traces);
  gd.dataset.version = String(version);
  gd.dataset.pending = String(pending.length);  // taps not yet acknowledged (the tests wait on it)
}

/** @param {number} x @param {number} y */
function addPoint(x, y) {
  if (!settings || !me) return;
  if ((lastMe.count || 0) + pending.length >= settings.limit) {
    status(fill(T.count, {n: (lastMe.count || 0) + pending.length, limit: settings.limit}));
    return;
  }
  me.seq += 1;
  saveSeat(code, me);
  pending.push({x, y, label, seq: me.seq});
  draw();
  send();
}

async function send() {
  if (sending || pending.length === 0 || ended || !me) return;
  sending = true;
  const next = pending[0];
  try {
    const {ok, status: code_, answer} = await call(api, 'add', {
      code, sid: me.sid, key: me.key, x: next.x, y: next.y, label: next.label, seq: next.seq,
    }, data.lang);
    if (ok) {
      pending.shift();
      own.push([next.x, next.y]);
      lastMe.count = (lastMe.count || 0) + 1;
      status('', true);
    } else if ([429, 502, 503, 504].includes(code_)) {  // busy, or a gateway between replicas: the same seq again
      status(answer.error || T.offline);
      await new Promise((r) => setTimeout(r, RETRY_MS));
    } else {
      pending.shift();  // refused (paused, limit, outside): not added; say why
      status(answer.error || T.offline);
    }
  } catch (e) {
    status(T.offline);  // the connection blinked: the same seq again, added once
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  sending = false;
  draw();
  if (pending.length) send();
}

async function undo() {
  if (!me || ended) return;
  const {ok, answer} = await call(api, 'undo', {code, sid: me.sid, key: me.key}, data.lang);
  if (!ok) { status(answer.error || T.offline); return; }
  version = 0;  // fetch the room again: the point is gone from it
  if (answer.pid !== null) { own.pop(); lastMe.count = Math.max(0, (lastMe.count || 1) - 1); draw(); }
}

function start() {
  document.title = T.title;
  $('title').textContent = T.title;
  $('code-label').textContent = T.code_label;
  $('nick-label').textContent = T.nick_label;
  $('join-button').textContent = T.join;
  $('hint').textContent = T.hint;
  $('class-label').textContent = T.class_label;
  $('undo').textContent = T.undo;
  /** @type {HTMLInputElement} */ ($('code')).value = code;
  $('join').addEventListener('submit', (event) => {
    event.preventDefault();
    code = /** @type {HTMLInputElement} */ ($('code')).value.toUpperCase().replace(/[\s-]/g, '');
    join(/** @type {HTMLInputElement} */ ($('nick')).value);
  });
  $('send-line').textContent = T.send;
  $('clear-line').textContent = T.clear_line;
  const plot = /** @type {PlotRoot} */ ($('plot'));
  round = createRound({plot, texts: T, api, lang: data.lang, $, redraw: draw,
    seat: () => (me ? {code, sid: me.sid, key: me.key} : null)});
  readTaps(plot, () => !!(me && settings && !ended && (round.active() || !settings.locked)),
    (x, y) => (round.active() ? round.onTap(x, y) : addPoint(x, y)));
  $('undo').addEventListener('click', undo);
  if (code && savedSeat(code)) join('');
  else $('join').hidden = false;
}

start();
