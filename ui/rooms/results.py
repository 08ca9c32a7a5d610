"""A prediction round's part of the state answers: the lecturer's count, lines and results, a student's own.

Rules that must hold (``ui.rooms.rounds`` has the round's):
- The lecturer's part (their token proved) is answered on every poll, the room's version or not:
  the count of lines (the store's ``line_count``, cheap) always; from the ``show`` phase on, in an
  answer of a new version only, this stage's lines and, for stage 2, stage 1's kept apart; at the
  reveal, the results (each line's accuracy and angle, their medians, the directions' spread and,
  for stage 2, stage 1's medians: how the class moved).
- Both parts carry the round's question (a preset's, ``Preset.question``) in the asked language
  (the lecturer's in an answer of a new version only).
- Only the lines of the room's students count: a student the lecturer expelled takes their line along.
- A student's part holds their own line and, at the reveal, their own score: never another's line.
- Results are computed once per (room, round, version) and shared by every poller
  (``RoundResults``, at most ``MAX_KEPT``, the newest of each room): the lines no longer change
  once the round has left its ``predict`` phase, and the fit is the version's.
"""

import json
import threading
from collections import OrderedDict
from typing import Any

import numpy as np

from . import rounds
from .protocol import LecturerRound, StudentRound
from .store_base import RoomStore
from .views import RoomVersion

MAX_KEPT = 16


def _lines(kept: dict[str, list[float]]) -> dict[str, rounds.Line]:
    return {sid: rounds.Line(*line) for sid, line in kept.items()}


def _finite(value: float) -> float | None:
    return value if np.isfinite(value) else None  # a room without points: no accuracy (JSON has no NaN)


def _summary(scores: dict[str, rounds.Score], lines: dict[str, rounds.Line]) -> dict[str, Any]:
    spread = rounds.spread(list(lines.values()))
    return {
        "accuracy": sorted(score.accuracy for score in scores.values() if np.isfinite(score.accuracy)),
        "angle": sorted(score.angle for score in scores.values() if score.angle is not None),
        "median_accuracy": rounds.median([score.accuracy for score in scores.values()]),
        "median_angle": rounds.median([score.angle for score in scores.values()]),
        "spread": None if spread is None else {"direction": spread[0], "apart": spread[1]},
    }


class RoundResults:
    """One round's scores against one version's fit (see the module's rules)."""

    def __init__(self, shared: RoomVersion, lines: dict[str, list[float]], first: dict[str, list[float]] | None):
        points = shared.scene.training.points
        X, y = np.asarray(points.X, dtype=float), np.asarray(points.y)
        normal = shared.fit_normal()
        self.lines, self.first = _lines(lines), _lines(first or {})
        self.scores = rounds.scores(self.lines, X, y, normal)
        self.summary = _summary(self.scores, self.lines)
        self.summary["angle_defined"] = normal is not None
        self.first_scores = rounds.scores(self.first, X, y, normal)
        if first is not None:
            self.summary["first"] = _summary(self.first_scores, self.first)

    def student(self, sid: str) -> dict[str, Any] | None:
        score = self.scores.get(sid)
        return None if score is None else {"accuracy": _finite(score.accuracy), "angle": score.angle}


class RoundParts:
    """The round parts of the state answers, their results cached (the module's rules)."""

    def __init__(self, max_kept: int = MAX_KEPT) -> None:
        self.max_kept = max_kept
        self._kept: OrderedDict[tuple[str, int, int], RoundResults] = OrderedDict()
        self._lock = threading.Lock()

    def results(self, store: RoomStore, code: str, shared: RoomVersion) -> RoundResults:
        assert shared.round is not None
        key = (code, shared.round["id"], shared.version)
        with self._lock:
            found = self._kept.get(key)
        if found is not None:
            return found
        seated = shared.me  # the room's students: an expelled student's line goes with them
        kept = lambda lines: {sid: line for sid, line in lines.items() if sid in seated}  # noqa: E731
        first = kept(store.lines(code, shared.first_round)) if shared.first_round else None
        made = RoundResults(shared, kept(store.lines(code, shared.round["id"])), first)
        with self._lock:
            for old in [k for k in self._kept if k[0] == code]:
                del self._kept[old]
            self._kept[key] = made
            while len(self._kept) > self.max_kept:
                self._kept.popitem(last=False)
        return made

    def lecturer(self, store: RoomStore, code: str, shared: RoomVersion, full: bool) -> LecturerRound:
        """The lecturer's part; ``full``: an answer of a new version (lines and results with it)."""
        current = shared.round
        assert current is not None
        part = LecturerRound(
            phase=current["phase"], stage=current["stage"], predictions=store.line_count(code, current["id"])
        )
        question = rounds.question_text(current["question"])
        if question and full:
            part["question"] = question
        if full and current["phase"] != "predict":
            made = self.results(store, code, shared)
            part["lines"] = [list(line) for line in made.lines.values()]
            if shared.first_round:
                part["first_lines"] = [list(line) for line in made.first.values()]
            part["results"] = made.summary if current["phase"] == "reveal" else {"spread": made.summary["spread"]}
        return part

    def student(self, store: RoomStore, code: str, shared: RoomVersion, sid: str) -> StudentRound:
        current = shared.round
        assert current is not None
        part = StudentRound(phase=current["phase"], stage=current["stage"], mine=store.line(code, current["id"], sid))
        question = rounds.question_text(current["question"])
        if question:
            part["question"] = question
        if current["phase"] == "reveal":
            score = self.results(store, code, shared).student(sid)
            if score is not None:
                part["score"] = score
        return part


def encoded(part: LecturerRound | StudentRound) -> bytes:
    """The part as the answer's ``,"round":…`` pair (``views.Snapshot.body``'s ``extra``)."""
    return b',"round":' + json.dumps(part).encode()


ROUND_PARTS = RoundParts()
