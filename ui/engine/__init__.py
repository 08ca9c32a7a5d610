"""The engine: what the page computes from a scene, knowing nothing of Streamlit.

Rules that hold:

- Nothing here imports Streamlit, plotly or any other part of ``ui/`` (an import-linter contract
  in pyproject.toml fails CI otherwise): only ``playground`` (the numpy back-end), numpy and the
  standard library. The page, the comparison, the live route and the rooms call it.
- ``fitview``: a fitted model evaluated on the view's grid (regions, boundaries, posterior), the
  one evaluation every drawing of a fit starts from.
"""
