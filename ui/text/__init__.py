"""Words: the interface's language (gettext catalogs), what classes are called, the book's sign
convention, the canvas described in words, and numbers written into explanations.

Rules: every visible sentence is a whole message of the catalogs; the back-end's convention
becomes the book's in ``convention`` and nowhere else; visitors' text is shown as text.
"""
