"""Clicks: quick clicks land where they were made, and the boundary follows at once.

In headless Chromium (1400 x 1000) on the default scene (least squares, N = 90):

- **The series**: 20 clicks 150 ms apart on distinct empty spots (each at least 14 px from every
  point and from every other spot, so no click is on a marker or half of a double-click), on a
  fresh page each run; the page must end with exactly N + 20 points, one within half a pixel of
  each click's data coordinates. ``RUNS`` runs on an idle machine, then as many with two processes
  spinning on the processor (``python -c 'while True: pass'``, killed afterwards) during the clicks.
- **Click-to-boundary**: clicks on empty spots, each once the page has been quiet; the time from
  the click's ``mousedown`` to the first figure drawn whose points include the new one, i.e. the
  boundary refitted with it: the live route's figure (``data-live-drawn``) or, should the session's
  rerun come first, the session's (``data-points``); a ``MutationObserver`` in the page notes which.
  The same is measured for every click of the series (150 ms apart, the live requests queue behind
  each other: one in flight per canvas). *server CPU ms / click* = the server's CPU (from /proc)
  over the isolated clicks, less its CPU with the page untouched over as long (measured first), per
  click: the live answer, the committed rerun and the panels' follow-up;
  *fits / click* = the fits the server logged meanwhile (``PLAYGROUND_FIT_LOG``): one when the rerun
  finds the live answer's fit in the shared cache; *renders / click* the same for the figure's
  parts (``PLAYGROUND_RENDER_LOG``): one when the reruns draw from the live answer's render.

``run(root=...)`` measures another checkout (a tree from before the live route has none: its clicks'
boundary is the session's figure alone).
"""

import math
import os
import random
import statistics
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bench import report
from bench.server import ROOT, streamlit
from tests.browser import GEOMETRY_JS, PAGE_TO_DATA_JS, cpu_burners

RUNS = 10
CLICKS = 20
GAP_MS = 150
# The spots' distance from each other and from the points: at least 12, past a marker's radius and
# the press's slack (HIT_SLACK in ui/plot/canvas_gestures.js), so a click adds a point, never presses one.
SPACING_PX = 14
TARGET_MS = 60.0  # click-to-boundary median at N = 90
ISOLATED = 15  # isolated clicks for click-to-boundary

# The stopwatch: each mousedown starts a click; each figure drawn (live or the session's) with at
# least n0 + k + 1 points ends click k's wait for its boundary.
WATCH_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const count = () => (root._fullData || []).filter(t => t.meta === 'points').reduce((n, t) => n + (t._length || 0), 0);
  const watch = window.__pgClickWatch = {n0: count(), clicks: []};
  document.addEventListener('mousedown', () => watch.clicks.push({t0: performance.now(), t1: null, via: null}), true);
  new MutationObserver((records) => {
    const now = performance.now(), n = count();
    const via = records.some(r => r.attributeName === 'data-live-drawn') ? 'live' : 'session';
    watch.clicks.forEach((c, k) => { if (c.t1 === null && n >= watch.n0 + k + 1) { c.t1 = now; c.via = via; } });
  }).observe(root, {attributes: true, attributeFilter: ['data-live-drawn', 'data-points']});
}"""

CANVAS_DRAWN_JS = """() => { const r = document.querySelector('.pg-canvas');
  return !!(r && r._fullLayout && r._fullData); }"""

STUCK_JS = """async () => { const r = document.querySelector('.pg-canvas');
  if (!r) return {canvas: 'missing', page: (document.body.innerText || '').slice(0, 300)};
  const edits = (await import(r.dataset.stateModule)).canvasPage;  // the page's edit queue (ui/plot/canvas_state.js)
  return {points: Number(r.dataset.points), queue: edits.queue.map(e => e.type + ' ' + e.nonce),
          ack: edits.ack, nonce: edits.nonce, sent: Number(r.dataset.sent || 0),
          live_drawn: Number(r.dataset.liveDrawn || 0), live_off: r.dataset.liveOff || ''}; }"""

# Notes whether the canvas element left the page during a series (a rerun re-mounting it).
GONE_JS = """() => { window.__pgGone = 0; const root = document.querySelector('.pg-canvas');
  new MutationObserver(() => { if (!root.isConnected && !window.__pgGone) window.__pgGone = 1; })
    .observe(document.body, {childList: true, subtree: true}); }"""

READ_JS = "() => window.__pgClickWatch.clicks.map(c => [c.t1 === null ? null : c.t1 - c.t0, c.via])"


@dataclass
class SeriesRun:
    busy: bool
    placed: int  # new points in the page after the series
    within: int  # clicks with a new point within half a pixel
    worst_px: float  # the largest distance from a click to its nearest new point
    boundary_ms: list = field(default_factory=list)  # per click: to the first figure with its point
    via_live: int = 0
    load: str = ""
    stuck: dict | None = None  # what the page showed when its points did not all arrive within a minute
    remounted: bool = False  # the canvas element left the page during the series (replaced by another)

    @property
    def ok(self):
        return self.placed == CLICKS and self.within == CLICKS


@dataclass
class ClickResult:
    label: str
    runs: list = field(default_factory=list)
    isolated_ms: list = field(default_factory=list)
    isolated_via_live: int = 0
    server_cpu_ms: float | None = None  # per isolated click
    fits_per_click: float | None = None  # the server's fits per isolated click (PLAYGROUND_FIT_LOG)
    renders_per_click: float | None = None  # its renders of a figure's parts (PLAYGROUND_RENDER_LOG)
    load: str = ""

    def series(self, busy):
        return [r for r in self.runs if r.busy == busy]

    @property
    def median_ms(self):
        return statistics.median(self.isolated_ms) if self.isolated_ms else None

    @property
    def p90_ms(self):
        return float(np.percentile(self.isolated_ms, 90)) if self.isolated_ms else None


def _load():
    return " / ".join(f"{v:.1f}" for v in os.getloadavg())


def _open(page, url):
    from tests.browser import wait_settled

    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=120_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page, quiet_ms=500, timeout=60.0)


def _applied(page, timeout=60_000):
    from tests.browser import wait_settled

    page.wait_for_function("() => !Number(document.documentElement.dataset.pgQueued || 0)", timeout=timeout)
    wait_settled(page, quiet_ms=500, timeout=60.0)


def empty_spots(geo, n, seed, spacing=SPACING_PX, bottom=960):
    """``n`` page positions in the plot area (on screen), ``spacing`` px from every point and each other."""
    rng = random.Random(seed)
    taken = [(p["px"], p["py"]) for p in geo["points"]]
    spots = []
    for _ in range(20_000):
        # Whole pixels, as a mouse's (Chromium gives a click's clientX/Y in whole pixels).
        x = round(geo["left"] + 20 + rng.random() * (geo["width"] - 40))
        # Not the top 45 px: plotly's mode bar may float there (a click on it adds no point).
        y = round(geo["top"] + 45 + rng.random() * (min(geo["height"], bottom - geo["top"]) - 65))
        if all(math.hypot(x - a, y - b) >= spacing for a, b in taken):
            spots.append((x, y))
            taken.append((x, y))
            if len(spots) == n:
                return spots
    raise RuntimeError(f"only {len(spots)} empty spots of {n} found")


def series_run(page, url, busy, seed):
    """One series of CLICKS clicks GAP_MS apart on a fresh page; a ``SeriesRun``."""
    _open(page, url)
    geo = page.evaluate(GEOMETRY_JS)
    before = {(p["x"], p["y"]) for p in geo["points"]}
    spots = empty_spots(geo, CLICKS, seed)
    wanted = [page.evaluate(PAGE_TO_DATA_JS, list(spot)) for spot in spots]
    page.evaluate(WATCH_JS)
    page.evaluate(GONE_JS)
    load = _load()
    stuck = None
    with cpu_burners() if busy else nullcontext():
        for spot in spots:
            page.mouse.click(*spot)
            page.wait_for_timeout(GAP_MS)
        try:
            page.wait_for_function(
                "(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) >= n",
                arg=len(before) + CLICKS,
                timeout=60_000,
            )
            _applied(page)
        except PlaywrightTimeout:  # a failed run: counted as such, with what the page showed
            stuck = page.evaluate(STUCK_JS)
        load += " -> " + _load()
    if not stuck:
        try:  # the canvas can be re-mounted by a rerun for a moment: wait for it to be drawn again
            page.wait_for_function(CANVAS_DRAWN_JS, timeout=60_000)
        except PlaywrightTimeout:
            stuck = page.evaluate(STUCK_JS)
    remounted = bool(page.evaluate("() => window.__pgGone"))
    if stuck and stuck.get("canvas") == "missing":
        return SeriesRun(busy, 0, 0, math.inf, [], 0, load, stuck, remounted)
    geo = page.evaluate(GEOMETRY_JS)
    new = [(p["x"], p["y"]) for p in geo["points"] if (p["x"], p["y"]) not in before]
    scale = geo["width"] / (geo["xrange"][1] - geo["xrange"][0])  # px per data unit
    distances = [min((math.hypot(x - a, y - b) * scale for a, b in new), default=math.inf) for x, y in wanted]
    seen = page.evaluate(READ_JS)
    return SeriesRun(
        busy,
        len(geo["points"]) - len(before),
        sum(d <= 0.5 for d in distances),
        max(distances),
        [ms for ms, _ in seen if ms is not None],
        sum(via == "live" for _, via in seen),
        load,
        stuck,
        remounted,
    )


def _logged(log):
    """The lines the server and its workers logged so far in ``log`` (``PLAYGROUND_FIT_LOG``: one a
    fit; ``PLAYGROUND_RENDER_LOG``: one a render)."""
    return len(log.read_text().splitlines()) if log.exists() else 0


IDLE_SECONDS = 5.0  # the server's own CPU with the page open and untouched, measured before the clicks


def isolated_clicks(page, url, server, count=ISOLATED, fit_log=None, render_log=None):
    """Click-to-boundary of ``count`` clicks, each once the page is quiet: (ms list, via live, server
    CPU ms/click, fits/click, renders/click: the live request's, the canvas's rerun's and the
    panels' together).

    The server's CPU is read once before the first click and once after the last one's reruns
    (from /proc, in ticks of 10 ms: one reading per click would add a tick's error to each), less
    what the server spends with the page open and untouched over as long (measured first, over
    ``IDLE_SECONDS``: its heartbeats and polls are not a click's)."""
    _open(page, url)
    times, live, missing = [], 0, 0
    idle_start, idle_cpu = time.monotonic(), server.cpu_seconds()
    page.wait_for_timeout(IDLE_SECONDS * 1000)
    idle_rate = (server.cpu_seconds() - idle_cpu) / (time.monotonic() - idle_start)
    fits_before = _logged(fit_log) if fit_log else 0
    renders_before = _logged(render_log) if render_log else 0
    start, cpu_start = time.monotonic(), server.cpu_seconds()
    for k in range(count):
        spot = empty_spots(page.evaluate(GEOMETRY_JS), 1, seed=1000 + k, spacing=20)[0]
        page.evaluate(WATCH_JS)
        page.mouse.click(*spot)
        try:
            page.wait_for_function("() => window.__pgClickWatch.clicks.every(c => c.t1 !== null)", timeout=30_000)
            _applied(page)
        except PlaywrightTimeout:  # no figure with the point: counted as missing, the next click goes on
            missing += 1
            _open(page, url)
            continue
        ms, via = page.evaluate(READ_JS)[0]
        times.append(ms)
        live += via == "live"
        page.wait_for_timeout(600)  # past the double-click interval, and the panels' follow-up run
    cpu = server.cpu_seconds() - cpu_start - idle_rate * (time.monotonic() - start)
    if missing:
        print(f"  {missing} of {count} isolated clicks drew no figure with their point within 30 s")
    fits = (_logged(fit_log) - fits_before) / max(count, 1) if fit_log else None
    renders = (_logged(render_log) - renders_before) / max(count, 1) if render_log and render_log.exists() else None
    return times, live, 1000 * cpu / max(count, 1), fits, renders


def run(root=None, *, quick=False, label="this tree", log=print):
    from playwright.sync_api import sync_playwright

    from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path

    runs = 3 if quick else RUNS
    result = ClickResult(label, load=_load())
    logs = Path(tempfile.mkdtemp())
    fit_log, render_log = logs / "fits.log", logs / "renders.log"
    env = {"PLAYGROUND_FIT_LOG": str(fit_log), "PLAYGROUND_RENDER_LOG": str(render_log)}
    with streamlit(root or ROOT, env=env) as server, sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda err: errors.append(str(err)))
        try:
            (
                result.isolated_ms,
                result.isolated_via_live,
                result.server_cpu_ms,
                result.fits_per_click,
                result.renders_per_click,
            ) = isolated_clicks(
                page, server.url, server, count=8 if quick else ISOLATED, fit_log=fit_log, render_log=render_log
            )
            log(
                f"  {label}: click-to-boundary median {result.median_ms:.0f} ms, p90 {result.p90_ms:.0f} ms "
                f"({result.isolated_via_live} of {len(result.isolated_ms)} by the live route), "
                f"server CPU {result.server_cpu_ms:.1f} ms, {result.fits_per_click:.2f} fits and "
                + (
                    f"{result.renders_per_click:.2f} renders a click"
                    if result.renders_per_click is not None
                    else "renders not logged (a tree without PLAYGROUND_RENDER_LOG)"
                )
            )
            for busy in (False, True):
                for index in range(runs):
                    one = series_run(page, server.url, busy, seed=index)
                    result.runs.append(one)
                    log(
                        f"  {label}, {'2 CPU burners' if busy else 'idle'}, run {index + 1}: {one.placed} new points, "
                        f"{one.within} of {CLICKS} within 0.5 px (worst {one.worst_px:.2f} px); boundary median "
                        f"{_median(one.boundary_ms):.0f} ms ({one.via_live} by the live route); load {one.load}"
                        + (f"; STUCK: {one.stuck}" if one.stuck else "")
                        + ("; the canvas element was re-mounted" if one.remounted else "")
                    )
                    if one.stuck:
                        page.screenshot(path=str(ARTIFACTS / f"clicks-stuck-{'busy' if busy else 'idle'}-{index}.png"))
        finally:
            context.close()
            chromium.close()
        if errors:
            log(f"  JavaScript errors: {errors[:3]}")
    return result


def _median(values):
    return statistics.median(values) if values else float("nan")


# ---- the report ---------------------------------------------------------------------------------

HEADING = "## Clicks: every click lands, and its boundary follows at once"


def _series_cell(result, busy):
    runs = result.series(busy)
    if not runs:
        return "—", "—", "—"
    good = sum(r.ok for r in runs)
    worst = max(r.worst_px for r in runs)
    boundary = [ms for r in runs for ms in r.boundary_ms]
    live = sum(r.via_live for r in runs)
    return (
        f"{good} of {len(runs)} (worst {worst:.2f} px)",
        f"{_median(boundary):.0f} / {np.percentile(boundary, 90):.0f} ({live} of {len(boundary)} live)"
        if boundary
        else "—",
        f"{runs[0].load.split(' -> ')[0]} … {runs[-1].load.split(' -> ')[-1]}",
    )


def markdown(results, *, quick=False):
    """The clicks section for ``results`` (``ClickResult``s: this tree and, if measured, the tree before)."""
    out = [
        HEADING,
        "",
        "Written by `python -m bench` (or `--clicks-only`)" + (" with `--quick`" if quick else "") + ". "
        "Headless Chromium (1400 x 1000) on the default scene (least squares, N = 90), `bench/clicks.py`. "
        f"*Series*: {CLICKS} clicks {GAP_MS} ms apart on distinct empty spots at least {SPACING_PX} px from every "
        "point and from each other, on a fresh page each run; a run is good when the page ends with exactly "
        f"{CLICKS} new points, one within half a pixel of each click. The runs with *2 CPU burners* have two "
        "`python -c 'while True: pass'` processes spinning during the clicks (killed afterwards). "
        "*Click-to-boundary*: from a click's `mousedown` to the first figure drawn whose points include the "
        "new one (its boundary refitted): the live route's (`data-live-drawn`) or, should the session's rerun "
        "come first, the session's (`data-points`), seen by a `MutationObserver` in the page; *isolated* = "
        "clicks each once the page is quiet, *in the series* = every click of the series (one live request in "
        "flight per canvas, so a click 150 ms after another may wait for the other's answer). *server CPU ms / "
        "click* = the server's CPU (from /proc) over the isolated clicks, less its CPU with the page open and "
        "untouched over as long (measured first), per click: the live answer, the committed rerun and the "
        "panels' follow-up. Targets (issue 25): 20 of 20 points in 10 of 10 runs, idle "
        "and busy; click-to-boundary median <= 60 ms at N = 90.",
        "",
        "| tree | series good, idle | series good, 2 CPU burners | click-to-boundary isolated: median / p90 ms "
        "(by the live route) | in the series, idle: median / p90 ms | in the series, busy: median / p90 ms "
        "| server CPU ms / click | load average (isolated; idle series; busy series) | verdict |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        idle, idle_ms, idle_load = _series_cell(r, False)
        busy, busy_ms, busy_load = _series_cell(r, True)
        isolated = (
            f"{r.median_ms:.0f} / {r.p90_ms:.0f} ({r.isolated_via_live} of {len(r.isolated_ms)})"
            if r.isolated_ms
            else "—"
        )
        out.append(
            f"| {r.label} | {idle} | {busy} | {isolated} | {idle_ms} | {busy_ms} "
            f"| {'—' if r.server_cpu_ms is None else f'{r.server_cpu_ms:.1f}'} "
            f"| {r.load}; {idle_load}; {busy_load} | {verdict(r)} |"
        )
    return "\n".join(out)


def verdict(result):
    missed = []
    for busy in (False, True):
        runs = result.series(busy)
        if runs and not all(r.ok for r in runs):
            missed.append(f"{'busy' if busy else 'idle'} series {sum(r.ok for r in runs)} of {len(runs)}")
    if result.median_ms is not None and result.median_ms > TARGET_MS:
        missed.append(f"click-to-boundary {result.median_ms:.0f} ms")
    return "met" if not missed else "MISSED: " + ", ".join(missed)


def summary_lines(results):
    return [f"clicks ({r.label}): {verdict(r)}" for r in results]


def with_section(text, section):
    """``text`` (BENCHMARKS.md) with its clicks section replaced by ``section`` (or inserted before
    ## Drag, ## Load, ## Summary or at the end)."""
    return report.with_markdown_section(text, HEADING, section, before=("## Drag", "## Load", "## Summary"))


def section_of(text):
    """The clicks section of an existing BENCHMARKS.md, or None."""
    return report.markdown_section(text, HEADING)
