"""What the browser needs to replay an iterative fit by itself (numpy only, no streamlit).

Playback runs in the browser (``ui/plot/playback.js``) so that it keeps a steady pace whatever the
server is doing. The server sends the steps once, compactly: for a model linear in x, each frame
is K affine scores y_k(x) = w_k0 + w_k1 x1 + w_k2 x2, one row per class, and the browser clips
the half-planes {y_k >= y_j} to the plot window itself; for a model on basis functions the rows
live in phi-space and the browser evaluates them on one grid of phi(x) sent with the first frame.

Rows follow the book (``ui.text.convention``): with two classes the first row is C1's y(x) (w points
into C1) and the second is 0, so y(x) >= 0 gives C1; with K classes the rows are the y_k(x). A
point goes to the first row with the largest score, exactly as the model's ``predict`` does.

A run may hold 50,000 steps; at most ``MAX_FRAMES`` of them are sent, evenly spread and always
including the first and the last (``frame_steps``).
"""

import base64
from collections.abc import Callable, Mapping
from typing import Any, Literal, Protocol, TypedDict, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from playground import Classifier, Window
from playground.basis import features_estimator

MAX_FRAMES = 300  # frames sent to the browser for one run; the first and the last always among them
# The basis grid: at most this many phi values (resolution^2 x M float32, 160 KB), so that a
# panel's rerun sends about as much as the canvas's own 200 x 200 grid; cells per axis, least and most.
BASIS_GRID_VALUES = 40_000
BASIS_GRID_RESOLUTION = (24, 64)


class Replayable(Protocol):
    """A fitted iterative model: ``at_step(step)`` is a copy with that step's weights."""

    @property
    def classes_(self) -> NDArray[Any]: ...

    def at_step(self, step: int) -> Classifier: ...


class OnBasis(Protocol):
    """A fitted model on basis functions: ``features(X)`` is phi(X), (N, M)."""

    def features(self, X: ArrayLike) -> NDArray[Any]: ...


class BasisGrid(TypedDict):
    """phi(x) on a grid for the browser (``basis_grid``): cell centres x0 + dx * i, y0 + dy * j."""

    x0: float
    dx: float
    y0: float
    dy: float
    n: int  # cells per axis
    features: int  # M
    phi: str  # base64 of the (n * n, M) float32 values, row-major (y rows)


class PlaybackFrames(TypedDict):
    """What the browser replays (``playback_frames``), JSON-ready."""

    kind: Literal["basis", "linear"]
    n_steps: int
    steps: list[int]
    classes: list[int]
    shape: list[int]  # (F, K, P + 1)
    rows: str  # base64 of the float64 rows
    readouts: list[str]
    spoken: list[str]  # the boundary in words per frame (the status line's, for a screen reader)
    marks: list[Mapping[str, Any] | None]
    grid: BasisGrid | None


def frame_steps(n_steps: int, max_frames: int = MAX_FRAMES) -> NDArray[np.int_]:
    """The steps 0..n_steps that become frames: all of them when they fit, else ``max_frames``
    spread evenly, 0 and ``n_steps`` always included. (F,) int array, increasing."""
    n_steps = max(int(n_steps), 0)
    if n_steps + 1 <= max_frames:
        return np.arange(n_steps + 1)
    return np.unique(np.round(np.linspace(0, n_steps, max_frames)).astype(int))


def score_rows(shown: Classifier) -> NDArray[np.float64]:
    """The book's rows (K, P + 1) [w_k0, w_k1, ..., w_kP] of a replayed model, in ``classes_``
    order, P the number of inputs of the inner estimator (x, or phi(x) on a basis).

    Two classes (one back-end discriminant d(x), positive for ``classes_[1]``): C1's row is the
    book's y(x) = -d(x) and C2's is 0. K > 2: the K discriminants as they are.
    """
    inner = features_estimator(shown)
    coef = np.atleast_2d(np.asarray(inner.coef_, dtype=float))
    intercept = np.ravel(np.asarray(inner.intercept_, dtype=float))
    rows = np.column_stack([intercept, coef])
    if rows.shape[0] == 1:
        return np.vstack([-rows, np.zeros_like(rows)])
    return rows


def predict_from_rows(rows: NDArray[np.float64], inputs: ArrayLike) -> NDArray[np.intp]:
    """The row index each input gets: the first largest score (``inputs`` (N, P), without the 1)."""
    scores = np.asarray(inputs, dtype=float) @ rows[:, 1:].T + rows[:, 0]
    return np.argmax(scores, axis=1)


def _base64(array: np.ndarray) -> str:
    return base64.b64encode(np.ascontiguousarray(array).tobytes()).decode("ascii")


def basis_grid(model: OnBasis, window: Window) -> BasisGrid:
    """phi(x) at the cell centres of a grid over ``window`` (row-major, y rows): a dict for the
    browser, the resolution chosen so that the grid holds at most ``BASIS_GRID_VALUES`` values."""
    n_features = int(np.shape(features_estimator(model).coef_)[-1])
    low, high = BASIS_GRID_RESOLUTION
    resolution = int(np.clip(np.sqrt(BASIS_GRID_VALUES / max(n_features, 1)), low, high))
    dx = (window.x_max - window.x_min) / resolution
    dy = (window.y_max - window.y_min) / resolution
    xs = window.x_min + dx * (np.arange(resolution) + 0.5)
    ys = window.y_min + dy * (np.arange(resolution) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    phi = np.asarray(model.features(np.column_stack([gx.ravel(), gy.ravel()])), dtype=np.float32)
    return BasisGrid(
        x0=float(xs[0]),
        dx=float(dx),
        y0=float(ys[0]),
        dy=float(dy),
        n=resolution,
        features=n_features,
        phi=_base64(phi),
    )


def playback_frames(
    model: Replayable,
    n_steps: int,
    window: Window,
    *,
    readout: Callable[[int, Classifier], str] | None = None,
    marks: Callable[[int, Classifier], Mapping[str, Any] | None] | None = None,
    spoken: Callable[[Classifier], str] | None = None,
    max_frames: int = MAX_FRAMES,
) -> PlaybackFrames:
    """The data the browser replays: a dict, JSON-ready.

    ``model`` is the fitted model (with ``at_step``), ``n_steps`` its last playback position
    (``at_step(n_steps)`` is the final fit). ``readout(step, shown)`` gives a line of text for a
    frame (what the panel says of that step), ``marks(step, shown)`` a dict of things the canvas
    marks at that step (e.g. {"ring": [point index, text]}), ``spoken(shown)`` the boundary in
    words (what the status line tells a screen reader while the frame is drawn); all optional.
    """
    steps = frame_steps(n_steps, max_frames)
    frames: list[NDArray[np.float64]] = []
    texts: list[str] = []
    step_marks: list[Mapping[str, Any] | None] = []
    said: list[str] = []
    for step in steps:
        shown = model.at_step(int(step))
        frames.append(score_rows(shown))
        texts.append(readout(int(step), shown) if readout else "")
        step_marks.append(marks(int(step), shown) if marks else None)
        said.append(spoken(shown) if spoken else "")
    rows = np.asarray(frames, dtype=np.float64)  # (F, K, P + 1)
    on_basis = hasattr(model, "basis_")
    return PlaybackFrames(
        kind="basis" if on_basis else "linear",
        n_steps=int(n_steps),
        steps=steps.tolist(),
        classes=[int(c) for c in np.asarray(model.classes_)],
        shape=list(rows.shape),
        rows=_base64(rows),
        readouts=texts,
        spoken=said,
        marks=step_marks,
        grid=basis_grid(cast(OnBasis, model), window) if on_basis else None,  # a model with basis_ has features
    )
