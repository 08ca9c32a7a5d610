"""What a visitor sends, checked before any use: the one reader of the app's JSON routes' bodies
(the live route, ``ui.server.live_request``; the class rooms, ``ui.rooms.protocol``) and the checks
of the texts in them, and the guard that keeps an unexpected error a short answer.

Rules that must hold:
- A body is read by ``parsed_json`` only: at most the route's bytes (else 413), UTF-8 (a lone
  surrogate's bytes are not UTF-8), JSON with no integer literal longer than
  ``MAX_INTEGER_DIGITS`` digits, no ``NaN``/``Infinity``, nested at most ``MAX_DEPTH`` deep, and
  every string in it (object keys too) a text: no lone surrogate (``"\\ud800"`` is one), no control
  character (C0, DEL, C1: NUL and the like), else 400. Whatever passes can be encoded, hashed,
  compared, logged or sent to Redis without an error.
- A field is then read by its kind: ``text`` (a string of at most ``limit`` characters, or
  absent), ``secret`` (a token, key or id the server made: ``SECRET_ALPHABET`` only, at most its
  length, else "" which matches nothing), ``choice`` (one of a fixed set). A value of the wrong
  type, length or alphabet never reaches ``str.encode``, ``hmac.compare_digest`` or a store.
- ``guarded(route)``: an error nobody expected inside a route is a 500 with a short JSON sentence
  (never a traceback, never the visitor's text); the log gets one line, not a traceback, so a
  flood of such requests cannot fill it. The answer passes the edge like any other, so it
  carries the security headers (``ui.server.headers``).
"""

import json
import logging
import re
import traceback
from collections.abc import Awaitable, Callable, Collection
from typing import TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ui.text.i18n import N_, _, initial_language, speaking

_LOG = logging.getLogger(__name__)

MAX_INTEGER_DIGITS = 18
MAX_DEPTH = 16  # a scene's query (2), a live edit's ids (4); nothing the pages send is deeper
SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"  # secrets.token_urlsafe's
_SECRET = re.compile(r"[A-Za-z0-9_-]+")
# Lone surrogates, C0 controls, DEL and C1 controls: nothing a page types or encodes holds one.
_NOT_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
FAILED = N_("The server could not answer this request; try again in a moment.")

Choice = TypeVar("Choice")


class Unreadable(Exception):
    """A body that is not a request at all: ``status`` 413 (too large) or 400; each route says so
    in its own sentence."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _integer(literal: str) -> int:
    if len(literal.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError("integer too long")
    return int(literal)


def _constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def is_text(value: str) -> bool:
    """Whether a string holds no lone surrogate and no control character."""
    return _NOT_TEXT.search(value) is None


def _checked(value: object) -> None:
    """Every string of a parsed JSON value (keys too) is a text, nested at most ``MAX_DEPTH``."""
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if not is_text(item):
                raise Unreadable(400)
        elif isinstance(item, dict | list):
            if depth >= MAX_DEPTH:
                raise Unreadable(400)
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not is_text(key):
                        raise Unreadable(400)
                    if isinstance(inner, str | dict | list):
                        pending.append((inner, depth + 1))
            else:
                pending.extend((inner, depth + 1) for inner in item if isinstance(inner, str | dict | list))


def parsed_json(body: bytes, limit: int) -> object:
    """``body`` as JSON under the module's rules (``Unreadable`` otherwise)."""
    if len(body) > limit:
        raise Unreadable(413)
    try:
        value = json.loads(body.decode("utf-8"), parse_int=_integer, parse_constant=_constant)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise Unreadable(400) from None
    _checked(value)
    return value


def text(value: object, limit: int) -> str | None:
    """A string field of at most ``limit`` characters ("" when absent or null), or None when it
    is of another type or longer (the caller refuses it)."""
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > limit or not is_text(value):
        return None
    return value


def secret(value: object, length: int = 64) -> str:
    """A secret the server made (a token, a key, an id: ``SECRET_ALPHABET``, at most ``length``
    characters), or "" for anything else: the empty secret matches nothing, so a malformed one
    is refused exactly like a wrong one."""
    if isinstance(value, str) and len(value) <= length and value.isascii() and _SECRET.fullmatch(value):
        return value
    return ""


def choice(value: object, options: Collection[Choice], default: Choice) -> Choice:
    """``value`` when it is one of ``options`` (compared as is: ``True`` is not ``1``), else ``default``."""
    for option in options:
        if type(value) is type(option) and value == option:
            return option
    return default


def request_language(request: Request, stated: object = None) -> str:
    """The language a request asks for: ``stated`` (a body's ``lang``), else the query's ``lang``,
    else the browser's ``Accept-Language``, else English."""
    preferred = request.headers.get("accept-language", "")[:200].split(",")[0].split(";")[0]
    return initial_language(stated if isinstance(stated, str) else request.query_params.get("lang"), preferred)


Route = Callable[[Request], Awaitable[Response]]


def guarded(route: Route) -> Route:
    """``route``, answering an error nobody expected with a short 500 (see the module's rules)."""

    async def answer(request: Request) -> Response:
        try:
            return await route(request)
        except Exception as err:  # noqa: BLE001  (defence in depth: every expected refusal is a 4xx)
            where = traceback.extract_tb(err.__traceback__)[-1]
            _LOG.error("%s %s: %s at %s:%s", request.method, request.url.path, type(err).__name__, where[0], where[1])
            try:
                language = request_language(request)
            except Exception:  # noqa: BLE001  (a request whose very headers fail)
                language = "en"
            with speaking(language):
                sentence = _(FAILED)
            return JSONResponse({"error": sentence}, status_code=500, headers={"Cache-Control": "no-store"})

    return answer


__all__ = ["FAILED", "Unreadable", "choice", "guarded", "is_text", "parsed_json", "request_language", "secret", "text"]
