"""The server's sockets send small answers at once (TCP_NODELAY), for the live route and the page.

Streamlit binds its listening socket itself, without naming the TCP protocol, so asyncio does not
set TCP_NODELAY on the connections it accepts (it does so only for sockets whose protocol is
IPPROTO_TCP). The server writes a response's headers and body separately; with Nagle's algorithm
the body then waits until the client acknowledges the headers, and a client delays that
acknowledgement by up to 40 ms: every live answer on a kept-alive connection waited that long,
many times the route's own work (BENCHMARKS.md, "Drag", has the figures).

On Linux an accepted connection inherits TCP_NODELAY from its listening socket, so setting it on
the process's listening TCP sockets once, at start-up (``lifespan``), covers every connection:
the live route's answers and the page's websocket alike. Only public interfaces are used: the
process's file descriptors and ``socket`` options; a descriptor that is not a listening TCP
socket is left alone.
"""

import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

TCP_FAMILIES = (socket.AF_INET, socket.AF_INET6)


def _is_listening_tcp(sock):
    try:
        return (
            sock.family in TCP_FAMILIES
            and sock.type == socket.SOCK_STREAM
            and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
        )
    except OSError:
        return False


def no_delay_on_listening_sockets(fd_dir: str = "/proc/self/fd") -> int:
    """Set TCP_NODELAY on every listening TCP socket of this process; returns how many. Elsewhere
    than Linux (no ``fd_dir``) nothing is done."""
    changed = 0
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return 0
    for name in names:
        try:
            sock = socket.socket(fileno=os.dup(int(name)))  # a second handle on the same socket
        except (OSError, ValueError):
            continue
        with sock:
            if _is_listening_tcp(sock):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                changed += 1
    return changed


@asynccontextmanager
async def lifespan(app: object) -> AsyncIterator[None]:
    """``st.App``'s start-up hook: the listening socket is bound and listening by then, and no
    connection has been accepted yet; connections stuck before their headers get a deadline too
    (``ui.server.watchdog``)."""
    from ui.server import watchdog

    no_delay_on_listening_sockets()
    watchdog.install()
    yield
