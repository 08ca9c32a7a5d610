"""ui/runtime.py: the long-lived objects are frozen out of the garbage collector once per process."""

import gc

from ui import runtime


def test_objects_are_frozen_once_and_later_objects_are_not():
    runtime.freeze_long_lived_objects()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    later = [[index] for index in range(1_000)]  # a session's objects, made after the first run
    runtime.freeze_long_lived_objects()
    assert gc.get_freeze_count() == frozen
    assert gc.is_tracked(later[0])
