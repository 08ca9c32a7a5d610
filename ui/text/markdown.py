"""Text for Streamlit's message elements, which render Markdown: ``plain`` shows text as text.

A hosted app's links and files are written by anyone, and their text reaches the page in our
messages (an unknown method's name, a file's name, a bad value). Rendered as Markdown,
``![](//host/x.png)`` would make every visitor's browser fetch an image from any host and
``[Log in again](//host)`` would put a link in our warning. Every message that can hold such text
goes through ``plain`` (st.warning, st.error, st.info, st.toast, st.markdown).
"""

import re

# Inline Markdown, Streamlit's extensions included ($math$, :red[...], :material/icon:, :emoji:):
# the characters that open it are shown as themselves after a backslash. Others (. - ( ) ! # +)
# only matter at the start of a line, and ``plain`` text is one line whose start is escaped below,
# so prose stays readable.
_INLINE = re.compile(r"[\\`*_\[\]<>~$|&{}]|:(?=[A-Za-z\[])")
# GitHub's literal autolinks (http://..., www.x.org, a@b.org) are found in the text after escapes
# are resolved, so no backslash stops them: an invisible word joiner (U+2060) breaks the pattern.
_AUTOLINK = re.compile(r"(?<=:)(?=//)|(?i:(?<=www))(?=\.)|(?<=@)")
WORD_JOINER = "\u2060"
_LINE_START = re.compile(r"^(\s*)([#>+=\-*]|\d+(?=[.)]))")
_LINE_BREAKS = re.compile(r"[\r\n\t\f\v\u0085\u2028\u2029]+")


def plain(text: object) -> str:
    """``text`` as Markdown that renders exactly these characters, on one line.

    >>> plain("![x](//host/x.png) at http://host and www.host.org").replace(WORD_JOINER, "+")
    '!\\\\[x\\\\](//host/x.png) at http:+//host and www+.host.org'
    """
    text = _INLINE.sub(lambda match: "\\" + match.group(0), _LINE_BREAKS.sub(" ", str(text)))
    text = _AUTOLINK.sub(WORD_JOINER, text)
    return _LINE_START.sub(lambda match: match.group(1) + _escape_start(match.group(2)), text)


def _escape_start(marker: str) -> str:
    """A heading, quote, list or rule marker at the start of the line, made literal."""
    return marker + "\\" if marker.isdigit() else "\\" + marker


def unescape(markdown: str) -> str:
    """What ``plain`` was given (tests read messages back with it)."""
    return re.sub(r"\\(.)", r"\1", markdown).replace(WORD_JOINER, "")
