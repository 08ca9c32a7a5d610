"""The figure presets in the app (AppTest): each sidebar button loads its whole scene, the widgets
can show it without a warning, and the explanation box appears until closed."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from playground.presets import PRESETS
from ui.widgets.presets import explanation

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _preset_button(at, key):
    return next(b for b in at.button if b.key == f"preset_{key}")


def _explanations(at):
    return [box.value for box in at.info if box.value.startswith("**")]


def test_every_preset_button_loads_its_scene_and_explains_it():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not _explanations(at)
    for key, preset in PRESETS.items():
        button = _preset_button(at, key)
        assert button.label == preset.label
        button.click().run()
        assert not at.exception, (key, [e.value for e in at.exception])
        assert not at.warning, (key, [w.value for w in at.warning])  # e.g. parameters the widgets cannot show
        scene, expected = at.session_state.scene, preset.scene
        assert scene.points == expected.points, key
        # The widgets read back exactly the preset's method, parameters, strategy and basis.
        assert (scene.method, scene.params, scene.multiclass) == (expected.method, expected.params, expected.multiclass)
        assert (scene.basis, scene.basis_params, scene.window) == (
            expected.basis,
            expected.basis_params,
            expected.window,
        )
        assert at.session_state["active_preset"] == key
        if preset.compare:
            assert at.session_state["view_mode"] == "compare"
            assert at.session_state["compare_methods"] == list(preset.compare)
        else:
            assert at.session_state["view_mode"] == "single"
        if preset.tab:
            assert at.session_state["panel_tab"] == preset.tab
        assert at.session_state.panel_options == (preset.panel_options or {})  # nothing left from before
        assert _explanations(at) == [f"**{preset.heading}**\n\n{explanation(preset, scene.window)}"], key


def test_close_hides_the_explanation_and_undo_brings_the_points_back():
    at = AppTest.from_file(APP, default_timeout=60).run()
    before = at.session_state.scene.points
    _preset_button(at, "fig4_6").click().run()
    assert _explanations(at) and at.session_state.scene.points == PRESETS["fig4_6"].scene.points
    next(b for b in at.button if b.key == "preset_close").click().run()
    assert not _explanations(at) and "active_preset" not in at.session_state
    next(b for b in at.button if b.label == "↶ Undo").click().run()
    assert at.session_state.scene.points == before


def test_changing_the_compared_methods_starts_the_comparison():
    """Issue 38: the methods field is never disabled (a disabled one's text was too pale to read);
    changing it while one method is shown starts the comparison with those methods."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.session_state["view_mode"] == "single"
    field = next(m for m in at.multiselect if m.key == "compare_methods")
    assert not field.disabled
    field.set_value(["least_squares", "logistic"]).run()
    assert not at.exception
    assert at.session_state["view_mode"] == "compare"
    assert at.session_state["compare_methods"] == ["least_squares", "logistic"]
