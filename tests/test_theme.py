"""The palettes stay colour-blind safe and readable in both themes (issue 18): CIELAB distances
between the region tints, their lightness steps (they differ in greyscale), and each class's
marker against its own region; every dark-theme swap names a colour the figures use."""

import itertools

import numpy as np
import pytest

from tests.conftest import component_json
from ui.plot import figures, theme


def _lab(colour):
    red, green, blue = (int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4))

    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = linear(red), linear(green), linear(blue)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v):
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _distance(a, b):
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


@pytest.mark.parametrize(
    ("regions", "min_distance", "min_lightness_step", "min_marker_contrast"),
    [(theme.REGION_COLOURS, 22, 3.8, 25), (theme.DARK_REGION_COLOURS, 25, 5, 26)],
    ids=["light", "dark"],
)
def test_region_tints_differ_in_colour_and_in_greyscale(regions, min_distance, min_lightness_step, min_marker_contrast):
    assert min(_distance(a, b) for a, b in itertools.combinations(regions, 2)) >= min_distance
    lightness = sorted(_lab(colour)[0] for colour in regions)
    assert min(b - a for a, b in zip(lightness, lightness[1:])) >= min_lightness_step
    assert min(_distance(c, r) for c, r in zip(theme.CLASS_COLOURS, regions)) >= min_marker_contrast


def test_the_dark_swaps_name_colours_the_canvas_figure_uses():
    import json

    from playground.grid import Window
    from playground.scene import PointSet
    from ui.engine.fitview import FitView
    from ui.plot.canvas import figure_json

    points = PointSet.from_arrays([[0, 0], [1, 1]], [0, 1], [False, True])
    figure = figures.scene_figure(points, FitView(error="no fit"), Window(-2, 2, -2, 2), 0)
    text = figure_json(figure) + json.dumps(theme.TEMPLATE_JSON)
    used = {light for light in theme.DARK_SWAPS if f'"{light}"' in text}  # swapped as whole JSON strings
    assert {"white", "#31333F", theme.MARKER_OUTLINE, figures.TEST_FILL} <= used


@pytest.mark.parametrize(("language", "first_cjk"), [("en", "JP"), ("ja", "JP"), ("zh", "SC")])
def test_each_language_puts_its_own_cjk_fonts_first(language, first_cjk):
    families = [name.strip().strip('"') for name in theme.font_family(language).split(",")]
    cjk = [name for name in families if "CJK" in name]
    assert cjk[0].endswith(first_cjk) and len(cjk) == 2
    assert families[-1] == "sans-serif"
    layout = theme.with_font({"font": {"size": 20}, "height": 300}, language)
    assert layout == {"font": {"size": 20, "family": theme.font_family(language)}, "height": 300}


def test_a_chinese_page_draws_its_canvas_with_chinese_fonts_first():
    import json
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    app = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
    at = AppTest.from_file(app, default_timeout=60)
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    canvas = next(c for c in at.get("bidi_component") if "playground_canvas" in c.proto.component_name)
    figure = json.loads(json.loads(component_json(canvas.proto))["figure"])
    assert figure["layout"]["font"]["family"] == theme.font_family("zh")


def test_the_status_line_colours_the_symbols_and_writes_the_names_in_the_text_colour():
    from playground.scene import PointSet
    from ui.widgets.heldout import status_line

    line = status_line(PointSet.from_arrays([[0, 0], [1, 1], [2, 2]], [0, 1, 1]))
    # As text, orange and sky blue fall below 3:1 on white, and blue on the dark background.
    assert f"<span style='color:{theme.CLASS_COLOURS[1]}'>{theme.SYMBOL_GLYPHS[1]}</span> class 2: 2" in line
    assert f"<span style='color:{theme.CLASS_COLOURS[0]}'>{theme.SYMBOL_GLYPHS[0]}</span> class 1: 1" in line


def test_no_figure_tells_classes_apart_by_colour_alone():
    """Issue 38: where a figure cannot draw the class's own marker, a pattern (Fisher's histograms)
    or a 3-D symbol (the posterior surface's points) differs per class besides the colour."""
    import plotly.graph_objects as go

    from playground import make_model
    from playground.grid import Window
    from playground.scene import PointSet
    from tests.conftest import clusters
    from ui.panels import fisher, posterior

    X, y = clusters(3, 20)
    model = make_model("fisher").fit(X, y)
    direction = np.array([1.0, 0.0])
    bars = [t for t in go.Figure(fisher.projection_figure(model, X, y, direction, 0.0, "")).data if t.type == "bar"]
    patterns = [bar.marker.pattern.shape or "" for bar in bars]
    assert len(bars) == 3 and len(set(patterns)) == 3, patterns

    softmax = make_model("softmax").fit(X, y)
    window = Window(-5, 5, -5, 5)
    figure = posterior.surface_figure(softmax, window, 0, points=PointSet.from_arrays(X, y))
    scatter = figure.data[1]
    symbols = {(int(label), symbol) for label, symbol in zip(y, scatter.marker.symbol)}
    assert len(symbols) == 3 and len({symbol for _label, symbol in symbols}) == 3, symbols
