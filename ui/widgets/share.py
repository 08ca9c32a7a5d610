"""Sharing: the address bar follows the scene, and the sidebar copies and shows the link.

The link is the page's own URL: ``sync_address_bar`` rewrites the query parameters after
every run of the canvas and panels. The browser's Back button leaves the page: the address bar
follows the scene in place, never adding a history entry (Streamlit pushes one per change of the
query string; share.js turns that into a replace, and the session's first run, which runs before
share.js is in the page, writes nothing). Undo and redo step through the scenes.

The sidebar is not rerun by a click on the canvas, so the link it shows is read from the address
bar in the browser, and follows it as it changes.

The share box also reads the address the page was opened with: Streamlit ignores a query string
with more than 1,000 parameters altogether, and only the browser can tell the visitor so.
"""

from pathlib import Path
from typing import Final

import streamlit as st

from playground import Message
from playground.link import MAX_QUERY_PARAMETERS
from ui.base.visitor import visitor
from ui.session import state
from ui.text.i18n import N_, _

_JS = (Path(__file__).resolve().parent / "share.js").read_text(encoding="utf-8")


_CSS = (Path(__file__).resolve().parent / "share.css").read_text(encoding="utf-8")

_share_box = st.components.v2.component("playground_share", js=_JS, css=_CSS, isolate_styles=False)

HELP = N_(
    "The address bar always holds this link: opening it in any browser shows these points, this method "
    "with its settings, the view and the open panel."
)


ADDRESS_FOLLOWS: Final = "address_follows"  # the session's first run is over: the address bar follows the scene


def sync_address_bar(query: dict[str, str]) -> None:
    """Make the browser's query parameters equal ``query`` (only when they differ), from the
    session's second run on: the first run shows what the opened link says, so the link as opened
    stays in the address bar (it reproduces the page), and the browser's history gets no entry
    before the share box can make Streamlit's ``pushState`` a ``replaceState`` (share.js)."""
    if visitor().get(ADDRESS_FOLLOWS) and st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


def address_bar_follows() -> None:
    """Call at the end of a whole run: from the next run on, the address bar follows the scene."""
    visitor()[ADDRESS_FOLLOWS] = True


@state.guarded_callback("reading the link")
def _on_oversized():
    count = (visitor().get(SHARE_KEY) or {}).get("oversized")
    if isinstance(count, int) and count > MAX_QUERY_PARAMETERS:
        state.report_load_problems(
            "the link",
            [
                Message(
                    N_(
                        "The link has {count} parameters; Streamlit reads a link only with at most {limit}, "
                        "so none of it was read and the default scene is shown."
                    ),
                    count=f"{count:,}",
                    limit=f"{MAX_QUERY_PARAMETERS:,}",
                )
            ],
        )


SHARE_KEY: Final = "share_link"


def share_controls(note: str | None = None) -> None:
    """A "copy link" button and the link itself (selectable when the clipboard is blocked), both
    read from the address bar in the browser. ``note``: what the link leaves out, if anything."""
    _share_box(
        data={
            "label": _("Copy link to this scene"),
            "help": _(HELP) if note is None else f"{_(HELP)} {note}",
            "max_parameters": MAX_QUERY_PARAMETERS,
            "texts": {
                "length": _("{n} characters."),
                "copied": _("Copied."),
                "blocked": _("Your browser blocked the clipboard; copy the link below."),
            },
        },
        key=SHARE_KEY,
        height="content",
        on_oversized_change=_on_oversized,
    )
