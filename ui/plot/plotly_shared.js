// Shared by every plotly element's module (the canvas, the panels' charts): loading plotly.js
// once, the dark theme, the PNG / SVG downloads. Each imports what it uses from here.
/**
 * @param {string} template
 * @param {Record<string, unknown>} values
 * @returns {string}
 */
export function fill(template, values) {
  // A sentence the server translated, its {named} places filled (one pass: a value's own braces stay).
  return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function darkPage() {
  // Streamlit's dark theme (its settings menu, or the viewer's system theme) darkens the app's background.
  const app = document.querySelector('.stApp') || document.body;
  const rgb = (getComputedStyle(app).backgroundColor.match(/[0-9.]+/g) || [255, 255, 255]).map(Number);
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 128;
}

/**
 * @param {string} json
 * @param {Record<string, string> | null | undefined} swaps
 * @returns {string}
 */
export function themed(json, swaps) {
  // The figure's light colours exchanged for the dark theme's (ui/plot/theme.py DARK_SWAPS).
  if (!swaps || !darkPage()) return json;
  for (const [light, dark] of Object.entries(swaps)) json = json.split('"' + light + '"').join('"' + dark + '"');
  return json;
}

/**
 * @param {string} url
 * @returns {Promise<PlotlyApi>}
 */
export function loadPlotly(url) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  if (!window.__pgPlotlyLoading) {
    window.__pgPlotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => {
        window.__pgPlotlyLoading = undefined;
        reject(new Error('plotly.js did not load from ' + url));
      };
      document.head.appendChild(script);
    });
  }
  return window.__pgPlotlyLoading;
}

/**
 * @param {HTMLElement} parentElement
 * @param {string} className
 * @returns {PlotRoot}
 */
export function plotRoot(parentElement, className) {
  // The component's function runs again on every data change: reuse the element it made.
  let root = /** @type {PlotRoot | null} */ (parentElement.querySelector('.' + className));
  if (!root) {
    root = /** @type {PlotRoot} */ (/** @type {unknown} */ (document.createElement('div')));  // plotly makes it a plot
    root.className = className;
    parentElement.appendChild(root);
  }
  return root;
}

/**
 * @param {PlotRoot} root
 * @param {PlotlyApi} Plotly
 * @param {() => unknown} [onResize]  else plotly's own resize
 */
export function observeWidth(root, Plotly, onResize) {
  // Columns change width with the window, and the sidebar folding away (presentation mode)
  // widens a plot without a window resize; plotly notices neither by itself.
  let lastWidth = root.clientWidth;
  new ResizeObserver(() => {
    // A hidden plot (a rerun swapping elements) has no width; plotly cannot resize it.
    if (!root.clientWidth || Math.abs(root.clientWidth - lastWidth) < 2) return;
    lastWidth = root.clientWidth;
    if (onResize) onResize(); else Plotly.Plots.resize(root);
  }).observe(root);
}

// Figures to take away: PNG and SVG drawn by plotly.js in the browser (no server, no cloud),
// named after what they show and the day, e.g. "least-squares-2026-05-04.svg".
function today() {
  const now = new Date(), pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return now.getFullYear() + '-' + pad(now.getMonth() + 1) + '-' + pad(now.getDate());
}

/**
 * @param {PlotlyApi} Plotly
 * @param {PlotRoot} gd
 * @param {'png' | 'svg'} format
 * @param {string | undefined} name
 */
function downloadFigure(Plotly, gd, format, name) {
  const layout = gd._fullLayout;
  return Plotly.downloadImage(gd, {
    format: format, filename: (name || 'figure') + '-' + today(),
    width: layout.width, height: layout.height, scale: format === 'png' ? 2 : 1,
  });
}

// No plot of the app offers an upload (docs/using.md: nothing is uploaded anywhere): plotly.js 4 shows
// "Share chart…" by default (showSendToCloud), which sends the figure to Plotly Cloud
// (plotlyServerURL). Every plotly.js call's config goes through offline; ui/plot/plotly_config.py
// says the same for the configs sent from Python.
export const UPLOAD_BUTTONS = ['sendChartToCloud', 'sendDataToCloud', 'editInChartStudio'];
const NO_UPLOAD = {showSendToCloud: false, showEditInChartStudio: false, plotlyServerURL: ''};

/**
 * ``config`` with no upload button and nowhere to upload to.
 * @param {PlotlyObject} config
 * @returns {PlotlyObject}
 */
export function offline(config) {
  const removed = (config.modeBarButtonsToRemove || []).filter((/** @type {string} */ b) => !UPLOAD_BUTTONS.includes(b));
  return Object.assign({}, config, NO_UPLOAD, {modeBarButtonsToRemove: removed.concat(UPLOAD_BUTTONS)});
}

/**
 * @param {PlotlyApi} Plotly
 * @param {PlotRoot} root
 * @param {PlotlyObject} config
 * @param {PlotlyObject[]} buttons
 * @param {Record<string, string>} texts
 * @returns {PlotlyObject}
 */
export function plotConfig(Plotly, root, config, buttons, texts) {
  // The config with PNG / SVG buttons (functions, so added here rather than sent from Python),
  // made once per config and language (``texts``, the buttons' titles): Plotly.react redraws the
  // whole plot, even its drag layers, when the config changes, and new functions would change it
  // on every render.
  const key = JSON.stringify([config, texts]);
  if (root.__pgConfigKey !== key) {
    root.__pgConfigKey = key;
    root.__pgConfig = Object.assign(offline(config), {
      modeBarButtonsToAdd: (buttons || []).concat([
        {name: 'pgDownloadPng', title: texts.download_png, icon: Plotly.Icons.camera,
         click: (/** @type {PlotRoot} */ gd) => downloadFigure(Plotly, gd, 'png', gd.__pgFileName)},
        {name: 'pgDownloadSvg', title: texts.download_svg, icon: Plotly.Icons.disk,
         click: (/** @type {PlotRoot} */ gd) => downloadFigure(Plotly, gd, 'svg', gd.__pgFileName)},
      ]),
    });
  }
  return /** @type {PlotlyObject} */ (root.__pgConfig);
}

