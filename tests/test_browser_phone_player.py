"""A phone (390 x 844, touch): the player's strip and the class of new points (issue 44, item 9).

After taps, with the perceptron's player on the page, the strip of playback controls is one line
(no taller than one and a half of its buttons), "Play" does not wrap, the step's words fit, and
it covers none of the plot's data area (it goes under the plot on a narrow canvas). The class of
new points is beside the tools, without opening the sidebar's drawer, and it is the sidebar's
radio's state: choosing class 2 there makes the next tap add a point of class 2. Waits are for
states."""

import dataclasses
import re
from urllib.parse import urlencode

import pytest

from playground.link import encode_scene
from playground.presets import PRESETS
from tests.browser import ARTIFACTS, wait_settled

pytestmark = pytest.mark.browser

STATUS = "[role='status']"


def _scene():
    scene = PRESETS["seed003"].scene  # six points, the perceptron from w = 0
    return dataclasses.replace(scene, step=None).with_method("perceptron", {}, "native")


def _counts(page):
    """The status line's counts per class: {1: n1, 2: n2, ...}."""
    text = page.locator(STATUS).first.inner_text()
    return {int(k): int(n) for k, n in re.findall(r"class (\d): (\d+)", text)}


def _tap(page, fx, fy):
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.touchscreen.tap(box["x"] + fx * box["width"], box["y"] + fy * box["height"])


def _wait_counts(page, expected):
    page.wait_for_function(
        "e => { const s = document.querySelector(\"[role='status']\"); if (!s) return false;"
        " const found = {}; for (const m of s.innerText.matchAll(/class (\\d): (\\d+)/g)) found[m[1]] = +m[2];"
        " return Object.entries(e).every(([k, n]) => found[k] === n); }",
        arg={str(k): v for k, v in expected.items()},
        timeout=60_000,
    )


def _overlap(a, b):
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


def test_on_a_phone_the_strip_is_one_line_off_the_data_and_the_class_is_beside_the_tools(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server}/?{urlencode(encode_scene(_scene()))}")
    page.wait_for_selector(".pg-canvas .main-svg", timeout=90_000)
    page.wait_for_selector(".pg-player", timeout=90_000)
    wait_settled(page)
    counts = _counts(page)
    assert counts == {1: 3, 2: 3}, counts
    # Two taps on empty space (the add tool, class 1): two points of class 1.
    _tap(page, 0.1, 0.08)
    _wait_counts(page, {1: 4, 2: 3})
    wait_settled(page)
    _tap(page, 0.9, 0.08)
    _wait_counts(page, {1: 5, 2: 3})
    wait_settled(page)
    page.wait_for_selector(".pg-player-strip", state="visible")
    page.locator(".pg-player-strip").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "phone_player_strip.png"))
    sizes = page.evaluate(
        """() => {
      const strip = document.querySelector('.pg-player-strip'), box = (el) => el.getBoundingClientRect().toJSON();
      const [play, back] = strip.querySelectorAll('button'), text = strip.querySelector('.pg-strip-step');
      const data = box(document.querySelector('.pg-canvas .nsewdrag'));
      const textFits = text.scrollWidth <= text.clientWidth + 1;
      return {strip: box(strip), play: box(play), back: box(back), data: data, text: text.textContent, textFits};
    }"""
    )
    line = sizes["back"]["height"]  # a one-line button of the strip
    assert sizes["strip"]["height"] <= 1.5 * line, sizes
    assert sizes["play"]["height"] <= 1.2 * line, sizes  # "▶ Play" on one line
    assert sizes["textFits"], sizes  # "Update 245 of 245 (end of the run)" whole
    assert not _overlap(sizes["strip"], sizes["data"]), sizes
    # The class picker beside the tools, the sidebar's drawer closed.
    picker = page.locator(".pg-tools select.pg-class-pick")
    assert picker.is_visible()
    tools, pick = page.locator(".pg-tools").bounding_box(), picker.bounding_box()
    first = page.locator(".pg-tools button").first.bounding_box()
    assert abs((pick["y"] + pick["height"] / 2) - (first["y"] + first["height"] / 2)) <= 4, (pick, first)
    assert pick["x"] + pick["width"] <= tools["x"] + tools["width"] + 1
    # The drawer stays shut: the sidebar's radio is off screen, to the left.
    radio = page.locator(".st-key-active_class").first.bounding_box()
    assert radio is None or radio["x"] + radio["width"] <= 0, radio
    picker.select_option("1")  # class 2
    page.wait_for_function(  # the sidebar's radio has class 2 checked (the one state)
        "() => Array.from(document.querySelectorAll('.st-key-active_class input[type=radio]'))"
        ".findIndex(r => r.checked) === 1"
    )
    wait_settled(page)
    assert picker.input_value() == "1"
    _tap(page, 0.5, 0.95)
    _wait_counts(page, {1: 5, 2: 4})
    page.screenshot(path=str(ARTIFACTS / "phone_class_picker.png"))
    assert not errors, errors
    context.close()


def test_on_a_wide_window_the_picker_stays_in_the_sidebar(browser, server):
    """At 1400 px the sidebar is beside the plot: no second class picker in the tool bar."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{server}/?{urlencode(encode_scene(_scene()))}")
    page.wait_for_selector(".pg-player", timeout=90_000)
    wait_settled(page)
    radio = page.locator(".st-key-active_class").first.bounding_box()
    assert radio is not None and radio["x"] >= 0, radio  # the sidebar is open beside the plot
    assert page.locator(".pg-tools select.pg-class-pick").count() == 1
    assert not page.locator(".pg-tools select.pg-class-pick").is_visible()
    context.close()
