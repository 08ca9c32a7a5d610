"""The session's language: chosen from the link or the browser at the start, and by the picker."""

from typing import Final

import streamlit as st

from ui.base.visitor import TAB_KEY, visitor
from ui.panels import tab_label, tab_title
from ui.text.i18n import LANGUAGE_KEY, LANGUAGES, initial_language, translations

PICKER_KEY: Final = "language_picker"
# The picker's label is in all three languages, so that someone who cannot read the current
# language still finds it.
PICKER_LABEL = "Language · 言語 · 语言"


def init_language() -> None:
    """Set the session's language once: from ``?lang=``, else the browser's, else English.

    A link's ``lang`` that the page did not take as it is (``xx``, ``JA``, ``ja-JP``, ``../etc``,
    empty, twice) is replaced at once by the language shown, so the address bar, and the link the
    share box copies from it, say what the page shows from the first run on. It is the one address
    the first run writes (``ui.widgets.share.sync_address_bar`` writes the rest from the second run
    on); it comes before share.js is in the page, so such a link leaves one history entry behind
    (Back returns to the link as opened once before it leaves the page)."""
    if LANGUAGE_KEY in visitor():
        return
    link_value = st.query_params.get(LANGUAGE_KEY)
    try:
        browser_locale = st.context.locale
    except Exception:  # noqa: BLE001  (no browser context, e.g. a bare test run)
        browser_locale = None
    shown = visitor()[LANGUAGE_KEY] = initial_language(link_value, browser_locale)
    if LANGUAGE_KEY in st.query_params and st.query_params.get_all(LANGUAGE_KEY) != [shown]:
        st.query_params[LANGUAGE_KEY] = shown


def _picked():
    chosen = visitor().get(PICKER_KEY)
    if chosen is None or chosen not in LANGUAGES:
        return
    # The open tab is known by its label, which changes with the language: keep the same panel open.
    label = visitor().get(TAB_KEY)
    if label is not None:
        title = tab_title(label, translations(visitor()[LANGUAGE_KEY]))
        visitor()[TAB_KEY] = tab_label(title, translations(chosen))
    visitor()[LANGUAGE_KEY] = chosen


def language_picker() -> None:
    """English / 日本語 / 简体中文. Its value lives apart from the widget's, so that a run that does
    not draw the sidebar (presentation mode) does not forget the language."""
    if visitor().get(PICKER_KEY) != visitor()[LANGUAGE_KEY]:
        visitor()[PICKER_KEY] = visitor()[LANGUAGE_KEY]
    st.selectbox(PICKER_LABEL, list(LANGUAGES), format_func=LANGUAGES.__getitem__, key=PICKER_KEY, on_change=_picked)
