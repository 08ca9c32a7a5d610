"""The messages between the canvas (``ui/plot/canvas.js``) and the server: one typed protocol.

Two channels carry them:

- **Committed edits** go through the component's trigger (``events``): every event the page has
  not seen acknowledged, oldest first, each with an increasing page-wide ``nonce``. The session
  applies each once, in order (``ui.session.edits.apply_canvas_events``), through ``EVENT_HANDLERS``'s
  one entry per ``type``; a gesture commits once, when it ends (one undo step, one link update).
- **Live geometry** for a gesture in progress goes through the stateless route ``LIVE_PATH``
  (``ui.server.live_route``): the browser posts the scene it shows plus the edits not yet committed, and
  draws the figure that comes back, with no Streamlit rerun.

Every value in either direction comes from a browser and is hostile until validated: the
handlers read each field through ``number``/``indices`` and refuse what they cannot use.
"""

from typing import Any, Literal, NotRequired, TypedDict, overload

LIVE_PATH = "/api/live"  # the live route, under the server's base URL path


class _Event(TypedDict):
    nonce: int  # page-wide, increasing: an event at or below the last applied one is old
    area: NotRequired[list[int]]  # the plot area's size in pixels (a fit of the view takes its shape)
    load: NotRequired[int]  # the number of the last load when the canvas was drawn (older: not this scene's view)


class AddEvent(_Event):
    type: Literal["add"]
    x: float  # data coordinates of the pointer when the click was made
    y: float


class RemoveEvent(_Event):
    type: Literal["remove", "remove_centre"]
    ids: list[int]  # places in the set the canvas showed as ``revision``
    revision: str


class MoveEvent(_Event):
    type: Literal["move"]
    drag: str  # the gesture's id
    revision: str  # what the pressed points' ``ids`` refer to
    ids: list[int]
    dx: float  # the offset since the press, in data units
    dy: float
    final: bool  # the release: the only move the session records (one undo step)


class ViewEvent(_Event):
    type: Literal["view"]
    x0: float
    x1: float
    y0: float
    y1: float


class CommandEvent(_Event):
    type: Literal["fit", "undo", "redo"]


class LineEvent(_Event):
    type: Literal["line"]  # the person's own line (issue 46), through two points in data coordinates
    x1: float
    y1: float
    x2: float
    y2: float


class GuessEvent(_Event):
    type: Literal["guess"]  # the person's line moved by its handles, its arrow or the landscape:
    w0: float  # y(x) = w1 x1 + w2 x2 + w0 in the book's convention, oriented as the person left it
    w1: float
    w2: float


CanvasEvent = AddEvent | RemoveEvent | MoveEvent | ViewEvent | CommandEvent | LineEvent | GuessEvent


class LiveAdd(TypedDict):
    type: Literal["add"]
    x: float
    y: float


class LiveRemove(TypedDict):
    type: Literal["remove"]
    ids: list[int]  # places in the request's scene


class LiveMove(TypedDict):
    type: Literal["move"]
    ids: list[int]
    dx: float
    dy: float


LiveEdit = LiveAdd | LiveRemove | LiveMove


class LiveRequest(TypedDict):
    """What the canvas posts to ``LIVE_PATH``: the scene it shows (its link query, as
    ``playground.link.encode_scene`` writes it), the edits made on it since, in order, and how
    the new points are added and drawn."""

    scene: dict[str, str]
    edits: list[LiveEdit]
    add_as: int  # the class (0-5) a click adds
    add_test: bool  # whether a click adds a test point
    scale: float  # presentation mode's marker and font scale
    language: str
    painted: bool  # a panel overlay paints the plane (the live figure then draws no regions)
    guess: NotRequired[list[float]]  # the person's line being moved (w0, w1, w2): asks for its numbers alone
    shares: NotRequired[bool]  # with each point's share of the criterion at that line


class LiveLine(TypedDict):
    """The numbers of the person's line while it moves (``ui.plot.line_scores.LineNumbers``)."""

    accuracy: float
    criterion: str  # the criterion's name, in the request's language
    value: float | None  # at the line's best scale; None where not defined
    fit: float | None  # at the fit; None while the fit is hidden
    maximised: bool
    shares: list[float] | None  # each training point's ring in px, in the scene's order


class LiveStatus(TypedDict):
    n_points: int
    accuracy: float | None  # training accuracy, None without a fit
    wrong: int  # misclassified training points


class LiveResponse(TypedDict):
    """The figure to draw (``ui.plot.figures.scene_figure``'s dict, without panel overlays: the canvas
    keeps those of its last committed figure) and the status line's numbers; or an ``error``
    sentence (in the request's language) and no figure."""

    figure: NotRequired[dict[str, Any]]
    status: NotRequired[LiveStatus]
    line: NotRequired[LiveLine]  # for a request with a ``guess`` (then no figure)
    error: NotRequired[str]


@overload
def number(value: object) -> float | None: ...
@overload
def number(value: object, default: float) -> float: ...
@overload
def number(value: object, default: float | None) -> float | None: ...


def number(value: object, default: float | None = None) -> float | None:
    """A finite float from a browser's value, or ``default`` (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    try:
        value = float(value)
    except OverflowError:  # an integer beyond any float (JSON allows 400 digits)
        return default
    return value if value == value and abs(value) != float("inf") else default


def indices(value: object, limit: int = 10_000) -> list[int]:
    """Non-negative whole numbers below ``limit`` from a browser's list (at most ``limit`` of them);
    [] otherwise."""
    if not isinstance(value, list) or len(value) > limit:
        return []
    found = []
    for item in value:
        item = number(item)
        if item is not None and 0 <= item < limit and item == int(item):
            found.append(int(item))
    return found
