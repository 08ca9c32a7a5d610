"""Security headers of every response the server sends, by the kind of route (``ui.server.edge``
adds them; a header a route sets itself is kept).

Rules that must hold:
- ``API`` (the app's JSON routes): nothing in an answer may run or be framed:
  ``default-src 'none'``, ``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``.
- ``PAGE`` (the student page ``/room`` and its assets): scripts only from this server (its own
  script and the plotly.js static file), no inline script (the page's data sits in a
  ``<script type="application/json">``, which is data, never run), styles from this server plus
  the style attributes plotly.js sets, images from this server and ``data:``/``blob:`` (plotly's
  downloads), requests to this server only, no plug-ins, no ``<base>``, framed by this server's
  pages only.
- ``STREAMLIT`` (Streamlit's page, its static files and the app's static files): only what cannot
  break it: ``frame-ancestors 'self'`` (and ``X-Frame-Options: SAMEORIGIN``), no MIME sniffing,
  no referrer to other sites. Its own scripts and components are left as Streamlit serves them.
- Every kind: ``X-Content-Type-Options: nosniff``; a ``Referrer-Policy`` that never sends a
  shared link's scene (its query) to another site.
"""

API = "api"
PAGE = "page"
STREAMLIT = "streamlit"

_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]

CONTENT_SECURITY = {
    API: "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    PAGE: (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; object-src 'none'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
    ),
    STREAMLIT: "frame-ancestors 'self'",
}

FRAMES = {API: b"DENY", PAGE: b"SAMEORIGIN", STREAMLIT: b"SAMEORIGIN"}


def security_headers(kind: str) -> list[tuple[bytes, bytes]]:
    """The headers a response of a route of ``kind`` carries (see the module's rules)."""
    return _COMMON + [
        (b"content-security-policy", CONTENT_SECURITY[kind].encode()),
        (b"x-frame-options", FRAMES[kind]),
    ]
