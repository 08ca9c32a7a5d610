"""The accessibility audit (issue 38): axe-core's WCAG 2.0, 2.1 and 2.2 A and AA rules over every
state a person meets, with no violation of impact serious or critical.

The states: the default page (1400x1000) in English, Japanese and Chinese, in the light theme and
the dark one (the system's scheme, which the page follows), and a panel with a player in the dark;
presentation at 1280x720; the comparison of methods; every panel tab that any method opens (the
set of titles audited must be every panel's); the lecturer's page with a class room open, the
projector (the room in presentation), and the student page before and after joining.

One server and one browser for the module; a page is reused from one state to the next where a
person would get there by a click. The tests wait for states (the canvas drawn and quiet, a tab
selected), never for fixed times. ``AUDITED`` keeps every state's findings, so a failure lists them
all at once (and ``python -m tests.test_browser_a11y URL`` prints the counts of a running server).
"""

import re
import sys

import pytest
from axe_playwright_python.sync_playwright import Axe

from playground.scene import PointSet
from tests.browser import ARTIFACTS
from tests.conftest import clusters
from tests.test_browser_canvas import link, open_page, wait_settled
from ui.panels import all_panels
from ui.session.state import default_scene

pytestmark = pytest.mark.browser

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    "resultTypes": ["violations"],
}
BLOCKING = ("serious", "critical")
AUDITED: dict[str, list[tuple[str, str, int]]] = {}  # state -> [(rule, impact, nodes)] found
REPORTS: dict[str, list[str]] = {}  # state -> a readable line per element found
_AXE = Axe()


def audit(page, state):
    """Run axe over ``page``; record and return the serious and critical violations as readable lines."""
    violations = [v for v in _AXE.run(page, options=AXE_OPTIONS).response["violations"] if v["impact"] in BLOCKING]
    AUDITED[state] = [(v["id"], v["impact"], len(v["nodes"])) for v in violations]
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())[:240]
            lines.append(f"{state}: {violation['id']} ({violation['impact']}) at {node['target']}: {summary}")
    REPORTS[state] = lines
    return lines[:40]


def _wait_idle(page):
    """The script run that a click started has finished and the canvas (if any) is quiet."""
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"]')", timeout=30_000)
    if page.locator(".pg-canvas").count():
        wait_settled(page)


def _scene(n_classes, method, multiclass="native", basis=None):
    X, y = clusters(n_classes, 12)
    scene = default_scene().with_points(PointSet.from_arrays(X, y)).with_method(method, {}, multiclass)
    return scene.with_basis(*basis) if basis else scene


# Scenes that, between them, open every panel (the test checks that they do).
PANEL_SCENES = (
    _scene(3, "least_squares"),
    _scene(3, "least_squares", "ovr"),
    _scene(2, "fisher"),
    _scene(2, "perceptron"),
    _scene(3, "perceptron", "ovr"),
    _scene(2, "logistic"),
    _scene(2, "probit"),
    _scene(2, "bayesian_logistic"),
    _scene(3, "gaussian_shared"),
    _scene(2, "svm"),
    _scene(2, "least_squares", basis=("polynomial", {"degree": 2})),
)


def test_the_default_page_in_every_language_and_both_themes(browser, server):
    problems = []
    for language in ("en", "ja", "zh"):
        page = open_page(browser, f"{server}/?lang={language}")
        problems += audit(page, f"default page, {language}")
        page.context.close()
    page = _dark_page(browser, server)
    problems += audit(page, "default page, dark theme")
    page.screenshot(path=ARTIFACTS / "a11y-dark-1400.png")
    # A panel with a player and sliders in the dark theme too (their colours are the page's own).
    page.goto(link(server, _scene(2, "perceptron")))
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.get_by_role("tab", name="Perceptron playback (fig. 4.7)").click()
    page.wait_for_selector(".pg-player-play")
    _wait_idle(page)
    problems += audit(page, "perceptron playback panel, dark theme")
    page.context.close()
    assert not problems, "\n".join(problems)


def _dark_page(browser, url, width=1400, height=1000):
    """The page in a browser whose system scheme is dark (the page follows it)."""
    context = browser.new_context(viewport={"width": width, "height": height}, color_scheme="dark")
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    return page


def test_presentation_and_the_comparison(browser, server):
    problems = []
    page = open_page(browser, f"{server}/?pm=1", 1280, 720)
    page.wait_for_selector(".st-key-pb_next button:visible")
    _wait_idle(page)
    problems += audit(page, "presentation 1280x720")
    page.context.close()
    page = open_page(browser, f"{server}/?cmp=least_squares,logistic,fisher")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pg-canvas')].filter(c => c.querySelector('.main-svg')).length === 3",
        timeout=60_000,
    )
    _wait_idle(page)
    problems += audit(page, "comparison of three methods")
    page.context.close()
    assert not problems, "\n".join(problems)


def test_every_panel_tab(browser, server):
    problems, seen = [], set()
    page = None
    for scene in PANEL_SCENES:
        if page is None:
            page = open_page(browser, link(server, scene))
        else:
            page.goto(link(server, scene))
            page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
            _wait_idle(page)
        tabs = page.get_by_role("tab")
        for index in range(tabs.count()):
            title = tabs.nth(index).inner_text().strip()
            if title in seen:
                continue
            seen.add(title)
            tabs.nth(index).click()
            page.wait_for_function(
                "i => document.querySelectorAll('[role=tab]')[i]?.getAttribute('aria-selected') === 'true'", arg=index
            )
            _wait_idle(page)
            problems += audit(page, f"panel {title!r} ({scene.method})")
    page.context.close()
    titles = {panel.title for panel in all_panels() if panel.render}  # English: the page's language here
    assert titles <= seen, f"no scene opened {titles - seen}"
    assert not problems, "\n".join(problems)


def test_the_lecturer_the_projector_and_the_student(browser, server):
    problems = []
    page = open_page(browser, server)
    page.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Open a class room").click()
    page.wait_for_selector(".pg-projector[data-points]", timeout=60_000)
    _wait_idle(page)
    code = re.search(r"/room\?c=([A-Z0-9]{8})", page.content()).group(1)
    problems += audit(page, "lecturer's page with a room")
    page.get_by_text("Presentation", exact=True).click()
    page.wait_for_function("() => document.querySelector('.st-key-pg_view_row')?.innerText.includes('Pause')")
    _wait_idle(page)
    problems += audit(page, "projector (room in presentation)")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.screenshot(path=ARTIFACTS / "a11y-projector.png")
    page.context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    student = phone.new_page()
    student.goto(f"{server}/room?c={code}&lang=en")
    student.wait_for_selector("#join-button:visible")
    problems += audit(student, "student page, before joining")
    student.tap("#join-button")
    student.wait_for_selector("#plot .main-svg")
    problems += audit(student, "student page, joined")
    phone.close()
    assert not problems, "\n".join(problems)


if __name__ == "__main__":  # the counts of a running server: python -m tests.test_browser_a11y URL
    from playwright.sync_api import sync_playwright

    from tests.browser import CHROMIUM_ARGS, chromium_path

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for test in (
            test_the_default_page_in_every_language_and_both_themes,
            test_presentation_and_the_comparison,
            test_every_panel_tab,
            test_the_lecturer_the_projector_and_the_student,
        ):
            try:
                test(chromium, sys.argv[1])
            except AssertionError as err:
                print(str(err).splitlines()[-1], file=sys.stderr)
        chromium.close()
    for lines in REPORTS.values():
        print("\n".join(lines), file=sys.stderr)
    for state, found in AUDITED.items():
        print(f"| {state} | " + (", ".join(f"{rule} x{n} ({impact})" for rule, impact, n in found) or "none") + " |")
