"""Presentation from a link, where the screen is wide enough for it: decided in the browser.

Rules that hold:

- A link carries presentation mode (``pm=1``) whoever opens it; the session's first link does not
  switch presentation on by itself. The page opens as the normal page, and the browser switches
  presentation on when its window is at least ``MIN_WIDTH`` CSS pixels wide (a projector, a
  laptop). A phone or a narrow window keeps the normal page: the presenter bar, bigger markers and a
  plot squeezed beside the drawer are for a room, not a 390 px screen.
- The decision is the browser's, from the window it has, so the link stays the same: while the
  request waits (a narrow window), the address bar still carries ``pm=1`` and the same link opens
  presentation on a projector. Switching the toggle by hand ends the request: the person chose.
- The browser switches presentation on by switching the toggle itself, as a person would, never the
  server by writing the toggle's value: a value the server writes into a widget is overwritten by
  any request the page sent before it knew it (a fragment's rerun queued meanwhile carries the
  toggle still off), and the presentation would end under the lecturer's first press.
- A link without a window frames its points in the plot's shape: when presentation starts, the view
  is framed again in the presentation plot's shape, as if the link had opened there.
"""

from pathlib import Path

import streamlit as st

from ui.base.visitor import PRESENTATION_KEY, visitor
from ui.session import state

MIN_WIDTH = 1000  # CSS px: presentation is laid out for 1280 x 720 and up (a narrow projector: 1024)
_GATE_KEY = "presentation_gate"

_JS = (Path(__file__).resolve().parent / "presentation_gate.js").read_text(encoding="utf-8")
_gate = st.components.v2.component("playground_presentation_gate", js=_JS, isolate_styles=False)


def wanted() -> bool:
    """A link's request for presentation still waits for a wide window (the link keeps ``pm=1``)."""
    return bool(state.presentation_wanted())


def toggled() -> None:
    """The toggle's callback (switched by the person, or by the browser for a link's request): the
    request is over; a link without a window is framed anew in the presentation plot's shape."""
    wanted = state.end_presentation_request()
    if wanted == "fit" and visitor().get(PRESENTATION_KEY):
        visitor().pop(state.CANVAS_AREA, None)
        state.fit_view()


def gate() -> None:
    """While a link's request waits, an invisible element that switches the toggle on when the
    window is wide."""
    if wanted():
        _gate(data={"min_width": MIN_WIDTH, "toggle": PRESENTATION_KEY}, key=_GATE_KEY, height=0)
