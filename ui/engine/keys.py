"""The shared cache's keys of a fit and of its view (``ui.engine.cache``): one spelling for every
place that fits a scene, so what one of them fitted the others find.

Rules that hold:

- A fit is keyed by what it depends on: the training points (their digest: points, labels and
  flags), the method, its settings, the multi-class strategy and the basis; a view by the fit's
  key and the window, the step shown and the grid's resolution. Nothing else (a language, a scale,
  the page's options) enters a key, so the page's rerun after a click finds the fit and the view
  the live route made for the same scene, and the other way round.
- Plain tuples of hashable values: the cache knows nothing of fitting.
"""

from collections.abc import Hashable

from playground.grid import Window
from playground.scene import PointSet, Scene

FitKey = tuple[Hashable, ...]


def fit_key(
    points: PointSet,
    method: str,
    params: tuple[Hashable, ...],
    multiclass: str | None,
    basis: str = "identity",
    basis_params: tuple[Hashable, ...] = (),
) -> FitKey:
    """The key of the fit of ``points`` (the training points) with these settings."""
    return ("fit", points.digest, method, params, multiclass, basis, basis_params)


def view_key(
    points: PointSet,
    method: str,
    params: tuple[Hashable, ...],
    multiclass: str | None,
    window: Window,
    step: int | None,
    resolution: int,
    basis: str = "identity",
    basis_params: tuple[Hashable, ...] = (),
) -> FitKey:
    """The key of that fit evaluated on ``window``'s grid at ``resolution``, at ``step``."""
    return ("view", points.digest, method, params, multiclass, window, step, resolution, basis, basis_params)


def scene_fit_key(scene: Scene) -> FitKey:
    """``fit_key`` of a scene's training points and settings."""
    training = scene.training
    return fit_key(training.points, scene.method, scene.params, scene.multiclass, scene.basis, scene.basis_params)


def scene_view_key(scene: Scene, resolution: int) -> FitKey:
    """``view_key`` of a scene's training points, settings, window and step."""
    training = scene.training
    assert isinstance(scene.window, Window)  # a scene's window is set before it is drawn
    return view_key(
        training.points,
        scene.method,
        scene.params,
        scene.multiclass,
        scene.window,
        scene.step,
        resolution,
        scene.basis,
        scene.basis_params,
    )
