"""Imported at start-up by a benchmark's server (``bench/room.py`` puts this folder first on its
``PYTHONPATH``): on a tree whose class room caps are module constants, not settings, it sets
``ui.rooms.protocol``'s ``MAX_STUDENTS`` / ``MAX_POINTS`` to ``PLAYGROUND_ROOM_SEATS`` /
``PLAYGROUND_ROOM_POINTS`` as the module is loaded (``ui.rooms.model`` imports them from it).
On a tree that reads those settings itself the values are the same. Only the benchmark uses it.
"""

import os
from importlib.abc import MetaPathFinder
from importlib.machinery import PathFinder

CAPS = {"MAX_STUDENTS": "PLAYGROUND_ROOM_SEATS", "MAX_POINTS": "PLAYGROUND_ROOM_POINTS"}


class _RoomCaps(MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "ui.rooms.protocol":
            return None
        spec = PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            for constant, variable in CAPS.items():
                if os.environ.get(variable, "").isdigit():
                    setattr(module, constant, int(os.environ[variable]))

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


if any(os.environ.get(v, "").isdigit() for v in CAPS.values()):
    import sys

    sys.meta_path.insert(0, _RoomCaps())
