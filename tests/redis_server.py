"""Debian's ``redis-server`` for the room tests, in the foreground with its own configuration,
port and directory (as ``tests/test_replicas.py`` runs nginx); no system service is used.

The configuration is the deployment's durability: the append-only file fsynced on every write
(``appendfsync always``), so a point acknowledged before Redis dies is there when it restarts.
"""

import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from tests.browser import free_port


def redis_server_path():
    path = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)
    if not path:
        raise RuntimeError("Debian's redis-server is not installed: run scripts/test.sh, which installs it.")
    return path


def start_redis(directory, port):
    """A redis-server process on loopback ``port``, its files in ``directory``, ready to answer."""
    directory.mkdir(parents=True, exist_ok=True)
    config = directory / "redis.conf"
    config.write_text(
        f"port {port}\nbind 127.0.0.1\ndir {directory}\nappendonly yes\nappendfsync always\n"
        'save ""\nlogfile redis.log\ndaemonize no\nprotected-mode yes\n'
    )
    process = subprocess.Popen([redis_server_path(), str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(64).startswith(b"+PONG"):
                    return process
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            log = directory / "redis.log"
            raise RuntimeError(f"redis-server did not start: {log.read_text() if log.exists() else ''}")
        time.sleep(0.05)


def stop(process):
    process.kill()
    process.wait(timeout=10)


@contextmanager
def redis_server(directory, port=None):
    """(url, restart): a running Redis and a function that kills it (SIGKILL) and starts it again
    on the same port and files, calling ``between()`` (if given) while it is down."""
    port = port or free_port()
    state = {"process": start_redis(Path(directory), port)}

    def restart(between=None):
        stop(state["process"])
        if between is not None:
            between()
        state["process"] = start_redis(Path(directory), port)

    try:
        yield f"redis://127.0.0.1:{port}/0", restart
    finally:
        stop(state["process"])
