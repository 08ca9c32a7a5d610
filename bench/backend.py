"""Back-end benchmark: our estimators against scikit-learn doing the same job on the same data.

One case = one method, N points, K classes. Each implementation fits the points, then evaluates
posteriors (``predict_proba``, probabilistic methods) or decision values (the others) on a
200 x 200 grid over a window around the data. Each implementation runs in its own forked worker
with a deadline, so a case that takes too long is reported as such instead of hanging the run.
"""

import math
import multiprocessing
import statistics
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

GRID = 200
SIZES = (100, 1_000, 10_000)
CLASSES = (2, 3)
# Overlapping clusters (so logistic regression's maximum-likelihood weights exist and the
# perceptron runs all its epochs, like scikit-learn's with tol=None).
SPECS = (
    ((-1.0, 0.0), (1.0, 0.7), 30.0),
    ((1.0, 0.3), (0.9, 0.6), -20.0),
    ((0.0, 1.8), (1.0, 0.6), 0.0),
)
PERCEPTRON_EPOCHS = 100
# Targets: ours / scikit-learn at most this ratio (None: no target for that case).
CLOSED_FORM = ("least_squares", "fisher", "gaussian_shared", "gaussian_separate", "naive_bayes")


# Issue 17's target: fit plus the 200 x 200 predictive at N = 1,000 no slower than scikit-learn's
# LogisticRegression with the same grid.
CHAPTER_4_END = ("probit", "bayesian_logistic")


def target_for(method, n):
    if method in CLOSED_FORM or method in ("logistic", "softmax"):
        return 1.0
    if method in CHAPTER_4_END and n == 1_000:
        return 1.0
    if method == "svm" and n == 1_000:
        return 2.0
    return None


def repeats_for(n, quick):
    if quick:
        return 2 if n <= 1_000 else 1
    return {100: 21, 1_000: 11, 10_000: 5}[n]


def strategy_for(method, k):
    """Our multi-class strategy: two-class-only methods are wrapped for K > 2."""
    if k == 2:
        return "native"
    if method in ("logistic", "perceptron") + CHAPTER_4_END:
        return "ovr"
    if method == "svm":
        return "ovo"  # scikit-learn's SVC is natively one-versus-one
    return "native"


def make_data(n, k, seed=0):
    from playground import ClusterSpec, Window, make_clusters

    specs = [ClusterSpec(*SPECS[i]) for i in range(k)]
    counts = [n // k + (1 if i < n % k else 0) for i in range(k)]
    X, y = make_clusters(specs, counts, seed=seed)
    window = Window.around(X)
    xs = np.linspace(window.x_min, window.x_max, GRID)
    ys = np.linspace(window.y_min, window.y_max, GRID)
    gx, gy = np.meshgrid(xs, ys)
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    return X, y, window, grid


def sklearn_estimator(method, k, epochs=PERCEPTRON_EPOCHS):
    """The scikit-learn estimator that does the same job as our ``method``."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression, Perceptron
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.svm import SVC

    if method == "least_squares":
        return _OneHotLinearRegression()
    if method == "fisher":
        return LinearDiscriminantAnalysis(solver="eigen")
    if method == "perceptron":
        # Natively one-versus-rest, like ours with multiclass="ovr".
        return Perceptron(eta0=1.0, shuffle=False, penalty=None, tol=None, max_iter=epochs)
    if method == "gaussian_shared":
        return LinearDiscriminantAnalysis(solver="lsqr")
    if method == "gaussian_separate":
        return QuadraticDiscriminantAnalysis()
    if method == "naive_bayes":
        return GaussianNB()
    if method == "logistic":
        model = LogisticRegression(C=np.inf, max_iter=1_000)
        return model if k == 2 else OneVsRestClassifier(model)
    if method == "softmax":
        return LogisticRegression(C=np.inf, max_iter=1_000)  # multinomial for K > 2 (lbfgs)
    if method in CHAPTER_4_END:
        # Maximum likelihood for the probit; for the Bayesian model the MAP weights of its default
        # prior alpha = 1 are closest to C = 1 (which leaves the intercept unpenalised).
        model = LogisticRegression(C=np.inf if method == "probit" else 1.0, max_iter=1_000)
        return model if k == 2 else OneVsRestClassifier(model)
    if method == "svm":
        return SVC(kernel="linear", C=1.0)  # one-versus-one for K > 2
    raise KeyError(method)


class _OneHotLinearRegression:
    """Least squares on one-of-K targets (eq. 4.16), as scikit-learn's LinearRegression."""

    def fit(self, X, y):
        from sklearn.linear_model import LinearRegression

        self.classes_, index = np.unique(y, return_inverse=True)
        T = np.eye(self.classes_.size)[index]
        self.model_ = LinearRegression().fit(X, T)
        return self

    def decision_function(self, X):
        return self.model_.predict(X)


SKLEARN_NAMES = {
    "least_squares": "LinearRegression (one-hot targets)",
    "fisher": "LinearDiscriminantAnalysis(solver='eigen')",
    "perceptron": "Perceptron(eta0=1, shuffle=False, penalty=None, tol=None)",
    "gaussian_shared": "LinearDiscriminantAnalysis(solver='lsqr')",
    "gaussian_separate": "QuadraticDiscriminantAnalysis",
    "naive_bayes": "GaussianNB",
    "logistic": "LogisticRegression(C=inf) [OneVsRestClassifier for K=3]",
    "softmax": "LogisticRegression(C=inf) (multinomial)",
    "svm": "SVC(kernel='linear', C=1.0) (one-versus-one for K=3)",
    "probit": "LogisticRegression(C=inf) [OneVsRestClassifier for K=3]",
    "bayesian_logistic": "LogisticRegression(C=1) [OneVsRestClassifier for K=3] (ours adds S_N, the predictive)",
}


def _ours(method, k, epochs):
    from playground import MODELS, make_model

    params = {"max_epochs": epochs} if method == "perceptron" else {}
    model = make_model(method, multiclass=strategy_for(method, k), **params)
    probabilistic = bool(getattr(MODELS[method], "is_probabilistic", False))
    return model, probabilistic


def _one_run(side, method, k, X, y, grid, epochs):
    """Fit and grid evaluation once; return (fit seconds, total seconds, extra)."""
    model, probabilistic = _ours(method, k, epochs)
    if side != "ours":
        model = sklearn_estimator(method, k, epochs)
    started = time.perf_counter()
    model.fit(X, y)
    fitted = time.perf_counter()
    values = model.predict_proba(grid) if probabilistic else model.decision_function(grid)
    done = time.perf_counter()
    extra = {}
    if side == "ours" and method == "perceptron":
        inner = getattr(model, "estimators_", [model])
        extra["epochs"] = max(int(getattr(e, "n_epochs_", epochs)) for e in inner)
    if not np.all(np.isfinite(values)):
        extra["nonfinite"] = True
    return fitted - started, done - started, extra


def _worker(connection, side, method, n, k, repeats, epochs):
    from threadpoolctl import threadpool_limits

    warnings.simplefilter("ignore")
    # One BLAS thread on both sides: the products are tiny (D = 2), and a second thread on a
    # busy two-core machine made scikit-learn's lbfgs 30x slower in some runs.
    threadpool_limits(1)
    try:
        X, y, _, grid = make_data(n, k)
        warm = np.arange(0, n, max(1, n // 60))
        _one_run(side, method, k, X[warm], y[warm], grid[:100], epochs)  # warm caches
        for _ in range(repeats):
            connection.send(("run",) + _one_run(side, method, k, X, y, grid, epochs))
    except Exception as err:  # reported in the table, never raised
        connection.send(("error", f"{type(err).__name__}: {err}"))
    connection.send(("done",))
    connection.close()


@dataclass
class Timing:
    fit: list = field(default_factory=list)
    total: list = field(default_factory=list)
    extra: dict = field(default_factory=dict)
    error: str | None = None
    timed_out: float | None = None  # the deadline in seconds, when hit

    @property
    def median_total(self):
        return statistics.median(self.total) if self.total else None

    @property
    def median_fit(self):
        return statistics.median(self.fit) if self.fit else None


def measure(side, method, n, k, repeats, deadline, epochs=PERCEPTRON_EPOCHS):
    """Run ``repeats`` timings in a forked worker; stop it at ``deadline`` seconds."""
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(child, side, method, n, k, repeats, epochs), daemon=True)
    process.start()
    child.close()
    timing = Timing()
    stop = time.monotonic() + deadline
    try:
        while True:
            left = stop - time.monotonic()
            if left <= 0 or not parent.poll(left):
                timing.timed_out = deadline
                break
            message = parent.recv()
            if message[0] == "run":
                timing.fit.append(message[1])
                timing.total.append(message[2])
                timing.extra.update(message[3])
            elif message[0] == "error":
                timing.error = message[1]
            else:
                break
    except EOFError:
        timing.error = timing.error or "worker exited"
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        parent.close()
    if timing.timed_out and timing.total:
        timing.timed_out = None  # partial: report the repeats that finished
        timing.extra["partial"] = True
    return timing


@dataclass
class Case:
    method: str
    n: int
    k: int
    strategy: str
    ours: Timing
    sklearn: Timing

    @property
    def ratio(self):
        a, b = self.ours.median_total, self.sklearn.median_total
        return a / b if a is not None and b else None

    @property
    def target(self):
        return target_for(self.method, self.n)

    @property
    def verdict(self):
        if self.target is None:
            return ""
        if self.ratio is None:
            return "n/a"
        return "met" if self.ratio <= self.target else "MISSED"


def run(quick=False, deadline=None, log=print, methods=None, sizes=None, classes=None):
    """Every method x N x K (or the ``methods``, ``sizes`` and ``classes`` given); returns the list
    of ``Case``."""
    from playground import MODELS

    for method in MODELS:  # import everything before forking the workers
        sklearn_estimator(method, 3)
    sizes = sizes or SIZES
    deadline = deadline or (8.0 if quick else 25.0)
    cases = []
    for method in methods or MODELS:
        for k in classes or CLASSES:
            for n in sizes:
                repeats = repeats_for(n, quick)
                ours = measure("ours", method, n, k, repeats, deadline)
                epochs = ours.extra.get("epochs", PERCEPTRON_EPOCHS)
                theirs = measure("sklearn", method, n, k, repeats, deadline, epochs=epochs)
                case = Case(method, n, k, strategy_for(method, k), ours, theirs)
                cases.append(case)
                log(format_row(case))
    return cases


def growth_exponent(cases, method, k, side="ours"):
    """Slope of log(fit time) against log(N): time grows like N^slope."""
    points = [
        (math.log(c.n), math.log(getattr(c, side).median_fit))
        for c in cases
        if c.method == method and c.k == k and getattr(c, side).median_fit
    ]
    if len(points) < 2:
        return None
    xs, ys = np.array(points).T
    return float(np.polyfit(xs, ys, 1)[0])


def _ms(seconds):
    if seconds is None:
        return "—"
    ms = seconds * 1000
    return f"{ms:.2f}" if ms < 10 else f"{ms:.1f}" if ms < 100 else f"{ms:.0f}"


def _cell(timing):
    if timing.error:
        return "error"
    if timing.timed_out:
        return f"> {timing.timed_out:.0f} s"
    text = _ms(timing.median_total)
    return text + "*" if timing.extra.get("partial") else text


HEADER = (
    "method",
    "K",
    "strategy",
    "N",
    "ours fit ms",
    "ours total ms",
    "sklearn fit ms",
    "sklearn total ms",
    "ratio",
    "target",
    "",
)


def row(case):
    ratio = f"{case.ratio:.2f}" if case.ratio is not None else "—"
    target = f"≤ {case.target:.1f}" if case.target else ""
    return (
        case.method,
        str(case.k),
        case.strategy,
        f"{case.n:,}",
        _ms(case.ours.median_fit),
        _cell(case.ours),
        _ms(case.sklearn.median_fit),
        _cell(case.sklearn),
        ratio,
        target,
        case.verdict,
    )


WIDTHS = (18, 2, 8, 7, 11, 13, 14, 16, 6, 6, 6)


def _format(cells):
    return "  ".join(f"{c:<{w}}" if i in (0, 2) else f"{c:>{w}}" for i, (c, w) in enumerate(zip(cells, WIDTHS)))


def format_row(case):
    return _format(row(case))


def format_header():
    return _format(HEADER)
