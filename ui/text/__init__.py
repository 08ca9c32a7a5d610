"""Words: the interface's language (gettext catalogs), what classes and settings are called
(``names``, ``labels``), the book's sign convention, the canvas described in words. The numbers the
figures' explanations quote are computed from fits, so they are the panels' (``ui.panels.preset_numbers``).

Rules: every visible sentence is a whole message of the catalogs; the back-end's convention
becomes the book's in ``convention`` and nowhere else; visitors' text is shown as text.
"""
