"""The page stays where the person left it when a run changes the selected panel tab.

Rules that hold:

- Streamlit's tabs scroll their selected tab into view whenever a run selects another tab (a new
  figure's panels, a method switched from the presenter bar), which scrolled the whole page to a
  tab row below the window and took the presenter bar and the plot off a projector's screen. The
  browser side (tab_scroll.js) lets a tab scroll along its own row only.
- It is installed once per page, before the first tabs are drawn, by an element that takes no
  room (hidden, so it adds no gap to the column it is in).
"""

from pathlib import Path

import streamlit as st

_JS = (Path(__file__).resolve().parent / "tab_scroll.js").read_text(encoding="utf-8")
_CSS = ".st-key-pg_tab_scroll { display: none; }"
_KEY = "pg_tab_scroll"

_keeper = st.components.v2.component("playground_tab_scroll", js=_JS, css=_CSS, isolate_styles=False)


def keep_page_scroll() -> None:
    """Mount the keeper (each whole run, before the tabs; the browser installs it once)."""
    _keeper(key=_KEY, height=0)
