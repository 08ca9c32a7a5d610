"""Test points: the sidebar's train / test controls, the fit's labels of the test points
and the status line with training and test accuracy.

A test point is never fitted: ``ui.session.compute`` fits the scene's training points alone
(``Scene.training``), and this module asks the fitted model about the test points afterwards.
"""

import numpy as np
import streamlit as st

from playground.scene import PointSet
from playground.validation import LabelArray
from ui.engine.fitview import (
    FitView,
    test_predictions,  # noqa: F401  (the engine's, for the widgets' callers)
)
from ui.plot.theme import CLASS_COLOURS, SYMBOL_GLYPHS
from ui.session import state
from ui.text.i18n import N_, _
from ui.text.names import class_name, markdown_html_text

CLICK_KEY = state.POINT_SET_MODE_KEY  # what a click on the plot does with points: see CLICK_MODES
CLICK_MODES = {
    "train": N_("add training points"),
    "test": N_("add test points (hollow)"),
    "switch": N_("switch train ↔ test"),
}
SPLIT_FRACTION_KEY = "split_fraction"
SPLIT_SEED_KEY = "split_seed"


def click_mode() -> str:
    """'train', 'test' or 'switch' (see CLICK_MODES)."""
    return state.point_set_mode()


def point_set_picker() -> str:
    """Sidebar: whether a click adds training points, test points, or switches a point's set."""
    mode = st.radio(
        _("Clicks on the plot"),
        list(CLICK_MODES),
        format_func=lambda mode: _(CLICK_MODES[mode]),
        horizontal=True,
        key=CLICK_KEY,
        help=_(
            "Test points (hollow) are never used by the fit: they show how well what was learned from the "
            "training points carries over. In 'switch' mode a click on a point, or a box / lasso selection, "
            "turns training points into test points and back."
        ),
    )
    if mode == "switch":
        st.caption(_("A click on a point (or a box / lasso selection) switches it between training and test."))
    return mode


def split_controls(points: PointSet) -> None:
    """Sidebar expander: hold out a random share of the points, or make every point a training point."""
    with st.expander(_("Train / test split"), expanded=False):
        st.caption(
            _(
                "No fit uses a test point (drawn hollow); the status line and the Metrics panel score the training "
                "and the test points apart."
            )
        )
        fraction = st.slider(
            _("Held out as test points (%)"),
            5,
            state.MAX_HELD_OUT_PERCENT,
            30,
            5,
            key=SPLIT_FRACTION_KEY,
            help=_("Drawn at random within each class, so every class keeps its share."),
        )
        seed = st.number_input(_("Split seed"), min_value=0, max_value=2**31 - 1, value=0, step=1, key=SPLIT_SEED_KEY)
        buttons = st.container(horizontal=True, gap="small")
        buttons.button(
            _("Hold out"),
            key="split_hold_out",
            disabled=not len(points),
            on_click=state.guarded_callback("hold out")(hold_out),
            args=(fraction / 100, int(seed)),
            help=_(
                "Make a random share of all points test points (the rest training points); undo brings the "
                "previous split back."
            ),
        )
        buttons.button(
            _("All training"),
            key="split_all_training",
            disabled=not points.test,
            on_click=state.guarded_callback("make test points training points")(all_training),
            help=_("Make every test point a training point again."),
        )


def hold_out(fraction: float, seed: int) -> None:
    state.change_points(state.scene().points.held_out(fraction, seed))


def all_training() -> None:
    points = state.scene().points
    state.change_points(points.with_test(range(len(points)), False))


def generator_held_out() -> int:
    """Sidebar, in the cluster generator: the percent of the new points held out as test points."""
    return st.slider(
        _("Held out as test points (%)"),
        0,
        state.MAX_HELD_OUT_PERCENT,
        0,
        5,
        key=state.GENERATOR_HELD_OUT_KEY,
        help=_(
            "This share of each generated class becomes test points (hollow), drawn with the seed below; "
            "no fit uses them."
        ),
    )


def status_line(points: PointSet, view: FitView | None = None, test_predicted: LabelArray | None = None) -> str:
    """Counts per class (training, and test points apart), training and test accuracy (markdown)."""
    counts, test_counts = points.training.counts(), points.testing.counts()
    parts = [
        # Only the symbol in the class's colour: as text, orange and sky blue are too pale on white
        # (contrast 2.3:1) and blue too dark on the dark theme; the name reads in the text colour.
        f"<span style='color:{CLASS_COLOURS[k]}'>{SYMBOL_GLYPHS[k]}</span> "
        f"{markdown_html_text(class_name(k))}: {counts[k]}"
        + (" + " + _("{n} test").format(n=test_counts[k]) if test_counts[k] else "")
        for k in range(len(counts))
        if counts[k] or test_counts[k]
    ]
    text = " · ".join(parts) if parts else _("no points")
    if view is not None and view.accuracy is not None:
        wrong = int(np.sum(view.predicted != points.training.y))
        text += " — " + _("training accuracy **{accuracy}**").format(accuracy=f"{view.accuracy:.1%}")
        correct = _("(all training points correct)") if points.test else _("(all points correct)")
        text += " " + (_("({n} misclassified, ringed)").format(n=wrong) if wrong else correct)
    if test_predicted is not None and len(test_predicted):
        truth = points.testing.y
        wrong = int(np.sum(test_predicted != truth))
        text += " · " + _("test accuracy **{accuracy}**").format(accuracy=f"{np.mean(test_predicted == truth):.1%}")
        text += " " + (
            _("({wrong} of {n} test points misclassified)").format(wrong=wrong, n=len(truth))
            if wrong
            else _("(all {n} correct)").format(n=len(truth))
        )
    return text
