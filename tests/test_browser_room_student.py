"""The student page on a phone (390 x 844, touch), against a real server whose rooms live in Redis
(so this test closes, freezes and fills a room exactly as the lecturer's page does, through the
store). Taps: on three fresh pages every tap of a grid across the plot's drawing area (its
corners and its lower part included) adds a point, where the tap was; six quick taps on one spot
are one point; a finger moving over the plot scrolls the page and adds nothing. States: the
method's name (and the lecturer's switch), paused (a message at the top, the hint gone, the plot
dimmed, a tap not sent), removed by the lecturer, closed (the plot and buttons give way to a
message and the link the room was frozen into), a room that takes no new students; Japanese too;
no text under 14 px.

Screenshots in test-artifacts/: student-{joined,paused,closed,removed,refused,ja}.png (390x844).
"""

import json
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from urllib.parse import parse_qsl, urlsplit

import pytest
from playwright.sync_api import sync_playwright

from bench.server import streamlit
from playground.link import encode_scene
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path
from tests.redis_server import redis_server
from ui.rooms import guard, model, views
from ui.rooms.protocol import API, MAX_STUDENTS
from ui.rooms.store import RedisStore
from ui.session.state import default_scene
from ui.text.i18n import speaking
from ui.text.labels import method_label

pytestmark = pytest.mark.browser

PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
# The drawing area as plotly drew it, and the axes' ranges (the page is static: no zoom).
PLOT_AREA = """() => {
  const gd = document.getElementById('plot'), f = gd._fullLayout;
  const r = gd.querySelector('.main-svg').getBoundingClientRect();
  return {x: r.left + f.xaxis._offset, y: r.top + f.yaxis._offset, width: f.xaxis._length,
          height: f.yaxis._length, xrange: f.xaxis.range, yrange: f.yaxis.range};
}"""
METHOD_IS = "t => document.getElementById('method').textContent === t"
# n points acknowledged: the count says so and no tap waits for the server's answer.
COUNT_IS = """n => document.getElementById('count').textContent.startsWith('You added ' + n + ' ')
  && document.getElementById('plot').dataset.pending === '0'"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ExitStack() as stack:
        url, _restart = stack.enter_context(redis_server(tmp_path_factory.mktemp("redis")))
        app = stack.enter_context(streamlit(env={"PLAYGROUND_REDIS_URL": url}))
        yield app, RedisStore(url)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def post(base, name, **body):
    request = urllib.request.Request(
        f"{base}{API}/{name}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def open_room(base):
    status, answer = post(base, "open", scene=encode_scene(default_scene()), session=guard.open_token())
    assert status == 200, answer
    code, token = answer["code"], answer["token"]
    assert post(base, "control", code=code, token=token, action="limit", value=200)[0] == 200
    return code, token


def fresh_student(browser, base, code, lang="en"):
    """A new phone (no storage) joined to the room, its plot drawn; (context, page)."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{base}/room?c={code}&lang={lang}")
    page.tap("#join-button")
    page.wait_for_selector("#plot[data-version] .main-svg .xtick")  # drawn at its final size
    return context, page


def own_points(base, code, page):
    """The student's points as the room holds them, once every acknowledged add is in the answer
    (an answer may be one built less than ``MIN_INTERVAL`` before the last add: ask again)."""
    sid = json.loads(page.evaluate(f"() => localStorage.getItem('pg-room-{code}')"))["sid"]
    acknowledged = int(page.evaluate("() => document.getElementById('count').textContent.match(/\\d+/)[0]"))
    for _ in range(50):
        with urllib.request.urlopen(f"{base}{API}/state?c={code}&sid={sid}", timeout=10) as response:
            own = json.loads(response.read())["me"]["own"]
        if len(own) >= acknowledged:
            break
        time.sleep(views.MIN_INTERVAL)
    return own


def test_every_tap_of_a_grid_across_the_drawing_area_lands_on_three_fresh_pages(server, browser):
    app, _store = server
    code, _token = open_room(app.url)
    fractions = [(fx, fy) for fy in (0.02, 0.3, 0.6, 0.85, 0.98) for fx in (0.02, 0.35, 0.65, 0.98)]
    for attempt in range(3):
        context, page = fresh_student(browser, app.url, code)
        area = page.evaluate(PLOT_AREA)
        for fx, fy in fractions:
            page.touchscreen.tap(area["x"] + area["width"] * fx, area["y"] + area["height"] * fy)
        page.wait_for_function(COUNT_IS, arg=len(fractions))
        own = own_points(app.url, code, page)
        assert len(own) == len(fractions), f"page {attempt + 1}: {len(own)} of {len(fractions)} taps landed"
        # Each where it was tapped: the fraction of the axes' ranges, within a pixel and the grid's snap.
        (x0, x1), (y0, y1) = area["xrange"], area["yrange"]
        tolerance_x = (x1 - x0) / area["width"] * 1.5 + 0.01
        tolerance_y = (y1 - y0) / area["height"] * 1.5 + 0.01
        for (fx, fy), (x, y) in zip(fractions, own):
            assert abs(x - (x0 + fx * (x1 - x0))) <= tolerance_x and abs(y - (y1 - fy * (y1 - y0))) <= tolerance_y
        if attempt == 0:
            page.screenshot(path=ARTIFACTS / "student-taps.png")
        context.close()


def test_quick_taps_on_one_spot_are_one_point_and_a_moving_finger_scrolls(server, browser):
    app, _store = server
    code, _token = open_room(app.url)
    context, page = fresh_student(browser, app.url, code)
    area = page.evaluate(PLOT_AREA)
    spot = (area["x"] + area["width"] * 0.3, area["y"] + area["height"] * 0.4)
    for _ in range(6):
        page.touchscreen.tap(*spot)
    # A finger moving up over the plot: the page scrolls, no point is added (the page made taller
    # than the screen first, as on a smaller phone).
    page.evaluate("() => document.querySelector('main').style.paddingBottom = '1200px'")
    cdp = context.new_cdp_session(page)
    x, y = area["x"] + area["width"] * 0.7, area["y"] + area["height"] * 0.8
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - 20 * step}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("() => window.scrollY > 0")
    # Then one tap elsewhere: once it is acknowledged, everything sent before it is in the room.
    # Back to the top, again until it holds: the finger's fling may still be scrolling the page.
    page.wait_for_function("() => { window.scrollTo(0, 0); return window.scrollY === 0; }")
    area = page.evaluate(PLOT_AREA)
    page.touchscreen.tap(area["x"] + area["width"] * 0.8, area["y"] + area["height"] * 0.2)
    page.wait_for_function(COUNT_IS, arg=2)
    assert len(own_points(app.url, code, page)) == 2
    context.close()


def shown(page, selector):
    return page.locator(selector).is_visible()


def test_the_student_page_tells_the_rooms_state(server, browser):
    app, store = server
    code, token = open_room(app.url)
    context, page = fresh_student(browser, app.url, code)
    with speaking("en"):
        names = {m: method_label(m) for m in ("least_squares", "logistic")}
    page.wait_for_function(METHOD_IS, arg="Method: " + names["least_squares"])
    assert shown(page, "#hint") and not shown(page, "#notice")
    # No text under 14 px as rendered: the page's own, the plot's legend and ticks.
    smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll('body *')]
        .filter(e => e.offsetParent !== null && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
        .map(e => parseFloat(getComputedStyle(e).fontSize)),
        ...[...document.querySelectorAll('#plot text')].filter(t => t.textContent.trim())
        .map(t => parseFloat(t.style.fontSize || getComputedStyle(t).fontSize)))""")
    assert smallest >= 14, smallest
    page.screenshot(path=ARTIFACTS / "student-joined.png")

    assert post(app.url, "control", code=code, token=token, action="method", value="logistic")[0] == 200
    page.wait_for_function(METHOD_IS, arg="Method: " + names["logistic"])

    # Paused: a message at the top, no tap hint, the plot dimmed, a tap sends nothing.
    assert post(app.url, "control", code=code, token=token, action="lock", value=True)[0] == 200
    page.wait_for_function("() => document.getElementById('notice-text').textContent.includes('paused')")
    assert shown(page, "#notice") and not shown(page, "#hint")
    assert page.locator("#notice").bounding_box()["y"] < page.locator("#plot").bounding_box()["y"]
    assert float(page.evaluate("() => getComputedStyle(document.getElementById('plot')).opacity")) < 0.6
    page.screenshot(path=ARTIFACTS / "student-paused.png")
    area = page.evaluate(PLOT_AREA)
    page.touchscreen.tap(area["x"] + area["width"] * 0.5, area["y"] + area["height"] * 0.5)
    assert post(app.url, "control", code=code, token=token, action="lock", value=False)[0] == 200
    page.wait_for_function("() => document.getElementById('notice').hidden")
    assert shown(page, "#hint")
    page.touchscreen.tap(area["x"] + area["width"] * 0.2, area["y"] + area["height"] * 0.2)
    page.wait_for_function(COUNT_IS, arg=1)
    assert len(own_points(app.url, code, page)) == 1  # the paused tap was never sent

    # Closed after a freeze: the plot and buttons give way to a message and the frozen link.
    query = store.update(code, lambda room: model.freeze(room, time.time()))
    store.update(code, lambda room: model.close(room, time.time()))
    page.wait_for_function("() => document.getElementById('notice-text').textContent.includes('closed')")
    for gone in ("#plot", "#classes", "#undo", "#hint"):
        assert not shown(page, gone), gone
    link = page.locator("#frozen")
    assert link.is_visible()
    href = urlsplit(link.get_attribute("href"))
    assert {k: v for k, v in parse_qsl(href.query) if k != "lang"} == query
    page.screenshot(path=ARTIFACTS / "student-closed.png")
    context.close()


def test_a_removed_student_and_a_room_that_takes_no_new_students_are_told(server, browser):
    app, store = server
    code, _token = open_room(app.url)
    context, page = fresh_student(browser, app.url, code)
    sid = json.loads(page.evaluate(f"() => localStorage.getItem('pg-room-{code}')"))["sid"]

    def remove(room):  # the lecturer removes the student: the room no longer holds them
        del room["students"][sid]
        room["version"] += 1

    store.update(code, remove)
    page.wait_for_function("() => document.getElementById('notice-text').textContent.includes('removed you')")
    assert not shown(page, "#plot") and not shown(page, "#undo")
    page.screenshot(path=ARTIFACTS / "student-removed.png")
    context.close()

    def fill_up(room):
        while len(room["students"]) < MAX_STUDENTS:
            model.join(room, "", None, None, time.time())

    store.update(code, fill_up)
    late = browser.new_context(**PHONE).new_page()
    late.goto(f"{app.url}/room?c={code}&lang=en")
    late.tap("#join-button")
    late.wait_for_function("() => !document.getElementById('notice').hidden")
    assert late.locator("#notice-text").text_content() == "This room is full."
    assert not shown(late, "#join") and not shown(late, "#plot")
    late.screenshot(path=ARTIFACTS / "student-refused.png")
    late.context.close()


def test_in_japanese_the_method_and_the_pause_are_told_in_japanese(server, browser):
    app, _store = server
    code, token = open_room(app.url)
    assert post(app.url, "control", code=code, token=token, action="lock", value=True)[0] == 200
    context, page = fresh_student(browser, app.url, code, lang="ja")
    with speaking("ja"):
        from ui.text.i18n import _

        method = _("Method: {name}").format(name=method_label("least_squares"))
        paused = _("The lecturer has paused adding points.")
    assert method != "Method: " + method_label("least_squares")
    page.wait_for_function(METHOD_IS, arg=method)
    page.wait_for_function("t => document.getElementById('notice-text').textContent === t", arg=paused)
    page.screenshot(path=ARTIFACTS / "student-ja.png")
    context.close()
