"""The page's last element: the number of the last load (a figure, a link, a file) it has drawn.

Rules that hold:

- Drawn at the end of every whole run, after every other widget, with the number of the last load
  applied (``ui.session.loading.load_serial``). The page sends its widgets' values with every
  request, this one's among them, so a request carrying an older number was sent before the page
  had drawn that load whole: its other values are the previous scene's, and the load's own are
  set again (``loading.hold_load``, ``loading.load_unseen``).
- It takes no room and is never seen (a hidden number field, outside the tab order).
"""

from typing import Final

import streamlit as st

from ui.base.visitor import visitor
from ui.session import loading

_CSS: Final = "<style>.st-key-pg_load_seen_box { display: none; }</style>"


def mark_drawn() -> None:
    """The last element of a whole run: the number of the load this run drew."""
    visitor()[loading.LOAD_SEEN_KEY] = loading.load_serial()
    with st.container(key="pg_load_seen_box"):
        st.markdown(_CSS, unsafe_allow_html=True)
        st.number_input("load", key=loading.LOAD_SEEN_KEY, step=1, label_visibility="collapsed")
