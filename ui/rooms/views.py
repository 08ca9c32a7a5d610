"""The figure a room draws, computed once per version and language in a process, not per viewer.

Sixty students and a projector polling a room that changes a dozen times a second must not cost
a fit per poll: ``RoomFigures.figure`` computes a room's figure at most once per
``MIN_INTERVAL`` (one computation at a time per room, the others wait for it and share it) and
hands a newer poll the figure of a slightly older version meanwhile, marked with that version,
so the poller asks again; so the projector follows within ``MIN_INTERVAL`` plus its own poll.

Rules: the fit runs under the live route's budget (``ui.server.live_route.LIVE_SECONDS``); a room whose
boundary is hidden gets a figure of its points alone (no regions, boundary or misclassified
marks: nothing to read the answer from); class names are escaped as the canvas's figure escapes
them (``ui.plot.figures``).
"""

import threading
import time
from collections import OrderedDict

import numpy as np

from playground import PlaygroundError
from playground.budget import limited
from playground.grid import Window
from playground.registry import fitted_strategy
from ui.plot.canvas import figure_json
from ui.plot.fitview import FitView, evaluate_view
from ui.plot.theme import with_font
from ui.server.live_route import LIVE_SECONDS
from ui.session.compute import GRID_RESOLUTION, MAX_RECORDED_STEPS
from ui.session.workers import fit_scene
from ui.text.i18n import speaking

from .model import matches, scene_of, settings, student_view

SCALES = (1.0, 1.6)  # a figure's scale: the page's, or presentation mode's (``ui.app._scale``)
SHAPES = ("room", "tall")  # the room's window, or grown in height for a phone held upright
TALL_RATIO = 1.1  # the tall window's height over its width
MIN_INTERVAL = 0.25  # seconds between two computations of one room's figure
MAX_ENTRIES = 256


def tall_window(window):
    """``window`` grown about its centre to at least ``TALL_RATIO`` times as high as it is wide: a
    student's phone held upright gets a plot to tap on, not a strip of the projector's wide window."""
    height = (window.x_max - window.x_min) * TALL_RATIO
    if window.y_max - window.y_min >= height:
        return window
    centre = (window.y_min + window.y_max) / 2
    return Window(window.x_min, window.x_max, centre - height / 2, centre + height / 2)


def strategy(scene, points):
    """The room's multi-class strategy (``playground.registry.fitted_strategy``): students adding
    a third class to a two-class method's room never leave the projector without a boundary."""
    return fitted_strategy(scene.method, scene.multiclass, len(np.unique(points.y)))


def _view(scene, window):
    points = scene.training.points
    if len(points) == 0:
        return FitView()
    try:
        with limited(LIVE_SECONDS, MAX_RECORDED_STEPS, clock=time.thread_time):
            result = fit_scene(
                points.X,
                points.y,
                scene.method,
                scene.params,
                strategy(scene, points),
                scene.basis,
                scene.basis_params,
            )
        view = evaluate_view(result, points.X, points.y, window, scene.step, GRID_RESOLUTION)
    except PlaygroundError:
        return FitView()
    return FitView() if view.error else view


def room_figure_json(room, language, scale=1.0, shape="room"):
    """The JSON text of the room's figure in ``language``, markers and type enlarged by ``scale``
    (presentation mode's), in the room's window or its ``tall_window`` (see the module's rules)."""
    from ui.plot.figures import scene_figure

    scene = scene_of(room)
    window = tall_window(scene.window) if shape == "tall" else scene.window
    with speaking(language, scene.class_names):
        view = FitView() if room["hidden"] else _view(scene, window)
        figure = scene_figure(scene.points, view, window, scene.view_revision, scale=scale)
        figure["layout"] = with_font(figure["layout"], language)
    return figure_json(figure)


class Snapshot:
    """What every poller of one version shares: the figure's JSON text, the settings, the counts,
    and each student's own part (``StudentView``), so a poll parses no room."""

    def __init__(self, room, language, scale=1.0, shape="room"):
        self.version = room["version"]
        self.figure = room_figure_json(room, language, scale, shape)
        self.settings = settings(room)
        self.students = len(room["students"])
        self.points = len(room["points"])
        self.me = {sid: student_view(room, sid) for sid in room["students"]}
        self._token = room["token"]  # its digest: the lecturer's page proves it holds the token

    def admits(self, sid, token):
        """Whether a request is a member's: a student of the room (``sid``) or its lecturer."""
        return (isinstance(sid, str) and sid in self.me) or matches(token, self._token)


class RoomFigures:
    """Cached snapshots: (code, language, scale, shape) -> (Snapshot, when computed)."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self._entries = OrderedDict()
        self._locks = {}
        self._lock = threading.Lock()

    def _room_lock(self, code):
        with self._lock:
            return self._locks.setdefault(code, threading.Lock())

    def snapshot(self, code, version, language, load, scale=1.0, shape="room"):
        """A ``Snapshot`` of ``version`` or, computed less than ``MIN_INTERVAL`` ago, of an older
        one; ``load()`` gives the room (or None: no snapshot) when one must be computed."""
        key = (code, language, scale, shape)
        with self._room_lock(code):
            entry = self._entries.get(key)
            if entry and (entry[0].version == version or self.clock() - entry[1] < MIN_INTERVAL):
                return entry[0]
            room = load()
            if room is None:
                return None
            snapshot = Snapshot(room, language, scale, shape)
            with self._lock:
                self._entries[key] = (snapshot, self.clock())
                self._entries.move_to_end(key)
                while len(self._entries) > MAX_ENTRIES:
                    old, _ = self._entries.popitem(last=False)
                    self._locks.pop(old[0], None)
            return snapshot


SNAPSHOTS = RoomFigures()
