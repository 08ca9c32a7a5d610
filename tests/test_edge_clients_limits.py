"""The edge's client address (ui.server.clients) and its limits (ui.server.limits), in memory and
in a real Redis shared by two "replicas" (two clients of one redis-server)."""

import threading

from ui.server.clients import client_address, parse_networks
from ui.server.limits import InFlight, RedisTokenBuckets, TokenBuckets

LOOPBACK = parse_networks("127.0.0.0/8,::1/128")


def scope(host, *forwarded):
    return {"client": (host, 40000) if host else None, "headers": [(b"x-forwarded-for", f.encode()) for f in forwarded]}


def test_a_direct_client_is_its_own_address_whatever_it_writes():
    assert client_address(scope("203.0.113.7", "198.51.100.1"), LOOPBACK) == "203.0.113.7"
    assert client_address(scope(None), LOOPBACK) == "unknown"
    assert client_address(scope("not an address"), LOOPBACK) == "unknown"


def test_a_proxy_on_this_host_is_believed_on_a_dual_stack_listener_too():
    # Streamlit's default listener is dual-stack: an IPv4 proxy arrives as ::ffff:127.0.0.1.
    for peer in ("127.0.0.1", "::ffff:127.0.0.1", "::1"):
        assert client_address(scope(peer, "198.51.100.9"), LOOPBACK) == "198.51.100.9"
    assert client_address(scope("::ffff:198.51.100.3"), LOOPBACK) == "198.51.100.3"


def test_only_the_entries_proxies_wrote_count():
    # The client wrote "1.2.3.4"; nginx appended the address it saw.
    assert client_address(scope("127.0.0.1", "1.2.3.4, 198.51.100.1"), LOOPBACK) == "198.51.100.1"
    # Two trusted hops: the right-most untrusted entry.
    assert client_address(scope("127.0.0.1", "1.2.3.4, 198.51.100.1, 127.0.0.1"), LOOPBACK) == "198.51.100.1"
    # Several headers read as one list.
    assert client_address(scope("127.0.0.1", "1.2.3.4", "198.51.100.2"), LOOPBACK) == "198.51.100.2"
    # A malformed entry stops the walk at the last proxy: never a string the client chose.
    assert client_address(scope("127.0.0.1", "<script>"), LOOPBACK) == "127.0.0.1"
    assert client_address(scope("127.0.0.1", "x" * 100000), LOOPBACK) == "127.0.0.1"
    assert client_address(scope("127.0.0.1"), LOOPBACK) == "127.0.0.1"


def test_token_buckets_refill_and_forget_the_least_recent_keys():
    now = [0.0]
    buckets = TokenBuckets(rate=2.0, burst=3.0, max_keys=2, clock=lambda: now[0])
    assert [buckets.allow("a") for _ in range(4)] == [True, True, True, False]
    assert buckets.exhausted("a") and not buckets.exhausted("b")
    now[0] = 0.5  # one token back
    assert buckets.allow("a") and not buckets.allow("a")
    buckets.allow("b"), buckets.allow("c")  # "a" is forgotten: memory stays bounded
    assert len(buckets._buckets) == 2 and "a" not in buckets._buckets
    assert not buckets.allow("d", cost=4.0) and buckets.allow("d", cost=3.0)


def test_in_flight_caps_a_key_and_the_process():
    flight = InFlight(per_key=2, total=3)
    assert flight.acquire("a") and flight.acquire("a") and not flight.acquire("a")
    assert flight.acquire("b") and not flight.acquire("c")  # the process is full
    flight.release("a")
    assert flight.acquire("c") and flight.running() == 3 and flight.running("a") == 1
    for key in ("a", "b", "c"):
        flight.release(key)
    assert flight.running() == 0 and flight._counts == {}


def test_replicas_share_one_allowance_in_redis(redis_url):
    import redis

    one, two = (RedisTokenBuckets(redis.Redis.from_url(redis_url), "test", rate=0.001, burst=10) for _ in range(2))
    allowed = [one.allow("198.51.100.4") if i % 2 else two.allow("198.51.100.4") for i in range(16)]
    assert allowed.count(True) == 10  # not 10 per replica
    assert one.exhausted("198.51.100.4") and two.exhausted("198.51.100.4")
    assert not one.exhausted("198.51.100.5")


def test_concurrent_spends_in_redis_are_atomic(redis_url):
    import redis

    buckets = [RedisTokenBuckets(redis.Redis.from_url(redis_url), "atomic", rate=0.001, burst=50) for _ in range(4)]
    results = []
    lock = threading.Lock()

    def spend(limit):
        for _ in range(40):
            ok = limit.allow("198.51.100.6")
            with lock:
                results.append(ok)

    threads = [threading.Thread(target=spend, args=(b,)) for b in buckets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(True) == 50  # 160 asked, exactly the burst granted across replicas


def test_redis_away_falls_back_to_this_process():
    import redis

    away = RedisTokenBuckets(redis.Redis(host="127.0.0.1", port=1, socket_connect_timeout=0.2), "away", 0.001, 2.0)
    assert [away.allow("k") for _ in range(3)] == [True, True, False]  # still limited, never raises
    assert away.exhausted("k")
