"""The numbers in a figure preset's explanation, computed from the scene the app shows.

Rules that hold:

- No number that depends on the data is typed into an explanation: ``playground.presets`` writes
  ``{name}`` where one goes, and ``numbers(key, scene)`` computes each from the fitted model,
  formatted as the panel that shows it formats it (``number_text`` with the panel's digits, the
  status line's percentages), so the text and the panel agree digit for digit
  (``tests/test_preset_numbers.py`` parses the text and compares).
- The numbers are the preset's scene's: its points and settings, in the view the canvas shows now
  (the predictive at the view's corner changes with the view, as the panel's table does). The
  explanation describes the figure as loaded; an edit the "Try:" line suggests changes the plot,
  not the sentence that says what to expect.
- Other methods a sentence compares with (logistic regression beside probit, the straight line
  beside the polynomial basis) are fitted here on the same points, with the sidebar's defaults.
"""

import functools
from typing import Any

import numpy as np

from playground import PlaygroundError
from playground.bayesian_logistic import PROBIT_LAMBDA
from playground.fisher import FisherDiscriminant
from playground.gaussian import SHARED_CARD
from playground.grid import Window
from playground.logistic import LOGISTIC_CARD
from playground.perceptron import CARD as PERCEPTRON_CARD
from playground.presets import LOGISTIC, OUTLIER_CENTRE, PERCEPTRON, PRESETS
from playground.scene import Scene
from ui.engine.fits import shared_fit
from ui.panels import number_text, subscript
from ui.panels.fisher import fisher_model, means_direction
from ui.panels.least_squares import least_squares_model, output_grid
from ui.panels.probit import figure_4_9
from ui.text.convention import backend_w_init, book_weights_at


def _fit(scene: Scene) -> Any:
    """The scene's model fitted on its training points (None when it cannot be fitted): the fit
    the figure's page drew, from the server's shared cache (``ui.engine.fits``), or made now."""
    return shared_fit(scene, None).model


def _percent(fraction):
    """A share as the status line writes it: one decimal, "57.5%"."""
    return f"{fraction:.1%}"


def _accuracy(model, points):
    return float(np.mean(model.predict(points.X) == points.y)) if len(points) else float("nan")


def _far_points(scene):
    """Class-2 points nearer to figure 4.4's far centre than to the origin (the clusters' middle)."""
    X, y = scene.points.X, scene.points.y
    far = np.linalg.norm(X - np.asarray(OUTLIER_CENTRE), axis=1) < np.linalg.norm(X, axis=1)
    return int(np.count_nonzero(far & (y == 1)))


def _fig4_4(scene):
    model = _fit(scene)
    wrong = int(np.count_nonzero(model.predict(scene.points.X) != scene.points.y))
    return dict(n_far=str(_far_points(scene)), wrong=str(wrong))


def _fig4_5(scene):
    """The middle class's least-squares output, flat: its value as the panel's "in view" figures."""
    model = least_squares_model(_fit(scene))
    if model is None:  # the figure's scene is fitted by least squares
        raise TypeError("figure 4.5's scene fits least squares")
    outputs = output_grid(model, scene.window)[2][..., 1]
    return dict(level=number_text(outputs.mean(), 3))


def fisher_angle_and_ratio(model: FisherDiscriminant) -> tuple[float, float]:
    """(degrees between the means line and Fisher's direction, J along Fisher's / J along the means')."""
    means, fisher = means_direction(model), model.direction_
    cosine = min(abs(float(means @ fisher)) / float(np.linalg.norm(means) * np.linalg.norm(fisher)), 1.0)
    ratio = float(model.criterion(fisher) / model.criterion(means))
    return float(np.degrees(np.arccos(cosine))), ratio


def _fisher_fit(scene: Scene) -> FisherDiscriminant:
    """Fisher's discriminant fitted on the scene of a figure about it."""
    model = fisher_model(_fit(scene))
    if model is None:
        raise TypeError("the figure's scene fits Fisher's discriminant")
    return model


def _fig4_6(scene):
    angle, ratio = fisher_angle_and_ratio(_fisher_fit(scene))
    return dict(angle=f"{angle:.0f}", ratio=number_text(ratio, 2))


def _fig4_7(scene):
    model = _fit(scene)
    with_updates = sum(1 for count in model.errors_per_epoch_ if count)
    return dict(updates=str(model.n_iter_), epochs=str(with_updates))


def weight_ratio(scene: Scene) -> float:
    """‖w‖ of logistic regression over ‖w‖ of probit regression on the same points."""
    probit = _fit(scene)
    logistic = _fit(scene.with_method(LOGISTIC_CARD.name, LOGISTIC))
    return float(np.linalg.norm(logistic.coef_) / np.linalg.norm(probit.coef_))


def _fig4_9(scene):
    largest = figure_4_9()[2]
    return dict(
        gap=number_text(largest, 2),
        ratio=number_text(weight_ratio(scene), 2),
        inverse_lambda=number_text(1 / PROBIT_LAMBDA, 2),
    )


def corner_probabilities(scene: Scene) -> tuple[float, float]:
    """(MAP, predictive) p(C1|x) at the view's top-right corner, as the panel's table gives them."""
    from ui.panels.bayesian import predictive_at

    window = scene.window
    values = predictive_at(_fit(scene), np.array([[window.x_max, window.y_max]]))
    return float(values["p_map"][0]), float(values["p_predictive"][0])


def _bayes_predictive(scene):
    p_map, p_predictive = corner_probabilities(scene)
    return dict(
        alpha=number_text(scene.param_dict["alpha"]),
        # As the panel's table writes both (one formatter, its four significant digits).
        p_map=number_text(p_map, 4),
        p_predictive=number_text(p_predictive, 4),
    )


def overfit_figures(scene: Scene) -> dict[str, Any]:
    """The over-fitting preset's counts and accuracies, on its basis and with none."""
    model, line = _fit(scene), _fit(scene.with_basis("identity", {}))
    training, testing = scene.points.training, scene.points.testing
    return dict(
        n_train=len(training),
        n_test=len(testing),
        features=int(model.features(training.X).shape[1]),
        train_accuracy=_accuracy(model, training),
        test_accuracy=_accuracy(model, testing),
        line_wrong=int(np.count_nonzero(line.predict(training.X) != training.y)),
        line_test_accuracy=_accuracy(line, testing),
    )


def _overfit(scene):
    found = overfit_figures(scene)
    return dict(
        n_train=str(found["n_train"]),
        n_test=str(found["n_test"]),
        degree=str(scene.basis_param_dict["degree"]),
        features=str(found["features"]),
        train_accuracy=_percent(found["train_accuracy"]),
        test_accuracy=_percent(found["test_accuracy"]),
        line_wrong=str(found["line_wrong"]),
        line_test_accuracy=_percent(found["line_test_accuracy"]),
    )


def _plain(value, spec):
    """A number as the lecture notes write it (``spec``: "g", ".2f"...), with a true minus sign."""
    text = format(float(value), spec)
    return "0" if text in ("0", "-0") else text.replace("-", "−")


def _vector(values, spec):
    return "(" + ", ".join(_plain(v, spec) for v in values) + ")"


def _matrix(values, spec):
    return "[" + ", ".join(_vector(row, spec).replace("(", "[").replace(")", "]") for row in values) + "]"


def _point_list(X):
    return ", ".join(_vector(x, "g") for x in X)


# The notes' initial weights (the book's sign) and the IRLS step of their table: what the text asks the
# reader to type and look at (inputs, written in the text); what they lead to is computed here.
SEED003_PERCEPTRON_START = (5.0, -6.0, 1.0)
SEED003_LOGISTIC_START = (1.0, -1.0, 1.0)
SEED003_IRLS_STEP = 5


def _seed003(scene):
    """The worked example: Fisher's means, scatter and direction; the shared covariance and w of
    the Gaussian model; the perceptron's and IRLS's runs from the notes' initial weights."""
    X, y = scene.points.X, scene.points.y
    fisher = _fisher_fit(scene)
    m1, m2 = fisher.means_
    direction = np.asarray(fisher.direction_, dtype=float)
    direction = direction if (m1 - m2) @ direction >= 0 else -direction  # into C1, as the notes
    shared = _fit(scene.with_method(SHARED_CARD.name, {"priors": None}))
    gaussian_w = -np.concatenate([shared.intercept_, shared.coef_[0]])  # the book's sign (C1 positive)
    numbers = dict(
        class1_points=_point_list(X[y == 0]),
        class2_points=_point_list(X[y == 1]),
        m1=_vector(m1, "g"),
        m2=_vector(m2, "g"),
        sw=_matrix(fisher.within_class_scatter_, "g"),
        w_hat=_vector(direction / np.linalg.norm(direction), ".2f"),
        sigma=_matrix(shared.covariance_, ".3f"),
        gaussian_w=_vector(gaussian_w, ".2f"),
    )
    return {**numbers, **_seed003_runs(scene)}


def _seed003_runs(scene):
    perceptron = _fit(
        scene.with_method(PERCEPTRON_CARD.name, {**PERCEPTRON, "w_init": backend_w_init(SEED003_PERCEPTRON_START)})
    )
    used = [entry["index"] for entry in perceptron.history_]
    weights = [book_weights_at(perceptron, step) for step in range(1, perceptron.n_iter_ + 1)]
    final = weights[-1]
    logistic = _fit(
        scene.with_method(LOGISTIC_CARD.name, {**LOGISTIC, "w_init": backend_w_init(SEED003_LOGISTIC_START)})
    )
    step = logistic.history_[SEED003_IRLS_STEP]
    return dict(
        n_updates=str(perceptron.n_iter_),
        first_point=f"x{subscript(used[0] + 1)}",  # points numbered from 1, as the book's x₁ ... x_N
        second_point=f"x{subscript(used[-1] + 1)}",
        first_update=_vector(weights[0], ".0f"),
        last_update=_vector(final, ".0f"),
        perceptron_w_hat=_vector(final / np.linalg.norm(final), ".3f"),
        irls_w=_vector(book_weights_at(logistic, SEED003_IRLS_STEP), ".2f"),
        irls_log_p=_plain(step["log_likelihood"], ".4f"),
    )


COMPUTE = {
    "seed003": _seed003,
    "fig4_4": _fig4_4,
    "fig4_5": _fig4_5,
    "fig4_6": _fig4_6,
    "fig4_7": _fig4_7,
    "fig4_9": _fig4_9,
    "bayes_predictive": _bayes_predictive,
    "overfit": _overfit,
}


@functools.lru_cache(maxsize=64)  # a page run asks again for the same view; no text in it
def numbers(key: str, window: Window | None = None) -> dict[str, str]:
    """{placeholder: text} for preset ``key``'s explanation, from its scene seen in ``window``
    (default: the preset's own); {} for a preset without numbers."""
    preset = PRESETS[key]
    compute = COMPUTE.get(key)
    if compute is None:
        return {}
    scene = preset.scene if window is None else preset.scene.with_window(window)
    try:
        return compute(scene)
    except (PlaygroundError, ArithmeticError, ValueError) as err:  # pragma: no cover - presets fit
        raise RuntimeError(f"preset {key}: its numbers could not be computed") from err
