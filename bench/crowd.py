"""``python -m bench crowd``: a class opening the lecturer's heavy link at once.

- *alone*: on a fresh server, one page opens the heavy link; seconds until its canvas shows the
  scene and until the page settles (nothing more arrives for a second).
- *crowd*: on another fresh server, a prober page on the default scene clicks all along (each
  click once the previous one has drawn); ``--pages`` pages then open the same heavy link at
  once. Each page's seconds, the fits the server and its workers ran for the link (counted by
  ``PLAYGROUND_FIT_LOG``: one line per ``ui.engine.workers.fit_scene`` call, in any process), and the
  prober's click-to-redraw while the pages load.

Targets (not timed tests): every crowd page settles within 2x the page alone, the link is fitted
once, and the prober's p90 click-to-redraw stays <= 1 s. Pages are light websocket clients
(``bench.client``), as in the load benchmarks. ``--points`` picks a lighter link for a busy machine.

``--browsers``: the pages are real Chromium pages on this machine instead (one alone, then
``--pages`` at once, each on a fresh server, the light prober clicking meanwhile): their
rendering shares the cores with the server, as on a machine that serves and browses at once.
"""

import argparse
import asyncio
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from bench import report
from bench.client import Session
from bench.load import _click_latencies, link_query, loadavg, percentile
from bench.server import ROOT, streamlit

SVM_TAB = "Support vector machine (§7.1)"
SHARED_WAIT = "started by another visitor"  # in the progress box of a page waiting for another's fit
HEADING = "## Crowd"  # its section of BENCHMARKS.md (written by hand from runs' output; a full run keeps it)
CLASSES = 3


def points_of(n_points):
    """How many points the link holds (its generator draws as many from each class)."""
    return CLASSES * (n_points // CLASSES)


def heavy_query(n_points=5_000, centres=100):
    """The heavy link: SVM with C = 1000, one-versus-one on 3 classes, ``centres`` RBF centres of
    width 0.1, the SVM panel open."""
    query = link_query(
        CLASSES,
        n_points,
        method="svm",
        params={"C": 1000.0},
        multiclass="ovo",
        basis="rbf",
        basis_params={"n_centres": centres, "width": 0.1},
    )
    return query + "&" + urlencode({"tab": SVM_TAB})


@dataclass
class Page:
    shown_s: float = float("nan")  # request -> the canvas's last drawing of the link
    settled_s: float = float("nan")  # request -> nothing more arrived for a second
    n_points: int = -1
    saw_progress: bool = False
    told_shared: bool = False  # its progress box said it waits for a fit another visitor started
    alerts: list = field(default_factory=list)
    errors: list = field(default_factory=list)


async def _open(url, query, expected, timeout):
    """Open the link in a new page; a ``Page`` with its timings."""
    session = Session(url, query)
    page = Page()
    await session.connect(timeout)
    started = time.perf_counter()
    await session.rerun(query_string=query)
    try:
        await session.wait_for(lambda s: s.canvas.n_points >= expected, timeout)
        await session.wait_idle(timeout, quiet=1.0)
        page.settled_s = time.perf_counter() - started - 1.0
        page.shown_s = session.canvas.received_at - started
    except TimeoutError as err:
        page.errors.append(f"timeout: {err}")
    page.n_points = session.canvas.n_points
    page.saw_progress = bool(getattr(session, "saw_progress", False))
    page.told_shared = any(SHARED_WAIT in text for text in getattr(session, "progress_texts", ()))
    page.alerts, page.errors = list(session.alerts), page.errors + list(session.errors)
    await session.close()
    return page


def fits_of(log_path, n_points):
    """How many fits of an ``n_points``-point scene the fit log holds."""
    if not Path(log_path).exists():
        return 0
    lines = Path(log_path).read_text().splitlines()
    return sum(1 for line in lines if line.split()[-1] == str(n_points))


async def _alone(url, query, n_points, timeout):
    warm = await Session.open(url)  # the first run imports the app: not measured
    await warm.close()
    return await _open(url, query, n_points, timeout)


async def _crowd(url, query, n_points, pages, timeout):
    prober = await Session.open(url)
    idle = await _click_latencies(prober, 8)
    crowd = asyncio.gather(*[_open(url, query, n_points, timeout) for _ in range(pages)])
    crowd = asyncio.ensure_future(crowd)
    during = await _click_latencies(prober, 100_000, spacing=0.3, until=crowd.done, timeout=60.0)
    opened = await crowd
    await prober.close()
    return opened, idle, during


def run(root=ROOT, n_points=5_000, pages=8, timeout=600.0, log=print, centres=100):
    """{"alone": Page, "crowd": [Page], "fits alone", "fits crowd", "idle ms", "during ms", ...}."""
    query = heavy_query(n_points, centres)
    n_points = points_of(n_points)
    out = {"root": str(root), "points": n_points, "centres": centres, "pages": pages, "load at start": loadavg()}
    with tempfile.TemporaryDirectory() as tmp:
        fit_log = Path(tmp) / "fits-alone.log"
        with streamlit(root, env={"PLAYGROUND_FIT_LOG": str(fit_log)}) as server:
            out["alone"] = asyncio.run(_alone(server.url, query, n_points, timeout))
        out["fits alone"] = fits_of(fit_log, n_points)
        log(f"  alone: {format_page(out['alone'])}, {out['fits alone']} fit(s)  (load {loadavg()})")
        fit_log = Path(tmp) / "fits-crowd.log"
        with streamlit(root, env={"PLAYGROUND_FIT_LOG": str(fit_log)}) as server:
            before = server.cpu_seconds()
            opened, idle, during = asyncio.run(_crowd(server.url, query, n_points, pages, timeout))
            out["crowd cpu s"] = server.cpu_seconds() - before
        out["crowd"], out["idle ms"], out["during ms"] = opened, idle, during
        out["fits crowd"] = fits_of(fit_log, n_points)
    out["load at end"] = loadavg()
    for line in summary_lines(out):
        log("  " + line)
    return out


READY_JS = "(n) => { const r = document.querySelector('.pg-canvas'); return r && Number(r.dataset.points) === n; }"


async def _browser_page(browser, url, query, expected, timeout):
    """Seconds from opening the link in a Chromium page until its canvas draws all its points."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = await context.new_page()
        started = time.perf_counter()
        await page.goto(f"{url}/?{query}" if query else url)
        await page.wait_for_function(READY_JS, arg=expected, timeout=timeout * 1000)
        return time.perf_counter() - started
    finally:
        await context.close()


async def _browser_pages(server, query, n_points, pages, timeout, *, prober=True):
    """(seconds of each of ``pages`` Chromium pages opening the link at once, server tree CPU s,
    the light prober's click latencies meanwhile: none without ``prober``)."""
    from playwright.async_api import async_playwright

    from tests.browser import CHROMIUM_ARGS, chromium_path

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            # The server's first run imports the app; the browser's first page fills its caches.
            await _browser_page(
                browser, server.url, query if not prober else "", n_points if not prober else 90, timeout
            )
            session = await Session.open(server.url) if prober else None
            before = server.cpu_seconds()
            opening = [_browser_page(browser, server.url, query, n_points, timeout) for _ in range(pages)]
            crowd = asyncio.ensure_future(asyncio.gather(*opening))
            during = []
            if session is not None:
                during = await _click_latencies(session, 100_000, spacing=0.3, until=crowd.done, timeout=60.0)
            seconds = await crowd
            cpu = server.cpu_seconds() - before
            if session is not None:
                await session.close()
        finally:
            await browser.close()
    return seconds, cpu, during


def run_browsers(root=ROOT, n_points=5_000, pages=8, timeout=600.0, log=print, centres=100):
    """The same link in real Chromium pages on this machine: one page alone, then ``pages`` at
    once, each on a fresh server; the pages' rendering shares the cores with the server.

    The floor, measured in the same run the same way: ``bench/floor_app.py`` drawing as many points
    on the same canvas component, with no fit, regions, sidebar or panels. Its ratio (``pages`` at
    once against one alone) is what Streamlit's front-end and the canvas cost eight browsers on
    these cores whatever the app does; the app's ratio is read against it."""
    query, n_points = heavy_query(n_points, centres), points_of(n_points)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for count in (1, pages):
            with streamlit(root, script="bench/floor_app.py") as server:
                seconds, cpu, _ = asyncio.run(
                    _browser_pages(server, f"points={n_points}", n_points, count, timeout, prober=False)
                )
            out[("floor", count)] = (seconds, cpu)
            log(f"  floor, {count} browser page(s): shown in {_seconds(seconds)} s; server tree CPU {cpu:.1f} s")
        for count in (1, pages):
            fit_log = Path(tmp) / f"fits-{count}.log"
            with streamlit(root, env={"PLAYGROUND_FIT_LOG": str(fit_log)}) as server:
                seconds, cpu, during = asyncio.run(_browser_pages(server, query, n_points, count, timeout))
            out[count] = (seconds, cpu, fits_of(fit_log, n_points), during)
            log(
                f"  app, {count} browser page(s): shown in {_seconds(seconds)} s; server tree CPU {cpu:.1f} s; "
                f"{out[count][2]} fit(s); prober p90 {percentile(during, 90):.0f} ms of {len(during)} clicks "
                f"(load {loadavg()})"
            )
    floor = max(out[("floor", pages)][0]) / out[("floor", 1)][0][0]
    app = max(out[pages][0]) / out[1][0][0]
    log(f"  worst of {pages} / alone: app {app:.2f}, floor {floor:.2f}; app's ratio / floor's {app / floor:.2f}")
    return out


def _seconds(values):
    return ", ".join(f"{s:.1f}" for s in values)


def format_page(page):
    note = "; ".join(page.errors)[:160]
    return f"shown {page.shown_s:6.1f} s, settled {page.settled_s:6.1f} s{'  ' + note if note else ''}"


def summary_lines(out):
    alone, crowd, during = out["alone"], out["crowd"], out["during ms"]
    settled = [p.settled_s for p in crowd]
    shown = [p.shown_s for p in crowd]
    worst = max(settled) if settled else float("nan")
    p90 = percentile(during, 90)
    return [
        f"{out['pages']} pages, one link of {out['points']:,} points and {out['centres']} centres: "
        f"shown {min(shown):.1f}-{max(shown):.1f} s, "
        f"settled {min(settled):.1f}-{worst:.1f} s (alone: shown {alone.shown_s:.1f} s, settled "
        f"{alone.settled_s:.1f} s); worst / alone = {worst / alone.settled_s:.2f} (target <= 2)",
        f"fits of the link: {out['fits crowd']} for {out['pages']} pages (alone: {out['fits alone']}; target 1)",
        f"prober clicks meanwhile: {len(during)}, median {statistics.median(during) if during else float('nan'):.0f} "
        f"ms, p90 {p90:.0f} ms, max {max(during, default=float('nan')):.0f} ms (idle median "
        f"{statistics.median(out['idle ms']):.0f} ms; target p90 <= 1000 ms)",
        f"server tree CPU during the crowd {out['crowd cpu s']:.1f} s; pages that saw a progress bar "
        f"{sum(p.saw_progress for p in crowd)}, told they wait for another visitor's fit "
        f"{sum(p.told_shared for p in crowd)}; errors {sum(len(p.errors) for p in crowd)}; "
        f"load {out['load at start']} -> {out['load at end']}",
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench crowd", description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=5_000, help="points of the heavy link (default 5,000)")
    parser.add_argument("--centres", type=int, default=100, help="RBF centres (default 100; 1 to 100)")
    parser.add_argument("--pages", type=int, default=8, help="pages opening it at once (default 8)")
    parser.add_argument("--root", default=str(ROOT), help="the checkout to serve (e.g. the code before a change)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds a page may take")
    parser.add_argument("--browsers", action="store_true", help="real Chromium pages instead of light clients")
    parser.add_argument("--compare-with", default=None, help="another checkout, measured in turn with this one")
    parser.add_argument("--rounds", type=int, default=1, help="rounds (with --compare-with: alternating checkouts)")
    args = parser.parse_args(argv)
    roots = [Path(args.root)] + ([Path(args.compare_with)] if args.compare_with else [])
    for index in range(args.rounds):
        for root in roots:
            print(f"Crowd, round {index + 1}: {args.pages} pages open one heavy link ({root}; load {loadavg()})")
            measure = run_browsers if args.browsers else run
            measure(root, args.points, args.pages, args.timeout, centres=args.centres)


def with_section(text, section):
    """``text`` (BENCHMARKS.md) with its crowd section replaced by ``section`` (or inserted before
    ## Summary or at the end)."""
    return report.with_markdown_section(text, HEADING, section, before=("## Summary",))


def section_of(text):
    """The crowd section of an existing BENCHMARKS.md, or None."""
    return report.markdown_section(text, HEADING)
