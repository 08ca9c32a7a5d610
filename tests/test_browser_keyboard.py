"""The canvas by keyboard (issue 38), in a real browser: the plot is a stop of the Tab order with a
visible focus ring; arrows move a visible cursor on a grid of round numbers; Enter adds a point of
the current class there; Tab steps through the points; arrows move the chosen one and Delete erases
it; each edit is one undo step of the pointer's own path, and each is said in words (with the
boundary the session then has) in a live region, in the page's language. A plot focused by a click
leaves the arrows to the page.

The tests wait for states (the edit queue empty, the canvas quiet, the words said), never for fixed
times; screenshots in test-artifacts/.
"""

import numpy as np
import pytest

from tests.browser import ARTIFACTS, CANVAS_STATE_JS
from tests.conftest import clusters
from tests.test_browser_canvas import close_page, link, open_page, scene_of, wait_applied

pytestmark = pytest.mark.browser

SAID = "() => document.querySelector('.pg-kb-say')?.textContent || ''"


def _two_classes(server, language="en"):
    X, y = clusters(2, 10)
    return f"{link(server, scene_of(X, y))}&lang={language}"


def _tab_to_plot(page):
    """Into the plot the way a keyboard gets there: Tab from the tool bar's last button."""
    page.locator(".pg-tools button[data-tool=line]").focus()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement === document.querySelector('.pg-canvas')")


def _cursor(page):
    return [float(v) for v in page.evaluate("() => document.querySelector('.pg-canvas').dataset.cursor").split()]


def _said(page, *words):
    """Wait until the live region says all of ``words``; return what it says."""
    page.wait_for_function(
        "(words) => { const t = document.querySelector('.pg-kb-say')?.textContent || '';"
        " return words.every(w => t.includes(w)); }",
        arg=list(words),
        timeout=20_000,
    )
    return page.evaluate(SAID)


def _points(page):
    state = page.evaluate(CANVAS_STATE_JS)
    return sorted(zip(state["xs"], state["ys"]))


def test_add_choose_move_erase_and_undo_by_keyboard(browser, server):
    page = open_page(browser, _two_classes(server))
    before = _points(page)
    _tab_to_plot(page)
    # A focus ring and the cursor are visible.
    assert page.evaluate("() => getComputedStyle(document.querySelector('.pg-canvas')).outlineStyle") == "solid"
    assert page.locator(".pg-kb-cursor").is_visible()
    start = _cursor(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowUp")
    moved = _cursor(page)
    step = moved[1] - start[1]
    assert step > 0 and moved[0] == pytest.approx(start[0] + 2 * step)
    mantissa = step / 10 ** np.floor(np.log10(step))
    assert any(mantissa == pytest.approx(m) for m in (1, 2, 2.5, 5)), step  # a round step
    _said(page, "Cursor at (")
    page.screenshot(path=ARTIFACTS / "keyboard-cursor.png")

    # Enter adds a point of the current class (class 1) at the cursor, said with the boundary.
    page.keyboard.press("Enter")
    wait_applied(page)
    text = _said(page, "Added class 1 at (", "Boundary: y(x) =")
    added = _points(page)
    assert len(added) == len(before) + 1
    new = [p for p in added if p not in before]
    assert new == [pytest.approx(tuple(moved), abs=1e-5)], (new, moved, text)

    # Tab chooses the points one by one, in the order they were added; Shift+Tab goes back.
    page.keyboard.press("Tab")
    _said(page, "Point 1, class 1")
    page.keyboard.press("Tab")
    _said(page, "Point 2,")
    page.keyboard.press("Shift+Tab")
    _said(page, "Point 1, class 1")
    assert page.evaluate("() => document.querySelector('.pg-canvas').dataset.selected") == "1"
    state = page.evaluate(CANVAS_STATE_JS)
    ids = page.evaluate(
        "() => document.querySelector('.pg-canvas')._fullData.filter(t => t.meta === 'points')"
        ".flatMap(t => Array.from(t.customdata))"
    )
    first = (state["xs"][ids.index(0)], state["ys"][ids.index(0)])

    # An arrow moves the chosen point to the grid's next line to the right; it stays chosen.
    page.keyboard.press("ArrowRight")
    wait_applied(page)
    _said(page, "Moved point 1 to (", "Boundary")
    after_move = _points(page)
    assert len(after_move) == len(added)
    moved_point = [p for p in after_move if p not in added]
    assert len(moved_point) == 1 and moved_point[0][0] > first[0] and moved_point[0][1] == pytest.approx(first[1])
    assert moved_point[0][0] / step == pytest.approx(round(moved_point[0][0] / step), abs=1e-4)
    page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.selected === '1'")

    # Delete erases it.
    page.keyboard.press("Delete")
    wait_applied(page)
    _said(page, "Erased point 1")
    assert len(_points(page)) == len(added) - 1

    # Each edit was one undo step: three undos bring back the very points of the start.
    for expected in (after_move, added, before):
        page.keyboard.press("Control+z")
        wait_applied(page)
        _said(page, "Undone")
        assert _points(page) == expected
    page.screenshot(path=ARTIFACTS / "keyboard-after.png")
    close_page(page)


def test_esc_lets_go_tab_leaves_and_a_click_leaves_the_arrows_to_the_page(browser, server):
    page = open_page(browser, _two_classes(server))
    _tab_to_plot(page)
    page.keyboard.press("Tab")
    _said(page, "Point 1,")
    page.keyboard.press("Escape")
    _said(page, "No point chosen")
    assert page.evaluate("() => document.querySelector('.pg-canvas').dataset.selected") == "0"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement !== document.querySelector('.pg-canvas')")
    # Focused by a click, the plot leaves the arrows to the page (the presenter's figures, scrolling).
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5)
    wait_applied(page)
    cursor = page.evaluate("() => document.querySelector('.pg-canvas').dataset.cursor")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.querySelector('.pg-canvas').dataset.cursor") == cursor
    assert not page.locator(".pg-kb-cursor").is_visible()
    close_page(page)


def test_the_words_are_in_the_page_language(browser, server):
    page = open_page(browser, f"{_two_classes(server, 'ja')}")
    _tab_to_plot(page)
    page.keyboard.press("Enter")
    wait_applied(page)
    _said(page, "クラス 1 の点を (", "に追加しました", "境界：y(x) =")
    assert page.evaluate("() => document.querySelector('.pg-canvas').getAttribute('aria-roledescription')") == (
        "操作できるプロット"
    )
    close_page(page)
