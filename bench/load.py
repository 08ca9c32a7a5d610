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

The heavy settings are in ``bench.load_heavy``, the class on one server in ``bench.load_class``,
what they share (links to generated scenes, click spots, click latencies) in ``bench.load_common``;
this module measures the rest and runs them all for ``python -m bench --load``. Its names that
other modules and tests import from here stay importable from here.
"""

import asyncio
import statistics
import time

from bench.client import Session
from bench.load_class import class_load, run_class
from bench.load_common import MEANS, _click_latencies, click_spot, link_query, loadavg, percentile
from bench.load_heavy import heavy
from bench.server import streamlit
from playground import ClusterSpec, make_clusters
from playground.scene import PointSet

# What this module offers: its own measurements, and the shared names bench.crowd, bench.drag,
# bench.__main__ and the tests import from here.
__all__ = [
    "_click_latencies",
    "class_load",
    "click_spot",
    "defaults_within_budget",
    "heavy",
    "interactions",
    "link_query",
    "loadavg",
    "memory",
    "percentile",
    "run_all",
    "run_class",
    "run_memory",
    "scene_footprint",
]


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
    from ui.engine.cache import approx_bytes
    from ui.engine.workers import fit_scene

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
    from ui.engine.workers import MAX_RECORDED_STEPS

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
