"""Every mark on the canvas is explained: the σ(a) ring only while its tab is open and then in the
legend; the RBF centres in the legend and above the points; the comparison's one legend row."""

from playground.presets import PRESETS
from ui.panels import PanelContext, iterations
from ui.panels import basis as basis_panel
from ui.panels.preset_numbers import _fit
from ui.plot.figures import MARKED_OVERLAYS, scene_figure
from ui.plot.legend_row import legend_row
from ui.session.compute import FitView


def _context(key, open_tab):
    scene = PRESETS[key].scene
    model = _fit(scene)
    return scene, PanelContext(scene, model, model, scene.window, {}, open_tab, all_points=scene.points)


def _figure(scene, overlays):
    return scene_figure(scene.points, FitView(), scene.window, 0, overlays)


def _by_meta(figure, meta):
    return [trace for trace in figure["data"] if trace.get("meta") == meta]


def test_sigma_ring_only_on_its_own_tab_and_then_in_the_legend():
    for key in ("fig4_9", "fig4_12"):  # probit and logistic regression: both have the Iterations tab
        scene, other_tab = _context(key, PRESETS[key].tab)
        assert iterations.applies(other_tab) and iterations.overlay(other_tab) == []
        _scene, own_tab = _context(key, "Iterations")
        rings = _by_meta(_figure(scene, iterations.overlay(own_tab)), "chosen point")
        assert len(rings) == 1 and rings[0]["showlegend"] is True and rings[0]["name"] == "point for σ(a)"
        assert rings[0]["zorder"] > 0  # above the points (plotly's default zorder 0)


def test_basis_centres_are_named_and_drawn_above_the_points():
    scene, ctx = _context("fig4_12", PRESETS["fig4_12"].tab)
    figure = _figure(scene, basis_panel.overlay(ctx))
    centres = [t for t in figure["data"] if t.get("meta") in ("centres", "rbf_centres")]
    assert len(centres) == 1 and centres[0]["showlegend"] is True and centres[0].get("zorder", 0) > 0
    points = [t for t in figure["data"] if t.get("meta") == "points"]
    assert points and all(t.get("zorder", 0) < centres[0]["zorder"] for t in points)
    # The other overlays (the circles of radius s) stay out of the legend, as before.
    others = [t for t in figure["data"] if t.get("name") == "radius s around each centre"]
    assert others and all(t["showlegend"] is False for t in others)
    assert {"chosen point", "centres", "rbf_centres"} == MARKED_OVERLAYS


def test_comparison_legend_row_names_the_classes_the_boundary_and_the_rings():
    row = legend_row(PRESETS["fig4_4"].scene.points)
    assert row.count("pg-legend-entry") == 4  # two classes, the boundary, the misclassified rings
    assert "decision boundary" in row and "misclassified" in row and "test (hollow)" not in row
    assert "test (hollow)" in legend_row(PRESETS["overfit"].scene.points)
