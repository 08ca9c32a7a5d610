"""A prediction round (issue 47): the class draws the boundary it expects, sees its lines, then the fit.

Peer instruction's cycle (predict, discuss, predict again, observe; Crouch et al. 2004) on one
room: the lecturer starts a round on the room's points and method (``model.CONTROLS["round"]``),
every student sends one line (``line_of``: two points in the room's window, sending again
replaces it), the projector shows how many have answered, then all the lines (still without the
fit), then the fit over them with each line's score.

Rules that must hold:
- The phases run one way: ``predict`` -> (``show``) -> ``reveal``; ``again`` opens stage 2 from
  stage 1's ``predict`` or ``show``, its lines kept apart from the first's (a round's lines are
  keyed by its ``id``); ``off`` ends the round. While a round is on, adding points is paused and
  the fit is hidden everywhere until ``reveal`` (``hides_fit``).
- A line is exactly four finite numbers, its two ends inside the room's window and apart (at least
  ``MIN_LENGTH`` of the window's width), rounded as the grid rounds a point; anything else is a 400.
- A line's score is computed from the room's points: ``accuracy`` is the share of the points its
  two sides separate correctly, its sides given to the two classes the better way (for K > 2
  classes, the pair of classes that scores best); ``angle`` is the angle between it and the fit's
  boundary, 0-90 degrees, only where the fit has one straight boundary (two classes, no basis).
- No student ever sees another's line: a student's answer holds their own line and, at the reveal,
  their score (``ui.rooms.routes``); the lines go to the lecturer's projector alone.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from playground.grid import Window
from playground.presets import PRESETS
from playground.scene import GRID_SCALE
from ui.plot.canvas_protocol import number
from ui.text.i18n import N_, _

from .protocol import RoundPhase

PHASES = ("predict", "show", "reveal")
ACTIONS = ("predict", "show", "again", "reveal", "off")  # the control's values
MIN_LENGTH = 0.01  # of the window's width: two ends closer than this are one point, not a line


class Line(NamedTuple):
    """A line through two points (x1, y1) and (x2, y2)."""

    x1: float
    y1: float
    x2: float
    y2: float

    @property
    def normal(self) -> np.ndarray:
        return np.array([self.y1 - self.y2, self.x2 - self.x1])

    def sides(self, X: np.ndarray) -> np.ndarray:
        """True where a point lies on the normal's side (or on the line)."""
        return (np.asarray(X, dtype=float) - [self.x1, self.y1]) @ self.normal >= 0


class Score(NamedTuple):
    accuracy: float  # 0-1
    angle: float | None  # degrees, 0-90; None where the fit has no one straight boundary


def new_round(
    room: Mapping[str, Any], stage: int = 1, first: int | None = None, question: object = None
) -> dict[str, Any]:
    """A round's record: its ``id`` (its lines' key), phase, stage, for stage 2 stage 1's id, and
    the preset whose question it asks (``question_of``)."""
    return {
        "id": int(room.get("rounds", 0)) + 1,
        "phase": "predict",
        "stage": stage,
        "first": first,
        "question": question_of(question),
    }


def question_of(key: object) -> str | None:
    """A preset's key if it names one that has a prediction question (``Preset.question``), else None."""
    preset = PRESETS.get(key) if isinstance(key, str) else None
    return key if preset is not None and preset.question else None  # type: ignore[return-value]


def question_text(key: str | None) -> str | None:
    """The preset's question in the speaking language, or None."""
    return _(PRESETS[key].question) if key in PRESETS else None


def public(current: Mapping[str, Any] | None) -> RoundPhase | None:
    """What everyone may know of the round: its id, phase and stage (never its lines)."""
    if current is None:
        return None
    return RoundPhase(
        id=current["id"], phase=current["phase"], stage=current["stage"], question=current.get("question")
    )


def hides_fit(room: Mapping[str, Any]) -> bool:
    """Whether the fit is hidden: the lecturer hid it, or a round has not reached its reveal."""
    current = room.get("round")
    return bool(room.get("hidden")) or (current is not None and current["phase"] != "reveal")


def collecting(room: Mapping[str, Any]) -> int | None:
    """The id of the round taking lines now (its ``predict`` phase), or None."""
    current = room.get("round")
    return current["id"] if current is not None and current["phase"] == "predict" else None


def line_of(value: object, window_text: str) -> list[float] | None:
    """A browser's line ``[x1, y1, x2, y2]`` inside the room's window (its scene's ``w``), its ends
    on the grid; None if it is not one (see the module's rules)."""
    if not isinstance(value, list) or len(value) != 4:
        return None
    numbers = [number(v) for v in value]
    if any(v is None or not math.isfinite(v) for v in numbers):
        return None
    window = Window(*[float(v) for v in window_text.split(",")])
    xs, ys = numbers[0::2], numbers[1::2]
    inside = all(window.x_min <= x <= window.x_max for x in xs) and all(window.y_min <= y <= window.y_max for y in ys)  # type: ignore[operator]
    if not inside:  # checked before the grid's rounding: 1e307 times the grid's scale is no integer
        return None
    x1, y1, x2, y2 = (round(float(v) * GRID_SCALE) / GRID_SCALE for v in numbers)  # type: ignore[arg-type]
    if math.hypot(x2 - x1, y2 - y1) < MIN_LENGTH * (window.x_max - window.x_min):
        return None
    return [x1, y1, x2, y2]


def accuracy(line: Line, X: np.ndarray, y: np.ndarray) -> float:
    """The share of the points the line's sides separate correctly, the better way (module's rules)."""
    if len(X) == 0:
        return math.nan
    side = line.sides(X)
    classes = np.unique(y)
    if len(classes) == 1:
        return 1.0
    on = np.array([np.sum(side & (y == k)) for k in classes])
    off = np.array([np.sum(~side & (y == k)) for k in classes])
    pairs = on[:, None] + off[None, :]
    np.fill_diagonal(pairs, -1)  # two different classes, one a side
    return float(pairs.max() / len(X))


def angle(line: Line, fit_normal: np.ndarray | None) -> float | None:
    """The angle between the line and the fit's boundary (their normals'), folded to 0-90 degrees."""
    if fit_normal is None:
        return None
    a, b = line.normal, np.asarray(fit_normal, dtype=float)
    cosine = abs(float(a @ b)) / float(np.linalg.norm(a) * np.linalg.norm(b))
    return math.degrees(math.acos(min(1.0, cosine)))


def direction(line: Line) -> float:
    """The line's direction in degrees, in [0, 180) (a line has no arrow)."""
    return math.degrees(math.atan2(line.y2 - line.y1, line.x2 - line.x1)) % 180.0


def spread(lines: Sequence[Line]) -> tuple[float, float] | None:
    """(mean direction, median distance from it), both in degrees, of undirected lines: the mean of
    the doubled angles (an axial mean), so 1 degree and 179 degrees are 2 degrees apart. None: no line."""
    if not lines:
        return None
    doubled = np.radians([2 * direction(line) for line in lines])
    mean = math.degrees(math.atan2(np.sin(doubled).mean(), np.cos(doubled).mean())) / 2 % 180.0
    apart = [abs((direction(line) - mean + 90.0) % 180.0 - 90.0) for line in lines]
    return mean, float(np.median(apart))


def scores(lines: Mapping[str, Line], X: np.ndarray, y: np.ndarray, fit_normal: np.ndarray | None) -> dict[str, Score]:
    """{sid: Score} of every line."""
    return {sid: Score(accuracy(line, X, y), angle(line, fit_normal)) for sid, line in lines.items()}


def median(values: Sequence[float | None]) -> float | None:
    known = [v for v in values if v is not None and math.isfinite(v)]
    return float(np.median(known)) if known else None


NO_ROUND = N_("There is no prediction round on in this room.")
NOT_NOW = N_("The round is not taking predictions now.")
NO_LINE = N_("A line needs two different points inside the plot.")
