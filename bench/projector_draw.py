"""``python -m bench.projector_draw [--points N] [--rounds R]``: what one projector draw costs in
headless Chromium, by the way it is drawn (a projector must keep up with a lecture hall of 500
students adding points).

The room's figure (``ui.rooms.views.room_figure_json``, presentation's scale 1.6) of N points placed
as ``bench/room.py``'s students place them, and the figures after 20, 40, ... more points; each
round draws them in a fresh plot, for the room's points as SVG (``scatter``) and as WebGL
(``scattergl``, the projector's past 1,500 points before the canvas layer), four ways:

- *new*: ``Plotly.newPlot`` of the first figure;
- *react*: ``Plotly.react`` to the next figure (what the projector does every version);
- *extend*: ``Plotly.extendTraces`` of 20 points into the two class traces, the other traces kept;
- *restyle*: ``Plotly.restyle`` of the boundary trace alone;

and the projector's way since the canvas layer (``ui/rooms/projector_points.js``, *layer new* and
*layer react*): the points taken out of the figure, plotly drawing the rest, the points drawn on
the canvas over it. ``--shots DIR`` leaves a PNG of the last figure drawn each way (SVG markers
and the canvas layer) to compare by eye.

Each time runs to the next animation frame after the call's promise. It prints the median and
the range per way, and the load average before and after (the machine is shared: the figures
are for comparing the ways within one run, not absolute).
"""

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

from playground.link import encode_scene
from playground.scene import GRID_SCALE
from tests.browser import CHROMIUM_ARGS, chromium_path
from ui.plot.browser_modules import STATIC_DIR
from ui.plot.canvas import ensure_plotly_js
from ui.rooms import model, views
from ui.session.state import default_scene

ADDED = 20  # points between two figures (a fifth of a second of a hall of 500)
FIGURES = 4

# Runs in the page: {way: [ms, ...]} for the figures given.
DRAW_JS = """async ([figures, rounds]) => {
  const gd = document.getElementById('plot');
  const decode = (v) => {  // plotly's {dtype, bdata} to an array extendTraces can extend
    if (!v || !v.bdata) return v;
    const bytes = Uint8Array.from(atob(v.bdata), (c) => c.charCodeAt(0));
    return Array.from(new ({f4: Float32Array, f8: Float64Array, i4: Int32Array}[v.dtype])(bytes.buffer));
  };
  const prepare = (figure, type) => {
    const copy = JSON.parse(JSON.stringify(figure));
    copy.data.forEach((t) => { if (t.meta === 'points') Object.assign(t, {type,
      x: decode(t.x), y: decode(t.y), customdata: decode(t.customdata)}); });
    return copy;
  };
  const times = {};
  const time = async (way, draw) => {
    const start = performance.now();
    await draw();
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    (times[way] = times[way] || []).push(performance.now() - start);
  };
  for (let round = 0; round < rounds; round++) {
    const layered = figures.map((f) => {
      const copy = JSON.parse(JSON.stringify(f));
      return [copy, window.pgPoints.takePoints(copy)];
    });
    await Plotly.purge(gd);
    const [first, firstLayers] = layered[0];
    await time('layer new', async () => {
      await Plotly.newPlot(gd, first.data, first.layout);
      window.pgPoints.drawPoints(gd, firstLayers);
    });
    for (const [figure, layers] of layered.slice(1)) {
      await time('layer react', async () => {
        await Plotly.react(gd, figure.data, figure.layout);
        window.pgPoints.drawPoints(gd, layers);
      });
    }
    gd.querySelectorAll('canvas.pg-points-layer').forEach((c) => c.remove());
    for (const type of ['scatter', 'scattergl']) {
      const drawn = figures.map((f) => prepare(f, type));
      await Plotly.purge(gd);
      await time(type + ' new', () => Plotly.newPlot(gd, drawn[0].data, drawn[0].layout));
      for (const figure of drawn.slice(1)) {
        await time(type + ' react', () => Plotly.react(gd, figure.data, figure.layout));
      }
      const classes = gd.data.map((t, i) => [t, i]).filter(([t]) => t.meta === 'points').map(([, i]) => i);
      const each = __ADDED__ / classes.length;
      const fresh = () => classes.map(() => Array.from({length: each}, () => Math.random() * 4 - 2));
      for (let i = 0; i < 2; i++) {
        const added = {x: fresh(), y: fresh(), customdata: fresh()};
        await time(type + ' extend', () => Plotly.extendTraces(gd, added, classes));
      }
      const boundary = gd.data.findIndex((t) => t.meta === 'boundary');
      for (let i = 0; i < 2; i++) {
        const line = {x: [[-3, 3 + i / 10]], y: [[-3, 3]]};
        await time(type + ' restyle', () => Plotly.restyle(gd, line, [boundary]));
      }
    }
  }
  return times;
}"""


def room_figures(points, seed=1):
    """The room's figures (JSON) at ``points``, then ``ADDED`` more each, ``FIGURES`` in all."""
    room, _token = model.new_room(encode_scene(default_scene()), time.time())
    rng = random.Random(seed)

    def add():
        label = rng.randrange(2)
        x = max(-4.9, min(4.9, rng.gauss(-2.0 if label == 0 else 2.0, 1.3)))
        y = max(-2.9, min(4.5, rng.gauss(0.0, 1.3)))
        room["points"].append([round(x * GRID_SCALE), round(y * GRID_SCALE), label, "bench", len(room["points"])])

    for _ in range(points):
        add()
    figures = []
    for _ in range(FIGURES):
        room["version"] += 1
        figures.append(json.loads(views.room_figure_json(room, "en", 1.6)))
        for _ in range(ADDED):
            add()
    return figures


SHOT_JS = """async ([figure, layered, width]) => {
  // One figure drawn afresh, its points as plotly's markers or on the layer; what is drawn counted.
  const gd = document.getElementById('plot');
  if (width) gd.style.width = width + 'px';
  await Plotly.purge(gd);
  gd.querySelectorAll('canvas.pg-points-layer').forEach((c) => c.remove());
  const copy = JSON.parse(JSON.stringify(figure));
  const layers = layered ? window.pgPoints.takePoints(copy) : [];
  await Plotly.newPlot(gd, copy.data, copy.layout);
  if (layered) window.pgPoints.drawPoints(gd, layers);
  window.pgPoints.lastLayers = layers;
  await new Promise((resolve) => requestAnimationFrame(() => resolve()));
  return {legend: gd.querySelectorAll('.legend .traces .legendpoints path').length,
          svgPoints: gd.querySelectorAll('.main-svg path.point').length};
}"""
UI_DIR = Path(__file__).resolve().parents[1] / "ui"
POINTS_MODULE = UI_DIR / "rooms" / "projector_points.js"
# What the points module imports (leaves, which import nothing), inlined before it in that order.
POINTS_IMPORTS = [UI_DIR / "plot" / "figure_numbers.js", UI_DIR / "plot" / "geometry.js"]


def _classic_script(paths):
    """ES modules that import nothing but each other, as one classic script (their imports dropped)."""
    texts = [path.read_text(encoding="utf-8") for path in paths]
    lines = [line for text in texts for line in text.splitlines() if not line.startswith("import ")]
    return "\n".join(lines).replace("export function", "function").replace("export const", "const")


@contextmanager
def projector_page(browser, width=1280, height=720, plot=(1240, 600)):
    """A page holding plotly.js and the projector's points module (``window.pgPoints``) with an
    empty ``#plot`` of ``plot`` (width, height) px; the page's errors are collected in ``page.errors``."""
    plotly_js = STATIC_DIR / Path(ensure_plotly_js()).name
    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "projector.html"
        page_file.write_text(
            f'<html><body style="margin:0"><div id="plot" style="width:{plot[0]}px;height:{plot[1]}px"></div>'
            f'<script src="{plotly_js.as_uri()}"></script></body></html>'
        )
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        page.goto(page_file.as_uri())
        page.wait_for_function("() => window.Plotly")
        # The projector's module as a classic script (a file page cannot import modules).
        module = _classic_script([*POINTS_IMPORTS, POINTS_MODULE])
        page.add_script_tag(content=module + "\nwindow.pgPoints = {takePoints, drawPoints};")
        try:
            yield page
        finally:
            context.close()


def measure(points, rounds, shots=None):
    figures = room_figures(points)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        with projector_page(browser) as page:
            times = page.evaluate(DRAW_JS.replace("__ADDED__", str(ADDED)), [figures, rounds])
            if shots:
                for layered, name in ((False, "svg"), (True, "layer")):
                    page.evaluate(SHOT_JS, [figures[-1], layered, None])
                    page.locator("#plot").screenshot(path=Path(shots) / f"projector-{points}-{name}.png")
        browser.close()
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--points", type=int, default=12_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--shots", help="a folder for a PNG of the last figure, as SVG markers and on the layer")
    args = parser.parse_args()
    load_before = os.getloadavg()
    times = measure(args.points, args.rounds, args.shots)
    load_after = os.getloadavg()
    print(f"{args.points:,} points, {args.rounds} rounds; load {load_before[0]:.1f} -> {load_after[0]:.1f}")
    print("| way | draws | median ms | range ms |\n|---|---:|---:|---|")
    for way, values in times.items():
        print(f"| {way} | {len(values)} | {statistics.median(values):.0f} | {min(values):.0f}-{max(values):.0f} |")


if __name__ == "__main__":
    main()
