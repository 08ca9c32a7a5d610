"""A class on one server, briefly (python -m bench --load runs the long version).

- Several sessions click at once, light websocket clients and a real browser page: every click
  is drawn (no click lost), and no session ever sees another's points.
- A heavy link: fitted in a worker under the budget with progress shown, the same link opened
  again is served from the cache, and a page closed (or a connection dropped) mid-fit stops the work.
- Memory returns after sessions close; a page whose server restarts reconnects to the same scene.
"""

import asyncio
import time

import numpy as np
import pytest

from bench import load
from bench.client import Session
from bench.frontend import EMPTY_SPOT_JS
from bench.server import children, streamlit
from tests.browser import ARTIFACTS, CANVAS_STATE_JS, CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.browser


def test_sessions_click_at_once_without_losing_clicks_or_seeing_each_other():
    with streamlit() as server:
        result = load.class_load(server=server, sessions=7, browsers=1, duration=12.0, interval=1.0)
    summary = result.summary()
    lines = [f"{key}: {value}" for key, value in summary.items()]
    (ARTIFACTS / "load-short.txt").write_text("\n".join(lines) + "\n")
    for log in result.logs:
        assert not log.errors, f"{log.name}: {log.errors[:3]}"
        assert log.clicks >= 3, f"{log.name} clicked {log.clicks} times"
        assert log.lost == 0, f"{log.name} lost {log.lost} clicks"
        assert log.foreign == 0, f"{log.name} saw {log.foreign} points of other sessions"
        assert len(log.latencies_ms) == log.clicks


HEAVY = dict(
    n_classes=6,
    n_points=1_200,
    method="perceptron",
    multiclass="ovo",
    params={"max_epochs": 500},
    basis="polynomial",
    basis_params={"degree": 6},
)


def _worker_cpu(server):
    return server.cpu_seconds() - server.cpu_seconds(tree=False)


async def _heavy_link(server):
    warm = await Session.open(server.url, timeout=300)
    await warm.close()
    rss_before = server.rss()
    query = load.link_query(**HEAVY)
    first = await Session.open(server.url, query, timeout=300)
    await first.wait_idle(300)
    progress_shown = any(kind == "progress" for _, kind, _ in first.widgets.values()) or first.saw_progress
    note = first.alerts
    await first.close()
    # The same link again: from the cache, no fit, no progress box.
    second = await Session.open(server.url, query, timeout=300)
    await second.wait_idle(300)
    assert not second.saw_progress, "the same link was fitted again"
    assert second.canvas.points() == first.canvas.points()
    await second.close()
    # A variant nobody fitted yet, closed mid-fit; and one whose connection just drops.
    stopped = []
    for seed, how in ((11, "close"), (12, "drop")):
        query = load.link_query(**HEAVY, seed=seed)
        page = Session(server.url, query)
        await page.connect()
        await page.rerun(query_string=query)
        await page.wait_for(lambda s: s.saw_progress, 300)
        await asyncio.sleep(0.5)
        if how == "close":
            await page.close()
        else:
            page._socket.transport.abort()  # a browser killed mid-request
            await page.close()
        await asyncio.sleep(4.0)  # the lease (1.5 s) lapses, the worker is told to stop
        before = _worker_cpu(server)
        await asyncio.sleep(2.0)
        stopped.append(_worker_cpu(server) - before)
    growth = server.rss() - rss_before
    (ARTIFACTS / "load-heavy.txt").write_text(
        f"server RSS grew by {growth / 2**20:.0f} MB over three heavy links (cache bound 64 MB); "
        f"worker CPU after the pages went: {stopped} s\n"
    )
    return progress_shown, note, stopped, growth


def test_heavy_link_runs_in_a_worker_is_shared_and_stops_with_its_page():
    with streamlit(env={"PLAYGROUND_FIT_SECONDS": "2", "PLAYGROUND_CACHE_MB": "64"}) as server:
        progress_shown, note, stopped, growth = asyncio.run(_heavy_link(server))
        assert children(server.pid), "no worker process was started"
    assert progress_shown
    assert any("stopped" in text.lower() for text in note), note  # the budget (time or steps) ended the fit
    assert all(cpu < 0.3 for cpu in stopped), f"workers kept computing after the page went: {stopped} s"
    # Histories are capped per fit and the shared cache is bounded (here 64 MB): memory stays bounded.
    assert growth < 250 * 2**20, f"the server grew by {growth / 2**20:.0f} MB"


async def _sessions_in_sequence(server, n):
    for _ in range(n):
        await load._open_close(server.url, clicks=2)


def test_memory_returns_after_sessions_close():
    ttl = 2
    with streamlit(args=(f"--server.disconnectedSessionTTL={ttl}",)) as server:
        asyncio.run(_sessions_in_sequence(server, 2))  # imports, first runs, caches warm
        time.sleep(ttl + 1)
        asyncio.run(_sessions_in_sequence(server, 1))
        baseline = server.rss()
        asyncio.run(_sessions_in_sequence(server, 12))  # python -m bench --load opens 20
        peak = server.rss()
        time.sleep(ttl + 1)
        asyncio.run(load._open_close(server.url, clicks=0))  # drops the sessions kept for reconnecting
        time.sleep(1)
        after = server.rss()
    (ARTIFACTS / "load-memory.txt").write_text(
        f"baseline {baseline / 2**20:.0f} MB, after 12 sessions {peak / 2**20:.0f} MB, "
        f"after they expired {after / 2**20:.0f} MB\n"
    )
    assert after <= 1.10 * baseline, f"RSS {after / 2**20:.0f} MB against a baseline of {baseline / 2**20:.0f} MB"


def test_a_page_reconnects_to_the_same_scene_when_its_server_restarts():
    from playwright.sync_api import sync_playwright

    from tests.browser import free_port

    port = free_port()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        with streamlit(port=port) as server:
            page.goto(server.url)
            page.wait_for_function(
                "() => document.querySelector('.pg-canvas')?.dataset.points === '90'", timeout=120_000
            )
            for k in range(3):
                spot = page.evaluate(EMPTY_SPOT_JS)
                page.mouse.click(spot["x"], spot["y"])
                page.wait_for_function(
                    f"() => document.querySelector('.pg-canvas')?.dataset.points === '{91 + k}'", timeout=60_000
                )
                page.wait_for_timeout(500)
            page.wait_for_function("() => window.location.search.includes('p=')", timeout=30_000)
            page.wait_for_timeout(1000)
            before = page.evaluate(CANVAS_STATE_JS)
        # The server is gone; the same address comes back with a new process (no sessions).
        with streamlit(port=port):
            # Drawn again by the new server: a new revision (Python's hashes differ between processes).
            page.wait_for_function(
                "([n, revision]) => { const r = document.querySelector('.pg-canvas');"
                " return r && r.dataset.revision !== revision && r.dataset.points === String(n); }",
                arg=[before["n_points"], before["revision"]],
                timeout=120_000,
            )
            page.wait_for_timeout(2000)
            after = page.evaluate(CANVAS_STATE_JS)
            page.screenshot(path=ARTIFACTS / "load-reconnected.png")
        browser.close()
    assert after["n_points"] == 93
    # The same points, up to the link's precision (16 bits over the points' bounding box).
    np.testing.assert_allclose(
        sorted(zip(after["xs"], after["ys"])), sorted(zip(before["xs"], before["ys"])), atol=1e-3
    )
