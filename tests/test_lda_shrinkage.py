"""Fisher/LDA with shrinkage (playground.lda_shrinkage) against its oracles: scikit-learn's
LinearDiscriminantAnalysis(solver="lsqr", shrinkage=λ), the shared-covariance model at λ = 0, the
line joining the means at λ = 1 (figure 4.6, left); degenerate points and bad λ get sentences."""

import json

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from playground import CARDS, InvalidDataError, PlaygroundError, make_model
from playground.lda_shrinkage import ShrinkageGaussian
from playground.link import decode_scene, encode_scene
from playground.scene import PointSet, Scene
from ui.text.i18n import translations


def random_classes(seed, n_classes, n=40, offset=0.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2)) * rng.uniform(0.2, 3.0, size=2) + offset
    y = np.arange(n) % n_classes
    X += 1.5 * np.eye(n_classes, 2)[y]
    return X, y


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("shrinkage", [0.0, 0.05, 0.37, 0.8, 1.0])
def test_it_is_scikit_learns_lsqr_lda_with_that_shrinkage(seed, n_classes, shrinkage):
    X, y = random_classes(seed, n_classes, offset=(0.0 if seed % 2 else 250.0))
    mine = make_model("lda_shrinkage", shrinkage=shrinkage).fit(X, y)
    theirs = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=shrinkage).fit(X, y)
    np.testing.assert_allclose(mine.covariance_, theirs.covariance_, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(mine.predict_proba(X), theirs.predict_proba(X), rtol=0, atol=1e-8)
    np.testing.assert_array_equal(mine.predict(X), theirs.predict(X))
    if n_classes == 2:
        np.testing.assert_allclose(mine.coef_, theirs.coef_, rtol=1e-8)
        np.testing.assert_allclose(mine.intercept_, theirs.intercept_, rtol=1e-8, atol=1e-8)
    else:  # the book's w_k = Σ_λ⁻¹μ_k, scikit-learn's coef_ rows
        np.testing.assert_allclose(mine.class_coef_, theirs.coef_, rtol=1e-8)


def test_no_shrinkage_is_the_shared_covariance_model():
    X, y = random_classes(3, 3)
    shrunk = make_model("lda_shrinkage", shrinkage=0.0).fit(X, y)
    shared = make_model("gaussian_shared").fit(X, y)
    np.testing.assert_allclose(shrunk.coef_, shared.coef_, rtol=1e-12)
    np.testing.assert_allclose(shrunk.covariance_, shared.covariance_, rtol=1e-12)
    np.testing.assert_allclose(shrunk.empirical_covariance_, shared.covariance_, rtol=1e-12)


def test_full_shrinkage_points_w_along_the_line_joining_the_means():
    """λ = 1: Σ_λ is (tr Σ / D) I, so w ∝ m₂ − m₁, the projection of figure 4.6's left plot."""
    X, y = random_classes(5, 2)
    model = make_model("lda_shrinkage", shrinkage=1.0).fit(X, y)
    means_line = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    w = model.coef_[0]
    assert abs(w @ means_line) / (np.linalg.norm(w) * np.linalg.norm(means_line)) == pytest.approx(1.0, abs=1e-12)
    assert w @ means_line > 0  # positive towards classes_[1]
    sigma = model.empirical_covariance_
    np.testing.assert_allclose(model.covariance_, np.trace(sigma) / 2 * np.eye(2), rtol=1e-12)


def test_shrinkage_keeps_the_total_variance_and_walks_the_direction_between_fisher_and_the_means():
    X, y = random_classes(8, 2)
    fisher = make_model("fisher").fit(X, y).directions_[:, 0]
    means_line = X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0)
    angles = []
    for shrinkage in np.linspace(0, 1, 11):
        model = make_model("lda_shrinkage", shrinkage=shrinkage).fit(X, y)
        assert np.trace(model.covariance_) == pytest.approx(np.trace(model.empirical_covariance_), rel=1e-12)
        w = model.coef_[0] / np.linalg.norm(model.coef_[0])
        angles.append(np.arccos(np.clip(abs(w @ means_line) / np.linalg.norm(means_line), -1, 1)))
    f = fisher / np.linalg.norm(fisher)
    assert angles[0] == pytest.approx(np.arccos(abs(f @ means_line) / np.linalg.norm(means_line)), abs=1e-9)
    assert angles[-1] == pytest.approx(0.0, abs=1e-7)
    assert all(later <= earlier + 1e-12 for earlier, later in zip(angles, angles[1:]))  # monotone towards the means


def test_collinear_points_need_a_ridge_without_shrinkage_and_none_with_it():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0], [5.0, 5.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    plain = make_model("lda_shrinkage", shrinkage=0.0).fit(X, y)
    assert plain.fit_message_ and plain.ridge_ > 0
    shrunk = make_model("lda_shrinkage", shrinkage=0.2).fit(X, y)
    assert shrunk.fit_message_ == "" and shrunk.ridge_ == 0
    np.testing.assert_array_equal(shrunk.predict(X), y)


@pytest.mark.parametrize("bad", [-0.1, 1.5, float("nan"), float("inf"), "0.3", None, True])
def test_a_bad_shrinkage_is_refused_with_a_sentence_naming_it(bad):
    X, y = random_classes(1, 2)
    with pytest.raises(InvalidDataError) as caught:
        ShrinkageGaussian(shrinkage=bad).fit(X, y)
    assert "λ" in str(caught.value) and "Fisher/LDA with shrinkage" in str(caught.value)
    japanese = caught.value.phrase(translate=translations("ja").gettext)
    assert "λ" in japanese and "縮小" in japanese


def test_one_class_is_refused_as_by_the_shared_covariance_model():
    X, _y = random_classes(1, 2)
    with pytest.raises(PlaygroundError) as caught:
        make_model("lda_shrinkage").fit(X, np.zeros(len(X), dtype=int))
    assert "Fisher/LDA with shrinkage" in str(caught.value)


def test_its_card_lists_it_after_the_gaussian_models_and_a_link_keeps_its_shrinkage():
    names = [card.name for card in CARDS]
    assert names.index("lda_shrinkage") == names.index("gaussian_separate") + 1
    X, y = random_classes(2, 2, n=12)
    scene = Scene(points=PointSet.from_arrays(X.round(2), y)).with_method("lda_shrinkage", {"shrinkage": 0.35})
    again, problems = decode_scene(encode_scene(scene))
    assert not problems and again.method == "lda_shrinkage" and again.param_dict["shrinkage"] == 0.35


@pytest.mark.parametrize("hostile", [7, -1, "x", None, [0.2], 1e400])
def test_a_link_with_a_hostile_shrinkage_loads_the_default_and_says_so(hostile):
    X, y = random_classes(2, 2, n=12)
    scene = Scene(points=PointSet.from_arrays(X.round(2), y)).with_method("lda_shrinkage", {"shrinkage": 0.35})
    query = encode_scene(scene)
    query["mp"] = json.dumps({"shrinkage": hostile})
    again, problems = decode_scene(query)
    assert again.method == "lda_shrinkage" and again.points == scene.points  # the points stay
    assert again.param_dict.get("shrinkage", 0.1) == 0.1
    assert problems and any("shrinkage" in str(problem) for problem in problems)
