"""Back-end benchmark: our estimators against scikit-learn doing the same job on the same data.

One case = one method, N points, K classes. Each implementation fits the points, then evaluates
posteriors (``predict_proba``, probabilistic methods) or decision values (the others) on a
200 x 200 grid over a window around the data.

The two sides of a case are timed alternately in one forked worker: ours, scikit-learn,
scikit-learn, ours, ours, ... (the order swaps every round, so neither side always runs first),
one fit + grid evaluation per turn, and each side's figure is the median of its runs. On a
shared machine the speed drifts over seconds; timing the sides one after the other, each in a
block of its own, let such a drift decide the ratio (bayesian_logistic's ratio once swung
from 0.83 to 1.58 between runs). Each side keeps its own deadline: the worker reports when a
turn starts, the parent charges the time to that side, and a side past its deadline is
stopped (the worker killed) and reported as such, while the other side finishes its repeats
alone in a fresh worker. Both sides use one BLAS thread.
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


# The end of chapter 4 (probit, the Bayesian model's predictive) at no cost a drag would feel: fit
# plus the 200 x 200 predictive at N = 1,000 no slower than scikit-learn's LogisticRegression with
# the same grid.
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
    if method == "lda_shrinkage":  # the card's default shrinkage
        return LinearDiscriminantAnalysis(solver="lsqr", shrinkage=0.1)
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
    "lda_shrinkage": "LinearDiscriminantAnalysis(solver='lsqr', shrinkage=0.1)",
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


def _worker(connection, sides, method, n, k, repeats, epochs):
    """Time ``sides`` ("ours", "sklearn" or both) on one case: a warm-up run of each on a small
    subset, then ``repeats`` rounds of one timed run per side, the order swapped every round.
    Sends ("start", side) before each timed run, then ("run", side, fit, total, extra) or
    ("error", side, text); ("epochs", n) for the perceptron; ("done",) at the end."""
    from threadpoolctl import threadpool_limits

    warnings.simplefilter("ignore")
    # One BLAS thread on both sides: the products are tiny (D = 2), and a second thread on a
    # busy two-core machine made scikit-learn's lbfgs 30x slower in some runs.
    threadpool_limits(1)
    live = list(sides)

    def attempt(side, *args):
        try:
            return _one_run(side, method, k, *args)
        except Exception as err:  # reported in the table, never raised
            connection.send(("error", side, f"{type(err).__name__}: {err}"))
            live.remove(side)
            return None

    try:
        X, y, _, grid = make_data(n, k)
    except Exception as err:
        for side in sides:
            connection.send(("error", side, f"{type(err).__name__}: {err}"))
        live.clear()
    else:
        warm = np.arange(0, n, max(1, n // 60))
        for side in list(live):
            attempt(side, X[warm], y[warm], grid[:100], epochs)  # warm caches
        if method == "perceptron" and "ours" in live and "sklearn" in live:
            # scikit-learn runs as many epochs as ours takes on these data (a turn of ours, untimed)
            connection.send(("start", "ours"))
            result = attempt("ours", X, y, grid, epochs)
            if result is not None:
                epochs = result[2].get("epochs", epochs)
            connection.send(("epochs", epochs))
        for round_ in range(repeats):
            for side in live[:: 1 if round_ % 2 == 0 else -1]:
                connection.send(("start", side))
                result = attempt(side, X, y, grid, epochs)
                if result is not None:
                    connection.send(("run", side) + result)
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


def _run_worker(sides, method, n, k, repeats, deadline, epochs, timings, charged):
    """One forked worker timing ``sides``; fills ``timings`` and ``charged`` (seconds charged to
    each side: its turns, and its share of the start-up and warm-up). Returns the sides still
    owing repeats when another side's deadline stopped the worker, and the perceptron's epochs."""
    context = multiprocessing.get_context("fork")
    parent, child = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(child, sides, method, n, k, repeats, epochs), daemon=True)
    process.start()
    child.close()
    turn = None  # the side whose run is under way; None during start-up and warm-up (shared)
    since = time.monotonic()
    stopped = None
    try:
        while True:
            owners = [turn] if turn else list(sides)
            left = min(deadline - charged[side] for side in owners) * len(owners)
            if left <= 0 or not parent.poll(left):
                stopped = owners
                break
            message = parent.recv()
            now = time.monotonic()
            for side in owners:
                charged[side] += (now - since) / len(owners)
            since = now
            if message[0] == "start":
                turn = message[1]
            elif message[0] == "run":
                timing = timings[message[1]]
                timing.fit.append(message[2])
                timing.total.append(message[3])
                timing.extra.update(message[4])
                turn = None
            elif message[0] == "error":
                timings[message[1]].error = message[2]
                turn = None
            elif message[0] == "epochs":
                epochs, turn = message[1], None
            else:
                break
    except EOFError:
        for side in sides:
            timings[side].error = timings[side].error or "worker exited"
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        parent.close()
    owing = []
    if stopped:
        for side in stopped:
            if len(timings[side].total) < repeats:
                timings[side].timed_out = deadline
        owing = [
            side
            for side in sides
            if side not in stopped and timings[side].error is None and len(timings[side].total) < repeats
        ]
    return owing, epochs


def measure_pair(method, n, k, repeats, deadline, epochs=PERCEPTRON_EPOCHS, sides=("ours", "sklearn")):
    """Time ``sides`` of one case alternately in a forked worker (see the module notes); each side
    stops at ``deadline`` seconds of its own. Returns {side: Timing}."""
    timings = {side: Timing() for side in sides}
    charged = dict.fromkeys(sides, 0.0)
    owing, epochs = _run_worker(sides, method, n, k, repeats, deadline, epochs, timings, charged)
    for side in owing:  # the other side hit its deadline: this one finishes alone
        left = repeats - len(timings[side].total)
        _run_worker((side,), method, n, k, left, deadline, epochs, timings, charged)
    for timing in timings.values():
        if timing.timed_out and timing.total:
            timing.timed_out = None  # partial: report the repeats that finished
            timing.extra["partial"] = True
    return timings


def measure(side, method, n, k, repeats, deadline, epochs=PERCEPTRON_EPOCHS):
    """One side of a case alone, in its own forked worker, stopped at ``deadline`` seconds."""
    return measure_pair(method, n, k, repeats, deadline, epochs, sides=(side,))[side]


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
                timings = measure_pair(method, n, k, repeats_for(n, quick), deadline)
                case = Case(method, n, k, strategy_for(method, k), timings["ours"], timings["sklearn"])
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
