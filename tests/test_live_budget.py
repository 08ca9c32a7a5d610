"""The live route's budget covers the whole answer (ui/server/live_budget.py): a heavy scene is
refused from its estimate before any fit, the deadline is checked between the stages, and an
answer over its size is refused; a light scene is answered."""

import json

import numpy as np
import pytest

from playground.scene import PointSet, Scene
from tests.test_live_route import request
from ui.engine import cache as engine_cache
from ui.engine import fits as engine_fits
from ui.engine.fitview import GRID_RESOLUTION
from ui.server import live_budget, live_route
from ui.server.live_budget import StageClock, basis_size, work_estimate
from ui.server.live_request import Refused
from ui.session.state import default_scene


@pytest.fixture(autouse=True)
def fresh_cache(monkeypatch):
    """A shared cache of each test's own: the live route keeps its fits there, and a scene another
    test fitted would be answered without the stages these tests time."""
    monkeypatch.setattr(engine_cache, "_CACHE", None)


def heavy_scene(n=5_000, k=6, n_centres=100, method="least_squares", multiclass="ovo"):
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(n, 2)) * 2, rng.integers(0, k, size=n)
    return Scene(
        points=PointSet.from_arrays(X, y),
        method=method,
        multiclass=multiclass,
        basis="rbf",
        basis_params=(("n_centres", n_centres),),
    )


def test_the_issues_heavy_scene_is_refused_before_any_fit(monkeypatch):
    fits = []
    monkeypatch.setattr(engine_fits, "fit_scene", lambda *a: fits.append(a))
    with pytest.raises(Refused) as refused:
        live_route.live_answer(request(heavy_scene()))
    assert refused.value.status == 503 and "let go" in str(refused.value.sentence)
    assert fits == []


def test_a_heavy_scenes_edits_are_not_made_before_its_refusal(monkeypatch):
    """A flood of heavy frames costs the server their decoding alone: the estimate of the request's
    scene comes before the edits (a move of 5,000 points is as long as their decoding)."""
    edits = []
    monkeypatch.setattr(live_route, "edited_points", lambda *a: edits.append(a))
    move = {"type": "move", "ids": [0], "dx": 0.1, "dy": 0.0}
    with pytest.raises(Refused) as refused:
        live_route.live_answer(request(heavy_scene(), edits=[move]))
    assert refused.value.status == 503 and edits == []


def test_the_estimate_grows_with_points_classes_basis_and_strategy():
    base = work_estimate(heavy_scene(n=500, k=3, n_centres=9, multiclass="ovr"), GRID_RESOLUTION)
    assert work_estimate(heavy_scene(n=1_000, k=3, n_centres=9, multiclass="ovr"), GRID_RESOLUTION) > base
    assert work_estimate(heavy_scene(n=500, k=6, n_centres=9, multiclass="ovr"), GRID_RESOLUTION) > base
    assert work_estimate(heavy_scene(n=500, k=3, n_centres=100, multiclass="ovr"), GRID_RESOLUTION) > base
    assert work_estimate(heavy_scene(n=500, k=6, n_centres=9, multiclass="ovo"), GRID_RESOLUTION) > work_estimate(
        heavy_scene(n=500, k=6, n_centres=9, multiclass="ovr"), GRID_RESOLUTION
    )
    assert basis_size(heavy_scene(n_centres=100)) == 101 and basis_size(default_scene()) == 3


def test_the_default_scene_is_well_inside_the_limit():
    assert work_estimate(default_scene(), GRID_RESOLUTION) < live_budget.WORK_LIMIT / 10
    answer = json.loads(live_route.live_answer(request()))
    assert "figure" in answer


def test_the_deadline_is_checked_after_the_fit_and_the_grid(monkeypatch):
    now = [0.0]
    clock = StageClock(0.45, clock=lambda: now[0])
    real = engine_fits.evaluate_view

    def slow_grid(*args):
        now[0] += 1.0  # the grid took a second
        return real(*args)

    monkeypatch.setattr(engine_fits, "evaluate_view", slow_grid)
    with pytest.raises(Refused) as refused:
        live_route.live_answer(request(), clock)
    assert refused.value.status == 503


def test_an_answer_over_its_size_is_refused(monkeypatch):
    monkeypatch.setattr(live_route, "MAX_ANSWER_BYTES", 1_000)
    with pytest.raises(Refused) as refused:
        live_route.live_answer(request())
    assert refused.value.status == 503
