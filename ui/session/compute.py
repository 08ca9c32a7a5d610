"""Fit the scene's method and evaluate it over the view, sharing results among visitors within bounds.

- Results (fitted models and what the canvas draws of them) live in one process-wide cache
  (``ui.engine.cache``), bounded in bytes and entries and emptied of what nobody uses: a reload or
  a link opened by a whole class is served from it, not fitted again.
- One computation per scene, however many ask at once: a fit tried in the server and the view
  of a shared fit are computed by the first session that asks while the others wait for it
  (``ResultCache.compute_once``); a fit in a worker is one task of the pool for all of them, and
  the pages that did not start it say they wait for a fit another visitor started.
- Every fit runs under a budget (``playground.budget``): at most ``FIT_SECONDS`` and
  ``MAX_RECORDED_STEPS`` recorded steps in all, shared among one-versus-rest / one-versus-one
  sub-problems. A fit is tried in the server process first, under ``INLINE_SECONDS``; one that
  needs longer goes to a worker process (``ui.engine.workers``), and the page shows its progress
  and a Stop button while it waits. Nothing waits for a closed page: its fit is cancelled.
- Settings are read from the environment (``PLAYGROUND_FIT_SECONDS``, ``PLAYGROUND_FIT_WORKERS``,
  ``PLAYGROUND_CACHE_MB``), so a host can tune them without editing the code.
"""

import time
from collections.abc import Iterable
from typing import Any, Final

import numpy as np
import streamlit as st

from playground import MODELS, Message, Window
from playground.basis import BASES
from playground.budget import limited
from playground.card import fit_shape
from playground.registry import ITERATIVE_METHODS
from playground.scene import PointSet, Scene
from ui.base import streamlit_private
from ui.base.visitor import visitor, widget_values
from ui.engine.cache import CACHE_BYTES, LARGEST_SHARED, MISSING, approx_bytes, result_cache
from ui.engine.fits import Fit
from ui.engine.fitview import GRID_RESOLUTION, FitView, evaluate_view
from ui.engine.keys import fit_key, view_key
from ui.engine.workers import FIT_SECONDS, MAX_RECORDED_STEPS, fit_scene, worker_pool
from ui.text.i18n import N_, _, ngettext
from ui.text.names import phrased

INLINE_SECONDS = 0.15  # a fit is tried in the server process for this long first
STOPPED_FITS: Final = "stopped_fits"  # session state: fits the visitor stopped (never shared)
STOP_REQUESTS: Final = "stop_fit_requests"  # session state: keys of fits the visitor asked to stop
SESSION_VIEWS: Final = "session_views"  # session state: views of the fits in STOPPED_FITS


def fitted_model(
    points: PointSet,
    method: str,
    params: tuple,
    multiclass: str | None,
    basis: str = "identity",
    basis_params: tuple = (),
    view: tuple | None = None,
) -> Fit:
    """The fitted estimator for these points and settings, or the PlaygroundError raised:
    (model, None) or (None, message). Served from the cache when any visitor fitted it before.

    ``view`` = (cache key, window, step, resolution): a fit done in a worker also evaluates this
    view there and caches it under the key.
    """
    key = fit_key(points, method, params, multiclass, basis, basis_params)
    cache = result_cache()
    found = cache.get(key)
    if found is MISSING:
        found = visitor().get(STOPPED_FITS, {}).get(key, MISSING)
        visitor().get(STOP_REQUESTS, set()).discard(key)  # a press queued while it was stopping
    if found is not MISSING:
        return Fit(*found)
    payload = (points.X, points.y, method, params, multiclass, basis, basis_params)
    pool = worker_pool()
    if pool is not None and _surely_slow(points, method, multiclass, basis, basis_params):
        return Fit(*_fit_in_worker(pool, key, payload, view))
    result, shared = cache.compute_once(key, lambda: _fit_here(payload, pool))
    if result is TO_WORKER:  # every session that waited for this try goes to the pool's one task
        return Fit(*_fit_in_worker(pool, key, payload, view))
    if not shared:
        _keep_in_session(key, result)
    return Fit(*result)


TO_WORKER = object()  # what a try in the server returns when the fit needs a worker


def _fit_here(payload, pool):
    """(result, nbytes) of a fit in the server process, for ``ResultCache.compute_once``; with a
    pool, a try under ``INLINE_SECONDS`` that returns (TO_WORKER, None) when it needs longer.

    The try counts this thread's processor time: on a busy machine a small fit must not be sent
    to a worker because other processes held the processor.
    """
    clock = time.thread_time if pool is not None else None
    with limited(INLINE_SECONDS if pool is not None else FIT_SECONDS, MAX_RECORDED_STEPS, clock=clock) as budget:
        result = fit_scene(*payload)
    if pool is not None and "time" in budget.reasons:
        return TO_WORKER, None
    return result, approx_bytes(result)


SURELY_SLOW_WORK = 150_000  # points x features x sub-problems of an iterative fit sent straight to a worker


def _work(points, multiclass, basis, basis_params):
    """Points x features x sub-problems of a fit (``FitShape.size``, the one cost model of
    ``playground.card``): the size its cost grows with (None when a setting is too strange to
    say; the fit itself validates settings)."""
    try:
        shape = fit_shape(len(points), int(np.count_nonzero(points.counts())), basis, basis_params, multiclass)
    except (TypeError, ValueError, OverflowError):
        return None
    return shape.size


def _surely_slow(points, method, multiclass, basis, basis_params):
    """Whether an iterative fit (its card's trait) is so large that trying it in the server first
    would only waste ``INLINE_SECONDS`` of the server's time (e.g. 5,000 points, or a degree-6
    basis on 1,000)."""
    if method not in ITERATIVE_METHODS:
        return False
    work = _work(points, multiclass, basis, basis_params)
    return work is not None and work >= SURELY_SLOW_WORK


QUICK_WORK = 20_000  # points x features x sub-problems of a fit and view too quick for a spinner


def view_is_quick(scene: Scene) -> bool:
    """Whether ``scene_view(scene)`` surely takes a few milliseconds: a small fit and its view
    (e.g. the default 90 points), or a view already in the cache. The canvas shows a spinner
    only around other work: Streamlit's spinner starts a timer thread each time, server work on
    every click, to show nothing for work this quick."""
    training = scene.training
    points = training.points
    work = _work(points, training.multiclass, training.basis, training.basis_params)
    if work is not None and work <= QUICK_WORK:
        return True
    key = (
        "view",
        points.digest,
        training.method,
        training.params,
        training.multiclass,
        training.window,
        training.step,
        GRID_RESOLUTION,
        training.basis,
        training.basis_params,
    )
    return result_cache().get(key) is not MISSING


def prefetch(scenes: Iterable[Scene]) -> None:
    """Start the slow fits of these scenes in the workers at once, without waiting (the Compare
    view's methods fit side by side instead of one after the other); the calls that then ask for
    them wait for these tasks."""
    pool = worker_pool()
    if pool is None:
        return
    cache, waiter = result_cache(), _session_id()
    for scene in scenes:
        points = scene.training.points  # the points every fit sees
        if not len(points) or not _surely_slow(points, scene.method, scene.multiclass, scene.basis, scene.basis_params):
            continue
        settings = (scene.method, scene.params, scene.multiclass, scene.basis, scene.basis_params)
        key = fit_key(points, *settings)
        if cache.get(key) is MISSING:
            m, params, strategy, basis, basis_params = settings
            first_view = view_key(points, m, params, strategy, scene.window, None, GRID_RESOLUTION, basis, basis_params)
            view = (first_view, scene.window, None, GRID_RESOLUTION)
            pool.submit(key, (points.X, points.y, *settings), waiter, view=view)


def _session_id():
    return streamlit_private.session_id()


def _keep_in_session(key, result, limit=3, store=STOPPED_FITS):
    """A result this session alone sees (stopped by the visitor, or too large to share)."""
    kept = widget_values().setdefault(store, {})
    kept[key] = result
    while len(kept) > limit:
        kept.pop(next(iter(kept)))


def _request_stop(key):
    visitor().setdefault(STOP_REQUESTS, set()).add(key)


def _stop_pending(button_key):
    """Whether a press of the Stop button ``button_key`` waits to be run.

    A press inside a fragment does not interrupt the run in progress (Streamlit queues fragment
    reruns), so the wait loop looks at the queued request itself. Reads a private part of
    Streamlit's script requests; without it only the page's own Stop (top right) stops a fit.
    """
    states = streamlit_private.queued_widget_states()
    if states is None:
        return False
    suffix = f"-{button_key}"
    return any(
        w.id.endswith(suffix) and w.WhichOneof("value") == "trigger_value" and w.trigger_value for w in states.widgets
    )


def _describe(method, multiclass, basis, basis_params, n_points):
    """What the progress box says is being fitted, in the session's language."""
    name = _(MODELS[method].display_name) if method in MODELS else method
    strategy = {"ovr": N_("one-versus-rest"), "ovo": N_("one-versus-one")}.get(multiclass)
    if strategy:
        name = _("{method} ({strategy})").format(method=name, strategy=_(strategy))
    if basis == "identity" or basis not in BASES:
        return _("Fitting {method} to {n:,} points").format(method=name, n=n_points)
    basis_name = _(BASES[basis].display_name)
    degree = dict(basis_params).get("degree")
    if degree:
        return _("Fitting {method} with {basis} of degree {degree} to {n:,} points").format(
            method=name, basis=basis_name, degree=degree, n=n_points
        )
    return _("Fitting {method} with {basis} to {n:,} points").format(method=name, basis=basis_name, n=n_points)


def _fit_in_worker(pool, key, payload, view=None):
    """Hand the fit to a worker process and wait for it, showing its progress and a Stop button.

    Every wait renews the task's lease; when this run ends early (a rerun, the page closed), the
    lease lapses and the worker stops, unless another visitor waits for the same scene. Stop (this
    box's button, or the page's own) shows the state the fit has reached, to this visitor only.
    """
    waiter = _session_id()
    task = pool.submit(key, payload, waiter, view=view)
    what = _describe(payload[2], payload[4], payload[5], payload[6], len(payload[1]))
    # One key per wait (a run may wait for the same scene twice when the first wait was cut short).
    serial = visitor().get("fit_wait_serial", 0) + 1
    visitor()["fit_wait_serial"] = serial
    button_key = f"stop_fit_{serial}"
    box = st.empty()
    with box.container(border=True):
        bar = st.progress(0.0, text=f"{what}…")
        st.button(
            _("Stop"),
            key=button_key,
            on_click=_request_stop,
            args=(key,),
            help=_("Stop the fit and show how far it got."),
        )
    stopping = False
    try:
        while not task.wait(0.2, waiter):
            if not stopping and (key in visitor().get(STOP_REQUESTS, ()) or _stop_pending(button_key)):
                stopping = True
                if task.others_waiting(waiter):
                    task.leave(waiter)
                    box.empty()
                    return None, Message(
                        N_("You stopped waiting for this fit; it goes on for others who opened the same scene.")
                    )
                pool.cancel(task)
            # Each update is a point where a rerun or a closed page ends this wait.
            bar.progress(*_progress_text(pool, task, what, stopping, waiter))
    except streamlit_private.StopException:  # the page's Stop, or the page closed: keep what the fit reached
        if not task.others_waiting(waiter):
            pool.cancel(task)
            if task.wait(1.0, waiter) and task.result is not None:
                _keep_in_session(key, task.result)
        raise
    finally:
        task.leave(waiter)
    box.empty()
    visitor().get(STOP_REQUESTS, set()).discard(key)
    if task.failure:
        if task.stopped == "cancelled":
            return None, Message(N_("The fit was stopped before it could return a result."))
        raise RuntimeError(f"The fit failed in its worker process: {task.failure}")
    if task.result is None:
        return None, Message(N_("The fit was stopped before it started."))
    if task.stopped == "cancelled" or task.result_bytes > LARGEST_SHARED * CACHE_BYTES:
        _keep_in_session(key, task.result)
    return task.result


def _progress_text(pool, task, what, stopping, waiter=None):
    """(value in [0, 1], text) for the progress bar; a visitor waiting for a fit another visitor
    started (the same scene, one task for both) is told so."""
    value, text = _progress(pool, task, what, stopping)
    if task.owner is not None and task.owner != waiter and not stopping:
        text += " " + _("This page waits for the same fit, started by another visitor who opened this scene.")
    return value, text


def _progress(pool, task, what, stopping):
    if task.started is None:
        ahead = pool.position(task)
        if ahead:
            waiting = ngettext(
                "{what}: waiting for a free worker ({n} fit ahead)…",
                "{what}: waiting for a free worker ({n} fits ahead)…",
                ahead,
            )
        else:
            waiting = _("{what}: waiting for a free worker (next in line)…")
        return 0.0, waiting.format(what=what, n=ahead)
    elapsed, fraction, label = task.progress
    if stopping:
        return fraction or 0.0, _("{what}: stopping…").format(what=what)
    if label:  # which sub-problem (a Message from the worker, phrased here)
        what = _("{what}, {part}").format(what=what, part=phrased(label))  # Markdown: the bar renders it
    return fraction or 0.0, _("{what}: {elapsed:.1f} s of at most {limit:g} s…").format(
        what=what, elapsed=elapsed, limit=FIT_SECONDS
    )


def scene_model(scene: Scene) -> Any:
    """The fitted model of a scene (fitted to its training points alone), or None (the error is
    reported by ``scene_view``)."""
    scene = scene.training
    if len(scene.points) == 0:
        return None
    return fitted_model(scene.points, scene.method, scene.params, scene.multiclass, scene.basis, scene.basis_params)[0]


def scene_view(scene: Scene) -> FitView:
    """``fit_view`` for a scene: everything the canvas and the status line draw. The fit sees the
    training points alone: ``predicted`` and ``accuracy`` are those of the training points."""
    if len(scene.points) and not len(scene.training.points):
        n = len(scene.points)
        return FitView(
            error=Message(
                N_(
                    "All {n:,} points are test points, and no fit uses a test point: make them training points "
                    "(sidebar: Train / test split ▸ All training), switch some with 'switch train ↔ test', or add "
                    "training points."
                ),
                n=n,
            )
        )
    scene = scene.training
    return fit_view(
        scene.points,
        scene.method,
        scene.params,
        scene.multiclass,
        scene.window,
        scene.step,
        basis=scene.basis,
        basis_params=scene.basis_params,
    )


def fit_view(
    points: PointSet,
    method: str,
    params: tuple,
    multiclass: str | None,
    window: Window,
    step: int | None = None,
    resolution: int = GRID_RESOLUTION,
    basis: str = "identity",
    basis_params: tuple = (),
) -> FitView:
    """Fit (or replay to ``step``), then evaluate on the points and on a resolution^2 grid (cached)."""
    key = view_key(points, method, params, multiclass, window, step, resolution, basis, basis_params)
    cache = result_cache()
    view = cache.get(key)
    if view is MISSING:
        view = visitor().get(SESSION_VIEWS, {}).get(key, MISSING)
    if view is MISSING:
        view = _fit_view(key, points, method, params, multiclass, window, step, resolution, basis, basis_params)
    return view


def _fit_view(this_view, points, method, params, multiclass, window, step, resolution, basis, basis_params):
    """The view under the key ``this_view``, fitting first if need be. A view of a shared fit is
    evaluated once however many sessions ask at once (``ResultCache.compute_once``) and cached; a
    view of a fit only this session has (stopped, or too large to share) is kept in the session."""
    cache = result_cache()
    if len(points) == 0:
        view = FitView(
            error=Message(N_("There are no points yet: click on the plot to add some, or generate clusters."))
        )
        cache.put(this_view, view, approx_bytes(view))
        return view
    result = fitted_model(
        points, method, params, multiclass, basis, basis_params, view=(this_view, window, step, resolution)
    )
    view = cache.get(this_view)  # evaluated by the worker that fitted it
    if view is not MISSING:
        return view

    def evaluate() -> tuple[FitView, int]:
        view = evaluate_view(result, points.X, points.y, window, step, resolution)
        return view, approx_bytes(view)

    if cache.get(fit_key(points, method, params, multiclass, basis, basis_params)) is MISSING:
        view = evaluate()[0]
        _keep_in_session(this_view, view, store=SESSION_VIEWS)
        return view
    return cache.compute_once(this_view, evaluate)[0]


def window_for(points: PointSet, fallback: Window | None = None) -> Window:
    """A view window framing the points (or the fallback / default when there are none)."""
    if len(points) == 0:
        return fallback or Window()
    return Window.around(points.X)
