"""Sidebar controls for the fixed basis functions phi(x) (PRML section 4.3.1, figure 4.12).

``basis_picker(scene)`` draws the widgets and returns (name, params) for
``playground.basis.make_basis``; the app compares them with the scene and calls
``state.set_basis``. RBF centres placed by hand live in the scene (canvas clicks edit them
through ``state``); they are also remembered here, so switching to a grid or random centres and
back, or changing the width, keeps them.
"""

import streamlit as st

from playground.basis import MAX_DEGREE

from . import state
from .method_params import widget_default

BASIS_LABELS = {
    "identity": "none: φ(x) = x",
    "polynomial": "polynomial (all cross terms)",
    "rbf": "Gaussian radial basis functions",
}
PLACEMENT_LABELS = {
    "grid": "on a regular grid",
    "data": "at random data points",
    "given": "by hand (click on the plot)",
}
CLICK_MODE_LABELS = {"points": "add / remove points", "centres": "place / remove RBF centres"}
WIDTHS = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)
GRID_SIZES = (1, 4, 9, 16, 25, 36, 49, 64, 81, 100)
HAND_CENTRES = "rbf_hand_centres"  # session key: the centres last placed by hand
LAST_PLACEMENT = "rbf_last_placement"


def _init_from_scene(scene):
    """First run (e.g. a shared link): start the widgets at the scene's basis."""
    if "basis" in st.session_state:
        return
    params = scene.basis_param_dict
    st.session_state.basis = scene.basis if scene.basis in BASIS_LABELS else "identity"
    if scene.basis == "polynomial":
        st.session_state.basis_degree = int(params.get("degree", 2))
    if scene.basis == "rbf":
        placement = params.get("placement") or ("given" if params.get("centres") else "grid")
        st.session_state.rbf_placement = placement
        if params.get("width") in WIDTHS:
            st.session_state.rbf_width = params["width"]
        if placement == "grid" and params.get("n_centres") in GRID_SIZES:
            st.session_state.rbf_grid_n = params["n_centres"]
        if placement == "data":
            st.session_state.rbf_data_n = int(params.get("n_centres", 10))
            st.session_state.rbf_seed = int(params.get("random_state", 0))
        st.session_state.rbf_include_input = bool(params.get("include_input", False))
        st.session_state[HAND_CENTRES] = tuple(params.get("centres") or ())
        st.session_state[LAST_PLACEMENT] = placement


def _hand_centres(scene):
    """The hand-placed centres: the scene's while "by hand" was chosen last run (clicks add and
    remove them), otherwise the ones remembered from then."""
    if scene.basis == "rbf" and st.session_state.get(LAST_PLACEMENT) == "given":
        st.session_state[HAND_CENTRES] = state.rbf_centres()
    return tuple(st.session_state.get(HAND_CENTRES, ()))


def _rbf_params(scene):
    placement = st.radio(
        "Centres",
        list(PLACEMENT_LABELS),
        format_func=PLACEMENT_LABELS.get,
        key="rbf_placement",
        help="Where the Gaussians φⱼ(x) = exp(−‖x − cⱼ‖² / 2s²) sit (eq. 3.4).",
    )
    centres = _hand_centres(scene)
    st.session_state[LAST_PLACEMENT] = placement
    params = {"placement": placement}
    if placement == "grid":
        params["n_centres"] = st.select_slider(
            "Number of centres (a square grid)", GRID_SIZES, widget_default("rbf_grid_n", 9), key="rbf_grid_n"
        )
    elif placement == "data":
        params["n_centres"] = st.slider("Number of centres", 1, 50, widget_default("rbf_data_n", 10), key="rbf_data_n")
        params["random_state"] = int(
            st.number_input("Seed for choosing them", 0, 10_000, widget_default("rbf_seed", 0), key="rbf_seed")
        )
    else:
        if centres:
            params["centres"] = centres
        mode = st.radio(
            "A click on the plot",
            list(CLICK_MODE_LABELS),
            format_func=CLICK_MODE_LABELS.get,
            key="click_mode",
            horizontal=True,
        )
        if mode == "centres":
            st.info("Clicks now place RBF centres (✚); click a centre to remove it.")
        st.caption(
            f"{len(centres)} centre{'' if len(centres) == 1 else 's'} placed."
            + ("" if centres else " Choose 'place / remove RBF centres' and click on the plot.")
        )
    params["width"] = st.select_slider(
        "Width s (the same for every centre)", WIDTHS, widget_default("rbf_width", 1.0), key="rbf_width"
    )
    params["include_input"] = st.checkbox(
        "Also keep x itself as features", key="rbf_include_input", help="φ(x) = (x₁, x₂, φ₁(x), …, φ_J(x))."
    )
    return params


def basis_picker(scene):
    """The basis-function widgets; returns (name, params) for ``make_basis``."""
    _init_from_scene(scene)
    name = st.selectbox(
        "Basis functions φ(x)",
        list(BASIS_LABELS),
        format_func=BASIS_LABELS.get,
        key="basis",
        help="A fixed nonlinear φ(x) before the method: the boundary is straight in φ-space and curved in x "
        "(section 4.3.1, figure 4.12).",
    )
    if name == "polynomial":
        params = {"degree": st.slider("Degree", 1, MAX_DEGREE, widget_default("basis_degree", 2), key="basis_degree")}
    elif name == "rbf":
        params = _rbf_params(scene)
    else:
        params = {}
    if not (name == "rbf" and params.get("placement") == "given"):
        # Without the click-mode radio a stale "centres" value must not turn clicks into centres.
        st.session_state.pop("click_mode", None)
    return name, params
