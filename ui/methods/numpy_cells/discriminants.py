"""The discriminant functions' numpy cells (section 4.1): least squares (1-of-K or section 4.1.5's
targets), Fisher's discriminant and the perceptron.

Each template follows the package's rules (``ui.methods.numpy_cells``): it defines ``fit``,
``discriminants``, ``weights`` and ``posteriors``, and takes its settings as ``literal`` text only.
"""

from string import Template
from typing import Any

from .core import DESIGN, TWO_CLASS_VALUE

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


def fisher_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return FISHER.substitute(threshold=s["threshold"])


def perceptron_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return PERCEPTRON.substitute(
        eta=s["eta"], max_epochs=s["max_epochs"], shuffle=s["shuffle"], seed=s.get("random_state", "0")
    )
