"""One of the longest links the app makes: the most points a link carries (5,000), spread over the
whole ±1e6 coordinate range so that every offset takes its most bytes and deflate finds little to
shorten, half of them test points, with every other part of the link at its longest (100
hand-placed RBF centres, 6 class names of 24 CJK characters, every panel option, 4 compared
methods), built by the app's own ``link_query`` and encoded as Streamlit writes a query string."""

import urllib.parse

import numpy as np

from playground.grid import Window
from playground.link import MAX_LINK_POINTS, decode_scene
from playground.scene import PointSet, Scene
from playground.specs import MAX_RBF_CENTRES
from ui.session.loading import link_query

NAMES = ["境界線を越えた点の集まり第一群分類器の右側の点", "一二三四五六七八九十壱弐参肆伍陸漆捌玖拾百千万億"]


def longest_query(light: bool = False) -> str:
    """The query string (without ``?``) of the link; it opens with no message (checked here).
    ``light``: the same points, names and panel options under least squares alone (no RBF centres,
    comparison or presentation), a link nearly as long whose fits a browser test can wait for."""
    rng = np.random.default_rng(0)
    X = np.round(rng.uniform(-1e6, 1e6, (MAX_LINK_POINTS, 2)), 5)
    points = PointSet.from_arrays(X, rng.integers(0, 6, MAX_LINK_POINTS), rng.random(MAX_LINK_POINTS) < 0.5)
    centres = tuple((float(a), float(b)) for a, b in np.round(rng.uniform(-1e6, 1e6, (MAX_RBF_CENTRES, 2)), 5))
    params = {"solver": "gd", "max_iter": 4999, "learning_rate": 0.1, "l2": 0.001}
    scene = (
        Scene(points=points, window=Window(-999999.99999, 999999.99998, -999999.99997, 999999.99996), seed=9999)
        .with_method("logistic", {**params, "w_init": (-123456.78901, 234567.89012, -345678.90123)}, "ovo")
        .with_basis("rbf", {"placement": "given", "centres": centres, "width": 1.0, "include_input": True})
        .with_class_names([(NAMES[i % 2][i:] + NAMES[1 - i % 2])[:24] for i in range(6)])
    )
    options = {
        "fisher_angle": 123.456789,
        "fisher_show_direction": False,
        "geometry": False,
        "multiclass_overlay": False,
        "posterior_display": "posterior",
        "sigmoid_point": MAX_LINK_POINTS - 1,
        "equation_point": (-987654.32109, 876543.21098),
        "bayes_contours": "predictive",
        "bayes_samples": 30,
        "bayes_seed": 9999,
        "laplace_i": MAX_RBF_CENTRES + 1,
        "laplace_j": MAX_RBF_CENTRES + 2,
    }
    compared = ("least_squares", "fisher", "perceptron", "gaussian_separate")
    if light:
        scene = scene.with_method("least_squares").with_basis("identity")
    tab = "Laplace approximation (fig. 4.14)"
    query = link_query(scene, options, tab, () if light else compared, not light, "ja")
    decoded = decode_scene(query)
    assert not decoded.messages and len(decoded.scene.points) == MAX_LINK_POINTS, decoded.messages
    assert all(len(name) == 24 for name in decoded.scene.class_names)
    return urllib.parse.urlencode(query)
