"""The presenter bar's presses as the page sends them (ui/widgets/presenter.py): anything but a
well-formed press is ignored, and a press sent again (the page resends one the server seems to
have dropped) is applied once."""

from types import SimpleNamespace

import pytest

from ui.widgets import presenter


@pytest.fixture
def session(monkeypatch):
    """The visitor's state as a plain dict, the figure steps and undo recorded instead of run."""
    values: dict = {"history": SimpleNamespace(past=[1], future=[])}
    steps: list = []
    monkeypatch.setattr(presenter, "visitor", lambda: values)
    monkeypatch.setattr(presenter, "widget_values", lambda: values)
    monkeypatch.setattr(presenter, "step_figure", steps.append)
    monkeypatch.setattr(presenter, "load_preset", lambda key: steps.append(key))
    monkeypatch.setattr(presenter.state, "undo", lambda: steps.append("undo"))
    monkeypatch.setattr(presenter.state, "redo", lambda: steps.append("redo"))
    return values, steps


def _send(values, press):
    values[presenter.KEYS_KEY] = {"press": press}
    presenter.receive_press()


@pytest.mark.parametrize(
    "value",
    [
        None,
        "pb_next",
        [],
        {"id": "a-1", "button": "pb_nextt"},
        {"id": "a-1", "button": "sidebar_delete_all"},
        {"id": "", "button": "pb_next"},
        {"id": "a" * 41, "button": "pb_next"},
        {"id": "<img src=x>", "button": "pb_next"},
        {"id": 7, "button": "pb_next"},
        {"id": "a-1", "button": "pb_class", "index": 6},
        {"id": "a-1", "button": "pb_class", "index": -1},
        {"id": "a-1", "button": "pb_class", "index": 1.5},
        {"id": "a-1", "button": "pb_class", "index": True},
        {"id": "a-1", "button": "pb_class", "index": "2"},
        {"id": "a-1", "button": "pb_next", "index": 3},
        {"id": "a-1", "button": "pb_figure", "index": -1},
        {"id": "a-1", "button": "pb_figure", "index": 11},
        {"id": "a-1", "button": "pb_figure", "index": "fig4_2"},
    ],
)
def test_anything_but_a_press_is_ignored(session, value):
    values, steps = session
    _send(values, value)
    assert steps == [] and presenter.PRESSES_KEY not in values and presenter.SIDEBAR_CLASS_KEY not in values


def test_a_press_sent_again_is_applied_once_and_each_new_one_in_turn(session):
    values, steps = session
    for press_id in ("p-1", "p-1", "p-2", "p-1", "p-2", "p-3"):
        _send(values, {"id": press_id, "button": "pb_next"})
    _send(values, {"id": "p-4", "button": "pb_prev"})
    _send(values, {"id": "p-5", "button": "pb_undo"})
    _send(values, {"id": "p-6", "button": "pb_redo"})  # nothing to redo: applied as a no-op
    _send(values, {"id": "p-7", "button": "pb_class", "index": 5})
    assert steps == [1, 1, 1, -1, "undo"]
    assert values[presenter.SIDEBAR_CLASS_KEY] == 5
    assert values[presenter.PRESSES_KEY] == tuple(f"p-{k}" for k in range(1, 8))


def test_the_applied_ids_kept_are_bounded(session):
    values, steps = session
    for k in range(3 * presenter.PRESSES_KEPT):
        _send(values, {"id": f"p-{k}", "button": "pb_next"})
    assert len(values[presenter.PRESSES_KEY]) == presenter.PRESSES_KEPT and len(steps) == 3 * presenter.PRESSES_KEPT


def test_a_figure_press_loads_that_figure_unless_it_is_shown(session):
    values, steps = session
    keys = list(presenter.PRESETS)
    _send(values, {"id": "p-1", "button": "pb_figure", "index": 4})
    values[presenter.ACTIVE_KEY] = keys[4]
    _send(values, {"id": "p-2", "button": "pb_figure", "index": 4})  # shown already: nothing
    _send(values, {"id": "p-3", "button": "pb_figure", "index": len(keys) - 1})
    assert steps == [keys[4], keys[-1]]
