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
- Bytes of heads still arriving are bounded whatever number of connections sends them: the first
  ``FREE_HEAD_BYTES`` of each head are free (what every connection could hold before heads grew
  past 16 KiB), every byte past them counts while the head is incomplete against
  ``MAX_PENDING_HEAD_BYTES`` for the whole process and ``MAX_PEER_HEAD_BYTES`` for the
  connecting peer (its address as the server sees it, an IPv6 address by its /64: a head comes
  before any ``X-Forwarded-For`` can be read). A trusted proxy's peer (``ui.server.clients``)
  is held to the process's bound only: its heads are every visitor's behind it, and a proxy
  such as nginx reads and bounds each head itself before it sends it on. A read that would take
  a head past either bound is refused at once, 431 (the peer's) or 503 (the process's), with
  ``Connection: close``, and the connection closed. A head's bytes are given back when it
  completes or its connection closes (refused, timed out, or gone), so the budgets return to 0.
  Counted in the event loop's thread only (the protocol's callbacks), so no lock is needed.
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

import h11

from ui.server.clients import TRUSTED_PROXIES, address_group, is_trusted, parsed_address

_LOG = logging.getLogger(__name__)

HEADER_SECONDS = 10.0
READ_BYTES = 16 * 1024  # what a connection reads at once: 3,000 of them sending together hold 48 MB
# A request's line and headers at most: the longest link the app makes (5,000 points spread over
# ±1e6 and every option, about 81,000 characters at most; playground.link) with the browser's headers,
# and the link reader's own ceiling (100,000 characters of points) with room to spare. A connection
# holds at most this (plus one read) for HEADER_SECONDS before its request reaches the edge.
HEAD_BYTES = 128 * 1024
TRIM_SECONDS = 5.0
# Heads still arriving: bytes past each one's first FREE_HEAD_BYTES, for the whole process and for
# one peer (about 36 of the longest heads at once from one address: a class behind one router
# opening a link together).
FREE_HEAD_BYTES = READ_BYTES
MAX_PENDING_HEAD_BYTES = 32 * 1024 * 1024
MAX_PEER_HEAD_BYTES = 4 * 1024 * 1024

# (module, class, whether its heads are counted): each has connection_made, on_response_complete,
# transport, cycle and loop; h11's (the one whose head cap is raised here) also data_received,
# connection_lost, client and conn (an h11 Connection).
PROTOCOLS = (
    ("uvicorn.protocols.http.h11_impl", "H11Protocol", True),
    ("uvicorn.protocols.http.httptools_impl", "HttpToolsProtocol", False),
)
# What tests/test_streamlit_internals.py checks: the protocol that runs here (httptools is optional).
UVICORN_INTERNALS = (
    ("uvicorn.protocols.http.h11_impl", "H11Protocol.connection_made"),
    ("uvicorn.protocols.http.h11_impl", "DEFAULT_MAX_INCOMPLETE_EVENT_SIZE"),
    ("uvicorn.protocols.http.h11_impl", "H11Protocol.on_response_complete"),
    ("uvicorn.protocols.http.h11_impl", "H11Protocol.data_received"),
    ("uvicorn.protocols.http.h11_impl", "H11Protocol.connection_lost"),
    ("h11", "IDLE"),
)


class HeadBudget:
    """Bytes of incomplete heads held at once: at most ``total`` in the process and ``per_peer``
    for one peer key (a key of None is held to the process's bound only)."""

    def __init__(self, total: int, per_peer: int) -> None:
        self.total, self.per_peer = total, per_peer
        self.held = 0
        self.by_peer: dict[str, int] = {}

    def take(self, peer: str | None, amount: int) -> int:
        """Take ``amount`` bytes for ``peer``: 0 when they fit, else the status of the refusal
        (431 the peer's bound, 503 the process's); nothing is taken then."""
        if peer is not None and self.by_peer.get(peer, 0) + amount > self.per_peer:
            return 431
        if self.held + amount > self.total:
            return 503
        self.held += amount
        if peer is not None:
            self.by_peer[peer] = self.by_peer.get(peer, 0) + amount
        return 0

    def give(self, peer: str | None, amount: int) -> None:
        self.held = max(0, self.held - amount)
        if peer is not None:
            left = self.by_peer.pop(peer, 0) - amount
            if left > 0:
                self.by_peer[peer] = left


HEADS = HeadBudget(MAX_PENDING_HEAD_BYTES, MAX_PEER_HEAD_BYTES)

# What a refused head is answered (no header is read yet, so no language is known: English).
_REFUSALS = {
    431: (b"Request Header Fields Too Large", b"Too many requests at once from your address; try again in a moment."),
    503: (b"Service Unavailable", b"The server is busy; try again in a moment."),
}
_PEER, _PENDING, _CHARGED = "_watchdog_peer", "_watchdog_pending", "_watchdog_charged"


def _peer_key(protocol: Any) -> str | None:
    """The key of the connection's peer in ``HEADS``: its address (an IPv6 /64), None for a
    trusted proxy or a Unix socket's peer (the process's bound only)."""
    client = getattr(protocol, "client", None)
    address = parsed_address(str(client[0])) if client else None
    if address is None:  # a Unix socket's peer: a proxy on this host
        return None
    return None if is_trusted(address, TRUSTED_PROXIES) else address_group(str(address))


def _awaiting_head(protocol: Any) -> bool:
    """Whether the connection is still reading a request's head (h11 waits in IDLE for one)."""
    return getattr(getattr(protocol, "conn", None), "their_state", None) is h11.IDLE


def _release(protocol: Any) -> None:
    """Give back what the connection's head holds."""
    charged = getattr(protocol, _CHARGED, 0)
    if charged:
        HEADS.give(getattr(protocol, _PEER, None), charged)
    setattr(protocol, _CHARGED, 0)
    setattr(protocol, _PENDING, 0)


def _refuse(protocol: Any, status: int) -> None:
    reason, text = _REFUSALS[status]
    transport = protocol.transport
    transport.write(
        b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: %d\r\n"
        b"connection: close\r\n\r\n%s" % (status, reason, len(text), text)
    )
    transport.close()
    trim_soon()


def _count_head(protocol: Any, was_awaiting: bool, received: int) -> None:
    """After a read of ``received`` bytes: charge the head's bytes past ``FREE_HEAD_BYTES`` if it
    is still incomplete (refusing the connection past a bound), give them back otherwise."""
    transport = getattr(protocol, "transport", None)
    if (
        transport is None
        or transport.is_closing()
        or transport.get_protocol() is not protocol  # a websocket now
        or not _awaiting_head(protocol)  # the head is complete (or refused by h11 itself)
    ):
        _release(protocol)
        return
    # The bytes read since the connection began waiting for this head (a read that completed the
    # last request's body and began this head is counted whole: more, never less).
    pending = (getattr(protocol, _PENDING, 0) if was_awaiting else 0) + received
    setattr(protocol, _PENDING, pending)
    wanted, charged = max(0, pending - FREE_HEAD_BYTES), getattr(protocol, _CHARGED, 0)
    if wanted <= charged:
        return
    refused = HEADS.take(getattr(protocol, _PEER, None), wanted - charged)
    if refused:
        _release(protocol)
        _refuse(protocol, refused)
    else:
        setattr(protocol, _CHARGED, wanted)


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


def _count_heads(cls: type) -> bool:
    """Give ``cls`` (uvicorn's h11 protocol) the bounds on heads still arriving."""
    received, lost = getattr(cls, "data_received", None), getattr(cls, "connection_lost", None)
    if not callable(received) or not callable(lost):
        return False

    @functools.wraps(received)
    def data_received(self: Any, data: bytes) -> None:
        was_awaiting = _awaiting_head(self)
        received(self, data)
        _count_head(self, was_awaiting, len(data))

    @functools.wraps(lost)
    def connection_lost(self: Any, exc: Exception | None) -> None:
        if getattr(self, _CHARGED, 0):
            trim_soon()
        _release(self)
        lost(self, exc)

    cls.data_received = data_received  # type: ignore[attr-defined]
    cls.connection_lost = connection_lost  # type: ignore[attr-defined]
    return True


def _patched(cls: type, heads: bool = False) -> bool:
    made, completed = getattr(cls, "connection_made", None), getattr(cls, "on_response_complete", None)
    if not callable(made) or not callable(completed):
        return False
    if getattr(made, "watched", False):
        return True
    if heads and not _count_heads(cls):
        _LOG.warning("uvicorn's %s has changed: heads still arriving are not bounded.", cls.__qualname__)
        heads = False

    @functools.wraps(made)
    def connection_made(self: Any, transport: Any) -> None:
        if isinstance(getattr(transport, "max_size", None), int):  # asyncio's socket transports
            transport.max_size = min(transport.max_size, READ_BYTES)
        if heads:
            setattr(self, _PEER, None)
            setattr(self, _PENDING, 0)
            setattr(self, _CHARGED, 0)
        made(self, transport)
        if heads:
            setattr(self, _PEER, _peer_key(self))
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
    for module_name, class_name, heads in PROTOCOLS:
        try:
            cls = getattr(importlib.import_module(module_name), class_name)
        except (ImportError, AttributeError):  # httptools is optional: h11 is what runs without it
            continue
        if _patched(cls, heads):
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
