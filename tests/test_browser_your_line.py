"""Your line in a real browser (issue 46): the line tool draws the person's boundary by a drag and
by two clicks (a mouse, and two taps on a phone), the link carries it, the Your line tab scores it
beside the fit, and predict-then-reveal keeps the fit off the plot until it is asked for.

They wait for states, never for fixed times; each leaves screenshots in test-artifacts/.
"""

import math
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


HANDLES_JS = """() => { const r = document.querySelector('.pg-canvas'), box = r.getBoundingClientRect();
  const t = r._fullData.find(t => t.meta === 'your_line_handles'), xa = r._fullLayout.xaxis, ya = r._fullLayout.yaxis;
  return t.x.map((x, i) => [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(t.y[i]), x, t.y[i]]); }"""
LANDSCAPE = '.pg-chart[data-chart-key="your_line_landscape"]'
LANDSCAPE_POINT_JS = """() => { const r = document.querySelector('.pg-chart[data-chart-key="your_line_landscape"]');
  for (const g of r.querySelectorAll('[class^=scatterlayer] .trace')) { const t = g.__data__[0].trace;
    if (t.meta === 'landscape_guess') { const b = g.querySelector('path.point').getBoundingClientRect();
      return [b.left + b.width / 2, b.top + b.height / 2]; } } return null; }"""


def _drag(page, start, offsets):
    page.mouse.move(*start)
    page.mouse.down()
    for dx, dy in offsets:
        page.mouse.move(start[0] + dx, start[1] + dy)


def test_a_handle_and_the_landscapes_point_move_the_line_live_and_each_other(browser, server):
    page = open_page(browser, _link(server, guess="0.0,-1.0,1.0", tab="Your line"))
    page.wait_for_selector(f"{LANDSCAPE} .main-svg", timeout=60_000)
    page.evaluate("() => document.querySelector('.pg-canvas').scrollIntoView({block: 'start'})")
    page.keyboard.press("l")
    handles = page.evaluate(HANDLES_JS)
    _drag(page, handles[0][:2], [(6 * i, -9 * i) for i in range(1, 13)])
    # While the hand moves: the live route's numbers on the tool bar, the landscape's point following.
    page.wait_for_function("() => Number(document.querySelector('.pg-canvas').dataset.lineNumbers || 0) > 0")
    hint = page.locator(".pg-tools .pg-hint").first.inner_text()
    assert "Your line:" in hint and "sum of squares" in hint and "(the fit: 11.99)" in hint, hint
    page.wait_for_function(f"() => !!document.querySelector('{LANDSCAPE}').dataset.guessAt")
    page.screenshot(path=ARTIFACTS / "your-line-handle-drag.png")
    page.mouse.up()
    w0, w1, w2 = _wait_for_new_guess(page, "0.0,-1.0,1.0")
    assert w1 * -1 + w2 * 1 > 0  # w kept its side: C1 stays above the line
    kept = handles[1]  # the other handle stayed where it was
    assert abs(w1 * kept[2] + w2 * kept[3] + w0) < 1e-3 * max(1.0, abs(kept[2]), abs(kept[3]))
    wait_settled(page)
    # The landscape's point dragged: the line on the plot follows, and the release sets it.
    before = page.evaluate(GUESS_IN_LINK)
    page.locator(LANDSCAPE).scroll_into_view_if_needed()
    point = page.evaluate(LANDSCAPE_POINT_JS)
    _drag(page, point, [(5 * i, 2 * i) for i in range(1, 13)])
    page.wait_for_function(
        "(n) => Number(document.querySelector('.pg-canvas').dataset.lineNumbers || 0) > n",
        arg=int(page.evaluate("() => Number(document.querySelector('.pg-canvas').dataset.lineNumbers || 0)")) - 1,
    )
    readout = page.locator(f"{LANDSCAPE} .pg-landscape-readout")  # the line's numbers over the landscape too
    assert "Your line:" in readout.inner_text() and "sum of squares" in readout.inner_text()
    angle, offset = (float(v) for v in page.locator(LANDSCAPE).get_attribute("data-guess-at").split(","))
    page.mouse.up()
    w0, w1, w2 = _wait_for_new_guess(page, before)
    assert readout.is_hidden()  # gone at the release
    norm = (w1**2 + w2**2) ** 0.5
    assert abs(-w0 / norm - offset) < 1e-3 * max(1.0, abs(offset))
    turned = (math.degrees(math.atan2(w2, w1)) - angle) % 360
    assert min(turned, 360 - turned) < 0.05
    page.screenshot(path=ARTIFACTS / "your-line-landscape-drag.png")
    close_page(page)


def test_the_lines_handles_by_keyboard_are_moved_and_said_with_the_lines_numbers(browser, server):
    from tests.test_browser_keyboard import _said, _tab_to_plot

    page = open_page(browser, _link(server, guess="0.0,-1.0,1.0"))
    page.keyboard.press("l")
    handles = page.evaluate(HANDLES_JS)
    _tab_to_plot(page)
    page.keyboard.press("Tab")  # the line tool: Tab chooses the line's handles, not the points
    _said(page, "handle 1 at")
    page.keyboard.press("ArrowUp")
    said = _said(page, "Moved your line's handle 1 to", "correct", "sum of squares")
    w0, w1, w2 = _wait_for_new_guess(page, "0.0,-1.0,1.0")
    x, y = handles[1][2], handles[1][3]  # the other handle stays on the line
    assert abs(w1 * x + w2 * y + w0) < 1e-3 * max(1.0, abs(x), abs(y)), said
    assert w1 * -1 + w2 * 1 > 0  # the classes keep their sides
    page.keyboard.press("Tab")
    _said(page, "handle 2 at")
    page.keyboard.press("Tab")  # past the last handle: the focus leaves the plot (no trap)
    assert page.evaluate("() => document.activeElement !== document.querySelector('.pg-canvas')")
    close_page(page)


def test_presenting_the_drawer_holds_the_landscape_and_the_two_lines_scores(browser, server):
    page = open_page(browser, _link(server, guess="0.0,-1.0,1.0", pm="1"), width=1280, height=720)
    page.get_by_role("button", name="Explanation").click()
    page.wait_for_selector('.pg-chart[data-chart-key="your_line_landscape_drawer"] .main-svg', timeout=30_000)
    caption = page.get_by_text("Your line (the circle):").first
    caption.wait_for(timeout=30_000)
    text = caption.inner_text()
    assert "98 % correct, the fit (the star) 88 %" in text and "13.25 against the fit's 11.99" in text, text
    page.screenshot(path=ARTIFACTS / "your-line-drawer.png")
    close_page(page)


def _touch_drag(page, start, offsets):
    """A finger pressed at ``start`` and moved through ``offsets`` (Chromium's own touch events)."""
    cdp = page.context.new_cdp_session(page)
    x, y = start
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for dx, dy in offsets:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx, "y": y + dy}]})
    return cdp


def test_on_a_phone_a_finger_moves_the_line_by_its_handle_and_the_plot_stays_put(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(_link(server, guess="0.0,-1.0,1.0"))
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    page.locator(".pg-tools button[data-tool='line']").tap()
    page.locator(".pg-canvas .nsewdrag").first.scroll_into_view_if_needed()
    top = page.locator(".pg-canvas .nsewdrag").first.bounding_box()["y"]
    handles = page.evaluate(HANDLES_JS)
    cdp = _touch_drag(page, handles[1][:2], [(-4 * i, 6 * i) for i in range(1, 13)])
    page.wait_for_function("() => Number(document.querySelector('.pg-canvas').dataset.lineNumbers || 0) > 0")
    assert "Your line:" in page.locator(".pg-tools .pg-hint").first.inner_text()
    # The hint's longer text keeps its two lines' height: the plot does not move under the finger.
    assert page.locator(".pg-canvas .nsewdrag").first.bounding_box()["y"] == pytest.approx(top, abs=0.5)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    w0, w1, w2 = _wait_for_new_guess(page, "0.0,-1.0,1.0")
    x, y = handles[0][2], handles[0][3]
    assert abs(w1 * x + w2 * y + w0) < 1e-3 * max(1.0, abs(x), abs(y))
    page.screenshot(path=ARTIFACTS / "your-line-phone-handle.png")
    context.close()
    assert not errors, errors
