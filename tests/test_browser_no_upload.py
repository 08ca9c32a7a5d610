"""No plot of the app offers an upload, in a real browser (issue 44: the projector's plot carried
plotly.js's "Share chart…", an upload to Plotly Cloud): the main page's canvas and charts, the
room's projector and a student's plot have no mode bar button that shares, uploads or opens the
figure elsewhere, and their plotly.js context has nowhere to send it (showSendToCloud false,
plotlyServerURL empty). The configs sent from Python: tests/test_plotly_config.py.

The tests wait for states (a plot drawn, a room's projector, a student joined), never for times.
"""

import re

import pytest

from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page

pytestmark = pytest.mark.browser

UPLOAD_WORDS = re.compile(r"share|chart studio|cloud|upload", re.IGNORECASE)

# Every plotly plot on the page: its mode bar buttons' titles (present in the page even while the
# bar is hidden until hovered) and what its plotly.js context would upload with.
PLOTS_JS = """(selector) => [...document.querySelectorAll(selector)].map((gd) => ({
  cls: gd.className,
  buttons: [...gd.querySelectorAll('.modebar-btn')].map((b) => b.getAttribute('data-title') || ''),
  send: gd._context.showSendToCloud, server: gd._context.plotlyServerURL, bar: gd._context.displayModeBar,
}))"""


def assert_no_upload(page, selector, with_buttons):
    plots = page.evaluate(PLOTS_JS, selector)
    assert plots, f"no plot {selector}"
    for plot in plots:
        if with_buttons:  # the bar is there, so its buttons are what is checked
            assert plot["buttons"], plot
        assert not [t for t in plot["buttons"] if UPLOAD_WORDS.search(t)], plot
        assert plot["send"] is False and plot["server"] == "", plot
    return plots


def test_the_main_page_offers_no_upload(browser, server):
    page = open_page(browser, server)
    try:
        plots = assert_no_upload(page, ".pg-canvas", with_buttons=True)
        assert "Download as PNG" in plots[0]["buttons"]
    finally:
        close_page(page)


def test_the_rooms_projector_and_a_students_plot_offer_no_upload(browser, server):
    page = open_page(browser, f"{server}/?pm=1", 1280, 720)
    try:
        page.wait_for_selector(".st-key-pb_next button:visible")
        page.locator(".st-key-room_bar_open button:visible").first.click()
        page.wait_for_selector(".pg-projector[data-points] .main-svg", timeout=60_000)
        page.locator(".pg-projector .main-svg").first.hover()  # the bar shows (a lecturer about to click)
        assert_no_upload(page, ".pg-projector", with_buttons=True)
        page.screenshot(path=str(ARTIFACTS / "no-upload-projector.png"))
        code = re.search(r"\?c=([A-Z0-9]{8})", page.locator(".pg-join-link").inner_text()).group(1)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        try:
            student = phone.new_page()
            student.goto(f"{server}/room?c={code}&lang=en")
            student.tap("#join-button")
            student.wait_for_selector("#plot[data-version] .main-svg")
            plots = assert_no_upload(student, "#plot", with_buttons=False)
            assert plots[0]["bar"] is False  # a static plot: no mode bar at all
        finally:
            phone.close()
    finally:
        close_page(page)
