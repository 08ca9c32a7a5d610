"""The same scene with scikit-learn: the estimator a student would use next, one cell per method
(its card's ``sklearn``, ``ui.methods``).

Where scikit-learn has no counterpart, or one that differs by design (least squares, probit,
Bayesian logistic regression, one-versus-one with the book's voting), there is no cell: the
notebook says so in a sentence (the card's ``no_counterpart``, ``OVO_NO_COUNTERPART``) and keeps the
numpy part only.

Every cell defines ``estimator`` (unfitted) and ``SAME_WEIGHTS`` (whether its weights are the
numpy part's, so the check compares them); settings enter as literals (``numpy_cells.literal``).
"""

from typing import Any

from playground.i18n import N_
from ui.methods import card_of

OVO_NO_COUNTERPART = N_(
    "scikit-learn's one-versus-one differs from the book's vote in how it breaks ties and in which class "
    "each pairwise model calls positive, so this notebook keeps the numpy part only."
)


def sklearn_code(method: str, settings: dict[str, Any], n_classes: int) -> tuple[str, bool] | None:
    """(code, same_weights) of the scikit-learn cell, or None where there is no counterpart."""
    cell = card_of(method).sklearn
    return None if cell is None else cell(settings, n_classes)


def no_counterpart(method: str, strategy: str) -> str:
    """Why the notebook has no scikit-learn cell (English marked with N_)."""
    return OVO_NO_COUNTERPART if strategy == "ovo" else card_of(method).no_counterpart
