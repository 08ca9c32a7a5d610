"""Colours, marker symbols and the plotly template: one place for how classes look."""

from typing import Any

import plotly.graph_objects as go

from ui.text.names import SYMBOL_GLYPHS  # noqa: F401  (the words' glyphs of the symbols below)

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies.
CLASS_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9")
# Tints of the same hues for the decision regions (points stay readable on them), at six different
# lightnesses (L* 79, 92, 84, 74, 88, 97): any two differ by at least 22 in CIELAB (classes 1 and 6
# were 4.8 apart, both pale blue) and by at least 3.8 in L*, so they also differ in greyscale.
REGION_COLOURS = ("#A4C7F0", "#FFE6BC", "#A5DEC5", "#E8A790", "#F8D2E8", "#DEFBFF")
# The rim of every point marker: dark, so a marker reads on its own region, on white and on the
# colour-mixed posteriors of figure 4.11, where a white rim vanished.
MARKER_OUTLINE = "#1A1A1A"
# A different symbol per class, so the plot also reads in greyscale.
CLASS_SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "star")
BOUNDARY_COLOUR = "#222222"
FIT_INK = "#111111"  # the fit's w arrow, the equations' marks, the fit's star and rings on the landscape

# Streamlit's own font first, then CJK fonts for Japanese and Chinese labels (whichever the viewer's
# system has: Noto on Linux, Hiragino / PingFang on macOS, Yu Gothic / Microsoft YaHei on Windows).
# The session's language puts its own script's fonts first (``font_family``): the same Han character
# is drawn differently in Japanese and in Simplified Chinese fonts.
_JAPANESE_FONTS = '"Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic"'
_CHINESE_FONTS = '"Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei"'
FONT_FAMILY = f'"Source Sans Pro", Arial, {_JAPANESE_FONTS}, {_CHINESE_FONTS}, sans-serif'
_FONT_FAMILIES = {"zh": f'"Source Sans Pro", Arial, {_CHINESE_FONTS}, {_JAPANESE_FONTS}, sans-serif'}


def font_family(language: str) -> str:
    """The figures' font list for a language code ("en", "ja", "zh")."""
    return _FONT_FAMILIES.get(language, FONT_FAMILY)


def with_font(layout: dict[str, Any], language: str) -> dict[str, Any]:
    """A copy of a plotly.js ``layout`` dict whose font list is the language's (other font
    settings, e.g. size, stay as the layout or the template give them)."""
    font = layout.get("font") or {}
    if not isinstance(font, dict):
        font = font.to_plotly_json()
    return {**layout, "font": {**font, "family": font_family(language)}}


# Streamlit swaps plotly's default template for one with placeholder colours, so every
# figure names this one explicitly; it is small, which also keeps the payload small.
TEMPLATE = go.layout.Template(
    layout=dict(
        font=dict(family=FONT_FAMILY, size=13, color="#31333F"),
        paper_bgcolor="white",
        plot_bgcolor="white",
        xaxis=dict(showgrid=False, zeroline=True, zerolinecolor="#BBBBBB", linecolor="#888", mirror=True, ticks=""),
        yaxis=dict(showgrid=False, zeroline=True, zerolinecolor="#BBBBBB", linecolor="#888", mirror=True, ticks=""),
        hoverlabel=dict(font_size=12),
    )
)

# The same template as a plotly.js dict, for figures built as dicts (no validation on every click).
TEMPLATE_JSON = TEMPLATE.to_plotly_json()


# The dark theme (Streamlit's dark base, chosen in its settings menu or from the viewer's system):
# the same figures with these colours swapped in the browser (``themed`` in ui/plot/canvas.py), so one
# figure, and one cached payload, serves both themes. Region tints become dark shades of the same
# Okabe-Ito hues at six lightnesses (L* 20-50, chroma 30): any two differ by at least 25 in
# CIELAB and 5 in L*, each class's marker differs from its own region by at least 26; the rims of
# the markers, the boundary and the rings turn light, so they read on the dark regions.
DARK_BACKGROUND = "#0E1117"  # Streamlit's dark background
DARK_REGION_COLOURS = ("#00345C", "#52390F", "#1D654C", "#9E6B4E", "#703958", "#1C6F97")
LIGHT_LINES = "#F2F2F2"
DARK_SWAPS = {
    "white": DARK_BACKGROUND,
    "#31333F": "#FAFAFA",  # text
    "#BBBBBB": "#4A4F5C",  # zero lines
    "#888": "#9AA0AA",  # axis lines
    BOUNDARY_COLOUR: LIGHT_LINES,
    MARKER_OUTLINE: LIGHT_LINES,
    FIT_INK: LIGHT_LINES,
    "rgba(255, 255, 255, 0.7)": "rgba(14, 17, 23, 0.7)",  # the hollow test markers' fill
    **dict(zip(REGION_COLOURS, DARK_REGION_COLOURS, strict=True)),
}

# Where a figure cannot draw a class's own marker, it still never tells classes apart by colour
# alone: histogram bars take a fill pattern per class, and 3-D scatter plots (whose symbols are
# fewer) a 3-D symbol per class.
CLASS_PATTERNS = ("", "/", "\\", "x", "-", ".")
CLASS_SYMBOLS_3D = ("circle", "square", "diamond", "x", "cross", "circle-open")
