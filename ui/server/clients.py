"""Who a request comes from: the client's address as the trusted proxies report it.

Every per-client limit of the HTTP edge (the live route, the rooms, the edge middleware) is keyed
on ``client_address``, never on a value the client writes into its body or query.

Rules that must hold:
- The address is the connecting peer's, unless that peer is a trusted proxy
  (``PLAYGROUND_TRUSTED_PROXIES``: addresses or networks, comma-separated; by default the loopback
  networks, where a proxy on this host connects from). Then it is the right-most entry of
  ``X-Forwarded-For`` that is not itself a trusted proxy: each proxy appends the address it saw, so
  entries to the left of the last untrusted one were written by the client and are ignored.
- An IPv4-mapped IPv6 address (``::ffff:127.0.0.1``, what a dual-stack listener reports for an
  IPv4 peer) is the IPv4 address it maps: Streamlit's default listener is dual-stack, and a proxy
  on the same host must be recognised there too.
- A header entry that is not an IP address stops the walk: the address is then the last proxy's
  (a malformed chain never yields a string the client chose).
- At most ``MAX_HOPS`` entries are read, so a long header costs nothing.
- ``address_group``: what one client can hold many of counts as one key: an IPv6 address its /64
  (what one household or host is given), any other address itself.
"""

import ipaddress
import os
from collections.abc import Iterable, Mapping
from typing import Any

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

DEFAULT_TRUSTED_PROXIES = "127.0.0.0/8,::1/128"
MAX_HOPS = 20
UNKNOWN = "unknown"


def parse_networks(text: str) -> list[IPNetwork]:
    """The networks of a comma-separated list; an entry that is no address or network is skipped."""
    networks: list[IPNetwork] = []
    for name in text.split(","):
        name = name.strip()
        if not name:
            continue
        try:
            networks.append(ipaddress.ip_network(name, strict=False))
        except ValueError:
            continue
    return networks


def trusted_proxies() -> list[IPNetwork]:
    """``PLAYGROUND_TRUSTED_PROXIES`` as networks (the loopback networks when it is not set)."""
    return parse_networks(os.environ.get("PLAYGROUND_TRUSTED_PROXIES", DEFAULT_TRUSTED_PROXIES))


TRUSTED_PROXIES = trusted_proxies()


def parsed_address(text: str) -> IPAddress | None:
    """``text`` as an IP address, an IPv4-mapped IPv6 address as its IPv4 address; None if it is
    not an address (a port or brackets around it are not accepted: proxies send bare addresses)."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def is_trusted(address: IPAddress, networks: Iterable[IPNetwork]) -> bool:
    return any(address.version == net.version and address in net for net in networks)


def _forwarded_for(headers: Iterable[tuple[bytes, bytes]]) -> list[str]:
    """The entries of every ``X-Forwarded-For`` header, in order (at most the last ``MAX_HOPS``)."""
    entries: list[str] = []
    for name, value in headers:
        if name.lower() == b"x-forwarded-for":
            entries += value.decode("latin-1")[-2048:].split(",")
    return entries[-MAX_HOPS:]


def client_address(scope: Mapping[str, Any], networks: Iterable[IPNetwork] | None = None) -> str:
    """The client's address for an ASGI ``scope`` (see the module's rules)."""
    networks = TRUSTED_PROXIES if networks is None else list(networks)
    peer = scope.get("client")
    address = parsed_address(str(peer[0])) if peer else None
    if address is None:
        return UNKNOWN
    if not is_trusted(address, networks):
        return str(address)
    for entry in reversed(_forwarded_for(scope.get("headers") or ())):
        hop = parsed_address(entry)
        if hop is None:
            break
        address = hop
        if not is_trusted(hop, networks):
            break
    return str(address)


def address_group(address: str) -> str:
    """The key of ``client_address``'s answer for limits one client must not multiply: an IPv6
    address's /64, any other address (an IPv4 address, ``UNKNOWN``) itself."""
    parsed = parsed_address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return address
