"""Plotly figure builders: regions, boundaries and points for the canvas.

Traces and the canvas figure are plain dicts in plotly.js's schema, not ``plotly.graph_objects``:
those validate every property on construction and again when assembled into a figure, work
repeated on every click for the canvas alone. ``go.Figure`` accepts these dicts as traces where a panel
wants one (it validates them then).
"""

from collections.abc import Iterable
from typing import Any, NamedTuple, TypedDict

import numpy as np
from numpy.typing import ArrayLike, NDArray

from playground import Window
from playground.scene import PointSet
from ui.engine.fitview import FitView, Segment
from ui.text.i18n import N_, _
from ui.text.names import N_CLASSES, class_name_html

from .caption import with_caption
from .plotly_config import offline
from .projector_sizes import LEGIBLE_PX
from .theme import (
    BOUNDARY_COLOUR,
    CLASS_COLOURS,
    CLASS_SYMBOLS,
    MARKER_OUTLINE,
    REGION_COLOURS,
    TEMPLATE_JSON,
)

OUTLINE_MAX_POINTS = 400  # markers with a dark rim up to this many points
LEGEND_RANK_BOUNDARY = 100  # after the classes, before the misclassified marks (plotly's default 1000)

Trace = dict[str, Any]  # a trace in plotly.js's schema


class SceneFigure(TypedDict):
    """The canvas figure (``scene_figure``): plotly.js's traces and layout, and the compact legend."""

    data: list[Trace]
    layout: dict[str, Any]
    compact: dict[str, Any]  # names, legend_title, optional, overlays (see ``_compact_legend``)


def _discrete_colourscale(colours):
    """Colourscale mapping integer z = 0..n-1 (with zmin=-0.5, zmax=n-0.5) to flat colours."""
    n = len(colours)
    scale = []
    for k, colour in enumerate(colours):
        scale += [[k / n, colour], [(k + 1) / n, colour]]
    return scale


def _axis_grid(window, shape):
    rows, cols = shape
    dx = (window.x_max - window.x_min) / cols
    dy = (window.y_max - window.y_min) / rows
    return dict(x0=window.x_min + dx / 2, dx=dx, y0=window.y_min + dy / 2, dy=dy)


def region_trace(region_labels: np.ndarray, window: Window) -> Trace:
    """Decision regions as a uint8 heatmap tinted by class (62 KiB for 200 x 200)."""
    return dict(
        type="heatmap",
        z=region_labels,
        **_axis_grid(window, region_labels.shape),
        colorscale=_discrete_colourscale(REGION_COLOURS),
        zmin=-0.5,
        zmax=len(REGION_COLOURS) - 0.5,
        showscale=False,
        hoverinfo="skip",
        name="regions",
    )


def region_polygon_traces(region_polygons: Iterable[tuple[int, ArrayLike]]) -> list[Trace]:
    """Exact decision regions: one filled trace per class (a class may own several polygons, e.g.
    under a one-versus-one vote), no hover (so a click on a region still reaches the plot as a
    click on empty space). An outline in the fill colour hides the hairline seams that
    anti-aliasing leaves between neighbouring polygons of one class."""
    by_class: dict[int, list[NDArray[np.float64]]] = {}
    for k, polygon in region_polygons:
        by_class.setdefault(int(k), []).append(np.asarray(polygon, dtype=float))
    traces: list[Trace] = []
    for k, polygons in by_class.items():
        xs, ys = _closed_paths(polygons)
        traces.append(
            dict(
                type="scatter",
                x=xs,
                y=ys,
                mode="lines",
                fill="toself",
                fillcolor=REGION_COLOURS[k],
                line=dict(width=1 if len(polygons) > 1 else 0, color=REGION_COLOURS[k]),
                hoverinfo="skip",
                hoveron="points",
                name="regions",
                showlegend=False,
            )
        )
    return traces


GappedList = list[float | None]  # coordinates, None where the line breaks


def _closed_paths(polygons):
    """x and y of several polygons as one path, each closed and separated by a gap (NaN: plotly.js
    reads it as a break, and a float array stays a compact typed array)."""
    if len(polygons) == 1:
        return polygons[0][:, 0], polygons[0][:, 1]
    gap = np.full((1, 2), np.nan)
    path = np.vstack([part for polygon in polygons for part in (polygon, polygon[:1], gap)][:-1])
    return path[:, 0], path[:, 1]


def gapped_paths(paths: Iterable[ArrayLike], digits: int | None = None) -> tuple[GappedList, GappedList]:
    """x and y of several polylines (each an (n, 2) array, a segment's being its two ends) as one
    trace's lists, a None after each: plotly.js breaks the line there, so one trace draws them
    all. ``digits`` rounds the coordinates (a shorter JSON). The regions use ``_closed_paths``
    instead: NaN gaps in float arrays, which stay compact typed arrays."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    for path in paths:
        points = np.asarray(path, dtype=float)
        if digits is not None:
            points = points.round(digits)
        xs += points[:, 0].tolist() + [None]
        ys += points[:, 1].tolist() + [None]
    return xs, ys


def segment_trace(segments: Iterable[Segment]) -> Trace:
    """Exact boundary line segments, drawn as one trace separated by gaps."""
    xs, ys = gapped_paths((start, end) for _unused, _unused, start, end in segments)
    return dict(
        type="scatter",
        x=xs,
        y=ys,
        mode="lines",
        line=dict(color=BOUNDARY_COLOUR, width=2.5),
        hoverinfo="skip",
        name="decision boundary",
        meta="boundary",
        legendrank=LEGEND_RANK_BOUNDARY,
    )


def contour_traces(field: np.ndarray, window: Window) -> list[Trace]:
    """Curved boundaries: the zero level set of each channel of ``field`` (R, R, C)."""
    traces: list[Trace] = []
    for channel in range(field.shape[2]):
        traces.append(
            dict(
                type="contour",
                z=field[..., channel],
                **_axis_grid(window, field.shape[:2]),
                contours=dict(start=0, end=0, size=1, coloring="none"),
                line=dict(color=BOUNDARY_COLOUR, width=2.5),
                showscale=False,
                hoverinfo="skip",
                name="decision boundary",
                meta="boundary",
                legendrank=LEGEND_RANK_BOUNDARY,
                showlegend=channel == 0,
            )
        )
    return traces


def point_traces(points: PointSet, scale: float = 1.0, switching: bool = False) -> list[Trace]:
    """Marker traces per class: own colour and symbol; customdata = the point's index in ``points``.

    Test points (which no fit uses) are drawn hollow, in their class's colour and symbol, in one
    more trace per class; the legend names them once ("test (hollow)"). ``switching``: a click on
    a point switches it between training and test (the hover says so) instead of removing it.
    """
    X, y, is_test = points.X, points.y, points.is_test
    # A dark rim keeps touching markers apart and reads on any region or posterior colour; stroking
    # every marker slows plotly.js's redraw in proportion to the points, so a dense cloud goes without.
    outline = dict(color=MARKER_OUTLINE, width=1) if len(points) <= OUTLINE_MAX_POINTS else dict(width=0)
    traces: list[Trace] = []
    test_legend = True
    hints = (_("drag to move · Alt-click erases"),) * 2
    if switching:
        hints = (_("click: make it a test point"), _("click: make it a training point"))
    for k in range(N_CLASSES):
        for test in (False, True) if points.test else (False,):
            members = np.flatnonzero((y == k) & (is_test == test))
            if members.size == 0:
                continue
            trace = dict(
                type="scatter",
                # float32 and int32 halve the bytes sent per click; 7 digits is far below a pixel.
                x=X[members, 0].astype(np.float32),
                y=X[members, 1].astype(np.float32),
                customdata=members.astype(np.int32),
                mode="markers",
                marker=dict(color=CLASS_COLOURS[k], symbol=CLASS_SYMBOLS[k], size=10 * scale, line=outline),
                name=class_name_html(k),
                legendrank=k + 1,  # the classes first in the legend, after its title
                meta="points",
                zorder=1,  # above the misclassified rings (a ring never hides a point, nor its neighbour)
                hovertemplate=f"{class_name_html(k)}<br>(%{{x:.3g}}, %{{y:.3g}})<br>{hints[0]}<extra></extra>",
            )
            if test:
                trace.update(
                    # Hollow: the class's colour and shape as a thick rim around a pale centre, which
                    # reads on every region tint (an open symbol's rim vanished on its own region).
                    marker=dict(
                        color=TEST_FILL,
                        symbol=CLASS_SYMBOLS[k],
                        size=11 * scale,
                        line=dict(width=2.5 * scale, color=CLASS_COLOURS[k]),
                    ),
                    name=TEST_LEGEND,
                    legendrank=N_CLASSES + 1,
                    showlegend=test_legend,
                    hovertemplate=_("{name}, test point (no fit uses it)").format(name=class_name_html(k))
                    + f"<br>(%{{x:.3g}}, %{{y:.3g}})<br>{hints[1]}<extra></extra>",
                )
                test_legend = False
            traces.append(trace)
    return traces


TEST_LEGEND = "test (hollow)"
TEST_FILL = "rgba(255, 255, 255, 0.7)"


def misclassified_trace(
    points: PointSet, predicted: NDArray[Any] | None, scale: float = 1.0, test_predicted: NDArray[Any] | None = None
) -> Trace:
    """Rings around the misclassified points: training points by ``predicted`` (one label per
    training point), test points by ``test_predicted`` (one per test point) when given."""
    is_test = points.is_test
    wrong = np.zeros(len(points), dtype=bool)
    if predicted is not None:
        wrong[np.flatnonzero(~is_test)] = predicted != points.y[~is_test]
    if test_predicted is not None:
        wrong[np.flatnonzero(is_test)] = test_predicted != points.y[is_test]
    X = points.X[wrong]
    return dict(
        type="scatter",
        x=X[:, 0],
        y=X[:, 1],
        mode="markers",
        hoverinfo="skip",
        name="misclassified",
        meta="marks",
        # A thin ring, drawn below the points (their ``zorder``): in a dense cloud a neighbour's
        # ring passes under a point, never over it.
        marker=dict(symbol="circle-open", size=19 * scale, color=BOUNDARY_COLOUR, line=dict(width=2 * min(scale, 1.2))),
    )


def _any_wrong(points, predicted, test_predicted):
    is_test = points.is_test
    wrong_training = predicted is not None and np.any(predicted != points.y[~is_test])
    wrong_test = test_predicted is not None and np.any(test_predicted != points.y[is_test])
    return bool(wrong_training or wrong_test)


class FigureParts(NamedTuple):
    """A canvas figure but for the panels' overlays and the caption (``figure_parts``): what a
    scene's fit draws the same whoever asks, so a drawing can be made once and shared
    (``ui.plot.render``). Its traces and layout are read, never changed: ``assembled`` copies what
    it adds to."""

    fit: tuple[Trace, ...]  # the regions (unless painted) and the boundary, below everything
    marks: tuple[Trace, ...]  # the points and the misclassified rings, above the overlays
    layout: dict[str, Any]


def scene_figure(
    points: PointSet,
    view: FitView,
    window: Window,
    view_revision: int,
    overlays: Iterable[Any] = (),  # dicts in plotly.js's schema or plotly.graph_objects traces
    scale: float = 1.0,
    legend: bool = True,
    test_predicted: NDArray[Any] | None = None,
    switching: bool = False,
    painted: bool = False,
    caption: str | None = None,
) -> SceneFigure:
    """The canvas figure, a dict {"data", "layout", "compact"}: regions, boundary, panel overlays,
    points and misclassified marks. ``scale`` enlarges markers and fonts (presentation mode).
    ``view`` is the fit to the training points; ``test_predicted`` the fit's labels of the test
    points (rings mark the misclassified ones too); ``switching``: clicks switch points between
    training and test (the points' hover text says so); ``painted``: a panel overlay (kept by the
    canvas, not given here) paints the plane, so no regions are drawn (the live route's figures);
    ``caption``: the line naming the method and its accuracy (``ui.plot.caption``), the figure's title.

    The axes show exactly ``window``: equal scales shrink the plot area along one axis
    (``constrain="domain"``) instead of widening a range, so the view never moves by itself when
    the plot's shape changes (legend, presentation, comparison, window size). The legend is one
    row in a band above the plot: classes, the boundary and the misclassified marks, and the marks a
    panel draws on or over the points (``MARKED_OVERLAYS``: they would read as the plot's own marks);
    the panels' other overlays are explained in their panel. "compact" holds the shorter legend the
    canvas falls back to when that row does not fit (see ``ui/plot/canvas.py``).
    """
    overlays = list(overlays)
    painted = paints_the_plane(overlays, painted)
    parts = figure_parts(points, view, window, view_revision, scale, legend, test_predicted, switching, painted)
    return assembled(parts, overlays, scale=scale, legend=legend, caption=caption)


def paints_the_plane(overlays: Iterable[Any], painted: bool = False) -> bool:
    """Whether no regions are drawn: ``painted`` (the canvas keeps a posterior overlay) or a panel
    overlay paints the plane itself (the posterior display), which stands in for the regions:
    plotly draws every heatmap below every filled scatter, so region polygons would hide it."""
    return painted or any(_meta(trace) == "posterior" for trace in overlays)


def figure_parts(
    points: PointSet,
    view: FitView,
    window: Window,
    view_revision: int,
    scale: float = 1.0,
    legend: bool = True,
    test_predicted: NDArray[Any] | None = None,
    switching: bool = False,
    painted: bool = False,
) -> FigureParts:
    """The fit's traces, the points' and the rings, and the layout, in the session's language (see
    ``scene_figure`` for the arguments)."""
    marks = point_traces(points, scale, switching)
    if _any_wrong(points, view.predicted, test_predicted):
        marks.append(misclassified_trace(points, view.predicted, scale, test_predicted))
    return FigureParts(
        tuple(_fit_traces(view, window, painted)), tuple(marks), _canvas_layout(window, view_revision, scale, legend)
    )


def assembled(
    parts: FigureParts,
    overlays: Iterable[Any] = (),
    *,
    scale: float = 1.0,
    legend: bool = True,
    caption: str | None = None,
) -> SceneFigure:
    """``parts`` with the panels' ``overlays`` between the fit and the points, and the ``caption``:
    a new figure (a new list of copies of the parts' traces and a new layout: the parts stay as they
    were), the legend's own entries named in the session's language (the classes already are)."""
    overlay_traces = [_overlay_trace(trace) for trace in overlays]
    traces = [*parts.fit, *overlay_traces, *parts.marks]
    overlay_range = [len(parts.fit), len(parts.fit) + len(overlay_traces)]  # the canvas keeps these in a live figure
    compact = _compact_legend(traces, overlay_range)  # from the entries' English names
    layout = dict(parts.layout)
    if caption:
        layout = with_caption(layout, caption, scale, narrow=not legend)  # no legend: the comparison's
    data = [
        {**trace, "name": _(trace["name"])} if trace.get("name") in LEGEND_ENTRIES else dict(trace) for trace in traces
    ]
    return SceneFigure(data=data, layout=layout, compact=compact)


def _fit_traces(view, window, painted):
    """The fit's own traces: the regions (none when a panel paints the plane) and the boundary."""
    traces = []
    if view.region_polygons:
        if not painted:
            traces += region_polygon_traces(view.region_polygons)
        traces.append(segment_trace(view.segments))
    elif view.region_labels is not None:
        if not painted:
            traces.append(region_trace(view.region_labels, window))
        if view.segments:
            traces.append(segment_trace(view.segments))
        elif view.contour_field is not None:
            traces += contour_traces(view.contour_field, window)
    return traces


def _canvas_layout(window, view_revision, scale, legend):
    """The canvas's layout: exactly ``window`` at equal scales, the legend's band above the plot."""
    font_size = 13 * scale
    return dict(
        template=TEMPLATE_JSON,
        font=dict(size=font_size),
        margin=canvas_margin(scale, legend),
        xaxis=dict(
            range=[window.x_min, window.x_max],
            constrain="domain",
            title=dict(text="x₁", standoff=4 * scale),
            automargin=True,
            # Presentation: no axis zero lines, which ran on past the painted regions of a
            # comparison's shorter plot (the boundary and the axes' frame say where the plot is).
            **({"zeroline": False} if scale > 1 else {}),
        ),
        yaxis=dict(
            range=[window.y_min, window.y_max],
            scaleanchor="x",
            scaleratio=1,
            constrain="domain",
            constraintoward="top",  # next to the legend band
            title=dict(text="x₂", standoff=4 * scale),
            automargin=True,
            **({"zeroline": False} if scale > 1 else {}),
        ),
        uirevision=view_revision,  # keeps the user's zoom across reruns until the app moves the view
        dragmode="zoom",
        hovermode="closest",
        clickmode="event",
        clickanywhere=True,  # plotly_click also for empty space, with data coordinates
        # In the band above the plot area; the toolbar stands in the right margin beside it.
        # traceorder "normal": an overlay's legendgroup (the ellipses) would make plotly group the
        # entries, and a horizontal grouped legend stacks them one per row.
        legend=dict(
            orientation="h",
            x=0,
            xanchor="left",
            y=1,
            yanchor="bottom",
            yref="paper",
            valign="middle",
            traceorder="normal",
            font=dict(size=13 * legend_scale(scale)),
        ),
        modebar=dict(orientation="v"),
        showlegend=legend,
    )


def _compact_legend(traces, overlay_range):
    """The shorter legend the canvas falls back to when the full one does not fit one row."""
    names = [trace.get("name") if trace.get("showlegend", True) is not False else None for trace in traces]
    numbers: dict[str, str] = {}  # the compact legend numbers classes (two classes of one name: the first one's number)
    for k in range(N_CLASSES):
        numbers.setdefault(class_name_html(k), str(k + 1))
    return dict(
        names=[_compact_name(name, numbers) if name else None for name in names],
        legend_title=_("class"),
        # Left out of the narrowest legends, in this order: the status line under the plot counts
        # the misclassified points and the caption names the boundary; the classes always stay.
        optional=[[index for index, name in enumerate(names) if name == drop] for drop in OPTIONAL_ENTRIES],
        overlays=overlay_range,
    )


def _compact_name(name: str, numbers: dict[str, str]) -> str:
    """An entry's name in the compact legend: a shorter word for the plot's own entries, in the
    session's language (every one of them, "misclassified" too), a class's number, or the name."""
    if name in COMPACT_NAMES:
        return _(COMPACT_NAMES[name])
    if name in LEGEND_ENTRIES:
        return _(name)
    return numbers.get(name, name)


# Panel overlays that mark points or sit among them: named in the canvas's legend, after its own
# entries, and drawn above the points (plotly's zorder), so a centre the text refers to is never
# hidden under a point and a ring is never taken for a misclassified mark.
MARKED_OVERLAYS = frozenset({"chosen point", "centres", "rbf_centres"})
LEGEND_RANK_OVERLAY = 2000
OVER_POINTS = 10  # zorder of the marked overlays (the points' is 1, the rings' plotly's 0)


def _overlay_trace(trace):
    trace = _as_dict(trace)
    if _meta(trace) not in MARKED_OVERLAYS:
        return {**trace, "showlegend": False}
    return {**trace, "showlegend": True, "legendrank": LEGEND_RANK_OVERLAY, "zorder": OVER_POINTS}


COMPACT_NAMES = {"decision boundary": N_("boundary"), TEST_LEGEND: N_("test")}
OPTIONAL_ENTRIES = ("misclassified", "decision boundary")
LEGEND_ENTRIES = frozenset({N_("decision boundary"), N_("misclassified"), N_("test (hollow)"), N_("regions")})


def canvas_margin(scale: float = 1.0, legend: bool = True) -> dict[str, int]:
    """Margins in pixels: tick labels and axis titles left and below, the legend band above (when
    shown), the vertical toolbar on the right. The band holds the one-row legend whole, so the plot
    area does not move when the legend appears (the first point on an empty plot)."""
    return dict(
        l=round(44 * scale),
        r=36,
        t=round(42 * legend_scale(scale)) if legend else round(8 * scale),
        b=round(44 * scale),
    )


def legend_scale(scale: float) -> float:
    """The legend grows less than the rest in presentation (its band costs the plot's height), but
    never below the legibility floor there (13 px x this >= ``LEGIBLE_PX``)."""
    return min(scale, 1.3) if scale <= 1 else max(min(scale, 1.3), LEGIBLE_PX / 13)


def _meta(trace):
    return trace.get("meta") if isinstance(trace, dict) else getattr(trace, "meta", None)


def _as_dict(trace):
    """A panel's overlay may be a ``plotly.graph_objects`` trace: its (already validated) dict."""
    return trace if isinstance(trace, dict) else trace.to_plotly_json()


# The canvas's plotly.js config. A double-click is two clicks (each adds its point in the add tool),
# never plotly's zoom reset; the view is fitted by the canvas's own toolbar button (⌂), the
# sidebar's Fit view and the key F. plotly's image button gives way to the canvas's offline PNG /
# SVG downloads, and nothing offers an upload (``offline``).
FIGURE_CONFIG = offline(
    {
        "displaylogo": False,
        "scrollZoom": False,  # the wheel scrolls the page; the canvas zooms on Ctrl/⌘ + wheel itself
        "modeBarButtonsToRemove": ["autoScale2d", "resetScale2d", "toImage"],
        "doubleClick": False,
    }
)
