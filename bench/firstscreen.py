"""The first screen: from opening the default link to the drawn plot, against a bare Streamlit page.

``python -m bench firstscreen [--rounds N] [--compare-with CHECKOUT]``: each round opens, in a fresh
browser context (an empty cache, a new session: a first visit), the playground's default link
``/`` at 1280 x 800, and the floor (``bench/floor_app.py?scene=default``: a bare Streamlit page
drawing the default scene's points with the playground's canvas and the same plotly.js, no fit,
no sidebar, no panels), and with ``--compare-with`` the other checkout's playground (the "before"
column), in a rotating order; all servers run at once, so every app meets the same machine.

The time is read in the page: from the navigation's start (``performance.now()`` = 0) to the
moment the canvas marks its root with ``data-revision``, which it sets right after
``Plotly.react`` has drawn the figure (the points, and in the playground the regions and the
boundary). *settled* is the last such mark in the first seconds: the playground's first view
is re-fitted to the plot's shape once the canvas has reported its size. Medians of the rounds,
with the phases before the first drawing (``PHASES_JS``): Streamlit's websocket open, the last
message of the page before the drawing, plotly.js fetched.
The target: the playground within 2x of the floor (a lecturer's shared link must open as fast as
Streamlit itself allows, so the Streamlit page's own cost is the floor).
"""

import argparse
import statistics
import sys
from contextlib import ExitStack
from pathlib import Path

from bench.server import streamlit
from tests.browser import CHROMIUM_ARGS, chromium_path

ROOT = Path(__file__).resolve().parent.parent
VIEWPORT = {"width": 1280, "height": 800}
TARGET_RATIO = 2.0
QUIET_MS = 1500  # no new drawing for this long: the page has settled

# Set before the page's own scripts run: the time of every drawing the canvas marks.
WATCH_JS = """
window.__pgDrawn = [];
new MutationObserver(() => {
  const root = document.querySelector('.pg-canvas');
  const revision = root && root.dataset.revision;
  if (typeof revision === 'string' && revision !== window.__pgLastRevision) {
    window.__pgLastRevision = revision;
    window.__pgDrawn.push(performance.now());
  }
}).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-revision']});
// When Streamlit's websocket opened, and when each of its messages came (the page the server sent).
window.__pgSocket = {opened: null, messages: []};
const PageSocket = window.WebSocket;
window.WebSocket = function (...args) {
  const socket = new PageSocket(...args);
  socket.addEventListener('open', () => { window.__pgSocket.opened = performance.now(); });
  socket.addEventListener('message', () => window.__pgSocket.messages.push(performance.now()));
  return socket;
};
window.WebSocket.prototype = PageSocket.prototype;
Object.assign(window.WebSocket, PageSocket);
"""

# What the page was doing before the first drawing: connected (Streamlit's own scripts loaded and
# its websocket open), the page received (the last message before the first drawing), plotly.js
# fetched (its request's end); the rest is the browser rendering the page, compiling plotly.js and
# drawing.
PHASES_JS = """() => {
  const first = window.__pgDrawn[0], socket = window.__pgSocket;
  const before = socket.messages.filter((t) => t < first);
  const plotly = performance.getEntriesByType('resource').find((e) => /plotly[^/]*\\.js$/.test(e.name));
  return {connected: socket.opened, received: before.length ? before[before.length - 1] : null,
          plotly: plotly ? plotly.responseEnd : null};
}"""


def _open(browser, url):
    """(first drawing ms, settled ms, phases) of one first visit to ``url`` (``PHASES_JS``)."""
    context = browser.new_context(viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.add_init_script(WATCH_JS)
        page.goto(url)
        page.wait_for_function("() => window.__pgDrawn && window.__pgDrawn.length > 0", timeout=120_000)
        phases = page.evaluate(PHASES_JS)
        count = -1
        while True:  # settled: no new drawing for QUIET_MS
            page.wait_for_timeout(QUIET_MS)
            drawn = page.evaluate("() => window.__pgDrawn")
            if len(drawn) == count:
                return drawn[0], drawn[-1], phases
            count = len(drawn)
    finally:
        context.close()


def run(rounds=5, compare_with=None, log=print):
    """{app: [(first ms, settled ms) per round]} for the playground, the floor and ``compare_with``."""
    from playwright.sync_api import sync_playwright

    results = {}
    with ExitStack() as stack:
        urls = {"playground": stack.enter_context(streamlit(ROOT)).url + "/"}
        if compare_with:
            urls["before"] = stack.enter_context(streamlit(Path(compare_with))).url + "/"
        urls["floor"] = stack.enter_context(streamlit(ROOT, script="bench/floor_app.py")).url + "/?scene=default"
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        apps = list(urls)
        for app in apps:  # a first visit each, unmeasured: the servers' imports and caches warm
            _open(browser, urls[app])
        for index in range(rounds):
            order = apps[index % len(apps) :] + apps[: index % len(apps)]
            for app in order:
                first, settled, phases = _open(browser, urls[app])
                results.setdefault(app, []).append((first, settled, phases))
                log(
                    f"  round {index + 1}  {app:10}  connected {_ms(phases['connected'])}  received "
                    f"{_ms(phases['received'])}  plotly.js {_ms(phases['plotly'])}  drawn {first:6.0f} ms  "
                    f"settled {settled:6.0f} ms"
                )
    return results


def _ms(value):
    return f"{value:6.0f} ms" if value is not None else "     — ms"


def _median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def medians(results):
    """{app: (median first ms, median settled ms, {phase: median ms})}."""
    return {
        app: (
            _median(r[0] for r in runs),
            _median(r[1] for r in runs),
            {name: _median(r[2][name] for r in runs) for name in ("connected", "received", "plotly")},
        )
        for app, runs in results.items()
    }


def summary_lines(results, before_label="before"):
    table = medians(results)
    floor = table["floor"][0]
    lines = [
        "| app | connected | page received | plotly.js fetched | drawn | settled | drawn / floor | rounds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for app, (first, settled, phases) in table.items():
        label = before_label if app == "before" else app
        lines.append(
            f"| {label} | {_ms(phases['connected']).strip()} | {_ms(phases['received']).strip()} | "
            f"{_ms(phases['plotly']).strip()} | {first:.0f} ms | {settled:.0f} ms | {first / floor:.2f} | "
            f"{len(results[app])} |"
        )
    ratio = table["playground"][0] / floor
    verdict = "meets" if ratio <= TARGET_RATIO else "misses"
    lines.append("")
    lines.append(f"The playground's first plot: {ratio:.2f}x the floor's ({verdict} the target of {TARGET_RATIO:g}x).")
    return lines


def main(argv):
    parser = argparse.ArgumentParser(prog="python -m bench firstscreen", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="first visits per app (medians over them)")
    parser.add_argument("--compare-with", default=None, help="another checkout, measured in the same run")
    args = parser.parse_args(argv)
    print(f"First screen: the default link at {VIEWPORT['width']} x {VIEWPORT['height']}, {args.rounds} rounds")
    results = run(args.rounds, args.compare_with)
    print()
    for line in summary_lines(results, f"before ({args.compare_with})"):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
