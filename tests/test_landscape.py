"""The criterion's landscape (issue 46, ``playground.landscape``): every unit line at its best
scale, checked against scipy's bounded minimiser, the rules of the scale-free criteria, and the
fitted weights at the landscape's optimum."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from playground import PlaygroundError, make_model
from playground.landscape import best_scale_values, data_unit, scale_rule, unit_lines

SCALED = ["least_squares", "logistic", "softmax", "probit", "bayesian_logistic", "svm"]


def _data(seed=0, n=40, shift=(2.5, 1.0)):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal([0, 0], 1, (n, 2)), rng.normal(shift, 1, (n, 2))]
    return X, np.r_[np.zeros(n, int), np.ones(n, int)]


def _random_unit_lines(rng, count):
    angles = rng.uniform(-np.pi, np.pi, count)
    return np.c_[rng.uniform(-3, 4, count), np.cos(angles), np.sin(angles)]


@pytest.mark.parametrize("name", SCALED)
def test_each_line_takes_its_least_value_over_the_scale(name):
    X, y = _data()
    model = make_model(name)
    rng = np.random.default_rng(1)
    lines = _random_unit_lines(rng, 25)
    found = best_scale_values(model, X, y, lines)
    for line, value in zip(lines, found.values):
        best = minimize_scalar(
            lambda log_s, line=line: float(model.criterion_at(X, y, line * np.exp(log_s))),
            bounds=(np.log(1e-7), np.log(1e3 / data_unit(X))),
            method="bounded",
            options=dict(xatol=1e-10),
        )
        at_zero = float(model.criterion_at(X, y, np.zeros(3)))
        assert value == pytest.approx(min(best.fun, at_zero), rel=1e-4, abs=1e-9)


@pytest.mark.parametrize("name", SCALED)
def test_the_fitted_line_is_the_landscapes_optimum(name):
    X, y = _data(seed=3)
    model = make_model(name).fit(X, y)
    fitted = np.r_[np.ravel(model.intercept_), np.ravel(model.coef_)]
    own = float(model.criterion_at(X, y, fitted))
    rng = np.random.default_rng(4)
    values = best_scale_values(model, X, y, np.vstack([fitted, _random_unit_lines(rng, 200)])).values
    assert values[0] == pytest.approx(own, rel=1e-4)  # the fit is at its own best scale
    assert np.all(values[1:] >= values[0] - 1e-6 * abs(values[0]))


@pytest.mark.parametrize("targets, offset", [("one_of_k", 0.0), ("fisher", 0.0), ("one_of_k", 1e4), ("fisher", -300.0)])
def test_least_squares_takes_the_parabolas_vertex_exactly(targets, offset):
    """Least squares' criterion is a quadratic in the scale: its least value in closed form, as
    exact as scipy's search finds it, wherever the points lie."""
    X, y = _data(seed=5)
    X = X + offset
    model = make_model("least_squares", targets=targets)
    assert scale_rule(model) == "quadratic"
    lines = _random_unit_lines(np.random.default_rng(6), 25)
    lines[:, 0] -= lines[:, 1:] @ [offset, offset]  # the lines through the moved points
    found = best_scale_values(model, X, y, lines)
    for line, value, scale in zip(lines, found.values, found.scales):
        best = minimize_scalar(
            lambda s, line=line: float(model.criterion_at(X, y, line * s)), bounds=(0, 1e3), method="bounded",
            options=dict(xatol=1e-12),
        )  # fmt: skip
        assert value == pytest.approx(best.fun, rel=1e-7) and scale >= 0
        assert value == pytest.approx(float(model.criterion_at(X, y, line * scale)), rel=1e-12)


def test_the_perceptron_is_scored_by_its_unit_line_and_fisher_by_the_direction_alone():
    X, y = _data(seed=5)
    perceptron, fisher = make_model("perceptron"), make_model("fisher")
    assert (scale_rule(perceptron), scale_rule(fisher)) == ("unit", "free")
    line = np.array([0.4, 3.0, -4.0])  # |(w1, w2)| = 5
    unit = line / 5
    found = best_scale_values(perceptron, X, y, line[None])
    assert found.values[0] == pytest.approx(float(perceptron.criterion_at(X, y, unit)))
    # E_P of the unit line: the distances of the misclassified points from it.
    distances = (X @ unit[1:] + unit[0]) * np.where(y == 1, 1, -1)
    assert found.values[0] == pytest.approx(-distances[distances <= 0].sum())
    shifted = best_scale_values(fisher, X, y, np.array([[0.4, 3.0, -4.0], [-7.0, 0.6, -0.8]])).values
    assert shifted[0] == pytest.approx(shifted[1])  # J does not see w0 or the length of w


def test_a_line_the_data_contradict_is_best_at_a_vanishing_scale():
    X, y = _data(seed=6, shift=(5.0, 0.0))
    model = make_model("logistic")
    wrong = np.array([[0.0, -1.0, 0.0]])  # w points away from classes_[1]
    found = best_scale_values(model, X, y, wrong)
    assert found.scales[0] == 0.0 and found.values[0] == pytest.approx(len(X) * np.log(2))


def test_separable_points_fall_on_at_the_largest_scale():
    X, y = _data(seed=7, shift=(12.0, 0.0))
    found = best_scale_values(make_model("logistic"), X, y, np.array([[-6.0, 1.0, 0.0]]))
    assert found.at_largest[0]


@pytest.mark.parametrize("bad", [np.array([[1.0, 0.0, 0.0]]), np.array([[np.nan, 1.0, 0.0]]), np.empty((0, 3))])
def test_a_line_without_a_direction_is_refused(bad):
    with pytest.raises(PlaygroundError, match="direction"):
        unit_lines(bad)


def test_density_models_refuse_with_their_sentence():
    X, y = _data()
    with pytest.raises(PlaygroundError, match="density"):
        best_scale_values(make_model("gaussian_shared"), X, y, np.array([[0.0, 1.0, 0.0]]))
