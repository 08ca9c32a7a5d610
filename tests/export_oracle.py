"""The app's answers for a scene in the form the exported notebook prints (its SUMMARY line):
``playground.make_model`` fitted on the scene's training points, in the book's sign
(``ui.text.convention``), for tests/test_export.py."""

import numpy as np

from playground import make_model
from playground.basis import BasisModel, make_basis
from ui.export.cells import settings_of, strategy_of
from ui.text.convention import book_sub_classifiers


def app_model(scene):
    train = scene.points.training
    n_classes = len(set(train.labels))
    basis = None if scene.basis == "identity" else make_basis(scene.basis, **scene.basis_param_dict)
    strategy = strategy_of(scene, n_classes)
    model = make_model(scene.method, multiclass=strategy, basis=basis, **scene.param_dict)
    return model.fit(train.X, train.y), strategy, n_classes


def _book_weights(inner, n_classes):
    """Two classes: [w0, w] with y(x) >= 0 on C1; K classes: one row per class or per sub-model."""
    if getattr(inner, "estimators_", None) is not None and n_classes > 2:
        subs = book_sub_classifiers(inner)
        if any(s.w is None for s in subs):
            return None
        return [np.r_[s.w0, s.w] for s in subs]
    base = inner.estimators_[0] if getattr(inner, "estimators_", None) is not None else inner
    if not getattr(base, "is_linear", False):
        return None
    W = np.column_stack([np.ravel(base.intercept_), np.atleast_2d(base.coef_)])
    return -W[0] if n_classes == 2 else W


def app_summary(scene):
    """(summary, model) as the notebook's SUMMARY has it, from the app's back-end."""
    model, strategy, n_classes = app_model(scene)
    inner = model.estimator_ if isinstance(model, BasisModel) else model
    points = scene.points
    train, test = points.training, points.testing
    predicted = model.predict(train.X) + 1
    predicted_test = model.predict(test.X) + 1 if len(test) else np.zeros(0, dtype=int)
    posteriors = None
    if strategy == "native" and getattr(model, "is_probabilistic", False):
        posteriors = model.predict_proba(train.X)
    return {
        "train_accuracy": float(np.mean(predicted == train.y + 1)),
        "test_accuracy": float(np.mean(predicted_test == test.y + 1)) if len(test) else None,
        "predicted": predicted.tolist(),
        "predicted_test": predicted_test.tolist(),
        "weights": _book_weights(inner, n_classes),
        "posteriors": posteriors,
        "settings": settings_of(scene),
    }, model
