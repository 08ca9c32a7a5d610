"""Sharing: the address bar follows the scene, and a button copies the link.

The link is the page's own URL: ``sync_address_bar`` rewrites the query parameters after
every run, so copying the address bar and pressing "Copy link" give the same thing.
"""

from urllib.parse import urlencode

import streamlit as st

_JS = r"""
export default function (component) {
  const { data, parentElement } = component;
  let button = parentElement.querySelector('button');
  if (!button) {
    button = document.createElement('button');
    button.className = 'pg-copy';
    button.type = 'button';
    const note = document.createElement('span');
    note.className = 'pg-copy-note';
    parentElement.append(button, note);
  }
  const note = parentElement.querySelector('.pg-copy-note');
  button.textContent = data.label;
  button.onclick = async () => {
    // The address bar already holds the scene (the app rewrites it after every run).
    const url = window.location.href;
    try {
      await navigator.clipboard.writeText(url);
      note.textContent = 'Copied.';
    } catch (err) {
      // No clipboard outside https / localhost: select the link shown below instead.
      note.textContent = 'Your browser blocked the clipboard; copy the link below.';
    }
    setTimeout(() => { note.textContent = ''; }, 4000);
  };
}
"""

_CSS = """
.pg-copy { border: 1px solid rgba(49, 51, 63, 0.2); border-radius: 0.5rem; background: white;
  padding: 0.35rem 0.9rem; cursor: pointer; font: inherit; }
.pg-copy:hover { border-color: #ff4b4b; color: #ff4b4b; }
.pg-copy-note { margin-left: 0.6rem; font-size: 0.85rem; color: #555; }
"""

_copy_button = st.components.v2.component("playground_copy_link", js=_JS, css=_CSS, isolate_styles=False)


def sync_address_bar(query):
    """Make the browser's query parameters equal ``query`` (only when they differ)."""
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


def share_link(query):
    """The full link for ``query`` on this server."""
    base = (st.context.url or "").split("?", 1)[0]
    return f"{base}?{urlencode(query)}"


def share_controls(query):
    """A "copy link" button and the link itself (selectable when the clipboard is blocked)."""
    _copy_button(data={"label": "Copy link to this scene"}, key="copy_link", height=40)
    link = share_link(query)
    st.code(link, language=None, wrap_lines=True)
    st.caption(
        f"{len(link):,} characters. The address bar always holds this link: opening it in any browser "
        "shows these points, this method with its settings, the view and the open panel."
    )
