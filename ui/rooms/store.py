"""Which store keeps this process's rooms: ``room_store()``, chosen once from the environment.

- ``PLAYGROUND_REDIS_URL=redis://host:port/db`` set: a ``RedisStore`` (``ui.rooms.redis_store``),
  so the replicas behind nginx share rooms.
- Unset (the default): a ``MemoryStore`` (``ui.rooms.memory_store``), so one ``streamlit run``
  serves a class.

Rules that must hold:
- One store a process, made on first use under a lock (two sessions' first rooms share it).
- Callers see only the ``RoomStore`` protocol (``ui.rooms.store_base``, where the stores' rules
  are written): either store serves every route and the lecturer's panel unchanged.
- The modules' imports run one way: this module > the two stores > ``store_base``; neither store
  imports the other or this module (``pyproject.toml``'s import contracts check it).
"""

import os
import threading

from .memory_store import MemoryStore
from .redis_store import RedisStore
from .store_base import RoomStore

_STORE: RoomStore | None = None
_STORE_LOCK = threading.Lock()


def chosen_store(redis_url: str) -> RoomStore:
    """Redis at ``redis_url``, or this process's memory when it is empty (each returned as a
    ``RoomStore``: mypy checks both stores against the protocol here)."""
    if redis_url:
        return RedisStore(redis_url)
    return MemoryStore()


def room_store() -> RoomStore:
    """The process's store: Redis when ``PLAYGROUND_REDIS_URL`` is set, else this process's memory."""
    global _STORE
    with _STORE_LOCK:
        if _STORE is None:
            _STORE = chosen_store(os.environ.get("PLAYGROUND_REDIS_URL", "").strip())
        return _STORE
