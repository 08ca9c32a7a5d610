"""The methods' equations: a fitted model written out in LaTeX with its own numbers and PRML's
numbering, one module per method family (``discriminants``, ``generative``, ``probabilistic``,
``svm``) and ``core``, the formatting they share. A card names its writer (``MethodPage.equations``);
``ui.equations`` finds the card of a model and adds the strategy, the basis and a point.

Rules that hold: pure formatting (no Streamlit, no plotly, no fitting); these modules import
``playground``, ``ui.text`` and each other only, so the cards below the session can name them;
every sentence is translated (``_``) and a visitor's class name reaches LaTeX escaped
(``ui.text.names``); a degenerate fit never raises (a writer stops at the first attribute it cannot
read).
"""
