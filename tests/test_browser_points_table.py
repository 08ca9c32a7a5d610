"""Real-browser test of the table of points (issue 18): a row typed (pasted, as from a spreadsheet)
into the table moves that point on the canvas, and one undo brings it back.

It waits for states, never for fixed times; it leaves a screenshot in test-artifacts/.
"""

import pytest

from tests.browser import ARTIFACTS
from tests.test_browser_canvas import (
    close_page,
    link,
    open_page,
    scene_of,
    sidebar,
    state,
    undo_button,
    wait_for_revision_change,
    wait_settled,
)

pytestmark = pytest.mark.browser

POINT_AT_JS = """([x, y]) => { const root = document.querySelector('.pg-canvas');
  return (root?._fullData || []).filter(t => t.meta === 'points').flatMap(t =>
    Array.from(t.x || []).map((px, i) => [px, t.y[i], t.name])).filter(p => Math.abs(p[0] - x) < 1e-9
      && Math.abs(p[1] - y) < 1e-9).map(p => p[2]); }"""


def test_a_row_typed_into_the_table_moves_the_point_on_the_canvas_and_undo_brings_it_back(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 2000})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(server)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    before = state(page)
    assert page.evaluate(POINT_AT_JS, [0.5, 0.25]) == []

    page.get_by_text("Table of points (type, edit or paste rows)").click()
    table = page.locator("[data-testid='stExpander']").filter(has_text="Table of points")
    grid = table.locator("[data-testid='stDataFrame']").first
    grid.wait_for(timeout=30_000)
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    # The first row's x₁ cell (under the header row), then a spreadsheet row pasted over it.
    page.mouse.click(box["x"] + 0.2 * box["width"], box["y"] + 36 + 17)
    page.evaluate("() => navigator.clipboard.writeText('0.5\\t0.25\\t2')")
    revision = before["revision"]
    page.keyboard.press("Control+V")
    wait_for_revision_change(page, revision, timeout=30_000)
    page.wait_for_function(f"() => ({POINT_AT_JS})([0.5, 0.25]).length === 1", timeout=30_000)
    after = state(page)
    assert after["n_points"] == before["n_points"]  # the row was changed, not added
    assert page.evaluate(POINT_AT_JS, [0.5, 0.25]) == ["class 2"]
    page.screenshot(path=ARTIFACTS / "points-table.png")

    undo_button(page).click()  # one undo step for the edit
    page.wait_for_function(f"() => ({POINT_AT_JS})([0.5, 0.25]).length === 0", timeout=30_000)
    wait_settled(page)
    assert state(page)["xs"] == before["xs"]
    close_page(page)


def test_a_point_is_added_with_the_keyboard_alone(browser, server):
    page = open_page(browser, server)
    before = state(page)
    sidebar(page).get_by_text("Add a point by typing its coordinates").click()
    x1 = sidebar(page).get_by_label("x₁")
    x1.wait_for(timeout=20_000)
    x1.focus()  # from here on, keys only
    page.keyboard.type("0.5")
    page.keyboard.press("Tab")
    focused = page.evaluate("() => document.activeElement?.getAttribute('aria-label')")
    assert focused == "x₂", focused  # Tab reaches the next field (the step buttons are skipped)
    page.keyboard.type("-1.25")
    page.keyboard.press("Enter")  # submits the form
    page.wait_for_function(f"() => ({POINT_AT_JS})([0.5, -1.25]).length === 1", timeout=30_000)
    wait_settled(page)
    assert state(page)["n_points"] == before["n_points"] + 1
    assert page.evaluate(POINT_AT_JS, [0.5, -1.25]) == ["class 1"]
    close_page(page)


# The hostile probe of issue 30, pasted over row 1 (0, 0, class 1) of a three-point scene: what was
# typed is what the point gets, or a message names the row and the column and nothing changes.
PROBE_SCENE = scene_of([[0.0, 0.0], [1.0, 1.0], [-1.0, 0.5]], [0, 1, 1])
PROBE = [
    ("0.5\t0.25\t7", "Row 1, column class: 7 is not a class; classes are 1 to 6."),
    ("0.5\t0.25\t0", "Row 1, column class: 0 is not a class; classes are 1 to 6."),
    ("0.5\t0.25\t2.5", "Row 1, column class: 2.5 is not a class; classes are 1 to 6."),
    ("1,5\t0.25\t2", "Row 1, column x₁: 1,5 has a comma; write numbers with a decimal point"),
    ("nan\t0.25\t2", "Row 1, column x₁: nan is not a finite number"),
    ("１．５\t０．２５\t２", (1.5, 0.25, "class 2")),
    ("١٫٥\t٠٫٢٥\t٢", (1.5, 0.25, "class 2")),
]


def _open_table(page):
    page.get_by_text("Table of points (type, edit or paste rows)").click()
    table = page.locator("[data-testid='stExpander']").filter(has_text="Table of points")
    grid = table.locator("[data-testid='stDataFrame']").first
    grid.wait_for(timeout=30_000)
    grid.scroll_into_view_if_needed()
    return table, grid


def _paste_over_row_one(page, grid, text):
    """Click row 1's x₁ cell and paste ``text`` (tab-separated cells) from the clipboard."""
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 0.2 * box["width"], box["y"] + 36 + 17)
    page.evaluate("text => navigator.clipboard.writeText(text)", text)
    page.keyboard.press("Control+V")


def _points(page):
    current = state(page)
    return sorted(zip(current["xs"], current["ys"]))


@pytest.mark.parametrize(("pasted", "expected"), PROBE, ids=[f"probe{k}" for k in range(1, len(PROBE) + 1)])
def test_a_pasted_row_gives_what_was_typed_or_a_message_and_no_change(browser, server, pasted, expected):
    context = browser.new_context(viewport={"width": 1400, "height": 2000})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(link(server, PROBE_SCENE))
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    before = state(page)
    table, grid = _open_table(page)
    _paste_over_row_one(page, grid, pasted)
    if isinstance(expected, str):
        alert = table.locator("[data-testid='stAlert']").filter(has_text="Row 1, column")
        alert.wait_for(timeout=30_000)
        text = alert.inner_text()
        assert expected in text and "Nothing was changed." in text, text
        wait_settled(page)
        assert _points(page) == sorted(zip(before["xs"], before["ys"]))
        assert page.evaluate(POINT_AT_JS, [0.0, 0.0]) == ["class 1"]
    else:
        x1, x2, name = expected
        wait_for_revision_change(page, before["revision"], timeout=30_000)
        page.wait_for_function(f"() => ({POINT_AT_JS})([{x1}, {x2}]).length === 1", timeout=30_000)
        assert page.evaluate(POINT_AT_JS, [x1, x2]) == [name]
        assert page.evaluate(POINT_AT_JS, [0.0, 0.0]) == []
        assert state(page)["n_points"] == before["n_points"]
        assert table.locator("[data-testid='stAlert']").count() == 0
    close_page(page)
