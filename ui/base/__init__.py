"""The bottom of the ui, what every layer above stands on: the visitor's state (``visitor``, the
one reader of Streamlit's session state) and Streamlit's private names (``streamlit_private``,
the one place that names them). Neither imports anything of the ui."""
