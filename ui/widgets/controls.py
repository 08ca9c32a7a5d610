"""Sidebar widgets. Each function draws widgets and returns their values; none computes."""

from collections.abc import Callable, Sequence
from typing import Any, Final, NotRequired, TypedDict

import pandas as pd
import streamlit as st

from playground import MODELS, ClusterSpec
from playground.registry import TWO_CLASS_METHODS
from ui.base.visitor import visitor
from ui.plot.theme import SYMBOL_GLYPHS
from ui.text.i18n import N_, _
from ui.text.labels import MULTICLASS_LABELS, method_label, method_section  # noqa: F401  (the words of these widgets)
from ui.text.names import N_CLASSES, class_label_format

from .heldout import generator_held_out
from .method_params import method_widgets

GENERATOR_DEFAULTS = pd.DataFrame(
    {
        "mean x": [-2.0, 2.2, 0.2, 3.0, -3.0, 0.0],
        "mean y": [-1.0, -0.6, 2.6, 3.0, 3.0, -3.5],
        "spread 1": [1.0, 0.9, 1.1, 0.7, 0.7, 0.8],
        "spread 2": [0.6, 0.6, 0.5, 0.7, 0.4, 0.5],
        "angle (deg)": [30.0, -20.0, 0.0, 0.0, 45.0, -45.0],
    },
    index=[f"{SYMBOL_GLYPHS[k]} {k + 1}" for k in range(N_CLASSES)],
)


# The sidebar is narrow: two small tables (means; spreads and rotation) with short column titles
# (the help says what each is), so every column shows without scrolling.
class GeneratorColumn(TypedDict):
    """A generator table's column: its short title, its help (marked for translation), its least value."""

    label: str
    help: str
    min_value: NotRequired[float]


GENERATOR_COLUMNS: Final[dict[str, GeneratorColumn]] = {
    "mean x": {"label": "μ₁", "help": N_("Mean, x₁ coordinate")},
    "mean y": {"label": "μ₂", "help": N_("Mean, x₂ coordinate")},
    "spread 1": {"label": "σ₁", "help": N_("Standard deviation along the cluster's own first axis"), "min_value": 0.0},
    "spread 2": {"label": "σ₂", "help": N_("Standard deviation along the cluster's own second axis"), "min_value": 0.0},
    "angle (deg)": {"label": "θ°", "help": N_("Rotation of the cluster's axes, in degrees"), "min_value": -180.0},
}
GENERATOR_STEPS = {"spread 1": 0.1, "spread 2": 0.1, "angle (deg)": 5.0}
GENERATOR_MAXIMA = {"spread 1": 20.0, "spread 2": 20.0, "angle (deg)": 180.0}
GENERATOR_INDEX_WIDTH, GENERATOR_COLUMN_WIDTH = 40, 52  # pixels: three columns fit the sidebar
GENERATOR_TABLES = (("means", ("mean x", "mean y")), ("shapes", ("spread 1", "spread 2", "angle (deg)")))


def class_picker() -> int:
    """The class that clicks on empty space add; returns its index 0..5."""
    return st.radio(
        _("Class of new points"),
        options=list(range(N_CLASSES)),
        format_func=class_label_format(markdown=True),
        horizontal=True,
        key="active_class",
        help=_("Click empty space on the plot to add a point of this class; click a point to remove it."),
    )


def edit_buttons(
    can_undo: bool,
    can_redo: bool,
    has_points: bool,
    *,
    on_undo: Callable[[], None],
    on_redo: Callable[[], None],
    on_clear: Callable[[], None],
    on_fit_view: Callable[[], None],
) -> None:
    """Undo / redo / clear / fit view; the callbacks run before the next script run."""
    undo_col, redo_col = st.columns(2)
    clear_col, view_col = st.columns(2)
    # Keyed: a button's identity must not change with the language of its label.
    undo_col.button(
        "↶ " + _("Undo"),
        key="undo",
        disabled=not can_undo,
        width="stretch",
        on_click=on_undo,
        help=_("Undo the last change (Ctrl+Z)"),
    )
    redo_col.button(
        "↷ " + _("Redo"),
        key="redo",
        disabled=not can_redo,
        width="stretch",
        on_click=on_redo,
        help=_("Redo (Ctrl+Shift+Z)"),
    )
    clear_col.button(
        "✕ " + _("Clear all"),
        key="clear_all",
        disabled=not has_points,
        width="stretch",
        on_click=on_clear,
        help=_("Remove every point"),
    )
    view_col.button(
        "⤢ " + _("Fit view"),
        key="fit_view",
        disabled=not has_points,
        width="stretch",
        on_click=on_fit_view,
        help=_("Fit the view to the points"),
    )


def cluster_generator() -> tuple[str | None, list[ClusterSpec], int, bool, int]:
    """Gaussian cluster settings; returns (action, specs, n_per_class, shared, seed), action None until pressed."""
    with st.expander(_("Generate Gaussian clusters"), expanded=False):
        n_classes = st.slider(_("Classes"), 1, N_CLASSES, 3, key="gen_classes")
        n_per_class = st.slider(_("Points per class"), 1, 500, 30, key="gen_points")
        tables = [
            st.data_editor(
                GENERATOR_DEFAULTS.iloc[:n_classes][list(columns)],
                key=f"gen_{name}_{n_classes}",
                width="stretch",
                column_config={
                    "_index": st.column_config.TextColumn("", width=GENERATOR_INDEX_WIDTH),
                    **{
                        column: st.column_config.NumberColumn(
                            label=GENERATOR_COLUMNS[column]["label"],
                            help=_(GENERATOR_COLUMNS[column]["help"]),
                            min_value=GENERATOR_COLUMNS[column].get("min_value"),
                            max_value=GENERATOR_MAXIMA.get(column),
                            step=GENERATOR_STEPS.get(column),
                            width=GENERATOR_COLUMN_WIDTH,
                        )
                        for column in columns
                    },
                },
            )
            for name, columns in GENERATOR_TABLES
        ]
        shared = st.checkbox(
            _("All classes share class 1's covariance"),
            key="gen_shared",
            help=_("The setting of section 4.2.1 in which the Bayes boundary is a straight line."),
        )
        seed = st.number_input(_("Seed"), min_value=0, max_value=2**31 - 1, value=1, step=1, key="gen_seed")
        generator_held_out()  # read by state.generate: the share of each class made test points
        # Side by side where the sidebar is wide enough, else one under the other (never cut short).
        buttons = st.container(horizontal=True, gap="small")
        action = None
        if buttons.button(_("Replace points"), key="generate_replace", type="primary"):
            action = "replace"
        if buttons.button(_("Add to points"), key="generate_add"):
            action = "add"
    # Column by column (the two tables share their rows): joining and iterating over rows with
    # pandas is slow, and this runs on every run of the page.
    columns = {name: table[name].fillna(0.0).tolist() for table in tables for name in table.columns}
    specs = [
        ClusterSpec((mean_x, mean_y), (spread_1, spread_2), angle)
        for mean_x, mean_y, spread_1, spread_2, angle in zip(
            *(columns[name] for name in ("mean x", "mean y", "spread 1", "spread 2", "angle (deg)")), strict=True
        )
    ]
    return action, specs, n_per_class, shared, int(seed)


def method_picker() -> str:
    """The method, from the back-end registry (in its order: the book's); returns its registry name."""
    return st.selectbox(_("Method"), list(MODELS), format_func=method_label, key="method")


def method_params(name: str, present_classes: Sequence[int]) -> dict[str, Any]:
    """The method's hyper-parameter widgets; returns the chosen parameters as a dict."""
    return method_widgets(name, present_classes)


MULTICLASS_KEY: Final = "multiclass"
AUTO_OVR_KEY: Final = "multiclass_auto_ovr"  # set while one-versus-rest stands in for the K-class choice


def _strategy_chosen():
    visitor().pop(AUTO_OVR_KEY, None)  # the person picked a strategy: it is theirs now


def multiclass_picker(method: str, n_classes: int = 0) -> str:
    """How a method handles more than two classes (figure 4.2); returns the strategy name.

    A two-class method (the perceptron, logistic regression, the SVM) facing three or more
    classes has no K-class discriminant: only one-versus-rest and one-versus-one are offered, and
    a K-class choice becomes one-versus-rest, with a caption that says so. When the method or the
    classes allow it again, the K-class choice comes back.
    """
    restricted = method in TWO_CLASS_METHODS and n_classes > 2
    options = ["ovr", "ovo"] if restricted else list(MULTICLASS_LABELS)
    if restricted and visitor().get(MULTICLASS_KEY, "native") == "native":
        visitor()[MULTICLASS_KEY] = "ovr"
        visitor()[AUTO_OVR_KEY] = True
    elif not restricted and visitor().pop(AUTO_OVR_KEY, False):
        visitor()[MULTICLASS_KEY] = "native"
    strategy = st.radio(
        _("With more than two classes"),
        options,
        format_func=lambda strategy: _(MULTICLASS_LABELS[strategy]),
        key=MULTICLASS_KEY,
        on_change=_strategy_chosen,
        help=_(
            "One-versus-rest and one-versus-one combine two-class classifiers and leave ambiguous regions "
            "(figure 4.2); the single K-class discriminant assigns x to the largest yₖ(x)."
        ),
    )
    if restricted:
        if strategy == "ovr":
            caption = _(
                "{method} separates two classes and has no K-class discriminant (eq. 4.9): with these {n} "
                "classes it is trained as one classifier per class against the rest."
            )
        else:
            caption = _(
                "{method} separates two classes and has no K-class discriminant (eq. 4.9): with these {n} "
                "classes it is trained as one classifier per pair."
            )
        st.caption(caption.format(method=_(MODELS[method].display_name), n=n_classes))
    return strategy
