"""The room's figure is built once per change for every viewer, not once per poll
(``ui.rooms.views``): a poll within ``MIN_INTERVAL`` of the last build gets that build (marked
with its own version, so the poller asks again), a poll after it gets the newest room; a hidden
room's figure holds its points alone.
"""

import base64
import time

import numpy as np

from playground.link import encode_scene
from ui.rooms import model, views
from ui.session.state import default_scene


class Clock:
    now = 100.0

    def __call__(self):
        return self.now


def _room():
    room, _token = model.new_room(encode_scene(default_scene()), time.time())
    return room


def test_one_build_per_interval_whatever_the_polls():
    clock = Clock()
    cache = views.RoomFigures(clock=clock)
    room = _room()
    loads = []

    def load():
        loads.append(room["version"])
        return dict(room)

    first = cache.snapshot("ABCDEFGH", room["version"], "en", load)
    for _ in range(50):  # sixty students polling the same version: no new build
        assert cache.snapshot("ABCDEFGH", room["version"], "en", load) is first
    room["version"] += 1  # a point arrives
    clock.now += views.MIN_INTERVAL / 2
    assert cache.snapshot("ABCDEFGH", room["version"], "en", load).version == room["version"] - 1  # too soon
    clock.now += views.MIN_INTERVAL
    assert cache.snapshot("ABCDEFGH", room["version"], "en", load).version == room["version"]
    assert loads == [1, 2]
    japanese = cache.snapshot("ABCDEFGH", room["version"], "ja", load)  # each language its own figure ...
    assert japanese.version == room["version"] and japanese.figure != first.figure
    assert loads == [1, 2]  # ... from the one room loaded for this version


def test_a_hidden_room_shows_its_points_alone():
    import json

    room = _room()
    shown = json.loads(views.room_figure_json(room, "en"))
    room["hidden"] = True
    hidden = json.loads(views.room_figure_json(room, "en"))
    assert "boundary" in {t.get("meta") for t in shown["data"]}
    assert {t.get("meta") for t in hidden["data"]} == {"points"}


def test_a_phone_held_upright_gets_the_rooms_window_grown_in_height():
    import json

    from playground.grid import Window

    wide = Window(-6.0, 6.0, -3.0, 4.6)
    tall = views.tall_window(wide)
    assert (tall.x_min, tall.x_max) == (wide.x_min, wide.x_max)  # the room's whole window stays in view
    assert tall.y_max - tall.y_min == 12.0 * views.TALL_RATIO
    assert (tall.y_min + tall.y_max) / 2 == (wide.y_min + wide.y_max) / 2
    assert views.tall_window(tall) == tall  # already tall enough: unchanged
    room = _room()
    figures = {shape: json.loads(views.room_figure_json(room, "en", shape=shape)) for shape in views.SHAPES}
    y_room, y_tall = (figures[shape]["layout"]["yaxis"]["range"] for shape in views.SHAPES)
    x_room, x_tall = (figures[shape]["layout"]["xaxis"]["range"] for shape in views.SHAPES)
    assert x_room == x_tall and y_tall[1] - y_tall[0] > y_room[1] - y_room[0]
    # The regions fill the taller window: their polygons reach its top and bottom.
    ys = np.concatenate([_numbers(t["y"]) for t in figures["tall"]["data"] if t.get("fill") == "toself"])
    ys = ys[np.isfinite(ys)]
    assert ys.min() <= y_tall[0] + 1e-6 and ys.max() >= y_tall[1] - 1e-6


def _numbers(values):
    """A figure's coordinates: a list (None: a gap) or a plotly.js typed array ({dtype, bdata})."""
    if isinstance(values, dict):
        dtype = {"f8": np.float64, "f4": np.float32, "i4": np.int32}[values["dtype"]]
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=dtype).astype(float)
    return np.array([np.nan if v is None else v for v in values], dtype=float)


def test_a_two_class_method_facing_three_classes_is_fitted_one_versus_rest():
    import json

    room, token = model.new_room(encode_scene(default_scene()), time.time())  # three classes
    for method in ("logistic", "svm", "perceptron", "probit", "bayesian_logistic"):
        model.control(room, token, "method", method, None, time.time())
        scene = model.scene_of(room)
        assert scene.method == method and views.strategy(scene, scene.points) == "ovr"
        shown = json.loads(views.room_figure_json(room, "en"))
        assert "boundary" in {t.get("meta") for t in shown["data"]}, method  # never a plot without a fit
    model.control(room, token, "method", "softmax", None, time.time())
    scene = model.scene_of(room)
    assert views.strategy(scene, scene.points) == "native"  # a K-class method keeps its own
