"""What the canvas shows, in words, for screen readers: the method and the boundary.

The status line under the plot already counts the points per class and gives the accuracy; it is
announced as a live region, and this sentence, visually hidden inside it, adds what a sighted
person reads off the plot: which method, and where the boundary lies (in the book's convention).
"""

from playground import MODELS
from playground.base import Classifier
from playground.scene import Scene

from .convention import book_line
from .i18n import _
from .names import class_name, markdown_html_text


def _signed(value):
    return f"− {abs(value):.3g}" if value < 0 else f"+ {value:.3g}"


def canvas_description(scene: Scene, model: Classifier | None, error: str | None = None) -> str:
    """One or two plain sentences about the plot for a screen reader, escaped for Markdown with HTML."""
    method = _(MODELS[scene.method].display_name) if scene.method in MODELS else scene.method
    parts = [_("Plot of the points with the decision regions of {method}.").format(method=method)]
    parts.append(boundary_sentence(model, error))
    return markdown_html_text(" ".join(parts))


def boundary_sentence(model: Classifier | None, error: str | None = None) -> str:
    """Where the fitted boundary lies, as one plain sentence (raw text: escape it where it goes)."""
    if error or model is None:
        return _("No boundary is drawn: the method could not be fitted.")
    line = book_line(model)
    if line is not None and len(line.w) == 2:
        return _("Boundary: y(x) = {w1}·x₁ {w2}·x₂ {w0} = 0; {c1} where y(x) ≥ 0, else {c2}.").format(
            w1=f"{line.w[0]:.3g}",
            w2=_signed(line.w[1]),
            w0=_signed(line.w0),
            c1=class_name(line.c1),
            c2=class_name(line.c2),
        )
    if len(getattr(model, "classes_", ())) > 2:
        return _("{n} classes: each location goes to the class whose discriminant is largest.").format(
            n=len(model.classes_)
        )
    return _("The boundary is curved (a basis function or a quadratic model).")
