"""The one drawing of a fitted scene (ui/plot/render.py): the test points' labels are the fit's as
shown at the playback step (the oracle: the model's own ``at_step`` and ``predict``), a failed fit is
the points alone, and the live route's figure is this drawing of the same fit (no copy of it)."""

import json

import numpy as np

from playground.grid import Window
from playground.link import encode_scene
from playground.scene import PointSet, Scene
from ui.engine.fitview import FitView, evaluate_view
from ui.engine.workers import fit_scene
from ui.plot.canvas import figure_json
from ui.plot.render import render_scene
from ui.server.live_route import live_answer


def _scene(method="perceptron", step=None, seed=4):
    rng = np.random.default_rng(seed)
    X = np.round(np.vstack([rng.normal([-1.5, -1], 0.9, (25, 2)), rng.normal([1.5, 1], 0.9, (25, 2))]), 2)
    y = np.repeat([0, 1], 25)
    points = PointSet.from_arrays(X, y).held_out(0.3, seed=2)
    return Scene(points=points, method=method, window=Window.around(X), step=step)


def _fit(scene):
    training = scene.training.points
    result = fit_scene(training.X, training.y, scene.method, scene.params, scene.multiclass, scene.basis, ())
    view = evaluate_view(result, training.X, training.y, scene.window, scene.step, 200)
    return result[0], view


def test_the_test_points_are_labelled_by_the_fit_shown_at_the_step():
    for step in (None, 1, 3):
        scene = _scene(step=step)
        model, view = _fit(scene)
        drawn = render_scene(scene, model, view)
        shown = model if step is None else model.at_step(step)
        expected = shown.predict(scene.points.testing.X).astype(int)
        assert drawn.test_predicted is not None and np.array_equal(drawn.test_predicted, expected)
    # The final fit and an early step label the test points differently here: the step matters.
    early, final = (render_scene(_scene(step=s), *_fit(_scene(step=s))).test_predicted for s in (1, None))
    assert not np.array_equal(early, final)


def test_a_failed_fit_is_drawn_as_the_points_alone_with_a_caption_naming_no_accuracy():
    scene = _scene()
    drawn = render_scene(scene, None, FitView(error="no fit"), overlays=[{"type": "scatter", "meta": "extra"}])
    metas = [trace.get("meta") for trace in drawn.figure["data"]]
    assert "points" in metas and "boundary" not in metas and "extra" not in metas
    assert drawn.test_predicted is None
    assert "accuracy" not in json.dumps(drawn.figure["layout"])
    fitted = render_scene(scene, *_fit(scene))
    assert "accuracy" in json.dumps(fitted.figure["layout"])


def test_the_live_routes_figure_is_this_drawing_of_the_same_fit():
    scene = _scene(method="logistic")
    body = {
        "scene": encode_scene(scene),
        "edits": [],
        "add_as": 1,
        "add_test": False,
        "scale": 1.0,
        "language": "en",
        "painted": False,
    }
    answer = json.loads(live_answer(body))
    model, view = _fit(scene)
    drawn = render_scene(scene, model, view, caption=False)
    ours = json.loads(figure_json(drawn.figure))
    # The route names each point by its place in the request (all of them here) and sets the font.
    assert [trace.get("meta") for trace in answer["figure"]["data"]] == [trace.get("meta") for trace in ours["data"]]
    for theirs, mine in zip(answer["figure"]["data"], ours["data"], strict=True):
        if mine.get("meta") != "points":
            assert theirs == mine
