"""The longest link the app makes opens through the shipped nginx configuration
(deploy/nginx/playground.conf, Debian's nginx in the foreground as tests/test_replicas.py runs it,
one replica behind it), sent whole and in 1,400-byte segments; a head over the bound is refused
by nginx with a 4xx, never a 5xx. nginx's default header buffers (4 of 8 KiB) answered the
longest link 414."""

import pytest

from bench.server import streamlit
from tests.browser import free_port
from tests.long_link import longest_query
from tests.test_edge_server import BROWSER_HEADERS, segmented_exchange
from tests.test_replicas import BASE, start_nginx
from ui.server.watchdog import HEAD_BYTES

pytestmark = pytest.mark.browser  # with test_replicas.py: needs Debian's nginx


def exchange(port, data, segment=None):
    """Everything nginx sent back for ``data`` (sent whole, or in TCP segments of ``segment``
    bytes with a short pause after each, as over a real network)."""
    return segmented_exchange(f"http://127.0.0.1:{port}", data, segment or len(data))


@pytest.fixture(scope="module")
def nginx_port(tmp_path_factory):
    with streamlit(args=(f"--server.baseUrlPath={BASE}",)) as replica:
        replica_port = int(replica.url.split(":")[2].split("/")[0])
        port = free_port()
        nginx, _ = start_nginx(tmp_path_factory.mktemp("nginx"), port, [replica_port])
        try:
            yield port
        finally:
            nginx.terminate()
            nginx.wait(10)


def request(target):
    head = f"GET {target} HTTP/1.1\r\n{BROWSER_HEADERS}".replace("Connection: keep-alive", "Connection: close")
    return head.encode()


@pytest.mark.parametrize("segment", [None, 1_400], ids=["whole", "segments"])
def test_the_longest_link_opens_through_nginx(nginx_port, segment):
    query = longest_query()
    assert len(query) > 70_000
    received = exchange(nginx_port, request(f"/{BASE}/?{query}"), segment)
    assert received.startswith(b"HTTP/1.1 200"), received[:300]
    assert b"<html" in received.lower()


@pytest.mark.parametrize("segment", [None, 1_400], ids=["whole", "segments"])
def test_a_head_over_the_bound_is_refused_with_a_4xx(nginx_port, segment):
    received = exchange(nginx_port, request(f"/{BASE}/?p=" + "A" * HEAD_BYTES), segment)
    assert received[:9] == b"HTTP/1.1 " and received[9:10] == b"4", received[:300]
