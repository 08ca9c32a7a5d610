"""What the canvas shows, in words, for screen readers: the method and the boundary.

The status line under the plot already counts the points per class and gives the accuracy; it is
announced as a live region, and this sentence, visually hidden inside it, adds what a sighted
person reads off the plot: which method, and where the boundary lies (in the book's convention).
"""

import numpy as np

from playground import MODELS
from playground.base import Classifier
from playground.scene import Scene

from .convention import affine_text, book_classes, book_line, is_two_class, sign
from .i18n import _
from .names import class_name, markdown_html_text


def canvas_description(scene: Scene, model: Classifier | None, error: str | None = None) -> str:
    """One or two plain sentences about the plot for a screen reader, escaped for Markdown with HTML."""
    return markdown_html_text(canvas_sentences(scene, model, error))


def canvas_sentences(scene: Scene, model: Classifier | None, error: str | None = None) -> str:
    """``canvas_description``'s sentences as raw text (``model``: the fit drawn, a playback step's
    while one is drawn)."""
    method = _(MODELS[scene.method].display_name) if scene.method in MODELS else scene.method
    parts = [_("Plot of the points with the decision regions of {method}.").format(method=method)]
    parts.append(boundary_sentence(model, error))
    return " ".join(parts)


def boundary_sentence(model: Classifier | None, error: str | None = None) -> str:
    """Where the fitted boundary lies, as one plain sentence (raw text: escape it where it goes)."""
    if error or model is None:
        return _("No boundary is drawn: the method could not be fitted.")
    line = book_line(model)
    if line is not None and len(line.w) == 2:
        return _("Boundary: y(x) = {expression} = 0; {c1} where y(x) ≥ 0, else {c2}.").format(
            expression=affine_text(line.w0, line.w),
            c1=class_name(line.c1),
            c2=class_name(line.c2),
        )
    constant = _constant(model)
    if constant is not None:  # w = 0 (the perceptron's step 0 from w = 0): no line, one class everywhere
        first, second = book_classes(model)
        return _("No boundary: y(x) = {w0} everywhere, so the whole plane is {c} (y(x) ≥ 0 gives {c1}).").format(
            w0=affine_text(constant, ()),
            c=class_name(first if constant >= 0 else second),
            c1=class_name(first),
        )
    if len(getattr(model, "classes_", ())) > 2:
        return _("{n} classes: each location goes to the class whose discriminant is largest.").format(
            n=len(model.classes_)
        )
    return _("The boundary is curved (a basis function or a quadratic model).")


def _constant(model: Classifier) -> float | None:
    """The book's y(x) = w0 of a two-class linear model whose w is zero, else None."""
    coef, intercept = getattr(model, "coef_", None), getattr(model, "intercept_", None)
    if not is_two_class(model) or coef is None or intercept is None or np.size(intercept) != 1:
        return None
    coef = np.asarray(coef, dtype=float)
    if coef.shape[0] != 1 or np.any(coef) or not np.all(np.isfinite(coef)):
        return None
    w0 = sign(model) * float(np.ravel(intercept)[0])
    return w0 if np.isfinite(w0) else None
