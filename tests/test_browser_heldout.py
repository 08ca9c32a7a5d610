"""Real-browser test of test points (issue 16): in 'add test points' mode a click adds a hollow
test point, which the status line counts and scores; 'switch' mode turns it into a training point
and undo turns it back. Screenshots of the hollow points and the Metrics panel."""

from urllib.parse import urlencode

import pytest

from playground.link import encode_scene
from playground.presets import PRESETS
from tests.browser import ARTIFACTS
from tests.test_browser_canvas import (
    close_page,
    empty_spot,
    open_page,
    sidebar,
    undo_button,
    wait_applied,
    wait_settled,
)
from ui.plot.figures import TEST_FILL
from ui.plot.theme import CLASS_COLOURS

pytestmark = pytest.mark.browser

# The point-marker traces as drawn: name, symbol, the points' indices.
TRACES_JS = """() => (document.querySelector('.pg-canvas')._fullData || [])
  .filter(t => t.meta === 'points')
  .map(t => ({name: t.name, symbol: t.marker.symbol, fill: t.marker.color, rim: t.marker.line.color,
               ids: Array.from(t.customdata || [])}))"""


def _status(page):
    # The status line under the plot (the caption on the plot says "training accuracy" too).
    return page.locator("[role=status]").get_by_text("training accuracy").first.inner_text()


def _wait_status(page, text, present=True, timeout=30_000):
    page.wait_for_function(
        """([text, present]) => {
          const found = [...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
            .some(e => e.innerText.includes('training accuracy') && e.innerText.includes(text));
          return found === present; }""",
        arg=[text, present],
        timeout=timeout,
    )


def _choose_mode(page, label):
    sidebar(page).get_by_text(label, exact=True).click()
    page.wait_for_function(
        """label => [...document.querySelectorAll('section[data-testid="stSidebar"] label')]
          .some(l => l.innerText.includes(label) && l.querySelector('input:checked'))""",
        arg=label,
        timeout=20_000,
    )
    wait_settled(page)


def _hollow(page):
    return [t for t in page.evaluate(TRACES_JS) if t["fill"] == TEST_FILL]  # a narrow legend shortens names


def test_a_click_in_test_mode_adds_a_hollow_test_point_the_status_line_counts(browser, server):
    page = open_page(browser, server)
    n = int(page.evaluate("() => document.querySelector('.pg-canvas')?.dataset.points"))
    assert not _hollow(page) and "test accuracy" not in _status(page)

    _choose_mode(page, "add test points (hollow)")
    page.mouse.click(*empty_spot(page))
    page.wait_for_function("n => document.querySelector('.pg-canvas')?.dataset.points == n + 1", arg=n, timeout=30_000)
    wait_applied(page)
    hollow = _hollow(page)
    assert len(hollow) == 1 and hollow[0]["ids"] == [n]
    # class 1's shape and colour as a rim around a pale centre
    assert hollow[0]["symbol"] == "circle" and hollow[0]["rim"] == CLASS_COLOURS[0] and hollow[0]["fill"] == TEST_FILL
    _wait_status(page, "test accuracy")
    status = _status(page)
    assert (
        "class 1: 30 + 1 test" in status and "of 1 test points misclassified" in status or "(all 1 correct)" in status
    )
    page.screenshot(path=ARTIFACTS / "heldout-test-point-1400.png")

    # 'switch' mode: a click on the test point makes it a training point; undo makes it a test point again.
    _choose_mode(page, "switch train ↔ test")
    marker = page.evaluate(
        """i => { const root = document.querySelector('.pg-canvas');
          const t = root._fullData.find(t => t.meta === 'points' && Array.from(t.customdata).includes(i));
          const k = Array.from(t.customdata).indexOf(i), xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
          const box = root.querySelector('.main-svg').getBoundingClientRect();
          return [box.left + xa._offset + xa.l2p(t.x[k]), box.top + ya._offset + ya.l2p(t.y[k])]; }""",
        n,
    )
    page.mouse.move(*marker)
    page.mouse.click(*marker)
    _wait_status(page, "test accuracy", present=False)
    wait_applied(page)
    assert not _hollow(page)
    assert int(page.evaluate("() => document.querySelector('.pg-canvas')?.dataset.points")) == n + 1
    undo_button(page).click()
    _wait_status(page, "test accuracy")
    wait_settled(page)
    assert len(_hollow(page)) == 1
    close_page(page)


@pytest.mark.parametrize("width", [1400, 800])
def test_the_overfitting_preset_and_its_metrics_panel_on_screen(browser, server, width):
    preset = PRESETS["overfit"]
    query = {**encode_scene(preset.scene), "tab": preset.tab}
    page = open_page(browser, f"{server}/?{urlencode(query)}", width=width, height=1000)
    _wait_status(page, "test accuracy")
    status = _status(page)
    assert "training accuracy 100.0%" in status and "test accuracy 57.5%" in status
    assert len(_hollow(page)) == 2  # one trace per class
    page.screenshot(path=ARTIFACTS / f"heldout-overfit-{width}.png")
    panel = page.get_by_text("Training accuracy", exact=True).first
    panel.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelectorAll('.pg-chart .main-svg').length >= 2", timeout=30_000
    )  # both confusion matrices drawn
    page.screenshot(path=ARTIFACTS / f"heldout-metrics-{width}.png")
    close_page(page)


def test_a_box_selection_in_switch_mode_makes_the_points_inside_test_points(browser, server):
    page = open_page(browser, server)
    n = int(page.evaluate("() => document.querySelector('.pg-canvas')?.dataset.points"))
    _choose_mode(page, "switch train ↔ test")
    layout = page.evaluate(
        "() => { const l = document.querySelector('.pg-canvas')._fullLayout; return [l.xaxis.range, l.yaxis.range]; }"
    )
    (x0, x1), (y0, y1) = layout
    traces = page.evaluate(
        """() => document.querySelector('.pg-canvas')._fullData.filter(t => t.meta === 'points')
          .map(t => ({x: Array.from(t.x), y: Array.from(t.y)}))"""
    )
    xs = [x for t in traces for x in t["x"]]
    inside = sum(1 for x in xs if x < (x0 + x1) / 2)
    assert 0 < inside < n
    page.keyboard.press("e")  # a box in the erase tool: in switch mode its points are switched, not erased
    page.wait_for_function("() => document.querySelector('.pg-canvas')._fullLayout.dragmode === 'select'")
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + 2, box["y"] + 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.move(box["x"] + box["width"] / 2 - 1, box["y"] + box["height"] - 2, steps=8)
    page.mouse.up()
    _wait_status(page, "test accuracy")
    wait_applied(page)
    hollow = _hollow(page)
    assert sum(len(t["ids"]) for t in hollow) == inside  # switched, none removed
    assert int(page.evaluate("() => document.querySelector('.pg-canvas')?.dataset.points")) == n
    page.screenshot(path=ARTIFACTS / "heldout-box-switch-1400.png")
    close_page(page)
