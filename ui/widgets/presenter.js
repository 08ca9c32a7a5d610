// The presenter bar's keys and its "?" overlay (ui/widgets/presenter.py). A key presses the bar's own
// button (or the player's), so it does exactly what that button does; keys never act while a
// text field, a select or the player's slider has the focus, nor with Ctrl / ⌘ / Alt held
// (the canvas owns Ctrl+Z and its tool keys A M E S).
//
// Every press counts once, in order, however quick: a key or a click on one of the bar's buttons
// (◀ ▶ ↶ ↷, a class) is a press with its own id, queued and sent through this element; the next
// one goes only once the bar is drawn with that id among the applied ones (data.applied), so three
// quick → presses move three figures. Streamlit can drop a request that meets a busy run (or one
// flushed with a fragment's update), so a press still not applied once the page has been idle a
// moment is sent again: the server (receive_press) applies an id once. A press the page applies
// itself (play) waits its turn too.
//
// ← → (and ◀ ▶) are counted into the figure they lead to, by its place in data.figures: presses
// made while the one before is still on its way change the figure the next press asks for, so
// five quick presses are one or two loads of the fifth figure, never a mixture of figures. A press
// waits for the page's run to end before it is sent (its request carries every widget's value as
// the page has it, and mid-run those are half the figure before's). A figure press brings the
// page back to its top at once: the next figure's plot takes the window's room, measured from there.

/** @param {HTMLButtonElement | null} button */
function clickEnabled(button) {
  if (!button || button.disabled) return false;
  button.click();
  return true;
}

function playerButton() {
  // The player of the open tab (ui/plot/playback.js), wherever it is on the page.
  const buttons = Array.from(document.querySelectorAll(/** @type {'button'} */ ('.pg-player-play')));
  return buttons.find((b) => b.offsetParent !== null) || null;
}

/** @param {EventTarget | null} eventTarget */
function typing(eventTarget) {
  const target = /** @type {HTMLInputElement | null} */ (eventTarget);
  if (!target || !target.closest) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName || '').toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') return !['button', 'checkbox', 'radio'].includes((target.type || '').toLowerCase());
  return Boolean(target.closest('[role="combobox"], [role="listbox"], .pg-player'));
}

/** @param {MouseEvent} e */
function releaseChoice(e) {
  // A method (or α) picked from the bar's list: its box gives the focus back, so the keys work
  // again at once (typed into the box, they would filter its list).
  const target = /** @type {Element} */ (e.target);
  if (!target.closest || !target.closest('[role="option"]')) return;
  setTimeout(() => {
    const active = document.activeElement;
    if (active && active.closest && active.closest('.st-key-pg_view_row')) /** @type {HTMLElement} */ (active).blur();
  }, 0);
}

function overlay() {
  return document.querySelector('.pg-shortcuts');
}

/** @param {boolean} [show]  else the other way */
function toggleOverlay(show) {
  const el = overlay();
  if (!el) return;
  const shown = show === undefined ? !el.classList.contains('pg-shown') : show;
  el.classList.toggle('pg-shown', shown);
  const close = el.querySelector('button');
  if (shown && close) close.focus();
}

const SENT_KEYS = ['pb_prev', 'pb_next', 'pb_undo', 'pb_redo', 'pb_class'];  // the server applies them
const QUEUE = window.__pgPresenterQueue || (window.__pgPresenterQueue = {
  pending: [], awaited: null, applied: [], send: null, watch: null, idleSince: 0, serial: 0,
  page: Math.random().toString(36).slice(2, 10), figures: [], busySince: 0, later: null,
});
const GIVE_UP_MS = 15000;  // a press the server never applies (the connection lost) must not stop the queue for good
const RESEND_IDLE_MS = 600;  // the page idle this long and the press still not applied: the server never ran it
const WATCH_MS = 100;
const BUSY_MAX_MS = 4000;  // a page whose runs never end gets its press anyway (the server holds a load's values)

function scriptRunning() {
  // Streamlit marks its root with the state of the script's run (running, notRunning, ...).
  const app = document.querySelector('.stApp');
  const runState = app ? app.getAttribute('data-test-script-state') : null;
  return runState === 'running' || runState === 'rerunRequested';
}

/** @param {PresenterPress} press */
function send(press) {
  press.lastSent = Date.now();
  if (QUEUE.send) QUEUE.send('press', { id: press.id, button: press.button, index: press.index });
}

function watch() {
  // While a press is awaited: once every run has ended and the page stayed idle a moment without
  // the bar showing it applied, Streamlit dropped it (a request that met a busy run, or one sent
  // with a fragment's update): send it again; the server applies an id only once.
  clearTimeout(QUEUE.watch || undefined);
  const press = QUEUE.awaited;
  if (!press) return;
  const now = Date.now();
  if (now - (press.firstSent || 0) > GIVE_UP_MS) {
    QUEUE.awaited = null;
    pump();
    return;
  }
  if (scriptRunning()) QUEUE.idleSince = 0;
  else if (!QUEUE.idleSince) QUEUE.idleSince = now;
  if (QUEUE.idleSince && now - QUEUE.idleSince >= RESEND_IDLE_MS && now - (press.lastSent || 0) >= RESEND_IDLE_MS) send(press);
  QUEUE.watch = setTimeout(watch, WATCH_MS);
}

function pump() {
  // The next press goes once the one before it is applied and the page's run is over; the page's
  // own (play) then at once in turn.
  clearTimeout(QUEUE.later || undefined);
  if (QUEUE.awaited === null && QUEUE.pending.length && scriptRunning()) {
    const now = Date.now();
    if (!QUEUE.busySince) QUEUE.busySince = now;
    if (now - QUEUE.busySince < BUSY_MAX_MS) {
      QUEUE.later = setTimeout(pump, WATCH_MS / 2);
      return;
    }
  }
  QUEUE.busySince = 0;
  while (QUEUE.awaited === null && QUEUE.pending.length) {
    const next = QUEUE.pending.shift();
    if (!next) break;
    if (typeof next === 'function') { next(); continue; }
    QUEUE.serial += 1;
    next.id = QUEUE.page + '-' + QUEUE.serial;
    next.firstSent = Date.now();
    QUEUE.awaited = next;
    QUEUE.idleSince = 0;
    send(next);
    watch();
  }
}

/** @param {string[]} ids */
function applied(ids) {
  // The bar was drawn with the ids of the presses the server applied: the awaited one may be there.
  QUEUE.applied = ids;
  if (QUEUE.awaited !== null && QUEUE.awaited.id !== undefined && ids.includes(QUEUE.awaited.id)) {
    QUEUE.awaited = null;
    clearTimeout(QUEUE.watch || undefined);
  }
  pump();
}

/** @param {PresenterPress | (() => unknown)} action */
function queue(action) {
  QUEUE.pending.push(action);
  pump();
  return true;
}

/** @param {string} button @param {number} [index] */
function press(button, index) {
  return queue({ button, index: index || 0 });
}

function toTop() {
  // Streamlit's main block scrolls, or the window does.
  document.querySelectorAll('[data-testid="stMain"]').forEach((main) => { main.scrollTop = 0; });
  window.scrollTo(0, 0);
}

function figureAhead() {
  // The figure the presses so far lead to (its place in data.figures; -1: none shown): the last
  // figure press waiting or on its way, else the one shown.
  for (let k = QUEUE.pending.length - 1; k >= 0; k -= 1) {
    const next = QUEUE.pending[k];
    if (typeof next !== 'function' && next.button === 'pb_figure') return next.index;
  }
  if (QUEUE.awaited && QUEUE.awaited.button === 'pb_figure') return QUEUE.awaited.index;
  return QUEUE.figures.indexOf(document.documentElement.dataset.pgFigure || '');
}

/** @param {number} step */
function stepFigure(step) {
  // ← or →: the figure after the one the presses so far lead to, counted into a press not sent yet.
  toTop();
  if (!QUEUE.figures.length) return press(step < 0 ? 'pb_prev' : 'pb_next');
  const ahead = figureAhead();
  if (ahead < 0 && step < 0) return true;  // no figure shown: nothing before it
  const target = ahead < 0 ? 0 : Math.min(QUEUE.figures.length - 1, Math.max(0, ahead + step));
  const last = QUEUE.pending[QUEUE.pending.length - 1];
  if (last && typeof last !== 'function' && last.button === 'pb_figure') {
    last.index = target;  // still waiting: it asks for the figure the presses lead to now
    return true;
  }
  if (target === ahead) return true;  // the first or the last figure
  return queue({ button: 'pb_figure', index: target });
}

/** @param {MouseEvent} e */
function onBarClick(e) {
  // A click on one of the bar's buttons is a press like a key's: queued, sent once, in turn.
  const target = /** @type {Element} */ (e.target);
  if (!e.isTrusted || !target.closest) return;
  const button = target.closest('button');
  const holder = button && SENT_KEYS.map((k) => button.closest('.st-key-' + k) && k).find(Boolean);
  if (!holder || button.disabled) return;
  const index = Array.from(document.querySelectorAll(/** @type {'button'} */ ('.st-key-' + holder + ' button')))
    .filter((b) => b.offsetParent !== null).indexOf(button);
  e.preventDefault();
  e.stopPropagation();
  if (holder === 'pb_prev' || holder === 'pb_next') stepFigure(holder === 'pb_prev' ? -1 : 1);
  else press(holder, holder === 'pb_class' ? Math.max(0, index) : 0);
}

/** @type {Record<string, () => boolean>} */
const ACTIONS = {
  ArrowLeft: () => stepFigure(-1),
  ArrowRight: () => stepFigure(1),
  ' ': () => queue(() => clickEnabled(playerButton())),
  z: () => press('pb_undo'),
  Z: () => press('pb_undo'),
  '?': () => { toggleOverlay(); return true; },
};

/** @param {KeyboardEvent} e */
function onKey(e) {
  if (!document.querySelector('.st-key-pb_keys')) return;  // the bar is there only in presentation
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.key === 'Escape') { toggleOverlay(false); return; }
  if (typing(e.target)) return;
  let done = false;
  if (/^[1-6]$/.test(e.key)) done = press('pb_class', Number(e.key) - 1);
  else if (ACTIONS[e.key]) done = ACTIONS[e.key]();
  if (done) e.preventDefault();
}

/** @param {{title: string, close: string, rows: [string, string][]}} texts */
function buildOverlay(texts) {
  let el = overlay();
  if (el) el.remove();
  el = document.createElement('div');
  el.className = 'pg-shortcuts';
  el.setAttribute('role', 'dialog');
  el.setAttribute('aria-label', texts.title);
  const box = document.createElement('div');
  box.className = 'pg-shortcuts-box';
  const title = document.createElement('h2');
  title.textContent = texts.title;
  const table = document.createElement('table');
  texts.rows.forEach(([keys, what]) => {
    const row = table.insertRow();
    const cell = row.insertCell();
    keys.split(' ').filter(Boolean).forEach((k) => {
      const kbd = document.createElement('kbd');
      kbd.textContent = k;
      cell.append(kbd, ' ');
    });
    row.insertCell().textContent = what;
  });
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = texts.close;
  close.addEventListener('click', () => toggleOverlay(false));
  box.append(title, table, close);
  el.append(box);
  el.addEventListener('click', (e) => { if (e.target === el) toggleOverlay(false); });
  document.body.appendChild(el);
}

/** @param {string} text @param {string} title @param {() => unknown} onClick */
function smallButton(text, title, onClick) {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = text;
  button.title = title;
  button.setAttribute('aria-label', title);
  button.addEventListener('click', onClick);
  return button;
}

function followBar() {
  // The drawer (ui/widgets/presenter.py's CSS) starts under the bar, whose height depends on the window.
  const bar = /** @type {HTMLElement | null} */ (document.querySelector('.st-key-pg_view_row'));
  if (!bar || bar.__pgFollowed) return;
  bar.__pgFollowed = true;
  const set = () => document.documentElement.style.setProperty(
    '--pg-bar-bottom', Math.ceil(bar.getBoundingClientRect().bottom + window.scrollY) + 'px');
  new ResizeObserver(set).observe(bar);
  set();
}

/**
 * @param {ComponentArgs<{texts: {title: string, close: string, rows: [string, string][], play_button: string,
 *   help_button: string}, figures: string[], figure: string, load: number, applied: string[]}>} component
 */
export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  QUEUE.send = setTriggerValue;  // the element drawn last sends the presses
  const texts = data.texts;
  let root = parentElement.querySelector('.pg-presenter-keys');
  if (!root) {
    root = document.createElement('div');
    root.className = 'pg-presenter-keys';
    parentElement.appendChild(root);
  }
  root.replaceChildren(
    smallButton('▶ ❚❚', texts.play_button, () => clickEnabled(playerButton())),
    smallButton('?', texts.help_button, () => toggleOverlay()),
  );
  buildOverlay(texts);
  followBar();
  if (!window.__pgPresenterKeys) {  // once per page: the element's code runs again on every update
    window.__pgPresenterKeys = true;
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', releaseChoice, true);
    window.addEventListener('click', onBarClick, true);
  }
  QUEUE.figures = Array.isArray(data.figures) ? data.figures : [];
  const figure = data.figure || '';
  if (document.documentElement.dataset.pgFigure !== figure) {
    // A new figure's explanation is read from its start: the drawer kept the last one's scroll;
    // and the page from its top (a figure loaded another way than by ← →), before its plot is drawn.
    const drawer = document.querySelector('.st-key-pg_drawer');
    if (drawer) drawer.scrollTop = 0;
    toTop();
  }
  document.documentElement.dataset.pgFigure = figure;
  document.documentElement.dataset.pgLoad = String(data.load || 0);
  applied(Array.isArray(data.applied) ? data.applied : []);
}
