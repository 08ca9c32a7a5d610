"""One-click scenes that reproduce figures of PRML chapter 4 and the lecture notes' worked example.

A ``Preset`` is a whole ``Scene`` (points, method and its parameters, strategy, basis, view)
plus the words the app shows beside it (English, marked with ``N_``: the app shows them in the
session's language). Every scene is deterministic (fixed seeds or fixed
coordinates) and its parameters are the values the sidebar widgets return, so loading a preset
and reading the widgets back gives the same scene.

>>> from playground.presets import PRESETS
>>> scene = PRESETS["fig4_6"].scene
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .datasets import ClusterSpec, make_clusters
from .grid import Window
from .i18n import N_
from .scene import PointSet, Scene

# Titles of the app's panels (tabs) a preset opens; tests/test_presets.py checks them against ui.panels.
MULTICLASS_TAB = "Multi-class strategy (fig. 4.2)"
LEAST_SQUARES_TAB = "Least-squares outputs (fig. 4.4, 4.5)"
FISHER_TAB = "Fisher projection (fig. 4.6)"
PERCEPTRON_TAB = "Perceptron playback (fig. 4.7)"
GAUSSIANS_TAB = "Class Gaussians"
FEATURE_SPACE_TAB = "Feature space φ (fig. 4.12)"
PROBIT_TAB = "Sigmoid and probit (fig. 4.9)"
PREDICTIVE_TAB = "Predictive vs MAP (sec. 4.5.2)"
METRICS_TAB = "Metrics"
# ui/panels/posterior.py: st.session_state.panel_options[POSTERIOR_DISPLAY] picks what the canvas shows.
POSTERIOR_DISPLAY = "posterior_display"

# Each method's parameters as its sidebar widgets return them by default.
LEAST_SQUARES = {"targets": "one_of_k"}
FISHER = {"threshold": "midpoint"}
PERCEPTRON = {"eta": 1.0, "max_epochs": 100, "shuffle": False, "random_state": 0, "w_init": None}
GAUSSIAN = {"priors": None}
LOGISTIC = {"solver": "irls", "max_iter": 100, "l2": 0.0, "w_init": None}
PROBIT = {"solver": "irls", "max_iter": 100, "l2": 0.0}

# Figure 4.6's kind of data: two elongated classes whose means line is far from Fisher's direction.
ELONGATED_CLUSTERS = (
    ClusterSpec((-1.0, 0.6), (2.0, 0.35), 30.0),
    ClusterSpec((1.0, -0.6), (2.0, 0.35), 30.0),
)
# Two close but separable classes: from w = 0 the perceptron needs 18 updates over 7 epochs,
# and its error count goes up as well as down on the way.
CLOSE_CLUSTERS = (
    ClusterSpec((-0.8, 0.5), (1.2, 0.3), 25.0),
    ClusterSpec((0.8, -0.5), (1.2, 0.3), 25.0),
)
# Figure 4.2: two bars below, one above; the three pairwise lines do not meet in one point, so
# one-versus-one leaves a visible ambiguous triangle as well.
BARS_CLUSTERS = (
    ClusterSpec((-2.5, -1.5), (1.2, 0.3), 15.0),
    ClusterSpec((2.5, -1.5), (1.2, 0.3), 15.0),
    ClusterSpec((0.0, 2.5), (1.2, 0.3), 90.0),
)
# Figure 4.4: two separable classes, then far-away class-2 points on the correct side.
OUTLIER_CLUSTERS = (
    ClusterSpec((-1.2, 1.2), (1.2, 0.5), 0.0),
    ClusterSpec((1.2, -1.2), (1.2, 0.5), 0.0),
)
OUTLIER_CENTRE = (6.0, -9.0)
# Figure 4.9: two overlapping classes, so maximum likelihood has a finite answer for probit and logistic.
OVERLAPPING_CLUSTERS = (
    ClusterSpec((-1.0, 0.5), (1.2, 0.8), 20.0),
    ClusterSpec((1.0, -0.5), (1.2, 0.8), 20.0),
)
# Figures 4.10-4.11: classes 1 and 2 share a covariance, class 3 has its own.
GAUSSIAN_CLUSTERS = (
    ClusterSpec((-2.0, -1.2), (1.0, 0.45), 30.0),
    ClusterSpec((2.0, -0.2), (1.0, 0.45), 30.0),
    ClusterSpec((0.0, 2.6), (1.6, 0.35), -10.0),
)
# Figure 4.12: two Gaussian basis functions, placed by hand, and their common width s.
RBF_CENTRES = ((-1.0, 0.0), (1.0, 0.0))
RBF_WIDTH = 1.0
# Over-fitting: two overlapping classes, few training points, many test points drawn from the same
# Gaussians. With seed 3, least squares on x gets 88 % of the training and 90 % of the test points
# right; on a degree-6 polynomial basis (27 features for 16 points) it gets every training point
# right and 57 % of the test points (tests/test_heldout_app.py checks these numbers).
OVERFIT_CLUSTERS = (
    ClusterSpec((-0.9, 0.4), (1.0, 0.7), 20.0),
    ClusterSpec((0.9, -0.4), (1.0, 0.7), 20.0),
)
OVERFIT_DEGREE = 6
# Seed 003 (lecture notes on PRML 4): C1 = (1,2), (2,3), (3,4.9); C2 = (2,1), (3,2), (4,3.9).
SEED003_XY = ((1.0, 2.0), (2.0, 3.0), (3.0, 4.9), (2.0, 1.0), (3.0, 2.0), (4.0, 3.9))
SEED003_LABELS = (0, 0, 0, 1, 1, 1)  # shown as "class 1" and "class 2"
# Section 4.5.2: ten points, two small separable groups, seen in a view much wider than the data.
FEW_POINTS_XY = (
    (-1.0, 0.3),
    (-1.3, -0.4),
    (-0.7, -0.1),
    (-1.6, 0.2),
    (-1.1, -0.8),
    (1.0, -0.2),
    (1.4, 0.5),
    (0.8, 0.1),
    (1.2, -0.6),
    (1.6, 0.0),
)
FEW_POINTS_LABELS = (0, 0, 0, 0, 0, 1, 1, 1, 1, 1)
FEW_POINTS_WINDOW = Window(-5.0, 5.0, -4.0, 4.0)


@dataclass(frozen=True)
class Preset:
    """A scene that reproduces one figure, and what to say about it.

    Parameters
    ----------
    key : str
        Identifier, the key in ``PRESETS``.
    figure : str
        The figure number(s) in PRML, e.g. "4.6"; empty for an example that is not a figure.
    title : str
        A few words: what the figure compares.
    explanation : str
        One short paragraph: what to look at, what it shows, one thing to try.
    scene : Scene
        Points, method and parameters, strategy, basis, view window.
    compare : tuple of str
        Methods to show side by side (registry names), or empty.
    tab : str or None
        Title of the panel to open below the canvas.
    panel_options : dict or None
        Panel settings (``st.session_state.panel_options``) the figure needs.
    about_notes : str
        A small print line on the source's own slips, kept out of the explanation; may be empty.
    keep_window : bool
        Show the scene's own window instead of framing the points (the view must reach far
        beyond the data).
    try_methods : tuple of str
        Other methods the explanation's "Try:" switches to (registry names): the explanation
        still describes the plot while one of them is shown.
    question : str
        The question a class room's prediction round asks on this figure (``ui.rooms.rounds``),
        or empty: the round asks for the boundary in general words.
    """

    key: str
    figure: str
    title: str
    explanation: str
    scene: Scene
    compare: tuple[str, ...] = ()
    tab: str | None = None
    # Any values: each panel setting has its own type (checked by playground.specs.PANEL_SPECS).
    panel_options: dict[str, Any] | None = field(default=None, hash=False)
    about_notes: str = ""
    keep_window: bool = False
    try_methods: tuple = ()
    question: str = ""

    @property
    def label(self) -> str:
        """Button text, e.g. "Fig. 4.6 — Fisher vs mean difference"."""
        return f"Fig. {self.figure} — {self.title}" if self.figure else self.title

    @property
    def heading(self) -> str:
        """Title of the explanation box, e.g. "Figure 4.6 — Fisher vs mean difference"."""
        return f"Figure {self.figure} — {self.title}" if self.figure else self.title

    @property
    def source(self) -> str:
        """What was loaded, for the app's messages: "figure 4.6" or the title."""
        return f"figure {self.figure}" if self.figure else self.title.lower()


# ---- Point sets ---------------------------------------------------------------------------------


def elongated_points(n_per_class: int = 50, seed: int = 4) -> PointSet:
    """Two elongated classes (figure 4.6): the means line projects them overlapping, Fisher's does not."""
    X, y = make_clusters(ELONGATED_CLUSTERS, n_per_class, shared_covariance=True, seed=seed)
    return PointSet.from_arrays(X, y)


def close_points(n_per_class: int = 20, seed: int = 20) -> PointSet:
    """Two close, separable classes (figure 4.7) that take the perceptron several epochs."""
    X, y = make_clusters(CLOSE_CLUSTERS, n_per_class, shared_covariance=True, seed=seed)
    return PointSet.from_arrays(X, y)


def bars_points(n_per_class: int = 25, seed: int = 1) -> PointSet:
    """Three bar-shaped classes (figure 4.2) whose two-class classifiers leave ambiguous regions."""
    return PointSet.from_arrays(*make_clusters(BARS_CLUSTERS, n_per_class, seed=seed))


def outlier_points(n_per_class: int = 20, n_far: int = 12, seed: int = 4) -> PointSet:
    """Two separable classes plus ``n_far`` class-2 points far away on their own side (figure 4.4)."""
    X, y = make_clusters(OUTLIER_CLUSTERS, n_per_class, seed=seed)
    far = np.asarray(OUTLIER_CENTRE) + 0.5 * np.random.default_rng(seed + 1).standard_normal((n_far, 2))
    return PointSet.from_arrays(np.vstack([X, far]), np.concatenate([y, np.ones(n_far, dtype=int)]))


def aligned_points(n_outer: int = 30, n_middle_half: int = 14, spread: float = 0.7, seed: int = 3) -> PointSet:
    """Three classes along the diagonal (figure 4.5), symmetric under x -> -x.

    Class 3 is the mirror image of class 1 through the origin and class 2 is its own mirror
    image, so the least-squares output of the middle class is exactly flat, at N_2 / N. With
    the middle class a little smaller (N_2 / N < 1/3) it is below the larger of the other two
    outputs everywhere: the middle class is masked in the whole plane, not just near its points.
    """
    rng = np.random.default_rng(seed)
    outer = np.array([-3.0, -3.0]) + spread * rng.standard_normal((n_outer, 2))
    half = spread * rng.standard_normal((n_middle_half, 2))
    X = np.vstack([outer, half, -half, -outer])
    y = np.repeat([0, 1, 2], [n_outer, 2 * n_middle_half, n_outer])
    return PointSet.from_arrays(X, y)


def gaussian_points(n_per_class: int = 40, seed: int = 7) -> PointSet:
    """Three classes (figures 4.10-4.11): 1 and 2 drawn with one covariance, 3 with another."""
    return PointSet.from_arrays(*make_clusters(GAUSSIAN_CLUSTERS, n_per_class, seed=seed))


def ring_points(n_inner: int = 30, n_outer: int = 40, seed: int = 2) -> PointSet:
    """Class 1 in the middle, class 2 on an ellipse around it: no straight line separates them (figure 4.12)."""
    inner, _ = make_clusters([ClusterSpec((0.0, 0.0), (1.0, 0.45))], n_inner, seed=seed)
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0.0, 2 * np.pi, n_outer)
    radius = rng.normal(2.6, 0.35, n_outer)
    outer = np.column_stack([radius * np.cos(angle), 0.8 * radius * np.sin(angle)])
    y = np.repeat([0, 1], [n_inner, n_outer])
    return PointSet.from_arrays(np.vstack([inner, outer]), y)


def overfit_points(n_train: int = 8, n_test: int = 20, seed: int = 3) -> PointSet:
    """``n_train`` training and ``n_test`` test points per class from the same two overlapping Gaussians."""
    X, y = make_clusters(OVERFIT_CLUSTERS, n_train, seed=seed)
    X_test, y_test = make_clusters(OVERFIT_CLUSTERS, n_test, seed=seed + 1000)
    flags = np.repeat([False, True], [len(y), len(y_test)])
    return PointSet.from_arrays(np.vstack([X, X_test]), np.concatenate([y, y_test]), flags)


def seed003_points() -> PointSet:
    """The six points of the worked example the tests check Fisher's direction, the shared
    covariance, a perceptron run and an IRLS table against."""
    return PointSet.from_arrays(SEED003_XY, SEED003_LABELS)


# ---- The presets --------------------------------------------------------------------------------


def overlapping_points(n_per_class: int = 25, seed: int = 2) -> PointSet:
    X, y = make_clusters(OVERLAPPING_CLUSTERS, n_per_class, seed=seed)
    return PointSet.from_arrays(X, y)


def few_points() -> PointSet:
    """The ten points of the section 4.5.2 preset."""
    return PointSet.from_arrays(np.array(FEW_POINTS_XY), np.array(FEW_POINTS_LABELS))


def _scene(
    points: PointSet,
    method: str,
    params: Mapping[str, Any],
    *,
    multiclass: str = "native",
    basis: str = "identity",
    basis_params: Mapping[str, Any] | None = None,
    seed: int = 0,
    window: Window | None = None,
) -> Scene:
    return Scene(
        points=points,
        method=method,
        params=tuple(sorted(params.items())),
        multiclass=multiclass,
        basis=basis,
        basis_params=tuple(sorted((basis_params or {}).items())),
        window=Window.around(points.X) if window is None else window,
        seed=seed,
    )


def _presets() -> dict[str, Preset]:
    """The presets, in the order the menu lists them. A data table (one ``Preset`` literal per
    figure or worked example), not an algorithm, so it is left long: splitting it would only
    scatter the rows."""
    presets = [
        Preset(
            key="fig4_2",
            figure="4.2",
            title=N_("one-versus-rest and one-versus-one ambiguity"),
            explanation=N_(
                "Least squares is trained here as three separate 'this class or not?' classifiers "
                "(one-versus-rest), one dashed line each. In the hatched areas the rule breaks down: no "
                "classifier says yes, or two of them do, so the point gets no clear class (figure 4.2, left). "
                "Try: switch *With more than two classes* in the sidebar (in presentation, "
                "on the bar above the plot) to one-versus-one: three pairwise "
                "classifiers vote, and an ambiguous triangle remains where the vote ties. Then pick the "
                "K-class discriminant: every point goes to the largest yₖ(x) and the ambiguity is gone."
            ),
            scene=_scene(bars_points(), "least_squares", LEAST_SQUARES, multiclass="ovr", seed=1),
            tab=MULTICLASS_TAB,
        ),
        Preset(
            key="fig4_4",
            figure="4.4",
            title=N_("least squares vs logistic regression with outliers"),
            explanation=N_(
                "Two separated classes, plus {n_far} class-2 points far away in the lower right, on the correct "
                "side. Least squares punishes points for being 'too correct', so these far points drag its "
                "boundary into the two clusters and {wrong} points near it end up on the wrong side (ringed). "
                "Logistic regression, beside it, hardly notices them and still classifies every point "
                "correctly. Try: box-select the far-away points to delete them and watch the least-squares "
                "line swing back."
            ),
            scene=_scene(outlier_points(), "least_squares", LEAST_SQUARES, seed=4),
            compare=("least_squares", "logistic"),
            question=N_("Where will least squares put the boundary, now that these far-away class-2 points are in?"),
        ),
        Preset(
            key="fig4_5",
            figure="4.5",
            title=N_("least squares masks the middle class"),
            explanation=N_(
                "Three classes lie along a line. Least squares fits each class's output yₖ(x) with a plane, "
                "and the middle class's plane comes out flat, never the largest: class 2 gets no region at "
                "all and its points are swallowed by their neighbours (figure 4.5, left). Softmax regression, "
                "beside it, gives the middle class its own band (figure 4.5, right). Try: switch *View* above to "
                "*One method* and open the *Least-squares outputs* tab: y₂(x) is a level plane at about {level}."
            ),
            scene=_scene(aligned_points(), "least_squares", LEAST_SQUARES, seed=3),
            compare=("least_squares", "softmax"),
            tab=LEAST_SQUARES_TAB,
            question=N_(
                "Three classes in a row: where will least squares put a boundary, and will the middle class get "
                "a region of its own?"
            ),
        ),
        Preset(
            key="fig4_6",
            figure="4.6",
            title=N_("Fisher vs mean difference"),
            explanation=N_(
                "Two long, tilted clouds. Projected onto the line joining the class means (left histogram "
                "below) they overlap; projected onto Fisher's direction, which also keeps each class narrow, "
                "they separate (right histogram). The two directions differ by about {angle}°, and Fisher's "
                "criterion J is about {ratio} times larger along Fisher's. Try: move the angle slider and watch "
                "J and the overlap change: J peaks exactly at Fisher's direction."
            ),
            scene=_scene(elongated_points(), "fisher", FISHER, seed=4),
            tab=FISHER_TAB,
            question=N_("Two long, tilted clouds: which boundary will Fisher's discriminant draw between them?"),
        ),
        Preset(
            key="fig4_7",
            figure="4.7",
            title=N_("perceptron convergence"),
            explanation=N_(
                "Two close but separable classes and the perceptron, starting from w = 0. Press ▶ Play in the playback "
                "tab: each step circles the misclassified point it uses and turns the boundary by adding that point's "
                "φ = (1, x) to w if it is in class 1 (t = +1) or subtracting it if it is in class 2 (t = −1). The "
                "error count goes up as well as down, yet after {updates} updates in {epochs} epochs every point is "
                "correct, as the convergence theorem promises for separable data. Try: add a class-1 point deep inside "
                "class 2 and watch it never settle."
            ),
            scene=_scene(close_points(), "perceptron", PERCEPTRON, seed=20),
            tab=PERCEPTRON_TAB,
            question=N_("Where will the perceptron's boundary be once every point is on its class's side?"),
        ),
        Preset(
            key="fig4_9",
            figure="4.9",
            title=N_("logistic sigmoid and probit"),
            explanation=N_(
                "Probit regression (section 4.3.5) fits p(C₁|φ) = Φ(wᵀφ), the standard normal's distribution function, "
                "where logistic regression has σ(wᵀφ). The tab below draws the two curves of figure 4.9: σ(a) and "
                "Φ(λa) with λ² = π/8 differ by less than {gap} anywhere, yet Φ's tails are much thinner. Try: switch "
                "the method to *Logistic regression* and compare the boundaries: nearly the same line, with w about "
                "{ratio} times larger (1/λ ≈ {inverse_lambda} if the two curves were the same); then add a class-1 "
                "point deep inside class 2 and watch the probit boundary move more."
            ),
            scene=_scene(overlapping_points(), "probit", PROBIT, seed=2),
            tab=PROBIT_TAB,
            try_methods=("logistic",),
        ),
        Preset(
            key="fig4_10_11",
            figure="4.10–4.11",
            title=N_("shared and separate covariances"),
            explanation=N_(
                "Each class is modelled as a Gaussian with its own covariance. Classes 1 and 2 were drawn with "
                "the same covariance, so the boundary between them is nearly straight; class 3 is shaped "
                "differently, so its boundaries curve (figure 4.11). The colours mix the class colours in "
                "proportion to the posteriors p(Cₖ|x): pure where one class is certain, blended near the "
                "boundaries. Try: in the *Class Gaussians* tab press *Share one covariance* and every "
                "boundary becomes straight."
            ),
            scene=_scene(gaussian_points(), "gaussian_separate", GAUSSIAN, seed=7),
            tab=GAUSSIANS_TAB,
            try_methods=("gaussian_shared",),
            panel_options={POSTERIOR_DISPLAY: "posterior"},
        ),
        Preset(
            key="fig4_12",
            figure="4.12",
            title=N_("basis functions"),
            explanation=N_(
                "Class 1 sits in the middle and class 2 surrounds it, so no straight line in x separates them. "
                "Two Gaussian basis functions, centred at the two ✚ marks, describe each point by how close it "
                "is to each centre, (φ₁, φ₂); in that feature space a straight line splits the classes, and "
                "seen back in x it is the curved boundary on the plot. The *Feature space φ* tab shows both "
                "pictures side by side. Try: set *Basis functions* in the sidebar (in presentation, "
                "on the bar above the plot) to none and watch logistic "
                "regression fail with a straight line."
            ),
            scene=_scene(
                ring_points(),
                "logistic",
                LOGISTIC,
                basis="rbf",
                basis_params={
                    "placement": "given",
                    "centres": RBF_CENTRES,
                    "width": RBF_WIDTH,
                    "include_input": False,
                },
                seed=2,
            ),
            tab=FEATURE_SPACE_TAB,
        ),
        Preset(
            key="bayes_predictive",
            figure="",
            title=N_("MAP over-confident, predictive not (sec. 4.5.2)"),
            explanation=N_(
                "Ten points in two small groups, and Bayesian logistic regression with a weak prior (α = {alpha}). The "
                "dashed grey contours, the MAP sigmoid σ(w_MAPᵀφ) at p(C₁|x) = 0.1, 0.5 and 0.9, are parallel lines: "
                "as sure at the edge of the view as beside the data. The solid purple ones, the predictive "
                "distribution (eq. 4.155), share the 0.5 line but fan out away from the points, where the posterior "
                "over w (thin purple lines: boundaries drawn from it) is wide; in the top right corner the MAP says "
                "p(C₁|x) ≈ {p_map}, the predictive about {p_predictive}. Try: raise α to 10 and watch the samples "
                "bunch and the contours close in, or add points far out and watch the fan narrow."
            ),
            scene=_scene(few_points(), "bayesian_logistic", {"alpha": 0.1}, window=FEW_POINTS_WINDOW),
            tab=PREDICTIVE_TAB,
            panel_options={"bayes_contours": "both", "bayes_samples": 12, "bayes_seed": 0},
            keep_window=True,
        ),
        Preset(
            key="overfit",
            figure="",
            title=N_("Over-fitting: perfect on training, poor on test"),
            explanation=N_(
                "{n_train} training points (filled) of two overlapping classes, and {n_test} test points (hollow) "
                "drawn from the same two Gaussians, which no fit uses. Least squares on a degree-{degree} polynomial "
                "basis has {features} features for {n_train} points: it threads its boundary around every training "
                "point (training accuracy {train_accuracy}) and gets only {test_accuracy} of the test points right, "
                "little better than a coin. The *Metrics* tab below shows both confusion matrices. Try: set *Basis "
                "functions* in the sidebar (in presentation, "
                "on the bar above the plot) to none: the straight line gets {line_wrong} training points wrong but "
                "{line_test_accuracy} of the test points right. A model judged on the points it learned from always "
                "looks better than it is."
            ),
            scene=_scene(
                overfit_points(),
                "least_squares",
                LEAST_SQUARES,
                basis="polynomial",
                basis_params={"degree": OVERFIT_DEGREE},
                seed=3,
            ),
            tab=METRICS_TAB,
        ),
        Preset(
            key="seed003",
            figure="",
            title=N_("Six-point worked example (lecture notes)"),
            explanation=N_(
                "The six points of the lecture notes' worked example: class 1 (the book's C₁) at {class1_points} and "
                "class 2 at {class2_points}. Fisher's discriminant, shown: m₁ = {m1}, m₂ = {m2}, S_W = {sw} and the "
                "unit direction ŵ = {w_hat}, which points into class 1 and separates the classes. With *Gaussian "
                "classes, shared covariance*, Σ = {sigma} and (w₀, w₁, w₂) = {gaussian_w}. Try the *Perceptron* with "
                "initial weights 5, −6, 1 and η = 1: {n_updates} updates, at {first_point} and {second_point}, give "
                "{first_update} and then {last_update}, so ŵ = {perceptron_w_hat}; and *Logistic regression* from "
                "initial weights 1, −1, 1, which reaches {irls_w} with ln p = {irls_log_p} after five IRLS updates "
                "(Iterations tab, step 5) and, as the points are separable and no finite optimum exists, stops with a "
                "message saying why."
            ),
            about_notes=N_(
                "About the notes: they print Σ₂₂ = 1.467 where these points give 1.447, and ŵ₂ = 0.585 where "
                "(5, −6, 3)/‖(5, −6, 3)‖ gives 0.359; their IRLS line 'after 6 iterations' is the fifth update "
                "from w = (1, −1, 1)."
            ),
            scene=_scene(seed003_points(), "fisher", FISHER),
            tab=FISHER_TAB,
            try_methods=("gaussian_shared", "perceptron", "logistic"),
        ),
    ]
    return {preset.key: preset for preset in presets}


#: Key -> Preset, in the order of the book's figures (dicts keep insertion order).
PRESETS = _presets()
