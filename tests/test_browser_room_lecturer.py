"""The lecturer's page with a room, in a real browser (issue 36, "Rooms' start and end" and
"Freezing a room loses the view"), in presentation at 1280x720 and 1366x768: closing a room that
holds points asks first; a loopback join link is warned about and follows the address the
lecturer gives; the join link never breaks inside the host or port; after "Freeze into a scene
and link" the frozen plot fits the screen and the page is at its top, bar and caption on screen.

They wait for states, not times; screenshots in test-artifacts/room-lecturer-*.png.
"""

import json
import re
import urllib.request

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page, wait_settled
from tests.test_browser_presenter import LAYOUT_JS
from ui.rooms.panel import HOST_KEY
from ui.rooms.protocol import API

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (1366, 768)]


def _post(server, name, **body):
    request = urllib.request.Request(
        f"{server}{API}/{name}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def _open_room(browser, server, width, height):
    page = open_page(browser, f"{server}/?pm=1", width, height)
    page.wait_for_selector(".st-key-pb_next button:visible")
    page.locator(".st-key-room_bar_open button:visible").first.click()
    page.wait_for_selector(".pg-projector[data-points]", timeout=60_000)
    code = re.search(r"\?c=([A-Z0-9]{8})", page.locator(".pg-join-link").inner_text()).group(1)
    return page, code


def _room_menu(page):
    """In presentation the room's actions are in the bar's Room menu (issue 48): open it if shut."""
    if not page.locator(".st-key-room_close button").is_visible():
        page.locator("[data-testid=stPopover] button", has_text="Room").click()
    page.locator(".st-key-room_close button").wait_for()


def _add_points(server, code, n):
    student = _post(server, "join", code=code, nick="ann")
    for seq in range(n):
        point = dict(x=0.3 * seq - 1, y=1.0, label=1, seq=seq)
        _post(server, "add", code=code, sid=student["sid"], key=student["key"], **point)


LINK_LINES_JS = """() => {
  // The rendered lines of the join link: the text of each line box, from a Range per character.
  const el = document.querySelector('.pg-join-link'), text = el.textContent;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), lines = [];
  let node, lastTop = null;
  while ((node = walker.nextNode())) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const top = Math.round(range.getBoundingClientRect().top);
      if (lastTop === null || Math.abs(top - lastTop) > 3) { lines.push(''); lastTop = top; }
      lines[lines.length - 1] += node.data[i];
    }
  }
  return {text, lines};
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_join_link_warns_of_loopback_and_never_breaks_in_the_host(browser, server, width, height):
    page, code = _open_room(browser, server, width, height)
    warning = page.get_by_text("Phones cannot reach 127.0.0.1")
    warning.wait_for()
    link = page.evaluate(LINK_LINES_JS)
    origin = re.match(r"https?://[^/]+", link["text"]).group(0)
    assert any(origin in line for line in link["lines"]), link  # the host and port on one line
    field = page.locator(f".st-key-{HOST_KEY} input")
    field.fill("classroom-server.example.org:8501")
    field.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.pg-join-link').textContent.startsWith('http://classroom-server.example.org:8501/room?c=')"
    )
    link = page.evaluate(LINK_LINES_JS)
    assert any("classroom-server.example.org:8501" in line for line in link["lines"]), link
    page.get_by_text("Phones cannot reach").wait_for(state="detached")
    field.fill("not a host/..")
    field.press("Enter")
    page.get_by_text("That is not a host or host:port").wait_for()
    page.locator(".pg-join-link").scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / f"room-lecturer-link-{width}.png")
    close_page(page)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_closing_a_room_with_points_asks_first(browser, server, width, height):
    page, code = _open_room(browser, server, width, height)
    _add_points(server, code, 3)
    page.wait_for_function("() => +document.querySelector('.pg-projector').dataset.points > 0")
    _room_menu(page)
    page.locator(".st-key-room_close button").click()
    page.locator(".st-key-room_close_confirm").wait_for()
    assert _post(server, "join", code=code)["code"] == code  # the room is still open
    page.locator(".st-key-room_close_confirm").screenshot(path=ARTIFACTS / f"room-lecturer-close-{width}.png")
    page.locator(".st-key-room_close_cancel button").click()
    page.locator(".st-key-room_close_confirm").wait_for(state="detached")
    _room_menu(page)
    page.locator(".st-key-room_close button").click()
    page.locator(".st-key-room_close_freeze button").click()
    page.wait_for_selector(".pg-canvas .main-svg")
    page.wait_for_function("() => !document.querySelector('.pg-projector')")
    wait_settled(page)
    assert page.locator(".st-key-room_bar_open button:visible").count() >= 1  # no room any more: "Open a class room"
    assert "p=" in page.url  # the frozen scene's link
    close_page(page)


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_after_freezing_the_plot_fits_and_the_page_is_at_its_top(browser, server, width, height):
    page, code = _open_room(browser, server, width, height)
    _add_points(server, code, 5)
    page.wait_for_function("() => +document.querySelector('.pg-projector').dataset.points > 0")
    _room_menu(page)
    page.locator(".st-key-room_freeze button").click()
    page.wait_for_function("() => !document.querySelector('.pg-projector')", timeout=60_000)
    page.wait_for_selector(".pg-canvas .main-svg")
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"] .pg-canvas')", timeout=30_000)
    wait_settled(page)
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-testid=\"stMain\"]');"
        " return window.scrollY === 0 && (!s || s.scrollTop === 0); }",
        timeout=15_000,
    )
    # The bar above takes its rows (the frozen scene's figure buttons, the way back to the room)
    # after the plot was first drawn: the plot follows its new top (ui/plot/canvas.js watches the bar).
    try:
        page.wait_for_function(
            "() => { const c = document.querySelector('.pg-canvas');"
            " return c && c.getBoundingClientRect().bottom <= window.innerHeight; }",
            timeout=15_000,
        )
    except PlaywrightTimeoutError:
        pass  # the assertions below say what is where
    layout = page.evaluate(LAYOUT_JS)
    page.screenshot(path=ARTIFACTS / f"room-lecturer-frozen-{width}.png")
    win, bar, (canvas,) = layout["window"], layout["bar"], layout["canvases"]
    assert bar["top"] >= 0 and bar["bottom"] <= win["height"], layout
    assert canvas["top"] >= bar["bottom"] - 1 and canvas["bottom"] <= win["height"], layout
    caption = layout["captions"][0][0]["box"]
    assert caption["bottom"] <= win["height"], layout
    close_page(page)
