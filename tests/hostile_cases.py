"""Tampered links and files a hostile visitor of a hosted app might try (issue 19), and the check
that the app survives each: no traceback, a canvas and a sidebar, on the first run, on a rerun and
on a reload of whatever the address bar then holds.

The cases are examples of kinds (wrong type, wrong range, huge integers, nested lists, Markdown
text), written by hand before the fix and kept as a regression test; tests/test_hostile_app.py
runs them, and hypothesis adds random mutations of the same kinds.
"""

import base64
import json
import zlib

from playground import ClusterSpec, make_clusters
from playground.link import encode_class_names, encode_points
from playground.scene import PointSet

HUGE_TEXT = "9" * 400  # an integer no float holds: math.isfinite raises OverflowError on it

_X, _Y = make_clusters([ClusterSpec((-2.0, 0.0), (1.0, 0.6), 20.0), ClusterSpec((2.0, 0.5), (1.0, 0.6), 20.0)], 15)
TWO_CLASSES = PointSet.from_arrays(_X, _Y)
TWO_CLASS_POINTS = encode_points(TWO_CLASSES)

# Test points (issue 16): every point a test point; class 2's points all test points (the fit
# knows one class, the test points another); a label byte with a bit that means nothing.
ALL_TEST_POINTS = encode_points(TWO_CLASSES.with_test(range(len(TWO_CLASSES))))
ONE_CLASS_TRAINING_POINTS = encode_points(TWO_CLASSES.with_test([i for i, k in enumerate(TWO_CLASSES.labels) if k]))
HALF_TEST_POINTS = encode_points(TWO_CLASSES.held_out(0.5, 1))


def _with_label_byte(text, value):
    raw = bytearray(zlib.decompress(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))))
    raw[-1] = value
    return base64.urlsafe_b64encode(zlib.compress(bytes(raw))).rstrip(b"=").decode()


# Panel titles (the "tab" a link opens), so panel options reach a drawn panel.
FISHER_TAB = "Fisher projection (fig. 4.6)"
ITERATIONS_TAB = "Iterations"
POSTERIOR_TAB = "Posterior p(Cₖ|x)"
EQUATIONS_TAB = "Equations"
GEOMETRY_TAB = "Geometry (fig. 4.1)"
MULTICLASS_TAB = "Multi-class strategy (fig. 4.2)"
BASIS_TAB = "Feature space φ (fig. 4.12)"
PREDICTIVE_TAB = "Predictive vs MAP (sec. 4.5.2)"
LAPLACE_TAB = "Laplace approximation (fig. 4.14)"
PROBIT_TAB = "Sigmoid and probit (fig. 4.9)"
METRICS_TAB = "Metrics"


def _j(value):
    return json.dumps(value, separators=(",", ":"))


def _link(method=None, params=None, basis=None, basis_params=None, options=None, tab=None, two=True, **extra):
    query = {}
    if two:
        query.update(v="1", p=TWO_CLASS_POINTS)
    if method:
        query["m"] = method
    if params is not None:
        query["mp"] = params if isinstance(params, str) else _j(params)
    if basis:
        query["b"] = basis
    if basis_params is not None:
        query["bp"] = basis_params if isinstance(basis_params, str) else _j(basis_params)
    if options is not None:
        query["po"] = options if isinstance(options, str) else _j(options)
    if tab:
        query["tab"] = tab
    query.update(extra)
    return query


_HOSTILE_NAMES = ("<img src=x onerror=alert(1)>", "![](//127.0.0.1:9/x.png)", r"\input{/etc/passwd}")
HOSTILE_NAMES = encode_class_names(_HOSTILE_NAMES)
_HUGE_JSON = '{"max_iter":' + HUGE_TEXT + "}"

# (id, query parameters). Each one was tried by hand on the app as it was before issue 19.
LINK_CASES = [
    # A tab the method does not have (least squares has no iterations): the page once reran for
    # ever, the link's held tab coming back at every run's start.
    ("tab-of-another-method", _link(tab="Iterations")),
    ("tab-unknown", _link(tab="<b>no such tab</b>")),
    # Polynomial degree outside the slider or not a number.
    ("degree-7", _link(basis="polynomial", basis_params={"degree": 7})),
    ("degree-0", _link(basis="polynomial", basis_params={"degree": 0})),
    ("degree-1e6", _link(basis="polynomial", basis_params={"degree": 1000000})),
    ("degree-text", _link(basis="polynomial", basis_params={"degree": "abc"})),
    ("degree-list", _link(basis="polynomial", basis_params={"degree": [1, 2]})),
    ("degree-float", _link(basis="polynomial", basis_params={"degree": 2.5})),
    ("degree-huge", _link(basis="polynomial", basis_params='{"degree":' + HUGE_TEXT + "}")),
    # RBF settings.
    ("rbf-data-100", _link(basis="rbf", basis_params={"placement": "data", "n_centres": 100})),
    ("rbf-data-text", _link(basis="rbf", basis_params={"placement": "data", "n_centres": "x"})),
    ("rbf-seed-huge", _link(basis="rbf", basis_params={"placement": "data", "random_state": 10**12})),
    ("rbf-seed-400", _link(basis="rbf", basis_params='{"placement":"data","random_state":' + HUGE_TEXT + "}")),
    ("rbf-centres-5", _link(basis="rbf", basis_params={"centres": 5})),
    ("rbf-centres-text", _link(basis="rbf", basis_params={"centres": [[1, 2], ["a", 3]]})),
    ("rbf-centres-flat", _link(basis="rbf", basis_params={"placement": "given", "centres": [1, 2, 3]})),
    ("rbf-grid-7", _link(basis="rbf", basis_params={"placement": "grid", "n_centres": 7})),
    ("rbf-width-text", _link(basis="rbf", basis_params={"width": "wide"})),
    ("rbf-width-0", _link(basis="rbf", basis_params={"width": 0})),
    ("rbf-placement", _link(basis="rbf", basis_params={"placement": "moon"})),
    ("rbf-include-text", _link(basis="rbf", basis_params={"include_input": "yes"})),
    # Method parameters of the wrong type.
    ("perc-w-text", _link("perceptron", {"w_init": ["a", "b", "c"]})),
    ("perc-w-nested", _link("perceptron", {"w_init": [[1, 2], [3, 4], [5, 6]]})),
    ("perc-w-short", _link("perceptron", {"w_init": [1]})),
    ("perc-epochs-text", _link("perceptron", {"max_epochs": "many"})),
    ("perc-eta-list", _link("perceptron", {"eta": [1, 2]})),
    ("perc-seed-huge", _link("perceptron", {"shuffle": True, "random_state": 10**12})),
    ("perc-shuffle-text", _link("perceptron", {"shuffle": "yes", "random_state": "x"})),
    ("nb-thresholds-text", _link("naive_bayes", {"variant": "bernoulli", "thresholds": ["a", "b"]})),
    ("nb-thresholds-nested", _link("naive_bayes", {"variant": "bernoulli", "thresholds": [[1], [2]]})),
    ("nb-variant-list", _link("naive_bayes", {"variant": ["bernoulli"]})),
    ("priors-text", _link("gaussian_shared", {"priors": ["a", "b"]})),
    ("priors-zero", _link("gaussian_shared", {"priors": [0, 0]})),
    ("priors-negative", _link("gaussian_separate", {"priors": [-1, 2]})),
    ("priors-nested", _link("naive_bayes", {"priors": [[0.5], [0.5]]})),
    ("logistic-iter-list", _link("logistic", {"max_iter": [1]})),
    ("logistic-iter-huge", _link("logistic", _HUGE_JSON)),
    ("logistic-l2-text", _link("logistic", {"l2": "x", "solver": "gd", "learning_rate": "fast"})),
    ("softmax-solver-num", _link("softmax", {"solver": 3})),
    ("svm-C-negative", _link("svm", {"C": -1})),
    ("svm-C-text", _link("svm", {"C": "big"})),
    ("ls-targets-num", _link("least_squares", {"targets": 5})),
    ("fisher-threshold-list", _link("fisher", {"threshold": ["gaussian"]})),
    ("params-not-object", _link("svm", "[1,2,3]")),
    ("params-deep", _link("svm", "[" * 3000 + "]" * 3000)),
    # Panel options of the wrong type, with their panel open.
    ("fisher-angle-text", _link("fisher", options={"fisher_angle": "abc"}, tab=FISHER_TAB)),
    ("fisher-angle-list", _link("fisher", options={"fisher_angle": [1, 2]}, tab=FISHER_TAB)),
    ("fisher-angle-huge", _link("fisher", options='{"fisher_angle":' + HUGE_TEXT + "}", tab=FISHER_TAB)),
    ("fisher-show-text", _link("fisher", options={"fisher_show_direction": "no"}, tab=FISHER_TAB)),
    ("sigmoid-point-text", _link("logistic", options={"sigmoid_point": "x"}, tab=ITERATIONS_TAB)),
    ("sigmoid-point-list", _link("logistic", options={"sigmoid_point": [3]}, tab=ITERATIONS_TAB)),
    ("sigmoid-point-float", _link("logistic", options={"sigmoid_point": 2.5}, tab=ITERATIONS_TAB)),
    ("sigmoid-point-big", _link("logistic", options={"sigmoid_point": 10**12}, tab=ITERATIONS_TAB)),
    ("posterior-display-list", _link("logistic", options={"posterior_display": ["posterior"]}, tab=POSTERIOR_TAB)),
    ("equation-point-text", _link("logistic", options={"equation_point": ["a", "b"]}, tab=EQUATIONS_TAB)),
    ("equation-point-huge", _link("svm", options='{"equation_point":[1e300,-1e300]}', tab=EQUATIONS_TAB)),
    ("geometry-text", _link("least_squares", options={"geometry": [1]}, tab=GEOMETRY_TAB)),
    ("multiclass-overlay", _link(options={"multiclass_overlay": "x"}, tab=MULTICLASS_TAB, two=False, mc="ovo")),
    ("options-not-object", _link("fisher", options="[1]", tab=FISHER_TAB)),
    # Bayesian logistic regression's panels (issue 17): samples, seed, contours, the ellipse's weights.
    ("bayes-samples-text", _link("bayesian_logistic", options={"bayes_samples": "many"}, tab=PREDICTIVE_TAB)),
    ("bayes-samples-huge", _link("bayesian_logistic", options={"bayes_samples": 10**12}, tab=PREDICTIVE_TAB)),
    ("bayes-samples-negative", _link("bayesian_logistic", options={"bayes_samples": -5}, tab=LAPLACE_TAB)),
    ("bayes-samples-float", _link("bayesian_logistic", options={"bayes_samples": 2.5}, tab=PREDICTIVE_TAB)),
    ("bayes-seed-400", _link("bayesian_logistic", options='{"bayes_seed":' + HUGE_TEXT + "}", tab=PREDICTIVE_TAB)),
    ("bayes-seed-list", _link("bayesian_logistic", options={"bayes_seed": [1, 2]}, tab=LAPLACE_TAB)),
    ("bayes-seed-bool", _link("bayesian_logistic", options={"bayes_seed": True}, tab=PREDICTIVE_TAB)),
    ("bayes-contours-text", _link("bayesian_logistic", options={"bayes_contours": "<b>all</b>"}, tab=PREDICTIVE_TAB)),
    ("bayes-contours-list", _link("bayesian_logistic", options={"bayes_contours": ["map"]}, tab=PREDICTIVE_TAB)),
    ("laplace-pair-same", _link("bayesian_logistic", options={"laplace_i": 2, "laplace_j": 2}, tab=LAPLACE_TAB)),
    ("laplace-pair-beyond", _link("bayesian_logistic", options={"laplace_i": 90, "laplace_j": 0}, tab=LAPLACE_TAB)),
    ("laplace-pair-text", _link("bayesian_logistic", options={"laplace_i": "w1", "laplace_j": None}, tab=LAPLACE_TAB)),
    ("laplace-pair-nan", _link("bayesian_logistic", options='{"laplace_i":NaN,"laplace_j":1e999}', tab=LAPLACE_TAB)),
    ("bayes-alpha-text", _link("bayesian_logistic", {"alpha": "strong"}, tab=PREDICTIVE_TAB)),
    ("bayes-alpha-zero", _link("bayesian_logistic", {"alpha": 0}, tab=LAPLACE_TAB)),
    ("bayes-alpha-huge", _link("bayesian_logistic", '{"alpha":1e999}', tab=PREDICTIVE_TAB)),
    ("bayes-options-on-probit", _link("probit", options={"bayes_samples": 30, "laplace_i": 5}, tab=PROBIT_TAB)),
    ("bayes-basis-ovr", _link("bayesian_logistic", basis="polynomial", tab=LAPLACE_TAB, mc="ovr")),
    # Found by the fuzzer: the Fisher panel's overlay meets a one-versus-rest fit in feature space
    # (reachable from the sidebar too); the page's edge must hold.
    ("fisher-basis-ovr", _link("fisher", basis="polynomial", tab=FISHER_TAB, mc="ovr")),
    # Scene fields.
    ("window-denormal", _link(w="0,5e-324,0,5e-324")),
    ("window-tiny", _link(w="0,1e-12,0,1e-12")),
    ("window-huge-digits", _link(w=",".join([HUGE_TEXT] * 4))),
    ("window-text", _link(w="a,b,c,d")),
    ("step-huge", _link("perceptron", s=HUGE_TEXT)),
    ("step-negative", _link("perceptron", s="-3")),
    ("seed-huge", _link(seed=HUGE_TEXT)),
    ("tab-long", _link(tab="x" * 5000)),
    ("compare-odd", _link(cmp="svm,svm,quantum," + "a" * 100)),
    ("presentation-odd", _link(pm="[1]")),
    ("multiclass-list", _link(two=False, mc="['ovo']")),
    ("points-bad", {"v": "1", "p": "0,1,0,1~" + "A" * 40}),
    ("points-bomb", {"v": "1", "p": "0,1,0,1~" + "eJzt" * 30}),
    ("version-long", _link(v="9" * 5000)),
    # Test points (issue 16).
    ("test-all", _link("logistic", tab=METRICS_TAB, p=ALL_TEST_POINTS)),
    ("test-one-class-trained", _link("logistic", tab=METRICS_TAB, p=ONE_CLASS_TRAINING_POINTS)),
    ("test-one-class-gaussian", _link("gaussian_separate", tab=METRICS_TAB, p=ONE_CLASS_TRAINING_POINTS)),
    ("test-half-perceptron-step", _link("perceptron", tab=METRICS_TAB, p=HALF_TEST_POINTS, s="3")),
    ("test-half-compare", _link("svm", p=HALF_TEST_POINTS, cmp="svm,softmax,fisher")),
    ("test-bit-damaged", _link(p=_with_label_byte(HALF_TEST_POINTS, 0x41))),
    ("test-bit-class-7", _link(p=_with_label_byte(HALF_TEST_POINTS, 0x86))),
    # Markdown in text a link carries (must show as text; it must not crash either).
    ("markdown-method", _link(two=False, m="![x](//127.0.0.1:9/x.png)")),
    ("markdown-param", _link("svm", {"[Log in again](//example.com)": 1})),
    ("markdown-basis", _link(two=False, b="# heading")),
    # Class names (issue 18): markup of every kind a name reaches, names that are not text, garbage.
    ("names-hostile-iterations", _link("logistic", tab=ITERATIONS_TAB, names=HOSTILE_NAMES)),
    ("names-hostile-geometry", _link("perceptron", tab=GEOMETRY_TAB, names=HOSTILE_NAMES)),
    ("names-hostile-equations", _link("gaussian_shared", tab=EQUATIONS_TAB, names=HOSTILE_NAMES)),
    ("names-hostile-svm", _link("svm", names=HOSTILE_NAMES)),
    ("names-hostile-fisher", _link("fisher", tab=FISHER_TAB, names=HOSTILE_NAMES)),
    ("names-hostile-metrics", _link(tab=METRICS_TAB, p=HALF_TEST_POINTS, names=HOSTILE_NAMES)),
    ("names-not-text", _link(names=encode_class_names([["a"], 5, {"b": 1}, None, True]))),
    ("names-not-list", _link(names=encode_class_names(["x"]).replace("WyJ4Il0", "InNldG9zYSI"))),
    ("names-seven", _link(names=encode_class_names(list("abcdefg")))),
    ("names-garbage", _link(names="%%%~~~")),
    ("names-huge", _link(names="A" * 5000)),
    ("names-controls", _link(names=encode_class_names(["\x00\x1b[31m\u202e\u2028x" * 20]))),
]

_SCENE = {
    "format": "linear-classification-playground scene",
    "version": 1,
    "method": "least_squares",
    "params": {},
    "multiclass": "native",
    "basis": "identity",
    "basis_params": {},
    "window": [-5, 5, -5, 5],
    "step": None,
    "seed": 0,
    "points": [[float(x), float(y), int(k) + 1] for (x, y), k in zip(TWO_CLASSES.xy, TWO_CLASSES.labels)],
}


def _file(**changes):
    scene = dict(_SCENE)
    view = changes.pop("view", None)
    scene.update(changes)
    if view is not None:
        scene["view"] = view
    return json.dumps(scene).encode()


def _view(options, tab):
    return {"panel_options": options, "tab": tab}


def _file_with(text_field, text_value):
    """A scene file whose ``text_field`` holds raw JSON text (e.g. a 400-digit integer)."""
    return _file(**{text_field: "@@"}).replace(b'"@@"', text_value.encode())


# (id, file name, bytes): scene files and CSVs through the uploader.
FILE_CASES = [
    ("file-degree-7", "s.json", _file(basis="polynomial", basis_params={"degree": 7})),
    ("file-degree-text", "s.json", _file(basis="polynomial", basis_params={"degree": "abc"})),
    ("file-degree-huge", "s.json", _file_with("basis_params", '{"degree":' + HUGE_TEXT + "}")),
    ("file-rbf-100", "s.json", _file(basis="rbf", basis_params={"placement": "data", "n_centres": 100})),
    ("file-rbf-centres", "s.json", _file(basis="rbf", basis_params={"centres": 5})),
    ("file-perc-w", "s.json", _file(method="perceptron", params={"w_init": [[1], [2], [3]]})),
    ("file-nb-thresholds", "s.json", _file(method="naive_bayes", params={"variant": "bernoulli", "thresholds": "ab"})),
    ("file-priors-zero", "s.json", _file(method="gaussian_shared", params={"priors": [0, 1]})),
    ("file-iter-huge", "s.json", _file_with("params", '{"max_iter":' + HUGE_TEXT + "}")),
    ("file-seed-huge", "s.json", _file_with("seed", HUGE_TEXT)),
    ("file-step-huge", "s.json", _file_with("step", HUGE_TEXT)),
    ("file-window-huge", "s.json", _file_with("window", "[" + ",".join([HUGE_TEXT] * 4) + "]")),
    ("file-window-denormal", "s.json", _file(window=[0, 5e-324, 0, 5e-324])),
    ("file-angle-text", "s.json", _file(method="fisher", view=_view({"fisher_angle": "x"}, FISHER_TAB))),
    (
        "file-angle-huge",
        "s.json",
        _file(method="fisher", view={"tab": FISHER_TAB, "panel_options": "@@"}).replace(
            b'"@@"', ('{"fisher_angle":' + HUGE_TEXT + "}").encode()
        ),
    ),
    ("file-view-huge", "s.json", _file(view="@@").replace(b'"@@"', ('{"zoom":' + HUGE_TEXT + "}").encode())),
    ("file-sigmoid-text", "s.json", _file(method="logistic", view=_view({"sigmoid_point": "x"}, ITERATIONS_TAB))),
    ("file-tab-list", "s.json", _file(view={"tab": [1, 2]})),
    ("file-markdown-method", "s.json", _file(method="![x](//127.0.0.1:9/x.png)")),
    ("file-markdown-name", "![x](%2F%2F127.0.0.1%3A9%2Fx.png).json", _file()),
    ("file-point-huge", "s.json", _file_with("points", "[[" + HUGE_TEXT + ", 1, 1], [0, 0, 2]]")),
    # Test points (issue 16): the fourth value of a row, the CSV set column.
    ("file-set-odd", "s.json", _file_with("points", '[[1, 2, 1, "holdout"], [0, 0, 2]]')),
    ("file-set-number", "s.json", _file_with("points", "[[1, 2, 1, 1], [0, 0, 2, true]]")),
    ("file-set-markdown", "s.json", _file_with("points", '[[1, 2, 1, "![x](//127.0.0.1:9/x.png)"]]')),
    ("file-all-test", "s.json", _file_with("points", '[[1, 2, 1, "test"], [0, 0, 2, "test"]]')),
    ("csv-set-odd", "p.csv", b"x1,x2,class,set\n1,2,1,maybe\n3,4,2,test\n"),
    ("csv-set-markdown", "p.csv", b"x1,x2,class,set\n1,2,1,[a](//example.com)\n"),
    ("csv-set-ragged", "p.csv", b"x1,x2,class,set\n1,2,1,test\n3,4,2\n"),
    ("csv-all-test", "p.csv", b"1,2,1,test\n3,4,2,test\n"),
    ("csv-huge", "p.csv", f"1,2,1\n{HUGE_TEXT},1,2\n".encode()),
    ("csv-markdown", "p.csv", b"x1,x2,class\n1,2,![x](//127.0.0.1:9/x.png)\n"),
    # Class names (issue 18): a scene file's names, a CSV's text labels.
    ("file-names-hostile", "s.json", _file(class_names=list(_HOSTILE_NAMES))),
    ("file-names-huge", "s.json", _file(class_names=["x" * 10_000, ["a"], 3])),
    ("file-names-not-list", "s.json", _file(class_names={"1": "a"})),
    (
        "csv-names-hostile",
        "p.csv",
        b"x1,x2,class\n1,2,<img src=x onerror=alert(1)>\n3,4,\\input{/etc/passwd}\n",
    ),
]


# ---- The check -----------------------------------------------------------------------------------


def _elements(node):
    yield node
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield from _elements(child)


def has_canvas(at):
    """The app drew its clickable canvas (a Components v2 element AppTest does not know)."""
    return any(
        type(element).__name__ == "UnknownElement" and 'component_name: "playground_canvas"' in str(element.proto)
        for element in _elements(at._tree)
    )


def has_sidebar(at):
    return any(getattr(element, "key", None) == "method" for element in _elements(at.sidebar))


def problems(at):
    """What is wrong with the page: tracebacks shown, the canvas or the sidebar missing."""
    found = [f"exception: {e.value[:200] if hasattr(e, 'value') else e}" for e in at.exception]
    if not has_canvas(at):
        found.append("no canvas")
    if not has_sidebar(at):
        found.append("no sidebar")
    return found
