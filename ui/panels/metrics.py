"""Metrics: how well the fit does on its training points and on test points it never saw.

Confusion matrices (true class by rows, predicted class by columns), precision and recall per class
and, for methods that give probabilities, the log loss (the cross-entropy, eq. 4.90 / 4.108), for
the training and the test points apart. The numbers come from ``playground.metrics``; the model is
the one the canvas shows (a playback step, or the final fit).
"""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from numpy.typing import ArrayLike, NDArray

from playground import PlaygroundError
from playground.base import FittedClassifier
from playground.metrics import Scores, score
from playground.scene import PointSet
from playground.validation import FloatArray, LabelArray
from ui.plot.chart import chart
from ui.plot.theme import TEMPLATE
from ui.text.i18n import N_, _, ngettext
from ui.text.names import class_name, phrased

from . import Panel, PanelContext, number_text, posteriors, subscript

TITLE = N_("Metrics")
MATRIX_HEIGHT = 300
OVERFIT_GAP = 0.15  # training accuracy this far above test accuracy is called over-fitting


def applies(ctx: PanelContext) -> bool:
    return ctx.shown_model is not None


def predictions(model: FittedClassifier, points: PointSet) -> tuple[LabelArray, FloatArray | None]:
    """(predicted labels, probabilities or None) of ``model`` on ``points``."""
    if not len(points):
        return np.zeros(0, dtype=int), None
    predicted = np.asarray(model.predict(points.X)).astype(int)
    proba = None
    if callable(getattr(model, "predict_proba", None)):
        try:
            proba = np.asarray(posteriors(model, points.X), dtype=np.float64)
        except (PlaygroundError, AttributeError, NotImplementedError):
            proba = None
    return predicted, proba


def scores(model: FittedClassifier, points: PointSet, labels: ArrayLike) -> Scores:
    """The ``playground.metrics.Scores`` of ``model`` on ``points`` over the classes ``labels``."""
    predicted, proba = predictions(model, points)
    return score(points.y, predicted, labels, proba, np.asarray(model.classes_))


def counted_classes(model: FittedClassifier, *point_sets: PointSet) -> NDArray[np.int_]:
    """The classes a matrix shows: those the model knows and those of the points, sorted."""
    labels = {int(c) for c in np.asarray(model.classes_)}
    for points in point_sets:
        labels.update(int(c) for c in np.unique(points.y))
    return np.array(sorted(labels), dtype=int)


def _class(label):
    return class_name(int(label))  # "class k + 1": numbered from 1, as the book counts


def matrix_figure(scores: Scores) -> go.Figure:
    """The confusion matrix as a heatmap with its counts written in: rows true, columns predicted."""
    # The book's C₁, C₂, ...: short enough for six classes in a half-width column at 800 px.
    names = [f"C{subscript(int(label) + 1)}" for label in scores.labels]
    matrix = scores.confusion
    return go.Figure(
        go.Heatmap(
            z=matrix,
            x=names,
            y=names,
            text=matrix.astype(str),
            texttemplate="%{text}",
            textfont=dict(size=15),
            colorscale="Blues",
            zmin=0,
            zmax=max(int(matrix.max()), 1),
            showscale=False,
            hovertemplate=_("true %{y}, predicted %{x}: %{z} points") + "<extra></extra>",
            xgap=2,
            ygap=2,
        ),
        layout=dict(
            template=TEMPLATE,
            height=MATRIX_HEIGHT,
            margin=dict(l=10, r=10, t=10, b=10),
            xaxis=dict(title=dict(text=_("predicted class")), side="top", type="category", fixedrange=True),
            yaxis=dict(title=dict(text=_("true class")), type="category", autorange="reversed", fixedrange=True),
        ),
    )


def _share(value):
    return "—" if value is None or not np.isfinite(value) else f"{value:.1%}"


def class_table(scores: Scores) -> pd.DataFrame:
    """Precision, recall and the number of points of each class (— where undefined)."""
    return pd.DataFrame(
        {
            _("class"): [_class(label) for label in scores.labels],
            _("points"): scores.confusion.sum(axis=1),
            _("precision"): [_share(v) for v in scores.precision],
            _("recall"): [_share(v) for v in scores.recall],
        }
    )


def _column(where, scores, what, key):
    """One side of the panel: the ``what`` ("training" or "test") points' scores."""
    test = what == "test"
    with where:
        if scores.n == 0:
            st.info(
                _(
                    "No test points. Hold some out (sidebar ▸ Train / test split), choose 'add test points' and "
                    "click, or set a held-out share in the cluster generator."
                )
                if test
                else _("No training points."),
                icon="ℹ️",
            )
            return
        count = f"{scores.n:,}"
        if test:
            points = ngettext("{n} test point", "{n} test points", scores.n).format(n=count)
        else:
            points = ngettext("{n} training point", "{n} training points", scores.n).format(n=count)
        metrics = st.container(horizontal=True)
        metrics.metric(
            _("Test accuracy") if test else _("Training accuracy"),
            _share(scores.accuracy),
            help=points,
        )
        if scores.log_loss is not None:
            metrics.metric(
                _("Test log loss") if test else _("Training log loss"),
                number_text(scores.log_loss),
                help=_(
                    "Mean of −ln p(true class | x) over these points (the cross-entropy, eq. 4.90 / 4.108); "
                    "0 is perfect, ln K is a guess."
                ),
            )
        st.markdown(f"**{points}**")
        chart(
            matrix_figure(scores),
            key=f"metrics_{key}",
            config={"displayModeBar": False},
        )
        st.dataframe(class_table(scores), hide_index=True, width="stretch")


def render(ctx: PanelContext) -> None:
    points = ctx.all_points if ctx.all_points is not None else ctx.scene.points
    model = ctx.shown_model
    if model is None:  # the panel applies to a fitted model only
        return
    training, testing = points.training, points.testing
    labels = counted_classes(model, training, testing)
    try:
        train_scores, test_scores = scores(model, training, labels), scores(model, testing, labels)
    except PlaygroundError as err:
        st.warning(_("The fit could not score the points: {reason}").format(reason=phrased(err)))
        return
    if ctx.scene.step is not None:
        st.caption(_("Scores of the fit as shown: playback step {step}.").format(step=ctx.scene.step))
    left, right = st.columns(2)
    _column(left, train_scores, "training", "train")
    _column(right, test_scores, "test", "test")
    training_accuracy, test_accuracy = train_scores.accuracy, test_scores.accuracy  # None only with no points
    if (
        train_scores.n
        and test_scores.n
        and training_accuracy is not None
        and test_accuracy is not None
        and training_accuracy - test_accuracy >= OVERFIT_GAP
    ):
        st.info(
            _(
                "Training accuracy {training}, test accuracy {test}: the fit does much better on the points it "
                "learned from than on new ones. That gap is over-fitting (a simpler model, e.g. a lower degree, or "
                "more training points closes it)."
            ).format(training=_share(train_scores.accuracy), test=_share(test_scores.accuracy)),
            icon=":material/trending_down:",
        )


PANELS = [
    Panel(
        title=TITLE,
        applies=applies,
        render=render,
        order=95,
        help=(
            N_(
                "How well the fit does on the training points it learned from and on test points it never saw "
                "(hollow). Each confusion matrix counts the points of each true class Cₖ (rows) by the class predicted "
                "(columns): the diagonal is right. Precision: of the points predicted as a class, the share that "
                "belong to it; recall: of a class's points, the share found. The log loss, mean −ln p(true class | x), "
                "is shown for the methods that give probabilities. Test scores far below training scores mean "
                "over-fitting."
            )
        ),
    )
]
