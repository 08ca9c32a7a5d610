"""The Equations panel: the fitted model written out with its own numbers, in PRML's notation.

Every formula comes from ``ui.equations.model_equations`` (pure formatting of the estimator's
attributes); this module only draws them and picks the point at which the model is evaluated:
the last point of the scene unless the person types another, which is kept in the panel
options (so a link carries it).
"""

import math
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from plotly.basedatatypes import BaseTraceType

from ui.base.visitor import widget_values
from ui.equations import model_equations
from ui.plot.theme import FIT_INK
from ui.text.i18n import N_, _
from ui.text.markdown import plain as plain_text

from . import Panel, PanelContext, is_open

TITLE = N_("Equations")
MARK_COLOUR = FIT_INK

POINT_OPTION = "equation_point"  # ctx.options: [x1, x2] typed by hand; absent = follow the last point
INPUT_KEYS = ("equation_x1", "equation_x2")


def plain(text: str) -> str:
    """Plain text for a Markdown element: "S_W ... S_B" must not turn into italics, and a class's
    name (a visitor's text, in a note) must not turn into anything (``ui.text.markdown.plain``)."""
    return plain_text(text)


def typed_point(options: dict[str, Any]) -> tuple[float, float] | None:
    """The hand-typed evaluation point (x1, x2) from the options, or None (also when malformed)."""
    value = options.get(POINT_OPTION)
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    try:
        point = (float(value[0]), float(value[1]))
    except (TypeError, ValueError):
        return None
    return point if all(math.isfinite(v) for v in point) else None


def evaluation_point(ctx: PanelContext) -> tuple[float, ...] | None:
    """Where the model is evaluated: the typed point, else the scene's last point, else None."""
    point = typed_point(ctx.options)
    if point is not None:
        return point
    points = ctx.scene.points
    return tuple(float(v) for v in points.X[-1]) if len(points) else None


def _typed(options, shown):
    """Keep a typed point. Streamlit may also call this on a rerun when the inputs merely show
    the followed point again (their state was dropped while the tab was closed): ignore that."""
    typed = [float(widget_values().get(key, value)) for key, value in zip(INPUT_KEYS, shown)]
    if typed != list(shown):
        options[POINT_OPTION] = typed


def _follow_last(options):
    options.pop(POINT_OPTION, None)


def _point_inputs(ctx):
    point = evaluation_point(ctx)
    if point is None:
        return None
    for key, value in zip(INPUT_KEYS, point):
        widget_values()[key] = value  # the inputs show the point in use, typed or followed
    first, second, follow = st.columns([2, 2, 3], vertical_alignment="bottom")
    for column, key, label in ((first, INPUT_KEYS[0], "x₁"), (second, INPUT_KEYS[1], "x₂")):
        column.number_input(
            _("Evaluate at {coordinate}").format(coordinate=label),
            key=key,
            step=0.1,
            format="%.3f",
            on_change=_typed,
            args=(ctx.options, point),
        )
    following = typed_point(ctx.options) is None
    follow.button(
        _("Follow the last added point"),
        key="equation_follow_last",
        disabled=following,
        on_click=_follow_last,
        args=(ctx.options,),
        help=_("Evaluate the model at the most recently added point again, instead of the typed one."),
    )
    return point


def render(ctx: PanelContext) -> None:
    model = ctx.shown_model
    point = _point_inputs(ctx)
    following = typed_point(ctx.options) is None
    if following:
        caption = _(
            "Every number below is read from the fitted model, so the equations update as points are added, "
            "removed or the method and its settings change; the evaluation point, ⊕ on the plot, follows the last "
            "added point."
        )
    else:
        caption = _(
            "Every number below is read from the fitted model, so the equations update as points are added, "
            "removed or the method and its settings change; the evaluation point, ⊕ on the plot, is the one typed "
            "above."
        )
    st.caption(caption)
    equations = model_equations(model, point)
    if not equations:
        st.info(_("This model has nothing to write out yet."))
        return
    for equation in equations:
        st.markdown(f"**{equation.title}**")
        st.latex(equation.latex)
        equation_caption: str | None  # its number and note, either or neither
        if equation.number and equation.note:
            equation_caption = _("(eq. {number}) {note}").format(number=equation.number, note=equation.note)
        elif equation.number:
            equation_caption = _("(eq. {number})").format(number=equation.number)
        else:
            equation_caption = equation.note
        if equation_caption:
            st.caption(plain(equation_caption))


def overlay(ctx: PanelContext) -> list[BaseTraceType]:
    """While the tab is open: the point the equations are evaluated at, marked on the canvas."""
    point = evaluation_point(ctx)
    if point is None or not is_open(ctx, TITLE):
        return []
    return [
        go.Scatter(
            x=[point[0]],
            y=[point[1]],
            mode="markers",
            marker=dict(symbol="circle-cross-open", size=24, color=MARK_COLOUR, line=dict(width=2.5)),
            hovertemplate=_("the Equations tab evaluates the model here")
            + "<br>x = (%{x:.3g}, %{y:.3g})<extra></extra>",
            name="x of the Equations tab",
            meta="equation point",
            # Not in the legend: opening the tab must not add a legend row (and move the plot); the
            # panel's caption names the mark.
            showlegend=False,
        )
    ]


PANELS = [
    Panel(
        title=TITLE,
        applies=lambda ctx: ctx.model is not None,
        render=render,
        overlay=overlay,
        overlay_while_open=True,
        order=90,  # after every other panel (the posterior read-out is 75)
        help=(
            N_(
                "The fitted model written out with its own numbers and the book's equation numbers, then evaluated "
                "at one point: activations, posteriors or decision values, and the predicted class."
            )
        ),
    )
]
