"""The projector's points on a canvas layer (ui/rooms/projector_points.js) draw what plotly's own
markers drew: the room's figure drawn both ways in headless Chromium, compared pixel by pixel
(the oracle is plotly.js), with the legend's markers kept, rings under the points, and the layer
following the plot when it is resized. Screenshots in test-artifacts/."""

import io
import json

import numpy as np
import pytest
from PIL import Image

from bench.projector_draw import SHOT_JS as DRAW_JS
from bench.projector_draw import projector_page, room_figures
from tests.browser import ARTIFACTS

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page(browser):
    with projector_page(browser, 1100, 640, plot=(1000, 560)) as page:
        yield page
        assert not page.errors, page.errors


def _shot(page, name):
    png = page.locator("#plot").screenshot(path=ARTIFACTS / f"projector-points-{name}.png")
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int)


@pytest.mark.parametrize("points", [300, 3000])
def test_the_layer_draws_what_plotlys_markers_drew(page, points):
    ARTIFACTS.mkdir(exist_ok=True)
    figure = room_figures(points)[-1]
    assert any(trace.get("meta") == "marks" for trace in figure["data"])  # rings to draw as well
    svg = page.evaluate(DRAW_JS, [figure, False, 1000])
    markers = _shot(page, f"{points}-svg")
    layer = page.evaluate(DRAW_JS, [figure, True, 1000])
    drawn = _shot(page, f"{points}-layer")
    assert svg["svgPoints"] > 200 and layer["svgPoints"] <= 10  # the points left plotly's SVG
    assert layer["legend"] == svg["legend"]  # every class's marker (and the rings') still in the legend
    differs = np.abs(markers - drawn).max(axis=2) > 80
    # Without the layer the points' area differs (a sixth of the plot or more); a point's edge
    # anti-aliased differently is all that may.
    assert differs.mean() < 0.02, differs.mean()
    blank = page.evaluate(DRAW_JS, [{"data": [], "layout": figure["layout"]}, False, 1000])
    assert blank["svgPoints"] == 0
    assert (np.abs(markers - _shot(page, f"{points}-blank")).max(axis=2) > 80).mean() > 5 * differs.mean()


PIXEL_AT = """([x, y]) => {
  const gd = document.getElementById('plot'), f = gd._fullLayout, c = gd.querySelector('canvas.pg-points-layer');
  const ratio = c.width / c.clientWidth;
  const px = f.xaxis._offset + f.xaxis.l2p(x), py = f.yaxis._offset + f.yaxis.l2p(y);
  const at = (dx) => c.getContext('2d').getImageData(Math.round((px + dx) * ratio), Math.round(py * ratio), 1, 1);
  const alpha = (dx) => at(dx).data[3];
  return {here: alpha(0), beside: alpha(30), width: c.clientWidth, plot: gd.clientWidth};
}"""


def test_the_layer_follows_a_resize_and_skips_what_is_not_a_number(page):
    figure = room_figures(300)[-1]
    figure["data"] = [t for t in figure["data"] if t.get("meta") not in ("points", "marks")] + [
        {
            "type": "scatter", "mode": "markers", "meta": "points", "name": "class 1",
            "x": [0.5, None, "x", 1e308], "y": [0.5, 1.0, 2.0, float("nan")],  # one drawable point
            "marker": {"color": "#0072b2", "symbol": "star", "size": 16},
        }
    ]  # fmt: skip
    page.evaluate(DRAW_JS, [json.loads(json.dumps(figure).replace("NaN", "null")), True, 1000])
    before = page.evaluate(PIXEL_AT, [0.5, 0.5])
    page.evaluate(
        "async () => { const gd = document.getElementById('plot'); gd.style.width = '700px';"
        " await Plotly.Plots.resize(gd); window.pgPoints.drawPoints(gd, window.pgPoints.lastLayers); }"
    )
    after = page.evaluate(PIXEL_AT, [0.5, 0.5])
    assert before["here"] == after["here"] == 255 and before["beside"] == after["beside"] == 0
    assert after["width"] == after["plot"] == 700 and before["width"] == 1000
