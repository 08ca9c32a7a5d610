"""The estimator conventions other projects' test suites assume (issue 14), checked two ways.

1. scikit-learn's own ``check_estimator`` suite, run on each method through a thin adapter
   that only adds scikit-learn's tags (the back-end must not import scikit-learn). Two of its
   checks insist on scikit-learn's own classes (``NotFittedError``, ``DataConversionWarning``)
   and are replaced by equivalents below.
2. The same properties written out for every method: labels of any kind, y as a column, lists
   and float32, sample order, duplicated points, idempotent fits that leave the inputs alone.
"""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.utils._tags import ClassifierTags, TransformerTags
from sklearn.utils.estimator_checks import check_estimator

from playground import MODELS, BasisModel, NotFittedError, OneVsOne, OneVsRest, PolynomialBasis, make_model
from tests.conftest import clusters, two_class_only

TWO_CLASS_ONLY = {name for name in MODELS if two_class_only(name)}
#: Checks that need scikit-learn's own exception or warning classes; see the tests below.
SKLEARN_CLASSES_ONLY = {"check_estimators_unfitted", "check_supervised_y_2d"}


def _adapter(cls):
    """``cls`` with scikit-learn's tags (a module-level class, so that it pickles)."""
    bases = (ClassifierMixin, cls, BaseEstimator)
    if hasattr(cls, "transform"):
        bases = (ClassifierMixin, TransformerMixin, cls, BaseEstimator)

    def tags(self):
        tags = BaseEstimator.__sklearn_tags__(self)
        tags.estimator_type = "classifier"
        tags.classifier_tags = ClassifierTags()
        tags.input_tags.sparse = True  # sparse X is made dense
        if hasattr(cls, "transform"):
            tags.transformer_tags = TransformerTags()
        return tags

    name = f"Adapted{cls.__name__}"
    adapted = type(name, bases, {"__sklearn_tags__": tags, "__module__": __name__, "__qualname__": name})
    globals()[name] = adapted
    return adapted


ADAPTED = {name: _adapter(cls) for name, cls in MODELS.items()}
ADAPTED_OVR, ADAPTED_OVO, ADAPTED_BASIS = _adapter(OneVsRest), _adapter(OneVsOne), _adapter(BasisModel)


def _adapted(name, wrapper=None):
    # The perceptron never settles on scikit-learn's overlapping test data: fewer epochs.
    inner = ADAPTED[name](**({"max_epochs": 10} if name == "perceptron" else {}))
    if wrapper == "basis":
        return ADAPTED_BASIS(ADAPTED_OVR(inner) if name in TWO_CLASS_ONLY else inner, PolynomialBasis(2))
    if wrapper == "ovo":
        return ADAPTED_OVO(inner)
    return ADAPTED_OVR(inner) if name in TWO_CLASS_ONLY else inner


SUITE = [(name, None) for name in MODELS] + [("perceptron", "ovo"), ("svm", "ovo"), ("fisher", "basis")]
SUITE += [("logistic", "basis"), ("gaussian_separate", "basis")]


@pytest.mark.parametrize(("name", "wrapper"), SUITE, ids=[f"{n}-{w or 'plain'}" for n, w in SUITE])
def test_scikit_learns_estimator_checks(name, wrapper):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(_adapted(name, wrapper), on_fail=None)
    failed = {r["check_name"]: str(r["exception"]).splitlines()[0] for r in results if r["status"] == "failed"}
    assert len(results) > 40
    assert set(failed) <= SKLEARN_CLASSES_ONLY, {k: v for k, v in failed.items() if k not in SKLEARN_CLASSES_ONLY}


# -- scikit-learn's two class-bound checks, in our terms ---------------------------------------


@pytest.mark.parametrize("name", list(MODELS))
def test_an_unfitted_model_says_so(name):
    model = make_model(name, multiclass="ovr" if name in TWO_CLASS_ONLY else "native")
    for method in ("decision_function", "predict", "predict_proba", "predict_log_proba"):
        if hasattr(model, method):
            with pytest.raises(NotFittedError, match="not been fitted yet") as caught:
                getattr(model, method)(np.zeros((2, 2)))
            assert isinstance(caught.value, ValueError) and isinstance(caught.value, AttributeError)


@pytest.mark.parametrize("name", list(MODELS))
def test_labels_as_a_column_are_labels(name):
    X, y = clusters(2, 20, seed=3)
    flat = make_model(name).fit(X, y)
    column = make_model(name).fit(X, y[:, None])
    np.testing.assert_array_equal(column.predict(X), flat.predict(X))
    np.testing.assert_allclose(column.decision_function(X), flat.decision_function(X))


# -- labels of any kind -------------------------------------------------------------------------------

LABELS = {
    "negative": np.array([-7, 2, 40]),
    "large": np.array([-(2**40), 3, 2**50]),
    "unsigned": np.array([0, 1, 255], dtype=np.uint8),
    "whole floats": np.array([1.0, 2.0, 3.0]),
    "text": np.array(["setosa", "versicolor", "virginica"]),
    "objects": np.array([3, 1, 2], dtype=object),
}


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("kind", list(LABELS))
def test_labels_of_any_kind_give_the_same_model(name, kind):
    X, y = clusters(3, 15, seed=4)
    strategy = "ovr" if name in TWO_CLASS_ONLY else "native"
    labels = LABELS[kind]
    base = make_model(name, multiclass=strategy).fit(X, y)
    relabelled = make_model(name, multiclass=strategy).fit(X, labels[y])
    order = np.argsort(labels)  # classes_ are sorted: map the base's class indices the same way
    np.testing.assert_array_equal(relabelled.classes_, np.sort(labels))
    rank = np.empty(3, dtype=int)
    rank[order] = np.arange(3)
    np.testing.assert_array_equal(relabelled.predict(X), labels[base.predict(X)])
    if base.is_probabilistic:
        np.testing.assert_allclose(relabelled.predict_proba(X)[:, rank], base.predict_proba(X), atol=1e-9)


def test_two_labels_of_any_kind_for_the_two_class_methods():
    X, y = clusters(2, 20, seed=6)
    for labels in ([True, False], [-1, 1], np.array([0, 200], dtype=np.uint8), ["no", "yes"]):
        labels = np.asarray(labels)
        for name in TWO_CLASS_ONLY:
            model = make_model(name).fit(X, labels[y])
            assert set(model.predict(X)) <= set(labels.tolist())
            assert model.classes_[1] == np.sort(labels)[1]  # the positive class is classes_[1]


def test_mixed_or_continuous_labels_get_a_sentence():
    X, _ = clusters(2, 3)
    for labels, message in (
        (np.array([1, "a", 2, "b", 1, "a"], dtype=object), "not a mixture"),
        (np.linspace(0, 1, 6), "continuous"),
        (None, "target y is None"),
        (np.array([1 + 1j] * 6), "whole numbers or text"),
    ):
        with pytest.raises(ValueError, match=message):
            make_model("least_squares").fit(X, labels)


# -- inputs of any form --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(MODELS))
def test_lists_float32_and_integers_are_numbers(name):
    X, y = clusters(2, 20, seed=8)
    X = np.round(X * 64) / 64  # exact in float32
    base = make_model(name).fit(X, y)
    for other in (X.tolist(), X.astype(np.float32), X.astype(object)):
        model = make_model(name).fit(other, y.tolist())
        np.testing.assert_array_equal(model.predict(other), base.predict(X))
    integer = np.round(X * 4).astype(np.int32)
    model = make_model(name).fit(integer, y)
    np.testing.assert_array_equal(
        model.predict(integer), make_model(name).fit(integer.astype(float), y).predict(integer)
    )


@pytest.mark.parametrize("name", list(MODELS))
def test_fit_is_idempotent_and_leaves_the_inputs_alone(name):
    X, y = clusters(2, 25, seed=9)
    X_before, y_before = X.copy(), y.copy()
    model = make_model(name)
    first = model.fit(X, y).decision_function(X)
    second = model.fit(X, y).decision_function(X)
    np.testing.assert_array_equal(first, second)
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)
    before = {k: v for k, v in vars(model).items()}
    model.predict(X)
    if model.is_probabilistic:
        model.predict_proba(X)
    assert vars(model).keys() == before.keys()  # predicting adds nothing to the model
    again = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(again.decision_function(X), first)


ORDER_FREE = [name for name in MODELS if name not in ("perceptron", "svm")]


@pytest.mark.parametrize("name", ORDER_FREE)
def test_the_order_of_the_points_does_not_matter(name):
    """Every closed form and every maximum-likelihood fit is a function of the set of points.
    (The perceptron's run follows the order by definition; SMO's path can, its optimum not.)"""
    X, y = clusters(3, 20, seed=10, spread=(2.0, 1.5))
    strategy = "ovr" if name in TWO_CLASS_ONLY else "native"
    order = np.random.default_rng(0).permutation(len(y))
    base = make_model(name, multiclass=strategy).fit(X, y)
    shuffled = make_model(name, multiclass=strategy).fit(X[order], y[order])
    np.testing.assert_allclose(shuffled.decision_function(X), base.decision_function(X), rtol=1e-6, atol=1e-8)


def test_the_svm_optimum_does_not_depend_on_the_order():
    X, y = clusters(2, 30, seed=11, spread=(2.0, 1.5))
    order = np.random.default_rng(1).permutation(len(y))
    base = make_model("svm", tol=1e-8).fit(X, y)
    shuffled = make_model("svm", tol=1e-8).fit(X[order], y[order])
    np.testing.assert_allclose(shuffled.coef_, base.coef_, rtol=1e-4, atol=1e-6)
    assert shuffled.dual_objective_ == pytest.approx(base.dual_objective_, rel=1e-6)


@pytest.mark.parametrize("name", ["least_squares", "fisher", "gaussian_shared", "gaussian_separate", "naive_bayes"])
def test_duplicating_every_point_changes_nothing(name):
    """Closed forms depend on the points through averages (or ratios of sums), so every point
    twice is the same data (logistic regression's likelihood doubles: the same maximum)."""
    X, y = clusters(3, 15, seed=12)
    base = make_model(name).fit(X, y)
    twice = make_model(name).fit(np.vstack([X, X]), np.concatenate([y, y]))
    np.testing.assert_allclose(twice.decision_function(X), base.decision_function(X), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("name", ["logistic", "softmax"])
def test_duplicating_every_point_keeps_the_maximum_likelihood(name):
    X, y = clusters(2, 30, seed=13, spread=(2.0, 1.5))
    base = make_model(name).fit(X, y)
    twice = make_model(name).fit(np.vstack([X, X]), np.concatenate([y, y]))
    assert base.converged_ and twice.converged_
    np.testing.assert_allclose(twice.coef_, base.coef_, rtol=1e-6)
