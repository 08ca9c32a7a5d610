"""The names the page gives a scene's settings: a method with its section of the book, a
multi-class strategy, a basis. Words only (English marked with ``N_``, translated where shown): the
widgets that pick these settings and the captions and panels that name them read them here.
"""

from typing import cast

from playground import MODELS

from .i18n import N_, _

MULTICLASS_LABELS = {
    "native": N_("K-class discriminant (eq. 4.9)"),
    "ovr": N_("one-versus-rest"),
    "ovo": N_("one-versus-one"),
}

BASIS_LABELS = {
    "identity": N_("none: φ(x) = x"),
    "polynomial": N_("polynomial (all cross terms)"),
    "rbf": N_("Gaussian radial basis functions"),
}


def method_section(name: str) -> str:
    """The book's section of method ``name``: the registry's ``section`` where the estimator class
    has one, else its ``book_section``."""
    cls = MODELS[name]
    return cast(str, getattr(cls, "section", None) or getattr(cls, "book_section", ""))


def method_label(name: str) -> str:
    """'Least squares (§4.1.3)': the method's name and the book's section."""
    section = method_section(name)
    name_text = _(MODELS[name].display_name)
    return f"{name_text} (§{section})" if section else name_text
