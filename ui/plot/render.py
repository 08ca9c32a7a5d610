"""A fitted scene drawn: the one function every drawing of a scene's fit goes through.

The page's canvas (``ui.app``), each canvas of a comparison (``ui.widgets.compare``), the live
route's answers to a drag (``ui.server.live_route``) and a class room's projector and phones
(``ui.rooms.views``) each get their fit their own way (the session's shared cache and workers; a
budgeted fit on the request's thread; one fit per room version), then call ``render_scene`` with
it. Rules that hold:

- One drawing for one fit: the test points' labels (at the step shown), the caption's words and
  the figure are made here and nowhere else, so the four places cannot draw the same fit
  differently (the live route's test points once had a copy of the page's rule).
- A failed fit (``view.error``) is drawn as the points alone, with the caption that names no
  accuracy; the caller says the error in its own way (a message under the plot, a 422).
- Plain data in and out (a ``SceneFigure`` dict): no Streamlit; the words are in the language
  spoken (``ui.text.i18n``) when it is called.
"""

from collections.abc import Iterable
from typing import Any, NamedTuple

from numpy.typing import NDArray

from playground import Classifier, Window
from playground.scene import Scene
from ui.engine.fitview import FitView, test_predictions

from .caption import caption_text
from .figures import SceneFigure, scene_figure


class Rendered(NamedTuple):
    """``figure``: what the canvas draws; ``test_predicted``: the fit's labels of the test points
    (None without test points or fit), which the status line counts too."""

    figure: SceneFigure
    test_predicted: NDArray[Any] | None


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
) -> Rendered:
    """``scene`` drawn with its fit (``model`` and ``view``, the model evaluated on the view).

    ``window``: the axes' range when not the scene's own (a room's projector shape); ``overlays``:
    the open panels' traces; ``scale``: markers and type enlarged (presentation); ``legend`` False
    when a row above several canvases is their legend; ``caption`` False for a figure without the
    caption line (the live route's patch, the room's); ``caption_settings`` False leaves the strategy
    and the basis out of the caption (a comparison's title names them); ``switching``: clicks switch
    points between training and test; ``painted``: an overlay the canvas keeps paints the plane.
    """
    fitted = not view.error
    test_predicted = test_predictions(model, scene.step, scene.points) if fitted else None
    words = None
    if caption:
        words = (
            caption_text(scene, view, test_predicted, settings=caption_settings)
            if fitted
            else caption_text(scene, settings=caption_settings)
        )
    figure = scene_figure(
        scene.points,
        view,
        window if window is not None else scene.window,
        scene.view_revision,
        overlays if fitted else (),
        scale=scale,
        legend=legend,
        test_predicted=test_predicted,
        switching=switching,
        painted=painted,
        caption=words,
    )
    return Rendered(figure, test_predicted)
