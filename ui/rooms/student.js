// The student page of a class room (ui/rooms/routes.py serves it; its texts come as JSON data in
// the page, in the student's language). Rules that must hold:
// - A tap on the plot adds a point of the student's class: the page reads pointerdown / pointerup
//   itself (never the browser's click, which a touch does not always become) and turns the
//   position into data coordinates through plotly's axes; a press that travels more than
//   TAP_SLOP px is a scroll, not a tap (the page scrolls with a finger: touch-action pan-y);
//   taps on one spot within QUICK_MS of each other are one point.
// - The point shows at once, marked as theirs, and is sent with the student's own counter (seq),
//   so a request retried after a blinking connection is added once.
// - The page tells the room's state: the method's name; paused (a message at the top, the plot
//   dimmed, taps not sent); closed (the plot and buttons replaced by a message, and the link the
//   lecturer froze the room into); removed by the lecturer; a join refused (the room takes no new
//   students, is full or closed). Every sentence comes from the server in the student's language.
// - The plot shows exactly the room's window (what the projector shows), so every place on its
//   drawing area can take a point; on a phone held upright it is stretched to be tall enough to tap.
// - The room is polled cheaply: the server answers with the version alone until something changed.
//   Visitors' text (class names) only ever goes through textContent.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('room-data').textContent);
  const T = data.texts;
  const api = data.api;
  const $ = (id) => document.getElementById(id);
  const POLL_MS = 1500;
  const RETRY_MS = 1000;
  const TAP_SLOP = 10; // px a press may travel and still be a tap
  const QUICK_MS = 700; // taps on one spot closer in time than this are one point ...
  const SAME_SPOT = 24; // ... within this many px of each other
  const MIN_TALL = 0.8; // the drawing area's height over its width, at least, where the screen allows
  const FONT_PX = 14; // the plot's smallest type on a phone (the page's own is larger)
  const params = new URLSearchParams(location.search);
  let code = (params.get('c') || '').toUpperCase();
  let me = null; // {sid, key, seq}
  let joinedVersion = 0; // the room's version when this student joined
  let version = 0;
  let settings = null;
  let figure = null;
  let own = []; // [x, y] of the student's acknowledged points
  let pending = []; // {x, y, label, seq} not yet acknowledged, oldest first
  let label = 0;
  let sending = false;
  let plotly = null;
  let ended = false; // closed, or the student removed: nothing more to poll or send
  let press = null; // the pointer press under way: {id, x, y}
  let lastTap = null; // {x, y, t} of the last tap that added a point (or was folded into it)

  function fill(template, values) {
    return String(template).replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  }

  function status(text, calm) {
    $('status').textContent = text || '';
    $('status').className = calm ? 'calm' : '';
  }

  function notice(text) {
    // The message at the top of the page (paused, closed, removed, refused); empty: hidden.
    $('notice-text').textContent = text || '';
    $('notice').hidden = !text;
  }

  function storageKey() { return 'pg-room-' + code; }

  function save() { try { localStorage.setItem(storageKey(), JSON.stringify(me)); } catch (e) { /* private mode */ } }

  function forget() { try { localStorage.removeItem(storageKey()); } catch (e) { /* private mode */ } }

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
    const {ok, status: code_, answer} = await call('join', {code, nick, sid: saved.sid, key: saved.key});
    if (!ok) {
      if (code_ === 409 || code_ === 410 || code_ === 403) {
        // The room takes no new students (its door closed, full, or closed): say so, no form.
        $('join').hidden = true;
        notice(answer.error || T.offline);
        status('');
      } else {
        status(answer.error || T.offline);
        $('join').hidden = false;
      }
      return false;
    }
    code = answer.code;
    joinedVersion = answer.version || 0;
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
  function mine() { return lastMe; }

  async function poll() {
    if (ended) return;
    try {
      const query = new URLSearchParams({c: code, since: String(version), sid: me.sid, lang: data.lang});
      const response = await fetch(api + '/state?' + query);
      const answer = await response.json();
      if (response.status === 404) {
        end(T.closed, null); // the room is gone (it expired, or closed on a server that deletes it)
      } else if (!response.ok) {
        status(answer.error || T.offline);
      } else if (answer.closed) {
        end(T.closed, answer.frozen);
      } else if (answer.figure && !answer.me && answer.version >= joinedVersion) {
        forget();
        end(T.removed, null);
      } else if (answer.figure) {
        version = answer.version;
        figure = answer.figure;
        settings = answer.settings;
        lastMe = answer.me || lastMe;
        own = lastMe.own || own;
        $('method').textContent = fill(T.method, {name: answer.method_name || settings.method});
        $('people').textContent = fill(T.students, {n: answer.students, points: answer.points});
        showSettings();
        draw();
      } else if (!sending && pending.length === 0) {
        status(settings && settings.hidden && !settings.locked ? T.hidden : '', true);
      }
    } catch (e) {
      status(T.offline);
    }
    if (!ended) setTimeout(poll, POLL_MS);
  }

  function end(sentence, frozen) {
    // Closed or removed: the plot, the class buttons and the hint give way to the message.
    ended = true;
    pending = [];
    $('room').hidden = true;
    $('people').hidden = true;
    status('');
    notice(sentence);
    const link = $('frozen');
    link.hidden = !frozen;
    if (frozen) {
      link.textContent = T.frozen_link;
      link.href = data.base + '/?' + frozen + '&lang=' + encodeURIComponent(data.lang);
    }
  }

  function showSettings() {
    classButtons();
    const count = (lastMe.count || 0);
    $('count').textContent = fill(T.count, {n: count + pending.length, limit: settings.limit});
    const paused = !!settings.locked;
    $('room').classList.toggle('paused', paused);
    $('hint').hidden = paused;
    notice(paused ? T.locked : '');
    status(!paused && settings.hidden ? T.hidden : '', true);
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
    if (!figure || ended) return;
    try {
      plotly = plotly || await loadPlotly();
    } catch (e) {
      status(fill(T.not_drawn, {error: e.message}));
      return;
    }
    const base = figure.layout;
    const font = {...(base.font || {}), size: Math.max(FONT_PX, (base.font && base.font.size) || 0)};
    // The room's window exactly, filling the drawing area (no equal-scale constraint shrinking
    // it: every place drawn is a place a point can go); the height keeps equal scales where the
    // screen allows (fitHeight).
    const layout = {
      ...base, height: undefined, width: undefined, autosize: true, dragmode: false, font, margin: {l: 44, r: 12, t: 12, b: 44, autoexpand: true},
      xaxis: {...base.xaxis, constrain: undefined, fixedrange: true, tickfont: {size: FONT_PX}},
      yaxis: {...base.yaxis, scaleanchor: undefined, scaleratio: undefined, constrain: undefined, constraintoward: undefined,
        fixedrange: true, tickfont: {size: FONT_PX}},
      // Below the plot: the legend's rows change (the student's first point, misclassified
      // marks), and the drawing area must not move under the student's thumb when they do.
      legend: {...(base.legend || {}), font: {...((base.legend || {}).font || {}), size: FONT_PX},
        orientation: 'h', x: 0, xanchor: 'left', yref: 'container', y: 0, yanchor: 'bottom'},
    };
    const gd = $('plot');
    await plotly.react(gd, figure.data.concat([pendingTrace(), ownTrace()]), layout,
      {staticPlot: true, responsive: true, displayModeBar: false});
    if (fitHeight(gd)) await plotly.Plots.resize(gd);
    gd.dataset.version = String(version);
    gd.dataset.pending = String(pending.length); // taps not yet acknowledged (the tests wait on it)
  }

  function fitHeight(gd) {
    // The div as tall as the drawing area should be (equal scales, at least MIN_TALL of its width,
    // at most most of the screen) plus what plotly put around it (the legend's rows, the axes).
    // Whether the height changed (then plotly draws again at the new size).
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

  function dataPoint(clientX, clientY) {
    // The position in data coordinates, from plotly's axes (the plot is static: no zoom), measured
    // from plotly's own drawing (not the div, whose border would shift it); null outside the axes.
    const gd = $('plot');
    const full = gd._fullLayout;
    const svg = gd.querySelector('.main-svg');
    if (!full || !svg) return null;
    const xa = full.xaxis, ya = full.yaxis;
    const rect = svg.getBoundingClientRect();
    const px = clientX - rect.left - xa._offset;
    const py = clientY - rect.top - ya._offset;
    if (px < 0 || py < 0 || px > xa._length || py > ya._length) return null;
    const clamp = (v, range) => Math.min(Math.max(v, Math.min(...range)), Math.max(...range));
    return {x: clamp(xa.p2d(px), xa.range), y: clamp(ya.p2d(py), ya.range)};
  }

  function pressDown(event) {
    if (!event.isPrimary || (event.pointerType === 'mouse' && event.button !== 0)) return;
    press = {id: event.pointerId, x: event.clientX, y: event.clientY};
  }

  function pressUp(event) {
    const started = press;
    press = null;
    if (!started || started.id !== event.pointerId) return;
    if (Math.hypot(event.clientX - started.x, event.clientY - started.y) > TAP_SLOP) return; // a scroll
    tap(started.x, started.y, event.timeStamp);
  }

  function tap(clientX, clientY, when) {
    if (!me || !settings || settings.locked || ended) return;
    const quick = lastTap && when - lastTap.t < QUICK_MS && Math.hypot(clientX - lastTap.x, clientY - lastTap.y) < SAME_SPOT;
    if (quick) { lastTap.t = when; return; } // a quick repeat on one spot: the point is already there
    const point = dataPoint(clientX, clientY);
    if (!point) return;
    lastTap = {x: clientX, y: clientY, t: when};
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
    if (sending || pending.length === 0 || ended) return;
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
        status('', true);
      } else if (code_ === 503 || code_ === 429) {
        status(answer.error || T.offline);
        await new Promise((r) => setTimeout(r, RETRY_MS));
      } else {
        pending.shift(); // refused (paused, limit, outside): not added; say why
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
    if (!me || ended) return;
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
    const plot = $('plot');
    plot.addEventListener('pointerdown', pressDown);
    plot.addEventListener('pointerup', pressUp);
    plot.addEventListener('pointercancel', () => { press = null; }); // the browser took it: a scroll
    $('undo').addEventListener('click', undo);
    if (code && load()) join('');
    else $('join').hidden = false;
  }

  start();
})();
