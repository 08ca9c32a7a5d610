// The canvas's tools (add, move, erase, select, and line: the person's own boundary), one for the
// whole page, and the tool bar above each
// plot with its hint line. Rules: ui/plot/canvas.js.
import { canvasData, canvasPage, canvasState } from './canvas_state.js';

export const TOOLS = ['add', 'move', 'erase', 'select', 'line'];
/** @type {Record<string, string>} */
export const TOOL_KEYS = {a: 'add', m: 'move', e: 'erase', s: 'select', l: 'line'};
/** @type {Record<string, string>} each tool's own drag mode of plotly's (the line tool takes every press) */
export const DRAGMODES = {add: 'zoom', move: 'pan', erase: 'select', select: 'select', line: 'zoom'};
/** What a drag on empty space may do in each tool (plotly's toolbar picks among these).
 * @type {Record<string, string[]>} */
export const TOOL_DRAGMODES = {
  add: ['zoom', 'pan'], move: ['pan', 'zoom'], erase: ['select', 'lasso'], select: ['select', 'lasso'], line: ['zoom', 'pan'],
};

/** The page's tool (kept for the tab's session: a reload keeps it). @returns {string} */
export function currentTool() {
  if (!canvasPage.tool) {
    let saved;
    try { saved = window.sessionStorage.getItem('pg-tool'); } catch (err) { saved = null; }  // private mode
    canvasPage.tool = saved && TOOLS.includes(saved) ? saved : 'add';
  }
  return canvasPage.tool;
}

/** @param {string} tool */
export function setTool(tool) {
  if (!TOOLS.includes(tool)) return;
  canvasPage.tool = tool;
  try { window.sessionStorage.setItem('pg-tool', tool); } catch (err) { /* private mode: not kept */ }
  /** @type {NodeListOf<PlotRoot>} */ (document.querySelectorAll('.pg-canvas')).forEach((root) => {
    const state = canvasState(root);
    if (state.lineStart && tool !== 'line') {  // the line tool's first click, forgotten with its dot
      state.lineStart = null;
      if (window.Plotly && root._fullLayout) window.Plotly.relayout(root, {shapes: []});
    }
    if (state.lineNumbersNonce && tool !== 'line') {  // a released line's numbers: the line tool's alone
      state.lineNumbersNonce = 0;
      liveLine(root, null);
    }
    if (state.data) applyTool(root);
  });
}

/**
 * The tool bar's state, the hint line, the cursor, plotly's drag mode and what a finger does.
 * @param {PlotRoot} root
 */
export function applyTool(root) {
  const tool = currentTool(), state = canvasState(root), data = canvasData(root), texts = data.texts;
  const bar = state.toolbar;
  if (bar) {
    bar.querySelectorAll('button[data-tool]').forEach((b) => {
      b.setAttribute('aria-pressed', String(/** @type {HTMLElement} */ (b).dataset.tool === tool));
    });
    const hint = bar.querySelector('.pg-hint');
    const touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
    // While clicks switch points between training and test, add and erase switch them (the session decides).
    const switching = data.click_switches && (tool === 'add' || tool === 'erase');
    const second = tool === 'line' && state.lineStart ? '_second' : '';
    const key = switching ? 'hint_switch' : 'hint_' + tool + (touch && tool === 'add' ? '_touch' : '') + second;
    if (hint && !state.liveLine) hint.textContent = texts[key] || '';
  }
  root.dataset.tool = tool;
  // One finger scrolls the page in the add tool (a tap still adds); the other tools need the finger.
  root.style.touchAction = tool === 'add' ? 'pan-y' : 'none';
  if (root._fullLayout && window.Plotly && state.toolDrawn !== tool) {
    state.toolDrawn = tool;
    window.Plotly.relayout(root, {dragmode: DRAGMODES[tool]});
  }
}

/**
 * A small bar above the plot (its height never changes, so the plot never moves under the pointer).
 * @param {PlotRoot} root
 * @param {HTMLElement} parentElement
 * @param {Record<string, string>} texts
 * @returns {HTMLElement}
 */
export function toolbar(root, parentElement, texts) {
  let bar = /** @type {HTMLElement | null} */ (parentElement.querySelector('.pg-tools'));
  if (!bar) {
    const made = document.createElement('div');
    made.className = 'pg-tools';
    made.setAttribute('role', 'toolbar');
    TOOLS.forEach((tool) => {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.tool = tool;
      button.addEventListener('click', () => setTool(tool));
      made.appendChild(button);
    });
    const hint = document.createElement('span');
    hint.className = 'pg-hint';
    hint.setAttribute('aria-live', 'polite');
    made.appendChild(hint);
    parentElement.insertBefore(made, parentElement.firstChild);
    parentElement.classList.add('pg-host');
    bar = made;
  }
  bar.setAttribute('aria-label', texts.tools);
  bar.querySelectorAll('button[data-tool]').forEach((element) => {
    const button = /** @type {HTMLButtonElement} */ (element), tool = button.dataset.tool;
    button.textContent = texts['tool_' + tool];
    button.title = texts['tool_' + tool + '_help'];
  });
  canvasState(root).toolbar = bar;
  return bar;
}

/**
 * A line in the tool bar about live updates (off, or what a drag shows); null restores the hint.
 * @param {PlotRoot} root
 * @param {string | null} text
 */
export function liveLine(root, text) {
  const state = canvasState(root);
  state.liveLine = text;
  const hint = state.toolbar && state.toolbar.querySelector('.pg-hint');
  if (hint) hint.textContent = text || '';
  if (!text) applyTool(root);
}
