// The presenter bar's keys and its "?" overlay (ui/widgets/presenter.py). A key clicks the bar's own
// button (or the player's), so it does exactly what that button does; keys never act while a
// text field, a select or the player's slider has the focus, nor with Ctrl / ⌘ / Alt held
// (the canvas owns Ctrl+Z and its tool keys A M E S).
//
// Every press counts, in order, however quick (ui/widgets/presenter.py applies them): each press of
// a key or of the bar's ◀ ▶ ↶ ↷ and class buttons gets the next number and joins the list of presses
// the server has not applied yet; the whole list is the element's state, sent again with every
// change. The server applies each number once, in order, and sends back the last one applied
// (data.done), which takes those presses off the list. Streamlit's own button clicks are not used
// for this: one made while a run is busy can be merged with the one before it or not sent at all.
// A press the page applies itself (play, ?) waits until the presses before it are applied.

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

function typing(target) {
  if (!target || !target.closest) return false;
  if (target.isContentEditable) return true;
  const tag = (target.tagName || '').toLowerCase();
  if (tag === 'textarea' || tag === 'select') return true;
  if (tag === 'input') return !['button', 'checkbox', 'radio'].includes((target.type || '').toLowerCase());
  return Boolean(target.closest('[role="combobox"], [role="listbox"], .pg-player'));
}

function releaseChoice(e) {
  // A method (or α) picked from the bar's list: its box gives the focus back, so the keys work
  // again at once (typed into the box, they would filter its list).
  if (!e.target.closest || !e.target.closest('[role="option"]')) return;
  setTimeout(() => {
    const active = document.activeElement;
    if (active && active.closest && active.closest('.st-key-pg_view_row')) /** @type {HTMLElement} */ (active).blur();
  }, 0);
}

function overlay() {
  return document.querySelector('.pg-shortcuts');
}

function toggleOverlay(show) {
  const el = overlay();
  if (!el) return;
  const shown = show === undefined ? !el.classList.contains('pg-shown') : show;
  el.classList.toggle('pg-shown', shown);
  if (shown) el.querySelector('button').focus();
}

/** The bar's buttons whose presses the server applies, and the press each one makes. */
const SENT_BUTTONS = {pb_prev: 'prev', pb_next: 'next', pb_undo: 'undo', pb_redo: 'redo', pb_class: 'class'};
const QUEUE = window.__pgPresenterQueue || (window.__pgPresenterQueue = {
  number: 0, unapplied: [], local: [], done: 0, send: null, timer: undefined, resend: undefined,
});
const GIVE_UP_MS = 15000;  // a press of the page's own waits no longer for presses the server never applied
const RESEND_MS = 3000;  // a list the server has not answered is sent again (a message lost on the way)
const MAX_UNAPPLIED = 50;  // the server reads at most 100; a page past this is cut off from its server

function sendList() {
  clearTimeout(QUEUE.resend);
  if (!QUEUE.unapplied.length || !QUEUE.send) return;
  QUEUE.send('presses', QUEUE.unapplied.slice());
  QUEUE.resend = window.setTimeout(sendList, RESEND_MS);
}

function sendPress(action, arg) {
  if (QUEUE.unapplied.length >= MAX_UNAPPLIED) return true;
  QUEUE.number = Math.max(QUEUE.number, QUEUE.done) + 1;
  QUEUE.unapplied.push({seq: QUEUE.number, action, arg: arg || 0});
  sendList();
  return true;
}

function runLocal() {
  // The page's own presses whose turn has come: every press before them is applied (or given up on).
  clearTimeout(QUEUE.timer);
  while (QUEUE.local.length) {
    const next = QUEUE.local[0];
    if (QUEUE.done < next.after && Date.now() - next.since < GIVE_UP_MS) {
      QUEUE.timer = window.setTimeout(runLocal, GIVE_UP_MS);
      return;
    }
    QUEUE.local.shift();
    next.run();
  }
}

function queueLocal(run) {
  QUEUE.local.push({after: QUEUE.number, since: Date.now(), run});
  runLocal();
  return true;
}

function applied(done, send) {
  // The bar was drawn with the number of the last press the server applied.
  QUEUE.send = send;
  QUEUE.done = Math.max(QUEUE.done, done);
  const left = QUEUE.unapplied.filter((press) => press.seq > QUEUE.done);
  if (left.length !== QUEUE.unapplied.length) {
    QUEUE.unapplied = left;
    if (!left.length) clearTimeout(QUEUE.resend);
  }
  runLocal();
}

function onBarClick(e) {
  // A click on one of the bar's buttons (or Enter / space on it) is a numbered press, in its turn.
  if (!e.target.closest) return;
  const button = e.target.closest('button');
  const holder = button && Object.keys(SENT_BUTTONS).find((k) => button.closest('.st-key-' + k));
  if (!holder || button.disabled || !QUEUE.send) return;
  e.preventDefault();
  e.stopPropagation();
  const index = Array.from(document.querySelectorAll(/** @type {'button'} */ ('.st-key-' + holder + ' button')))
    .filter((b) => b.offsetParent !== null).indexOf(button);
  sendPress(SENT_BUTTONS[holder], Math.max(0, index));
}

const ACTIONS = {
  ArrowLeft: () => sendPress('prev'),
  ArrowRight: () => sendPress('next'),
  ' ': () => queueLocal(() => clickEnabled(playerButton())),
  z: () => sendPress('undo'),
  Z: () => sendPress('undo'),
  '?': () => { toggleOverlay(); return true; },
};

function onKey(e) {
  if (!document.querySelector('.st-key-pb_keys')) return;  // the bar is there only in presentation
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.key === 'Escape') { toggleOverlay(false); return; }
  if (typing(e.target)) return;
  let done = false;
  if (/^[1-6]$/.test(e.key)) done = sendPress('class', Number(e.key) - 1);
  else if (ACTIONS[e.key]) done = ACTIONS[e.key]();
  if (done) e.preventDefault();
}

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

export default function (component) {
  const { data, parentElement, setStateValue } = component;
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
  const figure = data.figure || '';
  if (document.documentElement.dataset.pgFigure !== figure) {
    // A new figure's explanation is read from its start: the drawer kept the last one's scroll.
    const drawer = document.querySelector('.st-key-pg_drawer');
    if (drawer) drawer.scrollTop = 0;
  }
  document.documentElement.dataset.pgFigure = figure;
  applied(Number(data.done) || 0, setStateValue);
}
