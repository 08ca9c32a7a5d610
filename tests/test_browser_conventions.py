"""Real-browser checks of the book's convention on the canvas (issue 13) and of the label of
issue 12, item 9: w points into class 1's region, the value of -w0/||w|| sits in the legend and
no text on the plane covers a point, and the Equations tab's point is marked while it is open.
"""

import urllib.parse

import numpy as np
import pytest

from playground import ClusterSpec, Window, make_clusters
from playground.link import encode_scene
from playground.scene import PointSet, Scene
from tests.browser import ARTIFACTS, wait_settled
from ui.panels.geometry import W_NAME

pytestmark = pytest.mark.browser

# Two classes around the origin, so a label placed at the origin would sit on points.
SPECS = (ClusterSpec((-1.0, 0.2), (1.1, 0.8), 20.0), ClusterSpec((1.2, -0.3), (1.1, 0.8), -20.0))

TRACES_JS = """() => (document.querySelector('.pg-canvas')._fullData || []).map(t => ({
  name: t.name, meta: t.meta, mode: t.mode || '', type: t.type,
  x: Array.from(t.x || []), y: Array.from(t.y || []),
}))"""
# Every text a trace draws on the plot area (not the legend, not the ticks): its string and page box.
PLOT_TEXTS_JS = """() => Array.from(document.querySelectorAll('.pg-canvas [class^=scatterlayer] text'))
  .map(e => ({text: e.textContent, box: e.getBoundingClientRect().toJSON()}))"""
LEGEND_JS = """() => Array.from(document.querySelectorAll('.pg-canvas .legend text')).map(e => e.textContent)"""
POINTS_PX_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const box = root.querySelector('.main-svg').getBoundingClientRect();
  return root._fullData.filter(t => t.meta === 'points').flatMap(t => Array.from(t.x).map((x, i) =>
    [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(t.y[i])]));
}"""


def _scene():
    X, y = make_clusters(SPECS, 30, seed=5)
    points = PointSet.from_arrays(X, y)
    return Scene(points=points, method="least_squares", params=(("targets", "one_of_k"),), window=Window.around(X))


def _open(browser, server, scene, tab):
    query = encode_scene(scene) | {"tab": tab}
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{server}/?{urllib.parse.urlencode(query)}")
    page.wait_for_selector(".pg-canvas .main-svg", timeout=60_000)
    wait_settled(page)
    return context, page, errors


def test_w_points_into_class_1_and_the_distance_label_covers_nothing(browser, server):
    scene = _scene()
    context, page, errors = _open(browser, server, scene, "Geometry (fig. 4.1)")
    traces = page.evaluate(TRACES_JS)
    (arrow,) = [t for t in traces if t["name"] == W_NAME]
    direction = np.array([arrow["x"][1] - arrow["x"][0], arrow["y"][1] - arrow["y"][0]])
    X, y = scene.points.X, scene.points.y
    assert direction @ (X[y == 0].mean(axis=0) - X[y == 1].mean(axis=0)) > 0  # into class 1 (figure 4.1)
    legend = page.evaluate(LEGEND_JS)
    assert not any("w₀" in text for text in legend), legend  # the legend stays one row: classes, boundary
    texts = page.evaluate(PLOT_TEXTS_JS)
    assert not [t for t in texts if "w₀" in t["text"] or "‖w‖" in t["text"]]  # not on the plane
    # No text on the plane covers a point (the arrow's own "w" included).
    points = page.evaluate(POINTS_PX_JS)
    for text in texts:
        box = text["box"]
        if not text["text"].strip() or box["width"] == 0:
            continue
        inside = [
            (px, py) for px, py in points if box["left"] <= px <= box["right"] and box["top"] <= py <= box["bottom"]
        ]
        assert not inside or text["text"] == "w", (text, inside[:3])
    main = page.inner_text("[data-testid='stMain']")
    assert "is positive on the C₁ side, where w points" in main
    assert "−w₀/‖w‖ = " in main  # the distance's value, in the panel's text
    page.screenshot(path=ARTIFACTS / "conventions-geometry.png", full_page=True)
    assert not errors, errors
    context.close()


def test_the_equations_point_is_marked_only_while_the_tab_is_open(browser, server):
    scene = _scene()
    context, page, errors = _open(browser, server, scene, "Equations")
    marks = [t for t in page.evaluate(TRACES_JS) if t["meta"] == "equation point"]
    assert len(marks) == 1
    np.testing.assert_allclose([marks[0]["x"][0], marks[0]["y"][0]], scene.points.X[-1], rtol=1e-4, atol=1e-4)
    page.screenshot(path=ARTIFACTS / "conventions-equations-point.png", full_page=True)
    legend_before = page.evaluate(LEGEND_JS)
    page.get_by_role("tab", name="Geometry (fig. 4.1)").click()
    # The canvas redraws without the mark (the scene, hence its revision, is unchanged: wait for the state).
    page.wait_for_function(
        "() => !(document.querySelector('.pg-canvas')._fullData || []).some(t => t.meta === 'equation point')",
        timeout=30_000,
    )
    wait_settled(page)
    assert page.evaluate(LEGEND_JS) == legend_before  # the mark is not in the legend: the plot keeps its size
    assert not errors, errors
    context.close()


@pytest.mark.parametrize(
    ("method", "multiclass", "seed"), [("least_squares", "ovo", 3), ("logistic", "ovr", 1), ("svm", "ovo", 1)]
)
def test_the_two_class_classifiers_labels_cover_no_point(browser, server, method, multiclass, seed):
    """Issue 12, item 9: the "1 vs 2" / "1 vs rest" labels along the sub-classifiers' lines sit
    clear of every marker (these scenes put the middle of a line in a cluster)."""
    from ui.session.state import DEFAULT_CLUSTERS, default_scene

    X, y = make_clusters(DEFAULT_CLUSTERS, 30, seed=seed)
    points = PointSet.from_arrays(X, y)
    scene = default_scene().with_points(points).with_method(method, {}, multiclass).with_window(Window.around(X))
    context, page, errors = _open(browser, server, scene, "Multi-class strategy (fig. 4.2)")
    texts = [t for t in page.evaluate(PLOT_TEXTS_JS) if " vs " in t["text"]]
    assert len(texts) == 3, texts
    points_px = page.evaluate(POINTS_PX_JS)
    radius = 5  # a marker's radius in pixels: a centre this close to the text's box is under it
    for text in texts:
        box = text["box"]
        left, right = box["left"] - radius, box["right"] + radius
        top, bottom = box["top"] - radius, box["bottom"] + radius
        covered = [(px, py) for px, py in points_px if left <= px <= right and top <= py <= bottom]
        assert not covered, (text, covered)
    page.locator(".pg-canvas").screenshot(path=ARTIFACTS / f"conventions-labels-{method}-{multiclass}.png")
    assert not errors, errors
    context.close()
