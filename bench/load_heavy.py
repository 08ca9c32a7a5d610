"""The heavy settings a visitor can send in a link (``HEAVY``, the scenarios), and what each costs:
for each, on a fresh server, how long the server's CPU is held, what a second session's clicks cost
meanwhile (against the same clicks on an idle server), what a second identical request costs, and
whether closing the page stops the work.

Rules: one fresh server per setting (no cache carried over from another); the prober session
clicks on the default scene, so its times compare across settings.
"""

import asyncio
import statistics
import time
from dataclasses import dataclass, field

from bench.client import Session
from bench.load_common import _click_latencies, link_query, loadavg
from bench.server import streamlit

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
