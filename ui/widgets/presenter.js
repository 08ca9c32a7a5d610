// The presenter bar's keys and its "?" overlay (ui/widgets/presenter.py). A key clicks the bar's own
// button (or the player's), so it does exactly what that button does; keys never act while a
// text field, a select or the player's slider has the focus, nor with Ctrl / ⌘ / Alt held
// (the canvas owns Ctrl+Z and its tool keys A M E S).
//
// Every press counts, in order, however quick: a press of a key or a click on one of the bar's
// buttons that the server must apply is queued; the next one is sent only once the server's count
// of applied actions (data.done, counted by the bar's callbacks) has moved past the one before, so
// three quick → presses move three figures (a click sent while a run is busy would otherwise be
// merged with the one before it). A press the page applies itself (play, ?) waits its turn too.

function presenterButton(key, index) {
  // The visible ones: Streamlit keeps a hidden copy of a button, and a tooltip's target is one too.
  const buttons = Array.from(document.querySelectorAll(/** @type {'button'} */ ('.st-key-' + key + ' button')));
  return buttons.filter((b) => b.offsetParent !== null)[index || 0] || null;
}

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

const SENT_KEYS = ['pb_prev', 'pb_next', 'pb_undo', 'pb_redo', 'pb_class'];  // the server applies them
const QUEUE = window.__pgPresenterQueue || (window.__pgPresenterQueue = {pending: [], awaited: null, done: 0, timer: null, retry: null, since: 0});
const GIVE_UP_MS = 15000;  // a press the server never counted (an error) must not stop the queue for good

function sendButton(key, index) {
  // A press of one of the bar's buttons, found when its turn comes (the bar is drawn anew meanwhile).
  return () => {
    const button = presenterButton(key, index);
    if (!button) return 'wait';  // the bar is being drawn anew: the press keeps its place
    if (button.disabled) return false;  // nothing to do there (no figure before the first)
    button.__pgQueued = true;  // our own click: the capture below lets it through
    try { button.click(); } finally { button.__pgQueued = false; }
    return 'sent';
  };
}

const RETRY_MS = 100;  // a press whose button is not there yet (the bar drawn anew) is tried again

function pump() {
  clearTimeout(QUEUE.retry);
  while (QUEUE.awaited === null && QUEUE.pending.length) {
    const outcome = QUEUE.pending[0]();
    if (outcome === 'wait' && Date.now() - (QUEUE.since || (QUEUE.since = Date.now())) < GIVE_UP_MS) {
      QUEUE.retry = setTimeout(pump, RETRY_MS);
      return;
    }
    QUEUE.pending.shift();
    QUEUE.since = 0;
    if (outcome === 'sent') await_(QUEUE.done + 1);
  }
}

function await_(count) {
  QUEUE.awaited = count;
  clearTimeout(QUEUE.timer);
  QUEUE.timer = setTimeout(() => { QUEUE.awaited = null; pump(); }, GIVE_UP_MS);
}

function applied(done) {
  // The bar was drawn with the server's count: the press awaited is applied, the next may go.
  QUEUE.done = done;
  if (QUEUE.awaited !== null && done >= QUEUE.awaited) {
    QUEUE.awaited = null;
    clearTimeout(QUEUE.timer);
  }
  pump();
}

function queue(action) {
  QUEUE.pending.push(action);
  pump();
  return true;
}

function onBarClick(e) {
  // A click on one of the bar's buttons while a press is still on its way waits its turn.
  if (!e.isTrusted || !e.target.closest) return;
  const button = e.target.closest('button');
  const holder = button && SENT_KEYS.map((k) => button.closest('.st-key-' + k) && k).find(Boolean);
  if (!holder || button.disabled || button.__pgQueued) return;
  const index = Array.from(document.querySelectorAll(/** @type {'button'} */ ('.st-key-' + holder + ' button')))
    .filter((b) => b.offsetParent !== null).indexOf(button);
  if (QUEUE.awaited === null && !QUEUE.pending.length) { await_(QUEUE.done + 1); return; }  // goes now
  e.preventDefault();
  e.stopPropagation();
  queue(sendButton(holder, Math.max(0, index)));
}

const ACTIONS = {
  ArrowLeft: () => queue(sendButton('pb_prev')),
  ArrowRight: () => queue(sendButton('pb_next')),
  ' ': () => queue(() => clickEnabled(playerButton())),
  z: () => queue(sendButton('pb_undo')),
  Z: () => queue(sendButton('pb_undo')),
  '?': () => { toggleOverlay(); return true; },
};

function onKey(e) {
  if (!document.querySelector('.st-key-pb_keys')) return;  // the bar is there only in presentation
  if (e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
  if (e.key === 'Escape') { toggleOverlay(false); return; }
  if (typing(e.target)) return;
  let done = false;
  if (/^[1-6]$/.test(e.key)) done = queue(sendButton('pb_class', Number(e.key) - 1));
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
  const { data, parentElement } = component;
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
  applied(Number(data.done) || 0);
}
