"""The linear-classification playground (PRML chapter 4): thin entry, no numerics here."""

import streamlit as st

from ui import app

st.set_page_config(page_title="Linear classification playground", page_icon="◐", layout="wide")
app.main()
