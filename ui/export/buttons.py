"""The two download buttons, "as a notebook" and "as a script", in the Import / export expander and
in the presentation row. The files are made when a button is clicked (as ``ui.widgets.import_export`` does
for its files), from the session as it is then, in the session's language."""

from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from playground.scene import Scene
from ui.base import streamlit_private
from ui.panels import tab_title
from ui.session.loading import link_query
from ui.text.i18n import LANGUAGE_KEY, N_, _

from . import NOTEBOOK_NAME, SCRIPT_NAME, scene_link, scene_notebook, scene_script

NOTEBOOK_HELP = N_(
    "This scene as a Jupyter notebook: the data, the method written out in numpy as the book writes it, "
    "the same with scikit-learn, the check that they agree, the figure and a link back here."
)
SCRIPT_HELP = N_("The same as a Python script (# %% cells): python scene.py prints the accuracies.")


def _files():
    """(notebook, script): functions making the files from the session at the moment of a click.

    A click is served outside the script thread, where ``visitor()`` is unavailable; the
    session's own state object is captured instead, and the page's address now (st.context.url
    holds no query: the link back is made from the scene, as the address bar's is).
    """
    session = streamlit_private.captured_session_state()
    base_url = st.context.url or ""

    def parts() -> tuple[Scene, str, str]:
        scene = session["scene"]
        language = session[LANGUAGE_KEY] if LANGUAGE_KEY in session else "en"
        tab = tab_title(session["panel_tab"]) if "panel_tab" in session else None
        query = link_query(scene, session["panel_options"], tab, language=language)
        return scene, language, scene_link(base_url, query)

    return (lambda: scene_notebook(*parts())), (lambda: scene_script(*parts()))


def exportable(scene: Scene) -> bool:
    """Whether the scene can be fitted: two classes among its training points at least."""
    return len(set(scene.points.training.labels)) >= 2


def download_buttons(scene: Scene, where: DeltaGenerator | None = None, key: str = "export") -> None:
    """The two buttons, in ``where`` (a container; the current one if None)."""
    # A container, or the current one: the streamlit module's own functions write there.
    target: Any = where if where is not None else st
    notebook, script = _files()
    disabled = not exportable(scene)
    target.download_button(
        _("Download as notebook (.ipynb)"),
        notebook,
        NOTEBOOK_NAME,
        "application/x-ipynb+json",
        key=f"{key}_notebook",
        on_click="ignore",
        disabled=disabled,
        icon=":material/download:",
        width="stretch",
        help=_(NOTEBOOK_HELP),
    )
    target.download_button(
        _("Download as Python script (.py)"),
        script,
        SCRIPT_NAME,
        "text/x-python",
        key=f"{key}_script",
        on_click="ignore",
        disabled=disabled,
        icon=":material/download:",
        width="stretch",
        help=_(SCRIPT_HELP),
    )
