"""Step-through controls for iterative fits, played in the browser.

The whole run goes to the browser once (``ui.plot.playback_frames``); its player (``ui/plot/playback.js``)
shows one frame per tick on the canvas, at 0.25x to 4x, with step -1/+1 and a scrub slider,
whatever the server is doing. The step lives in the scene (so a link carries it): when playback
pauses or a scrub is let go, the browser sends the shown step once and the server draws it
(panels, link). Opening a link with a step shows that step.
"""

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numpy as np
import streamlit as st

from playground.grid import Window
from ui.base.visitor import PRESENTATION_KEY, visitor, widget_values
from ui.session import state
from ui.text.accessible import canvas_sentences
from ui.text.i18n import _, current_language

from .browser_modules import module_url
from .canvas import MODULE_LOADER_JS
from .figures import _discrete_colourscale
from .playback_frames import MAX_FRAMES, PlaybackFrames, playback_frames
from .projector_sizes import LEGIBLE_PX
from .theme import BOUNDARY_COLOUR, REGION_COLOURS

_CSS = (Path(__file__).resolve().parent / "playback.css").read_text(encoding="utf-8")

_player = st.components.v2.component("playground_playback", js=MODULE_LOADER_JS, css=_CSS, isolate_styles=False)


class PlayedFrames(PlaybackFrames):
    """The frames as the player gets them: with the label of every point on the canvas and a
    signature of what they show."""

    labels: list[int]
    signature: str


FRAMES_CACHE: Final = "playback_frames"  # per key: (what the frames were made of, the frames)


def _step_sent(key, n_steps):
    """The browser paused (or a scrub was let go): show that step on the server, in the link."""
    value = (widget_values().get(key) or {}).get("step")
    step = value.get("step") if isinstance(value, dict) else None
    if step is None:
        state.set_step(None)
    elif isinstance(step, int | float) and np.isfinite(step):
        state.set_step(int(min(max(int(step), 0), n_steps)))


def _frames(
    model: Any,
    n_steps: int,
    window: Window,
    key: str,
    readout: Callable[[int, Any], str] | None,
    marks: Callable[[int, Any], Any] | None,
) -> PlayedFrames:
    """The frames of this run, made once per fitted model and language (the same on every rerun;
    their readouts are in the session's language, which a rerun may have changed)."""
    on_basis = hasattr(model, "basis_")
    # The readouts name classes, in the session's language: a renamed class or a new language
    # makes them anew.
    scene = state.scene()
    language = current_language()
    what = (id(model), n_steps, window if on_basis else None, hash(scene.points), scene.class_names, language)
    cache = visitor().setdefault(FRAMES_CACHE, {})
    cached = cache.get(key)
    if cached is not None and cached[0] == what and cached[1] is model:
        return cached[2]
    replayed = playback_frames(
        model, n_steps, window, readout=readout, marks=marks, spoken=lambda shown: canvas_sentences(scene, shown)
    )
    # The labels of every point on the canvas, test points included, in the canvas's order (the
    # player rings a point by its index there); taken afresh, as test points change no fit.
    labels = [int(label) for label in state.scene().points.y]
    digest = hashlib.blake2b(digest_size=8)
    # The language too: the player builds its buttons anew for a new signature.
    parts = (replayed["rows"], str(replayed["steps"]), str(labels), str(replayed["grid"] and window), language)
    for part in parts:
        digest.update(part.encode())
    frames: PlayedFrames = {**replayed, "labels": labels, "signature": digest.hexdigest()}
    cache[key] = (what, model, frames)
    return frames


def detail_key(key: str) -> str:
    """The key of the container(s) that show the server's step in detail (a panel's metrics, text,
    tables): the player dims them while it shows another step. Several containers may use
    ``detail_key(key) + "_" + anything``."""
    return f"{key}_detail"


def thinning_note(n_steps: int, n_frames: int) -> str:
    """What the player says when it shows only some of the steps."""
    if n_frames >= n_steps + 1:
        return ""
    return _(
        "Playback shows {shown} of the {total} steps, evenly spread (always the first and the last); "
        "±1 moves between them. Pause and the panel shows the exact step."
    ).format(shown=f"{n_frames:,}", total=f"{n_steps + 1:,}")


def player_texts() -> dict[str, str]:
    """Every sentence the player's JavaScript shows (it holds none), in the session's language;
    {named} places are filled in the browser: {label} the panel's name for a step (e.g.
    "Update"), {step} and {n} step numbers, {count} a number of points."""
    return {
        "play": _("Play"),
        "pause": _("Pause"),
        "play_button": _("▶ Play"),
        "pause_button": _("❚❚ Pause"),
        "step_back": _("Step back"),
        "step_back_title": _("One step back"),
        "step_forward": _("Step forward"),
        "step_forward_title": _("One step forward"),
        "final_fit": _("Final fit"),
        "final_fit_title": _("Show the final fit"),
        "speed": _("Speed"),
        "step_of": _("{label} {step} of {n}"),
        "step_of_last": _("{label} {step} of {n} (end of the run)"),
        "details_of_step": _("These details are of step {server_step}; pause to see step {step}."),
        "n_misclassified": _("{count} misclassified (ringed)"),
        "all_correct": _("all points correct"),
        "regions": _("regions"),
        "decision_boundary": _("decision boundary"),
        "boundary_before": _("boundary before this update"),
        "margins": _("margins y(x) = ±1"),
        "misclassified": _("misclassified"),
        "not_drawn": _("The plot could not be drawn: {error}"),
    }


def playback_controls(
    model: Any,
    n_steps: int,
    *,
    key: str,
    label: str = "Step",
    points: Any,
    window: Window,
    readout: Callable[[int, Any], str] | None = None,
    marks: Callable[[int, Any], Any] | None = None,
) -> int:
    """The player for steps 0..n_steps of ``model`` (``model.at_step(k)``); returns the step the
    server shows (n_steps for the final fit). ``readout(step, shown)``: a line of text per step;
    ``marks(step, shown)``: what the canvas marks at a step (see ``ui/plot/playback.js``)."""
    current = state.scene().step
    shown = n_steps if current is None else max(0, min(int(current), n_steps))
    frames = _frames(model, n_steps, window, key, readout, marks)
    data = {
        **frames,
        "module": module_url("plot/playback.js"),
        "label": label,
        "player_key": key,
        "detail": detail_key(key),
        "step": None if current is None else shown,
        "note": thinning_note(n_steps, len(frames["steps"])),
        "texts": player_texts(),
        "style": {
            "region_colours": list(REGION_COLOURS),
            "colourscale": _discrete_colourscale(REGION_COLOURS),
            "boundary_colour": BOUNDARY_COLOUR,
            # the label of the point a step used: the legibility floor in presentation
            "label_px": LEGIBLE_PX if visitor().get(PRESENTATION_KEY) else 12,
        },
    }
    _player(
        data=data,
        key=f"{key}_player",
        height="content",
        on_step_change=state.guarded_callback("playback")(lambda: _step_sent(f"{key}_player", n_steps)),
    )
    return shown


__all__ = ["MAX_FRAMES", "detail_key", "playback_controls", "player_texts", "thinning_note"]
