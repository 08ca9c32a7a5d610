"""The caption on the plot: what the audience sees, named on the figure itself.

Rules that hold:

- A line or two above the legend band (a comparison's narrow canvas: one part a line): the
  method with its section ("Least squares (§4.1.3)"), the multi-class strategy when more than two
  classes use it, the basis when there is one, and the training (and test) accuracy of the fit
  drawn, as the status line computes them.
- It is part of the figure's layout (an annotation), so the PNG and SVG downloads carry it; a
  drag's live frames keep the committed figure's layout, caption included (the plot never moves
  while a drag redraws it). Its band is always there, with or without a fit, and its line breaks
  count every percentage as its longest.
- In presentation (a comparison's canvas) a part longer than the canvas breaks before a
  parenthesis, never inside one; the type is not made smaller (the legibility floor).
- No visitor's text goes into it (no class names); what goes in is escaped for plotly's HTML-like
  labels anyway.
"""

import html
import re
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from playground.scene import Scene
from ui.engine.fitview import FitView
from ui.text.i18n import _
from ui.text.labels import BASIS_LABELS, MULTICLASS_LABELS, method_label

CAPTION_SIZE = 14  # px at scale 1 (presentation multiplies it, up to CAPTION_MAX_SCALE)
CAPTION_MAX_SCALE = 1.3  # like the legend's: the band costs the plot's height
LINE_CHARACTERS = 60  # a longer caption breaks at its " · " (plotly does not wrap a label): ~420 px at
# 14 px, ~510 px at 18 px, within the canvas from an 800 px window to presentation
SEPARATOR = " · "
PERCENT = re.compile(r"\d{1,3}\.\d%")


def caption_text(
    scene: Scene, view: FitView | None = None, test_predicted: NDArray[Any] | None = None, settings: bool = True
) -> str:
    """The caption's words for ``scene`` and the fit drawn (``view``: ``ui.engine.fitview.FitView``);
    ``settings`` False leaves out the strategy and the basis (a comparison's title names them)."""
    parts = [method_label(scene.method)] + (_settings(scene) if settings else [])
    if view is not None and view.accuracy is not None:
        parts.append(_("training accuracy {accuracy}").format(accuracy=f"{view.accuracy:.1%}"))
    if test_predicted is not None and len(test_predicted):
        accuracy = float(np.mean(np.asarray(test_predicted) == scene.points.testing.y))
        parts.append(_("test accuracy {accuracy}").format(accuracy=f"{accuracy:.1%}"))
    return SEPARATOR.join(parts)


def _settings(scene: Scene) -> list[str]:
    """The strategy (with three or more classes) and the basis (when there is one), in words."""
    words = []
    if np.count_nonzero(scene.training.points.counts()) > 2 and scene.multiclass in MULTICLASS_LABELS:
        words.append(_(MULTICLASS_LABELS[scene.multiclass]))
    if scene.basis != "identity" and scene.basis in BASIS_LABELS:
        words.append(_("basis: {basis}").format(basis=_(BASIS_LABELS[scene.basis])))
    return words


def _length(text: str) -> int:
    """Characters of ``text``, every percentage counted as its longest ("100.0%"): the lines must not
    change while a drag changes an accuracy (the plot would move under the pointer)."""
    return len(PERCENT.sub("100.0%", text))


def caption_lines(text: str, width: int = LINE_CHARACTERS) -> list[str]:
    """The caption's lines: its parts joined while a line stays within ``width`` characters."""
    lines: list[str] = []
    for part in text.split(SEPARATOR):
        if lines and _length(lines[-1]) + len(SEPARATOR) + _length(part) <= width:
            lines[-1] += SEPARATOR + part
        else:
            lines.append(part)
    return lines


NARROW_PRESENTING_CHARACTERS = 36  # ~420 px at 18 px: a comparison's canvas in presentation


def _lines(text: str, narrow: bool, scale: float = 1.0) -> list[str]:
    """The lines of the caption as drawn: one part a line on a narrow canvas; in presentation
    (``scale`` > 1) a longer part there breaks before its last parenthesis ("Softmax regression
    (multiclass logistic)" / "(§4.3.4)"), never inside it, so the type keeps its size."""
    if not narrow:
        return caption_lines(text, LINE_CHARACTERS)
    lines = caption_lines(text, 0)
    if scale <= 1:
        return lines
    wrapped = []
    for line in lines:
        while _length(line) > NARROW_PRESENTING_CHARACTERS and " (" in line[1:]:
            head, tail = _break(line)
            if not head:
                break
            wrapped.append(head)
            line = tail
        wrapped.append(line)
    return wrapped


def _break(line: str) -> tuple[str, str]:
    """``line`` cut before the last " (" that leaves a head within the narrow width (or the first)."""
    cuts = [i for i in range(1, len(line)) if line.startswith(" (", i)]
    fitting = [i for i in cuts if _length(line[:i]) <= NARROW_PRESENTING_CHARACTERS]
    cut = fitting[-1] if fitting else cuts[0]
    return line[:cut], line[cut + 1 :]


def caption_height(text: str, scale: float = 1.0, narrow: bool = False) -> int:
    """The height in pixels ``text`` takes as the caption (``with_caption``): a canvas adds it to
    its own so that the plot area keeps its size."""
    return caption_band(scale, len(_lines(text, narrow, scale)))


def caption_band(scale: float = 1.0, n_lines: int = 1) -> int:
    """The height in pixels the caption's lines add above the legend band."""
    return round(CAPTION_SIZE * min(scale, CAPTION_MAX_SCALE) * (0.4 + 1.35 * n_lines))


def with_caption(layout: Mapping[str, Any], text: str, scale: float = 1.0, narrow: bool = False) -> dict[str, Any]:
    """``layout`` with the caption in a band of its own at the top, above the legend's; ``narrow``:
    a canvas of the comparison (half the page or less), one part of the caption a line.

    An annotation anchored at its bottom, not a title: a title of several lines anchored at its top
    is drawn partly above the figure."""
    lines = _lines(text, narrow, scale)
    margin = dict(layout.get("margin") or {})
    below = margin.get("t", 0)  # the legend's band, between the caption and the plot area
    margin["t"] = below + caption_band(scale, len(lines))
    note = dict(
        text="<br>".join(html.escape(line, quote=False) for line in lines),
        xref="paper",
        yref="paper",
        x=0,
        y=1,
        xanchor="left",
        yanchor="bottom",
        yshift=below,
        align="left",
        showarrow=False,
        font=dict(size=round(CAPTION_SIZE * min(scale, CAPTION_MAX_SCALE))),
        name="caption",
    )
    return {**layout, "margin": margin, "annotations": [*(layout.get("annotations") or []), note]}
