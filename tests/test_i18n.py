"""The interface's languages (issue 18): catalogs read as gettext reads them, complete in all three
languages, and the session's language from the link, the browser and the picker."""

import gettext
import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from scripts import catalogs
from ui.text import i18n

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")

PO = r"""# A catalog with what real ones hold: a header, plurals, escapes, a multi-line and a fuzzy entry.
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: ui/x.py:1
msgid "Method"
msgstr "手法"

msgid "{n} point"
msgid_plural "{n} points"
msgstr[0] "un {n}"
msgstr[1] "plusieurs {n}"

msgid "say \"hi\"\tthen\nstop"
msgstr "「hi」\tそして\n止める"

msgid ""
"a long "
"message"
msgstr ""
"長い"
"メッセージ"

#, fuzzy
msgid "Unsure"
msgstr "Pas sûr"

msgid "Untranslated"
msgstr ""
"""


def _translations(text):
    entries = {msgid: msgstr for msgid, msgstr, fuzzy in i18n.parse_po(text) if msgstr and not fuzzy}
    return gettext.GNUTranslations(io.BytesIO(i18n.compile_mo(entries)))


def test_a_po_file_compiles_to_what_python_gettext_reads():
    t = _translations(PO)
    assert t.gettext("Method") == "手法"
    assert t.ngettext("{n} point", "{n} points", 1) == "un {n}"
    assert t.ngettext("{n} point", "{n} points", 5) == "plusieurs {n}"
    assert t.gettext('say "hi"\tthen\nstop') == "「hi」\tそして\n止める"
    assert t.gettext("a long message") == "長いメッセージ"
    assert t.gettext("Unsure") == "Unsure"  # fuzzy: not trusted, the English shows
    assert t.gettext("Untranslated") == "Untranslated"
    assert t.gettext("Not in the catalog") == "Not in the catalog"


def test_the_compiled_catalog_is_what_msgfmt_would_write():
    # gettext's own reader checks the magic number, the offsets and the header's plural forms.
    t = _translations(PO)
    assert t.info()["plural-forms"] == "nplurals=2; plural=(n != 1);"
    assert t.charset() == "UTF-8"


def test_every_message_is_translated_in_every_catalog():
    """A message in the code missing from a catalog, an entry the code no longer uses, an empty
    Japanese or Chinese translation, changed {placeholders} or $formulas$, an f-string in _()."""
    assert catalogs.check() == []


def test_the_three_languages_load():
    for language in i18n.LANGUAGES:
        assert i18n.translations(language).gettext("class {number}")
    assert i18n.translations("ja").gettext("Method") == "手法"
    assert i18n.translations("zh").gettext("Method") == "方法"
    assert i18n.translations("en").gettext("Method") == "Method"


@pytest.mark.parametrize(
    ("link", "browser", "expected"),
    [
        ("ja", None, "ja"),
        ("zh", "ja-JP", "zh"),
        ("EN", "zh-CN", "en"),
        (None, "ja-JP", "ja"),
        (None, "zh-Hant-TW", "zh"),  # our one Chinese
        (None, "zh_CN", "zh"),
        (None, "fr-FR", "en"),
        (None, None, "en"),
        ("xx", "ja", "ja"),  # an unknown link value: the browser's
        ("<b>ja</b>", None, "en"),
        ("j" * 10_000, None, "en"),
        (["ja"], None, "en"),
        (7, 3.5, "en"),
    ],
)
def test_a_new_session_takes_the_links_language_else_the_browsers(link, browser, expected):
    assert i18n.initial_language(link, browser) == expected


def _run(query=None):
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    return at.run()


def _headers(at):
    return [h.value for h in at.sidebar.header]


def test_a_link_in_japanese_opens_the_sidebar_in_japanese_and_the_link_keeps_it():
    at = _run({"lang": "ja"})
    assert not at.exception
    assert _headers(at)[:2] == ["手法", "点"]
    assert any(s.label == "手法" for s in at.sidebar.selectbox)
    method_box = next(s for s in at.sidebar.selectbox if s.key == "method")
    assert method_box.options[0] == "最小二乗 (§4.1.3)"
    status = next(m.value for m in at.markdown if "クラス 1" in m.value)
    assert "訓練正解率" in status
    assert at.query_params["lang"] == "ja"


def test_the_picker_switches_the_language_and_keeps_the_points_and_the_method():
    at = _run()
    assert _headers(at)[:2] == ["Method", "Points"]
    at.selectbox(key="method").set_value("logistic").run()
    scene = at.session_state.scene
    at.selectbox(key="language_picker").set_value("zh").run()
    assert not at.exception
    assert _headers(at)[:2] == ["方法", "点"]
    assert at.session_state.scene == scene  # points, method and view unchanged
    assert at.selectbox(key="method").value == "logistic"
    assert at.query_params["lang"] == "zh"
    # (Switching back is left to the browser test: AppTest formats the radios' values outside the
    # script run, in English, and no longer finds them among the Chinese options.)


@pytest.mark.parametrize("value", ["de", "<img src=x onerror=alert(1)>", "ja" * 5_000, ""])
def test_a_hostile_lang_value_opens_the_page_in_english(value):
    at = _run({"lang": value})
    assert not at.exception
    assert _headers(at)[:2] == ["Method", "Points"]
    assert at.session_state["lang"] == "en"


def test_panel_tabs_and_their_explanations_follow_the_language_and_links_keep_english_titles():
    at = _run({"lang": "ja", "tab": "Posterior p(Cₖ|x)", "m": "logistic"})
    assert not at.exception
    labels = [tab.label for tab in at.tabs]
    assert labels[:2] == ["多クラスの扱い（図 4.2）", "事後確率 p(Cₖ|x)"], labels
    assert any(c.value.startswith("**何を見ているのか：**") for c in at.caption)
    assert at.session_state["panel_tab"] == "事後確率 p(Cₖ|x)"
    assert at.query_params["tab"] == "Posterior p(Cₖ|x)"  # a link names a panel the same in every language


def test_switching_language_keeps_the_open_tab():
    from ui.widgets import language

    at = _run({"tab": "Posterior p(Cₖ|x)", "m": "logistic"})
    assert at.session_state["panel_tab"] == "Posterior p(Cₖ|x)"
    at.selectbox(key=language.PICKER_KEY).set_value("zh").run()
    assert at.session_state["panel_tab"] == "后验概率 p(Cₖ|x)"
    assert at.query_params["tab"] == "Posterior p(Cₖ|x)"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("xx", "en"),
        ("ja\x00", "en"),  # ?lang=ja%00
        ("ZH_hant-TW", "zh"),  # shown in Chinese: the link says "zh"
        ("../../etc/passwd", "en"),
        ("", "en"),
        ("ja" * 5_000, "en"),
        # ?lang=%ED%A0%80, a lone surrogate (U+D800) in UTF-8, as the server decodes it
        ("\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"), "en"),
        ("en;ja", "en"),
        ("JA", "ja"),
        ("ja-JP", "ja"),
    ],
    ids=["xx", "nul", "zh-hant", "path", "empty", "long", "surrogate", "two", "upper", "region"],
)
def test_the_address_bar_names_the_language_the_page_shows(value, shown):
    """A ``lang`` the page did not take as it is leaves the address bar with the first run: the link
    carries the language shown, as the address bar does after any edit."""
    at = _run({"lang": value})
    assert not at.exception
    assert at.session_state["lang"] == shown
    assert _link_languages(at) == [shown]


def test_a_link_naming_the_language_twice_keeps_one():
    at = _run({"lang": ["zh", "ja"]})
    assert not at.exception
    assert _link_languages(at) == [at.session_state["lang"]]


def _link_languages(at):
    value = at.query_params.get("lang")
    return value if isinstance(value, list) else [value]


def test_a_link_naming_the_language_shown_stays_as_opened():
    at = _run({"lang": "ja", "m": "fisher"})
    assert not at.exception
    assert dict(at.query_params) == {"lang": "ja", "m": "fisher"}
