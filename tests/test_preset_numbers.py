"""The numbers in the figure presets' explanations are the scene's (ui.panels.preset_numbers): each text
is parsed and its numbers compared with the panel's own and with an oracle computed here from
the points (closed forms, the estimators fitted directly, scipy's normal distribution)."""

import re

import numpy as np
import pytest
from scipy.special import expit
from scipy.stats import norm

from playground import Window, make_model
from playground.basis import make_basis
from playground.presets import OUTLIER_CENTRE, PRESETS
from ui.equations import model_equations
from ui.panels import number_text, preset_numbers
from ui.panels.bayesian import predictive_at
from ui.panels.fisher import _safe_j
from ui.panels.least_squares import least_squares_model, output_grid
from ui.panels.perceptron import errors_figure
from ui.widgets.presets import explanation

NUMBER = r"([−\-]?[0-9]+(?:\.[0-9]+)?(?:e[−\-]?[0-9]+)?)"


def _text(key, window=None):
    text = explanation(PRESETS[key], window)
    assert "{" not in text and "}" not in text, text  # every placeholder filled
    return text


def _found(pattern, text):
    match = re.search(pattern.replace("NUM", NUMBER), text)
    assert match, (pattern, text)
    return [group.replace("−", "-") for group in match.groups()]


def _fit(scene, method=None, basis=True, **params):
    phi = make_basis(scene.basis, **scene.basis_param_dict) if basis and scene.basis != "identity" else None
    params = {**(scene.param_dict if method is None else {}), **params}
    training = scene.points.training
    return make_model(method or scene.method, multiclass=scene.multiclass, basis=phi, **params).fit(
        training.X, training.y
    )


def test_presets_without_numbers_are_shown_as_written():
    for key in ("fig4_2", "fig4_10_11", "fig4_12"):
        assert preset_numbers.numbers(key) == {} and "{" not in PRESETS[key].explanation


def test_every_placeholder_has_its_number():
    for key, preset in PRESETS.items():
        names = set(re.findall(r"\{(\w+)\}", preset.explanation))
        assert names == set(preset_numbers.numbers(key)), key


def test_fig4_4_counts_the_far_points_and_the_least_squares_mistakes():
    scene = PRESETS["fig4_4"].scene
    n_far, wrong = _found(r"plus NUM class-2 points .* and NUM points near it", _text("fig4_4"))
    X, y = scene.points.X, scene.points.y
    assert int(n_far) == 12 and np.all(np.linalg.norm(X[-12:] - OUTLIER_CENTRE, axis=1) < 3) and np.all(y[-12:] == 1)
    least_squares = _fit(scene)
    assert int(wrong) == np.count_nonzero(least_squares.predict(X) != y) > 0
    logistic = _fit(scene, "logistic", solver="irls", max_iter=100, l2=0.0)
    assert np.all(logistic.predict(X) == y)  # "still classifies every point correctly"


def test_fig4_5_level_is_the_middle_output_the_panel_shows_and_n2_over_n():
    scene = PRESETS["fig4_5"].scene
    (level,) = _found(r"level plane at about NUM", _text("fig4_5"))
    grid = output_grid(least_squares_model(_fit(scene)), scene.window)[2][..., 1]
    assert level == number_text(grid.min(), 3) == number_text(grid.max(), 3)  # the panel's "in view" figures
    y = scene.points.y
    assert level == number_text(np.mean(y == 1), 3)  # flat at N₂ / N (symmetric data)


def test_fig4_6_angle_and_ratio_are_those_of_the_histograms():
    scene = PRESETS["fig4_6"].scene
    angle, ratio = _found(r"differ by about NUM°, .* about NUM times larger", _text("fig4_6"))
    X, y = scene.points.X, scene.points.y
    m1, m2 = X[y == 0].mean(axis=0), X[y == 1].mean(axis=0)
    sw = sum((X[y == k] - X[y == k].mean(axis=0)).T @ (X[y == k] - X[y == k].mean(axis=0)) for k in (0, 1))
    fisher = np.linalg.solve(sw, m2 - m1)

    def criterion(w):  # eq. 4.26
        return float((w @ (m2 - m1)) ** 2 / (w @ sw @ w))

    means = m2 - m1
    cosine = abs(means @ fisher) / np.linalg.norm(means) / np.linalg.norm(fisher)
    assert int(angle) == round(np.degrees(np.arccos(cosine)))
    assert ratio == number_text(criterion(fisher) / criterion(means), 2)
    # The two histograms' titles give J to three digits: their quotient rounds to the text's.
    model = _fit(scene)
    shown = float(_safe_j(model.criterion(model.direction_))) / float(
        _safe_j(model.criterion(means / np.linalg.norm(means)))
    )
    assert abs(shown - float(ratio)) < 0.05


def test_fig4_7_updates_and_epochs_agree_with_the_player_the_chart_and_the_equations():
    scene = PRESETS["fig4_7"].scene
    updates, epochs = _found(r"after NUM updates in NUM epochs", _text("fig4_7"))
    model = _fit(scene)
    assert int(updates) == model.n_iter_ == len(model.history_) == 18
    assert int(epochs) == model.history_[-1]["epoch"]  # the player's epoch at the last update
    bars = errors_figure(model, model.n_iter_).data[0].y
    assert int(epochs) == np.count_nonzero(bars) and sum(bars) == int(updates)  # the chart's bars
    run = [eq.note for eq in model_equations(model) if "converged" in (eq.note or "")]
    assert run == [f"{updates} updates in {epochs} epochs, then a whole epoch without a mistake: it converged."]


def test_fig4_9_gap_ratio_and_lambda_are_computed():
    scene = PRESETS["fig4_9"].scene
    gap, ratio, inverse = _found(r"less than NUM anywhere.*about NUM times larger \(1/λ ≈ NUM", _text("fig4_9"))
    a = np.linspace(-8, 8, 20001)
    largest = np.max(np.abs(expit(a) - norm.cdf(np.sqrt(np.pi / 8) * a)))
    assert largest < float(gap) and number_text(largest, 2) == gap
    probit = _fit(scene)
    logistic = _fit(scene, "logistic", solver="irls", max_iter=100, l2=0.0, w_init=None)
    assert ratio == number_text(np.linalg.norm(logistic.coef_) / np.linalg.norm(probit.coef_), 2)
    assert inverse == number_text(np.sqrt(8 / np.pi), 2)


@pytest.mark.parametrize("window", [None, Window(-5.0, 6.24, -4.0, 4.0)])
def test_bayes_preset_quotes_the_tables_corner_in_the_view_shown(window):
    scene = PRESETS["bayes_predictive"].scene
    shown = scene.window if window is None else window
    alpha, p_map, p_predictive = _found(
        r"α = NUM\).*the MAP says p\(C₁\|x\) ≈ NUM, the predictive about NUM\.", _text("bayes_predictive", window)
    )
    assert float(alpha) == scene.param_dict["alpha"]
    model = _fit(scene)
    corner = np.array([[shown.x_max, shown.y_max]])
    table = predictive_at(model, corner)  # the panel's table, its row "corner of the view"
    assert p_predictive == number_text(table["p_predictive"][0], 4).replace("−", "-")
    # Eq. 4.155 by hand: p(C₁|x) = σ(κ(σₐ²) μₐ) for C₁ = classes_[0], w = (w₀, w₁, w₂).
    w = np.concatenate([model.intercept_, model.coef_[0]])
    phi = np.concatenate([[1.0], corner[0]])
    mu, variance = -(w @ phi), phi @ model.covariance_ @ phi
    expected = expit(mu / np.sqrt(1 + np.pi * variance / 8))
    assert abs(float(p_predictive) - expected) <= 5e-4 * expected
    assert abs(float(p_map) - expit(mu)) <= 0.05 * expit(mu)


def test_the_view_changes_the_bayes_corner():
    wide = _text("bayes_predictive", Window(-5.0, 6.24, -4.0, 4.0))
    assert wide != _text("bayes_predictive")


def test_overfit_counts_and_accuracies_are_the_fits():
    scene = PRESETS["overfit"].scene
    found = _found(
        r"^NUM training points .* and NUM test points .* degree-NUM polynomial basis has NUM features for NUM points"
        r".*training accuracy NUM%\) and gets only NUM% .* gets NUM training points wrong but NUM% of",
        _text("overfit"),
    )
    n_train, n_test, degree, features, n_again, train_acc, test_acc, line_wrong, line_test = found
    training, testing = scene.points.training, scene.points.testing
    assert (int(n_train), int(n_test), int(n_again)) == (len(training), len(testing), len(training))
    assert (
        int(degree) == scene.basis_param_dict["degree"]
        and int(features) == (int(degree) + 1) * (int(degree) + 2) // 2 - 1
    )
    curved, line = _fit(scene), _fit(scene, basis=False)
    assert float(train_acc) == round(100 * np.mean(curved.predict(training.X) == training.y), 1)
    assert float(test_acc) == round(100 * np.mean(curved.predict(testing.X) == testing.y), 1)
    assert int(line_wrong) == np.count_nonzero(line.predict(training.X) != training.y)
    assert float(line_test) == round(100 * np.mean(line.predict(testing.X) == testing.y), 1)


def test_seed003_numbers_are_the_fits_shown_in_its_tabs():
    """The worked example's numbers (tests/test_presets.py checks them against the book's formulas
    written out independently): here, against what the panels and the player show."""
    scene = PRESETS["seed003"].scene
    text = _text("seed003")
    (n_updates,) = _found(r"η = 1: NUM updates", text)
    perceptron = _fit(
        scene, "perceptron", eta=1.0, max_epochs=100, shuffle=False, random_state=0, w_init=(-5.0, 6.0, -1.0)
    )
    assert int(n_updates) == perceptron.n_iter_  # the player's last step
    fisher = _fit(scene)
    m1 = fisher.means_[0]
    assert f"m₁ = ({m1[0]:g}, {m1[1]:g})" in text
