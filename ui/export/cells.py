"""The exported notebook's cells, in order: the scene's data, the method in numpy, the same with
scikit-learn, the check and the figure, the link back. ``scene_cells`` returns them as
("markdown" | "code", source) pairs; ``ui.export.notebook`` and ``ui.export.script`` write them.

Rules:

- A visitor's text (class names) enters code only as ``repr`` literals (string constants, never
  code) and Markdown only through ``ui.text.markdown.plain`` (shown as the characters it is). Nothing a
  visitor wrote is ever executed or interpreted as markup: the code escapes names itself before
  plotly, which renders an HTML subset, sees them.
- Numbers are the scene's own: points as ``repr`` of their floats (exact), settings as literals.
- The last code cell prints one line ``SUMMARY {json}`` (accuracies, predictions, weights in the
  book's sign, posteriors and scikit-learn's answers) so that tests and readers can compare.
- Markdown, what the code prints and the figures' legends are in the session's language (``WORDS``);
  the code and its comments stay in English.
- A figure's axes are the scene's window exactly (equal scales shrink the plot area instead).
"""

from collections.abc import Callable
from typing import Any

from playground.i18n import N_
from playground.registry import MODELS, fitted_strategy
from playground.scene import Scene
from playground.specs import BASIS_SPECS, METHOD_SPECS, clean_settings
from ui.methods import card_of
from ui.methods.numpy_cells import literal, pep8_spacing
from ui.plot.theme import CLASS_COLOURS, CLASS_SYMBOLS
from ui.text.convention import book_w_init
from ui.text.markdown import plain

from .sklearn_cells import no_counterpart, sklearn_code


def numpy_code(method: str, settings: dict[str, Any]) -> str:
    """The numpy cell of ``method`` (its card's ``numpy_code``) with ``settings`` (the method's
    parameters, complete), laid out as PEP 8 has it (two blank lines before a function)."""
    s = {name: literal(value) for name, value in settings.items()}  # every setting checked, used or not
    return pep8_spacing(card_of(method).numpy_code(settings, s))


def settings_of(scene: Scene) -> dict[str, Any]:
    """The method's settings, complete (defaults filled in as the app's widgets would)."""
    values, _unused = clean_settings(METHOD_SPECS[scene.method], scene.param_dict, "method parameter", "scene")
    return values


def strategy_of(scene: Scene, n_classes: int) -> str:
    """ "native", "ovr" or "ovo" as the fit runs it (a two-class method meets K > 2 classes with OvR)."""
    return "native" if n_classes <= 2 else fitted_strategy(scene.method, scene.multiclass, n_classes)


def _array(rows, per_line=4):
    """Points as an exact numpy literal, a few to a line."""
    items = [f"[{x!r}, {y!r}]," for x, y in rows]
    if not items:
        return "np.zeros((0, 2))"
    lines = ["    " + " ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "np.array([\n" + "\n".join(lines) + "\n])"


# What the code prints and the figures' legends say, in the session's language: a dict of literals
# in the data cell (``repr``: text, never code), which the code formats; the keys stay English.
WORDS = {
    "training accuracy": N_("training accuracy: {accuracy} ({right} of {n} points)"),
    "test accuracy": N_("test accuracy: {accuracy} ({right} of {n} points)"),
    "weights": N_("weights [w0, w1, ...] in the book's sign:"),
    "agree": N_("numpy and scikit-learn agree on {agree} of {n} points"),
    "gap": N_("largest difference between their weights: {gap}"),
    "test point": N_("{name} (test)"),
    "boundary": N_("decision boundary"),
    "misclassified": N_("misclassified"),
}


def words_literal(gettext: Callable[[str], str]) -> str:
    """``WORDS`` translated, as a Python dict literal, one entry a line."""
    lines = [f"    {key!r}: {gettext(message)!r}," for key, message in WORDS.items()]
    return "{\n" + "\n".join(lines) + "\n}"


def data_code(
    scene: Scene, class_name: Callable[[int], str], gettext: Callable[[str], str] = lambda message: message
) -> str:
    points = scene.points
    train = [(xy, label + 1) for xy, label, test in points.rows() if not test]
    test = [(xy, label + 1) for xy, label, test in points.rows() if test]
    present = sorted({label + 1 for label in points.labels})
    names = ", ".join(f"{c}: {class_name(c - 1)!r}" for c in present)
    window = scene.window.as_tuple()
    return f'''import html
import json

import numpy as np
import plotly.graph_objects as go

CLASS_NAMES = {{{names}}}  # the classes' names in the app (text: never code)
WORDS = {words_literal(gettext)}  # what the code prints, in the notebook's language (text: never code)
# training points x_n = (x1, x2), and their classes, numbered from 1
X = {_array(xy for xy, _ in train)}
labels = np.array({[c for _, c in train]!r}, dtype=int)
# test points: no fit sees them
X_test = {_array(xy for xy, _ in test)}
labels_test = np.array({[c for _, c in test]!r}, dtype=int)
WINDOW = {tuple(window)!r}  # the view: x1 from, x1 to, x2 from, x2 to

CLASSES = np.unique(labels)  # the classes present; CLASSES[0] is the book's C1, CLASSES[1] C2, ...
k = np.searchsorted(CLASSES, labels)  # class index of each training point: 0 for C1, 1 for C2, ...
COLOURS = {CLASS_COLOURS!r}
SYMBOLS = {CLASS_SYMBOLS!r}


def points_figure(title):
    """The points as the app draws them: a colour and a symbol per class, test points hollow."""
    fig = go.Figure()
    for c in np.union1d(labels, labels_test):
        name = html.escape(CLASS_NAMES[c])  # plotly reads labels as HTML: the name is shown as text
        for points, test in ((X[labels == c], False), (X_test[labels_test == c], True)):
            if len(points):
                fig.add_scatter(
                    x=points[:, 0], y=points[:, 1], mode="markers",
                    name=WORDS["test point"].format(name=name) if test else name,
                    marker=dict(color=COLOURS[c - 1], symbol=SYMBOLS[c - 1] + ("-open" if test else ""), size=9),
                )
    fig.update_layout(
        title=title, template="plotly_white", width=620, height=540,
        # Equal scales shrink the plot area ("domain"), never widen an axis: the axes are the window.
        xaxis=dict(range=WINDOW[:2], title="x₁", constrain="domain"),
        yaxis=dict(range=WINDOW[2:], title="x₂", scaleanchor="x", constrain="domain"),
    )
    return fig
'''


def basis_code(scene: Scene) -> str:
    values, _unused = clean_settings(BASIS_SPECS[scene.basis], scene.basis_param_dict, "basis parameter", "scene")
    if scene.basis == "polynomial":
        return f'''from itertools import combinations_with_replacement

DEGREE = {literal(values["degree"])}


def phi(X):
    """Every monomial of x1, x2 of degree 1 to DEGREE, cross terms included (section 4.3.1)."""
    terms = [c for d in range(1, DEGREE + 1) for c in combinations_with_replacement(range(X.shape[1]), d)]
    return np.column_stack([np.prod(X[:, list(c)], axis=1) for c in terms])
'''
    if scene.basis == "rbf":
        placement = values["placement"]
        if placement == "grid":
            centres = f"""per_axis = max(1, round({literal(values["n_centres"])} ** 0.5))
low, high = X.min(axis=0), X.max(axis=0)  # a grid over the training points
axes = [np.array([(l + h) / 2]) if per_axis == 1 else np.linspace(l, h, per_axis) for l, h in zip(low, high)]
CENTRES = np.unique(np.column_stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")]), axis=0)"""
        elif placement == "data":
            centres = f"""distinct = np.unique(X, axis=0)  # training points drawn at random, seeded
chosen = np.random.default_rng({literal(values["random_state"])}).choice(
    len(distinct), size=min({literal(values["n_centres"])}, len(distinct)), replace=False
)
CENTRES = distinct[np.sort(chosen)]"""
        else:
            centres = f"CENTRES = np.array({literal(values.get('centres', ()))}).reshape(-1, 2)  # placed by hand"
        return f'''{centres}
WIDTH, INCLUDE_INPUT = {literal(values["width"])}, {literal(values["include_input"])}


def phi(X):
    """Gaussian basis functions exp(-|x - c_j|^2 / 2s^2) (eq. 3.4), optionally after x itself."""
    radial = np.exp(-((X[:, None, :] - CENTRES[None]) ** 2).sum(axis=2) / (2 * WIDTH**2))
    return np.hstack([X, radial]) if INCLUDE_INPUT else radial
'''
    return """def phi(X):
    return X  # no basis functions: phi(x) = x
"""


#: What every strategy's cell starts with: the features, K, and a two-class model's y(x) and weights.
STRATEGY_PREAMBLE = '''Phi = phi(X)
K = len(CLASSES)


def two_class_value(model, Phi):
    """y(x) of a model of two classes: >= 0 means its C1 (eq. 4.4)."""
    d = discriminants(model, Phi)
    return d[:, 0] - d[:, 1]


def book_weights(model):
    """The weights in the book's sign: y(x) = y_1(x) - y_2(x) for a K-class form of two classes."""
    W = weights(model)
    if W is None:
        return None
    W = np.asarray(W, dtype=float)
    return (W[0] - W[1]) if W.ndim == 2 and W.shape[0] == 2 else W

'''


def native_code(w_init: str) -> str:
    """One model of all the classes; the largest discriminant wins."""
    return f"""
model = fit(Phi, k, w_init={w_init})


def predict(X_new):
    return CLASSES[np.argmax(discriminants(model, phi(X_new)), axis=1)]  # the largest wins (eq. 4.9)


fitted_weights = book_weights(model)
"""


def one_versus_rest_code(w_init: str) -> str:
    """A model per class against the others, class j as its C1. The app's one-versus-rest models
    take the back-end's ``w_init`` (``ui.text.convention``) with the class picked out as their
    positive class, so in the book's sign each starts from ``w_init`` negated."""
    start = "None" if w_init == "None" else f"-np.array({w_init})"
    return f"""
# One-versus-rest (section 4.1.2, figure 4.2 left): class j (as C1) against all the others.
models = [fit(Phi, np.where(k == j, 0, 1), w_init={start}) for j in range(K)]


def predict(X_new):
    y = np.column_stack([two_class_value(m, phi(X_new)) for m in models])
    return CLASSES[np.argmax(y, axis=1)]  # the largest y_j(x) wins where several or none claim x


fitted_weights = [book_weights(m) for m in models]
"""


def one_versus_one_code(w_init: str) -> str:
    """A model per pair of classes and a majority vote, ties broken by the summed confidence."""
    return f"""
# One-versus-one (section 4.1.2, figure 4.2 right): a model per pair i < j, class i as C1.
pairs = [(i, j) for i in range(K) for j in range(i + 1, K)]
models = []
for i, j in pairs:
    rows = (k == i) | (k == j)
    models.append(fit(Phi[rows], np.where(k[rows] == i, 0, 1), w_init={w_init}))


def predict(X_new):
    F = phi(X_new)
    votes, confidence = np.zeros((len(F), K)), np.zeros((len(F), K))
    for (i, j), m in zip(pairs, models):
        y = two_class_value(m, F)
        votes[np.arange(len(F)), np.where(y >= 0, i, j)] += 1  # the majority vote
        confidence[:, i] += y
        confidence[:, j] -= y
    # a tie in the votes goes to the larger summed confidence (the added term stays below 1/3)
    return CLASSES[np.argmax(votes + confidence / (3 * (np.abs(confidence) + 1)), axis=1)]


fitted_weights = [book_weights(m) for m in models]
"""


STRATEGY_CODE = {"native": native_code, "ovr": one_versus_rest_code, "ovo": one_versus_one_code}


def strategy_code(strategy: str, w_init: str) -> str:
    """The cell that fits the model(s) and defines ``predict``."""
    return STRATEGY_PREAMBLE + STRATEGY_CODE.get(strategy, one_versus_one_code)(w_init)


RESULTS = """predicted, predicted_test = predict(X), predict(X_test)
train_accuracy = float(np.mean(predicted == labels))
test_accuracy = float(np.mean(predicted_test == labels_test)) if len(X_test) else None
right = int(np.sum(predicted == labels))
print(WORDS["training accuracy"].format(accuracy=f"{train_accuracy:.2%}", right=right, n=len(X)))
if test_accuracy is not None:
    right = int(np.sum(predicted_test == labels_test))
    print(WORDS["test accuracy"].format(accuracy=f"{test_accuracy:.2%}", right=right, n=len(X_test)))
if fitted_weights is not None:
    with np.printoptions(precision=4, suppress=True):
        print(WORDS["weights"], np.asarray(fitted_weights, dtype=float), sep="\\n")
"""


def sklearn_run_code(strategy: str) -> str:
    wrap = (
        "from sklearn.multiclass import OneVsRestClassifier\n\nestimator = OneVsRestClassifier(estimator)\n"
        if strategy == "ovr"
        else ""
    )
    return f'''{wrap}sk = estimator.fit(phi(X), labels)
sk_predicted = sk.predict(phi(X))
sk_predicted_test = sk.predict(phi(X_test)) if len(X_test) else sk_predicted[:0]


def sklearn_book_weights(sk):
    """scikit-learn's weights as the book writes them: bias first; with two classes negated
    (its coef_ points into the second class); one row per class or per one-versus-rest model."""
    if hasattr(sk, "estimators_"):
        return [np.r_[e.intercept_[0], e.coef_[0]] for e in sk.estimators_]
    W = np.column_stack([sk.intercept_, sk.coef_])
    return -W[0] if len(sk.classes_) == 2 else W


sk_weights = sklearn_book_weights(sk) if SAME_WEIGHTS else None
agree = int(np.sum(sk_predicted == predicted)) + int(np.sum(sk_predicted_test == predicted_test))
print(WORDS["agree"].format(agree=agree, n=len(X) + len(X_test)))
if sk_weights is not None:
    theirs, ours = np.asarray(sk_weights), np.asarray(fitted_weights)
    if STRATEGY == "native" and ours.ndim == 2:  # one row per class: equal up to a common shift
        theirs, ours = theirs - theirs.mean(axis=0), ours - ours.mean(axis=0)
    gap = np.max(np.abs(theirs - ours))
    print(WORDS["gap"].format(gap=f"{{gap:.2e}}"))
'''


NO_SKLEARN = "sk_predicted = sk_predicted_test = sk_weights = None  # no scikit-learn counterpart\n"

FIGURE = """# The regions, the boundary and the misclassified points (ringed), as the app draws them
gx, gy = np.meshgrid(np.linspace(*WINDOW[:2], 200), np.linspace(*WINDOW[2:], 200))
region = predict(np.column_stack([gx.ravel(), gy.ravel()])).reshape(gx.shape)
fig = points_figure(FIGURE_TITLE)
steps = [[position, COLOURS[c - 1]] for c in range(1, 7) for position in ((c - 1) / 6, c / 6)]  # a colour per class
fig.add_heatmap(
    x=gx[0], y=gy[:, 0], z=region, zmin=0.5, zmax=6.5, showscale=False, opacity=0.25, hoverinfo="skip",
    colorscale=steps,
)
fig.add_contour(
    x=gx[0], y=gy[:, 0], z=region, showscale=False, hoverinfo="skip", name=WORDS["boundary"],
    contours=dict(coloring="none", start=1.5, end=5.5, size=1), line=dict(color="black", width=2),
)
wrong = np.r_[X[predicted != labels], X_test[predicted_test != labels_test]].reshape(-1, 2)
fig.add_scatter(
    x=wrong[:, 0], y=wrong[:, 1], mode="markers", name=WORDS["misclassified"],
    marker=dict(symbol="circle-open", size=18, color="black", line=dict(width=2)),
)
"""

SUMMARY = """def as_list(value):
    if value is None:
        return None
    if isinstance(value, list):
        return [as_list(v) for v in value]
    return np.asarray(value, dtype=float).tolist()


summary = {
    "train_accuracy": train_accuracy,
    "test_accuracy": test_accuracy,
    "predicted": predicted.tolist(),
    "predicted_test": predicted_test.tolist(),
    "weights": as_list(fitted_weights),
    "posteriors": as_list(posteriors(model, phi(X))) if STRATEGY == "native" and posteriors is not None else None,
    "sklearn_predicted": None if sk_predicted is None else np.r_[sk_predicted, sk_predicted_test].tolist(),
    "sklearn_weights": as_list(sk_weights),
}
print("SUMMARY " + json.dumps(summary))
"""


INTRODUCTION = N_(
    "This notebook reproduces a scene of the linear-classification playground: {n} training points and {m} test "
    "points of the classes listed below, fitted by {method}. It needs numpy, scikit-learn and plotly, and runs "
    "from top to bottom."
)
INTRODUCTION_NO_TEST = N_(
    "This notebook reproduces a scene of the linear-classification playground: {n} training points of the classes "
    "listed below, fitted by {method}. It needs numpy, scikit-learn and plotly, and runs from top to bottom."
)
AT_A_STEP = N_(
    "In the playground this scene shows step {step} of the fit; this notebook runs the fit to its end, as the "
    "playground's Final fit does."
)


def scene_cells(
    scene: Scene, gettext: Callable[[str], str], link: str, class_name: Callable[[int], str]
) -> list[tuple[str, str]]:
    """[(kind, source)]: the notebook of ``scene`` with Markdown in the language of ``gettext``.

    ``class_name(label)``: the name of the app's class label 0..5 (the user's or the default).
    """
    _ = gettext
    method = scene.method
    settings = settings_of(scene)
    n_classes = len(set(scene.points.training.labels))
    strategy = strategy_of(scene, n_classes)
    method_name = _(MODELS[method].display_name)
    return (
        introduction_cells(scene, _, method_name, class_name)
        + data_cells(scene, _, class_name)
        + method_cells(scene, _, settings, strategy)
        + scikit_learn_cells(_, method, settings, strategy, n_classes)
        + closing_cells(_, method_name, link)
    )


def introduction_cells(
    scene: Scene, _: Callable[[str], str], method_name: str, class_name: Callable[[int], str]
) -> list[tuple[str, str]]:
    """The title, and what the notebook reproduces: the points, the classes, the method."""
    present = sorted(set(scene.points.labels))
    names = ", ".join(class_name(label) for label in present)
    points, test = scene.points, scene.points.n_test
    return [
        ("markdown", "# " + plain(_("{method}: a scene from the playground").format(method=method_name))),
        (
            "markdown",
            plain(
                _(INTRODUCTION if test else INTRODUCTION_NO_TEST).format(
                    n=len(points) - test, m=test, method=method_name
                )
            )
            + "\n\n"
            + plain(_("Classes: {names}.").format(names=names))
            + ("" if scene.step is None else "\n\n" + plain(_(AT_A_STEP).format(step=scene.step))),
        ),
    ]


def data_cells(scene: Scene, _: Callable[[str], str], class_name: Callable[[int], str]) -> list[tuple[str, str]]:
    """Section 1: the points as numpy arrays, and their figure."""
    return [
        ("markdown", "## 1. " + plain(_("The data"))),
        ("code", data_code(scene, class_name, _)),
        ("code", f"points_figure({_('The points')!r}).show()\n"),
    ]


def method_cells(
    scene: Scene, _: Callable[[str], str], settings: dict[str, Any], strategy: str
) -> list[tuple[str, str]]:
    """Section 2: the basis, the method in numpy, the multi-class strategy and the accuracies."""
    method = scene.method
    w_init = settings.get("w_init")
    w_init_book = "None" if w_init is None else literal(tuple(book_w_init(w_init)))
    cells = [
        ("markdown", "## 2. " + plain(_("The method in numpy"))),
        ("markdown", plain(_(card_of(method).numpy_text))),
        ("code", basis_code(scene)),
        ("code", numpy_code(method, settings)),
    ]
    if strategy != "native":
        cells.append(
            (
                "markdown",
                plain(
                    _("One-versus-rest: one model per class against the others (figure 4.2).")
                    if strategy == "ovr"
                    else _("One-versus-one: one model per pair of classes and a majority vote (figure 4.2).")
                ),
            )
        )
    return cells + [
        ("code", f"STRATEGY = {strategy!r}\n" + strategy_code(strategy, w_init_book)),
        ("code", RESULTS),
    ]


def scikit_learn_cells(
    _: Callable[[str], str], method: str, settings: dict[str, Any], strategy: str, n_classes: int
) -> list[tuple[str, str]]:
    """Section 3: scikit-learn's counterpart and the comparison, or why there is none."""
    cells = [("markdown", "## 3. " + plain(_("The same with scikit-learn")))]
    sklearn = None if strategy == "ovo" else sklearn_code(method, settings, n_classes)
    if sklearn is None:
        return cells + [("markdown", plain(_(no_counterpart(method, strategy)))), ("code", NO_SKLEARN)]
    code, same = sklearn
    if card_of(method).differences:
        cells.append(("markdown", plain(_(card_of(method).differences))))
    return cells + [("code", code + f"SAME_WEIGHTS = {same!r}\n"), ("code", sklearn_run_code(strategy))]


def closing_cells(_: Callable[[str], str], method_name: str, link: str) -> list[tuple[str, str]]:
    """Sections 4 and 5: the regions' figure, the summary line for programs, the link back."""
    return [
        ("markdown", "## 4. " + plain(_("The regions, the boundary and the misclassified points"))),
        ("code", f"FIGURE_TITLE = {method_name!r}\n" + FIGURE + "fig.show()\n"),
        ("markdown", plain(_("The same numbers on one line, for a program to read:"))),
        ("code", SUMMARY),
        ("markdown", "## 5. " + plain(_("Back to the playground"))),
        ("markdown", f"[{plain(_('Open this scene in the playground'))}](<{link}>)"),
    ]
