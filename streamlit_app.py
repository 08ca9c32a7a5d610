"""The linear-classification playground (PRML chapter 4): thin entry, no numerics here.

``streamlit run streamlit_app.py`` finds ``app`` and serves the page, the canvas's live route
(``ui.server.live_route``) and the class rooms' routes (``ui.rooms.routes``) from one server, its sockets
answering at once (``ui.server.sockets``); every HTTP request passes the edge first
(``ui.server.edge``: bodies under caps and deadlines, cross-site rules, security headers); the page
itself runs below, as the script.
"""

import streamlit as st
from starlette.middleware import Middleware

from ui.rooms import protocol as room_protocol
from ui.rooms.routes import room_routes
from ui.server import live_route
from ui.server.edge import EdgeMiddleware, app_rules
from ui.server.sockets import lifespan

EDGE_RULES = app_rules(
    live_route.LIVE_PATH,
    live_route.MAX_BODY_BYTES,
    room_protocol.API,
    room_protocol.MAX_BODY_BYTES,
    room_protocol.MAX_OPEN_BODY_BYTES,
    room_protocol.ROOM_PAGE,
)
app = st.App(
    "streamlit_app.py",
    routes=live_route.live_routes() + room_routes(),
    middleware=[Middleware(EdgeMiddleware, rules=EDGE_RULES)],
    lifespan=lifespan,
)

if __name__ == "__main__":
    from ui.page import app as page

    st.set_page_config(page_title="Linear classification playground", page_icon="🌓", layout="wide")
    page.main()
