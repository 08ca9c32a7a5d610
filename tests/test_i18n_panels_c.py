"""The panels of catalog area panels_c in Japanese and Chinese (issue 18): the posterior, class
Gaussians, SVM, feature-space (basis), Bayesian (predictive and Laplace), sigmoid-and-probit and
metrics panels. Each is opened from a link in AppTest, in ja and zh, with a scene that makes it
show its content; no English sentence of the panel's source may be left on screen, and the
translated texts the catalog gives for some of them must be there.

The English fragments below are taken from the panels' sources (words that only English
sentences of them contain), so a string that escaped ``_()`` shows up as a failure here."""

import functools
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground.grid import Window
from playground.link import encode_options, encode_scene
from playground.scene import PointSet, Scene
from tests.conftest import component_json
from ui.text import i18n

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
LANGUAGES = ["ja", "zh"]


def _two_clusters(n=16, seed=3):
    """Two overlapping Gaussian clusters (classes 0 and 1): some points misclassified, no fit fails."""
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal([-1.0, -0.5], 0.8, (n, 2)), rng.normal([1.0, 0.6], 0.8, (n, 2))])
    return np.round(X, 2), np.repeat([0, 1], n)


def _scene(method, *, basis="identity", held_out=0.0):
    X, y = _two_clusters()
    points = PointSet.from_arrays(X, y)
    if held_out:
        points = points.held_out(held_out, seed=1)
    return Scene(points=points, method=method, basis=basis, window=Window.around(X))


def _link_app(language, scene, tab, options=None):
    """The app opened from a link in ``language`` with ``scene`` and the panel ``tab`` open.
    (One run only: after a run in ja or zh, AppTest formats the radios' and selectboxes' options
    outside the script, in English.)"""
    at = AppTest.from_file(APP, default_timeout=90)
    query = {**encode_scene(scene), "lang": language, "tab": tab}
    if options:
        query["po"] = encode_options(options)
    for name, value in query.items():
        at.query_params[name] = value
    return at.run()


def _open_tab(at, label):
    (tab,) = [tab for tab in at.tabs if tab.label == label]
    return tab


def _rendered_text(at, label):
    """Every text the open panel (tab ``label``) shows: markdown, captions, messages, widget labels
    and help, metric labels, tables' headers and cells, chart specs; and the canvas's figure,
    which carries the panel's overlays (their names and hover text)."""
    tab = _open_tab(at, label)
    texts = [m.value for m in tab.markdown] + [c.value for c in tab.caption]
    texts += [m.value for kind in ("info", "warning", "error", "success") for m in tab.get(kind)]
    widgets = list(tab.button) + list(tab.radio) + list(tab.selectbox) + list(tab.slider) + list(tab.number_input)
    for widget in widgets + list(tab.metric):
        texts += [widget.label, widget.help or ""]
    for table in list(tab.dataframe) + list(tab.table):
        frame = table.value
        texts += [str(c) for c in frame.columns] + [str(i) for i in frame.index] + [frame.to_string()]
    unescape = functools.partial(re.sub, r"\\+u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)))
    charts = list(tab.get("bidi_component"))  # chart specs escape non-ASCII
    charts += [c for c in at.get("bidi_component") if c.proto.component_name.endswith("canvas")]
    # The values a page can show, not the data's keys (the canvas's "kb_moved" is a name, not a text).
    texts += [unescape(value) for c in charts for value in _strings(json.loads(component_json(c.proto)))]
    return "\n".join(texts)


def _strings(data):
    """Every string value inside decoded JSON ``data`` (a string nested in JSON is decoded too)."""
    if isinstance(data, dict):
        return [s for value in data.values() for s in _strings(value)]
    if isinstance(data, list):
        return [s for value in data for s in _strings(value)]
    if isinstance(data, str):
        try:
            nested = json.loads(data)
        except ValueError:
            return [data]
        return _strings(nested) if isinstance(nested, (dict, list)) else [data]
    return []


def _check(language, at, tab, english, translated):
    catalog = i18n.translations(language)
    assert not at.exception, at.exception
    assert at.session_state["panel_tab"] == catalog.gettext(tab)
    text = _rendered_text(at, catalog.gettext(tab))
    for message in translated:
        shown = catalog.gettext(message)
        assert shown != message, message  # the catalog has it
        assert shown in text, shown
    for fragment in english:
        assert fragment not in text, fragment


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_posterior_panel_speaks_the_language(language):
    tab = "Posterior p(Cₖ|x)"
    at = _link_app(language, _scene("logistic"), tab, {"posterior_display": "posterior"})
    english = ["Canvas shows", "decision regions", "Colour =", "white at 0.5", "dotted contours", "Drag to turn"]
    _check(language, at, tab, english, ["Canvas shows"])
    catalog = i18n.translations(language)
    (display,) = _open_tab(at, catalog.gettext(tab)).radio
    assert display.options == [catalog.gettext("decision regions"), catalog.gettext("posterior p(Cₖ|x)")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_class_gaussians_panel_speaks_the_language(language):
    tab = "Class Gaussians"
    at = _link_app(language, _scene("gaussian_shared"), tab)
    english = ["Priors and the boundary", "Give each class", "Switch between", "sidebar's", "ellipses", "Here "]
    _check(language, at, tab, english, ["Give each class its own covariance ⟶ conic boundary"])
    canvas = _rendered_text(at, i18n.translations(language).gettext(tab))
    assert "mean μ" not in canvas and i18n.translations(language).gettext("class means μₖ") in canvas


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_svm_panel_speaks_the_language(language):
    tab = "Support vector machine (§7.1)"
    at = _link_app(language, _scene("svm"), tab)
    english = [
        "Margin 1/",
        "Support vectors",
        "on the margin",
        "Targets",
        "numbered from 1",
        "SMO playback",
        "SMO step (recorded)",
        "Dual objective",
        "after SMO step",
        "never falls",
        "moved",
        "hard margin",
    ]
    _check(language, at, tab, english, ["Margin 1/‖w‖", "Support vectors", "SMO step"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_feature_space_panel_speaks_the_language(language):
    tab = "Feature space φ (fig. 4.12)"
    at = _link_app(language, _scene("logistic", basis="rbf"), tab)
    english = [
        "Horizontal axis",
        "Vertical axis",
        "feature space (",
        "input space",
        "On the canvas",
        "Gaussian at",
        "RBF centre",
        "A Gaussian feature",
    ]
    _check(language, at, tab, english, ["Horizontal axis", "feature space (φ-space)", "input space (x)"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_predictive_panel_speaks_the_language(language):
    tab = "Predictive vs MAP (sec. 4.5.2)"
    at = _link_app(language, _scene("bayesian_logistic"), tab)
    english = [
        "Contours of",
        "Boundaries drawn",
        "Draw new samples",
        "The same seed",
        "Solid purple",
        "last point",
        "corner of the view",
        "prior precision",
        "predictive σ",
    ]
    _check(language, at, tab, english, ["Draw new samples", "Boundaries drawn from the posterior"])
    catalog = i18n.translations(language)
    (contours,) = _open_tab(at, catalog.gettext(tab)).radio
    assert contours.options[0] == catalog.gettext("predictive and MAP")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_laplace_panel_speaks_the_language(language):
    tab = "Laplace approximation (fig. 4.14)"
    at = _link_app(language, _scene("bayesian_logistic"), tab)
    english = [
        "The exact posterior",
        "the exact density",
        "Along the leading",
        "density / its value",
        "Posterior over",
        "The marginal",
        "(bias)",
        "samples (the thin",
        "ellipse of",
    ]
    _check(language, at, tab, english, ["density / its value at w_MAP", "w₀ (bias)"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_probit_panel_speaks_the_language(language):
    tab = "Sigmoid and probit (fig. 4.9)"
    at = _link_app(language, _scene("probit"), tab)
    english = ["Figure 4.9", "Their difference", "(solid)", "Red: the", "Why it matters"]
    _check(language, at, tab, english, ["Their difference", "Figure 4.9: σ(a) and Φ(λa)"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_metrics_panel_speaks_the_language(language):
    tab = "Metrics"
    at = _link_app(language, _scene("logistic", held_out=0.3), tab)
    english = [
        "Training accuracy",
        "Test accuracy",
        "log loss",
        "training points",
        "test points",
        "precision",
        "recall",
        "predicted class",
        "true class",
        "cross-entropy",
    ]
    _check(language, at, tab, english, ["Training accuracy", "Test accuracy", "precision", "predicted class"])
