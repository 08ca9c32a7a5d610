"""The students' join link: the address phones use, checked, and the link as HTML that never
breaks inside the host or the port.

Rules that must hold:
- ``clean_host`` accepts a host name, an IPv4 address or a bracketed IPv6 address, with an optional
  port 1-65535 and an optional leading "http://" or "https://"; nothing else (no path, no user, no
  spaces), so what the lecturer types can only change where the link points, never its shape.
- ``link_html`` escapes every part (the page's own host comes from the browser's Host header) and
  lets the browser break the line only between the origin and the path.
"""

import html
import ipaddress
import re

# The join link: a break only where the <wbr> is (after the origin), never in the host or port.
LINK_STYLE = (
    "font-family: monospace; font-size: 0.85rem; overflow-wrap: normal; word-break: keep-all; overflow-x: auto;"
    " background: rgba(128, 128, 128, 0.12); border-radius: 6px; padding: 6px 8px; margin-bottom: 8px"
)
_LABEL = r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)"
_HOST = re.compile(
    rf"^(?:(?P<scheme>https?)://)?(?P<host>{_LABEL}(?:\.{_LABEL})*|\[[0-9A-Fa-f:.]+\])(?::(?P<port>\d{{1,5}}))?/?"
)


def clean_host(value: object) -> tuple[str, str] | None:
    """(scheme or "", "host[:port]") of what the lecturer typed, or None if it is not one (a name or
    an address, an IPv6 address in brackets, a port 1-65535; "http://" or "https://" may lead)."""
    found = _HOST.fullmatch(value.strip()) if isinstance(value, str) and len(value) <= 300 else None
    if not found:
        return None
    host, port = found["host"], found["port"]
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            return None
    if port is not None and not 1 <= int(port) <= 65535:
        return None
    return found["scheme"] or "", host + (f":{int(port)}" if port else "")


def is_loopback(hostname: str | None) -> bool:
    """Whether a phone cannot reach ``hostname``: localhost or a loopback address."""
    name = (hostname or "").strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback or ipaddress.ip_address(name).is_unspecified
    except ValueError:
        return False


def link_html(link: str, page: str) -> str:
    """The join link as HTML that wraps only between the origin and the page's path (the path and
    the code, ``/room?c=CODE``, stay together, as they are short)."""
    origin, found, rest = link.partition(page)
    if not found or "://" not in origin:
        origin, rest, page = "", "", link
    parts = [f"<span style='white-space: nowrap'>{html.escape(text)}</span>" for text in (origin, page + rest) if text]
    return f"<div class='pg-join-link' style='{LINK_STYLE}'>{'<wbr>'.join(parts)}</div>"
