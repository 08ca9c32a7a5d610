"""Import / export files: the points as CSV, the whole scene as JSON, one uploader for both.

An upload is read in the uploader's callback (once per file, before any widget is drawn): a CSV
replaces the points through the undo history and keeps the method; a JSON loads the whole scene
through ``loading.load_scene``. A file that cannot be used changes nothing, and the reason stays in
the expander until the next upload or until dismissed. A CSV with other labels than the classes
1-6 (0/1, -1/+1, "setosa") is loaded with a toast naming the mapping; the file's own labels are
kept in the session (``CLASS_LABELS_KEY``), and text labels become the class names.
"""

import logging
from typing import Final

import streamlit as st

from playground import Message, PlaygroundError
from playground.fileio import MAX_UPLOAD_MB, points_to_csv, scene_from_json, scene_to_json
from playground.points_csv import read_points_csv
from playground.validation import MAX_POINTS
from ui.base import streamlit_private
from ui.base.visitor import visitor, widget_values
from ui.export.buttons import download_buttons
from ui.panels import tab_title
from ui.session import loading, state
from ui.text.i18n import N_, _
from ui.text.markdown import plain
from ui.text.names import class_name, isolated, phrased

# A new uploader key after every file empties the uploader, so the same file can be loaded again
# (after an undo, say) and no stale file name stays on show.
UPLOAD_KEY_PREFIX = "import_file"
UPLOAD_COUNT_KEY: Final = "import_file_count"
ERROR_KEY: Final = "import_error"
NOTE_KEY: Final = "import_note"  # how a CSV's labels were mapped to classes, shown until the next upload
CLASS_LABELS_KEY: Final = "class_labels"  # the last CSV's own label of each class (None: the class number)
MAX_NAME_CHARS = 60
_LOG = logging.getLogger(__name__)
FORMATS = (
    "**CSV**: columns x1, x2, class, header optional, separated by commas, semicolons or tabs; the "
    "class is 1–6, or up to six labels of your own (0/1, −1/+1, names), mapped in sorted order; "
    "replaces the points (undo brings them back). **JSON**: a scene saved here; loads the points, "
    f"method, basis and view. At most {MAX_POINTS:,} points and {MAX_UPLOAD_MB} MB."
)


def _upload_key():
    return f"{UPLOAD_KEY_PREFIX}_{visitor().get(UPLOAD_COUNT_KEY, 0)}"


def _on_upload(key):
    """Load the file just uploaded under ``key``; on any problem keep everything as it is."""
    uploaded = widget_values().get(key)
    if uploaded is None:  # the file was removed from the uploader
        return
    visitor()[UPLOAD_COUNT_KEY] = visitor().get(UPLOAD_COUNT_KEY, 0) + 1
    visitor().pop(ERROR_KEY, None)
    visitor().pop(NOTE_KEY, None)
    typed = "".join(c if c.isprintable() else "?" for c in uploaded.name[:MAX_NAME_CHARS])
    name = isolated(typed)  # shown inside sentences: a right-to-left file name keeps them in order
    try:
        if typed.lower().endswith(".json"):
            scene, view, messages = scene_from_json(uploaded.getvalue())
            loading.load_scene(scene, messages, view.get("panel_options"), view.get("tab"), source=f"'{name}'")
        else:
            read = read_points_csv(uploaded.getvalue())
            state.change_points(read.points, refit_view=True)
            visitor()[CLASS_LABELS_KEY] = read.class_labels
            if read.class_names:  # text labels ("setosa") name the classes; numbers keep the names
                state.set_scene(state.scene().with_class_names(read.class_names))
            if read.message:
                visitor()[NOTE_KEY] = Message(N_("'{name}': {message}"), name=name, message=read.message)
                loaded = _(
                    "Loaded {n:,} points from '{name}'. Its labels were mapped to classes (see Import / export). "
                    "Undo (↶) brings back the previous ones."
                )
            else:
                loaded = _("Loaded {n:,} points from '{name}'. Undo (↶) brings back the previous ones.")
            state.notify(loaded.format(n=len(read.points), name=name))
    except PlaygroundError as err:
        # Kept as a Message: shown in the session's language whenever the box is drawn.
        visitor()[ERROR_KEY] = Message(
            N_("'{name}' was not loaded: {error} The points and settings are unchanged."), name=name, error=err.message
        )
    except Exception as err:  # noqa: BLE001  (a file must never kill the page: the page's edge)
        _LOG.error("Unexpected error reading an uploaded file", exc_info=err)
        visitor()[ERROR_KEY] = _(
            "'{name}' was not loaded: it could not be read ({error}). The points and settings are unchanged."
        ).format(name=name, error=type(err).__name__)


def _exports():
    """The two files, made when a download button is clicked, from the session as it is then.

    The sidebar is drawn before this run applies the method widgets and before the panels set
    their options, so data made here would lag one run behind. A click is served outside the
    script thread, where ``visitor()`` is unavailable; the session's own thread-safe state
    object is captured instead. Making the files only on a click also spares every rerun the work.
    """
    session = streamlit_private.captured_session_state()

    def points_csv() -> str:
        return points_to_csv(session["scene"].points)

    def scene_json() -> str:
        view = {
            "panel_options": session["panel_options"],
            "tab": tab_title(session["panel_tab"]) if "panel_tab" in session else None,
        }
        return scene_to_json(session["scene"], view)

    return points_csv, scene_json


def _dismiss_error():
    visitor().pop(ERROR_KEY, None)
    visitor().pop(NOTE_KEY, None)


def import_export_controls() -> None:
    """Download the points (CSV) or the scene (JSON); upload either to load it."""
    points_csv, scene_json = _exports()
    error = visitor().get(ERROR_KEY)
    with st.expander(_("Import / export files"), key="import_export_expander"):
        note = visitor().get(NOTE_KEY)
        if error:
            st.error(plain(phrased(error, name=class_name)), icon=":material/error:")
        elif note:
            st.info(plain(phrased(note, name=class_name)), icon=":material/label:")
        if error or note:
            st.button(_("Dismiss"), key="dismiss_import_error", on_click=_dismiss_error, type="tertiary")
        st.download_button(
            _("Download points (CSV)"),
            points_csv,
            "points.csv",
            "text/csv",
            key="download_points_csv",
            on_click="ignore",
            disabled=not len(state.scene().points),
            icon=":material/download:",
            width="stretch",
            help=_("x1, x2, class: one row per point, full precision."),
        )
        st.download_button(
            _("Download scene (JSON)"),
            scene_json,
            "scene.json",
            "application/json",
            key="download_scene_json",
            on_click="ignore",
            icon=":material/download:",
            width="stretch",
            help=_("Points, method and its parameters, basis, view and panel settings."),
        )
        download_buttons(state.scene())
        key = _upload_key()
        st.file_uploader(
            _("Load points (.csv) or a scene (.json)"),
            type=["csv", "json"],
            key=key,
            on_change=_on_upload,
            args=(key,),
            max_upload_size=MAX_UPLOAD_MB,
        )
        st.caption(FORMATS)
