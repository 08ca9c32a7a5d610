"""Real-browser tests of hostile input and exact links (issues 14 and 19).

- A Markdown payload in a link is shown as text, and the browser fetches nothing it names.
- The server itself refuses an upload over the limit (not only the uploader in the page).
- On a busy server (the server process paused while the person clicks) every edit is applied
  exactly once and to the points that were clicked.
- Sender and receiver of a link see the same numbers (SMO steps, the Equations panel).
"""

import http.server
import math
import threading
import urllib.parse
from contextlib import contextmanager

import pytest

from playground.fileio import MAX_UPLOAD_BYTES
from playground.link import encode_points
from tests.browser import ARTIFACTS, CANVAS_STATE_JS, DATA_TO_PAGE_JS, paused, streamlit_server, wait_settled
from tests.hostile_cases import TWO_CLASSES

pytestmark = pytest.mark.browser


def _open(browser, url, errors, width=1400, height=1000):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    return context, page


def _sidebar(page):
    return page.locator("section[data-testid='stSidebar']")


@contextmanager
def _recording_server():
    """An HTTP server on a free port that records every request it gets (a tracking beacon's host)."""
    requests = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802  (the name http.server calls)
            requests.append(self.path)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], requests
    finally:
        server.shutdown()
        server.server_close()


def test_markdown_in_a_link_is_shown_as_text_and_fetches_nothing(browser, server):
    errors = []
    with _recording_server() as (port, requests):
        host = f"127.0.0.1:{port}"
        payloads = {
            "m": f"![](//{host}/method.png)",
            "b": f"[Log in again](//{host}/login)",
            "mc": f"http://{host}/autolink",
        }
        query = "&".join(f"{name}={value}" for name, value in payloads.items())
        mp = '{"' + f"![p](//{host}/param.png)" + '":1,"C":":red[big]"}'
        context, page = _open(browser, f"{server}/?{query}&mp={mp}", errors)
        seen = []
        page.on(
            "request", lambda request: seen.append(request.url) if request.url.startswith(f"http://{host}") else None
        )
        alert = page.locator("[data-testid='stAlert']").filter(has_text="could not be used")
        alert.wait_for(timeout=20_000)
        text = alert.inner_text()
        for payload in (payloads["m"][:30], payloads["b"][:30], "![p](//127.0.0.1"):
            assert payload in text, (payload, text)  # shown as the very characters of the link
        assert (
            page.evaluate(
                "host => [...document.querySelectorAll('img, a, source, link, iframe')]"
                ".filter(e => (e.src || e.href || '').includes(host)).length",
                host,
            )
            == 0
        )
        assert alert.locator("a, img, h1, h2, h3").count() == 0
        page.screenshot(path=str(ARTIFACTS / "hostile-markdown-link.png"))
        # The first page rewrote its address bar; a second visitor opens the hostile link itself.
        again = context.new_page()
        again.on(
            "request", lambda request: seen.append(request.url) if request.url.startswith(f"http://{host}") else None
        )
        again.goto(f"{server}/?{query}&mp={mp}")
        again.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
        again.locator("[data-testid='stAlert']").filter(has_text="could not be used").wait_for(timeout=30_000)
        wait_settled(again)
        assert requests == [] and seen == []
        context.close()
    assert not errors, errors


def test_an_upload_over_the_limit_is_refused_by_the_server(browser, server, tmp_path):
    """The page's uploader is bypassed: the body goes straight to Streamlit's upload endpoint."""
    errors = []
    context, page = _open(browser, server, errors)
    uploads = []
    page.on("request", lambda r: uploads.append(r) if "/_stcore/upload_file/" in r.url else None)
    small = tmp_path / "small.csv"
    small.write_text("x1,x2,class\n0,0,1\n1,1,2\n")
    _sidebar(page).get_by_text("Import / export files").click()
    page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(str(small))
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.points === '2'", timeout=30_000)
    legit = next(r for r in uploads if r.method == "PUT")
    assert legit.response().status < 300
    headers = {k: v for k, v in legit.headers.items() if k.lower().startswith("x-")}
    url = legit.url.rsplit("/", 1)[0] + "/oversized-file"

    def put(size):
        return page.evaluate(
            """async ([url, headers, size]) => {
                const form = new FormData();
                form.append('files[]', new Blob([new Uint8Array(size)]), 'big.csv');
                const response = await fetch(url, {method: 'PUT', headers, body: form, credentials: 'same-origin'});
                return response.status;
            }""",
            [url, headers, size],
        )

    assert put(1_000) < 300  # the same request with a small body is accepted
    assert put(4 * 1024 * 1024) == 413  # well over 2 MB: refused by the server, never held
    assert put(30 * 1024 * 1024) == 413
    assert put(MAX_UPLOAD_BYTES + 200_000) == 413  # over the server's 2 MiB, under its framing margin
    context.close()
    assert not errors, errors


@pytest.fixture(scope="module")
def busy_server():
    """A server of this module's own, so a test can pause its process (SIGSTOP) like a busy machine."""
    ARTIFACTS.mkdir(exist_ok=True)
    with streamlit_server() as url:
        yield url


def _at_fraction(page, fx, fy):
    """Page coordinates of the point at fractions (fx, fy) of the current view (fy from the bottom)."""
    state = page.evaluate(CANVAS_STATE_JS)
    (x0, x1), (y0, y1) = state["xrange"], state["yrange"]
    return page.evaluate(DATA_TO_PAGE_JS, [x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)])


def _empty_spot_near(page, fx, fy, clearance=40):
    """Page coordinates near fractions (fx, fy) of the view, ``clearance`` pixels from every point's
    centre (plotly picks a marker within 20 px of its edge, so a click nearer removes it)."""
    state = page.evaluate(CANVAS_STATE_JS)
    markers = [page.evaluate(DATA_TO_PAGE_JS, [x, y]) for x, y in zip(state["xs"], state["ys"])]
    for step in range(40):
        candidate = _at_fraction(page, fx + 0.013 * step, fy - 0.011 * step)
        if all(math.hypot(candidate[0] - mx, candidate[1] - my) > clearance for mx, my in markers):
            return candidate
    raise AssertionError("no empty spot found")


def _points(page):
    return page.evaluate(CANVAS_STATE_JS)["n_points"]


def _wait_points(page, n, timeout=60_000):
    page.wait_for_function(f"() => document.querySelector('.pg-canvas')?.dataset.points === '{n}'", timeout=timeout)
    wait_settled(page)


CORNERS = [(0.06, 0.94), (0.94, 0.94), (0.94, 0.06)]  # empty corners of the default clusters' view


@pytest.mark.parametrize("pause_first", [True, False], ids=["busy-before-clear", "busy-after-clear"])
def test_clear_then_quick_clicks_on_a_busy_server_apply_each_edit_once(browser, busy_server, pause_first):
    errors = []
    context, page = _open(browser, busy_server, errors)
    clear = _sidebar(page).get_by_role("button", name="✕ Clear all")
    if pause_first:  # Clear and three clicks all wait for the busy server, then arrive at once
        targets = [_at_fraction(page, *corner) for corner in CORNERS]
        with paused(busy_server):
            clear.click()
            for target in targets:
                page.mouse.click(*target)
                page.wait_for_timeout(400)  # a person's pace (plotly takes faster clicks as a double-click)
    else:  # Clear is on screen, then the clicks wait for the busy server
        clear.click()
        _wait_points(page, 0)
        targets = [_at_fraction(page, *corner) for corner in CORNERS]
        with paused(busy_server):
            for target in targets:
                page.mouse.click(*target)
                page.wait_for_timeout(400)
    _wait_points(page, 3)
    # Clear was applied once: three undos remove the clicks, one more brings the 90 points back, and
    # then there is nothing left to undo.
    undo = _sidebar(page).get_by_role("button", name="↶ Undo")
    for expected in (2, 1, 0, 90):
        undo.click()
        _wait_points(page, expected)
    page.wait_for_function(
        "() => [...document.querySelectorAll('section[data-testid=stSidebar] button')]"
        ".some(b => b.innerText.includes('Undo') && b.disabled)",
        timeout=20_000,
    )
    page.screenshot(path=str(ARTIFACTS / f"busy-clear-{'before' if pause_first else 'after'}.png"))
    context.close()
    assert not errors, errors


def test_quick_removals_on_a_busy_server_remove_the_points_clicked(browser, busy_server):
    """Two clicks on two points while the server is busy: both are removed, and no other point.

    The second click names its point by its place in the set the canvas showed; after the first
    removal that place holds another point, which must not be the one removed.
    """
    errors = []
    context, page = _open(browser, busy_server, errors)
    before = page.evaluate(CANVAS_STATE_JS)
    xs, ys = before["xs"], before["ys"]
    # Two points far apart, the second one later in the list.
    first, second = 10, 70
    targets = [page.evaluate(DATA_TO_PAGE_JS, [xs[i], ys[i]]) for i in (first, second)]
    page.keyboard.press("e")  # the erase tool
    with paused(busy_server):
        for target in targets:
            page.mouse.move(*target)
            page.wait_for_timeout(150)
            page.mouse.click(*target)
            page.wait_for_timeout(400)
    _wait_points(page, 88)
    after = page.evaluate(CANVAS_STATE_JS)
    kept = sorted(zip(after["xs"], after["ys"]))
    expected = sorted(p for i, p in enumerate(zip(xs, ys)) if i not in (first, second))
    assert kept == expected
    context.close()
    assert not errors, errors


def _panel_text(page, title):
    page.get_by_role("tab", name=title).click()
    panel = page.locator("[role='tabpanel']:visible").first
    panel.locator(".katex, [data-testid='stMarkdown']").first.wait_for(timeout=20_000)
    wait_settled(page)
    return panel.inner_text()


def test_sender_and_receiver_see_the_same_numbers(browser, server):
    """Issue 14: with 16-bit links the SVM reported 16 SMO steps to the sender and 14 to the receiver."""
    errors = []
    start = {"v": "2", "p": encode_points(TWO_CLASSES), "m": "svm", "mp": '{"C":30.0}'}
    context, page = _open(browser, f"{server}/?{urllib.parse.urlencode(start)}", errors)
    # A few clicks at arbitrary empty places, as a lecturer would add points.
    for fx, fy in [(0.37, 0.61), (0.52, 0.33), (0.71, 0.58), (0.44, 0.47)]:
        count = _points(page)
        page.mouse.click(*_empty_spot_near(page, fx, fy))
        _wait_points(page, count + 1)
    page.wait_for_function("() => window.location.search.includes('m=svm')")
    link = page.url
    sender_note = page.locator("[data-testid='stAlert']").filter(has_text="SMO steps").first.inner_text()
    sender_equations = _panel_text(page, "Equations")
    page.screenshot(path=str(ARTIFACTS / "exact-link-sender.png"), full_page=True)

    other, copy = _open(browser, link, errors)
    receiver_note = copy.locator("[data-testid='stAlert']").filter(has_text="SMO steps").first.inner_text()
    receiver_equations = _panel_text(copy, "Equations")
    copy.screenshot(path=str(ARTIFACTS / "exact-link-receiver.png"), full_page=True)
    assert receiver_note == sender_note and "SMO steps" in sender_note
    assert receiver_equations == sender_equations and any(c.isdigit() for c in sender_equations)
    sent, received = page.evaluate(CANVAS_STATE_JS), copy.evaluate(CANVAS_STATE_JS)
    assert received["xs"] == sent["xs"] and received["ys"] == sent["ys"]
    other.close()
    context.close()
    assert not errors, errors


def test_a_link_with_too_many_parameters_says_so(browser, server):
    errors = []
    query = "&".join(f"x{i}=1" for i in range(1_001))
    context, page = _open(browser, f"{server}/?m=svm&{query}", errors)
    page.locator("[data-testid='stAlert']").filter(has_text="1,002 parameters").wait_for(timeout=20_000)
    assert _points(page) == 90  # the default scene
    page.screenshot(path=str(ARTIFACTS / "hostile-too-many-parameters.png"))
    context.close()
    assert not errors, errors


def test_a_view_too_narrow_to_draw_falls_back_with_a_message(browser, server):
    errors = []
    context, page = _open(browser, f"{server}/?w=0,5e-324,0,5e-324", errors)
    page.get_by_text("narrower than the smallest view").wait_for(timeout=20_000)
    assert page.locator(".pg-status").inner_text() == ""  # plotly drew it ("axis scaling" went wrong before)
    state = page.evaluate(CANVAS_STATE_JS)
    assert state["xrange"][1] - state["xrange"][0] > 1
    context.close()
    assert not errors, errors
