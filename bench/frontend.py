"""Front-end benchmark: click-to-repaint in headless Chromium, the playground against a floor app.

Click-to-repaint is measured inside the page: from the ``mousedown`` of a click on empty space to
the moment the canvas marks its root ``.pg-canvas`` with the new point count (the canvas sets
``data-points`` and ``data-revision`` right after ``Plotly.react`` has drawn the new figure, so the
new point and, in the playground, the re-evaluated regions are on screen). Bytes per click are the
websocket frames the browser receives from the click until the page has been quiet for a while.
"""

import statistics
import time
from contextlib import ExitStack
from dataclasses import dataclass, field

import numpy as np

from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path, streamlit_server, wait_settled

SIZES = (50, 1_000)
# The floors: the echo app on Streamlit's defaults, and the same with the playground's runtime tuning
# (the garbage collection Streamlit runs after every script run spared the long-lived objects).
FLOORS = {"floor": "", "floor, tuned": "&tuned=1"}
APPS = ("playground", *FLOORS)
METHOD_LABEL = "Logistic regression"  # two classes: IRLS fit and a 200 x 200 posterior per click
DOUBLE_CLICK_GAP_MS = 450  # plotly.js reads two clicks within 300 ms as a double-click (view reset)

# Page coordinates of the emptiest spot of the plot area: the candidate farthest from every marker.
EMPTY_SPOT_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const box = root.querySelector('.nsewdrag').getBoundingClientRect();
  const markers = [];
  for (const t of root._fullData || []) {
    if (t.type !== 'scatter' || !String(t.mode || '').includes('markers')) continue;
    const xs = t.x || [], ys = t.y || [];
    for (let i = 0; i < xs.length; i++) markers.push([xa.l2p(xs[i]), ya.l2p(ys[i])]);
  }
  let best = null, bestDistance = -1;
  for (let fy = 0.14; fy <= 0.95; fy += 0.027) {
    for (let fx = 0.04; fx <= 0.96; fx += 0.021) {
      const px = fx * box.width, py = fy * box.height;
      let nearest = Infinity;
      for (const [mx, my] of markers) nearest = Math.min(nearest, Math.hypot(mx - px, my - py));
      if (nearest > bestDistance) { bestDistance = nearest; best = [box.left + px, box.top + py]; }
    }
  }
  return {x: best[0], y: best[1], distance: bestDistance};
}"""

# Arm the stopwatch for one click: mousedown -> data-points becomes ``expected``.
ARM_JS = """(expected) => {
  const root = document.querySelector('.pg-canvas');
  const watch = window.__pgWatch = {t0: null, t1: null, render: null};
  document.addEventListener('mousedown', () => { if (watch.t0 === null) watch.t0 = performance.now(); },
                            {capture: true, once: true});
  const observer = new MutationObserver(() => {
    if (watch.t1 === null && root.dataset.points === String(expected)) {
      watch.t1 = performance.now();
      watch.render = parseFloat(root.dataset.renderMs);
      watch.received = parseFloat(root.dataset.receivedAt);
      observer.disconnect();
    }
  });
  observer.observe(root, {attributes: true, attributeFilter: ['data-points', 'data-revision']});
}"""

STATE_JS = """() => { const r = document.querySelector('.pg-canvas');
  return {revision: r.dataset.revision, points: parseInt(r.dataset.points),
          regions: (r._fullData || []).some(t => t.name === 'regions')}; }"""


@dataclass
class Result:
    app: str
    n: int
    latencies_ms: list = field(default_factory=list)
    render_ms: list = field(default_factory=list)
    update_ms: list = field(default_factory=list)  # click -> the new figure reaches the canvas
    bytes_per_click: list = field(default_factory=list)
    breakdowns: list = field(default_factory=list)
    note: str = ""

    def median_part(self, name):
        values = [b[name] for b in self.breakdowns]
        return statistics.median(values) if values else None

    @property
    def median(self):
        return statistics.median(self.latencies_ms) if self.latencies_ms else None

    @property
    def p90(self):
        return float(np.percentile(self.latencies_ms, 90)) if self.latencies_ms else None

    @property
    def median_bytes(self):
        return statistics.median(self.bytes_per_click) if self.bytes_per_click else None


class _Frames:
    """Websocket frames the page receives (Streamlit ForwardMsg protobufs)."""

    def __init__(self, page):
        self.payloads = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._keep))

    def _keep(self, payload):
        self.payloads.append(payload.encode() if isinstance(payload, str) else payload)

    def reset(self):
        self.payloads = []

    @property
    def total(self):
        return sum(len(p) for p in self.payloads)

    def breakdown(self):
        """Bytes by what they carry: the canvas, other plotly charts, the rest of the page."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        parts = {"canvas": 0, "other charts": 0, "rest": 0, "reruns": 0}
        for payload in self.payloads:
            message = ForwardMsg()
            try:
                message.ParseFromString(payload)
            except Exception:  # not a ForwardMsg: count it with the rest
                parts["rest"] += len(payload)
                continue
            kind = message.WhichOneof("type")
            element = message.delta.new_element.WhichOneof("type") if kind == "delta" else None
            if kind == "new_session":
                parts["reruns"] += 1
            name = message.delta.new_element.bidi_component.component_name if element == "bidi_component" else ""
            if name.endswith("playground_canvas"):
                parts["canvas"] += len(payload)
            elif element == "plotly_chart" or name.endswith("playground_chart"):
                parts["other charts"] += len(payload)
            else:
                parts["rest"] += len(payload)
        return parts


def _state(page):
    return page.evaluate(STATE_JS)


def _open(browser, url):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    frames = _Frames(page)
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas').dataset.points !== undefined")
    wait_settled(page, quiet_ms=500, timeout=20.0)
    return context, page, frames


def _set_slider(sidebar, page, label, value):
    slider = sidebar.get_by_role("slider", name=label)
    slider.focus()
    if value >= int(slider.get_attribute("max")):
        page.keyboard.press("End")
    else:
        page.keyboard.press("Home")
        for _ in range(value - int(slider.get_attribute("min"))):
            page.keyboard.press("ArrowRight")
    page.wait_for_function("([el, v]) => el.value === String(v)", arg=[slider.element_handle(), value])
    page.wait_for_timeout(400)  # the slider's own rerun


def prepare_playground(page, n):
    """Two Gaussian clusters of n/2 points each (the sidebar generator), then logistic regression."""
    sidebar = page.locator("section[data-testid='stSidebar']")
    sidebar.get_by_text("Generate Gaussian clusters").click()
    _set_slider(sidebar, page, "Classes", 2)
    _set_slider(sidebar, page, "Points per class", n // 2)
    sidebar.get_by_role("button", name="Replace points").click()
    page.wait_for_function(f"() => document.querySelector('.pg-canvas').dataset.points === '{n}'", timeout=30_000)
    wait_settled(page, quiet_ms=500, timeout=20.0)
    sidebar.get_by_role("combobox", name="Method").click()
    page.keyboard.type(METHOD_LABEL)
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")
    page.wait_for_timeout(500)
    wait_settled(page, quiet_ms=500, timeout=20.0)
    chosen = sidebar.get_by_role("combobox", name="Method").evaluate("e => e.value || e.innerText || ''")
    if not chosen.startswith(METHOD_LABEL):
        raise RuntimeError(f"could not select {METHOD_LABEL!r} in the sidebar")
    if not _state(page)["regions"]:
        raise RuntimeError("the playground shows no regions after selecting the method")


def measure_clicks(page, frames, result, clicks, warmup=2):
    for i in range(clicks + warmup):
        spot = page.evaluate(EMPTY_SPOT_JS)
        page.mouse.move(spot["x"], spot["y"])
        page.wait_for_timeout(DOUBLE_CLICK_GAP_MS)
        before = _state(page)
        expected = before["points"] + 1
        page.evaluate(ARM_JS, expected)
        frames.reset()
        started = time.perf_counter()
        page.mouse.click(spot["x"], spot["y"])
        page.wait_for_function(
            f"() => document.querySelector('.pg-canvas').dataset.points === '{expected}'", timeout=30_000
        )
        outside_ms = (time.perf_counter() - started) * 1000
        watch = page.evaluate("() => window.__pgWatch")
        wait_settled(page, quiet_ms=500, timeout=20.0)
        if i < warmup:
            continue
        inside = watch["t0"] is not None and watch["t1"] is not None
        result.latencies_ms.append(watch["t1"] - watch["t0"] if inside else outside_ms)
        if watch.get("render") is not None:
            result.render_ms.append(watch["render"])
        if inside and watch.get("received") is not None:
            result.update_ms.append(watch["received"] - watch["t0"])
        result.bytes_per_click.append(frames.total)
        result.breakdowns.append(frames.breakdown())
    return result


def run(quick=False, log=print):
    """Measure the playground and the floor at each N; returns the list of ``Result``."""
    from playwright.sync_api import sync_playwright

    clicks = 6 if quick else 25
    ARTIFACTS.mkdir(exist_ok=True)
    results = []
    with ExitStack() as stack:
        app_url = stack.enter_context(streamlit_server("streamlit_app.py"))
        # One server per floor: the tuning is process-wide, once applied it stays.
        floor_urls = {name: stack.enter_context(streamlit_server("bench/floor_app.py")) for name in FLOORS}
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        for n in SIZES:
            for app in APPS:
                result = Result(app, n)
                if app == "playground":
                    context, page, frames = _open(browser, app_url)
                    prepare_playground(page, n)
                    result.note = f"{METHOD_LABEL}, 2 classes, 200 x 200 grid"
                else:
                    context, page, frames = _open(browser, f"{floor_urls[app]}/?points={n}{FLOORS[app]}")
                    result.note = "echoes the click; no fit, no regions"
                measure_clicks(page, frames, result, clicks)
                page.screenshot(path=ARTIFACTS / f"bench-{app.replace(', ', '-')}-{n}.png")
                context.close()
                results.append(result)
                log(format_row(result))
    return results


HEADER = (
    "app",
    "N",
    "median ms",
    "p90 ms",
    "to canvas ms",
    "Plotly.react ms",
    "KiB per click",
    "canvas KiB",
    "other charts KiB",
    "rest KiB",
    "reruns",
    "clicks",
)


def row(result):
    render = statistics.median(result.render_ms) if result.render_ms else None
    update = statistics.median(result.update_ms) if result.update_ms else None
    return (
        result.app,
        f"{result.n:,}",
        f"{result.median:.0f}",
        f"{result.p90:.0f}",
        f"{update:.0f}" if update is not None else "—",
        f"{render:.0f}" if render is not None else "—",
        f"{result.median_bytes / 1024:.1f}",
        f"{result.median_part('canvas') / 1024:.1f}",
        f"{result.median_part('other charts') / 1024:.1f}",
        f"{result.median_part('rest') / 1024:.1f}",
        f"{result.median_part('reruns'):g}",
        str(len(result.latencies_ms)),
    )


def _format(cells):
    widths = [12] + [max(6, len(h)) for h in HEADER[1:]]
    return "  ".join(f"{c:>{w}}" if i else f"{c:<{w}}" for i, (c, w) in enumerate(zip(cells, widths)))


def format_row(result):
    return _format(row(result))


def format_header():
    return _format(HEADER)


def ratios(results):
    """playground / each floor at each N: (n, floor name, median ratio, p90 ratio)."""
    by = {(r.app, r.n): r for r in results}
    out = []
    for n in SIZES:
        for name in FLOORS:
            app, floor = by.get(("playground", n)), by.get((name, n))
            if app and floor and floor.median and floor.p90:
                out.append((n, name, app.median / floor.median, app.p90 / floor.p90))
    return out
