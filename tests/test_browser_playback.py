"""Real-browser tests of playback: the browser plays the run's frames by itself, one step per
tick even while the machine is busy; speed, step -1/+1 and the scrub slider work; pausing puts
the step into the link, and a link with a step opens at that step. Waits are for states."""

import re
from urllib.parse import urlencode

import numpy as np
import pytest

from playground import Window, make_clusters, make_model
from playground.link import encode_scene
from playground.presets import close_points
from playground.scene import PointSet
from tests.browser import ARTIFACTS, cpu_burners, wait_settled
from ui.plot.browser_modules import module_url
from ui.session.state import DEFAULT_CLUSTERS, default_scene
from ui.text.convention import book_decision

pytestmark = pytest.mark.browser

PLAYER = ".pg-player"
OBSERVE_JS = """() => {
  window.__pgObserved = [];
  const player = document.querySelector('.pg-player');
  new MutationObserver(() => window.__pgObserved.push({shown: +player.dataset.step, boundary: (BOUNDARY)()}))
    .observe(player, {attributes: true, attributeFilter: ['data-step']});
}"""
STEP_JS = "() => document.querySelector('.pg-player')?.dataset.step"
# The canvas's boundary as drawn (the browser's own for a played step): its segments' end points.
BOUNDARY_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const trace = (root._fullData || []).find(t => t.meta === 'boundary');
  return {step: root.dataset.playbackStep || null,
          x: trace ? Array.from(trace.x) : [], y: trace ? Array.from(trace.y) : []};
}"""
OBSERVE_JS = OBSERVE_JS.replace("(BOUNDARY)", "(" + BOUNDARY_JS + ")")


def _perceptron_scene():
    points = close_points()  # figure 4.7's two close classes: 18 updates
    scene = default_scene().with_points(points).with_method("perceptron", {}, "native")
    return scene.with_window(Window.around(points.X)), points


def _logistic_scene():
    X, y = make_clusters(DEFAULT_CLUSTERS[:2], 25, seed=1)
    points = PointSet.from_arrays(X, y)
    scene = default_scene().with_points(points).with_method("logistic", {}, "native")
    return scene.with_window(Window.around(X)), points


def _link(server, scene):
    return f"{server}/?{urlencode(encode_scene(scene))}"


def _open(browser, url, errors, width=1400, step=None):
    """A fresh context on ``url``, settled; with ``step``, then on the link the app wrote for that
    scene (its method parameters in full, as a shared link has them) with that step."""
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(url)
    if step is not None:
        page.wait_for_selector(PLAYER, timeout=60_000)
        wait_settled(page)
        # The page keeps the address it was opened with until the scene changes (ui/widgets/share.py):
        # a step back makes the app write its own link, which is then opened at ``step``.
        page.get_by_role("button", name="Step back").click()
        _wait_for_url(page, "mp=")
        address = page.evaluate("() => window.location.href")
        page.goto(re.sub(r"&s=\d+", "", address) + f"&s={step}")
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_selector(PLAYER, timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.step !== undefined")
    wait_settled(page)
    return context, page


def _step(page):
    """The step the player shows (a rerun may briefly mount its element anew: wait for it)."""
    return int(page.wait_for_function(STEP_JS).json_value())


def _wait_for_url(page, fragment, timeout=20_000):
    page.wait_for_function("f => window.location.search.includes(f)", arg=fragment, timeout=timeout)


def _on_boundary(model, step, drawn):
    """The drawn segments' end points lie on the book's y(x) = 0 of ``model.at_step(step)``."""
    xs, ys = np.array(drawn["x"], dtype=float), np.array(drawn["y"], dtype=float)
    ends = np.column_stack([xs, ys])[np.isfinite(xs)]
    assert len(ends) >= 2, drawn
    shown = model.at_step(step)
    values = book_decision(shown, ends)
    scale = np.linalg.norm(shown.coef_) * (1 + np.abs(ends).max())
    assert np.all(np.abs(values) <= 1e-6 * scale), (step, values)


def test_playback_takes_one_step_per_tick_on_a_busy_machine(browser, server):
    """Two CPU-busy processes on a two-core machine; the browser still shows every step, one per
    tick, in order, and the canvas draws each step's boundary (that of the model's at_step)."""
    scene, points = _perceptron_scene()
    model = make_model("perceptron").fit(points.X, points.y)
    n = model.n_iter_
    errors = []
    context, page = _open(browser, _link(server, scene), errors)
    with cpu_burners(2):
        assert _step(page) == n  # the final fit until played
        page.select_option(f"{PLAYER} select[aria-label='Speed']", "2")
        # The page itself reads the step shown in the player's DOM whenever it changes, with the
        # boundary the canvas shows at that moment (a round trip from here may take longer than a tick).
        page.evaluate(OBSERVE_JS)
        page.get_by_role("button", name="Play", exact=True).click()
        page.wait_for_function(
            "n => { const p = document.querySelector('.pg-player');"
            " return !!p && p.dataset.playing === 'false' && +p.dataset.step === n; }",
            arg=n,
            timeout=120_000,
        )
        observed = page.evaluate("() => window.__pgObserved")
        log = page.evaluate("() => window.__pgPlaybackLog")
    seen = [entry["shown"] for entry in observed]
    seen = [step for i, step in enumerate(seen) if i == 0 or step != seen[i - 1]]
    assert seen == list(range(n + 1)), seen  # Play starts from 0 at the end; no jumps: one step per tick
    assert log == list(range(1, n + 1)), log
    drawn = [entry for entry in observed if entry["boundary"]["step"] == str(entry["shown"])]
    assert len({entry["shown"] for entry in drawn}) == n + 1, observed  # the canvas drew every step
    for entry in drawn:
        if entry["shown"] > 0:  # step 0: w = 0, no boundary
            _on_boundary(model, entry["shown"], entry["boundary"])
    # At the end playback pauses, and the last step goes into the link and the panel.
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.playing === 'false'")
    _wait_for_url(page, f"s={n}")
    page.get_by_text(f"{n} of {n}", exact=True).first.wait_for(timeout=20_000)
    context.close()
    assert not errors, errors


def test_pausing_puts_the_step_in_the_link_and_the_link_opens_there(browser, server):
    scene, points = _perceptron_scene()
    model = make_model("perceptron").fit(points.X, points.y)
    errors = []
    context, page = _open(browser, _link(server, scene), errors, step=0)
    assert _step(page) == 0
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("() => +document.querySelector('.pg-player')?.dataset.step >= 3", timeout=30_000)
    page.get_by_role("button", name="Pause", exact=True).click()
    paused = _step(page)
    assert 3 <= paused < model.n_iter_
    _wait_for_url(page, f"s={paused}&")
    # The server draws the paused step: the panel's metric and the canvas's own boundary.
    page.get_by_text(f"{paused} of {model.n_iter_}", exact=True).first.wait_for(timeout=20_000)
    page.wait_for_function("() => !document.querySelector('.pg-canvas')?.dataset.playbackStep")
    _on_boundary(model, paused, page.evaluate(BOUNDARY_JS))
    link = page.evaluate("() => window.location.href")
    page.screenshot(path=str(ARTIFACTS / "playback-paused.png"))
    context.close()
    context, copy = _open(browser, link, errors)
    assert _step(copy) == paused
    copy.get_by_text(f"{paused} of {model.n_iter_}", exact=True).first.wait_for(timeout=20_000)
    _on_boundary(model, paused, copy.evaluate(BOUNDARY_JS))
    context.close()
    assert not errors, errors


def test_step_buttons_move_one_step_and_the_link_follows(browser, server):
    scene, points = _perceptron_scene()
    model = make_model("perceptron").fit(points.X, points.y)
    errors = []
    context, page = _open(browser, _link(server, scene), errors, step=5)
    assert _step(page) == 5
    forward = page.get_by_role("button", name="Step forward")
    back = page.get_by_role("button", name="Step back")
    forward.click()
    assert _step(page) == 6  # at once, in the browser
    assert page.evaluate(BOUNDARY_JS)["step"] == "6"
    _on_boundary(model, 6, page.evaluate(BOUNDARY_JS))
    _wait_for_url(page, "s=6&")
    wait_settled(page)
    back.click()
    back.click()
    assert _step(page) == 4
    _wait_for_url(page, "s=4&")
    page.get_by_text(f"4 of {model.n_iter_}", exact=True).first.wait_for(timeout=20_000)
    # At the ends the buttons stop.
    page.get_by_role("button", name="Final fit").click()
    page.wait_for_function(f"() => document.querySelector('.pg-player')?.dataset.step === '{model.n_iter_}'")
    page.wait_for_function("() => !window.location.search.includes('s=')", timeout=20_000)
    assert forward.is_disabled()
    context.close()
    assert not errors, errors


def test_scrubbing_shows_steps_live_and_letting_go_sends_one(browser, server):
    scene, points = _perceptron_scene()
    model = make_model("perceptron").fit(points.X, points.y)
    n = model.n_iter_
    errors = []
    context, page = _open(browser, _link(server, scene), errors, step=0)
    slider = page.locator(f"{PLAYER} input[type=range]")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.3, y, steps=5)
    page.mouse.move(box["x"] + box["width"] * 0.6, y, steps=5)
    during = _step(page)
    assert 0 < during < n
    assert page.evaluate(BOUNDARY_JS)["step"] == str(during)  # the canvas follows while scrubbing
    assert re.search(r"[?&]s=0(&|$)", page.evaluate("() => window.location.search"))  # nothing sent yet
    page.mouse.up()
    shown = _step(page)
    _wait_for_url(page, f"s={shown}&")
    page.get_by_text(f"{shown} of {n}", exact=True).first.wait_for(timeout=20_000)
    context.close()
    assert not errors, errors


def test_speed_changes_the_tick(browser, server):
    """At 4x a tick comes several times sooner than at 1x (the page's own clock; a ratio)."""
    scene, _ = _logistic_scene()
    errors = []
    context, page = _open(browser, _link(server, scene), errors, step=0)
    intervals = {}
    for speed in ("1", "4"):
        page.select_option(f"{PLAYER} select[aria-label='Speed']", speed)
        start = _step(page)
        page.evaluate("() => { window.__pgPlaybackTimes = []; }")  # the player's tick times
        page.get_by_role("button", name="Play", exact=True).click()
        page.wait_for_function(
            f"() => +document.querySelector('.pg-player')?.dataset.step >= {start + 4}", timeout=30_000
        )
        page.get_by_role("button", name="Pause", exact=True).click()
        times = page.evaluate("() => window.__pgPlaybackTimes")
        intervals[speed] = (times[-1] - times[0]) / (len(times) - 1)  # ticks are due at even intervals
        interval = page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.interval").json_value()
        assert float(interval) == 700 / float(speed)
        paused = _step(page)
        _wait_for_url(page, f"s={paused}&")
        wait_settled(page)
    assert page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.speed").json_value() == "4"
    page.select_option(f"{PLAYER} select[aria-label='Speed']", "0.25")  # the slowest: a tick per 2.8 s
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.interval === '2800'")
    page.get_by_role("button", name="Pause", exact=True).click()
    # Loose: on a busy machine drawing a frame may take longer than a 4x tick asks for.
    assert intervals["4"] < intervals["1"], intervals
    context.close()
    assert not errors, errors


def test_the_browsers_regions_are_the_models_exact_regions(browser, server):
    """The player's own clipping (linearRegions in ui/plot/playback_frames.js) against playground.geometry's
    exact regions of at_step(k), for softmax with three classes, class by class (areas)."""
    from playground.geometry import exact_regions, polygon_area
    from tests.conftest import clusters
    from ui.plot.playback_frames import playback_frames

    X, y = clusters(3)
    model = make_model("softmax").fit(X, y)
    window = Window.around(X)
    frames = playback_frames(model, model.n_iter_, window)
    rows = np.frombuffer(__import__("base64").b64decode(frames["rows"])).reshape(frames["shape"])
    errors = []
    scene, _ = _logistic_scene()
    context, page = _open(browser, _link(server, scene), errors)
    url = module_url("plot/playback_frames.js")
    win = [window.x_min, window.x_max, window.y_min, window.y_max]
    for index in (0, 1, 2, len(frames["steps"]) // 2, len(frames["steps"]) - 1):
        step = frames["steps"][index]
        browser_regions = page.evaluate(
            """async ([url, rows, win]) => {
              const module = await import(new URL(url, document.baseURI).href);
              return module.linearRegions(rows, win);
            }""",
            [url, rows[index].tolist(), win],
        )
        got = {}
        for region in browser_regions:
            area = abs(polygon_area(np.asarray(region["polygon"])))
            got[int(region["row"])] = got.get(int(region["row"]), 0.0) + area
        total = (window.x_max - window.x_min) * (window.y_max - window.y_min)
        shown = model.at_step(step)
        if step == 0:  # w = 0: every class ties everywhere, and predict (argmax) gives the first
            assert got == pytest.approx({int(shown.predict(X[:1])[0]): total})
            continue
        exact = exact_regions(shown, window)
        assert exact is not None
        expected = {}
        for k, polygon in exact[0]:
            expected[int(k)] = expected.get(int(k), 0.0) + abs(polygon_area(np.asarray(polygon)))
        assert set(got) == {k for k, a in expected.items() if a > 1e-9 * total}, (step, got, expected)
        for k, area in expected.items():
            assert got.get(k, 0.0) == pytest.approx(area, abs=1e-9 * total), (step, k)
    context.close()
    assert not errors, errors


def test_a_long_run_plays_a_few_hundred_frames_and_says_so(browser, server):
    """Overlapping classes: the perceptron never converges and makes thousands of updates; the
    browser gets 300 frames (first and last included), says so, and a pause sends the frame's step."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 2))
    y = (rng.random(120) < 0.5).astype(int)
    points = PointSet.from_arrays(X, y)
    model = make_model("perceptron").fit(points.X, points.y)
    n = model.n_iter_
    assert n > 1_000
    scene = default_scene().with_points(points).with_method("perceptron", {}, "native")
    errors = []
    context, page = _open(browser, _link(server, scene.with_window(Window.around(points.X))), errors, step=0)
    page.get_by_text(f"Playback shows 300 of the {n + 1:,} steps").wait_for()
    assert page.evaluate("() => document.querySelector('.pg-player input[type=range]').max") == "299"
    page.get_by_role("button", name="Step forward").click()
    forward = _step(page)
    assert 1 < forward < n / 100  # one frame: a few steps
    _wait_for_url(page, f"s={forward}&")
    page.get_by_text(f"{forward} of {n}", exact=True).first.wait_for(timeout=20_000)
    # The player's text comes before the canvas's drawing of that step on a busy machine: wait for
    # the boundary drawn (a state), then read it.
    page.wait_for_function(f"() => ({BOUNDARY_JS})().x.filter((v) => v !== null).length >= 2")
    _on_boundary(model, forward, page.evaluate(BOUNDARY_JS))
    page.get_by_role("button", name="Step back").click()
    assert _step(page) == 0
    # A link may carry a step between two frames: the player names it, the server draws it, and
    # -1 / +1 go to the frames around it.
    from ui.plot.playback_frames import frame_steps

    frames = frame_steps(n).tolist()
    between = frames[150] + 1
    assert between not in frames
    address = page.evaluate("() => window.location.href")
    page.goto(re.sub(r"&s=\d+", "", address) + f"&s={between}")
    page.wait_for_function(f"() => document.querySelector('.pg-player')?.dataset.step === '{between}'")
    page.get_by_text(f"{between} of {n}", exact=True).first.wait_for(timeout=20_000)
    page.get_by_role("button", name="Step forward").click()
    assert _step(page) == frames[151]
    page.get_by_role("button", name="Step back").click()
    page.get_by_role("button", name="Step back").click()
    assert _step(page) == frames[149]
    context.close()
    assert not errors, errors


def test_an_edit_during_playback_stops_it_and_shows_the_new_fit(browser, server):
    scene, points = _perceptron_scene()
    errors = []
    context, page = _open(browser, _link(server, scene), errors, step=0)
    page.get_by_role("button", name="Play", exact=True).click()
    page.wait_for_function("() => +document.querySelector('.pg-player')?.dataset.step >= 2", timeout=30_000)
    page.evaluate("() => document.querySelector('.pg-canvas').scrollIntoView()")
    box = page.locator(".pg-canvas .nsewdrag").first.bounding_box()
    page.mouse.click(box["x"] + 0.1 * box["width"], box["y"] + 0.9 * box["height"])
    page.wait_for_function(f"() => document.querySelector('.pg-canvas')?.dataset.points === '{len(points) + 1}'")
    # The new fit's player, at its final fit, and the canvas is the server's (no step of the old run).
    page.wait_for_function("() => document.querySelector('.pg-player')?.dataset.playing === 'false'")
    page.wait_for_function("() => !document.querySelector('.pg-canvas')?.dataset.playbackStep")
    wait_settled(page)
    assert not page.evaluate("() => document.querySelector('.pg-canvas')?.dataset.playbackStep")
    assert "s=" not in page.evaluate("() => window.location.search")
    context.close()
    assert not errors, errors
