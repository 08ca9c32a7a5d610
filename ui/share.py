"""Sharing: the address bar follows the scene, and the sidebar copies and shows the link.

The link is the page's own URL: ``sync_address_bar`` rewrites the query parameters after
every run of the canvas and panels. The sidebar is not rerun by a click on the canvas, so the
link it shows is read from the address bar in the browser, and follows it as it changes.

The share box also reads the address the page was opened with: Streamlit ignores a query string
with more than 1,000 parameters altogether, and only the browser can tell the visitor so.
"""

import streamlit as st

from playground.link import MAX_QUERY_PARAMETERS

from . import state
from .i18n import N_, _

_JS = r"""
function watchAddressBar() {
  // Streamlit rewrites the query string with history.pushState / replaceState, which fire no
  // event; wrap them once so every link box on the page can follow the address bar.
  if (window.__pgHistoryWrapped) return;
  window.__pgHistoryWrapped = true;
  for (const name of ['pushState', 'replaceState']) {
    const original = window.history[name].bind(window.history);
    window.history[name] = (...args) => {
      const result = original(...args);
      window.dispatchEvent(new Event('pg-address-changed'));
      return result;
    };
  }
  window.addEventListener('popstate', () => window.dispatchEvent(new Event('pg-address-changed')));
}

function showLink(box) {
  const url = window.location.href;
  box.querySelector('.pg-link').textContent = url;
  const length = box.__pgTexts.length.replace('{n}', url.length.toLocaleString('en'));
  box.querySelector('.pg-link-length').textContent = length + (/[。．]$/.test(length) ? '' : ' ');
}

function openedWith() {
  // The address the page was loaded from (history.replaceState does not change it).
  const navigation = performance.getEntriesByType('navigation')[0];
  return new URL(navigation ? navigation.name : window.location.href);
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  if (!window.__pgOpenedChecked) {
    window.__pgOpenedChecked = true;
    const query = openedWith().search.replace(/^\?/, '');
    const count = query ? query.split('&').length : 0;
    if (count > data.max_parameters) setTriggerValue('oversized', count);
  }
  let box = parentElement.querySelector('.pg-share');
  if (!box) {
    box = document.createElement('div');
    box.className = 'pg-share';
    box.innerHTML = '<button type="button" class="pg-copy"></button><span class="pg-copy-note"></span>' +
      '<pre class="pg-link"></pre><p class="pg-link-caption"><span class="pg-link-length"></span>' +
      '<span class="pg-link-help"></span></p>';
    parentElement.appendChild(box);
    watchAddressBar();
    window.addEventListener('pg-address-changed', () => showLink(box));
  }
  const button = box.querySelector('.pg-copy'), note = box.querySelector('.pg-copy-note');
  box.__pgTexts = data.texts;  // the session's language (the module itself holds no sentence)
  button.textContent = data.label;
  box.querySelector('.pg-link-help').textContent = data.help;
  showLink(box);
  button.onclick = async () => {
    showLink(box);
    try {
      await navigator.clipboard.writeText(window.location.href);
      note.textContent = data.texts.copied;
    } catch (err) {
      // No clipboard outside https / localhost: select the link shown below instead.
      note.textContent = data.texts.blocked;
      const range = document.createRange();
      range.selectNodeContents(box.querySelector('.pg-link'));
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
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
.pg-link { margin: 0.6rem 0 0.3rem; padding: 0.6rem 0.75rem; border-radius: 0.5rem; background: #f0f2f6;
  font-family: "Source Code Pro", monospace; font-size: 0.75rem; white-space: pre-wrap; word-break: break-all;
  max-height: 9rem; overflow-y: auto; user-select: all; }
.pg-link-caption { font-size: 0.85rem; color: rgba(49, 51, 63, 0.6); margin: 0; }
"""

_share_box = st.components.v2.component("playground_share", js=_JS, css=_CSS, isolate_styles=False)

HELP = N_(
    "The address bar always holds this link: opening it in any browser shows these points, this method "
    "with its settings, the view and the open panel."
)


def sync_address_bar(query):
    """Make the browser's query parameters equal ``query`` (only when they differ)."""
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)


@state.guarded_callback("reading the link")
def _on_oversized():
    count = (st.session_state.get(SHARE_KEY) or {}).get("oversized")
    if isinstance(count, int) and count > MAX_QUERY_PARAMETERS:
        state.report_load_problems(
            "the link",
            [
                f"The link has {count:,} parameters; Streamlit reads a link only with at most "
                f"{MAX_QUERY_PARAMETERS:,}, so none of it was read and the default scene is shown."
            ],
        )


SHARE_KEY = "share_link"


def share_controls(note=None):
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
