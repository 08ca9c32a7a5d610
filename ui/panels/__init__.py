"""Method-specific panels and canvas overlays, discovered from the modules of this package.

Each module defines ``PANELS``, a list of ``Panel``. A panel applies to some fitted models;
for those, the app adds its ``overlay`` traces to the canvas figure and draws its ``render``
below the canvas. Widgets inside a panel that must change the canvas (a playback step, a
projection angle) write to the scene through ``on_change`` callbacks, which run before the
next script run, so the canvas drawn above already shows their effect.
"""

import functools
import gettext
import html
import importlib
import pkgutil
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeGuard, overload

import streamlit as st
from numpy.typing import ArrayLike

from playground.base import Classifier, FittedClassifier
from playground.grid import Window
from playground.scene import PointSet, Scene
from playground.validation import FloatArray
from ui.base.visitor import widget_values
from ui.methods import card_of
from ui.text.convention import Probabilistic
from ui.text.i18n import active_translations


@dataclass(frozen=True)
class PanelContext:
    """What a panel may read: the scene, the fitted model (or None), the view, the options.

    ``scene`` holds the training points alone: no panel statistic may use a test point. Only a
    panel about test points (the Metrics panel) reads ``all_points``.
    """

    scene: Scene
    model: Classifier | None  # the final fitted estimator, or None when the fit failed
    # The estimator drawn on the canvas (a playback step, or the final fit); None with ``model``.
    shown_model: Classifier | None
    window: Window
    options: dict[str, Any] = field(default_factory=dict)  # the visitor's panel options (ui/base/visitor.py)
    open_tab: str | None = None  # the title of the panel whose tab is open (None: the first)
    all_points: PointSet | None = None  # every point, training and test (``scene`` holds the training points)
    # How the app draws a panel's live section (``live_section``); None: drawn in place.
    live: Callable[[Callable[["PanelContext"], None]], None] | None = None
    # Presentation: the panel's ``drawer`` controls are in the explanation's drawer this run, so
    # its tab leaves them out (one widget per key, one setting).
    controls_in_drawer: bool = False
    # The canvas's plot area in px (width, height) as last measured, or None: where a label fits.
    area: tuple[float, float] | None = None


def gives_posteriors(model: object) -> TypeGuard[Probabilistic]:
    """True for a model with ``predict_proba``. Duck-typed: a strategy or a model on a basis has it
    (a property) only when the method inside gives probabilities, and is no ProbabilisticMixin."""
    return hasattr(model, "predict_proba")


def posteriors(model: FittedClassifier, X: ArrayLike) -> FloatArray:
    """p(C_k|x) at the rows of X, (N, K) in ``classes_`` order, of a model a panel knows gives them."""
    if not gives_posteriors(model):
        raise TypeError(f"{type(model).__name__} gives no posteriors p(C_k|x)")
    return model.predict_proba(X)


def live_section(ctx: PanelContext, function: Callable[[PanelContext], None]) -> None:
    """Draw ``function(ctx)``, the part of a panel that changes with the points (a chart, figures).

    After a click on the canvas, the panels follow it one round trip later; a panel whose other
    elements (its option pickers, buttons, explanations) do not change with the points puts the
    rest in a live section, and the app then reruns that section alone (``ui.page.app``), not the whole
    panel with its tabs: every element Streamlit sends costs the server time, on every click of
    every visitor. ``function`` must be a module-level function: it is called again later, with
    a context built afresh from the session, and reads its pickers' values from the session state.
    """
    if ctx.live is None:
        function(ctx)
    else:
        ctx.live(function)


@dataclass(frozen=True)
class Panel:
    """A named view of a fitted model.

    applies(ctx) -> bool; overlay(ctx) -> list of plotly traces drawn between the regions and
    the points; render(ctx) draws Streamlit elements below the canvas; order sorts panels;
    drawer(ctx) draws its "Try:" controls in the presenter's drawer. A panel with a ``name`` is one
    a method adds: it is shown only for the methods whose cards list that name
    (``ui.methods.MethodPage.panels``), and then where ``applies`` holds.
    """

    title: str
    applies: Callable
    render: Callable | None = None
    overlay: Callable | None = None
    order: int = 100
    help: str = ""
    overlay_while_open: bool = False  # the overlay is drawn only while this panel's tab is open
    # Presentation: draws the controls a figure's "Try:" asks for (with the tab's own keys) in the
    # explanation's drawer, beside the text; the tab then leaves them out (``controls_in_drawer``).
    drawer: Callable | None = None
    name: str = ""
    # Shown while the fit is hidden (``Scene.fit_hidden``, predict first): a panel that tells
    # nothing of the fit. The others wait for the reveal.
    while_fit_hidden: bool = False


def _option_toggled(key, options, option):
    options[option] = bool(widget_values()[key])


def option_checkbox(label: str, ctx: PanelContext, option: str, key: str, default: bool = True) -> bool:
    """A checkbox bound to ``ctx.options[option]`` (which a link carries); returns its value.

    The options, not the widget, hold the value: the widget is re-seeded from them on every run,
    so a loaded link or preset shows its own setting.
    """
    widget_values()[key] = bool(ctx.options.get(option, default))
    return st.checkbox(label, key=key, on_change=_option_toggled, args=(key, ctx.options, option))


_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def subscript(number: int) -> str:
    """'₁₂' for 12: point and class numbers written as the book writes x₁, C₂."""
    return str(int(number)).translate(_SUBSCRIPTS)


def number_text(value: float, digits: int = 4) -> str:
    """A number as a person reads it: ``digits`` significant digits and a true minus sign."""
    text = f"{float(value):.{digits}g}"
    return "0" if text in ("0", "-0") else text.replace("-", "−")


def vector_text(values: Iterable[float], digits: int = 4) -> str:
    """'(5, −6, 3)': a vector written out in full."""
    return "(" + ", ".join(number_text(v, digits) for v in values) + ")"


def figures_row(figures: Iterable[tuple[str, str, str | None]]) -> None:
    """A row of figures, each a big number under its label, like ``st.metric`` (``ui.page.app``'s
    styles), as one element: a panel that redraws its figures after every click sends one element
    instead of a row and three metrics (every element costs the server time, on every click).

    ``figures``: (label, value, help or None) triples of plain text; help shows on hover.
    """
    cells = []
    for label, value, help_text in figures:
        hint = ""
        if help_text:
            said = _attribute(help_text)
            hint = f' <span class="pg-figure-help" title="{said}" aria-label="{said}">?</span>'
        cells.append(
            f'<div class="pg-figure"><div class="pg-figure-label">{_text(label)}{hint}</div>'
            f'<div class="pg-figure-value">{_text(value)}</div></div>'
        )
    st.markdown(f'<div class="pg-figures" role="group">{"".join(cells)}</div>', unsafe_allow_html=True)


def _text(value):
    """Plain text inside the row's HTML: a block of HTML is not read as Markdown, so escaping the
    HTML is enough (and a dollar sign, lest it ever be read as math)."""
    return html.escape(str(value), quote=False).replace("$", "&#36;")


def _attribute(value):
    return _text(value).replace('"', "&quot;").replace("'", "&#39;")


def join_sentences(*sentences: str) -> str:
    """Whole translated sentences run together as a paragraph: a space after an English one,
    none after a Japanese or Chinese one (their full stop 。 already ends it)."""
    text = ""
    for sentence in sentences:
        if not sentence:
            continue
        wide = bool(text) and unicodedata.east_asian_width(text[-1]) in "WF"
        text += ("" if not text or wide else " ") + sentence
    return text


def count_axis(largest: int, title: str | None = None, *, most_ticks: int = 6, **extra: Any) -> dict[str, Any]:
    """A plotly axis for whole numbers (counts, steps, epochs) up to ``largest``: ticks only at
    integers, at most about ``most_ticks`` of them (1, 2, 5, 10, 20, 50, ... apart)."""
    largest = max(int(largest), 1)
    step, decade = 1, 1
    while largest / step > most_ticks:
        for multiple in (1, 2, 5):
            step = multiple * decade
            if largest / step <= most_ticks:
                break
        else:
            decade *= 10
            step = decade
    axis = dict(tick0=0, dtick=step, tickformat="d", **extra)
    if title is not None:
        axis["title"] = dict(text=title)
    return axis


# The 3-D scene fills the figure; its camera (surface_scene) keeps the labels inside it.
SURFACE_MARGIN = dict(l=0, r=0, t=10, b=10)


def surface_scene(window: Window, z_axis: dict[str, Any]) -> dict[str, Any]:
    """The 3-D scene of a surface over the view (least squares' outputs, the posteriors): x and y
    to scale with the longer side 1.3 and the height 0.75, seen from the lower right. Small enough
    that the box, its ticks and titles fit a half-width column (about 450 px) without clipping."""
    width, height = window.x_max - window.x_min, window.y_max - window.y_min
    longest = max(width, height)
    # A short side gets fewer ticks, so its labels do not run into each other.
    ticks = [max(3, round(6 * side / longest)) for side in (width, height)]
    return dict(
        xaxis=dict(title=dict(text="x₁"), nticks=ticks[0]),
        yaxis=dict(title=dict(text="x₂"), nticks=ticks[1]),
        zaxis=dict(nticks=5, **z_axis),
        aspectmode="manual",
        aspectratio=dict(x=1.3 * width / longest, y=1.3 * height / longest, z=0.75),
        camera=dict(eye=dict(x=1.75, y=-2.25, z=1.3), center=dict(x=0, y=0, z=-0.12)),
    )


@functools.cache
def all_panels() -> tuple[Panel, ...]:
    """Every PANELS entry of every module in this package, in ``order``: a tuple of frozen panels,
    the same for every visitor, found once per process (listing the package's modules is file
    system work that every click would otherwise repeat)."""
    panels = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        panels += list(getattr(module, "PANELS", []))
    return tuple(sorted(panels, key=lambda panel: (panel.order, panel.title)))


def active_panels(ctx: PanelContext) -> list[Panel]:
    """The panels that apply to this context; a panel whose test fails is left out, and so is a
    panel a method adds (its ``name``) unless the scene's method's card lists it."""
    if ctx.model is None:
        return []
    added = card_of(ctx.scene.method).panels
    hidden = ctx.scene.fit_hidden
    return [
        panel
        for panel in all_panels()
        if (not panel.name or panel.name in added) and (panel.while_fit_hidden or not hidden) and panel.applies(ctx)
    ]


def is_open(ctx: PanelContext, title: str) -> bool:
    """Whether the panel ``title`` is the open tab (no tab chosen yet: the first that applies)."""
    if ctx.open_tab is not None:
        return ctx.open_tab == title
    shown = [panel.title for panel in active_panels(ctx) if panel.render]
    return bool(shown) and shown[0] == title


def open_tab_signature(open_tab: str | None) -> str | None:
    """What the canvas's overlays depend on of the open tab: its title when that panel draws its
    overlay only while open (the canvas must redraw when it opens or closes), else None."""
    return open_tab if open_tab in {panel.title for panel in all_panels() if panel.overlay_while_open} else None


def tab_label(title: str, translations: gettext.NullTranslations | None = None) -> str:
    """A panel's tab label: its title in the session's language (or in ``translations``')."""
    return (translations or active_translations()).gettext(title)


@overload
def tab_title(label: str, translations: gettext.NullTranslations | None = None) -> str: ...


@overload
def tab_title(label: None, translations: gettext.NullTranslations | None = None) -> None: ...


def tab_title(label: str | None, translations: gettext.NullTranslations | None = None) -> str | None:
    """The panel title (English, as links and the code name panels) of a tab ``label`` shown in the
    session's language (or in ``translations``'); a label no panel has is returned unchanged."""
    if label is None:
        return None
    for panel in all_panels():
        if tab_label(panel.title, translations) == label:
            return panel.title
    return label
