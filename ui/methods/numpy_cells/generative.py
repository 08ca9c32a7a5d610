"""The probabilistic generative models' numpy cells (section 4.2): Gaussian classes with a shared
covariance or one each, and naive Bayes (Gaussian or Bernoulli features), all with the app's
class priors (``CLASS_PRIORS``, shared).

Each template follows the package's rules (``ui.methods.numpy_cells``): it defines ``fit``,
``discriminants``, ``weights`` and ``posteriors``, and takes its settings as ``literal`` text only.
"""

from string import Template
from typing import Any

from .core import DESIGN, SOFTMAX

CLASS_PRIORS = """\
PRIORS = $priors  # p(C_k) as set in the app; None: N_k / N (eq. 4.73)


def class_priors(k):
    counts = np.bincount(k)
    return counts / len(k) if PRIORS is None or len(PRIORS) != len(counts) else np.array(PRIORS) / sum(PRIORS)
"""

GAUSSIAN_SHARED = Template(
    DESIGN
    + SOFTMAX
    + CLASS_PRIORS
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
    + CLASS_PRIORS
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
    + CLASS_PRIORS
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
    + CLASS_PRIORS
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


def gaussian_shared_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return GAUSSIAN_SHARED.substitute(priors=s.get("priors", "None"))


def gaussian_separate_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    return GAUSSIAN_SEPARATE.substitute(priors=s.get("priors", "None"))


def naive_bayes_code(settings: dict[str, Any], s: dict[str, str]) -> str:
    if settings.get("variant") == "bernoulli":
        return NAIVE_BAYES_BERNOULLI.substitute(priors=s.get("priors", "None"), thresholds=s.get("thresholds", "None"))
    return NAIVE_BAYES_GAUSSIAN.substitute(priors=s.get("priors", "None"))
