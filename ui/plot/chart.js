// A panel's chart: a plotly figure drawn across its column, with the PNG / SVG downloads.
import { bindLandscape } from './landscape_drag.js';
import { fill, loadPlotly, observeWidth, plotConfig, plotRoot, themed } from './plotly_shared.js';

/**
 * @param {ComponentArgs<{figure: string, dark_swaps: Record<string, string> | null, height: number,
 *   plotly_url: string, file_name: string, key: string, config: PlotlyObject, texts: Record<string, string>}>} component
 */
export default function (component) {
  const { data, parentElement } = component;
  const root = plotRoot(parentElement, 'pg-chart');
  root.style.height = data.height + 'px';
  loadPlotly(data.plotly_url).then((Plotly) => {
    const figure = JSON.parse(themed(data.figure, data.dark_swaps));
    figure.layout.height = data.height;
    root.__pgFileName = data.file_name;
    root.dataset.chartKey = data.key;  // browser-side playback moves the step's marker (ui/plot/playback.js)
    const config = plotConfig(Plotly, root, data.config, [], data.texts);
    return Plotly.react(root, figure.data, figure.layout, config).then(() => {
      if (!root.__pgObserved) { observeWidth(root, Plotly); root.__pgObserved = true; }
      if (figure.data.some((/** @type {PlotlyObject} */ t) => t.meta === 'landscape_guess')) bindLandscape(root);
    });
  }).catch((err) => { root.textContent = fill(data.texts.chart_not_drawn, {error: err.message}); });
}
