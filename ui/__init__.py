"""The playground's front-end: Streamlit widgets, the clickable canvas, plotly figures."""
