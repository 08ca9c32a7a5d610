"""The session's language: chosen from the link or the browser at the start, and by the picker."""

import streamlit as st

from ui.panels import tab_label, tab_title
from ui.text.i18n import LANGUAGE_KEY, LANGUAGES, initial_language, translations

PICKER_KEY = "language_picker"
TAB_KEY = "panel_tab"  # the open panel tab's label (ui/app.py)
# The picker's label is in all three languages, so that someone who cannot read the current
# language still finds it.
PICKER_LABEL = "Language · 言語 · 语言"


def init_language() -> None:
    """Set the session's language once: from ``?lang=``, else the browser's, else English."""
    if LANGUAGE_KEY in st.session_state:
        return
    link_value = st.query_params.get("lang")
    try:
        browser_locale = st.context.locale
    except Exception:  # noqa: BLE001  (no browser context, e.g. a bare test run)
        browser_locale = None
    st.session_state[LANGUAGE_KEY] = initial_language(link_value, browser_locale)


def _picked():
    chosen = st.session_state.get(PICKER_KEY)
    if chosen not in LANGUAGES:
        return
    # The open tab is known by its label, which changes with the language: keep the same panel open.
    label = st.session_state.get(TAB_KEY)
    if label is not None:
        title = tab_title(label, translations(st.session_state[LANGUAGE_KEY]))
        st.session_state[TAB_KEY] = tab_label(title, translations(chosen))
    st.session_state[LANGUAGE_KEY] = chosen


def language_picker() -> None:
    """English / 日本語 / 简体中文. Its value lives apart from the widget's, so that a run that does
    not draw the sidebar (presentation mode) does not forget the language."""
    if st.session_state.get(PICKER_KEY) != st.session_state[LANGUAGE_KEY]:
        st.session_state[PICKER_KEY] = st.session_state[LANGUAGE_KEY]
    st.selectbox(PICKER_LABEL, list(LANGUAGES), format_func=LANGUAGES.get, key=PICKER_KEY, on_change=_picked)
