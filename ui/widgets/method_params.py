"""Hyper-parameter widgets, one function per method: each draws widgets and returns a dict of
constructor arguments (hashable values only: they become part of the scene).

Every widget takes its range, options and default from ``playground.specs``, the table the link
and file readers check values against, so a value a link may carry is always one a widget can
show; its session key comes from ``ui.session.widget_keys``. ``widget_state(method, params,
present_classes)`` is the inverse: the session-state values that make the widgets return
``params`` (used when a link, a preset or a file loads a scene), with a sentence for every value
the widgets cannot show; it lives in ``ui.session.widget_values``, below the widgets, and is
imported here for the widgets' callers.
"""

import math
from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from playground.specs import (
    PRIOR_STEP,
)
from ui.base.visitor import visitor, widget_values
from ui.session.widget_keys import HARD_MARGIN_KEY, THRESHOLDS_KEY, Widget, method_widget
from ui.session.widget_values import widget_state  # noqa: F401  (the widgets' inverse, for their callers)
from ui.text.convention import backend_w_init
from ui.text.i18n import N_, _
from ui.text.names import class_label_markdown


def widget_default(key: str, value: Any) -> Any:
    """The widget's default, or None when a loaded scene already put a value under ``key``
    (Streamlit warns when a widget gets both)."""
    return None if key in widget_values() else value


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


def _parse_weights(text, size):
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
    if len(values) != size:
        st.warning(
            _("Give {size} initial weights [w0, w1, w2] (bias first); got {count}.").format(
                size=size, count=len(values)
            )
        )
        return None
    spec = method_widget("perceptron", "w_init").spec
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


def initial_weights(method: str, present_classes: Sequence[int]) -> tuple[float, ...] | None:
    """The initial weights w₀, w₁, w₂ as the book writes them (y(x) = w₀ + w₁x₁ + w₂x₂ >= 0 assigns
    C₁, the first class present); returns the back-end's ``w_init`` (``ui.text.convention``) or None."""
    text = st.text_input(
        _("Initial weights w₀, w₁, w₂ (blank = zeros)"),
        key=method_widget(method, "w_init").key,
        help=_(
            "As the book writes w: y(x) = w₀ + w₁x₁ + w₂x₂ ≥ 0 assigns C₁, the first class present (the lowest "
            "class number), and w points into its region. E.g. the lecture notes' 5, −6, 1. Input plane only (no "
            "basis functions)."
        ),
    )
    w_init = _parse_weights(text, 3)
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


def least_squares(present_classes: Sequence[int]) -> dict[str, Any]:
    if len(present_classes) > 2:
        # Section 4.1.5's targets exist for two classes only: not offered with more.
        st.caption(_("Targets: 1-of-K (eq. 4.15). The N/N₁, −N/N₂ targets of section 4.1.5 need two classes."))
        return {"targets": "one_of_k"}
    targets = radio(
        method_widget("least_squares", "targets"),
        N_("Targets"),
        {"one_of_k": N_("1-of-K (eq. 4.15)"), "fisher": N_("N/N₁ for C₁, −N/N₂ for C₂ (§4.1.5)")},
        horizontal=True,
        help=N_("With the Fisher targets the weight vector is parallel to Fisher's discriminant."),
    )
    return {"targets": targets}


def fisher(present_classes: Sequence[int]) -> dict[str, Any]:
    threshold = radio(
        method_widget("fisher", "threshold"),
        N_("Threshold on the projection"),
        {"midpoint": N_("midpoint of projected means"), "gaussian": N_("1-D Gaussians with priors")},
        help=N_("Fisher's criterion gives only a direction; the threshold y0 is a separate choice (section 4.1.4)."),
    )
    return {"threshold": threshold}


def perceptron(present_classes: Sequence[int]) -> dict[str, Any]:
    # Where the run starts first: the worked examples' "Try:" asks for it, and in presentation these
    # settings are drawn under a long text in the drawer, where the first one is the one on screen.
    w_init = initial_weights("perceptron", present_classes)
    eta = select_slider(method_widget("perceptron", "eta"), N_("Learning rate η"))
    max_epochs = int_slider(method_widget("perceptron", "max_epochs"), N_("Maximum epochs"))
    shuffle = st.checkbox(_("Visit the points in a shuffled order"), key=method_widget("perceptron", "shuffle").key)
    seed = (
        int_input(method_widget("perceptron", "random_state", {"shuffle": True}), N_("Shuffle seed")) if shuffle else 0
    )
    return {"eta": eta, "max_epochs": max_epochs, "shuffle": shuffle, "random_state": int(seed), "w_init": w_init}


def _gaussian(method):
    def widgets(present_classes: Sequence[int]) -> dict[str, Any]:
        return {"priors": _priors(method_widget(method, "priors").key, present_classes)}

    return widgets


def naive_bayes(present_classes: Sequence[int]) -> dict[str, Any]:
    variant = radio(
        method_widget("naive_bayes", "variant"),
        N_("Features"),
        {"gaussian": N_("Gaussian (diagonal covariances)"), "bernoulli": N_("binary, by thresholds (eq. 4.81)")},
    )
    params = {"variant": variant, "priors": _priors(method_widget("naive_bayes", "priors").key, present_classes)}
    if variant == "bernoulli":
        spec, key = method_widget("naive_bayes", "thresholds")
        if st.checkbox(_("Set the thresholds by hand (default: the data mean)"), key=THRESHOLDS_KEY):
            left, right = st.columns(2)
            params["thresholds"] = tuple(
                float(
                    column.number_input(
                        _("x{index} threshold").format(index="₁₂"[i]),
                        spec.low,
                        spec.high,
                        widget_default(f"{key}{i + 1}", 0.0),
                        step=0.1,
                        key=f"{key}{i + 1}",
                    )
                )
                for i, column in enumerate((left, right))
            )
    return params


def _logistic(method):
    def widgets(present_classes: Sequence[int]) -> dict[str, Any]:
        # Where the run starts first (logistic regression's; see perceptron above).
        w_init = initial_weights(method, present_classes) if method == "logistic" else None
        solver = radio(
            method_widget(method, "solver"),
            N_("Solver"),
            {"irls": N_("IRLS / Newton-Raphson (eq. 4.99)"), "gd": N_("gradient descent")},
            horizontal=True,
        )
        chosen = {"solver": solver}
        params = {
            "solver": solver,
            "max_iter": int_slider(method_widget(method, "max_iter", chosen), N_("Maximum iterations")),
        }
        if solver == "gd":
            params["learning_rate"] = select_slider(method_widget(method, "learning_rate", chosen), N_("Step size"))
        params["l2"] = select_slider(method_widget(method, "l2"), N_("L2 penalty λ (0 = maximum likelihood)"))
        if method == "logistic":
            params["w_init"] = w_init
        return params

    return widgets


def bayesian_logistic(present_classes: Sequence[int]) -> dict[str, Any]:
    alpha = select_slider(
        method_widget("bayesian_logistic", "alpha"),
        N_("Prior precision α (log scale)"),
        help=N_(
            "The prior N(w | 0, α⁻¹I) over every weight, the bias included (eq. 4.140): a larger α pulls w_MAP "
            "towards 0 and narrows the posterior."
        ),
    )
    return {"alpha": alpha}


def svm(present_classes: Sequence[int]) -> dict[str, Any]:
    widget = method_widget("svm", "C")
    hard = st.checkbox(
        _("Hard margin (C = ∞)"), key=HARD_MARGIN_KEY, help=_("Fails with a message when the classes overlap.")
    )
    if hard:
        return {"C": None}
    return {"C": select_slider(widget, N_("C (soft-margin penalty, log scale)"))}


PARAM_WIDGETS = {
    "least_squares": least_squares,
    "fisher": fisher,
    "perceptron": perceptron,
    "gaussian_shared": _gaussian("gaussian_shared"),
    "gaussian_separate": _gaussian("gaussian_separate"),
    "naive_bayes": naive_bayes,
    "logistic": _logistic("logistic"),
    "softmax": _logistic("softmax"),
    "probit": _logistic("probit"),
    "bayesian_logistic": bayesian_logistic,
    "svm": svm,
}
