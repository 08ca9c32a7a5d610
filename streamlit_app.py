"""The linear-classification playground (PRML chapter 4): thin entry, no numerics here.

``streamlit run streamlit_app.py`` finds ``app`` and serves the page, the canvas's live route
(``ui.server.live_route``) and the class rooms' routes (``ui.rooms.routes``) from one server, its sockets
answering at once (``ui.server.sockets``); the page itself runs below, as the script.
"""

import streamlit as st

from ui.rooms.routes import room_routes
from ui.server.live_route import live_routes
from ui.server.sockets import lifespan

app = st.App("streamlit_app.py", routes=live_routes() + room_routes(), lifespan=lifespan)

if __name__ == "__main__":
    from ui import app as page

    st.set_page_config(page_title="Linear classification playground", page_icon="◐", layout="wide")
    page.main()
