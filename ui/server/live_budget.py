"""The live route's budget for a whole answer: an estimate before any work, a deadline between stages.

A live frame is worth drawing only while the pointer is still there. The answer's work is the
fit, the evaluation on the plot's grid, the figure and its encoding; the fit alone can be stopped
from inside (``playground.budget``), the other stages are single array computations that cannot.
So:

- ``work_estimate(scene)`` prices a scene from what the request says, before fitting: the
  training points N, the classes K, the features J of the basis, the sub-problems of the
  multi-class strategy S (one-versus-one K(K-1)/2, one-versus-rest K), the grid G x G:
  N * J^2 per sub-problem's share of the points (a least-squares or Newton solve in phi-space),
  times the Newton steps of an IRLS method, plus G^2 * J * S (the grid's features and every
  sub-model on them): the method card's cost model (``playground.card.CostModel``). A scene over
  ``WORK_LIMIT`` is refused at once with a sentence; on this project's 2-core machine the
  limit is about 0.2 s of work (BENCHMARKS.md, "Edge", has the figures).
- ``StageClock``: a wall-clock deadline for the whole answer (``ANSWER_SECONDS``), checked after
  each stage; past it the answer is refused (the work done is lost, the client is not kept
  waiting for more).
- The encoded answer is at most ``MAX_ANSWER_BYTES``; a larger one is refused the same way.

A refusal says the scene is too heavy to follow live: the canvas then updates on release.
"""

import time
from collections.abc import Callable

from playground import Message
from playground.card import CostModel, fit_shape
from playground.registry import CARD_BY_NAME, fitted_strategy
from playground.scene import Scene
from ui.text.i18n import N_

WORK_LIMIT = 4e7
ANSWER_SECONDS = 0.45  # wall time for the whole answer, from the request's arrival at the route
MAX_ANSWER_BYTES = 1024 * 1024
TOO_HEAVY: Message | str = N_("This scene is too heavy to follow the pointer live; it is updated when you let go.")


def basis_size(scene: Scene, dim: int = 2) -> int:
    """Columns of the design matrix: the basis's features and the bias (``FitShape.columns``)."""
    return fit_shape(0, 0, scene.basis, scene.basis_params, None, dim).columns


def work_estimate(scene: Scene, grid: int) -> float:
    """The scene's work in multiply-adds, roughly (see the module's docstring): its method's cost
    model (``MethodCard.cost``, the one the page's budget reads) on the scene's sizes."""
    training = scene.training.points
    k = max(2, len(set(training.y.tolist())))
    strategy = fitted_strategy(scene.method, scene.multiclass, k)
    card = CARD_BY_NAME.get(scene.method)
    cost = card.cost if card is not None else CostModel()
    return cost.work(fit_shape(len(training), k, scene.basis, scene.basis_params, strategy), grid)


class StageClock:
    """The answer's deadline; ``over()`` after each stage says whether it has passed."""

    def __init__(self, seconds: float = ANSWER_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.deadline = clock() + seconds

    def left(self) -> float:
        return self.deadline - self.clock()

    def over(self) -> bool:
        return self.left() <= 0
