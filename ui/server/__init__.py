"""The Streamlit server around the sessions: the live route for gestures, the sockets, and the
guarded patches of Streamlit's internals (each checked against the installed version, falling back
to Streamlit's own behaviour with a log line).
"""
