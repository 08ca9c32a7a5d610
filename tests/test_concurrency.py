"""Several people at once: ten browser sessions edit their own scenes on one server, concurrently.

Each session clears its points and adds a different number of new ones by clicking empty space
(the first half in class 1, the rest in class 2, so the later clicks refit a two-class model).
Every click must show up in that session's canvas, and no session may ever see another's points.
The 90th percentile of click-to-repaint under this load goes to test-artifacts/concurrency.txt.
"""

import asyncio
import statistics
import time

import numpy as np
import pytest
from playwright.async_api import async_playwright

from tests.browser import ARTIFACTS, CANVAS_STATE_JS, CHROMIUM_ARGS, chromium_path, streamlit_server

pytestmark = pytest.mark.browser

SESSIONS = 10
LOAD_TIMEOUT_MS = 180_000  # ten pages loading at once on two cores (slower still on a busy machine)
CLICK_TIMEOUT_MS = 60_000
DOUBLE_CLICK_GAP_MS = 450  # plotly.js reads two clicks within 300 ms as a double-click

# Stopwatch for one click, inside the page: mousedown -> the canvas shows ``expected`` points.
ARM_JS = """(expected) => {
  const root = document.querySelector('.pg-canvas');
  const watch = window.__pgWatch = {t0: null, t1: null};
  document.addEventListener('mousedown', () => { if (watch.t0 === null) watch.t0 = performance.now(); },
                            {capture: true, once: true});
  const observer = new MutationObserver(() => {
    if (watch.t1 === null && root.dataset.points === String(expected)) {
      watch.t1 = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(root, {attributes: true, attributeFilter: ['data-points', 'data-revision']});
}"""

POINTS_ARE_JS = "(n) => { const r = document.querySelector('.pg-canvas'); return r && r.dataset.points === String(n); }"


def n_clicks(session):
    """Session i adds 1 + i points: ten different counts."""
    return 1 + session


def spot(session, k):
    """Fractions of the plot area for session ``session``'s k-th click: distinct, clear of the toolbar."""
    return 0.08 + 0.085 * (k % 10) + 0.004 * session, 0.3 + 0.25 * (k // 10) + 0.02 * session


async def wait_settled(page, quiet_ms=400, timeout=60.0):
    deadline = time.monotonic() + timeout
    revision = "() => document.querySelector('.pg-canvas')?.dataset.revision"
    last, since = await page.evaluate(revision), time.monotonic()
    while time.monotonic() < deadline:
        await page.wait_for_timeout(100)
        current = await page.evaluate(revision)
        if current != last:
            last, since = current, time.monotonic()
        elif (time.monotonic() - since) * 1000 >= quiet_ms:
            return
    raise AssertionError("the canvas kept changing")


async def sidebar_click(page, text):
    await page.locator("section[data-testid='stSidebar']").get_by_text(text, exact=True).first.click()


async def run_session(browser, url, session, barrier):
    """Open, clear, click; return (coordinates added, click-to-repaint ms list, page errors)."""
    context = await browser.new_context(viewport={"width": 1400, "height": 1000})
    page = await context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    await page.goto(url)
    await page.wait_for_function(
        "() => { const r = document.querySelector('.pg-canvas'); return r && r.dataset.points !== undefined; }",
        timeout=LOAD_TIMEOUT_MS,
    )
    await wait_settled(page)
    await barrier.wait()
    released = time.monotonic()

    await sidebar_click(page, "✕ Clear all")
    await page.wait_for_function(POINTS_ARE_JS, arg=0, timeout=CLICK_TIMEOUT_MS)
    await wait_settled(page)

    added, repaint_ms = [], []
    count = n_clicks(session)
    for k in range(count):
        if k == (count + 1) // 2:
            await sidebar_click(page, "■ class 2")
            await wait_settled(page)
        before = await page.evaluate(CANVAS_STATE_JS)
        assert before["n_points"] == k, f"session {session}: {before['n_points']} points before click {k + 1}"
        box = await page.locator(".pg-canvas .nsewdrag").first.bounding_box()
        fx, fy = spot(session, k)
        x, y = box["x"] + fx * box["width"], box["y"] + fy * box["height"]
        await page.mouse.move(x, y)
        await page.wait_for_timeout(DOUBLE_CLICK_GAP_MS)
        await page.evaluate(ARM_JS, k + 1)
        started = time.perf_counter()
        await page.mouse.click(x, y)
        await page.wait_for_function(POINTS_ARE_JS, arg=k + 1, timeout=CLICK_TIMEOUT_MS)
        outside = (time.perf_counter() - started) * 1000
        watch = await page.evaluate("() => window.__pgWatch")
        repaint_ms.append(watch["t1"] - watch["t0"] if watch["t0"] is not None and watch["t1"] else outside)
        after = await page.evaluate(CANVAS_STATE_JS)
        new = set(zip(after["xs"], after["ys"])) - set(zip(before["xs"], before["ys"]))
        assert len(new) == 1, f"session {session}, click {k + 1}: expected one new point, saw {len(new)}"
        added.append(new.pop())
    await page.screenshot(path=ARTIFACTS / f"concurrency-session-{session}.png")
    return context, page, added, repaint_ms, errors, (released, time.monotonic())


async def run_all(url):
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            barrier = asyncio.Barrier(SESSIONS)  # every session starts clicking at the same time

            async def session(i):
                try:
                    return await run_session(browser, url, i, barrier)
                except BaseException:
                    await barrier.abort()  # the others stop waiting
                    raise

            outcomes = await asyncio.gather(*(session(i) for i in range(SESSIONS)))
            # After everyone has finished, look again: no late arrivals from other sessions.
            final = [await page.evaluate(CANVAS_STATE_JS) for _, page, *_ in outcomes]
            for context, *_ in outcomes:
                await context.close()
            return outcomes, final
        finally:
            await browser.close()


def test_ten_sessions_edit_their_own_points_concurrently():
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as url:
        started = time.monotonic()
        outcomes, final = asyncio.run(asyncio.wait_for(run_all(url), timeout=600))

    all_ms = []
    per_session = []
    for session, ((_, _, added, repaint_ms, errors, _), state) in enumerate(zip(outcomes, final)):
        assert not errors, f"session {session}: JavaScript errors {errors}"
        assert len(added) == n_clicks(session)
        assert state["n_points"] == n_clicks(session), f"session {session} shows {state['n_points']} points"
        shown = set(zip(state["xs"], state["ys"]))
        assert shown == set(added), f"session {session} shows points it did not add"
        all_ms += repaint_ms
        per_session.append((session, len(added), statistics.median(repaint_ms)))
    # No two sessions share a point: each sees only its own clicks.
    for i in range(SESSIONS):
        for j in range(i + 1, SESSIONS):
            assert not set(outcomes[i][2]) & set(outcomes[j][2])

    p50, p90 = float(np.percentile(all_ms, 50)), float(np.percentile(all_ms, 90))
    released = min(times[0] for *_, times in outcomes) - started
    finished = max(times[1] for *_, times in outcomes) - started
    lines = [
        f"{SESSIONS} concurrent browser sessions on one server, {len(all_ms)} clicks in all",
        f"all pages loaded {released:.0f} s after the server started; every session done at {finished:.0f} s",
        f"click-to-repaint under load: median {p50:.0f} ms, p90 {p90:.0f} ms, max {max(all_ms):.0f} ms",
        *(f"session {s}: {n} points, median {m:.0f} ms" for s, n, m in per_session),
    ]
    (ARTIFACTS / "concurrency.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
