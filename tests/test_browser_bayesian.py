"""Real-browser check of Bayesian logistic regression on the canvas (issue 17): the predictive and
MAP contours and the boundaries drawn from the Laplace posterior are on screen (SVG paths in their
colours, not hidden under the regions), and "Draw new samples" redraws the boundaries from the next
seed, which the address bar then carries. Waits for states, never for times.
"""

import urllib.parse

import numpy as np
import pytest

from playground import make_model
from playground.link import decode_options, encode_options, encode_scene
from playground.presets import PRESETS
from tests.browser import ARTIFACTS, wait_settled
from ui.panels.bayesian import MAP_COLOUR, PREDICTIVE_COLOUR

pytestmark = pytest.mark.browser

TAB = "Predictive vs MAP (sec. 4.5.2)"
SAMPLES = 6

TRACES_JS = """() => (document.querySelector('.pg-canvas')._fullData || []).map(t => ({
  meta: t.meta, type: t.type, fill: t.fill || 'none', x: Array.from(t.x || []), y: Array.from(t.y || []),
}))"""
# Stroked paths on the plot: contour levels (the contour layer) and scatter lines, with their colour.
PATHS_JS = """() => Array.from(document.querySelectorAll(
    '.pg-canvas .contourlevel path, .pg-canvas [class^=scatterlayer] path.js-line'))
  .filter(p => (p.getAttribute('d') || '').length > 20)
  .map(p => ({stroke: getComputedStyle(p).stroke, layer: p.closest('.contourlevel') ? 'contour' : 'scatter'}))"""
SAMPLES_X_JS = """() => JSON.stringify((document.querySelector('.pg-canvas')._fullData || [])
  .filter(t => t.meta === 'posterior samples').map(t => Array.from(t.x || [])))"""


def _rgb(colour):
    return "rgb(" + ", ".join(str(int(colour[i : i + 2], 16)) for i in (1, 3, 5)) + ")"


def _segments(trace):
    x = np.array([np.nan if v is None else v for v in trace["x"]], dtype=float)
    return int(np.sum(~np.isnan(x))) // 2


def test_predictive_contours_and_posterior_boundaries_are_drawn_and_resampled(browser, server):
    preset = PRESETS["bayes_predictive"]
    options = {"bayes_contours": "both", "bayes_samples": SAMPLES, "bayes_seed": 4}
    query = encode_scene(preset.scene) | {"po": encode_options(options), "tab": TAB}
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server}/?{urllib.parse.urlencode(query)}")
    page.wait_for_selector(".pg-canvas .main-svg", timeout=90_000)
    page.wait_for_function(
        "() => (document.querySelector('.pg-canvas')._fullData || []).some(t => t.meta === 'posterior samples')",
        timeout=90_000,
    )
    wait_settled(page)

    traces = page.evaluate(TRACES_JS)
    metas = [t["meta"] for t in traces]
    assert {"posterior", "map", "predictive", "posterior samples"} <= set(metas), metas
    # plotly draws contours below filled scatters: no region polygon may cover them (the shading
    # of p(C1|x) stands in for the regions).
    assert not [t for t in traces if t["fill"] != "none"], "filled region polygons would hide the contours"
    samples = next(t for t in traces if t["meta"] == "posterior samples")
    assert _segments(samples) == SAMPLES
    # Each drawn line is the boundary of one seeded draw from N(w_MAP, S_N).
    model = make_model("bayesian_logistic", **preset.scene.param_dict).fit(preset.scene.points.X, preset.scene.points.y)
    weights = model.sample_weights(SAMPLES, random_state=4)
    x = np.array([np.nan if v is None else v for v in samples["x"]], dtype=float)
    y = np.array([np.nan if v is None else v for v in samples["y"]], dtype=float)
    ends = np.column_stack([x, y])[~np.isnan(x)].reshape(SAMPLES, 2, 2)
    for w, segment in zip(weights, ends):
        np.testing.assert_allclose(segment @ w[1:] + w[0], 0.0, atol=1e-6)

    # On screen: the purple predictive contours, the grey MAP contours and the purple sample lines.
    page.wait_for_function(f"() => ({PATHS_JS})().length > 0", timeout=30_000)
    paths = page.evaluate(PATHS_JS)
    contour_colours = {p["stroke"] for p in paths if p["layer"] == "contour"}
    line_colours = [p["stroke"] for p in paths if p["layer"] == "scatter"]
    assert _rgb(PREDICTIVE_COLOUR) in contour_colours and _rgb(MAP_COLOUR) in contour_colours, contour_colours
    assert _rgb(PREDICTIVE_COLOUR) in line_colours, line_colours
    page.locator(".pg-canvas").screenshot(path=ARTIFACTS / "bayes-predictive-canvas.png")

    # "Draw new samples": the next seed, new boundaries, and the address bar carries the seed.
    before = page.evaluate(SAMPLES_X_JS)
    page.get_by_role("button", name="Draw new samples").click()
    page.wait_for_function(f"(before) => ({SAMPLES_X_JS})() !== before", arg=before, timeout=60_000)
    page.wait_for_function("() => location.search.includes('po=')", timeout=30_000)
    wait_settled(page)
    link = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    assert decode_options(link["po"][0], [])["bayes_seed"] == 5
    redrawn = next(t for t in page.evaluate(TRACES_JS) if t["meta"] == "posterior samples")
    assert _segments(redrawn) == SAMPLES
    page.locator(".pg-canvas").screenshot(path=ARTIFACTS / "bayes-predictive-resampled.png")
    assert errors == []
    context.close()
