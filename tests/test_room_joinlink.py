"""The join link's pieces (ui/rooms/joinlink.py): the address phones use is a host[:port] and
nothing else; loopback hosts are recognised; the link's HTML is escaped and breaks only after the
origin, never inside the host or the port."""

import re

import pytest

from ui.rooms.joinlink import clean_host, is_loopback, link_html


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("192.168.1.20:8501", ("", "192.168.1.20:8501")),
        (" class.example.org ", ("", "class.example.org")),
        ("https://class.example.org/", ("https", "class.example.org")),
        ("[fe80::1]:8501", ("", "[fe80::1]:8501")),
        ("host:08501", ("", "host:8501")),
    ],
)
def test_hosts_are_accepted(typed, expected):
    assert clean_host(typed) == expected


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "a b",
        "host:0",
        "host:65536",
        "host/path",
        "user@host",
        "-bad.org",
        "[::zz]",
        "javascript:alert(1)",
        "host:8501?x",
        "x" * 400,
        None,
        8501,
        "ftp://host",
        "host:" + "9" * 400,
        "<b>.org",
    ],
)
def test_anything_else_is_refused(typed):
    assert clean_host(typed) is None


def test_loopback_hosts():
    for name in ("localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.8.9.1", "::1", "[::1]", "0.0.0.0"):
        assert is_loopback(name), name
    for name in ("192.168.1.20", "class.example.org", "fe80::1", None, ""):
        assert not is_loopback(name), name


def test_the_link_breaks_only_after_the_origin_and_is_escaped():
    html = link_html("http://127.0.0.1:8501/room?c=ABCDEFGH", "/room")
    spans = re.findall(r"<span style='white-space: nowrap'>([^<]*)</span>", html)
    assert spans == ["http://127.0.0.1:8501", "/room?c=ABCDEFGH"] and html.count("<wbr>") == 1
    hostile = link_html("http://<img src=x>:1/room?c=A&B", "/room")
    assert "<img" not in hostile and "&lt;img" in hostile and "&amp;" in hostile
