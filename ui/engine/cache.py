"""The process-wide cache of results (fitted models, the views the canvas draws) and its single
flight: one computation per key however many sessions ask at once.

Rules that must hold:

- Bounded: at most ``CACHE_BYTES`` (``PLAYGROUND_CACHE_MB``) and ``CACHE_ENTRIES`` entries, least
  recently used dropped first; an entry unused for ``CACHE_TTL_SECONDS`` is dropped by a background
  sweep, so the memory comes back when nobody visits. A result above ``LARGEST_SHARED`` of the
  cache is not shared (its session keeps it).
- Values are shared, not copied: nobody may modify one (``approx_bytes`` makes the arrays of a
  value read-only as it measures them).
- ``ResultCache.compute_once``: the first caller computes, the others wait for its value; a failed
  computation reaches them all and caches nothing; a stopped one (a rerun, a closed page) lets a
  waiter compute instead. Nobody waits for a computation that was stopped.
- Knows nothing of fitting: keys and values are the caller's (``ui.session.compute``).
"""

import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import fields, is_dataclass
from typing import Any

import numpy as np


def setting(name: str, default: float, kind: Callable[[Any], float] = float) -> float:
    """A number from the environment variable ``name`` (``default`` when unset or unreadable): a host
    tunes the app without editing the code."""
    try:
        return kind(os.environ.get(name, default))
    except ValueError:
        return default


CACHE_BYTES = setting("PLAYGROUND_CACHE_MB", 256.0) * 2**20
CACHE_ENTRIES = 1024
CACHE_TTL_SECONDS = 600.0
LARGEST_SHARED = 0.25  # a result above this fraction of the cache is kept by its session only
MISSING = object()


class ResultCache:
    """Least recently used entries within ``max_bytes`` and ``max_entries``; an entry unused for
    ``ttl`` seconds is dropped (a background sweep returns the memory when nobody visits).

    Values are shared, not copied: callers must not modify them (arrays of cached results are
    made read-only).
    """

    def __init__(self, max_bytes: float, max_entries: int, ttl: float) -> None:
        self.max_bytes, self.max_entries, self.ttl = max_bytes, max_entries, ttl
        self._items: OrderedDict[Hashable, tuple[Any, int, float]] = OrderedDict()  # key -> (value, nbytes, last use)
        self._flights: dict[Hashable, _Flight] = {}  # key -> a computation of the key in progress
        self._lock = threading.Lock()
        self.bytes = 0
        self._sweeper = threading.Thread(target=self._sweep_forever, name="result-cache-sweep", daemon=True)
        self._sweeper.start()

    def get(self, key: Hashable, default: Any = MISSING) -> Any:
        with self._lock:
            return self._touch(key, default)

    def _touch(self, key: Hashable, default: Any = MISSING) -> Any:
        """The value under ``key`` (marked as just used), or ``default``; the lock is held."""
        item = self._items.get(key)
        if item is None:
            return default
        value, nbytes, _unused = item
        self._items[key] = (value, nbytes, time.monotonic())
        self._items.move_to_end(key)
        return value

    def compute_once(self, key: Hashable, compute: Callable[[], tuple[Any, int | None]]) -> tuple[Any, bool]:
        """(value, shared): the value under ``key``, computed once however many threads ask at once
        (single flight). ``compute()`` returns (value, nbytes), nbytes None when the value must
        not be cached; ``shared`` says whether it was (or already had been) cached.

        - A cached value is returned at once. Otherwise the first caller (the leader) computes it
          and every caller that asks meanwhile waits for the leader: one computation, one value
          (the same object) for all of them.
        - An exception raised by ``compute`` reaches the leader and every waiter of that flight;
          nothing is cached and the flight ends, so the next ask computes again.
        - A leader stopped by a BaseException that is not an Exception (Streamlit stops a run whose
          page reruns or closes) ends its flight without a value: its waiters ask again, and one
          of them computes. Nobody waits for a computation that was stopped.
        """
        while True:
            with self._lock:
                value = self._touch(key)
                if value is not MISSING:
                    return value, True
                flight = self._flights.get(key)
                leader = flight is None
                if flight is None:
                    flight = self._flights[key] = _Flight()
            if leader:
                return self._lead(key, flight, compute)
            outcome = flight.result()
            if outcome is not MISSING:
                return outcome

    def _lead(
        self, key: Hashable, flight: "_Flight", compute: Callable[[], tuple[Any, int | None]]
    ) -> tuple[Any, bool]:
        """Run the flight's computation; cache its value, then release the waiters (see
        ``compute_once``). The flight leaves the table before its waiters wake."""
        outcome, error = MISSING, None
        try:
            value, nbytes = compute()
            outcome = (value, nbytes is not None and self.put(key, value, nbytes))
            return outcome
        except Exception as err:
            error = err
            raise
        finally:
            with self._lock:
                self._flights.pop(key, None)
            flight.finish(outcome, error)

    def in_flight(self) -> int:
        """How many keys are being computed now."""
        with self._lock:
            return len(self._flights)

    def put(self, key: Hashable, value: Any, nbytes: int) -> bool:
        """Keep ``value`` (about ``nbytes`` in memory); False when it is too large to share."""
        if nbytes > LARGEST_SHARED * self.max_bytes:
            return False
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            self._items[key] = (value, nbytes, time.monotonic())
            self.bytes += nbytes
            while self._items and (self.bytes > self.max_bytes or len(self._items) > self.max_entries):
                _unused, (_unused, dropped, _unused) = self._items.popitem(last=False)
                self.bytes -= dropped
        return True

    def sweep(self) -> None:
        """Drop the entries unused for ``ttl`` seconds (the least recently used come first)."""
        now = time.monotonic()
        with self._lock:
            while self._items:
                key, (_unused, nbytes, used) = next(iter(self._items.items()))
                if now - used <= self.ttl:
                    break
                del self._items[key]
                self.bytes -= nbytes

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0

    def __len__(self) -> int:
        return len(self._items)

    def _sweep_forever(self) -> None:
        while True:
            time.sleep(min(self.ttl / 4, 30.0))
            self.sweep()


class _Flight:
    """One computation of a key in progress (``ResultCache.compute_once``); waiters block on it."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._outcome: object = MISSING  # (value, shared) once computed; MISSING when stopped or failed
        self._error: BaseException | None = None

    def finish(self, outcome: object, error: BaseException | None) -> None:
        self._outcome, self._error = outcome, error
        self._done.set()

    def result(self) -> Any:  # (value, shared), or the MISSING sentinel: object() has no type of its own
        """Wait for the flight: (value, shared), or MISSING when its leader was stopped; raises
        the computation's exception when it failed."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._outcome


def approx_bytes(value: object, _seen: set[int] | None = None) -> int:
    """Memory held by ``value`` and everything it refers to (arrays by their buffers), counting
    shared objects once; arrays met on the way are made read-only (they will be shared)."""
    seen = set() if _seen is None else _seen
    if id(value) in seen:
        return 0
    seen.add(id(value))
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
        base = value.base if isinstance(value.base, np.ndarray) else None
        return sys.getsizeof(value) + (approx_bytes(base, seen) if base is not None else value.nbytes)
    size = sys.getsizeof(value)
    if isinstance(value, dict):
        size += sum(approx_bytes(k, seen) + approx_bytes(v, seen) for k, v in value.items())
    elif isinstance(value, list | tuple | set | frozenset):
        size += sum(approx_bytes(item, seen) for item in value)
    elif is_dataclass(value) and not isinstance(value, type):
        size += sum(approx_bytes(getattr(value, f.name), seen) for f in fields(value))
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        size += approx_bytes(vars(value), seen)
    return size


_CACHE: ResultCache | None = None
_CACHE_LOCK = threading.Lock()


def result_cache() -> ResultCache:
    """The process-wide cache of fits and views (one per server process, shared by its sessions,
    the live route and the rooms)."""
    global _CACHE
    with _CACHE_LOCK:
        if _CACHE is None:
            _CACHE = ResultCache(CACHE_BYTES, CACHE_ENTRIES, CACHE_TTL_SECONDS)
        return _CACHE
