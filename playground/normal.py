"""The standard normal distribution, vectorised: Phi(x), ln Phi(x) and phi(x) / Phi(x) (PRML 4.3.5).

numpy has no error function, and ``math.erfc`` one value at a time is far too slow for a
200 x 200 grid. This is W. J. Cody's rational Chebyshev approximation of the normal CDF
(Cody 1969, "Rational Chebyshev approximations for the error function", Math. Comp. 23;
the form of R's ``pnorm``), about 1e-16 relative error in three ranges of |x|:

- |x| <= 0.674 (the quartile): Phi(x) = 1/2 + x R1(x^2);
- 0.674 < |x| <= sqrt(32): the tail Phi(-|x|) = exp(-x^2/2) R2(|x|);
- |x| > sqrt(32): the tail Phi(-|x|) = exp(-x^2/2) (1/sqrt(2 pi) - R3(1/x^2) / x^2) / |x|,
  the asymptotic series summed by a rational function.

Writing the tail as exp(-x^2/2) times a ratio is what makes everything stable: ln Phi(x)
for x -> -inf is -x^2/2 + ln(ratio) without underflow, and phi(x)/Phi(x) = 1 / (sqrt(2 pi)
ratio) with the exponentials cancelled exactly. exp(-x^2/2) itself is formed from a split
x = x_hi + x_lo with x_hi a multiple of 1/16, so that x_hi^2 is exact.
"""

import math

import numpy as np

SQRT_2PI = math.sqrt(2 * math.pi)
INV_SQRT_2PI = 1 / SQRT_2PI
QUARTILE = 0.67448975  # Phi(0.67448975) = 3/4: the end of the central range
SQRT_32 = math.sqrt(32.0)
#: Arguments are clipped to +-this: Phi is 0 or 1 to double precision long before, and an infinite
#: activation must give the limits, not inf - inf.
LARGEST = 1e300

# Cody's coefficients (R's pnorm.c carries the same numbers).
_A = (2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582, 18154.981253343561249)
_A4 = 0.065682337918207449113
_B = (47.20258190468824187, 976.09855173777669322, 10260.932208618978205, 45507.789335026729956)
_C = (
    0.39894151208813466764,
    8.8831497943883759412,
    93.506656132177855979,
    597.27027639480026226,
    2494.5375852903726711,
    6848.1904505362823326,
    11602.651437647350124,
    9842.7148383839780218,
)
_C8 = 1.0765576773720192317e-8
_D = (
    22.266688044328115691,
    235.38790178262499861,
    1519.377599407554805,
    6485.558298266760755,
    18615.571640885098091,
    34900.952721145977266,
    38912.003286093271411,
    19685.429676859990727,
)
_P = (0.21589853405795699, 0.1274011611602473639, 0.022235277870649807, 0.001421619193227893466, 2.9112874951168792e-5)
_P5 = 0.02307344176494017303
_Q = (1.28426009614491121, 0.468238212480865118, 0.0659881378689285515, 0.00378239633202758244, 7.29751555083966205e-5)


def _rational(t, numerator, numerator_top, denominator):
    """Cody's nested form: (((top t + n0) t + n1) t ...) over ((t + d0) t + d1) t ...,
    with the last coefficients added untimed (the lists' last entries)."""
    num = numerator_top * t
    den = t.copy()
    for n, d in zip(numerator[:-1], denominator[:-1]):
        num += n
        num *= t
        den += d
        den *= t
    num += numerator[-1]
    den += denominator[-1]
    return num / den


def _half_square(y):
    """-y^2/2 as two parts (-y_hi^2/2, -(y - y_hi)(y + y_hi)/2) with y_hi = trunc(16 y)/16, whose
    square is exact: exp of each part, multiplied, keeps full relative precision where
    exp(-y^2/2) of the rounded square would lose about y^2 units in the last place."""
    y_hi = np.trunc(y * 16.0)
    y_hi /= 16.0
    with np.errstate(over="ignore", invalid="ignore"):  # y near 1e300: -inf, the right limit
        high = y_hi * y_hi
        high *= -0.5
        low = y - y_hi
        low *= y + y_hi
        low *= -0.5
    return high, low


def _gaussian_factor(y):
    """exp(-y^2/2) to full relative precision (0 where it underflows)."""
    high, low = _half_square(y)
    out = np.exp(high, out=high)
    out *= np.exp(low, out=low)
    return out


class _Pieces:
    """Cody's three ranges evaluated at every x (a few dozen whole-array operations: cheaper
    than gathering and scattering the points of each range), chosen with masks at the end.

    Attributes: ``x`` (clipped), ``y`` = |x|, ``central`` (|x| <= the quartile), ``far``
    (|x| > sqrt(32)), ``half`` = |Phi(x) - 1/2| (valid where central), ``ratio`` r(y) with
    Phi(-y) = exp(-y^2/2) r(y) (valid elsewhere) and ``series`` = R3(1/y^2) (valid where far).
    """

    def __init__(self, x):
        x = np.asarray(x, dtype=float)
        self.shape = x.shape  # the work is done on a flat copy (0-d inputs included)
        self.x = np.clip(x.reshape(-1), -LARGEST, LARGEST)
        y = self.y = np.abs(self.x)
        self.central = y <= QUARTILE
        self.far = y > SQRT_32
        clipped = np.minimum(y, QUARTILE)
        self.half = clipped * _rational(clipped * clipped, _A, _A4, _B)
        middle_ratio = _rational(np.clip(y, QUARTILE, SQRT_32), _C, _C8, _D)
        far_y = np.maximum(y, SQRT_32)
        inv_square = 1.0 / far_y
        inv_square *= inv_square  # 1/y^2 may underflow to 0 for y > 1e154: the series' limit
        self.series = _rational(inv_square, _P, _P5, _Q)
        far_ratio = INV_SQRT_2PI - inv_square * self.series
        far_ratio /= far_y
        self.inv_square = inv_square
        self.ratio = np.where(self.far, far_ratio, middle_ratio)

    def tails(self):
        """(Phi(-|x|), Phi(|x|)): the smaller and the larger of Phi(x), Phi(-x), each precise."""
        small = _gaussian_factor(self.y)
        small *= self.ratio
        small = np.where(self.central, 0.5 - self.half, small)
        large = np.where(self.central, 0.5 + self.half, 1.0 - small)
        return small, large

    def log_tails(self):
        """(ln Phi(-|x|), ln Phi(|x|)), the first without underflow."""
        small, _ = self.tails()
        high, low = _half_square(self.y)
        # log(0) where not used (the central log of an underflowed tail), or for |x| near 1e300
        # (-inf, the right limit).
        with np.errstate(divide="ignore"):
            log_small = high + low + np.log(self.ratio)
            log_small = np.where(self.central, np.log(small), log_small)
        return log_small, np.log1p(-small)


def normal_cdf_pair(x, log=False):
    """(Phi(-x), Phi(x)), or their logarithms, shape (N, 2) from x of shape (N,) (eq. 4.114).

    The probit model's posteriors (p(C_1|phi), p(C_2|phi)) for activations x. Each column keeps
    its relative precision (the small one is never formed as 1 - the large one); the rows
    sum to 1 up to rounding. Returns the transpose of a (2, N) array, like
    ``playground.base.two_class_proba``.
    """
    pieces = _Pieces(np.reshape(x, -1))
    small, large = pieces.log_tails() if log else pieces.tails()
    positive = pieces.x > 0  # there Phi(-x) is the small one
    out = np.empty((2,) + pieces.x.shape)
    np.copyto(out[0], large)
    np.copyto(out[0], small, where=positive)
    np.copyto(out[1], small)
    np.copyto(out[1], large, where=positive)
    return out.T


def _lower(pieces, small, large):
    """Phi(x) (or its log) from the two tails: the small one where x <= 0."""
    return np.where(pieces.x > 0, large, small)


def normal_cdf(x):
    """Phi(x) = integral_{-inf}^x N(t|0, 1) dt (eq. 4.114), elementwise, same shape as x."""
    pieces = _Pieces(x)
    return _lower(pieces, *pieces.tails()).reshape(pieces.shape)


def log_normal_cdf(x):
    """ln Phi(x) without underflow (about -x^2/2 - ln(-x sqrt(2 pi)) for x -> -inf), elementwise."""
    pieces = _Pieces(x)
    return _lower(pieces, *pieces.log_tails()).reshape(pieces.shape)


def normal_pdf(x):
    """N(x|0, 1) = exp(-x^2/2) / sqrt(2 pi), elementwise (0 where it underflows)."""
    x = np.asarray(x, dtype=float)
    return INV_SQRT_2PI * _gaussian_factor(np.abs(x))


def pdf_over_cdf(x):
    """lambda(x) = phi(x) / Phi(x) and the curvature lambda(x) (lambda(x) + x), elementwise.

    These are the derivatives of ln Phi: d/dx ln Phi(x) = lambda(x) and
    -d^2/dx^2 ln Phi(x) = lambda(x) (lambda(x) + x), which lies in (0, 1). For x -> -inf,
    lambda(x) ~ -x and the curvature ~ 1 - 1/x^2; both are formed without cancelling terms.

    Returns
    -------
    ratio, curvature : ndarrays, same shape as x
    """
    pieces = _Pieces(x)
    x, y = pieces.x, pieces.y
    lower_tail = (x < 0) & ~pieces.central
    # Where Phi(x) is a tail exp(-x^2/2) r, the exponentials cancel: lambda = 1/(sqrt(2 pi) r).
    small, large = pieces.tails()
    cdf = np.where(x > 0, large, small)
    cdf[lower_tail] = 1.0  # not used there; avoids 0/0
    ratio = np.where(lower_tail, 1.0 / (SQRT_2PI * pieces.ratio), normal_pdf(y) / cdf)
    with np.errstate(over="ignore", invalid="ignore"):  # replaced below in the far lower tail
        curvature = ratio + x
        curvature *= ratio
    # Far in the lower tail r = (1/sqrt(2 pi) - R3/y^2)/y, so lambda/y = 1/(1 - sqrt(2 pi) R3/y^2)
    # and lambda (lambda - y) = (lambda/y)^2 sqrt(2 pi) R3: no difference of large numbers.
    scaled = 1.0 / (1.0 - SQRT_2PI * pieces.inv_square * pieces.series)
    far_curvature = scaled * scaled * SQRT_2PI * pieces.series
    np.copyto(curvature, far_curvature, where=lower_tail & pieces.far)
    return ratio.reshape(pieces.shape), curvature.reshape(pieces.shape)
