"""The lecturer's controls of a prediction round (issue 47), under the projector and on the presenter bar.

One row of buttons, the round's next steps from where it stands (``STEPS``): ask for predictions;
then show the class's lines, reveal the fit, or end; after the show, predict again (a second
round) or reveal; after the reveal, a new round or the end. At the reveal the lecturer can
download the round as CSV: each line and its score, anonymous (a line is a student's, never named).
"""

import csv
import io
from collections.abc import Callable
from typing import Any

import streamlit as st

from ui.text.i18n import N_, _
from ui.widgets.presets import active_preset

from .model import Room
from .results import ROUND_PARTS
from .store_base import RoomStore
from .views import RoomVersion

ASK = N_("Ask the class to predict the boundary")
SHOW = N_("Show the class's lines")
REVEAL = N_("Reveal the fit")
AGAIN = N_("Predict again (after discussion)")
NEW = N_("New round")
END = N_("End the round")

# The phase a round is in (None: no round) -> its next steps: (the control's value, label, primary).
STEPS: dict[str | None, list[tuple[str, str, bool]]] = {
    None: [("predict", ASK, True)],
    "predict": [("show", SHOW, True), ("reveal", REVEAL, False), ("off", END, False)],
    "show": [("reveal", REVEAL, True), ("again", AGAIN, False), ("off", END, False)],
    "reveal": [("predict", NEW, False), ("off", END, True)],
}


def steps(room: Room) -> list[tuple[str, str, bool]]:
    """The round's next steps; a second round is not asked for again."""
    current = room.get("round")
    if current is None:
        return STEPS[None]
    return [step for step in STEPS[current["phase"]] if not (step[0] == "again" and current["stage"] == 2)]


def round_controls(
    code: str, token: str, room: Room, act: Callable[..., Any], store: RoomStore, on_bar: bool = False
) -> None:
    """The row of the round's next steps (``act(code, token, "round", value)`` each); at the reveal,
    off the bar, the round's CSV."""
    prefix = "pbr_round" if on_bar else "room_round"
    row = st.container(horizontal=True, gap="small", key=f"{prefix}_row")
    if not on_bar:
        row.markdown(_("**Prediction round**"))
    preset = active_preset()  # a figure's round asks the figure's question (``Preset.question``)
    question = preset.key if preset is not None and preset.question else None
    for value, label, primary in steps(room):
        row.button(
            _(label),
            key=f"{prefix}_{value}",
            type="primary" if primary else "secondary",
            on_click=act,
            args=(code, token, "round", value),
            kwargs={"question": question},
            help=_("Key P: the round's next step") if primary else None,
        )
    current = room.get("round")
    if not on_bar and current is not None and current["phase"] == "reveal":
        named = st.toggle(
            _("Names: who drew which line, on this screen and in the CSV"),
            key=NAMES_KEY,
            help=_("Off, the round is anonymous everywhere; the projector never shows names."),
        )
        rows = round_rows(store, code, room, named)
        row.download_button(
            _("Download the round (CSV)"),
            data=round_csv(rows, named),
            file_name=f"round-{current['id']}.csv",
            mime="text/csv",
            key=f"{prefix}_csv",
        )
        if named:
            header = [_("stage"), "x₁", "y₁", "x₂", "y₂", _("accuracy"), _("angle to the fit (°)"), _("nickname")]
            st.dataframe([dict(zip(header, r, strict=True)) for r in rows], hide_index=True)


NAMES_KEY = "room_round_names"


def round_rows(store: RoomStore, code: str, room: Room, named: bool = False) -> list[list[Any]]:
    """The round's lines and scores, one row a line, the first stage's too for a second round, in
    no student's order (sorted by the line); the student's nickname last only when ``named``."""
    made = ROUND_PARTS.results(store, code, RoomVersion(room))
    nicks = {sid: student["nick"] for sid, student in room["students"].items()}
    stage = room["round"]["stage"]
    rows = []
    for number, lines, scores in ((stage, made.lines, made.scores), (1, made.first, made.first_scores)):
        for sid, line in lines.items():
            score = scores[sid]
            rows.append(
                [number, *line, _number(score.accuracy), _number(score.angle)] + ([nicks.get(sid, "")] if named else [])
            )
    return sorted(rows, key=lambda r: (r[0], r[1:5]))


def round_csv(rows: list[list[Any]], named: bool = False) -> str:
    """``round_rows`` as CSV; a nickname (visitors' text) can never be read as a spreadsheet formula."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["stage", "x1", "y1", "x2", "y2", "accuracy", "angle_to_fit_degrees"] + (["nickname"] if named else [])
    )
    for row in rows:
        writer.writerow(row[:-1] + [_cell(row[-1])] if named else row)
    return out.getvalue()


def _cell(text: str) -> str:
    """Text a spreadsheet shows as text: a leading = + - @ or control character is quoted away."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _number(value: float | None) -> str:
    return "" if value is None or value != value else f"{value:.6g}"
