// The student's plot: the room's figure exactly as the projector shows it, with the student's own
// points marked and the taps not yet acknowledged, drawn static (no zoom: every place of the
// drawing area is a place a point can go) and tall enough on a phone held upright to tap.

import { offline } from '../plot/plotly_shared.js';

const MIN_TALL = 0.8;  // the drawing area's height over its width, at least, where the screen allows
const FONT_PX = 14;  // the plot's smallest type on a phone (the page's own is larger)
const OWN_COLOUR = '#6a1b9a';

/**
 * plotly.js, loaded once for the page from ``url``.
 * @param {string} url
 * @returns {Promise<PlotlyApi>}
 */
export function loadPlotly(url) {
  if (window.Plotly) return Promise.resolve(window.Plotly);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.onload = () => resolve(window.Plotly);
    script.onerror = () => reject(new Error('plotly.js did not load'));
    document.head.appendChild(script);
  });
}

/**
 * The student's points, acknowledged and not yet: one legend entry, named ``name``.
 * @param {number[][]} own [x, y] of the acknowledged points
 * @param {{x: number, y: number}[]} pending
 * @param {string} name
 */
export function ownTrace(own, pending, name) {
  const all = own.concat(pending.map((p) => [p.x, p.y]));
  return {
    type: 'scatter', mode: 'markers', meta: 'own', name, hoverinfo: 'skip',
    x: all.map((p) => p[0]), y: all.map((p) => p[1]),
    marker: {symbol: 'hexagon-open', size: 22, line: {width: 3, color: OWN_COLOUR}, color: OWN_COLOUR},
  };
}

/**
 * The taps not yet acknowledged, in their classes' colours.
 * @param {{x: number, y: number, label: number}[]} pending
 * @param {string[]} colours
 */
export function pendingTrace(pending, colours) {
  return {
    type: 'scatter', mode: 'markers', hoverinfo: 'skip', showlegend: false,
    x: pending.map((p) => p.x), y: pending.map((p) => p.y),
    marker: {size: 11, color: pending.map((p) => colours[p.label])},
  };
}

/**
 * The room's layout for a phone: the room's window exactly, filling the drawing area (no
 * equal-scale constraint shrinking it); the height keeps equal scales where the screen allows
 * (fitHeight); the legend below the plot, so the drawing area does not move under the student's
 * thumb when its rows change (the student's first point, misclassified marks).
 * @param {PlotlyObject} base the room's figure's layout
 */
function phoneLayout(base) {
  const font = {...(base.font || {}), size: Math.max(FONT_PX, (base.font && base.font.size) || 0)};
  return {
    ...base, height: undefined, width: undefined, autosize: true, dragmode: false, font,
    margin: {l: 44, r: 12, t: 12, b: 44, autoexpand: true},
    xaxis: {...base.xaxis, constrain: undefined, fixedrange: true, tickfont: {size: FONT_PX}},
    yaxis: {...base.yaxis, scaleanchor: undefined, scaleratio: undefined, constrain: undefined, constraintoward: undefined,
      fixedrange: true, tickfont: {size: FONT_PX}},
    legend: {...(base.legend || {}), font: {...((base.legend || {}).font || {}), size: FONT_PX},
      orientation: 'h', x: 0, xanchor: 'left', yref: 'container', y: 0, yanchor: 'bottom'},
  };
}

/**
 * Make the div as tall as the drawing area should be (equal scales, at least MIN_TALL of its
 * width, at most most of the screen) plus what plotly put around it (the legend's rows, the axes).
 * @param {PlotRoot} gd
 * @returns {boolean} whether the height changed (then plotly draws again at the new size)
 */
function fitHeight(gd) {
  const full = gd._fullLayout;
  if (!full) return false;
  const x = full.xaxis.range, y = full.yaxis.range;
  const width = full._size.w;
  const around = full._size.t + full._size.b;
  const wanted = Math.max(width * Math.abs((y[1] - y[0]) / (x[1] - x[0])), width * MIN_TALL);
  const height = Math.round(Math.min(wanted, Math.max(innerHeight * 0.75 - around, 160)) + around);
  if (Math.abs(gd.clientHeight - height) < 2) return false;
  gd.style.height = height + 'px';
  return true;
}

/**
 * Draw the room's ``figure`` with the student's ``traces`` on top, in ``gd``.
 * @param {PlotlyApi} plotly
 * @param {PlotRoot} gd
 * @param {{data: PlotlyObject[], layout: PlotlyObject}} figure
 * @param {PlotlyObject[]} traces
 */
export async function drawRoom(plotly, gd, figure, traces) {
  await plotly.react(gd, figure.data.concat(traces), phoneLayout(figure.layout),
    offline({staticPlot: true, responsive: true, displayModeBar: false}));
  if (fitHeight(gd)) await plotly.Plots.resize(gd);
}
