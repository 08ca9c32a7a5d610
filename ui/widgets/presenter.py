"""The presenter bar: in presentation mode, the controls a lecture needs, on the page itself.

Rules that hold:

- The sidebar stays folded away in presentation; everything a figure's "Try:" line asks for is in
  this one compact row above the plot: the method, the class of new points, undo / redo, the
  multi-class strategy (with three or more classes), previous / next figure, play / pause of the
  player, and "?" for the keyboard shortcuts (← → figures, space play / pause, 1-6 class, Z undo).
- The bar's widgets are copies of the sidebar's: each has its own key, is set from the sidebar
  widget's value before it is drawn, and writes its choice back to that widget's key in its
  callback, so the sidebar (which runs later in the same run) applies it exactly as if it had
  been chosen there; one source of truth, the scene.
- The keys and the "?" overlay live in ``ui/widgets/presenter.js`` (an element of this row); a key
  and a click on one of the bar's buttons (◀ ▶ ↶ ↷, a class) become the same press, which does
  what that button's callback does; keys never act while typing.
- Every press counts once, in order, however quick: the page sends one press at a time through
  the keys' element, each with its own id, and the next only once the bar comes back drawn with
  that id among ``PRESSES_KEY``'s; a press the server never ran (Streamlit can drop or merge a
  request that meets a busy run) is sent again once the page is idle, and applied only once
  (``receive_press``). A press's value comes from the page, so it is checked like any input.
- ← → and ◀ ▶ are counted in the page into the figure they lead to (its place in ``PRESETS``):
  a press made while the one before is on its way changes the figure the next press asks for,
  and the server loads that figure whole ("pb_figure"), or nothing when it is the one shown. So
  however quick, N presses land on the N-th figure with its points, method, strategy, text and
  view, never one figure's points under the one before's method: the page sends a press once its
  run is over, and a load's widget values hold until the page has drawn it
  (``ui.session.loading.hold_load``). A figure press brings the page back to its top.
"""

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from playground import MODELS
from playground.presets import PRESETS
from playground.registry import TWO_CLASS_METHODS
from ui.base.visitor import visitor, widget_values
from ui.methods import card_of
from ui.plot.theme import SYMBOL_GLYPHS
from ui.session import loading, state
from ui.session.widget_keys import method_widget
from ui.text.i18n import N_, _
from ui.text.labels import MULTICLASS_LABELS
from ui.text.names import N_CLASSES

from .controls import AUTO_OVR_KEY, MULTICLASS_KEY
from .presets import ACTIVE_KEY, active_preset, load_preset, reopen_button

_HERE = Path(__file__).resolve().parent

# The page in presentation: no sidebar or header, type for a room (rem = 20 px), the comparison's
# method list folded away (the bar holds the method); the figure's explanation in a drawer fixed on
# the right, whose room the page keeps free while it is open (the plot, narrower, stays whole: a
# projector's window is wider than the square-ish plot needs).
PRESENTER_CSS = "\n<style>\n" + (_HERE / "presenter_page.css").read_text(encoding="utf-8") + "</style>\n"
PRESENTER_JS = (_HERE / "presenter.js").read_text(encoding="utf-8")
_CSS = (_HERE / "presenter_keys.css").read_text(encoding="utf-8")
_keys = st.components.v2.component("playground_presenter_keys", js=PRESENTER_JS, css=_CSS, isolate_styles=False)

METHOD_KEY: Final = "pb_method"
CLASS_KEY: Final = "pb_class"
STRATEGY_KEY: Final = "pb_strategy"
SIDEBAR_CLASS_KEY, SIDEBAR_METHOD_KEY = "active_class", "method"


KEYS_KEY: Final = "pb_keys"
PRESSES_KEY: Final = "pb_presses"  # the ids of the last presses applied, newest last (the page waits on them)
PRESSES_KEPT: Final = 16
_PRESS_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
PRESS_BUTTONS: Final = ("pb_prev", "pb_next", "pb_figure", "pb_undo", "pb_redo", "pb_class")


@dataclass(frozen=True)
class Press:
    """One press of the bar's keys or buttons, as the page sent it."""

    id: str
    button: str  # one of PRESS_BUTTONS
    index: int  # the class (0-based) for "pb_class", the figure (0-based) for "pb_figure"; 0 otherwise


def parse_press(value: object) -> Press | None:
    """The page's press, or None for anything else (a press's value comes from the page)."""
    if not isinstance(value, dict):
        return None
    press_id, button, index = value.get("id"), value.get("button"), value.get("index", 0)
    if not isinstance(press_id, str) or not _PRESS_ID.fullmatch(press_id) or button not in PRESS_BUTTONS:
        return None
    indices = {"pb_class": N_CLASSES, "pb_figure": len(PRESETS)}.get(button, 1)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < indices:
        return None
    return Press(press_id, button, index)


def _apply(press: Press) -> None:
    """What the press's button does, through the button's own callback (◀ ▶ from the figure shown
    now; ↶ ↷ only with history, as their buttons are enabled)."""
    history = visitor()["history"]
    if press.button in ("pb_prev", "pb_next"):
        _step(-1 if press.button == "pb_prev" else 1)
    elif press.button == "pb_figure":
        _go_to(press.index)
    elif press.button == "pb_undo" and history.past:
        _undo()
    elif press.button == "pb_redo" and history.future:
        _redo()
    elif press.button == "pb_class":
        widget_values()[SIDEBAR_CLASS_KEY] = press.index


def receive_press() -> None:
    """The keys' element sent a press: apply it, once, however often the page sends it again."""
    press = parse_press((widget_values().get(KEYS_KEY) or {}).get("press"))
    if press is None:
        return
    applied = tuple(visitor().get(PRESSES_KEY, ()))
    if press.id in applied:
        return  # sent again before the bar showed it applied
    visitor()[PRESSES_KEY] = (*applied, press.id)[-PRESSES_KEPT:]
    _apply(press)


def _copy(source, target, fallback=None):
    """A sidebar widget's value to the bar's copy (before the copy is drawn); the scene's value
    ``fallback`` while the sidebar has not drawn that widget yet (a scene just loaded)."""
    value = widget_values().get(source, fallback)
    if value is not None:
        widget_values()[target] = value


def _write_back(target, source):
    def write() -> None:
        if loading.load_unseen():
            return  # the page's value is the scene's before the last load, not a choice (loading.hold_load)
        value = widget_values().get(source)
        if value is not None:  # a segmented control can be clicked off: the choice stays
            widget_values()[target] = value
        if target == MULTICLASS_KEY:
            visitor().pop(AUTO_OVR_KEY, None)  # the person picked a strategy: it is theirs now

    return write


def short_method_label(name: str) -> str:
    """The method's name without its section (the caption on the plot gives it): the bar's box is
    narrow, and a cut name ("… (Laplace) (§4.4") would read as a broken one."""
    return _(MODELS[name].display_name)


def class_label(k: int) -> str:
    """ "● 1": the class's symbol and number (the sidebar's radio names it in full)."""
    return f"{SYMBOL_GLYPHS[k]} {k + 1}"


def step_figure(step: int) -> None:
    """Load the figure ``step`` places after (+1) or before (-1) the one shown when this runs."""
    target = neighbour_preset(step)
    if target is not None:
        load_preset(target)


# The bar's buttons' callbacks, which a press of their key runs too (``_apply``).
@state.guarded_callback("that figure")
def _step(step: int) -> None:
    step_figure(step)


@state.guarded_callback("that figure")
def _go_to(index: int) -> None:
    """The figure ``index`` (0-based) whole, unless it is the one shown: the page counts the
    presses of ← → into the figure they lead to and sends that one."""
    key = list(PRESETS)[index]
    if visitor().get(ACTIVE_KEY) != key:
        load_preset(key)


@state.guarded_callback("undo")
def _undo() -> None:
    state.undo()


@state.guarded_callback("redo")
def _redo() -> None:
    state.redo()


def neighbour_preset(step: int) -> str | None:
    """The preset ``step`` places after (+1) or before (-1) the one shown; the first one when none is."""
    keys = list(PRESETS)
    active = visitor().get(ACTIVE_KEY)
    if active not in keys:
        return keys[0] if step > 0 else None
    index = keys.index(active) + step
    return keys[index] if 0 <= index < len(keys) else None


def _strategies(scene):
    """The strategies the sidebar offers for this scene's method and classes, or () with two classes."""
    n_classes = int(np.count_nonzero(scene.training.points.counts()))
    if n_classes <= 2:
        return ()
    return ("ovr", "ovo") if scene.method in TWO_CLASS_METHODS else tuple(MULTICLASS_LABELS)


def presenter_bar(row: DeltaGenerator) -> None:
    """The bar's widgets, appended to ``row`` (a horizontal container)."""
    scene, history = state.scene(), visitor()["history"]
    # ◀ ▶ first: the controls after them come and go with the figure (strategy, basis, α), and a
    # lecturer's pointer must find the next figure's button where it was.
    _figure_buttons(row)
    _copy(SIDEBAR_METHOD_KEY, METHOD_KEY, scene.method)
    row.selectbox(
        _("Method"),
        list(MODELS),
        format_func=short_method_label,
        key=METHOD_KEY,
        on_change=_write_back(SIDEBAR_METHOD_KEY, METHOD_KEY),
        label_visibility="collapsed",
        width=340,
    )
    _copy(SIDEBAR_CLASS_KEY, CLASS_KEY, 0)
    row.segmented_control(
        _("Class of new points"),
        list(range(N_CLASSES)),
        format_func=class_label,
        key=CLASS_KEY,
        on_change=_write_back(SIDEBAR_CLASS_KEY, CLASS_KEY),
        label_visibility="collapsed",
        help=_("Class of new points (keys 1-6)"),
    )
    pair = row.container(horizontal=True, gap="small", width="content", key="pb_undo_redo")  # one row, always
    pair.button(
        "↶",
        key="pb_undo",
        disabled=not history.past,
        on_click=_undo,
        help=_("Undo (Z)"),
    )
    pair.button(
        "↷",
        key="pb_redo",
        disabled=not history.future,
        on_click=_redo,
        help=_("Redo"),
    )
    strategies = _strategies(scene)
    if strategies:
        _copy(MULTICLASS_KEY, STRATEGY_KEY, scene.multiclass)
        if visitor().get(STRATEGY_KEY) not in strategies:
            visitor()[STRATEGY_KEY] = strategies[0]
        row.segmented_control(
            _("With more than two classes"),
            list(strategies),
            format_func=lambda strategy: _(MULTICLASS_LABELS[strategy]),
            key=STRATEGY_KEY,
            on_change=_write_back(MULTICLASS_KEY, STRATEGY_KEY),
            label_visibility="collapsed",
        )
    _basis_choice(row, scene)
    _setting_choice(row, scene)
    reopen_button(row)
    with row:
        _keys(data=_key_data(), key=KEYS_KEY, on_press_change=receive_press)


BASIS_KEY: Final = "pb_basis"
SETTING_KEY: Final = "pb_setting"
SHORT_BASIS_LABELS = {"identity": N_("φ: none"), "polynomial": N_("φ: polynomial"), "rbf": N_("φ: Gaussian RBF")}


def _basis_choice(row, scene):
    """The basis functions (none, polynomial, RBF), while the scene or the figure shown has some:
    the figures on basis functions ask to switch them off and on again."""
    preset = active_preset()
    if scene.basis == "identity" and (preset is None or preset.scene.basis == "identity"):
        return
    _copy("basis", BASIS_KEY, scene.basis)
    row.segmented_control(
        _("Basis functions φ(x)"),
        list(SHORT_BASIS_LABELS),
        format_func=lambda basis: _(SHORT_BASIS_LABELS[basis]),
        key=BASIS_KEY,
        on_change=_write_back("basis", BASIS_KEY),
        label_visibility="collapsed",
    )


def _setting_choice(row, scene):
    """The one setting the method's card offers on the bar (Bayesian logistic regression's prior
    precision α: section 4.5.2's figure asks to raise it), with the sidebar widget's options."""
    card = card_of(scene.method)
    if not card.presenter_setting:
        return
    spec, setting_key = method_widget(scene.method, card.presenter_setting)
    _copy(setting_key, SETTING_KEY, scene.param_dict.get(card.presenter_setting))
    if visitor().get(SETTING_KEY) not in spec.options:
        visitor()[SETTING_KEY] = spec.default
    control = next((control for control in card.controls if control.name == spec.name), None)
    row.selectbox(
        _(control.label) if control is not None and control.label else spec.name,
        list(spec.options),
        format_func=lambda value: card.presenter_format.format(value),
        key=SETTING_KEY,
        on_change=_write_back(setting_key, SETTING_KEY),
        label_visibility="collapsed",
        width=130,
    )


def _figure_buttons(row):
    row = row.container(horizontal=True, gap="small", width="content", key="pb_figures")  # ◀ ▶ on one row
    for step, label, help_text, key in (
        (-1, _("◀ Figure"), _("The previous figure (←)"), "pb_prev"),
        (1, _("Figure ▶"), _("The next figure (→)"), "pb_next"),
    ):
        row.button(
            label,
            key=key,
            disabled=neighbour_preset(step) is None,
            on_click=_step,
            args=(step,),
            help=help_text,
        )


def _key_data():
    """What the keys' element needs: its sentences in the session's language."""
    return {
        "applied": list(visitor().get(PRESSES_KEY, ())),
        "figure": visitor().get(ACTIVE_KEY) or "",  # the page's data-pg-figure (tests wait on it)
        "figures": list(PRESETS),  # in order: the page counts ← → presses into one of them
        "load": loading.load_serial(),  # the page's data-pg-load: the scene's number (tests wait on it)
        "texts": {
            "help_button": _("Keyboard shortcuts (?)"),
            "play_button": _("Play or pause the playback (space)"),
            "title": _("Keyboard shortcuts"),
            "close": _("Close (Esc)"),
            "rows": [
                ["← →", _("previous / next figure (not while the plot has the keys)")],
                [_("space"), _("play / pause the playback (when the open tab has a player)")],
                ["1 – 6", _("the class of new points")],
                ["Z", _("undo (Ctrl+Shift+Z or Ctrl+Y redoes)")],
                ["A M E S", _("the plot's tools: add, move, erase, select")],
                ["Tab", _("to the plot; there: Tab / Shift+Tab choose the points one by one")],
                ["← ↑ → ↓", _("on the plot: move the cursor, or the chosen point (Shift: five steps)")],
                [_("Enter"), _("on the plot: add a point of the current class at the cursor (also space or A)")],
                [_("Delete"), _("on the plot: erase the chosen point")],
                ["Esc", _("on the plot: let the chosen point go (Tab then leaves the plot)")],
                ["?", _("show or hide this list")],
            ],
        },
    }
