"""Real-browser tests of dragging points: a dragged point follows the pointer and the boundary
follows it live (the live route's figures), the drop lands where the pointer let go, one undo puts
it back; a selection (the select tool) drags as a group; a short press on a point moves nothing and
removes nothing in the add tool (it adds a point there), a drag on empty space still zooms, and a
clicked point shows before the server has answered.

Each test waits for states (the canvas's drag counters, its revision, its point count), never for
a fixed time; each leaves a screenshot in test-artifacts/.
"""

import time
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest

from playground.link import decode_scene
from tests.browser import ARTIFACTS, CANVAS_STATE_JS, DATA_TO_PAGE_JS, paused, streamlit_server
from tests.test_browser_canvas import close_page, empty_spot, open_page, undo_button, wait_applied, wait_settled

pytestmark = pytest.mark.browser

POINTS_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const box = root.querySelector('.main-svg').getBoundingClientRect();
  const out = {};
  (root._fullData || []).filter(t => t.meta === 'points').forEach((t, k) => {
    for (let i = 0; i < t._length; i++) out[t.customdata[i]] = {
      x: t.x[i], y: t.y[i], cls: t.name,
      px: box.left + xa._offset + xa.l2p(t.x[i]), py: box.top + ya._offset + ya.l2p(t.y[i]),
    };
  });
  return out;
}"""

PAGE_TO_DATA_JS = """([px, py]) => {
  const root = document.querySelector('.pg-canvas');
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const box = root.querySelector('.main-svg').getBoundingClientRect();
  return [xa.p2l(px - box.left - xa._offset), ya.p2l(py - box.top - ya._offset)];
}"""

# The boundary as drawn (a drag's live frames rewrite plotly's paths, not its data: ui/plot/canvas_patch.js).
BOUNDARY_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  return Array.from(root.querySelectorAll('[class^=scatterlayer] > .trace'))
    .filter((g) => g.__data__ && g.__data__[0] && g.__data__[0].trace.meta === 'boundary')
    .map((g) => Array.from(g.querySelectorAll('path.js-line')).map((p) => p.getAttribute('d')).join(' '))
    .join(';');
}"""

# Where the dragged marker is drawn now, in page coordinates: its copy in the drag layer (the
# canvas moves a copy of the dragged markers above the plot while plotly's own are hidden).
MARKER_AT_JS = """() => {
  const copies = document.querySelectorAll('.pg-canvas .pg-drag-layer path.point');
  if (copies.length !== 1) return null;
  const r = copies[0].getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""


def coordinates(table):
    return {i: (p["x"], p["y"], p["cls"]) for i, p in table.items()}


def dataset(page):
    return page.evaluate("() => ({...document.querySelector('.pg-canvas')?.dataset})")


def points(page):
    return {int(k): v for k, v in page.evaluate(POINTS_JS).items()}


def drag_steps(page, start, end, steps):
    """Press at ``start`` and move towards ``end`` in ``steps`` steps, each time waiting until the
    server's update for the new position is drawn (a state, however slow the machine); returns the
    boundaries drawn meanwhile, in order."""
    page.mouse.move(*start)
    page.mouse.down()
    boundaries = [page.evaluate(BOUNDARY_JS)]
    page.statuses = [status_line(page)]
    for i in range(1, steps + 1):
        at = (start[0] + (end[0] - start[0]) * i / steps, start[1] + (end[1] - start[1]) * i / steps)
        before = int(dataset(page).get("dragUpdates") or 0)
        page.mouse.move(*at, steps=2)
        page.wait_for_function(
            "(n) => Number(document.querySelector('.pg-canvas')?.dataset.dragUpdates || 0) > n", arg=before
        )
        boundaries.append(page.evaluate(BOUNDARY_JS))
        page.statuses.append(status_line(page))
    return boundaries


def status_line(page):
    """The live status in the tool bar's line while a drag is drawn (training accuracy)."""
    return page.locator(".pg-tools .pg-hint").inner_text()


def release(page):
    page.mouse.up()
    page.wait_for_function("() => !document.querySelector('.pg-canvas')?.dataset.dragging")
    wait_applied(page)


def wait_until(page, predicate, what, timeout=20.0):
    """Poll a state only Python can read (the link's decoded points) until it holds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {what}"
        page.wait_for_timeout(100)


def link_points(page):
    query = dict(parse_qsl(urlsplit(page.url).query))
    scene, _ = decode_scene(query)
    return {tuple(p) for p in scene.points.X.tolist()}


@pytest.fixture
def page(browser, server):
    page = open_page(browser, server)
    yield page
    close_page(page)


def test_a_dragged_point_follows_live_lands_where_dropped_and_one_undo_restores_it(page):
    before = points(page)
    link_before = link_points(page)
    pid = min(before, key=lambda i: before[i]["y"])  # the lowest point: room to drag it up and right
    start = (before[pid]["px"], before[pid]["py"])
    end = (start[0] + 260, start[1] - 300)

    boundaries = drag_steps(page, start, (start[0] + 208, start[1] - 240), steps=8)
    page.mouse.move(*end, steps=3)
    # The point is drawn under the pointer at once, whatever the server has answered so far.
    page.wait_for_function(
        "([id, x, y]) => { const at = ("
        + MARKER_AT_JS
        + ")(id); return at && Math.hypot(at[0] - x, at[1] - y) < 1.5; }",
        arg=[pid, end[0], end[1]],
    )
    assert dataset(page)["dragging"] == "1"
    page.screenshot(path=str(ARTIFACTS / "drag-mid-1400.png"))
    # plotly's own marker of the point is hidden meanwhile (no second copy left behind)
    hidden = page.evaluate(
        "() => [...document.querySelectorAll('.pg-canvas [class^=scatterlayer] path.point')]"
        ".filter(n => n.style.visibility === 'hidden').length"
    )
    assert hidden == 1
    # The boundary followed the point: a new one for each step of the drag.
    distinct = len(set(boundaries))
    assert distinct >= 8, f"only {distinct} different boundaries during the drag"
    # The point went from its class's region into another's: the live status followed.
    assert any("Training accuracy" in line for line in page.statuses)
    assert len(set(page.statuses[1:])) >= 2, page.statuses
    wanted = page.evaluate(PAGE_TO_DATA_JS, list(end))
    release(page)
    assert not page.evaluate("() => document.querySelector('.pg-canvas .pg-drag-layer')")

    after = points(page)
    assert len(after) == len(before)
    assert abs(after[pid]["x"] - wanted[0]) < 0.02 and abs(after[pid]["y"] - wanted[1]) < 0.02
    moved = [i for i in before if (after[i]["x"], after[i]["y"]) != (before[i]["x"], before[i]["y"])]
    assert moved == [pid], "only the dragged point moves"
    # The link carries the dropped point.
    dropped = (after[pid]["x"], after[pid]["y"])

    def link_has_drop():
        linked = link_points(page)
        return (
            len(linked - link_before) == 1 and min(np.hypot(x - dropped[0], y - dropped[1]) for x, y in linked) < 1e-4
        )

    wait_until(page, link_has_drop, "the link to carry the dropped point")

    # One undo step: the point is back, and nothing else is left to undo (the default scene).
    undo_button(page).click()
    page.wait_for_function(
        "([id, x, y]) => { const p = (" + POINTS_JS + ")()[id]; return p && p.x === x && p.y === y; }",
        arg=[pid, before[pid]["x"], before[pid]["y"]],
    )
    wait_settled(page)
    assert coordinates(points(page)) == coordinates(before)
    assert undo_button(page).is_disabled()


def test_box_selected_points_drag_as_a_group(page):
    before = points(page)
    cls = before[max(before, key=lambda i: before[i]["x"])]["cls"]  # the rightmost cluster
    group = [i for i in before if before[i]["cls"] == cls]
    xs = [before[i]["px"] for i in group]
    ys = [before[i]["py"] for i in group]
    page.keyboard.press("s")  # the select tool
    page.wait_for_function("() => document.querySelector('.pg-canvas')._fullLayout.dragmode === 'select'")
    page.mouse.move(min(xs) - 12, min(ys) - 12)
    page.mouse.down()
    page.mouse.move(max(xs) + 12, max(ys) + 12, steps=8)
    page.mouse.up()
    page.wait_for_function("() => Number(document.querySelector('.pg-canvas')?.dataset.selected || 0) > 0")
    selected = int(dataset(page)["selected"])
    inside = [
        i
        for i in before
        if min(xs) - 12 <= before[i]["px"] <= max(xs) + 12 and min(ys) - 12 <= before[i]["py"] <= max(ys) + 12
    ]
    assert selected == len(inside)  # selected, not removed
    assert len(points(page)) == len(before)

    pid = group[0]
    start = (before[pid]["px"], before[pid]["py"])
    drag_steps(page, start, (start[0] - 120, start[1] + 60), steps=4)
    page.screenshot(path=str(ARTIFACTS / "drag-group-mid-1400.png"))
    release(page)
    after = points(page)
    shift = np.array([after[pid]["x"] - before[pid]["x"], after[pid]["y"] - before[pid]["y"]])
    assert np.hypot(*shift) > 0.5
    for i in before:
        moved = np.array([after[i]["x"] - before[i]["x"], after[i]["y"] - before[i]["y"]])
        if i in inside:
            assert np.allclose(moved, shift, atol=1e-4), "every selected point moves by the same offset"
        else:
            assert not moved.any(), "unselected points stay"
    assert int(dataset(page)["selected"]) == len(inside)  # the selection stays with its points

    undo_button(page).click()
    page.wait_for_function(
        "([id, x]) => { const p = (" + POINTS_JS + ")()[id]; return p && p.x === x; }",
        arg=[pid, before[pid]["x"]],
    )
    wait_settled(page)
    assert coordinates(points(page)) == coordinates(before)


def test_a_short_press_on_a_point_adds_one_there_in_the_add_tool_and_erases_in_the_erase_tool(page):
    before = points(page)
    pid = next(iter(before))
    x, y = before[pid]["px"], before[pid]["py"]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 2, y + 1)  # less than a few pixels: a click, and every click is a point
    page.mouse.up()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) === n + 1", arg=len(before)
    )
    wait_applied(page)
    after = set(coordinates(points(page)).values())
    assert len(after) == len(before) + 1 and set(coordinates(before).values()) <= after  # none moved or removed
    page.keyboard.press("Control+z")  # the added point goes again
    page.wait_for_function("(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) === n", arg=len(before))
    wait_applied(page)
    assert coordinates(points(page)) == coordinates(before)

    page.keyboard.press("e")  # the erase tool: the same press removes the point
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 2, y + 1)
    page.mouse.up()
    page.wait_for_function(
        "(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) === n - 1", arg=len(before)
    )
    wait_applied(page)
    after = points(page)
    assert len(after) == len(before) - 1
    assert (before[pid]["x"], before[pid]["y"]) not in {(p["x"], p["y"]) for p in after.values()}


def test_a_drag_on_empty_space_still_zooms(page):
    before = points(page)
    state = page.evaluate(CANVAS_STATE_JS)
    corner = empty_spot(page)
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.move(*corner)
    page.mouse.down()
    page.mouse.move(*centre, steps=10)
    page.mouse.up()
    page.wait_for_function(
        "(r) => { const a = document.querySelector('.pg-canvas')._fullLayout.xaxis.range; "
        "return a[1] - a[0] < 0.8 * (r[1] - r[0]); }",
        arg=state["xrange"],
    )
    wait_applied(page)
    assert coordinates(points(page)) == coordinates(before)
    assert not dataset(page).get("dragging")


@pytest.fixture(scope="module")
def busy_server():
    """A server of this module's own, so a test can pause its process (SIGSTOP) like a busy machine."""
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as url:
        yield url


def test_a_clicked_point_shows_before_the_server_answers(browser, busy_server):
    page = open_page(browser, busy_server)
    try:
        before = points(page)
        spot = empty_spot(page)
        added_js = "() => (document.querySelector('.pg-canvas')._fullData || []).find(t => t.meta === 'added')"
        with paused(busy_server):
            page.mouse.click(*spot)
            page.wait_for_function(f"() => {{ const t = ({added_js})(); return t && t._length === 1; }}")
            added = page.evaluate(f"() => {{ const t = ({added_js})(); return [t.x[0], t.y[0]]; }}")
            assert np.hypot(*np.subtract(page.evaluate(DATA_TO_PAGE_JS, added), spot)) < 3  # under the pointer
            assert len(points(page)) == len(before)  # the server has not answered
            page.screenshot(path=str(ARTIFACTS / "drag-added-at-once.png"))
        page.wait_for_function(
            "(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) === n + 1", arg=len(before)
        )
        wait_applied(page)
        # The server's point is the one shown at once, and the stand-in is gone.
        new = [p for i, p in points(page).items() if i not in before]
        assert len(new) == 1 and np.allclose([new[0]["x"], new[0]["y"]], added, atol=1e-4)
        assert not page.evaluate(f"() => !!({added_js})()")
    finally:
        close_page(page)


def test_a_mid_drag_view_on_a_narrow_screen(browser, server):
    page = open_page(browser, server, width=800, height=1000)
    try:
        page.locator(".pg-canvas").scroll_into_view_if_needed()  # the lowest points are below the fold at 800 px
        wait_settled(page)
        before = points(page)
        pid = min(before, key=lambda i: before[i]["y"])
        start = (before[pid]["px"], before[pid]["py"])
        drag_steps(page, start, (start[0] + 80, start[1] - 160), steps=3)
        page.screenshot(path=str(ARTIFACTS / "drag-mid-800.png"))
        release(page)
        assert len(points(page)) == len(before)
    finally:
        close_page(page)
