"""The edge middleware (ui/server/edge.py) in front of a small app, through starlette's TestClient:
bodies under caps and deadlines, the cross-site rules of the app's JSON routes, the per-address
cap on requests under way, and the security headers (ui/server/headers.py)."""

import asyncio
import json
import warnings

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route

with warnings.catch_warnings():  # starlette asks for httpx2 in time; httpx is what PyPI serves here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from ui.server import edge
from ui.server.clients import address_group
from ui.server.edge import EdgeMiddleware, Refusal, RouteRule, read_body, same_origin
from ui.server.headers import PAGE

SEEN = []


async def echo(request: Request) -> JSONResponse:
    body = await request.body()
    SEEN.append(len(body))
    return JSONResponse({"size": len(body)})


async def page(request: Request) -> PlainTextResponse:
    return PlainTextResponse("page")


def app(rules=None):
    rules = rules or [RouteRule("/api/live", 1_000, api=True, in_flight=2), RouteRule("/room", 100, kind=PAGE)]
    routes = [
        Route("/api/live", echo, methods=["POST"]),
        Route("/room", page),
        Route("/", page, methods=["GET", "POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(EdgeMiddleware, rules=rules)])


@pytest.fixture
def client():
    SEEN.clear()
    return TestClient(app(), base_url="http://play.example")


JSON = {"Content-Type": "application/json"}


def test_a_json_post_from_the_apps_own_origin_or_none_is_served(client):
    assert client.post("/api/live", content=b"{}", headers=JSON).json() == {"size": 2}
    own = client.post("/api/live", content=b"{}", headers={**JSON, "Origin": "http://play.example"})
    assert own.status_code == 200
    assert SEEN == [2, 2]


@pytest.mark.parametrize(
    "headers",
    [
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "multipart/form-data; boundary=x"},
        {},
    ],
)
def test_a_post_that_is_not_json_is_refused_unread(client, headers):
    response = client.post("/api/live", content=b"{}", headers=headers)
    assert response.status_code == 415 and response.json()["error"].endswith(".")
    assert SEEN == []


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://play.example.evil.example", "https://x"])
def test_a_post_from_another_origin_is_refused(client, origin):
    response = client.post("/api/live", content=b"{}", headers={**JSON, "Origin": origin})
    assert response.status_code == 403 and SEEN == []


def test_allowed_origins_are_a_setting(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_ALLOWED_ORIGINS", "https://class.example.org, http://other.example:8080/")
    client = TestClient(app(), base_url="http://internal:8501")
    for origin in ("https://class.example.org", "https://class.example.org:443", "http://other.example:8080"):
        assert client.post("/api/live", content=b"{}", headers={**JSON, "Origin": origin}).status_code == 200
    assert (
        client.post("/api/live", content=b"{}", headers={**JSON, "Origin": "http://class.example.org"}).status_code
        == 403
    )


def test_same_origin_compares_hosts_with_default_ports():
    assert same_origin("http://a.example", "a.example:80", frozenset())
    assert same_origin("https://a.example", "a.example:443", frozenset())
    assert same_origin("http://127.0.0.1:8501", "127.0.0.1:8501", frozenset())
    assert not same_origin("http://127.0.0.1:8502", "127.0.0.1:8501", frozenset())
    assert not same_origin("null", "a.example", frozenset()) and not same_origin("http://a.example", "", frozenset())


def test_a_declared_length_over_the_cap_is_refused_without_reading(client):
    response = client.post("/api/live", content=b"x" * 1_001, headers=JSON)
    assert response.status_code == 413 and response.headers["connection"] == "close"
    assert SEEN == []


def test_a_chunked_body_is_counted_while_it_streams(client):
    def chunks():
        for _ in range(5):
            yield b"x" * 300

    response = client.post("/api/live", content=chunks(), headers=JSON)
    assert response.status_code == 413 and SEEN == []
    response = client.post("/api/live", content=iter([b"{", b"}"]), headers=JSON)
    assert response.status_code == 200 and response.json() == {"size": 2}


@pytest.mark.parametrize("length", ["abc", "-1", "1e3", "99999999999999999999"])
def test_a_malformed_length_is_refused(length):
    messages = []

    async def send(message):
        messages.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/",
        "client": ("192.0.2.1", 1),
        "headers": [(b"content-length", length.encode())],
    }
    asyncio.run(EdgeMiddleware(page)(scope, receive, send))  # page is never reached
    assert messages[0]["status"] == 400


def test_other_routes_have_the_default_cap(client):
    assert client.post("/", content=b"x" * 10).status_code == 200
    assert client.post("/", content=b"x" * (edge.DEFAULT_MAX_BODY + 1)).status_code == 413


def test_a_body_not_complete_in_time_is_refused():
    async def stalled():
        await asyncio.sleep(3600)

    with pytest.raises(Refusal) as refused:
        asyncio.run(read_body(stalled, 1_000, 0.05))
    assert refused.value.status == 408 and refused.value.close


def test_a_body_arriving_in_parts_is_joined_once():
    parts = iter([b"ab", b"", b"cd"])

    async def receive():
        part = next(parts, None)
        return {"type": "http.request", "body": part or b"", "more_body": part is not None}

    assert asyncio.run(read_body(receive, 1_000, 5)) == b"abcd"


def test_an_address_has_a_few_requests_under_way_and_is_refused_at_once_past_them():
    rule = RouteRule("/api/live", 1_000, api=True, in_flight=2)
    client = TestClient(app([rule]), base_url="http://play.example")
    assert rule.slots.acquire("testclient") or True  # TestClient's peer is not an address: "unknown"
    rule.slots.release("testclient")
    rule.slots.acquire("unknown")
    rule.slots.acquire("unknown")
    try:
        response = client.post("/api/live", content=b"{}", headers=JSON)
        assert response.status_code == 429 and SEEN == []
        other = TestClient(client.app, base_url="http://play.example", client=("192.0.2.9", 1))
        assert other.post("/api/live", content=b"{}", headers=JSON).status_code == 200
    finally:
        rule.slots.release("unknown")
        rule.slots.release("unknown")


def test_the_process_holds_a_bounded_amount_of_bodies(monkeypatch):
    monkeypatch.setattr(edge, "MAX_BUFFERED_BYTES", 500)
    client = TestClient(app(), base_url="http://play.example")
    assert client.post("/api/live", content=b"x" * 600, headers=JSON).status_code == 503
    assert client.post("/api/live", content=b"{}", headers=JSON).status_code == 200


def test_bodies_count_what_has_arrived_per_address_and_an_ipv6_address_by_its_64():
    buffered = edge.BufferedBytes(1_000, 300)
    assert buffered.fits("a", 300) and not buffered.fits("a", 301)  # a declared size reserves nothing
    assert buffered.take("a", 200) and not buffered.take("a", 101) and buffered.take("b", 300)
    buffered.release("a", 200)
    assert buffered.held == 300 and buffered.held_by("a") == 0 and buffered.take("a", 300)
    chunked = iter([b"x" * 200, b"x" * 200])

    async def receive():
        part = next(chunked, None)
        return {"type": "http.request", "body": part or b"", "more_body": part is not None}

    with pytest.raises(Refusal) as refused:  # the second chunk does not fit: refused as it arrives
        asyncio.run(read_body(receive, 1_000, 5, lambda n: buffered.take("c", n)))
    assert refused.value.status == 503 and buffered.held_by("c") == 200
    assert address_group("2001:db8::1") == address_group("2001:db8::ffff:1") == "2001:db8::/64"
    assert address_group("192.0.2.1") == "192.0.2.1"


def test_one_address_holds_a_bounded_share_of_the_bodies(monkeypatch):
    monkeypatch.setattr(edge, "MAX_ADDRESS_BYTES", 500)
    client = TestClient(app(), base_url="http://play.example")
    assert client.post("/api/live", content=b"x" * 600, headers=JSON).status_code == 503
    assert client.post("/api/live", content=b"x" * 400, headers=JSON).status_code == 200


def test_every_kind_of_route_carries_its_security_headers(client):
    api = client.post("/api/live", content=b"{}", headers=JSON).headers
    assert "default-src 'none'" in api["content-security-policy"] and api["x-frame-options"] == "DENY"
    room = client.get("/room").headers
    csp = room["content-security-policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'self'" in csp and "object-src 'none'" in csp
    streamlit = client.get("/").headers
    assert streamlit["content-security-policy"] == "frame-ancestors 'self'"
    for headers in (api, room, streamlit):
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "same-origin"
    refused = client.post("/api/live", content=b"{}", headers={"Content-Type": "text/plain"}).headers
    assert refused["x-content-type-options"] == "nosniff"


def test_a_refusal_speaks_the_browsers_language(client):
    response = client.post(
        "/api/live", content=b"{}", headers={"Content-Type": "text/plain", "Accept-Language": "ja-JP,en"}
    )
    assert json.loads(response.text)["error"] == "リクエストは JSON で送る必要があります。"


class FakeTransport:
    def __init__(self, protocol=None):
        self.protocol, self.closed = protocol, False

    def is_closing(self):
        return self.closed

    def get_protocol(self):
        return self.protocol

    def close(self):
        self.closed = True


class FakeProtocol:
    def __init__(self):
        self.cycle = None
        self.transport = FakeTransport(self)


def test_the_watchdog_closes_a_connection_that_began_no_request_since_its_deadline_was_set():
    from ui.server.watchdog import _close_if_idle

    silent = FakeProtocol()
    _close_if_idle(silent, None)  # no request's headers since it opened
    assert silent.transport.closed
    busy = FakeProtocol()
    busy.cycle = object()  # a request began (its body is the edge's business)
    _close_if_idle(busy, None)
    assert not busy.transport.closed
    upgraded = FakeProtocol()
    upgraded.transport.protocol = object()  # a websocket now owns the connection
    _close_if_idle(upgraded, None)
    assert not upgraded.transport.closed
