"""The figure presets (playground.presets): every scene fits, the widgets can show its parameters,
and each figure's phenomenon is really there, checked against the models and closed forms."""

import re

import numpy as np
import pytest

from playground import MODELS, Window, evaluate_grid, make_model
from playground.basis import make_basis
from playground.presets import POSTERIOR_DISPLAY, PRESETS, Preset, aligned_points, seed003_points
from playground.specs import PANEL_SPEC
from tests.conftest import SEED003_CLASS, SEED003_X
from ui.panels import all_panels
from ui.panels.posterior import DISPLAY_KEY, DISPLAYS
from ui.session.widget_values import widget_state
from ui.widgets.basis_controls import WIDTHS
from ui.widgets.presets import explanation

GRID = 200
LOGISTIC_DEFAULTS = {"solver": "irls", "max_iter": 100, "l2": 0.0}


def _model(scene, method=None, basis=True, **params):
    """The scene's model, unfitted: its method (or ``method``) through its strategy and basis."""
    phi = make_basis(scene.basis, **scene.basis_param_dict) if basis and scene.basis != "identity" else None
    params = {**(scene.param_dict if method is None else {}), **params}
    return make_model(method or scene.method, multiclass=scene.multiclass, basis=phi, **params)


def _fit(scene, method=None, basis=True, **params):
    return _model(scene, method, basis, **params).fit(scene.points.X, scene.points.y)


def _accuracy(model, points):
    return float(np.mean(model.predict(points.X) == points.y))


def _angle_degrees(a, b):
    """Angle between two directions (no sign), in [0, 90]."""
    cosine = abs(a @ b) / (np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.degrees(np.arccos(min(cosine, 1.0))))


def _minus(text):
    return text.replace("-", "−")


# -- every preset ---------------------------------------------------------------------------------


def test_presets_are_keyed_ordered_and_labelled():
    figures = ["fig4_2", "fig4_4", "fig4_5", "fig4_6", "fig4_7", "fig4_9", "fig4_10_11", "fig4_12"]
    assert list(PRESETS) == [*figures, "bayes_predictive", "overfit", "seed003"]
    for key, preset in PRESETS.items():
        assert isinstance(preset, Preset) and preset.key == key
        assert preset.label.startswith(f"Fig. {preset.figure} — ") if preset.figure else preset.label
    assert PRESETS["fig4_6"].label == "Fig. 4.6 — Fisher vs mean difference"


@pytest.mark.parametrize("key", list(PRESETS))
def test_scene_fits_with_finite_outputs(key):
    scene = PRESETS[key].scene
    model = _fit(scene)
    grid = evaluate_grid(model, scene.window, 60)
    assert np.all(np.isfinite(grid.decision))
    if grid.proba is not None:
        assert np.all(np.isfinite(grid.proba)) and np.allclose(grid.proba.sum(axis=-1), 1.0)
    assert set(np.unique(scene.points.y)) == set(model.classes_.tolist())


@pytest.mark.parametrize("key", list(PRESETS))
def test_scene_is_deterministic_and_framed(key):
    scene = PRESETS[key].scene
    assert scene == PRESETS[key].scene and len(scene.points) > 0
    X, window = scene.points.X, scene.window
    assert window == Window.around(X) or PRESETS[key].keep_window
    assert np.all((X[:, 0] > window.x_min) & (X[:, 0] < window.x_max))
    assert np.all((X[:, 1] > window.y_min) & (X[:, 1] < window.y_max))


@pytest.mark.parametrize("key", list(PRESETS))
def test_parameters_are_offered_by_the_widgets(key):
    preset = PRESETS[key]
    scene = preset.scene
    present = [int(k) for k in np.unique(scene.points.y)]
    _, messages = widget_state(scene.method, scene.params, present)
    assert messages == []
    if scene.basis == "rbf":
        assert scene.basis_param_dict["width"] in WIDTHS and scene.basis_param_dict["placement"] == "given"
    assert all(name in MODELS for name in preset.compare)
    assert not preset.compare or scene.method in preset.compare


@pytest.mark.parametrize("key", list(PRESETS))
def test_tabs_and_panel_options_exist_in_the_app(key):
    preset = PRESETS[key]
    titles = {panel.title for panel in all_panels()}
    assert preset.tab is None or preset.tab in titles
    assert POSTERIOR_DISPLAY == DISPLAY_KEY
    for name, value in (preset.panel_options or {}).items():
        assert PANEL_SPEC[name].clean(value) == (value, None)  # a value the panel's widgets can show
        assert name != DISPLAY_KEY or value in DISPLAYS


@pytest.mark.parametrize("key", list(PRESETS))
def test_explanation_is_one_short_paragraph(key):
    text = PRESETS[key].explanation
    sentences = re.findall(r"[.!?](?:\s|$)", text)
    assert 3 <= len(sentences) <= 5 and "\n" not in text
    assert "Try" in text or key == "seed003"


# -- the phenomena --------------------------------------------------------------------------------


def _grid_points(window, resolution=GRID):
    xs = np.linspace(window.x_min, window.x_max, resolution)
    ys = np.linspace(window.y_min, window.y_max, resolution)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])


def test_fig4_2_one_versus_rest_and_one_versus_one_leave_ambiguous_regions():
    preset = PRESETS["fig4_2"]
    scene = preset.scene
    assert scene.multiclass == "ovr" and len(np.unique(scene.points.y)) == 3
    grid = _grid_points(scene.window)
    ovr = _fit(scene)
    assert np.mean(ovr.ambiguous(grid)) > 0.2  # a large part of the view at first sight
    ovo = make_model(scene.method, multiclass="ovo", **scene.param_dict).fit(scene.points.X, scene.points.y)
    assert np.mean(ovo.ambiguous(grid)) > 0.05  # the vote-tie triangle is visible too
    native = make_model(scene.method, **scene.param_dict).fit(scene.points.X, scene.points.y)
    assert _accuracy(native, scene.points) == 1.0
    assert "one-versus-one" in preset.explanation and "K-class discriminant" in preset.explanation


def test_fig4_4_far_points_drag_least_squares_but_not_logistic():
    preset = PRESETS["fig4_4"]
    points = preset.scene.points
    assert preset.compare == ("least_squares", "logistic") and preset.scene.method == "least_squares"
    near = np.arange(40)  # the two clusters; the last twelve points are the far-away group of class 2
    far = np.arange(40, len(points))
    assert np.all(points.y[far] == 1)
    X, y = points.X, points.y
    without = make_model("least_squares").fit(X[near], y[near])
    assert np.all(without.predict(X) == y)  # the far points are on the correct side already
    with_far = _fit(preset.scene)
    wrong = np.count_nonzero(with_far.predict(X) != y)
    assert wrong >= 5
    assert _angle_degrees(without.coef_[0], with_far.coef_[0]) > 10  # the boundary visibly tilts
    logistic = _fit(preset.scene, "logistic", solver="irls", max_iter=100, l2=0.0)
    assert _accuracy(logistic, points) == 1.0
    assert "plus 12 class-2 points" in explanation(preset)  # the numbers: tests/test_preset_numbers.py


def test_fig4_5_least_squares_masks_the_middle_class_and_softmax_does_not():
    preset = PRESETS["fig4_5"]
    scene = preset.scene
    assert preset.compare == ("least_squares", "softmax")
    points = scene.points
    middle = points.y == 1
    least_squares = _fit(scene)
    # On the view and far beyond it the middle class never wins.
    for window in (scene.window, Window(-50, 50, -50, 50)):
        assert 1 not in evaluate_grid(least_squares, window, GRID).labels
    # Its output is flat: N_2 / N everywhere, "about 0.32".
    outputs = least_squares.class_outputs(_grid_points(scene.window, 40))
    np.testing.assert_allclose(outputs[:, 1], middle.mean(), atol=1e-9)
    assert f"about {middle.mean():.3f}" in explanation(preset)
    softmax = _fit(scene, "softmax", solver="irls", max_iter=100, l2=0.0)
    assert np.mean(softmax.predict(points.X[middle]) == 1) > 0.9
    assert np.mean(evaluate_grid(softmax, scene.window, GRID).labels == 1) > 0.1
    assert aligned_points() == points


def test_fig4_6_fisher_direction_differs_clearly_from_the_mean_difference():
    preset = PRESETS["fig4_6"]
    model = _fit(preset.scene)
    difference = model.means_[1] - model.means_[0]
    angle = _angle_degrees(model.direction_, difference)
    assert angle > 15 and f"about {round(angle)}°" in explanation(preset)
    ratio = model.criterion(model.direction_) / model.criterion(difference / np.linalg.norm(difference))
    assert ratio > 4 and f"about {ratio:.2g} times larger" in explanation(preset)
    assert preset.tab == "Fisher projection (fig. 4.6)"


def test_fig4_7_perceptron_converges_after_a_finite_number_of_updates():
    preset = PRESETS["fig4_7"]
    model = _fit(preset.scene)
    assert model.converged_ and _accuracy(model, preset.scene.points) == 1.0
    assert f"after {model.n_iter_} updates" in explanation(preset)
    errors = [h["errors"] for h in model.history_]
    assert errors[-1] == 0 and np.any(np.diff(errors) > 0)  # the error count also goes up on the way
    assert model.n_epochs_ > 1
    assert preset.tab == "Perceptron playback (fig. 4.7)"


def test_fig4_10_11_two_classes_share_a_covariance_and_the_third_does_not():
    preset = PRESETS["fig4_10_11"]
    scene = preset.scene
    assert scene.method == "gaussian_separate" and preset.panel_options == {DISPLAY_KEY: "posterior"}
    model = _fit(scene)
    precisions = [np.linalg.inv(c) for c in model.covariances_]
    # The quadratic term of a_j - a_k is (P_j - P_k) / 2: small between classes 1 and 2, large with class 3.
    shared = np.linalg.norm(precisions[0] - precisions[1])
    separate = min(np.linalg.norm(precisions[k] - precisions[2]) for k in (0, 1))
    assert shared < 0.4 * separate
    grid = evaluate_grid(model, scene.window, 100)
    assert set(np.unique(grid.labels).tolist()) == {0, 1, 2}
    mixed = np.mean(grid.proba.max(axis=-1) < 0.9)  # blends near the boundaries
    assert 0.02 < mixed < 0.5


def test_fig4_12_basis_functions_make_the_classes_separable():
    preset = PRESETS["fig4_12"]
    scene = preset.scene
    assert scene.basis == "rbf" and len(scene.basis_param_dict["centres"]) == 2
    linear = _fit(scene, basis=False)
    curved = _fit(scene)
    assert _accuracy(linear, scene.points) < 0.8
    assert _accuracy(curved, scene.points) > 0.95
    assert curved.estimator_.fit_message_ == ""  # a finite maximum: no note distracts from the figure
    assert preset.tab == "Feature space φ (fig. 4.12)"


# -- seed 003 -------------------------------------------------------------------------------------


def _vector(values, decimals):
    return "(" + ", ".join(_minus(f"{v:.{decimals}f}") for v in values) + ")"


def _matrix(values, spec):
    """'[[a, b], [c, d]]' with each entry formatted by ``spec`` (e.g. ".3f", "g")."""
    return "[" + ", ".join("[" + ", ".join(format(v, spec) for v in row) + "]" for row in values) + "]"


def test_seed003_points_are_the_worked_example():
    points = seed003_points()
    assert points == PRESETS["seed003"].scene.points
    np.testing.assert_array_equal(points.X, SEED003_X)
    np.testing.assert_array_equal(points.y, SEED003_CLASS - 1)  # "class 1" and "class 2" in the app


def _book_perceptron(X, t, w, eta=1.0, epochs=100):
    """The book's perceptron (eq. 4.55), written out independently: every update's w, in data order."""
    phi = np.column_stack([np.ones(len(X)), X])
    w, updates = np.asarray(w, dtype=float), []
    for _ in range(epochs):
        mistakes = 0
        for n in range(len(X)):
            if t[n] * (w @ phi[n]) <= 0:
                w = w + eta * t[n] * phi[n]
                updates.append((n, w.copy()))
                mistakes += 1
        if not mistakes:
            break
    return updates


def _book_irls(X, t, w, steps):
    """The book's IRLS (eq. 4.99) for p(C1|phi) = sigma(w^T phi), t = 1 for C1: (w, ln p) per step."""
    phi = np.column_stack([np.ones(len(X)), X])
    w, out = np.asarray(w, dtype=float), []
    for _ in range(steps + 1):
        y = 1 / (1 + np.exp(-(phi @ w)))
        out.append((w.copy(), float(np.sum(t * np.log(y) + (1 - t) * np.log(1 - y)))))
        R = y * (1 - y)
        w = w - np.linalg.solve(phi.T @ (R[:, None] * phi), phi.T @ (y - t))
    return out


def test_seed003_explanation_quotes_the_book_convention_without_sign_flips():
    preset = PRESETS["seed003"]
    scene = preset.scene
    text = explanation(preset)  # its numbers computed from the scene (ui.panels.preset_numbers), checked here
    X, y = scene.points.X, scene.points.y
    first = y == 0  # class 1 is the book's C1 (t = +1)
    assert "flip" not in text and "±" not in text
    assert "1.467" not in text and "0.585" not in text  # the notes' slips: only in the small print
    assert "1.467" in preset.about_notes and "0.585" in preset.about_notes

    fisher = _fit(scene)
    assert scene.method == "fisher"
    m1, m2 = X[first].mean(axis=0), X[~first].mean(axis=0)
    assert f"m₁ = ({m1[0]:g}, {m1[1]:g})" in text and f"m₂ = ({m2[0]:g}, {m2[1]:g})" in text
    sw = sum((X[mask] - X[mask].mean(axis=0)).T @ (X[mask] - X[mask].mean(axis=0)) for mask in (first, ~first))
    assert f"S_W = {_matrix(sw, 'g')}" in text
    direction = np.linalg.solve(sw, m1 - m2)  # pointing into C1, as the notes' (-0.83, 0.56)
    assert f"ŵ = {_vector(direction / np.linalg.norm(direction), 2)}" in text
    assert np.allclose(np.abs(fisher.direction_), np.abs(direction / np.linalg.norm(direction)))

    shared = make_model("gaussian_shared", priors=None).fit(X, y)
    assert f"Σ = {_matrix(shared.covariance_, '.3f')}" in text
    sigma_inv = np.linalg.inv(shared.covariance_)
    w = sigma_inv @ (m1 - m2)  # eq. 4.66-4.67 with equal priors
    w0 = -0.5 * m1 @ sigma_inv @ m1 + 0.5 * m2 @ sigma_inv @ m2
    assert f"(w₀, w₁, w₂) = {_vector([w0, *w], 2)}" in text

    t = np.where(first, 1.0, -1.0)
    updates = _book_perceptron(X, t, (5.0, -6.0, 1.0))
    assert [n for n, _ in updates] == [1, 3]  # x2 and x4
    assert "initial weights 5, −6, 1" in text and "at x₂ and x₄" in text
    assert f"give {_vector(updates[0][1], 0)} and then {_vector(updates[1][1], 0)}" in text
    final = updates[-1][1]
    assert f"ŵ = {_vector(final / np.linalg.norm(final), 3)}" in text

    steps = _book_irls(X, first.astype(float), (1.0, -1.0, 1.0), 5)
    fifth, log_p = steps[5]
    np.testing.assert_allclose(fifth, [5.713665154, -8.53726067, 5.768785273], rtol=1e-6)  # the notes' table
    assert "initial weights 1, −1, 1" in text and f"reaches {_vector(fifth, 2)}" in text
    assert f"ln p = {_minus(format(log_p, '.4f'))}" in text
    # The app's default run (no initial weights) stops and says why.
    app_run = make_model("logistic", **dict(PRESETS["fig4_12"].scene.params)).fit(X, y)
    assert not app_run.converged_ and "linearly separable" in app_run.fit_message_


def test_compare_presets_send_no_one_to_a_tab_the_comparison_does_not_show():
    tab_titles = {panel.title.split(" (")[0] for panel in all_panels()}
    for preset in PRESETS.values():
        if not preset.compare:
            continue
        for title in tab_titles:
            if f"*{title}" in preset.explanation:
                before = preset.explanation.split(f"*{title}")[0]
                assert "*One method*" in before, (preset.key, title)


# -- the presets of sections 4.3.5 and 4.5 -----------------------------------------------------------


def test_figure_4_9_fits_probit_and_logistic_to_nearly_the_same_line():
    scene = PRESETS["fig4_9"].scene
    probit, logistic = _fit(scene), _fit(scene, "logistic", **LOGISTIC_DEFAULTS)
    assert probit.converged_ and logistic.converged_
    assert _angle_degrees(probit.coef_[0], logistic.coef_[0]) < 5
    ratio = np.linalg.norm(logistic.coef_) / np.linalg.norm(probit.coef_)
    assert 1.6 < ratio < 2.1  # "about 1.9 times larger" in the explanation
    assert f"about {ratio:.2g} times larger" in explanation(PRESETS["fig4_9"])


def test_bayes_preset_map_is_over_confident_where_the_predictive_is_not():
    preset = PRESETS["bayes_predictive"]
    model = _fit(preset.scene)
    window = preset.scene.window
    corner = np.array([[window.x_max, window.y_max]])
    assert model.predict_proba_map(corner)[0, 0] < 0.01  # "the MAP says p(C1|x) = 0"
    assert 0.1 < model.predict_proba(corner)[0, 0] < 0.15  # "the predictive about 0.1277"
    assert float(np.sum(model.predict(preset.scene.points.X) == preset.scene.points.y)) == len(preset.scene.points)
