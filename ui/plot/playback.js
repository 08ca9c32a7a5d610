// Playback of an iterative fit, in the browser (served from static/ by ui/plot/playback.py).
//
// The server sends every frame of the run once (ui/plot/playback_frames.py): per frame one affine
// score row per class in the book's convention, and the step's readout. Here a timer shows one
// frame per tick, whatever the server is doing, drawing the regions and the boundary on the
// canvas (the element with class pg-canvas) from the rows, clipped to the plot window. When
// playback pauses, or a scrub is let go, the shown step goes to the server once: it then draws
// that step itself (panels, link) and the canvas is its again.

const BASE_INTERVAL_MS = 700;  // one frame per tick at 1x
const SPEEDS = [0.25, 0.5, 1, 2, 4];
const SEND_DELAY_MS = 350;  // step -1/+1: the step goes to the server once the clicks stop
const AWAIT_MS = 15000;  // a step sent is the server's answer to wait for, at most this long
// Traces of the server's figure that hold during playback (the points and what does not depend
// on the step); the rest (regions, boundary, marks, panel overlays of the step) is replaced or
// hidden until the server draws the paused step.
const KEEP_META = new Set(['points', 'chosen point', 'centres', 'rbf_centres']);

// Every sentence the player shows comes translated in data.texts (ui/plot/playback.py player_texts),
// whole, with {named} places that fill() puts the numbers in.

export function fill(template, values) {
  // One pass: a value's own braces stay as they are.
  return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// -- geometry: regions of the largest score, clipped to the window ------------------------------

function decode(base64, Type) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new Type(bytes.buffer);
}

export function clipHalfPlane(polygon, a, b, c, strict) {
  // The part of a convex polygon [[x, y], ...] where a x + b y + c >= 0 (> 0 when strict is
  // true; a tie lies on the border, so only a degenerate half-plane of no area differs).
  const inside = (p) => a * p[0] + b * p[1] + c >= 0;
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

export function linearRegions(rows, win) {
  // rows: K arrays [w0, w1, w2]; win: [x0, x1, y0, y1]. Region k: where row k scores highest,
  // the first such row on ties (as numpy's argmax). [{row, polygon}] of those with area.
  const [x0, x1, y0, y1] = win;
  const rect = [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
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

function area(polygon) {
  let sum = 0;
  for (let i = 0; i < polygon.length; i++) {
    const p = polygon[i], q = polygon[(i + 1) % polygon.length];
    sum += p[0] * q[1] - q[0] * p[1];
  }
  return sum / 2;
}

export function boundarySegments(regions, win) {
  // The regions' edges inside the window (an edge on the window's border is no boundary), once.
  const [x0, x1, y0, y1] = win;
  const tol = 1e-9 * Math.max(x1 - x0, y1 - y0);
  const onBorder = (p, q) => (Math.abs(p[0] - x0) < tol && Math.abs(q[0] - x0) < tol)
    || (Math.abs(p[0] - x1) < tol && Math.abs(q[0] - x1) < tol)
    || (Math.abs(p[1] - y0) < tol && Math.abs(q[1] - y0) < tol)
    || (Math.abs(p[1] - y1) < tol && Math.abs(q[1] - y1) < tol);
  const seen = new Set(), segments = [];
  const key = (p) => p[0].toPrecision(9) + ',' + p[1].toPrecision(9);
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

export function lineSegment(w0, w1, w2, win) {
  // The part of w0 + w1 x + w2 y = 0 inside the window, or null.
  const [x0, x1, y0, y1] = win;
  const points = [];
  if (w2) [x0, x1].forEach((x) => { const y = -(w0 + w1 * x) / w2; if (y >= y0 && y <= y1) points.push([x, y]); });
  if (w1) [y0, y1].forEach((y) => { const x = -(w0 + w2 * y) / w1; if (x >= x0 && x <= x1) points.push([x, y]); });
  if (points.length < 2) return null;
  points.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return [points[0], points[points.length - 1]];
}

// -- the frames -----------------------------------------------------------------------------------

function unpack(data) {
  const [F, K, P] = data.shape;
  const flat = decode(data.rows, Float64Array);
  const frames = [];
  for (let f = 0; f < F; f++) {
    const rows = [];
    for (let k = 0; k < K; k++) rows.push(Array.from(flat.subarray((f * K + k) * P, (f * K + k + 1) * P)));
    frames.push(rows);
  }
  let grid = null;
  if (data.grid) grid = Object.assign({}, data.grid, {phi: decode(data.grid.phi, Float32Array)});
  return {frames, grid};
}

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

function windowOf(root) {
  const xr = root._fullLayout.xaxis.range, yr = root._fullLayout.yaxis.range;
  const [x0, x1] = [Math.min(...xr), Math.max(...xr)], [y0, y1] = [Math.min(...yr), Math.max(...yr)];
  const padX = 0.02 * (x1 - x0), padY = 0.02 * (y1 - y0);  // past the edges: no seam at the frame
  return [x0 - padX, x1 + padX, y0 - padY, y1 + padY];
}

function pointsOf(base) {
  // [{x, y, label index (trace order), trace}] of the canvas's data points, by their index.
  const points = [];
  base.forEach((trace) => {
    if (trace.meta !== 'points') return;
    const ids = Array.from(trace.customdata || []), xs = Array.from(trace.x || []), ys = Array.from(trace.y || []);
    ids.forEach((id, i) => { points[id] = {x: xs[i], y: ys[i], name: trace.name}; });
  });
  return points;
}

function frameTraces(player, root, index) {
  // The traces of frame ``index``: regions (below everything), the boundary, the step's marks.
  const data = player.data, rows = player.unpacked.frames[index], style = data.style, texts = data.texts;
  const win = windowOf(root);
  const regions = [], boundary = {x: [], y: []};
  let predictAt;
  if (data.kind === 'linear') {
    const byClass = {};
    linearRegions(rows, win).forEach(({row, polygon}) => {
      const path = byClass[row] || (byClass[row] = {x: [], y: []});
      if (path.x.length) { path.x.push(null); path.y.push(null); }
      polygon.concat([polygon[0]]).forEach((p) => { path.x.push(p[0]); path.y.push(p[1]); });
    });
    Object.entries(byClass).forEach(([row, path]) => {
      const colour = style.region_colours[data.classes[row] % style.region_colours.length];
      regions.push({type: 'scatter', x: path.x, y: path.y, mode: 'lines', fill: 'toself', fillcolor: colour,
        line: {width: 1, color: colour}, hoverinfo: 'skip', hoveron: 'points', name: texts.regions, showlegend: false,
        meta: 'playback regions'});
    });
    boundarySegments(linearRegions(rows, win), win).forEach(([p, q]) => {
      boundary.x.push(p[0], q[0], null); boundary.y.push(p[1], q[1], null);
    });
    predictAt = (x, y) => argmax(rows.map((r) => r[0] + r[1] * x + r[2] * y));
  } else {
    const grid = player.unpacked.grid, scores = gridScores(rows, grid), n = grid.n;
    const z = [], fields = rows.map(() => []);
    for (let r = 0; r < n; r++) {
      const zRow = [], fieldRows = fields.map(() => []);
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
    regions.push(Object.assign({type: 'heatmap', z: z, colorscale: style.colourscale, zmin: -0.5,
      zmax: style.region_colours.length - 0.5, showscale: false, hoverinfo: 'skip', name: texts.regions,
      meta: 'playback regions'}, axes));
    // Two classes: one field, C1's score minus C2's; K: each class's margin over the others.
    (rows.length === 2 ? [fields[0]] : fields).forEach((field, k) => {
      boundary.contours = boundary.contours || [];
      boundary.contours.push(Object.assign({type: 'contour', z: field, contours: {start: 0, end: 0, size: 1,
        coloring: 'none'}, line: {color: style.boundary_colour, width: 2.5}, showscale: false, hoverinfo: 'skip',
        name: texts.decision_boundary, meta: 'boundary', showlegend: false}, axes));
    });
    predictAt = (x, y) => {  // a point's class at this step: that of the grid cell it falls in
      const c = Math.min(n - 1, Math.max(0, Math.floor((x - grid.x0) / grid.dx + 0.5)));
      const r = Math.min(n - 1, Math.max(0, Math.floor((y - grid.y0) / grid.dy + 0.5)));
      return argmax(scores.map((s) => s[r * n + c]));
    };
  }
  const lines = [];
  if (data.kind === 'linear') {
    lines.push({type: 'scatter', x: boundary.x, y: boundary.y, mode: 'lines',
      line: {color: style.boundary_colour, width: 2.5}, hoverinfo: 'skip', name: texts.decision_boundary,
      meta: 'boundary', showlegend: false});
  } else {
    lines.push(...boundary.contours);
  }
  const marks = stepMarks(player, root, index, win);
  // Misclassified points at this step (only where it is exact: the basis grid is coarse).
  const wrong = {x: [], y: []};
  if (data.kind === 'linear') {
    (root.__pgPlaybackPoints || []).forEach((p, id) => {
      if (!p) return;
      const label = data.labels[id];
      if (label !== undefined && data.classes[predictAt(p.x, p.y)] !== label) { wrong.x.push(p.x); wrong.y.push(p.y); }
    });
  }
  return {regions, lines, marks, wrong};
}

function argmax(values) {
  let best = 0;
  for (let k = 1; k < values.length; k++) if (values[k] > values[best]) best = k;
  return best;
}

function labelPosition(point, win) {
  // A ringed point's label goes below it, but above it near the plot's bottom edge and towards
  // the middle near a side, so that it is never cut off by the plot's edge.
  const [x0, x1, y0, y1] = win, fx = (point.x - x0) / (x1 - x0), fy = (point.y - y0) / (y1 - y0);
  const vertical = fy < 0.15 ? 'top' : 'bottom';
  return vertical + (fx < 0.2 ? ' right' : fx > 0.8 ? ' left' : ' center');
}

function stepMarks(player, root, index, win) {
  // What the panel marks on the canvas at a step: a ringed point (the perceptron's), a pair of
  // points (SMO's), the boundary before the update, the margin lines y(x) = +-1.
  const data = player.data, marks = data.marks[index] || {}, style = data.style, traces = [];
  const points = root.__pgPlaybackPoints || [];
  const rows = player.unpacked.frames[index];
  if (marks.previous && index > 0 && data.steps[index - 1] === data.steps[index] - 1 && data.kind === 'linear') {
    const before = player.unpacked.frames[index - 1][0], segment = lineSegment(before[0], before[1], before[2], win);
    if (segment) traces.push({type: 'scatter', x: [segment[0][0], segment[1][0]], y: [segment[0][1], segment[1][1]],
      mode: 'lines', line: {color: '#7F7F7F', width: 1.5, dash: 'dot'}, hoverinfo: 'skip', showlegend: false,
      name: data.texts.boundary_before, meta: 'playback'});
  }
  if (marks.margins && data.kind === 'linear') {
    const row = rows[0], xs = [], ys = [];
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
      textposition: ids.length > 1 ? 'top center' : labelPosition(shown[0], win),
      textfont: {color: marks.ring.colour, size: 12}, line: {color: marks.ring.colour, width: 1.5, dash: 'dot'},
      marker: {symbol: 'circle-open', size: 26, color: marks.ring.colour, line: {width: 3}},
      hoverinfo: 'skip', showlegend: false, name: marks.ring.name, meta: 'playback'});
  }
  return traces;
}

// -- drawing on the canvas -------------------------------------------------------------------------

function canvasRoot() {
  return document.querySelector('.pg-canvas');
}

function drawFrame(player) {
  // The server's figure with the step's regions, boundary and marks in place of its own.
  const root = canvasRoot();
  if (!root || !root._fullLayout || !window.Plotly || !root.__pgPlaybackBase) return;
  const base = root.__pgPlaybackBase;
  const {regions, lines, marks, wrong} = frameTraces(player, root, player.index);
  const kept = [];
  let boundaryStyle = null, marksStyle = null;
  base.forEach((trace) => {
    if (trace.meta === 'boundary' && !boundaryStyle) boundaryStyle = trace;
    if (trace.meta === 'marks') marksStyle = trace;
    if (KEEP_META.has(trace.meta)) kept.push(trace);
  });
  if (boundaryStyle && lines.length) {
    // The legend keeps its entry for the boundary, named as the server named it.
    Object.assign(lines[0], {showlegend: boundaryStyle.showlegend !== false, name: boundaryStyle.name,
      legendrank: boundaryStyle.legendrank});
  }
  const traces = regions.concat(lines, kept, marks);
  if (wrong.x.length || marksStyle) {  // kept (maybe empty) where the legend lists it
    const size = marksStyle ? marksStyle.marker.size : 19 * (player.data.style.scale || 1);
    traces.push({type: 'scatter', x: wrong.x, y: wrong.y, mode: 'markers', hoverinfo: 'skip',
      name: marksStyle ? marksStyle.name : player.data.texts.misclassified, meta: 'marks',
      // A legend entry only where the server's figure has one: a new entry could wrap the legend
      // to a second row and move the plot while it plays.
      showlegend: marksStyle ? marksStyle.showlegend !== false : false,
      marker: {symbol: 'circle-open', size: size, color: player.data.style.boundary_colour,
        line: {width: marksStyle ? marksStyle.marker.line.width : 2}}});
  }
  player.wrong = player.data.kind === 'linear' ? wrong.x.length : null;
  root.__pgPlaybackDrawn = true;
  root.dataset.playbackStep = String(player.data.steps[player.index]);
  window.Plotly.react(root, traces, stepLayout(root.layout), root.__pgConfig);
}

function stepLayout(layout, dimmed = true) {
  // The caption (ui/plot/caption.py) counts the server's fit: dimmed while another step is drawn,
  // whose counts the strip on the plot and the status line give. A copy (gd.layout keeps the zoom).
  const notes = (layout.annotations || []).map((a) => (a.name === 'caption'
    ? Object.assign({}, a, {opacity: dimmed ? 0.35 : 1}) : a));
  return Object.assign({}, layout, {annotations: notes});
}

function restoreCanvas() {
  // The server's own figure (it has drawn the step the playback paused at, or is about to).
  const root = canvasRoot();
  if (!root || !root.__pgPlaybackDrawn || !root.__pgPlaybackBase || !window.Plotly) return;
  root.__pgPlaybackDrawn = false;
  delete root.dataset.playbackStep;
  window.Plotly.react(root, root.__pgPlaybackBase, stepLayout(root.layout, false), root.__pgConfig);
}

function afterCanvasDraw(root) {
  // The canvas has drawn the server's figure: keep it as the base, and while the browser shows
  // a step of its own, draw that step over it again.
  root.__pgPlaybackBase = root.data;
  root.__pgPlaybackPoints = pointsOf(root._fullData || []);
  root.__pgPlaybackDrawn = false;
  delete root.dataset.playbackStep;
  const player = window.__pgPlayer;
  if (player && player.root.isConnected && player.overriding) drawFrame(player);
  if (player && player.root.isConnected) strip(player, root); else dropStrip();
}

// -- the player ------------------------------------------------------------------------------------

function element(tag, attributes, text) {
  const el = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([k, v]) => el.setAttribute(k, v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function build(root, texts) {
  root.innerHTML = '';
  const row = element('div', {class: 'pg-player-row'});
  const play = element('button', {type: 'button', class: 'pg-player-play', 'aria-label': texts.play}, texts.play_button);
  const back = element('button', {type: 'button', 'aria-label': texts.step_back, title: texts.step_back_title}, '−1');
  const forward = element('button', {type: 'button', 'aria-label': texts.step_forward,
    title: texts.step_forward_title}, '+1');
  const final = element('button', {type: 'button', 'aria-label': texts.final_fit, title: texts.final_fit_title},
    texts.final_fit);
  const speedLabel = element('label', {class: 'pg-player-speed'}, texts.speed + ' ');
  const speed = element('select', {'aria-label': texts.speed});
  SPEEDS.forEach((s) => {
    const option = element('option', {value: String(s)}, s + '×');
    if (s === 1) option.selected = true;
    speed.appendChild(option);
  });
  speedLabel.appendChild(speed);
  const slider = element('input', {type: 'range', min: '0', step: '1', class: 'pg-player-slider'});
  row.append(play, back, forward, final, speedLabel);
  const stepLine = element('div', {class: 'pg-player-step', 'aria-live': 'polite'});
  const readout = element('div', {class: 'pg-player-readout'});
  const note = element('div', {class: 'pg-player-note'});
  root.append(row, slider, stepLine, readout, note);
  return {play, back, forward, final, speed, slider, stepLine, readout, note};
}

function show(player) {
  const {data, ui, index} = player, texts = data.texts;
  const serverStep = data.step === null || data.step === undefined ? data.n_steps : data.step;
  // A step between two frames of a thinned run (a link may carry any step) is the server's to show:
  // the player names it, and its slider stands at the frame before it.
  const between = !player.overriding && data.steps[index] !== serverStep;
  const step = between ? serverStep : data.steps[index];
  ui.slider.value = String(index);
  ui.slider.setAttribute('aria-valuetext', String(step));
  const stepLine = step === data.n_steps ? texts.step_of_last : texts.step_of;
  ui.stepLine.textContent = fill(stepLine, {label: data.label, step: step, n: data.n_steps});
  ui.readout.textContent = between ? '' : data.readouts[index] || '';
  player.root.dataset.step = String(step);
  if (!between) moveChartMarkers(data.marks[index]);
  // The panel's details (metrics, text, tables) are the server's step: dimmed while another shows.
  document.querySelectorAll('[class*="st-key-' + data.detail + '"]').forEach((el) => {
    const other = step !== serverStep;
    el.style.opacity = other ? '0.35' : '';
    el.style.transition = 'opacity 0.2s';
    el.title = other ? fill(texts.details_of_step, {server_step: serverStep, step: step}) : '';
  });
  player.root.dataset.playing = player.playing ? 'true' : 'false';
  ui.play.textContent = player.playing ? texts.pause_button : texts.play_button;
  ui.play.setAttribute('aria-label', player.playing ? texts.pause : texts.play);
  ui.back.disabled = index === 0 && !between;
  ui.forward.disabled = index === data.steps.length - 1;
  player.wrong = null;
  if (player.overriding) drawFrame(player);
  // The status line under the plot counts the server's step; the player counts the one it draws.
  if (player.wrong !== null && player.wrong !== undefined) {
    ui.stepLine.textContent += ' · ' + (player.wrong ? fill(texts.n_misclassified, {count: player.wrong})
      : texts.all_correct);
  }
  mirror(player, step !== serverStep);
}

// -- the player where it is watched: on the plot, and in the status line ---------------------------

function mirror(player, other) {
  // A strip on the plot itself (▶ / ❚❚, −1, +1 and the step's line, its buttons the player's own),
  // so Play and the moving boundary are on screen together wherever the panel is; and the status
  // line under the plot names the step drawn while it is not the server's (its own counts dimmed).
  const root = canvasRoot();
  if (root) strip(player, root);
  document.querySelectorAll('[role="status"]').forEach((el) => {
    let line = el.querySelector('.pg-status-step');
    if (!other) {
      el.classList.remove('pg-playing');
      if (line) line.remove();
      return;
    }
    if (!line) {
      line = element('div', {class: 'pg-status-step'});
      el.prepend(line);
    }
    line.textContent = player.ui.stepLine.textContent;
    el.classList.add('pg-playing');
  });
}

function strip(player, root) {
  // In a zero-height holder right after the canvas, drawn up over the plot's lower left: outside
  // the canvas's element, whose presses add points.
  let holder = root.nextElementSibling;
  if (!holder || !holder.classList.contains('pg-strip-holder')) {
    holder = element('div', {class: 'pg-strip-holder'});
    root.after(holder);
  }
  let el = holder.querySelector('.pg-player-strip');
  if (!el) {
    // A copy for the eye (the room watching): keyboards and screen readers have the player itself.
    el = element('div', {class: 'pg-player-strip', 'aria-hidden': 'true'});
    const play = element('button', {type: 'button', class: 'pg-strip-play', tabindex: '-1'});
    const back = element('button', {type: 'button', tabindex: '-1'}, '−1');
    const forward = element('button', {type: 'button', tabindex: '-1'}, '+1');
    const text = element('span', {class: 'pg-strip-step', 'aria-hidden': 'true'});
    // Each button presses the player's own (the one of the open tab, wherever it is).
    play.addEventListener('click', () => { const p = window.__pgPlayer; if (p && p.root.isConnected) p.ui.play.click(); });
    back.addEventListener('click', () => { const p = window.__pgPlayer; if (p && p.root.isConnected) p.ui.back.click(); });
    forward.addEventListener('click', () => {
      const p = window.__pgPlayer; if (p && p.root.isConnected) p.ui.forward.click();
    });
    el.append(play, back, forward, text);
    el.__pg = {play, back, forward, text};
    holder.appendChild(el);
    // Another tab may close the player without a new canvas figure: then the strip goes.
    el.__pgWatch = setInterval(() => {
      const p = window.__pgPlayer;
      if (!el.isConnected || !p || !p.root.isConnected) { clearInterval(el.__pgWatch); dropStrip(); }
    }, 500);
  }
  const ui = player.ui, texts = player.data.texts, parts = el.__pg;
  const margin = (root._fullLayout && root._fullLayout.margin) || {l: 44, b: 44};
  el.style.left = (margin.l + 6) + 'px';
  el.style.bottom = (margin.b + 6) + 'px';
  parts.play.textContent = player.playing ? texts.pause_button : texts.play_button;
  parts.back.disabled = ui.back.disabled;
  parts.forward.disabled = ui.forward.disabled;
  parts.text.textContent = ui.stepLine.textContent;
}

function dropStrip() {
  // The player left the page (another tab, another method): its strip and step line go too.
  const el = document.querySelector('.pg-strip-holder');
  if (el) el.remove();
  document.querySelectorAll('[role="status"]').forEach((status) => {
    status.classList.remove('pg-playing');
    const line = status.querySelector('.pg-status-step');
    if (line) line.remove();
  });
}

function moveChartMarkers(marks) {
  // The open panel's charts mark the shown step too: {key, trace, x, y, title} per chart.
  if (!window.Plotly) return;
  ((marks && marks.charts) || []).forEach((chart) => {
    const el = document.querySelector('.pg-chart[data-chart-key="' + chart.key + '"]');
    if (!el || !el._fullLayout || !el.data || el.data.length <= chart.trace) return;
    // One update (a restyle and a relayout would draw the chart twice).
    window.Plotly.update(el, {x: [[chart.x]], y: [[chart.y]]}, chart.title ? {'title.text': chart.title} : {}, [chart.trace]);
  });
}

function stepOf(data) {
  // The step the server shows (null: the final fit).
  return data.step === null || data.step === undefined ? data.n_steps : data.step;
}

function send(player, step) {
  // The step the user stopped at goes to the server once (it draws the panels, writes the link).
  clearTimeout(player.sendTimer);
  player.sendTimer = null;
  player.sentStep = step;
  player.awaiting = true;
  clearTimeout(player.awaitTimer);  // should its rerun never come (a refused step), stop waiting
  player.awaitTimer = setTimeout(() => { player.awaiting = false; }, AWAIT_MS);
  window.__pgPlaybackNonce = (window.__pgPlaybackNonce || 0) + 1;
  player.setTrigger('step', {step: step, nonce: window.__pgPlaybackNonce});
}

function interval(player) {
  const ms = BASE_INTERVAL_MS / player.speed;
  player.root.dataset.interval = String(ms);  // what the tests read: the tick the speed asks for
  return ms;
}

function schedule(player) {
  // Steady ticks: each is due one interval after the one before; a starved page that wakes up late
  // still takes one step per tick (no frame is skipped to catch up).
  clearTimeout(player.timer);
  const now = performance.now();
  player.due = Math.max(now, (player.due || now) + interval(player));
  player.timer = setTimeout(() => tick(player), player.due - now);
}

function tick(player) {
  if (!player.playing) return;
  if (!player.root.isConnected) {  // the panel closed (another tab, another method)
    player.playing = false;
    if (player.overriding) { player.overriding = false; restoreCanvas(); }
    return;
  }
  if (player.index >= player.data.steps.length - 1) { pause(player); return; }
  player.index += 1;
  const started = performance.now();
  show(player);
  player.root.dataset.tickMs = (performance.now() - started).toFixed(1);  // the benchmark's figure
  // What the tests read: the steps shown by ticks, in order, with when they were shown.
  (window.__pgPlaybackLog = window.__pgPlaybackLog || []).push(player.data.steps[player.index]);
  (window.__pgPlaybackTimes = window.__pgPlaybackTimes || []).push(performance.now());
  if (player.index >= player.data.steps.length - 1) { pause(player); return; }
  schedule(player);
}

function play(player) {
  if (player.index >= player.data.steps.length - 1) player.index = 0;  // from the start when at the end
  player.playing = true;
  player.overriding = true;
  player.due = performance.now();
  show(player);
  schedule(player);
}

function pause(player) {
  player.playing = false;
  clearTimeout(player.timer);
  show(player);
  send(player, player.data.steps[player.index]);
}

function moveTo(player, index, sendNow) {
  player.playing = false;
  clearTimeout(player.timer);
  player.index = Math.max(0, Math.min(player.data.steps.length - 1, index));
  player.overriding = true;
  show(player);
  clearTimeout(player.sendTimer);
  if (sendNow) send(player, player.data.steps[player.index]);
  else player.sendTimer = setTimeout(() => send(player, player.data.steps[player.index]), SEND_DELAY_MS);
}

function indexOf(data, step) {
  // The frame showing ``step`` (the final one for null), or the last frame before it.
  if (step === null || step === undefined) return data.steps.length - 1;
  let index = 0;
  data.steps.forEach((s, i) => { if (s <= step) index = i; });
  return index;
}

function bindPlayer(player) {
  const ui = player.ui;
  ui.play.addEventListener('click', () => (player.playing ? pause(player) : play(player)));
  ui.back.addEventListener('click', () => {
    // From a step between two frames (a link's), back is the frame before it.
    const data = player.data, serverStep = data.step === null || data.step === undefined ? data.n_steps : data.step;
    const between = !player.overriding && data.steps[player.index] !== serverStep;
    moveTo(player, between ? player.index : player.index - 1, false);
  });
  ui.forward.addEventListener('click', () => moveTo(player, player.index + 1, false));
  ui.final.addEventListener('click', () => {
    moveTo(player, player.data.steps.length - 1, false);
    send(player, null);
  });
  ui.speed.addEventListener('change', () => {
    player.speed = parseFloat(ui.speed.value) || 1;
    player.root.dataset.speed = String(player.speed);
    if (player.playing) { player.due = performance.now(); schedule(player); }
  });
  // Scrubbing shows each frame at once; letting go sends the step.
  ui.slider.addEventListener('input', () => {
    player.playing = false;
    clearTimeout(player.timer);
    player.overriding = true;
    player.index = parseInt(ui.slider.value, 10) || 0;
    show(player);
  });
  ui.slider.addEventListener('change', () => send(player, player.data.steps[player.index]));
  player.root.addEventListener('keydown', (e) => {
    if (e.target === ui.slider || e.target === ui.speed) return;
    if (e.key === 'ArrowLeft') { moveTo(player, player.index - 1, false); e.preventDefault(); }
    if (e.key === 'ArrowRight') { moveTo(player, player.index + 1, false); e.preventDefault(); }
  });
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector('.pg-player');
  if (!root) {
    root = element('div', {class: 'pg-player', tabindex: '-1'});
    parentElement.appendChild(root);
  }
  window.__pgAfterCanvasDraw = afterCanvasDraw;
  const canvas = canvasRoot();
  if (canvas && canvas.data && !canvas.__pgPlaybackBase) afterCanvasDraw(canvas);
  // A rerun may mount the element anew (e.g. the panel's tabs redrawn): the page keeps the
  // player of each key, which moves into the new element with its step, speed and ticking.
  const players = window.__pgPlayers = window.__pgPlayers || {};
  let player = root.__pgPlayer || players[data.player_key];
  if (player && player.root !== root && player.signature === data.signature) {
    player.root = root;
    player.ui = build(root, data.texts);
    bindPlayer(player);
    player.ui.speed.value = String(player.speed);
    root.dataset.speed = String(player.speed);
    interval(player);  // the new element shows the tick too (a rerun may mount it between two reads)
    root.__pgPlayer = player;
  }
  if (!player || player.signature !== data.signature) {
    // A new run (other points, method or parameters): start over at the server's step.
    if (player) {
      clearTimeout(player.timer);
      clearTimeout(player.sendTimer);
      if (player.overriding) restoreCanvas();  // the old run's step must not stay on the new plot
    }
    const ui = build(root, data.texts);
    player = {root, ui, signature: data.signature, speed: player ? player.speed : 1, playing: false,
      overriding: false, index: 0, serverStep: undefined, sentStep: undefined, awaiting: false, sendTimer: null};
    root.__pgPlayer = player;
    players[data.player_key] = player;
    bindPlayer(player);
    ui.speed.value = String(player.speed);
    root.dataset.speed = String(player.speed);
  }
  player.data = data;
  player.setTrigger = setTriggerValue;
  player.unpacked = player.unpacked && player.unpacked.rows === data.rows ? player.unpacked
    : Object.assign(unpack(data), {rows: data.rows});
  window.__pgPlayer = player;
  const ui = player.ui;
  ui.slider.max = String(data.steps.length - 1);
  ui.slider.setAttribute('aria-label', data.label);
  ui.note.textContent = data.note || '';
  const changed = data.step !== player.serverStep;
  player.serverStep = data.step;
  if (player.awaiting && data.step === player.sentStep) player.awaiting = false;  // the server caught up
  // Until then, a step the server shows is an earlier send's (the user has moved on since), and
  // while playing, pending a send or scrubbing the browser's step is the one that counts.
  const busy = player.playing || player.awaiting || player.sendTimer !== null;
  if (!busy && player.overriding && player.data.steps[player.index] === stepOf(data)) {
    player.overriding = false;  // the server draws what the browser shows: the canvas is its again
    restoreCanvas();
  } else if (!busy && !player.overriding && changed) {
    player.index = indexOf(data, data.step);  // another step from the server (undo, a link)
  }
  show(player);
}
