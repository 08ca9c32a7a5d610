"""ui.server.watchdog's bounds on heads still arriving, in a real uvicorn server (h11, as under
Streamlit) run in this process with the watchdog installed, so the budget itself can be read: the
process's bound refuses 503 past it whoever sends, one peer's bound 431, and after every
connection is refused, completed or closed the budget is back at 0 with no key left behind.

No timed assertion: a state is polled with a generous bound, which fails instead of hanging.
"""

import select
import socket
import threading
import time
from contextlib import ExitStack, contextmanager

import pytest
import uvicorn

from tests.browser import free_port
from ui.server import watchdog
from ui.server.watchdog import READ_BYTES, HeadBudget

BOUND = 60.0
HALF_HEAD = b"GET /?p=" + b"A" * (2 * READ_BYTES - 8)  # 32 KiB of a request line: 16 KiB past the free part


async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


@contextmanager
def server():
    watchdog.install()
    port = free_port()
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, http="h11", log_level="error"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_for(lambda: running.started)
    try:
        yield port
    finally:
        running.should_exit = True
        thread.join(BOUND)


def wait_for(condition):
    deadline = time.monotonic() + BOUND
    while not condition():
        assert time.monotonic() < deadline, "the state was not reached"
        time.sleep(0.01)


def half_heads(stack, port, address, count, budget):
    """``count`` connections from ``address`` sending ``HALF_HEAD`` and then nothing, one after
    another: each is either held (the budget grew by its 16 KiB) or answered before the next."""
    socks = []
    for _ in range(count):
        sock = socket.socket()
        stack.enter_context(sock)
        sock.settimeout(BOUND)
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", port))
        before = budget.held
        sock.sendall(HALF_HEAD)
        wait_for(lambda s=sock, b=before: budget.held == b + READ_BYTES or select.select([s], [], [], 0)[0])
        socks.append(sock)
    return socks


def answered(sock):
    """The status the server answered, once the connection is closed or answered (None: none)."""
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        return "reset"
    return int(received[9:12]) if received else None


@pytest.fixture
def budget(monkeypatch):
    heads = HeadBudget(1024 * 1024, 512 * 1024)  # 64 and 32 half heads
    monkeypatch.setattr(watchdog, "HEADS", heads)
    return heads


def test_past_the_process_bound_a_head_is_refused_503_and_everything_is_given_back(budget, monkeypatch):
    monkeypatch.setattr(watchdog, "TRUSTED_PROXIES", [])  # every loopback address is a peer of its own
    with server() as port, ExitStack() as stack:
        socks = [sock for a in range(2, 6) for sock in half_heads(stack, port, f"127.0.0.{a}", 16, budget)]
        assert budget.held == 1024 * 1024  # 64 held, 16 KiB each
        assert set(budget.by_peer.values()) == {256 * 1024}  # 16 each: under the peer's 32
        extra = half_heads(stack, port, "127.0.0.6", 1, budget)[0]
        assert answered(extra) in (503, "reset")
        assert budget.held == 1024 * 1024 and "127.0.0.6" not in budget.by_peer
        for sock in socks[:10]:  # ten heads complete: their bytes are given back
            sock.sendall(b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert answered(sock) == 200
        wait_for(lambda: budget.held == 1024 * 1024 - 10 * 16 * 1024)
        for sock in socks[10:]:  # the others are closed by their clients
            sock.close()
        wait_for(lambda: budget.held == 0)
        assert budget.by_peer == {}


def test_past_a_peers_bound_a_head_is_refused_431_and_the_peer_key_goes_away(budget, monkeypatch):
    monkeypatch.setattr(watchdog, "TRUSTED_PROXIES", [])
    with server() as port, ExitStack() as stack:
        socks = half_heads(stack, port, "127.0.0.2", 40, budget)
        assert budget.held == 512 * 1024 and budget.by_peer == {"127.0.0.2": 512 * 1024}
        statuses = [answered(sock) for sock in socks[32:]]  # answered at once: no wait for the deadline
        assert statuses.count(431) + statuses.count("reset") == 8 and 431 in statuses
        other = half_heads(stack, port, "127.0.0.3", 1, budget)[0]
        assert budget.by_peer.get("127.0.0.3") == 16 * 1024  # another peer still has its own
        for sock in socks[:32] + [other]:
            sock.close()
        wait_for(lambda: budget.held == 0)
        assert budget.by_peer == {}


def test_a_trusted_proxy_is_held_to_the_process_bound_only(budget):
    with server() as port, ExitStack() as stack:  # loopback: the default trusted proxies
        socks = half_heads(stack, port, "127.0.0.1", 40, budget)
        assert budget.held == 40 * 16 * 1024  # past one peer's 32
        assert budget.by_peer == {}
        for sock in socks:
            sock.close()
        wait_for(lambda: budget.held == 0)
