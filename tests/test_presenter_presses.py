"""The presenter bar's numbered presses (ui/widgets/presenter.py): a page's list is a client's word,
and a list sent again, merged with a later one, or cut off by a stopped run applies every press
once, in order."""

import pytest

from ui.widgets import presenter
from ui.widgets.presenter import DONE_KEY, KEYS_KEY, Press, apply_presses, valid_presses


def _press(seq, action="next", arg=0):
    return {"seq": seq, "action": action, "arg": arg}


def test_a_well_formed_list_is_read_in_number_order():
    presses = valid_presses([_press(3, "class", 5), _press(1), _press(2, "undo")])
    assert presses == [Press(1, "next"), Press(2, "undo"), Press(3, "class", 5)]


@pytest.mark.parametrize(
    "value",
    [
        None,
        "next",
        {"seq": 1},
        [_press(1)] * (presenter.MAX_PRESSES + 1),  # more than any page of ours holds
    ],
)
def test_anything_but_a_short_list_is_nothing(value):
    assert valid_presses(value) == []


@pytest.mark.parametrize(
    "item",
    [
        _press(0),
        _press(-1),
        _press(1.5),
        _press(True),
        _press("1"),
        _press(10**400),
        _press(2**53 + 1),
        _press(1, "reload"),
        _press(1, "class", 6),  # classes 1-6 are 0-5
        _press(1, "class", -1),
        _press(1, "next", 1),
        {"seq": 1, "action": ["next"]},
        "next",
    ],
)
def test_a_malformed_press_is_left_out_and_the_others_kept(item):
    assert valid_presses([item, _press(7)]) == [Press(7, "next")]


@pytest.fixture
def page_state(monkeypatch):
    """The session's values and the effects applied, in order."""
    values, applied = {}, []
    monkeypatch.setattr(presenter, "visitor", lambda: values)
    monkeypatch.setattr(presenter, "widget_values", lambda: values)
    effects = {action: (lambda arg, action=action: applied.append((action, arg))) for action in presenter.PRESS_ACTIONS}
    monkeypatch.setattr(presenter, "_PRESS_EFFECTS", effects)
    return values, applied


def _send(values, *presses):
    values[KEYS_KEY] = {"presses": list(presses)}
    apply_presses()


def test_each_press_applies_once_in_order_however_the_lists_arrive(page_state):
    values, applied = page_state
    _send(values, _press(1))
    _send(values, _press(1), _press(2, "class", 2))  # the list again, one more press on it
    _send(values, _press(1), _press(2, "class", 2))  # the same list (a page's retry)
    _send(values, _press(3, "undo"), _press(2, "class", 2), _press(4, "prev"))  # merged, out of order
    assert applied == [("next", 0), ("class", 2), ("undo", 0), ("prev", 0)]
    assert values[DONE_KEY] == 4


def test_a_run_stopped_inside_a_press_applies_it_on_the_next_run(page_state, monkeypatch):
    values, applied = page_state

    class Stopped(BaseException):  # Streamlit stops a run with an exception outside Exception
        pass

    def stopped_once(arg, calls=[]):  # noqa: B006  (counts the calls)
        calls.append(arg)
        if len(calls) == 1:
            raise Stopped
        applied.append(("next", arg))

    monkeypatch.setitem(presenter._PRESS_EFFECTS, "next", stopped_once)
    with pytest.raises(Stopped):
        _send(values, _press(1), _press(2))
    assert values.get(DONE_KEY, 0) == 0  # nothing counted as applied
    _send(values, _press(1), _press(2))
    assert applied == [("next", 0), ("next", 0)]
    assert values[DONE_KEY] == 2


def test_a_state_that_is_not_the_elements_applies_nothing(page_state):
    values, applied = page_state
    for hostile in (None, "presses", ["presses"], {"presses": "next"}):
        values[KEYS_KEY] = hostile
        apply_presses()
    assert applied == [] and DONE_KEY not in values
