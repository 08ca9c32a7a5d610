"""Why there is no playback with three or more classes, said plainly in a tab of its own.

Rules that hold:

- The tab is there exactly when the method plays its fit step by step with two classes (its card
  is iterative and two-class only: the perceptron, logistic, probit and Bayesian logistic
  regression, the SVM) but the scene's three or more classes make it one-versus-rest or
  one-versus-one: several separate two-class runs, so no single sequence of steps to play. It
  names the method, the number of classes and of runs, and what to do to watch a run (two
  classes, or softmax regression's K-class run).
"""

import streamlit as st

from playground import MODELS
from playground.registry import CARDS
from ui.text.i18n import N_, _

from . import Panel, PanelContext

# A view of the cards: the methods that play their fit step by step but only with two classes.
ITERATIVE_TWO_CLASS = frozenset(card.name for card in CARDS if card.iterative and card.two_class_only)
TITLE = N_("Playback")


def _runs(ctx):
    """The number of two-class runs behind the fit, or 0 when it is one run (or no fit)."""
    estimators = getattr(ctx.model, "estimators_", None)
    return len(estimators) if estimators is not None and len(estimators) > 1 else 0


def _applies(ctx):
    return ctx.scene.method in ITERATIVE_TWO_CLASS and _runs(ctx) > 0


def render(ctx: PanelContext) -> None:
    n_classes = int((ctx.scene.points.counts() > 0).sum())
    strategy = _("one-versus-rest") if ctx.scene.multiclass == "ovr" else _("one-versus-one")
    st.info(
        _(
            "No playback with {n} classes: {method} separates two classes, so here it is trained {strategy}, as "
            "{runs} separate two-class runs, each with its own steps, and there is no single run to play. To "
            "watch a run step by step, keep two classes (erase or undo the others), or pick softmax regression, "
            "whose K-class fit is one run (its Iterations tab plays it)."
        ).format(n=n_classes, method=_(MODELS[ctx.scene.method].display_name), strategy=strategy, runs=_runs(ctx)),
        icon=":material/info:",
    )


PANELS = [
    Panel(
        title=TITLE,
        applies=_applies,
        render=render,
        order=88,  # after the method's own tabs: the first tab stays the one that explains the fit
        help=N_("Why this fit has no step-by-step playback, and how to get one."),
    )
]
