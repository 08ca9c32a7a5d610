"""Real-browser tests of going from figure to figure in presentation (issue 44), at 1280x720:

1. a figure change returns the page to its top and frames the new figure's plot for the window,
   also when → is pressed with the page scrolled down to a panel tab;
2. quick presses of → and ← (0, 50, 100 ms apart) land on the figure they count to, whole: its
   points, method, strategy, explanation and view, never one figure's points under another's
   method or text.

They wait for states (the figure shown, the presses applied, the page idle, the canvas settled),
never for fixed times; the presses' own spacing is the test's input. Screenshots go to
test-artifacts/.
"""

import pytest

from playground import MODELS
from playground.presets import PRESETS
from tests.browser import ARTIFACTS
from tests.test_browser_canvas import close_page, wait_settled
from tests.test_browser_presenter import _presenting
from ui.text.labels import MULTICLASS_LABELS
from ui.widgets.presets import heading

pytestmark = pytest.mark.browser

KEYS = list(PRESETS)

# What the page shows of the figure, read from the page as a person sees it: the canvas's points
# and axes, the bar's method and strategy, the drawer's heading.
SHOWN_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const visible = (sel) => Array.from(document.querySelectorAll(sel)).filter(e => e.offsetParent !== null);
  const method = visible('.st-key-pb_method input[role="combobox"]').map(e => e.value)[0] || null;
  const strategy = visible('.st-key-pb_strategy button')
    .filter(b => b.getAttribute('aria-checked') === 'true').map(b => b.textContent.trim())[0] || null;
  const summary = document.querySelector('.st-key-pg_drawer summary');
  const x = root._fullLayout.xaxis.range, y = root._fullLayout.yaxis.range;
  return {
    figure: document.documentElement.dataset.pgFigure,
    load: document.documentElement.dataset.pgLoad,  // the scene's number (for a failure's message)
    points: root._fullData.filter(t => t.meta === 'points').reduce((n, t) => n + t._length, 0),
    method, strategy, heading: summary ? summary.textContent.trim() : null,
    view: [x[0], x[1], y[0], y[1]],
    plot: [root._fullLayout._size.w, root._fullLayout._size.h],
    scrolled: Math.max(window.scrollY,
      ...Array.from(document.querySelectorAll('[data-testid="stMain"], .stMain')).map(e => e.scrollTop)),
  };
}"""

# The page has taken in every press: none waiting in the page, none sent and not yet shown, the
# script's last run over, no element left from an earlier run.
IDLE_JS = """(key) => {
  const queue = window.__pgPresenterQueue;
  const app = document.querySelector('.stApp');
  return document.documentElement.dataset.pgFigure === key && queue && queue.awaited === null
    && !queue.pending.length && !queue.target && app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-stale="true"]');
}"""


def _settled_on(page, key):
    """Until the page shows figure ``key`` with every press taken in and the canvas settled."""
    page.wait_for_function(IDLE_JS, arg=key, timeout=90_000)
    page.wait_for_function("() => !document.querySelector('[data-stale=\"true\"] .pg-canvas')", timeout=30_000)
    wait_settled(page)
    page.wait_for_function(IDLE_JS, arg=key, timeout=90_000)  # still: nothing ran again meanwhile


def _shown(page):
    return page.evaluate(SHOWN_JS)


def _expected(key):
    """What figure ``key`` is, from its preset: points, method (as the bar names it), strategy, heading."""
    preset = PRESETS[key]
    scene = preset.scene
    classes = sum(1 for count in scene.training.points.counts() if count)
    return {
        "figure": key,
        "points": len(scene.training.points),
        "method": MODELS[scene.method].display_name,
        "strategy": MULTICLASS_LABELS[scene.multiclass] if classes > 2 else None,
        "heading": None if preset.compare else heading(preset),
    }


def _assert_figure(shown, reference, where):
    expected = _expected(reference["figure"])
    got = {k: shown[k] for k in expected}
    if expected["heading"] is not None and (got["heading"] or "").endswith(expected["heading"]):
        got["heading"] = expected["heading"]  # the summary's text starts with its icon's name
    assert got == expected, (where, got, expected)
    view, ref = shown["view"], reference["view"]
    span = max(ref[1] - ref[0], ref[3] - ref[2])
    assert all(abs(a - b) <= 0.02 * span for a, b in zip(view, ref)), (where, view, ref)
    assert all(abs(a - b) <= 4 for a, b in zip(shown["plot"], reference["plot"])), (where, shown, reference)


def _press(page, key, times, spacing_ms):
    for k in range(times):
        if k and spacing_ms:
            page.wait_for_timeout(spacing_ms)  # the test's input: how quick the lecturer's presses are
        page.keyboard.press(key)


@pytest.fixture(scope="module")
def lecture(browser, server):
    """A presentation at 1280x720 and each of the first figures as one → at a time shows it."""
    page = _presenting(browser, server, 1280, 720)
    references = {}
    for key in KEYS[:6]:
        page.keyboard.press("ArrowRight")
        _settled_on(page, key)
        shown = _shown(page)
        _assert_figure(shown, {**shown, "figure": key}, f"{key} reached one press at a time")
        references[key] = shown
    _press(page, "ArrowLeft", 5, 0)
    _settled_on(page, KEYS[0])
    _assert_figure(_shown(page), references[KEYS[0]], "back to the first figure")
    yield page, references
    close_page(page)


@pytest.mark.parametrize("spacing_ms", [0, 50, 100])
@pytest.mark.parametrize("presses", [2, 3, 5])
def test_quick_presses_land_on_the_figure_they_count_to_whole(lecture, presses, spacing_ms):
    page, references = lecture
    if page.evaluate("() => document.documentElement.dataset.pgFigure") != KEYS[0]:
        _load(page, KEYS[0])  # an earlier test stopped elsewhere
    _press(page, "ArrowRight", presses, spacing_ms)
    _settled_on(page, KEYS[presses])
    _assert_figure(_shown(page), references[KEYS[presses]], f"{presses} × → {spacing_ms} ms apart")
    page.screenshot(path=ARTIFACTS / f"presenter-quick-{presses}-{spacing_ms}.png")
    _press(page, "ArrowLeft", presses, spacing_ms)
    _settled_on(page, KEYS[0])
    _assert_figure(_shown(page), references[KEYS[0]], f"{presses} × ← {spacing_ms} ms apart")


TAB_TOP_JS = """() => Array.from(document.querySelectorAll('[role="tab"]'))
  .find(t => t.offsetParent !== null).getBoundingClientRect().top"""


def _load(page, key):
    """Figure ``key`` as the folded sidebar's button loads it (quicker than ◀ ▶ to get there)."""
    page.evaluate("(k) => document.querySelector('.st-key-preset_' + k + ' button').click()", key)
    _settled_on(page, key)


def _scroll_to_the_tabs(page):
    """The lecturer scrolls the page down with the wheel until the panel's tabs are mid-window."""
    page.locator('[role="tab"]:visible').first.wait_for(timeout=30_000)
    page.mouse.move(400, 400)
    page.mouse.wheel(0, page.evaluate(TAB_TOP_JS) - 360)
    page.wait_for_function(
        "() => Math.max(window.scrollY, ...Array.from(document.querySelectorAll("
        "'[data-testid=\"stMain\"], .stMain')).map(e => e.scrollTop)) > 200",
        timeout=30_000,
    )
    tab_top = page.evaluate(TAB_TOP_JS)
    assert 0 < tab_top < 720, tab_top


@pytest.mark.parametrize("start", ["fig4_6", "fig4_9"])
def test_the_next_figure_from_a_scrolled_page_is_at_the_top_and_framed_for_the_window(lecture, start):
    page, references = lecture
    index = KEYS.index(start)
    _load(page, start)
    page.keyboard.press("ArrowRight")
    _settled_on(page, KEYS[index + 1])
    at_top = _shown(page)  # the next figure reached from the page at its top
    assert at_top["scrolled"] == 0, at_top
    _load(page, start)
    _scroll_to_the_tabs(page)
    page.keyboard.press("ArrowRight")
    _settled_on(page, KEYS[index + 1])
    shown = _shown(page)
    page.screenshot(path=ARTIFACTS / f"presenter-after-scrolled-{start}.png")
    assert shown["scrolled"] == 0, shown
    canvas = page.evaluate("() => document.querySelector('.pg-canvas').getBoundingClientRect().toJSON()")
    bar = page.evaluate("() => document.querySelector('.st-key-pg_view_row').getBoundingClientRect().toJSON()")
    assert bar["top"] >= 0 and canvas["top"] >= bar["bottom"] and canvas["bottom"] <= 720, (bar, canvas)
    assert all(abs(a - b) <= 4 for a, b in zip(shown["plot"], at_top["plot"])), (shown, at_top)
    view, ref = shown["view"], at_top["view"]
    span = max(ref[1] - ref[0], ref[3] - ref[2])
    assert all(abs(a - b) <= 0.02 * span for a, b in zip(view, ref)), (view, ref)
