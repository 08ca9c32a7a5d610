"""What each method does, in a paragraph: the presenter's drawer shows it when the method on screen
is not the one a figure's explanation describes (after a switch from the bar).

Rules that hold: one paragraph per method of ``playground.MODELS``, in English marked with ``N_``
(shown translated), in the book's words and sign convention; no number in it (numbers come from a
scene, and this text describes none).
"""

from ui.text.i18n import N_

METHOD_ABOUT = {
    "least_squares": N_(
        "Least squares fits each class's target (1 for the class, 0 otherwise) with a linear function yₖ(x) = "
        "wₖᵀx̃ by minimising the sum of squared errors (eq. 4.16) and assigns x to the class with the largest "
        "yₖ(x). It has a closed form, but it punishes points that are 'too correct', so far-away points pull "
        "its boundary (figure 4.4)."
    ),
    "fisher": N_(
        "Fisher's linear discriminant projects the points onto the direction w ∝ S_W⁻¹(m₂ − m₁) that "
        "maximises the ratio J(w) of the between-class to the within-class variance (eq. 4.26-4.30), then "
        "classifies with a threshold on that projection."
    ),
    "perceptron": N_(
        "The perceptron visits the points in turn and, for each misclassified one, adds ηtₙφ(xₙ) to w "
        "(eq. 4.55): t = +1 for class 1, −1 for class 2. On separable data it stops after finitely many "
        "updates; on overlapping data it never settles. Its initial weights and η are set below."
    ),
    "gaussian_shared": N_(
        "A generative model: each class is a Gaussian with its own mean and one covariance shared by all "
        "classes, fitted by maximum likelihood (eq. 4.65-4.70). Bayes' theorem then gives the posteriors, and "
        "the shared covariance makes every boundary a straight line."
    ),
    "gaussian_separate": N_(
        "A generative model: each class is a Gaussian with its own mean and its own covariance. The quadratic "
        "terms no longer cancel, so the boundaries are conics (figure 4.11)."
    ),
    "naive_bayes": N_(
        "Naive Bayes treats the features as independent within each class (section 4.2.3): each class is a "
        "product of one-dimensional densities, and Bayes' theorem gives the posteriors."
    ),
    "logistic": N_(
        "Logistic regression models p(C₁|φ) = σ(wᵀφ) directly and maximises the likelihood with IRLS, "
        "Newton-Raphson steps (eq. 4.99), or gradient descent. On separable data the weights grow without "
        "bound. Its initial weights are set below."
    ),
    "softmax": N_(
        "Softmax regression, multiclass logistic regression, models p(Cₖ|φ) = exp(aₖ)/Σⱼexp(aⱼ) with aₖ = "
        "wₖᵀφ and maximises the likelihood (section 4.3.4); every class gets a region of its own."
    ),
    "probit": N_(
        "Probit regression models p(C₁|φ) = Φ(wᵀφ), the standard normal's distribution function in place of "
        "the logistic sigmoid (section 4.3.5): nearly the same boundary, with thinner tails."
    ),
    "bayesian_logistic": N_(
        "Bayesian logistic regression puts a Gaussian prior of precision α on w and approximates the posterior "
        "over w by a Gaussian at its mode (the Laplace approximation, section 4.4); the predictive distribution "
        "(eq. 4.155) is less sure away from the data than the MAP fit."
    ),
    "svm": N_(
        "The linear support vector machine finds the boundary with the largest margin to the nearest points, "
        "the support vectors (section 7.1); C trades a wider margin against points inside it."
    ),
}
