"""Load benchmarks: what one server does for a class, measured from outside the server process.

- ``interactions``: server CPU time per interaction at N = 90 (click, method switch, strategy
  switch, undo, tab open, preset load) and how long each takes to settle, driven by a light
  websocket client (``bench.client``); CPU from /proc (``bench.server``).
- ``heavy``: for each expensive setting a visitor can send in a link, how long the server's CPU
  is held, what a second session's clicks cost meanwhile (against the same clicks on an idle
  server), what a second identical request costs, and whether closing the page stops the work.
- ``class_load``: many sessions (a few real browser pages, the rest light clients) clicking every
  2 s against one server: click-to-repaint percentiles, errors, lost clicks, isolation.
- ``memory``: RSS per open session and after sessions close; a 20,000-point scene's footprint.
"""

import asyncio
import os
import statistics
import time
from dataclasses import dataclass, field

import numpy as np

from bench.client import Session
from bench.server import streamlit
from playground import ClusterSpec, make_clusters
from playground.grid import Window
from playground.link import encode_scene
from playground.scene import PointSet, Scene

MEANS = [(-2.0, 0.0), (2.0, 0.5), (0.0, 3.0), (3.0, 3.5), (-3.0, 3.0), (0.0, -3.0)]


def loadavg():
    return " / ".join(f"{v:.1f}" for v in os.getloadavg())


def percentile(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


def link_query(
    n_classes,
    n_points,
    *,
    method,
    params=None,
    multiclass="native",
    basis="identity",
    basis_params=None,
    scale=(1.0, 1.0),
    compare=None,
    seed=3,
):
    """The query string of a link to a generated scene (as the app would write it)."""
    per_class = n_points // n_classes
    specs = [ClusterSpec(MEANS[k], (1.6, 1.2), 30.0 * k) for k in range(n_classes)]
    X, y = make_clusters(specs, per_class, seed=seed)
    X = X * np.asarray(scale)
    points = PointSet.from_arrays(X, y)
    scene = Scene(points=points, window=Window.around(X)).with_method(method, params or {}, multiclass)
    scene = scene.with_basis(basis, basis_params or {})
    query = encode_scene(scene)
    if compare:
        query["cmp"] = ",".join(compare)
    from urllib.parse import urlencode

    return urlencode(query)


HEAVY = {
    "gradient descent, 5,000 steps (the sidebar's maximum; a link's 100,000 is clipped to it), "
    "degree-6 basis, 5,000 points": dict(
        n_classes=2,
        n_points=5_000,
        method="logistic",
        params={"solver": "gd", "max_iter": 5_000, "learning_rate": 0.001},
        basis="polynomial",
        basis_params={"degree": 6},
    ),
    "SVM on badly scaled data (x in ±2e4, y in ±2e-3), C = 1000, 5,000 points": dict(
        n_classes=2,
        n_points=5_000,
        method="svm",
        params={"C": 1000.0},
        scale=(1e4, 1e-3),
    ),
    "degree-6 polynomial basis, softmax (IRLS), 3 classes, 5,000 points": dict(
        n_classes=3,
        n_points=5_000,
        method="softmax",
        basis="polynomial",
        basis_params={"degree": 6},
    ),
    "six classes one-versus-one (15 SVMs), 5,000 points": dict(
        n_classes=6,
        n_points=5_000,
        method="svm",
        multiclass="ovo",
        params={"C": 1000.0},
    ),
    "Compare view: perceptron, SVM, logistic, softmax on a degree-6 basis, 6 classes, 5,000 points": dict(
        n_classes=6,
        n_points=5_000,
        method="perceptron",
        params={"max_epochs": 500},
        basis="polynomial",
        basis_params={"degree": 6},
        compare=["perceptron", "svm", "logistic", "softmax"],
    ),
    "issue 19's link: 6 classes one-versus-one, degree-6 basis, perceptron at 500 epochs, 5,000 points": dict(
        n_classes=6,
        n_points=5_000,
        method="perceptron",
        multiclass="ovo",
        params={"max_epochs": 500},
        basis="polynomial",
        basis_params={"degree": 6},
    ),
}


async def _click_latencies(session, n, spacing=0.3, timeout=300.0, until=None):
    """Click ``n`` times (or until ``until()`` holds), each once the previous has drawn; ms each
    (a click that never draws counts as ``timeout``, and ends the series)."""
    latencies = []
    k = 0
    while k < n and not (until is not None and until()):
        expected = session.canvas.n_points + 1
        started = time.perf_counter()
        await session.click(-4.0 + 0.01 * (session.requests % 800), 4.5 - 0.001 * k)
        try:
            await session.wait_for(lambda s, expected=expected: s.canvas.n_points >= expected, timeout)
            latencies.append((time.perf_counter() - started) * 1000)
            await session.wait_idle(timeout)
        except TimeoutError:
            latencies.append(timeout * 1000)
            break
        await asyncio.sleep(spacing)
        k += 1
    return latencies


@dataclass
class HeavyRow:
    setting: str
    wall_s: float = 0.0  # the heavy page's open -> idle
    cpu_s: float = 0.0  # CPU of the server and its workers meanwhile (minus the prober's clicks, roughly)
    idle_ms: float = 0.0  # the second session's click median on the idle server
    during_ms: list = field(default_factory=list)  # its clicks while the heavy page loads
    repeat_s: float = 0.0  # a second identical request: open -> idle
    repeat_cpu_s: float = 0.0
    after_close_cpu_s: float = 0.0  # CPU in the 5 s after a heavy page was closed 1 s into its work
    rss_mb: float = 0.0
    note: str = ""
    load: str = ""

    @property
    def during_median(self):
        return statistics.median(self.during_ms) if self.during_ms else float("nan")

    @property
    def during_max(self):
        return max(self.during_ms) if self.during_ms else float("nan")


async def _heavy_case(server, name, spec):
    spec = dict(spec)
    compare = spec.pop("compare", None)
    query = link_query(**spec, compare=compare)
    row = HeavyRow(name, load=loadavg())
    prober = await Session.open(server.url)
    row.idle_ms = statistics.median(await _click_latencies(prober, 8))
    before = server.cpu_seconds()
    started = time.perf_counter()
    heavy = Session(server.url, query)
    await heavy.connect()
    await heavy.rerun(query_string=query)
    done = asyncio.get_running_loop().create_task(heavy.wait_idle(600, quiet=1.0))
    row.during_ms = await _click_latencies(prober, 10_000, spacing=0.2, until=done.done)
    await done
    row.wall_s = time.perf_counter() - started - 1.0  # less the quiet second that ends wait_idle
    row.cpu_s = server.cpu_seconds() - before
    row.note = "; ".join(heavy.errors)[:200]
    await heavy.close()
    # The same link again (a reload, a second student): served from the cache?
    before = server.cpu_seconds()
    started = time.perf_counter()
    again = await Session.open(server.url, query, timeout=600)
    await again.wait_idle(600, quiet=1.0)
    row.repeat_s = time.perf_counter() - started - 1.0
    row.repeat_cpu_s = server.cpu_seconds() - before
    await again.close()
    await prober.close()
    row.rss_mb = server.rss(tree=True) / 2**20
    return row


async def _closed_page_case(server, spec):
    """Open a heavy link, close the page 1 s later: CPU the server tree spends in the next 5 s."""
    spec = dict(spec)
    compare = spec.pop("compare", None)
    query = link_query(**spec, compare=compare)
    warm = await Session.open(server.url)  # the first run of a fresh server imports the app: not measured
    await warm.close()
    heavy = Session(server.url, query)
    await heavy.connect()
    await heavy.rerun(query_string=query)
    await asyncio.sleep(2.0)
    busy_before = server.cpu_seconds()
    await asyncio.sleep(1.0)
    busy = server.cpu_seconds() - busy_before  # CPU in the second before closing: it was working
    await heavy.close()
    await asyncio.sleep(1.0)
    before = server.cpu_seconds()
    await asyncio.sleep(5.0)
    return busy, server.cpu_seconds() - before


def heavy(root=None, log=print, only=None):
    """One row per heavy setting, each on a fresh server (no cache carried over)."""
    from bench.server import ROOT

    rows = []
    for name, spec in HEAVY.items():
        if only and only not in name:
            continue
        with streamlit(root or ROOT) as server:
            row = asyncio.run(_heavy_case(server, name, spec))
        rows.append(row)
        log(format_heavy(row))
    with streamlit(root or ROOT) as server:
        spec = HEAVY[[n for n in HEAVY if n.startswith("issue 19")][0]]
        closed = asyncio.run(_closed_page_case(server, spec))
    log(
        f"closed page: {closed[0]:.1f} s of CPU in the second before it closed, {closed[1]:.1f} s in the 5 s "
        "from 1 s after it closed"
    )
    return rows, closed


def format_heavy(row):
    return (
        f"{row.setting[:60]:60} wall {row.wall_s:6.1f} s  cpu {row.cpu_s:6.1f} s  second session: idle "
        f"{row.idle_ms:5.0f} ms, during median {row.during_median:6.0f} ms max {row.during_max:6.0f} ms "
        f"({len(row.during_ms)} clicks)  again {row.repeat_s:5.1f} s / {row.repeat_cpu_s:4.1f} s cpu  "
        f"rss {row.rss_mb:6.0f} MB  load {row.load} {row.note}"
    )


# ---- a class on one server --------------------------------------------------------------------


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


def click_spot(session_index, k):
    """Data coordinates of session ``session_index``'s k-th click: distinct across all sessions."""
    return -4.5 + 0.3 * (session_index % 30) + 0.004 * (k % 60), -3.4 + 0.11 * (k % 60) + 0.003 * (session_index // 30)


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


# ---- memory -----------------------------------------------------------------------------------


async def _open_close(url, clicks=3):
    session = await Session.open(url, timeout=300)
    for k in range(clicks):
        expected = session.canvas.n_points + 1
        await session.click(*click_spot(7, k))
        await session.wait_for(lambda s, expected=expected: s.canvas.n_points >= expected, 60)
    await session.wait_idle(60)
    await session.close()


async def _memory(server, n_sessions, ttl):
    await _open_close(server.url)  # the first session imports the app: part of the baseline
    await asyncio.sleep(ttl + 2)
    await _open_close(server.url, clicks=0)  # expires the stored session
    await asyncio.sleep(2)
    baseline = server.rss()
    series = []
    for _ in range(n_sessions):
        await _open_close(server.url)
        series.append(server.rss())
    # Streamlit keeps a closed session for ``server.disconnectedSessionTTL`` s (a network blip
    # may bring its page back); after that, the next disconnect drops it.
    await asyncio.sleep(ttl + 2)
    await _open_close(server.url, clicks=0)
    await asyncio.sleep(2)
    after = server.rss()
    # Open sessions: RSS per open session.
    opened = []
    for _ in range(10):
        opened.append(await Session.open(server.url, timeout=300))
    with_open = server.rss()
    for session in opened:
        await session.close()
    return baseline, series, after, (with_open - after) / len(opened)


def memory(root=None, n_sessions=20, ttl=120):
    """RSS baseline, after each of ``n_sessions`` sessions opened and closed in sequence, after
    their stored state expired, and per open session."""
    from bench.server import ROOT

    with streamlit(root or ROOT, args=(f"--server.disconnectedSessionTTL={ttl}",)) as server:
        return asyncio.run(_memory(server, n_sessions, ttl))


def scene_footprint(n_points=20_000, edits=5):
    """Bytes a session holds for an n-point scene: its point set, its undo history after
    ``edits`` edits, the fitted model and the canvas's view (measured in-process)."""
    from playground.scene import History
    from ui.session.cache import approx_bytes
    from ui.session.workers import fit_scene

    per_class = n_points // 4
    specs = [ClusterSpec(MEANS[k], (1.6, 1.2), 30.0 * k) for k in range(4)]
    X, y = make_clusters(specs, per_class, seed=3)
    points = PointSet.from_arrays(X, y)
    history = History()
    current = points
    for k in range(edits):  # each edit removes a point (the scene is at the 20,000-point limit)
        history = history.pushed(current)
        current = current.removed([k])
    model, _ = fit_scene(current.X, current.y, "logistic", (), "ovr", "identity", ())
    return {
        "points": approx_bytes(points),
        "undo history": history.nbytes,
        "model": approx_bytes(model),
    }


# ---- CPU per interaction ----------------------------------------------------------------------

INTERACTIONS = ("click", "method switch", "strategy switch", "undo", "tab open", "preset load")


async def _settle(session, action):
    """Run ``action`` (a coroutine function); seconds from sending it until the last script run it
    caused has finished."""
    first = len(session.runs)
    started = time.perf_counter()
    await action()
    await session.wait_idle(120, quiet=0.4)
    finished = [run.finished for run in session.runs[first:] if run.finished is not None]
    return (max(finished) if finished else time.perf_counter()) - started


async def _interactions(server, repeats):
    session = await Session.open(server.url, timeout=300)
    results = {}

    async def measure(name, actions):
        before = server.cpu_seconds()
        settles = [await _settle(session, action) for action in actions]
        cpu = server.cpu_seconds() - before
        results[name] = (1000 * cpu / len(actions), 1000 * statistics.median(settles), len(actions))

    for _ in range(3):  # warm-up: the first runs of each path compile and import
        await _settle(session, lambda: session.click(*click_spot(0, 0)))
    clicks = [(lambda k=k: session.click(*click_spot(1, k))) for k in range(repeats)]
    await measure("click", clicks)
    methods = [o for o in session.options("method") if o.startswith(("Least squares", "Logistic regression"))]
    await measure(
        "method switch", [(lambda m=methods[k % 2]: session.set_widget("method", m)) for k in range(1, repeats + 1)]
    )
    strategies = session.options("multiclass")[:2]
    await measure(
        "strategy switch",
        [(lambda m=strategies[k % 2]: session.set_widget("multiclass", m)) for k in range(1, repeats + 1)],
    )
    await measure("undo", [(lambda: session.press("↶ Undo")) for _ in range(repeats)])
    titles = list(session.tab_labels)[:2]
    await measure(
        "tab open", [(lambda t=titles[k % 2]: session.set_widget("panel_tab", t)) for k in range(1, repeats + 1)]
    )
    presets = [key for key in session.widgets if key.startswith("preset_fig")][:2]
    await measure("preset load", [(lambda p=presets[k % 2]: session.press(p)) for k in range(repeats)])
    errors = list(session.errors)
    await session.close()
    return results, errors


def interactions(root=None, repeats=20):
    """{interaction: (server CPU ms per interaction, median settle ms, count)} at N = 90."""
    from bench.server import ROOT

    with streamlit(root or ROOT) as server:
        return asyncio.run(_interactions(server, repeats))


# ---- everything, for python -m bench --load ------------------------------------------------------


def run_all(root=None, *, quick=False, log=print, skip_heavy=False):
    """The load section's measurements on the playground in ``root``: a dict (JSON-ready)."""
    from bench.server import ROOT

    root = root or ROOT
    out = {"root": str(root), "load at start": loadavg()}
    log(f"  CPU per interaction at N = 90 (load {loadavg()})")
    results, errors = interactions(root, repeats=8 if quick else 30)
    out["interactions"] = {name: list(values) for name, values in results.items()}
    out["interaction errors"] = errors
    for name, (cpu, settle, count) in results.items():
        log(f"    {name:16} {cpu:6.1f} ms CPU   settles in {settle:5.0f} ms (median of {count})")
    log(f"  The sidebar's default iterations against the budget, 5,000 points (load {loadavg()})")
    out["defaults"] = [list(row) for row in defaults_within_budget(log=log)]
    if not skip_heavy:
        log("  Heavy settings, each on a fresh server")
        rows, closed = heavy(root, log=lambda line: log("    " + line))
        out["heavy"] = [
            row.__dict__ | {"during_median": row.during_median, "during_max": row.during_max} for row in rows
        ]
        out["closed page"] = list(closed)
    return out


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


def run_memory(quick=False, log=print):
    ttl = 10 if quick else 120
    log(f"  Memory: 20 sessions opened and closed in sequence (disconnectedSessionTTL {ttl} s; load {loadavg()})")
    baseline, series, after, per_open = memory(n_sessions=20, ttl=ttl)
    footprint = scene_footprint()
    each = ", ".join(f"{v / 2**20:.0f}" for v in series)
    log(
        f"    baseline {baseline / 2**20:.0f} MB; after each session {each} MB; "
        f"after expiry {after / 2**20:.0f} MB; {per_open / 2**20:.1f} MB per open session"
    )
    return {
        "ttl": ttl,
        "baseline": baseline,
        "series": series,
        "after": after,
        "per_open": per_open,
        "footprint": footprint,
        "load": loadavg(),
    }


def defaults_within_budget(seconds=2.0, log=print):
    """Each iterative method at the sidebar's default settings on 5,000 points (2 and 6 classes,
    without and with a degree-6 basis), fitted in this process under the app's budget: how long
    it took and whether the budget stopped it. The defaults should fit the budget."""
    from playground.basis import make_basis
    from playground.budget import limited
    from ui.session.compute import MAX_RECORDED_STEPS

    defaults = {
        "perceptron": {"max_epochs": 100},
        "logistic": {"solver": "irls", "max_iter": 100},
        "logistic (gradient descent)": {"solver": "gd", "max_iter": 1000, "learning_rate": 0.1},
        "softmax": {"solver": "irls", "max_iter": 100},
        "svm": {"C": 1.0},
    }
    rows = []
    for k, basis in ((2, None), (6, None), (2, 6), (6, 6)):
        specs = [ClusterSpec(MEANS[c], (1.6, 1.2), 30.0 * c) for c in range(k)]
        X, y = make_clusters(specs, 5_000 // k, seed=3)
        for label, params in defaults.items():
            method = label.split(" ")[0]
            strategy = "ovr" if k > 2 and method in ("perceptron", "logistic", "svm") else "native"
            phi = make_basis("polynomial", degree=basis) if basis else None
            from playground import make_model

            model = make_model(method, multiclass=strategy, basis=phi, **params)
            started = time.perf_counter()
            with limited(seconds, MAX_RECORDED_STEPS) as budget:
                model.fit(X, y)
            elapsed = time.perf_counter() - started
            stopped = ", ".join(sorted(budget.reasons)) or "—"
            rows.append((label, k, f"degree {basis}" if basis else "none", elapsed, stopped))
            log(f"    {label:28} K={k} basis={basis or '-':>2}: {elapsed:5.2f} s, stopped: {stopped}")
    return rows
