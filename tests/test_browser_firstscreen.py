"""Real-browser tests of the first screen (issue 36): a shared link that asks for presentation
opens the normal page on a phone (presentation where the window is wide enough), the plot starts
on a phone's first screen and is whole on a laptop's, Streamlit's Deploy button is not shown to
visitors (the ⋮ menu and its Settings stay), and the browser's Back button leaves the page
instead of stepping through addresses whose scene is not on screen.

They wait for states, never for fixed times; each leaves screenshots in test-artifacts/.
"""

import pytest

from tests.browser import ARTIFACTS, GEOMETRY_JS, wait_settled

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}

# The figure (caption band, legend, plot area, ticks and axis titles) and the plot area, in the
# window's coordinates, with the page not scrolled.
FIGURE_JS = """() => { const root = document.querySelector('.pg-canvas'), l = root._fullLayout;
  const svg = root.querySelector('.main-svg').getBoundingClientRect();
  return {top: svg.top, bottom: svg.bottom, plot_top: svg.top + l.yaxis._offset,
          plot_bottom: svg.top + l.yaxis._offset + l.yaxis._length, inner: innerHeight,
          scrolled: window.scrollY > 0 || [...document.querySelectorAll('main, div')].some(e => e.scrollTop > 0)}; }"""


def _open(browser, url, options):
    context = browser.new_context(**options)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    return page


def _close(page):
    errors = page.errors
    page.context.close()
    assert not errors, errors


def _presenting(page):
    return page.locator(".st-key-pb_method").count() > 0


def test_a_presentation_link_opens_the_normal_page_on_a_phone_and_presentation_on_a_projector(browser, server):
    """Today's tree opened the phone in presentation: the bar over the first ~330 px, a 232 px plot."""
    page = _open(browser, f"{server}/?pm=1", PHONE)
    page.wait_for_function("() => document.documentElement.dataset.pgPresentationGate === 'narrow'", timeout=20_000)
    wait_settled(page)
    page.screenshot(path=ARTIFACTS / "firstscreen-phone-presentation-link.png")
    assert not _presenting(page)
    assert page.get_by_role("heading", name="Linear classification playground").is_visible()
    markers = page.evaluate("() => document.querySelector('.pg-canvas')._fullData.find(t => t.meta === 'points')")
    assert markers["marker"]["size"] < 16  # the normal page's markers, not the projector's
    figure = page.evaluate(FIGURE_JS)
    assert figure["plot_top"] + 200 <= figure["inner"], figure  # the plot starts on the first screen
    assert "pm=1" in page.evaluate("() => location.search")  # the link stays the same
    _close(page)

    # The same link on a projector's window: presentation, decided by the browser from its width.
    page = _open(browser, f"{server}/?pm=1", {"viewport": {"width": 1280, "height": 720}})
    page.wait_for_selector(".st-key-pb_method", timeout=30_000)
    wait_settled(page)
    assert _presenting(page) and "pm=1" in page.evaluate("() => location.search")
    page.screenshot(path=ARTIFACTS / "firstscreen-projector-presentation-link.png")
    _close(page)


def test_the_plot_starts_on_a_phone_s_first_screen(browser, server):
    """Today's tree drew the plot's top at 855 px, below a 390 x 844 phone's first screen."""
    page = _open(browser, server, PHONE)
    figure = page.evaluate(FIGURE_JS)
    page.screenshot(path=ARTIFACTS / "firstscreen-phone.png")
    assert not figure["scrolled"]
    assert figure["plot_top"] + 200 <= figure["inner"], figure  # at least 200 px of the plot on screen
    _close(page)


@pytest.mark.parametrize("size", [(1280, 800), (800, 900)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_whole_plot_is_on_a_laptop_s_first_screen(browser, server, size):
    """Today's tree cut the plot's bottom at 1280 x 800 (the figure ended at 991 px)."""
    page = _open(browser, server, {"viewport": {"width": size[0], "height": size[1]}})
    figure = page.evaluate(FIGURE_JS)
    page.screenshot(path=ARTIFACTS / f"firstscreen-{size[0]}x{size[1]}.png")
    assert not figure["scrolled"] and figure["top"] >= 0 and figure["bottom"] <= figure["inner"], figure
    assert figure["plot_bottom"] - figure["plot_top"] >= 300, figure  # and the plot is not a stamp
    _close(page)


def test_visitors_see_no_deploy_button_and_keep_the_menu(browser, server):
    """Today's tree showed Streamlit's "Deploy" to every visitor (toolbarMode "auto" on localhost).
    The ⋮ menu stays (toolbarMode "viewer"; "minimal" would drop its items): on Streamlit 1.67 it
    holds the theme choice itself whenever more than one theme is configured."""
    page = _open(browser, server, LAPTOP)
    menu = page.locator('[data-testid="stMainMenu"]')
    menu.wait_for(timeout=20_000)
    assert page.get_by_role("button", name="Deploy").count() == 0
    menu.click()
    page.get_by_text("Print", exact=True).wait_for(timeout=10_000)
    _close(page)


def test_back_leaves_the_page_instead_of_stepping_through_addresses(browser, server):
    """Today's tree pushed a history entry per change of the address (three while the page opened):
    Back changed the address but not the scene, or seemed to do nothing. The address now follows
    the scene in place; Back leaves the page, undo steps through the scenes."""
    context = browser.new_context(**LAPTOP)
    page = context.new_page()
    page.goto("about:blank")
    page.goto(server)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => location.search.includes('p=')", timeout=30_000)  # the address follows
    wait_settled(page)
    entries = page.evaluate("() => history.length")
    address = page.evaluate("() => location.search")
    n_points = page.evaluate("() => document.querySelector('.pg-canvas').dataset.points")
    area = page.evaluate(GEOMETRY_JS)
    page.mouse.click(area["left"] + 12, area["top"] + 12)  # a point, in a corner
    page.wait_for_function("n => document.querySelector('.pg-canvas').dataset.points !== n", arg=n_points)
    page.wait_for_function("a => location.search !== a", arg=address, timeout=30_000)
    assert page.evaluate("() => history.length") == entries  # the new address replaced the old one
    page.go_back()
    page.wait_for_url("about:blank", timeout=30_000)
    context.close()
