"""Rosenblatt's perceptron (PRML 4.1.7): stochastic gradient descent on the perceptron criterion."""

import copy
import numbers
from typing import NamedTuple, Self, TypedDict

import numpy as np
from numpy.typing import ArrayLike

from .base import LinearClassifier
from .budget import Budget, current_budget
from .card import MethodCard
from .criteria import LineCriterion, LineData
from .errors import ConvergenceError, InvalidDataError, Message, sentences
from .i18n import N_
from .specs import MAX_SEED, PERCEPTRON_ETAS, Spec, w_init_spec
from .validation import FloatArray, add_bias, check_w_init, check_X_y

# Upper bounds a hosted instance accepts: epochs asked for, and updates recorded in one fit.
MAX_EPOCHS = 10_000
MAX_UPDATES = 50_000


class PerceptronStep(TypedDict):
    """One update of ``history_``: its epoch (from 1), the point it visited (a row of X), the
    weights [w0, w1, ..., wD] after it and the training points then misclassified."""

    epoch: int
    index: int
    w: FloatArray
    errors: int


class _Run(NamedTuple):
    """One perceptron run: the last weights, the updates, the mistakes per epoch, whether an epoch
    made none, and whether ``MAX_UPDATES`` or the time budget cut the run."""

    w: FloatArray
    history: list[PerceptronStep]
    errors_per_epoch: list[int]
    converged: bool
    capped: bool


class Perceptron(LineCriterion, LinearClassifier):
    """The perceptron: y(x) = f(w^T phi(x)) with f the sign, phi(x) = (1, x) (eq. 4.52).

    Training visits the points one at a time; a point with t_n w^T phi_n <= 0 (t = +1 for
    ``classes_[1]``, -1 for ``classes_[0]``) moves the weights by w <- w + eta phi_n t_n
    (eq. 4.55), a step of stochastic gradient descent on the perceptron criterion
    E_P(w) = -sum_{n in M} w^T phi_n t_n (eq. 4.54). That test includes a point on the boundary
    (t w^T phi = 0), which is what lets a run start from w = 0. Classifying, and counting the
    errors (``history_``'s "errors"), follow ``predict``, the book's f(a) = +1 for a >= 0:
    w^T phi = 0 gives ``classes_[0]``, the book's C1 (its y(x) = -w^T phi is then >= 0), so at
    w = 0 every point is C1's and the errors are C2's points. Training stops after the first
    epoch without a mistake (then the data are separated) or after ``max_epochs``; on data
    that are not linearly separable it never settles (section 4.1.7) and the last weights are
    kept, with ``fit_message_`` saying so.

    Parameters
    ----------
    eta : float > 0
        Learning rate. With a zero ``w_init`` it only rescales w, so the boundaries are the same.
    w_init : array (D + 1,) or None
        Initial weights [w0, w1, ..., wD], bias first as the book writes them; zeros if None.
    shuffle : bool
        False visits the points in data order every epoch; True visits them in a fresh
        random order each epoch, drawn from ``np.random.default_rng(random_state)``.
    random_state : int
    max_epochs : int
        Number of passes through the data before giving up (at most ``MAX_EPOCHS``).

    Attributes
    ----------
    classes_ : ndarray (2,)
    initial_weights_ : ndarray (D + 1,)
        The weights before the first update.
    weights_ : ndarray (D + 1,)
        Final [w0, w1, ..., wD].
    coef_ : ndarray (1, D)
    intercept_ : ndarray (1,)
    history_ : list of dict
        One entry per update (never the initial state): ``{"epoch": int (1-based),
        "index": int (row of X used), "w": ndarray (D + 1,) after the update,
        "errors": int (training points ``predict`` gets wrong after the update: a point on the
        boundary goes to ``classes_[0]``, the book's C1)}``.
    errors_per_epoch_ : list of int
        Mistakes met (hence updates made) in each epoch; the last is 0 when converged.
    n_iter_ : int
        Number of updates, ``len(history_)``.
    n_epochs_ : int
        Epochs run, including the final clean one.
    converged_ : bool
        True when a full epoch had no mistake.
    fit_message_ : str or None
        None when converged; otherwise why the fit is the last boundary reached.

    Criterion of a line (``criterion_at``): E_P(w) = -sum_{n in M} w^T phi_n t_n (eq. 4.54), M the
    points the fit updates on, t_n w^T phi_n <= 0 (a point on the boundary included, though its
    term is 0: the value does not depend on the tie rule). Each point's share is
    max(0, -t_n w^T phi_n). E_P >= 0, 0 at w = 0 and at every separating line, so on separable
    data the converged fit is a minimum; eta only rescales the run and plays no part.
    """

    step_: int  # set on the copies at_step returns

    display_name = N_("Perceptron")
    book_section = "4.1.7"
    criterion_name = N_("perceptron criterion")
    criterion_equation = "4.54"
    criterion_scale = "unit"  # E_P(s u) = s E_P(u): the unit line's E_P sums the misclassified points' distances

    def __init__(
        self,
        eta: float = 1.0,
        w_init: ArrayLike | None = None,
        shuffle: bool = False,
        random_state: int | None = 0,
        max_epochs: int = 100,
    ) -> None:
        self.eta = eta
        self.w_init = w_init
        self.shuffle = shuffle
        self.random_state = random_state
        self.max_epochs = max_epochs

    def _point_terms(self, data: LineData, A: FloatArray) -> FloatArray:
        """-t_n w^T phi_n for the points in M (t_n w^T phi_n <= 0, the fit's test), 0 for the others."""
        A *= data.t  # the margins t_n w^T phi_n
        np.negative(A, out=A)
        return np.maximum(A, 0.0, out=A)  # -margin where margin <= 0 (0 on the boundary), else 0

    def _check_params(self) -> None:
        if isinstance(self.eta, bool) or not isinstance(self.eta, numbers.Real) or not np.isfinite(self.eta):
            raise InvalidDataError(
                N_("The perceptron's learning rate eta must be a positive number, not {value!r}."), value=self.eta
            )
        if self.eta <= 0:
            raise InvalidDataError(
                N_("The perceptron's learning rate eta must be positive, not {value!r}."), value=self.eta
            )
        epochs = self.max_epochs
        if isinstance(epochs, bool) or not isinstance(epochs, numbers.Integral) or not 1 <= epochs <= MAX_EPOCHS:
            raise InvalidDataError(
                N_("max_epochs must be a whole number from 1 to {limit:,}, not {value!r}."),
                limit=MAX_EPOCHS,
                value=epochs,
            )
        if isinstance(self.random_state, bool) or not isinstance(self.random_state, numbers.Integral):
            raise InvalidDataError(N_("random_state must be a whole number, not {value!r}."), value=self.random_state)

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        self._check_params()
        X, y_index, classes = check_X_y(X, y, max_classes=2, method=N_("The perceptron"))
        n_features = X.shape[1]
        phi = add_bias(X)  # phi_n = (1, x_n): the bias is w0
        t = np.where(y_index == 1, 1.0, -1.0)
        w_init = check_w_init(self.w_init, n_features + 1, N_("The perceptron"))
        w = np.zeros(n_features + 1) if w_init is None else w_init.copy()
        rng = np.random.default_rng(self.random_state)
        eta = float(self.eta)
        budget = current_budget()  # a hosted app bounds the time and the recorded updates

        self.classes_ = classes
        self.n_features_in_ = n_features
        self.initial_weights_ = w.copy()
        run = self._epochs(X, phi, t, w, rng, eta, budget)
        self._set_weights(run.w)
        self.history_ = run.history
        self.errors_per_epoch_ = run.errors_per_epoch
        self.n_iter_ = len(run.history)
        self.n_epochs_ = len(run.errors_per_epoch)
        self.converged_ = run.converged
        self.fit_message_ = self._message(X, run, budget)
        return self

    def _epochs(
        self,
        X: FloatArray,
        phi: FloatArray,
        t: FloatArray,
        w: FloatArray,
        rng: np.random.Generator,
        eta: float,
        budget: Budget,
    ) -> _Run:
        """Epochs of eq. 4.55 from w until one without a mistake, ``max_epochs``, ``MAX_UPDATES``
        recorded updates or the time budget (``_Run``)."""
        n_points = X.shape[0]
        history: list[PerceptronStep] = []
        errors_per_epoch: list[int] = []
        converged, capped = False, False
        with np.errstate(over="ignore", invalid="ignore"):
            for epoch in range(1, self.max_epochs + 1):
                order = rng.permutation(n_points) if self.shuffle else np.arange(n_points)
                margins = t * _scores(X, w)
                mistakes, position = 0, 0
                # Visiting the points in order and skipping the correct ones is the same as
                # jumping to the next misclassified one: found with one vectorised test.
                while True:
                    wrong = np.flatnonzero(~(margins[order[position:]] > 0))
                    if wrong.size == 0:
                        break
                    position += int(wrong[0])
                    n = int(order[position])
                    w = w + eta * t[n] * phi[n]  # eq. 4.55
                    scores = _scores(X, w)
                    margins = t * scores
                    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(margins))):
                        raise ConvergenceError(
                            N_("The coordinates are too large for the perceptron's arithmetic; rescale the points.")
                        )
                    history.append({"epoch": epoch, "index": n, "w": w.copy(), "errors": _errors(scores, t)})
                    mistakes += 1
                    position += 1
                    if len(history) >= MAX_UPDATES or budget.exhausted():
                        capped = True
                        break
                errors_per_epoch.append(mistakes)
                if mistakes == 0:
                    converged = True
                    break
                if capped:
                    break
        return _Run(w, history, errors_per_epoch, converged, capped)

    def _message(self, X: FloatArray, run: _Run, budget: Budget) -> Message | None:
        """None when the perceptron converged, else why it stopped (and, for points far from the
        origin, why it is slow there)."""
        converged, capped, history, errors_per_epoch = run.converged, run.capped, run.history, run.errors_per_epoch
        if converged:
            message = None
        elif budget.stopped:
            message = budget.stop_message(
                Message(
                    N_("{n:,} updates in {epochs} of {limit} epochs"),
                    n=len(history),
                    epochs=len(errors_per_epoch),
                    limit=self.max_epochs,
                )
            )
        elif capped:
            message = Message(
                N_(
                    "The perceptron stopped after {n:,} updates without converging: the classes may "
                    "not be linearly separable (section 4.1.7); the fit is the last boundary it reached."
                ),
                n=MAX_UPDATES,
            )
        else:
            message = Message(
                N_(
                    "The perceptron did not converge in {n} epochs: the classes may not be linearly separable "
                    "(section 4.1.7), or it needs more epochs; the fit is the last boundary it reached."
                ),
                n=self.max_epochs,
            )
        if not converged and _far_from_origin(X):
            far = Message(
                N_(
                    "The points lie far from the origin for their spread, and each update moves the bias w0 by "
                    "only eta while it moves w by eta x: the perceptron needs very many updates there (the other "
                    "methods do not mind). Centre the points, or start from a w_init with a suitable bias."
                )
            )
            message = sentences([message, far])
        return message

    def _set_weights(self, w: FloatArray) -> None:
        """``weights_`` and, as views of it, ``coef_`` and ``intercept_``: one set of weights.
        ``decision_function`` computes X @ coef_[0] + intercept_[0], the same arithmetic as
        training, so "converged" means every training point has t y(x) > 0 here too, even at
        round-off scale."""
        self.weights_ = w
        self.coef_ = w[None, 1:]
        self.intercept_ = w[:1]

    def weights_at(self, step: int) -> FloatArray:
        """The weights [w0, w1, ..., wD] after ``step`` updates (0 gives ``initial_weights_``),
        so the ui can replay the run without refitting."""
        self._check_fitted()
        if isinstance(step, bool) or not isinstance(step, numbers.Integral) or not 0 <= int(step) <= self.n_iter_:
            raise InvalidDataError(
                N_("The step must be a whole number from 0 to {largest}, not {value!r}."),
                largest=self.n_iter_,
                value=step,
            )
        return self.initial_weights_.copy() if step == 0 else self.history_[step - 1]["w"].copy()

    def at_step(self, step: int) -> Self:
        """A copy of the fitted perceptron whose ``weights_``, ``coef_`` and ``intercept_`` are those
        after ``step`` updates (0: the initial weights), for playback (figure 4.7).

        Everything else (``history_``, ``errors_per_epoch_``, ...) is the full run's; ``step_``
        records the step shown.
        """
        weights = self.weights_at(step)
        replay = copy.copy(self)
        replay._set_weights(weights)
        replay.step_ = int(step)
        return replay


def _far_from_origin(X: FloatArray) -> bool:
    """Whether the points' mean is more than ten times their largest standard deviation from 0."""
    spread = float(np.max(np.std(X, axis=0)))
    return float(np.linalg.norm(X.mean(axis=0))) > 10 * spread


def _errors(scores: FloatArray, t: FloatArray) -> int:
    """The training points ``predict`` gets wrong, from the scores w^T phi_n and the targets
    (t = +1 for ``classes_[1]``): predict says ``classes_[1]`` where w^T phi > 0 and ``classes_[0]``
    where w^T phi <= 0 (``Classifier.predict``), which in the book's sign is f(a) = +1, C1, for
    a >= 0 (eq. 4.52-4.53). So a point on the boundary counts as an error of ``classes_[1]`` and
    as correct for ``classes_[0]``, though the update rule visits both (t w^T phi <= 0)."""
    return int(np.count_nonzero((scores > 0) != (t > 0)))


def errors_of(w: ArrayLike, X: ArrayLike, y_index: ArrayLike) -> int:
    """Training errors of the weights [w0, w1, ..., wD] (back-end sign) at the rows of X with labels
    ``y_index`` (0 for ``classes_[0]``, 1 for ``classes_[1]``), as ``predict`` counts them (``_errors``)."""
    w, X = np.asarray(w, dtype=float), np.asarray(X, dtype=float)
    return _errors(_scores(X, w), np.where(np.asarray(y_index) == 1, 1.0, -1.0))


def _scores(X: FloatArray, w: FloatArray) -> FloatArray:
    """w^T phi(x) for every row, with w = [w0, w1, ..., wD] (bias first); the arithmetic of
    ``LinearClassifier.decision_function``."""
    return X @ w[1:] + w[0]


CARD = MethodCard(
    name="perceptron",
    estimator=Perceptron,
    specs=(
        Spec("eta", "choice", 1.0, PERCEPTRON_ETAS),
        Spec("max_epochs", "int", 100, low=1, high=500),
        Spec("shuffle", "bool", False),
        Spec("random_state", "int", 0, low=0, high=MAX_SEED, when=(("shuffle", True),), otherwise=0),
        w_init_spec(),
    ),
    two_class_only=True,
    iterative=True,
)
