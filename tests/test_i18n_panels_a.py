"""The first half of the panels in Japanese and Chinese (issue 18, catalog area panels_a): each
panel opened in AppTest in ja and zh renders its own texts translated, with no English sentence
of the panel's source left on screen.

So far the outliers panel (ui/panels/robustness.py); the other panels of the area follow."""

import functools
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from playground.link import encode_scene
from tests.conftest import component_json
from ui.text import i18n

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
ROBUSTNESS_TAB = "Outliers: least squares vs logistic"

ENGLISH_OF_ROBUSTNESS = [
    "Outliers of",
    "Add outliers",
    "misclassified",
    "Least squares fits targets",
    "Add 8 points",
    "far away on its own side",
]


def _link_app(language, tab):
    """The app opened from a link in ``language``: two classes, logistic regression, ``tab`` open.
    (One run only: after a run in ja or zh, AppTest formats the radios' options outside the
    script, in English, and cannot find the translated option on the next run.)"""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="method").set_value("logistic").run()
    at.slider(key="gen_classes").set_value(2)
    next(b for b in at.button if b.label == "Replace points").click().run()
    query = encode_scene(at.session_state.scene)
    linked = AppTest.from_file(APP, default_timeout=60)
    for name, value in {**query, "lang": language, "tab": tab}.items():
        linked.query_params[name] = value
    return linked.run()


def _rendered_text(at):
    """Every text the page shows: markdown, captions, widget labels and help, chart specs."""
    texts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    for widget in list(at.button) + list(at.radio):
        texts += [widget.label, widget.help or ""]
    unescape = functools.partial(re.sub, r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)))
    texts += [unescape(component_json(c.proto)) for c in at.get("bidi_component")]  # chart specs escape non-ASCII
    return "\n".join(texts)


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_the_outliers_panel_speaks_the_language(language):
    catalog = i18n.translations(language)
    at = _link_app(language, ROBUSTNESS_TAB)
    assert not at.exception
    assert at.session_state["panel_tab"] == catalog.gettext(ROBUSTNESS_TAB)
    text = _rendered_text(at)
    assert catalog.gettext("Add outliers") in [b.label for b in at.button]
    assert catalog.gettext("Outliers of") in [r.label for r in at.radio]
    misclassified = {"ja": "誤分類", "zh": "误分类"}[language]
    assert len(re.findall(misclassified, text)) >= 2  # both small figures' titles
    for english in ENGLISH_OF_ROBUSTNESS:
        assert english not in text, english
