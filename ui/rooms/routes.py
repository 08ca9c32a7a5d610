"""The room routes: the student page and the HTTP API students, the projector and the lecturer use.

Mounted beside the live route (``room_routes()`` in ``streamlit_app.py``'s list), at the root and
under the server's base URL path. Rules that must hold, since every route is public:
- Bodies are read up to ``MAX_BODY_BYTES`` (the open request: ``MAX_OPEN_BODY_BYTES``) as every
  route's body is (``ui.server.visitor_input``) and each field once by its kind
  (``protocol.request_fields``: codes cleaned, secrets in the server's alphabet, texts of their
  type and length), before any use: any value of any type or size is a 4xx, never a 5xx; an error
  nobody expected is still a short 500 (``visitor_input.guarded``), never a traceback.
- The limits are ``ui.rooms.guard``'s, keyed on the client's address (``guard.address_key``) or on
  a student id the room issued and the request proved, shared across replicas through Redis.
  A request about a room takes one of the address's misses in one atomic step before the room is
  looked up, and gives it back unless it missed (no such room, an unknown student or key, a wrong
  control token, a malformed request: ``MISSES``); an address out of misses is answered where it
  proves a member (a student's key, the lecturer's token: they carry on) and everywhere else
  with the same 429, byte for byte, whatever the code and whatever the request holds (``_about_room``);
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
from ui.server.limits import TokenBuckets
from ui.server.visitor_input import FAILED, Unreadable, guarded, parsed_json, request_language
from ui.text.i18n import N_, initial_language, speaking
from ui.text.names import phrased

from . import guard, model, results
from .protocol import (
    API,
    MAX_BODY_BYTES,
    MAX_OPEN_BODY_BYTES,
    ROOM_ASSETS,
    ROOM_PAGE,
    SECRETS,
    AddResponse,
    BadRequest,
    ControlResponse,
    FreezeResponse,
    JoinResponse,
    OpenResponse,
    PredictResponse,
    request_fields,
)
from .store import room_store
from .store_base import UNREACHABLE, missing
from .views import SCALES, SHAPES, SNAPSHOTS

TOO_MANY = N_("Too many attempts; wait a minute and try again.")
NOT_UNDERSTOOD = N_("The request was not understood.")
UNREACHABLE_SENTENCE = N_("The room is not reachable just now; trying again.")
MISSES = (400, 403, 404, 413)  # a request about a room that named none, none of its members, or nothing readable
_HERE = Path(__file__).resolve().parent
ASSETS = {"student.css": "text/css"}  # the page's modules are ui/plot/browser_modules.py's


def client_of(request: Request) -> str:
    """The client's address as the trusted proxies report it (``ui.server.clients``)."""
    return client_address(request.scope)


def _limit_key(request):
    return guard.address_key(client_of(request))


def _refusal(status, sentence, language="en"):
    with speaking(language):
        return JSONResponse({"error": phrased(sentence)}, status_code=status, headers={"Cache-Control": "no-store"})


def _json(answer: object) -> JSONResponse:
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def _body(request, limit=MAX_BODY_BYTES):
    """The request's body as a JSON object, read as every route's body is (``ui.server.visitor_input``)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise model.RoomError(413, N_("The request was too large."))
    try:
        parsed = parsed_json(body, limit)
    except Unreadable as err:
        sentence = N_("The request was too large.") if err.status == 413 else NOT_UNDERSTOOD
        raise model.RoomError(err.status, sentence) from None
    if not isinstance(parsed, dict):
        raise model.RoomError(400, NOT_UNDERSTOOD)
    return parsed


async def _fields(request, limit=MAX_BODY_BYTES):
    """A POST's fields (``protocol.request_fields``), or a 400."""
    try:
        return request_fields(await _body(request, limit))
    except BadRequest:
        raise model.RoomError(400, NOT_UNDERSTOOD) from None


async def _poll_fields(request):
    """A poll's fields: the query's ``c``, ``sid`` and ``lang``, the lecturer's ``X-Room-Token``."""
    params = request.query_params
    query = {"code": params.get("c"), "sid": params.get("sid"), "lang": params.get("lang")}
    return request_fields(query | {"token": request.headers.get("x-room-token")})


class Asking:
    """A request about a room as it is answered: whether the address had a miss to spend
    (``granted``: one was taken, before the room was looked up) and whether the request proved
    a member's (``proved``: a student's key, the lecturer's token, a seated student's poll)."""

    def __init__(self, granted: bool) -> None:
        self.granted, self.member = granted, False

    def proved(self) -> None:
        self.member = True


async def _misses(method, client):
    """``method(client)`` of the misses' buckets, off the event loop when it asks Redis."""
    misses = guard.LIMITS.misses
    if isinstance(misses, TokenBuckets):
        return getattr(misses, method)(client)
    return await run_in_threadpool(getattr(misses, method), client)


def _about_room(handler, read):
    """A route about a room from ``handler(request, client, fields, asking) -> Response``.

    The address's miss is checked and spent in one atomic step before anything is looked up
    (the buckets' ``allow``: a lock in memory, one script in Redis), and given back unless the
    request missed (``MISSES``: no such room, not its member, nothing readable), so concurrent
    probes never get more real answers than the misses they hold. An address out of misses is
    answered only where it proves a member (its students and the lecturer carry on); anywhere
    else every answer is the same 429, whatever the code names and whatever the request holds,
    and a request that claims no membership is not even looked up."""

    async def route(request: Request) -> Response:
        client = _limit_key(request)
        language = request_language(request)
        asking = Asking(bool(await _misses("allow", client)))
        answer: Response | None = None
        failure: model.RoomError | None = None
        try:
            fields = await read(request)
            language = fields["lang"] or language
            if not asking.granted and not any(fields[name] for name in SECRETS):
                raise model.RoomError(429, TOO_MANY)
            answer = await handler(request, client, fields, asking)
        except model.RoomError as err:
            failure = err
        except UNREACHABLE:  # the shared store is away (Redis restarting): the page retries
            failure = model.RoomError(503, UNREACHABLE_SENTENCE)
        missed = failure is not None and failure.status in MISSES and not asking.member
        if asking.granted and not missed:
            await _misses("refund", client)
        if not asking.granted and not asking.member:
            failure = model.RoomError(429, TOO_MANY)  # alike whatever the room: nothing to learn
        if failure is not None or answer is None:
            failure = failure or model.RoomError(500, FAILED)  # (a handler answers or raises)
            return _refusal(failure.status, failure.sentence, language)
        return answer

    return guarded(route)


async def _in_room(code, action=None, apply=None):
    """``action`` applied to the room ``code`` in the store (or ``apply(code)``, a store's own way
    of doing it); a missing room is a 404."""
    if not code:
        raise missing()
    if apply is not None:
        return await run_in_threadpool(apply, code)
    return await run_in_threadpool(room_store().update, code, action)


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


async def _open(request: Request) -> Response:
    """POST ``API/open``: not about a room (no miss is spent); limited by the address's opens."""
    client = _limit_key(request)
    language = request_language(request)
    try:
        fields = await _fields(request, MAX_OPEN_BODY_BYTES)
        language = fields["lang"] or language
        code, token = await run_in_threadpool(open_room, fields["scene"], client, fields["session"], time.time())
    except model.RoomError as err:
        return _refusal(err.status, err.sentence, language)
    except UNREACHABLE:
        return _refusal(503, UNREACHABLE_SENTENCE, language)
    return _json(OpenResponse(code=code, token=token))


async def _join(request, client, fields, asking):
    code = fields["code"]
    store = room_store()
    seen = await run_in_threadpool(store.presence, code) if code else {}

    def action(room: model.Room) -> Any:
        spent: list[bool] = []  # the store may run the action again (Redis, on a conflict): one seat spent

        def take_seat() -> bool:
            if not spent:
                spent.append(guard.LIMITS.seats.allow(client))
            return spent[0]

        now = time.time()
        sid, key, nick = fields["sid"], fields["key"], fields["nick"]
        joined = model.join(room, nick, sid, key, now, asking.granted, seen, take_seat)
        return joined + (room["version"],)

    sid, key, version = await _in_room(code, action)
    if fields["sid"] and sid == fields["sid"]:  # a student coming back with their key
        asking.proved()
    return _json(JoinResponse(code=code, sid=sid, key=key, version=version))


def _student_action(code, fields, asking, act):
    """``act(room)`` for the student ``fields`` name, once their key is proved, under their limit."""
    spent: list[bool] = []

    def action(room: model.Room) -> Any:
        model.check_student(room, fields["sid"], fields["key"])
        asking.proved()
        if not spent:
            spent.append(guard.LIMITS.students.allow(f"{code}/{fields['sid']}"))
        if not spent[0]:
            raise model.RoomError(429, model.SLOW_DOWN)
        return act(room), room["version"]

    return action


async def _add(request, client, fields, asking):
    code = fields["code"]
    sid, key, x, y, label, seq = (fields[name] for name in ("sid", "key", "x", "y", "label", "seq"))

    def allow() -> bool:  # asked once the student's key is proved (both stores)
        asking.proved()
        return guard.LIMITS.students.allow(f"{code}/{sid}")

    # The store's own add: in Redis one checked script, never the whole room read and written.
    apply = lambda code: room_store().add(code, sid, key, x, y, label, seq, time.time(), allow)  # noqa: E731
    pid, version = await _in_room(code, apply=apply)
    return _json(AddResponse(pid=pid, version=version))


async def _undo(request, client, fields, asking):
    code = fields["code"]
    act = lambda room: model.undo(room, fields["sid"], fields["key"], time.time())  # noqa: E731
    pid, version = await _in_room(code, _student_action(code, fields, asking, act))
    return _json(AddResponse(pid=pid, version=version))


async def _predict(request, client, fields, asking):
    """POST ``API/predict``: a student's line in the round taking lines (``ui.rooms.rounds``)."""
    code, sid = fields["code"], fields["sid"]

    def allow() -> bool:  # asked once the student's key is proved (both stores)
        asking.proved()
        return guard.LIMITS.students.allow(f"{code}/{sid}")

    apply = lambda code: room_store().predict(code, sid, fields["key"], fields["line"], allow)  # noqa: E731
    round_id, line = await _in_room(code, apply=apply)
    return _json(PredictResponse(round=round_id, line=line))


async def _control(request, client, fields, asking):
    def action(room: model.Room) -> Any:
        model.check_token(room, fields["token"])
        asking.proved()
        model.control(
            room, fields["token"], fields["action"], fields["value"], fields["sid"], time.time(), fields["question"]
        )
        return room["version"]

    return _json(ControlResponse(version=await _in_room(fields["code"], action)))


async def _freeze(request, client, fields, asking):
    def action(room: model.Room) -> Any:
        model.check_token(room, fields["token"])
        asking.proved()
        return model.frozen_query(room)

    return _json(FreezeResponse(query=await _in_room(fields["code"], action)))


def _since(params):
    """The ``since`` parameter as a version, or None (ASCII digits only: ``"²".isdigit()``)."""
    since = params.get("since", "")
    return int(since) if since.isascii() and since.isdigit() and len(since) <= 18 else None


async def _state(request, client, fields, asking):
    """GET ``API/state``: see ``ui.rooms.protocol.StateResponse``; an address out of misses is
    answered only in a room it is a member of (its ``sid``, or the lecturer's ``X-Room-Token``).
    A student's poll notes that they are there (``store.seen``): their seat stays theirs."""
    params = request.query_params
    code, sid, language = fields["code"], fields["sid"], fields["lang"] or "en"
    store = room_store()
    version = await run_in_threadpool(store.version, code) if code else None
    if version is None:
        raise missing()
    if asking.granted and _since(params) == version and not fields["token"]:
        return _json({"version": version})  # the lecturer's page is answered below: a round's count
    scale = next((v for v in SCALES if params.get("scale") == str(v)), 1.0)  # one of a few: each is cached
    shape = next((v for v in SHAPES if params.get("shape") == v), SHAPES[0])
    load = lambda: store.get(code)  # noqa: E731
    snapshot = await run_in_threadpool(SNAPSHOTS.snapshot, code, version, language, load, scale, shape)
    if snapshot is None:
        raise missing()
    if snapshot.admits(sid, fields["token"]):
        asking.proved()
    elif not asking.granted:
        raise model.RoomError(429, TOO_MANY)
    lecturer = model.matches(fields["token"], snapshot.shared.token)
    full = _since(params) != version
    part = None
    if snapshot.shared.round is not None and (lecturer or full):  # a part to give: off the event loop
        part = await run_in_threadpool(_round_part, store, code, snapshot, sid, lecturer, full, language)
    if not full:
        return _json({"version": version} | ({"round": part} if part is not None and lecturer else {}))
    now = time.time()
    if snapshot.seats(sid) and guard.PRESENCE.due(code, sid, now):  # not ``me``: 500 parts parsed a poll
        await run_in_threadpool(store.seen, code, sid, now)
    body = snapshot.body(sid, results.encoded(part) if part is not None else b"")  # encoded once per version (views)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


def _round_part(store, code, snapshot, sid, lecturer, full, language):
    """The asker's part of a prediction round (``ui.rooms.results``), or None: no round, or not a member."""
    shared = snapshot.shared
    if shared.round is None:
        return None
    with speaking(language):
        if lecturer:
            return results.ROUND_PARTS.lecturer(store, code, shared, full)
        if full and snapshot.seats(sid):
            return results.ROUND_PARTS.student(store, code, shared, sid)
    return None


def student_texts() -> dict[str, str]:
    """The student page's sentences (its script holds none), in the speaking language."""
    from ui.text.i18n import _

    return {
        "title": _("Join the class room"),
        "joined": _("In the class room {code}"),
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
        "predict": _("Draw the boundary you expect: tap two points on it (drag an end to move it), then send it."),
        "predict_again": _(
            "Predict again, after the discussion: move your line if you changed your mind, then send it."
        ),
        "round_show": _("The projector shows the class's lines. The fit is still hidden."),
        "round_reveal": _("The fit is revealed: your line and the method's boundary."),
        "send": _("Send my line"),
        "send_again": _("Send again (replaces it)"),
        "clear_line": _("Start again"),
        "line_sent": _("Sent. You can move it and send again until the lecturer moves on."),
        "score": _(
            "Your line puts {accuracy} of the points on their class's side; it is {angle} from the fit's boundary."
        ),
        "score_no_angle": _(
            "Your line puts {accuracy} of the points on their class's side "
            "(the fit has no single straight boundary to measure an angle to)."
        ),
        "no_line": _("You did not send a line in this round."),
        "my_line": _("my line"),
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
    handlers = {"join": _join, "add": _add, "undo": _undo, "predict": _predict, "control": _control, "freeze": _freeze}
    routes = []
    for prefix in sorted({"", _base()}):
        routes.append(Route(f"{prefix}{API}/open", guarded(_open), methods=["POST"]))
        for name, handler in handlers.items():
            routes.append(Route(f"{prefix}{API}/{name}", _about_room(handler, _fields), methods=["POST"]))
        routes.append(Route(f"{prefix}{API}/state", _about_room(_state, _poll_fields), methods=["GET"]))
        routes.append(Route(f"{prefix}{ROOM_PAGE}", guarded(student_page), methods=["GET"]))
        routes.append(Route(f"{prefix}{ROOM_ASSETS}/{{name}}", guarded(asset), methods=["GET"]))
    return routes
