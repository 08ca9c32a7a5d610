"""What classes are called: the user's names (the scene's ``class_names``) or "class 1"
... "class 6" in the session's language, as the book counts.

A name is a visitor's text (from a link, a file or the sidebar), cleaned and bounded by the scene
but not escaped: each place that shows it escapes it for its own language. A user's name is
shown bidirectionally isolated (``isolated``): "שלום: 10" keeps its order in a left-to-right
sentence, and a sentence keeps its order around the name. ``class_name`` and
``class_label`` are the text itself (for plain-text sinks: selectbox options, table cells, a
download's name); ``*_markdown`` for Streamlit's Markdown (messages, captions, radio options,
widget labels); ``*_html`` for plotly's text (legend, hover, titles), which renders a subset of
HTML; ``class_name_latex`` for formulas.
"""

import html
import re
import unicodedata
from collections.abc import Callable
from typing import SupportsInt, overload

from playground.errors import Message, PlaygroundError, phrase
from ui.base.visitor import visitor

from .i18n import _, _run_context, spoken_class_names
from .markdown import plain

# The class symbols of the plot (ui.plot.theme.CLASS_SYMBOLS: circle, square, diamond, triangle,
# cross, star) as text glyphs, so a class named in words carries its marker too.
SYMBOL_GLYPHS = ("●", "■", "◆", "▲", "✚", "★")

N_CLASSES = 6  # the most classes the playground draws (one colour, symbol and name each)


FIRST_STRONG_ISOLATE = "\u2068"  # FSI: the text between takes its direction from its own first letter
POP_DIRECTIONAL_ISOLATE = "\u2069"  # PDI: ends the isolate


def isolated(text: object) -> str:
    """A visitor's text (a class name, a student's nickname, a file's name) as it goes into a
    sentence, a legend or a label: between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL
    ISOLATE, so a right-to-left name ("שלום") neither reorders the words and numbers around it
    ("שלום: 10 · class 2: 5" stays in that order) nor takes their direction; "" stays "". The two
    marks are invisible; the text keeps no isolate or override of its own (the scene drops format
    characters from names, and so does this), so the isolate always closes where the name ends.
    Shown as text: escape the result for its sink as the text itself would be. Never in a link or
    a file: those carry the name itself."""
    inner = "".join(c for c in str(text) if c not in _BIDI_CONTROLS)
    return f"{FIRST_STRONG_ISOLATE}{inner}{POP_DIRECTIONAL_ISOLATE}" if inner else ""


# Bidirectional embeddings, overrides, isolates and marks: none of them may reach the page inside a
# visitor's text, where they would reorder the sentence around it or leave an isolate open.
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def scene_class_names() -> tuple[str, ...]:
    """The session's scene's class names (a tuple, "" for a default one); () outside a run."""
    if _run_context() is None:  # a notebook, a bare test, the live route (``ui.text.i18n.speaking``)
        return spoken_class_names()

    names = getattr(visitor().get("scene"), "class_names", ())
    return names if isinstance(names, tuple) else ()


def default_class_name(label: int) -> str:
    """ "class k + 1" in the session's language, for the app's class label k (0..5)."""
    return _("class {number}").format(number=int(label) + 1)


def scene_class_name(label: SupportsInt | str) -> str | None:
    """The user's name of class label k (0..5), or None when it has the default name (or is no
    class index at all)."""
    try:
        index = int(label)
    except (TypeError, ValueError):
        return None
    names = scene_class_names()
    return (names[index] or None) if 0 <= index < len(names) else None


def class_name(label: int) -> str:
    """The name a sentence, legend or table gives the app's class label k (0..5): the user's
    name of it (``isolated``), else "class k + 1". Raw text: escape it for the place it is shown."""
    name = scene_class_name(label)
    return isolated(name) if name else default_class_name(label)


def class_label(k: int) -> str:
    """'● class 1' (or '● setosa'): the symbol and name a legend or widget shows for class index k."""
    return f"{SYMBOL_GLYPHS[k]} {class_name(k)}"


def class_name_markdown(label: int) -> str:
    """``class_name`` as Markdown that shows exactly its characters (``ui.text.markdown.plain``)."""
    return plain(class_name(label))


def class_label_markdown(k: int) -> str:
    """``class_label`` for Markdown: radio options and widget labels render Markdown."""
    return plain(class_label(k))


def plotly_text(text: object) -> str:
    """Text as plotly shows it verbatim: its HTML subset escaped (``<b>``, ``<a href>``, entities)
    and "%" as an entity, so a hover template's ``%{x}`` in a name stays text."""
    return html.escape(str(text), quote=False).replace("%", "&#37;")


def class_name_html(label: int) -> str:
    """``class_name`` for plotly text (legend entries, hover templates, titles)."""
    return plotly_text(class_name(label))


_LATEX_SPECIALS = re.compile(r"[\\{}$&#^_%~]")
_LATEX_SYMBOLS = {"\\": r"\textbackslash{}", "^": r"\textasciicircum{}", "~": r"\textasciitilde{}"}

# KaTeX (0.16.47 in streamlit 1.67's rehype-katex, the copy st.latex uses; 0.18.10's table is the
# same) reads a character and the combining marks of U+0300-U+036F after it as one token, and turns
# each of those marks into an accent command through its table of text-mode accents
# (src/unicodeAccents.js): a mark missing from the table is "ParseError: Unknown accent", and a mark
# with no character before it (at the start of ``\text{``, after a space or a command) breaks the
# parse. Combining marks outside that range are characters of their own, drawn as they are.
KATEX_COMBINING = range(0x0300, 0x0370)
KATEX_TEXT_ACCENTS = frozenset("\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c\u0327")
MARK_CARRIER = "\u25cc"  # DOTTED CIRCLE: how Unicode shows a combining mark on its own
# Characters KaTeX's lexer refuses (controls, line and paragraph separators, surrogates, private use)
# or that could reorder the formula on screen (format characters: bidirectional overrides...).
_UNDRAWABLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_SPACES = frozenset(" \t\r\n")


def latex_text(text: object) -> str:
    r"""Text for a formula: ``\text{...}`` that KaTeX draws as ``text``'s characters, never as commands
    and never as a red "ParseError". Every text a formula holds (a class name, a translated
    sentence in ``ui.equations``) goes into LaTeX here.

    - LaTeX's specials are escaped (``\{``, ``\textbackslash{}`` ...), so a name such as
      ``\input{/etc/passwd}`` is shown, never run.
    - The text is put in Unicode's composed form (NFC) first, so a letter and a mark that have a
      character of their own are drawn as that character ("a" + U+0323 is "ạ").
    - A combining mark of U+0300-U+036F stays only where KaTeX can draw it: when it is one of
      KaTeX's text-mode accents (``KATEX_TEXT_ACCENTS``: grave, acute, circumflex, tilde, macron,
      breve, dot, diaeresis, ring, double acute, caron, cedilla) and follows a character it can
      sit on (stacked marks included). Any other mark of that range is removed (U+0335, U+0305 ...);
      an accent with no character under it (at the start, after a space or a LaTeX special) is put
      on U+25CC DOTTED CIRCLE, as Unicode shows a mark alone.
    - Combining marks outside that range (U+20DD, U+0483, U+1AB0 ...) are characters to KaTeX and
      are kept; characters KaTeX cannot read (controls, format characters, surrogates, private use,
      unassigned) are removed.
    - A non-empty text with nothing left to draw is shown as U+25CC.
    """
    text = unicodedata.normalize("NFC", str(text))
    out = []
    on_base = False  # does the output end with a character (and marks) a mark can attach to?
    for char in text:
        if ord(char) in KATEX_COMBINING:
            if char not in KATEX_TEXT_ACCENTS:
                continue  # KaTeX cannot draw it: removed
            if not on_base:
                out.append(MARK_CARRIER)
                on_base = True
            out.append(char)
        elif char in _SPACES:
            out.append(" ")
            on_base = False
        elif _LATEX_SPECIALS.fullmatch(char):
            out.append(_LATEX_SYMBOLS.get(char, "\\" + char))
            on_base = False  # a mark after a command or "}" would break the parse
        elif unicodedata.category(char) in _UNDRAWABLE_CATEGORIES:
            continue
        else:
            out.append(char)
            on_base = True
    if text.strip() and not "".join(out).strip():
        out = [MARK_CARRIER]
    return r"\text{" + "".join(out) + "}"


def class_name_latex(label: int) -> str:
    r"""``class_name`` inside a formula: ``\text{setosa}``, specials escaped."""
    return latex_text(class_name(label))


def markdown_html_text(text: object) -> str:
    """Text for Markdown that also allows HTML (``unsafe_allow_html``; the status line): Markdown
    made literal by ``plain`` and no ``<``, ``>`` or ``&`` left but as entities, which show as text."""
    return plain(text).replace("\\&", "&amp;").replace("\\<", "&lt;").replace("\\>", "&gt;")


def class_label_format(markdown: bool = False) -> Callable[[int], str]:
    """A widget's ``format_func`` for options that are class indices: "● setosa" (``markdown``:
    escaped for radio options, which render Markdown). The labels are fixed when it is made, in
    this run's scene and language, so formatting an option later gives the same text (AppTest
    formats options outside the script, where the session's scene is out of reach)."""
    labels = tuple((class_label_markdown if markdown else class_label)(k) for k in range(N_CLASSES))
    return lambda k: labels[int(k)]


def class_name_format(markdown: bool = False) -> Callable[[int], str]:
    """Like ``class_label_format``, the names alone ("setosa", "class 2"), as plain text
    (``markdown``: escaped for options that render Markdown, e.g. a segmented control's)."""
    shown = tuple((class_name_markdown if markdown else class_name)(k) for k in range(N_CLASSES))
    return lambda k: shown[int(k)]


@overload
def phrased(message: None, name: Callable[[int], str] = ...) -> None: ...
@overload
def phrased(message: Message | PlaygroundError | str, name: Callable[[int], str] = ...) -> str: ...
@overload
def phrased(message: Message | PlaygroundError | str | None, name: Callable[[int], str] = ...) -> str | None: ...


def phrased(
    message: Message | PlaygroundError | str | None, name: Callable[[int], str] = class_name_markdown
) -> str | None:
    """A back-end ``Message`` (or error, or plain text) in the session's language, its classes named
    by ``name(label)``; None stays None. The default names them as Markdown (the user's names
    escaped), for a message shown as it is in a Markdown sink; pass ``name=class_name`` for a
    message escaped whole afterwards (``plain(phrased(m, name=class_name))``), which must not
    escape the names twice."""
    return phrase(message, name, _)
