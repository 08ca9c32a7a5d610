"""Real-browser end-to-end tests: Debian chromium driven by Playwright against a live server.

They click the canvas as a person would and assert what the page then shows. A screenshot of
each test's final state is saved in test-artifacts/.
"""

import statistics
import time

import pytest

from tests.browser import (
    ARTIFACTS,
    CANVAS_STATE_JS,
    DATA_TO_PAGE_JS,
    wait_settled,
)

pytestmark = pytest.mark.browser


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(server)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    yield page
    assert not errors, f"JavaScript errors on the page: {errors}"
    context.close()


def canvas_state(page):
    return page.evaluate(CANVAS_STATE_JS)


def wait_for_change(page, before, timeout=15.0):
    """Wait until the canvas shows a new revision; return the elapsed milliseconds (the repaint
    time), then let follow-up reruns (e.g. the view adjusting to the plot's aspect) settle."""
    started = time.perf_counter()
    page.wait_for_function(
        "rev => document.querySelector('.pg-canvas')?.dataset.revision !== rev", arg=before, timeout=timeout * 1000
    )
    elapsed = (time.perf_counter() - started) * 1000
    wait_settled(page)
    return elapsed


def click_plot_fraction(page, fx, fy):
    """Click the plot area at fractions (fx, fy) of its width and height from the top left."""
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])


def sidebar_click(page, text):
    page.locator("section[data-testid='stSidebar']").get_by_text(text, exact=True).first.click()


def test_default_scene_shows_regions_boundary_and_points(page):
    state = canvas_state(page)
    assert state["n_points"] == 90 and state["regions"] and state["boundary"]
    assert "training accuracy" in page.inner_text("section.main, [data-testid='stMain']")
    page.screenshot(path=ARTIFACTS / "default-scene.png", full_page=True)


def test_click_to_add_in_two_classes_and_click_to_remove(page):
    before = canvas_state(page)["revision"]
    sidebar_click(page, "✕ Clear all")
    wait_for_change(page, before)
    assert canvas_state(page)["n_points"] == 0
    assert "There are no points yet" in page.inner_text("[data-testid='stMain']")

    repaint_ms = []
    for klass, (fx, fy) in [("class 1", (0.2, 0.3)), ("class 1", (0.3, 0.7)), ("class 2", (0.8, 0.5))]:
        sidebar_click(page, f"{'●' if klass == 'class 1' else '■'} {klass}")
        page.wait_for_timeout(300)  # the radio's own rerun
        before = canvas_state(page)["revision"]
        click_plot_fraction(page, fx, fy)
        repaint_ms.append(wait_for_change(page, before))
    state = canvas_state(page)
    assert state["n_points"] == 3
    assert sorted(state["classes"]) == ["class 1", "class 2"]
    assert state["boundary"] and state["regions"]
    assert "training accuracy" in page.inner_text("[data-testid='stMain']")

    # Alt-click exactly on the class 2 point (in the add tool a plain click on a point adds one
    # there): it is removed, and one class is left.
    index = state["classes"].index("class 2")
    target = page.evaluate(DATA_TO_PAGE_JS, [state["xs"][2], state["ys"][2]])
    assert index >= 0
    before = state["revision"]
    page.mouse.move(*target)
    page.wait_for_timeout(200)
    page.keyboard.down("Alt")
    page.mouse.click(*target)
    page.keyboard.up("Alt")
    repaint_ms.append(wait_for_change(page, before))
    state = canvas_state(page)
    assert state["n_points"] == 2 and state["classes"] == ["class 1"]
    assert not state["boundary"]
    assert "at least 2 classes" in page.inner_text("[data-testid='stMain']")

    # Undo brings the removed point back.
    before = state["revision"]
    sidebar_click(page, "↶ Undo")
    wait_for_change(page, before)
    assert canvas_state(page)["n_points"] == 3
    page.screenshot(path=ARTIFACTS / "after-clicks.png", full_page=True)
    median = statistics.median(repaint_ms)
    (ARTIFACTS / "click-to-repaint.txt").write_text(
        "click-to-repaint ms: " + ", ".join(f"{ms:.0f}" for ms in repaint_ms) + f"\nmedian: {median:.0f}\n"
    )
    print(f"click-to-repaint median {median:.0f} ms over {len(repaint_ms)} clicks")


def test_clicked_point_lands_at_the_clicked_coordinates(page):
    state = canvas_state(page)
    xr, yr = state["xrange"], state["yrange"]
    before = state["revision"]
    click_plot_fraction(page, 0.25, 0.25)
    wait_for_change(page, before)
    new = canvas_state(page)
    assert new["n_points"] == state["n_points"] + 1
    added = {(round(x, 9), round(y, 9)) for x, y in zip(new["xs"], new["ys"])} - {
        (round(x, 9), round(y, 9)) for x, y in zip(state["xs"], state["ys"])
    }
    ((x, y),) = added
    # A quarter of the way across and down the plot area (exact, not snapped to a grid).
    assert x == pytest.approx(xr[0] + 0.25 * (xr[1] - xr[0]), abs=0.01 * (xr[1] - xr[0]))
    assert y == pytest.approx(yr[1] - 0.25 * (yr[1] - yr[0]), abs=0.01 * (yr[1] - yr[0]))


def test_zoom_survives_clicks(page):
    state = canvas_state(page)
    before = state["revision"]
    page.evaluate(
        "() => Plotly.relayout(document.querySelector('.pg-canvas'), {'xaxis.range': [-2, 2], 'yaxis.range': [-1, 1]})"
    )
    wait_for_change(page, before)  # the app follows the view and re-evaluates the regions
    zoomed = canvas_state(page)
    before = zoomed["revision"]
    click_plot_fraction(page, 0.5, 0.5)
    wait_for_change(page, before)
    after = canvas_state(page)
    assert after["n_points"] == zoomed["n_points"] + 1
    assert after["xrange"] == pytest.approx(zoomed["xrange"], rel=1e-6)
    assert after["yrange"] == pytest.approx(zoomed["yrange"], rel=1e-6)


def test_a_box_in_the_erase_tool_removes_the_points_inside(page):
    state = canvas_state(page)
    page.keyboard.press("e")  # the erase tool: a drag on empty space draws a box
    page.wait_for_function("() => document.querySelector('.pg-canvas')._fullLayout.dragmode === 'select'")
    # Drag over the left half of the plot: every point there goes.
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    inside = sum(1 for x in state["xs"] if x < (state["xrange"][0] + state["xrange"][1]) / 2)
    assert inside > 0
    before = state["revision"]
    page.mouse.move(box["x"] + 2, box["y"] + 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.move(box["x"] + box["width"] / 2 - 1, box["y"] + box["height"] - 2, steps=8)
    page.mouse.up()
    wait_for_change(page, before)
    assert canvas_state(page)["n_points"] == state["n_points"] - inside
    page.screenshot(path=ARTIFACTS / "after-box-select.png", full_page=True)


def _sidebar_deltas(payloads):
    """How many of these websocket frames draw something in the sidebar (root container 1)."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    count = 0
    for payload in payloads:
        message = ForwardMsg()
        message.ParseFromString(payload)
        if message.WhichOneof("type") == "delta" and list(message.metadata.delta_path)[:1] == [1]:
            count += 1
    return count


def test_a_click_reruns_the_canvas_alone_and_the_sidebar_when_it_must(page):
    """A click reruns the canvas fragment only, unless the sidebar shows something it changed:
    the first edit of a session enables Undo, so that one reruns the whole page."""
    frames = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda p: frames.append(p if isinstance(p, bytes) else p.encode())),
    )
    page.reload()
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    undo = page.locator("section[data-testid='stSidebar']").get_by_role("button", name="↶ Undo")
    assert undo.is_disabled()

    counts = []
    for fx in (0.12, 0.2):
        state = canvas_state(page)
        frames.clear()
        click_plot_fraction(page, fx, 0.92)
        wait_for_change(page, state["revision"])
        assert canvas_state(page)["n_points"] == state["n_points"] + 1
        counts.append(_sidebar_deltas(frames))
    assert counts[0] > 0 and undo.is_enabled()  # the first edit: the whole page, Undo now enabled
    assert counts[1] == 0  # later clicks: the canvas, status line and panels only
    # The sidebar's share box follows the address bar all the same.
    assert page.locator(".pg-link").text_content() == page.url

    state = canvas_state(page)
    undo.click()
    wait_for_change(page, state["revision"])
    assert canvas_state(page)["n_points"] == state["n_points"] - 1
