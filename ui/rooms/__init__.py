"""Class rooms: one shared scene that students add points to from their phones, live.

``protocol`` (paths, bounds, the TypedDicts between browser and server), ``model`` (the room as a
JSON value and every action on it, pure), ``store`` (which store keeps the rooms: ``memory_store``,
the server process, or ``redis_store``, Redis with ``PLAYGROUND_REDIS_URL``; both are
``store_base.RoomStore``), ``views`` (the figure a room draws, cached per version),
``routes`` (the HTTP routes students, the projector and the lecturer use), ``panel`` (the
lecturer's Streamlit panel). Nothing is shared between sessions except what a room holds.
"""
