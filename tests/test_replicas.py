"""More than one machine: three replicas behind Debian's nginx with the shipped configuration
(deploy/nginx/playground.conf), on loopback ports, nginx in the foreground with its own prefix.

Sessions through nginx work and stay isolated, a visitor's requests stick to one replica, the
base URL path is honoured (the page loads plotly.js and draws through the proxy); one replica is
killed: new sessions keep working, and links made on any replica reproduce their scenes on the
others.
"""

import asyncio
import json
import os
import secrets
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import ExitStack
from pathlib import Path

import numpy as np
import pytest

from bench.client import Session
from bench.load import click_spot
from bench.server import ROOT, streamlit
from playground.link import encode_scene
from tests.browser import ARTIFACTS, CHROMIUM_ARGS, chromium_path, free_port
from ui.session.state import default_scene

pytestmark = pytest.mark.browser
DEPLOY = ROOT / "deploy" / "nginx"
BASE = "playground"


def nginx_path():
    path = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if not path:
        raise RuntimeError("Debian's nginx is not installed: run the README's test command, which installs it.")
    return path


def start_nginx(prefix, port, replica_ports):
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "playground-replicas.conf").write_text(
        "".join(f"server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;\n" for p in replica_ports)
    )
    (prefix / "playground-listen.conf").write_text(f"listen 127.0.0.1:{port};\n")
    user = "user root;\n" if os.geteuid() == 0 else ""  # CI runs as root; nginx's workers would be "nobody"
    (prefix / "nginx.conf").write_text(
        f"""{user}worker_processes 1;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {DEPLOY / "playground.conf"};
}}
"""
    )
    process = subprocess.Popen([nginx_path(), "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"])
    url = f"http://127.0.0.1:{port}/{BASE}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return process, url
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                log = (prefix / "error.log").read_text() if (prefix / "error.log").exists() else ""
                process.kill()
                raise RuntimeError(f"nginx did not start: {log}") from None
            time.sleep(0.2)


def get(url, cookie=None):
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=20) as response:
        return response.headers.get("X-Playground-Replica"), response.headers.get("Set-Cookie", "").split(";")[0]


async def use_sessions(url, n, clicks=3, queries=None):
    """Open ``n`` sessions (from ``queries`` when given), click in each; their points and links."""
    sessions = []
    for i in range(n):
        query = queries[i] if queries else ""
        sessions.append(await Session.open(url, query, timeout=300))
    for k in range(clicks):
        for i, session in enumerate(sessions):
            expected = session.canvas.n_points + 1
            await session.click(*click_spot(i, k))
            await session.wait_for(lambda s, expected=expected: s.canvas.n_points >= expected, 120)
    for session in sessions:
        await session.wait_idle(120)
    out = [(session.canvas.points(), session.query, list(session.errors)) for session in sessions]
    serving = [session._socket.response.headers.get("X-Playground-Replica", "") for session in sessions]
    for session in sessions:
        await session.close()
    return out, serving


def test_three_replicas_behind_nginx(tmp_path):
    secret = secrets.token_hex(16)
    env = {"STREAMLIT_SERVER_COOKIE_SECRET": secret, "PLAYGROUND_FIT_WORKERS": "1"}
    args = (f"--server.baseUrlPath={BASE}",)
    with ExitStack() as stack:
        replicas = [stack.enter_context(streamlit(env=env, args=args)) for _ in range(3)]
        ports = [int(r.url.split(":")[2].split("/")[0]) for r in replicas]
        nginx, url = start_nginx(tmp_path / "nginx", free_port(), ports)
        stack.callback(nginx.wait, 10)
        stack.callback(nginx.terminate)

        # Sticky: the same route cookie, the same replica; without one, visitors spread out.
        first, cookie = get(f"{url}/")
        assert cookie.startswith("playground_route=")
        assert {get(f"{url}/", cookie)[0] for _ in range(5)} == {first}
        assert len({get(f"{url}/")[0] for _ in range(12)}) >= 2

        # Sessions through the proxy: each sees its own points only.
        results, serving = asyncio.run(use_sessions(url, 4))
        for i, (points, _, errors) in enumerate(results):
            assert not errors
            assert len(points) == 93
            others = {tuple(np.round(click_spot(j, k), 3)) for j in range(4) if j != i for k in range(3)}
            assert not {tuple(np.round(p, 3)) for p in points} & others

        # A real page through the proxy: plotly.js and the app's static files under the base path.
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"{url}/?{results[0][1]}")
            page.wait_for_function(
                "() => document.querySelector('.pg-canvas')?.dataset.points === '93'", timeout=120_000
            )
            # The canvas's live route answers through the proxy too (under the base path): a click's
            # boundary is drawn from it before the session's rerun.
            box = page.evaluate(
                "() => { const r = document.querySelector('.pg-canvas'), l = r._fullLayout, "
                "b = r.querySelector('.main-svg').getBoundingClientRect(); "
                "return [b.left + l.xaxis._offset, b.top + l.yaxis._offset]; }"
            )
            page.mouse.click(box[0] + 6, box[1] + 6)
            page.wait_for_function(
                "() => Number(document.querySelector('.pg-canvas')?.dataset.liveDrawn || 0) >= 1", timeout=60_000
            )
            page.screenshot(path=ARTIFACTS / "replicas-through-nginx.png")
            browser.close()

        # Stateless: any replica answers the live route, with or without the sticky cookie.
        body = json.dumps({"scene": encode_scene(default_scene()), "edits": [], "client": "replicas"}).encode()
        answered = set()
        for _ in range(12):
            request = urllib.request.Request(f"{url}/api/live", data=body, headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=20) as response:
                assert response.status == 200 and "figure" in json.loads(response.read())
                answered.add(response.headers.get("X-Playground-Replica"))
        assert len(answered) >= 2

        # The replica that served the first session dies: new sessions keep working, and every link
        # (made on whichever replica) still reproduces its scene.
        victim = next(r for r, port in zip(replicas, ports) if serving[0].endswith(f":{port}"))
        victim.process.kill()
        victim.process.wait()
        queries = [query for _, query, _ in results]
        reopened, now_serving = asyncio.run(use_sessions(url, 4, clicks=0, queries=queries))
        assert not any(address.endswith(f":{ports[replicas.index(victim)]}") for address in now_serving)
        for (points, _, _), (again, _, errors) in zip(results, reopened):
            assert not errors
            np.testing.assert_allclose(sorted(again), sorted(points), atol=1e-3)
        fresh, _ = asyncio.run(use_sessions(url, 3, clicks=2))
        assert all(len(points) == 92 and not errors for points, _, errors in fresh)
        assert nginx.poll() is None


def test_a_replicas_own_503_does_not_take_it_out_of_the_group(tmp_path):
    """A 503 is the app's own answer (the rooms' Redis away for a moment, a live frame too heavy,
    the process's bodies at their bound): nginx passes it on, and does not count it as the replica
    failing. It did: with the other replica dead, every request got 502 for a while, and a hall's
    adds waited 10 s (fail_timeout) after Redis restarted."""
    from ui.rooms.model import new_code

    env = {"PLAYGROUND_REDIS_URL": f"redis://127.0.0.1:{free_port()}/0"}  # Redis away: the rooms answer 503
    with streamlit(env=env, args=(f"--server.baseUrlPath={BASE}",)) as replica:
        port = int(replica.url.split(":")[2].split("/")[0])
        nginx, url = start_nginx(tmp_path / "nginx", free_port(), [port, free_port()])  # the second one is dead
        try:
            for _ in range(4):  # whichever way the hash sends them, the dead one's requests go on to the live one
                assert get(f"{url}/_stcore/health")[0].endswith(f":{port}")
            for _ in range(3):
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(f"{url}/api/room/state?c={new_code()}", timeout=30)
                assert refused.value.code == 503 and "not reachable" in json.loads(refused.value.read())["error"]
                for _ in range(3):  # still in the group: answered, not 502
                    assert get(f"{url}/_stcore/health")[0].endswith(f":{port}")
        finally:
            nginx.terminate()
            nginx.wait(10)
