"""K classes from two-class discriminants (PRML 4.1.2, figure 4.2): one-versus-rest and one-versus-one.

Both strategies leave regions of input space where the two-class answers do not agree on a
single class; ``ambiguous(X)`` computes them so the ui can show them instead of hiding them.
"""

from collections.abc import Callable
from typing import Self, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .base import Classifier, FloatArray, LinearFit, ProbabilisticMixin, argmax_rows, in_blocks, softmax_by_class
from .budget import current_budget
from .errors import Classes, Message, NotAvailableError, PlaygroundError, Relabel, listing, sentences
from .i18n import N_
from .validation import BoolArray, IndexArray, LabelArray, Training, check_X_y

STRATEGIES = ("ovr", "ovo")
_OTHER_CLASSES = Message(N_("the other classes"))  # the "rest" of a one-versus-rest sub-problem


def _versus(first: object, second: object) -> Message:
    """The name of a two-class sub-problem: "class 1 versus class 3"."""
    return Message(N_("{first} versus {second}"), first=Classes(first), second=Classes(second))


def with_strategy(model: Classifier, strategy: str) -> Classifier:
    """Wrap a two-class estimator as ``"ovr"`` (OneVsRest) or ``"ovo"`` (OneVsOne).

    ``"native"`` returns the model unchanged (its own K-class form, eq. 4.9).
    """
    if strategy == "native":
        return model
    if strategy == "ovr":
        return OneVsRest(model)
    if strategy == "ovo":
        return OneVsOne(model)
    raise PlaygroundError(
        N_("Unknown multi-class strategy '{strategy}'; use 'native', 'ovr' or 'ovo'."), strategy=str(strategy)
    )


class _Strategy(Classifier):
    """Shared parts: parameters, fitting the sub-problems, the lines they draw."""

    book_section = "4.1.2"
    _suffix = ""
    _strategy_name: str | None = None  # the strategy's name in a message (N_-marked)
    estimators_: list[Classifier]  # the fitted sub-classifiers (set by fit)

    def __init__(self, estimator: Classifier) -> None:
        self.estimator = estimator  # checked in fit (scikit-learn's rule: __init__ only stores)

    # A wrapper's name and flags are its method's, read-only: properties over Classifier's class
    # attributes (which mypy takes for writeable ones, hence the ignores).
    @property
    def display_name(self) -> str:  # type: ignore[override]
        return f"{getattr(self.estimator, 'display_name', 'a model')} ({self._suffix})"

    @property
    def _method_message(self) -> Message:
        """The display name as a Message, each part translated where it is shown."""
        return Message(
            N_("{method} ({strategy})"),
            method=Message(getattr(self.estimator, "display_name", N_("a model"))),
            strategy=Message(self._strategy_name or self._suffix),
        )

    @property
    def is_linear(self) -> bool:  # type: ignore[override]
        """True when every sub-problem's boundary is a straight line (a linear base model)."""
        return bool(getattr(self.estimator, "is_linear", False))

    def clone(self) -> Self:
        return type(self)(self.estimator.clone())

    def _fit_one(
        self,
        X: FloatArray,
        y: ArrayLike,
        problem: Message,
        mapping: Relabel | None = None,
        part: tuple[int, int] = (0, 1),
    ) -> Classifier:
        """Fit a clone of the estimator on one sub-problem.

        ``problem`` names the sub-problem, a ``Message`` (e.g. "{classes} versus the rest" with
        ``Classes(3)``); ``mapping`` turns the sub-problem's labels into the real classes (or
        into a phrase such as "the other classes") in its messages. An error is raised again
        naming the sub-problem; the fitted model's ``fit_message_`` is kept, mapped, for
        ``fit_message_`` of the whole. ``part`` = (index, count): the sub-problem's share of the
        fit's budget (``playground.budget``).
        """
        mapping = mapping or (lambda label: label)
        model = self.estimator.clone()
        try:
            with current_budget().part(*part, label=problem):
                model.fit(X, y)
        except PlaygroundError as err:
            raise err.relabel(mapping, N_("In the sub-problem {problem}: {message}"), problem=problem) from None
        note = getattr(model, "fit_message_", None)
        if note:
            self._notes.append((problem, Message(note).relabel(mapping)))
        return model

    def _start_fit(self, X: ArrayLike, y: ArrayLike) -> Training:
        if not isinstance(self.estimator, Classifier):
            raise PlaygroundError(N_("A multi-class strategy wraps one of the playground's estimators."))
        X, y_index, classes = check_X_y(X, y, method=self._method_message)
        self.classes_ = classes
        self.n_features_in_ = X.shape[1]
        self._notes: list[tuple[Message, Message]] = []
        return Training(X, y_index, classes)

    def _finish_fit(self, notes: list[tuple[Message, Message]]) -> None:
        """``fit_message_``: the sub-classifiers' notes, each once, after the names of the
        sub-problems it concerns ("class 1 versus the rest and class 3 versus the rest: ...")."""
        groups: dict[
            str, tuple[Message, list[Message]]
        ] = {}  # note text -> (note, [sub-problems]), in order of appearance
        for problem, note in notes:
            groups.setdefault(str(note), (note, []))[1].append(problem)
        self.fit_message_ = sentences(
            Message(N_("{subproblems}: {note}"), subproblems=listing(problems), note=note)
            for note, problems in groups.values()
        )
        del self._notes

    @property
    def coefs_(self) -> FloatArray | None:
        """The sub-classifiers' lines w_m^T x + w_m0 = 0, one row per sub-classifier, shape (M, D);
        None for non-linear models. Gathered from ``estimators_`` on each access (read-only):
        the sub-classifiers' ``coef_`` are the one source."""
        return self._lines()[0]

    @property
    def intercepts_(self) -> FloatArray | None:
        """The matching w_m0, shape (M,); None for non-linear models."""
        return self._lines()[1]

    def _lines(self) -> tuple[FloatArray, FloatArray] | tuple[None, None]:
        self._check_fitted()
        if not (self.is_linear and all(hasattr(e, "coef_") for e in self.estimators_)):
            return None, None
        linear = cast(list[LinearFit], self.estimators_)  # linear, with coef_ (checked just above)
        coefs = np.vstack([np.reshape(e.coef_, (1, -1)) for e in linear])
        intercepts = np.concatenate([np.ravel(e.intercept_) for e in linear])
        coefs.flags.writeable = intercepts.flags.writeable = False
        return coefs, intercepts

    def _binary_decisions(self, X: FloatArray) -> FloatArray:
        """Decision value of each sub-classifier, shape (N, M); positive means its positive class."""
        return np.column_stack([e.decision_function(X) for e in self.estimators_])

    def predict_index(self, X: ArrayLike) -> IndexArray:
        """Index into ``classes_`` of each point's class, shape (N,): the largest decision value
        (one-versus-rest: the largest y_k(x); one-versus-one: most votes, ties by confidence),
        or, when the wrapper gives probabilities, the largest of them."""
        if getattr(self, "is_probabilistic", False):
            return argmax_rows(self.predict_proba(X))  # type: ignore[attr-defined]  # the wrappers' property
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return (scores > 0).astype(np.intp)
        return np.argmax(scores, axis=1)

    def predict(self, X: ArrayLike) -> LabelArray:
        index = self.predict_index(X)
        return self.classes_[index]

    @property
    def fit_messages_(self) -> list[Message]:
        """The sub-classifiers' ``fit_message_`` (None entries dropped)."""
        self._check_fitted()
        return [m for m in (getattr(e, "fit_message_", None) for e in self.estimators_) if m]


def _rest_mapping(label: object, positive: object) -> Relabel:
    """How a one-versus-rest sub-problem's messages name its labels: its positive label is the class
    ``label``, the rest "the other classes"."""
    return lambda sub: label if sub == positive else _OTHER_CLASSES


def _rest_label(classes: LabelArray) -> tuple[int | str, LabelArray]:
    """A label for "the rest" below every class, and the labels the classes keep in their sub-problems.

    Whole numbers (booleans and unsigned included): min - 1, the classes as they are (as int64).
    Text: "" (if no class is ""), the classes as they are. Otherwise (no room below the
    smallest label): 0 for the rest and 1 for the class of each sub-problem.
    """
    if classes.dtype.kind in "iub":
        low = int(classes.min()) - 1
        if low >= np.iinfo(np.int64).min and int(classes.max()) <= np.iinfo(np.int64).max:
            return low, classes.astype(np.int64)
    elif classes.dtype.kind == "U" and classes[0] != "":
        return "", classes
    return 0, np.ones(classes.size, dtype=np.int64)


class OneVsRest(_Strategy):
    """K two-class discriminants, the k-th separating class k from all the others (figure 4.2, left).

    Point x goes to the class whose discriminant y_k(x) is largest (the argmax of the
    decision values, as scikit-learn does). The raw rule "class k where y_k(x) > 0" is
    ambiguous where no classifier or more than one claims the point: ``ambiguous(X)``.
    With exactly two classes it is the plain two-class model.

    Parameters
    ----------
    estimator : Classifier
        Any two-class estimator; cloned per sub-problem (``estimator.clone()``).

    Attributes
    ----------
    classes_ : ndarray (K,)
    estimators_ : list of K fitted estimators (one estimator for two classes)
        The k-th has classes [rest, classes_[k]], its positive class being classes_[k]; the
        "rest" label sorts below every class: min(classes_) - 1 for whole numbers, "" for
        text (labels that leave no room below them: [0, 1]). For two classes: the plain model
        on the labels.
    coefs_ : ndarray (M, D) or None
    intercepts_ : ndarray (M,) or None
        Each sub-classifier's line (M = K, or 1 for two classes); None for non-linear models.
        Read-only, gathered from ``estimators_``.
    fit_message_ : Message or None
        The sub-classifiers' notes (e.g. "did not converge"), each after the name of its
        sub-problem ("class 2 versus the rest: ...").

    With a probabilistic method, ``predict`` is the argmax of ``predict_proba`` (the
    normalised one-versus-rest posteriors), as for every probabilistic model.
    """

    _suffix = "one-versus-rest"
    _strategy_name = N_("one-versus-rest")

    @property
    def is_probabilistic(self) -> bool:  # type: ignore[override]
        return bool(getattr(self.estimator, "is_probabilistic", False))

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        X, y_index, classes = self._start_fit(X, y)
        if classes.size == 2:
            problem = _versus(classes[1], classes[0])
            self.estimators_ = [self._fit_one(X, classes[y_index], problem)]
        else:
            # Sub-problem k: class k against a "rest" label that sorts below every class, so
            # that the sub-classifier's positive class (classes_[1]) is class k itself.
            rest, positives = _rest_label(classes)
            self.estimators_ = [
                self._fit_one(
                    X,
                    np.where(y_index == k, positive, rest),
                    Message(N_("{classes} versus the rest"), classes=Classes(label)),
                    _rest_mapping(label, positive),
                    (k, classes.size),
                )
                for k, (label, positive) in enumerate(zip(classes, positives))
            ]
        self._finish_fit(self._notes)
        return self

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """y_k(x) of each one-versus-rest classifier, shape (N, K); (N,) for two classes."""
        X = self._check_X(X)
        decisions = self._binary_decisions(X)
        return decisions[:, 0] if self.classes_.size == 2 else decisions

    def ambiguous(self, X: ArrayLike) -> BoolArray:
        """True where not exactly one classifier claims the point (y_k(x) > 0), shape (N,).

        Always False for two classes.
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return np.zeros(scores.shape[0], dtype=bool)
        return np.count_nonzero(scores > 0, axis=1) != 1

    # predict_proba and predict_log_proba exist only when the wrapped method gives
    # probabilities, so that hasattr() tells the truth (as scikit-learn's available_if).
    @property
    def predict_proba(self) -> Callable[[ArrayLike], FloatArray]:
        """p(C_k | x) from the K one-versus-rest posteriors, normalised to sum to 1, (N, K)."""
        self._require_probabilities()
        return lambda X: in_blocks(
            lambda block: self._posterior(block, log=False), self._check_X(X), self.classes_.size
        )

    @property
    def predict_log_proba(self) -> Callable[[ArrayLike], FloatArray]:
        """Each classifier's log p(class k | x) against the rest, renormalised over k, (N, K)."""
        self._require_probabilities()
        return lambda X: in_blocks(lambda block: self._posterior(block, log=True), self._check_X(X), self.classes_.size)

    def _require_probabilities(self) -> None:
        if not self.is_probabilistic:
            name = getattr(self.estimator, "display_name", N_("This method"))
            raise NotAvailableError(N_("{method} does not give probabilities."), method=Message(name))

    def _probabilistic_estimators(self) -> list[ProbabilisticMixin]:
        """``estimators_``, which give probabilities whenever this wrapper's posteriors are asked for."""
        return cast(list[ProbabilisticMixin], self.estimators_)

    def _posterior(self, X: FloatArray, log: bool) -> FloatArray:
        if self.classes_.size == 2:
            return self._probabilistic_estimators()[0]._posterior(X, log=log)
        if not log:
            return self._renormalised(X)
        # Renormalised in the log domain: far from the data every p(class k | x) may underflow.
        positive = np.array([e._posterior(X, log=True)[:, 1] for e in self._probabilistic_estimators()])
        return softmax_by_class(positive, log=log, overwrite=True)

    def _renormalised(self, X: FloatArray) -> FloatArray:
        """p_k(x) / sum_j p_j(x) from the sub-classifiers' posteriors p_k(x) of their own class,
        (N, K), the transpose of a (K, N) array.

        Each p_k keeps its relative precision (a sigmoid or Phi is never formed as 1 - something),
        so where they are all normal numbers the quotient does too, without the logarithms and
        exponentials of the log domain. Points where one of them is below the smallest normal
        number (far from the data, where they may all underflow) take the log-domain route.
        """
        positive = np.empty((self.classes_.size, X.shape[0]))
        for row, estimator in zip(positive, self._probabilistic_estimators()):
            row[...] = estimator._posterior(X, log=False)[:, 1]
        smallest = positive[0].copy()
        for row in positive[1:]:
            np.minimum(smallest, row, out=smallest)
        total = positive[0].copy()
        for row in positive[1:]:
            total += row
        with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0 where all underflow: replaced below
            positive /= total
        far = np.flatnonzero(~(smallest >= np.finfo(float).tiny))  # NaN included
        if far.size:
            logs = np.array([e._posterior(X[far], log=True)[:, 1] for e in self._probabilistic_estimators()])
            positive[:, far] = softmax_by_class(logs, overwrite=True).T
        return positive.T


class OneVsOne(_Strategy):
    """K(K-1)/2 two-class discriminants, one per pair of classes, and a majority vote (figure 4.2, right).

    Ties in the vote are broken by the summed confidences, as scikit-learn's
    ``OneVsOneClassifier`` does: the decision value of class k is its number of votes plus
    s_k / (3 (|s_k| + 1)), where s_k adds up the pairwise decision values in favour of k; the
    added term lies in (-1/3, 1/3), so it never overturns a vote. ``ambiguous(X)`` marks the
    points where the vote itself ties. With exactly two classes it is the plain two-class model.

    Parameters
    ----------
    estimator : Classifier
        Any two-class estimator; cloned per pair (``estimator.clone()``).

    Attributes
    ----------
    classes_ : ndarray (K,)
    pairs_ : ndarray (M, 2) of int
        Class indices (i, j), i < j, of each sub-problem; ``classes_[pairs_]`` gives labels.
    estimators_ : list of M fitted estimators
        The m-th is fitted on the points of classes i and j only; its positive class is j.
    coefs_ : ndarray (M, D) or None
    intercepts_ : ndarray (M,) or None
        Each pairwise line; None for non-linear models. Read-only, gathered from ``estimators_``.
    fit_message_ : Message or None
        The sub-classifiers' notes, each after the name of its pair ("class 1 versus class 3: ...").
    """

    _suffix = "one-versus-one"
    _strategy_name = N_("one-versus-one")

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        X, y_index, classes = self._start_fit(X, y)
        labels = classes[y_index]
        pairs = [(i, j) for i in range(classes.size) for j in range(i + 1, classes.size)]
        self.pairs_ = np.array(pairs, dtype=np.intp).reshape(-1, 2)
        estimators: list[Classifier] = []
        for m, (i, j) in enumerate(pairs):
            rows = (y_index == i) | (y_index == j)
            problem = _versus(classes[i], classes[j])
            estimators.append(self._fit_one(X[rows], labels[rows], problem, part=(m, len(pairs))))
        self.estimators_ = estimators
        self._finish_fit(self._notes)
        return self

    def votes(self, X: ArrayLike) -> NDArray[np.int64]:
        """Number of pairwise contests each class wins, shape (N, K) of int."""
        X = self._check_X(X)
        return self._votes(self._binary_decisions(X))

    def _votes(self, decisions: FloatArray) -> NDArray[np.int64]:
        winners = np.where(decisions > 0, self.pairs_[:, 1], self.pairs_[:, 0])  # (N, M)
        counts = np.zeros((decisions.shape[0], self.classes_.size), dtype=np.int64)
        rows = np.repeat(np.arange(decisions.shape[0]), decisions.shape[1])
        np.add.at(counts, (rows, winners.ravel()), 1)
        return counts

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """Votes plus the normalised summed confidence, shape (N, K); (N,) for two classes."""
        X = self._check_X(X)
        decisions = self._binary_decisions(X)
        if self.classes_.size == 2:
            return decisions[:, 0]
        confidence = np.zeros((decisions.shape[0], self.classes_.size))
        np.add.at(confidence.T, self.pairs_[:, 1], decisions.T)
        np.subtract.at(confidence.T, self.pairs_[:, 0], decisions.T)
        return self._votes(decisions) + confidence / (3 * (np.abs(confidence) + 1))

    def ambiguous(self, X: ArrayLike) -> BoolArray:
        """True where the largest vote count is shared by two or more classes, shape (N,).

        Always False for two classes.
        """
        X = self._check_X(X)
        if self.classes_.size == 2:
            return np.zeros(X.shape[0], dtype=bool)
        counts = self._votes(self._binary_decisions(X))
        return np.count_nonzero(counts == counts.max(axis=1, keepdims=True), axis=1) > 1
