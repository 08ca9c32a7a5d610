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

import contextlib
import math
from typing import Literal, TypeAlias, TypedDict, Unpack

import numpy as np
from numpy.typing import ArrayLike

from .validation import FloatArray

#: What np.errstate may do about a floating-point error.
_OnError: TypeAlias = Literal["ignore", "warn", "raise", "call", "print", "log"]


class _ErrorKinds(TypedDict, total=False):
    """The floating-point errors ``_quiet_if`` may silence (np.errstate's keywords but ``call``)."""

    over: _OnError
    invalid: _OnError
    divide: _OnError
    under: _OnError


SQRT_2PI = math.sqrt(2 * math.pi)
INV_SQRT_2PI = 1 / SQRT_2PI
QUARTILE = 0.67448975  # Phi(0.67448975) = 3/4: the end of the central range
SQRT_32 = math.sqrt(32.0)
#: Arguments are clipped to +-this: Phi is 0 or 1 to double precision long before, and an infinite
#: activation must give the limits, not inf - inf.
LARGEST = 1e300
#: Below this |x| nothing overflows (x^2 < 1e300, lambda(x) (lambda(x) - x) finite): no np.errstate needed.
_NOT_HUGE = 1e150
#: Up to this many points in the far range are evaluated on Python floats (``NormalCDF._far_few``).
_FEW = 8

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


def _rational(
    t: FloatArray, numerator: tuple[float, ...], numerator_top: float, denominator: tuple[float, ...]
) -> FloatArray:
    """Cody's nested form (((top t + n0) t + n1) t ... + n_last) / (((t + d0) t + d1) t ... + d_last),
    in place on two arrays (scalar coefficients: cheaper than one stacked array with broadcast
    coefficient columns)."""
    num = numerator_top * t
    den = t + denominator[0]  # the monic t, plus d0: one call instead of a copy and an addition
    den *= t
    num += numerator[0]
    num *= t
    for n, d in zip(numerator[1:-1], denominator[1:-1]):
        num += n
        num *= t
        den += d
        den *= t
    num += numerator[-1]
    den += denominator[-1]
    num /= den
    return num


#: exp(-y_hi^2/2) for y_hi = k/16, k = 0 .. 640: y_hi^2 / 2 is exact, so these are the numbers
#: np.exp gives at those arguments, looked up instead of computed again. From y = 40 on the
#: factor is 0 (exp(-800) underflows), so larger k share the last entry.
_HIGH_FACTORS = np.exp(-0.5 * (np.arange(641) / 16.0) ** 2)


def _gaussian_factor(y: FloatArray) -> FloatArray:
    """exp(-y^2/2) to full relative precision (0 where it underflows), for y >= 0.

    The exponent is split as -y_hi^2/2 - (y - y_hi)(y + y_hi)/2 with y_hi = trunc(16 y)/16, whose
    square is exact: the product of the two parts' exponentials keeps full relative precision
    where exp(-y^2/2) of the rounded square would lose about y^2 units in the last place. The
    first part comes from a table (``_HIGH_FACTORS``), so one exponential is computed.
    """
    steps = np.trunc(y * 16.0)
    np.fmin(steps, 640.0, out=steps)  # fmin: a NaN y looks up entry 640 and stays NaN below
    y_hi = steps / 16.0
    with np.errstate(over="ignore", invalid="ignore"):  # y near 1e300: -inf, the right limit
        low = y - y_hi
        low *= y + y_hi
        low *= -0.5
    out = np.exp(low, out=low)
    out *= _HIGH_FACTORS[steps.astype(np.intp)]
    return out


#: An empty array for ranges without points (shared, read-only).
_NOTHING = np.empty(0)
_NOTHING.flags.writeable = False


def _quiet_if(condition: bool, **errors: Unpack[_ErrorKinds]) -> contextlib.AbstractContextManager[object]:
    """np.errstate(**errors) if ``condition`` (only far points overflow or give inf - inf), else a
    context that does nothing: entering np.errstate costs about a microsecond, several times per
    Newton step of a probit fit."""
    return np.errstate(**errors) if condition else contextlib.nullcontext()


class NormalCDF:
    """Phi at the points x (any shape), evaluated once and read in several forms: the probit
    fit asks for ln Phi and phi/Phi at the same activations.

    Each of Cody's ranges is evaluated on its own points only (gathered by index): the
    middle range's rational function is the costly part and, on a grid of activations,
    applies to a fraction of the points.
    """

    def __init__(self, x: ArrayLike) -> None:
        x = np.asarray(x, dtype=float)
        self.shape = x.shape  # the work is done on a flat view (0-d inputs included)
        self.x = x.reshape(-1)
        y = np.abs(self.x)
        np.minimum(y, LARGEST, out=y)
        self.y = y
        central = y <= QUARTILE
        far = y > SQRT_32
        # mask.nonzero()[0]: np.flatnonzero's numbers (the mask is flat) without its Python wrapper
        self.central = central.nonzero()[0]
        self.far = far.nonzero()[0]
        middle = (~(central | far) if self.far.size else ~central).nonzero()[0]
        # |Phi(x) - 1/2| on the central range, x R1(x^2); elsewhere the tail ratio r(y) with
        # Phi(-y) = exp(-y^2/2) r(y) (1, unused, on the central range). A range without points
        # costs nothing: the fit starts at w = 0, where every activation is central.
        ratio = np.ones(y.size)
        self.half: FloatArray = _NOTHING
        self.far_series: FloatArray = _NOTHING
        self.far_inv_square: FloatArray = _NOTHING
        if self.central.size:
            y_central = y[self.central]
            self.half = y_central * _rational(y_central * y_central, _A, _A4, _B)
        if middle.size:
            ratio[middle] = _rational(y[middle], _C, _C8, _D)
        self.far_gauss: FloatArray | None = None
        # Whether a point may overflow below (|x| >= _NOT_HUGE): told for few far points, assumed for many.
        self.huge = bool(self.far.size)
        if 0 < self.far.size <= _FEW:
            self._far_few(y[self.far], ratio)
        elif self.far.size:
            y_far = y[self.far]
            inv_square = 1.0 / y_far
            inv_square *= inv_square  # underflows to 0 for y > 1e154: the series' limit
            self.far_series = _rational(inv_square, _P, _P5, _Q)  # R3(1/y^2)
            self.far_inv_square = inv_square
            far_ratio = INV_SQRT_2PI - inv_square * self.far_series
            far_ratio /= y_far
            ratio[self.far] = far_ratio
        self.ratio = ratio
        self._gauss: FloatArray | None = None
        self._exponent: FloatArray | None = None
        self._tails: tuple[FloatArray, FloatArray] | None = None

    def _far_few(self, y_far: FloatArray, ratio: FloatArray) -> None:
        """The far range's ratio, series and exp(-y^2/2) for a few points (a fit's activations
        often have one or two that far out), by the same operations on Python floats: numpy's
        cost per call would be most of the evaluation. Only the exponential is numpy's, so that
        every number is the one the array route gives."""
        series: list[float] = []
        inverse_squares: list[float] = []
        lows: list[float] = []
        steps: list[int] = []
        ratios: list[float] = []
        values: list[float] = y_far.tolist()
        self.huge = max(values) >= _NOT_HUGE
        for y in values:
            inv_square = 1.0 / y
            inv_square *= inv_square
            num, den = _P5 * inv_square, inv_square
            for n, d in zip(_P[:-1], _Q[:-1]):
                num = (num + n) * inv_square
                den = (den + d) * inv_square
            value = (num + _P[-1]) / (den + _Q[-1])
            series.append(value)
            inverse_squares.append(inv_square)
            ratios.append((INV_SQRT_2PI - inv_square * value) / y)  # the ratio, as the array route rounds it
            step = min(float(math.trunc(y * 16.0)), 640.0)
            y_hi = step / 16.0
            lows.append((y - y_hi) * (y + y_hi) * -0.5)
            steps.append(int(step))
        self.far_series, self.far_inv_square = np.array(series), np.array(inverse_squares)
        ratio[self.far] = ratios
        self.far_gauss = np.exp(lows) * _HIGH_FACTORS[steps]

    def gaussian(self) -> FloatArray:
        """exp(-x^2/2), to full relative precision.

        Up to |x| = sqrt(32) the plain exp(-x^2/2) is within 16 rounding errors of the exponent
        (4e-15 relative); beyond, the split of ``_gaussian_factor`` keeps it to a few ulp where
        the rounded square would lose up to x^2/2 of them.
        """
        if self._gauss is None:
            y = self.y
            with _quiet_if(self.huge, over="ignore"):  # far points: replaced below
                exponent = y * y
            exponent *= -0.5
            self._exponent = exponent  # -y^2/2, which ln Phi(-|x|) adds to ln r(y)
            gauss = np.exp(exponent)
            if self.far.size:
                gauss[self.far] = _gaussian_factor(y[self.far]) if self.far_gauss is None else self.far_gauss
            self._gauss = gauss
        return self._gauss

    def tails(self) -> tuple[FloatArray, FloatArray]:
        """(Phi(-|x|), Phi(|x|)), flat: the smaller and the larger of Phi(x), Phi(-x), each precise."""
        if self._tails is None:
            small = self.gaussian() * self.ratio
            small[self.central] = 0.5 - self.half
            large = 1.0 - small
            large[self.central] = 0.5 + self.half
            self._tails = (small, large)
        return self._tails

    def log_tails(self) -> tuple[FloatArray, FloatArray]:
        """(ln Phi(-|x|), ln Phi(|x|)), flat, the first without underflow: ln r(y) - y^2/2 in the
        tails (a rounding error in y^2/2 is a relative one in the logarithm)."""
        small, _ = self.tails()  # forms exp(-y^2/2) and keeps -y^2/2 (-inf for y near 1e300: the limit)
        log_small = np.log(self.ratio)
        assert self._exponent is not None  # set by gaussian(), which tails() called
        log_small += self._exponent
        if self.central.size:
            log_small[self.central] = np.log(small[self.central])
        return log_small, np.log1p(-small)

    def _lower(self, small: FloatArray, large: FloatArray) -> FloatArray:
        """Phi(x) (or its log) from the two tails: the small one where x <= 0; shaped like x."""
        return np.where(self.x > 0, large, small).reshape(self.shape)

    def cdf(self) -> FloatArray:
        """Phi(x) (eq. 4.114)."""
        return self._lower(*self.tails())

    def log_cdf(self) -> FloatArray:
        """ln Phi(x) without underflow (about -x^2/2 - ln(-x sqrt(2 pi)) for x -> -inf)."""
        return self._lower(*self.log_tails())

    def pair(self, log: bool = False) -> FloatArray:
        """(Phi(-x), Phi(x)) or their logs, shape (N, 2) for N points: the transpose of a (2, N) array."""
        small, large = self.log_tails() if log else self.tails()
        positive = self.x > 0  # there Phi(-x) is the small one
        out = np.empty((2, self.x.size))
        out[0] = np.where(positive, small, large)
        out[1] = np.where(positive, large, small)
        return out.T

    def pdf_over_cdf(self) -> tuple[FloatArray, FloatArray]:
        """lambda(x) = phi(x) / Phi(x) and the curvature lambda(x) (lambda(x) + x), shaped like x.

        These are the derivatives of ln Phi: d/dx ln Phi(x) = lambda(x) and
        -d^2/dx^2 ln Phi(x) = lambda(x) (lambda(x) + x), which lies in (0, 1). For x -> -inf,
        lambda(x) ~ -x and the curvature ~ 1 - 1/x^2; both are formed without cancelling terms.
        """
        # Infinities clipped (they are far points): 0 * inf must not occur below.
        x = np.copysign(self.y, self.x) if self.far.size else self.x
        lower = (x < -QUARTILE).nonzero()[0]
        ratio = np.empty(x.size)
        # Where Phi(x) >= 1/4 the quotient is direct; below, Phi(x) = exp(-x^2/2) r and the
        # exponentials cancel: lambda = 1/(sqrt(2 pi) r).
        small, large = self.tails()
        cdf = np.where(x > 0, large, small)
        cdf[lower] = 1.0  # not used there (and maybe 0)
        np.divide(self.gaussian(), cdf, out=ratio)
        ratio *= INV_SQRT_2PI
        ratio[lower] = 1.0 / (SQRT_2PI * self.ratio[lower])
        with _quiet_if(self.huge, over="ignore", invalid="ignore"):  # replaced below in the far lower tail
            curvature = ratio + x
            curvature *= ratio
        # Far in the lower tail r = (1/sqrt(2 pi) - R3/y^2)/y, so lambda/y = 1/(1 - sqrt(2 pi) R3/y^2)
        # and lambda (lambda - y) = (lambda/y)^2 sqrt(2 pi) R3: no difference of large numbers.
        if not self.far.size:
            return ratio.reshape(self.shape), curvature.reshape(self.shape)
        negative = x[self.far] < 0
        if not negative.any():  # the usual far point of a fit: well on its class's side
            return ratio.reshape(self.shape), curvature.reshape(self.shape)
        series = self.far_series[negative]
        scaled = 1.0 / (1.0 - SQRT_2PI * self.far_inv_square[negative] * series)
        curvature[self.far[negative]] = scaled * scaled * SQRT_2PI * series
        return ratio.reshape(self.shape), curvature.reshape(self.shape)


def normal_cdf_pair(x: ArrayLike, log: bool = False) -> FloatArray:
    """(Phi(-x), Phi(x)), or their logarithms, shape (N, 2) from x of shape (N,) (eq. 4.114).

    The probit model's posteriors (p(C_1|phi), p(C_2|phi)) for activations x. Each column keeps
    its relative precision (the small one is never formed as 1 - the large one); the rows
    sum to 1 up to rounding. Returns the transpose of a (2, N) array, like
    ``playground.base.two_class_proba``.
    """
    x = np.asarray(x, dtype=float).reshape(-1)
    return NormalCDF(x).pair(log=True) if log else _cdf_pair(x).T


def _cdf_pair(x: FloatArray) -> FloatArray:
    """(Phi(-x), Phi(x)) as a (2, N) array for flat x: the numbers of ``NormalCDF(x).pair()``,
    with less work for a grid of activations. exp(-y^2/2) is formed only in the two tail ranges
    (the central one takes 1/2 -+ x R1(x^2), with the sign of x), each range's tail probability
    Phi(-|x|) is written once, and the central range is written over the two columns last.
    The ranges are picked by boolean masks (no index arrays: fewer numpy calls per block)."""
    y = np.abs(x)
    np.minimum(y, LARGEST, out=y)
    central = y <= QUARTILE
    far = y > SQRT_32
    middle = central | far
    np.logical_not(middle, out=middle)
    y_middle = y[middle]
    y_far = y[far]
    # Phi(-|x|) in the two tail ranges, written over y (read above); its central entries are
    # left as they are: the central range is written over both columns last.
    tail = y
    if y_middle.size:
        value = y_middle * y_middle
        value *= -0.5
        np.exp(value, out=value)
        value *= _rational(y_middle, _C, _C8, _D)
        tail[middle] = value
    if y_far.size:
        inv_square = 1.0 / y_far
        inv_square *= inv_square  # underflows to 0 for y > 1e154: the series' limit
        value = inv_square * _rational(inv_square, _P, _P5, _Q)
        np.subtract(INV_SQRT_2PI, value, out=value)
        value /= y_far
        value *= _gaussian_factor(y_far)
        tail[far] = value
    out = np.empty((2, x.size))
    positive = x > 0  # there Phi(-x) is the tail
    np.subtract(1.0, tail, out=out[1])  # Phi(|x|), then swapped with the tail where x <= 0
    np.copyto(out[0], tail)
    np.logical_not(positive, out=positive)
    np.copyto(out[0], out[1], where=positive)
    np.copyto(out[1], tail, where=positive)
    x_central = x[central]
    if x_central.size:
        half = x_central * _rational(x_central * x_central, _A, _A4, _B)  # Phi(x) - 1/2
        out[1][central] = 0.5 + half
        out[0][central] = 0.5 - half
    return out


def normal_cdf(x: ArrayLike) -> FloatArray:
    """Phi(x) = integral_{-inf}^x N(t|0, 1) dt (eq. 4.114), elementwise, same shape as x."""
    return NormalCDF(x).cdf()


def log_normal_cdf(x: ArrayLike) -> FloatArray:
    """ln Phi(x) without underflow (about -x^2/2 - ln(-x sqrt(2 pi)) for x -> -inf), elementwise."""
    return NormalCDF(x).log_cdf()


def normal_pdf(x: ArrayLike) -> FloatArray:
    """N(x|0, 1) = exp(-x^2/2) / sqrt(2 pi), elementwise (0 where it underflows)."""
    x = np.asarray(x, dtype=float)
    return INV_SQRT_2PI * _gaussian_factor(np.abs(x))


def pdf_over_cdf(x: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """lambda(x) = phi(x) / Phi(x) and the curvature lambda(x) (lambda(x) + x), elementwise
    (see ``NormalCDF.pdf_over_cdf``).

    Returns
    -------
    ratio, curvature : ndarrays, same shape as x
    """
    return NormalCDF(x).pdf_over_cdf()
