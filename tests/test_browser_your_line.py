"""Your line in a real browser (issue 46): the line tool draws the person's boundary by a drag and
by two clicks (a mouse, and two taps on a phone), the link carries it, the Your line tab scores it
beside the fit, and predict-then-reveal keeps the fit off the plot until it is asked for.

They wait for states, never for fixed times; each leaves screenshots in test-artifacts/.
"""

from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from playground.grid import Window
from playground.link import encode_scene
from playground.presets import outlier_points
from playground.scene import Scene
from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page, plot_point, wait_settled

pytestmark = pytest.mark.browser

GUESS_IN_LINK = "() => new URLSearchParams(location.search).get('guess')"
DASHED_JS = """() => [...document.querySelectorAll('.pg-canvas .scatterlayer path.js-line')]
  .filter(p => (p.style.strokeDasharray || '') !== '' && (p.style.stroke || '').includes('232, 89, 12')).length"""


def _link(server, **extra):
    points = outlier_points()  # figure 4.4
    scene = Scene(points=points, window=Window.around(points.X), method="least_squares")
    return f"{server}/?{urlencode({**encode_scene(scene), **extra})}"


def _guess(page):
    text = page.evaluate(GUESS_IN_LINK)
    return None if text is None else [float(v) for v in text.split(",")]


def _wait_for_new_guess(page, before):
    page.wait_for_function(f"(b) => ({GUESS_IN_LINK})() !== b", arg=before, timeout=30_000)
    page.wait_for_function(f"() => ({DASHED_JS})() > 0", timeout=30_000)
    return _guess(page)


def test_a_drag_and_two_clicks_draw_the_line_and_the_tab_scores_it(browser, server):
    page = open_page(browser, _link(server))
    page.keyboard.press("l")
    assert page.locator(".pg-tools button[data-tool='line']").get_attribute("aria-pressed") == "true"
    start, end = plot_point(page, 0.3, 0.1), plot_point(page, 0.45, 0.9)
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 9):
        page.mouse.move(start[0] + (end[0] - start[0]) * step / 8, start[1] + (end[1] - start[1]) * step / 8)
    page.mouse.up()
    first = _wait_for_new_guess(page, None)
    assert abs(first[1] ** 2 + first[2] ** 2 - 1) < 1e-4
    page.screenshot(path=ARTIFACTS / "your-line-drag.png")
    # Two clicks: the hint asks for the second point in between.
    page.mouse.click(*plot_point(page, 0.6, 0.1))
    page.wait_for_function("() => document.querySelector('.pg-tools .pg-hint').textContent.includes('second')")
    page.mouse.click(*plot_point(page, 0.62, 0.9))
    second = _wait_for_new_guess(page, ",".join(repr(v) for v in first))
    assert second != first
    wait_settled(page)
    page.get_by_role("tab", name="Your line").click()
    page.get_by_text("training points classified correctly").wait_for(timeout=30_000)
    assert page.get_by_text("sum of squares (eq. 4.15)").first.is_visible()
    page.screenshot(path=ARTIFACTS / "your-line-tab.png", full_page=True)
    close_page(page)


def test_a_link_with_a_hidden_fit_shows_the_line_alone_until_revealed(browser, server):
    page = open_page(browser, _link(server, guess="0.0,-1.0,1.0", hide="1", tab="Your line"))
    page.wait_for_function(f"() => ({DASHED_JS})() > 0", timeout=30_000)
    legend = page.evaluate("() => [...document.querySelectorAll('.pg-canvas .legendtext')].map(e => e.textContent)")
    assert "decision boundary" not in legend
    assert "the fit is hidden" in page.locator("[role=status]").first.inner_text()
    page.screenshot(path=ARTIFACTS / "your-line-hidden.png")
    page.get_by_role("button", name="Reveal the fit").click()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('hide')", timeout=30_000)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pg-canvas .legendtext')]"
        ".some(e => e.textContent === 'decision boundary')",
        timeout=30_000,
    )
    page.get_by_text("training points classified correctly").wait_for(timeout=30_000)
    query = parse_qs(urlparse(page.url).query)
    assert query["guess"] == ["0.0,-1.0,1.0"]
    close_page(page)


def test_two_taps_on_a_phone_draw_the_line(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(_link(server))
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    page.locator(".pg-tools button[data-tool='line']").tap()
    page.locator(".pg-canvas .nsewdrag").first.scroll_into_view_if_needed()
    for fy in (0.15, 0.85):
        x, y = plot_point(page, 0.5, fy)
        page.touchscreen.tap(x, y)
    _wait_for_new_guess(page, None)
    page.screenshot(path=ARTIFACTS / "your-line-phone.png")
    context.close()
    assert not errors, errors
