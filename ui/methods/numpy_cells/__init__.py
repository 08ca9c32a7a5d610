"""The method written out in plain numpy, as the book writes it: the templates the method cards'
numpy cells are made of (``MethodPage.numpy_code``), one module per method family as
``ui.equations`` has them (``discriminants``, ``generative``, ``probabilistic``, ``svm``), and
``core``, the snippets every template shares, ``literal`` and ``pep8_spacing``.

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
"""

from .core import literal, pep8_spacing

__all__ = ["literal", "pep8_spacing"]
