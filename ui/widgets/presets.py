"""The figure presets in the app: one sidebar button per figure, and the explanation box it opens.

A button loads the preset's whole scene through ``loading.load_scene`` (points, method and its
widgets, strategy, basis, view, panel options, open tab), so undo brings the previous points back
and a shared link carries the result like any other scene. The preset's words are English in
``playground.presets`` (marked there with ``N_``) and shown here in the session's language, with
their numbers filled in from the scene (``ui.panels.preset_numbers``), never typed.

In presentation the explanation is a drawer on the right (``drawer``) that follows what is on
screen: the figure's text while its method (or a method its "Try:" switches to, or its
comparison) is shown, else the shown method's own paragraph (its card's ``about``, ``ui.methods``). Its close
button stays at its top, its text scrolls inside it (never taller than the window), and once
closed the bar's "Explanation" button (``reopen_button``) opens it again. It holds a slot below the
text where the page draws the settings and the panel's controls the text asks for (the same
widgets, with the same keys, that the hidden sidebar and the tab would draw: one setting each).
A comparison's figure starts with the drawer closed (its plots take the width); opened, the
drawer lies over the plots.
"""

from typing import Final, NamedTuple

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from playground.grid import Window
from playground.presets import PRESETS, Preset
from ui.base.visitor import visitor
from ui.methods import card_of
from ui.panels.preset_numbers import numbers
from ui.session import loading, state
from ui.text.i18n import _
from ui.text.labels import method_label

ACTIVE_KEY: Final = "active_preset"  # the preset whose explanation is shown, or absent
DRAWER_OPEN_KEY: Final = "pg_drawer_open"  # presentation: the drawer is open (a figure loaded opens it)


def label(preset: Preset) -> str:
    """The button's text, e.g. "Fig. 4.6 — Fisher vs mean difference", in the session's language."""
    if not preset.figure:
        return _(preset.title)
    return _("Fig. {figure} — {title}").format(figure=preset.figure, title=_(preset.title))


def heading(preset: Preset) -> str:
    """The explanation box's title, e.g. "Figure 4.6 — Fisher vs mean difference"."""
    if not preset.figure:
        return _(preset.title)
    return _("Figure {figure} — {title}").format(figure=preset.figure, title=_(preset.title))


def source(preset: Preset) -> str:
    """What was loaded, for the "Loaded ..." message: "figure 4.6", or the preset's title."""
    if preset.figure:
        return _("figure {figure}").format(figure=preset.figure)
    title = _(preset.title)
    return preset.source if title == preset.title else title  # English keeps the title in lower case


def explanation(preset: Preset, window: Window | None = None) -> str:
    """The preset's paragraph in the session's language, its numbers computed from its scene in
    ``window`` (the view the canvas shows; default: the preset's own)."""
    found = numbers(preset.key, window)
    return _(preset.explanation).format(**found) if found else _(preset.explanation)


def load_preset(key: str) -> None:
    preset = PRESETS[key]
    # The plot area last measured may be another view's (one canvas, or a comparison's half):
    # framing the points for it made a comparison's clusters a clump. The canvas shown gives the
    # framed window its own shape when it draws it.
    visitor().pop(state.CANVAS_AREA, None)
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
    visitor()[ACTIVE_KEY] = key
    # Presentation: the figure's text opens beside one plot; a comparison's plots take the width,
    # and the bar's "Explanation" opens the text over them.
    visitor()[DRAWER_OPEN_KEY] = not preset.compare


def _close():
    visitor().pop(ACTIVE_KEY, None)


def preset_picker() -> None:
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


DRAWER_KEY = "pg_drawer"  # presentation: the explanation's drawer, beside the plot (ui.page.app's CSS)
OVERLAY_KEY = "pg_drawer_overlays"  # inside the drawer while it opens over a comparison (no room kept)
SIDEBAR_METHOD_KEY: Final = "method"  # the sidebar's method box: the method this run draws


def _open_drawer():
    visitor()[DRAWER_OPEN_KEY] = True


def _close_drawer():
    visitor()[DRAWER_OPEN_KEY] = False


def reopen_button(row: DeltaGenerator) -> None:
    """The bar's "Explanation" button while the drawer is closed (appended to ``row``)."""
    if visitor().get(DRAWER_OPEN_KEY):
        return
    row.button(
        _("Explanation"),
        key="pb_drawer",
        icon=":material/menu_book:",
        on_click=_open_drawer,
        help=_("Show the explanation of what is on screen."),
    )


def shown_text(preset: Preset | None, method: str, window: Window | None = None) -> tuple[str, str, str]:
    """(title, paragraph, small print) of what is on screen: ``preset``'s while its method, a method
    its "Try:" switches to or its comparison is shown, else ``method``'s own paragraph."""
    if preset is not None and (method in (preset.scene.method, *preset.try_methods) or preset.compare):
        return heading(preset), explanation(preset, window), _(preset.about_notes) if preset.about_notes else ""
    return method_label(method), _(card_of(method).about), ""


def active_preset() -> Preset | None:
    """The preset whose explanation is shown, or None."""
    key = visitor().get(ACTIVE_KEY)
    return None if key is None else PRESETS.get(key)


class DrawerSlots(NamedTuple):
    """The drawer's places below its text: ``asked``, the controls the text asks for and what they
    turn (a panel's ``drawer``: figure 4.6's angle slider and its histogram), right under the text
    so that both fit on a 720 px screen with it; then ``settings``, the method's settings the sidebar
    would hold (initial weights, η, a threshold rule)."""

    asked: DeltaGenerator
    settings: DeltaGenerator


def drawer(comparing: bool = False) -> DrawerSlots | None:
    """Presentation: the drawer with the text of what is on screen; returns its ``DrawerSlots``, or
    None while the drawer is closed."""
    if not visitor().get(DRAWER_OPEN_KEY):
        visitor().pop(state.TEXT_FOLLOWS_WINDOW, None)
        return None
    scene = state.scene()
    method = visitor().get(SIDEBAR_METHOD_KEY, scene.method)  # the bar's pick, applied later this run
    preset = active_preset()
    title, text, notes = shown_text(preset, method, scene.window)
    # The figure's numbers are computed in the view shown: the page reruns when the view changes.
    visitor()[state.TEXT_FOLLOWS_WINDOW] = bool(preset is not None and numbers(preset.key) and title == heading(preset))
    with st.container(key=DRAWER_KEY):
        if comparing:
            st.container(key=OVERLAY_KEY)
        st.button(
            _("close"),
            key="preset_close",
            icon=":material/close:",
            on_click=_close_drawer,
            help=_("Hide this explanation."),
        )
        with st.expander(title, expanded=True, icon=":material/menu_book:"):
            st.markdown(text)
            slots = DrawerSlots(st.container(key="pg_drawer_try"), st.container(key="pg_drawer_settings"))
            if notes:  # about the source's misprints: after the controls the text asks for
                st.caption(notes)
            return slots


def preset_explanation() -> None:
    """The active preset's figure, title and paragraph, with a button that closes it."""
    preset = active_preset()
    if preset is None:
        return
    text = explanation(preset, state.scene().window)
    # A row that gives the button the width of its word ("close" was cut to "cl…" in a narrow column).
    row = st.container(horizontal=True, vertical_alignment="top")
    with row.container(width="stretch"):
        st.info(f"**{heading(preset)}**\n\n{text}", icon=":material/menu_book:")
        if preset.about_notes:
            st.caption(_(preset.about_notes))
    row.button(_("close"), key="preset_close", on_click=_close, help=_("Hide this explanation."), width="content")
