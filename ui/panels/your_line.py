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
  training points and the method's settings once and kept in the session's cache.
- The density models (the Gaussian classes, naive Bayes) have no criterion of a line: the page
  scores lines for them by the cross-entropy and says so. On a basis phi(x) the criteria are in
  phi-space, where a line of the plane is no line: accuracy alone.
- Every number is computed from the scene; the conversion to the book's sign is
  ``ui.text.convention``'s.
"""

import math
from dataclasses import replace
from typing import Any, NamedTuple

import numpy as np
import streamlit as st

from playground import CARDS, Classifier, PlaygroundError, make_model
from playground.geometry import boundary_segments
from playground.landscape import best_scale_values, unit_lines
from playground.link import usable_guess
from playground.scene import Scene
from playground.validation import FloatArray
from ui.base.visitor import TAB_KEY, visitor, widget_values
from ui.plot.chart import chart
from ui.plot.theme import TEMPLATE
from ui.session import state
from ui.text.convention import BookLine, book_classes, book_line, book_weights, is_two_class
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import phrased

from . import Panel, PanelContext, join_sentences, number_text, tab_label

GUESS_COLOUR = "#e8590c"
KEYS = ("your_line_w0", "your_line_w1", "your_line_w2")
LANDSCAPE_ANGLES = 72  # 5° apart
LANDSCAPE_OFFSETS = 60
MAX_PATH_POINTS = 300  # the optimiser's steps drawn on the landscape (evenly sampled beyond)
# The criterion that scores a line for a method that has none of its own (a density model).
STAND_IN = "logistic"


class Scored(NamedTuple):
    """One criterion's values at the person's line and the fit's (NaN: not defined there)."""

    label: str
    guess: float
    fit: float
    maximised: bool
    own: bool  # the method's own criterion (or its stand-in)


# -- the line in the two conventions -----------------------------------------------------------


def guess_line(scene: Scene, model: Classifier) -> BookLine | None:
    """The person's line as a ``BookLine`` of the model's classes, or None."""
    if scene.guess is None or not is_two_class(model):
        return None
    w0, w1, w2 = scene.guess
    first, second = book_classes(model)
    return BookLine(np.array([w1, w2]), w0, first, second)


def back_end_weights(model: Classifier, line: BookLine) -> FloatArray:
    """The line (book) as the back-end's [w0, w1, w2] (a > 0 means ``classes_[1]``)."""
    return book_weights(model, np.concatenate([[line.w0], line.w]))


def accuracy(line: BookLine, X: FloatArray, y: Any) -> float:
    """The share of the points the line puts on their class's side (y(x) >= 0 -> C1)."""
    predicted = np.where(line.value(X) >= 0, line.c1, line.c2)
    return float(np.mean(predicted == np.asarray(y))) if len(X) else math.nan


def fit_accuracy(model: Classifier, X: FloatArray, y: Any) -> float:
    return float(np.mean(model.predict(X) == np.asarray(y))) if len(X) else math.nan


# -- the criteria ----------------------------------------------------------------------------------


def criterion_model(scene: Scene, model: Classifier) -> tuple[Any, bool]:
    """The estimator whose criterion scores lines for this scene (the method's own, with its
    settings; the stand-in for a density model) and whether it is the method's own."""
    if getattr(model, "criterion_defined", False) and hasattr(model, "criterion_at"):
        return model, True
    return make_model(STAND_IN), False


def criterion_label(estimator: Any) -> str:
    """'cross-entropy (eq. 4.90)', in the page's language."""
    return _("{criterion} (eq. {equation})").format(
        criterion=_(estimator.criterion_name), equation=estimator.criterion_equation
    )


def scored_lines(scene: Scene, model: Classifier, lines: FloatArray) -> list[Scored]:
    """Each criterion (the method's first, then each other method's with its defaults, one per
    name) at the back-end lines ``lines`` (2, 3): the person's and the fit's, at their best scales."""
    X, y = scene.points.X, scene.points.y
    own, is_own = criterion_model(scene, model)
    estimators = [(own, True)]
    names = {own.criterion_name}
    for card in CARDS:
        other: Any = make_model(card.name)
        if getattr(other, "criterion_defined", False) and other.criterion_name not in names:
            names.add(other.criterion_name)
            estimators.append((other, False))
    rows = []
    for estimator, first in estimators:
        try:
            values = best_scale_values(estimator, X, y, unit_lines(lines)).values
        except PlaygroundError:
            values = np.full(2, math.nan)
        label = criterion_label(estimator)
        rows.append(Scored(label, float(values[0]), float(values[1]), estimator.criterion_maximised, first and is_own))
    if not is_own:
        rows[0] = rows[0]._replace(own=True)
    return rows


# -- the landscape ---------------------------------------------------------------------------------


class Landscape(NamedTuple):
    angles: FloatArray  # degrees, the book's w direction
    offsets: FloatArray  # the boundary's signed distance from the origin (eq. 4.5)
    values: FloatArray  # (offsets, angles), NaN where not finite


def polar(line: BookLine) -> tuple[float, float]:
    """(angle of w in degrees, -w0/||w||): the line's place on the landscape."""
    return math.degrees(math.atan2(line.w[1], line.w[0])), line.distance_from_origin


def offset_range(scene: Scene) -> tuple[float, float]:
    """The distances from the origin of the lines that cross the view."""
    window = scene.window
    corners = np.array(
        [
            [window.x_min, window.y_min],
            [window.x_min, window.y_max],
            [window.x_max, window.y_min],
            [window.x_max, window.y_max],
        ]
    )
    reach = float(np.max(np.linalg.norm(corners, axis=1)))
    return -reach, reach


def centre_angle(model: Classifier) -> float:
    """The angle the landscape is centred on: the fit's (its basin then lies whole in the middle)."""
    fit = book_line(model)
    return 0.0 if fit is None else round(polar(fit)[0])


def wrapped(angle: float, centre: float) -> float:
    """``angle`` moved by whole turns into [centre - 180, centre + 180)."""
    return centre + (angle - centre + 180.0) % 360.0 - 180.0


def landscape(scene: Scene, model: Classifier) -> Landscape:
    """The method's criterion (at the best scale) over the lines of the view, one vectorised pass."""
    estimator, _own = criterion_model(scene, model)
    angles = centre_angle(model) + np.linspace(-180.0, 180.0, LANDSCAPE_ANGLES + 1)
    low, high = offset_range(scene)
    offsets = np.linspace(low, high, LANDSCAPE_OFFSETS)
    theta, offset = np.meshgrid(np.radians(angles), offsets)
    book = np.stack([-offset.ravel(), np.cos(theta.ravel()), np.sin(theta.ravel())], axis=1)
    values = best_scale_values(estimator, scene.points.X, scene.points.y, book_weights(model, book)).values
    values = np.where(np.isfinite(values), values, np.nan).reshape(offset.shape)
    return Landscape(angles, offsets, values)


def _cached_landscape(scene: Scene, model: Classifier) -> Landscape:
    key = ("your_line_landscape", hash(replace(scene, guess=None, step=None, view_revision=0)))
    store = widget_values()
    cached = store.get("_your_line_landscape")
    if cached is not None and cached[0] == key:
        return cached[1]
    with st.spinner(_("Drawing the criterion's landscape over the lines of the plane…")):
        made = landscape(scene, model)  # about 0.5 s for probit's exact ln Φ, 50 ms for the others
    store["_your_line_landscape"] = (key, made)
    return made


def path_points(model: Classifier, upto: int | None = None) -> list[tuple[float, float]]:
    """The optimiser's iterates (playback's steps 0, 1, ..., ``upto``; all when None) as landscape
    points, at most ``MAX_PATH_POINTS`` of them (evenly sampled, the last step always in)."""
    steps = len(getattr(model, "history_", ()) or ())
    if not steps or not hasattr(model, "at_step"):
        return []
    last = steps if upto is None else max(0, min(int(upto), steps))
    chosen = sorted(set(np.linspace(0, last, min(last + 1, MAX_PATH_POINTS)).round().astype(int).tolist()))
    points = []
    for step in chosen:
        try:
            line = book_line(model.at_step(step))
        except (PlaygroundError, IndexError, ValueError):
            continue
        if line is not None:
            points.append(polar(line))
    return points


def _contour_trace(land: Landscape, estimator: Any) -> dict[str, Any]:
    return dict(
        type="contour",
        x=land.angles.tolist(),
        y=land.offsets.tolist(),
        z=[[None if math.isnan(v) else round(float(v), 6) for v in row] for row in land.values],
        colorscale="Viridis",
        reversescale=not estimator.criterion_maximised,  # the optimum bright
        contours=dict(coloring="heatmap"),
        ncontours=24,
        line=dict(width=0.5),
        colorbar=dict(thickness=12, title=dict(text=_(estimator.criterion_name), side="right")),
        hovertemplate=_("angle of w %{x:.0f}°<br>−w₀/‖w‖ = %{y:.2f}<br>value %{z:.4g}") + "<extra></extra>",
        name=_(estimator.criterion_name),
    )


def _marker_trace(line: BookLine, centre: float, marker: dict[str, Any], name: str) -> dict[str, Any]:
    """One line as a marker on the landscape, its angle wrapped into the figure's range."""
    angle, offset = polar(line)
    return dict(type="scatter", x=[wrapped(angle, centre)], y=[offset], mode="markers", marker=marker, name=name)


def _landscape_layout(centre: float) -> dict[str, Any]:
    ticks = [45 * k for k in range(math.ceil((centre - 180) / 45), math.floor((centre + 180) / 45) + 1)]
    return dict(
        template=TEMPLATE,
        height=380,
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis=dict(
            title=dict(text=_("angle of w (°), into C₁")),
            range=[centre - 180, centre + 180],
            # Ticks at the multiples of 45°, each written as the angle in (−180°, 180°].
            tickvals=ticks,
            ticktext=[number_text(-((180 - tick) % 360) + 180, 3) for tick in ticks],
        ),
        yaxis=dict(title=dict(text=_("−w₀/‖w‖ (eq. 4.5)"))),
        legend=dict(orientation="h", y=1.02, yanchor="bottom", x=0),
        showlegend=True,
    )


def landscape_figure(scene: Scene, ctx: PanelContext, land: Landscape, estimator: Any) -> dict[str, Any]:
    """The landscape as a plotly figure (a dict in plotly.js's schema): the criterion's contours, the
    fit's optimum, the optimiser's path up to the step shown, and the person's line."""
    data = [_contour_trace(land, estimator)]
    centre = float(land.angles[0]) + 180.0
    steps = path_points(ctx.model, scene.step) if ctx.model is not None else []
    upto = [(wrapped(angle, centre), offset) for angle, offset in steps]
    if upto:
        data.append(
            dict(
                type="scatter",
                x=[p[0] for p in upto],
                y=[p[1] for p in upto],
                mode="lines+markers",
                line=dict(color="white", width=1.5),
                marker=dict(size=4, color="white"),
                name=_("the optimiser's path"),
                hoverinfo="skip",
            )
        )
    fit = book_line(ctx.shown_model)
    if fit is not None:
        star = dict(symbol="star", size=16, color="#111111", line=dict(color="white", width=1.5))
        data.append(_marker_trace(fit, centre, star, _("the fit")))
    guess = guess_line(scene, ctx.model) if ctx.model is not None else None
    if guess is not None:
        circle = dict(symbol="circle", size=13, color=GUESS_COLOUR, line=dict(color="white", width=2))
        data.append(_marker_trace(guess, centre, circle, _("your line")))
    return {"data": data, "layout": _landscape_layout(centre)}


# -- each point's share ----------------------------------------------------------------------------

SHARES = "point_shares"  # ctx.options key: "off", "fit" or "guess"
SHARE_SIZES = (6.0, 34.0)  # px: the smallest and largest ring


def point_shares(scene: Scene, model: Classifier, line: BookLine) -> FloatArray | None:
    """Each training point's share of the method's criterion (or its stand-in's) at ``line``, at the
    line's best scale; None where the criterion is no sum over the points (Fisher's J) or the fit
    is not on this plane (a basis)."""
    estimator, _own = criterion_model(scene, model)
    if scene.basis != "identity" or not getattr(estimator, "criterion_has_shares", False):
        return None
    X, y = scene.points.X, scene.points.y
    unit = unit_lines(back_end_weights(model, line)[None, :])
    scale = float(best_scale_values(estimator, X, y, unit).scales[0])
    return np.asarray(estimator.criterion_terms(X, y, unit[0] * scale).points, dtype=float)


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
    largest = float(np.max(shares))
    relative = np.sqrt(shares / largest) if largest > 0 else np.zeros_like(shares)
    low, high = SHARE_SIZES
    X = ctx.scene.points.X
    colour = GUESS_COLOUR if which == "guess" else "#111111"
    return [
        dict(
            type="scatter",
            x=X[:, 0].tolist(),
            y=X[:, 1].tolist(),
            mode="markers",
            marker=dict(
                symbol="circle-open",
                size=(low + (high - low) * relative).round(1).tolist(),
                color=colour,
                line=dict(width=1.5),
            ),
            customdata=shares.round(6).tolist(),
            hovertemplate=_("share of the criterion: %{customdata:.4g}") + "<extra></extra>",
            name=_("each point's share"),
            showlegend=False,
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
        X, y = ctx.scene.points.X, ctx.scene.points.y
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
    st.markdown(_score_table(ctx.scene, model, guess, fit))
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
    st.caption(_verdict(ctx.scene, model, guess, fit))
    if getattr(estimator, "criterion_has_shares", False):
        _shares_control(ctx)
    try:
        land = _cached_landscape(ctx.scene, model)
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


def _score_table(scene: Scene, model: Classifier, guess: BookLine, fit: BookLine | None) -> str:
    X, y = scene.points.X, scene.points.y
    header = "| | " + _("your line") + " | " + _("the fit") + " |\n|:--|--:|--:|\n"
    rows = [
        "| "
        + _("training points classified correctly")
        + f" | {_percent(accuracy(guess, X, y))} | {_percent(fit_accuracy(model, X, y))} |"
    ]
    if scene.basis == "identity" and fit is not None:
        lines = np.stack([back_end_weights(model, guess), back_end_weights(model, fit)])
        for row in scored_lines(scene, model, lines):
            direction = _("maximised") if row.maximised else _("minimised")
            label = f"**{row.label}**" if row.own else row.label
            named = _("{criterion}, {direction}").format(criterion=label, direction=direction)
            rows.append(f"| {named} | {_value(row.guess)} | {_value(row.fit)} |")
    return header + "\n".join(rows)


def _verdict(scene: Scene, model: Classifier, guess: BookLine, fit: BookLine) -> str:
    X, y = scene.points.X, scene.points.y
    lines = np.stack([back_end_weights(model, guess), back_end_weights(model, fit)])
    own = scored_lines(scene, model, lines)[0]
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
        order=72,
        while_fit_hidden=True,
        help=N_(
            "Type the line you expect before looking at the fit; it is drawn dashed on the plot and scored by "
            "each method's criterion, the function its fit optimises, beside the fit's line."
        ),
    )
]
