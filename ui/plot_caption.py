"""The caption on the plot: what the audience sees, named on the figure itself.

Rules that hold:

- One line above the legend band: the method with its section ("Least squares (§4.1.3)"), the
  multi-class strategy when more than two classes use it, the basis when there is one, and the
  training (and test) accuracy of the fit drawn, as the status line computes them.
- It is part of the figure's layout (its title), so the PNG and SVG downloads carry it, and the
  live route's figures carry it too (the plot never moves while a drag redraws it): its band is
  always there, with or without a fit.
- No visitor's text goes into it (no class names); what goes in is escaped for plotly's HTML-like
  labels anyway.
"""

import html

import numpy as np

from .basis_controls import BASIS_LABELS
from .controls import MULTICLASS_LABELS, method_label
from .i18n import _

CAPTION_SIZE = 14  # px at scale 1 (presentation multiplies it)


def caption_text(scene, view=None, test_predicted=None):
    """The caption's words for ``scene`` and the fit drawn (``view``: ``ui.compute.FitView``)."""
    parts = [method_label(scene.method)]
    if np.count_nonzero(scene.training.points.counts()) > 2 and scene.multiclass in MULTICLASS_LABELS:
        parts.append(_(MULTICLASS_LABELS[scene.multiclass]))
    if scene.basis != "identity" and scene.basis in BASIS_LABELS:
        parts.append(_("basis: {basis}").format(basis=_(BASIS_LABELS[scene.basis])))
    if view is not None and view.accuracy is not None:
        parts.append(_("training accuracy {accuracy}").format(accuracy=f"{view.accuracy:.1%}"))
    if test_predicted is not None and len(test_predicted):
        accuracy = float(np.mean(np.asarray(test_predicted) == scene.points.testing.y))
        parts.append(_("test accuracy {accuracy}").format(accuracy=f"{accuracy:.1%}"))
    return " · ".join(parts)


def caption_band(scale=1.0):
    """The height in pixels the caption's line adds above the legend band."""
    return round(CAPTION_SIZE * scale * 1.75)


def with_caption(layout, text, scale=1.0):
    """``layout`` with the caption as its title, in a band of its own at the top."""
    margin = dict(layout.get("margin") or {})
    margin["t"] = margin.get("t", 0) + caption_band(scale)
    title = dict(
        text=html.escape(text, quote=False),
        x=0,
        xref="paper",
        xanchor="left",
        y=1,
        yref="container",
        yanchor="top",
        pad=dict(t=round(4 * scale)),
        font=dict(size=round(CAPTION_SIZE * scale)),
        automargin=False,
    )
    return {**layout, "margin": margin, "title": title}
