"""Method-specific panels and canvas overlays, discovered from the modules of this package.

Each module defines ``PANELS``, a list of ``Panel``. A panel applies to some fitted models;
for those, the app adds its ``overlay`` traces to the canvas figure and draws its ``render``
below the canvas. Widgets inside a panel that must change the canvas (a playback step, a
projection angle) write to the scene through ``on_change`` callbacks, which run before the
next script run, so the canvas drawn above already shows their effect.
"""

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from playground.grid import Window
from playground.scene import Scene


@dataclass(frozen=True)
class PanelContext:
    """What a panel may read: the scene, the fitted model (or None), the view, the options."""

    scene: Scene
    model: object  # the final fitted estimator, or None when the fit failed
    shown_model: object  # the estimator drawn on the canvas (a playback step, or the final fit)
    window: Window
    options: dict = field(default_factory=dict)  # per-session panel options (st.session_state)


@dataclass(frozen=True)
class Panel:
    """A named view of a fitted model.

    applies(ctx) -> bool; overlay(ctx) -> list of plotly traces drawn between the regions and
    the points; render(ctx) draws Streamlit elements below the canvas; order sorts panels.
    """

    title: str
    applies: Callable
    render: Callable | None = None
    overlay: Callable | None = None
    order: int = 100
    help: str = ""


def _option_toggled(key, options, option):
    options[option] = bool(st.session_state[key])


def option_checkbox(label, ctx, option, key, default=True):
    """A checkbox bound to ``ctx.options[option]`` (which a link carries); returns its value.

    The options, not the widget, hold the value: the widget is re-seeded from them on every run,
    so a loaded link or preset shows its own setting.
    """
    st.session_state[key] = bool(ctx.options.get(option, default))
    return st.checkbox(label, key=key, on_change=_option_toggled, args=(key, ctx.options, option))


def all_panels():
    """Every PANELS entry of every module in this package, in ``order``."""
    panels = []
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        panels += list(getattr(module, "PANELS", []))
    return sorted(panels, key=lambda panel: (panel.order, panel.title))


def active_panels(ctx):
    """The panels that apply to this context; a panel whose test fails is left out."""
    return [panel for panel in all_panels() if ctx.model is not None and panel.applies(ctx)]
