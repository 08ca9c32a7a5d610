"""``python -m bench room``: a class room under a class (a lecture hall: ``--students 500``).

One server (or, with ``--replicas``, two replicas behind Debian's nginx sharing a Redis; one
replica killed halfway and Redis restarted at three quarters), the lecturer's real page in
headless Chromium showing the room on the projector, and ``--students`` simulated students: HTTP
clients on one asyncio loop (a keep-alive connection each, ``bench.keepalive``; no thread per student) speaking as
the student page does: a join (each from an address of its own, as a proxy reports a phone's, in
``X-Forwarded-For``), then an add every ``--every`` seconds with the student's own ``seq``,
retried as the page retries, and a poll of the room's state every 1.5 s (the whole answer read,
as a phone reads it) for ``--seconds``. The joins happen before the clock starts.

The room's seat and point caps are raised to ``--seats`` / ``--points`` through the settings
``PLAYGROUND_ROOM_SEATS`` / ``PLAYGROUND_ROOM_POINTS`` (on a tree without them,
``bench/room_caps/sitecustomize.py`` sets the module constants); ``--root`` runs another
checkout's server (``--seats 0`` keeps its own caps: what a tree before does with 500).

Reported: students seated and refused, points acknowledged, refused and lost (an acknowledged point
missing from the room at the end), points the projector never drew, tap-to-projector (from the add
request's start to the projector having drawn a version that holds it) median / p90 / max, the
servers' CPU (cores on average, their fitting workers included, and per seated student), the
simulated students' own CPU and the load average. Targets (not timed tests): 0 lost, every point
drawn, p90 <= 1 s on one server, <= 0.5 s on two replicas.

``--predict [--blink SHARE] [--output BENCHMARKS.md]``: a prediction round instead of points
(issue 47, ``bench/room_predict.py``, on this module's servers, students and projector page);
``--seconds`` is then the window the students' lines are sent in (default 20).
"""

import argparse
import asyncio
import json
import os
import random
import re
import resource
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

from bench.keepalive import Connection
from bench.load import loadavg, percentile
from bench.server import ROOT, streamlit
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path, free_port
from tests.redis_server import redis_server
from ui.rooms.protocol import API

POLL_SECONDS = 1.5  # the student page's poll
KILLED_CPU: list[float] = []  # CPU seconds of replicas killed during the run, read just before
VERSION = re.compile(rb'^\{"version": ?(\d+)')
CAPS_PATH = Path(__file__).resolve().parent / "room_caps"
EVERY = 5.0


def address(index):
    """A phone's own address (as a proxy on this host reports it in ``X-Forwarded-For``)."""
    return f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256 + 1}"


class Student:
    """One phone: its own keep-alive connection (``bench.keepalive``), from its own address."""

    def __init__(self, index, url, code, rng):
        self.index, self.code, self.rng = index, code, rng
        self.connection = Connection(url, {"X-Forwarded-For": address(index)})
        self.sid = self.key = None
        self.seq = 0
        self.acks = []  # (start time, acknowledged version, pid)
        self.waits = []  # (start time, seconds until acknowledged)
        self.refused = 0  # adds the room refused (409: paused, the student's or the room's cap)
        self.retries = 0
        self.gateway = 0  # of the retries, answers 502/504 (which the page itself does not retry)
        self.polls = 0
        self.poll_bytes = 0

    async def post(self, name, body):
        """The answer of a request retried until it is answered (as the page retries)."""
        while True:
            try:
                status, content = await self.connection.post(f"{API}/{name}", {"code": self.code, **body})
                if status not in (429, 502, 503, 504):
                    return status, json.loads(content)
                self.gateway += status in (502, 504)
            except OSError:  # a connection refused by a dying replica, a timeout: try again
                pass
            self.retries += 1
            await asyncio.sleep(1.0)

    async def join(self):
        """Whether the room seated this student (a full room answers 409)."""
        status, answer = await self.post("join", {"nick": f"student {self.index}"})
        if status != 200:
            return False
        self.sid, self.key = answer["sid"], answer["key"]
        return True

    async def run(self, until):
        poller = asyncio.create_task(self.poll(until))
        await asyncio.sleep(self.rng.uniform(0, EVERY))
        while time.time() < until:
            self.seq += 1
            label = self.rng.randrange(2)
            x = max(-4.9, min(4.9, self.rng.gauss(-2.0 if label == 0 else 2.0, 1.3)))
            y = max(-2.9, min(4.5, self.rng.gauss(0.0, 1.3)))
            body = {"sid": self.sid, "key": self.key, "x": x, "y": y, "label": label, "seq": self.seq}
            started = time.time()
            status, answer = await self.post("add", body)
            if status == 200:
                self.acks.append((started, answer["version"], answer["pid"]))
                self.waits.append((started, time.time() - started))
            else:
                self.refused += 1
            await asyncio.sleep(max(0.0, started + EVERY - time.time()))
        await poller

    def polling(self, until):
        """Whether the page still polls (until ``until``, a ``time.time()``)."""
        return time.time() < until

    async def poll(self, until):
        """The page's poll: the state since the version it has, the whole answer read."""
        version = 0
        await asyncio.sleep(self.rng.uniform(0, POLL_SECONDS))
        while self.polling(until):
            try:
                params = {"c": self.code, "since": version, "sid": self.sid, "lang": "en"}
                _status, content = await self.connection.get(f"{API}/state", params)
                self.polls += 1
                self.poll_bytes += len(content)
                found = VERSION.match(content)
                version = int(found.group(1)) if found else version
            except OSError:
                pass
            await asyncio.sleep(POLL_SECONDS)

    async def final_count(self):
        while True:
            try:
                status, content = await self.connection.get(f"{API}/state", {"c": self.code, "sid": self.sid})
                if status == 200:
                    return json.loads(content)["me"]["count"]
            except OSError:
                pass
            await asyncio.sleep(1.0)


async def seat(everyone):
    """The students the room seated, joining 50 at a time (a lecture hall joins within a minute
    or two, not in one instant)."""
    seated = []
    for start in range(0, len(everyone), 50):
        batch = everyone[start : start + 50]
        answers = await asyncio.gather(*(s.join() for s in batch))
        seated += [s for s, ok in zip(batch, answers) if ok]
    return seated


async def students_run(url, code, n, seconds, joined, seed=29):
    """(seated students, refused seats, {sid: final count}, the students' CPU seconds while timed);
    ``joined`` (a ``threading.Event``) is set when the joins are over and the clock starts."""
    rng = random.Random(seed)
    everyone = [Student(i, url, code, random.Random(rng.random())) for i in range(n)]
    seated = await seat(everyone)
    joined.set()
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    cpu_before = cpu.ru_utime + cpu.ru_stime
    until = time.time() + seconds
    await asyncio.gather(*(s.run(until) for s in seated))
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    own_cpu = cpu.ru_utime + cpu.ru_stime - cpu_before
    final = {s.sid: await s.final_count() for s in seated}
    for s in everyone:
        s.connection.close()
    return seated, n - len(seated), final, own_cpu


def open_projector(page, url):
    page.goto(url)
    page.get_by_role("button", name="Open a class room").first.click()
    page.wait_for_selector(".pg-projector[data-points]", timeout=120_000)
    code = re.search(r"/room\?c=([A-Z0-9]{8})", page.content()).group(1)
    limit = page.locator('[data-testid="stNumberInput"]').filter(has_text="Points per student").locator("input")
    limit.fill("200")
    limit.press("Enter")
    return code


def measure(url, servers, n, seconds, kill=None, restart_redis=None):
    from playwright.sync_api import sync_playwright

    api = url + "/api/room"
    load_before = loadavg()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        code = open_projector(page, url)
        deadline = time.time() + 30
        while json.loads(_get(f"{api}/state?c={code}"))["settings"]["limit"] != 200:
            if time.time() > deadline:
                raise RuntimeError("the per-student limit did not change")
            time.sleep(0.2)
        # The students' event loop in a thread of its own: Playwright's sync API holds this one's.
        outcome = []
        started = threading.Event()

        def students():
            outcome.append(asyncio.run(students_run(url, code, n, seconds, started)))

        runner = threading.Thread(target=students)
        runner.start()
        while runner.is_alive() and not started.is_set():  # the clock starts once the joins are over
            page.wait_for_timeout(500)
        cpu_before = sum(s.cpu_seconds() for s in servers)
        wall = time.monotonic()
        if kill:  # the replica that does not serve the lecturer's page (its route cookie) dies halfway
            serving = page.request.get(f"{url}/_stcore/health").headers.get("x-playground-replica", "")
            threading.Timer(seconds / 2, kill, (serving,)).start()
        if restart_redis:  # Redis killed and started again from its append-only file
            threading.Timer(seconds * 3 / 4, restart_redis, (lambda: time.sleep(1.0),)).start()
        while runner.is_alive():
            page.wait_for_timeout(500)  # the projector page lives on meanwhile
        seated, refused_seats, final, client_cpu = outcome[0]
        top = max((v for s in seated for _, v, _ in s.acks), default=0)
        page.wait_for_function(f"+document.querySelector('.pg-projector').dataset.version >= {top}", timeout=60_000)
        elapsed = time.monotonic() - wall
        cpu = sum(s.cpu_seconds() for s in servers if s.alive()) + sum(KILLED_CPU) - cpu_before
        drawn = page.evaluate("window.__pgRoomDrawn")
        page.locator(".pg-projector").scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / "room-bench-projector.png")  # the projector at the end, to look at
        browser.close()
    return report(seated, refused_seats, final, drawn, cpu, elapsed, client_cpu, load_before)


def _get(url):
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def quarters(timed):
    """p90 of the latencies in each quarter of the run, by the adds' start times."""
    if not timed:
        return []
    first, last = min(t for t, _ in timed), max(t for t, _ in timed)
    span = max(last - first, 1e-9)
    parts = [
        [lag for t, lag in timed if k <= 4 * (t - first) / span < k + 1 or (k == 3 and t == last)] for k in range(4)
    ]
    return [round(percentile(part, 90), 3) if part else None for part in parts]


def report(seated, refused_seats, final, drawn, cpu, elapsed, client_cpu, load_before):
    acks = [a for s in seated for a in s.acks]
    lost = sum(max(0, len(s.acks) - final.get(s.sid, 0)) for s in seated)
    latencies, timed, never = [], [], 0
    for started, version, _pid in acks:
        when = next((t / 1000 for v, t in drawn if v >= version), None)
        if when is None:
            never += 1
        else:
            latencies.append(when - started)
            timed.append((started, when - started))
    polls = sum(s.polls for s in seated)
    starts = [started for started, _v, _p in acks]
    redraws = [t / 1000 for _v, t in drawn if starts and min(starts) <= t / 1000 <= max(starts)]
    gaps = [b - a for a, b in zip(redraws, redraws[1:])]
    span = max(max(starts, default=0) - min(starts, default=0), 1.0)
    result = {
        "students seated": len(seated),
        "students refused a seat": refused_seats,
        "acknowledged": len(acks),
        "adds refused": sum(s.refused for s in seated),
        "lost": lost,
        "never drawn": never,
        "retries": sum(s.retries for s in seated),
        "polls": polls,
        "poll answer KiB on average": round(sum(s.poll_bytes for s in seated) / max(polls, 1) / 1024, 1),
        "tap-to-projector median s": round(percentile(latencies, 50), 3),
        "p90 s": round(percentile(latencies, 90), 3),
        "max s": round(max(latencies, default=float("nan")), 3),
        # The run in four quarters by when the add started (--replicas: a replica dies at the
        # second's start, Redis restarts at the fourth's): where the tail comes from.
        "p90 s by quarter": quarters(timed),
        "p90 s to the add's answer, by quarter": quarters([w for s in seated for w in s.waits]),
        "projector redraws per second": round(len(redraws) / span, 2),
        "projector redraw gap median s": round(percentile(gaps, 50), 3),
        "server cores on average": round(cpu / elapsed, 2),
        "server CPU ms per student per second": round(1000 * cpu / elapsed / max(len(seated), 1), 2),
        "students' own cores (the simulation)": round(client_cpu / elapsed, 2),
        "seconds": round(elapsed, 1),
        "load average before / after": f"{load_before} | {loadavg()}",
    }
    print(json.dumps(result, indent=1))
    return result


def caps_env(seats, points):
    """The environment raising a server's room caps (see the module's rules); none for ``seats`` 0."""
    if not seats:
        return {}
    path = os.pathsep.join([str(CAPS_PATH)] + [p for p in [os.environ.get("PYTHONPATH", "")] if p])
    return {"PLAYGROUND_ROOM_SEATS": str(seats), "PLAYGROUND_ROOM_POINTS": str(points), "PYTHONPATH": path}


def run_one(n, seconds, root, seats, points, how=None):
    """``how(url, servers, n, seconds)`` (default ``measure``) against one server."""
    with streamlit(root, env=caps_env(seats, points)) as server:
        return (how or measure)(server.url, [server], n, seconds)


def run_replicas(n, seconds, root, seats, points, how=None):
    """``how(url, servers, n, seconds, kill=, restart_redis=)`` (default ``measure``) against two
    replicas behind nginx sharing a Redis (``kill`` kills the replica not serving the lecturer's
    page, ``restart_redis`` kills Redis and starts it again from its append-only file)."""
    from tests.test_replicas import BASE, start_nginx

    args = (f"--server.baseUrlPath={BASE}",)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        redis_url, restart = stack.enter_context(redis_server(Path(tmp) / "redis"))
        env = {
            "PLAYGROUND_REDIS_URL": redis_url,
            "STREAMLIT_SERVER_COOKIE_SECRET": "bench-room-secret",
            **caps_env(seats, points),
        }
        replicas = [stack.enter_context(streamlit(root, env=env, args=args)) for _ in range(2)]
        ports = [int(r.url.split(":")[2].split("/")[0]) for r in replicas]
        nginx, url = start_nginx(Path(tmp) / "nginx", free_port(), ports)
        stack.callback(nginx.wait, 10)
        stack.callback(nginx.terminate)

        def kill(serving):
            port = next(p for p in ports if not serving.endswith(f":{p}"))
            victim = replicas[ports.index(port)]
            KILLED_CPU.append(victim.cpu_seconds())  # what it spent until it died counts too
            victim.process.kill()
            print(f"killed the replica on port {port} (the lecturer's page is on {serving})")

        def restart_redis(between):
            restart(between)
            print("Redis killed and started again")

        return (how or measure)(url, replicas, n, seconds, kill=kill, restart_redis=restart_redis)


def main(argv=None):
    global EVERY
    parser = argparse.ArgumentParser(prog="python -m bench room", description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--seconds", type=float, help="the run (default 120), or with --predict the sends' window (20)")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a student's points")
    parser.add_argument("--replicas", action="store_true", help="two replicas behind nginx sharing Redis, one killed")
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose server runs (default: this one)")
    parser.add_argument("--seats", type=int, default=500, help="the room's seat cap (0: the tree's own caps)")
    parser.add_argument("--points", type=int, default=15_000, help="the room's point cap")
    parser.add_argument("--predict", action="store_true", help="a prediction round instead (bench/room_predict.py)")
    parser.add_argument("--blink", type=float, default=0.2, help="--predict: the share of phones that blink")
    parser.add_argument("--output", default="-", help="--predict: the BENCHMARKS.md to write its row into ('-': none)")
    args = parser.parse_args(argv)
    if args.predict:
        from bench import room_predict

        return room_predict.main(args)
    args.seconds = args.seconds or 120.0
    EVERY = args.every
    where = "two replicas behind nginx, Redis" if args.replicas else "one server, in-process rooms"
    every = f"a point every {args.every:g} s for {args.seconds:g} s"
    caps = f"caps {args.seats} seats / {args.points} points" if args.seats else "the tree's own caps"
    print(f"Room: {args.students} students, {every} ({where}; {args.root}; {caps}; load {loadavg()})")
    run = run_replicas if args.replicas else run_one
    return run(args.students, args.seconds, args.root, args.seats, args.points)
