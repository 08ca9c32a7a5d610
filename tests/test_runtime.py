"""ui/server/runtime.py: the long-lived objects are frozen out of the garbage collector once per process."""

import gc

from ui.server import runtime


def test_objects_are_frozen_once_and_later_objects_are_not():
    runtime.freeze_long_lived_objects()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    later = [[index] for index in range(1_000)]  # a session's objects, made after the first run
    runtime.freeze_long_lived_objects()
    # Nothing more frozen (the count can fall meanwhile: a frozen object that another thread of the
    # test process frees by reference counting leaves the permanent generation).
    assert gc.get_freeze_count() <= frozen
    assert gc.is_tracked(later[0])


def test_the_young_generation_is_collected_less_often_and_a_collector_turned_off_stays_off(monkeypatch):
    runtime.freeze_long_lived_objects()
    assert gc.get_threshold()[0] >= runtime.YOUNG_COLLECTION_THRESHOLD
    # Whoever embeds the app may have switched the threshold to 0 (no automatic collection).
    monkeypatch.setattr(gc, "get_threshold", lambda: (0, 10, 10))
    calls = []
    monkeypatch.setattr(gc, "set_threshold", lambda *args: calls.append(args))
    runtime.freeze_long_lived_objects.cache_clear()
    monkeypatch.setattr(gc, "get_freeze_count", lambda: 1)
    runtime.freeze_long_lived_objects()
    assert calls == []
