"""The Equations tab and the figure presets in Japanese and Chinese (issue 18, catalog areas
equations and presets): no English sentence of ui/equations/, ui/methods/equations/ or
ui/panels/model_equations.py is left on screen, and the formulas, their numbers and the book's
equation numbers are those of the English page; a preset loaded and then shown in ja or zh explains
itself in that language.

The English sentences come from the source files themselves (every string literal, cut at its
placeholders), so a sentence added later, with or without ``_()``, is caught as soon as it is shown."""

import ast
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground.link import encode_scene
from playground.presets import PRESETS
from scripts import catalogs
from ui.panels import preset_numbers
from ui.text import i18n
from ui.widgets import language

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
EQUATIONS_TAB = "Equations"
PACKAGE = sorted((ROOT / "ui" / "methods" / "equations").glob("*.py"))
SOURCES = (
    "ui/equations/__init__.py",
    *(f"ui/methods/equations/{path.name}" for path in PACKAGE),
    "ui/panels/model_equations.py",
)


def _string_constants(path):
    """Every string literal of a Python file but its docstrings (f-strings give their literal parts)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def _english_phrases():
    """The English words the Equations tab's code holds, marked for translation or not: each string
    literal cut at its placeholders, keeping the pieces that are prose (two words or more, one of
    them a real word) and not LaTeX, which stays the same in every language."""
    phrases, literals = set(), set()
    for source in SOURCES:
        for literal in _string_constants(ROOT / source):
            literals.add(literal)
            for piece in catalogs.PLACEHOLDER.split(literal):
                piece = (piece or "").strip()
                prose = len(re.findall(r"[A-Za-z]{2,}", piece)) >= 2 and re.search(r"[a-z]{4,}", piece)
                if prose and "\\" not in piece:
                    phrases.add(piece)
    return phrases, literals


ENGLISH_PHRASES, ENGLISH_MESSAGES = _english_phrases()


def _scene_query(method, n_classes):
    """The query of a link to ``n_classes`` generated clusters and ``method`` (made in English)."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="method").set_value(method).run()
    at.slider(key="gen_classes").set_value(n_classes)
    next(b for b in at.button if b.label == "Replace points").click().run()
    return encode_scene(at.session_state.scene)


def _equations_tab(query, lang):
    """The app opened from the link in ``lang`` with the Equations tab open (one run only: after a
    run in ja or zh, AppTest formats the radios' options outside the script, in English)."""
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in {**query, "lang": lang, "tab": EQUATIONS_TAB}.items():
        at.query_params[name] = value
    return at.run()


def _panel_texts(at):
    """Titles, captions, formulas, message and widget texts of the page."""
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption] + [x.value for x in at.latex]
    texts += [i.value for i in at.info]
    for widget in list(at.button) + list(at.number_input):
        texts += [widget.label, widget.help or ""]
    return texts


def _numbers(latex):
    return [re.findall(r"-?\d+(?:\.\d+)?", formula) for formula in latex]


def _english_equation_numbers(captions):
    return [m[1] for c in captions if (m := re.match(r"\(eq\. ([0-9.\-]+)\)", c))]


def _translated_equation_numbers(captions):
    return [m[1] for c in captions if (m := re.match(r"（式 \(([0-9.\-]+)\)）", c))]


@pytest.fixture(scope="module", params=[("logistic", 2), ("gaussian_shared", 3)], ids=["logistic-2", "gaussian-3"])
def model_link(request):
    """(query, English page) of a two-class logistic and a three-class shared-covariance Gaussian model."""
    method, n_classes = request.param
    query = _scene_query(method, n_classes)
    english = _equations_tab(query, "en")
    assert not english.exception
    return query, english


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_the_equations_tab_speaks_the_language_with_the_same_numbers(model_link, lang):
    query, english = model_link
    at = _equations_tab(query, lang)
    assert not at.exception
    catalog = i18n.translations(lang)
    assert at.session_state["panel_tab"] == catalog.gettext(EQUATIONS_TAB)
    english_latex = [x.value for x in english.latex]
    assert len(english_latex) >= 6  # the model written out and evaluated at the last point
    # The formulas are the English ones but for the words inside \text{}; every number is the same.
    latex = [x.value for x in at.latex]
    assert _numbers(latex) == _numbers(english_latex)
    english_numbers = _english_equation_numbers(c.value for c in english.caption)
    assert english_numbers and _translated_equation_numbers(c.value for c in at.caption) == english_numbers
    # The same headings, each in the language (no heading left as an English message).
    titles = [m.value for m in at.markdown if m.value.startswith("**") and m.value.endswith("**")]
    english_titles = [m.value for m in english.markdown if m.value.startswith("**") and m.value.endswith("**")]
    assert len(titles) == len(english_titles) == len(latex)
    for title in titles:
        assert title.strip("*") not in ENGLISH_MESSAGES, title
    assert catalog.gettext("Prediction") in [t.strip("*") for t in titles]
    text = "\n".join(_panel_texts(at))
    assert catalog.gettext("Follow the last added point") in [b.label for b in at.button]
    assert "(eq. " not in text
    for phrase in ENGLISH_PHRASES:
        assert phrase not in text, phrase


def test_the_english_phrases_are_found_on_the_english_page(model_link):
    """The check above can fail: on the English page the same phrases are there."""
    _query, english = model_link
    text = "\n".join(_panel_texts(english))
    found = [phrase for phrase in ENGLISH_PHRASES if phrase in text]
    assert len(found) >= 5, found


@pytest.mark.parametrize(("lang", "key"), [("ja", "fig4_6"), ("zh", "seed003")])
def test_a_preset_loaded_then_shown_in_the_language_explains_itself_in_it(lang, key):
    preset = PRESETS[key]
    catalog = i18n.translations(lang)
    at = AppTest.from_file(APP, default_timeout=60).run()
    next(b for b in at.button if b.key == f"preset_{key}").click().run()  # loaded in English
    assert at.session_state["active_preset"] == key
    at.selectbox(key=language.PICKER_KEY).set_value(lang).run()  # then the page in ja / zh
    assert not at.exception
    boxes = [i.value for i in at.info if i.value.startswith("**")]
    title = catalog.gettext(preset.title)
    figure = {"ja": "図", "zh": "图"}[lang]
    heading = f"**{figure} {preset.figure} — {title}**" if preset.figure else f"**{title}**"
    numbers = preset_numbers.numbers(key, at.session_state.scene.window)
    assert boxes == [f"{heading}\n\n{catalog.gettext(preset.explanation).format(**numbers)}"]
    assert title != preset.title and catalog.gettext(preset.explanation) != preset.explanation
    assert preset.explanation not in boxes[0] and preset.title not in boxes[0]
    if preset.about_notes:
        assert catalog.gettext(preset.about_notes) in [c.value for c in at.caption]
        assert preset.about_notes not in [c.value for c in at.caption]
    # Every preset's button in the sidebar is labelled in the language.
    labels = {b.key: b.label for b in at.button if (b.key or "").startswith("preset_")}
    for other_key, other in PRESETS.items():
        label = labels[f"preset_{other_key}"]
        assert label != other.label and catalog.gettext(other.title) in label
        expected = f"{figure} {other.figure} — {catalog.gettext(other.title)}" if other.figure else None
        assert label == (expected or catalog.gettext(other.title))
