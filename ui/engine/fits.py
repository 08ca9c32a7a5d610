"""A scene fitted and evaluated on its view through the server's shared cache: the one way the
live route, the class rooms and the figures' numbers fit a scene, and the keys the page's own fits
use too (``ui.session.compute`` adds the page's policy: a try in the server, then a worker, with
progress and a Stop button, and what a session keeps for itself).

Rules that hold:

- One fit per scene and settings in the server, whoever asks first: a fit is looked up under
  ``ui.engine.keys``' key before it is made, and a finished one is kept there (bounded, shared and
  read-only: nobody may change a model or a view it gets). So the page's rerun after a click finds
  the fit the live route made for the same scene, and a figure's numbers the fit its page drew.
- Every fit runs under a budget: ``seconds`` of the ``clock`` and ``MAX_RECORDED_STEPS`` recorded
  steps (the page's limits, so a fit made here is the one the page would make). A fit that ran
  out of time is not the page's fit: it raises ``OverBudget``, or, for a caller that draws what it
  reached (``partial=True``, the rooms), is returned but never kept.
- A caller whose scenes nobody asks for twice (a drag's frames, sixty a second; a room's versions,
  each of new points and shared by ``ui.rooms.views`` already) neither looks the cache up nor
  keeps anything there (``shared=False``): no lookup can hit, and what they kept would push the
  pages' fits out.
- Knows nothing of Streamlit, a language or a figure: (model, error) and the ``FitView``.
"""

from collections.abc import Callable
from typing import NamedTuple

from playground import Classifier, Message, Window
from playground.budget import limited
from playground.scene import Scene

from .cache import MISSING, approx_bytes, result_cache
from .fitview import GRID_RESOLUTION, FitView, evaluate_view
from .keys import scene_fit_key, scene_view_key
from .workers import MAX_RECORDED_STEPS, fit_scene


class Fit(NamedTuple):
    """A scene's fit: the model and None, or None and why there is none (a ``Message``, phrased
    where it is shown). The page's fits are the same (``ui.session.compute.fitted_model``)."""

    model: Classifier | None
    error: Message | None


class OverBudget(Exception):
    """The fit did not finish within its seconds (nothing was kept)."""


def shared_fit(
    scene: Scene,
    seconds: float | None,
    *,
    clock: Callable[[], float] | None = None,
    partial: bool = False,
    shared: bool = True,
) -> Fit:
    """The fit of ``scene``'s training points: from the shared cache, or made now under the budget
    and kept there; with ``shared`` False, made now and not kept (see the module's rules)."""
    cache = result_cache()
    key = scene_fit_key(scene)
    if shared:
        found = cache.get(key)
        if found is not MISSING:
            return Fit(*found)
    points = scene.training.points
    with limited(seconds, MAX_RECORDED_STEPS, clock=clock) as budget:
        result = fit_scene(
            points.X, points.y, scene.method, scene.params, scene.multiclass, scene.basis, scene.basis_params
        )
    if "time" in budget.reasons and not partial:
        raise OverBudget
    if shared and "time" not in budget.reasons:
        cache.put(key, result, approx_bytes(result))
    return Fit(*result)


def shared_view(scene: Scene, fit: Fit, resolution: int = GRID_RESOLUTION, *, shared: bool = True) -> FitView:
    """``fit`` evaluated on ``scene``'s window at its step: from the shared cache, or evaluated now
    and kept there; with ``shared`` False, evaluated now and not kept."""
    cache = result_cache()
    key = scene_view_key(scene, resolution)
    if shared:
        found = cache.get(key)
        if found is not MISSING:
            return found  # the cache holds what was put under the key: a FitView
    points = scene.training.points
    assert isinstance(scene.window, Window)  # scene_view_key checked it
    view = evaluate_view((fit.model, fit.error), points.X, points.y, scene.window, scene.step, resolution)
    if shared:
        cache.put(key, view, approx_bytes(view))
    return view


def fitted_view(
    scene: Scene,
    seconds: float | None,
    resolution: int = GRID_RESOLUTION,
    *,
    clock: Callable[[], float] | None = None,
    partial: bool = False,
    shared: bool = True,
) -> tuple[Fit, FitView]:
    """``shared_fit`` and ``shared_view`` of ``scene`` in one call: the view is kept when its fit is
    (not a fit that ran out of time, nor one too large to share, nor one not ``shared``)."""
    fit = shared_fit(scene, seconds, clock=clock, partial=partial, shared=shared)
    kept = shared and result_cache().get(scene_fit_key(scene)) is not MISSING
    return fit, shared_view(scene, fit, resolution, shared=kept)
