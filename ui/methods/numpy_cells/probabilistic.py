"""The probabilistic discriminative models' numpy cells (sections 4.3-4.5): logistic, softmax and
probit regression, fitted by Newton-Raphson (IRLS) or gradient descent (``minimise``, shared), and
Bayesian logistic regression with the Laplace approximation.

Each template follows the package's rules (``ui.methods.numpy_cells``): it defines ``fit``,
``discriminants``, ``weights`` and ``posteriors``, and takes its settings as ``literal`` text only.
"""

from collections.abc import Callable
from string import Template
from typing import Any

from .core import DESIGN, SIGMOID, SOFTMAX, TWO_CLASS_VALUE

ITERATION = '''\
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
    + ITERATION
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
    + ITERATION
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
    + ITERATION
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


def iterative_code(template: Template) -> Callable[[dict[str, Any], dict[str, str]], str]:
    """The code function of a method fitted by ``minimise``: its solver's settings filled in."""

    def code(settings: dict[str, Any], s: dict[str, str]) -> str:
        return template.substitute(
            solver=s["solver"], max_iter=s["max_iter"], learning_rate=s.get("learning_rate", "0.1"), l2=s["l2"]
        )

    return code


def bayesian_logistic_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return BAYESIAN_LOGISTIC.substitute(alpha=s["alpha"])
