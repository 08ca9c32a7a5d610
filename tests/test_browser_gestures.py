"""Real-browser tests of the canvas's gestures: every click lands where it was made, whatever the
server's pace; a click next to a point does what the tool says; the wheel scrolls the page and
Ctrl+wheel zooms; one finger scrolls the page on a phone, a tap adds, two fingers zoom; a drag
whose live route fails still commits, with a line that says live updates are off; the plot does
not move when the first point's legend appears.

Each test waits for states (the canvas's point count, its queue, its revision), never for a
fixed time, so a busy machine only makes it slower.
"""

import math
import re
from contextlib import nullcontext

import numpy as np
import pytest

from tests.browser import ARTIFACTS, GEOMETRY_JS, PAGE_TO_DATA_JS, cpu_burners
from tests.test_browser_canvas import close_page, open_page, undo_button, wait_applied, wait_settled

pytestmark = pytest.mark.browser


def geometry(page):
    return page.evaluate(GEOMETRY_JS)


def count(page):
    return int(page.evaluate("() => document.querySelector('.pg-canvas').dataset.points"))


def wait_count(page, n):
    page.wait_for_function("(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) === n", arg=n)


def clear_all(page):
    page.get_by_role("button", name="✕ Clear all").click()
    wait_count(page, 0)
    wait_applied(page)


def empty_grid(geo, n, gap):
    """``n`` page positions inside the plot area, ``gap`` px apart, away from its edges; whole
    pixels, as a mouse gives them (Chromium hands a page whole-pixel mouse coordinates, so a click
    at y = 380.78 arrives at 380, and the plot's top is at a fractional y when the text above it is)."""
    columns = max(1, int((geo["width"] - 60) // gap))
    return [
        (
            round(geo["left"] + 30 + gap * (i % columns)),
            round(geo["top"] + 30 + gap * (i // columns) + (i % 2) * 5),
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("busy", [False, True], ids=["idle", "two-cpu-burners"])
def test_twenty_quick_clicks_give_twenty_points_where_they_were_clicked(browser, server, busy):
    page = open_page(browser, server)
    try:
        clear_all(page)
        spots = empty_grid(geometry(page), 20, 40)
        wanted = [page.evaluate(PAGE_TO_DATA_JS, list(spot)) for spot in spots]
        with cpu_burners() if busy else nullcontext():
            for spot in spots:
                page.mouse.click(*spot)
                page.wait_for_timeout(150)
            # Every click applied (the page's queue empty), however slow the busy machine: then count.
            wait_applied(page, timeout=180_000)
        assert count(page) == 20
        placed = [(p["x"], p["y"]) for p in geometry(page)["points"]]
        assert len(placed) == 20
        scale = geometry(page)["width"] / (geometry(page)["xrange"][1] - geometry(page)["xrange"][0])  # px per unit
        for x, y in wanted:  # each click has its point, within half a pixel (the points' grid is finer)
            nearest = min(math.hypot(x - px, y - py) for px, py in placed)
            assert nearest * scale <= 0.5, f"no point within half a pixel of the click at ({x:.3f}, {y:.3f})"
        page.screenshot(path=str(ARTIFACTS / f"gestures-quick-clicks-{'busy' if busy else 'idle'}.png"))
    finally:
        close_page(page)


def isolated_point(geo, bottom=960):
    """The point with the most room around it, inside the plot and on screen (above ``bottom``)."""
    points = geo["points"]

    def room(p):
        return min(math.hypot(p["px"] - q["px"], p["py"] - q["py"]) for q in points if q is not p)

    inside = [
        p
        for p in points
        if geo["left"] + 40 < p["px"] < geo["left"] + geo["width"] - 40 and geo["top"] + 40 < p["py"] < bottom
    ]
    return max(inside, key=room)


@pytest.mark.parametrize(
    "tool, removes_at",
    [("a", ()), ("m", ()), ("e", (6,)), ("s", ())],
    ids=["add", "move", "erase", "select"],
)
def test_clicks_next_to_a_point_do_what_the_tool_says(browser, server, tool, removes_at):
    page = open_page(browser, server)
    try:
        page.keyboard.press(tool)
        target = isolated_point(geometry(page))
        n = count(page)
        for distance in (6, 12, 18, 24):
            # One click per distance, a new spot each time: to the right, below, left, above.
            angle = {6: 0, 12: math.pi / 2, 18: math.pi, 24: 3 * math.pi / 2}[distance]
            spot = (target["px"] + distance * math.cos(angle), target["py"] + distance * math.sin(angle))
            page.mouse.click(*spot)
            wait_applied(page)
            # Ids are places in the set (a removal renumbers the points after it): compare coordinates.
            there = any(p["x"] == target["x"] and p["y"] == target["y"] for p in geometry(page)["points"])
            if distance in removes_at:
                assert not there and count(page) == n - 1, f"{distance} px: the point stays"
                return
            assert there, f"a click {distance} px from a point removed it ({tool})"
            added = 1 if tool == "a" else 0  # on the marker too (6 px): every click is a point
            assert count(page) == n + added, f"{distance} px"
            n = count(page)
    finally:
        close_page(page)


def test_the_wheel_scrolls_the_page_and_ctrl_wheel_zooms(browser, server):
    page = open_page(browser, server, height=700)
    try:
        geo = geometry(page)
        centre = (geo["left"] + geo["width"] / 2, geo["top"] + min(geo["height"] / 2, 150))
        scrolled = "() => (document.querySelector('[data-testid=\"stMain\"]') || document.scrollingElement).scrollTop"
        page.mouse.move(*centre)
        for _ in range(3):
            page.mouse.wheel(0, 100)
        page.wait_for_function(f"() => ({scrolled})() > 0")
        assert geometry(page)["xrange"] == geo["xrange"], "the wheel zoomed the plot"
        page.locator(".pg-canvas").scroll_into_view_if_needed()
        geo = geometry(page)
        centre = (geo["left"] + geo["width"] / 2, geo["top"] + geo["height"] / 2)
        page.mouse.move(*centre)
        page.keyboard.down("Control")
        for _ in range(3):
            page.mouse.wheel(0, -100)
        page.keyboard.up("Control")
        page.wait_for_function(
            "(w) => { const r = document.querySelector('.pg-canvas')._fullLayout.xaxis.range; "
            "return r[1] - r[0] < 0.8 * w; }",
            arg=geo["xrange"][1] - geo["xrange"][0],
        )
        wait_applied(page)  # the zoom reached the session once the hand stopped (one view event)
        kept = geometry(page)["xrange"]
        assert kept[1] - kept[0] < 0.8 * (geo["xrange"][1] - geo["xrange"][0])
    finally:
        close_page(page)


def touch(cdp, kind, points):
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y} for x, y in points]})


def test_on_a_phone_one_finger_scrolls_a_tap_adds_and_two_fingers_zoom(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    try:
        page.goto(server)
        page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
        wait_settled(page)
        page.locator(".pg-canvas").scroll_into_view_if_needed()
        wait_settled(page)
        geo = geometry(page)
        cdp = context.new_cdp_session(page)
        # A vertical swipe over the plot scrolls the page and leaves the view alone.
        scrolled = "() => (document.querySelector('[data-testid=\"stMain\"]') || document.scrollingElement).scrollTop"
        before = page.evaluate(scrolled)
        x, y = geo["left"] + geo["width"] / 2, geo["top"] + geo["height"] * 0.8
        touch(cdp, "touchStart", [(x, y)])
        for step in range(1, 11):
            touch(cdp, "touchMove", [(x, y - 20 * step)])
        touch(cdp, "touchEnd", [])
        page.wait_for_function(f"(b) => ({scrolled})() > b", arg=before)
        assert geometry(page)["xrange"] == geo["xrange"], "a swipe zoomed the plot"
        assert count(page) == len(geo["points"]), "a swipe added a point"
        # A tap on empty space adds a point there.
        geo = geometry(page)
        n = count(page)
        spot = next(
            (geo["left"] + fx * geo["width"], geo["top"] + fy * geo["height"])
            for fx, fy in ((0.08, 0.08), (0.92, 0.08), (0.08, 0.92), (0.92, 0.92), (0.5, 0.08))
            if all(
                math.hypot(geo["left"] + fx * geo["width"] - p["px"], geo["top"] + fy * geo["height"] - p["py"]) > 30
                for p in geo["points"]
            )
        )
        page.touchscreen.tap(*spot)
        wait_count(page, n + 1)
        wait_applied(page)
        # Two fingers moving apart zoom in about their midpoint.
        geo = geometry(page)
        cx, cy = geo["left"] + geo["width"] / 2, geo["top"] + geo["height"] / 2
        touch(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
        for step in range(1, 9):
            touch(cdp, "touchMove", [(cx - 30 - 10 * step, cy), (cx + 30 + 10 * step, cy)])
        touch(cdp, "touchEnd", [])
        page.wait_for_function(
            "(w) => { const r = document.querySelector('.pg-canvas')._fullLayout.xaxis.range; "
            "return r[1] - r[0] < 0.6 * w; }",
            arg=geo["xrange"][1] - geo["xrange"][0],
        )
        wait_applied(page)
        assert count(page) == n + 1
        page.screenshot(path=str(ARTIFACTS / "gestures-phone.png"))
        assert not page.errors, page.errors
    finally:
        context.close()


def _press_isolated_point(page):
    """The canvas on screen and quiet, the mouse pressed on its most isolated point: (point, where)."""
    page.locator(".pg-canvas").scroll_into_view_if_needed()
    wait_settled(page)
    target = isolated_point(geometry(page))
    start = (target["px"], target["py"])
    page.mouse.move(*start)
    page.mouse.down()
    return target, start


def test_a_drag_whose_live_route_fails_still_commits_and_says_live_updates_are_off(browser, server):
    page = open_page(browser, server)
    try:
        page.route("**/api/live", lambda route: route.abort())
        target, start = _press_isolated_point(page)
        for step in range(1, 6):
            page.mouse.move(start[0] + 12 * step, start[1] - 8 * step, steps=2)
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.liveOff === '1'")
        assert "Live updates are off" in page.locator(".pg-tools .pg-hint").inner_text()
        page.screenshot(path=str(ARTIFACTS / "gestures-live-off.png"))
        end = (start[0] + 60, start[1] - 40)
        wanted = page.evaluate(PAGE_TO_DATA_JS, list(end))
        page.mouse.up()
        page.wait_for_function("() => !document.querySelector('.pg-canvas').dataset.dragging")
        wait_applied(page)
        moved = next(p for p in geometry(page)["points"] if p["id"] == target["id"])
        assert np.allclose([moved["x"], moved["y"]], wanted, atol=0.02)
        # The line goes once the session's figure is drawn; the move is one undo step.
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.liveOff !== '1'")
        undo_button(page).click()
        page.wait_for_function(
            "([id, x]) => { const r = document.querySelector('.pg-canvas'); return r._fullData.some(t => "
            "t.meta === 'points' && Array.from(t.customdata).some((c, i) => c === id && t.x[i] === x)); }",
            arg=[target["id"], target["x"]],
        )
    finally:
        close_page(page)


def test_the_first_point_on_an_empty_plot_does_not_move_the_plot(browser, server):
    page = open_page(browser, server)
    try:
        clear_all(page)
        before = geometry(page)
        page.mouse.click(before["left"] + 100, before["top"] + 100)
        wait_count(page, 1)
        wait_applied(page)
        after = geometry(page)
        for key in ("left", "top", "width", "height"):
            assert after[key] == pytest.approx(before[key], abs=0.5), key
    finally:
        close_page(page)


def test_the_tool_bar_and_its_keys(browser, server):
    page = open_page(browser, server)
    try:
        bar = page.locator(".pg-tools")
        assert bar.get_attribute("role") == "toolbar"
        pressed = "() => document.querySelector('.pg-tools button[aria-pressed=\"true\"]').dataset.tool"
        assert page.evaluate(pressed) == "add"
        for key, tool, mode in (("m", "move", "pan"), ("e", "erase", "select"), ("s", "select", "select")):
            page.keyboard.press(key)
            page.wait_for_function(
                "([t, m]) => document.querySelector('.pg-canvas')._fullLayout.dragmode === m && "
                "document.querySelector('.pg-canvas').dataset.tool === t",
                arg=[tool, mode],
            )
            assert page.evaluate(pressed) == tool
        bar.get_by_role("button", name="✚ Add").click()
        assert page.evaluate(pressed) == "add"
        # Typing in a text field never switches the tool.
        page.get_by_text("Add a point by typing its coordinates").click()
        field = page.locator("[data-testid='stSidebar'] input[type='text']").first
        field.click()
        field.type("e")
        assert page.evaluate(pressed) == "add"
        page.screenshot(path=str(ARTIFACTS / "gestures-toolbar-1400.png"))
    finally:
        close_page(page)


# What plotly's nodes draw for every trace but the points: fill paths, line paths, ring positions.
DRAWN_JS = """() => {
  const root = document.querySelector('.pg-canvas'), drawn = {};
  root.querySelectorAll('[class^=scatterlayer] > .trace').forEach((group) => {
    const trace = group.__data__ && group.__data__[0] && group.__data__[0].trace;
    if (!trace || trace.meta === 'points') return;
    const attributes = (selector, name) =>
      Array.from(group.querySelectorAll(selector)).map((n) => n.getAttribute(name) || '');
    drawn[trace.index] = {fill: attributes('.js-fill', 'd'), lines: attributes('g.lines path.js-line', 'd'),
                          rings: attributes('g.points path.point', 'transform')};
  });
  return drawn;
}"""

# Plotly.react of a figure, every trace drawn anew (a new datarevision), then the canvas quiet.
PLOTLY_DRAWS_JS = """async (which) => {
  const root = document.querySelector('.pg-canvas');
  const {canvasState} = await import(root.dataset.stateModule);  // the canvas's state (ui/plot/canvas_state.js)
  const data = which === 'live' ? canvasState(root).liveFigure.data : root.data;
  const layout = Object.assign({}, root.layout, {datarevision: 'oracle-' + which});
  await window.Plotly.react(root, data.map((t) => Object.assign({}, t)), layout);
}"""

LIVE_QUIET_JS = """async () => { const r = document.querySelector('.pg-canvas');
  const s = (await import(r.dataset.stateModule)).canvasState(r);
  return !s.liveBusy && !s.liveAgain && !s.drawing && Number(r.dataset.liveDrawn || 0) > 0; }"""


def _runs(path):
    """An SVG path's runs of vertices ("M1,2L3,4ZM..." -> [[(1, 2), (3, 4)], ...])."""
    number = r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?"
    return [
        [(float(x), float(y)) for x, y in re.findall(rf"({number}),({number})", part)]
        for part in re.findall(r"M[^M]*", path)
    ]


def _off_polyline(vertices, polyline, closed):
    """The largest distance (px) of ``vertices`` from the polyline (closed: back to its start)."""
    points = np.array(polyline + polyline[:1] if closed else polyline, dtype=float)
    worst = 0.0
    for p in np.array(vertices, dtype=float):
        if len(points) == 1:
            worst = max(worst, float(np.hypot(*(p - points[0]))))
            continue
        a, b = points[:-1], points[1:]
        ab = b - a
        t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12), 0, 1)
        worst = max(worst, float(np.min(np.hypot(*(a + t[:, None] * ab - p).T))))
    return worst


def _assert_same_drawing(mine, plotlys, tolerance=0.05):
    """Two DRAWN_JS results draw the same lines, fills and rings (plotly may drop collinear vertices)."""
    assert mine.keys() == plotlys.keys()
    for index, theirs in plotlys.items():
        ours = mine[index]
        for kind, closed in (("fill", True), ("lines", False)):
            our_runs = [run for path in ours[kind] for run in _runs(path)]
            their_runs = [run for path in theirs[kind] for run in _runs(path)]
            assert len(our_runs) == len(their_runs), (
                f"trace {index} {kind}: {len(our_runs)} runs, plotly {len(their_runs)}"
            )
            for a, b in zip(our_runs, their_runs, strict=True):
                assert _off_polyline(a, b, closed) <= tolerance and _off_polyline(b, a, closed) <= tolerance, (
                    f"trace {index} {kind}: {a} != {b}"
                )
        ring = r"translate\((-?[\d.]+),\s*(-?[\d.]+)\)"
        our_rings = sorted(tuple(map(float, re.match(ring, t).groups())) for t in ours["rings"])
        their_rings = sorted(tuple(map(float, re.match(ring, t).groups())) for t in theirs["rings"])
        assert np.allclose(our_rings, their_rings, atol=tolerance) if their_rings else not our_rings


def test_a_drags_frames_drawn_in_place_are_what_plotly_draws(browser, server):
    """A drag's live frames are drawn by rewriting plotly's paths (ui/plot/canvas_patch.js): the regions,
    the boundary and the rings must be what plotly draws for the same figure, and after the release
    the session's figure is drawn whole (no rewritten path stays)."""
    page = open_page(browser, server)
    try:
        _target, start = _press_isolated_point(page)
        for step in range(1, 9):  # across the plot, so the boundary and the rings change
            page.mouse.move(start[0] + 25 * step, start[1] + 12 * step, steps=2)
        page.wait_for_function(LIVE_QUIET_JS)
        patched = int(page.evaluate("() => document.querySelector('.pg-canvas').dataset.livePatched || 0"))
        missed = page.evaluate("() => document.querySelector('.pg-canvas').dataset.patchMissed || ''")
        assert patched >= 1, f"no frame was drawn in place ({missed})"
        mine = page.evaluate(DRAWN_JS)
        page.evaluate(PLOTLY_DRAWS_JS, "live")
        _assert_same_drawing(mine, page.evaluate(DRAWN_JS))
        page.mouse.up()
        page.wait_for_function("() => !document.querySelector('.pg-canvas').dataset.dragging")
        wait_applied(page)
        after_release = page.evaluate(DRAWN_JS)
        page.evaluate(PLOTLY_DRAWS_JS, "drawn")
        _assert_same_drawing(after_release, page.evaluate(DRAWN_JS), tolerance=0.005)
    finally:
        close_page(page)


def test_the_first_tap_on_a_phone_adds_one_point_and_leaves_the_view(browser, server):
    """A tap is one click: the browser's emulated mouse click after it must not be a second one (a
    second point) — the first touch on a fresh page."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(server)
        page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
        page.locator(".pg-canvas").scroll_into_view_if_needed()
        wait_settled(page)
        geo = geometry(page)
        n = count(page)
        page.touchscreen.tap(geo["left"] + 0.92 * geo["width"], geo["top"] + 0.08 * geo["height"])
        wait_count(page, n + 1)
        wait_applied(page)
        assert count(page) == n + 1
        assert geometry(page)["xrange"] == geo["xrange"], "the tap fitted the view"
        assert page.evaluate("() => document.querySelector('.pg-canvas').dataset.lastSent").startswith("add")
    finally:
        context.close()
