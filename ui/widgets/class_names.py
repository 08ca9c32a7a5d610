"""The sidebar's "Class names" expander: a text field per class, e.g. class 1 -> "setosa".

The names live in the scene (``Scene.class_names``), so the link, a scene file, the legend, the
status line and the panels all follow them (``ui.text.names``); each field is keyed and holds what the
scene holds, so a name survives every rerun and a loaded link or file refills the fields.
"""

import streamlit as st

from playground.scene import MAX_NAME_CHARS, Scene
from ui.base.visitor import widget_values
from ui.plot.theme import SYMBOL_GLYPHS
from ui.session import state
from ui.text.i18n import _
from ui.text.names import N_CLASSES, default_class_name

KEY_PREFIX = "class_name_"  # + the class index 0..5


def field_key(k: int) -> str:
    return f"{KEY_PREFIX}{k}"


@state.guarded_callback("a class name")
def _rename(k):
    """The field of class index ``k`` changed: the scene takes its (cleaned) text as the name."""
    value = widget_values().get(field_key(k))
    current = state.scene()
    names = list(current.class_names) + [""] * (N_CLASSES - len(current.class_names))
    names[k] = value if isinstance(value, str) else ""
    state.set_scene(current.with_class_names(names))


def shown_classes(current: Scene) -> list[int]:
    """The classes that get a field: those with points, and those with a name."""
    counts = current.points.counts()
    return [k for k in range(N_CLASSES) if counts[k] or current.class_name_of(k)]


def class_name_controls(current: Scene) -> None:
    """Sidebar expander: rename the classes present. Empty field: the default "class k"."""
    with st.expander(_("Class names"), key="class_names_expander"):
        classes = shown_classes(current)
        if not classes:
            st.caption(_("Add points to name their classes."))
            return
        for k in classes:
            key = field_key(k)
            name = current.class_name_of(k) or ""
            if widget_values().get(key) != name:  # the scene changed elsewhere (a link, a file, a preset)
                widget_values()[key] = name
            st.text_input(
                _("{symbol} Name of class {number}").format(symbol=SYMBOL_GLYPHS[k], number=k + 1),
                key=key,
                max_chars=MAX_NAME_CHARS,
                placeholder=default_class_name(k),
                on_change=_rename,
                args=(k,),
            )
        st.caption(_("Names show in the legend, the status line and the panels, and the link carries them."))
