"""Real-browser tests of the page around the canvas (issue 12): presentation mode fits the screen,
nothing overflows at 800 px and up, the toolbars offer offline PNG / SVG downloads and no
Plotly Cloud upload, and the canvas's axes are titled x₁ and x₂.

They wait for states, never for fixed times; each leaves screenshots in test-artifacts/.
"""

import base64
import re

import pytest

from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page, plot_point, sidebar, wait_settled

pytestmark = pytest.mark.browser

DATE = r"\d{4}-\d{2}-\d{2}"


def _presentation_on(page):
    page.get_by_text("Presentation", exact=True).click()
    page.wait_for_function("() => !document.querySelector(\"section[data-testid='stSidebar']\")?.offsetWidth")
    wait_settled(page)
    # The canvas has the room down to the window's bottom once what stood above it (a rerun's stale
    # elements) is gone: wait for that state rather than measure a moment before it.
    page.wait_for_function(
        "() => { const root = document.querySelector('.pg-canvas'); if (!root) return false;"
        " const room = innerHeight - root.getBoundingClientRect().top - 12;"
        " const had = Number(root.dataset.room); return Math.abs(had - room) < 3 || had > room; }",
        timeout=20_000,
    )


RECT_JS = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, inner: innerHeight, scroll: scrollY}; }"""

# Streamlit scrolls its main area, not the window.
SCROLLED_JS = "() => window.scrollY > 0 || [...document.querySelectorAll('main, div')].some(e => e.scrollTop > 0)"

RANGES_JS = """() => { const l = document.querySelector('.pg-canvas')._fullLayout;
  return l.xaxis.range.concat(l.yaxis.range); }"""


# ---- 4. Presentation mode fits the screen -------------------------------------------------------


@pytest.mark.parametrize("size", [(1280, 720), (1366, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_presentation_shows_the_whole_plot_without_scrolling(browser, server, size):
    page = open_page(browser, server, width=size[0], height=size[1])
    _presentation_on(page)
    figure = page.evaluate(RECT_JS, ".pg-canvas .main-svg")  # legend, plot area, ticks and axis titles
    plot = page.evaluate(RECT_JS, ".pg-canvas .nsewdrag")
    assert figure["scroll"] == 0 and figure["top"] >= 0 and figure["bottom"] <= figure["inner"], figure
    assert plot["bottom"] - plot["top"] >= 0.5 * size[1], plot  # and the plot fills the screen
    markers = page.evaluate("() => document.querySelector('.pg-canvas')._fullData.find(t => t.meta === 'points')")
    assert markers["marker"]["size"] == 16  # bigger markers for the back row
    page.screenshot(path=ARTIFACTS / f"presentation-{size[0]}x{size[1]}.png")

    # The wheel over the plot scrolls the page (to the panels) instead of zooming.
    ranges = page.evaluate(RANGES_JS)
    page.mouse.move(*plot_point(page, 0.5, 0.5))
    page.mouse.wheel(0, 300)
    page.wait_for_function(SCROLLED_JS, timeout=10_000)
    assert page.evaluate(RANGES_JS) == ranges
    close_page(page)


CANVASES_JS = """() => [...document.querySelectorAll('.pg-canvas')].map((root) => {
  const r = root.querySelector('.main-svg').getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, inner: innerHeight, room: Number(root.dataset.room)}; })"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_comparison_of_four_in_presentation_fits_the_screen_when_it_can(browser, server, size):
    """Four compared methods: two rows share a projector's screen (1920 x 1080) and are all whole
    on it; on 1280 x 720 a share would be a strip, so the first row fills the screen and the
    second is a scroll away, each as tall as the screen less its title."""
    page = open_page(browser, f"{server}/?pm=1&cmp=least_squares,logistic,svm,fisher", *size)
    page.wait_for_selector(".st-key-pb_method", timeout=30_000)  # the browser asks for presentation: wide enough
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pg-canvas')].filter((r) => r.querySelector('.main-svg')).length === 4"
    )
    wait_settled(page)
    canvases = page.evaluate(CANVASES_JS)
    first, second = canvases[0], canvases[1 if canvases[1]["top"] > canvases[0]["top"] + 1 else 2]
    page.screenshot(path=ARTIFACTS / f"presentation-compare4-{size[0]}x{size[1]}.png")
    if size == (1920, 1080):
        assert all(c["top"] >= 0 and c["bottom"] <= c["inner"] for c in canvases), canvases
        assert all(c["bottom"] - c["top"] >= 320 for c in canvases), canvases  # readable, not strips
    else:
        assert first["bottom"] <= first["inner"] and first["bottom"] - first["top"] >= 0.5 * size[1], canvases
        assert second["top"] >= first["inner"] and second["room"] >= 0.6 * size[1], canvases
    close_page(page)


# ---- 5. Nothing overflows at 800 px and up -----------------------------------------------------

CLIPPED_JS = """() => {
  const visible = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const clipped = [];
  const roots = document.querySelectorAll("[data-testid='stMain'], [data-testid='stSidebar']");
  for (const root of roots) {
    for (const e of root.querySelectorAll("button, button p, label, label p, [data-testid='stMarkdownContainer'] p")) {
      if (!visible(e)) continue;
      if (e.scrollWidth > e.clientWidth + 1) clipped.push('cut: ' + e.textContent.trim().slice(0, 40));
      if (e.getBoundingClientRect().right > root.getBoundingClientRect().right + 1)
        clipped.push('beyond the edge: ' + e.textContent.trim().slice(0, 40));
    }
    for (const grid of root.querySelectorAll("[data-testid='stDataFrame'] .dvn-scroller")) {
      if (visible(grid) && grid.scrollWidth > grid.clientWidth + 1) clipped.push('table scrolls sideways');
    }
  }
  return {clipped: clipped, page: [document.scrollingElement.scrollWidth, innerWidth]};
}"""


@pytest.mark.parametrize("width", [800, 1280])
def test_nothing_is_clipped_or_overflows(browser, server, width):
    page = open_page(browser, server, width=width, height=1000)
    sidebar(page).get_by_text("Generate Gaussian clusters").click()
    page.wait_for_selector("section[data-testid='stSidebar'] [data-testid='stDataFrame'] .dvn-scroller")
    page.get_by_role("button", name="Add to points").wait_for()
    wait_settled(page)
    found = page.evaluate(CLIPPED_JS)
    assert found["page"][0] <= found["page"][1], found
    assert not found["clipped"], found["clipped"]
    # The ones that used to be cut, named.
    for name in ("Compare methods", "Replace points", "Add to points"):
        text = page.get_by_text(name, exact=True).first
        assert text.evaluate("e => e.closest('button').scrollWidth <= e.closest('button').clientWidth + 1"), name
        assert text.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), name
    label = page.get_by_text("Presentation", exact=True)
    assert label.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().width > 60")
    status = page.locator("[role=status]").get_by_text("training accuracy").first  # not the plot's caption
    main = page.locator("[data-testid='stMain']").bounding_box()
    box = status.bounding_box()
    assert box["x"] + box["width"] <= main["x"] + main["width"] + 1
    page.screenshot(path=ARTIFACTS / f"layout-{width}.png", full_page=True)
    page.locator(".pg-canvas").screenshot(path=ARTIFACTS / f"canvas-{width}.png")
    close_page(page)


@pytest.mark.parametrize("width", [390, 800])
def test_the_plots_caption_fits_beside_the_mode_bar(browser, server, width):
    """plotly does not wrap the caption (ui/plot/caption.py): on a phone its type is made smaller
    until its longest line fits left of the mode bar's column, within the canvas."""
    page = open_page(browser, server, width=width, height=844)
    page.wait_for_function("() => document.querySelector('.pg-canvas .annotation .annotation-text-g')")
    wait_settled(page)
    box = page.evaluate(
        """() => { const root = document.querySelector('.pg-canvas'), r = root.getBoundingClientRect();
        const text = root.querySelector('.annotation .annotation-text-g').getBoundingClientRect();
        const size = parseFloat(root.querySelector('.annotation text').style.fontSize);
        return {right: text.right, canvas: r.right, size: size}; }"""
    )
    assert box["right"] <= box["canvas"] - 30, box
    assert box["size"] >= 9, box
    close_page(page)


# ---- 6, 7, 8. The toolbars, downloads and axis titles ------------------------------------------


def _toolbar_titles(page, root):
    page.locator(f"{root} .main-svg").first.hover()
    page.wait_for_selector(f"{root} .modebar", state="visible")
    return page.locator(f"{root} .modebar-btn").evaluate_all("bs => bs.map(b => b.getAttribute('data-title'))")


def _download(page, root, title):
    page.locator(f"{root} .main-svg").first.hover()
    with page.expect_download() as info:
        page.locator(f"{root} .modebar-btn[data-title='{title}']").first.click()
    download = info.value
    path = ARTIFACTS / download.suggested_filename
    download.save_as(path)
    return download.suggested_filename, path.read_bytes()


def test_toolbars_download_png_and_svg_offline_and_never_offer_plotly_cloud(browser, server):
    page = open_page(browser, server)
    page.wait_for_selector(".pg-chart .main-svg", timeout=30_000)  # the open panel's chart
    for root in (".pg-canvas", ".pg-chart"):
        titles = _toolbar_titles(page, root)
        assert not [t for t in titles if "share" in t.lower() or "cloud" in t.lower()], titles
        assert "Download as PNG" in titles and "Download as SVG (vector)" in titles, titles
    assert "Fit the view to the points (key F)" in _toolbar_titles(page, ".pg-canvas")

    # Offline: no request leaves the page while the images are made.
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    name, png = _download(page, ".pg-canvas", "Download as PNG")
    assert re.fullmatch(rf"least-squares-{DATE}\.png", name) and png.startswith(b"\x89PNG\r\n\x1a\n")
    name, svg = _download(page, ".pg-canvas", "Download as SVG (vector)")
    assert re.fullmatch(rf"least-squares-{DATE}\.svg", name)
    text = svg.decode("utf-8")
    assert text.lstrip().startswith("<svg") and "x₁" in text and "x₂" in text and "class 1" in text
    canvas_svg = ARTIFACTS / name
    name, chart_png = _download(page, ".pg-chart", "Download as PNG")
    assert re.fullmatch(rf"least-squares-[a-z0-9-]+-{DATE}\.png", name) and chart_png.startswith(b"\x89PNG")
    name, chart_svg = _download(page, ".pg-chart", "Download as SVG (vector)")
    assert re.fullmatch(rf"least-squares-[a-z0-9-]+-{DATE}\.svg", name) and b"<svg" in chart_svg[:200]
    assert not [url for url in requests if not url.startswith(("blob:", "data:"))], requests

    # The SVG opened on its own, as a student would: it draws the figure.
    viewer = page.context.new_page()
    encoded = base64.b64encode(canvas_svg.read_bytes()).decode()
    viewer.set_content(f'<img id="figure" src="data:image/svg+xml;base64,{encoded}">')
    viewer.wait_for_function("() => document.getElementById('figure').complete")
    assert viewer.evaluate("() => document.getElementById('figure').naturalWidth") > 400
    viewer.screenshot(path=ARTIFACTS / "download-svg-opened.png", full_page=True)
    viewer.close()
    close_page(page)


def test_the_canvas_axes_are_titled_x1_and_x2(browser, server):
    page = open_page(browser, server)
    assert page.locator(".pg-canvas .g-xtitle").text_content() == "x₁"
    assert page.locator(".pg-canvas .g-ytitle").text_content() == "x₂"
    page.get_by_text("Compare methods", exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('.pg-canvas .g-xtitle').length === 4", timeout=30_000)
    assert page.locator(".pg-canvas .g-xtitle").all_text_contents() == ["x₁"] * 4
    assert page.locator(".pg-canvas .g-ytitle").all_text_contents() == ["x₂"] * 4
    close_page(page)


def test_a_fit_message_never_moves_the_plot(browser, server):
    """A message that appears after a switch (the SVM's SMO note for each of three one-versus-rest
    classifiers) is shown under the plot: the plot stays where the pointer is."""
    from tests.test_browser_canvas import _pick_method

    page = open_page(browser, server)
    before = page.evaluate(RECT_JS, ".pg-canvas")
    assert not page.locator("[data-testid='stMain'] [data-testid='stAlert']").count()
    _pick_method(page, "Support vector machine")
    wait_settled(page)
    note = page.locator("[data-testid='stMain'] [data-testid='stAlert']").filter(has_text="SMO steps")
    assert note.count() == 1
    after = page.evaluate(RECT_JS, ".pg-canvas")
    assert after["top"] == pytest.approx(before["top"], abs=0.5)
    assert note.bounding_box()["y"] > after["bottom"]  # under the plot
    page.screenshot(path=ARTIFACTS / "canvas-message-below.png")
    close_page(page)
