"""``python -m bench room --predict``: a prediction round (issue 47) in a lecture hall.

Issue 47's targets for a hall of 500: every student's prediction sent within 30 s, none lost (a
blinking phone resends, the room keeps one line per student), the projector's count within 1 s
(p90) of each acknowledgement, and the overlay of the 500 lines drawn within 250 ms on the
projector's page; on one server and through two replicas with one killed. This measures them
with the room benchmark's machinery (``bench/room.py``: its servers, nginx and Redis, the replica
kill and the Redis restart, its simulated students with their own forwarded addresses and
keep-alive connections, the lecturer's real page in headless Chromium showing the projector).

The run: the students join (before the clock), the bench as the lecturer (the token its page
holds) starts a round (``predict``) and the clock; each student sends one line (two ends inside
the default scene's window) at a random moment within ``--seconds`` (20), retried as the page
retries (after 1 s; the bench also retries a 502/504, which the page does not, and counts those);
a share ``--blink`` (0.2) of the phones blink: for half of them the first send's answer is never
read (the request written on a connection of its own, closed 0-100 ms later: the server may or
may not have kept it) and the line is sent again 1 s later, and every one of them sends again
1-5 s after its acknowledgement, the same line or a moved one. Every student polls the room's
state every 1.5 s meanwhile, as the page does. ``--replicas``: the replica not serving the
lecturer's page is killed at half the window, Redis restarted at three quarters.

Measured, and why:

- *sent*: the last acknowledgement's time after the round's start (target 30 s) and each send's
  request-to-acknowledgement (its retries included): how long the hall waits.
- *ack-to-count*: the projector page logs each change of its status's ``data-predictions`` with
  ``Date.now()`` (a MutationObserver); for the k-th student acknowledged (their first line, sorted
  by time) the delay until the projector showed a count >= k (0 where it already did): what the
  lecturer sees of the hall answering (target p90 1 s).
- *lost / stale*: after the reveal the lecturer's state holds the round's lines; every student's
  last acknowledged line must be among them (a lost one otherwise), no other line may be
  (stale: an older line kept over a newer one), their count must equal the students
  acknowledged, and each student's own state must hold their last line.
- *overlay*: from the arrival of the projector's first answer of the ``show`` phase (a wrapped
  ``fetch``: when its headers arrived) to the animation frame after the page's synchronous drawing
  (``Plotly.react`` of the figure, ``drawLines`` of the N lines, the points and the status, seen by
  the MutationObserver on the status's ``data-phase``) (target 250 ms); and ``drawLines`` alone,
  called 5 times on the projector's root with the round it holds (the module imported in the page
  from its own URL), synchronous time and to the next frame. The same for the reveal.
- the servers' CPU over the sends, the students' own CPU and the load average (a shared machine).

``--output BENCHMARKS.md`` writes the run's row into that file's section (a row per setting and
number of students, the other rows kept), with the machine it ran on.
"""

import asyncio
import json
import random
import resource
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from bench import machine
from bench.load import loadavg
from bench.room import KILLED_CPU, Student, address, open_projector, run_one, run_replicas, seat
from bench.room_predict_report import draw_times, figures, row, with_row
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path
from ui.rooms.protocol import API

DROPPED = 0.5  # of the blinking phones, the share whose first send's answer is never read
RETRY = 1.0  # the page's retry (ui/rooms/student_round.js RETRY_MS)
RESEND = (1.0, 5.0)  # a blinking phone sends again this many seconds after its acknowledgement
BLINK = [0.2]  # the share of the phones that blink (--blink)
BOX = (-2.0, 2.0, -1.0, 2.0)  # the lines' ends, well inside the default scene's window

# In the projector's page: the status's count and phase and the root's line count as they change
# (a MutationObserver: the values the page shows), the animation frame after each phase's drawing,
# and the arrival of each full state answer (a wrapped fetch) with its phase and number of lines.
WATCH_JS = """() => {
  if (window.__pgBenchRound) return;
  const seen = window.__pgBenchRound = {counts: [], phases: [], lines: [], answers: []};
  const last = {};
  new MutationObserver((records) => {
    for (const record of records) {
      const target = /** @type {HTMLElement} */ (record.target), name = record.attributeName;
      const ours = name === 'data-lines' ? target.classList.contains('pg-projector')
        : target.classList.contains('pg-projector-status');
      const value = target.getAttribute(name);
      if (!ours || last[name] === value) continue;
      last[name] = value;
      if (name === 'data-predictions') seen.counts.push([+value, Date.now()]);
      else if (name === 'data-lines') seen.lines.push([+value, performance.now()]);
      else {
        const entry = [value, performance.now(), null];
        seen.phases.push(entry);
        requestAnimationFrame(() => { entry[2] = performance.now(); });
      }
    }
  }).observe(document.body, {subtree: true, attributes: true,
    attributeFilter: ['data-predictions', 'data-phase', 'data-lines']});
  const original = window.fetch;
  window.fetch = async function (...args) {
    const response = await original.apply(this, args);
    const arrived = performance.now();
    if (String(args[0]).includes('/state?')) {
      const read = response.json.bind(response);
      response.json = async () => {
        const answer = await read();
        if (answer && answer.figure && answer.round) {
          seen.answers.push([answer.round.phase, (answer.round.lines || []).length, arrived, performance.now()]);
        }
        return answer;
      };
    }
    return response;
  };
}"""
TOKEN_JS = "() => document.querySelector('.pg-projector').parentElement.__pgRoom.token"
# The phase's drawing is over (its frame logged) and the projector draws ``n`` lines.
DRAWN_JS = """([phase, n]) => {
  const entry = window.__pgBenchRound.phases.find((e) => e[0] === phase);
  return !!entry && entry[2] !== null && +document.querySelector('.pg-projector').dataset.lines >= n;
}"""
# drawLines alone on the projector's root, ``repeats`` times: [[synchronous ms, to the next frame ms]].
DRAW_ALONE_JS = """async (repeats) => {
  const names = performance.getEntriesByType('resource').map((e) => e.name);
  let url = names.find((n) => n.includes('/rooms/projector_round.js'));
  const projector = names.find((n) => n.includes('/rooms/projector.js'));
  if (!url && projector) url = new URL('./projector_round.js', projector).href;
  if (!url) return null;
  const {drawLines} = await import(url);
  const root = document.querySelector('.pg-projector');
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    drawLines(root, root.__pgRound);
    const drawn = performance.now();
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    times.push([drawn - start, performance.now() - start]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return times;
}"""


def random_line(rng):
    """A student's line: one end in the box's left part, the other in its right part (apart)."""
    x_min, x_max, y_min, y_max = BOX
    return [rng.uniform(x_min, -0.5), rng.uniform(y_min, y_max), rng.uniform(0.5, x_max), rng.uniform(y_min, y_max)]


def moved(line, rng):
    """The line with each end moved by up to 0.3, kept in the box."""
    x_min, x_max, y_min, y_max = BOX
    x1, y1, x2, y2 = (v + rng.uniform(-0.3, 0.3) for v in line)
    clip = lambda v, low, high: max(low, min(high, v))  # noqa: E731
    return [clip(x1, x_min, -0.5), clip(y1, y_min, y_max), clip(x2, 0.5, x_max), clip(y2, y_min, y_max)]


async def unanswered(url, forwarded, path, body, wait):
    """A POST whose answer is never read: written on a connection of its own, closed ``wait`` s later."""
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    _reader, writer = await asyncio.open_connection(host, port)
    head = (
        f"POST {parts.path.rstrip('/')}{path} HTTP/1.1\r\nHost: {host}:{port}\r\nX-Forwarded-For: {forwarded}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    writer.write(head.encode() + body)
    await writer.drain()
    await asyncio.sleep(wait)
    writer.close()


class Predictor(Student):
    """One phone in the round: its line sent (and, blinking, dropped and sent again), its poll on."""

    def __init__(self, index, url, code, rng, blink, stop):
        super().__init__(index, url, code, rng)
        self.url, self.blink, self.stop = url, blink, stop
        self.sends = []  # (request's start, acknowledged, the line the room answered) of each 200
        self.dropped = 0
        self.dropped_kept = 0  # dropped sends the room had kept before the retry (the student's own state)
        self.poller = None
        self.mine = None  # the line the student's own state holds after the reveal

    def polling(self, until):
        return not self.stop.is_set()

    async def send(self, line):
        started = time.time()
        status, answer = await self.post("predict", {"sid": self.sid, "key": self.key, "line": line})
        if status == 200:
            self.sends.append((started, time.time(), answer["line"]))
        else:
            self.refused += 1

    async def drop(self, line):
        """The phone blinks: the send reaches the server (or not), its answer is never read; the
        student's own state read just before the retry tells whether the room kept it."""
        body = json.dumps({"code": self.code, "sid": self.sid, "key": self.key, "line": line}).encode()
        self.dropped += 1
        try:
            await unanswered(self.url, address(self.index), f"{API}/predict", body, self.rng.uniform(0, 0.1))
        except OSError:
            pass
        await asyncio.sleep(RETRY - 0.2)
        self.dropped_kept += (await self.own_line()) is not None
        await asyncio.sleep(0.2)

    async def run_round(self, start, window):
        self.poller = asyncio.create_task(self.poll(None))
        await asyncio.sleep(max(0.0, start + self.rng.uniform(0, window) - time.time()))
        line = random_line(self.rng)
        if self.blink and self.rng.random() < DROPPED:
            await self.drop(line)  # then the page's retry, 1 s after
        await self.send(line)
        if self.blink:
            await asyncio.sleep(self.rng.uniform(*RESEND))
            await self.send(line if self.rng.random() < 0.5 else moved(line, self.rng))

    async def own_line(self):
        """The line the student's own state answer holds (``round.mine``), kept in ``mine``."""
        while True:
            try:
                status, content = await self.connection.get(f"{API}/state", {"c": self.code, "sid": self.sid})
                if status == 200:
                    self.mine = (json.loads(content).get("round") or {}).get("mine")
                    return self.mine
            except OSError:
                pass
            await asyncio.sleep(1.0)


class Signals:
    """The bench's two threads' hand-offs: joined, go (the round started), sent, stop (the polls)."""

    def __init__(self):
        self.joined, self.go, self.sent, self.stop = (threading.Event() for _ in range(4))


def _cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def hall(url, code, n, window, blink, signals, box, seed=47):
    """The students (on this thread's event loop): joined, then, from ``box["start"]``, their
    lines sent; they poll until ``signals.stop``, then read their own lines. Fills ``box``."""
    rng = random.Random(seed)
    everyone = [
        Predictor(i, url, code, random.Random(rng.random()), rng.random() < blink, signals.stop) for i in range(n)
    ]
    seated = box["seated"] = await seat(everyone)
    box["refused seats"] = n - len(seated)
    signals.joined.set()
    await asyncio.to_thread(signals.go.wait)
    cpu = _cpu()
    await asyncio.gather(*(s.run_round(box["start"], window) for s in seated))
    box["client cpu"], box["sent at"] = _cpu() - cpu, time.time()
    signals.sent.set()
    await asyncio.to_thread(signals.stop.wait)
    await asyncio.gather(*(s.poller for s in seated))
    await asyncio.gather(*(s.own_line() for s in seated))
    for s in everyone:
        s.connection.close()


class Lecturer:
    """The lecturer's requests, with the token their page holds (retried while a replica or Redis is away)."""

    def __init__(self, api, code, token):
        self.api, self.code, self.token = api, code, token

    def call(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"X-Room-Token": self.token, "Content-Type": "application/json"}
        deadline = time.time() + 60
        while True:
            try:
                request = urllib.request.Request(self.api + path, data=data, headers=headers)
                with urllib.request.urlopen(request, timeout=10) as response:
                    return json.loads(response.read())
            except urllib.error.HTTPError as err:
                if err.code not in (429, 502, 503, 504) or time.time() > deadline:
                    raise
            except OSError:
                if time.time() > deadline:
                    raise
            time.sleep(0.5)

    def control(self, value):
        return self.call("/control", {"code": self.code, "token": self.token, "action": "round", "value": value})

    def state(self):
        return self.call(f"/state?c={self.code}&since=0")


def wait(page, runner, event):
    """Until ``event`` is set, the projector page living on; the students' thread must be alive."""
    while not event.is_set():
        if not runner.is_alive():
            raise RuntimeError("the students' thread ended early")
        page.wait_for_timeout(200)


def drawn(page, lecturer, phase, n):
    """The ``phase`` control sent, then the projector's drawing of it (``draw_times``)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    lecturer.control(phase)
    try:
        page.wait_for_function(DRAWN_JS, arg=[phase, n], timeout=60_000)
    except PlaywrightTimeout:
        print(f"the projector did not draw {n} lines at the {phase} within 60 s")
    return draw_times(page.evaluate("window.__pgBenchRound"), phase)


def round_on_page(page, runner, signals, box, lecturer, servers, timers):
    """The round from the lecturer's side: start, the sends, the count, show, reveal. {figures}."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    wait(page, runner, signals.joined)
    lecturer.control("predict")  # (a retried "predict" would start the round anew: harmless before any line)
    box["start"], cpu = time.time(), sum(s.cpu_seconds() for s in servers)
    signals.go.set()
    timers()
    wait(page, runner, signals.sent)
    got = {"server cpu": sum(s.cpu_seconds() for s in servers if s.alive()) + sum(KILLED_CPU) - cpu}
    acked = sum(1 for s in box["seated"] if s.sends)
    try:
        check = f"+document.querySelector('.pg-projector-status').dataset.predictions >= {acked}"
        page.wait_for_function(check, timeout=30_000)
    except PlaywrightTimeout:
        print(f"the projector's count did not reach {acked} within 30 s")
    got["show"] = drawn(page, lecturer, "show", acked)
    got["alone"] = page.evaluate(DRAW_ALONE_JS, 5)
    page.locator(".pg-projector").scroll_into_view_if_needed()
    page.screenshot(path=ARTIFACTS / "room-predict-projector.png")  # the show's overlay, to look at
    got["reveal"] = drawn(page, lecturer, "reveal", acked)
    got["final"] = lecturer.state()
    got["seen"] = page.evaluate("window.__pgBenchRound")
    signals.stop.set()
    return got


def measure(url, servers, n, seconds, kill=None, restart_redis=None):
    """``bench.room.run_one`` / ``run_replicas``'s ``how``: the round against ``url``; its figures."""
    from playwright.sync_api import sync_playwright

    load_before = loadavg()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        code = open_projector(page, url)
        lecturer = Lecturer(url + API, code, page.evaluate(TOKEN_JS))
        page.evaluate(WATCH_JS)
        signals, box = Signals(), {}

        def students():
            try:
                asyncio.run(hall(url, code, n, seconds, BLINK[0], signals, box))
            finally:
                signals.joined.set()  # never leave the page's side waiting on a thread that died

        started = []  # the timers, cancelled if the run ends before they fire

        def timers():  # as bench.room: the replica not serving the lecturer's page, then Redis
            if kill:
                serving = page.request.get(f"{url}/_stcore/health").headers.get("x-playground-replica", "")
                started.append(threading.Timer(seconds / 2, kill, (serving,)))
            if restart_redis:
                started.append(threading.Timer(seconds * 3 / 4, restart_redis, (lambda: time.sleep(1.0),)))
            for timer in started:
                timer.start()

        runner = threading.Thread(target=students)
        runner.start()
        try:
            got = round_on_page(page, runner, signals, box, lecturer, servers, timers)
        finally:
            for timer in started:
                timer.cancel()
            signals.stop.set()
            signals.go.set()
            runner.join()
        browser.close()
    return figures(box, got, load_before)


def main(args):
    """``python -m bench room --predict`` (bench/room.py's options)."""
    BLINK[0] = args.blink
    window = args.seconds or 20.0
    replicas = "2 replicas + nginx + Redis, one killed, Redis restarted"
    where = replicas if args.replicas else "one server, rooms in the process"
    blinking = f"{args.blink:.0%} blinking"
    print(f"Prediction round: {args.students} students within {window:g} s, {blinking} ({where}; load {loadavg()})")
    described = machine.describe()
    run = run_replicas if args.replicas else run_one
    result = run(args.students, window, args.root, args.seats, args.points, how=measure)
    if args.output != "-":
        output = Path(args.output)
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        line = row(result, where, when)
        output.write_text(with_row(output.read_text() if output.exists() else "", line, described))
        print(f"Wrote its row into {args.output}")
    return result
