"""The playback note (ui/panels/playback_note.py): with three or more classes a two-class iterative
method has no playback, and a tab says why; with two classes, or softmax regression, there is none."""

from playground.presets import PRESETS, bars_points
from ui.panels import PanelContext, active_panels
from ui.panels.playback_note import TITLE
from ui.panels.preset_numbers import _fit


def _titles(scene):
    model = _fit(scene)
    ctx = PanelContext(scene, model, model, scene.window, {}, None, all_points=scene.points)
    return [panel.title for panel in active_panels(ctx)]


def test_three_classes_and_a_two_class_iterative_method_get_the_note_and_no_player():
    three = PRESETS["fig4_2"].scene.with_points(bars_points())
    for method, params in (("perceptron", {}), ("logistic", {"solver": "irls"}), ("svm", {})):
        titles = _titles(three.with_method(method, params, "ovr"))
        assert TITLE in titles and "Perceptron playback (fig. 4.7)" not in titles and "Iterations" not in titles
    assert TITLE in _titles(three.with_method("perceptron", {}, "ovo"))


def test_one_run_has_its_player_and_no_note():
    two = PRESETS["fig4_7"].scene
    titles = _titles(two)
    assert "Perceptron playback (fig. 4.7)" in titles and TITLE not in titles
    three = PRESETS["fig4_2"].scene.with_points(bars_points())
    titles = _titles(three.with_method("softmax", {"solver": "irls"}, "native"))
    assert "Iterations" in titles and TITLE not in titles
