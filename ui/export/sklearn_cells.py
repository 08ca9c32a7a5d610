"""The same scene with scikit-learn: the estimator a student would use next, one cell per method.

Where scikit-learn has no counterpart, or one that differs by design (least squares, probit,
Bayesian logistic regression, one-versus-one with the book's voting), there is no cell: the
notebook says so in a sentence (``NO_COUNTERPART``) and keeps the numpy part only.

Every cell defines ``estimator`` (unfitted) and ``SAME_WEIGHTS`` (whether its weights are the
numpy part's, so the check compares them); settings enter as literals (``numpy_cells.literal``).
"""

from typing import Any

from playground.i18n import N_

from .numpy_cells import literal

NO_COUNTERPART = {
    "least_squares": N_(
        "scikit-learn has no least-squares classifier with 1-of-K targets (RidgeClassifier fits ±1 targets "
        "with a penalty), so this notebook keeps the numpy part only."
    ),
    "probit": N_("scikit-learn has no probit regression, so this notebook keeps the numpy part only."),
    "bayesian_logistic": N_(
        "scikit-learn has no Bayesian logistic regression with the Laplace approximation, so this notebook "
        "keeps the numpy part only."
    ),
    "ovo": N_(
        "scikit-learn's one-versus-one differs from the book's vote in how it breaks ties and in which class "
        "each pairwise model calls positive, so this notebook keeps the numpy part only."
    ),
}

#: What differs between the book's method and the scikit-learn estimator (a sentence, or absent).
DIFFERENCES = {
    "fisher": N_(
        "LinearDiscriminantAnalysis finds the same directions but places the threshold as a Gaussian model "
        "with shared covariance does (with the priors), so its predictions may differ near the boundary."
    ),
    "perceptron": N_(
        "Perceptron with shuffle=False and a constant learning rate makes the same updates in the same "
        "order; its coef_ points into the second class, so the book's w is its negative."
    ),
    "gaussian_shared": N_(
        'LinearDiscriminantAnalysis(solver="lsqr") is the same model; its coef_ is the log-odds of the '
        "second class, so the book's w is its negative."
    ),
    "gaussian_separate": N_(
        "QuadraticDiscriminantAnalysis divides each covariance by N_k − 1 (unbiased) where the book's maximum "
        "likelihood divides by N_k, so predictions may differ near the boundary."
    ),
    "naive_bayes": N_("GaussianNB and BernoulliNB are the same models, with the same smoothing."),
    "logistic": N_(
        "LogisticRegression penalises (1/2C)|w|², so C = 1/λ; its coef_ points into the second class, so the "
        "book's w is its negative. Gradient descent that stops early is not the optimum scikit-learn finds."
    ),
    "softmax": N_(
        "LogisticRegression with several classes is softmax regression; C = 1/λ (with two classes it fits "
        "one weight vector, so C = 2/λ). Weights are compared after subtracting their mean over the classes."
    ),
    "svm": N_(
        'SVC(kernel="linear") solves the same dual by SMO; its coef_ points into the second class, so the '
        "book's w is its negative. SVC has no hard margin: a very large C stands in for it."
    ),
}


def sklearn_code(method: str, settings: dict[str, Any], n_classes: int) -> tuple[str, bool] | None:
    """(code, same_weights) of the scikit-learn cell, or None where there is no counterpart."""
    if method in NO_COUNTERPART:
        return None
    if method == "fisher":
        code = "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n\n"
        return code + "estimator = LinearDiscriminantAnalysis()\n", False
    if method == "gaussian_shared":
        priors = settings.get("priors")
        code = (
            "from sklearn.discriminant_analysis import LinearDiscriminantAnalysis\n\n"
            f'estimator = LinearDiscriminantAnalysis(solver="lsqr", priors={literal(priors)})\n'
        )
        return code, priors is None
    if method == "gaussian_separate":
        code = (
            "from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis\n\n"
            f"estimator = QuadraticDiscriminantAnalysis(priors={literal(settings.get('priors'))})\n"
        )
        return code, False
    if method == "naive_bayes":
        priors = literal(settings.get("priors"))
        if settings.get("variant") == "bernoulli":
            code = (
                "from sklearn.naive_bayes import BernoulliNB\n"
                "from sklearn.pipeline import make_pipeline\n"
                "from sklearn.preprocessing import FunctionTransformer\n\n"
                f"THRESHOLDS_SK = {literal(settings.get('thresholds'))}\n"
                "cut = np.mean(phi(X), axis=0) if THRESHOLDS_SK is None else np.array(THRESHOLDS_SK)\n"
                "estimator = make_pipeline(\n"
                "    FunctionTransformer(lambda F: (F > cut).astype(float)),  # the binary features\n"
                f"    BernoulliNB(alpha=1.0, binarize=None, class_prior={priors}),\n"
                ")\n"
            )
        else:
            code = f"from sklearn.naive_bayes import GaussianNB\n\nestimator = GaussianNB(priors={priors})\n"
        return code, False
    if method == "perceptron":
        code = (
            "from sklearn.linear_model import Perceptron\n\n"
            f"estimator = Perceptron(eta0={literal(settings['eta'])}, max_iter={literal(settings['max_epochs'])}, "
            "tol=None, shuffle=False)\n"
        )
        return code, settings.get("w_init") is None and not settings.get("shuffle")
    if method in ("logistic", "softmax"):
        l2 = float(settings.get("l2") or 0.0)
        factor = 2.0 if method == "softmax" and n_classes == 2 else 1.0
        c_value = "np.inf" if l2 == 0 else repr(factor / l2)
        code = (
            "from sklearn.linear_model import LogisticRegression\n\n"
            f'estimator = LogisticRegression(C={c_value}, solver="newton-cg", tol=1e-10, max_iter=10_000)\n'
        )
        return code, settings.get("solver") == "irls" and settings.get("w_init") is None
    if method == "svm":
        c_value = "1e10" if settings.get("C") is None else literal(settings["C"])
        code = f'from sklearn.svm import SVC\n\nestimator = SVC(kernel="linear", C={c_value}, tol=1e-8)\n'
        return code, True
    raise ValueError(f"unknown method {method!r}")
