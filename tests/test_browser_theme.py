"""Real-browser test of the dark theme (issue 18): with Streamlit's dark base, the canvas and the
panel charts take the dark palette (background, text, region tints, light boundary and rims).

It waits for states, never for fixed times; it leaves screenshots in test-artifacts/.
"""

import os

import pytest

from tests.browser import ARTIFACTS, streamlit_server
from tests.test_browser_canvas import close_page, open_page, wait_settled
from ui.plot.theme import DARK_BACKGROUND, DARK_REGION_COLOURS, LIGHT_LINES

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def dark_server():
    """A server whose theme is Streamlit's dark base (as a viewer's settings or system would pick)."""
    previous = os.environ.get("STREAMLIT_THEME_BASE")
    os.environ["STREAMLIT_THEME_BASE"] = "dark"
    try:
        with streamlit_server() as url:
            yield url
    finally:
        if previous is None:
            os.environ.pop("STREAMLIT_THEME_BASE", None)
        else:
            os.environ["STREAMLIT_THEME_BASE"] = previous


CANVAS_COLOURS_JS = """() => { const root = document.querySelector('.pg-canvas'); const l = root._fullLayout;
  const regions = root._fullData.filter(t => t.name === 'regions').map(t => t.fillcolor || t.colorscale);
  const boundary = root._fullData.find(t => t.name === 'decision boundary');
  return {paper: l.paper_bgcolor, font: l.font.color, scale: JSON.stringify(regions),
          boundary: boundary ? boundary.line.color : null}; }"""


def test_the_canvas_and_charts_follow_the_dark_theme(browser, dark_server):
    page = open_page(browser, dark_server)
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
