"""The figure presets in the app: one sidebar button per figure, and the explanation box it opens.

A button loads the preset's whole scene through ``loading.load_scene`` (points, method and its
widgets, strategy, basis, view, panel options, open tab), so undo brings the previous points back
and a shared link carries the result like any other scene. The preset's words are English in
``playground.presets`` (marked there with ``N_``) and shown here in the session's language, with
their numbers filled in from the scene (``ui.text.preset_numbers``), never typed.
"""

import streamlit as st

from playground.presets import PRESETS
from ui.session import loading, state
from ui.text.i18n import _
from ui.text.preset_numbers import numbers

ACTIVE_KEY = "active_preset"  # the preset whose explanation is shown, or absent


def label(preset):
    """The button's text, e.g. "Fig. 4.6 — Fisher vs mean difference", in the session's language."""
    if not preset.figure:
        return _(preset.title)
    return _("Fig. {figure} — {title}").format(figure=preset.figure, title=_(preset.title))


def heading(preset):
    """The explanation box's title, e.g. "Figure 4.6 — Fisher vs mean difference"."""
    if not preset.figure:
        return _(preset.title)
    return _("Figure {figure} — {title}").format(figure=preset.figure, title=_(preset.title))


def source(preset):
    """What was loaded, for the "Loaded ..." message: "figure 4.6", or the preset's title."""
    if preset.figure:
        return _("figure {figure}").format(figure=preset.figure)
    title = _(preset.title)
    return preset.source if title == preset.title else title  # English keeps the title in lower case


def explanation(preset, window=None):
    """The preset's paragraph in the session's language, its numbers computed from its scene in
    ``window`` (the view the canvas shows; default: the preset's own)."""
    found = numbers(preset.key, window)
    return _(preset.explanation).format(**found) if found else _(preset.explanation)


def load_preset(key):
    preset = PRESETS[key]
    # Panel options left by an earlier scene (a rotated Fisher direction, the posterior display)
    # would change the figure, so a preset starts from its own, or from none.
    loading.load_scene(
        preset.scene,
        source=source(preset),
        panel_options=dict(preset.panel_options or {}),
        tab=preset.tab,
        compare=tuple(preset.compare),  # () switches back to the one-method view
        # The preset frames its points, or keeps its own window; either takes the plot's shape.
        fit="window" if preset.keep_window else True,
    )
    st.session_state[ACTIVE_KEY] = key


def _close():
    st.session_state.pop(ACTIVE_KEY, None)


def preset_picker():
    """Sidebar: an expander with one button per preset."""
    with st.expander(_("Figures from chapter 4"), expanded=False):
        for key, preset in PRESETS.items():
            st.button(
                label(preset),
                key=f"preset_{key}",
                on_click=load_preset,
                args=(key,),
                width="stretch",
                help=_("Replaces the points and the method (undo brings your points back)."),
            )


DRAWER_KEY = "pg_drawer"  # presentation: the explanation's drawer, beside the plot (ui.app's CSS)


def preset_explanation(presenting=False):
    """The active preset's figure, title and paragraph, with a button that closes it; in
    presentation, in a drawer beside the plot that folds to its title (the plot stays whole)."""
    preset = PRESETS.get(st.session_state.get(ACTIVE_KEY))
    if preset is None:
        return
    text = explanation(preset, state.scene().window)
    if presenting:
        with st.container(key=DRAWER_KEY), st.expander(heading(preset), expanded=True, icon=":material/menu_book:"):
            st.markdown(text)
            if preset.about_notes:
                st.caption(_(preset.about_notes))
            st.button(_("close"), key="preset_close", on_click=_close, help=_("Hide this explanation."))
        return
    # A row that gives the button the width of its word ("close" was cut to "cl…" in a narrow column).
    row = st.container(horizontal=True, vertical_alignment="top")
    with row.container(width="stretch"):
        st.info(f"**{heading(preset)}**\n\n{text}", icon=":material/menu_book:")
        if preset.about_notes:
            st.caption(_(preset.about_notes))
    row.button(_("close"), key="preset_close", on_click=_close, help=_("Hide this explanation."), width="content")
