"""Hostile links and files through the whole app (AppTest), not only through the decoder (issue 19).

Every tampered link of ``tests/hostile_cases.py`` (97 cases; 33 broke the page before issue 19)
and random mutations of app-made links and scene files must leave a page with a canvas, a sidebar
and no traceback, on the first run, on a rerun and on a reload of what the address bar then holds.
"""

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from playground.fileio import scene_to_json
from playground.link import encode_options, encode_scene
from playground.registry import MODELS
from playground.scene import MIN_VIEW, Scene
from playground.specs import BASIS_SPECS, METHOD_SPECS, PANEL_SPECS
from tests.hostile_cases import FILE_CASES, LINK_CASES, TWO_CLASSES, problems
from ui.panels import all_panels

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _open(query):
    at = AppTest.from_file(APP, default_timeout=120)
    for name, value in query.items():
        at.query_params[name] = value
    return at.run()


def _survives_link(query):
    """Problems after opening ``query``, after a rerun, and after a reload of the address bar."""
    at = _open(query)
    found = [f"first run: {p}" for p in problems(at)]
    found += [f"rerun: {p}" for p in problems(at.run())]
    found += [f"reload: {p}" for p in problems(_open(dict(at.query_params)))]
    return found


@pytest.mark.parametrize(("name", "query"), LINK_CASES, ids=[name for name, _ in LINK_CASES])
def test_a_tampered_link_never_breaks_the_page(name, query):
    assert _survives_link(query) == []


@pytest.mark.parametrize(("name", "file_name", "data"), FILE_CASES, ids=[name for name, _, _ in FILE_CASES])
def test_a_tampered_file_never_breaks_the_page(name, file_name, data):
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.file_uploader[0].upload(file_name, data, "application/octet-stream").run()
    found = [f"upload: {p}" for p in problems(at)]
    found += [f"rerun: {p}" for p in problems(at.run())]
    found += [f"reload: {p}" for p in problems(_open(dict(at.query_params)))]
    assert found == []


def test_the_load_message_names_what_was_replaced():
    """A value no widget can show is replaced by the widget's default and named."""
    query = dict(LINK_CASES)["degree-7"]
    at = _open(query)
    text = next(w.value for w in at.warning if "could not be used" in w.value)
    assert "degree" in text and "outside 1 to 6" in text and "default (2)" in text
    assert at.slider(key="basis_degree").value == 2


def test_priors_of_zero_are_named_and_not_clipped_silently():
    at = _open(dict(LINK_CASES)["priors-zero"])
    text = next(w.value for w in at.warning if "could not be used" in w.value)
    assert "priors must be positive" in text
    assert at.session_state.scene.param_dict["priors"] is None


# ---- Random and mutated links and files ---------------------------------------------------------

# Any JSON a link or a file could hold: huge integers, odd floats, text with Markdown, nesting.
_leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(10**400), 10**400)
    | st.integers(-5, 1000)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["abc", "![x](//127.0.0.1:9/x.png)", "[a](//h)", "# h", "", "1e999", "0"])
    | st.text(max_size=12)
)
json_values = st.recursive(
    _leaves,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
SETTING_NAMES = sorted(
    {spec.name for specs in (*METHOD_SPECS.values(), *BASIS_SPECS.values()) for spec in specs}
    | {spec.name for spec in PANEL_SPECS}
)
PANEL_TITLES = sorted({panel.title for panel in all_panels()})
LINK_PARTS = ["p", "m", "mp", "mc", "b", "bp", "w", "s", "seed", "v", "po", "tab", "cmp", "pm"]


@st.composite
def app_links(draw):
    """A link the app could make: any method, basis, strategy, panel and panel options."""
    method = draw(st.sampled_from(sorted(MODELS)))
    basis = draw(st.sampled_from(sorted(BASIS_SPECS)))
    scene = Scene(points=TWO_CLASSES, method=method, basis=basis, multiclass=draw(st.sampled_from(["native", "ovr"])))
    query = encode_scene(scene)
    query["po"] = encode_options({"fisher_angle": 30.0, "posterior_display": "posterior", "sigmoid_point": 3})
    query["tab"] = draw(st.sampled_from(PANEL_TITLES))
    return query


@st.composite
def mutated_links(draw):
    query = draw(app_links())
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["setting", "part", "part_json"]))
        if kind == "setting":  # a known name with any value, in the method, basis or panel part
            part = draw(st.sampled_from(["mp", "bp", "po"]))
            settings_dict = json.loads(query.get(part, "{}")) if query.get(part, "").startswith("{") else {}
            settings_dict[draw(st.sampled_from(SETTING_NAMES))] = draw(json_values)
            query[part] = json.dumps(settings_dict)
        elif kind == "part":
            query[draw(st.sampled_from(LINK_PARTS))] = draw(st.text(max_size=40))
        else:
            query[draw(st.sampled_from(LINK_PARTS))] = json.dumps(draw(json_values))
    return query


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_links())
def test_mutated_links_never_break_the_page(query):
    assert _survives_link(query) == []


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(LINK_PARTS), st.text(max_size=60), max_size=6))
def test_random_links_never_break_the_page(query):
    assert _survives_link(query) == []


BASE_FILE = json.loads(scene_to_json(Scene(points=TWO_CLASSES, method="logistic")))
FILE_FIELDS = ["method", "params", "multiclass", "basis", "basis_params", "window", "step", "seed", "view"]


@st.composite
def mutated_files(draw):
    raw = json.loads(json.dumps(BASE_FILE))
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(FILE_FIELDS))
        if field in ("params", "basis_params") and draw(st.booleans()):
            raw[field] = {draw(st.sampled_from(SETTING_NAMES)): draw(json_values)}
        elif field == "view" and draw(st.booleans()):
            options = {draw(st.sampled_from(SETTING_NAMES)): draw(json_values)}
            raw[field] = {"panel_options": options, "tab": draw(st.sampled_from(PANEL_TITLES))}
        else:
            raw[field] = draw(json_values)
    if draw(st.booleans()):
        raw["basis"] = draw(st.sampled_from(sorted(BASIS_SPECS)))
    return json.dumps(raw).encode()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_files())
def test_mutated_scene_files_never_break_the_page(data):
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.file_uploader[0].upload("scene.json", data, "application/json").run()
    assert problems(at) == [] and problems(at.run()) == []


def test_a_zoom_narrower_than_the_grid_shows_is_widened_and_kept_in_range():
    from ui.session.edits import bounded_view

    window, moved = bounded_view(1.0, 1.0 + 1e-9, 2.0, 2.0 + 1e-12)
    assert moved and window.x_max - window.x_min == pytest.approx(MIN_VIEW)
    assert (window.x_min + window.x_max) / 2 == pytest.approx(1.0)
    window, moved = bounded_view(-1e9, 1e9, -1.0, 1.0)
    assert moved and window.x_min >= -1e6 - MIN_VIEW and window.x_max <= 1e6 + MIN_VIEW
    window, moved = bounded_view(-4.0, 4.0, -3.0, 3.0)
    assert not moved and window.as_tuple() == (-4.0, 4.0, -3.0, 3.0)
