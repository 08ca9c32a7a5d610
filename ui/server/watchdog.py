"""Connections that never finish a request's headers are closed (the ASGI server does not).

uvicorn 0.54 (the ASGI server under Streamlit 1.67) times a connection out only after a response
(``timeout_keep_alive``), and cancels that timer as soon as any byte arrives: a connection that
opens and stays silent, or sends its headers a byte at a time, is held for ever. Those never reach
an ASGI app, so ``ui.server.edge`` cannot see them; here the HTTP protocol class itself is given
a deadline.

Rules that must hold:
- A connection must complete a request's headers within ``HEADER_SECONDS`` of opening, and the
  next request's within ``HEADER_SECONDS`` of its last response; otherwise the server closes it.
- A connection with a request under way (its body is the edge's business, under the edge's
  deadline) or upgraded to a websocket (the page's stream) is never touched.
- A connection reads at most ``READ_BYTES`` from its socket at a time (asyncio's default is
  256 KiB): thousands of connections sending at once then hold that much each, at most, before
  the edge has looked at their headers; the rest waits in the kernel's buffers.
- A request's line and headers may be up to ``HEAD_BYTES`` long, however they arrive (whole or in
  small segments), so every link the app makes opens: uvicorn's h11 protocol otherwise refuses a
  head that is still incomplete past 16 KiB (h11's ``max_incomplete_event_size``; "Invalid HTTP
  request received.", 400), and with reads of ``READ_BYTES`` every head over 16 KiB is incomplete
  at some read. A longer head is refused as before (it can be up to ``READ_BYTES`` over when its
  last read completes it). A server started with uvicorn's own ``h11_max_incomplete_event_size``
  keeps that.
- Memory freed after a burst of refused or closed connections is given back to the system
  (``trim_soon``: glibc's ``malloc_trim`` in a worker thread, off the event loop, at most every
  ``TRIM_SECONDS``), instead of staying in the allocator's heap for good.
- Only names of uvicorn's HTTP protocol classes listed in ``UVICORN_INTERNALS`` are used, each
  checked when ``install`` runs; a version without them keeps its own behaviour, with a warning
  in the server's log (tests/test_streamlit_internals.py fails when one disappears).
"""

import asyncio
import ctypes
import ctypes.util
import functools
import importlib
import logging
import time
from typing import Any

_LOG = logging.getLogger(__name__)

HEADER_SECONDS = 10.0
READ_BYTES = 16 * 1024  # what a connection reads at once: 3,000 of them sending together hold 48 MB
# A request's line and headers at most: the longest link the app makes (5,000 points spread over
# ±1e6 and every option, about 81,000 characters at most; playground.link) with the browser's headers,
# and the link reader's own ceiling (100,000 characters of points) with room to spare. A connection
# holds at most this (plus one read) for HEADER_SECONDS before its request reaches the edge.
HEAD_BYTES = 128 * 1024
TRIM_SECONDS = 5.0

# (module, class): each has connection_made, on_response_complete, transport, cycle and loop.
PROTOCOLS = (
    ("uvicorn.protocols.http.h11_impl", "H11Protocol"),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol"),
)
# What tests/test_streamlit_internals.py checks: the protocol that runs here (httptools is optional).
UVICORN_INTERNALS = (
    ("uvicorn.protocols.http.h11_impl", "H11Protocol.connection_made"),
    ("uvicorn.protocols.http.h11_impl", "DEFAULT_MAX_INCOMPLETE_EVENT_SIZE"),
    ("uvicorn.protocols.http.h11_impl", "H11Protocol.on_response_complete"),
)


def _close_if_idle(protocol: Any, cycle: Any) -> None:
    """Close ``protocol``'s connection if it still owns it and no request began since ``cycle``."""
    transport = getattr(protocol, "transport", None)
    if transport is None or transport.is_closing() or transport.get_protocol() is not protocol:
        return  # closed already, or a websocket now
    if getattr(protocol, "cycle", None) is cycle:
        transport.close()


def _arm(protocol: Any) -> None:
    loop = getattr(protocol, "loop", None)
    if loop is not None:
        loop.call_later(HEADER_SECONDS, _close_if_idle, protocol, getattr(protocol, "cycle", None))


def _patched(cls: type) -> bool:
    made, completed = getattr(cls, "connection_made", None), getattr(cls, "on_response_complete", None)
    if not callable(made) or not callable(completed):
        return False
    if getattr(made, "watched", False):
        return True

    @functools.wraps(made)
    def connection_made(self: Any, transport: Any) -> None:
        if isinstance(getattr(transport, "max_size", None), int):  # asyncio's socket transports
            transport.max_size = min(transport.max_size, READ_BYTES)
        made(self, transport)
        _arm(self)

    @functools.wraps(completed)
    def on_response_complete(self: Any) -> None:
        completed(self)
        _arm(self)

    connection_made.watched = True  # type: ignore[attr-defined]
    cls.connection_made = connection_made  # type: ignore[attr-defined]
    cls.on_response_complete = on_response_complete  # type: ignore[attr-defined]
    return True


# Where uvicorn's h11 protocol reads the head's cap for each new connection, when the server's
# configuration names none (Streamlit's does not).
H11_HEAD_CAP = ("uvicorn.protocols.http.h11_impl", "DEFAULT_MAX_INCOMPLETE_EVENT_SIZE")


def _allow_long_heads() -> bool:
    """Let uvicorn's h11 protocol take heads of ``HEAD_BYTES`` (see the module's rules)."""
    try:
        module = importlib.import_module(H11_HEAD_CAP[0])
    except ImportError:
        return False
    if not isinstance(getattr(module, H11_HEAD_CAP[1], None), int):
        _LOG.warning("uvicorn's %s.%s has changed: long links are refused.", *H11_HEAD_CAP)
        return False
    setattr(module, H11_HEAD_CAP[1], max(getattr(module, H11_HEAD_CAP[1]), HEAD_BYTES))
    return True


@functools.cache
def install() -> int:
    """Give uvicorn's HTTP protocols the header deadline and the cap of ``HEAD_BYTES`` on a
    request's head (once per process); how many classes got the deadline."""
    _allow_long_heads()
    done = 0
    for module_name, class_name in PROTOCOLS:
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):  # httptools is optional: h11 is what runs without it
            continue
        if _patched(cls):
            done += 1
        else:
            _LOG.warning("uvicorn's %s.%s has changed: idle connections are not closed.", module_name, class_name)
    return done


@functools.cache
def _libc() -> Any:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


_TRIM = {"scheduled": False, "last": 0.0}


def _trim(loop: asyncio.AbstractEventLoop) -> None:
    _TRIM["scheduled"] = False
    _TRIM["last"] = time.monotonic()
    libc = _libc()
    if libc is not None:  # in a worker thread: a trim of a big heap takes a while, and ctypes lets go of the GIL
        loop.run_in_executor(None, libc.malloc_trim, 0)


def trim_soon() -> None:
    """Give freed memory back to the system a little later (once for a burst; glibc only)."""
    if _TRIM["scheduled"] or _libc() is None:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    _TRIM["scheduled"] = True
    loop.call_later(max(1.0, TRIM_SECONDS - (time.monotonic() - _TRIM["last"])), _trim, loop)
