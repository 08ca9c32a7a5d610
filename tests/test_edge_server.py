"""The HTTP edge against a real ``streamlit run`` of the app (uvicorn underneath): half-sent bodies
refused and their connections closed, an over-cap length refused unread, connections silent
before their headers closed, huge numbers 4xx, cross-site POSTs refused, security headers on every
route, the live rate limit keyed on the address and not on the body, declared sizes holding no
room in the body buffer, the longest link the app makes served whole or in segments (a longer
head refused).

No timed assertion: each socket read has a generous bound so a hang fails instead of blocking.
"""

import json
import re
import socket
import time
import urllib.error
import urllib.request
from contextlib import ExitStack

import pytest

from bench.server import streamlit
from playground.link import encode_scene
from tests.long_link import longest_query
from ui.rooms import guard
from ui.rooms.protocol import API as ROOM_API
from ui.server.watchdog import HEAD_BYTES, READ_BYTES
from ui.session.state import default_scene

BOUND = 60.0  # seconds a read may wait before the test fails (the edge's deadlines are far shorter)


@pytest.fixture(scope="module")
def server():
    with streamlit() as running:
        yield running.url


def port_of(url):
    return int(url.rsplit(":", 1)[1])


def raw_exchange(url, data, bound=BOUND):
    """(everything the server sent, whether it closed the connection) for ``data`` sent raw."""
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=bound) as sock:
        if data:
            sock.sendall(data)
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
            return received, True
        except ConnectionResetError:
            return received, True
        except TimeoutError:
            return received, False


def post(url, path, body, headers=None):
    """(status, headers, parsed JSON or text) of a POST."""
    request = urllib.request.Request(
        url + path, data=body, headers={"Content-Type": "application/json", **(headers or {})}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=BOUND) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def live_body(**fields):
    return json.dumps({"scene": encode_scene(default_scene()), "edits": [], "language": "en", **fields}).encode()


def test_a_half_sent_body_is_refused_and_its_connection_closed(server):
    head = b"POST /api/live HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000\r\n\r\n"
    received, closed = raw_exchange(server, head + b"x" * 20_000)
    assert received.startswith(b"HTTP/1.1 408") and b"connection: close" in received.lower()
    assert closed


def test_a_length_over_the_cap_is_refused_before_the_body_is_sent(server):
    for path in ("/api/live", "/api/room/join", "/", "/_stcore/upload_file/s/f"):
        method = "PUT" if "upload" in path else "POST"
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n"
        )
        received, closed = raw_exchange(server, head.encode())  # not a byte of the body
        assert received.startswith(b"HTTP/1.1 413"), (path, received[:80])
        assert closed


def test_a_connection_silent_before_its_headers_is_closed(server):
    received, closed = raw_exchange(server, b"")
    assert received == b"" and closed
    received, closed = raw_exchange(server, b"GET / HTTP/1.1\r\nHost: x\r\n")  # headers never finished
    assert received == b"" and closed


@pytest.mark.parametrize(
    "fields",
    [
        {"add_as": 10**400},
        {"scale": 10**400},
        {"edits": [{"type": "add", "x": 10**400, "y": 0}]},
        {"edits": [{"type": "move", "ids": [1], "dx": 10**400, "dy": 0}]},
        {"edits": [{"type": "remove", "ids": [10**400]}]},
        {"edits": [{"type": "remove", "ids": [1e308, -1e308]}]},
    ],
)
def test_huge_numbers_are_refused_with_a_sentence(server, fields):
    status, _, body = post(server, "/api/live", live_body(**fields), {"X-Forwarded-For": "198.51.100.200"})
    assert 400 <= status < 500 and json.loads(body)["error"].endswith(".")


@pytest.mark.parametrize("path", ["/api/live", "/api/room/open", "/api/room/join"])
def test_cross_site_posts_are_refused(server, path):
    status, _, _ = post(server, path, b"{}", {"Content-Type": "text/plain"})
    assert status == 415
    status, _, _ = post(server, path, b"{}", {"Origin": "http://evil.example"})
    assert status == 403


def test_every_route_sends_its_security_headers(server):
    with urllib.request.urlopen(server + "/room", timeout=BOUND) as response:  # the page names its module
        (module,) = re.findall(r'<script type="module" src="([^"]+)"></script>', response.read().decode())
    for path in ("/", "/room", "/room/assets/student.css", module, "/api/room/state?c=AAAAAAAA"):
        try:
            with urllib.request.urlopen(server + path, timeout=BOUND) as response:
                headers = response.headers
        except urllib.error.HTTPError as err:
            headers = err.headers
        assert headers["X-Content-Type-Options"] == "nosniff", path
        assert "frame-ancestors" in headers["Content-Security-Policy"], path
        assert headers["X-Frame-Options"] in ("DENY", "SAMEORIGIN") and headers["Referrer-Policy"], path
    with urllib.request.urlopen(server + "/room", timeout=BOUND) as response:
        policy = response.headers["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "default-src 'self'" in policy
    # The page and its websocket still pass the edge.
    with urllib.request.urlopen(server + "/", timeout=BOUND) as response:
        assert response.status == 200 and b"<html" in response.read().lower()
    key = b"dGhlIHNhbXBsZSBub25jZQ=="
    upgrade = (
        b"GET /_stcore/stream HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", port_of(server)), timeout=BOUND) as sock:
        sock.sendall(upgrade)
        assert sock.recv(4096).startswith(b"HTTP/1.1 101")


def test_the_live_rate_limit_counts_the_address_whatever_the_body_says(server):
    pad = "x" * 120_000  # a body of 120 KB spends 8 tokens: the burst is gone in a few requests
    bodies = [json.dumps({"scene": {}, "edits": [5], "client": f"page {i}", "pad": pad}).encode() for i in range(40)]
    answers = [post(server, "/api/live", body, {"X-Forwarded-For": "198.51.100.1"}) for body in bodies]
    limited = [json.loads(body)["error"] for status, _, body in answers if status == 429]
    assert "Too many live updates; slow down a little." in limited  # a new "client" string made no new allowance
    status, _, _ = post(server, "/api/live", bodies[0], {"X-Forwarded-For": "198.51.100.2"})
    assert status == 400  # another address behind the same proxy is not limited by the first one


def test_uploads_declaring_big_sizes_from_a_few_addresses_refuse_nobody_else(server):
    """6 addresses x 4 uploads declaring 1/24 of the process's body buffer each (what the server
    reserved from ``Content-Length`` before a byte arrived: the whole buffer), each sending half its
    body and then nothing: another address's live request, room opening and join are still served,
    and the uploads are still held (not refused)."""
    declared = 2_796_202  # x 24 = 64 MiB - 16 bytes (edge.MAX_BUFFERED_BYTES)
    port = port_of(server)
    with ExitStack() as stack:
        held = []
        for a in range(6):
            address = f"203.0.113.{a + 1}"
            for _ in range(4):
                sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), timeout=BOUND))
                head = (
                    f"PUT /_stcore/upload_file/s{a}/f HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: {address}\r\n"
                    f"Content-Type: multipart/form-data; boundary=b\r\nContent-Length: {declared}\r\n\r\n"
                )
                sock.sendall(head.encode() + b"x" * (declared // 2))
                held.append(sock)
        for a in range(6):  # the address's 4 uploads are under way (the edge took them): a 5th is refused
            fifth = (
                f"PUT /_stcore/upload_file/s{a}/g HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.{a + 1}\r\n"
                "Content-Length: 1\r\n\r\n"
            )
            received, _ = raw_exchange(server, fifth.encode())
            assert received.startswith(b"HTTP/1.1 429"), received[:80]
        visitor = {"X-Forwarded-For": "198.51.100.77"}
        status, _, body = post(server, "/api/live", live_body(), visitor)
        assert status == 200, body[:200]
        opened = {"scene": encode_scene(default_scene()), "session": guard.open_token()}
        status, _, body = post(server, f"{ROOM_API}/open", json.dumps(opened).encode(), visitor)
        assert status == 200, body[:200]
        code = json.loads(body)["code"]
        student = {"X-Forwarded-For": "198.51.100.78"}
        status, _, body = post(server, f"{ROOM_API}/join", json.dumps({"code": code, "nick": "Ada"}).encode(), student)
        assert status == 200 and json.loads(body)["sid"], body[:200]
        for sock in held:  # nothing answered them: they were held, not refused
            sock.setblocking(False)
            with pytest.raises(BlockingIOError):
                sock.recv(1)


BROWSER_HEADERS = (  # what Chromium sends with a page's address besides it
    "Host: x\r\nConnection: keep-alive\r\nUpgrade-Insecure-Requests: 1\r\n"
    "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/140.0.0.0 Safari/537.36\r\n"
    "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r\n"
    "Accept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: ja,en;q=0.9\r\n"
    "Cookie: _streamlit_xsrf=2|0a1b2c3d|0123456789abcdef0123456789abcdef|1764650000\r\n\r\n"
)


def segmented_exchange(url, data, segment=1_400):
    """``raw_exchange`` with ``data`` sent in TCP segments of ``segment`` bytes, a short pause after
    each (each reaches the server as a read of its own, as over a real network)."""
    with socket.create_connection(("127.0.0.1", port_of(url)), timeout=BOUND) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            for start in range(0, len(data), segment):
                sock.sendall(data[start : start + segment])
                time.sleep(0.002)  # pacing the segments, not waiting for a state
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the end: what it answered is below
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:
            pass
        return received


@pytest.mark.parametrize("segmented", [False, True], ids=["whole", "segments"])
def test_the_longest_link_the_app_makes_opens_sent_whole_or_in_segments(server, segmented):
    query = longest_query()
    assert len(query) > 70_000
    request = f"GET /?{query} HTTP/1.1\r\n{BROWSER_HEADERS}".replace("Connection: keep-alive", "Connection: close")
    data = request.encode()
    received = segmented_exchange(server, data) if segmented else raw_exchange(server, data)[0]
    assert received.startswith(b"HTTP/1.1 200"), received[:200]
    assert b"<html" in received.lower()


def test_a_head_longer_than_the_cap_is_refused(server):
    assert 100_000 + len(BROWSER_HEADERS) < HEAD_BYTES <= 160 * 1024  # the link reader's longest; bounded
    query = "p=" + "A" * (HEAD_BYTES + READ_BYTES)
    received = segmented_exchange(server, f"GET /?{query} HTTP/1.1\r\n{BROWSER_HEADERS}".encode(), 16_000)
    assert received.startswith(b"HTTP/1.1 400"), received[:200]


# Heads still arriving: bytes past the first READ_BYTES of each count against a budget per peer
# (ui.server.watchdog.MAX_PEER_HEAD_BYTES) and for the process. The server below trusts only
# 127.0.0.1 as a proxy, so clients bound to 127.0.0.2, 127.0.0.3 ... are distinct untrusted peers.
TRUSTED_ONLY = "127.0.0.1/32"
HALF_HEAD = b"GET /?p=" + b"A" * (2 * READ_BYTES - 8)  # 32 KiB of a request line, never finished


@pytest.fixture(scope="module")
def peers_server():
    with streamlit(env={"PLAYGROUND_TRUSTED_PROXIES": TRUSTED_ONLY}) as running:
        yield running.url


def connect_from(url, address):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(BOUND)
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port_of(url)))
    return sock


def hold_half_heads(stack, url, address, count):
    """``count`` connections from ``address``, each sending ``HALF_HEAD`` and then nothing."""
    held = []
    for _ in range(count):
        sock = stack.enter_context(connect_from(url, address))
        try:
            sock.sendall(HALF_HEAD)
        except (BrokenPipeError, ConnectionResetError):
            pass
        held.append(sock)
    return held


def outcomes(socks):
    """Per connection what the server did: "refused" (it answered 431 with ``Connection: close``,
    or reset it unread), or "held" (it kept it until the header deadline closed it, silently)."""
    found = []
    for sock in socks:
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except ConnectionResetError:
            found.append("refused")
            continue
        if received:
            assert received.startswith(b"HTTP/1.1 431") and b"connection: close" in received.lower(), received[:200]
            found.append("refused")
        else:
            found.append("held")
    return found


def longest_link_from(url, address, segmented):
    query = longest_query()
    data = f"GET /?{query} HTTP/1.1\r\n{BROWSER_HEADERS}".replace("Connection: keep-alive", "Connection: close")
    with connect_from(url, address) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        step = 1_400 if segmented else len(data)
        for start in range(0, len(data), step):
            sock.sendall(data.encode()[start : start + step])
            if segmented:
                time.sleep(0.002)  # pacing the segments, not waiting for a state
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def test_one_address_holding_half_sent_heads_is_bounded_and_others_still_open_the_longest_link(peers_server):
    """300 connections from one address, each 32 KiB of a head and then nothing: the address holds
    at most MAX_PEER_HEAD_BYTES past each head's first 16 KiB (256 of them here); the rest are
    refused 431 at once. Meanwhile another address's longest link opens, whole and in segments,
    and the address is still at its bound. Once the held ones are closed (the header deadline),
    the address's budget is whole again: as many are held a second time (nothing leaked)."""
    from ui.server.watchdog import MAX_PEER_HEAD_BYTES

    fits = MAX_PEER_HEAD_BYTES // (len(HALF_HEAD) - READ_BYTES)
    assert fits == 256
    for round_ in range(2):
        with ExitStack() as stack:
            socks = hold_half_heads(stack, peers_server, "127.0.0.2", 300)
            for segmented in (False, True):
                received = longest_link_from(peers_server, "127.0.0.3", segmented)
                assert received.startswith(b"HTTP/1.1 200"), (round_, segmented, received[:200])
            (probe,) = hold_half_heads(stack, peers_server, "127.0.0.2", 1)
            assert outcomes([probe]) == ["refused"]  # the attacker still held its bound meanwhile
            found = outcomes(socks)
        assert fits - 1 <= found.count("held") <= fits, (round_, found.count("held"))


def test_a_trusted_proxy_is_not_bounded_as_one_address(peers_server):
    """Behind a proxy every visitor's head arrives from the proxy's address: it is not held to one
    address's budget (only the process's), and the longest link still opens through it."""
    with ExitStack() as stack:
        socks = hold_half_heads(stack, peers_server, "127.0.0.1", 300)
        assert longest_link_from(peers_server, "127.0.0.1", True).startswith(b"HTTP/1.1 200")
        assert outcomes(socks) == ["held"] * 300
