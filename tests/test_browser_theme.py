"""Real-browser test of the dark theme (issues 18, 38): a browser whose system scheme is dark gets the
dark theme (the page follows the system, and Streamlit's menu offers System / Light / Dark), and the
canvas and the panel charts take the dark palette (background, text, region tints, light boundary
and rims).

It waits for states, never for fixed times; it leaves screenshots in test-artifacts/.
"""

import pytest

from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page, wait_settled
from ui.plot.theme import DARK_BACKGROUND, DARK_REGION_COLOURS, LIGHT_LINES

pytestmark = pytest.mark.browser


def open_dark_page(browser, url):
    """The page in a browser whose system colour scheme is dark (as a viewer's system would have it)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, color_scheme="dark")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    return page


CANVAS_COLOURS_JS = """() => { const root = document.querySelector('.pg-canvas'); const l = root._fullLayout;
  const regions = root._fullData.filter(t => t.name === 'regions').map(t => t.fillcolor || t.colorscale);
  const boundary = root._fullData.find(t => t.name === 'decision boundary');
  return {paper: l.paper_bgcolor, font: l.font.color, scale: JSON.stringify(regions),
          boundary: boundary ? boundary.line.color : null}; }"""


def test_the_canvas_and_charts_follow_the_dark_theme(browser, server):
    page = open_dark_page(browser, server)
    # The page itself is dark, in the canvas's background colour.
    background = page.evaluate("() => getComputedStyle(document.querySelector('.stApp')).backgroundColor")
    assert background == "rgb(14, 17, 23)", background
    colours = page.evaluate(CANVAS_COLOURS_JS)
    assert colours["paper"].lower() == DARK_BACKGROUND.lower(), colours
    assert colours["font"].lower() == "#fafafa", colours
    assert any(tint.lower() in colours["scale"].lower() for tint in DARK_REGION_COLOURS), colours
    assert colours["boundary"] is None or colours["boundary"].lower() == LIGHT_LINES.lower(), colours
    chart = page.locator(".pg-chart").first
    chart.wait_for(timeout=30_000)
    page.wait_for_function("() => document.querySelector('.pg-chart')?._fullLayout !== undefined", timeout=30_000)
    assert page.evaluate("() => document.querySelector('.pg-chart')._fullLayout.paper_bgcolor").lower() == (
        DARK_BACKGROUND.lower()
    )
    page.screenshot(path=ARTIFACTS / "dark-1400.png", full_page=True)
    page.set_viewport_size({"width": 800, "height": 1000})
    wait_settled(page)
    page.screenshot(path=ARTIFACTS / "dark-800.png")
    close_page(page)


def test_dark_picked_in_the_menu_darkens_the_page_and_the_next_redraw(browser, server):
    """Issue 38: Streamlit's ⋮ menu offers System / Light / Dark (the config no longer pins light);
    Dark darkens the page at once and the canvas at its next redraw (a click), as docs/using.md ("Dark theme") says."""
    page = open_page(browser, server)
    assert page.evaluate("() => document.querySelector('.pg-canvas')._fullLayout.paper_bgcolor") == "white"
    page.get_by_test_id("stMainMenu").click()
    page.get_by_role("menuitemradio", name="Dark").click()
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.stApp')).backgroundColor === 'rgb(14, 17, 23)'"
    )
    page.keyboard.press("Escape")
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + 8, box["y"] + 8)
    page.wait_for_function(
        "(dark) => document.querySelector('.pg-canvas')._fullLayout.paper_bgcolor.toLowerCase() === dark",
        arg=DARK_BACKGROUND.lower(),
        timeout=30_000,
    )
    close_page(page)
