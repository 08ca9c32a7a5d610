"""Real-browser tests: a run that selects another panel tab leaves the page where the person left
it (ui/widgets/tab_scroll.py). Streamlit's tabs scroll their selected tab into view, which scrolled
a projector's page by a screen's worth under the lecturer's → key (the presenter bar and the plot
went off screen); the selected tab is still shown along its own row on a phone.

They wait for states, never for fixed times.
"""

import pytest

from tests.test_browser_canvas import close_page, open_page, wait_settled
from tests.test_browser_lecture import _load
from tests.test_browser_presenter import _presenting

pytestmark = pytest.mark.browser

MAIN_SCROLL_JS = "() => document.querySelector('[data-testid=\"stMain\"]').scrollTop"
SELECTED_JS = '(name) => document.querySelector(\'[role="tab"][aria-selected="true"]\')?.textContent.includes(name)'


def _select_tab(page, name):
    """A person's click on tab ``name`` (Playwright scrolls it into view first), then back to the top."""
    page.get_by_role("tab", name=name).click()
    page.wait_for_function(SELECTED_JS, arg=name, timeout=30_000)
    wait_settled(page)
    page.evaluate("() => { document.querySelector('[data-testid=\"stMain\"]').scrollTop = 0; }")


def _click_preset(page, key):
    """The sidebar's button of figure ``key`` (folded away on these pages; clicked as its keys would)."""
    page.evaluate("(k) => document.querySelector('.st-key-preset_' + k + ' button').click()", key)


def test_a_figure_selecting_another_tab_keeps_the_presenter_bar_on_screen(browser, server):
    # Figure 4.6 and the six-point example are both Fisher's, with the same tabs; each opens the
    # "Fisher projection" tab. With another tab open, the next figure selects it back in a tab row
    # that is below the window's bottom at 1280x720.
    page = _presenting(browser, server, 1280, 720)
    _load(page, "fig4_6")
    _select_tab(page, "Geometry (fig. 4.1)")
    bar_top = page.evaluate("() => document.querySelector('.st-key-pg_view_row').getBoundingClientRect().top")
    _load(page, "seed003")
    page.wait_for_function(SELECTED_JS, arg="Fisher projection", timeout=30_000)
    wait_settled(page)
    assert page.evaluate(MAIN_SCROLL_JS) == 0
    assert page.evaluate("() => document.querySelector('.st-key-pg_view_row').getBoundingClientRect().top") == bar_top
    close_page(page)


def test_on_a_phone_the_selected_tab_is_shown_along_its_row_and_the_page_stays(browser, server):
    page = open_page(browser, server, 390, 844)
    _click_preset(page, "fig4_6")
    page.wait_for_function(SELECTED_JS, arg="Fisher projection", timeout=60_000)
    wait_settled(page)
    _select_tab(page, "Metrics")  # the row's last tab: the row is scrolled to its end
    _click_preset(page, "seed003")
    page.wait_for_function(SELECTED_JS, arg="Fisher projection", timeout=60_000)
    # The selected tab comes into its row's box (the row scrolled back along itself) ...
    page.wait_for_function(
        '() => { const tab = document.querySelector(\'[role="tab"][aria-selected="true"]\');'
        " const row = tab.closest('[role=\"tablist\"]').parentElement.getBoundingClientRect();"
        " const box = tab.getBoundingClientRect(); return box.left >= row.left - 1 && box.right <= row.right + 1; }",
        timeout=30_000,
    )
    wait_settled(page)
    # ... and the page is where the person left it: at its top.
    assert page.evaluate(MAIN_SCROLL_JS) == 0
    close_page(page)
