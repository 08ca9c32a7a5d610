"""Real-browser tests of issue 44's canvas items: every click is a point, and a box leaves no point
dimmed.

- In the add tool every click adds its point, however quick and however near the last one (a dense
  cluster is built that way): eight quick clicks a few pixels apart are eight points, a
  double-click is two points, a double tap on a phone is two points; none of them moves the view.
  The view is fitted by ⌂, the sidebar's Fit view and the key F (not while typing in a field).
- After a box (or lasso) has erased or selected points, plotly's own selection is cleared: every
  remaining point is drawn at full opacity, also after switching back to the add tool.

Each test waits for states (the canvas's point count, its queue, its revision), never for a fixed
time; the pauses between clicks are the gesture's own pace. Screenshots in test-artifacts/.
"""

import math

import pytest

from playground.presets import OUTLIER_CENTRE
from tests.browser import ARTIFACTS, GEOMETRY_JS, PAGE_TO_DATA_JS
from tests.test_browser_canvas import (
    close_page,
    empty_spot,
    last_sent,
    open_page,
    relayout,
    sidebar,
    state,
    undo_button,
    wait_applied,
    wait_for_ranges,
    wait_settled,
)

pytestmark = pytest.mark.browser


def geometry(page):
    return page.evaluate(GEOMETRY_JS)  # the first canvas's


def count(page):
    return int(page.evaluate("() => document.querySelector('.pg-canvas').dataset.points"))


def wait_count(page, n):
    page.wait_for_function("(n) => Number(document.querySelector('.pg-canvas')?.dataset.points) === n", arg=n)


def ranges(page):
    current = state(page)
    return current["xrange"], current["yrange"]


def assert_points_where_clicked(page, spots):
    """Each clicked spot has a point within half a pixel of it."""
    geo = geometry(page)
    scale = geo["width"] / (geo["xrange"][1] - geo["xrange"][0])  # px per unit
    placed = [(p["x"], p["y"]) for p in geo["points"]]
    for spot in spots:
        x, y = page.evaluate(PAGE_TO_DATA_JS, list(spot))
        nearest = min(math.hypot(x - px, y - py) for px, py in placed)
        assert nearest * scale <= 0.5, f"no point where the click at {spot} was"


# ---- Every click is a point ------------------------------------------------------------------------

# Eight clicks around one spot, each 3-5 px from the one before (a cluster built quickly), and the
# pauses between them (ms): 100-300, a person clicking fast.
CLUSTER = [(0, 0), (4, 0), (8, 2), (5, 5), (1, 6), (3, 10), (7, 9), (10, 6)]
PAUSES = [120, 300, 100, 250, 160, 280, 110]


def test_eight_quick_clicks_a_few_pixels_apart_are_eight_points_and_the_view_stays(browser, server):
    page = open_page(browser, server)
    try:
        page.locator(".pg-canvas").scroll_into_view_if_needed()
        wait_settled(page)
        n, view = count(page), ranges(page)
        x0, y0 = (round(c) for c in empty_spot(page))
        spots = [(x0 + dx, y0 + dy) for dx, dy in CLUSTER]
        for k, spot in enumerate(spots):
            page.mouse.click(*spot)
            if k < len(PAUSES):
                page.wait_for_timeout(PAUSES[k])
        wait_count(page, n + 8)
        wait_applied(page)
        assert count(page) == n + 8
        assert ranges(page) == view, "the clicks moved the view"
        assert_points_where_clicked(page, spots)
        # Eight edits, each its own undo step.
        for k in range(8):
            undo_button(page).click()
            wait_count(page, n + 7 - k)
        wait_applied(page)
        assert undo_button(page).is_disabled()
        page.screenshot(path=str(ARTIFACTS / "every-click-eight-quick-clicks.png"))
    finally:
        close_page(page)


def test_a_double_click_is_two_points_and_leaves_the_view_zoomed_or_not(browser, server):
    page = open_page(browser, server)
    try:
        page.locator(".pg-canvas").scroll_into_view_if_needed()
        wait_settled(page)
        n, view = count(page), ranges(page)
        spot = empty_spot(page)
        page.mouse.dblclick(*spot)
        wait_count(page, n + 2)
        wait_applied(page)
        assert count(page) == n + 2 and ranges(page) == view
        assert last_sent(page).startswith("add ")
        # Zoomed in: a double-click on a point adds two more there, and the view stays zoomed.
        x, y = state(page)["xs"][0], state(page)["ys"][0]
        relayout(page, [x - 1.5, x + 1.5], [y - 1.0, y + 1.0])
        zoomed = ranges(page)
        marker = next((p["px"], p["py"]) for p in geometry(page)["points"] if p["x"] == x and p["y"] == y)
        page.mouse.dblclick(*marker)
        wait_count(page, n + 4)
        wait_applied(page)
        assert count(page) == n + 4 and ranges(page) == zoomed, "the double-click fitted the view"
        assert (x, y) in zip(state(page)["xs"], state(page)["ys"]), "the double-click removed the point"
        page.screenshot(path=str(ARTIFACTS / "every-click-double-click.png"))
    finally:
        close_page(page)


def test_the_key_f_fits_the_view_but_not_while_typing(browser, server):
    page = open_page(browser, server)
    try:
        fitted = ranges(page)
        n = count(page)
        relayout(page, [-1.5, 0.5], [2.0, 3.2])
        assert state(page)["xrange"][1] - state(page)["xrange"][0] < 3
        field = sidebar(page).locator("input[type='text']:visible").first
        field.click()
        field.press("f")  # typed into the field: the view stays
        field.press("Escape")
        page.wait_for_timeout(300)  # a fit would have been sent at once (the canvas sends synchronously)
        assert not last_sent(page).startswith("fit ")
        page.locator("h1").first.click()  # the page has the focus again
        page.keyboard.press("f")
        assert last_sent(page).startswith("fit ")
        wait_for_ranges(page, "xr[1] - xr[0] > 4")
        assert state(page)["xrange"] == pytest.approx(fitted[0], rel=1e-6)
        assert count(page) == n and undo_button(page).is_disabled()
    finally:
        close_page(page)


def test_a_double_tap_on_a_phone_is_two_points(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    try:
        page.goto(server)
        page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
        page.locator(".pg-canvas").scroll_into_view_if_needed()
        wait_settled(page)
        geo = geometry(page)
        n, view = count(page), ranges(page)
        spot = empty_spot(page)
        page.touchscreen.tap(*spot)
        page.touchscreen.tap(spot[0] + 3, spot[1] + 2)
        wait_count(page, n + 2)
        wait_applied(page)
        assert count(page) == n + 2
        assert ranges(page) == view, "the double tap moved the view"
        assert geometry(page)["width"] == geo["width"]
        page.screenshot(path=str(ARTIFACTS / "every-click-double-tap.png"))
        assert not page.errors, page.errors
    finally:
        context.close()


# ---- A box leaves no point dimmed ---------------------------------------------------------------------

# Per canvas: plotly's selection on its point traces (selectedpoints) and the opacities its point
# markers are drawn with (computed: plotly's selection sets the node's own style).
OPACITY_JS = """() => [...document.querySelectorAll('.pg-canvas')].map((root) => {
  const traces = [...root.querySelectorAll('[class^=scatterlayer] .trace')]
    .filter((g) => g.__data__ && g.__data__[0] && g.__data__[0].trace.meta === 'points');
  const nodes = traces.flatMap((g) => [...g.querySelectorAll('path.point')]);
  return {
    selected: root.data.filter((t) => t.meta === 'points').map((t) => t.selectedpoints ?? null),
    boxes: (root.layout.selections || []).length,
    markers: nodes.length,
    opacities: [...new Set(nodes.map((n) => Number(getComputedStyle(n).opacity)))],
  };
})"""


def assert_full_opacity(page, when):
    for k, canvas in enumerate(page.evaluate(OPACITY_JS)):
        assert canvas["markers"] > 0, f"{when}: canvas {k} draws no point"
        assert all(s is None for s in canvas["selected"]), f"{when}: canvas {k} keeps a selection {canvas}"
        assert canvas["opacities"] == [1], f"{when}: canvas {k} draws points at {canvas['opacities']}"
        assert canvas["boxes"] == 0, f"{when}: canvas {k} still shows the box"


def drag_box(page, corner, other):
    page.mouse.move(*corner)
    page.mouse.down()
    for k in range(1, 11):
        page.mouse.move(corner[0] + (other[0] - corner[0]) * k / 10, corner[1] + (other[1] - corner[1]) * k / 10)
    page.mouse.up()


def open_figure_4_4(browser, server):
    page = open_page(browser, server)
    sidebar(page).get_by_text("Figures from chapter 4").click()
    before = state(page)["revision"]
    sidebar(page).get_by_role("button").filter(has_text="Fig. 4.4").click()
    page.wait_for_function(
        "r => { const c = document.querySelector('.pg-canvas'); return c && c.dataset.revision !== undefined"
        " && c.dataset.revision !== r && c.querySelector('.main-svg'); }",
        arg=before,
    )
    wait_settled(page)
    page.locator(".pg-canvas").first.scroll_into_view_if_needed()
    wait_settled(page)
    return page


def test_a_box_erase_leaves_every_remaining_point_at_full_opacity(browser, server):
    page = open_figure_4_4(browser, server)
    try:
        assert_full_opacity(page, "before the box")
        geo = geometry(page)
        far = [p for p in geo["points"] if math.hypot(p["x"] - OUTLIER_CENTRE[0], p["y"] - OUTLIER_CENTRE[1]) < 3]
        assert len(far) == 12
        n = count(page)
        page.keyboard.press("e")
        # A box around the far-away points, 12 px beyond the outermost ones.
        xs, ys = [p["px"] for p in far], [p["py"] for p in far]
        drag_box(page, (min(xs) - 12, min(ys) - 12), (max(xs) + 12, max(ys) + 12))
        wait_count(page, n - 12)
        wait_applied(page)
        assert_full_opacity(page, "after the box erase")
        # An empty box (nothing to erase) dims nothing either.
        geo = geometry(page)
        corner = (geo["left"] + 0.85 * geo["width"], geo["top"] + 0.05 * geo["height"])
        drag_box(page, corner, (corner[0] + 40, corner[1] + 30))
        wait_applied(page)
        assert count(page) == n - 12
        assert_full_opacity(page, "after an empty box")
        page.keyboard.press("a")
        wait_settled(page)
        assert_full_opacity(page, "back in the add tool")
        page.mouse.click(*empty_spot(page))  # a new figure from the session: still nothing dimmed
        wait_count(page, n - 11)
        wait_applied(page)
        assert_full_opacity(page, "after a click in the add tool")
        page.screenshot(path=str(ARTIFACTS / "every-click-after-box-erase.png"))
    finally:
        close_page(page)


def test_a_box_selection_rims_its_points_and_dims_none(browser, server):
    page = open_figure_4_4(browser, server)
    try:
        geo = geometry(page)
        far = [p for p in geo["points"] if math.hypot(p["x"] - OUTLIER_CENTRE[0], p["y"] - OUTLIER_CENTRE[1]) < 3]
        page.keyboard.press("s")
        xs, ys = [p["px"] for p in far], [p["py"] for p in far]
        drag_box(page, (min(xs) - 12, min(ys) - 12), (max(xs) + 12, max(ys) + 12))
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.selected === '12'")
        wait_settled(page)
        assert_full_opacity(page, "with the selection")
        page.keyboard.press("Escape")
        page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.selected === '0'")
        page.keyboard.press("a")
        wait_settled(page)
        assert_full_opacity(page, "back in the add tool")
    finally:
        close_page(page)
