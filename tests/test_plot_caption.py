"""The caption on the plot (ui/plot/caption.py) and the room's sizes for panel charts (ui/plot/projector_sizes.py)."""

import numpy as np

from playground.presets import PRESETS
from ui.panels.preset_numbers import _fit
from ui.plot.caption import LINE_CHARACTERS, caption_height, caption_lines, caption_text, with_caption
from ui.plot.figures import canvas_margin, scene_figure
from ui.plot.projector_sizes import MIN_TICK_PX, room_data, room_layout
from ui.session.compute import FitView
from ui.session.state import default_scene


def _view(scene, model):
    predicted = model.predict(scene.points.training.X)
    return FitView(predicted=predicted, accuracy=float(np.mean(predicted == scene.points.training.y)))


def test_the_caption_names_method_section_strategy_basis_and_both_accuracies():
    scene = PRESETS["overfit"].scene
    model = _fit(scene)
    test_predicted = model.predict(scene.points.testing.X)
    text = caption_text(scene, _view(scene, model), test_predicted)
    assert text.startswith("Least squares (§4.1.3)") and "basis: polynomial" in text
    assert "training accuracy 100.0%" in text and "test accuracy 57.5%" in text  # as the preset's text says
    three = PRESETS["fig4_2"].scene
    assert "one-versus-rest" in caption_text(three)  # three classes: the strategy
    assert "one-versus-rest" not in caption_text(PRESETS["fig4_7"].scene)  # two: none
    assert caption_text(three, settings=False) == "Least squares (§4.1.3)"


def test_the_caption_is_in_the_figure_above_the_legend_and_its_band_is_counted():
    scene = PRESETS["fig4_6"].scene
    model = _fit(scene)
    text = caption_text(scene, _view(scene, model))
    figure = scene_figure(scene.points, _view(scene, model), scene.window, 0, caption=text)
    (note,) = [a for a in figure["layout"]["annotations"] if a.get("name") == "caption"]
    assert note["text"] == "<br>".join(caption_lines(text)) and note["yshift"] == canvas_margin()["t"]
    assert figure["layout"]["margin"]["t"] == canvas_margin()["t"] + caption_height(text)
    assert "annotations" not in scene_figure(scene.points, FitView(), scene.window, 0)["layout"]


def test_a_long_caption_breaks_at_its_parts_and_a_narrow_one_at_each():
    text = " · ".join(["a" * 30, "b" * 25, "c" * 20])
    assert caption_lines(text) == ["a" * 30 + " · " + "b" * 25, "c" * 20]
    assert all(len(line) <= LINE_CHARACTERS for line in caption_lines(text))
    layout = with_caption({"margin": {"t": 40}}, text, narrow=True)
    assert layout["annotations"][0]["text"].count("<br>") == 2
    assert layout["margin"]["t"] == 40 + caption_height(text, narrow=True) > 40 + caption_height(text)


def test_panel_charts_grow_for_the_room_and_the_given_layout_stays():
    layout = {"height": 260, "title": {"text": "J", "font": {"size": 14}}, "xaxis": {"title": "θ"}, "yaxis": {}}
    grown = room_layout(layout)
    assert layout == {"height": 260, "title": {"text": "J", "font": {"size": 14}}, "xaxis": {"title": "θ"}, "yaxis": {}}
    assert grown["height"] > 260 and grown["font"]["size"] >= 18 and grown["title"]["font"]["size"] > 14
    assert all(grown[axis]["tickfont"]["size"] >= MIN_TICK_PX for axis in ("xaxis", "yaxis"))
    assert grown["xaxis"]["title"]["text"] == "θ"
    (trace,) = room_data([{"type": "scatter", "marker": {"size": 10}, "line": {"width": 2}}])
    assert trace["marker"]["size"] > 10 and trace["line"]["width"] > 2


def test_the_lines_do_not_change_with_the_accuracy():
    short, full = "m" * 30 + " · training accuracy 9.5%", "m" * 30 + " · training accuracy 100.0%"
    assert len(caption_lines(short)) == len(caption_lines(full))
    assert len(caption_lines("m" * 34 + " · training accuracy 9.5%")) == 2  # counted as 100.0%: 61 > 60


def test_presentation_floors_every_text_of_a_figure_at_18_px():
    from ui.plot.projector_sizes import LEGIBLE_PX, legible

    figure = {
        "layout": {"font": {"size": 12}, "legend": {"font": {"size": 13}}, "annotations": [{"font": {"size": 10}}]},
        "data": [
            {"type": "scatter", "mode": "markers+text", "text": ["1 vs rest"], "textfont": {"size": 12}},
            {"type": "scatter", "mode": "text", "text": ["w"]},
            {"type": "contour", "contours": {"showlabels": True}},
            {"type": "scatter", "hoverlabel": {"font": {"size": 12}}},
        ],
    }
    floored = legible(figure)
    assert floored["layout"]["font"]["size"] == LEGIBLE_PX == 18
    assert (
        floored["layout"]["legend"]["font"]["size"] == 18 and floored["layout"]["annotations"][0]["font"]["size"] == 18
    )
    assert [trace.get("textfont", {}).get("size") for trace in floored["data"][:2]] == [18, 18]
    assert floored["data"][2]["contours"]["labelfont"]["size"] == 18
    assert floored["data"][3]["hoverlabel"]["font"]["size"] == 12  # shown on demand, not on the plot
    assert figure["layout"]["font"]["size"] == 12  # a copy: the figure given is unchanged


def test_a_comparison_caption_in_presentation_breaks_before_a_parenthesis_never_inside():
    text = caption_text(default_scene().with_method("softmax"))
    layout = with_caption({"margin": {"t": 0}}, text, scale=1.6, narrow=True)
    lines = layout["annotations"][-1]["text"].split("<br>")
    assert lines[0] == "Softmax regression" and all(line.count("(") == line.count(")") for line in lines)
    assert layout["annotations"][-1]["font"]["size"] >= 18
