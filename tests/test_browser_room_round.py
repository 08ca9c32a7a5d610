"""A prediction round end to end (issue 47), against a real server whose rooms live in Redis: the
lecturer opens a room from a two-class least-squares scene (1280 x 720) and asks the class to
predict; three phone-sized pages (390 x 844, touch) each draw a line with two taps and send it;
one moves an end with a finger's drag and sends again, another with a tap; the projector counts
three answers (never four), shows nothing of the fit and none of the lines until the lecturer shows
them, then the fit over the lines with the distributions; every phone shows its own line's score,
which the test recomputes from the points and the line the page sent (the accuracy by brute force,
the angle against least squares solved by ``numpy.linalg.lstsq``).

Screenshots in test-artifacts/: round-{projector-count,projector-show,projector-reveal}.png
(1280 x 720), round-student-{drawn,reveal}.png (390 x 844), round-overlay.png (the download).
"""

import math
import re
from contextlib import ExitStack
from urllib.parse import urlencode

import numpy as np
import pytest
from playwright.sync_api import sync_playwright

from bench.server import streamlit
from playground.link import encode_scene
from playground.scene import PointSet, Scene, Window
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path, wait_settled
from tests.redis_server import redis_server

pytestmark = pytest.mark.browser

NICKS = ("Ann Lee", "Bob Ray", "Cyd Zed")
PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
RNG = np.random.default_rng(47)
X = np.vstack([RNG.normal([-1.5, -0.5], 0.6, (12, 2)), RNG.normal([1.5, 0.8], 0.6, (12, 2))]).round(2)
Y = np.repeat([0, 1], 12)
SCENE = Scene(points=PointSet.from_arrays(X, Y), window=Window(-4.0, 4.0, -3.0, 3.0), method="least_squares")

PLOT_AREA = """() => {
  const gd = document.getElementById('plot'), f = gd._fullLayout;
  const r = gd.querySelector('.main-svg').getBoundingClientRect();
  return {x: r.left + f.xaxis._offset, y: r.top + f.yaxis._offset, width: f.xaxis._length, height: f.yaxis._length};
}"""
# The screen position of the student's line's end ``i`` (its handles' trace).
HANDLE = """i => {
  const gd = document.getElementById('plot'), f = gd._fullLayout;
  const r = gd.querySelector('.main-svg').getBoundingClientRect();
  const t = gd.data.find((d) => d.meta === 'my_line_handles');
  return [r.left + f.xaxis._offset + f.xaxis.l2p(t.x[i]), r.top + f.yaxis._offset + f.yaxis.l2p(t.y[i])];
}"""
PROJECTOR_METAS = "() => document.querySelector('.pg-projector').data.map((t) => t.meta)"
STATUS = ".pg-projector-status"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ExitStack() as stack:
        url, _restart = stack.enter_context(redis_server(tmp_path_factory.mktemp("redis")))
        yield stack.enter_context(streamlit(env={"PLAYGROUND_REDIS_URL": url}))


def accuracy_oracle(line):
    x1, y1, x2, y2 = line
    side = (X[:, 0] - x1) * (y1 - y2) + (X[:, 1] - y1) * (x2 - x1) >= 0
    return max(float(np.mean(np.where(side, a, 1 - a) == Y)) for a in (0, 1))


def angle_oracle(line):
    A = np.column_stack([np.ones(len(X)), X])
    w, *_ = np.linalg.lstsq(A, np.where(Y == 0, 1.0, -1.0), rcond=None)
    x1, y1, x2, y2 = line
    direction, boundary = np.array([x2 - x1, y2 - y1]), np.array([-w[2], w[1]])
    cosine = abs(direction @ boundary) / (np.linalg.norm(direction) * np.linalg.norm(boundary))
    return math.degrees(math.acos(min(1.0, cosine)))


def tap(page, fx, fy):
    box = page.evaluate(PLOT_AREA)
    page.touchscreen.tap(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)


def drag(page, start, end, steps=8):
    """A finger's drag (touch events through the DevTools protocol: playwright's touchscreen only taps)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for k in range(1, steps + 1):
        x, y = (start[i] + (end[i] - start[i]) * k / steps for i in (0, 1))
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def sent_line(page):
    return [float(v) for v in page.locator("#plot").get_attribute("data-sent").split(",")]


def send(page):
    """Press Send; the line the room acknowledged (the page's ``data-sent`` once it changed)."""
    page.wait_for_function("() => !document.getElementById('send-line').disabled")
    previous = page.locator("#plot").get_attribute("data-sent")
    page.tap("#send-line")
    page.wait_for_function(
        "p => { const s = document.getElementById('plot').dataset.sent; return s && s !== p; }", arg=previous
    )
    return sent_line(page)


def test_a_lecture_hall_predicts_discusses_and_sees_the_fit(server):
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        lecturer = browser.new_page(viewport={"width": 1280, "height": 720})
        lecturer.goto(f"{server.url}/?{urlencode(encode_scene(SCENE))}")
        lecturer.wait_for_selector(".pg-canvas .main-svg", timeout=120_000)
        wait_settled(lecturer)
        lecturer.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Open a class room").click()
        lecturer.wait_for_selector(".pg-projector[data-points='24']", timeout=60_000)
        code = re.search(r"/room\?c=([A-Z0-9]{8})", lecturer.content()).group(1)
        assert "boundary" in lecturer.evaluate(PROJECTOR_METAS)

        phones = []
        for nick in NICKS:
            page = browser.new_context(**PHONE).new_page()
            page.goto(f"{server.url}/room?c={code}&lang=en")
            page.fill("#nick", nick)
            page.tap("#join-button")
            page.wait_for_selector("#plot[data-version] .main-svg .xtick")
            assert page.title() == f"In the class room {code}"  # the tab says the student joined
            phones.append(page)

        # In presentation, one key (P) takes the round to its next step from the presenter bar.
        lecturer.get_by_text("Presentation").first.click()
        lecturer.wait_for_selector(".st-key-pbr_round_row button")
        lecturer.keyboard.press("p")
        lecturer.wait_for_function(f"() => document.querySelector('{STATUS}').dataset.phase === 'predict'")
        assert "boundary" not in lecturer.evaluate(PROJECTOR_METAS)  # the fit hidden on the projector ...
        for page in phones:
            page.wait_for_function("() => document.getElementById('plot').dataset.round === 'predict'")
            assert page.locator("#round-prompt").inner_text().startswith("Draw the boundary you expect")
            assert page.locator("#undo").is_hidden() and page.locator("#classes").is_hidden()
            metas = page.evaluate("() => document.getElementById('plot').data.map((t) => t.meta)")
            assert "boundary" not in metas  # ... and on every phone

        lines = []
        for i, page in enumerate(phones):
            tap(page, 0.15 + 0.2 * i, 0.1)
            tap(page, 0.7 - 0.1 * i, 0.9)
            if i == 0:
                page.screenshot(path=ARTIFACTS / "round-student-drawn.png")
            lines.append(send(page))
            lecturer.wait_for_function(f"() => document.querySelector('{STATUS}').dataset.predictions === '{i + 1}'")
        assert lecturer.evaluate("() => document.querySelector('.pg-projector').dataset.lines") == "0"
        lecturer.screenshot(path=ARTIFACTS / "round-projector-count.png")

        # Sent again, after a finger dragged an end (phone 1) and a tap moved the nearer end (phone 2).
        before = [list(line) for line in lines]
        start = phones[1].evaluate(HANDLE, 0)
        drag(phones[1], start, (start[0] + 60, start[1] + 30))
        # Pointer events come with the page's frames: wait for the finger to have lifted.
        phones[1].wait_for_function("() => document.getElementById('plot').dataset.dragging === ''")
        lines[1] = send(phones[1])
        assert lines[1][2:] == before[1][2:] and lines[1][0] > before[1][0] + 0.5  # the dragged end alone moved
        tap(phones[2], 0.05, 0.5)
        lines[2] = send(phones[2])
        assert lines[2][:2] == before[2][:2] and lines[2][2] < before[2][2] - 1  # the nearer end went to the tap
        lecturer.wait_for_timeout(600)  # two projector polls: the count stays at three
        assert lecturer.locator(STATUS).get_attribute("data-predictions") == "3"

        lecturer.wait_for_selector('.st-key-pbr_round_row button:has-text("Show the class\'s lines")')
        lecturer.keyboard.press("p")  # the primary step: show the class's lines
        lecturer.wait_for_function("() => document.querySelector('.pg-projector').dataset.lines === '3'")
        assert "boundary" not in lecturer.evaluate(PROJECTOR_METAS)
        assert "half the lines are within" in lecturer.locator(STATUS).inner_text()
        lecturer.locator(".pg-projector").scroll_into_view_if_needed()
        lecturer.screenshot(path=ARTIFACTS / "round-projector-show.png")

        lecturer.get_by_role("button", name="Reveal the fit").click()  # the bar's button
        lecturer.wait_for_function(f"() => document.querySelector('{STATUS}').dataset.phase === 'reveal'")
        assert "boundary" in lecturer.evaluate(PROJECTOR_METAS)
        assert lecturer.locator(".pg-round-histogram").count() == 2
        angles = sorted(angle_oracle(line) for line in lines)
        assert f"median angle to the fit {round(angles[1])}°" in lecturer.locator(STATUS).inner_text()
        lecturer.locator(".pg-projector").scroll_into_view_if_needed()
        lecturer.screenshot(path=ARTIFACTS / "round-projector-reveal.png")
        for i, page in enumerate(phones):
            page.wait_for_function("() => !document.getElementById('score').hidden")
            score = page.locator("#score").inner_text()
            accuracy, angle = round(accuracy_oracle(lines[i]) * 100), round(angle_oracle(lines[i]))
            assert f"puts {accuracy} % of the points" in score and f"it is {angle}° from" in score, score
            assert "boundary" in page.evaluate("() => document.getElementById('plot').data.map((t) => t.meta)")
        phones[0].screenshot(path=ARTIFACTS / "round-student-reveal.png")
        # Out of presentation, the CSV the lecturer can download holds the three lines, no one named.
        lecturer.get_by_text("Presentation").first.click()
        lecturer.wait_for_selector(".st-key-room_round_row")
        with lecturer.expect_download() as download:
            lecturer.get_by_role("button", name="Download the round (CSV)").click()
        rows = download.value.path().read_text().splitlines()
        assert rows[0].startswith("stage,x1,y1,x2,y2,accuracy") and len(rows) == 4
        assert not any(nick in "\n".join(rows) for nick in NICKS)
        # The overlay as one PNG: the plot with the class's lines over it, as large as the projector's plot.
        with lecturer.expect_download() as download:
            lecturer.get_by_role("button", name="Download the plot with the class's lines (PNG)").click()
        download.value.save_as(ARTIFACTS / "round-overlay.png")
        png = download.value.path().read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(png[16:20], "big")
        assert width == lecturer.evaluate("() => document.querySelector('.pg-projector').clientWidth")
        browser.close()
