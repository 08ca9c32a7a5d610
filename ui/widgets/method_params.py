"""Hyper-parameter widgets, generated for every method from its settings' kinds (``method_widgets``):
each draws widgets and returns a dict of constructor arguments (hashable values only: they become
part of the scene). A choice is a select slider (a radio where the card names its options), an int a
slider (or a number input), a bool a checkbox, priors a checkbox and a slider per class, a vector a
number input per entry (the initial weights: one text input, as the book writes w), a float with
both bounds a slider; the method's
card (``ui.methods``) gives the labels, help texts, drawing order, session keys and the special
cases (a checkbox in front of a setting: the SVM's hard margin, naive Bayes's thresholds).

Every widget takes its range, options and default from ``playground.specs``, the table the link
and file readers check values against, so a value a link may carry is always one a widget can
show; its session key comes from the method's card, as ``ui.session.widget_keys`` has it. ``widget_state(method, params,
present_classes)`` is the inverse: the session-state values that make the widgets return
``params`` (used when a link, a preset or a file loads a scene), with a sentence for every value
the widgets cannot show; it lives in ``ui.session.widget_values``, below the widgets, and is
imported here for the widgets' callers.
"""

import math
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import streamlit as st

from playground.specs import PRIOR_STEP, Spec
from ui.base.visitor import visitor, widget_values
from ui.methods import Control, MethodPage, card_of
from ui.session.widget_keys import Widget
from ui.session.widget_values import widget_state  # noqa: F401  (the widgets' inverse, for their callers)
from ui.text.convention import backend_w_init
from ui.text.i18n import _
from ui.text.names import class_label_markdown


def widget_default(key: str, value: Any) -> Any:
    """The widget's default, or None when a loaded scene already put a value under ``key``
    (Streamlit warns when a widget gets both)."""
    return None if key in widget_values() else value


def translated(kwargs: dict[str, Any]) -> dict[str, Any]:
    """``kwargs`` with its help text (English marked with N_) translated."""
    return {**kwargs, "help": _(kwargs["help"])} if kwargs.get("help") else kwargs


def _translated(label, kwargs):
    """The widget helpers take English text marked with N_ (label, help) and show it translated."""
    if kwargs.get("help"):
        kwargs["help"] = _(kwargs["help"])
    return _(label)


def select_slider(widget: Widget, label: str, **kwargs: Any) -> Any:
    """A select slider over ``spec.options``."""
    label = _translated(label, kwargs)
    spec, key = widget
    return st.select_slider(label, spec.options, widget_default(key, spec.default), key=key, **kwargs)


def int_slider(widget: Widget, label: str, **kwargs: Any) -> Any:
    label = _translated(label, kwargs)
    spec, key = widget
    return st.slider(label, spec.low, spec.high, widget_default(key, spec.default), key=key, **kwargs)


def int_input(widget: Widget, label: str, container: Any = st, **kwargs: Any) -> Any:
    label = _translated(label, kwargs)
    spec, key = widget
    return container.number_input(label, spec.low, spec.high, widget_default(key, spec.default), key=key, **kwargs)


def radio(widget: Widget, label: str, labels: Mapping[Any, str], **kwargs: Any) -> Any:
    """A radio over ``spec.options`` showing ``labels[option]`` (English marked with N_, shown translated)."""
    label = _translated(label, kwargs)
    options = list(widget.spec.options)
    return st.radio(label, options, format_func=lambda option: _(labels[option]), key=widget.key, **kwargs)


def _parse_weights(text, spec):
    """'w0, w1, w2' -> tuple of floats, or None with a warning when it does not parse.

    Accepts what people paste from notes: a true minus sign and brackets, "(5, −6, 1)".
    """
    text = text.replace("−", "-").strip().strip("()[]")
    if not text.strip():
        return None
    try:
        values = tuple(float(v) for v in text.replace(";", ",").split(","))
    except ValueError:
        st.warning(_("Initial weights must be numbers separated by commas, e.g. 5, -6, 1."))
        return None
    if len(values) != spec.size:
        st.warning(
            _("Give {size} initial weights [w0, w1, w2] (bias first); got {count}.").format(
                size=spec.size, count=len(values)
            )
        )
        return None
    # A side without a bound (None) is unbounded, as the spec's own check reads it (playground.specs).
    low = -math.inf if spec.low is None else spec.low
    high = math.inf if spec.high is None else spec.high
    if not all(low <= v <= high for v in values):  # also NaN and infinity (the spec bounds both sides)
        st.warning(_("Initial weights must be finite numbers within ±{limit}.").format(limit=f"{high:,.0f}"))
        return None
    return values


def _priors(prefix, present_classes):
    """Prior sliders p(C_k) for the classes present, or None for the maximum-likelihood N_k/N."""
    if len(present_classes) < 2 or not st.checkbox(
        _("Set the priors p(Cₖ) by hand"),
        key=f"{prefix}_set_priors",
        help=_("Changing the priors shifts the boundary (section 4.2); by default they are Nₖ/N."),
    ):
        return None
    # No default when a value is already in session state (e.g. carried over by the shared /
    # separate covariance toggle), which Streamlit would otherwise warn about.
    values = [
        st.slider(
            f"p({class_label_markdown(k)})",
            PRIOR_STEP,
            1.0,
            widget_default(f"{prefix}_prior_{k}", 1.0 / len(present_classes)),
            PRIOR_STEP,
            key=f"{prefix}_prior_{k}",
        )
        for k in present_classes
    ]
    total = sum(values)
    st.caption(_("Normalised: {values}").format(values=", ".join(f"{v / total:.2f}" for v in values)))
    return tuple(round(v / total, 6) for v in values)


def initial_weights(widget: Widget, present_classes: Sequence[int]) -> tuple[float, ...] | None:
    """The initial weights w₀, w₁, w₂ as the book writes them (y(x) = w₀ + w₁x₁ + w₂x₂ >= 0 assigns
    C₁, the first class present); returns the back-end's ``w_init`` (``ui.text.convention``) or None."""
    text = st.text_input(
        _("Initial weights w₀, w₁, w₂ (blank = zeros)"),
        key=widget.key,
        help=_(
            "As the book writes w: y(x) = w₀ + w₁x₁ + w₂x₂ ≥ 0 assigns C₁, the first class present (the lowest "
            "class number), and w points into its region. E.g. the lecture notes' 5, −6, 1. Input plane only (no "
            "basis functions)."
        ),
    )
    w_init = _parse_weights(text, widget.spec)
    if w_init is None:
        return None
    # The basis picker is drawn below; its session value is the basis this run will fit on.
    basis = visitor().get("basis", getattr(visitor().get("scene"), "basis", "identity"))
    if basis != "identity":
        st.caption(_("Initial weights are for the input plane (no basis functions): this fit starts from zero."))
        return None
    if len(present_classes) > 2:
        st.caption(_("For two classes; with more, every two-class sub-classifier starts from these weights."))
    return backend_w_init(w_init)


def _vector_inputs(widget: Widget, label: str) -> tuple[float, ...]:
    """A number input per entry, side by side (``{key}1``, ``{key}2``, ...), ``label`` formatted with
    the entry's subscript (the Bernoulli thresholds: "x₁ threshold")."""
    spec, key = widget
    columns = st.columns(spec.size or 0)
    return tuple(
        float(
            column.number_input(
                _(label).format(index=SUBSCRIPTS[i + 1]),
                spec.low,
                spec.high,
                widget_default(f"{key}{i + 1}", 0.0),
                step=0.1,
                key=f"{key}{i + 1}",
            )
        )
        for i, column in enumerate(columns)
    )


SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"
# A spec's ``otherwise`` when it has none: the setting is absent while its condition does not hold.
ABSENT = next(field.default for field in fields(Spec) if field.name == "otherwise")
_OMITTED = object()  # a setting left out of the parameters (``Spec.omit_none``: None means not set)


def _setting(method: str, widget: Widget, control: Control, present_classes: Sequence[int]) -> Any:
    """Draw the widget of one setting, the one its kind gives as ``control`` shapes it; its value."""
    spec, key = widget
    label = control.label or spec.name
    extra = {"help": control.help} if control.help else {}
    if control.many_classes and len(present_classes) > 2:
        st.caption(_(control.many_classes))
        return spec.default
    if control.toggle:
        toggle = control.toggle
        checked = st.checkbox(_(toggle.label), key=toggle.key, help=_(toggle.help) if toggle.help else None)
        if checked == toggle.checked_means_none:
            return _OMITTED if spec.omit_none else None
    if spec.kind == "priors":
        return _priors(key, present_classes)
    if spec.kind == "vector":
        return initial_weights(widget, present_classes) if control.book_weights else _vector_inputs(widget, label)
    if spec.kind == "bool":
        value = bool(widget_default(key, spec.default))  # False (the default) when a load set the key
        return st.checkbox(_(label), value, key=key, help=_(control.help) if control.help else None)
    if spec.kind == "int":
        return int((int_input if control.number_input else int_slider)(widget, label, **extra))
    if spec.kind == "float" and spec.low is not None and spec.high is not None:  # a slider over [low, high]
        default = spec.default if isinstance(spec.default, int | float) else spec.low
        value = widget_default(key, float(default))
        return float(st.slider(_(label), float(spec.low), float(spec.high), value, key=key, **translated(extra)))
    if spec.kind == "choice" and control.labels:
        return radio(widget, label, control.labels, horizontal=control.horizontal, **extra)
    if spec.kind == "choice":
        return select_slider(widget, label, **extra)
    raise ValueError(f"no widget for the {spec.kind} setting {spec.name!r} of {method!r}")


def method_widgets(method: str, present_classes: Sequence[int]) -> dict[str, Any]:
    """The method's hyper-parameter widgets, generated from its specs' kinds as its card
    (``ui.methods``) shapes them, drawn in the card's order; returns the constructor arguments in
    the specs' order (a setting whose condition does not hold: its ``otherwise`` value, or absent)."""
    return page_widgets(card_of(method), present_classes)


def page_widgets(card: MethodPage, present_classes: Sequence[int]) -> dict[str, Any]:
    """``method_widgets`` for the method of ``card``."""
    method = card.method
    drawn: dict[str, Any] = {}
    for spec in card.drawing_order():
        if spec.applies(drawn):
            value = _setting(method, Widget(spec, card.widget_key(spec)), card.control(spec), present_classes)
            if value is not _OMITTED:
                drawn[spec.name] = value
    params: dict[str, Any] = {}
    for spec in card.specs:
        if spec.applies(drawn) and spec.name in drawn:
            params[spec.name] = drawn[spec.name]
        elif not spec.applies(drawn) and spec.otherwise is not ABSENT and spec.name not in params:
            params[spec.name] = spec.otherwise
    return params
