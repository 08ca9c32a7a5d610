"""The Equations panel: every method written out as well-formed LaTeX with the book's equation
numbers, and the printed numbers read back and checked against the model's attributes and an
independent computation (numpy, scikit-learn); degenerate fits never raise; AppTest renders it.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.naive_bayes import GaussianNB
from streamlit.testing.v1 import AppTest

import ui.equations as equations_module
from playground import MODELS, PlaygroundError, PolynomialBasis, RBFBasis, make_model
from tests.conftest import clusters
from ui.equations import MAX_ENTRIES, MAX_ROWS, MAX_TERMS, Equation, matrix, model_equations, number, vector
from ui.panels import model_equations as equations_panel
from ui.panels.model_equations import POINT_OPTION, typed_point

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
TWO_CLASS_ONLY = ("perceptron", "svm", "logistic", "probit", "bayesian_logistic")
RTOL = 1e-3  # the numbers are printed with 4 significant digits

# Every command the formulas may use; all are supported by KaTeX (st.latex).
KATEX_COMMANDS = {
    "\\ ",  # a backslash-space
    *r"\# \, \; \{ \} \| \\".split(),
    *(
        "\\" + name
        for name in (
            "Phi Sigma arg begin boldsymbol cdot cdots ddots dots end eta exp frac hat in infty le left leftarrow ln "
            "mapsto mathbf mathcal mathrm max mid mu nabla phi prod propto qquad quad right sigma star sum tau text "
            "tfrac times vdots widetilde alpha big int kappa lambda pi simeq theta"
        ).split()
    ),
}
ENVIRONMENTS = {"pmatrix", "aligned", "gathered"}
NUMBER = r"-?\d+(?:\.\d+)?(?:\\times 10\^\{-?\d+\})?|-?\\infty"


# -- reading the printed numbers back -------------------------------------------------------------


def parse_number(text):
    text = text.strip()
    if text in (r"\infty", r"-\infty"):
        return float(text.replace(r"\infty", "inf"))
    match = re.fullmatch(r"(-?\d+(?:\.\d+)?)(?:\\times 10\^\{(-?\d+)\})?", text)
    assert match, f"not a printed number: {text!r}"
    return float(match[1]) * 10.0 ** int(match[2] or 0)


def pmatrices(latex):
    """Every pmatrix in ``latex`` as a 2-D array (entries after the dots are absent)."""
    found = []
    for body in re.findall(r"\\begin\{pmatrix\}(.*?)\\end\{pmatrix\}", latex):
        rows = [[cell for cell in row.split("&")] for row in body.split(r"\\")]
        rows = [[parse_number(c) for c in row if not re.search(r"dots", c)] for row in rows]
        found.append(np.array([row for row in rows if row]))
    return found


def column(latex, index=-1):
    """The ``index``-th pmatrix of ``latex`` as a flat vector (a column, or a transposed row)."""
    return pmatrices(latex)[index].ravel()


def after(latex, symbol):
    """The number printed right after ``symbol =``."""
    match = re.search(re.escape(symbol) + r" &?= (" + NUMBER + ")", latex)
    assert match, f"{symbol} = ... not found in {latex}"
    return parse_number(match[1])


def affine_terms(text):
    """[bias, w1, w2, ...] from "b + w1\\,x_{1} - w2\\,x_{2}" (no "more terms" tail)."""
    parts = re.split(r" ([+-]) ", text.strip())
    signs = ["+"] + parts[1::2]
    return [parse_number(term.split(r"\,")[0]) * (-1 if sign == "-" else 1) for sign, term in zip(signs, parts[::2])]


def by_number(equations, eq_number):
    found = [e for e in equations if e.number == eq_number]
    assert found, f"no equation {eq_number} in {[e.number for e in equations]}"
    return found[0]


def by_title(equations, title):
    found = [e for e in equations if e.title == title]
    assert found, f"no {title!r} in {[e.title for e in equations]}"
    return found[0]


def posteriors_printed(equations):
    latex = by_title(equations, "Posterior at the point").latex
    pairs = re.findall(r"p\(\\mathcal\{C\}_\{(\d+)\}\\mid \\mathbf\{x\}\) &= (" + NUMBER + ")", latex)
    return {int(k) - 1: parse_number(v) for k, v in pairs}


def predicted_printed(equations):
    return int(re.search(r"\\mapsto\\ \\mathcal\{C\}_\{(\d+)\}", by_title(equations, "Prediction").latex)[1]) - 1


def assert_well_formed(latex):
    """Balanced braces and environments, only known commands, no stray NaN."""
    assert latex.strip()
    plain = latex.replace(r"\\", " ").replace(r"\{", " ").replace(r"\}", " ")
    depth = 0
    for char in plain:
        depth += {"{": 1, "}": -1}.get(char, 0)
        assert depth >= 0, f"unbalanced braces in {latex}"
    assert depth == 0, f"unbalanced braces in {latex}"
    stack = []
    for kind, name in re.findall(r"\\(begin|end)\{(\w+)\}", latex):
        assert name in ENVIRONMENTS, name
        if kind == "begin":
            stack.append(name)
        else:
            assert stack and stack.pop() == name, f"mismatched environments in {latex}"
    assert not stack
    commands = set(re.findall(r"\\[A-Za-z]+|\\[^A-Za-z]", latex))
    assert commands <= KATEX_COMMANDS, commands - KATEX_COMMANDS
    assert "nan" not in latex.lower().replace(r"\text{nan}", "")


def assert_close(printed, expected, rtol=RTOL):
    """Printed with 4 significant digits: each entry to its own relative precision (or tiny next to the largest)."""
    printed, expected = np.ravel(printed), np.ravel(expected)
    assert printed.shape == expected.shape
    scale = np.max(np.abs(expected)) if expected.size else 1.0
    np.testing.assert_allclose(printed, expected, rtol=rtol, atol=1e-9 * max(scale, 1.0))


def strict(monkeypatch):
    """Make a missing attribute raise instead of quietly shortening the description."""
    monkeypatch.setattr(equations_module, "_UNREADABLE", ())


# -- the data -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def data():
    """Two and three overlapping clusters (so logistic regression has a finite optimum)."""
    return {2: clusters(2, 25, seed=3, spread=(1.6, 1.2)), 3: clusters(3, 20, seed=4, spread=(1.2, 0.9))}


def fit(data, name, n_classes, **params):
    X, y = data[n_classes]
    return make_model(name, **params).fit(X, y), X, y


def add_bias(X):
    return np.column_stack([np.ones(len(X)), X])


CASES = [(name, 2, {}) for name in MODELS] + [(name, 3, {}) for name in MODELS if name not in TWO_CLASS_ONLY]
CASES += [(name, 3, {"multiclass": strategy}) for name in MODELS for strategy in ("ovr", "ovo")]
CASES += [
    ("svm", 2, {"basis": RBFBasis(width=1.0)}),
    ("logistic", 2, {"basis": PolynomialBasis(degree=3), "l2": 0.1}),
    ("gaussian_shared", 3, {"basis": PolynomialBasis(degree=2)}),
    ("least_squares", 3, {"basis": "identity"}),
    ("naive_bayes", 3, {"variant": "bernoulli"}),
    ("fisher", 2, {"threshold": "gaussian"}),
    ("logistic", 2, {"solver": "gd"}),
    ("softmax", 3, {"solver": "gd"}),
    ("least_squares", 2, {"targets": "fisher"}),
    ("svm", 2, {"multiclass": "ovo"}),  # a strategy over two classes is the plain two-class model
    ("naive_bayes", 2, {"multiclass": "ovr"}),
]

EXPECTED_NUMBERS = {
    "least_squares": {"4.16", "4.17"},
    "fisher": {"4.21", "4.20", "4.26", "4.28", "4.30"},
    "perceptron": {"4.52-4.53", "4.54", "4.55"},
    "gaussian_shared": {"4.73", "4.75", "4.78-4.79", "4.65", "4.66", "4.67"},
    "lda_shrinkage": {"4.73", "4.75", "4.78-4.79", "4.65", "4.66", "4.67"},
    "gaussian_separate": {"4.73", "4.75", "4.80", "4.63-4.64"},
    "naive_bayes": {"4.73", "4.75", "4.80", "4.63"},
    "logistic": {"4.87", "4.99", "4.90"},
    "softmax": {"4.104", "4.105", "4.110", "4.108"},
    "svm": {"7.1", "7.29", "7.32-7.33", "7.3"},
    "probit": {"4.114", "4.92"},
    "bayesian_logistic": {"4.140", "4.142", "4.143", "4.144", "4.137", "4.149-4.155", "4.149-4.150", "4.155"},
}
K_CLASS_NUMBERS = {
    "fisher": {"4.21", "4.40", "4.43", "4.39", "4.9"},
    "gaussian_shared": {"4.73", "4.75", "4.78-4.79", "4.68", "4.69", "4.70", "4.62"},
    "lda_shrinkage": {"4.73", "4.75", "4.78-4.79", "4.68", "4.69", "4.70", "4.62"},
}


def _case_id(case):
    name, n_classes, params = case
    extra = ",".join(f"{k}={getattr(v, 'display_name', v)}" for k, v in params.items())
    return f"{name}-{n_classes}" + (f"-{extra}" if extra else "")


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_every_method_writes_well_formed_latex_with_its_equation_numbers(case, data, monkeypatch):
    strict(monkeypatch)  # nothing may be dropped on these ordinary fits
    name, n_classes, params = case
    model, X, _ = fit(data, name, n_classes, **params)
    equations = model_equations(model, point=X[-1])
    assert equations and all(isinstance(e, Equation) for e in equations)
    for equation in equations:
        assert equation.title
        assert_well_formed(equation.latex)
        assert equation.number is None or re.fullmatch(r"\d\.\d+(-\d\.\d+)?", equation.number)
        assert equation.note is None or not {"\\", "$"} & set(equation.note)  # notes are plain text
    numbers = {e.number for e in equations}
    wrapped = params.get("multiclass") in ("ovr", "ovo") and n_classes > 2
    if wrapped:
        titles = {e.title for e in equations}
        assert titles & {"One-versus-rest classifiers", "Pairwise classifiers"}
    else:
        expected = K_CLASS_NUMBERS.get(name, EXPECTED_NUMBERS[name]) if n_classes > 2 else EXPECTED_NUMBERS[name]
        if params.get("solver") == "gd":
            expected = (expected - {"4.99", "4.110"}) | ({"4.91"} if name == "logistic" else {"4.109"})
        if params.get("variant") == "bernoulli":
            expected = {"4.73", "4.81", "4.82"}
        if isinstance(params.get("basis"), RBFBasis):
            expected = expected | {"3.4"}
        assert expected <= numbers, expected - numbers
    assert predicted_printed(equations) == model.predict(X[-1:])[0]


# -- the printed numbers are the model's ------------------------------------------------------------


def test_least_squares_prints_the_pseudo_inverse_solution(data):
    model, X, y = fit(data, "least_squares", 3)
    equations = model_equations(model, point=(0.5, -1.0))
    T = np.eye(3)[y]
    W = np.linalg.lstsq(add_bias(X), T, rcond=None)[0]  # independent: (X~^T X~)^-1 X~^T T
    assert_close(pmatrices(by_number(equations, "4.16").latex)[0], W)
    lines = by_number(equations, "4.17").latex
    assert r"\widetilde{\mathbf{W}}^{\mathrm{T}}\widetilde{\mathbf{x}}" in lines
    outputs = add_bias(np.array([[0.5, -1.0]])) @ W
    printed = [
        after(by_title(equations, "Outputs at the point").latex, f"y_{{{k + 1}}}(\\mathbf{{x}})") for k in range(3)
    ]
    assert_close(printed, outputs[0])


@pytest.mark.parametrize("n_classes", [2, 3])
def test_shared_covariance_prints_the_book_solution(data, n_classes):
    model, X, y = fit(data, "gaussian_shared", n_classes)
    equations = model_equations(model, point=X[0])
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    counts = np.array([np.sum(y == c) for c in classes])
    sigma = sum(np.cov(X[y == c].T, bias=True) * n for c, n in zip(classes, counts)) / len(y)  # eq. 4.78-4.80
    assert_close(pmatrices(by_number(equations, "4.78-4.79").latex)[0], sigma)
    assert_close(np.array(pmatrices(by_number(equations, "4.75").latex)), means)
    priors = re.findall(r"p\(\\mathcal\{C\}_\{\d\}\) = (" + NUMBER + ")", by_number(equations, "4.73").latex)
    assert_close([parse_number(p) for p in priors], counts / len(y))
    lda = LinearDiscriminantAnalysis(solver="lsqr").fit(X, y)  # the same maximum-likelihood Sigma
    if n_classes == 2:
        # Eq. 4.66-4.67 as the book writes them, class 1 = C1: w = Sigma^-1 (mu1 - mu2), p(C1|x) = sigma(w^T x + w0).
        w = np.linalg.solve(sigma, means[0] - means[1])
        w0 = -0.5 * means[0] @ np.linalg.solve(sigma, means[0]) + 0.5 * means[1] @ np.linalg.solve(sigma, means[1])
        w0 += np.log(counts[0] / counts[1])
        assert_close(column(by_number(equations, "4.66").latex), w)
        assert_close(column(by_number(equations, "4.66").latex), -lda.coef_[0])  # sklearn's sign is the other
        bias = after(by_number(equations, "4.67").latex, r"\frac{p(\mathcal{C}_{1})}{p(\mathcal{C}_{2})}")
        assert_close(bias, w0)
        assert_close(bias, -lda.intercept_[0])
        posterior = by_number(equations, "4.65").latex
        assert posterior.startswith(r"p(\mathcal{C}_{1}\mid \mathbf{x}) = \sigma(")
        inside = re.search(r"\\sigma\\left\((.*)\\right\)", posterior)[1]
        assert_close(affine_terms(inside), [w0, *w])
    else:
        weights = np.linalg.solve(sigma, means.T).T  # eq. 4.69
        printed = np.array([m.ravel() for m in pmatrices(by_number(equations, "4.69").latex)])
        assert_close(printed, weights)
        biases = -0.5 * np.sum(means * weights, axis=1) + np.log(counts / len(y))  # eq. 4.70
        assert_close([after(by_number(equations, "4.70").latex, f"w_{{{k + 1}0}}") for k in range(3)], biases)
        assert_close(np.array([m.ravel() for m in pmatrices(by_number(equations, "4.69").latex)]), lda.coef_)
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in classes], model.predict_proba(X[:1])[0])
    assert_close([printed[k] for k in classes], lda.predict_proba(X[:1])[0], rtol=2e-3)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_shrinkage_prints_the_shrunk_covariance_and_the_solution_scikit_learn_finds(data, n_classes):
    model, X, y = fit(data, "lda_shrinkage", n_classes, shrinkage=0.4)
    equations = model_equations(model, point=X[0])
    classes = np.unique(y)
    counts = np.array([np.sum(y == c) for c in classes])
    sigma = sum(np.cov(X[y == c].T, bias=True) * n for c, n in zip(classes, counts)) / len(y)  # eq. 4.78-4.80
    shrunk = 0.6 * sigma + 0.4 * np.trace(sigma) / 2 * np.eye(2)
    assert_close(pmatrices(by_number(equations, "4.78-4.79").latex)[0], sigma)
    written = by_title(equations, "Shrunk covariance")
    assert_close(pmatrices(written.latex)[0], shrunk)
    assert "0.4" in written.note
    lda = LinearDiscriminantAnalysis(solver="lsqr", shrinkage=0.4).fit(X, y)
    assert_close(lda.covariance_, shrunk)
    if n_classes == 2:
        assert_close(column(by_number(equations, "4.66").latex), -lda.coef_[0])  # the book's sign is the other
    else:
        assert_close(np.array([m.ravel() for m in pmatrices(by_number(equations, "4.69").latex)]), lda.coef_)
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in classes], lda.predict_proba(X[:1])[0], rtol=2e-3)


def test_separate_covariances_print_each_class_covariance_and_the_quadratic_activation(data):
    model, X, y = fit(data, "gaussian_separate", 3)
    equations = model_equations(model, point=(0.3, 0.7))
    covariances = [np.cov(X[y == c].T, bias=True) for c in np.unique(y)]
    assert_close(np.array(pmatrices(by_number(equations, "4.80").latex)), np.array(covariances))
    quadratic = by_number(equations, "4.63-4.64").latex
    assert quadratic.count("^{-1}") == 3  # one Sigma_k^-1 per class
    activations = model.activations(np.array([[0.3, 0.7]]))[0]
    at_point = by_title(equations, "Activations at the point").latex
    assert_close([after(at_point, f"a_{{{k + 1}}}(\\mathbf{{x}})") for k in range(3)], activations)
    # The constant written after each quadratic form is the activation at the class mean.
    constants = [parse_number(c.replace(" ", "").lstrip("+")) for c in re.findall(r"\) ([-+] [\d.]+)", quadratic)]
    assert_close(constants, model.activations(model.means_).diagonal())


def test_naive_bayes_prints_the_per_feature_gaussians(data):
    model, X, y = fit(data, "naive_bayes", 3)
    equations = model_equations(model, point=X[5])
    reference = GaussianNB().fit(X, y)  # same var_smoothing rule
    assert_close(pmatrices(by_title(equations, "Per-feature means").latex)[0], reference.theta_)
    assert_close(pmatrices(by_title(equations, "Per-feature variances").latex)[0], reference.var_)
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in range(3)], reference.predict_proba(X[5:6])[0])


def test_bernoulli_naive_bayes_prints_the_smoothed_feature_probabilities(data):
    model, X, y = fit(data, "naive_bayes", 3, variant="bernoulli")
    equations = model_equations(model, point=X[0])
    bits = (X > X.mean(axis=0)).astype(float)
    mu = np.array([(bits[y == c].sum(axis=0) + 1) / (np.sum(y == c) + 2) for c in range(3)])  # Laplace, alpha = 1
    assert_close(pmatrices(by_number(equations, "4.81").latex)[0], mu)
    thresholds = re.findall(r"> (" + NUMBER + r")\\,\]", by_title(equations, "Binary features").latex)
    assert_close([parse_number(t) for t in thresholds], X.mean(axis=0))
    lines = by_number(equations, "4.82").latex
    first = re.search(r"a_\{1\}\(\\mathbf\{x\}\) &= (" + NUMBER + ")", lines)[1]
    assert_close(parse_number(first), np.sum(np.log(1 - mu[0])) + np.log(np.mean(y == 0)))  # eq. 4.82 at b = 0
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in range(3)], model.predict_proba(X[:1])[0])


def test_fisher_prints_the_direction_scatter_and_threshold(data):
    model, X, y = fit(data, "fisher", 2)
    equations = model_equations(model, point=X[0])
    means = np.array([X[y == c].mean(axis=0) for c in (0, 1)])
    sw = sum((X[y == c] - means[c]).T @ (X[y == c] - means[c]) for c in (0, 1))  # eq. 4.28
    assert_close(pmatrices(by_number(equations, "4.28").latex)[0], sw)
    w = np.linalg.solve(sw, means[0] - means[1])  # eq. 4.30, pointing into C1 = class 1 (y >= y0 is C1)
    assert_close(column(by_number(equations, "4.30").latex), w / np.linalg.norm(w))
    threshold = (w / np.linalg.norm(w)) @ means.mean(axis=0)  # midpoint of the projected means
    assert "Class 1 (C₁) where y ≥ y₀" in by_number(equations, "4.20").note
    assert np.mean(X[y == 0] @ w / np.linalg.norm(w) >= threshold) > 0.8  # class 1 projects above y0
    printed_cut = re.findall(r"= (" + NUMBER + r")$", by_number(equations, "4.20").latex)
    assert_close(parse_number(printed_cut[0]), threshold)
    assert "midpoint" in by_number(equations, "4.20").note
    k_class = model_equations(fit(data, "fisher", 3)[0])
    assert pmatrices(by_number(k_class, "4.39").latex)[0].shape == (2, 2)  # D x min(K - 1, D) projection


def book_perceptron(X, t, eta, w=None, epochs=100):
    """Eq. 4.55 written out: visit the points in order, add eta t_n phi_n for every mistake."""
    phi = add_bias(X)
    w = np.zeros(phi.shape[1]) if w is None else np.asarray(w, dtype=float)
    for _ in range(epochs):
        mistakes = 0
        for n in range(len(X)):
            if t[n] * (w @ phi[n]) <= 0:
                w, mistakes = w + eta * t[n] * phi[n], mistakes + 1
        if not mistakes:
            break
    return w


def test_perceptron_prints_the_books_weights_update_rule_and_run(data):
    model, X, y = fit(data, "perceptron", 2, eta=0.5)
    equations = model_equations(model, point=X[0])
    rule = by_number(equations, "4.55")
    assert r"\eta\,\boldsymbol{\phi}_n t_n" in rule.latex and after(rule.latex, r"\eta") == 0.5
    assert f"{model.n_iter_} updates" in rule.note
    weights = re.search(r"f\\left\((.*)\\right\)", by_number(equations, "4.52-4.53").latex)[1]
    t = np.where(y == 0, 1.0, -1.0)  # the book: t = +1 for C1 = class 1
    w = book_perceptron(X, t, 0.5, epochs=model.max_epochs)
    assert_close(affine_terms(weights), w)
    assert "+1 (class 1, C₁)" in by_number(equations, "4.52-4.53").note
    value = after(by_title(equations, "Decision value at the point").latex, r"\mathbf{w}^{\mathrm{T}}\boldsymbol{\phi}")
    assert_close(value, w @ add_bias(X[:1])[0])
    assert (value >= 0) == (model.predict(X[:1])[0] == 0)  # w^T phi >= 0 on C1


def test_logistic_regression_prints_w_irls_and_the_cross_entropy(data):
    model, X, y = fit(data, "logistic", 2)
    assert model.converged_
    equations = model_equations(model, point=X[3])
    reference = SkLogisticRegression(C=np.inf, tol=1e-12, max_iter=10_000).fit(X, y)
    logistic = by_number(equations, "4.87").latex
    assert logistic.startswith(r"p(\mathcal{C}_{1}\mid \boldsymbol{\phi}) = \sigma(")  # eq. 4.87 for C1 = class 1
    inside = re.search(r"\\sigma\\left\((.*)\\right\)", logistic)[1]
    # scikit-learn models p(classes_[1]|x): the book's w for C1 is its negative.
    assert_close(affine_terms(inside), -np.concatenate([reference.intercept_, reference.coef_[0]]), rtol=2e-3)
    w = np.array(affine_terms(inside))
    assert_close(1 / (1 + np.exp(-(add_bias(X[3:4]) @ w))), reference.predict_proba(X[3:4])[:, 0], rtol=2e-3)
    assert "(\\mathbf{y} - \\mathbf{t})" in by_number(equations, "4.99").latex
    p = model.predict_proba(X)[np.arange(len(y)), y]
    assert_close(after(by_number(equations, "4.90").latex, r"(1 - y_n)\}"), -np.sum(np.log(p)))
    printed = posteriors_printed(equations)
    assert_close([printed[0], printed[1]], model.predict_proba(X[3:4])[0])


def test_softmax_prints_W_and_posteriors(data):
    model, X, _ = fit(data, "softmax", 3)
    equations = model_equations(model, point=(1.0, 2.0))
    assert_close(pmatrices(by_title(equations, "Weight matrix").latex)[0], model.weights_)
    activations = model.weights_[:, 0] + model.weights_[:, 1:] @ np.array([1.0, 2.0])
    at_point = by_title(equations, "Activations at the point").latex
    assert_close([after(at_point, f"a_{{{k + 1}}}(\\mathbf{{x}})") for k in range(3)], activations)
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in range(3)], model.predict_proba(np.array([[1.0, 2.0]]))[0])


def test_svm_prints_w_from_the_multipliers_and_the_margin(data):
    model, X, y = fit(data, "svm", 2, C=1.0)
    equations = model_equations(model, point=X[0])
    t = np.where(y == 0, 1.0, -1.0)  # t_n = +1 for C1 = class 1
    w = X.T @ (model.alpha_ * t)  # eq. 7.29, independently of coef_
    assert_close(column(by_number(equations, "7.29").latex), w)
    margin = by_number(equations, "7.3").latex
    assert_close(after(margin, r"\frac{1}{\|\mathbf{w}\|}"), 1 / np.linalg.norm(w))
    assert_close(after(margin, r"\frac{2}{\|\mathbf{w}\|}"), 2 / np.linalg.norm(w))
    n_sv = int(np.sum(model.alpha_ > 0))
    assert rf"|\mathcal{{S}}| = {n_sv}" in by_number(equations, "7.29").latex
    n_at_c = int(np.sum(model.alpha_ >= 1.0))
    assert f"{n_at_c} at C" in by_number(equations, "7.32-7.33").note
    assert "C = 1" in by_number(equations, "7.32-7.33").latex
    value = after(by_title(equations, "Decision value at the point").latex, r"y(\mathbf{x})")
    bias = affine_terms(by_number(equations, "7.1").latex.split("= ")[-1])[0]
    assert_close(value, X[0] @ w + bias, rtol=2e-3)
    assert (value >= 0) == (model.predict(X[:1])[0] == 0)  # y >= 0 on C1 = class 1
    assert "Class 1 (t = +1) where y ≥ 0" in by_number(equations, "7.1").note


def test_hard_margin_svm_says_so():
    X, y = clusters(2, 15, seed=5, spread=(0.4, 0.3))
    model = make_model("svm", C=None).fit(X, y)
    dual = by_number(model_equations(model), "7.32-7.33")
    assert r"C = \infty\ (\text{hard margin})" in dual.latex and "0 at C" in dual.note
    assert_well_formed(dual.latex)


@pytest.mark.parametrize("strategy", ["ovr", "ovo"])
def test_multiclass_wrappers_print_one_line_per_sub_classifier_and_the_vote(data, strategy):
    model, X, _ = fit(data, "svm", 3, multiclass=strategy)
    equations = model_equations(model, point=X[0])
    title = "Pairwise classifiers" if strategy == "ovo" else "One-versus-rest classifiers"
    lines = by_title(equations, title).latex.split(r" \\ ")
    assert len(lines) == len(model.estimators_) == 3
    X3, y3 = data[3]
    for line, w, b, pair in zip(lines, model.coefs_, model.intercepts_, getattr(model, "pairs_", [None] * 3)):
        printed = affine_terms(line.split("&= ")[1].split(r"\qquad")[0])
        # One-versus-rest: y_k >= 0 on class k, as the back-end has it. One-versus-one: y_ij >= 0 on
        # class i, the first of the pair (the book's C1 of that two-class problem), the back-end negated.
        assert_close(printed, np.concatenate([[b], w]) * (1 if pair is None else -1))
        own = np.arange(3)[int(pair[0])] if pair is not None else None
        if own is not None:
            assert np.mean(add_bias(X3[y3 == own]) @ printed > 0) > 0.8
    if strategy == "ovo":
        assert r"\mathcal{C}_{2}\ \text{vs}\ \mathcal{C}_{3}" in lines[2]
        votes = re.findall(r"\\mathcal\{C\}_\{\d\}: (\d)", by_title(equations, "Votes at the point").latex)
        np.testing.assert_array_equal([int(v) for v in votes], model.votes(X[:1])[0])
        assert by_title(equations, "Majority vote")
    else:
        assert by_number(equations, "4.9").title == "Combining the classifiers"
        at_point = by_title(equations, "Decisions at the point").latex
        assert_close(
            [after(at_point, f"y_{{{k + 1}}}(\\mathbf{{x}})") for k in range(3)], model.decision_function(X[:1])[0]
        )


def test_one_versus_rest_posteriors_are_the_normalised_ones(data):
    model, X, _ = fit(data, "logistic", 3, multiclass="ovr")
    equations = model_equations(model, point=X[7])
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in range(3)], model.predict_proba(X[7:8])[0])
    assert "normalised" in by_title(equations, "Posterior at the point").note


def test_rbf_basis_writes_phi_out_then_the_inner_method_in_phi_space(data):
    X, y = data[2]
    model = make_model("svm", basis=RBFBasis(width=0.8, n_centres=16)).fit(X, y)
    equations = model_equations(model, point=(0.2, 0.4))
    basis = by_number(equations, "3.4")
    assert "16 centres" in basis.title and r"2s^2" in basis.latex and "s = 0.8" in basis.latex
    assert_close(pmatrices(by_title(equations, "Centres").latex)[0], model.basis_.centres_.T[:, :MAX_ROWS])
    w = by_number(equations, "7.29").latex
    assert rf"\text{{({16 - MAX_ENTRIES} more)}}" in w and r"\boldsymbol{\phi}_n" in w  # 16 weights, the first few
    assert_close(column(w), -model.estimator_.coef_[0, :MAX_ENTRIES])  # the book's w, into C1
    features = by_title(equations, "Features at the point").latex
    assert_close(column(features), model.features(np.array([[0.2, 0.4]]))[0, :MAX_ENTRIES])
    value = after(by_title(equations, "Decision value at the point").latex, r"y(\mathbf{x})")
    assert_close(value, -model.decision_function(np.array([[0.2, 0.4]]))[0])


def test_polynomial_basis_names_the_monomials(data):
    X, y = data[3]
    model = make_model("gaussian_shared", basis=PolynomialBasis(degree=4)).fit(X, y)
    equations = model_equations(model, point=X[0])
    phi = equations[0]
    assert phi.title == "Polynomial basis, degree 4" and "M = 14" in phi.note
    assert "x_{1}x_{2}" in phi.latex and "x_{2}^{4}" not in phi.latex and r"\text{(4 more)}" in phi.latex
    activations = by_number(equations, "4.68").latex
    assert r"x_{1}^{2}" in activations and f"({14 - MAX_TERMS} more terms)" in activations
    printed = posteriors_printed(equations)
    assert_close([printed[k] for k in range(3)], model.predict_proba(X[:1])[0])


@pytest.mark.parametrize(("name", "n_classes", "params"), CASES, ids=[_case_id(c) for c in CASES])
def test_printed_posteriors_and_predictions_match_the_model(data, name, n_classes, params):
    model, X, _ = fit(data, name, n_classes, **params)
    point = X.mean(axis=0)  # between the classes, where the posteriors are not all 0 or 1
    equations = model_equations(model, point=point)
    assert predicted_printed(equations) == model.predict(point[None])[0]
    if getattr(model, "is_probabilistic", False):
        printed = posteriors_printed(equations)
        assert_close([printed[k] for k in model.classes_], model.predict_proba(point[None])[0])


# -- degenerate and unusual fits ----------------------------------------------------------------------

DEGENERATE = {
    "one-point-per-class": (np.array([[0.0, 0.0], [1.0, 2.0]]), np.array([0, 1])),
    "identical": (np.ones((4, 2)), np.array([0, 0, 1, 1])),
}
# Fits the methods refuse with a message (so the panel never sees a model).
REFUSED = {("gaussian_separate", "one-point-per-class"), ("fisher", "one-point-per-class"), ("fisher", "identical")}


@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("kind", list(DEGENERATE))
def test_degenerate_fits_write_what_they_can(name, kind):
    X, y = DEGENERATE[kind]
    if (name, kind) in REFUSED:
        with pytest.raises(PlaygroundError):
            make_model(name).fit(X, y)
        return
    model = make_model(name).fit(X, y)
    equations = model_equations(model, point=(0.5, 0.5))
    assert equations
    for equation in equations:
        assert_well_formed(equation.latex)
    assert predicted_printed(equations) == model.predict(np.array([[0.5, 0.5]]))[0]


def test_a_zero_weight_svm_has_an_infinite_margin():
    model = make_model("svm").fit(*DEGENERATE["identical"])
    margin = by_number(model_equations(model), "7.3").latex
    assert after(margin, r"\frac{1}{\|\mathbf{w}\|}") == np.inf


def test_huge_coordinates_print_as_powers_of_ten():
    X, y = clusters(2, 10, seed=2)
    model = make_model("gaussian_shared").fit(X * 1e90, y)
    equations = model_equations(model, point=X[0] * 1e90)
    sigma = pmatrices(by_number(equations, "4.78-4.79").latex)[0]
    assert r"\times 10^{" in by_number(equations, "4.78-4.79").latex
    assert_close(sigma, model.covariance_)
    for equation in equations:
        assert_well_formed(equation.latex)


def test_a_missing_attribute_shortens_the_description_instead_of_raising(data):
    model, X, _ = fit(data, "gaussian_shared", 2)
    del model.covariance_
    equations = model_equations(model, point=X[0])
    assert [e.number for e in equations][:2] == ["4.73", "4.75"]  # what comes before Sigma is kept
    assert by_title(equations, "Prediction")  # the evaluation at the point is independent


def test_nothing_to_write_for_no_model_or_an_unfitted_one():
    assert model_equations(None) == []
    assert model_equations(make_model("fisher"), point=(1.0, 2.0)) == []


def test_playback_step_is_named(data):
    model, X, _ = fit(data, "perceptron", 2)
    replay = model.at_step(1)
    rule = by_number(model_equations(replay), "4.55")
    assert f"after 1 of {model.n_iter_} updates" in rule.note


# -- formatting -------------------------------------------------------------------------------------------


def test_numbers_have_four_significant_digits():
    assert number(0.123456) == "0.1235"
    assert number(-12.5) == "-12.5"
    assert number(1234567.0) == r"1.235\times 10^{6}"
    assert number(-2.5e-7) == r"-2.5\times 10^{-7}"
    assert number(-0.0) == "0" and number(0) == "0"
    assert number(np.inf) == r"\infty" and number(-np.inf) == r"-\infty"
    assert number(np.nan) == r"\text{NaN}"


def test_long_vectors_and_matrices_are_abbreviated():
    assert vector([1, 2]) == r"\begin{pmatrix}1 \\ 2\end{pmatrix}"
    long = vector(np.arange(10.0))
    assert r"\cdots" in long and rf"\text{{({10 - MAX_ENTRIES} more)}}" in long and "^{\\mathrm{T}}" in long
    big = matrix(np.ones((8, 9)))
    assert r"\vdots" in big and r"\ddots" in big and r"(8\times 9)" in big
    assert_well_formed(long)
    assert_well_formed(big)


def test_a_typed_point_is_read_from_the_options():
    assert typed_point({POINT_OPTION: [1, 2.5]}) == (1.0, 2.5)
    for bad in (None, [1], ["a", 2], [float("nan"), 1.0], "1,2"):
        assert typed_point({POINT_OPTION: bad}) is None


# -- the panel in the app (AppTest) -------------------------------------------------------------------------


def _equations_tab():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["panel_tab"] = "Equations"
    return at.run()


def test_panel_renders_the_equations_and_follows_the_method():
    at = _equations_tab()
    assert not at.exception
    latex = [element.value for element in at.latex]
    assert len(latex) >= 4 and any(r"\widetilde{\mathbf{W}}" in text for text in latex)
    captions = [c.value for c in at.caption]
    assert any("(eq. 4.16)" in c for c in captions)
    assert any("update as points are added" in c for c in captions)
    last = at.session_state.scene.points.X[-1]
    assert any(f"\\mathbf{{x}} = ({number(last[0])}, {number(last[1])})" in text for text in latex)

    at.selectbox(key="method").set_value("gaussian_shared").run()
    assert not at.exception
    latex = [element.value for element in at.latex]
    assert any(r"\boldsymbol{\Sigma} = " in text for text in latex)
    assert any("(eq. 4.69)" in c.value for c in at.caption)


def test_a_typed_point_is_kept_in_the_link_and_can_follow_the_last_point_again():
    at = _equations_tab()
    at.number_input(key="equation_x1").set_value(1.5).run()
    at.number_input(key="equation_x2").set_value(-0.25).run()
    assert not at.exception
    assert at.session_state.panel_options[POINT_OPTION] == [1.5, -0.25]
    assert "equation_point" in at.query_params["po"]
    assert any(r"\mathbf{x} = (1.5, -0.25)" in element.value for element in at.latex)
    at.button(key="equation_follow_last").click().run()
    assert POINT_OPTION not in at.session_state.panel_options
    last = at.session_state.scene.points.X[-1]
    assert at.number_input(key="equation_x1").value == pytest.approx(last[0])


def test_a_rerun_that_only_shows_the_followed_point_again_types_nothing(monkeypatch):
    # In the browser Streamlit calls the inputs' on_change when the tab was closed and reopened
    # and another widget reruns the script, with the values the inputs were only showing.
    options, shown = {}, (1.6490586081246903, 2.918875579820718)
    monkeypatch.setattr(equations_panel.st, "session_state", dict(zip(equations_panel.INPUT_KEYS, shown)))
    equations_panel._typed(options, shown)
    assert POINT_OPTION not in options
    equations_panel.st.session_state[equations_panel.INPUT_KEYS[0]] = 0.5
    equations_panel._typed(options, shown)
    assert options[POINT_OPTION] == [0.5, shown[1]]


# -- sections 4.3.5 and 4.4-4.5 ----------------------------------------------------------------------


def _printed(latex, name):
    """The number printed after ``name =`` in ``latex``."""
    match = re.search(re.escape(name) + r" = (" + NUMBER + ")", latex)
    assert match, f"{name} not printed in {latex}"
    return parse_number(match[1])


def test_bayesian_logistic_equations_print_the_back_ends_numbers_in_the_books_sign(data):
    model, X, _ = fit(data, "bayesian_logistic", 2, alpha=0.3)
    point = np.array([4.0, -3.0])
    by_title = {e.title: e for e in model_equations(model, point=point)}
    assert_close(_printed(by_title["Log evidence (Laplace)"].latex, "|"), model.log_evidence_)
    assert_close(_printed(by_title["Prior"].latex, r"\alpha"), 0.3)
    mode = re.findall(NUMBER, by_title["Mode (MAP weights)"].latex.split("=", 1)[1])
    assert_close([parse_number(v) for v in mode], -model.weights_)  # the book's w for C1 = classes_[0]
    at_point = by_title["Activation at the point"].latex
    mean, variance = model.predictive_moments(point[None])
    assert_close(_printed(at_point, r"\mu_a"), -mean[0])
    assert_close(_printed(at_point, r"\sigma_a^2"), variance[0])
    assert_close(_printed(at_point, r"\kappa"), 1 / np.sqrt(1 + np.pi * variance[0] / 8))
    assert_close(_printed(at_point, r"\sigma(\mu_a)"), model.predict_proba_map(point[None])[0, 0])
    posterior = re.findall(r"&= (" + NUMBER + ")", by_title["Posterior at the point"].latex)
    assert_close([parse_number(v) for v in posterior], model.predict_proba(point[None])[0])
    assert by_title["Posterior at the point"].number == "4.155"


def test_probit_equation_is_in_the_books_sign(data):
    model, X, _ = fit(data, "probit", 2)
    equations = {e.title: e for e in model_equations(model, point=X[0])}
    a = _printed(equations["Activation at the point"].latex, "a = \\mathbf{w}^{\\mathrm{T}}\\boldsymbol{\\phi}")
    assert_close(a, -model.decision_function(X[:1])[0])
    assert equations["Probit regression"].number == "4.114"


@pytest.mark.parametrize(
    "method, two, many",
    [
        ("logistic", "4.87", None),
        ("softmax", "4.104", "4.104"),
        ("probit", "4.114", None),
        ("bayesian_logistic", "4.155", None),
        ("gaussian_shared", "4.65", "4.62"),
        ("lda_shrinkage", "4.65", "4.62"),
        ("gaussian_separate", "4.57", "4.62"),
        ("naive_bayes", "4.57", "4.62"),
        ("least_squares", None, None),
        ("svm", None, None),
    ],
)
def test_each_cards_posterior_is_the_books_equation(method, two, many):
    """The posterior's equation comes from the method's card (a subclass registered as its own
    method, LDA with shrinkage, has its own card's)."""
    from playground import make_model
    from ui.equations import _posterior_number

    model = make_model(method)
    assert _posterior_number(model, 2) == two
    if many is not None:
        assert _posterior_number(model, 3) == many


@pytest.mark.parametrize(
    "method, params, title, equation",
    [
        ("least_squares", {}, "Outputs at the point", "4.17"),
        ("fisher", {}, "Projection at the point", "4.20"),
        ("perceptron", {}, "Decision value at the point", "4.52"),
        ("svm", {}, "Decision value at the point", "7.1"),
        ("logistic", {}, "Activation at the point", "4.87"),
        ("probit", {}, "Activation at the point", "4.114"),
        ("softmax", {}, "Activations at the point", "4.105"),
        ("bayesian_logistic", {}, "Activation at the point", "4.149-4.150"),
        ("gaussian_shared", {}, "Activations at the point", "4.68"),
        ("lda_shrinkage", {}, "Activations at the point", "4.68"),
        ("gaussian_separate", {}, "Activations at the point", "4.63"),
        ("naive_bayes", {}, "Activations at the point", "4.63"),
    ],
)
def test_each_cards_point_equations_name_the_books_equation(method, params, title, equation):
    """What a method computes at a point is written by its card (``point_equations``), with the
    book's equation; a subclass registered as its own method has its own card's."""
    from playground import make_model
    from ui.equations import _at_point

    rng = np.random.default_rng(0)
    X = np.r_[rng.normal([0, 0], 1, (20, 2)), rng.normal([3, 1], 1, (20, 2))]
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    model = make_model(method, **params).fit(X, y)
    shown = {e.title: e for e in _at_point(model, [0.5, 0.25])}
    assert shown[title].number == equation, sorted(shown)
