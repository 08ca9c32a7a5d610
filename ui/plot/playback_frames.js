// Playback's frames, for the player (playback.js): the
// regions and boundary of a frame's score rows clipped to the plot window, and the traces and
// marks of a frame drawn on the canvas.

// -- geometry: regions of the largest score, clipped to the window ------------------------------
// This repeats playground/geometry.py's clipping of the plane by half-planes, on purpose: playback
// draws each tick's frame in the browser, with no round trip, so that a busy server never slows
// the animation (the server sends the frames' score rows once). tests/test_browser_playback.py
// checks these regions against geometry's exact ones, class by class.

/** @typedef {[number, number]} Vertex  a point of the plane, [x, y] */
/** @typedef {[number, number, number, number]} PlotWindow  x0, x1, y0, y1 */
/** @typedef {{n: number, features: number, phi: Float32Array, x0: number, dx: number, y0: number, dy: number}} Grid
 *  the basis's grid: n x n cells, each cell's features phi (n * n * features numbers) */
/** @typedef {{frames: number[][][], grid: Grid | null, rows?: string}} Unpacked  each frame's score rows */
/** @typedef {{x: number, y: number, name: string}} PlaybackPoint */
/** @typedef {{ids: number[], texts: string[], colour: string, name: string}} RingMark */
/** @typedef {{previous?: boolean, margins?: boolean, ring?: RingMark,
 *   charts?: {key: string, trace: number, x: number, y: number, title?: string}[]}} StepMarks */
/**
 * The player's data from Python (ui/plot/playback.py).
 * @typedef {{
 *   kind: string, classes: number[], labels: number[], steps: number[], step: number | null | undefined,
 *   n_steps: number, marks: StepMarks[], readouts: string[], spoken?: string[], detail: string,
 *   label: string, note?: string, texts: Record<string, string>, player_key: string, signature: string,
 *   rows: string, shape: [number, number, number], grid?: {phi: string, n: number, features: number,
 *   x0: number, dx: number, y0: number, dy: number},
 *   style: {region_colours: string[], colourscale: unknown, boundary_colour: string, label_px?: number, scale?: number},
 * }} PlaybackData
 */
/**
 * The player's buttons, slider and lines.
 * @typedef {{play: HTMLButtonElement, back: HTMLButtonElement, forward: HTMLButtonElement,
 *   final: HTMLButtonElement, speed: HTMLSelectElement, slider: HTMLInputElement, stepLine: HTMLElement,
 *   readout: HTMLElement, note: HTMLElement}} PlayerUi
 */
/**
 * One player (kept per key across reruns, ui/plot/playback.js).
 * @typedef {{
 *   root: HTMLElement, ui: PlayerUi, signature: string, speed: number, playing: boolean,
 *   overriding: boolean, index: number, serverStep: number | null | undefined,
 *   sentStep: number | null | undefined, awaiting: boolean, sendTimer: ReturnType<typeof setTimeout> | null,
 *   data: PlaybackData, setTrigger: (name: string, value: unknown) => void, unpacked: Unpacked,
 *   wrong?: number | null, timer?: ReturnType<typeof setTimeout>, due?: number,
 *   awaitTimer?: ReturnType<typeof setTimeout>,
 * }} Player
 */


/**
 * @template {Float32ArrayConstructor | Float64ArrayConstructor} T
 * @param {string} base64
 * @param {T} Type
 * @returns {InstanceType<T>}
 */
function decode(base64, Type) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return /** @type {InstanceType<T>} */ (new Type(bytes.buffer));
}

/**
 * @param {Vertex[]} polygon
 * @param {number} a
 * @param {number} b
 * @param {number} c
 * @param {boolean} strict
 * @returns {Vertex[]}
 */
export function clipHalfPlane(polygon, a, b, c, strict) {
  // The part of a convex polygon [[x, y], ...] where a x + b y + c >= 0 (> 0 when strict is
  // true; a tie lies on the border, so only a degenerate half-plane of no area differs).
  const inside = (/** @type {Vertex} */ p) => a * p[0] + b * p[1] + c >= 0;
  /** @type {Vertex[]} */
  const out = [];
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i], q = polygon[(i + 1) % polygon.length];
    const pin = inside(p), qin = inside(q);
    if (pin) out.push(p);
    if (pin !== qin) {
      const fp = a * p[0] + b * p[1] + c, fq = a * q[0] + b * q[1] + c;
      const t = fp / (fp - fq);
      out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
    }
  }
  if (strict && out.length && !(a || b) && c <= 0) return [];
  return out;
}

/**
 * @param {number[][]} rows
 * @param {PlotWindow} win
 * @returns {{row: number, polygon: Vertex[]}[]}
 */
export function linearRegions(rows, win) {
  // rows: K arrays [w0, w1, w2]; win: [x0, x1, y0, y1]. Region k: where row k scores highest,
  // the first such row on ties (as numpy's argmax). [{row, polygon}] of those with area.
  const [x0, x1, y0, y1] = win;
  /** @type {Vertex[]} */
  const rect = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  /** @type {{row: number, polygon: Vertex[]}[]} */
  const regions = [];
  rows.forEach((row, k) => {
    let polygon = rect;
    rows.forEach((other, j) => {
      if (j === k || polygon.length < 3) return;
      const a = row[1] - other[1], b = row[2] - other[2], c = row[0] - other[0];
      if (!a && !b) {
        if (c < 0 || (c === 0 && j < k)) polygon = [];
        return;
      }
      polygon = clipHalfPlane(polygon, a, b, c, j < k);
    });
    if (polygon.length >= 3 && Math.abs(area(polygon)) > 1e-12 * (x1 - x0) * (y1 - y0)) regions.push({row: k, polygon});
  });
  return regions;
}

/** @param {Vertex[]} polygon */
function area(polygon) {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i], q = polygon[(i + 1) % polygon.length];
    sum += p[0] * q[1] - q[0] * p[1];
  }
  return sum / 2;
}

/**
 * @param {{polygon: Vertex[]}[]} regions
 * @param {PlotWindow} win
 * @returns {[Vertex, Vertex][]}
 */
export function boundarySegments(regions, win) {
  // The regions' edges inside the window (an edge on the window's border is no boundary), once.
  const [x0, x1, y0, y1] = win;
  const tol = 1e-9 * Math.max(x1 - x0, y1 - y0);
  /** @type {(p: Vertex, q: Vertex) => boolean} */
  const onBorder = (p, q) => (Math.abs(p[0] - x0) < tol && Math.abs(q[0] - x0) < tol)
    || (Math.abs(p[0] - x1) < tol && Math.abs(q[0] - x1) < tol)
    || (Math.abs(p[1] - y0) < tol && Math.abs(q[1] - y0) < tol)
    || (Math.abs(p[1] - y1) < tol && Math.abs(q[1] - y1) < tol);
  const seen = new Set();
  /** @type {[Vertex, Vertex][]} */
  const segments = [];
  const key = (/** @type {Vertex} */ p) => p[0].toPrecision(9) + ',' + p[1].toPrecision(9);
  regions.forEach(({polygon}) => {
    polygon.forEach((p, i) => {
      const q = polygon[(i + 1) % polygon.length];
      if (onBorder(p, q) || Math.hypot(q[0] - p[0], q[1] - p[1]) < tol) return;
      const id = [key(p), key(q)].sort().join('|');
      if (seen.has(id)) return;
      seen.add(id);
      segments.push([p, q]);
    });
  });
  return segments;
}

/**
 * @param {number} w0
 * @param {number} w1
 * @param {number} w2
 * @param {PlotWindow} win
 * @returns {[Vertex, Vertex] | null}
 */
export function lineSegment(w0, w1, w2, win) {
  // The part of w0 + w1 x + w2 y = 0 inside the window, or null.
  const [x0, x1, y0, y1] = win;
  /** @type {Vertex[]} */
  const points = [];
  if (w2) [x0, x1].forEach((x) => { const y = -(w0 + w1 * x) / w2; if (y >= y0 && y <= y1) points.push([x, y]); });
  if (w1) [y0, y1].forEach((y) => { const x = -(w0 + w2 * y) / w1; if (x >= x0 && x <= x1) points.push([x, y]); });
  if (points.length < 2) return null;
  points.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return [points[0], points[points.length - 1]];
}

// -- the frames -----------------------------------------------------------------------------------

/**
 * @param {PlaybackData} data
 * @returns {Unpacked}
 */
export function unpack(data) {
  const [F, K, P] = data.shape;
  const flat = decode(data.rows, Float64Array);
  /** @type {number[][][]} */
  const frames = [];
  for (let f = 0; f < F; f++) {
    /** @type {number[][]} */
    const rows = [];
    for (let k = 0; k < K; k++) rows.push(Array.from(flat.subarray((f * K + k) * P, (f * K + k + 1) * P)));
    frames.push(rows);
  }
  /** @type {Grid | null} */
  let grid = null;
  if (data.grid) grid = Object.assign({}, data.grid, {phi: decode(data.grid.phi, Float32Array)});
  return {frames, grid};
}

/**
 * @param {number[][]} rows
 * @param {Grid} grid
 * @returns {Float32Array[]}
 */
function gridScores(rows, grid) {
  // Basis: the scores of every grid cell, [K][cells].
  const M = grid.features, cells = grid.n * grid.n, phi = grid.phi;
  return rows.map((row) => {
    const out = new Float32Array(cells);
    for (let c = 0; c < cells; c++) {
      let s = row[0];
      for (let m = 0; m < M; m++) s += row[m + 1] * phi[c * M + m];
      out[c] = s;
    }
    return out;
  });
}

/**
 * @param {PlotRoot} root
 * @returns {PlotWindow}
 */
function windowOf(root) {
  const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
  const [x0, x1] = [Math.min(...xr), Math.max(...xr)], [y0, y1] = [Math.min(...yr), Math.max(...yr)];
  const padX = 0.02 * (x1 - x0), padY = 0.02 * (y1 - y0);  // past the edges: no seam at the frame
  return [x0 - padX, x1 + padX, y0 - padY, y1 + padY];
}

/**
 * @param {PlotlyObject[]} base
 * @returns {PlaybackPoint[]}
 */
export function pointsOf(base) {
  // [{x, y, label index (trace order), trace}] of the canvas's data points, by their index.
  /** @type {PlaybackPoint[]} */
  const points = [];
  base.forEach((trace) => {
    if (trace.meta !== 'points') return;
    const ids = Array.from(trace.customdata || []), xs = Array.from(trace.x || []), ys = Array.from(trace.y || []);
    ids.forEach((/** @type {number} */ id, i) => { points[id] = {x: xs[i], y: ys[i], name: trace.name}; });
  });
  return points;
}

/**
 * A linear method's frame: each class's region as polygons, the boundary as segments, and each
 * point's class at this step.
 * @param {PlaybackData} data
 * @param {number[][]} rows
 * @param {PlotWindow} win
 * @returns {{regions: PlotlyObject[], lines: PlotlyObject[], predictAt: (x: number, y: number) => number}}
 */
function linearFrame(data, rows, win) {
  const style = data.style, texts = data.texts;
  /** @type {Record<number, {x: (number | null)[], y: (number | null)[]}>} */
  const byClass = {};
  linearRegions(rows, win).forEach(({row, polygon}) => {
    const path = byClass[row] || (byClass[row] = {x: [], y: []});
    if (path.x.length) { path.x.push(null); path.y.push(null); }
    polygon.concat([polygon[0]]).forEach((p) => { path.x.push(p[0]); path.y.push(p[1]); });
  });
  const regions = Object.entries(byClass).map(([row, path]) => {
    const colour = style.region_colours[data.classes[Number(row)] % style.region_colours.length];
    return {type: 'scatter', x: path.x, y: path.y, mode: 'lines', fill: 'toself', fillcolor: colour,
      line: {width: 1, color: colour}, hoverinfo: 'skip', hoveron: 'points', name: texts.regions, showlegend: false,
      meta: 'playback regions'};
  });
  /** @type {{x: (number | null)[], y: (number | null)[]}} */
  const boundary = {x: [], y: []};
  boundarySegments(linearRegions(rows, win), win).forEach(([p, q]) => {
    boundary.x.push(p[0], q[0], null); boundary.y.push(p[1], q[1], null);
  });
  const lines = [{type: 'scatter', x: boundary.x, y: boundary.y, mode: 'lines',
    line: {color: style.boundary_colour, width: 2.5}, hoverinfo: 'skip', name: texts.decision_boundary,
    meta: 'boundary', showlegend: false}];
  /** @type {(x: number, y: number) => number} */
  const predictAt = (x, y) => argmax(rows.map((r) => r[0] + r[1] * x + r[2] * y));
  return {regions, lines, predictAt};
}

/**
 * A basis method's frame on its grid: the regions as a heatmap of the winning class, the boundary
 * as the zero contours of each class's margin over the others.
 * @param {PlaybackData} data
 * @param {number[][]} rows
 * @param {Grid} grid
 * @returns {{regions: PlotlyObject[], lines: PlotlyObject[]}}
 */
function basisFrame(data, rows, grid) {
  const style = data.style, texts = data.texts, scores = gridScores(rows, grid), n = grid.n;
  /** @type {number[][]} */
  const z = [];
  /** @type {number[][][]} */
  const fields = rows.map(() => []);
  for (let r = 0; r < n; r++) {
    /** @type {number[]} */
    const zRow = [];
    /** @type {number[][]} */
    const fieldRows = fields.map(() => []);
    for (let c = 0; c < n; c++) {
      const cell = r * n + c, values = scores.map((s) => s[cell]);
      const best = argmax(values);
      zRow.push(data.classes[best]);
      values.forEach((v, k) => {
        const others = values.filter((_, j) => j !== k);
        fieldRows[k].push(v - Math.max(...others));
      });
    }
    z.push(zRow);
    fields.forEach((f, k) => f.push(fieldRows[k]));
  }
  const axes = {x0: grid.x0, dx: grid.dx, y0: grid.y0, dy: grid.dy};
  const regions = [Object.assign({type: 'heatmap', z: z, colorscale: style.colourscale, zmin: -0.5,
    zmax: style.region_colours.length - 0.5, showscale: false, hoverinfo: 'skip', name: texts.regions,
    meta: 'playback regions'}, axes)];
  // Two classes: one field, C1's score minus C2's; K: each class's margin over the others.
  const lines = (rows.length === 2 ? [fields[0]] : fields).map((field) => Object.assign({type: 'contour', z: field,
    contours: {start: 0, end: 0, size: 1, coloring: 'none'}, line: {color: style.boundary_colour, width: 2.5},
    showscale: false, hoverinfo: 'skip', name: texts.decision_boundary, meta: 'boundary', showlegend: false}, axes));
  return {regions, lines};
}

/**
 * The traces of frame ``index``: regions (below everything), the boundary, the step's marks, and
 * the points misclassified at this step (only where it is exact: the basis grid is coarse).
 * @param {Player} player
 * @param {PlotRoot} root
 * @param {number} index
 * @returns {{regions: PlotlyObject[], lines: PlotlyObject[], marks: PlotlyObject[], wrong: {x: number[], y: number[]}}}
 */
export function frameTraces(player, root, index) {
  const data = player.data, rows = player.unpacked.frames[index];
  const win = windowOf(root);
  const linear = data.kind === 'linear' ? linearFrame(data, rows, win) : null;
  const {regions, lines} = linear || basisFrame(data, rows, /** @type {Grid} */ (player.unpacked.grid));
  const marks = stepMarks(player, root, index, win);
  /** @type {{x: number[], y: number[]}} */
  const wrong = {x: [], y: []};
  if (linear) {
    (root.__pgPlaybackPoints || []).forEach((p, id) => {
      if (!p) return;
      const label = data.labels[id];
      if (label !== undefined && data.classes[linear.predictAt(p.x, p.y)] !== label) { wrong.x.push(p.x); wrong.y.push(p.y); }
    });
  }
  return {regions, lines, marks, wrong};
}

/** @param {ArrayLike<number>} values */
function argmax(values) {
  let best = 0;
  for (let k = 1; k < values.length; k++) if (values[k] > values[best]) best = k;
  return best;
}

/**
 * @param {PlaybackPoint} point
 * @param {PlotWindow} win
 */
function labelPosition(point, win) {
  // A ringed point's label goes below it, but above it near the plot's bottom edge and towards
  // the middle near a side, so that it is never cut off by the plot's edge.
  const [x0, x1, y0, y1] = win, fx = (point.x - x0) / (x1 - x0), fy = (point.y - y0) / (y1 - y0);
  const vertical = fy < 0.15 ? 'top' : 'bottom';
  return vertical + (fx < 0.2 ? ' right' : fx > 0.8 ? ' left' : ' center');
}

const LABEL_GAP = 13;  // px from the ringed point's centre to its label (the ring's radius)
const MARKER_RADIUS = 9;  // px: about a point marker's half size (presentation's is larger than this)

/**
 * @param {PlaybackPoint} point
 * @param {PlotWindow} win
 * @param {PlotRoot} root
 * @param {string} text
 * @param {number} size
 * @param {PlaybackPoint[]} points
 */
function labelOffMarkers(point, win, root, text, size, points) {
  // The label's place (as ``labelPosition``), or the first other place around the ring where it
  // covers no point's marker and stays within the plot (a label on a marker hides that point).
  const layout = root && root._fullLayout, first = labelPosition(point, win);
  if (!layout || !layout.xaxis || !layout.xaxis._length) return first;
  const [x0, x1, y0, y1] = win, sx = layout.xaxis._length / (x1 - x0), sy = layout.yaxis._length / (y1 - y0);
  /** @type {(q: PlaybackPoint) => [number, number]} */
  const px = (q) => [(q.x - x0) * sx, (y1 - q.y) * sy];
  const [cx, cy] = px(point), w = 0.58 * size * String(text).length, h = size * 1.2;
  const boxes = points.filter((q) => q && q !== point).map(px);
  const fits = (/** @type {string} */ position) => {
    const [v, hz] = position.split(' ');
    const left = hz === 'right' ? cx + LABEL_GAP : hz === 'left' ? cx - LABEL_GAP - w : cx - w / 2;
    const top = v === 'bottom' ? cy + LABEL_GAP : v === 'top' ? cy - LABEL_GAP - h : cy - h / 2;
    if (left < 0 || top < 0 || left + w > layout.xaxis._length || top + h > layout.yaxis._length) return false;
    return boxes.every(([bx, by]) => bx + MARKER_RADIUS < left || bx - MARKER_RADIUS > left + w
      || by + MARKER_RADIUS < top || by - MARKER_RADIUS > top + h);
  };
  const others = ['bottom center', 'top center', 'middle right', 'middle left', 'bottom right', 'bottom left',
    'top right', 'top left'];
  return [first, ...others].find(fits) || first;
}

/**
 * @param {Player} player
 * @param {PlotRoot} root
 * @param {number} index
 * @param {PlotWindow} win
 * @returns {PlotlyObject[]}
 */
function stepMarks(player, root, index, win) {
  // What the panel marks on the canvas at a step: a ringed point (the perceptron's), a pair of
  // points (SMO's), the boundary before the update, the margin lines y(x) = +-1.
  const data = player.data, marks = data.marks[index] || {}, style = data.style;
  /** @type {PlotlyObject[]} */
  const traces = [];
  const points = root.__pgPlaybackPoints || [];
  const rows = player.unpacked.frames[index];
  if (marks.previous && index > 0 && data.steps[index - 1] === data.steps[index] - 1 && data.kind === 'linear') {
    const before = player.unpacked.frames[index - 1][0], segment = lineSegment(before[0], before[1], before[2], win);
    if (segment) traces.push({type: 'scatter', x: [segment[0][0], segment[1][0]], y: [segment[0][1], segment[1][1]],
      mode: 'lines', line: {color: '#7F7F7F', width: 1.5, dash: 'dot'}, hoverinfo: 'skip', showlegend: false,
      name: data.texts.boundary_before, meta: 'playback'});
  }
  if (marks.margins && data.kind === 'linear') {
    const row = rows[0];
    /** @type {(number | null)[]} */
    const xs = [];
    /** @type {(number | null)[]} */
    const ys = [];
    [1, -1].forEach((level) => {
      const segment = lineSegment(row[0] - level, row[1], row[2], win);
      if (segment) { xs.push(segment[0][0], segment[1][0], null); ys.push(segment[0][1], segment[1][1], null); }
    });
    if (xs.length) traces.push({type: 'scatter', x: xs, y: ys, mode: 'lines', hoverinfo: 'skip', showlegend: false,
      line: {color: style.boundary_colour, width: 1.5, dash: 'dash'}, name: data.texts.margins, meta: 'playback'});
  }
  if (marks.ring) {
    const ids = marks.ring.ids, texts = marks.ring.texts, shown = ids.map((id) => points[id]).filter(Boolean);
    if (shown.length === ids.length) traces.push({type: 'scatter', x: shown.map((p) => p.x), y: shown.map((p) => p.y),
      mode: 'markers+text' + (ids.length > 1 ? '+lines' : ''), text: texts,
      textposition: ids.length > 1 ? 'top center'
        : labelOffMarkers(shown[0], win, root, texts[0], style.label_px || 12, points),
      textfont: {color: marks.ring.colour, size: style.label_px || 12}, line: {color: marks.ring.colour, width: 1.5, dash: 'dot'},
      marker: {symbol: 'circle-open', size: 26, color: marks.ring.colour, line: {width: 3}},
      hoverinfo: 'skip', showlegend: false, name: marks.ring.name, meta: 'playback'});
  }
  return traces;
}
