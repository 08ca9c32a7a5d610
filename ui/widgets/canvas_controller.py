"""What the canvas component is given besides its figure, for this session: the callback that
applies its edits, the live route's settings, the marker of a point not yet committed, the token
that asks it to fit the view, and the name of a downloaded image.

Rules that must hold:

- The canvas's edits reach the scene only through ``ui.session.edits.apply_canvas_events``, inside
  a guarded callback (an edit's unexpected error is a notice, never a dead page).
- No live route while clicks place RBF centres (they are not points) or for a scene a link cannot
  carry (the route reads the scene from its link query).
- The marker a click draws before the refit arrives is the one ``ui.plot.figures`` draws for that
  point (filled for training, hollow for test) at the page's ``scale``.
"""

from collections.abc import Callable
from typing import Any, Final

import numpy as np

from playground import Classifier
from playground.link import MAX_LINK_POINTS, encode_scene
from playground.scene import Scene
from ui.base.visitor import visitor, widget_values
from ui.plot.canvas import canvas
from ui.plot.figures import FIGURE_CONFIG, TEST_FILL
from ui.plot.theme import CLASS_COLOURS, CLASS_SYMBOLS, MARKER_OUTLINE
from ui.server.live_route import live_path
from ui.session import edits, loading, state
from ui.text import i18n
from ui.text.accessible import boundary_sentence
from ui.text.names import class_name
from ui.widgets import heldout

FIT_COUNT_KEY: Final = "fit_count"  # session state: the last fit token handed to a canvas


def events_handler(key: str, *, shared_view: bool = False) -> Callable[[], None]:
    """The callback of the canvas under ``key``: apply its new events to the scene."""

    @state.guarded_callback("that edit on the plot")
    def on_events() -> None:
        result = widget_values().get(key)
        events = result.get("events") if result is not None else None
        edits.apply_canvas_events(events, visitor().get("active_class_index", 0), shared_view=shared_view)

    return on_events


def _placing_centres(scene: Scene) -> bool:
    return visitor().get("click_mode") == "centres" and scene.basis == "rbf"


def live_settings(scene: Scene, painted: bool, scale: float) -> dict[str, object] | None:
    """What the canvas sends the live route for this scene: the route's address and the fields of
    ``ui.plot.canvas_protocol.LiveRequest`` but the edits, which the browser adds; or None while
    clicks place RBF centres, or for a scene too large for a link."""
    if _placing_centres(scene) or len(scene.points) > MAX_LINK_POINTS:
        return None
    return {
        "url": live_path(),
        "scene": encode_scene(scene),
        "add_as": int(visitor().get("active_class_index", 0)) % len(CLASS_COLOURS),
        "add_test": heldout.click_mode() == "test",
        "scale": scale,
        "language": i18n.current_language(),
        "painted": painted,
    }


def new_point_marker(scene: Scene, scale: float) -> dict | None:
    """The marker a click's new point is drawn with in the browser until the refit arrives (none
    while clicks place RBF centres)."""
    if _placing_centres(scene):
        return None
    mode = heldout.click_mode()
    if mode == "switch":  # a click on empty space adds nothing then
        return None
    k = int(visitor().get("active_class_index", 0)) % len(CLASS_COLOURS)
    if mode == "test":  # hollow, as ui.plot.figures draws test points
        outline = dict(color=CLASS_COLOURS[k], width=2.5 * scale)
        return dict(color=TEST_FILL, symbol=CLASS_SYMBOLS[k], size=11 * scale, line=outline)
    outline = dict(color=MARKER_OUTLINE, width=1)
    return dict(color=CLASS_COLOURS[k], symbol=CLASS_SYMBOLS[k], size=10 * scale, line=outline)


def fit_token() -> int | None:
    """A new token when the app has just fitted the view (the canvas gives it the plot's shape)."""
    if not state.take_fit_pending():
        return None
    visitor()[FIT_COUNT_KEY] = visitor().get(FIT_COUNT_KEY, 0) + 1
    return visitor()[FIT_COUNT_KEY]


def strategy_words(scene: Scene) -> str | None:
    """The multi-class strategy, for a download's name, when more than two classes use it."""
    if np.count_nonzero(scene.training.points.counts()) <= 2:
        return None
    return {"ovr": "one-versus-rest", "ovo": "one-versus-one"}.get(scene.multiclass)


def spoken(model: Classifier | None, error: str | None = None) -> dict[str, Any]:
    """What the keyboard's announcements name (``ui.plot.canvas.canvas``'s ``spoken``): the boundary
    of ``model`` in words, the classes' names and symbols, the class a new point gets."""
    return {
        "boundary": boundary_sentence(model, error),
        "classes": [class_name(k) for k in range(len(CLASS_COLOURS))],
        "symbols": list(CLASS_SYMBOLS),
        "add_as": int(visitor().get("active_class_index", 0)) % len(CLASS_COLOURS),
    }


def scene_canvas(
    scene: Scene, figure: Any, model: Classifier | None = None, error: str | None = None, **options: Any
) -> None:
    """The canvas drawing ``figure`` of ``scene`` (fitted as ``model``, or failed with ``error``):
    remembered under the scene's revision (the canvas's events name points as this drawing showed
    them), over the scene's window and points, acknowledging the last event applied; ``options``
    are the canvas's own (height, key, ...)."""
    revision = str(hash(scene))  # text: a 64-bit integer would lose digits as a JavaScript number
    edits.record_drawn(revision, scene)
    canvas(
        figure,
        config=FIGURE_CONFIG,  # the wheel scrolls the page (zoom: Ctrl/⌘ + wheel, a pinch, a box)
        window=scene.window,
        revision=revision,
        n_points=len(scene.points),
        ack=visitor()["last_event_nonce"],
        spoken=spoken(model, error),
        load=loading.load_serial(),
        **options,
    )
