"""Live dragging: boundary updates per second while a point is dragged.

A drag does not go through Streamlit's reruns: the canvas posts the scene it shows
plus the edits not yet committed to the stateless live route (``POST /api/live``,
``ui/server/live_route.py``, a ``ui.plot.canvas_protocol.LiveRequest``), one request in flight, the latest
pointer position asked for next, and draws the figure that comes back with ``Plotly.react``; the
session hears of the drag once, at the release. Two measurements:

- **The route alone**: an HTTP client posts ``LiveRequest``s as the canvas does (a move of point 0
  along a circle, the pointer at 60 Hz, the next request once the last has been answered and the
  pointer has moved). *answers / s*, the median answer time and the server's CPU time per answer
  (from /proc, which a busy machine disturbs less than the wall clock). The last answer must draw
  point 0 where the pointer has taken it.
- **In the page** (headless Chromium, 1400 x 1000): a real press on point 0, then the pointer moved
  at 60 Hz inside the page for the same time; the live figures the canvas drew
  (``data-drag-updates``), the page's main-thread long tasks meanwhile (a ``PerformanceObserver``
  for ``longtask``: over 50 ms each), the Plotly.react time per draw, the browser's CPU (all its
  processes) and the server's CPU per update. After the release the point must sit where the
  pointer let it go.

``compare_with(root)`` runs another checkout's own ``python -m bench --drag-only`` (the protocol
of its tree: before the live route, every move a Streamlit rerun) in the same session, for the
"before" columns.
"""

import http.client
import json
import math
import os
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from bench import report
from bench.client import _decode_array
from bench.load import link_query
from bench.server import streamlit
from playground.link import encode_scene
from playground.scene import snap
from ui.plot.canvas_protocol import LIVE_PATH

TICKS = os.sysconf("SC_CLK_TCK")

TARGETS = {90: 24.0, 1000: 12.0}  # boundary updates a second in the page: a hand's pace
SERVER_CPU_TARGETS = {90: 5.0}  # server CPU ms per live answer: a class dragging at once
LONG_TASK_MS = 50.0  # no main-thread task longer than this during a drag
POINTER_HZ = 60
CASES = (
    ("least squares (the default scene)", 90, None),
    ("least squares", 1000, dict(n_classes=2, n_points=1000, method="least_squares")),
    ("logistic regression", 90, dict(n_classes=2, n_points=90, method="logistic")),
    ("logistic regression", 1000, dict(n_classes=2, n_points=1000, method="logistic")),
)


@dataclass
class DragResult:
    method: str
    n: int
    seconds: float  # the route client's drag
    answers: int  # live answers received (HTTP 200)
    refused: int  # answers other than 200 (429: busy or rate-limited)
    answer_ms: float  # median time from a request to its answer (one kept-alive connection, as the page)
    cpu_ms_per_answer: float  # the server's CPU per answer
    dropped_ok: bool  # the last answer drew point 0 where the pointer was (and, in the page, the release)
    load: str
    browser_per_second: float | None = None  # live figures drawn a second in a real page
    draw_ms: float | None = None  # the page's median Plotly.react time per update during that drag
    browser_load: str = ""
    page_cpu_ms: float | None = None  # the browser's CPU time (all its processes) per update
    long_tasks: int | None = None  # main-thread tasks over 50 ms during the page's drag
    longest_task_ms: float | None = None
    page_server_cpu_ms: float | None = None  # the server's CPU per live request during the page's drag
    live_ms: float | None = None  # the page's median request-to-answer time of the live route
    fresh_answer_ms: float | None = None  # the same, each request on a new connection
    before: dict | None = None  # the same case measured on the tree before (compare_with)

    @property
    def per_second(self):
        return self.answers / self.seconds if self.seconds else 0.0

    @property
    def target(self):
        return TARGETS.get(self.n)

    @property
    def cpu_target(self):
        return SERVER_CPU_TARGETS.get(self.n)


def scene_query(spec):
    """The link query (a dict, as ``playground.link.encode_scene`` writes it) of a case's scene."""
    if spec is None:
        from ui.session.state import default_scene

        return encode_scene(default_scene())
    return dict(parse_qsl(link_query(**spec)))


def _point_shown(figure_text, point_id):
    """(x, y) of the data point ``point_id`` in a live answer's figure, or None."""
    figure = json.loads(figure_text)["figure"]
    for trace in figure.get("data", []):
        if trace.get("meta") == "points" and trace.get("customdata") is not None:
            ids = _decode_array(trace["customdata"]).astype(int)
            where = np.flatnonzero(ids == point_id)
            if where.size:
                xs, ys = _decode_array(trace["x"]), _decode_array(trace["y"])
                return float(xs[where[0]]), float(ys[where[0]])
    return None


def route_drag(server, query, seconds, radius=1.5, client="bench-route"):
    """Drag point 0 through the live route alone (see the module's text). Returns
    (answers, refused, elapsed s, server CPU s, median answer ms, median answer ms on a new
    connection each, dropped where it should be)."""
    from playground.link import decode_scene

    scene, _ = decode_scene(query)
    start = scene.points.X[0]
    parts = urlsplit(server.url)
    path = parts.path.rstrip("/") + LIVE_PATH if parts.path.strip("/") else LIVE_PATH

    def connect():
        return http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)

    def ask(connection, dx, dy):
        return _ask_live(connection, path, query, dx, dy, client)

    answers, refused, times, last, elapsed, cpu = _drag_on_one_connection(server, connect, ask, seconds, radius)
    fresh = _answer_ms_on_new_connections(connect, ask, radius)
    ok = False
    if last is not None:
        shown = _point_shown(last[2], 0)
        wanted = snap([start[0] + last[0], start[1] + last[1]])
        ok = shown is not None and bool(np.allclose(shown, wanted, atol=1e-4))
    median = statistics.median(times) if times else 0.0
    return answers, refused, elapsed, cpu, median, statistics.median(fresh), ok


def _ask_live(connection, path, query, dx, dy, client):
    """One live request moving point 0 by (dx, dy), as the page sends it: (HTTP status, body)."""
    body = {
        "scene": query,
        "edits": [{"type": "move", "ids": [0], "dx": dx, "dy": dy}],
        "add_as": 0,
        "add_test": False,
        "scale": 1.0,
        "language": "en",
        "painted": False,
        "client": client,
    }
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, response.read()


def _circle_offset(t, radius):
    """Where the pointer is at ``t`` s: once round a circle of ``radius`` every 2 s, from (0, 0)."""
    angle = 2 * math.pi * t / 2.0
    return radius * (math.cos(angle) - 1.0), radius * math.sin(angle)


def _drag_on_one_connection(server, connect, ask, seconds, radius):
    """The drag on one kept-alive connection, as the page does, a request whenever the pointer
    has moved (``POINTER_HZ``): (answers, refused, answer ms each, the last answer as
    (dx, dy, body) or None, elapsed s, server CPU s)."""
    connection = connect()
    try:
        ask(connection, *_circle_offset(0.1, radius))  # warm-up: the route's first use imports plotly
        answers, refused, times, frame, last = 0, 0, [], -1, None
        cpu_before = server.cpu_seconds()
        began = time.perf_counter()
        while (now := time.perf_counter() - began) < seconds:
            if int(now * POINTER_HZ) == frame:  # the pointer has not moved since the last request
                time.sleep((frame + 1) / POINTER_HZ - now)
                continue
            frame = int(now * POINTER_HZ)
            dx, dy = _circle_offset(frame / POINTER_HZ, radius)
            asked = time.perf_counter()
            status, text = ask(connection, dx, dy)
            times.append(1000 * (time.perf_counter() - asked))
            if status == 200:
                answers, last = answers + 1, (dx, dy, text)
            else:
                refused += 1
        elapsed = time.perf_counter() - began
        cpu = server.cpu_seconds() - cpu_before
    finally:
        connection.close()
    return answers, refused, times, last, elapsed, cpu


def _answer_ms_on_new_connections(connect, ask, radius, count=20):
    """The same requests, each on a new connection (no keep-alive): ms each."""
    fresh = []
    for k in range(count):
        connection = connect()
        try:
            asked = time.perf_counter()
            ask(connection, *_circle_offset(k / POINTER_HZ, radius))
            fresh.append(1000 * (time.perf_counter() - asked))
        finally:
            connection.close()
    return fresh


POINTER_JS = """([x0, y0, radius, ms]) => new Promise((resolve) => {
  const root = document.querySelector('.pg-canvas'), began = performance.now();
  const counted = Number(root.dataset.dragUpdates || 0), asked = Number(root.dataset.liveAsked || 0);
  const draws = [], lives = [], tasks = [];
  // Main-thread tasks over 50 ms (Chromium's long tasks) while the pointer moves.
  const longTasks = new PerformanceObserver((list) => list.getEntries().forEach((e) => tasks.push(e.duration)));
  longTasks.observe({type: 'longtask', buffered: false});
  // Plotly.react's own time per draw (the canvas calls window.Plotly.react).
  const Plotly = window.Plotly, react = Plotly.react;
  Plotly.react = function (...args) {
    const t = performance.now();
    return Promise.resolve(react.apply(this, args)).then((value) => {
      draws.push(performance.now() - t);
      return value;
    });
  };
  const watch = new MutationObserver(() => lives.push(Number(root.dataset.liveMs)));
  watch.observe(root, {attributes: true, attributeFilter: ['data-drag-updates']});
  let at = [x0, y0];
  const timer = setInterval(() => {
    const t = performance.now() - began, angle = 2 * Math.PI * t / 2000;
    at = [x0 + radius * (Math.cos(angle) - 1), y0 + radius * Math.sin(angle)];
    window.dispatchEvent(new MouseEvent('mousemove', {clientX: at[0], clientY: at[1], bubbles: true}));
    if (t >= ms) {
      clearInterval(timer);
      watch.disconnect();
      Plotly.react = react;
      const median = (values) => {
        const v = values.slice().sort((a, b) => a - b);
        return v.length ? v[Math.floor(v.length / 2)] : null;
      };
      // Long tasks are reported a little after they end: read the observer's queue once more.
      setTimeout(() => {
        longTasks.takeRecords().forEach((e) => tasks.push(e.duration));
        longTasks.disconnect();
        resolve({updates: Number(root.dataset.dragUpdates || 0) - counted,
                 asked: Number(root.dataset.liveAsked || 0) - asked,
                 seconds: t / 1000, at: at, draw: median(draws), live: median(lives.filter((v) => v > 0)),
                 longTasks: tasks.length, longest: tasks.length ? Math.max(...tasks) : 0});
      }, 100);
    }
  }, 1000 / 60);
})"""

# The page position of point 0 (id 0 in the points' customdata), or null.
POINT_JS = """() => { const root = document.querySelector('.pg-canvas'), box = root.getBoundingClientRect();
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const t = root._fullData.find(t => t.meta === 'points' && Array.from(t.customdata || []).includes(0));
  if (!t) return null;
  const i = Array.from(t.customdata).indexOf(0);
  return [box.left + xa._offset + xa.l2p(t.x[i]), box.top + ya._offset + ya.l2p(t.y[i])]; }"""


def _descendants_cpu_seconds(pid):
    """CPU time (user + system, s) of every live descendant of ``pid`` (here: the browser's processes)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                parents[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
            except OSError:
                continue
    total, frontier = 0.0, {pid}
    while frontier:
        children = {child for child, (parent, _) in parents.items() if parent in frontier}
        total += sum(parents[child][1] for child in children)
        frontier = children
    return total


def opened_page(browser, url):
    """(context, page, the page's errors so far) of ``url`` at 1400 x 1000, its canvas drawn and
    settled; the caller closes the context."""
    from tests.browser import wait_settled

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(url)
        page.wait_for_selector(".pg-canvas .main-svg", timeout=120_000)
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.revision !== undefined")
        wait_settled(page, quiet_ms=500, timeout=60.0)
    except BaseException:
        context.close()
        raise
    return context, page, errors


def browser_drag(browser, server, url, seconds, radius_px=120):
    """Drag point 0 round a circle with the mouse for ``seconds`` in a real page: a dict of what
    the page counted (see ``POINTER_JS``), the browser's and the server's CPU per update, and
    whether the point was dropped where the pointer let it go (within a pixel)."""
    from tests.browser import wait_settled

    context, page, errors = opened_page(browser, url)
    try:
        start = page.evaluate(POINT_JS)
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 6, start[1], steps=2)
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.dragging === '1'")
        # The pointer moves at 60 Hz inside the page, as a mouse does (Playwright's own mouse.move
        # waits for each event's round trip, a few a second on a busy machine).
        cpu_before, server_before = _descendants_cpu_seconds(os.getpid()), server.cpu_seconds()
        seen = page.evaluate(POINTER_JS, [start[0], start[1], radius_px, seconds * 1000])
        page_cpu = _descendants_cpu_seconds(os.getpid()) - cpu_before
        server_cpu = server.cpu_seconds() - server_before
        end = seen["at"]
        page.mouse.move(*end)
        page.mouse.up()
        page.wait_for_function("() => !document.querySelector('.pg-canvas').dataset.dragging", timeout=60_000)
        wait_settled(page, quiet_ms=500, timeout=60.0)
        dropped = page.evaluate(POINT_JS)
        seen["dropped_ok"] = dropped is not None and math.hypot(dropped[0] - end[0], dropped[1] - end[1]) <= 1.0
        seen["dropped_ok"] = seen["dropped_ok"] and not errors
        seen["page_cpu_ms"] = 1000 * page_cpu / max(seen["updates"], 1)
        seen["server_cpu_ms"] = 1000 * server_cpu / max(seen["asked"], 1)
        return seen
    finally:
        context.close()


def _load():
    return " / ".join(f"{v:.1f}" for v in os.getloadavg())


def run(quick=False, log=print, browser=True):
    seconds = 3.0 if quick else 8.0
    results = []
    with streamlit() as server:
        for method, n, spec in CASES:
            load = _load()
            answers, refused, elapsed, cpu, answer_ms, fresh_ms, ok = route_drag(server, scene_query(spec), seconds)
            cpu_ms = 1000 * cpu / max(answers, 1)
            result = DragResult(method, n, elapsed, answers, refused, answer_ms, cpu_ms, ok, load)
            result.fresh_answer_ms = fresh_ms
            results.append(result)
        if browser:
            from playwright.sync_api import sync_playwright

            from tests.browser import CHROMIUM_ARGS, chromium_path

            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                for result, (_, _, spec) in zip(results, CASES):
                    url = f"{server.url}/?{link_query(**spec)}" if spec else server.url
                    result.browser_load = _load()
                    seen = browser_drag(chromium, server, url, seconds)
                    result.browser_per_second = seen["updates"] / seen["seconds"]
                    result.draw_ms, result.live_ms = seen["draw"], seen["live"]
                    result.page_cpu_ms, result.page_server_cpu_ms = seen["page_cpu_ms"], seen["server_cpu_ms"]
                    result.long_tasks, result.longest_task_ms = seen["longTasks"], seen["longest"]
                    result.dropped_ok = result.dropped_ok and seen["dropped_ok"]
                chromium.close()
    for result in results:
        log(format_row(result))
    return results


# ---- the tree before: its own benchmark, in the same session ------------------------------------

_BEFORE_ROW = re.compile(r"^  (?P<method>.{36}) +(?P<n>[\d,]+) +(?P<client>[\d.]+) +(?P<browser>[\d.—]+) +>= \S+ ")


def parse_before(output):
    """{(method, n): figures} from the rows an older ``python -m bench --drag-only`` printed
    (its columns: client/s, browser/s, target, draw ms, page CPU ms, server CPU ms/update, load)."""
    rows = {}
    for line in output.splitlines():
        match = _BEFORE_ROW.match(line)
        if not match:
            continue
        draw, page_cpu, server_cpu, load = line[match.end() :].split(None, 3)
        browser = match["browser"]
        rows[(match["method"].strip(), int(match["n"].replace(",", "")))] = {
            "client_per_second": float(match["client"]),
            "browser_per_second": None if browser == "—" else float(browser),
            "draw_ms": None if draw == "—" else float(draw),
            "page_cpu_ms": float(page_cpu),
            "server_cpu_ms": float(server_cpu),
            "load": load.strip().rsplit("  ", 1)[0].split("; ")[-1],
        }
    return rows


def compare_with(root, quick=False, log=print):
    """Run ``root``'s own drag benchmark (``python -m bench --drag-only --output -``); its rows."""
    command = [sys.executable, "-m", "bench", "--drag-only", "--output", "-"] + (["--quick"] if quick else [])
    log(f"Before: {root} ({' '.join(command[1:])})")
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=900)
    for line in done.stdout.splitlines():
        if line.startswith("  ") and "|" not in line:
            log("  before" + line)
    if done.returncode:
        log(done.stderr[-2000:])
    return parse_before(done.stdout)


# ---- verdicts and the report --------------------------------------------------------------------


def page_rate(result):
    """The rate the target is about: the page's, or the route's when no page was measured."""
    return result.browser_per_second if result.browser_per_second is not None else result.per_second


def misses(result):
    """What of the drag's targets the case misses: [] when it meets them all."""
    missed = []
    if result.target is not None and page_rate(result) < result.target:
        missed.append("rate")
    if result.long_tasks:
        missed.append("long tasks")
    if result.cpu_target is not None and result.cpu_ms_per_answer > result.cpu_target:
        missed.append("server CPU")
    return missed


def verdict(result):
    if not result.dropped_ok:
        return "WRONG DROP"
    missed = misses(result)
    return "met" if not missed else "MISSED: " + ", ".join(missed)


def _num(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f}"


def _before(result, key, digits=1):
    return _num((result.before or {}).get(key), digits)


def format_header():
    return (
        f"  {'method':36} {'N':>6} {'page/s':>7} {'target':>7} {'long tasks':>11} {'react ms':>9} "
        f"{'page CPU ms':>12} {'route/s':>8} {'answer ms':>10} {'new conn.':>10} {'server CPU ms':>14}  "
        "load (route; page)"
    )


def format_row(result):
    target = f">= {result.target:g}" if result.target else ""
    tasks = "—" if result.long_tasks is None else f"{result.long_tasks} ({result.longest_task_ms or 0:.0f})"
    return (
        f"  {result.method:36} {result.n:>6,} {_num(page_rate(result) if result.browser_per_second else None):>7} "
        f"{target:>7} {tasks:>11} {_num(result.draw_ms, 0):>9} {_num(result.page_cpu_ms, 0):>12} "
        f"{result.per_second:>8.1f} {result.answer_ms:>10.1f} {_num(result.fresh_answer_ms):>10} "
        f"{result.cpu_ms_per_answer:>14.1f}  "
        f"{result.load}; {result.browser_load}  {verdict(result)}"
    )


HEADING = "## Drag: live updates while a point is dragged"


def markdown(results, *, quick=False, before_root=None):
    compared = any(r.before for r in results)
    out = [
        HEADING,
        "",
        "Written by `python -m bench` (or `--drag-only`)" + (" with `--quick`" if quick else "") + ". "
        "Since issue 25 a drag goes through the stateless live route (`POST /api/live`, `ui/server/live_route.py`): "
        "the canvas posts the scene it shows and the edits not yet committed, one request in flight, the "
        "latest pointer position asked for next, and draws the answer in place (the regions', boundary's "
        "and rings' paths rewritten in plotly's nodes, `ui/plot/canvas_patch.js`; `Plotly.react` only when "
        "anything else changed); no Streamlit rerun until the release.",
        "",
        "*In the page*: headless Chromium at 1400 x 1000, a real press on a point, then the pointer moved at "
        "60 Hz inside the page for the drag's time; *updates / s* = live figures the canvas drew "
        "(`data-drag-updates`); *long tasks* = main-thread tasks over 50 ms meanwhile (a `PerformanceObserver` "
        "for `longtask`: their count and the longest); *Plotly.react ms* = median per draw that went through "
        "`Plotly.react` (— when every frame was drawn in place); *page CPU ms* = "
        "the browser's CPU time (all its processes, from /proc) per update; *live ms* = the page's median time "
        "from a request to its answer; *server CPU ms* = the server's CPU per live request the page made. "
        "After the release the point must sit where the pointer let it go. "
        "*The route alone*: an HTTP client (`bench/drag.py`) posts `LiveRequest`s moving the same point on a "
        "circle, the pointer at 60 Hz, one request in flight on one kept-alive connection as the page's "
        "`fetch` does (so at most 60 answers a second); *route answer ms* = median request to answer, *on a "
        "new connection* = the same with a new connection per request (20 of them); *server CPU ms / answer* "
        "from /proc; the last answer must draw the point where the pointer was.",
        "",
        "Targets (issue 25, this 2-core machine): in the page >= 24 updates a second at N = 90 and >= 12 at "
        "N = 1,000, no long task during the drag; server CPU <= 5 ms per live answer at N = 90 (the route "
        "alone). The verdict names what is missed.",
    ]
    if compared:
        out += [
            "",
            "*before*: the tree before issue 25"
            + (f" (`{before_root}`)" if before_root else "")
            + ", where every move was a Streamlit rerun, measured by that tree's own "
            "`python -m bench --drag-only` in the same run, just before this one (`--compare-with`): its page "
            "rate, its page CPU per update and its server CPU per update (a rerun through the websocket).",
        ]
    out += [
        "",
        "| method | N | page updates / s | before | target | long tasks (longest ms) | Plotly.react ms "
        "| page CPU ms / update | before | live ms | server CPU ms / update in the page | before "
        "| route answers / s | route answer ms | on a new connection | route server CPU ms / answer "
        "| load average (route; page) | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        target = f"≥ {r.target:g}" if r.target else "—"
        tasks = "—" if r.long_tasks is None else f"{r.long_tasks} ({r.longest_task_ms or 0:.0f})"
        out.append(
            f"| {r.method} | {r.n:,} | {_num(r.browser_per_second)} | {_before(r, 'browser_per_second')} "
            f"| {target} | {tasks} | {_num(r.draw_ms, 0)} | {_num(r.page_cpu_ms, 0)} | {_before(r, 'page_cpu_ms', 0)} "
            f"| {_num(r.live_ms, 0)} | {_num(r.page_server_cpu_ms)} | {_before(r, 'server_cpu_ms', 0)} "
            f"| {r.per_second:.1f} | {r.answer_ms:.1f} | {_num(r.fresh_answer_ms)} | {r.cpu_ms_per_answer:.1f} "
            f"| {r.load}; {r.browser_load or '—'} | {verdict(r)} |"
        )
    return "\n".join(out)


def summary_lines(results):
    return [
        f"drag {r.method} N={r.n:,}: {_num(r.browser_per_second)} updates/s in the page, "
        f"{r.long_tasks if r.long_tasks is not None else '—'} long tasks, "
        f"{r.cpu_ms_per_answer:.1f} ms server CPU per answer; target >= {r.target:g}/s: {verdict(r)}"
        for r in results
        if r.target
    ]


def with_section(text, section):
    """``text`` (BENCHMARKS.md) with its drag section replaced by ``section`` (or inserted before
    ## Load, ## Summary or at the end)."""
    return report.with_markdown_section(text, HEADING, section, before=("## Load", "## Summary"))


def section_of(text):
    """The drag section of an existing BENCHMARKS.md, or None."""
    return report.markdown_section(text, HEADING)
