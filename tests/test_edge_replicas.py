"""Two replicas (two ``streamlit run`` servers) on one real Redis (tests/redis_server.py) share one
live rate limit per address: what one replica granted, the other does not grant again."""

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

from bench.server import streamlit
from tests.redis_server import redis_server

CHEAP = json.dumps({"scene": {}, "edits": [5]}).encode()  # refused (400) after the rate is spent: no fit
BURST = 20  # PLAYGROUND_LIVE_BURST, with almost no refill (PLAYGROUND_LIVE_RATE): nothing depends on timing


def status_of(url, address):
    request = urllib.request.Request(
        url + "/api/live",
        data=CHEAP,
        headers={"Content-Type": "application/json", "X-Forwarded-For": address},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


def test_two_replicas_share_one_allowance_in_redis(tmp_path):
    burst = BURST
    with ExitStack() as stack:
        url, _restart = stack.enter_context(redis_server(tmp_path / "redis"))
        env = {
            "PLAYGROUND_REDIS_URL": url,
            "PLAYGROUND_FIT_WORKERS": "1",
            "PLAYGROUND_LIVE_RATE": "0.001",
            "PLAYGROUND_LIVE_BURST": str(BURST),
        }
        with ThreadPoolExecutor(2) as pool:  # the two replicas start together
            starting = [pool.submit(stack.enter_context, streamlit(env=env)) for _ in range(2)]
            one, two = (future.result().url for future in starting)
        spent_on_one = [status_of(one, "198.51.100.30") for _ in range(burst // 2)]
        spent_on_two = [status_of(two, "198.51.100.30") for _ in range(burst)]
        assert set(spent_on_one) == {400}  # served (and refused for its body), not rate-limited
        # Per-process buckets would grant the second replica a whole burst of its own.
        # Here what the first left: about half a burst (a request costs a little more than one token).
        half = burst - burst // 2
        assert set(spent_on_two[: half - 1]) == {400} and set(spent_on_two[half:]) == {429}, spent_on_two
        assert status_of(two, "198.51.100.31") == 400  # another address: its own allowance
        assert status_of(one, "198.51.100.30") == 429  # and the first replica sees the spent bucket too
