"""Marks the back-end's user-facing text for the app's translation catalogs (the back-end stays English).

``N_("...")`` returns its argument unchanged; ``python -m scripts.catalogs`` finds it, and the app
shows the text through its own ``_`` in the session's language. Notebooks see the English text.
"""


def N_(message: str) -> str:
    """``message`` itself, marked for translation where the app shows it."""
    return message
