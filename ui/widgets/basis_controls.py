"""Sidebar controls for the fixed basis functions phi(x) (PRML section 4.3.1, figure 4.12).

``basis_picker(scene)`` draws the widgets and returns (name, params) for
``playground.basis.make_basis``; the app compares them with the scene and calls
``state.set_basis``. RBF centres placed by hand live in the scene (canvas clicks edit them
through ``state``); they are also remembered here, so switching to a grid or random centres and
back, or changing the width, keeps them. Ranges, options and defaults come from
``playground.specs.BASIS_SPECS``, the table a link's basis parameters are checked against; the
widgets' session keys from ``ui.session.widget_keys``.
"""

from typing import Any

import streamlit as st

from playground.scene import Scene
from playground.specs import BASIS_SPECS, RBF_GRID_SIZES, RBF_WIDTHS, clean_settings
from ui.base.visitor import visitor, widget_values
from ui.session import state
from ui.session.widget_keys import (
    BASIS_KEY,
    CLICK_MODE_KEY,
    HAND_CENTRES_KEY,
    LAST_PLACEMENT_KEY,
    basis_key,
    basis_widget,
)
from ui.text.i18n import N_, _
from ui.text.labels import BASIS_LABELS

from .method_params import int_input, int_slider, radio, select_slider

PLACEMENT_LABELS = {
    "grid": N_("on a regular grid"),
    "data": N_("at random data points"),
    "given": N_("by hand (click on the plot)"),
}
CLICK_MODE_LABELS = {"points": N_("add / remove points"), "centres": N_("place / remove RBF centres")}
WIDTHS = RBF_WIDTHS
GRID_SIZES = RBF_GRID_SIZES


def _init_from_scene(scene):
    """First run (e.g. a shared link): start the widgets at the scene's basis. The values are
    checked against the widgets' specs once more (a scene may come from anywhere)."""
    if BASIS_KEY in visitor():
        return
    basis = scene.basis if scene.basis in BASIS_LABELS else "identity"
    params, _unused = clean_settings(BASIS_SPECS[basis], scene.basis_param_dict, "basis parameter", "scene")
    visitor()[BASIS_KEY] = basis
    for spec in BASIS_SPECS[basis]:
        key = basis_key(basis, spec)
        if key and spec.name in params and spec.applies(params):
            widget_values()[key] = params[spec.name]
    if basis == "rbf":
        visitor()[HAND_CENTRES_KEY] = tuple(params.get("centres") or ())
        visitor()[LAST_PLACEMENT_KEY] = params["placement"]


def _hand_centres(scene):
    """The hand-placed centres: the scene's while "by hand" was chosen last run (clicks add and
    remove them), otherwise the ones remembered from then."""
    if scene.basis == "rbf" and visitor().get(LAST_PLACEMENT_KEY) == "given":
        visitor()[HAND_CENTRES_KEY] = state.rbf_centres()
    return tuple(visitor().get(HAND_CENTRES_KEY, ()))


def _rbf_params(scene):
    placement = radio(
        basis_widget("rbf", "placement"),
        N_("Centres"),
        PLACEMENT_LABELS,
        help=N_("Where the Gaussians φⱼ(x) = exp(−‖x − cⱼ‖² / 2s²) sit (eq. 3.4)."),
    )
    centres = _hand_centres(scene)
    visitor()[LAST_PLACEMENT_KEY] = placement
    params = {"placement": placement}
    chosen = {"placement": placement}
    if placement == "grid":
        params["n_centres"] = select_slider(
            basis_widget("rbf", "n_centres", chosen), N_("Number of centres (a square grid)")
        )
    elif placement == "data":
        params["n_centres"] = int_slider(basis_widget("rbf", "n_centres", chosen), N_("Number of centres"))
        params["random_state"] = int(
            int_input(basis_widget("rbf", "random_state", chosen), N_("Seed for choosing them"))
        )
    else:
        if centres:
            params["centres"] = centres
        mode = st.radio(
            _("A click on the plot"),
            list(CLICK_MODE_LABELS),
            format_func=lambda mode: _(CLICK_MODE_LABELS[mode]),
            key=CLICK_MODE_KEY,
            horizontal=True,
        )
        if mode == "centres":
            st.info(_("Clicks now place RBF centres (✚); click a centre to remove it."))
        st.caption(
            f"{len(centres)} centre{'' if len(centres) == 1 else 's'} placed."
            + ("" if centres else " Choose 'place / remove RBF centres' and click on the plot.")
        )
    params["width"] = select_slider(basis_widget("rbf", "width"), N_("Width s (the same for every centre)"))
    params["include_input"] = st.checkbox(
        _("Also keep x itself as features"),
        key=basis_widget("rbf", "include_input").key,
        help=_("φ(x) = (x₁, x₂, φ₁(x), …, φ_J(x))."),
    )
    return params


def basis_picker(scene: Scene) -> tuple[str, dict[str, Any]]:
    """The basis-function widgets; returns (name, params) for ``make_basis``."""
    _init_from_scene(scene)
    name = st.selectbox(
        _("Basis functions φ(x)"),
        list(BASIS_LABELS),
        format_func=lambda basis: _(BASIS_LABELS[basis]),
        key=BASIS_KEY,
        help=_(
            "A fixed nonlinear φ(x) before the method: the boundary is straight in φ-space and curved in x "
            "(section 4.3.1, figure 4.12)."
        ),
    )
    if name == "polynomial":
        params = {"degree": int_slider(basis_widget("polynomial", "degree"), N_("Degree"))}
    elif name == "rbf":
        params = _rbf_params(scene)
    else:
        params = {}
    if not (name == "rbf" and params.get("placement") == "given"):
        # Without the click-mode radio a stale "centres" value must not turn clicks into centres.
        visitor().pop(CLICK_MODE_KEY, None)
    return name, params
