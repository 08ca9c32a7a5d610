"""Your line (issue 46): the person's own boundary, scored by every method's criterion, on the
landscape of the method's criterion beside the fit and the optimiser's path.

A person types the line they expect, y(x) = w1 x1 + w2 x2 + w0 (the book's convention: y(x) >= 0
assigns C1, the first class present); the scene keeps it (``Scene.guess``) and the link carries it
(``guess=w0,w1,w2``). The canvas draws it dashed over the fit, and this panel sets it beside the
fit's line: the share of the training points each classifies correctly, the method's own criterion
(what its fit optimises, ``playground.criteria``) and the other methods' criteria.

Rules that hold:

- A line drawn on the plane has no length of w, and most criteria depend on it: every criterion of
  a line here is its value at the scale that draws that line best (``playground.landscape``), for
  the person's line and the fit's alike, so the fit's value is its optimum and the two compare.
- The landscape is over the line's direction (the angle of the book's w, into C1) and its place
  (the boundary's signed distance from the origin, -w0/||w||, eq. 4.5); it is computed for the
  training points, the method's settings and the view once, in the server's shared cache
  (``ui.panels.criterion_landscape``).
- The density models (the Gaussian classes, naive Bayes) have no criterion of a line: the page
  scores lines for them by the cross-entropy and says so. On a basis phi(x) the criteria are in
  phi-space, where a line of the plane is no line: accuracy alone.
- Every number is computed from the scene; the conversion to the book's sign is
  ``ui.text.convention``'s.
"""

import math
from dataclasses import replace
from typing import Any

import numpy as np
import streamlit as st

from playground import Classifier, PlaygroundError
from playground.geometry import boundary_segments
from playground.link import usable_guess
from playground.scene import Scene
from ui.base.visitor import TAB_KEY, visitor, widget_values
from ui.plot.chart import chart
from ui.plot.line_scores import (
    GUESS_COLOUR,
    Scored,
    accuracy,
    back_end_weights,
    criterion_model,
    fit_accuracy,
    guess_line,
    point_shares,
    scored_lines,
    share_sizes,
)
from ui.plot.theme import FIT_INK
from ui.session import state
from ui.text.convention import BookLine, book_line, is_two_class
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import phrased

from . import Panel, PanelContext, join_sentences, number_text, tab_label
from .criterion_landscape import cached_landscape, landscape_figure

KEYS = ("your_line_w0", "your_line_w1", "your_line_w2")
DRAWER_LANDSCAPE_HEIGHT = 230  # px: the landscape in the presenter's drawer, under the figure's text
HANDLE_PLACES = (0.25, 0.75)  # the handles' places along the line's stretch across the view


# -- each point's share ----------------------------------------------------------------------------

SHARES = "point_shares"  # ctx.options key: "off", "fit" or "guess"


def _share_traces(ctx: PanelContext) -> list[dict[str, Any]]:
    which = ctx.options.get(SHARES, "off")
    model = ctx.model
    if which not in ("fit", "guess") or model is None or (which == "fit" and ctx.scene.fit_hidden):
        return []
    line = guess_line(ctx.scene, model) if which == "guess" else book_line(ctx.shown_model)
    if line is None:
        return []
    try:
        shares = point_shares(ctx.scene, model, line)
    except PlaygroundError:
        return []
    if shares is None or not len(shares):
        return []
    X = ctx.scene.points.training.X
    colour = GUESS_COLOUR if which == "guess" else FIT_INK
    return [
        dict(
            type="scatter",
            x=X[:, 0].tolist(),
            y=X[:, 1].tolist(),
            mode="markers",
            marker=dict(
                symbol="circle-open",
                size=share_sizes(shares),
                color=colour,
                line=dict(width=1.5),
            ),
            customdata=shares.round(6).tolist(),
            hovertemplate=_("share of the criterion: %{customdata:.4g}") + "<extra></extra>",
            name=_("each point's share"),
            showlegend=False,
            legendgroup=which,  # the canvas resizes the rings of "guess" while the line moves
            meta="your_line_shares",
        )
    ]


# -- the canvas's overlay --------------------------------------------------------------------------


def overlay(ctx: PanelContext) -> list[dict[str, Any]]:
    """The person's line, dashed, across the view, with a short arrow of its w into C1's side; the
    points' shares of the criterion when asked for."""
    if ctx.model is None:
        return []
    shares = _share_traces(ctx)
    line = guess_line(ctx.scene, ctx.model)
    if line is None:
        return shares
    segments = boundary_segments(line.w[None, :], np.array([line.w0]), ctx.window)
    if not segments:
        return shares
    _i, _j, start, end = segments[0]
    middle = (np.asarray(start) + np.asarray(end)) / 2
    window = ctx.window
    tip = middle + 0.12 * min(window.x_max - window.x_min, window.y_max - window.y_min) * line.w / line.norm
    name = _("your line")
    handles = [np.asarray(start) + f * (np.asarray(end) - np.asarray(start)) for f in HANDLE_PLACES]
    return shares + [
        dict(
            type="scatter",
            x=[float(start[0]), float(end[0])],
            y=[float(start[1]), float(end[1])],
            mode="lines",
            line=dict(color=GUESS_COLOUR, width=3, dash="dash"),
            name=name,
            hoverinfo="name",
            showlegend=False,
            meta="your_line",
        ),
        dict(
            type="scatter",
            x=[float(middle[0]), float(tip[0])],
            y=[float(middle[1]), float(tip[1])],
            mode="lines+markers",
            line=dict(color=GUESS_COLOUR, width=2),
            marker=dict(symbol="arrow", angleref="previous", size=[0, 12], color=GUESS_COLOUR),
            name=_("your w"),
            hoverinfo="name",
            showlegend=False,
            meta="your_line",
        ),
        dict(  # what the line tool drags (ui/plot/canvas_line.js); each carries the line's (w0, w1, w2)
            type="scatter",
            x=[float(h[0]) for h in handles],
            y=[float(h[1]) for h in handles],
            mode="markers",
            marker=dict(symbol="circle", size=11, color="white", line=dict(color=GUESS_COLOUR, width=2.5)),
            customdata=[[line.w0, float(line.w[0]), float(line.w[1])]] * len(handles),
            name=_("your line's handles"),
            hovertemplate=_("drag to move your line (line tool, key L)") + "<extra></extra>",
            showlegend=False,
            meta="your_line_handles",
        ),
    ]


# -- the panel -------------------------------------------------------------------------------------


def _typed() -> None:
    values = [widget_values().get(key) for key in KEYS]
    if any(value is None for value in values):
        return  # not all three typed yet
    guess, problem = usable_guess(values)
    if guess is None:
        state.notify(_("Your line {problem}; it was not changed.").format(problem=phrased(problem)))
        return
    state.set_scene(replace(state.scene(), guess=guess))


def _remove() -> None:
    state.set_scene(replace(state.scene(), guess=None))


def _hide(hidden: bool) -> None:
    state.set_scene(replace(state.scene(), fit_hidden=hidden))
    # The tabs change (the others wait while the fit is hidden): this one stays open, where the
    # person compares their line with the fit just revealed.
    visitor()[TAB_KEY] = tab_label(TITLE)


def _set_from(line: BookLine) -> None:
    state.set_scene(replace(state.scene(), guess=(float(line.w0), float(line.w[0]), float(line.w[1]))))


def _percent(value: float) -> str:
    return "—" if math.isnan(value) else f"{100 * value:.0f} %"


def _value(value: float) -> str:
    return "—" if math.isnan(value) else number_text(value, 4)


def _share_chosen(key: str, options: dict[str, Any]) -> None:
    options[SHARES] = widget_values()[key]


def _shares_control(ctx: PanelContext) -> None:
    """Which line's shares size the points (the options hold the value, which a link carries)."""
    key = "your_line_shares"
    widget_values()[key] = ctx.options.get(SHARES, "off")
    labels = {"off": _("off"), "fit": _("at the fit"), "guess": _("at your line")}
    st.radio(
        _("Ring each point by its share of the criterion"),
        list(labels),
        format_func=labels.__getitem__,
        key=key,
        horizontal=True,
        on_change=_share_chosen,
        args=(key, ctx.options),
        help=_(
            "A ring's size grows with the point's term of the criterion at that line (a squared residual, "
            "−ln p(tₙ), a hinge loss), the length of w taken as for the table: the points with the largest "
            "rings are those the line pays most for."
        ),
    )


def _inputs(ctx: PanelContext) -> None:
    guess = ctx.scene.guess
    for index, key in enumerate(KEYS):
        widget_values()[key] = None if guess is None else float(guess[index])
    columns = st.columns(3)
    for column, key, label in zip(columns, KEYS, ("w₀", "w₁", "w₂")):
        column.number_input(label, key=key, value=None, step=0.1, format="%.4g", on_change=_typed, placeholder="—")
    fit = None if ctx.scene.fit_hidden else book_line(ctx.shown_model)
    left, right = st.columns(2)
    if fit is not None:
        left.button(
            _("Start from the fit's line"),
            key="your_line_from_fit",
            on_click=_set_from,
            args=(fit,),
            use_container_width=True,
        )
    if guess is not None:
        right.button(_("Remove my line"), key="your_line_remove", on_click=_remove, use_container_width=True)


def _hide_or_reveal(ctx: PanelContext) -> None:
    """Predict first: hide the fit everywhere until the person asks to see it."""
    if ctx.scene.fit_hidden:
        st.button(
            _("Reveal the fit"),
            key="your_line_reveal",
            type="primary",
            on_click=_hide,
            args=(False,),
            disabled=ctx.scene.guess is None,
            help=_("Type your line first: then the fit is drawn beside it, with both lines' numbers."),
        )
    else:
        st.button(
            _("Hide the fit: I predict first"),
            key="your_line_hide",
            on_click=_hide,
            args=(True,),
            help=_("The plot, the status line and the other tabs keep the fit to themselves until you reveal it."),
        )


def render(ctx: PanelContext) -> None:
    _inputs(ctx)
    _hide_or_reveal(ctx)
    model = ctx.model
    if model is None:
        return
    guess = guess_line(ctx.scene, model)
    if guess is not None and ctx.scene.fit_hidden:
        training = ctx.scene.points.training
        X, y = training.X, training.y
        st.markdown(
            _("Your line classifies **{share}** of the training points correctly. Reveal the fit to compare.").format(
                share=_percent(accuracy(guess, X, y))
            )
        )
        return
    if guess is None:
        st.markdown(
            _(
                "Predict before you look: type the boundary you expect as y(x) = w₁x₁ + w₂x₂ + w₀ (y(x) ≥ 0 is "
                "C₁'s side), and this tab scores it beside the fit by every method's criterion."
            )
        )
        return
    fit = book_line(model)
    scored = []  # each criterion at both lines, once for the table and the sentence under it
    if ctx.scene.basis == "identity" and fit is not None:
        scored = scored_lines(
            ctx.scene, model, np.stack([back_end_weights(model, guess), back_end_weights(model, fit)])
        )
    st.markdown(_score_table(ctx.scene, model, guess, scored))
    if ctx.scene.basis != "identity" or fit is None:
        st.info(
            _(
                "With basis functions φ(x) the fit is a line in φ-space, not on this plane: only the share "
                "of points your line classifies correctly is compared."
            )
        )
        return
    estimator, own = criterion_model(ctx.scene, model)
    if not own:
        st.caption(
            _(
                "This method fits a density to each class, not a line, so it has no criterion of a line; lines "
                "are scored by the cross-entropy of logistic regression (eq. 4.90) instead."
            )
        )
    st.caption(_verdict(ctx.scene, model, guess, scored[0]))
    if getattr(estimator, "criterion_has_shares", False):
        _shares_control(ctx)
    _landscape(ctx, model, estimator)


def _landscape(ctx: PanelContext, model: Classifier, estimator: Any) -> None:
    """The criterion's landscape, with what it shows in words."""
    try:
        land = cached_landscape(ctx.scene, model)
    except PlaygroundError as err:
        st.warning(plain(phrased(err.message)))
        return
    chart(landscape_figure(ctx.scene, ctx, land, estimator), key="your_line_landscape")
    st.caption(
        _(
            "The landscape: the method's criterion at every line of the plane, by the angle of its w and its "
            "distance from the origin; a criterion that depends on the length of w is taken at the length "
            "that draws each line best. The star is the fit, the orange circle your line, the white path "
            "the fit's iterations."
        )
    )


def drawer(ctx: PanelContext) -> None:
    """Presentation: with a line of the person's, the drawer holds the criterion's landscape under the
    figure's text (the fit's star, the line's circle, dragged as in the tab) and one sentence of the
    two lines' scores; nothing while the fit is hidden (the landscape's optimum is the fit)."""
    model = ctx.model
    if model is None or ctx.scene.fit_hidden or ctx.scene.basis != "identity":
        return
    guess, fit = guess_line(ctx.scene, model), book_line(model)
    if guess is None or fit is None:
        return
    estimator, _own = criterion_model(ctx.scene, model)
    try:
        land = cached_landscape(ctx.scene, model)
        own = scored_lines(ctx.scene, model, np.stack([back_end_weights(model, guess), back_end_weights(model, fit)]))
    except PlaygroundError:
        return
    figure = landscape_figure(ctx.scene, ctx, land, estimator)
    # The drawer is narrow: the caption below names the star and the circle, the colour bar is thin.
    figure["layout"].update(height=DRAWER_LANDSCAPE_HEIGHT, margin=dict(l=6, r=6, t=10, b=6), showlegend=False)
    figure["data"][0]["colorbar"] = dict(thickness=8)
    chart(figure, key="your_line_landscape_drawer")
    training = ctx.scene.points.training
    st.caption(
        _(
            "Your line (the circle): {mine} correct, the fit (the star) {theirs}; {criterion}: {value} against "
            "the fit's {fit_value}."
        ).format(
            mine=_percent(accuracy(guess, training.X, training.y)),
            theirs=_percent(fit_accuracy(model, training.X, training.y)),
            criterion=own[0].label,
            value=_value(own[0].guess),
            fit_value=_value(own[0].fit),
        )
    )


def _score_table(scene: Scene, model: Classifier, guess: BookLine, scored: list[Scored]) -> str:
    training = scene.points.training
    X, y = training.X, training.y
    header = "| | " + _("your line") + " | " + _("the fit") + " |\n|:--|--:|--:|\n"
    rows = [
        "| "
        + _("training points classified correctly")
        + f" | {_percent(accuracy(guess, X, y))} | {_percent(fit_accuracy(model, X, y))} |"
    ]
    for row in scored:
        direction = _("maximised") if row.maximised else _("minimised")
        label = f"**{row.label}**" if row.own else row.label
        named = _("{criterion}, {direction}").format(criterion=label, direction=direction)
        rows.append(f"| {named} | {_value(row.guess)} | {_value(row.fit)} |")
    return header + "\n".join(rows)


def _verdict(scene: Scene, model: Classifier, guess: BookLine, own: Scored) -> str:
    """The sentence under the table: what the method's own criterion (``own``) says of both lines."""
    training = scene.points.training
    X, y = training.X, training.y
    mine, theirs = accuracy(guess, X, y), fit_accuracy(model, X, y)
    sentences = []
    if mine > theirs:
        sentences.append(
            _(
                "Your line classifies more training points correctly than the fit, yet the fit's criterion is "
                "better: the method optimises {criterion}, not the number of errors."
            ).format(criterion=own.label)
        )
    elif not math.isnan(own.guess) and not math.isnan(own.fit):
        sentences.append(
            _("By {criterion}, your line scores {mine} and the fit {theirs}.").format(
                criterion=own.label, mine=_value(own.guess), theirs=_value(own.fit)
            )
        )
    return join_sentences(*sentences)


def _applies(ctx: PanelContext) -> bool:
    return ctx.model is not None and is_two_class(ctx.model)


TITLE = N_("Your line")

PANELS = [
    Panel(
        title=TITLE,
        applies=_applies,
        render=render,
        overlay=overlay,
        drawer=drawer,
        order=72,
        while_fit_hidden=True,
        help=N_(
            "Type the line you expect before looking at the fit; it is drawn dashed on the plot and scored by "
            "each method's criterion, the function its fit optimises, beside the fit's line."
        ),
    )
]
