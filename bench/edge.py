"""``python -m bench edge``: the HTTP edge under a hostile client, against the four targets below
(what a public server must survive: slow uploads, heavy scenes, one address's flood, malformed requests).

One fresh server per checkout (this one, and with ``--compare-with ROOT`` another, in the same
run), loopback only, every loop bounded; the run stops by itself. Measured:

1. Half-sent uploads: ``--uploads`` connections (3,000) each declare ``Content-Length: 500000`` to
   the live route, send 400 KB and go quiet. The server's RSS before, at its peak and after; the
   share of those connections the server closed within 30 s; a normal live request's wall time
   (from 127.0.0.2) once every upload has sent its 400 KB, while they are held (target: RSS
   growth < 150 MB, >= 90% closed, the request < 1 s).
2. The heavy live scene (5,000 points, 6 classes, one-versus-one, 100 RBF centres): wall time of
   five requests, each answered or refused (target: <= 0.6 s).
3. One address (127.0.0.1) floods the live route for ``--seconds`` (20) with heavy scenes and
   500 KB junk bodies from several connections; another address (127.0.0.2, a second loopback
   address, so no header is trusted; a process of its own) asks a normal live frame every 100 ms:
   its p90 and the share refused (target: p90 < 300 ms, refused < 10%).
4. The hostile set (``hostile_requests``): huge numbers, wrong types, text/plain and cross-origin
   POSTs, ``since=²``... on the live and room routes: responses with status 5xx (target: 0).

The machine's load average is printed with the figures (a shared machine changes them).
"""

import argparse
import asyncio
import json
import multiprocessing
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.load_common import loadavg, percentile
from bench.server import ROOT, streamlit

UPLOAD_DECLARED = 500_000
UPLOAD_SENT = 400_000
CLOSE_WINDOW = 30.0
NORMAL = "normal"


def live_body(scene_query, edits=()):
    return {"scene": scene_query, "edits": list(edits), "add_as": 1, "add_test": False, "scale": 1.0, "language": "en"}


def scenes():
    """(normal live body, heavy live body) as JSON bytes, made with this checkout's link encoder."""
    from playground.link import encode_scene
    from playground.scene import PointSet, Scene
    from ui.session.state import default_scene

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(5_000, 2)) * 2, rng.integers(0, 6, size=5_000)
    heavy = Scene(
        points=PointSet.from_arrays(X, y),
        method="least_squares",
        multiclass="ovo",
        basis="rbf",
        basis_params=(("n_centres", 100),),
    )
    move = [{"type": "move", "ids": [0], "dx": 0.1, "dy": 0.0}]
    normal = json.dumps(live_body(encode_scene(default_scene()), move)).encode()
    return normal, json.dumps(live_body(encode_scene(heavy), move)).encode()


async def request(port, method, path, body=b"", headers=None, source="127.0.0.1", timeout=15.0):
    """(status or None, seconds): one HTTP/1.1 request on its own connection from ``source``."""
    started = time.perf_counter()
    headers = {"Host": f"127.0.0.1:{port}", "Connection": "close", **(headers or {})}
    if body or method == "POST":
        headers.setdefault("Content-Type", "application/json")
        headers["Content-Length"] = str(len(body))
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
    writer = None
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), timeout
        )
        writer.write(head.encode("latin-1") + body)
        line = await asyncio.wait_for(reader.readline(), timeout)
        await asyncio.wait_for(reader.read(), timeout)
        status = int(line.split()[1]) if line.startswith(b"HTTP/") else None
    except (TimeoutError, OSError, ValueError, IndexError):
        status = None
    finally:
        if writer is not None:
            writer.close()
    return status, time.perf_counter() - started


async def half_sent_uploads(server, port, n, normal):
    """Figures of part 1 (see the module's docstring)."""
    rss_before = server.rss()
    peak = [rss_before]
    closed_at = {}
    started = time.monotonic()
    head = (
        f"POST /api/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {UPLOAD_DECLARED}\r\n\r\n"
    ).encode()
    payload = b"x" * UPLOAD_SENT
    writers = []
    sent = [0]

    async def one(index):
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
        except (TimeoutError, OSError):
            closed_at[index] = None  # never opened
            return
        writers.append(writer)
        try:
            writer.write(head + payload)
            await asyncio.wait_for(writer.drain(), 5)
        except (TimeoutError, OSError):
            pass
        sent[0] += 1
        try:
            while await asyncio.wait_for(reader.read(65536), CLOSE_WINDOW + 60):
                pass
            closed_at[index] = time.monotonic() - started
        except (TimeoutError, OSError):
            closed_at[index] = time.monotonic() - started  # a reset is the server closing too

    async def watch():
        while time.monotonic() - started < CLOSE_WINDOW + 5:
            peak[0] = max(peak[0], server.rss())
            await asyncio.sleep(0.25)

    watcher = asyncio.create_task(watch())
    tasks = []
    for index in range(n):
        tasks.append(asyncio.create_task(one(index)))
        if index % 100 == 99:
            await asyncio.sleep(0.05)
    while sent[0] + sum(1 for t in closed_at.values() if t is None) < n and time.monotonic() - started < CLOSE_WINDOW:
        await asyncio.sleep(0.05)  # until every upload has sent its 400 KB (or was cut off): now they are held
    opened_in = time.monotonic() - started
    status, normal_seconds = await request(port, "POST", "/api/live", normal, source="127.0.0.2")
    await asyncio.sleep(max(0.0, CLOSE_WINDOW - (time.monotonic() - started)))
    within = sum(1 for t in closed_at.values() if t is not None and t <= CLOSE_WINDOW)
    for writer in writers:
        writer.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await watcher
    await asyncio.sleep(3)
    return {
        "rss_before_mb": rss_before / 2**20,
        "rss_peak_mb": peak[0] / 2**20,
        "rss_after_mb": server.rss() / 2**20,
        "closed_share": within / n,
        "opened_seconds": opened_in,
        "normal_status": status,
        "normal_seconds": normal_seconds,
    }


async def heavy_scene(port, heavy, repeats=5):
    times, statuses = [], []
    for _ in range(repeats):
        status, seconds = await request(port, "POST", "/api/live", heavy, timeout=30)
        times.append(seconds)
        statuses.append(status)
        await asyncio.sleep(1.1)  # stay within the rate limit
    return {"heavy_max_s": max(times), "heavy_median_s": statistics.median(times), "heavy_statuses": statuses}


async def flood(port, normal, heavy, seconds, workers=8):
    """Part 3: 127.0.0.1 floods; 127.0.0.2 asks a normal frame every 100 ms."""
    junk = b'{"scene": {"p": "' + b"A" * 500_000 + b'"}, "edits": []}'
    stop = time.monotonic() + seconds
    flooded = [0]

    async def flooder(index):
        while time.monotonic() < stop:
            await request(port, "POST", "/api/live", heavy if index % 2 else junk, timeout=10)
            flooded[0] += 1

    # The other address is another process: its times are the server's, not this flood's queue.
    with multiprocessing.get_context("fork").Pool(1) as pool:
        probing = pool.apply_async(_probe, (port, normal, stop - time.monotonic()))
        await asyncio.gather(*(flooder(i) for i in range(workers)))
        results = probing.get(timeout=seconds + 60)
    times = [s for _, s in results]
    refused = sum(1 for status, _ in results if status != 200)
    return {
        "probe_requests": len(results),
        "probe_median_ms": 1000 * statistics.median(times) if times else None,
        "probe_p90_ms": 1000 * percentile(times, 90) if times else None,
        "probe_refused_share": refused / len(results) if results else None,
        "flood_requests": flooded[0],
    }


def _probe(port, normal, seconds):
    """A normal live frame every 100 ms from 127.0.0.2 for ``seconds`` (after 1 s): (status, s)."""

    async def prober():
        stop = time.monotonic() + seconds
        await asyncio.sleep(1.0)  # the flood is under way
        results = []
        while time.monotonic() < stop:
            results.append(await request(port, "POST", "/api/live", normal, source="127.0.0.2", timeout=10))
            await asyncio.sleep(0.1)
        return results

    return asyncio.run(prober())


def hostile_requests(normal):
    """(name, method, path, body bytes, headers) of the hostile set."""
    huge = "1" * 400
    base = json.loads(normal)
    scene = json.dumps(base["scene"])

    def live(**fields):
        return json.dumps({**base, **fields}).encode()

    def raw_live(edit):
        return ('{"scene": ' + scene + ', "edits": [' + edit + "]}").encode()

    cases = [
        (
            "live add_as 400 digits",
            "POST",
            "/api/live",
            raw_live("").replace(b'"edits"', f'"add_as": {huge}, "edits"'.encode()),
            {},
        ),
        (
            "live scale 400 digits",
            "POST",
            "/api/live",
            raw_live("").replace(b'"edits"', f'"scale": {huge}, "edits"'.encode()),
            {},
        ),
        ("live x 400 digits", "POST", "/api/live", raw_live(f'{{"type": "add", "x": {huge}, "y": 0}}'), {}),
        (
            "live dx 400 digits",
            "POST",
            "/api/live",
            raw_live(f'{{"type": "move", "ids": [1], "dx": {huge}, "dy": 0}}'),
            {},
        ),
        ("live ids 400 digits", "POST", "/api/live", raw_live(f'{{"type": "remove", "ids": [{huge}]}}'), {}),
        ("live ids ±1e308", "POST", "/api/live", raw_live('{"type": "remove", "ids": [1e308, -1e308]}'), {}),
        ("live NaN", "POST", "/api/live", raw_live('{"type": "add", "x": NaN, "y": 0}'), {}),
        ("live wrong types", "POST", "/api/live", live(edits="add", scale="big", add_as=[1]), {}),
        ("live scene a list", "POST", "/api/live", live(scene=[1, 2]), {}),
        ("live not JSON", "POST", "/api/live", b"{not json", {}),
        ("live deep nesting", "POST", "/api/live", b"[" * 50_000 + b"]" * 50_000, {}),
        ("live text/plain", "POST", "/api/live", normal, {"Content-Type": "text/plain"}),
        ("live cross-origin", "POST", "/api/live", normal, {"Origin": "http://evil.example"}),
        (
            "live cross-origin text/plain",
            "POST",
            "/api/live",
            normal,
            {"Origin": "http://evil.example", "Content-Type": "text/plain"},
        ),
        ("live GET", "GET", "/api/live", b"", {}),
        (
            "room open text/plain cross-origin",
            "POST",
            "/api/room/open",
            b'{"scene": {}}',
            {"Origin": "http://evil.example", "Content-Type": "text/plain"},
        ),
        ("room join text/plain", "POST", "/api/room/join", b'{"code": "ABCDEFGH"}', {"Content-Type": "text/plain"}),
        ("room join huge numbers", "POST", "/api/room/join", f'{{"code": {huge}, "nick": {huge}}}'.encode(), {}),
        (
            "room add huge numbers",
            "POST",
            "/api/room/add",
            f'{{"code": "ABCDEFGH", "sid": "x", "key": "y", "x": {huge}, "y": 0, "label": {huge}, '
            f'"seq": {huge}}}'.encode(),
            {},
        ),
        (
            "room control huge limit",
            "POST",
            "/api/room/control",
            f'{{"code": "ABCDEFGH", "token": "t", "action": "limit", "value": {huge}}}'.encode(),
            {},
        ),
        (
            "room add wrong types",
            "POST",
            "/api/room/add",
            b'{"code": ["A"], "sid": {}, "key": 1, "x": "1", "y": null}',
            {},
        ),
        ("room state since=²", "GET", "/api/room/state?c=ABCDEFGH&since=%C2%B2", b"", {}),
        ("room state since huge", "GET", f"/api/room/state?c=ABCDEFGH&since={huge}", b"", {}),
        ("room state odd scale", "GET", "/api/room/state?c=ABCDEFGH&scale=1e999&shape=%00", b"", {}),
        ("room page odd lang", "GET", "/room?lang=%00%FF&c=" + "A" * 5000, b"", {}),
        ("room asset traversal", "GET", "/room/assets/..%2F..%2Fstreamlit_app.py", b"", {}),
        ("page POST junk", "POST", "/", b"x" * 10_000, {"Content-Type": "text/plain"}),
        (
            "upload no session",
            "PUT",
            "/_stcore/upload_file/x/y",
            b"x" * 1000,
            {"Content-Type": "multipart/form-data; boundary=z"},
        ),
    ]
    return cases


async def hostile(port, normal):
    fives, answered, failed = [], 0, []
    for name, method, path, body, headers in hostile_requests(normal):
        status, _ = await request(port, method, path, body, headers, timeout=15)
        if status is None:
            failed.append(name)
        elif status >= 500:
            fives.append(f"{name} ({status})")
        else:
            answered += 1
        await asyncio.sleep(0.05)
    return {"hostile_total": answered + len(fives) + len(failed), "hostile_5xx": fives, "hostile_no_answer": failed}


async def measure(root, uploads, seconds):
    normal, heavy = scenes()
    with streamlit(root, env={"PLAYGROUND_FIT_WORKERS": "1"}) as server:
        port = int(server.url.rsplit(":", 1)[1])
        figures = {"load_before": loadavg()}
        figures.update(await hostile(port, normal))
        await asyncio.sleep(2)
        figures.update(await heavy_scene(port, heavy))
        await asyncio.sleep(2)
        figures.update(await flood(port, normal, heavy, seconds))
        await asyncio.sleep(3)
        figures.update(await half_sent_uploads(server, port, uploads, normal))
        figures["load_after"] = loadavg()
        figures["server_alive"] = server.alive()
    return figures


def before_checkout(commit):
    """A worktree of ``commit`` in a temporary directory (removed by the caller)."""
    where = Path(tempfile.mkdtemp(prefix="edge-before-")) / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(where), commit], check=True, capture_output=True
    )
    return where


ROWS = [
    ("Half-sent uploads: RSS before (MB)", "rss_before_mb", "{:.0f}"),
    ("  RSS peak (MB)", "rss_peak_mb", "{:.0f}"),
    ("  RSS growth at the peak (MB; target < 150)", "rss_growth_mb", "{:.0f}"),
    ("  RSS after they closed (MB)", "rss_after_mb", "{:.0f}"),
    ("  connections closed by the server within 30 s (target >= 90%)", "closed_share", "{:.0%}"),
    ("  a normal live request meanwhile: status", "normal_status", "{}"),
    ("  a normal live request meanwhile: wall s (target < 1)", "normal_seconds", "{:.2f}"),
    ("Heavy live scene: wall s, worst of 5 (target <= 0.6)", "heavy_max_s", "{:.2f}"),
    ("  median of 5", "heavy_median_s", "{:.2f}"),
    ("  statuses", "heavy_statuses", "{}"),
    ("Flood 20 s: the other address's p90 ms (target < 300)", "probe_p90_ms", "{:.0f}"),
    ("  its median ms", "probe_median_ms", "{:.0f}"),
    ("  its refused share (target < 10%)", "probe_refused_share", "{:.0%}"),
    ("  its requests / the flood's requests", "probe_vs_flood", "{}"),
    ("Hostile set: requests", "hostile_total", "{}"),
    ("  answered 5xx (target 0)", "hostile_5xx_n", "{}"),
    ("  no answer (connection dropped)", "hostile_no_answer_n", "{}"),
    ("Load average (1, 5, 15 min) before → after", "load", "{}"),
]


def _derived(figures):
    f = dict(figures)
    f["rss_growth_mb"] = f["rss_peak_mb"] - f["rss_before_mb"]
    f["probe_vs_flood"] = f"{f['probe_requests']} / {f['flood_requests']}"
    f["hostile_5xx_n"] = len(f["hostile_5xx"])
    f["hostile_no_answer_n"] = len(f["hostile_no_answer"])
    f["load"] = f"{f['load_before']} → {f['load_after']}"
    return f


def report(columns):
    """A markdown table: one column per checkout."""
    names = list(columns)
    lines = ["| | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    derived = {name: _derived(figures) for name, figures in columns.items()}
    for label, key, fmt in ROWS:
        cells = []
        for name in names:
            value = derived[name].get(key)
            cells.append("n/a" if value is None else fmt.format(value))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    for name in names:
        for key in ("hostile_5xx", "hostile_no_answer"):
            if derived[name][key]:
                lines.append(f"\n{name}, {key.replace('_', ' ')}: " + "; ".join(derived[name][key]))
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench edge", description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=3_000, help="half-sent uploads held at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the flood")
    parser.add_argument("--compare-with", default=None, help="a commit measured the same way first (e.g. 6270e11)")
    parser.add_argument("--output", default="-", help="markdown file to write the table to ('-': print only)")
    args = parser.parse_args(argv)
    columns = {}
    if args.compare_with:
        where = before_checkout(args.compare_with)
        try:
            columns[f"before ({args.compare_with})"] = asyncio.run(measure(where, args.uploads, args.seconds))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(where)], capture_output=True)
    columns["this tree"] = asyncio.run(measure(ROOT, args.uploads, args.seconds))
    table = report(columns)
    print(table)
    print(json.dumps(columns, indent=1, default=str))
    if args.output != "-":
        Path(args.output).write_text(table)
    return 0
