"""Where class names are shown (issue 18): ``ui.names`` names classes from the scene, and each
sink gets the name escaped for its own language (plotly's HTML subset, Markdown, Markdown with
HTML, LaTeX), so visitors' names show as their characters and never as markup."""

import html
import re

import numpy as np
import pytest

from playground import make_model
from playground.scene import PointSet, Window
from ui import names
from ui.compute import FitView
from ui.equations import class_names_equation, model_equations
from ui.figures import scene_figure
from ui.text import WORD_JOINER, unescape

HOSTILE = (
    "<img src=x onerror=f()>",
    "![](//host/x.png)",
    r"\input{/etc/passwd}",
    "<b>%{x}</b> & $y$",
    "[a](javascript:x) _i_ *b*",
    "~^#%{}",
)


@pytest.fixture
def named(monkeypatch):
    """The session's scene names its classes (as ``scene_class_names`` reads them in a run)."""

    def use(*given):
        monkeypatch.setattr(names, "scene_class_names", lambda: tuple(given))

    return use


def test_without_a_run_or_names_classes_are_numbered_from_1():
    assert [names.class_name(k) for k in range(6)] == [f"class {k}" for k in range(1, 7)]
    assert names.class_label(0) == "● class 1" and names.scene_class_name(0) is None


def test_the_scenes_names_replace_the_default_ones(named):
    named("setosa", "", "virginica")
    assert [names.class_name(k) for k in range(4)] == ["setosa", "class 2", "virginica", "class 4"]
    assert names.class_label(2) == "◆ virginica" and names.scene_class_name(np.int64(0)) == "setosa"
    assert names.scene_class_name("x") is None and names.scene_class_name(9) is None


@pytest.mark.parametrize("name", HOSTILE)
def test_plotly_text_decodes_to_the_name_and_holds_no_tag_or_template(name):
    shown = names.plotly_text(name)
    assert "<" not in shown and ">" not in shown and "%{" not in shown
    assert html.unescape(shown) == name  # plotly decodes entities as HTML does


@pytest.mark.parametrize("name", HOSTILE)
def test_markdown_shows_the_names_characters(name):
    shown = names.plain(name)
    assert unescape(shown) == name
    assert not re.search(r"(?<!\\)[<>\[\]*_$`]", shown.replace("\\\\", ""))


@pytest.mark.parametrize("name", HOSTILE)
def test_markdown_with_html_holds_no_raw_tag_and_decodes_to_the_name(name):
    shown = names.markdown_html_text(name)
    assert "<" not in shown and ">" not in shown
    assert not re.search(r"&(?!amp;|lt;|gt;)", shown)  # every & is one of the entities put there
    decoded = re.sub(r"\\(.)", r"\1", shown)  # Markdown's backslash escapes
    assert html.unescape(decoded).replace(WORD_JOINER, "") == name


def _latex_decoded(text):
    """What KaTeX shows for ``\\text{...}`` made of plain characters and the escapes of LaTeX's
    specials; None when anything else (a command, a group, math) is left."""
    match = re.fullmatch(r"\\text\{(.*)\}", text)
    if not match:
        return None
    symbols = {r"\textbackslash{}": "\\", r"\textasciicircum{}": "^", r"\textasciitilde{}": "~"}
    tokens = re.findall(r"\\text[a-z]+\{\}|\\[{}$&#_%]|[^\\{}$&#^_%~]|.", match.group(1))
    shown = []
    for token in tokens:
        if token in symbols:
            shown.append(symbols[token])
        elif len(token) == 2 and token[0] == "\\":
            shown.append(token[1])
        elif len(token) == 1 and token not in "\\{}$&#^_%~":
            shown.append(token)
        else:
            return None
    return "".join(shown)


@pytest.mark.parametrize("name", HOSTILE)
def test_latex_shows_the_names_characters_and_runs_no_command(name):
    shown = names.latex_text(name)
    assert _latex_decoded(shown) == name, shown
    assert r"\input" not in shown.replace(r"\textbackslash{}input", "")


def test_the_canvas_legend_and_hover_show_names_escaped(named):
    named(*HOSTILE[:3])
    points = PointSet.from_arrays([[0, 0], [1, 0], [0, 1], [1, 1], [3, 3], [4, 3]], [0, 0, 1, 1, 2, 2])
    figure = scene_figure(points, FitView(), Window(), 0)
    classes = [trace for trace in figure["data"] if trace.get("meta") == "points"]
    assert [html.unescape(trace["name"]) for trace in classes] == list(HOSTILE[:3])
    for trace in classes:
        assert "<img" not in trace["name"] and "<img" not in trace["hovertemplate"]
        assert trace["hovertemplate"].startswith(trace["name"] + "<br>")
    # The compact legend numbers the classes whatever they are called.
    compact = dict(zip((t.get("name") for t in figure["data"]), figure["compact"]["names"]))
    assert [compact[trace["name"]] for trace in classes] == ["1", "2", "3"]


def test_the_equations_list_named_classes_with_their_names_escaped(named):
    X = np.array([[0, 0], [1, 0], [0, 1], [3, 3], [4, 3], [3, 4]], float)
    model = make_model("gaussian_shared").fit(X, np.array([0, 0, 0, 2, 2, 2]))
    assert class_names_equation(model.classes_) is None  # nothing named: nothing added
    named("", "unused", r"\input{/etc/passwd}")
    equation = model_equations(model)[-1]
    assert equation.title == "Class names"
    assert equation.latex == r"\mathcal{C}_{3} = \text{\textbackslash{}input\{/etc/passwd\}}"
