"""The compact legend (the canvas's fallback when the full one does not fit a row) speaks the
session's language for every entry of the plot's own: the boundary, the test points and the
misclassified marks (the last once stayed in English on a narrow Japanese page)."""

import numpy as np
import pytest

from playground import Window
from playground.scene import PointSet, Scene
from ui.engine.fitview import evaluate_view
from ui.engine.workers import fit_scene
from ui.plot.render import render_scene
from ui.text.i18n import _, speaking


def _scene():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal([-1, 0], 1.2, (30, 2)), rng.normal([1, 0], 1.2, (30, 2))])  # overlapping
    points = PointSet.from_arrays(np.round(X, 2), np.repeat([0, 1], 30)).held_out(0.2, seed=1)
    return Scene(points=points, method="least_squares", window=Window.around(X))


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_every_entry_of_the_plots_own_is_named_in_the_language_spoken(language):
    scene = _scene()
    training = scene.training.points
    result = fit_scene(training.X, training.y, scene.method, scene.params, scene.multiclass, scene.basis, ())
    view = evaluate_view(result, training.X, training.y, scene.window, None, 200)
    with speaking(language):
        figure = render_scene(scene, result[0], view).figure
        expected = {"misclassified": _("misclassified"), "decision boundary": _("boundary"), "test": _("test")}
    compact = figure["compact"]["names"]
    for english, spoken in expected.items():
        assert spoken != english  # the catalogs translate it
        assert spoken in compact, (english, compact)
    assert not {"misclassified", "boundary", "test", "decision boundary"} & set(compact)
