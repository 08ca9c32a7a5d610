"""The basis widgets' session keys (ui/session/widget_keys.py) against the settings' table
(playground/specs.py); the methods' keys are their cards', checked in tests/test_method_cards.py."""

from playground.specs import BASIS_SPECS
from ui.session.widget_keys import BASIS_KEYS


def test_every_basis_setting_has_exactly_one_key_and_every_key_a_setting():
    assert set(BASIS_SPECS) == set(BASIS_KEYS)
    for owner, owned in BASIS_SPECS.items():
        named = [(spec.name, spec.when) for spec in owned]
        assert len(set(named)) == len(named), owner
        assert set(named) == set(BASIS_KEYS[owner]), owner


def test_no_two_basis_widgets_share_a_key():
    keys = [key for owned in BASIS_KEYS.values() for key in owned.values() if key]
    assert len(keys) == len(set(keys))
