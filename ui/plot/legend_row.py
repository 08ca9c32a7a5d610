"""One legend row for several plots that share their marks (the comparison's canvases).

Rules that hold:

- The row names what the canvases draw, in the canvas legend's words and order: each class
  present (its colour and symbol, its name as text, ``ui.text.names``), the decision boundary, the
  misclassified rings, and the hollow test points when there are any.
- The class names are visitors' text: escaped, never read as markdown or HTML.
"""

from playground.scene import PointSet
from ui.text.i18n import _
from ui.text.names import class_name, markdown_html_text

from .theme import CLASS_COLOURS, SYMBOL_GLYPHS

TEST_GLYPHS = ("○", "□", "◇", "△", "✛", "☆")  # hollow versions of SYMBOL_GLYPHS (test points)


def _entry(glyph, colour, text):
    return f"<span class='pg-legend-entry'><span style='color:{colour}'>{glyph}</span> {text}</span>"


def legend_row(points: PointSet) -> str:
    """The row as HTML for ``st.markdown(..., unsafe_allow_html=True)``; "" with no points."""
    counts = points.counts()
    present = [k for k in range(len(counts)) if counts[k]]
    if not present:
        return ""
    entries = [_entry(SYMBOL_GLYPHS[k], CLASS_COLOURS[k], markdown_html_text(class_name(k))) for k in present]
    # In the text colour, as the canvases draw them: dark on the light theme, light on the dark one.
    entries.append(_entry("━", "currentColor", _("decision boundary")))
    entries.append(_entry("◯", "currentColor", _("misclassified")))
    if points.n_test:
        first = present[0]
        entries.append(_entry(TEST_GLYPHS[first], CLASS_COLOURS[first], _("test (hollow)")))
    return f"<div class='pg-legend-row' role='note'>{' '.join(entries)}</div>"
