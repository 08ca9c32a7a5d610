"""Session state: the scene and its undo history, the notices, and the edits the sidebar makes.

Rules that must hold:

- Everything lives in ``visitor()`` (one per browser session), never at module level, so
  visitors of a hosted app never see each other's points.
- The scene is an immutable value, replaced whole by each edit (``set_scene``); an edit of the
  points goes through ``change_points``, which records the points before it for undo.
- A widget callback never kills the page: ``guarded_callback`` turns an exception into a notice.

The canvas's edits are ``ui.session.edits``; whole scenes loaded and linked, ``ui.session.loading``.
"""

import functools
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from playground import ClusterSpec, Message, PlaygroundError, Window, make_clusters
from playground.geometry import window_with_aspect
from playground.scene import PointSet, Scene, snap
from ui.base.visitor import visitor
from ui.text.i18n import _

_LOG = logging.getLogger(__name__)

DEFAULT_CLUSTERS = (
    ClusterSpec((-2.0, -1.0), (1.0, 0.6), 30.0),
    ClusterSpec((2.2, -0.6), (0.9, 0.6), -20.0),
    ClusterSpec((0.2, 2.6), (1.1, 0.5), 0.0),
)


def default_scene() -> Scene:
    """Three Gaussian clusters fitted by least squares: something useful at first sight."""
    X, y = make_clusters(DEFAULT_CLUSTERS, 30, seed=1)
    points = PointSet.from_arrays(X, y)
    return Scene(points=points, window=Window.around(X), seed=1)


def scene() -> Scene:
    return visitor()["scene"]


def set_scene(new_scene: Scene) -> None:
    visitor()["scene"] = new_scene


def set_basis(basis: str, params: Mapping[str, Any] | None = None) -> None:
    """Switch the fixed basis functions phi(x) (section 4.3.1) applied before the method."""
    current = scene()
    if (basis, tuple(sorted((params or {}).items()))) != (current.basis, current.basis_params):
        set_scene(current.with_basis(basis, params))


def rbf_centres() -> tuple:
    return tuple(scene().basis_param_dict.get("centres") or ())


def set_rbf_centres(centres: Sequence) -> None:
    """Centres placed by hand (clicks on the canvas in centre mode), on the points' grid."""
    centres = tuple(map(tuple, snap(centres).tolist())) if centres else ()
    params = {**scene().basis_param_dict, "centres": centres or None, "placement": "given" if centres else None}
    set_scene(scene().with_basis("rbf", {k: v for k, v in params.items() if v is not None}))


def set_step(step: int | None) -> None:
    """Show the iterative fit after ``step`` updates (None: the final fit)."""
    set_scene(replace(scene(), step=None if step is None else int(step)))


def notify(message: str | Message) -> None:
    """A message shown once on the next run (e.g. why an edit was refused): text in the session's
    language, or a back-end ``Message`` (phrased where it is shown)."""
    visitor().setdefault("notices", []).append(message)


def guarded_callback(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a widget callback: an unexpected exception becomes a notice, never a dead page
    (a callback's exception would stop the whole run before anything is drawn)."""

    def decorate(callback: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(callback)
        def guarded(*args: Any, **kwargs: Any) -> Any:
            try:
                return callback(*args, **kwargs)
            except Exception as err:  # noqa: BLE001  (the page's edge, for callbacks)
                _LOG.error("Unexpected error in the callback for %s", what, exc_info=err)
                notify(
                    _("Something went wrong with {what} ({error}); your points and settings are kept.").format(
                        what=what, error=type(err).__name__
                    )
                )

        return guarded

    return decorate


def report_load_problems(source: str, problems: Iterable[Any]) -> None:
    """Show ``problems`` in the load report box (until dismissed), as for a damaged link."""
    visitor()["load_messages"] = (source, list(problems))


def take_notices() -> list[str | Message]:
    notices, visitor()["notices"] = visitor()["notices"], []
    return notices


# ---- What the sidebar shows of the scene --------------------------------------------------------

SIDEBAR_SIGNATURE: Final = "sidebar_signature"
PENDING_LOAD: Final = "pending_load"  # a scene to load at the start of the next run (``ui.session.loading``)


TEXT_FOLLOWS_WINDOW: Final = "text_follows_window"  # set while a text drawn outside the canvas quotes the view


def sidebar_signature() -> tuple:
    """What the sidebar draws from the scene and the session, beyond its own widgets' values:
    undo / redo / clear availability, the classes present (prior sliders), the basis (the count of
    hand-placed RBF centres), the method chosen (a panel may switch it) and a pending load."""
    current = scene()
    history = visitor()["history"]
    present = tuple(int(k) for k in current.training.points.counts().nonzero()[0])
    return (
        bool(current.points.test),  # the split's "All training" button
        bool(history.past),
        bool(history.future),
        present,
        current.basis,
        current.basis_params,
        visitor().get("method"),
        PENDING_LOAD in visitor(),
        # A text on the page whose numbers are computed in the view shown (the presenter's drawer):
        # a zoom or the canvas's shaping of a loaded window reruns the page, so they follow it.
        current.window if visitor().get(TEXT_FOLLOWS_WINDOW) else None,
    )


def mark_sidebar_drawn() -> None:
    visitor()[SIDEBAR_SIGNATURE] = sidebar_signature()


def sidebar_outdated() -> bool:
    """True when an edit made outside the sidebar (a canvas click, a panel button) changed what
    the sidebar shows: the canvas and panels rerun on their own, so the app must rerun whole."""
    return visitor().get(SIDEBAR_SIGNATURE) != sidebar_signature()


def change_points(new_points: PointSet, *, refit_view: bool = False) -> None:
    """Replace the point set, recording the old one for undo."""
    current = scene()
    if new_points == current.points:
        return
    visitor()["history"] = visitor()["history"].pushed(current.points)
    updated = current.with_points(new_points)
    if refit_view:
        updated = updated.with_window(fitted_window(new_points), by_app=True)
    set_scene(updated)


def _walk_history(step, nothing_message):
    """Apply a History.undone / redone result, or say there was nothing to do."""
    if step is None:
        notify(nothing_message)
        return
    visitor()["history"], points = step
    set_scene(scene().with_points(points))


def undo() -> None:
    _walk_history(visitor()["history"].undone(scene().points), _("Nothing to undo."))


def redo() -> None:
    _walk_history(visitor()["history"].redone(scene().points), _("Nothing to redo."))


def fit_view() -> None:
    set_scene(scene().with_window(fitted_window(scene().points), by_app=True))


# ---- The view fitted to the points, in the shape of the plot ------------------------------------

PRESENTATION_WANTED: Final = "presentation_wanted"  # the session's link asked for presentation; the browser decides


def request_presentation(fit: bool = False) -> None:
    """The session's first link asks for presentation: the browser's width decides
    (``ui.widgets.presentation_gate``). ``fit``: the link has no window, so the view frames the
    points in the plot's shape, which presentation changes: it is fitted again when it starts."""
    visitor()[PRESENTATION_WANTED] = "fit" if fit else True


def presentation_wanted() -> bool | str:
    """A link's request for presentation still waits for a wide window ("fit": and a new frame)."""
    return visitor().get(PRESENTATION_WANTED) or False


def end_presentation_request() -> bool | str:
    """The request is over (the toggle was switched); what it was."""
    return visitor().pop(PRESENTATION_WANTED, False)


FIT_PENDING: Final = "fit_pending"  # the app has just fitted the view: the canvas matches it to its plot area
CANVAS_AREA: Final = "canvas_area"  # (width, height) in pixels of the canvas's plot area, as last reported


def fitted_window(points: PointSet) -> Window:
    """The window around the points (the default one without points), widened to the shape of
    the canvas's plot area when it is known; the canvas corrects the shape otherwise."""
    window = Window.around(points.X) if len(points) else Window()
    visitor()[FIT_PENDING] = True
    area = visitor().get(CANVAS_AREA)
    return window_with_aspect(window, area[0] / area[1]) if area else window


def take_fit_pending() -> bool:
    """True once after the app fitted the view (the canvas is told to match its shape, once)."""
    return bool(visitor().pop(FIT_PENDING, False))


def clear_points() -> None:
    change_points(PointSet())


def generate(
    specs: Sequence[ClusterSpec],
    n_per_class: int,
    *,
    shared_covariance: bool,
    seed: int,
    mode: str,
    held_out: float | None = None,
) -> None:
    """Draw Gaussian clusters; ``mode`` "replace" swaps the points, "add" appends them.

    ``held_out``: the fraction of each class made test points, drawn with ``seed`` (None: the
    cluster generator's own setting)."""
    if held_out is None:
        held_out = generator_held_out()
    try:
        X, y = make_clusters(specs, n_per_class, shared_covariance=shared_covariance, seed=seed)
        fresh = PointSet.from_arrays(X, y).held_out(held_out, seed)
        new_points = fresh if mode == "replace" else scene().points.extended(fresh)
    except PlaygroundError as err:
        notify(err.message)
        return
    change_points(new_points, refit_view=True)
    set_scene(replace(scene(), seed=int(seed)))


POINT_SET_MODE_KEY: Final = (
    "point_set_mode"  # a click adds training points ("train"), test points ("test"), or "switch"
)
GENERATOR_HELD_OUT_KEY: Final = "gen_held_out"  # percent of the generated points held out as test points
MAX_HELD_OUT_PERCENT = 90


def generator_held_out() -> float:
    """The cluster generator's held-out fraction (its slider's percent, bounded)."""
    value = visitor().get(GENERATOR_HELD_OUT_KEY, 0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_HELD_OUT_PERCENT:
        return 0.0
    return float(value) / 100


def point_set_mode() -> str:
    """What a click does with points: 'train' (adds a training point), 'test' or 'switch'."""
    mode = visitor().get(POINT_SET_MODE_KEY, "train")
    return mode if mode in ("train", "test", "switch") else "train"
