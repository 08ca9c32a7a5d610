"""The engine: what the page computes from a scene, knowing nothing of Streamlit.

Rules that hold:

- Nothing here imports Streamlit, plotly or any other part of ``ui/`` (an import-linter contract
  in pyproject.toml fails CI otherwise): only ``playground`` (the numpy back-end), numpy and the
  standard library. The page, the comparison, the live route and the rooms call it.
- ``fitview``: a fitted model evaluated on the view's grid (regions, boundaries, posterior), the
  one evaluation every drawing of a fit starts from.
- ``cache``: the process-wide cache of fits and views with its single flight, and ``workers``: the
  pool of worker processes for long fits. Both are the server's, shared by every visitor, the live
  route and the rooms (not one visitor's session, which only keeps what it stopped or could not
  share: ``ui.session.compute``).
- ``keys``: the cache's keys of a fit and of its view, spelled once, so what one place fitted the
  others find (the page's rerun after a click finds the live route's fit).
- ``fits``: a scene's fit and view through that cache under the page's step budget, the one way
  the live route, the rooms and the figures' numbers fit.
"""
