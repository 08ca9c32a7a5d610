"""A class on one server: many sessions (a few real browser pages, the rest light clients) clicking
every 2 s against one server; click-to-repaint percentiles, errors, lost clicks and isolation
(no session sees another's points).

Rules: every session's clicks land on spots no other session uses (``click_spot``); the clock
starts once every session has connected and drawn.
"""

import asyncio
import time
from dataclasses import dataclass, field

from bench.client import Session
from bench.load_common import click_spot, loadavg, percentile
from bench.server import streamlit


@dataclass
class SessionLog:
    name: str
    kind: str  # "light" or "browser"
    latencies_ms: list = field(default_factory=list)
    clicks: int = 0
    lost: int = 0
    foreign: int = 0  # points seen that another session added
    removed: int = 0  # browser clicks that hit a point (which removes it) instead of empty space
    errors: list = field(default_factory=list)


async def _light_session(url, index, duration, interval, started, log, own, timeout=30.0):
    session = await Session.open(url, timeout=300)
    initial = set(session.canvas.points())
    await started.wait()
    end = time.perf_counter() + duration
    mine = []
    try:
        k = 0
        while time.perf_counter() < end:
            tick = time.perf_counter()
            x, y = click_spot(index, k)
            expected = session.canvas.n_points + 1
            mine.append((x, y))
            log.clicks += 1
            await session.click(x, y)
            try:
                await session.wait_for(lambda s, expected=expected: s.canvas.n_points >= expected, timeout)
                log.latencies_ms.append((session.canvas.received_at - tick) * 1000)
            except TimeoutError:
                log.errors.append(f"click {k}: no repaint within {timeout:.0f} s")
            k += 1
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - tick)))
        await session.wait_idle(120)
        shown = set(session.canvas.points())
        own[index] = mine
        ours = {(round(x, 3), round(y, 3)) for x, y in mine}
        got = {(round(x, 3), round(y, 3)) for x, y in shown - initial}
        log.lost = len(ours - got)
        log.foreign = len(got - ours)
        log.errors += session.errors
    finally:
        await session.close()


async def _browser_session(browser, url, index, duration, interval, started, log, timeout=30.0):
    from bench.frontend import EMPTY_SPOT_JS
    from tests.browser import CANVAS_STATE_JS

    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    page.on("pageerror", lambda err: log.errors.append(str(err)))
    await page.goto(url)
    await page.wait_for_function(
        "() => { const r = document.querySelector('.pg-canvas'); return r && r.dataset.points !== undefined; }",
        timeout=300_000,
    )
    await page.wait_for_timeout(1500)
    initial = await page.evaluate(CANVAS_STATE_JS)
    await started.wait()
    end = time.perf_counter() + duration
    count, k = initial["n_points"], 0
    try:
        while time.perf_counter() < end:
            tick = time.perf_counter()
            spot = await page.evaluate(EMPTY_SPOT_JS)  # empty space: a click there adds a point
            log.clicks += 1
            await page.mouse.click(spot["x"], spot["y"])
            count += 1
            try:
                await page.wait_for_function(
                    "(n) => Number(document.querySelector('.pg-canvas').dataset.points) >= n",
                    arg=count,
                    timeout=timeout * 1000,
                )
                log.latencies_ms.append((time.perf_counter() - tick) * 1000)
            except Exception:
                shown = (await page.evaluate(CANVAS_STATE_JS))["n_points"]
                if shown == count - 2:  # the spot had a point by the time of the click: it removed it
                    log.removed += 1
                    count = shown
                else:
                    log.errors.append(f"click {k}: no repaint within {timeout:.0f} s")
            k += 1
            await asyncio.sleep(max(0.45, interval - (time.perf_counter() - tick)))  # never a double-click
        await page.wait_for_timeout(2000)
        final = await page.evaluate(CANVAS_STATE_JS)
        log.lost = max(0, count - final["n_points"])
        log.final_points = set(zip(final["xs"], final["ys"]))
    finally:
        await context.close()


async def _class_load(url, sessions, browsers, duration, interval):
    from playwright.async_api import async_playwright

    from tests.browser import CHROMIUM_ARGS, chromium_path

    logs = [SessionLog(f"light {i}", "light") for i in range(sessions - browsers)]
    logs += [SessionLog(f"browser {i}", "browser") for i in range(browsers)]
    started = asyncio.Event()
    own = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            tasks = []
            for i, log in enumerate(logs):
                if log.kind == "light":
                    tasks.append(_light_session(url, i, duration, interval, started, log, own))
                else:
                    tasks.append(_browser_session(browser, url, i, duration, interval, started, log))
            runner = asyncio.gather(*tasks, return_exceptions=True)
            # Everyone connected and drawn before the clock starts; stagger the starts over one interval.
            await asyncio.sleep(5.0 + 0.6 * sessions)
            started.set()
            outcomes = await runner
        finally:
            await browser.close()
    for log, outcome in zip(logs, outcomes):
        if isinstance(outcome, BaseException):
            log.errors.append(f"{type(outcome).__name__}: {outcome}")
    # Isolation for the browser pages: none of their points is one a light session added.
    added = {(round(x, 3), round(y, 3)) for mine in own.values() for x, y in mine}
    for log in logs:
        if log.kind == "browser" and hasattr(log, "final_points"):
            log.foreign = len({(round(x, 3), round(y, 3)) for x, y in log.final_points} & added)
    return logs


@dataclass
class ClassLoad:
    sessions: int
    browsers: int
    duration: float
    interval: float
    logs: list
    cpu_s: float
    load_before: str
    load_after: str
    rss_mb: float

    @property
    def latencies(self):
        return [ms for log in self.logs for ms in log.latencies_ms]

    def summary(self):
        lat = self.latencies
        return {
            "clicks": sum(log.clicks for log in self.logs),
            "repainted": len(lat),
            "p50": percentile(lat, 50),
            "p90": percentile(lat, 90),
            "p99": percentile(lat, 99),
            "max": max(lat) if lat else float("nan"),
            "browser p50": percentile(
                [ms for log in self.logs if log.kind == "browser" for ms in log.latencies_ms], 50
            ),
            "light p50": percentile([ms for log in self.logs if log.kind == "light" for ms in log.latencies_ms], 50),
            "lost": sum(log.lost for log in self.logs),
            "hit a point": sum(log.removed for log in self.logs),
            "foreign": sum(log.foreign for log in self.logs),
            "errors": sum(len(log.errors) for log in self.logs),
        }


def class_load(url=None, server=None, *, sessions=30, browsers=3, duration=120.0, interval=2.0):
    """``sessions`` sessions (``browsers`` of them real pages) clicking every ``interval`` s for
    ``duration`` s against one server (``url``, or a fresh one)."""
    from contextlib import nullcontext

    context = nullcontext(server) if url or server else streamlit()
    with context as running:
        target = url or running.url
        before = running.cpu_seconds() if running else 0.0
        load_before = loadavg()
        logs = asyncio.run(_class_load(target, sessions, browsers, duration, interval))
        cpu = (running.cpu_seconds() - before) if running else float("nan")
        rss = running.rss(tree=True) / 2**20 if running else float("nan")
    return ClassLoad(sessions, browsers, duration, interval, logs, cpu, load_before, loadavg(), rss)


def run_class(quick=False, log=print):
    sessions, browsers, duration = (10, 1, 30.0) if quick else (30, 3, 120.0)
    log(f"  {sessions} sessions ({browsers} browser pages) clicking every 2 s for {duration:.0f} s (load {loadavg()})")
    result = class_load(sessions=sessions, browsers=browsers, duration=duration, interval=2.0)
    summary = result.summary()
    log("    " + ", ".join(f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}" for k, v in summary.items()))
    return {
        "sessions": sessions,
        "browsers": browsers,
        "duration": duration,
        "summary": summary,
        "cpu_s": result.cpu_s,
        "rss_mb": result.rss_mb,
        "load before": result.load_before,
        "load after": result.load_after,
        "errors": [e for log_ in result.logs for e in log_.errors][:10],
        "per session": [
            (log_.name, log_.clicks, len(log_.latencies_ms), log_.lost, log_.foreign, log_.errors[:3])
            for log_ in result.logs
        ],
    }
