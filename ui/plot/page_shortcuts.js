// The canvas's shortcuts anywhere on the page (but in a text field, which keeps its own keys):
// Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo; A, M, E, S pick a tool; F fits the view to
// the points (as ⌂ and the sidebar's Fit view do); Delete erases the selection; Esc clears it.
// The plot's own keys, while it has the keyboard's focus, are canvas_keyboard.js's.
import { select } from './canvas_drag.js';
import { keyRoot, send } from './canvas_edits.js';
import { canvasPage, canvasState } from './canvas_state.js';
import { TOOL_KEYS, setTool } from './canvas_tools.js';

const FIT_KEY = 'f';  // fits the view to the points

/** @param {EventTarget | null} target */
function isTextField(target) {
  const element = /** @type {HTMLElement | null} */ (target);
  if (!element || !element.tagName) return false;
  if (element.isContentEditable) return true;
  const tag = element.tagName.toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const notText = ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'];
  return !notText.includes((/** @type {HTMLInputElement} */ (element).type || '').toLowerCase());
}

/**
 * Undo or redo with Ctrl/Cmd: the action, or null for another key.
 * @param {string} key  lower case
 * @param {boolean} shift
 * @returns {'undo' | 'redo' | null}
 */
export function undoKey(key, shift) {
  if (key === 'z') return shift ? 'redo' : 'undo';
  return key === 'y' && !shift ? 'redo' : null;
}

/**
 * @param {KeyboardEvent} e
 */
function shortcut(e) {
  if (isTextField(e.target) || e.altKey || e.repeat) return;
  const key = (e.key || '').toLowerCase(), root = keyRoot();
  if (!root) return;
  const state = canvasState(root);
  if (e.ctrlKey || e.metaKey) {
    const action = undoKey(key, e.shiftKey);
    if (!action) return;
    e.preventDefault();
    send(root, {type: action});
  } else if (TOOL_KEYS[key] && !e.shiftKey) {
    setTool(TOOL_KEYS[key]);
  } else if (key === FIT_KEY && !e.shiftKey) {
    send(root, {type: 'fit'});
  } else if ((key === 'delete' || key === 'backspace') && state.selection) {
    e.preventDefault();
    const ids = state.selection.ids;
    state.selection = null;
    send(root, {type: 'remove', ids: ids});
  } else if (key === 'escape') {
    /** @type {NodeListOf<PlotRoot>} */ (document.querySelectorAll('.pg-canvas')).forEach((r) => {
      if (canvasState(r).selection) select(r, [], false);
    });
  }
}

/** Bind the page's shortcuts (once per page). */
export function bindShortcuts() {
  if (canvasPage.keysBound) return;
  canvasPage.keysBound = true;
  document.addEventListener('keydown', shortcut);
}
