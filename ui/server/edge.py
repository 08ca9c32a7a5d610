"""The HTTP edge: one ASGI middleware every HTTP request of the server passes before any route
(the app's own routes and Streamlit's alike), whatever the ASGI server does underneath.

Rules that must hold:
- A request body is read here, never by a route from the socket: at most the route's cap
  (``RouteRule.max_body``; a declared ``Content-Length`` over it is refused at once, 413, without
  reading a byte; a chunked body is counted while it streams), within a deadline
  (``body_deadline``: a body not complete in time is refused, 408), into a list of chunks joined
  once. The route then receives the whole body from memory. Every refusal of a request whose body
  is not read to its end says ``Connection: close``, so the server closes the connection and no
  unread bytes stay behind it.
- Bodies held at once are bounded: per address (``RouteRule.in_flight`` requests under way on a
  rule's routes, 429 at once, never queued) and by the bytes they hold: a body counts only the
  bytes that have arrived, as they arrive (a declared ``Content-Length`` reserves nothing), against
  ``MAX_BUFFERED_BYTES`` for the whole process and ``MAX_ADDRESS_BYTES`` for one address (an IPv6
  address counted by its /64), 503 past either; a declared length that would not fit is refused at
  once. So clients that send headers and no body hold nothing, and filling the process takes
  ``MAX_BUFFERED_BYTES / MAX_ADDRESS_BYTES`` addresses each sending its share within the deadline.
- The app's own JSON API (``RouteRule.api``): a POST is ``application/json`` only (415) and comes
  from the app's own origin or none (403): the request's ``Host``, or an origin listed in
  ``PLAYGROUND_ALLOWED_ORIGINS`` (comma-separated, e.g. ``https://class.example.org``, for a
  proxy that rewrites the host). A request without ``Origin`` (curl, a script) is not a
  cross-site request and passes; its limits are the same.
- Every response we pass carries the headers of ``ui.server.headers`` for its route's kind.
- Limits are keyed on ``ui.server.clients.client_address``: the client cannot choose the key.
- Websocket and lifespan traffic passes untouched.
"""

import asyncio
import functools
import json
import os
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ui.server.clients import address_group, client_address
from ui.server.headers import API, PAGE, STREAMLIT, security_headers
from ui.server.limits import InFlight
from ui.server.watchdog import trim_soon
from ui.text.i18n import N_, _, initial_language, speaking

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

DEFAULT_MAX_BODY = 64 * 1024  # any route without a rule of its own (Streamlit's page takes no body)
MAX_BUFFERED_BYTES = 64 * 1024 * 1024  # bytes of bodies held at once by the whole process ...
MAX_ADDRESS_BYTES = MAX_BUFFERED_BYTES // 8  # ... and by one address: 8 MiB, 3 uploads of 2 MB at once and more
BODY_SECONDS = 5.0  # a body must be complete this long after its headers ...
BODY_BYTES_PER_SECOND = 64 * 1024  # ... plus a second for every this many bytes it declares ...
MAX_BODY_SECONDS = 30.0  # ... and never longer than this
DEFAULT_IN_FLIGHT = 8  # requests with a body one address may have under way on the other routes
TOTAL_IN_FLIGHT = 512  # requests with a body the process reads at once
JSON_TYPE = "application/json"

TOO_LARGE = N_("The request was too large.")
TOO_SLOW = N_("The request's body did not arrive in time.")
TOO_MANY = N_("Too many requests at once from your address; try again in a moment.")
BUSY = N_("The server is busy; try again in a moment.")
NOT_JSON = N_("The request must be sent as JSON.")
FOREIGN = N_("Requests from other sites are not accepted.")
MALFORMED = N_("The request was not understood.")


@dataclass(frozen=True)
class RouteRule:
    """Limits of the routes at ``path`` and below it (under the base URL path as well)."""

    path: str
    max_body: int | Callable[[], int]  # bytes, or a function read at each request (a setting)
    api: bool = False  # the app's own JSON API: cross-site rules, per-address cap on every request
    in_flight: int = DEFAULT_IN_FLIGHT  # requests one address may have under way on these routes
    kind: str = API  # which security headers (ui.server.headers)
    slots: InFlight = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "slots", InFlight(self.in_flight, TOTAL_IN_FLIGHT))

    def matches(self, path: str) -> bool:
        return path == self.path or path.startswith(self.path.rstrip("/") + "/")

    def cap(self) -> int:
        return self.max_body() if callable(self.max_body) else self.max_body


DEFAULT_RULE = RouteRule("/", DEFAULT_MAX_BODY, kind=STREAMLIT)


def streamlit_upload_cap() -> int:
    """Streamlit's upload limit (``server.maxUploadSize`` MB) plus the 1 MB framing margin its
    own upload route allows."""
    from streamlit import config

    return (int(config.get_option("server.maxUploadSize")) + 1) * 1024 * 1024


def streamlit_rules() -> list[RouteRule]:
    """Streamlit's own route that takes a body: file uploads (a few at once per address)."""
    return [RouteRule("/_stcore/upload_file", streamlit_upload_cap, in_flight=4, kind=STREAMLIT)]


def allowed_origins() -> frozenset[str]:
    """``PLAYGROUND_ALLOWED_ORIGINS`` as normalised origins (scheme://host[:port], lower case)."""
    found = set()
    for entry in os.environ.get("PLAYGROUND_ALLOWED_ORIGINS", "").split(","):
        entry = entry.strip().rstrip("/").lower()
        if "://" in entry:
            found.add(_normal_origin(entry))
    return frozenset(found)


def _normal_origin(origin: str) -> str:
    """``scheme://host[:port]`` with the scheme's default port left out."""
    scheme, _, netloc = origin.partition("://")
    for default in ((":80", "http"), (":443", "https")):
        if netloc.endswith(default[0]) and scheme == default[1]:
            netloc = netloc[: -len(default[0])]
    return f"{scheme}://{netloc}"


def _host_of(origin: str) -> str:
    netloc = origin.partition("://")[2]
    return netloc[:-3] if netloc.endswith(":80") else netloc[:-4] if netloc.endswith(":443") else netloc


def same_origin(origin: str, host: str, extra: frozenset[str]) -> bool:
    """Whether a request's ``Origin`` is the app's own: its host is the request's ``Host`` (the
    scheme is the proxy's business), or it is one of ``extra``."""
    origin = origin.strip().lower()
    if "://" not in origin:  # "null" (a sandboxed frame, a file) and anything odd
        return False
    if _normal_origin(origin) in extra:
        return True
    host = host.strip().lower()
    host = host[:-3] if host.endswith(":80") else host[:-4] if host.endswith(":443") else host
    return bool(host) and _host_of(origin) == host


def _header(scope: Scope, name: bytes) -> str | None:
    """The value of header ``name`` (lower case), or None; several: the last."""
    found = None
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            found = value.decode("latin-1")
    return found


def body_deadline(declared: int | None, cap: int) -> float:
    """Seconds a body of ``declared`` bytes (a chunked one: ``cap``) may take to arrive."""
    size = cap if declared is None else declared
    return min(MAX_BODY_SECONDS, BODY_SECONDS + size / BODY_BYTES_PER_SECOND)


class Refusal(Exception):
    def __init__(self, status: int, sentence: str, close: bool = True) -> None:
        super().__init__(sentence)
        self.status, self.sentence, self.close = status, sentence, close


class BufferedBytes:
    """Bytes of bodies held at once, in the process and per key: taken as they arrive, given back
    when the request ends (every structure bounded: a key holding nothing is forgotten)."""

    def __init__(self, limit: int, per_key: int) -> None:
        self.limit, self.per_key, self.held = limit, per_key, 0
        self._by_key: dict[str, int] = {}

    def fits(self, key: str, size: int) -> bool:
        """Whether ``size`` more bytes for ``key`` stay within both caps now."""
        return self.held + size <= self.limit and self._by_key.get(key, 0) + size <= self.per_key

    def take(self, key: str, size: int) -> bool:
        if not self.fits(key, size):
            return False
        self.held += size
        self._by_key[key] = self._by_key.get(key, 0) + size
        return True

    def release(self, key: str, size: int) -> None:
        self.held = max(0, self.held - size)
        left = self._by_key.get(key, 0) - size
        if left > 0:
            self._by_key[key] = left
        else:
            self._by_key.pop(key, None)

    def held_by(self, key: str) -> int:
        return self._by_key.get(key, 0)


class EdgeMiddleware:
    """See the module's rules. ``rules``: the app's routes with limits of their own (the first
    that matches a path wins; others get ``DEFAULT_RULE``)."""

    def __init__(self, app: ASGIApp, rules: Sequence[RouteRule] = ()) -> None:
        self.app = app
        self.rules = list(rules) + streamlit_rules()
        self.buffered = BufferedBytes(MAX_BUFFERED_BYTES, MAX_ADDRESS_BYTES)
        self.extra_origins = allowed_origins()
        self.stats = {"refused": 0, "timed_out": 0}

    def rule_for(self, path: str) -> RouteRule:
        path = _without_base(path)
        return next((rule for rule in self.rules if rule.matches(path)), DEFAULT_RULE)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rule = self.rule_for(scope.get("path", "/"))
        send = _with_headers(send, security_headers(rule.kind))
        try:
            declared, has_body = _declared_length(scope)
        except Refusal as refusal:
            await self._refuse(scope, send, refusal)
            return
        client = client_address(scope)
        try:
            if rule.api:
                self._cross_site(scope, rule)
            if has_body and declared is not None and declared > rule.cap():
                raise Refusal(413, TOO_LARGE)
        except Refusal as refusal:
            await self._refuse(scope, send, Refusal(refusal.status, refusal.sentence, close=has_body))
            return
        if not has_body and not rule.api:
            await self.app(scope, receive, send)
            return
        if not rule.slots.acquire(client):
            await self._refuse(scope, send, Refusal(429, TOO_MANY, close=has_body))
            return
        try:
            if has_body:
                await self._with_body(scope, receive, send, rule, declared, client)
            else:
                await self.app(scope, receive, send)
        finally:
            rule.slots.release(client)

    def _cross_site(self, scope: Scope, rule: RouteRule) -> None:
        if scope.get("method") != "POST":
            return
        content_type = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if content_type != JSON_TYPE:
            raise Refusal(415, NOT_JSON)
        origin = _header(scope, b"origin")
        if origin is not None and not same_origin(origin, _request_host(scope), self.extra_origins):
            raise Refusal(403, FOREIGN)

    async def _with_body(
        self, scope: Scope, receive: Receive, send: Send, rule: RouteRule, declared: int | None, client: str
    ) -> None:
        cap = rule.cap()
        key = address_group(client)
        held = 0

        def take(size: int) -> bool:
            nonlocal held
            if not self.buffered.take(key, size):
                return False
            held += size
            return True

        try:
            try:
                if declared is not None and not self.buffered.fits(key, declared):
                    raise Refusal(503, BUSY)  # it could not be held whole: refused before it is sent
                body = await read_body(receive, cap, body_deadline(declared, cap), take)
            except Refusal as refusal:
                await self._refuse(scope, send, refusal)
                return
            if body is None:  # the client went away
                return
            await self.app(scope, _replay(body, receive), send)
        finally:
            self.buffered.release(key, held)

    async def _refuse(self, scope: Scope, send: Send, refusal: Refusal) -> None:
        trim_soon()  # refusals come in bursts: what their connections held goes back to the system
        self.stats["refused"] += 1
        self.stats["timed_out"] += refusal.status == 408
        language = initial_language(None, (_header(scope, b"accept-language") or "")[:200].split(",")[0])
        with speaking(language):
            text = _(refusal.sentence)
        payload = json.dumps({"error": text}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
            (b"cache-control", b"no-store"),
        ]
        if refusal.close:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})


async def read_body(
    receive: Receive, cap: int, seconds: float, take: Callable[[int], bool] | None = None
) -> bytes | None:
    """The whole body, read within ``seconds`` and at most ``cap`` bytes (else ``Refusal``, 408 or
    413); None when the client disconnects first. ``take(n)``: asked for each chunk's bytes as it
    arrives, before it is kept; False refuses the body (503)."""
    chunks: list[bytes] = []
    size = 0
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise Refusal(408, TOO_SLOW)
        try:
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            raise Refusal(408, TOO_SLOW) from None
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > cap:
            raise Refusal(413, TOO_LARGE)
        if chunk and take is not None and not take(len(chunk)):
            raise Refusal(503, BUSY)
        if chunk:
            chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body once, then waits on the real channel (a disconnect)."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _declared_length(scope: Scope) -> tuple[int | None, bool]:
    """(declared Content-Length or None, whether the request has a body)."""
    length = _header(scope, b"content-length")
    chunked = _header(scope, b"transfer-encoding") is not None
    if length is None:
        return None, chunked
    text = length.strip()
    if not text.isascii() or not text.isdigit() or len(text) > 15:
        raise Refusal(400, MALFORMED)
    declared = int(text)
    return declared, declared > 0 or chunked


def _request_host(scope: Scope) -> str:
    return _header(scope, b"host") or ""


@functools.cache
def _base_path() -> str:
    """The server's base URL path (a start-up option: read once)."""
    from streamlit import config

    return (config.get_option("server.baseUrlPath") or "").strip("/")


def _without_base(path: str) -> str:
    """``path`` without the server's base URL path (the app's routes are served under it too)."""
    base = _base_path()
    prefix = f"/{base}"
    if base and (path == prefix or path.startswith(prefix + "/")):
        return path[len(prefix) :] or "/"
    return path


def _with_headers(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    """``send`` adding ``extra`` headers to the response's start, each unless the route set it."""

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers") or [])
            present = {name.lower() for name, _ in headers}
            headers += [(name, value) for name, value in extra if name not in present]
            message = {**message, "headers": headers}
        await send(message)

    return sending


def app_rules(
    live_path: str, live_cap: int, room_api: str, room_cap: int, room_open_cap: int, room_page: str
) -> list[RouteRule]:
    """The app's own routes' limits (``streamlit_app.py`` passes its routes' numbers)."""
    return [
        RouteRule(live_path, live_cap, api=True, in_flight=4),
        RouteRule(f"{room_api}/open", room_open_cap, api=True, in_flight=8),
        RouteRule(room_api, room_cap, api=True, in_flight=32),  # a classroom behind one address
        RouteRule(room_page, DEFAULT_MAX_BODY, kind=PAGE),
    ]


__all__ = ["ASGIApp", "EdgeMiddleware", "RouteRule", "app_rules", "read_body", "same_origin"]
