"""The widgets' session keys (ui/session/widget_keys.py) against the settings' table (playground/specs.py)."""

from playground.specs import BASIS_SPECS, METHOD_SPECS
from ui.session.widget_keys import BASIS_KEYS, METHOD_KEYS


def test_every_setting_has_exactly_one_key_and_every_key_a_setting():
    for specs, keys in ((METHOD_SPECS, METHOD_KEYS), (BASIS_SPECS, BASIS_KEYS)):
        assert set(specs) == set(keys)
        for owner, owned in specs.items():
            named = [(spec.name, spec.when) for spec in owned]
            assert len(set(named)) == len(named), owner
            assert set(named) == set(keys[owner]), owner


def test_no_two_widgets_share_a_key():
    keys = [key for table in (METHOD_KEYS, BASIS_KEYS) for owned in table.values() for key in owned.values() if key]
    assert len(keys) == len(set(keys))
