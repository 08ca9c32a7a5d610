// The student page of a class room (ui/rooms/routes.py serves it; its texts come as JSON data in
// the page, in the student's language). A tap on the plot adds a point of the student's class;
// the point shows at once, marked as theirs, and is sent with the student's own counter (seq), so
// a request retried after a blinking connection is added once. The room is polled cheaply: the
// server answers with the version alone until something changed. Visitors' text (class names)
// only ever goes through textContent.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('room-data').textContent);
  const T = data.texts;
  const api = data.api;
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 1500;
  const RETRY_MS = 1000;
  const params = new URLSearchParams(location.search);
  let code = (params.get('c') || '').toUpperCase();
  let me = null; // {sid, key, seq}
  let version = 0;
  let settings = null;
  let figure = null;
  let own = []; // [x, y] of the student's acknowledged points
  let pending = []; // {x, y, label, seq} not yet acknowledged, oldest first
  let label = 0;
  let sending = false;
  let plotly = null;

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  function status(text, calm) {
    $('status').textContent = text || '';
    $('status').className = calm ? 'calm' : '';
  }

  function storageKey() { return 'pg-room-' + code; }

  function save() { try { localStorage.setItem(storageKey(), JSON.stringify(me)); } catch (e) { /* private mode */ } }

  function load() {
    try { return JSON.parse(localStorage.getItem(storageKey()) || 'null'); } catch (e) { return null; }
  }

  async function call(name, body) {
    const response = await fetch(api + '/' + name, {
      method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({...body, lang: data.lang}),
    });
    const answer = await response.json().catch(() => ({}));
    return {ok: response.ok, status: response.status, answer};
  }

  async function join(nick) {
    const saved = load() || {};
    const {ok, answer} = await call('join', {code, nick, sid: saved.sid, key: saved.key});
    if (!ok) { status(answer.error || T.offline); $('join').hidden = false; return false; }
    code = answer.code;
    me = {sid: answer.sid, key: answer.key, seq: answer.sid === saved.sid ? (saved.seq || 0) : 0};
    save();
    history.replaceState(null, '', location.pathname + '?c=' + encodeURIComponent(code) + '&lang=' + data.lang);
    $('join').hidden = true;
    $('room').hidden = false;
    status('');
    poll();
    return true;
  }

  function classButtons() {
    const box = $('classes');
    const fixed = settings && (settings.everyone !== null ? settings.everyone : (mine().assigned ?? null));
    box.hidden = fixed !== null;
    $('class-label').hidden = fixed !== null;
    $('assigned').hidden = fixed === null;
    if (fixed !== null) {
      label = fixed;
      $('assigned').textContent = fill(T.assigned, {name: className(fixed)});
      return;
    }
    const n = settings ? settings.classes : 2;
    if (box.childElementCount !== n) {
      box.textContent = '';
      for (let k = 0; k < n; k++) {
        const button = document.createElement('button');
        button.type = 'button';
        button.setAttribute('role', 'radio');
        button.addEventListener('click', () => { label = k; paintButtons(); });
        box.appendChild(button);
      }
    }
    if (label >= n) label = 0;
    paintButtons();
  }

  function className(k) {
    const names = (settings && settings.names) || [];
    return names[k] || fill(T.class_n, {number: k + 1});
  }

  function paintButtons() {
    [...$('classes').children].forEach((button, k) => {
      button.textContent = data.glyphs[k] + ' ' + className(k);
      button.setAttribute('aria-checked', String(k === label));
      button.style.borderColor = data.colours[k];
      button.style.background = k === label ? data.colours[k] : '';
    });
  }

  let lastMe = {};
  let lastShape = null;
  function mine() { return lastMe; }

  async function poll() {
    try {
      // A phone held upright asks for the room's window grown in height (ui/rooms/views.py).
      const shape = innerHeight > innerWidth ? 'tall' : 'room';
      if (shape !== lastShape) { lastShape = shape; version = -1; }  // turned: the other figure
      const query = new URLSearchParams({c: code, since: String(version), sid: me.sid, lang: data.lang, shape: shape});
      const response = await fetch(api + '/state?' + query);
      const answer = await response.json();
      if (!response.ok) {
        status(answer.error || T.offline);
      } else if (answer.figure) {
        version = answer.version;
        figure = answer.figure;
        settings = answer.settings;
        lastMe = answer.me || {};
        own = lastMe.own || own;
        $('people').textContent = fill(T.students, {n: answer.students, points: answer.points});
        showSettings();
        draw();
      } else if (!sending && pending.length === 0) {
        status(settings && settings.locked ? T.locked : (settings && settings.hidden ? T.hidden : ''), true);
      }
    } catch (e) {
      status(T.offline);
    }
    setTimeout(poll, POLL_MS);
  }

  function showSettings() {
    classButtons();
    const count = (lastMe.count || 0);
    $('count').textContent = fill(T.count, {n: count + pending.length, limit: settings.limit});
    if (settings.locked) status(T.locked, true);
    else if (settings.hidden) status(T.hidden, true);
    else status('', true);
  }

  function ownTrace() {
    const all = own.concat(pending.map((p) => [p.x, p.y]));
    return {
      type: 'scatter', mode: 'markers', meta: 'own', name: T.mine, hoverinfo: 'skip',
      x: all.map((p) => p[0]), y: all.map((p) => p[1]),
      marker: {symbol: 'hexagon-open', size: 22, line: {width: 3, color: '#6a1b9a'}, color: '#6a1b9a'},
    };
  }

  function pendingTrace() {
    return {
      type: 'scatter', mode: 'markers', hoverinfo: 'skip', showlegend: false,
      x: pending.map((p) => p.x), y: pending.map((p) => p.y),
      marker: {size: 11, color: pending.map((p) => data.colours[p.label])},
    };
  }

  async function draw() {
    if (!figure) return;
    try {
      plotly = plotly || await loadPlotly();
    } catch (e) {
      status(fill(T.not_drawn, {error: e.message}));
      return;
    }
    const layout = {...figure.layout, dragmode: false, margin: {l: 36, r: 8, t: 40, b: 36}};
    fitHeight(layout);
    layout.legend = {...(layout.legend || {}), font: {size: 12}};
    plotly.react($('plot'), figure.data.concat([pendingTrace(), ownTrace()]), layout,
      {staticPlot: true, responsive: true, displayModeBar: false});
  }

  function fitHeight(layout) {
    // The plot keeps equal scales: as tall as the room's window at this width (a phone upright
    // gets a taller window from the server), plus the legend band and the axes (a phone's legend
    // takes up to three rows), at most most of the screen.
    const x = layout.xaxis.range, y = layout.yaxis.range;
    const width = $('plot').clientWidth - 44;
    const height = width * (y[1] - y[0]) / (x[1] - x[0]) + 115;
    $('plot').style.height = Math.round(Math.min(Math.max(height, 240), innerHeight * 0.75)) + 'px';
  }

  function loadPlotly() {
    if (window.Plotly) return Promise.resolve(window.Plotly);
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = data.plotly;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => reject(new Error('plotly.js did not load'));
      document.head.appendChild(script);
    });
  }

  function dataPoint(event) {
    // The tap in data coordinates, from plotly's axes (the plot is static: no zoom to confuse it).
    const gd = $('plot');
    const full = gd._fullLayout;
    if (!full) return null;
    const xa = full.xaxis, ya = full.yaxis;
    const rect = gd.getBoundingClientRect();
    const px = event.clientX - rect.left - xa._offset;
    const py = event.clientY - rect.top - ya._offset;
    if (px < 0 || py < 0 || px > xa._length || py > ya._length) return null;
    return {x: xa.p2d(px), y: ya.p2d(py)};
  }

  function tap(event) {
    if (!me || !settings || settings.locked) return;
    const point = dataPoint(event);
    if (!point) return;
    if ((lastMe.count || 0) + pending.length >= settings.limit) {
      status(fill(T.count, {n: (lastMe.count || 0) + pending.length, limit: settings.limit}));
      return;
    }
    me.seq += 1;
    save();
    pending.push({x: point.x, y: point.y, label, seq: me.seq});
    draw();
    send();
  }

  async function send() {
    if (sending || pending.length === 0) return;
    sending = true;
    const next = pending[0];
    try {
      const {ok, status: code_, answer} = await call('add', {
        code, sid: me.sid, key: me.key, x: next.x, y: next.y, label: next.label, seq: next.seq,
      });
      if (ok) {
        pending.shift();
        own.push([next.x, next.y]);
        lastMe.count = (lastMe.count || 0) + 1;
      } else if (code_ === 503 || code_ === 429) {
        status(answer.error || T.offline);
        await new Promise((r) => setTimeout(r, RETRY_MS));
      } else {
        pending.shift(); // refused (locked, limit, outside): not added; say why
        status(answer.error || T.offline);
      }
    } catch (e) {
      status(T.offline); // the connection blinked: the same seq again, added once
      await new Promise((r) => setTimeout(r, RETRY_MS));
    }
    sending = false;
    draw();
    if (pending.length) send();
  }

  async function undo() {
    if (!me) return;
    const {ok, answer} = await call('undo', {code, sid: me.sid, key: me.key});
    if (!ok) { status(answer.error || T.offline); return; }
    version = 0; // fetch the room again: the point is gone from it
    if (answer.pid !== null) { own.pop(); lastMe.count = Math.max(0, (lastMe.count || 1) - 1); draw(); }
  }

  function start() {
    document.title = T.title;
    $('title').textContent = T.title;
    $('code-label').textContent = T.code_label;
    $('nick-label').textContent = T.nick_label;
    $('join-button').textContent = T.join;
    $('hint').textContent = T.hint;
    $('class-label').textContent = T.class_label;
    $('undo').textContent = T.undo;
    $('code').value = code;
    $('join').addEventListener('submit', (event) => {
      event.preventDefault();
      code = $('code').value.toUpperCase().replace(/[\s-]/g, '');
      join($('nick').value);
    });
    $('plot').addEventListener('click', tap);
    $('undo').addEventListener('click', undo);
    if (code && load()) join('');
    else $('join').hidden = false;
  }

  start();
})();
