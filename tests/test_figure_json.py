"""The canvas's and the charts' JSON writer against plotly's own encoder: the same figure after
parsing, whatever the figure holds (numpy scalars and arrays, NaN, HTML-like text)."""

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from plotly.io.json import to_json_plotly

from playground import ClusterSpec, make_clusters, make_model
from playground.grid import Window
from playground.scene import PointSet
from ui.plot import canvas
from ui.plot.canvas import _typed_arrays, figure_json
from ui.plot.figures import scene_figure
from ui.session.compute import evaluate_view


def _plotly_parsed(figure):
    if not isinstance(figure, dict):
        figure = figure.to_plotly_json()
    return json.loads(to_json_plotly(_typed_arrays(figure)))


def test_a_scene_figure_reads_back_as_plotly_writes_it():
    X, y = make_clusters([ClusterSpec((-2, 0), (1, 1), 0), ClusterSpec((2, 1), (1, 1), 30)], 40, seed=1)
    points = PointSet.from_arrays(X, y)
    window = Window.around(points.X)
    model = make_model("logistic").fit(points.X, points.y)
    view = evaluate_view((model, None), points.X, points.y, window, None, 60)
    figure = scene_figure(points, view, window, 1)
    assert json.loads(figure_json(figure)) == _plotly_parsed(figure)


def test_numpy_scalars_nan_and_markup_read_back_as_plotly_writes_them():
    figure = {
        "data": [
            {
                "type": "scatter",
                "x": np.arange(5, dtype=np.float32),
                "y": [np.float64(0.1), np.int64(3), np.float32(2.5), np.bool_(True)],
                "name": "</script><img src=x onerror=alert(1)> & ü",
                "marker": {"size": np.int32(7)},
            }
        ],
        "layout": {"xaxis": {"range": np.array([-1.0, 1.0])}, "title": {"text": "a/b"}},
    }
    assert json.loads(figure_json(figure)) == _plotly_parsed(figure)
    figure["data"][0]["y"].append(float("nan"))  # plotly.js reads null
    assert json.loads(figure_json(figure)) == _plotly_parsed(figure)
    assert json.loads(figure_json(figure))["data"][0]["y"][-1] is None


def test_a_graph_objects_figure_is_written_too():
    figure = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], name="class 1"))
    assert json.loads(figure_json(figure)) == _plotly_parsed(figure)


def test_the_standard_library_writes_what_it_can(monkeypatch):
    calls = []
    monkeypatch.setattr(canvas, "to_json_plotly", lambda figure: calls.append(figure) or "{}")
    figure_json({"data": [{"x": np.arange(3.0), "y": [np.float64(1.0)]}], "layout": {}})
    assert calls == []
    figure_json({"data": [{"y": [float("inf")]}], "layout": {}})
    assert len(calls) == 1


@pytest.mark.parametrize("engine", ["json", "auto"])
@pytest.mark.parametrize("y", [[3, 4], [3, float("nan")]], ids=["finite", "nan"])
def test_text_is_written_as_itself_whichever_json_engine_plotly_has(monkeypatch, engine, y):
    """The names reach the page as themselves, whether or not orjson is installed (plotly's
    standard-library engine escapes every non-ASCII character), on the fast path and on plotly's."""
    monkeypatch.setattr(pio.json.config, "default_engine", engine)
    figure = {"data": [{"name": "C₁ クラス 类别 a/b", "x": [1, 2], "y": y}], "layout": {}}
    written = figure_json(figure)
    assert '"C₁ クラス 类别 a/b"' in written
    assert json.loads(written) == _plotly_parsed(figure)
