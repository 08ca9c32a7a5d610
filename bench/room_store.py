"""``python -m bench.room_store``: what one student's add costs the Redis room store.

A room of ``--points`` points (the lecturer's, written once), ``--students`` students, and
``--adds`` adds from one client as the add route makes them (the store's ``add`` where it has
one; on a tree before it, the route's action through ``update``), against Debian's redis-server
started here with the deployment's durability (append-only file fsynced on every write).
Reported: milliseconds per add (median and p90, the client's wall clock: Redis and Python) and the
bytes Redis received per add; then, after each add, the room read back by a replica's ``get`` (as the
state route rebuilds a version's answer): milliseconds and the bytes Redis sent. Run it from a
checkout to measure that checkout's store (``cd CHECKOUT && python -m bench.room_store``).
"""

import argparse
import json
import tempfile
import time
from pathlib import Path

from playground.link import encode_scene
from tests.redis_server import redis_server
from ui.rooms import model, store
from ui.session.state import default_scene


def _add(rooms, code, sid, key, seq):
    if hasattr(rooms, "add"):
        return rooms.add(code, sid, key, 0.5, 0.5, 0, seq, time.time(), lambda: True)
    return rooms.update(code, lambda room: model.add_point(room, sid, key, 0.5, 0.5, 0, seq, time.time()))


def measure(points, students, adds):
    with redis_server(Path(tempfile.mkdtemp(prefix="room-store-"))) as (url, _restart):
        rooms = store.RedisStore(url)
        # Room for the adds past the cap (20,000, the highest PLAYGROUND_ROOM_POINTS allows).
        model.MAX_POINTS = rooms.max_points = 20_000
        room, token = model.new_room(encode_scene(default_scene()), time.time())
        code = rooms.create(room)

        def fill(room):
            room["points"] += [[i % 1000, i // 1000, 0, model.LECTURER, 100_000 + i] for i in range(points)]
            room["limit"] = model.MAX_PER_STUDENT
            room["version"] += 1

        rooms.update(code, fill)
        join = lambda i: rooms.update(code, lambda r: model.join(r, f"s{i}", None, None, time.time()))  # noqa: E731
        seated = [join(i) for i in range(students)]
        taken, sent, reading, read = [], [], [], []
        for n in range(adds):
            sid, key = seated[n % students]
            before = int(rooms.redis.info("stats")["total_net_input_bytes"])
            started = time.perf_counter()
            _add(rooms, code, sid, key, n)
            taken.append(time.perf_counter() - started)
            sent.append(int(rooms.redis.info("stats")["total_net_input_bytes"]) - before)
            before = int(rooms.redis.info("stats")["total_net_output_bytes"])
            started = time.perf_counter()
            rooms.get(code)
            reading.append(time.perf_counter() - started)
            read.append(int(rooms.redis.info("stats")["total_net_output_bytes"]) - before)
        taken.sort()
        reading.sort()
        return {
            "points in the room": points + len(default_scene().points.training.y),
            "adds": adds,
            "ms per add, median": round(1000 * taken[len(taken) // 2], 2),
            "ms per add, p90": round(1000 * taken[int(len(taken) * 0.9)], 2),
            "bytes Redis received per add, median": sorted(sent)[len(sent) // 2],
            "ms per read after an add, median": round(1000 * reading[len(reading) // 2], 2),
            "bytes Redis sent per read, median": sorted(read)[len(read) // 2],
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--points", type=int, default=12_000)
    parser.add_argument("--students", type=int, default=50)
    parser.add_argument("--adds", type=int, default=300)
    options = parser.parse_args()
    print(json.dumps(measure(options.points, options.students, options.adds), indent=1))


if __name__ == "__main__":
    main()
