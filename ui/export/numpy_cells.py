"""The method written out in plain numpy, as the book writes it: one code cell per method.

Rules that hold for every template here:

- The code is what a student reads: short, one equation per line where it can be, each citing the
  book's equation number; it never imports ``playground``.
- Every template defines the same four names, so the cells around it (``ui.export.cells``) work for
  every method: ``fit(Phi, k, w_init=None)`` fits class indices ``k`` (0 is C1, the first class
  present) on features ``Phi``; ``discriminants(model, Phi)`` gives (N, K) values whose largest is
  the class (a two-class method returns [y(x), 0], so y(x) >= 0 means C1, as in eq. 4.4-4.6);
  ``weights(model)`` gives the weights in the book's sign (bias first) or None;
  ``posteriors(model, Phi)`` gives p(C_k|x) or is None.
- Settings enter as ``repr`` literals of numbers, booleans, tuples or None only (``literal``):
  never a visitor's text.
"""

import re
from string import Template

from playground.i18n import N_

DESIGN = '''\
def design(Phi):
    """Phi~ = (1, phi(x)): the dummy input phi_0 = 1 carries the bias w_0."""
    return np.hstack([np.ones((len(Phi), 1)), Phi])
'''

TWO_CLASS_VALUE = '''\
def as_two_columns(y):
    """[y(x), 0]: the largest column is C1 where y(x) >= 0 (eq. 4.4-4.6)."""
    return np.column_stack([y, np.zeros_like(y)])
'''

SOFTMAX = '''\
def softmax(A):
    """p(C_k|x) = exp(a_k) / sum_j exp(a_j) (eq. 4.62), the largest a_k subtracted first."""
    E = np.exp(A - A.max(axis=1, keepdims=True))
    return E / E.sum(axis=1, keepdims=True)
'''

SIGMOID = '''\
def sigmoid(a):
    """sigma(a) = 1 / (1 + exp(-a)) (eq. 4.59), written with tanh so that it never overflows."""
    return 0.5 * (1.0 + np.tanh(0.5 * a))
'''

LEAST_SQUARES = Template(
    DESIGN
    + """
def fit(Phi, k, w_init=None):
    T = np.eye(k.max() + 1)[k]  # 1-of-K targets (section 4.1.3)
    W = np.linalg.lstsq(design(Phi), T, rcond=None)[0]  # W~ = pinv(X~) T (eq. 4.16)
    return {"W": W.T}  # row k: [w_k0, w_k1, ...]


def discriminants(model, Phi):
    return design(Phi) @ model["W"].T  # y_k(x) = w_k^T x + w_k0 (eq. 4.13); the largest wins (eq. 4.9)


def weights(model):
    return model["W"]


posteriors = None  # least squares' outputs are not probabilities (they leave [0, 1])
"""
)

LEAST_SQUARES_FISHER_TARGETS = Template(
    DESIGN
    + TWO_CLASS_VALUE
    + """

def fit(Phi, k, w_init=None):
    N, N1 = len(k), np.sum(k == 0)
    t = np.where(k == 0, N / N1, -N / (N - N1))  # t = N/N1 for C1, -N/N2 for C2 (section 4.1.5)
    w = np.linalg.lstsq(design(Phi), t, rcond=None)[0]  # least squares (eq. 4.16): w is parallel to Fisher's
    return {"w": w}


def discriminants(model, Phi):
    return as_two_columns(design(Phi) @ model["w"])


def weights(model):
    return model["w"]


posteriors = None
"""
)

FISHER = Template(
    DESIGN
    + '''
THRESHOLD = $threshold  # "midpoint" or "gaussian"


def gaussian_tie(m, v, pi):
    """Where pi_1 N(y|m_1, v_1) = pi_2 N(y|m_2, v_2) between the projected means, or None."""
    a = 0.5 / v[1] - 0.5 / v[0]
    b = m[0] / v[0] - m[1] / v[1]
    c = 0.5 * m[1] ** 2 / v[1] - 0.5 * m[0] ** 2 / v[0] + np.log(pi[0] / pi[1]) + 0.5 * np.log(v[1] / v[0])
    roots = [-c / b] if a == 0 else np.roots([a, b, c])
    inside = [r.real for r in np.atleast_1d(roots) if abs(np.imag(r)) == 0 and min(m) <= r.real <= max(m)]
    return min(inside, key=lambda r: abs(r - (m[0] + m[1]) / 2)) if inside else None


def fit(Phi, k, w_init=None):
    K, N = k.max() + 1, len(k)
    m = np.array([Phi[k == c].mean(axis=0) for c in range(K)])  # class means (eq. 4.21)
    S_W = (Phi - m[k]).T @ (Phi - m[k])  # within-class scatter (eq. 4.28, 4.40)
    pi = np.bincount(k) / N
    if K == 2:
        w = np.linalg.solve(S_W, m[0] - m[1])  # w ∝ S_W^-1 (m1 - m2) (eq. 4.30), pointing into C1
        w /= np.linalg.norm(w)
        y0 = w @ (m[0] + m[1]) / 2  # the midpoint of the projected means
        if THRESHOLD == "gaussian":  # 1-D Gaussians of the projections, priors N_k / N
            y = Phi @ w
            means = [y[k == c].mean() for c in (0, 1)]
            variances = [y[k == c].var() for c in (0, 1)]
            tie = gaussian_tie(means, variances, pi)
            y0 = y0 if tie is None else tie
        return {"w": np.concatenate([[-y0], w])}  # y(x) = w^T x - y0 >= 0: C1
    # K classes (section 4.1.6): the leading eigenvectors of S_W^-1 S_B (eq. 4.51)
    mean = pi @ m
    S_B = ((m - mean).T * np.bincount(k)) @ (m - mean)  # eq. 4.43
    L = np.linalg.cholesky(S_W)
    values, V = np.linalg.eigh(np.linalg.solve(L, np.linalg.solve(L, S_B).T))
    W = np.linalg.solve(L.T, V[:, np.argsort(values)[::-1][: min(K - 1, Phi.shape[1])]])
    W /= np.linalg.norm(W, axis=0)  # unit directions, one per column
    variances = np.einsum("dj,de,ej->j", W, S_W, W) / N  # pooled variance along each direction
    mu = m @ W  # projected class means
    # nearest projected mean in units of those variances: linear in x once the common term is dropped
    coef = (mu / variances) @ W.T
    w0 = -0.5 * np.sum(mu**2 / variances, axis=1) + (np.log(pi) if THRESHOLD == "gaussian" else 0.0)
    return {"W": np.column_stack([w0, coef])}


def discriminants(model, Phi):
    if "w" in model:
        y = design(Phi) @ model["w"]
        return np.column_stack([y, np.zeros_like(y)])
    return design(Phi) @ model["W"].T


def weights(model):
    return model.get("w", model.get("W"))


posteriors = None
'''
)

PERCEPTRON = Template(
    DESIGN
    + TWO_CLASS_VALUE
    + """
ETA, MAX_EPOCHS, SHUFFLE, SEED = $eta, $max_epochs, $shuffle, $seed


def fit(Phi, k, w_init=None):
    P = design(Phi)  # phi_n = (1, x_n) (eq. 4.52)
    t = np.where(k == 0, 1.0, -1.0)  # t = +1 for C1, -1 for C2 (eq. 4.53)
    w = np.zeros(P.shape[1]) if w_init is None else np.array(w_init, dtype=float)
    rng = np.random.default_rng(SEED)
    for epoch in range(MAX_EPOCHS):
        mistakes = 0
        for n in rng.permutation(len(t)) if SHUFFLE else range(len(t)):
            if t[n] * (P[n] @ w) <= 0:  # misclassified (eq. 4.54)
                w = w + ETA * P[n] * t[n]  # w <- w + eta phi_n t_n (eq. 4.55)
                mistakes += 1
        if mistakes == 0:  # an epoch without a mistake: the classes are separated
            break
    return {"w": w}


def discriminants(model, Phi):
    return as_two_columns(design(Phi) @ model["w"])  # y(x) = f(w^T phi(x)) (eq. 4.52)


def weights(model):
    return model["w"]


posteriors = None
"""
)

_ITERATION = '''\
SOLVER, MAX_ITER, LEARNING_RATE, L2, TOL = $solver, $max_iter, $learning_rate, $l2, 1e-08


def minimise(w, error, gradient, hessian, n_points):
    """Newton-Raphson (IRLS, eq. 4.92) or batch gradient descent on the mean gradient, until an
    update moves no weight by more than TOL * (1 + max |w|) or the error by TOL * (1 + |error|)."""
    E = error(w)
    for iteration in range(MAX_ITER):
        if SOLVER == "irls":
            g, H = gradient(w), hessian(w)
            step = np.linalg.lstsq(H, g.ravel(), rcond=None)[0].reshape(w.shape)
            while error(w - step) > E + 1e-12 * (1 + abs(E)):
                step = step / 2  # far from the optimum a full Newton step can overshoot
        else:
            step = LEARNING_RATE * gradient(w) / n_points
        w_new = w - step
        E_new = error(w_new)
        small = np.max(np.abs(w_new - w)) <= TOL * (1 + np.max(np.abs(w))) or abs(E_new - E) <= TOL * (1 + abs(E))
        w, E = w_new, E_new
        if small:
            break
    return w
'''

LOGISTIC = Template(
    DESIGN
    + SIGMOID
    + TWO_CLASS_VALUE
    + _ITERATION
    + """

def fit(Phi, k, w_init=None):
    P = design(Phi)
    t = (k == 0).astype(float)  # t = 1 for C1, 0 for C2 (eq. 4.89)
    penalty = np.r_[0.0, np.full(P.shape[1] - 1, L2)]  # L2 on w_1..w_M, not on the bias

    def error(w):  # -ln p(t|w) (eq. 4.90) + the penalty
        a = P @ w
        return np.sum(np.logaddexp(0, -a) * t + np.logaddexp(0, a) * (1 - t)) + 0.5 * penalty @ w**2

    def gradient(w):
        return P.T @ (sigmoid(P @ w) - t) + penalty * w  # Phi^T (y - t) (eq. 4.91)

    def hessian(w):
        y = sigmoid(P @ w)
        return P.T @ ((y * (1 - y))[:, None] * P) + np.diag(penalty)  # Phi^T R Phi (eq. 4.97-4.98)

    w = np.zeros(P.shape[1]) if w_init is None else np.array(w_init, dtype=float)
    return {"w": minimise(w, error, gradient, hessian, len(k))}  # w_new = w_old - H^-1 grad E (eq. 4.99-4.100)


def discriminants(model, Phi):
    return as_two_columns(design(Phi) @ model["w"])  # a = w^T phi; p(C1|phi) = sigma(a) (eq. 4.87)


def weights(model):
    return model["w"]


def posteriors(model, Phi):
    p1 = sigmoid(design(Phi) @ model["w"])
    return np.column_stack([p1, 1 - p1])
"""
)

SOFTMAX_REGRESSION = Template(
    DESIGN
    + SOFTMAX
    + _ITERATION
    + """

def fit(Phi, k, w_init=None):
    P = design(Phi)
    K, M = k.max() + 1, P.shape[1]
    T = np.eye(K)[k]  # 1-of-K targets (eq. 4.107)
    penalty = np.r_[0.0, np.full(M - 1, L2)]

    def error(W):  # cross-entropy (eq. 4.108) + the penalty
        A = P @ W.T
        return -np.sum(T * (A - np.logaddexp.reduce(A, axis=1, keepdims=True))) + 0.5 * np.sum(penalty * W**2)

    def gradient(W):
        return (softmax(P @ W.T) - T).T @ P + penalty * W  # sum_n (y_nj - t_nj) phi_n (eq. 4.109)

    def hessian(W):
        Y = softmax(P @ W.T)
        H = np.block([[P.T @ ((Y[:, j] * ((i == j) - Y[:, i]))[:, None] * P) for i in range(K)] for j in range(K)])
        return H + np.kron(np.eye(K), np.diag(penalty))  # eq. 4.110; singular without a penalty:
        # lstsq then takes the minimum-norm step, so sum_k w_k stays 0

    return {"W": minimise(np.zeros((K, M)), error, gradient, hessian, len(k))}  # row k: [w_k0, w_k1, ...]


def discriminants(model, Phi):
    return design(Phi) @ model["W"].T  # a_k = w_k^T phi (eq. 4.105)


def weights(model):
    return model["W"]


def posteriors(model, Phi):
    return softmax(discriminants(model, Phi))  # eq. 4.104
"""
)

PROBIT = Template(
    DESIGN
    + TWO_CLASS_VALUE
    + _ITERATION
    + """
from math import erfc

normal_cdf = np.vectorize(lambda a: 0.5 * erfc(-a / np.sqrt(2.0)))  # Phi(a) (eq. 4.114)


def normal_pdf(a):
    return np.exp(-0.5 * a * a) / np.sqrt(2 * np.pi)


def fit(Phi, k, w_init=None):
    P = design(Phi)
    s = np.where(k == 0, 1.0, -1.0)  # Phi(-a) = 1 - Phi(a): z_n = s_n a_n, s = +1 for C1
    penalty = np.r_[0.0, np.full(P.shape[1] - 1, L2)]

    def error(w):  # -sum_n ln Phi(z_n) + the penalty
        return -np.sum(np.log(normal_cdf(s * (P @ w)))) + 0.5 * penalty @ w**2

    def gradient(w):
        z = s * (P @ w)
        return -P.T @ (s * normal_pdf(z) / normal_cdf(z)) + penalty * w

    def hessian(w):
        z = s * (P @ w)
        lam = normal_pdf(z) / normal_cdf(z)
        return P.T @ ((lam * (lam + z))[:, None] * P) + np.diag(penalty)  # IRLS weights in (0, 1)

    return {"w": minimise(np.zeros(P.shape[1]), error, gradient, hessian, len(k))}


def discriminants(model, Phi):
    return as_two_columns(design(Phi) @ model["w"])  # p(C1|phi) = Phi(w^T phi) (eq. 4.114)


def weights(model):
    return model["w"]


def posteriors(model, Phi):
    p1 = normal_cdf(design(Phi) @ model["w"])
    return np.column_stack([p1, 1 - p1])
"""
)

BAYESIAN_LOGISTIC = Template(
    DESIGN
    + SIGMOID
    + TWO_CLASS_VALUE
    + """
ALPHA = $alpha  # the prior p(w) = N(w|0, ALPHA^-1 I) (eq. 4.140), over every weight, the bias too


def fit(Phi, k, w_init=None):
    P = design(Phi)
    t = (k == 0).astype(float)  # t = 1 for C1
    A = ALPHA * np.eye(P.shape[1])
    w = np.zeros(P.shape[1])
    for iteration in range(100):  # Newton-Raphson on ln p(w|t) (eq. 4.142): w_MAP
        y = sigmoid(P @ w)
        H = P.T @ ((y * (1 - y))[:, None] * P) + A  # S_N^-1 = alpha I + Phi^T R Phi (eq. 4.143)
        step = np.linalg.solve(H, P.T @ (y - t) + A @ w)
        w = w - step
        if np.max(np.abs(step)) <= 1e-12 * (1 + np.max(np.abs(w))):
            break
    y = sigmoid(P @ w)
    S_N = np.linalg.inv(P.T @ ((y * (1 - y))[:, None] * P) + A)  # the Laplace covariance (eq. 4.143-4.144)
    return {"w": w, "S_N": S_N}


def moderated(model, Phi):
    P = design(Phi)
    mu = P @ model["w"]  # mu_a = w_MAP^T phi (eq. 4.149)
    var = np.einsum("ni,ij,nj->n", P, model["S_N"], P)  # sigma_a^2 = phi^T S_N phi (eq. 4.150)
    return mu / np.sqrt(1 + np.pi * var / 8)  # kappa(sigma_a^2) mu_a (eq. 4.153-4.154)


def discriminants(model, Phi):
    return as_two_columns(moderated(model, Phi))


def weights(model):
    return model["w"]


def posteriors(model, Phi):
    p1 = sigmoid(moderated(model, Phi))  # p(C1|phi, t) ~ sigma(kappa mu_a) (eq. 4.155)
    return np.column_stack([p1, 1 - p1])
"""
)

SVM = Template(
    DESIGN
    + TWO_CLASS_VALUE
    + '''
C = $C  # the box 0 <= a_n <= C (eq. 7.33); np.inf: a hard margin


def fit(Phi, k, w_init=None, tol=1e-9):
    """SMO: maximise the dual (eq. 7.10) two multipliers at a time, the pair that violates the
    KKT conditions (eq. 7.14-7.16) most, until no pair does by more than tol."""
    t = np.where(k == 0, 1.0, -1.0)  # t = +1 for C1
    centre = Phi.mean(axis=0)
    Z = Phi - centre  # centred: the bias b absorbs the shift
    a = np.zeros(len(t))
    # the gradient of -L(a): Q a - 1, Q_nm = t_n t_m k(x_n, x_m) with the linear kernel k(x, x') = x^T x'
    # (Q is never formed: with N points it would take N^2 numbers)
    G = -np.ones(len(t))
    for step in range(100_000):
        v = -t * G
        up = ((t > 0) & (a < C)) | ((t < 0) & (a > 0))
        low = ((t > 0) & (a > 0)) | ((t < 0) & (a < C))
        i = np.flatnonzero(up)[np.argmax(v[up])]
        j = np.flatnonzero(low)[np.argmin(v[low])]
        if v[i] - v[j] < tol:
            break
        curvature = max(np.sum((Z[i] - Z[j]) ** 2), 1e-12)  # k(x_i, x_i) + k(x_j, x_j) - 2 k(x_i, x_j)
        delta = min(
            (v[i] - v[j]) / curvature,
            C - a[i] if t[i] > 0 else a[i],
            a[j] if t[j] > 0 else C - a[j],
        )
        a[i] += t[i] * delta
        a[j] -= t[j] * delta  # sum_n a_n t_n = 0 still holds (eq. 7.11)
        G += delta * t * (Z @ (Z[i] - Z[j]))
    w = Z.T @ (a * t)  # w = sum_n a_n t_n x_n (eq. 7.8)
    free = (a > 1e-12 * a.max()) & (a < C * (1 - 1e-12))  # support vectors on the margin
    values = t - Z @ w
    if free.any():
        b = values[free].mean()  # b from the support vectors on the margin (eq. 7.37)
    else:  # none on the margin: the middle of the interval the KKT conditions leave for b
        at_zero, at_c = a <= 0, a >= C
        below = values[((t > 0) & at_zero) | ((t < 0) & at_c)]  # b >= these
        above = values[((t > 0) & at_c) | ((t < 0) & at_zero)]  # b <= these
        b = (below.max() + above.min()) / 2
    return {"w": np.concatenate([[b - w @ centre], w]), "a": a}


def discriminants(model, Phi):
    return as_two_columns(design(Phi) @ model["w"])  # y(x) = w^T x + b >= 0: C1 (eq. 7.1)


def weights(model):
    return model["w"]


posteriors = None
'''
)

_PRIORS = """\
PRIORS = $priors  # p(C_k) as set in the app; None: N_k / N (eq. 4.73)


def class_priors(k):
    counts = np.bincount(k)
    return counts / len(k) if PRIORS is None or len(PRIORS) != len(counts) else np.array(PRIORS) / sum(PRIORS)
"""

GAUSSIAN_SHARED = Template(
    DESIGN
    + SOFTMAX
    + _PRIORS
    + """

def fit(Phi, k, w_init=None):
    K, N = k.max() + 1, len(k)
    pi = class_priors(k)
    mu = np.array([Phi[k == c].mean(axis=0) for c in range(K)])  # class means (eq. 4.75-4.76)
    Sigma = (Phi - mu[k]).T @ (Phi - mu[k]) / N  # the shared covariance, sum_k (N_k/N) S_k (eq. 4.78-4.80)
    W = np.linalg.solve(Sigma, mu.T).T  # w_k = Sigma^-1 mu_k (eq. 4.69)
    w0 = -0.5 * np.sum(mu * W, axis=1) + np.log(pi)  # w_k0 = -1/2 mu_k^T Sigma^-1 mu_k + ln p(C_k) (eq. 4.70)
    return {"W": np.column_stack([w0, W])}


def discriminants(model, Phi):
    return design(Phi) @ model["W"].T  # a_k(x) = w_k^T x + w_k0 (eq. 4.68)


def weights(model):
    return model["W"]


def posteriors(model, Phi):
    return softmax(discriminants(model, Phi))  # eq. 4.62
"""
)

GAUSSIAN_SEPARATE = Template(
    SOFTMAX
    + _PRIORS
    + """

def fit(Phi, k, w_init=None):
    K = k.max() + 1
    mu = np.array([Phi[k == c].mean(axis=0) for c in range(K)])  # eq. 4.75-4.76
    Sigma = np.array([np.cov(Phi[k == c].T, bias=True) for c in range(K)])  # S_k, dividing by N_k (eq. 4.79)
    return {"pi": class_priors(k), "mu": mu, "Sigma": Sigma}


def discriminants(model, Phi):
    A = []
    for pi, mu, Sigma in zip(model["pi"], model["mu"], model["Sigma"]):
        d = Phi - mu
        quadratic = np.sum(d * np.linalg.solve(Sigma, d.T).T, axis=1)
        # ln N(x|mu_k, Sigma_k) (eq. 4.64)
        log_density = -0.5 * quadratic - 0.5 * np.linalg.slogdet(2 * np.pi * Sigma)[1]
        A.append(log_density + np.log(pi))  # a_k = ln p(x|C_k) p(C_k) (eq. 4.63)
    return np.column_stack(A)  # quadratic in x: the boundary is curved


def weights(model):
    return None  # a quadratic discriminant: no weight vector


def posteriors(model, Phi):
    return softmax(discriminants(model, Phi))  # eq. 4.62
"""
)

NAIVE_BAYES_GAUSSIAN = Template(
    SOFTMAX
    + _PRIORS
    + """

def fit(Phi, k, w_init=None):
    K = k.max() + 1
    mu = np.array([Phi[k == c].mean(axis=0) for c in range(K)])
    # one variance per class and feature (the naive assumption, section 4.2.3), plus 1e-9 of the
    # largest feature variance so that no variance is 0 (scikit-learn's var_smoothing)
    var = np.array([Phi[k == c].var(axis=0) for c in range(K)]) + 1e-9 * Phi.var(axis=0).max()
    return {"pi": class_priors(k), "mu": mu, "var": var}


def discriminants(model, Phi):
    A = [
        -0.5 * np.sum(np.log(2 * np.pi * var) + (Phi - mu) ** 2 / var, axis=1) + np.log(pi)
        for pi, mu, var in zip(model["pi"], model["mu"], model["var"])
    ]  # a_k = sum_i ln N(x_i|mu_ki, var_ki) + ln p(C_k) (eq. 4.63, 4.84)
    return np.column_stack(A)


def weights(model):
    return None


def posteriors(model, Phi):
    return softmax(discriminants(model, Phi))
"""
)

NAIVE_BAYES_BERNOULLI = Template(
    SOFTMAX
    + _PRIORS
    + """
THRESHOLDS = $thresholds  # feature i is 1 where x_i > THRESHOLDS[i]; None: the data's mean


def fit(Phi, k, w_init=None):
    K = k.max() + 1
    thresholds = Phi.mean(axis=0) if THRESHOLDS is None else np.array(THRESHOLDS)
    B = (Phi > thresholds).astype(float)
    # mu_ki = p(x_i = 1|C_k), with Laplace smoothing (one imagined 0 and one 1 per class)
    mu = np.array([(B[k == c].sum(axis=0) + 1) / (np.sum(k == c) + 2) for c in range(K)])
    return {"pi": class_priors(k), "mu": mu, "thresholds": thresholds}


def discriminants(model, Phi):
    B = (Phi > model["thresholds"]).astype(float)
    mu = model["mu"]
    # a_k = sum_i x_i ln mu_ki + (1 - x_i) ln(1 - mu_ki) + ln p(C_k) (eq. 4.82)
    return B @ np.log(mu).T + (1 - B) @ np.log(1 - mu).T + np.log(model["pi"])


def weights(model):
    return None


def posteriors(model, Phi):
    return softmax(discriminants(model, Phi))
"""
)


def literal(value):
    """A setting as Python source: numbers, booleans, None and tuples of them only (never text
    but the fixed option names the spec table allows, checked here)."""
    if value is None or isinstance(value, bool | int | float):
        if isinstance(value, float) and value == float("inf"):
            return "np.inf"
        return repr(value)
    if isinstance(value, tuple | list):
        return "(" + "".join(literal(v) + ", " for v in value) + ")"
    if isinstance(value, str) and value in _OPTION_NAMES:
        return repr(value)
    raise ValueError(f"not a setting: {value!r}")


_OPTION_NAMES = frozenset({"midpoint", "gaussian", "irls", "gd", "one_of_k", "fisher", "bernoulli"})


def numpy_code(method, settings):
    """The numpy cell of ``method`` with ``settings`` (the method's parameters, complete), laid out
    as PEP 8 has it (two blank lines before a function)."""
    return pep8_spacing(_numpy_code(method, settings))


def pep8_spacing(code):
    """Two blank lines before a top-level ``def`` and after a function's body, never more."""
    out = []
    for line in code.strip("\n").split("\n"):
        top_level = line[:1] not in ("", " ", ")", "]", "}", "#")
        previous = next((earlier for earlier in reversed(out) if earlier), "")
        if top_level and out and (line.startswith("def ") or previous.startswith(" ")):
            while out and not out[-1]:
                out.pop()
            out += ["", ""]
        out.append(line)
    return re.sub(r"\n{4,}", "\n\n\n", "\n".join(out)) + "\n"


def _numpy_code(method, settings):
    s = {name: literal(value) for name, value in settings.items()}
    if method == "least_squares":
        template = LEAST_SQUARES_FISHER_TARGETS if settings.get("targets") == "fisher" else LEAST_SQUARES
        return template.substitute()
    if method == "fisher":
        return FISHER.substitute(threshold=s["threshold"])
    if method == "perceptron":
        return PERCEPTRON.substitute(
            eta=s["eta"], max_epochs=s["max_epochs"], shuffle=s["shuffle"], seed=s.get("random_state", "0")
        )
    if method in ("logistic", "softmax", "probit"):
        template = {"logistic": LOGISTIC, "softmax": SOFTMAX_REGRESSION, "probit": PROBIT}[method]
        return template.substitute(
            solver=s["solver"], max_iter=s["max_iter"], learning_rate=s.get("learning_rate", "0.1"), l2=s["l2"]
        )
    if method == "bayesian_logistic":
        return BAYESIAN_LOGISTIC.substitute(alpha=s["alpha"])
    if method == "svm":
        return SVM.substitute(C="np.inf" if settings.get("C") is None else s["C"])
    if method == "gaussian_shared":
        return GAUSSIAN_SHARED.substitute(priors=s.get("priors", "None"))
    if method == "gaussian_separate":
        return GAUSSIAN_SEPARATE.substitute(priors=s.get("priors", "None"))
    if method == "naive_bayes":
        if settings.get("variant") == "bernoulli":
            return NAIVE_BAYES_BERNOULLI.substitute(
                priors=s.get("priors", "None"), thresholds=s.get("thresholds", "None")
            )
        return NAIVE_BAYES_GAUSSIAN.substitute(priors=s.get("priors", "None"))
    raise ValueError(f"unknown method {method!r}")


#: The Markdown before each method's numpy cell: what the book does, with its equations.
METHOD_TEXT = {
    "least_squares": N_(
        "Least squares (section 4.1.3) fits y(x) = W̃ᵀx̃ to 1-of-K targets in one step, W̃ = X̃⁺T (eq. 4.16), "
        "and gives each point the class of the largest output (eq. 4.9)."
    ),
    "fisher": N_(
        "Fisher's discriminant (section 4.1.4) projects onto w ∝ S_W⁻¹(m₂ − m₁) (eq. 4.30; here written "
        "m₁ − m₂ so that w points into C₁) and cuts the projection at a threshold; with more classes it "
        "keeps the leading eigenvectors of S_W⁻¹S_B (eq. 4.51)."
    ),
    "perceptron": N_(
        "The perceptron (section 4.1.7) visits the points in turn and moves the weights by "
        "w ← w + η φₙ tₙ at every misclassified one (eq. 4.55), until an epoch has no mistake."
    ),
    "gaussian_shared": N_(
        "Gaussian classes with one shared covariance (sections 4.2.1-4.2.2): maximum-likelihood means, "
        "priors and covariance (eq. 4.73-4.80) give linear discriminants w_k = Σ⁻¹μ_k (eq. 4.69-4.70)."
    ),
    "gaussian_separate": N_(
        "Gaussian classes with a covariance each (section 4.2.2): a_k = ln p(x|C_k) + ln p(C_k) (eq. 4.63) "
        "keeps its quadratic term, so the boundary is curved."
    ),
    "naive_bayes": N_(
        "Naive Bayes (section 4.2.3) treats the features as independent within a class: one variance per "
        "class and feature, or binary features with p(xᵢ = 1|C_k) = μ_ki (eq. 4.81-4.82)."
    ),
    "logistic": N_(
        "Logistic regression (section 4.3.2) models p(C₁|φ) = σ(wᵀφ) (eq. 4.87) and maximises the "
        "likelihood by Newton-Raphson, iterative reweighted least squares (eq. 4.99-4.100), or by "
        "gradient descent."
    ),
    "softmax": N_(
        "Softmax regression (section 4.3.4) models p(C_k|φ) = exp(a_k) / Σⱼ exp(aⱼ) (eq. 4.104) and "
        "maximises the likelihood with the block Hessian of eq. 4.110, or by gradient descent."
    ),
    "probit": N_(
        "Probit regression (section 4.3.5) replaces the sigmoid by the normal distribution function Φ(a) "
        "(eq. 4.114) and is fitted by the same Newton-Raphson iterations."
    ),
    "bayesian_logistic": N_(
        "Bayesian logistic regression (sections 4.4-4.5): a Gaussian prior with precision α, the mode "
        "w_MAP, the Laplace covariance S_N⁻¹ = αI + ΦᵀRΦ (eq. 4.143), and the moderated prediction "
        "σ(κ(σₐ²)μₐ) (eq. 4.155)."
    ),
    "svm": N_(
        "The linear support vector machine (section 7.1) maximises the dual (eq. 7.10) with 0 ≤ aₙ ≤ C, "
        "here by sequential minimal optimisation (SMO), then w = Σₙ aₙtₙxₙ (eq. 7.8)."
    ),
}
