"""A fitted scene drawn: the one function every drawing of a scene's fit goes through.

The page's canvas (``ui.page.app``), each canvas of a comparison (``ui.widgets.compare``), the live
route's answers to a drag (``ui.server.live_route``) and a class room's projector and phones
(``ui.rooms.views``) each get their fit their own way (the session's shared cache and workers; a
budgeted fit on the request's thread; one fit per room version), then call ``render_scene`` with
it. Rules that hold:

- One drawing for one fit: the test points' labels (at the step shown), the caption's words and
  the figure are made here and nowhere else, so the four places cannot draw the same fit
  differently (the live route's test points once had a copy of the page's rule).
- A failed fit (``view.error``) is drawn as the points alone, with the caption that names no
  accuracy; the caller says the error in its own way (a message under the plot, a 422).
- One render of a scene revision per display: what a fit draws the same whoever asks (the fit's
  traces, the points, the rings, the layout: ``FigureParts``) is made once for the scene and the
  display (window, scale, legend, switching, painted, language, class names) and, when the caller
  says the view is the shared one (``shared``: a click's live answer and the page's reruns), kept
  in the server's shared cache under a key of those; the live answer to a click and the reruns it
  causes draw from that one render, each adding only its own caption and the panels' overlays.
- Plain data in and out (a ``SceneFigure`` dict): no Streamlit; the words are in the language
  spoken (``ui.text.i18n``) when it is called.
"""

import os
from collections.abc import Hashable, Iterable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from playground import Classifier, Window
from playground.scene import Scene
from ui.engine.cache import MISSING, approx_bytes, result_cache
from ui.engine.fitview import GRID_RESOLUTION, FitView, test_predictions
from ui.engine.keys import FitKey, scene_view_key
from ui.text.i18n import current_language
from ui.text.names import scene_class_names

from .caption import caption_text
from .figures import FigureParts, SceneFigure, assembled, figure_parts, paints_the_plane

RENDER_LOG = "PLAYGROUND_RENDER_LOG"  # a file each render of figure parts appends a line to (benchmarks count them)


class SceneStatus(NamedTuple):
    """What the status line counts: the points, the training accuracy and the training points the
    fit gets wrong (None and 0 without a fit)."""

    n_points: int
    accuracy: float | None
    wrong: int


class Rendered(NamedTuple):
    """``figure``: what the canvas draws; ``test_predicted``: the fit's labels of the test points
    (None without test points or fit), which the status line counts too; ``status``: the counts."""

    figure: SceneFigure
    test_predicted: NDArray[Any] | None
    status: SceneStatus


class _Render(NamedTuple):
    """What is made once per scene revision and display (see the module's rules)."""

    parts: FigureParts
    test_predicted: NDArray[Any] | None
    status: SceneStatus


def render_scene(
    scene: Scene,
    model: Classifier | None,
    view: FitView,
    *,
    window: Window | None = None,
    overlays: Iterable[Any] = (),
    scale: float = 1.0,
    legend: bool = True,
    caption: bool = True,
    caption_settings: bool = True,
    switching: bool = False,
    painted: bool = False,
    shared: bool = False,
) -> Rendered:
    """``scene`` drawn with its fit (``model`` and ``view``, the model evaluated on the view).

    ``window``: the axes' range when not the scene's own (a room's projector shape); ``overlays``:
    the open panels' traces; ``scale``: markers and type enlarged (presentation); ``legend`` False
    when a row above several canvases is their legend; ``caption`` False for a figure without the
    caption line (the live route's patch, the room's); ``caption_settings`` False leaves the strategy
    and the basis out of the caption (a comparison's title names them); ``switching``: clicks switch
    points between training and test; ``painted``: an overlay the canvas keeps paints the plane;
    ``shared``: share the render when ``view`` is the one the server's shared cache holds for the
    scene at ``GRID_RESOLUTION`` (``ui.engine.fits``; not a view only this caller has, such as a
    stopped fit's): its render is then looked up there, or made and kept (see the module's rules).
    """
    overlays = list(overlays)
    if scene.fit_hidden:  # predict first: the points and the person's line, nothing of the fit
        model, view, shared = None, FitView(), False
    window = window if window is not None else scene.window
    assert isinstance(window, Window)  # a scene's window is set before it is drawn
    painted = paints_the_plane(overlays, painted)
    render = _render(scene, model, view, window, scale, legend, switching, painted, shared and not view.error)
    words = None
    if caption:
        words = (
            caption_text(scene, view, render.test_predicted, settings=caption_settings)
            if not view.error
            else caption_text(scene, settings=caption_settings)
        )
    figure = assembled(render.parts, overlays if not view.error else (), scale=scale, legend=legend, caption=words)
    return Rendered(figure, render.test_predicted, render.status)


def _render(
    scene: Scene,
    model: Classifier | None,
    view: FitView,
    window: Window,
    scale: float,
    legend: bool,
    switching: bool,
    painted: bool,
    shared: bool,
) -> _Render:
    """The scene's render for this display: from the shared cache when ``shared``, else made now
    (and kept when ``shared``)."""
    cache = result_cache()
    key = None
    if shared:
        shown = scene_view_key(scene, GRID_RESOLUTION)
        if cache.get(shown) is view:  # the shared view, not a view of a stopped fit
            key = _render_key(shown, scene, window, scale, legend, switching, painted)
    if key is not None:
        found = cache.get(key)
        if found is not MISSING:
            return found  # the cache holds what was put under the key: a _Render
    fitted = not view.error
    test_predicted = test_predictions(model, scene.step, scene.points) if fitted else None
    parts = figure_parts(
        scene.points, view, window, scene.view_revision, scale, legend, test_predicted, switching, painted
    )
    render = _Render(parts, test_predicted, _status(scene, view))
    _log_render()
    if key is not None:
        cache.put(key, render, approx_bytes(render))
    return render


def _render_key(
    shown: FitKey, scene: Scene, window: Window, scale: float, legend: bool, switching: bool, painted: bool
) -> tuple[Hashable, ...]:
    """What a render depends on: the view's key ``shown`` (training points, settings, window, step),
    every point (test points are drawn too), the view's revision, the display and the words'
    language and class names."""
    return (
        "render",
        shown,
        scene.points.digest,
        scene.view_revision,
        window,
        scale,
        legend,
        switching,
        painted,
        current_language(),
        scene_class_names(),
    )


def _status(scene: Scene, view: FitView) -> SceneStatus:
    training = scene.training.points
    wrong = int(np.sum(view.predicted != training.y)) if view.predicted is not None and not view.error else 0
    return SceneStatus(len(scene.points), view.accuracy if not view.error else None, wrong)


def _log_render() -> None:
    """One line per render made, to the file ``PLAYGROUND_RENDER_LOG`` names (unset: nothing)."""
    path = os.environ.get(RENDER_LOG)
    if path:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{os.getpid()}\n")
