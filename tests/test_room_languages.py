"""The room routes' refusals in the request's language (issue 44, items 5a and 14a), on both stores:
every route's refusal is the catalog's sentence in Japanese and Chinese when the request asks for
it (the body's ``lang``, the poll's ``lang`` parameter, else the browser's ``Accept-Language``),
and the per-student limit's sentence has the room's number in it in every language (it printed a
literal "({limit})": a room's sentences were plain text, never looked up nor filled).
"""

import json
import warnings

import pytest

from playground.link import encode_scene
from tests.test_hostile_routes import HEADERS, edge_app, encoded
from ui.rooms import guard, model, routes, store, views
from ui.rooms.protocol import API
from ui.server.limits import TokenBuckets
from ui.session.state import default_scene
from ui.text.i18n import LANGUAGES, _, speaking

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(params=["memory", "redis"])
def client(request, redis_url, monkeypatch):
    monkeypatch.setattr(
        store, "_STORE", store.MemoryStore() if request.param == "memory" else store.RedisStore(redis_url)
    )
    monkeypatch.setattr(views, "SNAPSHOTS", views.RoomFigures())
    monkeypatch.setattr(routes, "SNAPSHOTS", views.SNAPSHOTS)
    limits = guard.Limits(lambda _name, rate, burst: TokenBuckets(rate, burst, clock=lambda: 0.0))
    monkeypatch.setattr(guard, "LIMITS", limits)
    monkeypatch.setattr(guard, "PRESENCE", guard.Presence())
    return TestClient(edge_app(), raise_server_exceptions=False)


def post(client, name, body, headers=None):
    return client.post(f"{API}/{name}", content=encoded(body), headers={**HEADERS, **(headers or {})})


def said(language, sentence):
    with speaking(language):
        return _(sentence)


NO_ROOM = "There is no room with this code (it may have closed)."
NOT_IN = "You are not in this room; join it again."
LECTURER_ONLY = "Only the lecturer can do this."
NOT_UNDERSTOOD = "The request was not understood."
FROM_THE_PAGE = "Open the room from the app's page."
PAUSED = "The lecturer has paused adding points."


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_every_room_refusal_speaks_the_requests_language(client, language):
    answer = post(client, "open", {"scene": encode_scene(default_scene()), "session": guard.open_token()}).json()
    code, token = answer["code"], answer["token"]
    student = post(client, "join", {"code": code}).json()
    sid, key = student["sid"], student["key"]
    nowhere = model.new_code()
    add = {"x": 0.5, "y": 0.5, "label": 0, "seq": 0, "lang": language}
    refusals = [
        (post(client, "join", {"code": nowhere, "lang": language}), 404, NO_ROOM),
        (post(client, "add", {"code": code, "sid": sid, "key": "wrong", **add}), 403, NOT_IN),
        (post(client, "undo", {"code": code, "sid": sid, "key": "wrong", "lang": language}), 403, NOT_IN),
        (post(client, "control", {"code": code, "token": "x", "action": "lock", "lang": language}), 403, LECTURER_ONLY),
        (post(client, "freeze", {"code": code, "token": "x", "lang": language}), 403, LECTURER_ONLY),
        (post(client, "control", {"code": code, "token": token, "action": "?", "lang": language}), 400, NOT_UNDERSTOOD),
        (post(client, "open", {"scene": {}, "session": "0.forged", "lang": language}), 403, FROM_THE_PAGE),
        (client.get(f"{API}/state", params={"c": nowhere, "lang": language}), 404, NO_ROOM),
        # Nothing readable in the body: the browser's language.
        (
            client.post(f"{API}/join", content=b"{", headers={**HEADERS, "Accept-Language": language}),
            400,
            NOT_UNDERSTOOD,
        ),
    ]
    post(client, "control", {"code": code, "token": token, "action": "lock", "value": True})
    refusals.append((post(client, "add", {"code": code, "sid": sid, "key": key, **add}), 409, PAUSED))
    for response, status, sentence in refusals:
        assert response.status_code == status, (sentence, response.text)
        translated = said(language, sentence)
        assert translated != sentence  # the catalog has it
        assert response.json() == {"error": translated}, (sentence, response.text)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_per_student_limit_names_its_number(client, language):
    answer = post(client, "open", {"scene": encode_scene(default_scene()), "session": guard.open_token()}).json()
    code = answer["code"]
    assert (
        post(client, "control", {"code": code, "token": answer["token"], "action": "limit", "value": 3}).status_code
        == 200
    )
    student = post(client, "join", {"code": code}).json()
    body = {
        "code": code,
        "sid": student["sid"],
        "key": student["key"],
        "x": 0.5,
        "y": 0.5,
        "label": 0,
        "lang": language,
    }
    assert [post(client, "add", dict(body, seq=n)).status_code for n in range(3)] == [200] * 3
    refused = post(client, "add", dict(body, seq=3))
    assert refused.status_code == 409
    sentence = json.loads(refused.text)["error"]
    template = model.ADD_REFUSALS["limit"][1]
    assert sentence == said(language, template).format(limit=3)
    assert "3" in sentence and "{" not in sentence and "limit" not in sentence
