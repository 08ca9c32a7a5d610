"""The catalogs on a fresh server: the first sessions arrive together, each in its own thread.

CI caught a session's first run failing with CPython's "AST constructor recursion depth mismatch"
while ten pages opened at once: the catalogs were read with ``ast.literal_eval``, which is not
safe to run from several threads. They are now decoded by hand and compiled once, under a lock.
"""

import ast

import pytest

from tests.conftest import at_once
from ui.text import i18n
from ui.text.i18n import LANGUAGES, catalog_files, parse_po, unquote


@pytest.mark.parametrize(
    "token, text",
    [
        ('""', ""),
        ('"plain"', "plain"),
        ('"a \\"quoted\\" word"', 'a "quoted" word'),
        ('"back\\\\slash"', "back\\slash"),
        ('"two\\nlines\\tand a tab"', "two\nlines\tand a tab"),
        ('"\\\\n is not a newline"', "\\n is not a newline"),
        ('"octal \\101 and hex \\x42"', "octal A and hex B"),
        ('"日本語と中文 · σ(a) ≥ 0 → C₁"', "日本語と中文 · σ(a) ≥ 0 → C₁"),
    ],
)
def test_a_po_string_is_decoded_as_the_c_escapes_say(token, text):
    assert unquote(token) == text


@pytest.mark.parametrize("token", ["", '"', "unquoted", '"open', 'closed"'])
def test_a_malformed_po_string_is_refused(token):
    with pytest.raises(ValueError):
        unquote(token)


@pytest.mark.parametrize("language", [code for code in LANGUAGES if catalog_files(code)])
def test_every_catalog_reads_as_python_would_read_its_strings(language):
    """The hand decoder agrees with ``ast.literal_eval`` (safe here: one thread) on every string
    of every catalog file."""
    for path in catalog_files(language):
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            line = line.strip()
            token = line if line.startswith('"') else line.partition(" ")[2]
            if line and not line.startswith("#") and token.startswith('"'):
                assert unquote(token) == ast.literal_eval(token), (path.name, line)
        assert parse_po(text)  # and the file parses


def test_sessions_starting_together_all_get_the_catalog():
    i18n._compiled.cache_clear()
    try:
        results, errors = at_once(lambda: i18n.translations("ja"))
        assert errors == []
        assert len({id(catalog) for catalog in results}) == 1  # compiled once, shared
        assert results[0].gettext("Points") != "Points"
    finally:
        i18n._compiled.cache_clear()


def test_reading_the_catalogs_in_many_threads_at_once_never_fails():
    _, errors = at_once(lambda: [i18n.read_catalogs(code) for code in ("ja", "zh")], threads=12)
    assert errors == []
