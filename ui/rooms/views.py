"""The room's state answers, built once per room version and shared by every poller.

A lecture hall of 500 students and a projector polling a room that changes a hundred times a
second must cost what a few pollers do. Rules that must hold:
- ``RoomFigures.snapshot`` builds a variant's answer at most once per ``MIN_INTERVAL`` (one build
  at a time per room, the others wait for it and share it) and hands a newer poll the answer of a
  slightly older version meanwhile, marked with that version, so the poller asks again; so the
  projector follows within ``MIN_INTERVAL`` plus its own poll.
- What does not depend on the variant is built once per version (``RoomVersion``): the room parsed,
  its scene, the fit for each window shape (a view holds no words: ``ui.engine.fitview``), and each
  student's own part as JSON text, in one pass over the points (never one pass per student).
- Variants are few: a language of ``LANGUAGES`` x a scale of ``SCALES`` x a shape of ``SHAPES``;
  a poll answer is a few byte strings joined, the figure's JSON text encoded once per variant.
- The cache is bounded whatever is polled: at most ``MAX_ENTRIES`` answers and ``MAX_BYTES`` bytes
  of their text (the longest unused go first), and only the newest version of each room is kept.
- The fit runs under the live route's budget (``ui.server.live_route.LIVE_SECONDS``); a room whose
  boundary is hidden gets a figure of its points alone (no regions, boundary or misclassified
  marks: nothing to read the answer from); class names are escaped as the canvas's figure escapes
  them (``ui.plot.figures``).
"""

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from urllib.parse import urlencode

import numpy as np

from playground import Classifier, PlaygroundError
from playground.grid import Window
from playground.registry import fitted_strategy
from playground.scene import GRID_SCALE, PointSet, Scene
from ui.engine.fits import fitted_view
from ui.engine.fitview import FitView
from ui.plot.canvas import figure_json
from ui.plot.theme import with_font
from ui.rooms.protocol import RoomSettings, StudentView
from ui.server.live_route import LIVE_SECONDS
from ui.text.convention import book_line
from ui.text.i18n import speaking

from . import rounds
from .model import Room, matches, scene_of, settings
from .protocol import StateResponse

SCALES = (1.0, 1.6)  # a figure's scale: the page's, or presentation mode's (``ui.page.app._scale``)
SHAPES = ("room", "tall")  # the room's window, or grown in height for a phone held upright
TALL_RATIO = 1.1  # the tall window's height over its width
MIN_INTERVAL = 0.25  # seconds between two builds of one room's answer
MAX_ENTRIES = 64  # answers kept (a room polled in every variant holds 12)
MAX_BYTES = 48 * 1024 * 1024  # of the answers kept, whatever the rooms and variants polled
FIGURE_KEY = ',"figure":'
VIEW_ARRAYS = ("classes", "predicted", "region_labels", "contour_field")


def tall_window(window: Window) -> Window:
    """``window`` grown about its centre to at least ``TALL_RATIO`` times as high as it is wide: a
    student's phone held upright gets a plot to tap on, not a strip of the projector's wide window."""
    height = (window.x_max - window.x_min) * TALL_RATIO
    if window.y_max - window.y_min >= height:
        return window
    centre = (window.y_min + window.y_max) / 2
    return Window(window.x_min, window.x_max, centre - height / 2, centre + height / 2)


def strategy(scene: Scene, points: PointSet) -> str:
    """The room's multi-class strategy (``playground.registry.fitted_strategy``): students adding
    a third class to a two-class method's room never leave the projector without a boundary."""
    return fitted_strategy(scene.method, scene.multiclass, len(np.unique(points.y)))


def _view(scene: Scene, window: Window) -> tuple[Classifier | None, FitView]:
    """The room's fit on ``window`` (``ui.engine.fits``, not shared: each version's points are new),
    under the live budget of processor time, and its model; a fit that ran out of it is drawn as
    far as it went."""
    points = scene.training.points
    if len(points) == 0:
        return None, FitView()
    shown = replace(scene, multiclass=strategy(scene, points), window=window)
    try:
        fit, view = fitted_view(shown, LIVE_SECONDS, clock=time.thread_time, partial=True, shared=False)
    except PlaygroundError:
        return None, FitView()
    return (None, FitView()) if view.error else (fit.model, view)


def own_parts(room: Room) -> dict[str, str]:
    """{sid: the JSON text of the student's ``StudentView``} for every student, in one pass."""
    own: dict[str, list[list[float]]] = {sid: [] for sid in room["students"]}
    for kx, ky, _label, owner, _pid in room["points"]:
        if owner in own:
            own[owner].append([kx / GRID_SCALE, ky / GRID_SCALE])
    parts = {}
    for sid, student in room["students"].items():
        assigned = room["everyone"] if room["everyone"] is not None else student.get("class")
        parts[sid] = json.dumps({"own": own[sid], "assigned": assigned, "count": len(own[sid])})
    return parts


class RoomVersion:
    """What every variant of one version shares: the counts, the settings, whether the room is
    closed (and the frozen link's query, if the lecturer froze it), each student's own part, the
    scene, and its fit for each window shape (built at the first variant that needs it)."""

    def __init__(self, room: Room) -> None:
        self.version = room["version"]
        self.settings = settings(room)
        self.students = len(room["students"])
        self.points = len(room["points"])
        self.closed = bool(room.get("closed"))
        frozen = room.get("frozen")
        self.frozen = urlencode(frozen) if isinstance(frozen, dict) else None
        self.me = own_parts(room)
        self.scene = scene_of(room)
        self.hidden = rounds.hides_fit(room)  # hidden by the lecturer, or a round before its reveal
        self.round = rounds.public(room.get("round"))
        self.first_round = room["round"]["first"] if room.get("round") else None
        self._views: dict[str, FitView] = {}
        self._model: Classifier | None = None
        self.token = room["token"]  # its digest: the lecturer's page proves it holds the token
        # Its memory, roughly and from above: the students' parts, the scene's points (tuples of
        # floats, about 130 bytes each), and the views' arrays once built.
        self._fixed = sum(len(part) + len(sid) + 100 for sid, part in self.me.items()) + 130 * self.points

    @property
    def size(self) -> int:
        arrays = [getattr(view, name) for view in self._views.values() for name in VIEW_ARRAYS]
        return self._fixed + sum(a.nbytes for a in arrays if a is not None)

    def window(self, shape: str) -> Window:
        return tall_window(self.scene.window) if shape == "tall" else self.scene.window

    def view(self, shape: str) -> FitView:
        if shape not in self._views:
            if self.hidden:
                self._views[shape] = FitView()
            else:
                self._model, self._views[shape] = _view(self.scene, self.window(shape))
        return self._views[shape]

    def fit_normal(self) -> np.ndarray | None:
        """The normal of the fit's boundary (the book's w), where the fit has one straight boundary
        in the plane (two classes, no basis): what a prediction's angle is measured against."""
        if self.hidden:
            return None
        self.view(SHAPES[0])
        line = book_line(self._model) if self.scene.basis == "identity" else None
        return None if line is None or len(line.w) != 2 else line.w

    def admits(self, sid: object, token: object) -> bool:
        """Whether a request is a member's: a student of the room (``sid``) or its lecturer."""
        return (isinstance(sid, str) and sid in self.me) or matches(token, self.token)


def method_name(method: str) -> str:
    """The method as the lecturer's page names it ('Least squares (§4.1.3)'), in the speaking language."""
    from ui.text.labels import method_label

    return method_label(method)


def room_figure_json(room: Room, language: str, scale: float = 1.0, shape: str = "room") -> str:
    """The JSON text of the room's figure in ``language``, markers and type enlarged by ``scale``
    (presentation mode's), in the room's window or its ``tall_window`` (see the module's rules)."""
    return _figure_json(RoomVersion(room), language, scale, shape)


def _figure_json(shared, language, scale, shape):
    from ui.plot.render import render_scene

    scene = shared.scene
    view = shared.view(shape)
    with speaking(language, scene.class_names):
        # The room keeps the view, not the model: a room's points are all training points.
        figure = render_scene(scene, None, view, window=shared.window(shape), scale=scale, caption=False).figure
        figure["layout"] = with_font(figure["layout"], language)
    return figure_json(figure)


class Snapshot:
    """One variant's answer to every poller of a version: the shared ``RoomVersion`` and, encoded
    once, the answer's head (a ``StateResponse`` without the student's part) and its figure."""

    def __init__(self, shared: RoomVersion, language: str, scale: float = 1.0, shape: str = "room") -> None:
        self.shared = shared
        figure = _figure_json(shared, language, scale, shape)
        with speaking(language):
            name = method_name(shared.settings["method"])
        head = StateResponse(
            version=shared.version,
            settings=shared.settings,
            students=shared.students,
            points=shared.points,
            method_name=name,
            closed=shared.closed,
        )
        if shared.frozen is not None:
            head["frozen"] = shared.frozen
        self._head = json.dumps(head)[:-1].encode()
        self._tail = (FIGURE_KEY + figure + "}").encode()

    @property
    def figure(self) -> str:
        """The figure's JSON text (kept once, inside the answer's encoded tail)."""
        return self._tail[len(FIGURE_KEY) : -1].decode()

    @property
    def size(self) -> int:
        """Bytes it holds, its shared part counted whole (each variant may hold another version's)."""
        return len(self._head) + len(self._tail) + self.shared.size

    @property
    def version(self) -> int:
        return self.shared.version

    @property
    def settings(self) -> RoomSettings:
        return self.shared.settings

    @property
    def students(self) -> int:
        return self.shared.students

    @property
    def points(self) -> int:
        return self.shared.points

    @property
    def me(self) -> dict[str, StudentView]:
        """{sid: StudentView} (parsed: for tests and the lecturer's tools; a poll uses ``body``)."""
        return {sid: json.loads(part) for sid, part in self.shared.me.items()}

    def admits(self, sid: object, token: object) -> bool:
        return self.shared.admits(sid, token)

    def seats(self, sid: object) -> bool:
        """Whether ``sid`` is one of the room's students (a dict lookup: ``me`` parses every part)."""
        return isinstance(sid, str) and sid in self.shared.me

    def body(self, sid: object, extra: bytes = b"") -> bytes:
        """The answer's bytes for the student ``sid`` (their own part included when a member),
        with ``extra`` (``,"name":value`` pairs, the asker's own: a round's part) before the figure."""
        part = self.shared.me.get(sid) if isinstance(sid, str) else None
        return b"".join([self._head, b',"me":' + part.encode() if part else b"", extra, self._tail])


class RoomFigures:
    """Cached answers: (code, language, scale, shape) -> (Snapshot, when built, size), bounded (see the
    module's rules), and the newest ``RoomVersion`` of each room they share."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES
    ) -> None:
        self.clock = clock
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._entries: OrderedDict[tuple, tuple[Snapshot, float, int]] = OrderedDict()
        self._shared: dict[str, RoomVersion] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._lock = threading.Lock()
        self.bytes = 0  # held by the answers, as ``Snapshot.size`` counts them when stored

    def __len__(self):
        return len(self._entries)

    def _room_lock(self, code):
        with self._lock:
            return self._locks.setdefault(code, threading.Lock())

    def snapshot(
        self,
        code: str,
        version: int,
        language: str,
        load: Callable[[], Room | None],
        scale: float = 1.0,
        shape: str = "room",
    ) -> Snapshot | None:
        """A ``Snapshot`` of ``version`` or, built less than ``MIN_INTERVAL`` ago, of an older
        one; ``load()`` gives the room (or None: no snapshot) when one must be built."""
        key = (code, language, scale, shape)
        with self._room_lock(code):
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None:
                    self._entries.move_to_end(key)
            if entry and (entry[0].version == version or self.clock() - entry[1] < MIN_INTERVAL):
                return entry[0]
            shared = self._shared.get(code)
            if shared is None or shared.version != version:
                room = load()
                if room is None:
                    return None
                shared = RoomVersion(room)
            snapshot = Snapshot(shared, language, scale, shape)
            with self._lock:
                self._store(code, key, shared, snapshot)
            return snapshot

    def _store(self, code, key, shared, snapshot):
        old = self._entries.pop(key, None)
        if old is not None:
            self.bytes -= old[2]  # its size (old[1] is when it was built)
        self._shared[code] = shared
        size = snapshot.size
        self._entries[key] = (snapshot, self.clock(), size)
        self.bytes += size
        while len(self._entries) > self.max_entries or (self.bytes > self.max_bytes and len(self._entries) > 1):
            (gone, *_), (_dropped, _when, dropped_size) = self._entries.popitem(last=False)
            self.bytes -= dropped_size
            if not any(k[0] == gone for k in self._entries):  # the room's last answer: its shared part too
                self._shared.pop(gone, None)
                self._locks.pop(gone, None)


SNAPSHOTS = RoomFigures()
