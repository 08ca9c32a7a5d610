"""Real-browser tests of sharing and of the teaching views: a copied link opened in a new browser
context shows the same scene; the comparison view and presentation mode work on screen."""

import pytest

from tests.browser import ARTIFACTS, CANVAS_STATE_JS, wait_settled
from tests.long_link import longest_query

pytestmark = pytest.mark.browser


def _open(browser, url, errors, timeout=60_000):
    """A fresh browser context (no shared storage or session) on ``url``, settled."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=timeout)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    return context, page


def _click_plot(page, fx, fy):
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])


def _sidebar(page):
    return page.locator("section[data-testid='stSidebar']")


def _wait_for_url(page, fragment, timeout=15_000):
    page.wait_for_function("f => window.location.search.includes(f)", arg=fragment, timeout=timeout)


def test_a_copied_link_opens_the_same_scene_in_a_new_browser(browser, server):
    errors = []
    context, page = _open(browser, server, errors)
    # Change points, method and a parameter as a person would.
    before = page.evaluate(CANVAS_STATE_JS)["n_points"]
    _click_plot(page, 0.2, 0.2)
    page.wait_for_function("n => document.querySelector('.pg-canvas')?.dataset.points == n + 1", arg=before)
    wait_settled(page)
    _sidebar(page).get_by_role("combobox", name="Method").click()
    page.keyboard.type("Support vector machine")
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")
    _wait_for_url(page, "m=svm")
    wait_settled(page)
    _sidebar(page).get_by_text("one-versus-one", exact=True).click()
    _wait_for_url(page, "mc=ovo")
    wait_settled(page)
    original = page.evaluate(CANVAS_STATE_JS)
    link = page.url
    assert len(link) < 2000 and original["n_points"] == before + 1

    # The copy button puts the same link on the clipboard.
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    _sidebar(page).get_by_text("Copy link to this scene").click()
    page.wait_for_function("() => document.querySelector('.pg-copy-note').textContent.includes('Copied')")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    page.screenshot(path=str(ARTIFACTS / "share-original.png"))

    other, copy = _open(browser, link, errors)
    reopened = copy.evaluate(CANVAS_STATE_JS)
    assert reopened["n_points"] == original["n_points"]
    assert sorted(reopened["classes"]) == sorted(original["classes"])
    for a, b in zip(sorted(zip(reopened["xs"], reopened["ys"])), sorted(zip(original["xs"], original["ys"]))):
        assert a == pytest.approx(b, abs=1e-3)  # 16-bit quantisation of the points
    assert reopened["xrange"] == pytest.approx(original["xrange"], rel=1e-3, abs=1e-3)
    sidebar = _sidebar(copy)
    chosen = sidebar.get_by_role("combobox", name="Method").evaluate("e => e.value || e.innerText || ''")
    assert chosen.startswith("Support vector machine")
    assert sidebar.locator("label:has(input:checked)").filter(has_text="one-versus-one").count() == 1
    assert not copy.get_by_text("could not be used").count()
    copy.screenshot(path=str(ARTIFACTS / "share-reopened.png"))
    other.close()
    context.close()
    assert not errors, errors


def test_a_tampered_link_shows_a_message_and_the_default_points(browser, server):
    errors = []
    context, page = _open(browser, f"{server}/?v=1&p=0,1,0,1~AAAA&m=nope&w=3,2,1", errors)
    warning = page.get_by_text("could not be used")
    warning.wait_for(timeout=15_000)
    text = page.locator("[data-testid='stAlert']").first.inner_text()
    assert "points were ignored" in text and "unknown method" in text and "view window" in text
    assert page.evaluate(CANVAS_STATE_JS)["n_points"] == 90  # the default clusters
    page.screenshot(path=str(ARTIFACTS / "share-tampered.png"))
    context.close()
    assert not errors, errors


def test_a_link_with_too_many_parameters_is_refused_with_a_message(browser, server):
    """Streamlit reads no parameter of a link with more than 1,000: only the browser sees them, and
    the page says so (in the session's language) over the default scene."""
    errors = []
    query = "&".join(f"q{i}=1" for i in range(1001))
    context, page = _open(browser, f"{server}/?{query}", errors)
    page.get_by_text("The link has 1,001 parameters").wait_for(timeout=30_000)
    text = page.locator("[data-testid='stAlert']").first.inner_text()
    assert "at most 1,000" in text and "default scene is shown" in text
    assert page.evaluate(CANVAS_STATE_JS)["n_points"] == 90
    context.close()
    assert not errors, errors


def test_comparison_view_shares_the_points_and_the_zoom(browser, server):
    errors = []
    context, page = _open(browser, server, errors)
    page.get_by_text("Compare methods", exact=True).click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pg-canvas')].filter(c => c.querySelector('.main-svg')).length === 4",
        timeout=30_000,
    )
    page.wait_for_timeout(1500)
    titles = page.get_by_text("wrong)").all_inner_texts()
    assert any("Least squares" in t for t in titles) and any("Support vector machine" in t for t in titles)
    # A click in the second canvas adds a point that every canvas shows.
    box = page.locator(".pg-canvas .nsewdrag").nth(1).bounding_box()
    page.mouse.click(box["x"] + 0.15 * box["width"], box["y"] + 0.15 * box["height"])
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pg-canvas')].every(c => c.dataset.points === '91')", timeout=20_000
    )
    # The clicked canvas drew the point with its method's boundary through the live route first.
    assert page.evaluate("() => Number(document.querySelectorAll('.pg-canvas')[1].dataset.liveDrawn || 0)") >= 1
    # Zooming one canvas (dragging a box) moves all of them to the same window.
    width_before = page.evaluate(
        "() => { const r = document.querySelector('.pg-canvas')._fullLayout.xaxis.range; return r[1] - r[0]; }"
    )
    page.locator(".pg-canvas .nsewdrag").nth(1).scroll_into_view_if_needed()
    box = page.locator(".pg-canvas .nsewdrag").nth(1).bounding_box()
    page.mouse.move(box["x"] + 0.3 * box["width"], box["y"] + 0.3 * box["height"])
    page.mouse.down()
    page.mouse.move(box["x"] + 0.5 * box["width"], box["y"] + 0.5 * box["height"], steps=8)
    page.mouse.move(box["x"] + 0.7 * box["width"], box["y"] + 0.7 * box["height"], steps=8)
    page.mouse.up()
    page.wait_for_timeout(3000)
    ranges = page.evaluate("() => [...document.querySelectorAll('.pg-canvas')].map(c => c._fullLayout.xaxis.range)")
    assert ranges[0][1] - ranges[0][0] < 0.9 * width_before  # the zoom reached the first canvas too
    for other in ranges[1:]:
        assert other == pytest.approx(ranges[0], rel=1e-3, abs=1e-3)
    page.screenshot(path=str(ARTIFACTS / "compare.png"), full_page=True)
    context.close()
    assert not errors, errors


def _c_slider(page):
    return _sidebar(page).get_by_role("slider", name="C (soft-margin penalty, log scale)")


def test_method_parameters_survive_the_round_trip(browser, server):
    """A link's parameters (here the SVM's C and the shared-covariance priors) reach the widgets,
    and the address bar after an edit carries them on to the next browser."""
    errors = []
    first_link = f'{server}/?m=svm&mc=ovr&mp={{"C":30.0}}'
    context, page = _open(browser, first_link, errors)
    assert _c_slider(page).get_attribute("aria-valuetext") == "30.0"
    before = page.evaluate(CANVAS_STATE_JS)["n_points"]
    _click_plot(page, 0.8, 0.8)
    page.wait_for_function("n => document.querySelector('.pg-canvas')?.dataset.points == n + 1", arg=before)
    wait_settled(page)
    _wait_for_url(page, "C%22%3A30.0")
    other, copy = _open(browser, page.url, errors)
    assert copy.evaluate(CANVAS_STATE_JS)["n_points"] == before + 1
    assert _c_slider(copy).get_attribute("aria-valuetext") == "30.0"
    chosen = _sidebar(copy).get_by_role("combobox", name="Method").evaluate("e => e.value || e.innerText || ''")
    assert chosen.startswith("Support vector machine")
    copy.screenshot(path=str(ARTIFACTS / "share-parameters.png"))
    other.close()
    context.close()
    assert not errors, errors


def test_presentation_mode_folds_the_controls_and_widens_the_plot(browser, server):
    errors = []
    context, page = _open(browser, server, errors)
    width_before = page.locator(".pg-canvas").bounding_box()["width"]
    page.get_by_text("Presentation", exact=True).click()
    page.wait_for_function("() => !document.querySelector(\"section[data-testid='stSidebar']\")?.offsetWidth")
    wait_settled(page)
    # The canvas grows when it sees the sidebar gone (a resize observer): wait for that state.
    page.wait_for_function("() => document.querySelector('.pg-canvas').getBoundingClientRect().height >= 600")
    box = page.locator(".pg-canvas").bounding_box()
    # Wider, and as tall as the window's shape needs within the screen (tests/test_browser_canvas_layout.py).
    assert box["width"] > 1.15 * width_before and 600 <= box["height"] and box["y"] + box["height"] <= 1000
    markers = page.evaluate(
        "() => document.querySelector('.pg-canvas')._fullData.find(t => t.meta === 'points').marker.size"
    )
    assert markers == 16
    page.screenshot(path=str(ARTIFACTS / "presentation.png"))
    context.close()
    assert not errors, errors


def test_a_link_with_the_most_points_a_link_carries_opens(browser, server):
    """5,000 points spread over ±1e6 (about 70,000 characters): the server takes the request (it
    refused heads over 16 KiB) and the page shows every point, with nothing of the link ignored."""
    errors = []
    query = longest_query(light=True)
    assert len(query) > 70_000
    context, page = _open(browser, f"{server}/?{query}", errors, timeout=180_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.points === '5000'")
    assert page.evaluate(CANVAS_STATE_JS)["n_points"] == 5000
    assert not page.get_by_text("was ignored").count() and not page.get_by_text("無視").count()
    page.screenshot(path=str(ARTIFACTS / "share-longest-link.png"))
    context.close()
    assert not errors, errors
