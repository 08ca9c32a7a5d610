"""Hyper-parameter widgets, one function per method: each draws widgets and returns a dict of
constructor arguments (hashable values only: they become part of the scene).

``widget_state(method, params, present_classes)`` is the inverse: the session-state values that
make the widgets return ``params`` (used when a link, a preset or a file loads a scene), with a
sentence for every value the widgets cannot show.
"""

import streamlit as st

from .theme import class_label

C_VALUES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)
PERCEPTRON_ETAS = (0.01, 0.1, 0.2, 0.5, 1.0, 2.0)
LOGISTIC_STEP_SIZES = (0.001, 0.01, 0.03, 0.1, 0.3, 1.0)
LOGISTIC_L2 = (0.0, 0.001, 0.01, 0.1, 1.0, 10.0)
PRIOR_ALPHAS = (0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0)


def widget_default(key, value):
    """The widget's default, or None when a loaded scene already put a value under ``key``
    (Streamlit warns when a widget gets both)."""
    return None if key in st.session_state else value


def _parse_weights(text, size):
    """'w0, w1, w2' -> tuple of floats, or None with a warning when it does not parse."""
    if not text.strip():
        return None
    try:
        values = tuple(float(v) for v in text.replace(";", ",").split(","))
    except ValueError:
        st.warning("Initial weights must be numbers separated by commas, e.g. 5, -6, 1.")
        return None
    if len(values) != size:
        st.warning(f"Give {size} initial weights [w0, w1, w2] (bias first); got {len(values)}.")
        return None
    return values


def _priors(prefix, present_classes):
    """Prior sliders p(C_k) for the classes present, or None for the maximum-likelihood N_k/N."""
    if len(present_classes) < 2 or not st.checkbox(
        "Set the priors p(Cₖ) by hand",
        key=f"{prefix}_set_priors",
        help="Changing the priors shifts the boundary (section 4.2); by default they are Nₖ/N.",
    ):
        return None
    # No default when a value is already in session state (e.g. carried over by the shared /
    # separate covariance toggle), which Streamlit would otherwise warn about.
    values = [
        st.slider(
            f"p({class_label(k)})",
            0.01,
            1.0,
            None if f"{prefix}_prior_{k}" in st.session_state else 1.0 / len(present_classes),
            0.01,
            key=f"{prefix}_prior_{k}",
        )
        for k in present_classes
    ]
    total = sum(values)
    st.caption("Normalised: " + ", ".join(f"{v / total:.2f}" for v in values))
    return tuple(round(v / total, 6) for v in values)


def least_squares(present_classes):
    targets = st.radio(
        "Targets",
        ["one_of_k", "fisher"],
        format_func={"one_of_k": "1-of-K (eq. 4.15)", "fisher": "N/N₁, −N/N₂ (§4.1.5, two classes)"}.get,
        key="ls_targets",
        horizontal=True,
        help="With the Fisher targets the weight vector is parallel to Fisher's discriminant.",
    )
    return {"targets": targets}


def fisher(present_classes):
    threshold = st.radio(
        "Threshold on the projection",
        ["midpoint", "gaussian"],
        format_func={"midpoint": "midpoint of projected means", "gaussian": "1-D Gaussians with priors"}.get,
        key="fisher_threshold",
        help="Fisher's criterion gives only a direction; the threshold y0 is a separate choice (section 4.1.4).",
    )
    return {"threshold": threshold}


def perceptron(present_classes):
    eta = st.select_slider("Learning rate η", PERCEPTRON_ETAS, widget_default("perc_eta", 1.0), key="perc_eta")
    max_epochs = st.slider("Maximum epochs", 1, 500, widget_default("perc_epochs", 100), key="perc_epochs")
    shuffle = st.checkbox("Visit the points in a shuffled order", key="perc_shuffle")
    seed = st.number_input("Shuffle seed", 0, 10_000, widget_default("perc_seed", 0), key="perc_seed") if shuffle else 0
    w_init = _parse_weights(st.text_input("Initial weights w0, w1, w2 (blank = zeros)", key="perc_w_init"), 3)
    return {"eta": eta, "max_epochs": max_epochs, "shuffle": shuffle, "random_state": int(seed), "w_init": w_init}


def _gaussian(prefix):
    def widgets(present_classes):
        return {"priors": _priors(prefix, present_classes)}

    return widgets


def naive_bayes(present_classes):
    variant = st.radio(
        "Features",
        ["gaussian", "bernoulli"],
        format_func={
            "gaussian": "Gaussian (diagonal covariances)",
            "bernoulli": "binary, by thresholds (eq. 4.81)",
        }.get,
        key="nb_variant",
    )
    params = {"variant": variant, "priors": _priors("nb", present_classes)}
    if variant == "bernoulli":
        if st.checkbox("Set the thresholds by hand (default: the data mean)", key="nb_set_thresholds"):
            left, right = st.columns(2)
            params["thresholds"] = (
                left.number_input("x₁ threshold", value=widget_default("nb_t1", 0.0), step=0.1, key="nb_t1"),
                right.number_input("x₂ threshold", value=widget_default("nb_t2", 0.0), step=0.1, key="nb_t2"),
            )
    return params


def _logistic(prefix):
    def widgets(present_classes):
        solver = st.radio(
            "Solver",
            ["irls", "gd"],
            format_func={"irls": "IRLS / Newton-Raphson (eq. 4.99)", "gd": "gradient descent"}.get,
            key=f"{prefix}_solver",
            horizontal=True,
        )
        default_iter = 100 if solver == "irls" else 1000
        iter_key = f"{prefix}_iter_{solver}"
        max_iter = st.slider(
            "Maximum iterations", 1, 5 * default_iter, widget_default(iter_key, default_iter), key=iter_key
        )
        params = {"solver": solver, "max_iter": max_iter}
        if solver == "gd":
            params["learning_rate"] = st.select_slider(
                "Step size", LOGISTIC_STEP_SIZES, widget_default(f"{prefix}_lr", 0.1), key=f"{prefix}_lr"
            )
        params["l2"] = st.select_slider(
            "L2 penalty λ (0 = maximum likelihood)",
            LOGISTIC_L2,
            widget_default(f"{prefix}_l2", 0.0),
            key=f"{prefix}_l2",
        )
        return params

    return widgets


def bayesian_logistic(present_classes):
    alpha = st.select_slider(
        "Prior precision α (log scale)",
        PRIOR_ALPHAS,
        widget_default("bayes_alpha", 1.0),
        key="bayes_alpha",
        help="The prior N(w | 0, α⁻¹I) over every weight, the bias included (eq. 4.140): a larger α pulls w_MAP "
        "towards 0 and narrows the posterior.",
    )
    return {"alpha": alpha}


def svm(present_classes):
    hard = st.checkbox("Hard margin (C = ∞)", key="svm_hard", help="Fails with a message when the classes overlap.")
    if hard:
        return {"C": None}
    C = st.select_slider("C (soft-margin penalty, log scale)", C_VALUES, widget_default("svm_C", 1.0), key="svm_C")
    return {"C": C}


PARAM_WIDGETS = {
    "least_squares": least_squares,
    "fisher": fisher,
    "perceptron": perceptron,
    "gaussian_shared": _gaussian("gs"),
    "gaussian_separate": _gaussian("gsep"),
    "naive_bayes": naive_bayes,
    "logistic": _logistic("lr"),
    "softmax": _logistic("sm"),
    "probit": _logistic("pb"),
    "bayesian_logistic": bayesian_logistic,
    "svm": svm,
}


# ---- The inverse: parameters -> widget values -------------------------------------------------


class _Reader:
    """Reads parameters for widgets, collecting a sentence for every value that does not fit."""

    def __init__(self, params):
        self.params = dict(params)
        self.messages = []

    def choice(self, name, options, default):
        value = self.params.get(name, default)
        if value in options:
            return value
        self.messages.append(f"{name} = {value!r} is not one of the offered values; {default!r} is used.")
        return default

    def number(self, name, low, high, default, kind=float):
        value = self.params.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.messages.append(f"{name} = {value!r} is not a number; {default!r} is used.")
            return default
        if not low <= value <= high:
            clipped = kind(min(max(value, low), high))
            self.messages.append(f"{name} = {value!r} is outside {low}..{high}; {clipped!r} is used.")
            return clipped
        return kind(value)

    def flag(self, name, default=False):
        value = self.params.get(name, default)
        return bool(value) if isinstance(value, bool | int) else default


def _priors_state(prefix, reader, present_classes):
    priors = reader.params.get("priors")
    if priors is None:
        return {f"{prefix}_set_priors": False}
    if (
        not isinstance(priors, tuple | list)
        or len(priors) != len(present_classes)
        or len(present_classes) < 2
        or not all(isinstance(p, int | float) and not isinstance(p, bool) for p in priors)
    ):
        reader.messages.append(f"The priors {priors!r} do not match the {len(present_classes)} classes present.")
        return {f"{prefix}_set_priors": False}
    state = {f"{prefix}_set_priors": True}
    for k, prior in zip(present_classes, priors, strict=True):
        state[f"{prefix}_prior_{k}"] = round(min(max(float(prior), 0.01), 1.0), 2)
    return state


def _least_squares_state(reader, present_classes):
    return {"ls_targets": reader.choice("targets", ("one_of_k", "fisher"), "one_of_k")}


def _fisher_state(reader, present_classes):
    return {"fisher_threshold": reader.choice("threshold", ("midpoint", "gaussian"), "midpoint")}


def _perceptron_state(reader, present_classes):
    w_init = reader.params.get("w_init")
    text = ""
    if w_init is not None:
        if isinstance(w_init, tuple | list) and len(w_init) == 3:
            text = ", ".join(f"{float(w):g}" for w in w_init)
        else:
            reader.messages.append(f"The initial weights {w_init!r} are not three numbers; zeros are used.")
    shuffle = reader.flag("shuffle")
    state = {
        "perc_eta": reader.choice("eta", PERCEPTRON_ETAS, 1.0),
        "perc_epochs": reader.number("max_epochs", 1, 500, 100, int),
        "perc_shuffle": shuffle,
        "perc_w_init": text,
    }
    if shuffle:
        state["perc_seed"] = reader.number("random_state", 0, 10_000, 0, int)
    return state


def _gaussian_state(prefix):
    def state(reader, present_classes):
        return _priors_state(prefix, reader, present_classes)

    return state


def _naive_bayes_state(reader, present_classes):
    variant = reader.choice("variant", ("gaussian", "bernoulli"), "gaussian")
    state = {"nb_variant": variant, **_priors_state("nb", reader, present_classes)}
    thresholds = reader.params.get("thresholds")
    if variant == "bernoulli" and thresholds is not None:
        if isinstance(thresholds, tuple | list) and len(thresholds) == 2:
            state.update(nb_set_thresholds=True, nb_t1=float(thresholds[0]), nb_t2=float(thresholds[1]))
        else:
            reader.messages.append(f"The thresholds {thresholds!r} are not two numbers; the data mean is used.")
    return state


def _logistic_state(prefix):
    def state(reader, present_classes):
        solver = reader.choice("solver", ("irls", "gd"), "irls")
        default_iter = 100 if solver == "irls" else 1000
        values = {
            f"{prefix}_solver": solver,
            f"{prefix}_iter_{solver}": reader.number("max_iter", 1, 5 * default_iter, default_iter, int),
            f"{prefix}_l2": reader.choice("l2", LOGISTIC_L2, 0.0),
        }
        if solver == "gd":
            values[f"{prefix}_lr"] = reader.choice("learning_rate", LOGISTIC_STEP_SIZES, 0.1)
        return values

    return state


def _bayesian_logistic_state(reader, present_classes):
    return {"bayes_alpha": reader.choice("alpha", PRIOR_ALPHAS, 1.0)}


def _svm_state(reader, present_classes):
    if "C" in reader.params and reader.params["C"] is None:
        return {"svm_hard": True}
    return {"svm_hard": False, "svm_C": reader.choice("C", C_VALUES, 1.0)}


WIDGET_STATE = {
    "least_squares": _least_squares_state,
    "fisher": _fisher_state,
    "perceptron": _perceptron_state,
    "gaussian_shared": _gaussian_state("gs"),
    "gaussian_separate": _gaussian_state("gsep"),
    "naive_bayes": _naive_bayes_state,
    "logistic": _logistic_state("lr"),
    "softmax": _logistic_state("sm"),
    "probit": _logistic_state("pb"),
    "bayesian_logistic": _bayesian_logistic_state,
    "svm": _svm_state,
}


def widget_state(method, params, present_classes):
    """Session-state values that make ``PARAM_WIDGETS[method]`` return ``params``.

    Returns (values, messages): a value the widgets cannot offer (a step size not on the
    slider, an iteration count beyond its range) is replaced by the widget's default or
    clipped, and a sentence says so.
    """
    reader = _Reader(params)
    to_state = WIDGET_STATE.get(method)
    values = to_state(reader, list(present_classes)) if to_state else {}
    return values, reader.messages
