"""The method written out in plain numpy, as the book writes it: one code cell per method.

Rules that hold for every template here:

- The code is what a student reads: short, one equation per line where it can be, each citing the
  book's equation number; it never imports ``playground``.
- Every template defines the same four names, so the cells around it (``ui.export.cells``) work for
  every method: ``fit(Phi, k, w_init=None)`` fits class indices ``k`` (0 is C1, the first class
  present) on features ``Phi``; ``discriminants(model, Phi)`` gives (N, K) values whose largest is
  the class (a two-class method returns [y(x), 0], so y(x) >= 0 means C1, as in eq. 4.4-4.6);
  ``weights(model)`` gives the weights in the book's sign (bias first) or None;
  ``posteriors(model, Phi)`` gives p(C_k|x) or is None.
- Settings enter as ``repr`` literals of numbers, booleans, tuples or None only (``literal``):
  never a visitor's text.

The package: ``core`` (the snippets every template shares, ``literal`` and ``pep8_spacing``), one
module per method family as ``ui.equations`` has them (``discriminants``, ``generative``,
``probabilistic``, ``svm``), each with its templates, ``CODE`` (method -> code function) and
``TEXT`` (the Markdown before the cell); here the dispatch over the families.
"""

from typing import Any

from . import discriminants, generative, probabilistic, svm
from .core import literal, pep8_spacing

__all__ = ["METHOD_TEXT", "literal", "numpy_code", "pep8_spacing"]

FAMILIES = (discriminants, generative, probabilistic, svm)

#: method -> its code function, ``code(settings, literal settings)``
_CODE = {method: code for family in FAMILIES for method, code in family.CODE.items()}

#: The Markdown before each method's numpy cell: what the book does, with its equations.
METHOD_TEXT = {method: text for family in FAMILIES for method, text in family.TEXT.items()}


def numpy_code(method: str, settings: dict[str, Any]) -> str:
    """The numpy cell of ``method`` with ``settings`` (the method's parameters, complete), laid out
    as PEP 8 has it (two blank lines before a function)."""
    s = {name: literal(value) for name, value in settings.items()}  # every setting checked, used or not
    if method not in _CODE:
        raise ValueError(f"unknown method {method!r}")
    return pep8_spacing(_CODE[method](settings, s))
