"""The second half of the section 4.1-4.3 panels in Japanese and Chinese (issue 18, catalog area
panels_b): each panel opened from a link in AppTest in ja and zh shows its own texts translated,
with no English sentence of the panel's source left on screen.

The panels: geometry (fig. 4.1), Fisher (fig. 4.6), perceptron playback (fig. 4.7), least squares
(figs. 4.4, 4.5), iterations (IRLS / gradient descent) and the multi-class strategies (fig. 4.2).
The English that must be gone is read from each panel's source (every marked message, cut at its
placeholders and formulas), so a sentence added later without ``_()`` or without a translation
fails here.
"""

import functools
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground import Window
from playground.link import encode_scene
from playground.presets import close_points
from playground.scene import PointSet, Scene
from scripts.catalogs import messages_in
from tests.conftest import clusters, component_json
from ui.text import i18n

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")

# id: (panel's source, tab title, method, classes, multiclass, params, English messages whose
# translation must be on screen)
CASES = {
    "geometry": (
        "ui/panels/geometry.py",
        "Geometry (fig. 4.1)",
        "least_squares",
        2,
        "native",
        (),
        [
            "Draw w, the distance from the origin and the hover read-out on the plot",
            "w (into C₁, orthogonal to the boundary)",
            "geometry read-out",
        ],
    ),
    "fisher-two": (
        "ui/panels/fisher.py",
        "Fisher projection (fig. 4.6)",
        "fisher",
        2,
        "native",
        (),
        [
            "**Rotate the projection direction**",
            "Direction angle θ (degrees from the x₁ axis)",
            "Means line",
            "Fisher's w",
            "Load two elongated classes (fig. 4.6)",
            "projection direction (slider)",
            "Fisher (maximum)",
        ],
    ),
    "fisher-three": (
        "ui/panels/fisher.py",
        "Fisher projection (fig. 4.6)",
        "fisher",
        3,
        "native",
        (),
        ["projected class means", "Load two elongated classes (fig. 4.6)"],
    ),
    "perceptron": (
        "ui/panels/perceptron.py",
        "Perceptron playback (fig. 4.7)",
        "perceptron",
        None,  # figure 4.7's two close classes
        "native",
        (),
        [
            "Load two close classes (fig. 4.7)",
            "Mistakes (= updates) per epoch",
            "Training errors after each update",
            "Training errors now",
            "misclassified point used for this update",
        ],
    ),
    "least-squares": (
        "ui/panels/least_squares.py",
        "Least-squares outputs (fig. 4.4, 4.5)",
        "least_squares",
        3,
        "native",
        (),
        [
            "**Why least squares is fragile**",
            "Add far-away points (fig. 4.4)",
            "Class of the far-away points",
            "Output",
            "points outside [0, 1]",
        ],
    ),
    "least-squares-fisher-targets": (
        "ui/panels/least_squares.py",
        "Least-squares outputs (fig. 4.4, 4.5)",
        "least_squares",
        2,
        "native",
        (("targets", "fisher"),),
        ["points beyond their target", "Load three aligned classes (fig. 4.5)"],
    ),
    "iterations": (
        "ui/panels/iterations.py",
        "Iterations",
        "logistic",
        2,
        "native",
        (),
        ["Follow the last added point", "activation a", "log-likelihood", "current step"],
    ),
    "one-versus-one": (
        "ui/panels/multiclass.py",
        "Multi-class strategy (fig. 4.2)",
        "least_squares",
        3,
        "ovo",
        (),
        [
            "Hatch the ambiguous regions and draw every two-class classifier's line",
            "Share of the view that is ambiguous",
            "ambiguous region (fig. 4.2)",
            "pairwise classifiers",
            "classifier",
        ],
    ),
    "one-versus-rest": (
        "ui/panels/multiclass.py",
        "Multi-class strategy (fig. 4.2)",
        "perceptron",
        3,
        "ovr",
        (),
        ["Share of the view that is ambiguous", "ambiguous region (fig. 4.2)"],
    ),
}

# English of the panels as they were written before translation (an oracle independent of the
# markers: a text that loses its _() drops out of english_pieces, not out of this list).
WRITTEN_ENGLISH = {
    "ui/panels/geometry.py": [
        "Draw w, the distance from the origin",
        "the boundary's signed distance from the origin",
        "where **w** points",
        "Hover anywhere on the plot",
        "orthogonal to the boundary",
        "predicted:",
        "(dashed)",
    ],
    "ui/panels/fisher.py": [
        "Rotate the projection direction",
        "Direction angle",
        "Means line",
        "Fisher's w",
        "Fisher (maximum)",
        "points near",
        "w of unit length",
        "as the direction rotates",
        "line joining the means",
        "Load two elongated classes",
        "Replaces the points (undoable)",
        "Left: projecting onto",
        "Its threshold (",
        "Threshold on the left",
        "J(θ) is the ratio",
        "classes Fisher's criterion gives",
        "classified in this projected space",
        "projected class means",
        "onto Fisher's direction",
        "projection direction (slider)",
        "threshold for the slider direction",
    ],
    "ui/panels/perceptron.py": [
        "Load two close classes",
        "Replaces the points (undoable)",
        "An update fixes the point",
        "Training errors now",
        "Mistakes (= updates) per epoch",
        "Training errors after each update",
        "was misclassified",
        "the solid boundary",
        "Errors after it",
        "The run ends here",
        "before any update",
        "misclassified point used for this update",
        "boundary before this update",
        "training errors",
    ],
    "ui/panels/least_squares.py": [
        "Show as",
        "3-D surface",
        "in view",
        "points outside [0, 1]",
        "points beyond their target",
        "Training points with an output",
        "Least squares fits",
        "they are not probabilities",
        "Why least squares is fragile",
        "Class of the far-away points",
        "Add far-away points",
        "Adds points that are already classified",
        "Figure 4.4: points far",
        "Load three aligned classes",
        "Figure 4.5: with three classes",
        "with targets N/N₁ for",
        "With the targets of section 4.1.5",
    ],
    "ui/panels/iterations.py": [
        "Follow the last added point",
        "Point number (1 to",
        "activation a",
        "Log-likelihood ln p",
        "ringed on the canvas",
        "squashes its activation",
        "For softmax",
        "step 0 is the initial weights",
        "In the book's form",
        "current step",
        "point for σ(a)",
        "w₀ (bias)",
        "off the chart",
    ],
    "ui/panels/multiclass.py": [
        "1 vs 2",
        "vs rest",
        "Hatch the ambiguous regions",
        "One-versus-one",
        "One-versus-rest",
        "Share of the view that is ambiguous",
        "Compare with a single K-class discriminant",
        "Each classifier's y(x)",
        "ambiguous region (fig. 4.2)",
        "pairwise classifiers",
        "classifier",
    ],
}

MIN_WORDS = 3  # a piece of English this long is a sentence's part, not a symbol or a unit
_CUT = re.compile(r"\$[^$]*\$|\{[A-Za-z_][A-Za-z0-9_]*\}|<[^>]*>")


def english_pieces(source):
    """The English a translated page must not show: every message of ``source``, cut at its
    placeholders, $...$ formulas and HTML tags, keeping the pieces of at least MIN_WORDS words."""
    pieces = set()
    for msgid, _line, _problem in messages_in(ROOT / source):
        for form in (msgid or "").split("\0"):
            for piece in _CUT.split(form):
                piece = piece.strip(" .,;:()*")
                if len(re.findall(r"[A-Za-z]{2,}", piece)) >= MIN_WORDS:
                    pieces.add(piece)
    return sorted(pieces)


@functools.cache
def _link(method, n_classes, multiclass, params):
    """The query of a scene: these classes, this method, the final fit."""
    points = close_points() if n_classes is None else PointSet.from_arrays(*clusters(n_classes, 25, seed=3))
    scene = Scene(points=points, window=Window.around(points.X))
    return encode_scene(scene.with_method(method, dict(params), multiclass))


def _link_app(language, tab, method, n_classes, multiclass, params):
    """The app opened from a link in ``language`` with ``tab`` open. (One run only: after a run in
    ja or zh, AppTest formats the radios' options outside the script, in English.)"""
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {**_link(method, n_classes, multiclass, params), "lang": language, "tab": tab}.items():
        at.query_params[name] = value
    return at.run()


def _rendered_text(at):
    """Every text the page shows: markdown, captions, metrics, widget labels, options and help,
    tables, and the specs of the charts and the player (which escape non-ASCII)."""
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    for metric in at.metric:
        texts += [metric.label, str(metric.value), metric.proto.help]
    choices = list(at.radio) + list(at.selectbox) + list(at.segmented_control)
    widgets = list(at.button) + choices + list(at.checkbox) + list(at.slider)
    for widget in widgets + list(at.number_input):
        texts += [widget.label, widget.help or ""]
    for widget in choices:
        texts += [str(option) for option in widget.options]
    for table in list(at.table) + list(at.dataframe):
        frame = table.value
        texts += [str(c) for c in frame.columns] + [str(i) for i in frame.index] + [frame.to_string()]
    unescape = functools.partial(re.sub, r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)))
    texts += [unescape(component_json(c.proto)) for c in at.get("bidi_component")]
    return "\n".join(texts)


def test_the_english_pieces_are_sentences_of_the_panels():
    """The oracle itself: it finds the English of a few sentences known to be in the panels."""
    assert "Rotate the projection direction" in english_pieces("ui/panels/fisher.py")
    assert "misclassified point used for this update" in english_pieces("ui/panels/perceptron.py")
    assert "Share of the view that is ambiguous" in english_pieces("ui/panels/multiclass.py")
    geometry = english_pieces("ui/panels/geometry.py")
    assert any("where **w** points, and negative on the C₂ side" in piece for piece in geometry)
    assert not any("mathbf" in piece for piece in geometry)  # formulas stay as they are


@pytest.mark.parametrize("language", ["ja", "zh"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_panel_speaks_the_language(case, language):
    source, tab, method, n_classes, multiclass, params, expected = CASES[case]
    catalog = i18n.translations(language)
    at = _link_app(language, tab, method, n_classes, multiclass, params)
    assert not at.exception
    assert at.session_state["panel_tab"] == catalog.gettext(tab)
    text = _rendered_text(at)
    for english in expected:
        translated = catalog.gettext(english)
        assert translated != english, english
        assert translated in text, english
    left = [piece for piece in english_pieces(source) + WRITTEN_ENGLISH[source] if piece in text]
    assert not left, left


@pytest.mark.parametrize("case", list(CASES))
def test_in_english_the_same_page_shows_those_texts(case):
    """The control: the same link in English shows the expected messages and English of the
    panel's source, so their absence in ja and zh is the translation's doing, not the collector's."""
    source, tab, method, n_classes, multiclass, params, expected = CASES[case]
    at = _link_app("en", tab, method, n_classes, multiclass, params)
    assert not at.exception
    text = _rendered_text(at)
    for english in expected:
        assert english in text, english
    assert [piece for piece in english_pieces(source) if piece in text]
    assert [piece for piece in WRITTEN_ENGLISH[source] if piece in text]


def test_the_players_step_lines_follow_a_change_of_language():
    """The player's line per step is made once per fitted model; switching to Japanese in the same
    session (the same model) must remake it in Japanese, not keep the English lines."""
    source, tab, method, n_classes, multiclass, params, _expected = CASES["perceptron"]
    at = _link_app("en", tab, method, n_classes, multiclass, params)
    assert "was misclassified, so w ← w + η t φ" in _rendered_text(at)
    at.session_state[i18n.LANGUAGE_KEY] = "ja"
    text = _rendered_text(at.run())
    assert not at.exception
    assert "was misclassified, so w ← w + η t φ" not in text
    assert "が誤分類されていたので w ← w + η t φ" in text
