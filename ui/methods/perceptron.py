"""The perceptron (section 4.1.7): its page."""

from typing import Any

from ui.methods import Control, MethodPage
from ui.methods.equations.discriminants import perceptron_equations, perceptron_point
from ui.methods.numpy_cells import discriminants, literal
from ui.text.i18n import N_


def _sklearn(settings: dict[str, Any], n_classes: int) -> tuple[str, bool]:
    code = (
        "from sklearn.linear_model import Perceptron\n\n"
        f"estimator = Perceptron(eta0={literal(settings['eta'])}, max_iter={literal(settings['max_epochs'])}, "
        "tol=None, shuffle=False)\n"
    )
    return code, settings.get("w_init") is None and not settings.get("shuffle")


CARD = MethodPage(
    method="perceptron",
    point_equations=perceptron_point,
    equations=perceptron_equations,
    panels=("perceptron_playback",),
    about=N_(
        "The perceptron visits the points in turn and, for each misclassified one, adds ηtₙφ(xₙ) to w "
        "(eq. 4.55): t = +1 for class 1, −1 for class 2. On separable data it stops after finitely many "
        "updates; on overlapping data it never settles. Its initial weights and η are set below."
    ),
    numpy_text=N_(
        "The perceptron (section 4.1.7) visits the points in turn and moves the weights by "
        "w ← w + η φₙ tₙ at every misclassified one (eq. 4.55), until an epoch has no mistake."
    ),
    numpy_code=discriminants.perceptron_code,
    sklearn=_sklearn,
    differences=N_(
        "Perceptron with shuffle=False and a constant learning rate makes the same updates in the same "
        "order; its coef_ points into the second class, so the book's w is its negative."
    ),
    # Where the run starts first: the worked examples' "Try:" asks for it, and in presentation these
    # settings are drawn under a long text in the drawer, where the first one is the one on screen.
    controls=(
        Control("w_init", key="perc_w_init", book_weights=True),
        Control("eta", key="perc_eta", label=N_("Learning rate η")),
        Control("max_epochs", key="perc_epochs", label=N_("Maximum epochs")),
        Control("shuffle", key="perc_shuffle", label=N_("Visit the points in a shuffled order")),
        Control("random_state", (("shuffle", True),), key="perc_seed", label=N_("Shuffle seed"), number_input=True),
    ),
)
