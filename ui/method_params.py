"""Hyper-parameter widgets, one function per method: each draws widgets and returns a dict of
constructor arguments (hashable values only: they become part of the scene)."""

import streamlit as st

from .theme import class_label

C_VALUES = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)


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
    eta = st.select_slider("Learning rate η", [0.01, 0.1, 0.2, 0.5, 1.0, 2.0], 1.0, key="perc_eta")
    max_epochs = st.slider("Maximum epochs", 1, 500, 100, key="perc_epochs")
    shuffle = st.checkbox("Visit the points in a shuffled order", key="perc_shuffle")
    seed = st.number_input("Shuffle seed", 0, 10_000, 0, key="perc_seed") if shuffle else 0
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
                left.number_input("x₁ threshold", value=0.0, step=0.1, key="nb_t1"),
                right.number_input("x₂ threshold", value=0.0, step=0.1, key="nb_t2"),
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
        max_iter = st.slider("Maximum iterations", 1, 5 * default_iter, default_iter, key=f"{prefix}_iter_{solver}")
        params = {"solver": solver, "max_iter": max_iter}
        if solver == "gd":
            params["learning_rate"] = st.select_slider(
                "Step size", [0.001, 0.01, 0.03, 0.1, 0.3, 1.0], 0.1, key=f"{prefix}_lr"
            )
        params["l2"] = st.select_slider(
            "L2 penalty λ (0 = maximum likelihood)", [0.0, 0.001, 0.01, 0.1, 1.0, 10.0], 0.0, key=f"{prefix}_l2"
        )
        return params

    return widgets


def svm(present_classes):
    hard = st.checkbox("Hard margin (C = ∞)", key="svm_hard", help="Fails with a message when the classes overlap.")
    if hard:
        return {"C": None}
    C = st.select_slider("C (soft-margin penalty, log scale)", C_VALUES, 1.0, key="svm_C")
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
    "svm": svm,
}
