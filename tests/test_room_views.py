"""The room's figure is built once per change for every viewer, not once per poll
(``ui.rooms.views``): a poll within ``MIN_INTERVAL`` of the last build gets that build (marked
with its own version, so the poller asks again), a poll after it gets the newest room; a hidden
room's figure holds its points alone.
"""

import time

from playground.link import encode_scene
from ui.rooms import model, views
from ui.state import default_scene


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
    cache.snapshot("ABCDEFGH", room["version"], "ja", load)  # each language once
    assert loads == [1, 2, 2]


def test_a_hidden_room_shows_its_points_alone():
    import json

    room = _room()
    shown = json.loads(views.room_figure_json(room, "en"))
    room["hidden"] = True
    hidden = json.loads(views.room_figure_json(room, "en"))
    assert "boundary" in {t.get("meta") for t in shown["data"]}
    assert {t.get("meta") for t in hidden["data"]} == {"points"}
