"""The interface's language: English, 日本語 or 简体中文, read from the gettext catalogs in locale/.

Every string a person reads is written in English in the code and shown through ``_`` (or
``ngettext``), which looks it up in the session's language. Text that is defined in one place and
shown in another (the back-end's preset explanations, option tables) is marked with ``N_`` where
it is defined and translated with ``_`` where it is shown.

Catalogs are ``.po`` files under ``locale/<lang>/LC_MESSAGES/``, one file per part of the app
(``sidebar.po``, ``panels.po``, ...), so that several people can translate at once; a language's
files are merged and compiled to gettext's binary form in memory, once per process, and read by
``gettext.GNUTranslations``. English needs no translation: its catalog lists the messages with
empty translations, and gettext then shows the message itself.

The language belongs to the session (``visitor()["lang"]``), never to the process: a
function cached across sessions (``st.cache_data``) that returns text must take the language as
an argument, or its first caller's language would reach everyone.
"""

import functools
import gettext
import io
import re
import struct
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Final, NamedTuple

from ui.base import streamlit_private
from ui.base.visitor import visitor

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
LANGUAGES = {"en": "English", "ja": "日本語", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_KEY: Final = "lang"


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it (it is translated where shown)."""
    return message


def _run_context() -> Any:
    return streamlit_private.run_context()


# Outside a script run (the live route, ``ui.server.live_route``): the language and class names a request
# speaks with, set by ``speaking`` for the code that runs inside it.
_SPEAKING: ContextVar[tuple[str, tuple[str, ...]] | None] = ContextVar("pg_speaking", default=None)


@contextmanager
def speaking(language: str, class_names: Iterable[str] = ()) -> Iterator[None]:
    """Inside the block, outside a script run, messages are in ``language`` and the classes have
    ``class_names`` (``ui.text.names``); a script run keeps its session's own."""
    token = _SPEAKING.set((language if language in LANGUAGES else DEFAULT_LANGUAGE, tuple(class_names)))
    try:
        yield
    finally:
        _SPEAKING.reset(token)


def spoken_class_names() -> tuple[str, ...]:
    """The class names ``speaking`` set, or () (outside such a block)."""
    spoken = _SPEAKING.get()
    return spoken[1] if spoken else ()


def current_language() -> str:
    """The session's language code ("en", "ja" or "zh"); outside a Streamlit run, the one
    ``speaking`` set, else English."""
    if _run_context() is None:  # no runtime (a notebook, a bare test, the live route)
        spoken = _SPEAKING.get()
        return spoken[0] if spoken else DEFAULT_LANGUAGE

    language = visitor().get(LANGUAGE_KEY, DEFAULT_LANGUAGE)
    return language if isinstance(language, str) and language in LANGUAGES else DEFAULT_LANGUAGE


def begin_run() -> None:
    """Fix the session's catalog for this script run (and the fragment reruns that follow it).

    A page shows a few hundred messages per run; reading the language from session state for each
    is far slower than the catalog kept on the run's context. The language only changes
    in a full run (the picker is outside every fragment), which calls this again.
    """
    ctx = _run_context()
    if ctx is not None:
        ctx.pg_translations = translations(current_language())


def active_translations() -> gettext.NullTranslations:
    """The catalog of the running session's language.

    A fragment's run (a click reruns the canvas's fragment, then the panel's) has a context of its
    own, which ``begin_run`` never saw: the catalog is then fixed on it at the first message, not
    looked up again for each of the run's dozens of messages.
    """
    ctx = _run_context()
    if ctx is None:
        return translations(current_language())
    catalog = getattr(ctx, "pg_translations", None)
    if catalog is None:
        catalog = ctx.pg_translations = translations(current_language())
    return catalog


def _(message: str) -> str:
    """``message`` in the session's language (itself when there is no translation)."""
    return active_translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message, in the session's language, for the count ``n``."""
    return active_translations().ngettext(singular, plural, n)


# The first sessions of a fresh server ask for a catalog together; one compiles it, the others
# wait for it (``functools.cache`` alone would let them all compile it at once).
_COMPILING = threading.Lock()


def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (read-only, shared by every session)."""
    if language not in LANGUAGES:
        return gettext.NullTranslations()
    with _COMPILING:
        return _compiled(language)


@functools.cache
def _compiled(language: str) -> gettext.GNUTranslations:
    return gettext.GNUTranslations(io.BytesIO(compile_mo(read_catalogs(language))))


def catalog_files(language: str) -> list[Path]:
    """The ``.po`` files of a language, in a fixed order."""
    return sorted((LOCALE_DIR / language / "LC_MESSAGES").glob("*.po"))


def read_catalogs(language: str) -> dict[str, str]:
    """{msgid: msgstr} of all of a language's ``.po`` files; the header is under "".

    A plural entry's key is ``singular\\0plural`` and its value the forms joined by ``\\0``
    (gettext's binary layout). Fuzzy and untranslated entries are left out (gettext then shows
    the English message).
    """
    entries: dict[str, str] = {}
    for path in catalog_files(language):
        for msgid, msgstr, fuzzy in parse_po(path.read_text(encoding="utf-8")):
            if msgid == "" and "" in entries:
                continue  # one header is enough
            if msgstr.replace("\0", "") and not fuzzy:
                entries[msgid] = msgstr
    return entries


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_ESCAPE = re.compile(r"\\(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|(.))", re.DOTALL)


def unquote(token: str) -> str:
    """The text of a PO string literal ``"..."`` (C escapes: \\n \\t \\" \\\\ ..., octal, \\x).

    Decoded by hand, not by ``ast.literal_eval``: CPython 3.11's parser is not safe to run from
    several threads at once ("AST constructor recursion depth mismatch"), and the first sessions
    of a fresh server read the catalogs together.
    """
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise ValueError(f"not a PO string: {token[:40]!r}")

    def replace(match: re.Match[str]) -> str:
        octal, hexadecimal, other = match.groups()
        if octal:
            return chr(int(octal, 8))
        if hexadecimal:
            return chr(int(hexadecimal, 16))
        return _ESCAPES.get(other, other)  # \" and \\ give the character itself

    return _ESCAPE.sub(replace, token[1:-1])


class PoEntry(NamedTuple):
    """One entry of a ``.po`` file (``parse_po``); plural forms are joined by NUL."""

    msgid: str
    msgstr: str
    fuzzy: bool


def parse_po(text: str) -> list[PoEntry]:
    """(msgid, msgstr, fuzzy) for each entry of a ``.po`` file's text (plural forms joined by NUL)."""
    entries: list[PoEntry] = []
    current: dict[str, str] = {}
    field = ""
    fuzzy = False

    def finish() -> None:
        nonlocal current, fuzzy
        if "msgid" in current:
            msgid = current["msgid"]
            if "msgid_plural" in current:
                msgid += "\0" + current["msgid_plural"]
                forms = sorted(k for k in current if k.startswith("msgstr["))
                msgstr = "\0".join(current[k] for k in forms)
            else:
                msgstr = current.get("msgstr", "")
            entries.append(PoEntry(msgid, msgstr, fuzzy))
        current, fuzzy = {}, False

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith("#,") and "fuzzy" in line:
                if "msgid" in current and "msgstr" in current or any(k.startswith("msgstr[") for k in current):
                    finish()
                fuzzy = True
            continue
        if line.startswith('"'):
            current[field] += unquote(line)
            continue
        keyword, _space, rest = line.partition(" ")
        if keyword == "msgid" and "msgid" in current:
            finish()
        field = keyword
        current[field] = unquote(rest)
    finish()
    return entries


def compile_mo(entries: Mapping[str, str]) -> bytes:
    """gettext's binary catalog (.mo) of {msgid: msgstr}, as ``msgfmt`` writes it."""
    keys = sorted(entries)
    ids = [key.encode("utf-8") for key in keys]
    strs = [entries[key].encode("utf-8") for key in keys]
    header_size = 7 * 4
    ids_table = header_size
    strs_table = ids_table + 8 * len(keys)
    data_start = strs_table + 8 * len(keys)
    offsets, data = [], b""
    for text in ids:
        offsets.append((len(text), data_start + len(data)))
        data += text + b"\0"
    id_offsets, offsets = offsets, []
    for text in strs:
        offsets.append((len(text), data_start + len(data)))
        data += text + b"\0"
    output = struct.pack("<7I", 0x950412DE, 0, len(keys), ids_table, strs_table, 0, data_start)
    output += b"".join(struct.pack("<2I", *pair) for pair in id_offsets)
    output += b"".join(struct.pack("<2I", *pair) for pair in offsets)
    return output + data


MAX_LANGUAGE_TEXT = 35  # the longest BCP 47 tag worth reading; anything longer is not a language


def language_code(value: object) -> str | None:
    """The app's language for a link value or a browser locale ("ja", "ja-JP", "zh-Hans-CN", "EN"),
    or None when ``value`` names none of ours (any other type, text or length)."""
    if not isinstance(value, str) or len(value) > MAX_LANGUAGE_TEXT:
        return None
    primary = value.strip().replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def initial_language(link_value: object = None, browser_locale: object = None) -> str:
    """A new session's language: the link's ``lang``, else the browser's preferred language, else
    English. Chinese in any script or region is shown in simplified Chinese, our one Chinese."""
    return language_code(link_value) or language_code(browser_locale) or DEFAULT_LANGUAGE
