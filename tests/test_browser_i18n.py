"""Real-browser tests of the interface's languages (issue 18): a link's ``?lang=``, the browser's
preferred language and the picker give the sidebar, the status line and the legend in Japanese or
Chinese; switching keeps the points and the link follows.

They wait for states, never for fixed times; each leaves screenshots in test-artifacts/.
"""

import pytest

from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page, sidebar, state, wait_settled
from ui.widgets.language import PICKER_LABEL

pytestmark = pytest.mark.browser

LEGEND_JS = "() => [...document.querySelectorAll('.pg-canvas .legendtext')].map(e => e.textContent)"
HAS_LEGEND_ENTRY_JS = (
    "(name) => [...document.querySelectorAll('.pg-canvas .legendtext')].some(e => e.textContent.includes(name))"
)
STATUS_JS = "() => document.querySelector('.pg-status')?.closest('div')?.parentElement?.innerText || ''"

EXPECTED = {
    "ja": {
        "headers": ["手法", "点", "基底関数", "共有"],
        "class": "クラス 1",
        "status": "訓練正解率",
        "length": " 文字。",
    },
    "zh": {
        "headers": ["方法", "点", "基函数", "分享"],
        "class": "类别 1",
        "status": "训练准确率",
        "length": " 个字符。",
    },
}


def _headers(page):
    return [text.strip() for text in sidebar(page).locator("h2").all_inner_texts()]


def _check_language(page, language):
    expected = EXPECTED[language]
    page.wait_for_function("(text) => document.body.innerText.includes(text)", arg=expected["status"], timeout=30_000)
    assert _headers(page)[:4] == expected["headers"]
    # The status line is written before plotly redraws the canvas in the same rerun: wait for the legend's state.
    try:
        page.wait_for_function(HAS_LEGEND_ENTRY_JS, arg=expected["class"], timeout=30_000)
    except Exception:
        pass  # the assertion below says what the legend shows instead
    legend = page.evaluate(LEGEND_JS)
    assert any(expected["class"] in entry for entry in legend), legend
    assert expected["status"] in page.locator("body").inner_text()
    # The share box's length is written in the browser, from texts the server sends in the language.
    length = page.locator(".pg-link-length").text_content()
    assert length.endswith(expected["length"]) and length[: -len(expected["length"])].replace(",", "").isdigit()


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_a_link_opens_in_its_language(browser, server, language):
    page = open_page(browser, f"{server}/?lang={language}")
    _check_language(page, language)
    page.screenshot(path=ARTIFACTS / f"i18n-{language}-1400.png")
    page.set_viewport_size({"width": 800, "height": 1000})
    wait_settled(page)
    page.screenshot(path=ARTIFACTS / f"i18n-{language}-800.png")
    close_page(page)


def test_the_browsers_preferred_language_is_the_default(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, locale="zh-CN")
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    _check_language(page, "zh")
    context.close()


def test_the_picker_switches_language_keeps_the_points_and_the_link_follows(browser, server):
    page = open_page(browser, server)
    before = state(page)
    assert _headers(page)[:2] == ["Method", "Points"]  # the method first (issue 26)
    sidebar(page).get_by_role("combobox", name=PICKER_LABEL).click()
    page.get_by_role("option", name="日本語").click()
    _check_language(page, "ja")
    wait_settled(page)
    after = state(page)
    assert after["n_points"] == before["n_points"] and after["xs"] == before["xs"]
    page.wait_for_function("() => new URLSearchParams(location.search).get('lang') === 'ja'", timeout=30_000)
    link = page.url
    # Back to English in the same page, then the Japanese link opened afresh is Japanese again.
    sidebar(page).get_by_role("combobox", name=PICKER_LABEL).click()
    page.get_by_role("option", name="English").click()
    page.wait_for_function("() => [...document.querySelectorAll('h2')].some(h => h.innerText.trim() === 'Points')")
    close_page(page)
    page = open_page(browser, link)
    _check_language(page, "ja")
    close_page(page)


# Every link the share box shows, in order, from the page's start (the box reads the address bar).
RECORD_LINKS_JS = """
window.__pgLinksShown = [];
new MutationObserver(() => {
  const link = document.querySelector('.pg-link')?.textContent;
  if (link && window.__pgLinksShown.at(-1) !== link) window.__pgLinksShown.push(link);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def test_the_address_bar_names_the_language_the_page_took(browser, server):
    """``?lang=JA%00`` opens the page in English, and the address bar says ``lang=en`` from the
    first run on: the share box never offers a link with the value the page did not take (the tree
    before showed ``lang=JA%00`` until a later run rewrote the address)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.add_init_script(RECORD_LINKS_JS)
    page.goto(f"{server}/?lang=JA%00&m=fisher")
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.locator(".pg-link").wait_for(timeout=30_000)
    wait_settled(page)
    assert "training accuracy" in page.locator("body").inner_text()
    assert page.evaluate("() => new URLSearchParams(location.search).getAll('lang')") == ["en"]
    shown = page.evaluate("() => window.__pgLinksShown")
    assert shown and all(
        page.evaluate("(url) => new URL(url).searchParams.getAll('lang')", link) == ["en"] for link in shown
    ), shown
    page.screenshot(path=ARTIFACTS / "i18n-hostile-lang.png")
    context.close()
