"""The book's convention in everything the app shows (issue 13): ui.text.convention against oracles
written out here (the book's formulas, scikit-learn with its sign turned), the seed-003 runs of
the lecture notes through the app without any sign flipping, the method picker, the multi-class
picker that never leaves an empty page, and 1-based class numbers in what the app writes.
"""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.svm import SVC
from streamlit.testing.v1 import AppTest

from playground import MODELS, PlaygroundError, make_model
from playground.registry import TWO_CLASS_METHODS
from tests.conftest import SEED003_CLASS, SEED003_X, clusters, component_json, show_step
from ui.session.widget_values import widget_state
from ui.text import convention
from ui.text.labels import method_label

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
LINEAR_TWO_CLASS = ["least_squares", "fisher", "perceptron", "gaussian_shared", "logistic", "softmax", "svm"]


def _overlapping():
    return clusters(2, 30, seed=5, spread=(1.4, 1.0))


def _with_bias(X):
    return np.column_stack([np.ones(len(X)), X])


# -- the conversion ---------------------------------------------------------------------------------


@pytest.mark.parametrize("method", LINEAR_TWO_CLASS)
@pytest.mark.parametrize("labels", [(0, 1), (2, 4)])
def test_the_books_line_is_non_negative_exactly_on_the_first_class(method, labels):
    X, y01 = _overlapping()
    y = np.where(y01 == 0, labels[0], labels[1])
    model = make_model(method).fit(X, y)
    line = convention.book_line(model)
    assert (line.c1, line.c2) == labels and convention.book_roles(model) == tuple(f"class {k + 1}" for k in labels)
    predicted = model.predict(X)
    np.testing.assert_array_equal(line.value(X) >= 0, predicted == labels[0])  # y(x) >= 0 -> C1 (eq. 4.6)
    # w points into C1's region (figure 4.1): from the mean of C2's points towards C1's.
    assert line.w @ (X[y == labels[0]].mean(axis=0) - X[y == labels[1]].mean(axis=0)) > 0
    np.testing.assert_allclose(line.distance(X), line.value(X) / np.linalg.norm(line.w))
    np.testing.assert_allclose(convention.book_decision(model, X), line.value(X), rtol=1e-9, atol=1e-9)
    np.testing.assert_array_equal(convention.book_targets(model, y), np.where(y == labels[0], 1.0, -1.0))


def test_logistic_regression_in_the_books_parameterisation_against_scikit_learn():
    X, y = _overlapping()
    model = make_model("logistic").fit(X, y)
    reference = SkLogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, y)
    w = convention.book_weights_at(model, model.n_iter_)
    # scikit-learn's coefficients are for p(classes_[1]|x); p(C1|x) = sigma(w^T phi) takes the other sign.
    np.testing.assert_allclose(w, -np.concatenate([reference.intercept_, reference.coef_[0]]), rtol=2e-3)
    p1 = 1 / (1 + np.exp(-(_with_bias(X) @ w)))
    np.testing.assert_allclose(p1, convention.c1_probability(model, X), rtol=1e-9)
    entries = convention.book_history(model)
    assert len(entries) == len(model.history_) and np.allclose(entries[-1]["w"], w)
    assert entries[0]["log_likelihood"] == model.history_[0]["log_likelihood"]


def test_svm_weights_are_the_sum_of_a_n_t_n_x_n_with_t_plus_one_for_class_1():
    X, y = _overlapping()
    model = make_model("svm", C=1.0).fit(X, y)
    t = np.where(y == 0, 1.0, -1.0)
    line = convention.book_line(model)
    np.testing.assert_allclose(line.w, X.T @ (model.alpha_ * t), rtol=1e-6, atol=1e-9)  # eq. 7.29
    reference = SVC(kernel="linear", C=1.0).fit(X, y)
    np.testing.assert_allclose(line.w, -reference.coef_[0], rtol=2e-2, atol=2e-2)


def test_k_classes_keep_their_discriminants_and_pairs_are_positive_on_the_first_class():
    X, y = clusters(3, 25, seed=4)
    model = make_model("least_squares").fit(X, y)
    assert convention.sign(model) == 1.0 and convention.book_line(model) is None
    np.testing.assert_allclose(convention.book_decision(model, X), model.decision_function(X))
    ovo = make_model("logistic", multiclass="ovo").fit(X, y)
    for sub, estimator in zip(convention.book_sub_classifiers(ovo), ovo.estimators_):
        assert sub.positive < sub.negative
        mine = y == sub.positive
        values = _with_bias(X) @ np.concatenate([[sub.w0], sub.w])
        assert np.mean(values[mine] > 0) > 0.9 and np.mean(values[y == sub.negative] < 0) > 0.9
        np.testing.assert_allclose(sub.decision(estimator, X), values, rtol=1e-7, atol=1e-9)
    ovr = make_model("svm", multiclass="ovr").fit(X, y)
    for k, sub in enumerate(convention.book_sub_classifiers(ovr)):
        assert (sub.positive, sub.negative) == (k, None)
        np.testing.assert_allclose(sub.w, ovr.coefs_[k])


def test_fisher_points_into_class_1_as_the_notes_print_it():
    model = make_model("fisher").fit(SEED003_X, SEED003_CLASS - 1)
    fisher = convention.book_fisher(model)
    np.testing.assert_allclose(fisher.direction, [-0.83, 0.56], atol=0.005)  # the notes' unit vector
    np.testing.assert_allclose(SEED003_X @ fisher.direction, [0.29, 0.025, 0.26, -1.10, -1.36, -1.13], atol=0.006)
    assert np.all((SEED003_X @ fisher.direction >= fisher.threshold) == (SEED003_CLASS == 1))


def test_typed_initial_weights_reach_the_back_end_with_its_sign_and_come_back_unchanged():
    assert convention.backend_w_init((5, -6, 1)) == (-5.0, 6.0, -1.0)
    assert convention.book_w_init(convention.backend_w_init((1.5, -1, 0))) == (1.5, -1.0, 0.0)
    assert convention.backend_w_init(None) is None
    # The widgets' inverse shows a stored w_init as the person typed it.
    for method, key in (("perceptron", "perc_w_init"), ("logistic", "lr_w_init")):
        values, messages = widget_state(method, (("w_init", (-5.0, 6.0, -1.0)),), [0, 1])
        assert values[key] == "5, -6, 1" and not messages


def test_the_two_class_methods_are_the_ones_the_back_end_refuses_three_classes_for():
    X, y = clusters(3, 10, seed=1)
    refused = set()
    for name in MODELS:
        try:
            make_model(name).fit(X, y)
        except PlaygroundError:
            refused.add(name)
    assert refused == set(TWO_CLASS_METHODS)


def test_the_method_list_names_each_section():
    for name, cls in MODELS.items():
        section = getattr(cls, "section", None) or cls.book_section
        assert method_label(name) == f"{cls.display_name} (§{section})"
    assert method_label("least_squares").startswith("Least squares (§4.1.3")


# -- through the app (AppTest) ----------------------------------------------------------------------


@pytest.fixture
def six_points():
    at = AppTest.from_file(APP, default_timeout=60).run()
    next(b for b in at.button if b.key == "preset_seed003").click().run()
    assert not at.exception
    return at


def _open_tab(at, prefix):
    at.session_state["panel_tab"] = next(t.label for t in at.tabs if t.label.startswith(prefix))
    return at.run()


def _texts(at):
    """Everything the page writes as text (markdown, captions, boxes, metrics, tables)."""
    texts = [e.value for kind in ("markdown", "caption", "info", "warning", "error", "success") for e in at.get(kind)]
    texts += [f"{m.label} {m.value}" for m in at.metric]
    texts += [str(t.value) for t in at.table]
    texts += [str(t.value) for t in at.dataframe]
    return texts


def _decoded(text):
    """A chart component's JSON payload as readable text (nested JSON strings decoded)."""
    value = json.loads(text)
    while isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            break
    return json.dumps(value, ensure_ascii=False)


def _charts(at):
    charts = [c for c in at.get("bidi_component") if c.proto.component_name.endswith("playground_chart")]
    return [_decoded(component_json(c.proto)) for c in charts]


def test_the_notes_perceptron_run_without_sign_flipping(six_points):
    at = six_points
    at.selectbox(key="method").set_value("perceptron").run()
    at.text_input(key="perc_w_init").set_value("5, −6, 1").run()  # as the notes print it
    assert not at.exception and not at.warning
    assert at.session_state.scene.param_dict["eta"] == 1.0 and not at.session_state.scene.param_dict["shuffle"]
    at = _open_tab(at, "Perceptron")
    texts = _texts(at)
    assert any("**w = (w₀, w₁, w₂) = (5, −6, 3)**" in t for t in texts), texts
    show_step(at, 1)
    texts = _texts(at)
    assert any("x₂ = (2, 3), a point of class 1 (t = +1)" in t and "= **(6, −4, 4)**" in t for t in texts)
    show_step(at, 2)
    assert any("x₄ = (2, 1), a point of class 2 (t = −1)" in t and "= **(5, −6, 3)**" in t for t in _texts(at))
    # The Equations tab writes the same weights, and w^(0) as typed.
    show_step(at, 2)
    at = _open_tab(at, "Equations")
    latex = " ".join(e.value for e in at.latex)
    assert r"f\left(5 - 6\,x_{1} + 3\,x_{2}\right)" in latex
    assert r"\mathbf{w}^{(0)} = \begin{pmatrix}5 \\ -6 \\ 1\end{pmatrix}" in latex


def test_the_notes_irls_table_without_sign_flipping(six_points):
    at = six_points
    at.selectbox(key="method").set_value("logistic").run()
    at.text_input(key="lr_w_init").set_value("1, -1, 1").run()
    assert not at.exception
    assert any("linearly separable" in box.value for box in at.info)  # it stops and says why
    at = _open_tab(at, "Iterations")
    show_step(at, 0)
    table = at.table[0].value
    np.testing.assert_array_equal(table.iloc[0].tolist(), ["1", "−1", "1"])
    assert any("ln p(t|w), step 0: -2.9349" in chart for chart in _charts(at))
    show_step(at, 5)
    assert not at.exception
    table = at.table[0].value
    assert table.iloc[0].tolist() == ["5.7137", "−8.5373", "5.7688"]  # the notes' table after five updates
    assert table.index[0].startswith("w (σ(wᵀφ) = p(C₁|φ))")
    assert any("step 5: -0.0096008" in chart for chart in _charts(at))
    # Every point of class 1 has p(C1|x) = sigma(w^T phi) near 1, the book's way round.
    at.checkbox(key="sigmoid_follow_last").uncheck().run()
    at.number_input(key="sigmoid_point_number").set_value(1).run()
    assert any("Point 1: a = 8.71, p(C₁|x) = σ(a) = 1.000" in chart for chart in _charts(at))


@pytest.mark.parametrize("method", sorted(TWO_CLASS_METHODS))
def test_a_two_class_method_facing_three_classes_runs_one_versus_rest_and_says_so(method):
    at = AppTest.from_file(APP, default_timeout=60).run()  # three classes
    at.selectbox(key="method").set_value(method).run()
    assert not at.exception and not at.warning
    assert at.session_state.scene.multiclass == "ovr"
    assert at.radio(key="multiclass").options == ["one-versus-rest", "one-versus-one"]
    assert any("has no K-class discriminant" in c.value for c in at.caption)
    assert at.tabs, "panels under the plot"
    assert any("training accuracy" in m.value for m in at.markdown)
    at.radio(key="multiclass").set_value("ovo").run()
    assert at.session_state.scene.multiclass == "ovo" and not at.warning
    # Back to a K-class method: the K-class discriminant is offered again; the person's ovo stays.
    at.selectbox(key="method").set_value("least_squares").run()
    assert at.session_state.scene.multiclass == "ovo"
    assert len(at.radio(key="multiclass").options) == 3


def test_the_automatic_one_versus_rest_gives_way_to_the_k_class_choice_again():
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert at.session_state.scene.multiclass == "native"
    at.selectbox(key="method").set_value("svm").run()
    assert at.session_state.scene.multiclass == "ovr"
    at.selectbox(key="method").set_value("softmax").run()
    assert at.session_state.scene.multiclass == "native" and not at.warning


def test_section_4_1_5_targets_are_offered_for_two_classes_only():
    at = AppTest.from_file(APP, default_timeout=60).run()  # three classes
    assert not [r for r in at.radio if r.key == "ls_targets"]
    assert any("need two classes" in c.value for c in at.caption)
    at.slider(key="gen_classes").set_value(2)
    next(b for b in at.button if b.label == "Replace points").click().run()
    at.radio(key="ls_targets").set_value("fisher").run()
    assert not at.exception and not at.warning
    at = _open_tab(at, "Least-squares")
    assert any("t = N/N₁ = 2 for class 1 (the book's C₁)" in t for t in _texts(at))


CLASS_ZERO = re.compile(r"\b[Cc]lass(es)? 0\b|C₀|\bpoint #0\b|𝒞_\{0\}|\\mathcal\{C\}_\{0\}")


@pytest.mark.parametrize("method", sorted(MODELS))
@pytest.mark.parametrize("n_classes", [2, 3])
def test_every_tab_writes_classes_from_1(method, n_classes):
    at = AppTest.from_file(APP, default_timeout=60).run()
    if n_classes == 2:
        at.slider(key="gen_classes").set_value(2)
        next(b for b in at.button if b.label == "Replace points").click().run()
    at.selectbox(key="method").set_value(method).run()
    for label in [t.label for t in at.tabs]:
        at = _open_tab(at, label)
        assert not at.exception, label
        texts = _texts(at) + [e.value for e in at.latex] + _charts(at)
        bad = [t for t in texts if CLASS_ZERO.search(t)]
        assert not bad, (label, bad[:3])


def test_initial_weights_typed_for_the_plane_are_not_sent_to_a_basis(six_points):
    at = six_points
    at.selectbox(key="method").set_value("logistic").run()
    at.text_input(key="lr_w_init").set_value("1, -1, 1").run()
    assert at.session_state.scene.param_dict["w_init"] == (-1.0, 1.0, -1.0)  # the back-end's sign
    at.selectbox(key="basis").set_value("polynomial").run()
    assert not at.exception and not at.warning  # no "must be 6 numbers" from the back-end
    assert at.session_state.scene.param_dict["w_init"] is None
    assert any("input plane" in c.value for c in at.caption)
    at.selectbox(key="basis").set_value("identity").run()
    assert at.session_state.scene.param_dict["w_init"] == (-1.0, 1.0, -1.0)


def test_softmax_keeps_one_row_per_class_even_for_two_classes():
    from ui.panels import iterations

    X, y = _overlapping()
    model = make_model("softmax").fit(X, y)
    table = iterations.weights_table(model, model.n_iter_)
    np.testing.assert_allclose(table.to_numpy(), model.weights_)  # a_k = w_k^T phi: no sign to turn
    activations = _with_bias(X[:5]) @ table.to_numpy().T
    proba = np.exp(activations) / np.exp(activations).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(proba, model.predict_proba(X[:5]), rtol=1e-9)
    np.testing.assert_allclose(convention.book_history(model)[-1]["w"], model.weights_)


@pytest.mark.parametrize("strategy", ["native", "ovr"])
def test_a_back_end_message_names_classes_from_1_through_the_app(strategy):
    from playground.link import encode_scene
    from playground.scene import PointSet, Scene

    # Class 2 (label 1) has one point: Fisher's discriminant cannot run, and says which class.
    points = PointSet.from_arrays(
        [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [3.0, 3.0], [5.0, 0.0], [5.0, 1.0]], [0, 0, 0, 1, 2, 2]
    )
    at = AppTest.from_file(APP, default_timeout=60)
    for name, value in encode_scene(Scene(points=points, method="fisher", multiclass=strategy)).items():
        at.query_params[name] = value
    at.run()
    assert not at.exception
    messages = [w.value for w in at.warning]
    assert any("class 2 has one" in m for m in messages), messages
    assert not any(CLASS_ZERO.search(m) or "class 1 has" in m for m in messages)
