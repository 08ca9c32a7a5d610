// An invisible element after the panels: the canvas asks it to rerun their fragment once it has drawn
// a scene they were not drawn for (ui/plot/canvas.py, follow_canvas).
import { canvasPage } from './canvas_state.js';

/** @param {ComponentArgs<{drawn_for: string | null}>} component */
export default function (component) {
  // The canvas calls refresh() after drawing a scene these panels were not drawn for.
  const { data, setTriggerValue } = component;
  canvasPage.panels = {drawnFor: data.drawn_for, refresh: (key) => setTriggerValue('refresh', key)};
}
