// The room's points on the projector, drawn on a canvas of their own over the plot's drawing area
// instead of as plotly markers. plotly.js recomputes and redraws every trace on any change of data,
// so a lecture hall's 12,000 markers made each new version cost 0.4-1.6 s to draw in a loaded
// Chromium (bench/projector_draw.py), longer than a student should wait to see their point. Here
// plotly draws the regions, the boundary and the legend; the points and their rings are one path
// per class on a 2-D canvas, redrawn after every plotly drawing (a new version, a resize).
//
// Rules that hold: the legend keeps each class's marker (its trace stays, holding one empty
// point); each class keeps its own symbol as well as its colour (the plot reads in greyscale); the
// rings go under the points, as in ui/plot/figures.py; the canvas takes no pointer events.

import { numbers } from '../plot/figure_numbers.js';
import { plotPixel } from '../plot/geometry.js';

/** @typedef {{x: ArrayLike<number | null>, y: ArrayLike<number | null>, symbol: string, size: number,
 *   color: string, lineColor: string, lineWidth: number}} PointLayer */

/** The figure's point and ring traces taken out as layers for the canvas, rings first; each trace
 * keeps one empty point so the legend still shows its marker.
 * @param {{data: PlotlyObject[]}} figure
 * @returns {PointLayer[]} */
export function takePoints(figure) {
  /** @type {PointLayer[]} */
  const layers = [];
  for (const meta of ['marks', 'points']) {
    for (const trace of figure.data) {
      if (trace.meta !== meta || !trace.marker) continue;
      const marker = trace.marker;
      const line = marker.line || {};
      layers.push({
        x: numbers(trace.x) || [], y: numbers(trace.y) || [], symbol: String(marker.symbol || 'circle'), size: Number(marker.size) || 6,
        color: String(marker.color || '#444'), lineColor: String(line.color || marker.color || '#444'),
        lineWidth: Number(line.width) || 0,
      });
      trace.x = [null];
      trace.y = [null];
      delete trace.customdata;
    }
  }
  return layers;
}

/** Add one marker's outline to the current path, centred on (cx, cy), with plotly's proportions.
 * @param {CanvasRenderingContext2D} ctx @param {string} symbol @param {number} cx @param {number} cy
 * @param {number} r  the radius */
function outline(ctx, symbol, cx, cy, r) {
  const base = symbol.replace(/-open$/, '');
  if (base === 'square') {
    ctx.rect(cx - r, cy - r, 2 * r, 2 * r);
  } else if (base === 'diamond') {
    const d = r * 1.3;
    ctx.moveTo(cx + d, cy); ctx.lineTo(cx, cy + d); ctx.lineTo(cx - d, cy); ctx.lineTo(cx, cy - d); ctx.closePath();
  } else if (base === 'triangle-up') {
    const t = (r * 2) / Math.sqrt(3);
    ctx.moveTo(cx - t, cy + r / 2); ctx.lineTo(cx + t, cy + r / 2); ctx.lineTo(cx, cy - r); ctx.closePath();
  } else if (base === 'cross') {
    const a = r * 0.4, b = r * 1.2;
    ctx.moveTo(cx + b, cy + a); ctx.lineTo(cx + a, cy + a); ctx.lineTo(cx + a, cy + b); ctx.lineTo(cx - a, cy + b);
    ctx.lineTo(cx - a, cy + a); ctx.lineTo(cx - b, cy + a); ctx.lineTo(cx - b, cy - a); ctx.lineTo(cx - a, cy - a);
    ctx.lineTo(cx - a, cy - b); ctx.lineTo(cx + a, cy - b); ctx.lineTo(cx + a, cy - a); ctx.lineTo(cx + b, cy - a);
    ctx.closePath();
  } else if (base === 'star') {
    const outer = r * 1.4, inner = outer * 0.4;
    for (let i = 0; i < 10; i += 1) {
      const radius = i % 2 ? inner : outer, angle = -Math.PI / 2 + (i * Math.PI) / 5;
      const px = cx + radius * Math.cos(angle), py = cy + radius * Math.sin(angle);
      if (i) ctx.lineTo(px, py); else ctx.moveTo(px, py);
    }
    ctx.closePath();
  } else {
    ctx.moveTo(cx + r, cy);
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
  }
}

/** The canvas ``name`` over ``root``'s drawing area (made once per plot; inserted before the canvas
 * ``below`` when there is one: drawn under it), sized to the plot and cleared, its context scaled to
 * CSS pixels; null where plotly has not laid the plot out or there is no 2-D context.
 * @param {PlotRoot} root @param {string} name @param {string} [below]
 * @returns {CanvasRenderingContext2D | null} */
export function clearedLayer(root, name, below) {
  const layout = root._fullLayout;
  if (!layout || !layout.xaxis || !layout.yaxis) return null;
  let canvas = /** @type {HTMLCanvasElement | null} */ (root.querySelector(`:scope > canvas.${name}`));
  if (!canvas) {
    canvas = document.createElement('canvas');
    canvas.className = name;
    canvas.setAttribute('aria-hidden', 'true');  // the status line under the plot says what is drawn
    Object.assign(canvas.style, {position: 'absolute', left: '0', top: '0', pointerEvents: 'none', zIndex: '1'});
    if (getComputedStyle(root).position === 'static') root.style.position = 'relative';
    root.insertBefore(canvas, below ? root.querySelector(`:scope > canvas.${below}`) : null);
  }
  const ratio = window.devicePixelRatio || 1;
  const width = root.clientWidth, height = root.clientHeight;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** Draw ``layers`` over the plot ``root`` as plotly last laid it out (its axes' ranges and size).
 * @param {PlotRoot} root @param {PointLayer[]} layers */
export function drawPoints(root, layers) {
  const ctx = clearedLayer(root, 'pg-points-layer');
  if (!ctx) return;
  const size = root._fullLayout._size;
  ctx.save();
  ctx.beginPath();
  ctx.rect(size.l, size.t, size.w, size.h);  // the drawing area alone: never over the axes or legend
  ctx.clip();
  for (const layer of layers) {
    const open = layer.symbol.endsWith('-open');
    const r = layer.size / 2;
    ctx.beginPath();
    for (let i = 0; i < layer.x.length; i += 1) {
      const x = layer.x[i], y = layer.y[i];
      if (x === null || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
      const [px, py] = plotPixel(root, x, y);
      outline(ctx, layer.symbol, px, py, r);
    }
    if (!open) {
      ctx.fillStyle = layer.color;
      ctx.fill();
    }
    const stroke = open ? Math.max(layer.lineWidth, 1) : layer.lineWidth;
    if (stroke > 0) {
      ctx.lineWidth = stroke;
      ctx.strokeStyle = open ? layer.color : layer.lineColor;
      ctx.stroke();
    }
  }
  ctx.restore();
}
