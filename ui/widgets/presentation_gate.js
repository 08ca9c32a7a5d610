// A link asking for presentation: where the window is wide enough, the browser switches the page's
// Presentation toggle on itself, as a person would (ui/widgets/presentation_gate.py says why the
// server must not). It acts once, and only when wide: a phone or a narrow window does nothing and
// keeps the normal page (no rerun, no flash of the presenter bar).
const GIVE_UP_MS = 20000;  // the toggle is drawn before this element; a page that never shows it gives up

/** @param {string} key @returns {HTMLInputElement | null} */
function toggleInput(key) {
  return document.querySelector(`.st-key-${key} input[type="checkbox"]`);
}

/** @param {string} key @param {number} since */
function switchOn(key, since) {
  const input = toggleInput(key);
  if (!input || input.disabled) {
    if (performance.now() - since < GIVE_UP_MS) requestAnimationFrame(() => switchOn(key, since));
    return;
  }
  if (!input.checked) input.click();
}

/** @param {ComponentArgs<{min_width: number, toggle: string}>} component */
export default function (component) {
  const { data } = component;
  if (window.__pgGateAnswered) return;
  window.__pgGateAnswered = true;
  const wide = window.innerWidth >= data.min_width;
  document.documentElement.dataset.pgPresentationGate = wide ? 'wide' : 'narrow';  // what tests wait for
  if (wide) switchOn(data.toggle, performance.now());
}
