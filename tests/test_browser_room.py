"""A class room end to end, on two replicas sharing Redis: the lecturer opens a room on replica A
(its projector shows the QR code and the plot), a student joins on replica B from a phone-sized
page with touch, taps two points, undoes one, and the projector on A follows by itself (no
reload); the student, without the token, cannot act on the room. Redis is killed while the
student taps: the page retries and the point lands once Redis is back from its append-only file.
Then replica B dies: the student's page, sent to replica A, comes back to the room with their
points.

Screenshots in test-artifacts/: room-projector.png (1280x720), room-student.png (390x844).
"""

import json
import re
import urllib.error
import urllib.request
from contextlib import ExitStack

import pytest
from playwright.sync_api import sync_playwright

from bench.server import streamlit
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path, wait_settled
from tests.redis_server import redis_server
from ui.rooms.protocol import API

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def replicas(tmp_path_factory):
    with ExitStack() as stack:
        url, restart = stack.enter_context(redis_server(tmp_path_factory.mktemp("redis")))
        env = {"PLAYGROUND_REDIS_URL": url}
        a = stack.enter_context(streamlit(env=env))
        b = stack.enter_context(streamlit(env=env))
        yield a, b, restart


def post(base, name, **body):
    request = urllib.request.Request(
        f"{base}{API}/{name}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


# The plot area on the page (the student's plot is static: plotly draws no drag layer to measure).
PLOT_AREA = """() => {
  const gd = document.getElementById('plot'), r = gd.getBoundingClientRect(), f = gd._fullLayout;
  return {x: r.left + f.xaxis._offset, y: r.top + f.yaxis._offset, width: f.xaxis._length, height: f.yaxis._length};
}"""


def projector_points(page):
    return int(page.locator(".pg-projector").get_attribute("data-points") or -1)


def test_a_student_on_one_replica_the_projector_on_another(replicas):
    a, b, restart_redis = replicas
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        lecturer = browser.new_page(viewport={"width": 1280, "height": 720})
        lecturer.goto(a.url)
        # The page drawn and quiet first: a click during the first run's redraw can be lost.
        lecturer.wait_for_selector(".pg-canvas .main-svg", timeout=120_000)
        wait_settled(lecturer)
        # The button under the Presentation toggle (the share area has one too).
        lecturer.get_by_test_id("stMainBlockContainer").get_by_role("button", name="Open a class room").click()
        lecturer.wait_for_selector(".pg-projector[data-points]", timeout=60_000)
        code = re.search(r"/room\?c=([A-Z0-9]{8})", lecturer.content()).group(1)
        start = projector_points(lecturer)
        lecturer.get_by_text("Join the class room").scroll_into_view_if_needed()
        lecturer.screenshot(path=ARTIFACTS / "room-projector.png")

        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
        student = phone.new_page()
        student.goto(f"{b.url}/room?c={code}&lang=en")
        student.fill("#nick", "<img src=x onerror=alert(1)>")
        student.tap("#join-button")
        student.wait_for_selector("#plot .main-svg")
        student.tap("#classes button:nth-child(2)")
        box = student.evaluate(PLOT_AREA)
        for fx, fy in ((0.7, 0.3), (0.8, 0.6)):
            student.touchscreen.tap(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
        student.wait_for_function("() => document.getElementById('count').textContent.startsWith('You added 2 ')")
        lecturer.wait_for_function(f"+document.querySelector('.pg-projector').dataset.points === {start + 2}")
        student.tap("#undo")
        lecturer.wait_for_function(f"+document.querySelector('.pg-projector').dataset.points === {start + 1}")
        student.screenshot(path=ARTIFACTS / "room-student.png")
        # The nickname is text: the lecturer's list shows it literally, and no element came of it.
        assert student.locator("img[src=x]").count() == 0

        # The student's key is no control token, on either replica.
        saved = json.loads(student.evaluate(f"() => localStorage.getItem('pg-room-{code}')"))
        for base in (a.url, b.url):
            status, _ = post(base, "control", code=code, token=saved["key"], action="clear")
            assert status == 403
        assert projector_points(lecturer) == start + 1

        # Redis dies (SIGKILL) while the student taps: the page says so and sends the point again
        # (the same seq) until Redis, back from its append-only file, acknowledges it, once.
        def tap_while_redis_is_down():
            student.touchscreen.tap(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.7)
            student.wait_for_function("() => document.getElementById('status').textContent.includes('not reachable')")

        restart_redis(between=tap_while_redis_is_down)
        student.wait_for_function("() => document.getElementById('count').textContent.startsWith('You added 2 ')")
        lecturer.wait_for_function(f"+document.querySelector('.pg-projector').dataset.points === {start + 2}")

        # Replica B dies; the student's page comes back through A with their point.
        b.process.kill()
        b.process.wait(timeout=10)
        again = phone.new_page()
        again.goto(f"{a.url}/room?lang=en")
        # Behind nginx both replicas are one origin; here they are two, so A's origin is given the
        # student's saved credentials, as the browser would hold them.
        again.evaluate("([key, value]) => localStorage.setItem(key, value)", [f"pg-room-{code}", json.dumps(saved)])
        again.goto(f"{a.url}/room?c={code}&lang=en")
        again.wait_for_function("() => document.getElementById('count').textContent.startsWith('You added 2 ')")
        assert json.loads(again.evaluate(f"() => localStorage.getItem('pg-room-{code}')"))["sid"] == saved["sid"]
        browser.close()
