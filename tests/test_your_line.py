"""Your line (issue 46): the person's line travels in links and files, is drawn on the canvas, and
is scored beside the fit by each method's criterion at its best scale; hostile values are refused
with a sentence and lose nothing."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import make_model
from playground.fileio import scene_from_json, scene_to_json
from playground.grid import Window
from playground.link import decode_scene, encode_scene
from playground.presets import outlier_points, overlapping_points
from playground.scene import Scene
from ui.panels import PanelContext
from ui.panels.criterion_landscape import MAX_PATH_POINTS, landscape, path_points, polar
from ui.panels.your_line import overlay
from ui.plot.line_scores import accuracy, back_end_weights, guess_line, scored_lines
from ui.text.convention import book_line

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _scene(method="least_squares", guess=(0.0, -1.0, 1.0)):
    points = outlier_points()  # figure 4.4: least squares pulled by the far points
    return Scene(points=points, window=Window.around(points.X), method=method, guess=guess)


def test_the_line_round_trips_through_a_link_and_a_file():
    scene = _scene(guess=(0.25, -1.5, 1e-3))
    query = encode_scene(scene)
    assert query["guess"] == "0.25,-1.5,0.001"
    assert decode_scene(query).scene.guess == scene.guess
    assert scene_from_json(scene_to_json(scene)).scene.guess == scene.guess
    assert "guess" not in encode_scene(replace(scene, guess=None))
    assert '"guess"' not in scene_to_json(replace(scene, guess=None))


@pytest.mark.parametrize(
    "text",
    ["1,2", "1,2,3,4", "a,b,c", "1,0,0", "0,-0,0", "nan,1,1", "1,inf,1", "1,1e13,1", "1," + "9" * 50 + ",1", ""],
)
def test_a_hostile_line_in_a_link_is_left_out_with_a_sentence_and_the_points_stay(text):
    scene = _scene(guess=None)
    query = {**encode_scene(scene), "guess": text}
    decoded = decode_scene(query)
    assert decoded.scene.guess is None
    assert decoded.scene.points == scene.points
    assert any("line (guess)" in message.template for message in decoded.messages)


def test_a_hostile_line_in_a_file_is_left_out_with_a_sentence():
    text = scene_to_json(_scene()).replace('"guess": [0.0, -1.0, 1.0]', '"guess": {"w0": 1}')
    loaded = scene_from_json(text)
    assert loaded.scene.guess is None and len(loaded.scene.points) == len(outlier_points())
    assert any("line (guess)" in message.template for message in loaded.messages)


def _fitted(scene):
    training = scene.points
    return make_model(scene.method).fit(training.X, training.y)


def test_the_line_is_read_in_the_books_convention():
    scene = _scene(guess=(1.0, -2.0, 0.5))
    model = _fitted(scene)
    line = guess_line(scene, model)
    assert (line.w0, *line.w) == (1.0, -2.0, 0.5)
    # y(x) >= 0 is C1, the first class: the back-end's weights are the opposite.
    assert np.allclose(back_end_weights(model, line), [-1.0, 2.0, -0.5])
    X, y = scene.points.X, scene.points.y
    first = model.classes_[0]
    assert accuracy(line, X, y) == pytest.approx(np.mean((X @ line.w + line.w0 >= 0) == (y == first)))


@pytest.mark.parametrize("method", ["least_squares", "logistic", "probit", "bayesian_logistic", "svm", "perceptron"])
def test_the_fit_scores_at_least_as_well_as_any_line_by_its_own_criterion(method):
    scene = _scene(method=method)
    model = _fitted(scene)
    fit = book_line(model)
    rng = np.random.default_rng(0)
    for guess in rng.normal(size=(10, 3)):
        line = guess_line(replace(scene, guess=tuple(guess)), model)
        rows = scored_lines(scene, model, np.stack([back_end_weights(model, line), back_end_weights(model, fit)]))
        own = rows[0]
        assert own.own and not any(row.own for row in rows[1:])
        assert own.fit <= own.guess * (1 + 1e-6) + 1e-9, (guess, own)
        assert len({row.label for row in rows}) == len(rows)  # one row per criterion


def test_figure_4_4_least_squares_prefers_its_fit_to_a_line_with_fewer_errors():
    scene = _scene()
    model = _fitted(scene)
    X, y = scene.points.X, scene.points.y
    line, fit = guess_line(scene, model), book_line(model)
    assert accuracy(line, X, y) > np.mean(model.predict(X) == y)
    own = scored_lines(scene, model, np.stack([back_end_weights(model, line), back_end_weights(model, fit)]))[0]
    assert own.fit < own.guess


def test_a_density_model_is_scored_by_the_cross_entropy():
    scene = _scene(method="gaussian_shared")
    model = _fitted(scene)
    rows = scored_lines(
        scene,
        model,
        np.stack([back_end_weights(model, guess_line(scene, model)), back_end_weights(model, book_line(model))]),
    )
    assert rows[0].own and "cross-entropy" in rows[0].label


def test_the_landscape_holds_the_fit_at_its_optimum_and_the_path_follows_the_playback():
    points = overlapping_points()  # not separable: the fit's cross-entropy is a true minimum
    scene = Scene(points=points, window=Window.around(points.X), method="logistic", guess=(0.0, 1.0, 1.0))
    model = _fitted(scene)
    land = landscape(scene, model)
    assert land.values.shape == (land.offsets.size, land.angles.size)
    angle, offset = polar(book_line(model))
    assert land.angles[0] <= angle <= land.angles[-1]  # centred on the fit
    own = float(model.criterion_at(scene.points.X, scene.points.y, np.r_[model.intercept_, model.coef_.ravel()]))
    assert np.nanmin(land.values) >= own * (1 - 1e-6)
    assert np.nanmin(land.values) <= own * 1.05  # and the grid comes near it
    path = path_points(model)
    assert len(path) >= 2
    assert path[-1] == pytest.approx((angle, offset))
    # Step by step the playback's lines (step 0, w = 0, draws no line and has no place).
    playback = [book_line(model.at_step(step)) for step in range(len(model.history_) + 1)]
    assert path == [polar(line) for line in playback if line is not None][: len(path)]
    assert path_points(model, 2) == path[:2]


@pytest.mark.parametrize("method", ["perceptron", "svm", "softmax", "probit"])
def test_every_iterative_fits_path_is_its_playback_step_by_step(method):
    """The perceptron's updates, SMO's pairs, the Newton / IRLS steps: the landscape's path is the
    playback's lines, in order, ending at the fit."""
    points = overlapping_points()
    scene = Scene(points=points, window=Window.around(points.X), method=method, guess=(0.0, 1.0, 1.0))
    model = _fitted(scene)
    path = path_points(model)
    assert len(path) >= 2, method
    # A long run (the perceptron's on overlapping classes) is drawn by MAX_PATH_POINTS of its steps,
    # evenly spaced, the last always in; each drawn point is the playback's line at that step.
    steps = len(model.history_)
    shown = sorted(set(np.linspace(0, steps, min(steps + 1, MAX_PATH_POINTS)).round().astype(int)))
    lines = (book_line(model.at_step(k)) for k in shown)
    assert path == [polar(line) for line in lines if line is not None]
    assert path[-1] == pytest.approx(polar(book_line(model)))


def _context(scene):
    model = _fitted(scene)
    return PanelContext(scene=scene, model=model, shown_model=model, window=scene.window)


def test_the_canvas_draws_the_line_dashed_across_the_view_and_nothing_without_one():
    traces = overlay(_context(_scene()))
    assert [trace["meta"] for trace in traces] == ["your_line", "your_line", "your_line_handles"]
    assert traces[0]["line"]["dash"] == "dash"
    handles = traces[2]  # on the line, a quarter of its stretch in from each end, carrying its weights
    w0, w1, w2 = _scene().guess
    for x, y in zip(handles["x"], handles["y"]):
        assert w1 * x + w2 * y + w0 == pytest.approx(0, abs=1e-9)
    assert handles["customdata"][0] == pytest.approx([w0, w1, w2])
    assert overlay(_context(_scene(guess=None))) == []
    far = _scene(guess=(1e6, 0.0, 1.0))  # y(x) = x2 + 1e6: the line lies far below the view
    assert overlay(_context(far)) == []


def _run(query):
    at = AppTest.from_file(APP, default_timeout=90)
    for name, value in query.items():
        at.query_params[name] = value
    return at.run()


def test_a_link_with_a_line_opens_with_it_drawn_and_scored():
    at = _run({**encode_scene(_scene()), "tab": "Your line"})
    assert not at.exception
    text = "\n".join(m.value for m in at.markdown)
    assert "| training points classified correctly | 98 % | 88 % |" in text
    assert "**sum of squares (eq. 4.15)**, minimised" in text
    assert [n.value for n in at.number_input][:3] == [0.0, -1.0, 1.0]
    assert at.query_params["guess"] == "0.0,-1.0,1.0"


def test_typing_a_line_sets_it_and_a_line_without_direction_is_refused():
    scene = replace(_scene(), guess=None)
    at = _run({**encode_scene(scene), "tab": "Your line"})
    inputs = at.number_input
    inputs[0].set_value(0.5)
    inputs[1].set_value(1.0)
    inputs[2].set_value(-1.0).run()
    assert at.query_params["guess"] == "0.5,1.0,-1.0"
    at.number_input[1].set_value(0.0)
    at.number_input[2].set_value(0.0).run()
    assert at.query_params["guess"] == "0.5,1.0,-1.0"  # kept: w1 = w2 = 0 is no line
    assert any("no line" in toast.value for toast in at.toast)


# -- predict first: the fit hidden until the person reveals it -----------------------------------


def test_a_hidden_fit_travels_in_links_and_files_and_a_hostile_setting_shows_it():
    scene = replace(_scene(), fit_hidden=True)
    assert encode_scene(scene)["hide"] == "1"
    assert decode_scene(encode_scene(scene)).scene.fit_hidden
    assert scene_from_json(scene_to_json(scene)).scene.fit_hidden
    assert "hide" not in encode_scene(_scene())
    decoded = decode_scene({**encode_scene(_scene()), "hide": "yes<script>"})
    assert not decoded.scene.fit_hidden and len(decoded.scene.points) == len(outlier_points())
    assert any("hide the fit" in message.template for message in decoded.messages)


def _fit_traces(figure):
    return [trace for trace in figure["data"] if trace.get("meta") not in ("points", "your_line", "misclassified")]


def test_a_hidden_fit_draws_the_points_and_the_line_alone_on_the_page_and_through_the_live_route():
    from ui.plot.render import render_scene
    from ui.server.live_route import live_answer
    from ui.session.compute import scene_model, scene_view

    scene = replace(_scene(), fit_hidden=True)
    context = _context(scene)
    shown = render_scene(scene, scene_model(scene), scene_view(scene), overlays=overlay(context)).figure
    metas = [trace.get("meta") for trace in shown["data"]]
    assert "your_line" in metas and "points" in metas
    assert not [trace for trace in shown["data"] if trace.get("type") in ("heatmap", "contour")]
    assert not [m for m in metas if m not in ("points", "your_line", "your_line_handles")], metas
    visible = render_scene(_scene(), scene_model(_scene()), scene_view(_scene())).figure
    assert [trace for trace in visible["data"] if trace.get("meta") not in ("points", "your_line", "your_line_handles")]
    body = {
        "scene": encode_scene(scene),
        "edits": [{"type": "add", "x": 5.0, "y": 1.0}],
        "add_as": 0,
        "add_test": False,
        "scale": 1.0,
        "language": "en",
        "painted": False,
        "client": "test",
    }
    answer = json.loads(live_answer(body))
    assert answer["status"]["accuracy"] is None
    assert {trace.get("meta") for trace in answer["figure"]["data"]} <= {"points"}


def test_while_the_fit_is_hidden_only_the_tabs_that_tell_nothing_of_it_are_shown():
    from ui.panels import active_panels

    hidden = [panel.title for panel in active_panels(_context(replace(_scene(), fit_hidden=True)))]
    assert hidden == ["Your line"]
    assert len(active_panels(_context(_scene()))) > 2


def test_hiding_then_revealing_from_the_tab():
    at = _run({**encode_scene(_scene()), "tab": "Your line"})
    next(b for b in at.button if b.label == "Hide the fit: I predict first").click().run()
    assert at.query_params["hide"] == "1"
    status = next(m.value for m in at.markdown if "role='status'" in m.value)
    assert "the fit is hidden" in status and "accuracy" not in status
    assert [tab.label for tab in at.tabs] == ["Your line"]
    text = "\n".join(m.value for m in at.markdown)
    assert "Your line classifies **98 %**" in text and "the fit |" not in text
    next(b for b in at.button if b.label == "Reveal the fit").click().run()
    assert "hide" not in at.query_params
    assert "| training points classified correctly | 98 % | 88 % |" in "\n".join(m.value for m in at.markdown)


# -- each point's share ------------------------------------------------------------------------------


def test_the_shares_sum_to_the_criterion_at_the_lines_best_scale_and_the_misclassified_weigh_most():
    from playground.landscape import best_scale_values, unit_lines
    from ui.panels.your_line import point_shares

    scene = _scene()
    model = _fitted(scene)
    line = guess_line(scene, model)
    shares = point_shares(scene, model, line)
    X, y = scene.points.X, scene.points.y
    best = best_scale_values(model, X, y, unit_lines(back_end_weights(model, line)[None, :]))
    assert shares.sum() == pytest.approx(best.values[0], rel=1e-9)
    fit_shares = point_shares(scene, model, book_line(model))
    wrong = model.predict(X) != y  # at the fit the misclassified points pay the most
    assert fit_shares[wrong].mean() > 2 * fit_shares[~wrong].mean()
    terms = model.criterion_terms(X, y, np.r_[model.intercept_, model.coef_.ravel()])
    assert fit_shares == pytest.approx(terms.points, rel=1e-3, abs=1e-4)  # the fit is at its best scale
    assert point_shares(replace(scene, method="fisher"), _fitted(replace(scene, method="fisher")), line) is None


def test_the_shares_ring_the_points_only_when_asked_and_never_reveal_a_hidden_fit():
    def rings(scene, which):
        context = replace(_context(scene), options={"point_shares": which})
        return [trace for trace in overlay(context) if trace["meta"] == "your_line_shares"]

    assert rings(_scene(), "off") == []
    shown = rings(_scene(), "fit")
    assert len(shown) == 1 and len(shown[0]["x"]) == len(outlier_points())
    assert rings(replace(_scene(), fit_hidden=True), "fit") == []
    assert len(rings(replace(_scene(), fit_hidden=True), "guess")) == 1
    decoded = decode_scene({**encode_scene(_scene())})
    assert decoded.scene.guess == (0.0, -1.0, 1.0)
