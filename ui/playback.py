"""Step-through controls for iterative fits: a step slider and play / pause.

The step lives in the scene (so a link can carry it); the slider writes it through a callback,
and while playing a fragment advances it on a timer and reruns the app to redraw the canvas.
"""

import time

import streamlit as st

from . import state

PLAY_INTERVAL_SECONDS = 0.7


def _slider_changed(key):
    value = st.session_state[key]
    state.set_step(value)


def _toggle_play(key, n_steps):
    playing = not st.session_state.get(f"{key}_playing", False)
    st.session_state[f"{key}_playing"] = playing
    current = state.scene().step
    if playing and (current is None or current >= n_steps):
        state.set_step(0)  # play from the start when at the end


def _show_final(key):
    st.session_state[f"{key}_playing"] = False
    state.set_step(None)


def playback_controls(n_steps, *, key, label="Step"):
    """Draw the controls for steps 0..n_steps; returns the step shown (n_steps when final).

    Step 0 is the initial weights, step n_steps the end of training.
    """
    current = state.scene().step
    shown = n_steps if current is None else max(0, min(int(current), n_steps))
    playing = st.session_state.get(f"{key}_playing", False)
    play_col, final_col, slider_col = st.columns([1, 1, 6])
    play_col.button(
        "❚❚ Pause" if playing else "▶ Play",
        key=f"{key}_play",
        on_click=_toggle_play,
        args=(key, n_steps),
        width="stretch",
    )
    final_col.button("Final fit", key=f"{key}_final", on_click=_show_final, args=(key,), width="stretch")
    st.session_state[f"{key}_slider"] = shown
    slider_col.slider(
        label,
        0,
        max(n_steps, 1),
        key=f"{key}_slider",
        on_change=_slider_changed,
        args=(f"{key}_slider",),
        disabled=n_steps == 0,
    )
    if playing:
        _advance(key, n_steps)
    return shown


@st.fragment(run_every=PLAY_INTERVAL_SECONDS)
def _advance(key, n_steps):
    """While playing: one step per tick; stop at the end.

    The body also runs inline whenever the page is drawn, which includes the rerun each step
    starts; without the clock check every such rerun took another step, and playback raced to the end.
    """
    if not st.session_state.get(f"{key}_playing", False):
        return
    now = time.monotonic()
    if now - st.session_state.get(f"{key}_stepped_at", 0.0) < 0.9 * PLAY_INTERVAL_SECONDS:
        return
    st.session_state[f"{key}_stepped_at"] = now
    current = state.scene().step
    step = 0 if current is None else int(current) + 1
    if step >= n_steps:
        st.session_state[f"{key}_playing"] = False
        state.set_step(n_steps)
    else:
        state.set_step(step)
    st.rerun(scope="app")
