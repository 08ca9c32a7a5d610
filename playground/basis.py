"""Fixed basis functions phi(x) (PRML section 4.3.1, figure 4.12).

A basis maps the inputs x (N, D) to features phi(x) (N, M); any method fitted on phi(x)
has a boundary that is straight in phi-space and curved in x-space. No constant feature
phi_0 = 1 is produced: every method adds its own bias.

>>> from playground import LinearSVM
>>> model = with_basis(LinearSVM(), RBFBasis(width=0.8)).fit(X, y)
"""

import copy
from collections.abc import Callable
from itertools import combinations_with_replacement
from math import comb
from typing import Any, Self, TypedDict, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .base import Classifier, FloatArray, LinearFit, Replayable, constructor_params
from .criteria import CriterionTerms, HasCriterion, no_criterion_message
from .errors import InvalidDataError, Message, NotFittedError, PlaygroundError
from .i18n import N_
from .validation import MAX_FEATURES, MAX_MAGNITUDE, BoolArray, IndexArray, LabelArray, check_X, magnitude_text

MAX_DEGREE = 6
MAX_CENTRES = 100
PLACEMENTS = ("grid", "data", "given")


def _is_number(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float, np.integer, np.floating))


def _is_whole(value: object) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


class Basis:
    """A fixed transform phi(x): ``fit(X)`` (where it needs the data), ``transform(X)``.

    Fitted attributes: ``n_features_in_`` (D) and ``n_output_features_`` (M).
    """

    display_name = N_("basis")

    # -- parameters, as Classifier has them --
    # Any values: each basis's parameters have their own types (see Classifier.get_params).
    def get_params(self, deep: bool = True) -> dict[str, Any]:
        return {name: getattr(self, name) for name in constructor_params(type(self))}

    def set_params(self, **params: Any) -> Self:
        valid = set(constructor_params(type(self)))
        for name, value in params.items():
            if name not in valid:
                raise PlaygroundError(
                    N_("{method} has no parameter '{name}'."), method=Message(self.display_name), name=str(name)
                )
            setattr(self, name, value)
        return self

    def clone(self) -> Self:
        return type(self)(**self.get_params())

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    def _check_params(self) -> None:
        """Raise InvalidDataError on a bad hyper-parameter."""

    def _n_outputs(self, dim: int) -> int:
        """M, the number of features phi makes of D = ``dim`` inputs: what each basis defines."""
        raise NotImplementedError

    def _transform(self, X: FloatArray) -> FloatArray:
        """phi(X) of checked inputs (N, D), shape (N, M): what each basis defines."""
        raise NotImplementedError

    def fit(self, X: ArrayLike) -> Self:
        """Validate the parameters and record the input dimension D; returns self."""
        self._check_params()
        X = check_X(X)
        self._fit(X)
        self.n_features_in_ = X.shape[1]
        self.n_output_features_ = self._n_outputs(X.shape[1])
        if self.n_output_features_ > MAX_FEATURES:
            raise InvalidDataError(
                N_("{basis} would make {n:,} features; the limit is {limit:,}."),
                basis=Message(self.display_name),
                n=self.n_output_features_,
                limit=MAX_FEATURES,
            )
        return self

    def fit_transform(self, X: ArrayLike) -> FloatArray:
        return self.fit(X).transform(X)

    def transform(self, X: ArrayLike) -> FloatArray:
        """phi(X), shape (N, M), finite."""
        if not hasattr(self, "n_features_in_"):
            raise NotFittedError(
                N_("{basis} has not been fitted yet: call fit(X) first."), basis=Message(self.display_name)
            )
        X = check_X(X, n_features=self.n_features_in_, model=type(self).__name__)
        features = self._transform(X)
        if not np.all(np.abs(features) <= MAX_MAGNITUDE):  # also catches inf and NaN
            raise InvalidDataError(
                N_(
                    "{basis} makes features beyond ±{limit} (the largest the methods "
                    "accept) on these coordinates; move the points closer to the origin or use a lower degree."
                ),
                basis=Message(self.display_name),
                limit=magnitude_text(MAX_MAGNITUDE),
            )
        return features

    def feature_names(self) -> list[str]:
        """One readable name per feature, e.g. ["x1", "x2", "x1^2", "x1 x2", "x2^2"]."""
        if not hasattr(self, "n_features_in_"):
            raise NotFittedError(
                N_("{basis} has not been fitted yet: call fit(X) first."), basis=Message(self.display_name)
            )
        return self._names()

    def _names(self) -> list[str]:
        """The features' names (``feature_names``): what each basis defines."""
        raise NotImplementedError

    def _fit(self, X: FloatArray) -> None:
        pass


class IdentityBasis(Basis):
    """phi(x) = x: the methods as the book first states them."""

    display_name = N_("No basis (x itself)")

    def __init__(self) -> None:
        pass

    def _n_outputs(self, dim: int) -> int:
        return dim

    def _transform(self, X: FloatArray) -> FloatArray:
        return X.copy()

    def _names(self) -> list[str]:
        return [f"x{d + 1}" for d in range(self.n_features_in_)]


class PolynomialBasis(Basis):
    """All monomials x1^a1 ... xD^aD of total degree 1 to ``degree`` (cross terms included).

    The columns come degree by degree, each in ``itertools.combinations_with_replacement``
    order, as scikit-learn's ``PolynomialFeatures(include_bias=False)`` orders them: for
    D = 2, degree 2 they are x1, x2, x1^2, x1 x2, x2^2. M = C(D + degree, degree) - 1.

    Parameters
    ----------
    degree : int, 1 to 6
    """

    display_name = N_("Polynomial basis")

    def __init__(self, degree: int = 2) -> None:
        self.degree = degree

    def _check_params(self) -> None:
        if not _is_whole(self.degree) or not 1 <= self.degree <= MAX_DEGREE:
            raise InvalidDataError(
                N_("The polynomial degree must be a whole number from 1 to {largest}; got {value!r}."),
                largest=MAX_DEGREE,
                value=self.degree,
            )

    def _n_outputs(self, dim: int) -> int:
        return comb(dim + int(self.degree), int(self.degree)) - 1

    def powers(self) -> NDArray[np.int_]:
        """Exponents of each feature, shape (M, D): feature m is prod_d x_d ** powers[m, d]."""
        dim = self.n_features_in_
        rows: list[NDArray[np.intp]] = []
        for order in range(1, int(self.degree) + 1):
            for combo in combinations_with_replacement(range(dim), order):
                rows.append(np.bincount(combo, minlength=dim))
        return np.array(rows, dtype=int)

    def _transform(self, X: FloatArray) -> FloatArray:
        # Each monomial of order k is a monomial of order k - 1 times one coordinate.
        columns: list[FloatArray] = []
        previous: dict[tuple[int, ...], FloatArray] = {(): np.ones(X.shape[0])}
        with np.errstate(over="ignore", invalid="ignore"):  # transform() reports overflow
            for order in range(1, int(self.degree) + 1):
                current: dict[tuple[int, ...], FloatArray] = {}
                for combo in combinations_with_replacement(range(X.shape[1]), order):
                    current[combo] = previous[combo[:-1]] * X[:, combo[-1]]
                    columns.append(current[combo])
                previous = current
        return np.column_stack(columns)

    def _names(self) -> list[str]:
        names = []
        for row in self.powers():
            parts = [f"x{d + 1}" if p == 1 else f"x{d + 1}^{p}" for d, p in enumerate(row) if p]
            names.append(" ".join(parts))
        return names


class RBFBasis(Basis):
    """Gaussian radial basis functions phi_j(x) = exp(-|x - c_j|^2 / (2 s^2)) (eq. 3.4).

    Parameters
    ----------
    centres : array (J, D) or None
        The centres c_j when ``placement`` is "given" (e.g. clicked on the plot).
    width : float > 0
        s, the same for every centre.
    placement : {"grid", "data", "given"} or None
        "grid": a regular grid over the bounding box of the training points, with
        round(n_centres ** (1/D)) centres per axis (duplicates dropped); "data": n_centres
        distinct training points drawn at random (seeded by ``random_state``); "given":
        ``centres``. None means "given" if centres are passed, else "grid".
    n_centres : int, 1 to 100
    random_state : int
    include_input : bool
        Put x itself before the radial features: phi(x) = (x, phi_1(x), ..., phi_J(x)).

    Attributes
    ----------
    centres_ : ndarray (J, D)
    """

    display_name = N_("Gaussian basis")

    def __init__(
        self,
        centres: ArrayLike | None = None,
        width: float = 1.0,
        placement: str | None = None,
        n_centres: int = 9,
        random_state: int = 0,
        include_input: bool = False,
    ) -> None:
        self.centres = centres
        self.width = width
        self.placement = placement
        self.n_centres = n_centres
        self.random_state = random_state
        self.include_input = include_input

    def _placement(self) -> str:
        if self.placement is None:
            return "given" if self.centres is not None else "grid"
        return self.placement

    def _check_params(self) -> None:
        if self.placement is not None and self.placement not in PLACEMENTS:
            raise InvalidDataError(
                N_("Centre placement must be one of {placements}; got {value!r}."),
                placements=", ".join(PLACEMENTS),
                value=self.placement,
            )
        placement = self._placement()
        if placement == "given" and self.centres is None:
            raise InvalidDataError(N_("Placement 'given' needs centres: click where the basis functions should sit."))
        if placement != "given" and self.centres is not None:
            raise InvalidDataError(
                N_("Centres were given, so the placement must be 'given', not {value!r}."), value=placement
            )
        if not (_is_number(self.width) and np.isfinite(self.width) and self.width > 0):
            raise InvalidDataError(
                N_("The basis-function width s must be a positive number; got {value!r}."), value=self.width
            )
        if placement != "given" and not (_is_whole(self.n_centres) and 1 <= self.n_centres <= MAX_CENTRES):
            raise InvalidDataError(
                N_("The number of centres must be a whole number from 1 to {largest}; got {value!r}."),
                largest=MAX_CENTRES,
                value=self.n_centres,
            )
        if not _is_whole(self.random_state):
            raise InvalidDataError(N_("random_state must be a whole number; got {value!r}."), value=self.random_state)

    def _fit(self, X: FloatArray) -> None:
        placement = self._placement()
        dim = X.shape[1]
        if placement == "given":
            given = self.centres
            assert given is not None  # _check_params refused 'given' without centres
            centres = check_X(given, name=N_("The centres"))
            if centres.shape[1] != dim:
                raise InvalidDataError(
                    N_(
                        "The centres have {n} coordinates but the points have {dim}; "
                        "give each centre as many coordinates as a point."
                    ),
                    n=centres.shape[1],
                    dim=dim,
                )
            if centres.shape[0] > MAX_CENTRES:
                raise InvalidDataError(
                    N_("Too many centres: {n}; the limit is {limit}."), n=centres.shape[0], limit=MAX_CENTRES
                )
        elif placement == "grid":
            per_axis = max(1, int(round(self.n_centres ** (1.0 / dim))))
            low, high = X.min(axis=0), X.max(axis=0)
            if per_axis == 1:
                axes = [np.array([(lo + hi) / 2]) for lo, hi in zip(low, high)]
            else:
                axes = [np.linspace(lo, hi, per_axis) for lo, hi in zip(low, high)]
            mesh = np.meshgrid(*axes, indexing="ij")
            centres = np.unique(np.column_stack([g.ravel() for g in mesh]), axis=0)
            if centres.shape[0] > MAX_CENTRES:
                raise InvalidDataError(
                    N_("Too many centres: {n}; the limit is {limit}."), n=centres.shape[0], limit=MAX_CENTRES
                )
        else:
            distinct = np.unique(X, axis=0)
            rng = np.random.default_rng(self.random_state)
            count = min(int(self.n_centres), distinct.shape[0])
            centres = distinct[np.sort(rng.choice(distinct.shape[0], size=count, replace=False))]
        self.centres_ = np.array(centres, dtype=float)

    def _n_outputs(self, dim: int) -> int:
        return self.centres_.shape[0] + (dim if self.include_input else 0)

    def squared_distances(self, X: FloatArray) -> FloatArray:
        """|x_n - c_j|^2, shape (N, J), summed coordinate by coordinate (no cancellation)."""
        out = np.zeros((X.shape[0], self.centres_.shape[0]))
        for d in range(X.shape[1]):
            out += np.square(X[:, d, None] - self.centres_[None, :, d])
        return out

    def _transform(self, X: FloatArray) -> FloatArray:
        radial = np.exp(-self.squared_distances(X) / (2.0 * float(self.width) ** 2))
        return np.hstack([X, radial]) if self.include_input else radial

    def _names(self) -> list[str]:
        inputs = [f"x{d + 1}" for d in range(self.n_features_in_)] if self.include_input else []
        return inputs + [f"exp(-|x-c{j + 1}|^2/2s^2)" for j in range(self.centres_.shape[0])]


#: Name -> basis class, for the app's basis picker and the scene's serialisation.
BASES: dict[str, type[Basis]] = {"identity": IdentityBasis, "polynomial": PolynomialBasis, "rbf": RBFBasis}


def make_basis(name: str, **params: Any) -> Basis:
    """An unfitted basis by name ("identity", "polynomial", "rbf") and parameters."""
    try:
        cls = BASES[name]
    except KeyError:
        raise PlaygroundError(
            N_("Unknown basis '{name}'. Known bases: {known}."), name=str(name), known=", ".join(BASES)
        ) from None
    try:
        return cls(**params)
    except TypeError as err:
        raise PlaygroundError(
            N_("Bad parameters for {basis}: {error}."), basis=Message(cls.display_name), error=str(err)
        ) from None


class BasisModel(Classifier):
    """A method fitted on phi(x) instead of x: y(x) = inner(phi(x)) (section 4.3.1).

    Parameters
    ----------
    estimator : Classifier
        The unfitted method; a fitted copy is ``estimator_``.
    basis : Basis
        The unfitted transform; a fitted copy is ``basis_``.

    Attributes
    ----------
    classes_ : ndarray (K,)
    n_features_in_ : int
        D, the input dimension (not M).
    basis_, estimator_ :
        Fitted copies; ``estimator_`` works on features (N, M).
    feature_means_ : ndarray (M,)
        Mean of phi(x) over the training points (see ``feature_line``).

    Every other fitted attribute of the inner method (``history_``, ``n_iter_``,
    ``alpha_``, ...) is read through to ``estimator_``: its weights live in phi-space.
    ``coef_`` / ``intercept_`` are only exposed for the identity basis, where they still
    describe a line in x.
    """

    def __init__(self, estimator: Classifier, basis: Basis) -> None:
        self.estimator = estimator
        self.basis = basis

    # A wrapper's name and flags are its parts', read-only: properties over Classifier's class
    # attributes (which mypy takes for writeable ones, hence the ignores).
    @property
    def display_name(self) -> str:  # type: ignore[override]
        return f"{self.estimator.display_name} on {self.basis.display_name.lower()}"

    @property
    def book_section(self) -> str:  # type: ignore[override]
        return self.estimator.book_section

    @property
    def is_probabilistic(self) -> bool:  # type: ignore[override]
        return bool(getattr(self.estimator, "is_probabilistic", False))

    @property
    def is_linear(self) -> bool:  # type: ignore[override]
        return isinstance(self.basis, IdentityBasis) and bool(getattr(self.estimator, "is_linear", False))

    def clone(self) -> Self:
        return type(self)(self.estimator.clone(), self.basis.clone())

    def fit(self, X: ArrayLike, y: ArrayLike) -> Self:
        if not isinstance(self.basis, Basis):
            raise PlaygroundError(N_("The basis must be a basis-function object, not {value!r}."), value=self.basis)
        X = check_X(X)
        basis = self.basis.clone().fit(X)
        features = basis.transform(X)
        estimator = self.estimator.clone().fit(features, y)
        self.basis_ = basis
        self.estimator_ = estimator
        self.feature_means_ = features.mean(axis=0)
        self.classes_ = estimator.classes_
        self.n_features_in_ = X.shape[1]
        return self

    # -- the criterion of a line, in phi-space ---------------------------------------------------
    # What the inner method says of its criterion (``playground.criteria``), read through.
    @property
    def criterion_name(self) -> str:
        return str(getattr(self.estimator, "criterion_name", ""))

    @property
    def criterion_equation(self) -> str:
        return str(getattr(self.estimator, "criterion_equation", ""))

    @property
    def criterion_maximised(self) -> bool:
        return bool(getattr(self.estimator, "criterion_maximised", False))

    @property
    def criterion_has_shares(self) -> bool:
        return bool(getattr(self.estimator, "criterion_has_shares", False))

    @property
    def criterion_defined(self) -> bool:
        return bool(getattr(self.estimator, "criterion_defined", False))

    @property
    def criterion_scale(self) -> str:
        return str(getattr(self.estimator, "criterion_scale", "optimised"))

    def criterion_at(self, X: ArrayLike, y: ArrayLike, W: ArrayLike) -> FloatArray:
        """The inner method's criterion at lines in feature space, w = (w0, w1, ..., wM) with M the
        number of features phi_j(x): the method's ``criterion_at(phi(X), y, W)``. phi is the fitted
        ``basis_`` once fitted, else the basis fitted on X (as ``fit`` would fit it)."""
        features = self._criterion_features(X, W)
        return self._inner_criterion().criterion_at(features, y, W)

    def criterion_terms(self, X: ArrayLike, y: ArrayLike, w: ArrayLike) -> CriterionTerms:
        """Each point's share of the criterion at one line in feature space (see ``criterion_at``)."""
        features = self._criterion_features(X, w)
        return self._inner_criterion().criterion_terms(features, y, w)

    def _inner_criterion(self) -> HasCriterion:
        if not isinstance(self.estimator, HasCriterion):
            raise PlaygroundError(no_criterion_message(self.estimator.display_name))
        return self.estimator

    def _criterion_features(self, X: ArrayLike, W: ArrayLike) -> FloatArray:
        """phi(X) by the fitted basis (or one fitted on X), after checking that W's lines have one
        weight per feature plus the bias (a line in phi-space, not in x)."""
        X = check_X(X, n_features=self.n_features_in_ if "basis_" in self.__dict__ else None)
        basis = self.basis_ if "basis_" in self.__dict__ else self.basis.clone().fit(X)
        n_weights = basis.n_output_features_ + 1
        try:
            shape = np.shape(W)
        except ValueError:  # rows of different lengths
            shape = ()
        if len(shape) not in (1, 2) or shape[-1] != n_weights:
            raise InvalidDataError(
                N_(
                    "On {basis} a line lives in feature space: w must have {n} numbers [w0, w1, ..., w{m}], the "
                    "bias and one weight per feature phi_j(x); got shape {shape}."
                ),
                basis=Message(self.basis.display_name),
                n=n_weights,
                m=n_weights - 1,
                shape=shape,
            )
        return basis.transform(X)

    def features(self, X: ArrayLike) -> FloatArray:
        """phi(X), shape (N, M)."""
        self._check_fitted()
        return self.basis_.transform(check_X(X, n_features=self.n_features_in_, model=type(self).__name__))

    def feature_names(self) -> list[str]:
        self._check_fitted()
        return self.basis_.feature_names()

    def decision_function(self, X: ArrayLike) -> FloatArray:
        """The inner method's decision values at phi(X): (N,) or (N, K)."""
        return self.estimator_.decision_function(self.features(X))

    def predict(self, X: ArrayLike) -> LabelArray:
        return self.estimator_.predict(self.features(X))

    # Present only when the inner method has them, so hasattr() tells the truth.
    # The delegates return what the inner method's ``name`` returns (Any: it depends on the name).
    def _delegate(self, name: str) -> Callable[..., Any]:
        if not hasattr(self.estimator, name):
            raise AttributeError(f"{self.estimator.display_name} has no {name}.")
        return lambda X, *args, **kwargs: getattr(self.estimator_, name)(self.features(X), *args, **kwargs)

    #: Further methods of some inner models (the Bayesian logistic model's): those taking points
    #: first get phi(X); those in weight space pass through. Read by ``__getattr__``.
    _POINT_METHODS = (
        "predict_proba_map",
        "predictive_moments",
        "sample_activations",
        "log_posterior",
        "posterior_along",
    )
    _WEIGHT_METHODS = ("sample_weights", "covariance_ellipse")

    def _weight_space(self, name: str) -> Callable[..., Any]:
        if not hasattr(self.estimator, name):
            raise AttributeError(f"{self.estimator.display_name} has no {name}.")

        def method(*args: Any, **kwargs: Any) -> Any:
            self._check_fitted()
            return getattr(self.estimator_, name)(*args, **kwargs)

        return method

    @property
    def predict_proba(self) -> Callable[[ArrayLike], FloatArray]:
        return self._delegate("predict_proba")

    @property
    def predict_log_proba(self) -> Callable[[ArrayLike], FloatArray]:
        return self._delegate("predict_log_proba")

    @property
    def predict_index(self) -> Callable[[ArrayLike], IndexArray]:
        return self._delegate("predict_index")

    @property
    def ambiguous(self) -> Callable[[ArrayLike], BoolArray]:
        return self._delegate("ambiguous")

    @property
    def at_step(self) -> Callable[[int], "BasisModel"]:
        """Playback, when the inner method has it: ``at_step(step)`` returns a copy whose
        ``estimator_`` is ``estimator_.at_step(step)`` (its weights at that step, in phi-space)."""
        if not hasattr(self.estimator, "at_step"):
            raise AttributeError(f"{self.estimator.display_name} has no playback (at_step).")

        def replay(step: int) -> BasisModel:
            self._check_fitted()
            shown = copy.copy(self)
            # the property checked that the method has playback
            shown.estimator_ = cast(Replayable, self.estimator_).at_step(step)
            return shown

        return replay

    # Any: the fitted attributes of whichever method is inside (history_, alpha_, ...).
    def __getattr__(self, name: str) -> Any:
        # Called only when normal lookup fails: read fitted attributes of the inner method.
        if name in BasisModel._POINT_METHODS:
            return self._delegate(name)
        if name in BasisModel._WEIGHT_METHODS:
            return self._weight_space(name)
        if name.startswith("__") or not name.endswith("_") or name in ("estimator_", "basis_"):
            raise AttributeError(name)
        if name in ("coef_", "intercept_", "coefs_", "intercepts_") and not self.is_linear:
            raise AttributeError(
                f"{name} of a model on a basis lives in feature space; use feature_line() or estimator_.{name}."
            )
        estimator = self.__dict__.get("estimator_")
        if estimator is None:
            raise AttributeError(name)
        return getattr(estimator, name)

    def feature_line(self, i: int = 0, j: int = 1) -> "FeatureLine":
        """The boundary in the plane of features i and j (figure 4.12, right).

        The inner model is linear in phi: y_k = w_k^T phi + w_k0. Holding every other
        feature at its training mean gives y_k = w_ki phi_i + w_kj phi_j + c_k, exact when
        M = 2 (then ``exact`` is True).

        Returns
        -------
        dict with "coef" (1, 2) or (K, 2), "intercept" (1,) or (K,) (ready for
        ``playground.boundary_segments`` in feature coordinates), "features" (i, j),
        "names" of the two features, and "exact".
        """
        self._check_fitted()
        inner = self.estimator_
        if not (getattr(inner, "is_linear", False) and hasattr(inner, "coef_")):
            raise PlaygroundError(
                N_("{method} is not linear in the features, so its boundary is no straight line there."),
                method=Message(inner.display_name),
            )
        n_out = self.feature_means_.size
        if not (_is_whole(i) and _is_whole(j) and 0 <= i < n_out and 0 <= j < n_out and i != j):
            raise InvalidDataError(
                N_("Pick two different features between 0 and {largest}; got {i!r} and {j!r}."),
                largest=n_out - 1,
                i=i,
                j=j,
            )
        linear = cast(LinearFit, inner)  # checked above: linear, with coef_ (and so intercept_)
        coef = np.atleast_2d(np.asarray(linear.coef_, dtype=float))
        intercept = np.asarray(linear.intercept_, dtype=float).reshape(-1)
        others = np.ones(n_out, dtype=bool)
        others[[i, j]] = False
        names = self.basis_.feature_names()
        return FeatureLine(
            coef=coef[:, [i, j]].copy(),
            intercept=intercept + coef[:, others] @ self.feature_means_[others],
            features=(int(i), int(j)),
            names=(names[i], names[j]),
            exact=n_out == 2,
        )


class FeatureLine(TypedDict):
    """The boundary in the plane of two features (``BasisModel.feature_line``)."""

    coef: FloatArray  # (1, 2) or (K, 2)
    intercept: FloatArray  # (1,) or (K,)
    features: tuple[int, int]  # i, j
    names: tuple[str, str]
    exact: bool  # M = 2: no other feature held at its mean


def with_basis(model: Classifier, basis: Basis | str) -> BasisModel:
    """Wrap an unfitted method so it is fitted on phi(x) (``make_model(..., basis=...)``).

    ``basis`` is a Basis object or a name of ``BASES`` (with its default parameters).
    """
    if isinstance(basis, str):
        basis = make_basis(basis)
    if not isinstance(basis, Basis):
        raise PlaygroundError(
            N_("The basis must be a basis-function object or a name in {known}, not {value!r}."),
            known=list(BASES),
            value=basis,
        )
    if not isinstance(model, Classifier):
        raise PlaygroundError(N_("Only playground methods can be put on a basis, not {value!r}."), value=model)
    return BasisModel(model, basis)


# Any in and out: the caller passes any fitted model (the ui: a Classifier or a protocol of one)
# and reads the method-specific attributes of what comes back (coef_, alpha_, history_, ...).
def features_estimator(model: Any) -> Any:
    """The estimator fitted on the features phi(x): a fitted ``BasisModel``'s ``estimator_``, any
    other model (on x itself, or a basis model not fitted yet) the model itself. Read from the
    instance's own attributes: ``BasisModel.__getattr__`` would pass a missing one through."""
    return model.__dict__.get("estimator_", model) if isinstance(model, BasisModel) else model
