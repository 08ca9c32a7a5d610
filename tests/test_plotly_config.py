"""No plot of the app offers an upload (issue 44, docs/using.md: "nothing is uploaded anywhere"): every
plotly config sent from Python, and every plotly.js call in the browser code, goes through
``offline`` (no "Share chart…" to Plotly Cloud, nowhere to send it to). The browser's side as drawn:
tests/test_browser_no_upload.py."""

import ast
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.conftest import component_json
from ui.plot.chart import CONFIG as CHART_CONFIG
from ui.plot.figures import FIGURE_CONFIG
from ui.plot.plotly_config import UPLOAD_BUTTONS, offline

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")


def assert_offline(config):
    assert config.get("showSendToCloud") is False, config
    assert config.get("showEditInChartStudio") is False, config
    assert config.get("plotlyServerURL") == "", config  # no destination, whatever plotly.js's default
    assert set(UPLOAD_BUTTONS) <= set(config.get("modeBarButtonsToRemove", [])), config


def test_the_canvas_and_chart_configs_offer_no_upload():
    assert_offline(FIGURE_CONFIG)
    assert_offline(CHART_CONFIG)
    assert "sendChartToCloud" in UPLOAD_BUTTONS  # plotly.js 4's "Share chart…"


def test_offline_keeps_the_rest_of_a_config():
    config = offline({"displayModeBar": False, "modeBarButtonsToRemove": ["toImage", "sendChartToCloud"]})
    assert_offline(config)
    assert config["displayModeBar"] is False
    assert config["modeBarButtonsToRemove"].count("sendChartToCloud") == 1
    assert config["modeBarButtonsToRemove"][0] == "toImage"


def test_every_config_the_page_sends_offers_no_upload():
    """The configs as the first page sends them to its plot elements (the canvas at least)."""
    at = AppTest.from_file(APP, default_timeout=120).run()
    configs = [
        json.loads(component_json(element.proto))["config"]
        for element in at.get("bidi_component")
        if '"config"' in component_json(element.proto)
    ]
    assert configs
    for config in configs:
        assert_offline(config)


def test_no_streamlit_plotly_chart_bypasses_the_shared_config():
    """``st.plotly_chart`` would draw with Streamlit's plotly bundle and its own config: every plot
    goes through ui.plot.chart or the canvas instead."""
    calls = []
    for path in [*(ROOT / "ui").rglob("*.py"), ROOT / "streamlit_app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "attr", getattr(node.func, "id", "")) == "plotly_chart"
            ):
                calls.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert calls == []


PLOTLY_CALL = re.compile(r"\b[Pp]lotly\.(?:react|newPlot)\(")


def _arguments(text, start):
    """The top-level arguments of the call whose '(' is at ``start``."""
    depth, args, current = 0, [], ""
    for char in text[start:]:
        if char in "([{":
            depth += 1
            if depth == 1:
                continue
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                args.append(current.strip())
                return args
        elif char == "," and depth == 1:
            args.append(current.strip())
            current = ""
            continue
        current += char
    raise AssertionError("unbalanced call")


def test_every_plotly_js_call_passes_its_config_through_offline():
    """Plotly.react / newPlot in ui/**/*.js: the config is ``offline(...)``, or the one
    ``plotConfig`` made for the plot (``root.__pgConfig``, which is ``offline``'s; the player's
    steps redraw the canvas and the charts with it)."""
    seen, made = [], []
    for path in (ROOT / "ui").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        made += [(path.name, line.strip()) for line in code.splitlines() if re.search(r"__pgConfig\s*=[^=]", line)]
        for match in PLOTLY_CALL.finditer(code):
            config = _arguments(code, match.end() - 1)[-1]
            seen.append(path.name)
            made_here = config == "config" and "const config = plotConfig(" in code
            assert config.startswith("offline(") or config == "root.__pgConfig" or made_here, f"{path.name}: {config}"
    assert set(seen) >= {"canvas_draw.js", "chart.js", "projector.js", "student_plot.js"}
    assert made == [("plotly_shared.js", "root.__pgConfig = Object.assign(offline(config), {")]
