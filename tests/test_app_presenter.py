"""The presenter bar in presentation mode (AppTest): each of its controls does what the sidebar's
does, read back from the scene; out of presentation there is no bar."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from playground.presets import PRESETS

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")


def _presenting():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not [b for b in at.button if (b.key or "").startswith("pb_")]  # no bar outside presentation
    at.toggle(key="presentation").set_value(True).run()
    assert not at.exception
    return at


def test_the_bar_sets_method_strategy_class_and_undoes():
    at = _presenting()
    at.selectbox(key="pb_method").set_value("fisher").run()
    assert at.session_state.scene.method == "fisher" and at.selectbox(key="method").value == "fisher"
    at.button_group(key="pb_strategy").set_value("ovo").run()  # three classes: the strategy is offered
    assert at.session_state.scene.multiclass == "ovo"
    at.button_group(key="pb_class").set_value(2).run()
    assert at.session_state.active_class_index == 2 and at.radio(key="active_class").value == 2
    before = at.session_state.scene.points
    assert at.button(key="pb_undo").disabled  # nothing to undo yet
    at.button(key="pb_next").click().run()  # a figure replaces the points: one undo step
    assert at.session_state.scene.points != before
    at.button(key="pb_undo").click().run()
    assert at.session_state.scene.points == before and not at.exception


def test_previous_and_next_walk_the_figures_and_the_basis_and_alpha_follow():
    at = _presenting()
    keys = list(PRESETS)
    for key in keys[:2]:
        at.button(key="pb_next").click().run()
        assert at.session_state.active_preset == key and at.session_state.scene.points == PRESETS[key].scene.points
    at.button(key="pb_prev").click().run()
    assert at.session_state.active_preset == keys[0]
    while at.session_state.active_preset != "fig4_12":
        at.button(key="pb_next").click().run()
    at.button_group(key="pb_basis").set_value("identity").run()  # figure 4.12's Try:
    assert at.session_state.scene.basis == "identity"
    at.button(key="pb_next").click().run()
    assert at.session_state.active_preset == "bayes_predictive"
    at.selectbox(key="pb_setting").set_value(10.0).run()  # section 4.5.2's Try:
    assert at.session_state.scene.param_dict["alpha"] == 10.0
    while at.session_state.active_preset != keys[-1]:
        at.button(key="pb_next").click().run()
    assert at.button(key="pb_next").disabled and not at.exception


def test_a_figure_loaded_in_presentation_raises_no_toast_over_the_plot():
    at = _presenting()
    at.button(key="pb_next").click().run()
    assert not at.exception and not at.toast  # the drawer's heading names the figure
    shown = AppTest.from_file(APP, default_timeout=60)
    shown.query_params["tab"] = "Equations"  # a link, opened out of presentation
    shown.run()
    assert any("Loaded" in t.value for t in shown.toast)  # there the toast still says it
