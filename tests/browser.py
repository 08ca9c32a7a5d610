"""Helpers for real-browser tests: a Streamlit server on a free port and headless chromium."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerURL(str):
    """A server's URL that also holds its process (a test may pause it to play a busy server)."""

    process = None


@contextmanager
def streamlit_server(script="streamlit_app.py", timeout=60):
    """Start ``streamlit run script`` on a free loopback port; yield its URL (a ``ServerURL``); stop it."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(ROOT / script),
        "--server.headless",
        "true",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--browser.gatherUsageStats",
        "false",
        "--server.fileWatcherType",
        "none",
    ]
    log = open(ARTIFACTS / f"server-{port}.log", "w")  # noqa: SIM115  (closed below)
    process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = ServerURL(f"http://127.0.0.1:{port}")
    url.process = process
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Streamlit did not start; see {log.name}")
            time.sleep(0.2)
        yield url
    finally:
        process.send_signal(signal.SIGCONT)  # in case a test left it paused
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def chromium_path():
    """Debian's chromium; its absence is a failure, never a skip (the test command installs it)."""
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("Debian's chromium is not installed: run the README's test command, which installs it.")
    return path


def wait_settled(page, quiet_ms=700, timeout=15.0):
    """Wait until the canvas revision (set after each Plotly.react) has not changed for ``quiet_ms``:
    a click can be followed by a rerun that adjusts the view, and measurements must not overlap it."""
    read = "() => document.querySelector('.pg-canvas')?.dataset.revision"
    deadline = time.monotonic() + timeout
    last, since = page.evaluate(read), time.monotonic()
    while time.monotonic() < deadline:
        page.wait_for_timeout(100)
        current = page.evaluate(read)
        if current != last:
            last, since = current, time.monotonic()
        elif (time.monotonic() - since) * 1000 >= quiet_ms:
            return
    raise AssertionError("the canvas kept changing")


# JavaScript run in the page: facts about the canvas the tests assert on.
CANVAS_STATE_JS = """() => {
  const root = document.querySelector('.pg-canvas');
  const traces = root._fullData || [];  // decoded arrays (data keeps the base64 bdata)
  const points = traces.filter(t => t.meta === 'points');
  const ids = points.flatMap(t => Array.from(t.customdata || []));
  const xs = points.flatMap(t => Array.from(t.x || [])), ys = points.flatMap(t => Array.from(t.y || []));
  return {
    revision: root.dataset.revision,
    n_points: ids.length,
    classes: points.map(t => t.name),
    boundary: traces.some(t => t.meta === 'boundary'),
    regions: traces.some(t => t.name === 'regions'),  // a heatmap, or exact polygons for linear models
    xrange: root._fullLayout.xaxis.range.slice(),
    yrange: root._fullLayout.yaxis.range.slice(),
    xs: xs, ys: ys,
  };
}"""

# Pixel position (page coordinates) of data point (x, y) on the canvas.
DATA_TO_PAGE_JS = """([x, y]) => {
  const root = document.querySelector('.pg-canvas');
  const xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const box = root.querySelector('.main-svg').getBoundingClientRect();
  return [box.left + xa._offset + xa.l2p(x), box.top + ya._offset + ya.l2p(y)];
}"""


@contextmanager
def paused(url):
    """The server's process stopped (SIGSTOP) for the block: the browser's messages wait in the
    socket, as on a busy machine. ``url`` is what ``streamlit_server`` yields."""
    os.kill(url.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(url.process.pid, signal.SIGCONT)


# The plot area in page coordinates, its axis ranges and every data point (its id, data and page
# coordinates): what the gesture tests and the clicks benchmark click on.
GEOMETRY_JS = """() => {
  const root = document.querySelector('.pg-canvas'), l = root._fullLayout;
  const box = root.querySelector('.main-svg').getBoundingClientRect();
  const points = [];
  root._fullData.forEach(t => { if (t.meta === 'points') for (let i = 0; i < t._length; i++) points.push({
    id: t.customdata[i], x: t.x[i], y: t.y[i],
    px: box.left + l.xaxis._offset + l.xaxis.l2p(t.x[i]), py: box.top + l.yaxis._offset + l.yaxis.l2p(t.y[i]) }); });
  return {left: box.left + l.xaxis._offset, top: box.top + l.yaxis._offset, width: l.xaxis._length,
          height: l.yaxis._length, xrange: l.xaxis.range.slice(), yrange: l.yaxis.range.slice(), points: points};
}"""

PAGE_TO_DATA_JS = """([px, py]) => {
  const root = document.querySelector('.pg-canvas'), xa = root._fullLayout.xaxis, ya = root._fullLayout.yaxis;
  const box = root.querySelector('.main-svg').getBoundingClientRect();
  return [xa.p2l(px - box.left - xa._offset), ya.p2l(py - box.top - ya._offset)];
}"""


@contextmanager
def cpu_burners(n=2, seconds=120):
    """``n`` processes spinning on the processor (a machine busy with other work), stopped after."""
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"
    burners = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(n)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
