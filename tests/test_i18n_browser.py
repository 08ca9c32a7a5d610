"""The browser-side texts in Japanese and Chinese (issue 18, catalog area browser): the canvas's,
the charts' and the player's JavaScript hold no English sentence; each element's data carries its
sentences (``texts``) in the session's language, and the English ones are those the JavaScript
showed before.

AppTest runs once per language (see tests/test_i18n_panels_a.py for why); the browser itself is
in tests/test_browser_i18n.py."""

import json
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from playground import Window, make_model
from playground.link import encode_scene
from playground.scene import PointSet
from tests.conftest import component_json, player_data
from ui.session.state import default_scene
from ui.text.i18n import translations

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")

# What the JavaScript showed in English before its texts came from the server (the oracle for
# "the English output stays identical"); the JavaScript filled the numbers where the braces are.
ENGLISH_CANVAS = {
    "download_png": "Download as PNG",
    "download_svg": "Download as SVG (vector)",
    "not_drawn": "The plot could not be drawn: {error}",
    "fit_view": "Fit the view to the points (key F)",
}
# The tool bar's texts (issue 25): new, with no JavaScript before them; as the code defines them.
ENGLISH_TOOLS = {
    "tools": "Tools",
    "tool_add": "✚ Add",
    "tool_move": "✥ Move",
    "tool_erase": "⌫ Erase",
    "tool_select": "⬚ Select",
    "tool_add_help": "Add points: click empty space (key A)",
    "tool_move_help": "Move points: drag them; drag empty space to pan (key M)",
    "tool_erase_help": "Erase points: click one, or drag a box around several (key E)",
    "tool_select_help": "Select points: click or drag a box, then drag one to move them all (key S)",
    "hint_add": "Click to add a point · drag a point to move it · Alt-click erases · Ctrl+scroll zooms",
    "hint_add_touch": "Tap to add a point · drag a point to move it · one finger scrolls, two fingers zoom",
    "hint_switch": "Click a point to switch it between training and test · Ctrl+scroll zooms",
    "hint_move": "Drag a point to move it · drag empty space to pan",
    "hint_erase": "Click a point to erase it · drag a box to erase several",
    "hint_select": "Click or drag a box to select · drag a selected point to move all · Delete erases",
    "wheel_hint": "Use Ctrl + scroll (⌘ + scroll on a Mac) to zoom the plot; two fingers on a touch screen",
    "live_status": "Training accuracy {accuracy} ({wrong} misclassified)",
    "live_off": "Live updates are off ({reason}); the plot is updated when you let go.",
    "class_pick": "Class of new points",  # the phone's class picker beside the tools (issue 44)
    # The line tool (issue 46).
    "tool_line": "╱ Your line",
    "tool_line_help": "Draw the boundary you expect: click two points or drag (key L)",
    "hint_line": "Click two points or drag to draw your line · drag its handles to move it",
    "hint_line_second": "Now click the line's second point",
    "line_live": "Your line: {accuracy} correct · {criterion} {value}",
    "line_live_fit": "Your line: {accuracy} correct · {criterion} {value} (the fit: {fit})",
}
ENGLISH_CHART = {**ENGLISH_CANVAS, "chart_not_drawn": "The chart could not be drawn: {error}"}
del ENGLISH_CHART["fit_view"]
ENGLISH_KEYBOARD = {  # the plot by keyboard (canvas_keyboard.js), said in a live region
    "kb_role": "interactive plot",
    "kb_label": "Plot of the points. Keys: arrows move a cursor; Enter adds a point of the current class there; "
    "Tab chooses the points one by one, arrows then move the chosen point and Delete erases it; Esc lets it go.",
    "kb_cursor": "Cursor at ({x}, {y})",
    "kb_chosen": "Point {n}, {name}, at ({x}, {y}): {index} of {total} in view. Arrows move it, Delete erases it.",
    "kb_released": "No point chosen: arrows move the cursor, Tab leaves the plot.",
    "kb_added": "Added {name} at ({x}, {y})",
    "kb_moved": "Moved point {n} to ({x}, {y})",
    "kb_moved_many": "Moved {count} points",
    "kb_erased": "Erased point {n}",
    "kb_erased_many": "Erased {count} points",
    "kb_undone": "Undone",
    "kb_redone": "Redone",
    "kb_then": "{action}. {boundary}",
    "kb_line_handle": "Your line's handle {n} at ({x}, {y}). Arrows move it, the other handle stays; "
    "Tab chooses the other.",
    "kb_line_moved": "Moved your line's handle {n} to ({x}, {y})",
}
ENGLISH_CANVAS = {**ENGLISH_CANVAS, **ENGLISH_TOOLS, **ENGLISH_KEYBOARD}
ENGLISH_PLAYER = {
    "play": "Play",
    "pause": "Pause",
    "play_button": "▶ Play",
    "pause_button": "❚❚ Pause",
    "step_back": "Step back",
    "step_back_title": "One step back",
    "step_forward": "Step forward",
    "step_forward_title": "One step forward",
    "final_fit": "Final fit",
    "final_fit_title": "Show the final fit",
    "speed": "Speed",
    "step_of": "{label} {step} of {n}",
    "step_of_last": "{label} {step} of {n} (end of the run)",
    "details_of_step": "These details are of step {server_step}; pause to see step {step}.",
    "n_misclassified": "{count} misclassified (ringed)",
    "all_correct": "all points correct",
    "regions": "regions",
    "decision_boundary": "decision boundary",
    "boundary_before": "boundary before this update",
    "margins": "margins y(x) = ±1",
    "misclassified": "misclassified",
    "not_drawn": "The plot could not be drawn: {error}",
}
# A few as the catalogs should have them, in the book's terms (誤分類 / 误分类 for misclassified).
EXPECTED = {
    "ja": {
        "download_png": "PNG でダウンロード",
        "play_button": "▶ 再生",
        "step_of_last": "{label} {step} / {n}（実行の終わり）",
        "n_misclassified": "誤分類 {count} 点（丸で囲んで表示）",
        "note_start": "再生では",
    },
    "zh": {
        "download_png": "下载为 PNG",
        "play_button": "▶ 播放",
        "step_of_last": "{label} {step} / {n}（运行结束）",
        "n_misclassified": "{count} 个误分类（已圈出）",
        "note_start": "回放在",
    },
}
PLACEHOLDER = re.compile(r"\{\w+\}")


def _long_run_scene():
    """Overlapping classes: the perceptron never converges (thousands of updates), so the player
    shows 300 frames and says so in its note."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 2))
    y = (rng.random(120) < 0.5).astype(int)
    points = PointSet.from_arrays(X, y)
    assert make_model("perceptron").fit(points.X, points.y).n_iter_ > 1_000
    scene = default_scene().with_points(points).with_method("perceptron", {}, "native")
    return scene.with_window(Window.around(points.X))


def _elements(language):
    """{"canvas", "chart", "player"}: the data of the first element of each kind on the page of a
    perceptron link opened in ``language`` (one run)."""
    at = AppTest.from_file(APP, default_timeout=90)
    for name, value in {**encode_scene(_long_run_scene()), "lang": language}.items():
        at.query_params[name] = value
    at.run()
    assert not at.exception, at.exception
    found = {}
    for element in at.get("bidi_component"):
        for kind in ("canvas", "chart", "playback"):
            if element.proto.component_name.endswith(f"playground_{kind}") and kind not in found:
                found[kind] = json.loads(component_json(element.proto))
    assert found.keys() == {"canvas", "chart", "playback"}, found.keys()
    assert found["playback"] == player_data(at)
    return found


@pytest.fixture(scope="module")
def english():
    return _elements("en")


def test_english_texts_are_those_the_javascript_showed(english):
    assert english["canvas"]["texts"] == ENGLISH_CANVAS
    assert english["chart"]["texts"] == ENGLISH_CHART
    assert english["playback"]["texts"] == ENGLISH_PLAYER
    assert english["playback"]["note"].startswith("Playback shows 300 of the ")


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_every_browser_text_comes_in_the_language(english, language):
    found = _elements(language)
    catalog = translations(language)
    for kind, english_texts in (("canvas", ENGLISH_CANVAS), ("chart", ENGLISH_CHART), ("playback", ENGLISH_PLAYER)):
        texts = found[kind]["texts"]
        assert texts.keys() == english_texts.keys(), kind
        for name, text in texts.items():
            assert text != english_texts[name], (kind, name)  # translated, nothing left in English
            assert text == catalog.gettext(english_texts[name])
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(english_texts[name])), name
    expected = EXPECTED[language]
    assert found["canvas"]["texts"]["download_png"] == expected["download_png"]
    assert found["chart"]["texts"]["download_png"] == expected["download_png"]
    player = found["playback"]
    assert player["texts"]["play_button"] == expected["play_button"]
    assert player["texts"]["step_of_last"] == expected["step_of_last"]
    assert player["texts"]["n_misclassified"] == expected["n_misclassified"]
    # The note on a thinned run: translated, with the same numbers as in English.
    assert player["note"].startswith(expected["note_start"]), player["note"]
    numbers = re.compile(r"\d[\d,]*")  # in the language's order
    assert sorted(numbers.findall(player["note"])) == sorted(numbers.findall(english["playback"]["note"]))
    # A page in another language is another run to the player: its buttons are built anew.
    assert player["signature"] != english["playback"]["signature"]
    assert player["rows"] == english["playback"]["rows"]


def _js_string_literals(source):
    return [m[1:-1] for m in re.findall(r"'(?:[^'\\\n]|\\.)*'", source)]


PLOT_MODULES = sorted((Path(__file__).resolve().parent.parent / "ui" / "plot").glob("*.js"))


@pytest.mark.parametrize("module", PLOT_MODULES, ids=[path.name for path in PLOT_MODULES])
def test_the_javascript_holds_no_english_sentence(module):
    literals = _js_string_literals(module.read_text(encoding="utf-8"))
    assert len(literals) >= 1  # the collector finds the literals
    english = {*ENGLISH_CANVAS.values(), *ENGLISH_CHART.values(), *ENGLISH_PLAYER.values()}
    # Sentences without their placeholders, e.g. "The plot could not be drawn:", "of", "(end of the run)".
    fragments = {part.strip() for text in english for part in PLACEHOLDER.split(text) if len(part.strip()) > 3}
    for literal in literals:
        assert literal not in english, literal
        assert not any(" " in fragment and fragment in literal for fragment in fragments), literal


FILL_JS = """
import {{ fill }} from {module};
console.log(JSON.stringify([
  fill('{{label}} {{step}} of {{n}}', {{label: 'Update', step: 3, n: 18}}),
  fill('{{count}} 個', {{count: 0}}),
  fill('x {{missing}}', {{}}),
  fill('The plot could not be drawn: {{error}}', {{error: "$& {{error}} $1"}}),
]));
"""


def test_fill_puts_the_values_in_their_places_once():
    """The JavaScript's fill() (ui/plot/plotly_shared.js's, which every plot module imports), run by Node."""
    shared = Path(__file__).resolve().parent.parent / "ui" / "plot" / "plotly_shared.js"
    for path in (shared,):
        script = FILL_JS.format(module=json.dumps(path.as_uri()))
        out = subprocess.run(
            ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60, check=True
        )
        assert json.loads(out.stdout) == [
            "Update 3 of 18",
            "0 個",
            "x {missing}",
            "The plot could not be drawn: $& {error} $1",
        ]
