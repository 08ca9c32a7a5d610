"""Real-browser tests of the canvas in front of a class (issue 12): a click is sent at once, the
view never moves by itself, keyboard undo/redo, a one-row legend clear of the toolbar,
exact one-versus-one boundaries, and regions that fill the plot after Fit view.

Each test waits for states (the canvas's revision, its point count, its axis ranges), never for
a fixed time; each leaves a screenshot in test-artifacts/.
"""

import time
from urllib.parse import urlencode

import numpy as np
import pytest

from playground import ClusterSpec, Window, make_clusters
from playground.link import encode_scene
from playground.scene import PointSet
from tests.browser import ARTIFACTS, CANVAS_STATE_JS, DATA_TO_PAGE_JS
from ui.session.state import DEFAULT_CLUSTERS, default_scene

pytestmark = pytest.mark.browser


def wait_settled(page, quiet_ms=700, timeout=20.0):
    """Wait until every canvas has drawn and none has changed for ``quiet_ms`` (a canvas may be
    replaced meanwhile, e.g. leaving the comparison view)."""
    read = """() => { const all = [...document.querySelectorAll('.pg-canvas')];
      if (!all.length || all.some(c => c.dataset.revision === undefined || !c.querySelector('.main-svg'))) return null;
      return all.map(c => c.dataset.revision + '/' + c.clientWidth + 'x' + c.clientHeight).join(' '); }"""
    deadline = time.monotonic() + timeout
    last, since = page.evaluate(read), time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        current = page.evaluate(read)
        if current != last or current is None:
            last, since = current, time.monotonic()
        elif (time.monotonic() - since) * 1000 >= quiet_ms:
            return
    raise AssertionError("the canvas kept changing")


def open_page(browser, url, width=1400, height=1000):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda err: page.errors.append(f"{err}\n{(err.stack or '')[:800]}"))
    page.goto(url)
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    page.wait_for_function("() => document.querySelector('.pg-canvas')?.dataset.revision !== undefined")
    wait_settled(page)
    return page


def close_page(page):
    errors = page.errors
    page.context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture
def page(browser, server):
    page = open_page(browser, server)
    yield page
    close_page(page)


def link(server, scene):
    return f"{server}/?{urlencode(encode_scene(scene))}"


def scene_of(X, y, method="least_squares", multiclass="native", params=None):
    points = PointSet.from_arrays(X, y)
    return (
        default_scene()
        .with_points(points)
        .with_method(method, params or {}, multiclass)
        .with_window(Window.around(points.X))
    )


def state(page):
    return page.evaluate(CANVAS_STATE_JS)


def sidebar(page):
    return page.locator("section[data-testid='stSidebar']")


def undo_button(page):
    return sidebar(page).get_by_role("button", name="↶ Undo")


def plot_box(page):
    return page.locator(".pg-canvas .nsewdrag").first.bounding_box()


def plot_point(page, fx, fy):
    box = plot_box(page)
    return box["x"] + fx * box["width"], box["y"] + fy * box["height"]


def empty_spot(page, candidates=((0.06, 0.06), (0.94, 0.06), (0.06, 0.94), (0.94, 0.94), (0.5, 0.06))):
    """Page coordinates of a spot of the plot area at least 40 px from every point."""
    current = state(page)
    markers = [page.evaluate(DATA_TO_PAGE_JS, [x, y]) for x, y in zip(current["xs"], current["ys"])]
    for fx, fy in candidates:
        spot = plot_point(page, fx, fy)
        if all(np.hypot(spot[0] - mx, spot[1] - my) > 40 for mx, my in markers):
            return spot
    raise AssertionError("no empty spot on the plot")


def wait_applied(page, timeout=20_000):
    """Wait until Python has applied every event the canvas sent and the canvas has drawn the result."""
    # The page's edit queue's length (ui/plot/canvas_state.js writes it on the page's element).
    page.wait_for_function("() => !Number(document.documentElement.dataset.pgQueued || 0)", timeout=timeout)
    wait_settled(page)


def last_sent(page):
    return page.evaluate("() => document.querySelector('.pg-canvas')?.dataset.lastSent || ''")


def wait_for_revision_change(page, before, timeout=20_000):
    page.wait_for_function(
        "rev => document.querySelector('.pg-canvas')?.dataset.revision !== rev", arg=before, timeout=timeout
    )
    wait_settled(page)


def wait_for_ranges(page, test, timeout=20_000):
    """Wait until the canvas's axis ranges pass ``test`` (a JS expression over xr and yr), then settle."""
    page.wait_for_function(
        f"() => {{ const l = document.querySelector('.pg-canvas')._fullLayout;"
        f" const xr = l.xaxis.range, yr = l.yaxis.range; return {test}; }}",
        timeout=timeout,
    )
    wait_settled(page)


def relayout(page, xr, yr):
    """Zoom as the toolbar would (plotly reports it like a drag), and wait until the app has it."""
    before = state(page)["revision"]
    page.evaluate(
        "([xr, yr]) => Plotly.relayout(document.querySelector('.pg-canvas'), {'xaxis.range': xr, 'yaxis.range': yr})",
        [xr, yr],
    )
    wait_for_revision_change(page, before)


def point_set(current):
    return sorted(zip(np.round(current["xs"], 9), np.round(current["ys"], 9)))


# ---- 1. Clicks (a double-click is two clicks: tests/test_browser_every_click.py) -----------------


def test_a_click_is_sent_at_once_and_quick_clicks_apart_are_two_points(page):
    """No waiting out a double-click interval: the add leaves with the click itself. Two quick
    clicks far apart are two clicks (plotly.js alone would call them a double-click)."""
    start = state(page)
    sent = last_sent(page)
    page.mouse.click(*plot_point(page, 0.08, 0.5))
    assert last_sent(page).startswith("add ") and last_sent(page) != sent
    page.wait_for_function(
        "n => document.querySelector('.pg-canvas')?.dataset.points == n + 1", arg=start["n_points"], timeout=20_000
    )
    wait_settled(page)
    # Two clicks 200 px apart within plotly's double-click interval.
    first, second = plot_point(page, 0.3, 0.92), plot_point(page, 0.6, 0.92)
    page.mouse.click(*first)
    page.mouse.click(*second)
    page.wait_for_function(
        "n => document.querySelector('.pg-canvas')?.dataset.points == n + 3", arg=start["n_points"], timeout=20_000
    )
    wait_settled(page)
    assert state(page)["n_points"] == start["n_points"] + 3
    assert state(page)["xrange"] == pytest.approx(start["xrange"], rel=1e-9)


def test_a_click_asks_the_server_for_no_page_it_does_not_have(browser, server):
    """A click costs its live request and its reruns, nothing else: no request for an address the
    server answers with the page itself (its fallback for an unknown path). The page's icon once was
    a glyph Streamlit took for an image's address, fetched on every run as another copy of the page."""
    page = open_page(browser, server)
    try:
        answers = []
        page.on("response", lambda r: answers.append((r.url, r.headers.get("content-type", ""))))
        start = state(page)
        for k, (fx, fy) in enumerate([(0.1, 0.85), (0.2, 0.85)]):
            page.mouse.click(*plot_point(page, fx, fy))
            page.wait_for_function(
                "n => document.querySelector('.pg-canvas')?.dataset.points == n",
                arg=start["n_points"] + k + 1,
                timeout=20_000,
            )
            wait_settled(page)
        pages = [url for url, kind in answers if url.startswith(server) and kind.startswith("text/html")]
        assert not pages, f"addresses answered with the page itself: {pages}"
        assert any(url.endswith("/api/live") for url, _kind in answers)  # the clicks' own requests were seen
        icon = page.evaluate("() => document.querySelector(\"link[rel='shortcut icon']\")?.href || ''")
        assert icon.startswith("data:image/svg+xml"), icon
    finally:
        close_page(page)


# ---- 2. The view never moves by itself ----------------------------------------------------------


def _choose(page, label):
    before = state(page)["revision"]
    sidebar(page).get_by_text(label, exact=True).first.click()
    wait_for_revision_change(page, before)


def _pick_method(page, name):
    before = state(page)["revision"]
    sidebar(page).get_by_role("combobox", name="Method").click()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    wait_for_revision_change(page, before)


def test_the_view_stays_put_through_strategies_methods_compare_and_presentation(page):
    start = state(page)
    xr, yr = start["xrange"], start["yrange"]

    def assert_unmoved(what):
        now = state(page)
        assert now["xrange"] == pytest.approx(xr, rel=1e-9, abs=1e-9), what
        assert now["yrange"] == pytest.approx(yr, rel=1e-9, abs=1e-9), what

    for _ in range(3):
        _choose(page, "one-versus-rest")
        assert_unmoved("K-class -> one-versus-rest")
        _choose(page, "one-versus-one")
        assert_unmoved("-> one-versus-one")
        _choose(page, "K-class discriminant (eq. 4.9)")
        assert_unmoved("-> K-class")
    # Another panel and back (the overlays and the page below change).
    tabs = page.get_by_role("tab")
    assert tabs.count() >= 2
    for index in (tabs.count() - 1, 0):
        tabs.nth(index).click()
        page.wait_for_function(
            "i => document.querySelectorAll('[role=tab]')[i].getAttribute('aria-selected') === 'true'", arg=index
        )
        wait_settled(page)
        assert_unmoved(f"panel tab {index}")
    # The SVM separates two classes: with three it runs one-versus-rest by itself (the legend of
    # many entries), and one-versus-one is a choice.
    _pick_method(page, "Support vector machine")
    assert sidebar(page).get_by_role("radio", name="one-versus-rest").is_checked()
    assert_unmoved("SVM one-versus-rest")
    _choose(page, "one-versus-one")
    assert_unmoved("SVM one-versus-one")

    # Compare and back.
    page.get_by_text("Compare methods", exact=True).click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.pg-canvas')].filter(c => c.querySelector('.main-svg')).length === 4",
        timeout=30_000,
    )
    wait_settled(page)
    ranges = page.evaluate(
        "() => [...document.querySelectorAll('.pg-canvas')]"
        ".map(c => c._fullLayout.xaxis.range.concat(c._fullLayout.yaxis.range))"
    )
    for compared in ranges:
        assert compared == pytest.approx(xr + yr, rel=1e-9, abs=1e-9)
    page.get_by_text("One method", exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('.pg-canvas').length === 1", timeout=30_000)
    wait_settled(page)
    assert_unmoved("compare and back")

    # Presentation mode on and off: a bigger plot of the same window.
    page.get_by_text("Presentation", exact=True).click()
    page.wait_for_function("() => !document.querySelector(\"section[data-testid='stSidebar']\")?.offsetWidth")
    wait_settled(page)
    assert_unmoved("presentation on")
    page.get_by_text("Presentation", exact=True).click()
    page.wait_for_function("() => document.querySelector(\"section[data-testid='stSidebar']\")?.offsetWidth > 0")
    wait_settled(page)
    assert_unmoved("presentation off")
    assert "w=" in page.url
    page.screenshot(path=ARTIFACTS / "canvas-view-stayed.png")


# ---- 3. Keyboard undo / redo --------------------------------------------------------------------


def test_ctrl_z_undoes_and_ctrl_shift_z_or_ctrl_y_redo_outside_text_fields(page):
    start = state(page)["n_points"]

    def wait_points(n):
        page.wait_for_function("n => document.querySelector('.pg-canvas')?.dataset.points == n", arg=n, timeout=20_000)
        wait_settled(page)

    page.mouse.click(*plot_point(page, 0.08, 0.5))
    wait_points(start + 1)
    page.mouse.click(*plot_point(page, 0.08, 0.9))
    wait_points(start + 2)
    page.keyboard.press("Control+z")
    wait_points(start + 1)
    page.keyboard.press("Control+z")
    wait_points(start)
    page.keyboard.press("Control+Shift+z")
    wait_points(start + 1)
    page.keyboard.press("Control+y")
    wait_points(start + 2)
    page.keyboard.press("Meta+z")  # macOS
    wait_points(start + 1)
    page.keyboard.press("Meta+Shift+z")
    wait_points(start + 2)

    # With focus in a text field the key is the field's own: nothing is sent, the points stay.
    sidebar(page).get_by_text("Generate Gaussian clusters").click()
    seed = sidebar(page).get_by_role("spinbutton", name="Seed")
    seed.click()
    sent = last_sent(page)
    seed.press("Control+z")
    seed.press("Control+Shift+z")
    assert last_sent(page) == sent
    # Focus back on the page: the next Ctrl+Z undoes.
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("Control+z")
    assert last_sent(page).startswith("undo ")
    wait_points(start + 1)
    page.screenshot(path=ARTIFACTS / "canvas-keyboard-undo.png")


# ---- 9. The legend is one row, clear of the toolbar ---------------------------------------------

LEGEND_ROWS_JS = """() => {
  const rows = new Set();
  document.querySelectorAll('.pg-canvas .legend .traces').forEach(e => {
    const m = /translate\\(\\s*[-\\d.e]+[ ,]+([-\\d.e]+)\\s*\\)/.exec(e.getAttribute('transform') || '');
    if (m) rows.add(Math.round(parseFloat(m[1])));
  });
  return rows.size;
}"""

RECT_JS = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; }"""


def _overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("width", [1400, 800])
def test_the_legend_of_one_versus_rest_svm_is_one_row_clear_of_the_toolbar(browser, server, width):
    specs = [*DEFAULT_CLUSTERS, *DEFAULT_CLUSTERS]  # six classes: the longest legend there is
    specs = [ClusterSpec((s.mean[0] + 7 * (k // 3), s.mean[1]), s.spread, s.angle_deg) for k, s in enumerate(specs)]
    X, y = make_clusters(specs, 12, seed=2)
    page = open_page(browser, link(server, scene_of(X, y, "svm", "ovr")), width=width)
    assert len(state(page)["classes"]) == 6
    assert page.evaluate(LEGEND_ROWS_JS) == 1
    # Six classes, the boundary and the misclassified marks when there are any; overlays are the panel's.
    assert page.locator(".pg-canvas .legend .traces").count() <= 8
    page.mouse.move(*plot_point(page, 0.5, 0.5))  # the toolbar shows on hover
    page.wait_for_selector(".pg-canvas .modebar", state="visible")
    legend, toolbar = page.evaluate(RECT_JS, ".pg-canvas .legend"), page.evaluate(RECT_JS, ".pg-canvas .modebar")
    assert not _overlaps(legend, toolbar), (legend, toolbar)
    plot = page.evaluate(RECT_JS, ".pg-canvas .nsewdrag")
    assert legend[3] <= plot[1] + 1  # above the plot area, never on the data
    page.screenshot(path=ARTIFACTS / f"canvas-legend-ovr-svm-{width}.png")
    close_page(page)


def test_a_short_legend_gets_its_full_names_back_and_grouped_overlays_stay_in_one_row(browser, server):
    """The shorter legend a narrow plot needed is not kept once the plot is wide again, nor for the
    next figure; and an overlay with a legend group (figure 4.10's ellipses) does not turn the
    one-row legend into a column."""
    specs = [*DEFAULT_CLUSTERS, *DEFAULT_CLUSTERS]
    specs = [ClusterSpec((s.mean[0] + 7 * (k // 3), s.mean[1]), s.spread, s.angle_deg) for k, s in enumerate(specs)]
    X, y = make_clusters(specs, 12, seed=2)
    page = open_page(browser, link(server, scene_of(X, y, "svm", "ovr")), width=800)
    legend = page.locator(".pg-canvas .legend")
    assert page.evaluate(LEGEND_ROWS_JS) == 1
    assert "class 1" not in legend.text_content()  # short names: 1, 2, ...
    page.set_viewport_size({"width": 1400, "height": 1000})
    before = state(page)["revision"]
    sidebar(page).get_by_role("button", name="⤢ Fit view").click()  # the plot takes the wide shape
    wait_for_revision_change(page, before)
    page.wait_for_function("() => document.querySelector('.pg-canvas .legend').textContent.includes('class 1')")
    assert page.evaluate(LEGEND_ROWS_JS) == 1
    sidebar(page).get_by_text("Figures from chapter 4").click()
    before = state(page)["revision"]
    sidebar(page).get_by_role("button").filter(has_text="Fig. 4.10").click()
    wait_for_revision_change(page, before)
    wait_settled(page)
    assert "class 1" in legend.text_content()
    assert page.evaluate(LEGEND_ROWS_JS) == 1
    page.screenshot(path=ARTIFACTS / "canvas-legend-after-preset.png")
    close_page(page)


# ---- 10. Exact one-versus-one boundaries -------------------------------------------------------

SHAPES_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const area = (xs, ys) => { let a = 0; for (let i = 0; i < xs.length; i++) {
      const j = (i + 1) % xs.length; a += xs[i] * ys[j] - xs[j] * ys[i]; } return Math.abs(a) / 2; };
  let total = 0, polygons = 0;
  for (const t of root._fullData.filter(t => t.name === 'regions' && t.type === 'scatter')) {
    let xs = [], ys = [];
    const x = Array.from(t.x), y = Array.from(t.y);
    for (let i = 0; i <= x.length; i++) {
      if (i < x.length && Number.isFinite(x[i])) { xs.push(x[i]); ys.push(y[i]); continue; }
      if (xs.length) { total += area(xs, ys); polygons++; }
      xs = []; ys = [];
    }
  }
  const boundary = root._fullData.filter(t => t.meta === 'boundary');
  return {types: root._fullData.map(t => t.type), region_area: total, polygons: polygons,
          boundary: boundary.map(t => ({type: t.type, n: t.x ? t.x.length : 0}))};
}"""


@pytest.mark.parametrize("method", ["least_squares", "svm"])
def test_one_versus_one_boundaries_are_exact_segments(browser, server, method):
    X, y = make_clusters(DEFAULT_CLUSTERS, 30, seed=1)
    page = open_page(browser, link(server, scene_of(X, y, method, "ovo")))
    shapes = page.evaluate(SHAPES_JS)
    assert "heatmap" not in shapes["types"] and "contour" not in shapes["types"]  # no 200 x 200 staircase
    assert shapes["boundary"] and all(b["type"] == "scatter" and b["n"] < 200 for b in shapes["boundary"])
    current = state(page)
    width = current["xrange"][1] - current["xrange"][0]
    height = current["yrange"][1] - current["yrange"][0]
    assert shapes["region_area"] == pytest.approx(width * height, rel=1e-6)  # the polygons tile the view
    page.screenshot(path=ARTIFACTS / f"canvas-ovo-{method}.png")
    close_page(page)


# ---- 11. Regions fill the plot after Fit view on compact data ------------------------------------

COVER_JS = """() => {
  const root = document.querySelector('.pg-canvas'), l = root._fullLayout;
  const xr = l.xaxis.range, yr = l.yaxis.range;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const t of root._fullData.filter(t => t.name === 'regions')) {
    if (t.type === 'heatmap') {
      const n = t.z[0].length, m = t.z.length;
      x0 = Math.min(x0, t.x0 - t.dx / 2); x1 = Math.max(x1, t.x0 + (n - 0.5) * t.dx);
      y0 = Math.min(y0, t.y0 - t.dy / 2); y1 = Math.max(y1, t.y0 + (m - 0.5) * t.dy);
    } else {
      for (const v of t.x) if (Number.isFinite(v)) { x0 = Math.min(x0, v); x1 = Math.max(x1, v); }
      for (const v of t.y) if (Number.isFinite(v)) { y0 = Math.min(y0, v); y1 = Math.max(y1, v); }
    }
  }
  const ends = [];
  for (const t of root._fullData.filter(t => t.meta === 'boundary' && t.type === 'scatter'))
    for (let i = 0; i < t.x.length; i++) if (Number.isFinite(t.x[i])) ends.push([t.x[i], t.y[i]]);
  return {view: [xr[0], xr[1], yr[0], yr[1]], regions: [x0, x1, y0, y1], ends: ends};
}"""


def _white_band_columns(page, name):
    """Columns at the plot area's left and right edges that are mostly white (regions missing)."""
    from PIL import Image

    box = plot_box(page)
    path = ARTIFACTS / name
    page.screenshot(path=path, clip=box)
    image = np.asarray(Image.open(path).convert("RGB")).astype(int)
    white = (image.min(axis=2) >= 250).mean(axis=0)  # share of white pixels per column
    edge = max(3, image.shape[1] // 20)
    return int(np.sum(white[:edge] > 0.5) + np.sum(white[-edge:] > 0.5))


def _assert_fills(page, name):
    cover = page.evaluate(COVER_JS)
    view, regions = cover["view"], cover["regions"]
    tolerance = 1e-6 * (view[1] - view[0])
    assert regions[0] <= view[0] + tolerance and regions[1] >= view[1] - tolerance, cover
    assert regions[2] <= view[2] + tolerance and regions[3] >= view[3] - tolerance, cover
    # The boundary runs from edge to edge of the view (it is a straight line for least squares).
    on_edge = [
        min(abs(x - view[0]), abs(x - view[1])) <= tolerance or min(abs(y - view[2]), abs(y - view[3])) <= tolerance
        for x, y in cover["ends"]
    ]
    assert cover["ends"] and all(on_edge), cover
    assert _white_band_columns(page, name) == 0


@pytest.mark.parametrize(
    "points",
    [
        ([(0.0, 0.0), (0.0, 0.4)], [0, 1]),  # two points
        ([(0.0, 0.0)] * 5 + [(0.3, 0.1)] * 5, [0] * 5 + [1] * 5),  # identical points in each class
    ],
    ids=["two-points", "identical-points"],
)
def test_regions_fill_the_plot_after_fit_view_on_compact_data(browser, server, points):
    X, y = np.array(points[0], dtype=float), np.array(points[1])
    page = open_page(browser, link(server, scene_of(X, y).with_window(Window(-5, 5, -5, 5))))
    fit = sidebar(page).get_by_role("button", name="⤢ Fit view")
    fit.click()
    wait_for_ranges(page, "xr[1] - xr[0] < 4")
    _assert_fills(page, "canvas-fit-compact-1.png")
    # Zoom away, then fit again: the view is fitted afresh and still filled.
    relayout(page, [-3, 1], [-1, 2])
    fit.click()
    wait_for_ranges(page, "xr[1] - xr[0] < 3.9")
    _assert_fills(page, "canvas-fit-compact-2.png")
    page.screenshot(path=ARTIFACTS / f"canvas-fit-compact-{len(X)}.png")
    close_page(page)
