"""Real-browser test of the browser-side texts in Japanese (issue 18, catalog area browser): on a
``?lang=ja`` link with a perceptron playback, the player's buttons, speed label and step line and
the toolbars' buttons are Japanese, as the JavaScript shows them from the server's texts.

Waits are for states, never fixed times; it leaves a screenshot of the player in test-artifacts/."""

import re

import numpy as np
import pytest

from playground import make_model
from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, open_page, wait_settled
from tests.test_browser_canvas_layout import _toolbar_titles
from tests.test_browser_playback import _link, _perceptron_scene

pytestmark = pytest.mark.browser

PLAYER = ".pg-player"
STEP_LINE_JS = "() => document.querySelector('.pg-player-step')?.textContent || ''"
ROW_JS = """() => [...document.querySelectorAll('.pg-player-row button, .pg-player-row label')].map(
  (el) => ({text: el.firstChild ? el.firstChild.textContent : '', title: el.getAttribute('title') || '',
            aria: el.getAttribute('aria-label') || ''}))"""
CLICK_AND_READ_JS = """(title) => {
  document.querySelector(`.pg-player button[title="${title}"]`).click();
  return {step: document.querySelector('.pg-player').dataset.step,
          line: document.querySelector('.pg-player-step').textContent};
}"""
# As the Japanese catalog should have them (the book's terms: 誤分類 for misclassified).
JA = {
    "play": "▶ 再生",
    "pause": "❚❚ 一時停止",
    "final": "最終結果",
    "final_title": "最終的な学習結果を表示",
    "back_title": "1 ステップ戻る",
    "forward_title": "1 ステップ進む",
    "speed": "速度 ",
    "png": "PNG でダウンロード",
    "svg": "SVG（ベクター）でダウンロード",
    "fit": "表示範囲を点に合わせる（キー F）",
}
ENGLISH = ["Play", "Pause", "Final fit", "Speed", "One step", "of", "end of the run", "misclassified", "correct"]


def _misclassified(model, points, step):
    """The points the model of ``step`` gets wrong (the oracle for the player's count)."""
    return int(np.sum(model.at_step(step).predict(points.X) != points.y))


def test_the_player_and_the_toolbars_speak_japanese(browser, server):
    scene, points = _perceptron_scene()
    model = make_model("perceptron").fit(points.X, points.y)
    n = model.n_iter_
    page = open_page(browser, _link(server, scene) + "&lang=ja")
    page.wait_for_selector(PLAYER, timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.step !== undefined")
    wait_settled(page)

    # The final fit, at the end of the run: "{label} {n} / {n}（実行の終わり）".
    line = page.evaluate(STEP_LINE_JS)
    assert line == f"更新 {n} / {n}（実行の終わり）", line  # the panel's label: 更新 (update)
    row = page.evaluate(ROW_JS)
    texts = [entry["text"] for entry in row]
    titles = [entry["title"] for entry in row]
    assert texts[0] == JA["play"] and JA["final"] in texts and JA["speed"] in texts, texts
    assert {JA["final_title"], JA["back_title"], JA["forward_title"]} <= set(titles), titles
    for entry in row:
        for english in ENGLISH:
            assert not re.search(rf"\b{english}\b", " ".join(entry.values())), entry

    # A step of the browser's own: the line counts the points wrong at that step, in Japanese. Read
    # as the click shows it (the line drops the count once the server draws that step itself).
    shown = page.evaluate(CLICK_AND_READ_JS, JA["back_title"])
    wrong = _misclassified(model, points, n - 1)
    assert wrong >= 1  # the last update used a misclassified point
    assert shown["step"] == str(n - 1), shown
    assert shown["line"] == f"更新 {n - 1} / {n} · 誤分類 {wrong} 点（丸で囲んで表示）", shown
    readout = page.locator(f"{PLAYER} .pg-player-readout").text_content()
    assert readout.startswith(f"更新 {n - 1}") and "Update" not in readout, readout
    wait_settled(page)

    # Play (from the start, the final fit shown, slowly) and pause: the button's text and
    # accessible name follow, in Japanese.
    page.locator(f"{PLAYER} button[title='{JA['final_title']}']").click()
    page.wait_for_function(f"() => document.querySelector('.pg-player')?.dataset.step === '{n}'")
    wait_settled(page)
    page.select_option(f"{PLAYER} select[aria-label='速度']", "0.25")
    page.get_by_role("button", name="再生", exact=True).click()
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.playing === 'true'")
    assert page.locator(f"{PLAYER} .pg-player-play").text_content() == JA["pause"]
    page.get_by_role("button", name="一時停止", exact=True).click()
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.playing === 'false'")
    assert page.locator(f"{PLAYER} .pg-player-play").text_content() == JA["play"]
    wait_settled(page)

    # The toolbars (hovered, as a person sees them): the canvas's and the panel's chart's.
    canvas_titles = _toolbar_titles(page, ".pg-canvas")
    assert {JA["png"], JA["svg"], JA["fit"]} <= set(canvas_titles), canvas_titles
    page.wait_for_selector(".pg-chart .main-svg", timeout=30_000)
    chart_titles = _toolbar_titles(page, ".pg-chart")
    assert {JA["png"], JA["svg"]} <= set(chart_titles), chart_titles
    assert not [t for t in canvas_titles + chart_titles if "Download" in t or "Fit the view" in t]

    page.locator(PLAYER).evaluate("(el) => el.scrollIntoView({block: 'center'})")  # with the canvas above
    wait_settled(page)
    page.screenshot(path=ARTIFACTS / "i18n-ja-player-1400.png")
    close_page(page)
