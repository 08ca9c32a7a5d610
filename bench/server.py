"""A Streamlit server for the load benchmarks, watched from outside: its CPU time and memory.

CPU time is read from /proc: the server process's user + system time (all its threads) plus that
of its live children (the fitting workers) and of the children it has reaped. Memory is the
resident set size (RSS) of the server process, and of the whole tree.
"""

import os
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.browser import ARTIFACTS, free_port

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid):
    """(own CPU s, reaped children's CPU s, RSS bytes) of ``pid``, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # Fields after the command: state(0) ... utime(11) stime(12) cutime(13) cstime(14) ... rss(21)
    own = (int(fields[11]) + int(fields[12])) / TICKS
    reaped = (int(fields[13]) + int(fields[14])) / TICKS
    return own, reaped, int(fields[21]) * PAGE


def children(pid):
    pids = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                pids += [int(p) for p in handle.read().split()]
    except OSError:
        pass
    return pids


class Server:
    """A running ``streamlit run`` of the playground (``root`` may be another checkout)."""

    def __init__(self, process, url, log):
        self.process, self.url, self.log = process, url, log

    @property
    def pid(self):
        return self.process.pid

    def cpu_seconds(self, tree=True):
        """CPU time used so far by the server (and, with ``tree``, by its fitting workers)."""
        stat = _stat(self.pid)
        if stat is None:
            return 0.0
        total = stat[0] + (stat[1] if tree else 0.0)
        if tree:
            for child in children(self.pid):
                child_stat = _stat(child)
                if child_stat is not None:
                    total += child_stat[0] + child_stat[1]
        return total

    def rss(self, tree=False):
        stat = _stat(self.pid)
        total = stat[2] if stat else 0
        if tree:
            total += sum((_stat(child) or (0, 0, 0))[2] for child in children(self.pid))
        return total

    def alive(self):
        return self.process.poll() is None


@contextmanager
def streamlit(root=ROOT, *, port=None, env=None, args=(), timeout=90, script="streamlit_app.py"):
    """Start the playground in ``root`` on a loopback port; yield a ``Server``; stop it."""
    ARTIFACTS.mkdir(exist_ok=True)
    port = port or free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(Path(root) / script),
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
        *args,
    ]
    log = open(ARTIFACTS / f"server-{port}.log", "w")  # noqa: SIM115  (closed below)
    process = subprocess.Popen(
        command, cwd=root, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})}
    )
    base = next((a.split("=", 1)[1] for a in args if a.startswith("--server.baseUrlPath=")), "")
    url = f"http://127.0.0.1:{port}" + (f"/{base.strip('/')}" if base.strip("/") else "")
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
        yield Server(process, url, log.name)
    finally:
        for child in children(process.pid):
            try:
                os.kill(child, 9)
            except OSError:
                pass
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
