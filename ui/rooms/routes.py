"""The room routes: the student page and the HTTP API students, the projector and the lecturer use.

Mounted beside the live route (``room_routes()`` in ``streamlit_app.py``'s list), at the root and
under the server's base URL path. Rules that must hold, since every route is public:
- Bodies are read up to ``MAX_BODY_BYTES`` (the open request: ``MAX_OPEN_BODY_BYTES``) and parsed
  as JSON; every field is checked in ``ui.rooms.model`` (any type, any size: a 4xx, never a 5xx);
  a join code is cleaned (``clean_code``) before the store sees it.
- The limits are ``ui.rooms.guard``'s, keyed on the client's address (``guard.address_key``) or on
  a student id the room issued and the request proved, shared across replicas through Redis:
  a miss (no such room, an unknown student or key, a wrong control token) spends one of the
  address's misses; an address out of them is refused (429) wherever it is not a member, alike
  whether the room exists, while its members (a student's key, the lecturer's token) carry on;
  a join that takes a seat spends one of the address's seats; adds and undos one of the student's.
- Opening a room needs an open token a session of the app minted (``guard.open_token``) and one
  of the address's opens. Lecturer actions need the room's control token (compared in constant
  time, ``model``), which only the lecturer's session holds; student actions the student's key.
- Answers are JSON (the student page: HTML whose texts are JSON data, never markup); sentences
  are in the request's language.
"""

import json
import time
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ui.plot.theme import CLASS_COLOURS, SYMBOL_GLYPHS
from ui.server.clients import client_address
from ui.text.i18n import LANGUAGES, N_, initial_language, speaking
from ui.text.names import phrased

from . import guard, model
from .protocol import (
    API,
    MAX_BODY_BYTES,
    MAX_OPEN_BODY_BYTES,
    ROOM_ASSETS,
    ROOM_PAGE,
    AddResponse,
    ControlResponse,
    FreezeResponse,
    JoinResponse,
    OpenResponse,
)
from .store import UNREACHABLE, missing, room_store
from .views import SCALES, SHAPES, SNAPSHOTS

TOO_MANY = N_("Too many attempts; wait a minute and try again.")
_HERE = Path(__file__).resolve().parent
ASSETS = {"student.css": "text/css"}  # the page's modules are ui/plot/browser_modules.py's


def client_of(request: Request) -> str:
    """The client's address as the trusted proxies report it (``ui.server.clients``)."""
    return client_address(request.scope)


def _limit_key(request):
    return guard.address_key(client_of(request))


def _miss(client):
    guard.LIMITS.misses.allow(client)


def _refusal(status, sentence, language="en"):
    with speaking(language):
        return JSONResponse({"error": phrased(sentence)}, status_code=status, headers={"Cache-Control": "no-store"})


async def _body(request, limit=MAX_BODY_BYTES):
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise model.RoomError(413, N_("The request was too large."))
    try:
        parsed = json.loads(body)
    except (ValueError, RecursionError):
        parsed = None
    if not isinstance(parsed, dict):
        raise model.RoomError(400, N_("The request was not understood."))
    return parsed


def _language(value):
    return value if isinstance(value, str) and value in LANGUAGES else "en"


async def _in_room(client, code, action, apply=None):
    """``action`` applied to the room ``code`` in the store (or ``apply(code)``, a store's own way
    of doing it); a missing room, or a refused key or token, spends a guess."""
    if not code:
        _miss(client)
        raise model.RoomError(404, N_("There is no room with this code (it may have closed)."))
    try:
        if apply is not None:
            return await run_in_threadpool(apply, code)
        return await run_in_threadpool(room_store().update, code, action)
    except model.RoomError as err:
        if err.status in (403, 404):  # no such room, or not its member: a miss
            _miss(client)
        raise


def _answer(handler):
    """A route from ``handler(request, client, body, exhausted) -> dict``: limits, errors and
    language. A client out of guesses (``exhausted``) is still served in a room it is a member
    of (a student's key, the lecturer's token), and refused alike (429) wherever it is not, so
    what it is told says nothing about which rooms exist; nobody else behind its address (a
    school's one router) is locked out of a room they are in."""

    async def route(request: Request) -> Response:
        client = _limit_key(request)
        language = "en"
        try:
            body = await _body(request, MAX_OPEN_BODY_BYTES if handler is _open else MAX_BODY_BYTES)
            language = _language(body.get("lang"))
            exhausted = handler is not _open and guard.LIMITS.misses.exhausted(client)
            try:
                result = await handler(request, client, body, exhausted)
            except model.RoomError as err:
                if exhausted and err.status in (403, 404):  # no room, or not its member: alike
                    raise model.RoomError(429, TOO_MANY) from None
                raise
        except model.RoomError as err:
            return _refusal(err.status, err.sentence, language)
        except UNREACHABLE:  # the shared store is away (Redis restarting): the page retries
            return _refusal(503, N_("The room is not reachable just now; trying again."), language)
        return JSONResponse(result, headers={"Cache-Control": "no-store"})

    return route


def open_room(query: object, client: str, session: object, now: float) -> tuple[str, str]:
    """(code, token) of a new room of the scene ``query`` (a link's), for the address key
    ``client``: the lecturer's page and the open route both come here. ``session`` must be an
    open token (``guard.open_token``); each open spends one of the address's opens."""
    if not guard.valid_open_token(session, now):
        raise model.RoomError(403, N_("Open the room from the app's page."))
    if not guard.LIMITS.opens.allow(client):
        raise model.RoomError(429, TOO_MANY)
    room, token = model.new_room(query, now)
    return room_store().create(room), token


async def _open(request, client, body, exhausted):
    code, token = await run_in_threadpool(open_room, body.get("scene"), client, body.get("session"), time.time())
    return OpenResponse(code=code, token=token)


async def _join(request, client, body, exhausted):
    code = model.clean_code(body.get("code"))
    store = room_store()
    seen = await run_in_threadpool(store.presence, code) if code else {}

    def action(room: model.Room) -> Any:
        spent: list[bool] = []  # the store may run the action again (Redis, on a conflict): one seat spent

        def take_seat() -> bool:
            if not spent:
                spent.append(guard.LIMITS.seats.allow(client))
            return spent[0]

        now = time.time()
        joined = model.join(
            room, body.get("nick"), body.get("sid"), body.get("key"), now, not exhausted, seen, take_seat
        )
        return joined + (room["version"],)

    sid, key, version = await _in_room(client, code, action)
    return JoinResponse(code=code, sid=sid, key=key, version=version)


def _student_action(code, body, act):
    """``act(room)`` for the student ``body`` names, once their key is proved, under their limit."""
    spent: list[bool] = []

    def action(room: model.Room) -> Any:
        model.check_student(room, body.get("sid"), body.get("key"))
        if not spent:
            spent.append(guard.LIMITS.students.allow(f"{code}/{body['sid']}"))
        if not spent[0]:
            raise model.RoomError(429, model.SLOW_DOWN)
        return act(room), room["version"]

    return action


async def _add(request, client, body, exhausted):
    code = model.clean_code(body.get("code"))
    sid, key, x, y, label, seq = (body.get(name) for name in ("sid", "key", "x", "y", "label", "seq"))
    allow = lambda: guard.LIMITS.students.allow(f"{code}/{body['sid']}")  # noqa: E731
    # The store's own add: in Redis one checked script, never the whole room read and written.
    apply = lambda code: room_store().add(code, sid, key, x, y, label, seq, time.time(), allow)  # noqa: E731
    pid, version = await _in_room(client, code, None, apply)
    return AddResponse(pid=pid, version=version)


async def _undo(request, client, body, exhausted):
    code = model.clean_code(body.get("code"))
    act = lambda room: model.undo(room, body.get("sid"), body.get("key"), time.time())  # noqa: E731
    pid, version = await _in_room(client, code, _student_action(code, body, act))
    return AddResponse(pid=pid, version=version)


async def _control(request, client, body, exhausted):
    code = model.clean_code(body.get("code"))
    sid = body.get("sid")

    def action(room: model.Room) -> Any:
        model.control(room, body.get("token"), body.get("action"), body.get("value"), sid, time.time())
        return room["version"]

    return ControlResponse(version=await _in_room(client, code, action))


async def _freeze(request, client, body, exhausted):
    code = model.clean_code(body.get("code"))

    def action(room: model.Room) -> Any:
        model.check_token(room, body.get("token"))
        return model.frozen_query(room)

    return FreezeResponse(query=await _in_room(client, code, action))


def _since(params):
    """The ``since`` parameter as a version, or None (ASCII digits only: ``"²".isdigit()``)."""
    since = params.get("since", "")
    return int(since) if since.isascii() and since.isdigit() and len(since) <= 18 else None


async def state(request: Request) -> Response:
    """GET ``API/state``: see ``ui.rooms.protocol.StateResponse``; a client out of misses is
    answered only in a room it is a member of (its ``sid``, or the lecturer's ``X-Room-Token``).
    A student's poll notes that they are there (``store.seen``): their seat stays theirs."""
    client = _limit_key(request)
    params = request.query_params
    language = _language(params.get("lang"))
    exhausted = guard.LIMITS.misses.exhausted(client)
    code = model.clean_code(params.get("c"))
    sid = params.get("sid", "")
    store = room_store()
    try:
        version = await run_in_threadpool(store.version, code) if code else None
        if version is None:
            _miss(client)
            raise model.RoomError(429, TOO_MANY) if exhausted else missing()
        if not exhausted and _since(params) == version:
            return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})
        scale = next((v for v in SCALES if params.get("scale") == str(v)), 1.0)  # one of a few: each is cached
        shape = next((v for v in SHAPES if params.get("shape") == v), SHAPES[0])
        load = lambda: store.get(code)  # noqa: E731
        snapshot = await run_in_threadpool(SNAPSHOTS.snapshot, code, version, language, load, scale, shape)
        if snapshot is None:
            raise missing()
        if exhausted and not snapshot.admits(sid, request.headers.get("x-room-token")):
            raise model.RoomError(429, TOO_MANY)
        now = time.time()
        if snapshot.seats(sid) and guard.PRESENCE.due(code, sid, now):  # not ``me``: 500 parts parsed a poll
            await run_in_threadpool(store.seen, code, sid, now)
    except model.RoomError as err:
        return _refusal(err.status, err.sentence, language)
    except UNREACHABLE:
        return _refusal(503, N_("The room is not reachable just now; trying again."), language)
    body = snapshot.body(sid)  # a StateResponse, encoded once per version (views)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


def student_texts() -> dict[str, str]:
    """The student page's sentences (its script holds none), in the speaking language."""
    from ui.text.i18n import _

    return {
        "title": _("Join the class room"),
        "code_label": _("Room code"),
        "nick_label": _("Nickname (optional)"),
        "join": _("Join"),
        "class_label": _("My class"),
        "class_n": _("class {number}"),
        "assigned": _("The lecturer gave you {name}."),
        "hint": _("Tap the plot to add a point of your class."),
        "undo": _("Undo my last point"),
        "mine": _("your points"),
        "count": _("You added {n} of {limit} points."),
        "locked": _("The lecturer has paused adding points."),
        "hidden": _("The boundary is hidden: where do you think it is?"),
        "offline": _("Connection lost; trying again…"),
        "students": _("Students: {n} · points: {points}"),
        "not_drawn": _("The plot could not be drawn: {error}"),
        "method": _("Method: {name}"),
        "closed": _("The lecturer has closed this room."),
        "frozen_link": _("Open the room's points as a scene"),
        "removed": _("The lecturer has removed you from this room."),
    }


def _base():
    from streamlit import config

    base = (config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}" if base else ""


async def student_page(request: Request) -> HTMLResponse:
    """GET ``ROOM_PAGE``: the student page, in the ``lang`` parameter's or the browser's language."""
    from ui.plot.browser_modules import module_url
    from ui.plot.canvas import ensure_plotly_js

    preferred = request.headers.get("accept-language", "")[:200].split(",")[0].split(";")[0]  # "ja-JP,en;q=0.8"
    language = initial_language(request.query_params.get("lang"), preferred)
    with speaking(language):
        texts = student_texts()
    data = {
        "texts": texts,
        "colours": CLASS_COLOURS,
        "glyphs": SYMBOL_GLYPHS,
        "lang": language,
        "base": _base(),
        "plotly": ensure_plotly_js(),
        "api": _base() + API,
    }
    # JSON inside <script type="application/json">: "<" escaped so no text can close the element.
    payload = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    page = (_HERE / "student.html").read_text(encoding="utf-8")
    page = page.replace("{{lang}}", language).replace("{{base}}", _base()).replace("{{data}}", payload)
    page = page.replace("{{module}}", module_url("rooms/student.js"))
    page = page.replace("{{title}}", texts["title"].replace("&", "&amp;").replace("<", "&lt;"))
    return HTMLResponse(page, headers={"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"})


async def asset(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in ASSETS:
        return Response("", status_code=404)
    return Response((_HERE / name).read_text(encoding="utf-8"), media_type=ASSETS[name])


def room_routes() -> list[Route]:
    """The routes ``st.App`` serves beside the page, at the root and under the base URL path."""
    handlers = {"open": _open, "join": _join, "add": _add, "undo": _undo, "control": _control, "freeze": _freeze}
    routes = []
    for prefix in sorted({"", _base()}):
        routes += [Route(f"{prefix}{API}/{name}", _answer(h), methods=["POST"]) for name, h in handlers.items()]
        routes.append(Route(f"{prefix}{API}/state", state, methods=["GET"]))
        routes.append(Route(f"{prefix}{ROOM_PAGE}", student_page, methods=["GET"]))
        routes.append(Route(f"{prefix}{ROOM_ASSETS}/{{name}}", asset, methods=["GET"]))
    return routes
