"""Live dragging (issue 16): boundary updates per second while a point is dragged.

A light websocket client (``bench/client.py``) drags a point as the page does: the pointer moves
along a circle at 60 Hz, a move is sent as soon as the server has acknowledged the last one (the
latest position, never a stale one), and every new figure the canvas receives during the drag is
one update of the regions, boundary, rings and status line. The page's own draw (Plotly.react,
about 30-45 ms) overlaps the next server run, since the page sends the next move on arrival. The
server's CPU time per update is read from /proc, which a busy machine disturbs less than the wall
clock. At the end the final move is sent and the point must sit where it was dropped.
"""

import asyncio
import json
import math
import os
import time
from dataclasses import dataclass

import numpy as np

from bench.client import Session, _decode_array
from bench.load import link_query
from bench.server import streamlit
from playground.scene import snap

TICKS = os.sysconf("SC_CLK_TCK")

TARGETS = {90: 8.0, 1000: 4.0}  # updates per second (issue 16)
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
    seconds: float
    updates: int
    moves: int
    cpu_ms_per_update: float
    dropped_ok: bool
    load: str
    browser_per_second: float | None = None  # the same drag by a real pointer in headless Chromium
    draw_ms: float | None = None  # the page's median Plotly.react time per update during that drag
    browser_load: str = ""
    page_cpu_ms: float | None = None  # the browser's CPU time (all its processes) per update

    @property
    def per_second(self):
        return self.updates / self.seconds if self.seconds else 0.0

    @property
    def target(self):
        return TARGETS.get(self.n)


def _points_by_id(canvas):
    """id -> (x, y) of the data points in the figure the canvas was last given."""
    figure = json.loads(canvas.figure) if canvas.figure else {"data": []}
    shown = {}
    for trace in figure.get("data", []):
        if trace.get("meta") == "points":
            ids = _decode_array(trace.get("customdata")).astype(int)
            xs, ys = _decode_array(trace.get("x")), _decode_array(trace.get("y"))
            shown.update({int(i): (float(x), float(y)) for i, x, y in zip(ids, xs, ys)})
    return shown


async def _drag(server, query, seconds, radius=1.5):
    session = await Session.open(server.url, query or "", timeout=300)
    try:
        session.follow_panels = False  # the page holds the panels back while a drag goes on
        start = _points_by_id(session.canvas)[0]
        revision, drag = session.canvas.revision, f"bench-{time.time_ns()}"
        began = time.perf_counter()
        cpu_before = server.cpu_seconds()
        updates, moves, in_flight, seen = 0, 0, 0, session.canvas.revision

        def offset(now):
            angle = 2 * math.pi * (now - began) / 2.0  # once round the circle every 2 s
            return radius * (math.cos(angle) - 1.0), radius * math.sin(angle)

        while time.perf_counter() - began < seconds:
            if session.canvas.ack >= in_flight:
                dx, dy = offset(time.perf_counter())
                in_flight = await session.move(drag, [0], dx, dy, revision=revision)
                moves += 1
            await asyncio.sleep(1 / 60)  # the pointer's frames
            if session.canvas.revision != seen:
                seen = session.canvas.revision
                updates += 1
        elapsed = time.perf_counter() - began
        await session.wait_for(lambda s: s.canvas.ack >= in_flight, timeout=60)
        cpu = server.cpu_seconds() - cpu_before
        dx, dy = offset(time.perf_counter())
        final = await session.move(drag, [0], dx, dy, revision=revision, final=True)
        await session.wait_for(lambda s: s.canvas.ack >= final, timeout=60)
        dropped = _points_by_id(session.canvas)[0]
        wanted = snap([start[0] + dx, start[1] + dy])
        ok = bool(np.allclose(dropped, wanted, atol=1e-4)) and not session.errors
        return updates, moves, elapsed, cpu, ok
    finally:
        await session.close()


POINTER_JS = """([x0, y0, radius, ms]) => new Promise((resolve) => {
  const root = document.querySelector('.pg-canvas'), began = performance.now();
  const counted = Number(root.dataset.dragUpdates || 0), draws = [];
  const watch = new MutationObserver(() => draws.push(Number(root.dataset.renderMs)));
  watch.observe(root, {attributes: true, attributeFilter: ['data-drag-updates']});
  let at = [x0, y0];
  const timer = setInterval(() => {
    const t = performance.now() - began, angle = 2 * Math.PI * t / 2000;
    at = [x0 + radius * (Math.cos(angle) - 1), y0 + radius * Math.sin(angle)];
    window.dispatchEvent(new MouseEvent('mousemove', {clientX: at[0], clientY: at[1], bubbles: true}));
    if (t >= ms) {
      clearInterval(timer);
      watch.disconnect();
      draws.sort((a, b) => a - b);
      const median = draws[Math.floor(draws.length / 2)] || 0;
      resolve([Number(root.dataset.dragUpdates || 0) - counted, t / 1000, at, median]);
    }
  }, 1000 / 60);
})"""


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


def _browser_drag(browser, url, seconds, radius_px=120):
    """Drag point 0 round a circle with the mouse for ``seconds`` in a real page; returns the
    updates per second the canvas counted (new figures drawn during the drag)."""
    from tests.browser import wait_settled

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_selector(".pg-canvas .main-svg", timeout=120_000)
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.revision !== undefined")
        wait_settled(page, quiet_ms=500, timeout=60.0)
        start = page.evaluate(
            """() => { const root = document.querySelector('.pg-canvas'), box = root.getBoundingClientRect();
              const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
              const t = root._fullData.find(t => t.meta === 'points' && Array.from(t.customdata).includes(0));
              const i = Array.from(t.customdata).indexOf(0);
              return [box.left + xa._offset + xa.l2p(t.x[i]), box.top + ya._offset + ya.l2p(t.y[i])]; }"""
        )
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(start[0] + 6, start[1], steps=2)
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.dragging === '1'")
        # The pointer moves at 60 Hz inside the page, as a mouse does (Playwright's own mouse.move
        # waits for each event's round trip, a few a second on a busy machine).
        cpu_before = _descendants_cpu_seconds(os.getpid())
        updates, elapsed, end, draw_ms = page.evaluate(POINTER_JS, [start[0], start[1], radius_px, seconds * 1000])
        page_cpu = _descendants_cpu_seconds(os.getpid()) - cpu_before
        page.mouse.move(*end)
        page.mouse.up()
        page.wait_for_function("() => !document.querySelector('.pg-canvas').dataset.dragging", timeout=60_000)
        return updates / elapsed, draw_ms, 1000 * page_cpu / max(updates, 1)
    finally:
        context.close()


def run(quick=False, log=print, browser=True):
    seconds = 3.0 if quick else 8.0
    results = []
    with streamlit() as server:
        for method, n, spec in CASES:
            query = link_query(**spec) if spec else ""
            load = " / ".join(f"{v:.1f}" for v in os.getloadavg())
            updates, moves, elapsed, cpu, ok = asyncio.run(_drag(server, query, seconds))
            result = DragResult(method, n, elapsed, updates, moves, 1000 * cpu / max(updates, 1), ok, load)
            results.append(result)
        if browser:
            from playwright.sync_api import sync_playwright

            from tests.browser import CHROMIUM_ARGS, chromium_path

            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                for result, (_, _, spec) in zip(results, CASES):
                    url = f"{server.url}/?{link_query(**spec)}" if spec else server.url
                    load = " / ".join(f"{v:.1f}" for v in os.getloadavg())
                    rate, result.draw_ms, result.page_cpu_ms = _browser_drag(chromium, url, seconds)
                    result.browser_per_second = rate
                    result.browser_load = load
                chromium.close()
    for result in results:
        log(format_row(result))
    return results


def slowest(result):
    """The lower of the client's and the browser's rates (the browser adds its own drawing)."""
    rates = [result.per_second] + ([result.browser_per_second] if result.browser_per_second is not None else [])
    return min(rates)


def verdict(result):
    if not result.dropped_ok:
        return "WRONG DROP"
    if result.target is None:
        return ""
    return "met" if slowest(result) >= result.target else "MISSED"


def _rate(value):
    return "—" if value is None else f"{value:.1f}"


def format_header():
    return (
        f"  {'method':36} {'N':>6} {'client/s':>9} {'browser/s':>10} {'target':>7} {'draw ms':>8} {'page CPU ms':>12} "
        f"{'server CPU ms/update':>21}  load (client; browser)"
    )


def format_row(result):
    target = f">= {result.target:g}" if result.target else ""
    draw = "—" if result.draw_ms is None else f"{result.draw_ms:.0f}"
    return (
        f"  {result.method:36} {result.n:>6,} {result.per_second:>9.1f} {_rate(result.browser_per_second):>10} "
        f"{target:>7} {draw:>8} {result.page_cpu_ms or 0:>12.0f} {result.cpu_ms_per_update:>21.0f}  "
        f"{result.load}; {result.browser_load}  "
        f"{verdict(result)}"
    )


HEADING = "## Drag: live updates while a point is dragged"


def markdown(results, *, quick=False):
    out = [
        HEADING,
        "",
        "Written by `python -m bench` (or `--drag-only`)" + (" with `--quick`" if quick else "") + ". "
        "A websocket client (`bench/drag.py`, `bench/client.py`) drags one point of the scene round a "
        "circle at 60 pointer frames a second, as the canvas does: the next move leaves once the server "
        "has acknowledged the last (stale positions are never sent), and every new figure received during "
        "the drag is one update of the regions, boundary, rings and status line. *server CPU ms/update* "
        "is the server's CPU time (from /proc) per update, less disturbed by other load than the rate. "
        "The final move must leave the point where it was dropped. Targets (issue 16): 8 updates a second "
        "at N = 90, 4 at N = 1,000, on this 2-core machine.",
        "",
        "*browser / s*: the same drag in a real page (headless Chromium, 1400 x 1000, the pointer moved "
        "at 60 Hz inside the page after a real press), the updates the canvas drew (`data-drag-updates`), "
        "which adds the page's own work: Streamlit's frontend and the canvas's Plotly.react of the whole "
        "figure (*page draw ms*, median per update; the click benchmark above measures it on a quiet "
        "machine). The browser shares the machine's two cores with the server, so its rate falls fastest "
        "with the load; *page CPU ms / update* (all the browser's processes, from /proc) is the page's work "
        "per update whatever the load. The verdict takes the lower of the two rates.",
        "",
        "| method | N | client updates / s | browser updates / s | target | page draw ms | page CPU ms / update "
        "| client updates | seconds | server CPU ms / update | load average (client; browser) | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        target = f"≥ {r.target:g}" if r.target else "—"
        draw = "—" if r.draw_ms is None else f"{r.draw_ms:.0f}"
        page_cpu = "—" if r.page_cpu_ms is None else f"{r.page_cpu_ms:.0f}"
        out.append(
            f"| {r.method} | {r.n:,} | {r.per_second:.1f} | {_rate(r.browser_per_second)} | {target} | {draw} "
            f"| {page_cpu} | {r.updates} | {r.seconds:.1f} | {r.cpu_ms_per_update:.0f} "
            f"| {r.load}; {r.browser_load or '—'} | {verdict(r)} |"
        )
    return "\n".join(out)


def summary_lines(results):
    return [
        f"drag {r.method} N={r.n:,}: {r.per_second:.1f} updates/s (client), {_rate(r.browser_per_second)} "
        f"(browser); target >= {r.target:g}: {verdict(r)}"
        for r in results
        if r.target
    ]


def with_section(text, section):
    """``text`` (BENCHMARKS.md) with its drag section replaced by ``section`` (or inserted before
    the load section or the summary); every other section is kept."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(HEADING)), None)
    if start is not None:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines[start:end] = section.splitlines() + [""]
    else:
        at = next((i for i, line in enumerate(lines) if line.startswith(("## Load", "## Summary"))), len(lines))
        lines[at:at] = section.splitlines() + [""]
    return "\n".join(lines).rstrip("\n") + "\n"


def section_of(text):
    """The drag section of an existing BENCHMARKS.md, or None."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(HEADING)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end]).rstrip("\n")
