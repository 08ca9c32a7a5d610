"""Gaussian generative models (PRML 4.2.1-4.2.2): fitted means, covariance ellipses, priors.

On the canvas each class's maximum-likelihood mean mu_k (eq. 4.75) and its 1- and 2-sigma
ellipses (x - mu)^T Sigma^-1 (x - mu) = r^2 for r = 1, 2; below, the fitted parameters, what the
priors do to the boundary, and a button that swaps shared and separate covariances.
"""

from typing import Protocol, TypeGuard

import numpy as np
import pandas as pd
import streamlit as st
from numpy.typing import ArrayLike
from plotly.basedatatypes import BaseTraceType

from playground.gaussian import SEPARATE_CARD, SHARED_CARD, SeparateCovarianceGaussian, SharedCovarianceGaussian
from playground.naive_bayes import NaiveBayes
from playground.validation import FloatArray, LabelArray
from ui.base.visitor import visitor, widget_values
from ui.plot.figures import gapped_paths
from ui.plot.theme import CLASS_COLOURS
from ui.session.widget_keys import method_widget
from ui.text.convention import book_line
from ui.text.i18n import N_, _
from ui.text.names import N_CLASSES, class_name, class_name_html

from . import Panel, PanelContext, join_sentences
from .posterior import class_symbol

HALO_COLOUR = "rgba(255,255,255,0.85)"  # under the ellipses, so they read on any region or posterior colour
OUTLINE_COLOUR = "#1A1A1A"

# Figure 4.10-4.11's switch: the shared-covariance model and the one with a covariance per class.
TOGGLE = {SHARED_CARD.name: SEPARATE_CARD.name, SEPARATE_CARD.name: SHARED_CARD.name}
ELLIPSE_RADII = (1.0, 2.0)
ELLIPSE_POINTS = 72


GenerativeModel = SharedCovarianceGaussian | SeparateCovarianceGaussian | NaiveBayes


class ClassMeans(Protocol):
    """A fitted model with a mean per class, ``means_`` (K, D), in ``classes_`` order."""

    @property
    def classes_(self) -> LabelArray: ...

    @property
    def means_(self) -> FloatArray: ...


def _has_means(model: object) -> TypeGuard[ClassMeans]:
    """Duck-typed as the panel always was (a model on a basis reads ``means_`` through as well)."""
    return hasattr(model, "means_")


def _fitted_array(model: object, name: str) -> FloatArray | None:
    """The fitted attribute ``name`` of ``model`` as a float array, or None when it has none: the
    three models name their covariances differently (covariances_, covariance_, variances_)."""
    return np.asarray(getattr(model, name), dtype=np.float64) if hasattr(model, name) else None


def class_covariances(model: object) -> FloatArray | None:
    """The (K, D, D) covariance of each class: shared, separate, or diagonal (naive Bayes); None otherwise."""
    if not _has_means(model):
        return None
    n_classes = np.asarray(model.classes_).size
    if (separate := _fitted_array(model, "covariances_")) is not None:
        return separate
    if (shared := _fitted_array(model, "covariance_")) is not None:
        return np.repeat(shared[None], n_classes, axis=0)
    if (variances := _fitted_array(model, "variances_")) is not None:
        return np.stack([np.diag(v) for v in variances])
    return None


def applies(ctx: PanelContext) -> bool:
    model = ctx.model
    return (
        getattr(ctx.scene, "basis", "identity") == "identity"  # on a basis the Gaussians live in phi-space
        and model is not None
        and class_covariances(model) is not None
        and _has_means(model)  # it has (class_covariances read them)
        and np.asarray(model.means_).shape[1] == 2
    )


def ellipse(mean: ArrayLike, cov: FloatArray, radius: float, n: int = ELLIPSE_POINTS) -> FloatArray:
    """Points (n + 1, 2) on {x : (x - mean)^T cov^-1 (x - mean) = radius^2}, closed.

    Its semi-axes lie along the eigenvectors of cov with lengths radius * sqrt(eigenvalue).
    """
    values, vectors = np.linalg.eigh((np.asarray(cov, dtype=float) + np.asarray(cov, dtype=float).T) / 2)
    values = np.maximum(values, 0.0)
    angles = np.linspace(0.0, 2 * np.pi, n + 1)
    unit = np.stack([np.cos(angles), np.sin(angles)])  # (2, n + 1)
    return np.asarray(mean, dtype=float) + (vectors @ (radius * np.sqrt(values)[:, None] * unit)).T


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    """Each class's 1σ (solid) and 2σ (dashed) ellipses and its mean ✕.

    Every line has a white halo and every mean a dark outline under its class colour: on the
    colour-mixed posteriors of figure 4.11 the class colour alone would vanish into its own region.
    """
    model = ctx.shown_model
    covariances = class_covariances(model)
    if covariances is None or not _has_means(model):  # the latter holds when the former does
        return []
    classes = np.asarray(model.classes_)
    means = np.asarray(model.means_, dtype=np.float64)
    traces: list[BaseTraceType] = []
    for radius in ELLIPSE_RADII:
        outlines = [ellipse(means[p], covariances[p], radius).astype(np.float32) for p in range(classes.size)]
        traces += _ellipse_traces(classes, outlines, radius)
    return traces + _mean_traces(classes, means)


def _ellipse_traces(classes, outlines, radius):
    """The classes' ellipses of one radius: one white halo under all of them, then each class's."""
    width = 2 if radius == 1 else 1.5
    dash = "solid" if radius == 1 else "dash"
    # One halo trace for all classes: None separates the closed curves.
    xs, ys = gapped_paths(outlines, digits=5)
    traces = [
        dict(
            type="scatter",
            x=xs,
            y=ys,
            mode="lines",
            # Solid under solid and dashed alike: plotly scales dash lengths with the width,
            # so a dashed halo would not line up with the dashes above it.
            line=dict(color=HALO_COLOUR, width=width + 2.5),
            hoverinfo="skip",
            name=_("{radius}σ ellipses (halo)").format(radius=f"{radius:g}"),
            showlegend=False,
            meta="ellipse",
        )
    ]
    for position, label in enumerate(classes):
        traces.append(
            dict(
                type="scatter",
                x=outlines[position][:, 0],
                y=outlines[position][:, 1],
                mode="lines",
                line=dict(color=CLASS_COLOURS[int(label) % len(CLASS_COLOURS)], width=width, dash=dash),
                hoverinfo="skip",
                name=_("{radius}σ ellipses").format(radius=f"{radius:g}"),
                legendgroup=f"ellipse{radius:g}",
                showlegend=position == 0,
                meta="ellipse",
            )
        )
    return traces


def _mean_traces(classes, means):
    """The class means as ✕ in their class's colour over a dark outline."""
    colours = [CLASS_COLOURS[int(c) % len(CLASS_COLOURS)] for c in classes]
    outline = dict(
        type="scatter",
        x=means[:, 0],
        y=means[:, 1],
        mode="markers",
        marker=dict(symbol="x-thin-open", size=19, color=OUTLINE_COLOUR, line=dict(width=7, color=OUTLINE_COLOUR)),
        hoverinfo="skip",
        name=_("class means (outline)"),
        showlegend=False,
        meta="means",
    )
    mean = dict(
        type="scatter",
        x=means[:, 0],
        y=means[:, 1],
        mode="markers",
        marker=dict(symbol="x-thin-open", size=16, color=colours, line=dict(width=4, color=colours)),
        text=[_("mean μ of {name}").format(name=class_name_html(int(c))) for c in classes],
        hovertemplate="%{text}<br>(%{x:.3g}, %{y:.3g})<extra></extra>",
        name=_("class means μₖ"),
        meta="means",
    )
    return [outline, mean]


def parameter_table(model: GenerativeModel) -> pd.DataFrame:
    """Priors, means and covariances as a small table, one row per class."""
    covariances = class_covariances(model)
    if covariances is None:  # each of the three has its covariances
        raise TypeError(f"{type(model).__name__} has no class covariances")
    rows = []
    for position, label in enumerate(np.asarray(model.classes_)):
        cov = covariances[position]
        rows.append(
            {
                _("class"): class_name(int(label)),
                "p(Cₖ)": float(model.priors_[position]),
                "μ₁": float(model.means_[position][0]),
                "μ₂": float(model.means_[position][1]),
                "Σ₁₁": float(cov[0, 0]),
                "Σ₁₂": float(cov[0, 1]),
                "Σ₂₂": float(cov[1, 1]),
            }
        )
    return pd.DataFrame(rows).set_index(_("class"))


def prior_note(model: GenerativeModel) -> str:
    """What the priors do to the boundary for this model (markdown)."""
    if isinstance(model, SharedCovarianceGaussian):
        text = _(
            "**Priors and the boundary.** With a shared covariance the quadratic terms cancel and "
            "aₖ(x) = wₖᵀx + wₖ₀ with wₖ = Σ⁻¹μₖ and wₖ₀ = −½μₖᵀΣ⁻¹μₖ + ln p(Cₖ) (eq. 4.68-4.70): the priors enter "
            "only the biases, so moving a prior slider shifts the boundary **parallel to itself** (section 4.2.1)."
        )
        line = book_line(model)
        if line is not None:
            # Eq. 4.66-4.67: w = Sigma^-1 (mu_1 - mu_2), w0 = ... + ln p(C1)/p(C2), for C1 the first class.
            first, second = (class_symbol(c) for c in (line.c1, line.c2))
            log_ratio = float(np.log(model.priors_[0] / model.priors_[1]))
            ratio = f"ln p({first})/p({second})"
            if abs(log_ratio) < 1e-9:
                text = join_sentences(
                    text,
                    _(
                        "Here the priors are equal, {ratio} = 0 in w₀ (eq. 4.67), and the line lies where the two "
                        "class densities are equal; move a slider to shift it."
                    ).format(ratio=ratio),
                )
            else:
                towards = second if log_ratio > 0 else first
                text = join_sentences(
                    text,
                    _(
                        "Here {ratio} = {log_ratio} in w₀ (eq. 4.67), which moves the line {distance} units "
                        "towards the mean of {towards}, away from the more likely class, from where equal priors "
                        "would put it."
                    ).format(
                        ratio=ratio,
                        log_ratio=f"{log_ratio:+.3f}",
                        distance=f"{abs(log_ratio) / line.norm:.3f}",
                        towards=towards,
                    ),
                )
        return text
    if isinstance(model, SeparateCovarianceGaussian):
        return _(
            "**Priors and the boundary.** With one covariance per class the boundary is a conic, "
            "aₖ(x) = ln N(x|μₖ, Σₖ) + ln p(Cₖ); a prior only adds a constant to its class's activation, so the "
            "conic grows or shrinks around the less likely class instead of shifting in parallel."
        )
    return _(
        "**Priors and the boundary.** Naive Bayes has a diagonal covariance per class (section 4.2.3): "
        "the ellipses are aligned with the axes, and a prior adds ln p(Cₖ) to the class's activation."
    )


def _toggle_covariance():
    """Swap shared and separate covariances, carrying the hand-set priors across."""
    current = visitor().get("method")
    if current is None or current not in TOGGLE:
        return
    other = TOGGLE[current]
    # The prior sliders' key prefixes are the two cards' (ui.methods, as ui.session.widget_keys has them).
    source, target = method_widget(current, "priors").key, method_widget(other, "priors").key
    for key in [f"{source}_set_priors"] + [f"{source}_prior_{k}" for k in range(N_CLASSES)]:
        if key in widget_values():
            widget_values()[target + key[len(source) :]] = widget_values()[key]
    visitor()["method"] = other


def _toggle_button(method):
    """Figure 4.10-4.11's "Try:": share one covariance, or give each class its own."""
    if method in TOGGLE:
        to_separate = method == SHARED_CARD.name
        st.button(
            _("Give each class its own covariance ⟶ conic boundary")
            if to_separate
            else _("Share one covariance between the classes ⟶ straight boundary"),
            key="toggle_covariance",
            on_click=_toggle_covariance,
            help=_(
                "Switch between the shared-covariance model (linear boundary, eq. 4.65-4.70) and one covariance "
                "per class (quadratic boundary, figure 4.11)."
            ),
        )


def drawer(ctx: PanelContext) -> None:
    """Presentation: the covariance switch beside the figure's text."""
    _toggle_button(ctx.scene.method)


def render(ctx: PanelContext) -> None:
    model = ctx.shown_model
    if not isinstance(model, GenerativeModel):  # the panel applies to the three models on x only
        return
    method = ctx.scene.method
    if not ctx.controls_in_drawer:
        _toggle_button(method)
    st.markdown(prior_note(model))
    st.caption(
        _(
            "Set the priors with the sidebar's *Set the priors p(Cₖ) by hand* sliders; by default they are the "
            "fractions Nₖ/N (eq. 4.73). On the canvas: ✕ = each class's mean μₖ (eq. 4.75), solid = 1σ and "
            "dashed = 2σ ellipses of its fitted covariance (eq. 4.78-4.80)."
        )
    )
    st.dataframe(parameter_table(model).style.format("{:.3f}"), width="stretch")


PANELS = [
    Panel(
        title=N_("Class Gaussians"),
        name="class_gaussians",
        applies=applies,
        render=render,
        overlay=overlay,
        drawer=drawer,
        order=30,
        help=(
            N_(
                "The generative view (section 4.2): fit p(x|Cₖ) = N(x|μₖ, Σ) and p(Cₖ) by maximum likelihood "
                "(eq. 4.71-4.80), then Bayes' theorem gives the boundary; share Σ and it is a line, give each class "
                "its own and it becomes a conic (figure 4.11)."
            )
        ),
    )
]
