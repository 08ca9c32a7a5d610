"""Real-browser tests of a lecture from the presenter bar (issue 36), at 1280x720 and 1366x768 in
presentation with the sidebar folded away:

1. every "Try:" step is a control in the drawer beside the figure's text (or on the bar): the
   six-point example's initial weights and η, figure 4.6's angle slider with its projection,
   figure 4.10-4.11's covariance switch; the Fisher panel's buttons and chart titles whole;
2. comparisons fill the screen (each plot at least 420 px wide), frame their points, and draw
   the misclassified rings below the points;
3. a legibility floor: every text on a plot at least 18 px as rendered, the bar and the tools'
   texts at least 16 px, the used point's label off the markers;
4. key presses and clicks on the bar queue: three quick presses move three figures, and ◀ ▶ stay
   where the pointer left them;
5. the drawer follows the scene (a method switch shows that method's text), is never taller than
   the window, keeps its close button on screen, and reopens from the bar;
6. cosmetics: undo and redo on one row, no cut method name, no zero line past the plot, no focus
   frame round the page, one number format in an explanation.

They wait for states, never for fixed times, and leave screenshots in test-artifacts/.
"""

import re
import time
from urllib.parse import parse_qs, urlparse

import pytest

from playground.grid import Window
from playground.presets import PRESETS
from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, wait_settled
from tests.test_browser_presenter import _presenting  # the link's presentation, settled
from ui.panels import number_text
from ui.panels.preset_numbers import corner_probabilities

pytestmark = pytest.mark.browser

SIZES = [(1280, 720), (1366, 768)]


def _settled_figure(page, key):
    page.wait_for_function("(k) => document.documentElement.dataset.pgFigure === k", arg=key, timeout=60_000)
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"] .pg-canvas')", timeout=30_000)
    wait_settled(page)


def _load(page, key):
    """Load figure ``key`` as the folded sidebar's button would (a lecturer uses ◀ ▶; this is quicker)."""
    page.evaluate("(k) => document.querySelector('.st-key-preset_' + k + ' button').click()", key)
    _settled_figure(page, key)


def _caption_has(page, words):
    page.wait_for_function(
        "(words) => { const t = Array.from(document.querySelectorAll('.pg-canvas .annotation'))"
        ".map(a => a.textContent).join(' '); return words.every(w => t.includes(w)); }",
        arg=words,
        timeout=30_000,
    )


def _pick_method(page, name):
    page.locator(".st-key-pb_method").get_by_role("combobox").click()
    page.get_by_role("option", name=re.compile("^" + re.escape(name))).click()  # with or without its section


BOX_JS = """(selector) => { const el = document.querySelector(selector); if (!el) return null;
  const r = el.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom,
  width: r.width, height: r.height}; }"""


def _box(page, selector):
    return page.evaluate(BOX_JS, selector)


# ---------------------------------------------------------------- 1. every "Try:" step at hand


# Where the bottoms of figure 4.6's parts in the drawer are (px from the window's top), and how far
# the drawer is scrolled: its text, the snap buttons, the histogram's plot area and axis numbers.
DRAWER_PARTS_JS = """() => {
  const d = document.querySelector('.st-key-pg_drawer');
  const bottom = (sel) => Math.max(...Array.from(d.querySelectorAll(sel)).map(e => e.getBoundingClientRect().bottom));
  const text = d.querySelector('[data-testid="stExpanderDetails"] [data-testid="stMarkdownContainer"]');
  const chart = '.st-key-fisher_hist_slider ';
  return {scrolled: d.scrollTop, text: text.getBoundingClientRect().bottom,
          buttons: bottom('.st-key-pg_drawer_try button'),
          bars: bottom(chart + '.bglayer rect, ' + chart + '.nsewdrag'), ticks: bottom(chart + '.xtick text')};
}"""


def _on_screen_beside_the_text(page, field, height):
    """``field`` is in the window with the drawer's text above it, the drawer at its top: the
    six-point example's long text leaves room for the first setting only, which is the weights."""
    page.evaluate("() => { document.querySelector('.st-key-pg_drawer').scrollTop = 0; }")  # the text's start
    box = field.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_try_steps_are_controls_in_the_drawer(browser, server, width, height):
    page = _presenting(browser, server, width, height)
    # The six-point example: the perceptron from 5, −6, 1 with η = 1, from the drawer beside the text.
    _load(page, "seed003")
    _pick_method(page, "Perceptron")
    _caption_has(page, ["Perceptron"])
    wait_settled(page)
    drawer = page.locator(".st-key-pg_drawer")
    assert "Six-point worked example" in drawer.locator("summary").inner_text()  # the text stays
    weights = drawer.locator("input[aria-label^='Initial weights']")
    assert weights.count() == 1 and "η" in drawer.inner_text()
    _on_screen_beside_the_text(page, weights, height)
    weights.fill("5, -6, 1")
    weights.press("Enter")
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('.pg-strip-step')).some(s => s.textContent.includes('of 2 '))",
        timeout=30_000,
    )
    assert "w_init" in page.url  # one setting: the scene (and its link) carries it
    # Logistic regression from 1, −1, 1: the same field, now logistic regression's.
    _pick_method(page, "Logistic regression")
    _caption_has(page, ["Logistic regression"])
    wait_settled(page)
    weights = drawer.locator("input[aria-label^='Initial weights']")
    assert weights.count() == 1
    _on_screen_beside_the_text(page, weights, height)
    page.screenshot(path=ARTIFACTS / f"lecture-try-seed003-{width}.png")
    # Figure 4.6: the angle slider, its snap buttons and the projection it turns, in the drawer.
    _load(page, "fig4_6")
    slider = drawer.get_by_role("slider")
    assert slider.count() == 1
    title = "() => (document.querySelector('.st-key-pg_drawer .pg-chart .gtitle') || {}).textContent || ''"
    page.wait_for_function(f"{title} !== ''", timeout=30_000)
    before = page.evaluate(title)
    drawer.get_by_role("button", name="Fisher's w").click()
    page.wait_for_function(f"(before) => ({title})() !== before", arg=before, timeout=30_000)
    # The text, the slider, its buttons and the histogram they turn, all on the screen at once (the
    # drawer not scrolled): the histogram's bars and its axis' numbers above the window's bottom.
    page.evaluate("() => { document.querySelector('.st-key-pg_drawer').scrollTop = 0; }")  # the text's start
    on_screen = page.evaluate(DRAWER_PARTS_JS)
    slider_box = slider.bounding_box()
    on_screen["slider"] = slider_box["y"] + slider_box["height"]
    assert all(on_screen[part] <= height for part in ("text", "slider", "buttons", "bars", "ticks")), str(on_screen)
    for name in ("Means line", "Fisher's w"):  # whole words, not "Mean…" and "Fishe…"
        assert page.evaluate(
            "(name) => Array.from(document.querySelectorAll('button')).filter(b => b.offsetParent &&"
            " b.textContent.trim() === name).every(b => b.scrollWidth <= b.clientWidth + 1)",
            name,
        )
    # The J(θ) chart's title within its chart (the tab below the plot).
    page.wait_for_selector(".st-key-fisher_criterion .gtitle", state="attached", timeout=30_000)
    assert page.evaluate(
        "() => { const c = document.querySelector('.st-key-fisher_criterion .main-svg').getBoundingClientRect();"
        " return Array.from(document.querySelectorAll('.st-key-fisher_criterion .gtitle')).every(t => {"
        " const r = t.getBoundingClientRect(); return r.left >= c.left - 1 && r.right <= c.right + 1; }); }"
    )
    # Figures 4.10-4.11: "Share one covariance" in the drawer.
    _load(page, "fig4_10_11")
    drawer.get_by_role("button", name=re.compile("Share one covariance")).click()
    _caption_has(page, ["shared covariance"])
    layout = _box(page, ".st-key-pg_drawer")
    assert layout["bottom"] <= height + 1
    close_page(page)


# ---------------------------------------------------------------- 2. comparisons fill the screen

PLOTS_JS = """() => Array.from(document.querySelectorAll('.pg-canvas')).map(root => {
  const l = root._fullLayout, pts = root._fullData.filter(t => t.meta === 'points');
  const xs = pts.flatMap(t => Array.from(t.x)), ys = pts.flatMap(t => Array.from(t.y));
  const order = Array.from(root.querySelectorAll('.trace'))  // paint order: layers of higher zorder come later
    .map(g => (g.__data__ && g.__data__[0] && g.__data__[0].trace || {}).meta);
  return {width: l.xaxis._length, height: l.yaxis._length, xrange: l.xaxis.range.slice(),
          yrange: l.yaxis.range.slice(), xspan: Math.max(...xs) - Math.min(...xs),
          yspan: Math.max(...ys) - Math.min(...ys), order: order};
})"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_comparisons_fill_the_screen_and_rings_never_hide_points(browser, server, width, height):
    page = _presenting(browser, server, width, height)
    for key in ("fig4_4", "fig4_5"):
        _load(page, key)
        plots = page.evaluate(PLOTS_JS)
        page.screenshot(path=ARTIFACTS / f"lecture-compare-{key}-{width}.png")
        assert len(plots) == 2, key
        for plot in plots:
            assert plot["width"] >= 420, (key, width, plot["width"])
            # The points fill the plot: they span at least half of the view one way or the other.
            fill = max(
                plot["xspan"] / (plot["xrange"][1] - plot["xrange"][0]),
                plot["yspan"] / (plot["yrange"][1] - plot["yrange"][0]),
            )
            assert fill >= 0.55, (key, fill, plot)
            # The misclassified rings lie below every point (drawn first).
            order = plot["order"]
            if "marks" in order:
                assert max(i for i, m in enumerate(order) if m == "marks") < min(
                    i for i, m in enumerate(order) if m == "points"
                ), (key, order)
        assert "marks" in plots[0]["order"], key  # least squares gets points wrong in both
    close_page(page)


# ---------------------------------------------------------------- 3. a legibility floor

TEXTS_JS = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const plots = Array.from(document.querySelectorAll('.pg-canvas, .pg-chart'));
  const plotTexts = plots.flatMap(root => Array.from(root.querySelectorAll('svg text')))
    .filter(t => t.textContent.trim() && shown(t))
    .map(t => ({text: t.textContent.slice(0, 40), px: parseFloat(getComputedStyle(t).fontSize)}));
  const page = Array.from(document.querySelectorAll(
      '.st-key-pg_view_row button, .st-key-pg_view_row p, .pg-tools button, .pg-tools .pg-hint, .pg-player-strip'))
    .filter(shown).map(el => ({text: el.textContent.slice(0, 40), px: parseFloat(getComputedStyle(el).fontSize)}));
  return {plot: plotTexts, page: page};
}"""

LABEL_OFF_MARKERS_JS = """() => {
  // The text of a trace on the canvas (the used point's label, "1 vs rest") against every point marker.
  const root = document.querySelector('.pg-canvas');
  const markers = Array.from(root.querySelectorAll('.trace')).filter(g =>
    (g.__data__ && g.__data__[0] && g.__data__[0].trace || {}).meta === 'points')
    .flatMap(g => Array.from(g.querySelectorAll('path.point'))).map(p => p.getBoundingClientRect());
  const labels = Array.from(root.querySelectorAll('.trace .textpoint text'))
    .filter(t => /^update |vs rest|vs \\d/.test(t.textContent));
  return labels.map(t => { const r = t.getBoundingClientRect();
    const hits = markers.filter(m => m.left < r.right - 2 && m.right > r.left + 2
      && m.top < r.bottom - 2 && m.bottom > r.top + 2);
    return {text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize), hits: hits.length}; });
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_text_on_every_plot_reads_from_the_back_row(browser, server, width, height):
    page = _presenting(browser, server, width, height)
    for key in PRESETS:
        _load(page, key)
        if key == "fig4_7":  # the perceptron's last update, labelled on the plot
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll('.pg-canvas .textpoint text'))"
                ".some(t => t.textContent.startsWith('update'))",
                timeout=30_000,
            )
        texts = page.evaluate(TEXTS_JS)
        small = [t for t in texts["plot"] if t["px"] < 18]
        assert not small, (key, width, small)
        assert texts["page"] and min(t["px"] for t in texts["page"]) >= 16, (key, width, texts["page"])
        if key in ("fig4_2", "fig4_7"):
            labels = page.evaluate(LABEL_OFF_MARKERS_JS)
            assert labels, key
            assert all(label["hits"] == 0 for label in labels), (key, labels)
    close_page(page)


# ---------------------------------------------------------------- 4. presses queue


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_quick_presses_each_move_a_figure(browser, server, width, height):
    page = _presenting(browser, server, width, height)
    keys = list(PRESETS)
    for _ in range(3):  # no wait between them: each press counts
        page.keyboard.press("ArrowRight")
    _settled_figure(page, keys[2])
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    _settled_figure(page, keys[1])
    # Quick clicks on the bar's own button queue the same way, the button staying under the
    # pointer while the figures (and the controls they bring to the bar) change.
    button = page.locator(".st-key-pb_next button:visible")
    box = button.bounding_box()
    centre = [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]
    for _ in range(3):
        page.wait_for_function(  # the click lands on the button (not on its tooltip, shown over it at first)
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('.st-key-pb_next')", arg=centre, timeout=30_000
        )
        page.mouse.click(*centre)
    _settled_figure(page, keys[4])
    after = button.bounding_box()
    assert all(abs(after[k] - box[k]) < 1 for k in box), (box, after)  # where the pointer left it
    close_page(page)


DROP_SENDS_JS = """(n) => {
  // Streamlit dropping the page's first n requests of a press (as it can when they meet a busy run).
  const queue = window.__pgPresenterQueue;
  let real = queue.send;
  let dropped = 0;
  window.__pgDroppedSends = () => dropped;
  Object.defineProperty(queue, 'send', {
    configurable: true,
    get() { return (name, value) => { if (dropped < n) { dropped += 1; return; } real(name, value); }; },
    set(send) { real = send; },
  });
}"""


def test_a_press_streamlit_dropped_is_sent_again_and_applied_once(browser, server):
    page = _presenting(browser, server, 1280, 720)
    keys = list(PRESETS)
    page.evaluate(DROP_SENDS_JS, 2)
    page.keyboard.press("ArrowRight")
    _settled_figure(page, keys[0])
    assert page.evaluate("window.__pgDroppedSends()") == 2
    page.keyboard.press("ArrowRight")
    _settled_figure(page, keys[1])
    page.wait_for_function("() => window.__pgPresenterQueue.awaited === null", timeout=30_000)
    assert len(page.evaluate("window.__pgPresenterQueue.applied")) == 2  # two presses, each applied once
    close_page(page)


# ---------------------------------------------------------------- 5. the drawer follows the scene


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_drawer_follows_the_scene_fits_the_window_and_reopens(browser, server, width, height):
    page = _presenting(browser, server, width, height)
    _load(page, "fig4_6")
    drawer = page.locator(".st-key-pg_drawer")
    assert "Figure 4.6" in drawer.locator("summary").inner_text()
    _pick_method(page, "Support vector machine")
    page.wait_for_function(
        "() => (document.querySelector('.st-key-pg_drawer summary') || {}).textContent?.includes('Support vector')",
        timeout=30_000,
    )
    # The run ends with figure 4.6's text and controls gone from the drawer (stale elements go last).
    page.wait_for_function(
        "() => { const t = document.querySelector('.st-key-pg_drawer').innerText;"
        " return t.includes('margin') && !t.includes('Fisher'); }",
        timeout=30_000,
    )
    # The six-point example's long text: the drawer within the window, its close button on screen.
    _load(page, "seed003")
    box = _box(page, ".st-key-pg_drawer")
    close = _box(page, ".st-key-preset_close button")
    page.screenshot(path=ARTIFACTS / f"lecture-drawer-seed003-{width}.png")
    assert box["bottom"] <= height + 1, box
    assert 0 <= close["top"] and close["bottom"] <= height, close
    page.locator(".st-key-preset_close button:visible").first.click()
    page.wait_for_selector(".st-key-pg_drawer", state="detached", timeout=30_000)
    page.locator(".st-key-pb_drawer button:visible").click()
    page.wait_for_function(
        "() => (document.querySelector('.st-key-pg_drawer summary') || {}).textContent?.includes('Six-point')",
        timeout=30_000,
    )
    close_page(page)


# ---------------------------------------------------------------- 6. cosmetics


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_cosmetics_a_class_notices(browser, server, width, height):
    page = _presenting(browser, server, width, height)
    _load(page, "bayes_predictive")
    undo, redo = _box(page, ".st-key-pb_undo button"), _box(page, ".st-key-pb_redo button")
    assert abs(undo["top"] - redo["top"]) <= 2, (undo, redo)
    # The method's name whole in the bar, and whole (parentheses closed) in every caption line.
    assert page.evaluate(
        "() => Array.from(document.querySelectorAll('.st-key-pb_method [data-baseweb=select] div'))"
        ".filter(d => d.childElementCount === 0 && d.textContent.trim()).every(d => d.scrollWidth <= d.clientWidth + 1)"
    )
    lines = page.evaluate(
        "() => Array.from(document.querySelectorAll("
        "'.pg-canvas .annotation-text tspan.line, .pg-canvas .annotation-text'))"
        ".map(t => t.textContent)"
    )
    assert lines and all(line.count("(") == line.count(")") for line in lines if "·" not in line), lines
    # One format for the numbers of one explanation: the corner's two probabilities with the 4
    # significant digits of the panel's table (a tiny one was cut to 2: "≈ 2.8e−10" beside "0.09104").
    text = page.locator(".st-key-pg_drawer").inner_text()
    found = re.search(r"p\(C₁\|x\) ≈ (\S+), the predictive about (\S+?)\.", text)
    assert found, text
    for number in found.groups():
        mantissa, exponent = (number.split("e") + [""])[:2]
        digits = mantissa.replace("−", "").replace(".", "").strip("0")
        assert len(digits) == 4 if exponent else len(digits) <= 4, found.groups()
    # ... and computed in the view shown (the link's window), which the canvas shaped after the load.
    _text_follows_the_view(page)
    # No axis zero line running past a plot (a comparison's second plot showed it).
    _load(page, "fig4_5")
    assert page.evaluate("() => document.querySelectorAll('.pg-canvas .zerolinelayer path').length") == 0
    # A click on blank space and a key: no focus frame round the page.
    page.mouse.click(width - 4, height - 4)
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    frame = page.evaluate(
        "() => { const a = document.activeElement; if (!a || a.closest('button, input, [role=combobox], a')) return 0;"
        " const s = getComputedStyle(a); return s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth); }"
    )
    assert frame == 0, frame
    close_page(page)


def _text_follows_the_view(page):
    """Until the drawer quotes the corner probabilities of the view the link names (a state the
    page reaches once the canvas has shaped the window and the page has run again)."""
    scene = PRESETS["bayes_predictive"].scene
    deadline = time.monotonic() + 30
    while True:
        wait_settled(page)
        window = Window(*(float(v) for v in parse_qs(urlparse(page.url).query)["w"][0].split(",")))
        expected = "≈ {}, the predictive about {}.".format(
            *(number_text(p, 4) for p in corner_probabilities(scene.with_window(window)))
        )
        text = page.locator(".st-key-pg_drawer").inner_text()
        if expected in text:
            return
        assert time.monotonic() < deadline, (expected, text)
