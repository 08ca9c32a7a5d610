"""``python -m bench room``: a class room under a class.

One server (or, with ``--replicas``, two replicas behind Debian's nginx sharing a Redis, one of
them killed halfway), the lecturer's real page in headless Chromium showing the room on the
projector, and ``--students`` simulated students (HTTP clients speaking as the student page does:
a join, an add every ``--every`` seconds with the student's own ``seq``, retried as the page
retries, and a poll of the room's version every 1.5 s) for ``--seconds``.

Reported: points acknowledged and lost (an acknowledged point missing from the room at the end),
points the projector never drew, tap-to-projector (from the add request's start to the projector
having drawn a version that holds it) median / p90 / max, and the servers' CPU (cores on average,
their fitting workers included). Targets (not timed tests): 0 lost, every point drawn, p90 <= 1 s,
<= 1 core on average.
"""

import argparse
import asyncio
import json
import random
import re
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

from bench.load import loadavg, percentile
from bench.server import streamlit
from tests.browser import CHROMIUM_ARGS, chromium_path, free_port
from tests.redis_server import redis_server

POLL_SECONDS = 1.5  # the student page's poll
KILLED_CPU = []  # CPU seconds of replicas killed during the run, read just before
VERSION = re.compile(rb'^\{"version": ?(\d+)')


class Student:
    def __init__(self, index, api, code, rng):
        self.index, self.api, self.code, self.rng = index, api, code, rng
        self.sid = self.key = None
        self.seq = 0
        self.acks = []  # (start time, acknowledged version, pid)
        self.retries = 0

    async def post(self, client, name, body):
        """The answer of a request retried until it is answered (as the page retries)."""
        while True:
            try:
                response = await client.post(f"{self.api}/{name}", json={"code": self.code, **body}, timeout=10)
                if response.status_code not in (429, 502, 503, 504):
                    return response.status_code, response.json()
            except Exception:  # noqa: BLE001  (a connection refused by a dying replica: try again)
                pass
            self.retries += 1
            await asyncio.sleep(1.0)

    async def run(self, client, until):
        status, answer = await self.post(client, "join", {"nick": f"student {self.index}"})
        self.sid, self.key = answer["sid"], answer["key"]
        poller = asyncio.create_task(self.poll(client, until))
        await asyncio.sleep(self.rng.uniform(0, EVERY))
        while time.time() < until:
            self.seq += 1
            label = self.rng.randrange(2)
            x = max(-4.9, min(4.9, self.rng.gauss(-2.0 if label == 0 else 2.0, 1.3)))
            y = max(-2.9, min(4.5, self.rng.gauss(0.0, 1.3)))
            body = {"sid": self.sid, "key": self.key, "x": x, "y": y, "label": label, "seq": self.seq}
            started = time.time()
            status, answer = await self.post(client, "add", body)
            if status == 200:
                self.acks.append((started, answer["version"], answer["pid"]))
            await asyncio.sleep(max(0.0, started + EVERY - time.time()))
        await poller

    async def poll(self, client, until):
        version = 0
        while time.time() < until:
            try:
                response = await client.get(
                    f"{self.api}/state", params={"c": self.code, "since": version, "sid": self.sid}, timeout=10
                )
                found = VERSION.match(response.content)
                version = int(found.group(1)) if found else version
            except Exception:  # noqa: BLE001
                pass
            await asyncio.sleep(POLL_SECONDS)


EVERY = 5.0


async def students_run(api, code, n, seconds, seed=29):
    import httpx

    rng = random.Random(seed)
    until = time.time() + seconds
    limits = httpx.Limits(max_connections=n + 8, max_keepalive_connections=n + 8)
    async with httpx.AsyncClient(limits=limits) as client:
        students = [Student(i, api, code, random.Random(rng.random())) for i in range(n)]
        await asyncio.gather(*(s.run(client, until) for s in students))
        final = {}
        for s in students:
            response = await client.get(f"{api}/state", params={"c": code, "sid": s.sid}, timeout=30)
            final[s.sid] = response.json()["me"]["count"]
    return students, final


def open_projector(page, url):
    page.goto(url)
    page.get_by_role("button", name="Open a class room").first.click()
    page.wait_for_selector(".pg-projector[data-points]", timeout=120_000)
    code = re.search(r"/room\?c=([A-Z0-9]{8})", page.content()).group(1)
    limit = page.locator('[data-testid="stNumberInput"]').filter(has_text="Points per student").locator("input")
    limit.fill("200")
    limit.press("Enter")
    return code


def measure(url, servers, n, seconds, kill=None):
    from playwright.sync_api import sync_playwright

    api = url + "/api/room"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        code = open_projector(page, url)
        deadline = time.time() + 30
        while json.loads(_get(f"{api}/state?c={code}"))["settings"]["limit"] != 200:
            if time.time() > deadline:
                raise RuntimeError("the per-student limit did not change")
            time.sleep(0.2)
        cpu_before = sum(s.cpu_seconds() for s in servers)
        wall = time.monotonic()
        if kill:  # the replica that does not serve the lecturer's page (its route cookie) dies halfway
            serving = page.request.get(f"{url}/_stcore/health").headers.get("x-playground-replica", "")
            threading.Timer(seconds / 2, kill, (serving,)).start()
        # The students' event loop in a thread of its own: Playwright's sync API holds this one's.
        outcome = []
        runner = threading.Thread(target=lambda: outcome.append(asyncio.run(students_run(api, code, n, seconds))))
        runner.start()
        while runner.is_alive():
            page.wait_for_timeout(500)  # the projector page lives on meanwhile
        students, final = outcome[0]
        top = max((v for s in students for _, v, _ in s.acks), default=0)
        page.wait_for_function(f"+document.querySelector('.pg-projector').dataset.version >= {top}", timeout=30_000)
        elapsed = time.monotonic() - wall
        cpu = sum(s.cpu_seconds() for s in servers if s.alive()) + sum(KILLED_CPU) - cpu_before
        drawn = page.evaluate("window.__pgRoomDrawn")
        browser.close()
    return report(students, final, drawn, cpu, elapsed)


def _get(url):
    import urllib.request

    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read()


def report(students, final, drawn, cpu, elapsed):
    acks = [a for s in students for a in s.acks]
    lost = sum(max(0, len(s.acks) - final.get(s.sid, 0)) for s in students)
    latencies, never = [], 0
    for started, version, _pid in acks:
        when = next((t / 1000 for v, t in drawn if v >= version), None)
        if when is None:
            never += 1
        else:
            latencies.append(when - started)
    result = {
        "students": len(students),
        "acknowledged": len(acks),
        "lost": lost,
        "never drawn": never,
        "retries": sum(s.retries for s in students),
        "tap-to-projector median s": round(percentile(latencies, 50), 3),
        "p90 s": round(percentile(latencies, 90), 3),
        "max s": round(max(latencies, default=float("nan")), 3),
        "server cores on average": round(cpu / elapsed, 2),
        "seconds": round(elapsed, 1),
    }
    print(json.dumps(result, indent=1))
    return result


def run_one(n, seconds):
    with streamlit() as server:
        return measure(server.url, [server], n, seconds)


def run_replicas(n, seconds):
    from tests.test_replicas import BASE, start_nginx

    args = (f"--server.baseUrlPath={BASE}",)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        redis_url, _restart = stack.enter_context(redis_server(Path(tmp) / "redis"))
        env = {"PLAYGROUND_REDIS_URL": redis_url, "STREAMLIT_SERVER_COOKIE_SECRET": "bench-room-secret"}
        replicas = [stack.enter_context(streamlit(env=env, args=args)) for _ in range(2)]
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

        return measure(url, replicas, n, seconds, kill=kill)


def main(argv=None):
    global EVERY
    parser = argparse.ArgumentParser(prog="python -m bench room", description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--every", type=float, default=5.0, help="seconds between a student's points")
    parser.add_argument("--replicas", action="store_true", help="two replicas behind nginx sharing Redis, one killed")
    args = parser.parse_args(argv)
    EVERY = args.every
    where = "two replicas behind nginx, Redis" if args.replicas else "one server, in-process rooms"
    every = f"a point every {args.every:g} s for {args.seconds:g} s"
    print(f"Room: {args.students} students, {every} ({where}; load {loadavg()})")
    return (run_replicas if args.replicas else run_one)(args.students, args.seconds)
