"""A lecture hall in one room (``ui.rooms.views``): the polling cache stays within its bound of
entries and of memory (measured by ``tracemalloc``, not by the cache's own count) whatever rooms
and variants are polled; a poll's answer is built once per version and carries each student's own
part exactly as ``model.student_view`` gives it; the state names the method as the lecturer's
page does, in the asked language, and tells a closed room (with the link it was frozen into).
Run against the in-process store and Redis (the fixtures of ``tests/test_room_routes.py``).
"""

import gc
import json
import random
import time
import tracemalloc
from urllib.parse import parse_qsl

from playground.link import encode_scene
from tests.test_room_routes import add, client, joined, opened, post  # noqa: F401  (fixtures)
from ui.rooms import model, store, views
from ui.rooms.protocol import API
from ui.session.state import default_scene
from ui.text.i18n import speaking
from ui.text.labels import method_label

VARIANTS = [(lang, scale, shape) for lang in ("en", "ja", "zh") for scale in views.SCALES for shape in views.SHAPES]


def heavy_room(students=60, points=1_500, seed=3):
    """A room of ``students`` students who added ``points`` points between them."""
    room, _token = model.new_room(encode_scene(default_scene()), time.time())
    room["limit"] = 200
    rng = random.Random(seed)
    keys = [model.join(room, f"s{i}", None, None, time.time()) for i in range(students)]
    for n in range(points - len(room["points"])):
        sid, key = keys[n % students]
        label = rng.randrange(2)
        x, y = rng.gauss(2 * label - 1, 1.2), rng.gauss(0, 1.2)
        model.add_point(room, sid, key, max(-4.5, min(4.5, x)), max(-2.5, min(2.5, y)), label, n + 1, time.time())
    return room


def poll_every_variant(cache, rooms):
    for code, room in rooms.items():
        for lang, scale, shape in VARIANTS:
            cache.snapshot(code, room["version"], lang, lambda room=room: json.loads(json.dumps(room)), scale, shape)


def test_the_cache_holds_no_more_memory_than_its_bound_whatever_is_polled():
    rooms = {f"ROOM{k}AAA": heavy_room(seed=k) for k in range(4)}
    poll_every_variant(views.RoomFigures(), {"WARMUPAA": heavy_room(students=2, points=20)})  # imports, catalogs
    bound = 3 * 1024 * 1024
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        cache = views.RoomFigures(max_bytes=bound)
        poll_every_variant(cache, rooms)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held <= bound, f"{held / 2**20:.1f} MiB held by a cache bounded to {bound / 2**20:.1f} MiB"
    assert 0 < cache.bytes <= bound
    # ... and the bound was what kept it there: the same polls unbounded hold far more
    unbounded = views.RoomFigures(max_bytes=10**12, max_entries=10**6)
    poll_every_variant(unbounded, rooms)
    assert unbounded.bytes > 2 * bound and len(unbounded) == len(rooms) * len(VARIANTS)


def test_the_cache_keeps_at_most_its_entries_the_latest_used_last_to_go():
    rooms = {f"ROOM{k}BBB": heavy_room(students=3, points=40, seed=k) for k in range(3)}
    cache = views.RoomFigures(max_entries=5)
    poll_every_variant(cache, rooms)
    assert len(cache) == 5
    code = "ROOM2BBB"  # the last room polled: its last variants are still there, served without a load
    lang, scale, shape = VARIANTS[-1]

    def no_load():
        raise AssertionError("loaded again")

    assert cache.snapshot(code, rooms[code]["version"], lang, no_load, scale, shape).version == rooms[code]["version"]


def test_one_room_version_is_loaded_once_for_every_variant_and_each_student_gets_their_own_part():
    room = heavy_room(students=40, points=400)
    loads = []

    def load():
        loads.append(room["version"])
        return json.loads(json.dumps(room))

    cache = views.RoomFigures()
    answers = [cache.snapshot("HALLHALL", room["version"], lang, load, scale, shape) for lang, scale, shape in VARIANTS]
    assert loads == [room["version"]]
    for sid in room["students"]:
        answer = json.loads(answers[0].body(sid))
        assert answer["me"] == model.student_view(room, sid)
        assert answer["version"] == room["version"] and answer["points"] == len(room["points"])
        assert answer["figure"] == json.loads(answers[0].figure)
    assert "me" not in json.loads(answers[0].body("not-a-student"))


def state(client, code, sid="", lang="en"):  # noqa: F811  (the fixture of test_room_routes)
    views.SNAPSHOTS._entries.clear()  # the newest version, not one built less than MIN_INTERVAL ago
    response = client.get(f"{API}/state", params={"c": code, "sid": sid, "lang": lang})
    assert response.status_code == 200, response.text
    return response.json()


def control(client, code, token, action, value=None):  # noqa: F811
    assert post(client, "control", code=code, token=token, action=action, value=value).status_code == 200


def test_the_state_names_the_method_as_the_lecturers_page_does_in_the_asked_language(client):  # noqa: F811
    code, token = opened(client)
    for method in ("least_squares", "logistic"):
        control(client, code, token, "method", method)
        for lang in ("en", "ja", "zh"):
            with speaking(lang):
                expected = method_label(method)
            assert state(client, code, lang=lang)["method_name"] == expected
    assert state(client, code, lang="ja")["method_name"] != state(client, code, lang="en")["method_name"]


def test_a_poll_looks_its_student_up_without_parsing_every_students_part(client, monkeypatch):  # noqa: F811
    # A hall's poll asked whether its student sat in the room by parsing all 500 students' parts
    # (Snapshot.me): 27% of the server's time with 500 pollers, p90 9.4 s to the projector.
    code, _token = opened(client)
    sid, _key = joined(client, code)

    def parsed(_snapshot):
        raise AssertionError("a poll parsed every student's part")

    monkeypatch.setattr(views.Snapshot, "me", property(parsed))
    answer = state(client, code, sid=sid)
    assert answer["me"]["count"] == 0 and "me" not in state(client, code, sid="nobody")


def test_a_closed_room_says_so_with_the_link_it_was_frozen_into(client):  # noqa: F811
    code, _token = opened(client)
    student = joined(client, code)
    assert add(client, code, student, seq=1).status_code == 200
    assert state(client, code, student[0])["closed"] is False
    assert "frozen" not in state(client, code, student[0])
    query = store.room_store().update(code, lambda room: model.freeze(room, time.time()))
    assert dict(parse_qsl(state(client, code, student[0])["frozen"])) == query  # the link's query, exact
    store.room_store().update(code, lambda room: model.close(room, time.time()))
    closed = state(client, code, student[0])
    assert closed["closed"] is True and dict(parse_qsl(closed["frozen"])) == query
    assert closed["points"] == 0 and "me" not in closed  # nothing of the students is kept
    refused = post(client, "join", code=code, nick="late")
    assert refused.status_code == 410 and "closed" in refused.json()["error"]
    assert add(client, code, student, seq=2).status_code in (403, 409)


def test_the_memory_store_shares_nothing_an_action_or_a_reader_could_change():
    rooms = store.MemoryStore()
    room = heavy_room(students=5, points=30)
    code = rooms.create(room)
    kept = json.dumps(rooms.get(code))

    def spoil_then_fail(room):
        room["points"].append([0, 0, 0, "x", 999])
        room["points"].pop(0)
        next(iter(room["students"].values()))["seq"] = 10**6
        room["scene"]["m"] = "svm"
        room["version"] += 1
        raise model.RoomError(400, "refused")

    try:
        rooms.update(code, spoil_then_fail)
    except model.RoomError:
        pass
    assert json.dumps(rooms.get(code)) == kept  # the refused action left nothing behind
    copy = rooms.get(code)
    copy["points"][0][0] = 12345
    copy["students"].clear()
    assert json.dumps(rooms.get(code)) == kept  # nor does a reader's copy reach the store
