"""The scene: one immutable value holding everything that defines what the user sees.

The app's session state is a Scene plus an undo history of its point sets; a shared link
serialises the same value. Edits return new scenes and never mutate.

Every point lives on a fixed grid of GRID_STEP = 1e-5 from the moment it exists: a PointSet
snaps whatever it is built from (a click, a generated cluster, a file, a link), so a point is
the integer ``k`` of ``k / GRID_SCALE`` and a link carries ``k`` losslessly. The receiver then
holds the identical float64 values, and every number the panels derive from them is the same.
The grid is decimal so that the values people type (4.9, 0.25) stay exactly what they typed, and
fine enough that nobody sees it: a thousandth of the narrowest view the app allows (MIN_VIEW).

A point is a training point or a test point (``PointSet.test``): the methods are fitted to the
training points alone (``PointSet.training``, ``Scene.training``), and the test points measure
what was learned on points the fit never saw.
"""

import hashlib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Self, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import InvalidDataError, Message
from .grid import Window
from .i18n import N_
from .validation import MAX_POINTS, BoolArray, FloatArray

#: A point's coordinates (x, y), on the grid.
XY: TypeAlias = tuple[float, float]
#: A point whole: its coordinates, its class index and whether it is a test point.
PointRow: TypeAlias = tuple[XY, int, bool]
#: Settings as sorted (name, value) pairs, hashable. The values are Any: each setting has its own
#: type (numbers, text, flags, vectors, RBF centres), which ``playground.specs`` checks one by one.
Settings: TypeAlias = tuple[tuple[str, Any], ...]

MAX_CLASSES = 6
GRID_DECIMALS = 5
GRID_SCALE = 10**GRID_DECIMALS  # a point is k / GRID_SCALE for an integer k
GRID_STEP = 1 / GRID_SCALE
MAX_COORDINATE = 1e6  # |x| beyond this is refused by links and files; k stays far below 2**53
MIN_VIEW = 1e-2  # the narrowest view window (width or height): the grid is 1/1000 of it
# A new scene's method: the book's first (the registry's first card; playground.registry imports
# the estimators, which read this module, so the name is written here and a test ties the two).
DEFAULT_METHOD = "least_squares"
MAX_NAME_CHARS = 24  # a class name's length: it must fit a legend entry and a sidebar field


def snap(values: ArrayLike) -> FloatArray:
    """Coordinates on the point grid: the float64 nearest to k / GRID_SCALE, k an integer.

    Idempotent (snapping a snapped value returns it bit for bit) for |x| up to well beyond
    MAX_COORDINATE; division, not multiplication by GRID_STEP, so ``grid_integers`` inverts it.
    Zero has one sign.
    """
    # "+ 0.0" turns -0.0 into 0.0: a link's integer 0 cannot carry the sign, and atan2 can tell.
    return np.round(np.asarray(values, dtype=float) * GRID_SCALE) / GRID_SCALE + 0.0


def grid_integers(values: ArrayLike) -> NDArray[np.int64]:
    """The integers k of snapped coordinates (exact: k / GRID_SCALE gives the values back)."""
    return np.rint(np.asarray(values, dtype=float) * GRID_SCALE).astype(np.int64)


def _check_coordinates(X: ArrayLike) -> None:
    X = np.asarray(X, dtype=float)
    if not np.all(np.isfinite(X)):
        raise InvalidDataError(N_("Every coordinate must be a finite number."))
    if X.size and np.max(np.abs(X)) > MAX_COORDINATE:
        raise InvalidDataError(
            N_("Coordinates must lie within ±{limit:,.0f}; got {value:.3g}."),
            limit=MAX_COORDINATE,
            value=float(np.max(np.abs(X))),
        )


@dataclass(frozen=True)
class PointSet:
    """Points (N, 2) on the grid, their class indices (N,) and train/test flags, as hashable tuples.

    Construction snaps the coordinates (``snap``), whichever way the set is made, so no point
    can exist off the grid. ``test`` holds one bool per point (True: a test point, which no fit
    uses), or is empty when every point is a training point: a set without test points is the
    same value however it was made.
    """

    xy: tuple[XY, ...] = ()
    labels: tuple[int, ...] = ()
    test: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        if self.xy:
            X = np.array(self.xy, dtype=float).reshape(-1, 2)
            snapped = snap(X)
            if not np.array_equal(X, snapped):
                object.__setattr__(self, "xy", tuple(map(tuple, snapped.tolist())))
        if self.test:
            if len(self.test) != len(self.labels):
                raise InvalidDataError(
                    N_("{n} points but {flags} train/test flags."), n=len(self.labels), flags=len(self.test)
                )
            flags = tuple(bool(flag) for flag in self.test)
            object.__setattr__(self, "test", flags if any(flags) else ())

    @classmethod
    def from_arrays(cls, X: ArrayLike, y: ArrayLike, test: ArrayLike | None = None) -> Self:
        """Points from arrays X (N, 2), class indices y (N,) and optional test flags (N,) bool."""
        X = np.asarray(X, dtype=float).reshape(-1, 2)
        y = np.asarray(y, dtype=int).reshape(-1)
        if X.shape[0] != y.shape[0]:
            raise InvalidDataError(N_("{n} points but {labels} labels."), n=X.shape[0], labels=y.shape[0])
        if X.shape[0] > MAX_POINTS:
            raise InvalidDataError(
                N_("Too many points: {n:,}; the limit is {limit:,}."), n=X.shape[0], limit=MAX_POINTS
            )
        _check_coordinates(X)
        if y.size and (y.min() < 0 or y.max() >= MAX_CLASSES):
            raise InvalidDataError(N_("Class numbers must be between 0 and {largest}."), largest=MAX_CLASSES - 1)
        flags = () if test is None else tuple(np.asarray(test, dtype=bool).reshape(-1).tolist())
        return cls(tuple(map(tuple, snap(X).tolist())), tuple(y.tolist()), flags)

    @property
    def X(self) -> FloatArray:
        return np.array(self.xy, dtype=float).reshape(-1, 2)

    @property
    def y(self) -> NDArray[np.int_]:
        return np.array(self.labels, dtype=int)

    @property
    def is_test(self) -> BoolArray:
        """(N,) bool: True for a test point."""
        return np.array(self.test, dtype=bool) if self.test else np.zeros(len(self), dtype=bool)

    @property
    def n_test(self) -> int:
        return sum(self.test)

    def __len__(self) -> int:
        return len(self.labels)

    @cached_property
    def digest(self) -> bytes:
        """A short fingerprint of the points, labels and flags (bytes), computed once per point set.

        Caches key on it rather than on the points themselves: hashing the nested tuples element by
        element on every run would cost more than the fits it saves.
        """
        data = np.array(self.xy, dtype=float).tobytes() + np.array(self.labels, dtype=np.int8).tobytes()
        if self.test:
            data += b"test" + np.packbits(self.is_test).tobytes()
        return hashlib.blake2b(data, digest_size=16).digest()

    @cached_property
    def training(self) -> "PointSet":
        """The training points alone (what every fit, playback and panel statistic uses)."""
        return self if not self.test else self._subset(~self.is_test)

    @cached_property
    def testing(self) -> "PointSet":
        """The test points alone, as a set of their own (flags dropped)."""
        return self._subset(self.is_test)

    def _subset(self, mask: BoolArray) -> "PointSet":
        keep = np.flatnonzero(mask)
        return PointSet(tuple(self.xy[i] for i in keep), tuple(self.labels[i] for i in keep))

    def rows(self) -> list[PointRow]:
        """[((x, y), label, is_test), ...]: each point whole, for edits that rebuild the set."""
        return list(zip(self.xy, self.labels, self.is_test.tolist()))

    @classmethod
    def from_rows(cls, rows: Iterable[PointRow]) -> Self:
        listed = list(rows)
        return cls(tuple(r[0] for r in listed), tuple(r[1] for r in listed), tuple(bool(r[2]) for r in listed))

    def added(self, x: float, y: float, label: int, test: bool = False) -> "PointSet":
        if len(self) >= MAX_POINTS:
            raise InvalidDataError(N_("The limit of {limit:,} points is reached; remove some first."), limit=MAX_POINTS)
        if not 0 <= int(label) < MAX_CLASSES:
            raise InvalidDataError(N_("A new point needs a class between 1 and {n}."), n=MAX_CLASSES)
        _check_coordinates([[x, y]])
        ((x, y),) = snap([[float(x), float(y)]]).tolist()
        flags = self.is_test.tolist() + [bool(test)] if (self.test or test) else ()
        return PointSet(self.xy + ((x, y),), self.labels + (int(label),), tuple(flags))

    def removed(self, indices: Iterable[int]) -> "PointSet":
        drop = {int(i) for i in indices}
        keep = [i for i in range(len(self)) if i not in drop]
        flags = tuple(self.test[i] for i in keep) if self.test else ()
        return PointSet(tuple(self.xy[i] for i in keep), tuple(self.labels[i] for i in keep), flags)

    def moved(self, indices: Iterable[int], dx: float, dy: float) -> "PointSet":
        """The set with the points at ``indices`` shifted by (dx, dy), snapped to the grid and kept
        within ±MAX_COORDINATE. A move changes coordinates only: everything else a point carries
        (its class, its place in the set) stays, so a dragged point keeps its index."""
        X = self.X
        chosen = np.unique(np.asarray(list(indices), dtype=int))
        chosen = chosen[(chosen >= 0) & (chosen < len(self))]
        if not (np.isfinite(dx) and np.isfinite(dy)) or chosen.size == 0:
            return self
        X[chosen] = np.clip(X[chosen] + (float(dx), float(dy)), -MAX_COORDINATE, MAX_COORDINATE)
        return replace(self, xy=tuple(map(tuple, snap(X).tolist())))

    def extended(self, other: "PointSet") -> "PointSet":
        if len(self) + len(other) > MAX_POINTS:
            raise InvalidDataError(
                N_("Too many points: {n:,}; the limit is {limit:,}."), n=len(self) + len(other), limit=MAX_POINTS
            )
        flags = tuple(self.is_test.tolist() + other.is_test.tolist()) if (self.test or other.test) else ()
        return PointSet(self.xy + other.xy, self.labels + other.labels, flags)

    def with_test(self, indices: Iterable[int], flag: bool = True) -> "PointSet":
        """The same points with those at ``indices`` made test points (flag True) or training points."""
        flags = self.is_test
        chosen = [int(i) for i in indices if 0 <= int(i) < len(self)]
        flags[chosen] = bool(flag)
        return PointSet(self.xy, self.labels, tuple(flags.tolist()))

    def held_out(self, fraction: float, seed: int = 0) -> "PointSet":
        """The same points with ``fraction`` of each class, drawn at random, as test points and the
        rest as training points (stratified: every class keeps its share; reproducible by ``seed``)."""
        fraction = float(fraction)
        if not 0.0 <= fraction < 1.0:
            raise InvalidDataError(
                N_("The held-out fraction must be from 0 to below 1; got {fraction:g}."), fraction=fraction
            )
        rng = np.random.default_rng(int(seed))
        flags = np.zeros(len(self), dtype=bool)
        y = self.y
        for label in np.unique(y):
            members = np.flatnonzero(y == label)
            chosen = rng.permutation(members)[: int(round(fraction * members.size))]
            flags[chosen] = True
        return PointSet(self.xy, self.labels, tuple(flags.tolist()))

    def counts(self) -> NDArray[np.intp]:
        """Points per class, training and test points together (``training.counts()``: the fit's)."""
        return np.bincount(self.y, minlength=MAX_CLASSES)


#: What a message calls the source of a value: a link, a file or a scene (translated where shown).
SOURCE_NAMES = {"link": N_("link"), "file": N_("file"), "scene": N_("scene")}


def source_name(source: str) -> Message:
    """The name of a link, a file or a scene in a message (a Message, translated where shown)."""
    return Message(SOURCE_NAMES.get(source, str(source)))


# Characters a name loses: controls (C0, C1, DEL), format characters (bidirectional overrides,
# zero-width ones), surrogates and unassigned code points; every kind of space becomes a space.
_DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def clean_class_name(value: object) -> tuple[str, str | None]:
    """(name, problem): ``value`` as a class name, or ("", why not as a phrase).

    A name is a string of at most MAX_NAME_CHARS characters once control and format characters
    are dropped and runs of spaces made one; an empty name means the default ("class k"). A longer
    name is cut to its first MAX_NAME_CHARS characters (problem: "was shortened"). The problem is
    a code, "is not text" or "was shortened", which ``clean_class_names`` turns into a sentence.
    """
    if value is None:
        return "", None
    if not isinstance(value, str):
        return "", "is not text"
    # Bounded before any work: a 10 MB string costs no more than a short one.
    head = value[: 8 * MAX_NAME_CHARS]
    kept = "".join(
        " " if c.isspace() else c for c in head if c.isspace() or unicodedata.category(c) not in _DROPPED_CATEGORIES
    )
    name = " ".join(kept.split())
    if len(name) > MAX_NAME_CHARS or (len(value) > len(head) and name):
        return name[:MAX_NAME_CHARS].rstrip(), "was shortened"
    return name, None


def clean_class_names(raw: object, source: str = "link") -> tuple[tuple[str, ...], list[Message]]:
    """(names, messages): a tuple of at most MAX_CLASSES names ("" for a default one, trailing
    ones dropped) from ``raw`` (a list of strings or None), and a sentence per thing left out.

    Every value from a link or a file passes here; anything but a list of strings is dropped.
    """
    messages: list[Message] = []
    place = source_name(source)
    if raw is None or raw == () or raw == []:
        return (), messages
    if not isinstance(raw, list | tuple):
        messages.append(
            Message(N_("The {source}'s class names are not a list of names and were ignored."), source=place)
        )
        return (), messages
    if len(raw) > MAX_CLASSES:
        messages.append(
            Message(
                N_("The {source} names {n:,} classes; the first {kept} names were kept."),
                source=place,
                n=len(raw),
                kept=MAX_CLASSES,
            )
        )
        raw = raw[:MAX_CLASSES]
    names: list[str] = []
    for k, value in enumerate(raw):
        name, problem = clean_class_name(value)
        if problem == "is not text":
            template = N_("The {source}'s name of class {k} is not text and was ignored.")
            messages.append(Message(template, source=place, k=k + 1))
        elif problem:
            template = N_("The {source}'s name of class {k} was shortened to {n} characters.")
            messages.append(Message(template, source=place, k=k + 1, n=MAX_NAME_CHARS))
        names.append(name)
    while names and not names[-1]:
        names.pop()
    return tuple(names), messages


@dataclass(frozen=True)
class Scene:
    """Everything that defines the view: data, method and its parameters, window, seed.

    ``class_names``: the user's names of classes 1, 2, ... ("" or absent: "class k"), already
    cleaned (``clean_class_names``); visitors' text, escaped wherever it is shown.

    ``guess``: the person's own line (issue 46), (w0, w1, w2) in the book's convention as the link
    carries it: y(x) = w1 x1 + w2 x2 + w0 >= 0 assigns C1, the first class present; None when
    there is none. Checked by ``playground.link.usable_guess`` wherever it comes from.
    ``fit_hidden``: predict first (issue 46): the canvas shows the points and the person's line but
    not the fit, and nothing on the page tells the fit's numbers, until the person reveals it.
    """

    points: PointSet = field(default_factory=PointSet)
    method: str = DEFAULT_METHOD
    params: Settings = ()  # sorted (name, value) pairs, hashable
    multiclass: str = "native"
    basis: str = "identity"  # a key of playground.basis.BASES
    basis_params: Settings = ()  # sorted (name, value) pairs; RBF centres as a tuple of (x, y)
    window: Window = field(default_factory=Window)
    view_revision: int = 0  # bumped when the app (not the user) moves the view
    step: int | None = None  # playback step of an iterative method; None = the final fit
    seed: int = 0
    class_names: tuple[str, ...] = ()
    guess: tuple[float, float, float] | None = None
    fit_hidden: bool = False

    def __post_init__(self) -> None:
        if self.class_names:  # a scene never holds an unclean name, however it was made
            names, _ = clean_class_names(self.class_names)
            if names != self.class_names:
                object.__setattr__(self, "class_names", names)

    def with_class_names(self, names: Iterable[str]) -> "Scene":
        """The scene with these class names (cleaned; see ``clean_class_names``)."""
        return replace(self, class_names=clean_class_names(tuple(names))[0])

    def class_name_of(self, label: int) -> str | None:
        """The user's name of class index ``label`` (0..5), or None for the default name."""
        label = int(label)
        return (self.class_names[label] or None) if 0 <= label < len(self.class_names) else None

    def with_points(self, points: PointSet) -> "Scene":
        return replace(self, points=points, step=None)

    def with_window(self, window: Window, *, by_app: bool = False) -> "Scene":
        return replace(self, window=window, view_revision=self.view_revision + int(by_app))

    def with_method(
        self, method: str, params: Mapping[str, Any] | None = None, multiclass: str | None = None
    ) -> "Scene":
        return replace(
            self,
            method=method,
            params=tuple(sorted((params or {}).items())),
            multiclass=self.multiclass if multiclass is None else multiclass,
            step=None,
        )

    def with_basis(self, basis: str, params: Mapping[str, Any] | None = None) -> "Scene":
        return replace(self, basis=basis, basis_params=tuple(sorted((params or {}).items())), step=None)

    @property
    def training(self) -> "Scene":
        """The scene the methods see: its training points alone (itself when it has no test points)."""
        return self if not self.points.test else replace(self, points=self.points.training)

    @property
    def param_dict(self) -> dict[str, Any]:
        return dict(self.params)

    @property
    def basis_param_dict(self) -> dict[str, Any]:
        return dict(self.basis_params)


#: Undo keeps at most this many bytes of point sets per session (a hosted app has many sessions).
HISTORY_BYTES = 16 * 2**20


@dataclass(frozen=True)
class _Snapshot:
    """A point set as compact arrays (17 bytes a point, against ~130 as tuples of floats); the
    train/test flags as a bool array, or None when there are no test points."""

    X: FloatArray
    y: NDArray[np.int8]
    test: BoolArray | None = None

    @classmethod
    def of(cls, points: PointSet) -> Self:
        X, y = points.X, points.y.astype(np.int8)
        test = points.is_test if points.test else None
        for array in (X, y, test):
            if array is not None:
                array.flags.writeable = False
        return cls(X, y, test)

    @property
    def nbytes(self) -> int:
        flags = self.test.nbytes if self.test is not None else 0
        return self.X.nbytes + self.y.nbytes + flags + 300  # + the objects around them

    def points(self) -> PointSet:
        return PointSet.from_arrays(self.X, self.y, self.test)


def _bounded(entries: tuple[_Snapshot, ...], limit: int, max_bytes: int) -> tuple[_Snapshot, ...]:
    """The newest ``entries`` within ``limit`` entries and ``max_bytes`` (always the newest one)."""
    entries = entries[-limit:]
    total, keep = 0, 0
    for entry in reversed(entries):
        total += entry.nbytes
        if keep and total > max_bytes:
            break
        keep += 1
    return entries[len(entries) - keep :]


@dataclass(frozen=True)
class History:
    """Undo / redo over point sets: ``past`` and ``future`` are tuples, newest last.

    Bounded by ``limit`` entries and ``max_bytes`` of stored points: the oldest steps are
    forgotten first (with 20,000-point uploads, ~45 steps fit in the default 16 MiB). Point sets
    are stored as compact arrays and rebuilt on undo / redo.
    """

    past: tuple[_Snapshot, ...] = ()
    future: tuple[_Snapshot, ...] = ()
    limit: int = 200
    max_bytes: int = HISTORY_BYTES

    def _with(self, past: tuple[_Snapshot, ...], future: tuple[_Snapshot, ...]) -> "History":
        return History(
            _bounded(past, self.limit, self.max_bytes),
            _bounded(future, self.limit, self.max_bytes),
            self.limit,
            self.max_bytes,
        )

    @property
    def nbytes(self) -> int:
        return sum(entry.nbytes for entry in self.past + self.future)

    def pushed(self, previous: PointSet) -> "History":
        """Record ``previous`` before a change; a new change clears the redo stack."""
        return self._with(self.past + (_Snapshot.of(previous),), ())

    def undone(self, current: PointSet) -> tuple["History", PointSet] | None:
        """Return (history, points to show) after one undo, or None if there is nothing to undo."""
        if not self.past:
            return None
        return self._with(self.past[:-1], self.future + (_Snapshot.of(current),)), self.past[-1].points()

    def redone(self, current: PointSet) -> tuple["History", PointSet] | None:
        if not self.future:
            return None
        return self._with(self.past + (_Snapshot.of(current),), self.future[:-1]), self.future[-1].points()
