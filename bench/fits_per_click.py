"""``python -m bench.fits_per_click CHECKOUT [CHECKOUT ...]``: what one click costs the server as a
real page makes it (issue 37, "one click, one render").

A headless Chromium page (1400 x 1000) on the default scene (least squares, N = 90) clicks 8
empty spots along the plot's bottom, each once the one before is drawn, then waits 1.5 s for the
panels' follow-up run; the server counts its fits in ``PLAYGROUND_FIT_LOG`` (the server and its
worker processes alike) and its CPU is read from /proc. Per click: the live request, the canvas's
rerun and the panels' rerun, as the page sends them. Each checkout's own server; run them in turn,
twice, in alternation, to see the noise.
"""

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.server import ROOT, streamlit
from tests.browser import CHROMIUM_ARGS, chromium_path

CLICKS = 8


def measure(root: str) -> str:
    """One line: the clicks, the fits and the server's CPU per click, for the checkout ``root``."""
    log = Path(tempfile.mkdtemp()) / "fits.log"
    with streamlit(root, env={"PLAYGROUND_FIT_LOG": str(log)}) as server:
        return _clicks(server, log, root)


def _fits(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


PLOT_BOX_JS = """() => { const r = document.querySelector('.pg-canvas'), l = r._fullLayout,
  b = r.querySelector('.main-svg').getBoundingClientRect();
  return [b.left + l.xaxis._offset, b.top + l.yaxis._offset, l.xaxis._length, l.yaxis._length]; }"""
POINTS_JS = "() => +document.querySelector('.pg-canvas').dataset.points"


def _clicks(server, log: Path, root: str) -> str:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server.url)
        page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
        page.wait_for_timeout(3000)  # the first runs and the panels settle
        left, top, width, height = page.evaluate(PLOT_BOX_JS)
        fits_before, cpu_before = _fits(log), server.cpu_seconds()
        n = page.evaluate(POINTS_JS)
        for k in range(CLICKS):  # along the bottom, where the default scene has no points
            page.mouse.click(left + (0.05 + 0.1 * k) * width, top + (0.04 + 0.02 * (k % 3)) * height)
            n += 1
            page.wait_for_function(f"() => ({POINTS_JS})() >= {n}", timeout=60_000)
            page.wait_for_timeout(1500)  # the panels' follow-up run
        cpu, fits = server.cpu_seconds() - cpu_before, _fits(log) - fits_before
        browser.close()
    per_click = f"{fits / CLICKS:.2f} a click), server CPU {1000 * cpu / CLICKS:.1f} ms a click"
    return f"{root}: {CLICKS} clicks, {fits} fits ({per_click}"


if __name__ == "__main__":
    for checkout in sys.argv[1:] or [str(ROOT)]:
        print(measure(checkout), flush=True)
