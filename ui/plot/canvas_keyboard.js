// The canvas by keyboard (see ui/plot/canvas.js, whose rules hold here too).
//
// Rules that must hold:
// - The plot is one stop of the page's Tab order (a focus ring shows it). Its keys act only while
//   it has the focus from the keyboard: focused by a click, the page's keys (the presenter's ← →,
//   space) stay what they were.
// - Arrows move a cursor on a grid of round numbers (a step of 1, 2, 2.5 or 5 times a power of ten,
//   about a fortieth of the view's width; Shift: five steps). Enter, space or A add a point of the
//   current class at the cursor (A also picks the Add tool, as everywhere). Tab / Shift+Tab choose
//   the points in view one by one, in the order they were added (the chosen point wears the
//   selection's rim); past the last one, or after Esc, Tab leaves the plot (no keyboard trap).
//   While a point (or a selection) is chosen, arrows move it and Delete / Backspace erase it.
// - In the line tool, with a line drawn, Tab chooses the line's two handles instead of the points;
//   arrows move the chosen one a step (the other stays, the classes keep their sides: one "guess"
//   edit a key), and the line's accuracy and criterion are said with its new place.
// - Every edit goes the pointer's way: ``send`` (queued, acknowledged, one undo step each: a move
//   is a drag with a single, final move). Ctrl/⌘+Z undoes as anywhere on the page.
// - Every action is said in words in a live region, in the session's language; an edit is said
//   once the session has applied it, with the boundary it now has (the server's sentence).
import { select } from './canvas_drag.js';
import { shownPoints } from './canvas_draw.js';
import { send } from './canvas_edits.js';
import { askNumbers, committedLine, numbersText, through } from './canvas_line_drag.js';
import { canvasData, canvasPage, canvasState } from './canvas_state.js';
import { currentTool } from './canvas_tools.js';
import { laidOut, plotPixel } from './geometry.js';
import { undoKey } from './page_shortcuts.js';
import { fill } from './plotly_shared.js';

/** @param {PlotRoot} root */
function keyboardOf(root) {
  return canvasState(root).keyboard;
}

/**
 * The point of the selection the keyboard chose (the selection's first, if it chose none of them).
 * @param {PlotRoot} root
 * @param {import('./canvas_state.js').Selection} selection
 * @returns {number}
 */
function chosenOf(root, selection) {
  const chosen = keyboardOf(root).chosen;
  return chosen !== null && selection.ids.includes(chosen) ? chosen : selection.ids[0];
}

const KB_STEPS = [1, 2, 2.5, 5];
const KB_CELLS = 40;  // about this many steps across the view's width
const KB_BIG = 5;  // Shift + arrow: this many steps

/** @param {PlotRoot} root @returns {number} the grid's step in data units */
function kbStep(root) {
  const xr = root._fullLayout.xaxis.range, raw = Math.abs(xr[1] - xr[0]) / KB_CELLS;
  const power = Math.pow(10, Math.floor(Math.log10(raw)));
  let step = power;
  KB_STEPS.forEach((m) => { if (m * power <= raw * (1 + 1e-9)) step = m * power; });
  return step;
}

/** @param {number} value @param {number} step */
function kbRound(value, step) {
  // The nearest multiple of ``step``, without a binary fraction's tail (0.30000000000000004).
  return Number((Math.round(value / step) * step).toPrecision(12));
}

/** @param {number} value @param {number} step */
function kbNumber(value, step) {
  // A coordinate as a person reads it: the step's decimals and one more, a true minus sign.
  const decimals = Math.min(8, Math.max(0, Math.ceil(-Math.log10(step)) + 1));
  const text = String(Number(value.toFixed(decimals)));
  return text.replace('-', '\u2212');
}

/** @param {PlotRoot} root @param {string} text */
function kbSay(root, text) {
  const region = keyboardOf(root).region;
  if (!region) return;
  // The same words twice in a row are still said: the region is emptied first.
  region.textContent = '';
  setTimeout(() => { region.textContent = text; }, 30);
  root.dataset.said = text;
}

/** @param {PlotRoot} root */
function kbTexts(root) {
  return canvasData(root).texts;
}

/** @param {PlotRoot} root @param {number} k  the class, from 0 */
function kbClassName(root, k) {
  const spoken = canvasData(root).spoken;
  return spoken && spoken.classes ? spoken.classes[k] : String(k + 1);
}

/** @param {PlotRoot} root @param {number} id */
function kbPointClass(root, id) {
  // A point's class from its trace: each class has its own symbol (ui/plot/theme.py CLASS_SYMBOLS).
  const symbols = (canvasData(root).spoken || {}).symbols || [];
  const trace = (root._fullData || []).find((t) => t.meta === 'points' && Array.from(t.customdata || []).includes(id));
  return trace ? symbols.indexOf(trace.marker.symbol) : -1;
}

/** @param {PlotRoot} root @returns {number[]} */
function kbInView(root) {
  // The ids of the points inside the view, in the order they were added.
  const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
  /** @type {number[]} */
  const ids = [];
  shownPoints(root).forEach(([x, y], id) => {
    if (x >= Math.min(...xr) && x <= Math.max(...xr) && y >= Math.min(...yr) && y <= Math.max(...yr)) ids.push(id);
  });
  return ids.sort((a, b) => a - b);
}

/** @param {PlotRoot} root @returns {[number, number]} */
function kbCursor(root) {
  // The cursor, kept inside the view (a zoom or pan may have left it outside): else the view's centre.
  const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range, step = kbStep(root);
  const keyboard = keyboardOf(root), at = keyboard.at;
  const inside = at && at[0] >= Math.min(...xr) && at[0] <= Math.max(...xr) && at[1] >= Math.min(...yr) && at[1] <= Math.max(...yr);
  if (at && inside) return at;
  keyboard.at = [kbRound((xr[0] + xr[1]) / 2, step), kbRound((yr[0] + yr[1]) / 2, step)];
  return keyboard.at;
}

/** @param {PlotRoot} root */
function kbPlace(root) {
  // The cursor's mark over the plot (after every draw: a zoom moves it on the screen).
  const mark = keyboardOf(root).mark;
  if (!mark || !laidOut(root)) return;
  const [x, y] = kbCursor(root), [left, top] = plotPixel(root, x, y);
  mark.style.left = left + 'px';
  mark.style.top = top + 'px';
  root.dataset.cursor = `${x} ${y}`;
}

/** @param {PlotRoot} root @param {number} x @param {number} y */
function kbWhere(root, x, y) {
  const step = kbStep(root);
  return {x: kbNumber(x, step), y: kbNumber(y, step)};
}

/** @param {PlotRoot} root @param {number} nonce @param {string} action */
function kbAfterApplied(root, nonce, action) {
  // Said once the session has applied the edit, with the boundary it then has.
  keyboardOf(root).pending = (keyboardOf(root).pending || []).concat([{nonce: nonce, action: action}]);
}

/** @param {PlotRoot} root @param {number} dx @param {number} dy  in steps */
function kbMoveCursor(root, dx, dy) {
  const step = kbStep(root), [x, y] = kbCursor(root);
  const keyboard = keyboardOf(root);
  keyboard.at = [kbRound(x + dx * step, step), kbRound(y + dy * step, step)];
  kbPlace(root);  // which may take the cursor back into the view
  const at = keyboard.at || [x, y];
  kbSay(root, fill(kbTexts(root).kb_cursor, kbWhere(root, at[0], at[1])));
}

/** @param {PlotRoot} root */
function kbAdd(root) {
  const [x, y] = kbCursor(root), spoken = canvasData(root).spoken || {};
  const nonce = send(root, {type: 'add', x: x, y: y});
  kbAfterApplied(root, nonce, fill(kbTexts(root).kb_added, Object.assign(
    {name: kbClassName(root, spoken.add_as || 0)}, kbWhere(root, x, y))));
}

/** @param {PlotRoot} root @param {number} id @param {number} total @param {number} index */
function kbChoose(root, id, total, index) {
  const shown = shownPoints(root).get(id);
  if (!shown) return;
  keyboardOf(root).chosen = id;
  keyboardOf(root).at = [shown[0], shown[1]];
  select(root, [id], false);
  kbPlace(root);
  kbSay(root, fill(kbTexts(root).kb_chosen, Object.assign({
    n: id + 1, index: index + 1, total: total, name: kbClassName(root, kbPointClass(root, id)),
  }, kbWhere(root, shown[0], shown[1]))));
}

/** @param {PlotRoot} root @param {boolean} back */
function kbTab(root, back) {
  // The next (previous) point in view; false when there is none: the focus then leaves the plot.
  const ids = kbInView(root), selection = canvasState(root).selection;
  const current = selection && selection.ids.length ? chosenOf(root, selection) : null;
  let index;
  if (current === null) index = back ? ids.length - 1 : 0;
  else {
    const at = ids.indexOf(current);
    index = at < 0 ? (back ? ids.filter((i) => i < current).length - 1 : ids.filter((i) => i < current).length) : at + (back ? -1 : 1);
  }
  if (index < 0 || index >= ids.length) {
    if (selection) select(root, [], false);
    keyboardOf(root).chosen = null;
    return false;
  }
  kbChoose(root, ids[index], ids.length, index);
  return true;
}

/** @param {PlotRoot} root @param {number} dx @param {number} dy  in steps */
function kbMoveChosen(root, dx, dy) {
  // The chosen points, one step (to the grid's next line along that axis), as a drag of one move.
  const selection = canvasState(root).selection, shown = shownPoints(root), step = kbStep(root);
  if (!selection) return;
  const anchorId = chosenOf(root, selection);
  const anchor = shown.get(anchorId);
  if (!anchor) return;
  const tx = dx ? kbRound(anchor[0] + dx * step, step) : anchor[0], ty = dy ? kbRound(anchor[1] + dy * step, step) : anchor[1];
  canvasPage.dragCount += 1;
  const nonce = send(root, {
    type: 'move', drag: `kb-${Date.now()}-${canvasPage.dragCount}`, revision: root.dataset.revision,
    ids: selection.ids.slice(), dx: tx - anchor[0], dy: ty - anchor[1], final: true,
  });
  selection.awaiting = nonce;  // its points move by this edit: the selection stays (markSelection)
  keyboardOf(root).at = [tx, ty];
  kbPlace(root);
  const texts = kbTexts(root);
  const action = selection.ids.length > 1
    ? fill(texts.kb_moved_many, {count: selection.ids.length})
    : fill(texts.kb_moved, Object.assign({n: anchorId + 1}, kbWhere(root, tx, ty)));
  kbAfterApplied(root, nonce, action);
}

/** @param {PlotRoot} root */
function kbErase(root) {
  const state = canvasState(root), texts = kbTexts(root);
  if (!state.selection) return;
  const ids = state.selection.ids.slice();
  state.selection = null;
  keyboardOf(root).chosen = null;
  const nonce = send(root, {type: 'remove', ids: ids});
  kbAfterApplied(root, nonce, ids.length > 1 ? fill(texts.kb_erased_many, {count: ids.length}) : fill(texts.kb_erased, {n: ids[0] + 1}));
}

// ---- The person's line by keyboard ---------------------------------------------------------------

/** @param {PlotRoot} root  whether Tab and the arrows are the line's handles' */
function kbLineMode(root) {
  return currentTool() === 'line' && committedLine(root) !== null;
}

/** @param {PlotRoot} root @param {number} handle  0 or 1 */
function kbChooseHandle(root, handle) {
  const line = committedLine(root), keyboard = keyboardOf(root);
  if (!line) return;
  // The handles where they are now, kept while the keyboard moves them (a redraw re-places the drawn ones).
  if (!keyboard.line) keyboard.line = {handle: handle, ends: line.ends.map((e) => /** @type {[number, number]} */ (e.slice())), guess: line.guess};
  keyboard.line.handle = handle;
  const [x, y] = keyboard.line.ends[handle];
  keyboard.at = [x, y];
  kbPlace(root);
  kbSay(root, fill(kbTexts(root).kb_line_handle, Object.assign({n: handle + 1}, kbWhere(root, x, y))));
}

/** @param {PlotRoot} root @param {boolean} back  false when past the last handle: Tab leaves */
function kbTabHandle(root, back) {
  const keyboard = keyboardOf(root), current = keyboard.line ? keyboard.line.handle : null;
  const next = current === null ? (back ? 1 : 0) : current + (back ? -1 : 1);
  if (next < 0 || next > 1) { keyboard.line = null; return false; }
  kbChooseHandle(root, next);
  return true;
}

/** @param {PlotRoot} root @param {number} dx @param {number} dy  in steps */
function kbMoveHandle(root, dx, dy) {
  const keyboard = keyboardOf(root), chosen = keyboard.line, step = kbStep(root);
  if (!chosen) return;
  const [x, y] = chosen.ends[chosen.handle];
  /** @type {[number, number]} */
  const to = [dx ? kbRound(x + dx * step, step) : x, dy ? kbRound(y + dy * step, step) : y];
  const ends = chosen.handle === 0 ? [to, chosen.ends[1]] : [chosen.ends[0], to];
  const w = through(ends[0], ends[1], chosen.guess);
  if (!w) return;  // onto the other handle: no line
  chosen.ends[chosen.handle] = to;
  chosen.guess = w;
  keyboard.at = to;
  kbPlace(root);
  send(root, {type: 'guess', w0: w[0], w1: w[1], w2: w[2]});
  const moved = fill(kbTexts(root).kb_line_moved, Object.assign({n: chosen.handle + 1}, kbWhere(root, to[0], to[1])));
  kbSay(root, moved);
  askNumbers(root, w, false).then((line) => {
    if (line && keyboard.line === chosen && chosen.guess === w) kbSay(root, fill(kbTexts(root).kb_then, {action: moved, boundary: numbersText(root, line)}));
  });
}

/** @type {Record<string, [number, number]>} */
const KB_ARROWS = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1]};

/** @param {PlotRoot} root @param {KeyboardEvent} e */
function kbKey(root, e) {
  // true: the key was the plot's (the page's own handlers do not see it).
  if (!keyboardOf(root).active || e.target !== root || e.altKey || !root._fullLayout) return false;
  const key = e.key, texts = kbTexts(root), chosen = canvasState(root).selection;
  if (e.ctrlKey || e.metaKey) {
    const action = undoKey((key || '').toLowerCase(), e.shiftKey);
    if (!action || e.repeat) return false;
    kbAfterApplied(root, send(root, {type: action}), action === 'undo' ? texts.kb_undone : texts.kb_redone);
    return true;
  }
  if (KB_ARROWS[key]) {
    const [dx, dy] = KB_ARROWS[key], times = e.shiftKey ? KB_BIG : 1;
    if (keyboardOf(root).line && kbLineMode(root)) kbMoveHandle(root, dx * times, dy * times);
    else if (chosen) { if (!e.repeat) kbMoveChosen(root, dx * times, dy * times); } else kbMoveCursor(root, dx * times, dy * times);
    return true;
  }
  if (key === 'Enter' || key === ' ' || key === 'a' || key === 'A') {
    if (!e.repeat) kbAdd(root);
    return key !== 'a' && key !== 'A';  // A goes on to the page's tool key (the Add tool)
  }
  if (key === 'Tab') {
    if (keyboardOf(root).released) return false;
    if (kbLineMode(root) ? kbTabHandle(root, e.shiftKey) : kbTab(root, e.shiftKey)) return true;
    keyboardOf(root).released = true;
    return false;
  }
  if ((key === 'Delete' || key === 'Backspace') && chosen) {
    if (!e.repeat) kbErase(root);
    return true;
  }
  if (key === 'Escape') {
    keyboardOf(root).released = true;
    keyboardOf(root).chosen = null;
    keyboardOf(root).line = null;
    if (chosen) select(root, [], false);
    kbSay(root, texts.kb_released);
    return false;  // the page's Esc clears the other canvases' selections too
  }
  return false;
}

/** @param {PlotRoot} root @param {HTMLElement} parentElement */
export function kbSetUp(root, parentElement) {
  // Once per element: the focus stop, the cursor's mark, the live region, the keys.
  const texts = kbTexts(root);
  root.setAttribute('aria-label', texts.kb_label);
  root.setAttribute('aria-roledescription', texts.kb_role);
  if (keyboardOf(root).bound) return;
  keyboardOf(root).bound = true;
  root.tabIndex = 0;
  root.setAttribute('role', 'application');  // a screen reader hands the arrows to the plot
  const mark = document.createElement('div');
  mark.className = 'pg-kb-cursor';
  mark.setAttribute('aria-hidden', 'true');
  root.appendChild(mark);
  keyboardOf(root).mark = mark;
  const region = document.createElement('div');
  region.className = 'pg-kb-say pg-sr-only';
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-atomic', 'true');
  parentElement.appendChild(region);
  keyboardOf(root).region = region;
  const pointer = () => { keyboardOf(root).pointer = true; keyboardOf(root).active = false; root.classList.remove('pg-kb'); };
  root.addEventListener('mousedown', pointer, true);
  root.addEventListener('touchstart', pointer, {capture: true, passive: true});
  root.addEventListener('focus', () => {
    keyboardOf(root).active = !keyboardOf(root).pointer;
    keyboardOf(root).pointer = false;
    keyboardOf(root).released = false;
    root.classList.toggle('pg-kb', keyboardOf(root).active);
    if (keyboardOf(root).active && root._fullLayout) kbPlace(root);
  });
  root.addEventListener('blur', () => { keyboardOf(root).active = false; keyboardOf(root).pointer = false; root.classList.remove('pg-kb'); });
  root.addEventListener('keydown', (e) => {
    if (kbKey(root, e)) { e.preventDefault(); e.stopPropagation(); }
  });
}

/** @param {PlotRoot} root @param {import('./canvas_state.js').CanvasData} data */
export function kbAfterDraw(root, data) {
  // After a figure from the session: the cursor in its place, and the edits it applied said.
  if (!keyboardOf(root).plotBound && root.on) {
    keyboardOf(root).plotBound = true;
    root.on('plotly_afterplot', () => kbPlace(root));
  }
  kbPlace(root);
  const kept = keyboardOf(root).line, line = committedLine(root);
  if (kept && (!line || line.guess.some((v, i) => Math.abs(v - kept.guess[i]) > 1e-4 * Math.max(1, Math.abs(v))))) {
    keyboardOf(root).line = null;  // the line changed by another way (typed, drawn, undone): its handles are new
  }
  const pending = keyboardOf(root).pending || [], ack = data.ack || 0;
  const done = pending.filter((p) => p.nonce <= ack);
  if (!done.length) return;
  keyboardOf(root).pending = pending.filter((p) => p.nonce > ack);
  const action = done[done.length - 1].action, spoken = data.spoken || {};
  kbSay(root, spoken.boundary ? fill(kbTexts(root).kb_then, {action: action, boundary: spoken.boundary}) : action);
}

