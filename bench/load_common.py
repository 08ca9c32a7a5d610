"""What the load benchmarks share (``bench.load``, ``bench.load_heavy``, ``bench.load_class`` and
``bench.crowd``): the load average, percentiles, links to generated scenes, where a session clicks,
and a session's click-to-redraw times.

Rules: everything here measures from outside the server (a light websocket client, ``bench.client``);
a generated scene is the same for the same arguments (a fixed seed).
"""

import asyncio
import os
import time

import numpy as np

from playground import ClusterSpec, make_clusters
from playground.grid import Window
from playground.link import encode_scene
from playground.scene import PointSet, Scene

MEANS = [(-2.0, 0.0), (2.0, 0.5), (0.0, 3.0), (3.0, 3.5), (-3.0, 3.0), (0.0, -3.0)]


def loadavg():
    return " / ".join(f"{v:.1f}" for v in os.getloadavg())


def percentile(values, q):
    return float(np.percentile(values, q)) if values else float("nan")


def link_query(
    n_classes,
    n_points,
    *,
    method,
    params=None,
    multiclass="native",
    basis="identity",
    basis_params=None,
    scale=(1.0, 1.0),
    compare=None,
    seed=3,
):
    """The query string of a link to a generated scene (as the app would write it)."""
    per_class = n_points // n_classes
    specs = [ClusterSpec(MEANS[k], (1.6, 1.2), 30.0 * k) for k in range(n_classes)]
    X, y = make_clusters(specs, per_class, seed=seed)
    X = X * np.asarray(scale)
    points = PointSet.from_arrays(X, y)
    scene = Scene(points=points, window=Window.around(X)).with_method(method, params or {}, multiclass)
    scene = scene.with_basis(basis, basis_params or {})
    query = encode_scene(scene)
    if compare:
        query["cmp"] = ",".join(compare)
    from urllib.parse import urlencode

    return urlencode(query)


def click_spot(session_index, k):
    """Data coordinates of session ``session_index``'s k-th click: distinct across all sessions."""
    return -4.5 + 0.3 * (session_index % 30) + 0.004 * (k % 60), -3.4 + 0.11 * (k % 60) + 0.003 * (session_index // 30)


async def _click_latencies(session, n, spacing=0.3, timeout=300.0, until=None):
    """Click ``n`` times (or until ``until()`` holds), each once the previous has drawn; ms each
    (a click that never draws counts as ``timeout``, and ends the series)."""
    latencies = []
    k = 0
    while k < n and not (until is not None and until()):
        expected = session.canvas.n_points + 1
        started = time.perf_counter()
        await session.click(-4.0 + 0.01 * (session.requests % 800), 4.5 - 0.001 * k)
        try:
            await session.wait_for(lambda s, expected=expected: s.canvas.n_points >= expected, timeout)
            latencies.append((time.perf_counter() - started) * 1000)
            await session.wait_idle(timeout)
        except TimeoutError:
            latencies.append(timeout * 1000)
            break
        await asyncio.sleep(spacing)
        k += 1
    return latencies
