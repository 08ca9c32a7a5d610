"""Where class names are shown (issue 18): ``ui.text.names`` names classes from the scene, and each
sink gets the name escaped for its own language (plotly's HTML subset, Markdown, Markdown with
HTML, LaTeX), so visitors' names show as their characters and never as markup."""

import html
import re
import unicodedata
from pathlib import Path

import numpy as np
import pytest

from playground import make_model
from playground.errors import Classes, Message
from playground.i18n import N_
from playground.scene import PointSet, Window
from ui.equations import class_names_equation, model_equations
from ui.panels import (
    fisher as fisher_panel,
)
from ui.panels import (
    least_squares as least_squares_panel,
)
from ui.panels import (
    multiclass as multiclass_panel,
)
from ui.plot.figures import scene_figure
from ui.session.compute import FitView
from ui.text import names
from ui.text.markdown import WORD_JOINER, unescape

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
    iso = names.isolated  # a user's name is shown isolated (right-to-left text keeps its place)
    assert [names.class_name(k) for k in range(4)] == [iso("setosa"), "class 2", iso("virginica"), "class 4"]
    assert names.scene_class_name(0) == "setosa"  # the name itself, for a link or a file
    assert names.class_label(2) == f"◆ {iso('virginica')}" and names.scene_class_name(np.int64(0)) == "setosa"
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


# Every character of Unicode's category Mn (nonspacing combining marks), and the places a mark
# can stand in a name: on a letter, alone, after a space, after a LaTeX special, stacked.
COMBINING_MARKS = tuple(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Mn")
MARK_CONTEXTS = (
    "a{}",
    "{}",
    "a {}",
    "{{{}",
    "\\{}",
    "a{}\u0301",
    "a\u0301{}",
    "{}{}b",
    "i{}{}",
)
# KaTeX's lexer (src/Lexer.js) inside \text{...}: a character and the U+0300-U+036F marks after
# it are one token; a control word, a control symbol, spaces; anything else is an error.
_KATEX_TOKEN = re.compile(
    r"(?P<space>[ \r\n\t]+)|\\[a-zA-Z@]+[ \r\n\t]*|\\[^\ud800-\udfff]"
    r"|(?P<char>[!-\[\]-\u2027\u202a-\ud7ff\uf900-\U0010ffff])(?P<marks>[\u0300-\u036f]*)"
)


def _katex_reads(latex):
    """Does KaTeX read ``\\text{...}`` without an error, as its lexer and ``parseSymbol`` do: every
    character a token, and each mark of U+0300-U+036F an accent of its table on a character that
    is not itself such a mark (a token of marks alone has no symbol, a parse error)."""
    body = re.fullmatch(r"\\text\{(.*)\}", latex, re.DOTALL).group(1)
    at = 0
    while at < len(body):
        token = _KATEX_TOKEN.match(body, at)
        if not token:
            return False
        if token["char"] and (
            ord(token["char"]) in names.KATEX_COMBINING or not set(token["marks"]) <= names.KATEX_TEXT_ACCENTS
        ):
            return False
        at = token.end()
    return True


def test_katex_reads_the_reported_names_only_once_escaped():
    assert not _katex_reads("\\text{a\u0335}") and not _katex_reads("\\text{\u0301a}")  # the check bites
    assert names.latex_text("a\u0335") == r"\text{a}"  # issue 30: "Unknown accent"
    assert names.latex_text("a\u0305") == r"\text{a}"
    for kept in ("a\u0301", "a\u0308", "a\u20dd", "\u20dd"):  # KaTeX draws these: unchanged
        assert names.latex_text(kept) == r"\text{" + unicodedata.normalize("NFC", kept) + "}"


def test_marks_with_no_character_under_them_and_stacked_marks():
    assert names.latex_text("\u0301a") == "\\text{\u25cc\u0301a}"  # an accent alone sits on a dotted circle
    assert names.latex_text("a \u0308") == "\\text{a \u25cc\u0308}"
    assert names.latex_text("{\u0301") == "\\text{\\{\u25cc\u0301}"
    assert names.latex_text("\u0335") == "\\text{\u25cc}"  # nothing else to draw
    assert names.latex_text("e\u0301\u0308\u0335\u0327") == "\\text{\u0229\u0301\u0308}"  # NFC: e + cedilla
    assert names.latex_text("a\u0335\u0301") == "\\text{\u00e1}"
    assert names.latex_text("a\u0323") == "\\text{\u1ea1}"  # composed: a mark KaTeX has not, drawn anyway
    assert names.latex_text("x\ue000\x7f\u202ey") == r"\text{xy}"  # private use, DEL, a bidi override
    assert names.latex_text("") == r"\text{}"


@pytest.mark.parametrize("context", MARK_CONTEXTS)
def test_every_combining_mark_leaves_only_what_katex_draws(context):
    for mark in COMBINING_MARKS:
        name = context.format(mark, mark) if context.count("{}") == 2 else context.format(mark)
        shown = names.latex_text(name)
        assert _katex_reads(shown), (name.encode("unicode_escape"), shown)
        kept = {c for c in shown if ord(c) in names.KATEX_COMBINING}
        assert kept <= names.KATEX_TEXT_ACCENTS, name.encode("unicode_escape")
        if ord(mark) not in names.KATEX_COMBINING or mark in names.KATEX_TEXT_ACCENTS:
            # A mark KaTeX draws is never lost (NFC may compose it with its letter).
            assert unicodedata.normalize("NFD", shown).count(mark) >= unicodedata.normalize("NFD", name).count(mark)


def test_text_enters_formulas_only_through_latex_text():
    """No module but ``ui.text.names`` writes text into ``\\text{...}`` itself (an f-string's
    ``\\text{{{x}}}``, or ``"\\text{" + x``): every path goes through ``latex_text``."""
    root = Path(names.__file__).parent
    pattern = re.compile(r'\\text\{\{\{|\\text\{"\s*\+')
    for path in root.rglob("*.py"):
        if path.name != "names.py":
            assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_the_canvas_legend_and_hover_show_names_escaped(named):
    named(*HOSTILE[:3])
    points = PointSet.from_arrays([[0, 0], [1, 0], [0, 1], [1, 1], [3, 3], [4, 3]], [0, 0, 1, 1, 2, 2])
    figure = scene_figure(points, FitView(), Window(), 0)
    classes = [trace for trace in figure["data"] if trace.get("meta") == "points"]
    assert [html.unescape(trace["name"]) for trace in classes] == [names.isolated(n) for n in HOSTILE[:3]]
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


def test_a_messages_classes_are_named_escaped_once_wherever_it_is_shown(named):
    named(*HOSTILE[:2])
    message = Message(N_("{classes} have too few points."), classes=Classes(0, 1))
    first, second = names.isolated(HOSTILE[0]), names.isolated(HOSTILE[1])
    sentence = f"{first} and {second} have too few points."
    # Shown as it is in Markdown (a warning's reason): the names escaped, the sentence around them not.
    assert names.phrased(message) == f"{names.plain(first)} and {names.plain(second)} have too few points."
    # Escaped whole where it is shown (plain(phrased(...))): raw names, so nothing is escaped twice.
    assert names.phrased(message, name=names.class_name) == sentence
    assert unescape(names.plain(names.phrased(message, name=names.class_name))) == sentence
    assert names.phrased(None) is None and names.phrased("as it is") == "as it is"


def test_widgets_whose_options_render_markdown_get_the_names_escaped(named):
    named(*HOSTILE[:3])
    shown_names = [names.isolated(n) for n in HOSTILE[:3]]
    assert [unescape(names.class_name_format(markdown=True)(k)) for k in range(3)] == shown_names
    assert names.class_name_format()(0) == shown_names[0]  # plain text for a select box
    X = np.array([[0, 0], [1, 0], [0, 1], [3, 3], [4, 3], [3, 4], [0, 4], [1, 4], [0, 5]], float)
    model = make_model("least_squares").fit(X, np.repeat([0, 1, 2], 3))
    shown = least_squares_panel.output_names(model, markdown=True)  # a segmented control's options
    assert [unescape(text) for text in shown] == [f"y{s}(x) for {n}" for s, n in zip("₁₂₃", shown_names)]
    assert shown == [f"y{s}(x) for {names.plain(n)}" for s, n in zip("₁₂₃", shown_names)]  # Markdown made literal


def test_the_panels_plotly_texts_show_names_escaped(named):
    named(*HOSTILE[3:6])  # "%{x}", tags and entities: what plotly's text would run
    X = np.array([[0, 0], [1, 0], [0, 1], [5, 5], [6, 5], [5, 6], [0, 6], [1, 6], [0, 7]], float)
    y = np.repeat([0, 1, 2], 3)
    model = make_model("least_squares", multiclass="ovr").fit(X, y)
    lines = [t for t in multiclass_panel.sub_classifier_traces(model, Window(-2, 9, -2, 9)) if t.get("mode") == "lines"]
    assert [html.unescape(t["name"]) for t in lines] == [f"{names.isolated(n)} vs rest" for n in HOSTILE[3:6]]
    fisher = make_model("fisher").fit(X[:6], y[:6])
    figure = fisher_panel.projection_figure(fisher, X[:6], y[:6], fisher.direction_, fisher.threshold_, "t")
    bars = [t for t in figure.data if t.type == "bar"]
    assert [html.unescape(t["name"]) for t in bars] == [names.isolated(n) for n in HOSTILE[3:5]]
    for trace in (*lines, *bars):
        assert "<b>" not in trace["name"] and "%{" not in trace["name"]
    for trace in bars:  # the hover template's own %{y} and %{x:.3g} stay; the name's "%{x}" does not run
        assert trace["hovertemplate"].startswith(trace["name"] + ": %{y}")


def test_visitors_text_is_isolated_once_and_closed():
    assert names.isolated("שלום") == "\u2068שלום\u2069"
    assert names.isolated("") == "" and names.isolated("\u202e\u2069") == ""
    # Overrides, embeddings, isolates and marks of its own are dropped: the isolate closes at the end.
    assert names.isolated("a\u2069b\u202ec\u2067d\u200f") == "\u2068abcd\u2069"
    assert names.isolated(names.isolated("x")) == names.isolated("x")
