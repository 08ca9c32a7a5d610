// Taps on the student's plot, read from the pointer itself (never the browser's click, which a
// touch does not always become), and turned into data coordinates through plotly's axes.
// Rules that must hold:
// - A press that travels more than TAP_SLOP px is a scroll, not a tap (the page scrolls with a
//   finger: touch-action pan-y); a press the browser cancels is a scroll too.
// - Taps on one spot (within SAME_SPOT px) closer in time than QUICK_MS are one point.
// - Outside the drawing area a tap is nothing; inside, every place of it is a place in the room's
//   window (the plot is static: no zoom).

import { areaPixelAt, dataAtPixel, insideArea, laidOut } from '../plot/geometry.js';

const TAP_SLOP = 10;  // px a press may travel and still be a tap
const QUICK_MS = 700;  // taps on one spot closer in time than this are one point ...
const SAME_SPOT = 24;  // ... within this many px of each other

/**
 * The position in data coordinates, from plotly's axes, measured from plotly's own drawing (not
 * the div, whose border would shift it); null outside the axes.
 * @param {PlotRoot} gd
 * @param {number} clientX
 * @param {number} clientY
 * @returns {{x: number, y: number} | null}
 */
export function dataPoint(gd, clientX, clientY) {
  const svg = gd.querySelector('.main-svg');
  if (!laidOut(gd) || !svg) return null;
  const pixel = areaPixelAt(gd, clientX, clientY, svg);
  if (!insideArea(gd, pixel)) return null;
  const [x, y] = dataAtPixel(gd, pixel), full = gd._fullLayout;
  /** @type {(v: number, range: number[]) => number} */
  const clamp = (v, range) => Math.min(Math.max(v, Math.min(...range)), Math.max(...range));
  return {x: clamp(x, full.xaxis.range), y: clamp(y, full.yaxis.range)};
}

/**
 * Call ``onTap(x, y)`` (data coordinates) for each tap on ``plot`` that is a new point; ``ready()``
 * says whether a tap may add one now (joined, the room not paused or closed).
 * @param {PlotRoot} plot
 * @param {() => boolean} ready
 * @param {(x: number, y: number) => void} onTap
 */
export function readTaps(plot, ready, onTap) {
  /** @type {{id: number, x: number, y: number} | null} */
  let press = null;
  /** @type {{x: number, y: number, t: number} | null} */
  let lastTap = null;  // the last tap that added a point (or was folded into it)

  /** @param {number} clientX @param {number} clientY @param {number} when */
  function tap(clientX, clientY, when) {
    if (!ready()) return;
    const quick = lastTap && when - lastTap.t < QUICK_MS && Math.hypot(clientX - lastTap.x, clientY - lastTap.y) < SAME_SPOT;
    if (quick && lastTap) { lastTap.t = when; return; }  // a quick repeat on one spot: the point is already there
    const point = dataPoint(plot, clientX, clientY);
    if (!point) return;
    lastTap = {x: clientX, y: clientY, t: when};
    onTap(point.x, point.y);
  }

  plot.addEventListener('pointerdown', (event) => {
    if (!event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    press = {id: event.pointerId, x: event.clientX, y: event.clientY};
  });
  plot.addEventListener('pointerup', (event) => {
    const started = press;
    press = null;
    if (!started || started.id !== event.pointerId) return;
    if (Math.hypot(event.clientX - started.x, event.clientY - started.y) > TAP_SLOP) return;  // a scroll
    tap(started.x, started.y, event.timeStamp);
  });
  plot.addEventListener('pointercancel', () => { press = null; });  // the browser took it: a scroll
}
