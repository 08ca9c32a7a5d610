// The class of new points, in the canvas's tool bar on a narrow screen (canvas.css shows it
// there only): on a phone the sidebar, where the class radio is, is a drawer over the plot.
// It is the sidebar's radio itself under another face: choosing here presses that radio (the
// one state, ui/widgets/controls.py class_picker), and the server's answer (data.spoken.add_as,
// the class a tap adds) sets this select again on every drawing.

import { canvasState } from './canvas_state.js';

const RADIO = '.st-key-active_class input[type="radio"]';

/** The sidebar's radio inputs, one per class, in order. @returns {HTMLInputElement[]} */
function radios() {
  return Array.from(document.querySelectorAll(RADIO));
}

/**
 * The picker in the canvas's tool ``bar``, set to the class a tap adds.
 * @param {PlotRoot} root
 * @param {HTMLElement} bar
 */
export function classPicker(root, bar) {
  const data = canvasState(root).data, spoken = (data && data.spoken) || {}, names = spoken.classes || [];
  let select = /** @type {HTMLSelectElement | null} */ (bar.querySelector('select.pg-class-pick'));
  if (!names.length) {
    if (select) select.remove();
    return;
  }
  if (!select) {
    const made = document.createElement('select');
    made.className = 'pg-class-pick';
    made.addEventListener('change', () => {
      const radio = radios()[Number(made.value)];
      if (radio && !radio.checked) radio.click();
    });
    // Beside the point tools, before the line tool: on a phone the line tool is what wraps to the
    // second row, and the class stays on the first, beside Add.
    bar.insertBefore(made, bar.querySelector("button[data-tool='line']") || bar.querySelector('.pg-hint'));
    select = made;
  }
  const label = (data && data.texts.class_pick) || '';
  select.setAttribute('aria-label', label);
  select.title = label;
  const symbols = ['●', '■', '◆', '▲', '✚', '★'];
  if (select.options.length !== names.length || Array.from(select.options).some((o, k) => o.dataset.name !== names[k])) {
    select.textContent = '';
    names.forEach((name, k) => {
      const option = document.createElement('option');
      option.value = String(k);
      option.dataset.name = name;
      option.textContent = (symbols[k] || '') + ' ' + name;
      select.appendChild(option);
    });
  }
  select.value = String(spoken.add_as || 0);
  // No radio to press (a page without the sidebar's picker): no picker here either.
  select.hidden = radios().length < names.length;
}
