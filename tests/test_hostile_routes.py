"""Every field of every route, hostile (issue 44): lone surrogates, NUL and other controls, bidi
controls, non-ASCII text in secrets, 400-digit numbers, NaN, deep nesting, wrong types, huge
strings, and bodies that are not UTF-8 or not JSON, each sent in turn in each field of an
otherwise valid request (a real room, a real student, the real token) to the room routes on both
stores (memory and a real Redis) and to the live route, through the edge as ``streamlit_app.py``
mounts it. No answer is a 5xx; every refusal is the short JSON error with the security headers.
And an error nobody expected inside a route is a short 500 with the headers, never a traceback.

The allowances are made large (a setting: the limits' rates and bursts) so that the thousands of
requests of one address reach the code behind the limits instead of its 429.
"""

import json
import logging
import warnings

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware

from playground.link import encode_scene
from ui.rooms import guard, model, protocol, routes, store, views
from ui.rooms.protocol import API
from ui.server import live_request, live_route
from ui.server.edge import EdgeMiddleware, app_rules
from ui.server.limits import InFlight, TokenBuckets
from ui.server.live_budget import TOO_HEAVY
from ui.session.state import default_scene
from ui.text.i18n import LANGUAGES, speaking

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


class Raw(str):
    """A JSON text sent as it is in a field's place (what ``json.dumps`` cannot write)."""


DEEP = 40
HOSTILE = [
    "\ud800",
    "\udfff",
    "a\udc80b",
    "\ud83d",  # half of an emoji's pair
    "\x00",
    "ann\x00",
    "\x1b[31m",
    "\x7f\x85",
    "\u202e",
    "\u2066x\u2069",
    "\u200b\ufeff",
    "\u00e9",
    "é" * 40,
    "\uffff",
    "\U0001f600",
    "",
    " ",
    "x" * 5_000,
    "<script>alert(1)</script>",
    "{limit}",
    "%s%n",
    "../../etc/passwd",
    "9" * 400,
    Raw("9" * 400),
    Raw("-" + "9" * 400),
    Raw("1e400"),
    Raw("NaN"),
    Raw("-Infinity"),
    1e308,
    -1e308,
    5e-324,
    2**53 + 1,
    2**63,
    -1,
    0,
    True,
    None,
    [],
    {},
    ["\ud800"],
    {"\ud800": 1},
    {"$gt": ""},
    [[[[[[[[1]]]]]]]],
    json.loads("[" * DEEP + "]" * DEEP),
    Raw("[" * 5_000 + "]" * 5_000),
    Raw('{"a":' * 3_000 + "1" + "}" * 3_000),
]
ID = [repr(v)[:24] for v in HOSTILE]
# Bodies that are not a request at all.
BODIES = [
    b"",
    b"null",
    b"[]",
    b'"\\ud800"',
    b"not json",
    b'{"code": "\xed\xa0\x80"}',  # a surrogate's bytes: not UTF-8
    b'{"code": "\xff"}',
    '{"code": "ABCDEFGH"}'.encode("utf-16"),
    b"\x00" * 100,
    b"{" * 10_000,
]

HEADERS = {"Content-Type": "application/json"}
LIMITS = guard.Limits(lambda _name, rate, _burst: TokenBuckets(rate, 1e9, clock=lambda: 0.0))


def encoded(body):
    """The JSON text of ``body``, ``Raw`` values written as they are."""
    raws = {}

    def mark(value):
        if isinstance(value, Raw):
            raws[f"@raw{len(raws)}@"] = str(value)
            return f"@raw{len(raws) - 1}@"
        if isinstance(value, dict):
            return {key: mark(inner) for key, inner in value.items()}
        return value

    text = json.dumps(mark(body))  # ensure_ascii: a lone surrogate travels as "\ud800"
    for marker, raw in raws.items():
        text = text.replace(f'"{marker}"', raw)
    return text.encode()


def edge_app():
    """The app's routes behind the edge, as ``streamlit_app.py`` mounts them (Starlette's own
    error middleware outermost, as ``st.App`` has it)."""
    rules = app_rules(
        live_route.LIVE_PATH,
        live_route.MAX_BODY_BYTES,
        protocol.API,
        protocol.MAX_BODY_BYTES,
        protocol.MAX_OPEN_BODY_BYTES,
        protocol.ROOM_PAGE,
    )
    return Starlette(
        routes=live_route.live_routes() + routes.room_routes(), middleware=[Middleware(EdgeMiddleware, rules=rules)]
    )


def assert_refusal_or_answer(response, what):
    """No 5xx; a refusal is a short JSON sentence with the API's security headers."""
    assert response.status_code < 500, (what, response.status_code, response.text[:300])
    assert_headers(response, what)
    if response.status_code >= 400:
        assert_short_error(response, what)


def assert_headers(response, what):
    headers = response.headers
    assert headers.get("x-content-type-options") == "nosniff", what
    assert "default-src 'none'" in headers.get("content-security-policy", ""), what
    assert headers.get("x-frame-options") == "DENY", what


def assert_short_error(response, what):
    assert response.headers.get("content-type", "").startswith("application/json"), (what, response.text[:200])
    answer = response.json()
    assert list(answer) == ["error"] and isinstance(answer["error"], str), (what, answer)
    assert 0 < len(answer["error"]) < 200 and "Traceback" not in response.text, (what, answer)


@pytest.fixture(params=["memory", "redis"])
def client(request, redis_url, monkeypatch):
    kind = store.MemoryStore() if request.param == "memory" else store.RedisStore(redis_url)
    monkeypatch.setattr(store, "_STORE", kind)
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(routes, "SNAPSHOTS", views.SNAPSHOTS)
    monkeypatch.setattr(guard, "LIMITS", LIMITS)
    LIMITS.reset()
    monkeypatch.setattr(guard, "PRESENCE", guard.Presence())
    return TestClient(edge_app(), raise_server_exceptions=False)


def post(client, name, body):
    return client.post(f"{API}/{name}", content=encoded(body), headers=HEADERS)


def room(client):
    """(code, token, student sid, student key) of a new room whose students may add 200 points."""
    answer = post(client, "open", {"scene": encode_scene(default_scene()), "session": guard.open_token()}).json()
    code, token = answer["code"], answer["token"]
    assert post(client, "control", {"code": code, "token": token, "action": "limit", "value": 200}).status_code == 200
    joined = post(client, "join", {"code": code, "nick": "ann"}).json()
    return code, token, joined["sid"], joined["key"]


def fuzzed(client, name, base):
    """``base`` posted to route ``name`` with each field in turn holding each hostile value, and
    with a field that is not the route's; then the bodies that are no request."""
    fields = list(base) + ["unknown"]
    for field in fields:
        for value in HOSTILE:
            body = dict(base, **{field: value})
            if name == "add":
                body["seq"] = body.get("seq") if field == "seq" else fuzzed.seq
                fuzzed.seq += 1
            assert_refusal_or_answer(post(client, name, body), (name, field, value))
    for raw in BODIES:
        response = client.post(f"{API}/{name}", content=raw, headers=HEADERS)
        assert_refusal_or_answer(response, (name, raw[:40]))
        assert response.status_code >= 400


fuzzed.seq = 0


def test_every_field_of_the_student_routes(client):
    code, token, sid, key = room(client)
    fuzzed(client, "join", {"code": code, "nick": "bob", "sid": sid, "key": key, "lang": "ja"})
    fuzzed(client, "join", {"code": code, "nick": "bob", "lang": "zh"})
    add = {"code": code, "sid": sid, "key": key, "x": 0.5, "y": 0.5, "label": 0, "seq": 0, "lang": "en"}
    fuzzed(client, "add", add)
    fuzzed(client, "undo", {"code": code, "sid": sid, "key": key, "lang": "ja"})


def test_every_field_of_a_prediction(client):
    code, token, sid, key = room(client)
    assert (
        post(client, "control", {"code": code, "token": token, "action": "round", "value": "predict"}).status_code
        == 200
    )
    fuzzed(client, "predict", {"code": code, "sid": sid, "key": key, "line": [0.0, -1.0, 0.5, 1.0], "lang": "zh"})


CONTROL_VALUES = {
    "lock": True,
    "hide": False,
    "assign": 1,
    "limit": 30,
    "classes": 3,
    "remove_student": None,
    "expel": False,
    "door": False,
    "clear": None,
    "method": "logistic",
    "round": "predict",
}


@pytest.mark.parametrize("action", list(model.CONTROLS))
def test_every_field_of_every_lecturer_action(client, action):
    assert set(CONTROL_VALUES) == set(model.CONTROLS)
    code, token, sid, _key = room(client)
    body = {"code": code, "token": token, "action": action, "value": CONTROL_VALUES[action], "lang": "zh"}
    if action in ("assign", "remove_student", "expel"):
        body["sid"] = sid
    if action == "round":
        body["question"] = "fig4_4"
    fuzzed(client, "control", body)


def test_every_field_of_the_freeze(client):
    code, token, _sid, _key = room(client)
    fuzzed(client, "freeze", {"code": code, "token": token, "lang": "en"})


def test_every_field_of_the_open_route_and_its_scene(client):
    scene = encode_scene(default_scene())
    fuzzed(client, "open", {"scene": scene, "session": guard.open_token(), "lang": "ja"})
    for name in ("v", "p", "w", "seed", "m", "mp", "b", "bp", "mc", "names", "pn", "s", "?"):
        for value in HOSTILE:
            body = {"scene": dict(scene, **{name: value}), "session": guard.open_token()}
            assert_refusal_or_answer(post(client, "open", body), ("open scene", name, value))


def test_every_parameter_of_the_poll(client):
    code, token, sid, _key = room(client)
    base = {"c": code, "since": "0", "sid": sid, "lang": "ja", "scale": "1.6", "shape": "tall"}
    texts = [v for v in HOSTILE if isinstance(v, str) and not isinstance(v, Raw)]
    # A query is text the client percent-encodes: a lone surrogate cannot travel, its bytes can.
    encodable = [v for v in texts if not any("\ud800" <= c <= "\udfff" for c in v)]
    for name in [*base, "unknown"]:
        for value in [*encodable, "%ED%A0%80", "%00", "%FF", "9" * 400]:
            response = client.get(f"{API}/state", params=dict(base, **{name: value}))
            assert_refusal_or_answer(response, ("state", name, value))
        for raw in ("%ED%A0%80", "%FF%FE", "%00", "%", "%%%%", "%C2%85"):  # percent-encoded as they are
            response = client.get(f"{API}/state?{name}={raw}&c={code}&sid={sid}")
            assert_refusal_or_answer(response, ("state raw", name, raw))
    for value in ["é", "\xff" * 40, "x" * 5_000, "\x7f", token + "é", ""]:  # headers travel as Latin-1
        response = client.get(f"{API}/state", params={"c": code}, headers={"X-Room-Token": value.encode("latin-1")})
        assert_refusal_or_answer(response, ("state token", value))


@pytest.fixture
def live_client(monkeypatch):
    monkeypatch.setattr(live_route, "RATE_LIMIT", TokenBuckets(1.0, 1e9))
    monkeypatch.setattr(live_route, "COMPUTING", InFlight(1, 2))
    return TestClient(edge_app(), raise_server_exceptions=False)


BUDGET_REFUSALS = []
for _language in LANGUAGES:
    with speaking(_language):
        BUDGET_REFUSALS.append({"error": live_route.said(TOO_HEAVY)})


def assert_live_answer(response, what):
    """As ``assert_refusal_or_answer``; the one 5xx the live route gives by design is its
    budget's 503 (a fit that took longer than a live frame may: the canvas commits without live
    updates), with that sentence."""
    if response.status_code == 503 and response.json() in BUDGET_REFUSALS:
        assert_headers(response, what)
        return
    assert_refusal_or_answer(response, what)


def test_every_field_of_the_live_route(live_client):
    scene = encode_scene(default_scene())
    base = {
        "scene": scene,
        "edits": [{"type": "move", "ids": [1], "dx": 0.1, "dy": 0.1}],
        "add_as": 1,
        "add_test": False,
        "scale": 1.0,
        "language": "ja",
        "painted": False,
    }
    edits = {
        "add": {"type": "add", "x": 0.5, "y": 0.5},
        "remove": {"type": "remove", "ids": [0]},
        "move": {"type": "move", "ids": [1], "dx": 0.1, "dy": 0.1},
    }
    cases = [(field, lambda value, field=field: dict(base, **{field: value})) for field in [*base, "unknown"]]
    for name in ("v", "p", "w", "seed", "m", "mp", "b", "bp", "mc", "names", "pn", "s", "?"):
        cases.append((f"scene.{name}", lambda value, name=name: dict(base, scene=dict(scene, **{name: value}))))
    for kind, edit in edits.items():
        for name in [*edit, "unknown"]:
            cases.append((f"{kind}.{name}", lambda value, e=edit, n=name: dict(base, edits=[dict(e, **{n: value})])))
    for field, make in cases:
        for value in HOSTILE:
            response = live_client.post(live_route.LIVE_PATH, content=encoded(make(value)), headers=HEADERS)
            assert_live_answer(response, ("live", field, value))
    for raw in BODIES:
        response = live_client.post(live_route.LIVE_PATH, content=raw, headers=HEADERS)
        assert_live_answer(response, ("live", raw[:40]))
        assert response.status_code >= 400


class Broken:
    """A store that fails as nothing should (an error nobody expected), naming private things."""

    def __getattr__(self, name):
        def fail(*args, **kwargs):
            raise RuntimeError("/srv/secret/path SECRET-DETAIL")

        return fail


def test_an_unexpected_error_is_a_short_500_with_the_headers(monkeypatch, caplog):
    monkeypatch.setattr(store, "_STORE", Broken())
    monkeypatch.setattr(guard, "LIMITS", LIMITS)

    def broken_scene(*args, **kwargs):
        raise RuntimeError("/srv/secret/path SECRET-DETAIL")

    monkeypatch.setattr(live_route, "decode_scene", broken_scene)
    monkeypatch.setattr(live_route, "RATE_LIMIT", TokenBuckets(1.0, 1e9))
    client = TestClient(edge_app(), raise_server_exceptions=False)
    code = model.new_code()
    requests = [
        ("POST", f"{API}/join", {"code": code, "lang": "ja"}),
        ("POST", f"{API}/add", {"code": code, "sid": "s", "key": "k", "x": 0, "y": 0, "label": 0, "seq": 0}),
        ("POST", f"{API}/control", {"code": code, "token": "t", "action": "lock", "value": True}),
        ("POST", f"{API}/open", {"scene": {}, "session": guard.open_token()}),
        ("GET", f"{API}/state?c={code}", None),
        ("POST", live_route.LIVE_PATH, {"scene": {}, "edits": [], "language": "zh"}),
    ]
    with caplog.at_level(logging.ERROR):
        for method, path, body in requests:
            caplog.clear()
            content = None if body is None else encoded(body)
            response = client.request(method, path, content=content, headers=HEADERS)
            assert response.status_code == 500, (path, response.text)
            assert_headers(response, path)
            assert_short_error(response, path)
            assert "SECRET" not in response.text and "srv" not in response.text
            assert response.headers["cache-control"] == "no-store"
            # One short line in the log, no traceback (a flood of them cannot fill it).
            records = [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert len(records) == 1 and records[0].exc_info is None, [r.getMessage() for r in records]
            assert "RuntimeError" in records[0].getMessage() and "SECRET" not in records[0].getMessage()
    japanese = {**HEADERS, "Accept-Language": "ja-JP,ja;q=0.9"}  # (the body is past reading by then)
    assert client.post(f"{API}/join", content=encoded({"code": code}), headers=japanese).json() == {
        "error": "サーバーはこのリクエストに応答できませんでした。少し待ってからもう一度お試しください。"
    }


def test_the_live_routes_reader_is_the_shared_one():
    """The live route reads its body as every route does: a lone surrogate or a control is a 400."""
    for text in ('{"scene": {"p": "\\ud800"}, "edits": []}', '{"scene": {}, "edits": [], "language": "\\u0000"}'):
        with pytest.raises(live_request.Refused) as refused:
            live_request.parse_live_request(text.encode())
        assert refused.value.status == 400
