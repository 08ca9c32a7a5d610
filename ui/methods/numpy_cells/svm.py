"""The linear support vector machine's numpy cell (section 7.1): the dual maximised by sequential
minimal optimisation (SMO), with the linear kernel written out.

The template follows the package's rules (``ui.methods.numpy_cells``): it defines ``fit``,
``discriminants``, ``weights`` and ``posteriors``, and takes its settings as ``literal`` text only.
"""

from string import Template
from typing import Any

from .core import DESIGN, TWO_CLASS_VALUE

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


def svm_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return SVM.substitute(C="np.inf" if settings.get("C") is None else s["C"])  # None: a hard margin
