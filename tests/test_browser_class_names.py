"""Real-browser test of class names (issue 18): renaming a class in the sidebar shows the name in
the canvas legend, the copied link carries it, and a new browser context opened on that link
shows the name again; a name that looks like HTML is shown as its characters."""

import pytest

from tests.browser import ARTIFACTS, wait_settled

pytestmark = pytest.mark.browser

LEGEND_JS = """() => [...document.querySelectorAll('.pg-canvas .legend .traces .legendtext')]
  .map(t => t.textContent)"""
HOSTILE = "<b>bold</b> & %{x}"


def _open(browser, url, errors):
    """A fresh browser context (no shared storage or session) on ``url``, settled."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    return context, page


def _sidebar(page):
    return page.locator("section[data-testid='stSidebar']")


def _legend_has(page, text, timeout=20_000):
    page.wait_for_function(f"t => ({LEGEND_JS})().includes(t)", arg=text, timeout=timeout)


def _rename(page, number, name):
    field = _sidebar(page).get_by_label(f"Name of class {number}")
    field.fill(name)
    field.press("Enter")


def test_a_renamed_class_shows_in_the_legend_and_in_a_copied_link(browser, server):
    errors = []
    context, page = _open(browser, server, errors)
    assert "class 1" in page.evaluate(LEGEND_JS)
    _sidebar(page).get_by_text("Class names", exact=True).click()
    _rename(page, 1, "setosa")
    page.wait_for_function("() => window.location.search.includes('names=')", timeout=15_000)
    _legend_has(page, "setosa")
    _rename(page, 2, HOSTILE)
    _legend_has(page, HOSTILE)  # the characters themselves: no bold, no hover template
    wait_settled(page)
    legend = page.evaluate(LEGEND_JS)
    assert legend[:3] == ["setosa", HOSTILE, "class 3"], legend
    assert page.locator(".pg-canvas .legend text[style*='bold'], .pg-canvas .legend tspan[style*='bold']").count() == 0
    status = page.locator("div[role='status']").inner_text()
    assert "setosa: 30" in status and f"{HOSTILE}: 30" in status
    page.screenshot(path=str(ARTIFACTS / "class-names.png"))

    context.grant_permissions(["clipboard-read", "clipboard-write"])
    _sidebar(page).get_by_text("Copy link to this scene").click()
    page.wait_for_function("() => document.querySelector('.pg-copy-note').textContent.includes('Copied')")
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert link == page.url and "names=" in link

    other, copy = _open(browser, link, errors)
    _legend_has(copy, "setosa")
    assert copy.evaluate(LEGEND_JS)[:3] == ["setosa", HOSTILE, "class 3"]
    assert "setosa: 30" in copy.locator("div[role='status']").inner_text()
    assert not copy.get_by_text("could not be used").count()
    other.close()
    context.close()
    assert not errors, errors
