r"""Hypothesis strategies for the papers' parameter domains, and the test profiles.

Property tests of a formula need inputs from the formula's domain, with the
edges included and with magnitudes that exercise the arithmetic without
leaving the range where the formula is meant to hold. This module collects
those domains once, so every test (ours and a user's) draws from the same
place:

* :func:`cosines` -- a cosine similarity :math:`\rho\in[-1,1]` (eq. (6) of
  ptft-relu-penalty);
* :func:`angles` -- an angle :math:`\theta\in[0,\pi]` between two weight
  vectors, :math:`\rho = \cos\theta`;
* :func:`positive_scales` -- a norm, variance or step size :math:`10^e` with
  the exponent e drawn from an interval, so that every decade is sampled;
* :func:`dimension_ratios` -- an aspect ratio :math:`\gamma = d/n` of a design,
  log-uniform as well;
* :func:`gaussian_designs` -- a design matrix with i.i.d. standard normal
  entries, drawn from a seed so that Hypothesis can shrink and replay it;
* :func:`omegas` -- a penalty :math:`\omega:\mathbb{R}\to\mathbb{R}` that is
  continuous, strictly quasi-convex and minimized at :math:`\omega(1) = 0`,
  the assumptions of Proposition 3 of adaptive-tangent-features; each is a
  :class:`QuasiConvexPenalty`, vectorized, picklable and with a repr that
  rebuilds it.

Every strategy shrinks towards a simple member of its domain: a cosine
towards 0, a scale and a ratio towards 1, a design towards seed 0 and the
smallest shape, a penalty towards :math:`\omega(v) = |v-1|` (the
:math:`\omega_2` of Figure 2 of adaptive-tangent-features).

:func:`register_profiles` registers the Hypothesis settings profiles used by
the test suite (``dev``, ``ci``, ``thorough``), so that a user's suite runs
under the same settings.

Example -- a user checks a formula of their own: the squared distance
:math:`\|w-w_0\|^2` between vectors of norms :math:`m, m_0` at cosine
:math:`\rho`, written as a sum of nonnegative terms (the law of cosines
rearranged so that nothing cancels), is symmetric (bitwise: IEEE products
commute), nonnegative, and below :math:`(m+m_0)^2` up to its roundings
(a sum of positive terms with at most 4 roundings each, against one
rounding of the bound: 4 eps covers both):

>>> import numpy as np
>>> from hypothesis import given
>>> from implicit_bias.strategies import cosines, positive_scales
>>> def squared_distance(m, m0, rho):
...     return (m - m0) ** 2 + 2.0 * m * m0 * (1.0 - rho)
>>> @given(m=positive_scales(-3, 3), m0=positive_scales(-3, 3), rho=cosines())
... def test_squared_distance(m, m0, rho):
...     distance = squared_distance(m, m0, rho)
...     assert distance == squared_distance(m0, m, rho)
...     assert 0.0 <= distance <= (m + m0) ** 2 * (1 + 4 * np.finfo(float).eps)
>>> test_squared_distance()

and that every admissible penalty of Proposition 3 is nonnegative:

>>> from implicit_bias.strategies import omegas
>>> @given(omega=omegas())
... def test_nonnegative(omega):
...     assert np.all(omega(np.linspace(-4.0, 6.0, 101)) >= 0.0)
>>> test_nonnegative()

References:
  Eq. (6) of ptft-relu-penalty; Proposition 3 of adaptive-tangent-features.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from datetime import timedelta

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.arguments import as_finite_array

try:
    from hypothesis import HealthCheck, settings
    from hypothesis import strategies as st
    from hypothesis.strategies import SearchStrategy
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "implicit_bias.strategies needs Hypothesis; install it with "
        "`pip install 'implicit-bias[dev]'` or `pip install hypothesis`"
    ) from error

__all__ = [
    "PROFILES",
    "QuasiConvexPenalty",
    "angles",
    "cosines",
    "dimension_ratios",
    "gaussian_designs",
    "omegas",
    "positive_scales",
    "register_profiles",
]

PROFILES = ("dev", "ci", "thorough")
"""Names of the Hypothesis profiles that :func:`register_profiles` registers."""

# Seeds of numpy's default_rng; 2**32 distinct designs per shape are plenty,
# and a small integer shrinks and prints well.
_MAX_SEED = 2**32 - 1


def register_profiles() -> tuple[str, ...]:
    """Register the Hypothesis settings profiles ``dev``, ``ci`` and ``thorough``.

    * ``dev`` -- quick feedback while editing (50 examples, 5 s deadline);
    * ``ci`` -- derandomized and bounded, so CI is reproducible (60 examples,
      no deadline, failure blobs printed for replay);
    * ``thorough`` -- 10^4 examples without deadline, for hunting bugs.

    Registering does not load a profile; load one with
    ``hypothesis.settings.load_profile(name)``, e.g. from the environment
    variable ``HYPOTHESIS_PROFILE`` in a ``conftest.py``.

    Returns:
      The registered names, :data:`PROFILES`.

    Examples:
      >>> from hypothesis import settings
      >>> register_profiles()
      ('dev', 'ci', 'thorough')
      >>> settings.get_profile("ci").derandomize
      True
    """
    settings.register_profile("dev", max_examples=50, deadline=timedelta(seconds=5))
    settings.register_profile(
        "ci",
        max_examples=60,
        derandomize=True,
        deadline=None,
        print_blob=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.register_profile("thorough", max_examples=10_000, deadline=None)
    return PROFILES


def _shown(value: object) -> str:
    """``value``'s repr for a message, shortened to 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_finite_interval(
    low_name: str, low: float, high_name: str, high: float
) -> None:
    for name, value in ((low_name, low), (high_name, high)):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InvalidArgumentError(f"{name}={value!r} is not a real number")
        if isinstance(value, int) and abs(value) > sys.float_info.max:
            raise InvalidArgumentError(
                f"{name}={_shown(value)} is beyond the float64 range: {name} "
                "must be a finite real number"
            )
        if not math.isfinite(value):
            raise InvalidArgumentError(
                f"{name}={value!r} is not finite: {name} must be a finite real number"
            )
    if low > high:
        raise InvalidArgumentError(
            f"{low_name}={low!r} exceeds {high_name}={high!r}: the interval is empty"
        )


_NORMAL_POWERS = "the exponents must keep 10**e a normal float64"
# omegas' exponents: below 0.01, |v-1|^p is nearly flat in float64 (between
# points h apart at distance d it changes by the factor (1 + h/d)^p, about
# 1 + p h/d, which rounding loses for p h/d below eps); above 16 it leaves the
# float64 range on moderate arguments.
_MIN_OMEGA_EXPONENT = 0.01
_MAX_OMEGA_EXPONENT = 16.0
_MODERATE_POWERS = (
    "the exponents of the power terms must be at least 0.01, so that omega is "
    "strictly monotone in float64 on each side of 1 (|v-1|^p with p -> 0 is flat "
    "to rounding), and at most 16, so that omega stays finite on moderate "
    "arguments"
)


def _check_within(
    name: str, value: float, low: float, high: float, meaning: str
) -> None:
    if not low <= value <= high:
        raise InvalidArgumentError(
            f"{name}={value!r} is outside [{low:g}, {high:g}]: {meaning}"
        )


def _check_flag(name: str, value: object) -> None:
    if not isinstance(value, bool | np.bool_):
        raise InvalidArgumentError(f"{name}={value!r} is not a bool (True or False)")


def cosines() -> SearchStrategy[float]:
    r"""Cosine similarities :math:`\rho \in [-1, 1]`, endpoints included.

    Eq. (6) of ptft-relu-penalty: :math:`\rho_h` is the cosine between the
    pretrained and the finetuned hidden weights of a unit.

    Returns:
      A strategy of floats in ``[-1, 1]`` (no NaN), shrinking towards 0.

    Examples:
      >>> from hypothesis import given
      >>> @given(cosines())
      ... def test_domain(rho):
      ...     assert -1.0 <= rho <= 1.0
      >>> test_domain()
    """
    return st.floats(min_value=-1.0, max_value=1.0, allow_nan=False)


def angles() -> SearchStrategy[float]:
    r"""Angles :math:`\theta \in [0, \pi]` between two vectors, endpoints included.

    The angle of a cosine similarity, :math:`\rho = \cos\theta`; the upper
    endpoint is the float64 nearest to :math:`\pi` (just below it).

    Returns:
      A strategy of floats in ``[0, math.pi]``, shrinking towards 0.

    Examples:
      >>> from hypothesis import given
      >>> @given(angles())
      ... def test_cosine_is_a_cosine(theta):
      ...     assert -1.0 <= np.cos(theta) <= 1.0
      >>> test_cosine_is_a_cosine()
    """
    return st.floats(min_value=0.0, max_value=math.pi, allow_nan=False)


def _power_of_ten(exponent: float, low: float, high: float) -> float:
    """``10**exponent`` clipped to ``[low, high]``, without an OverflowError.

    The exponents are drawn between logarithms of the bounds, rounded, so the
    power may land just outside ``[low, high]`` (hence the clip); where
    ``high`` lies within that rounding of the float64 maximum, the power may
    exceed float64, and Python's float power raises OverflowError instead of
    returning inf. The clip's answer there is ``high``, returned directly.
    """
    try:
        value = 10.0**exponent
    except OverflowError:
        return high
    return min(max(value, low), high)


def _log_uniform(
    min_exponent: float, max_exponent: float, low: float, high: float
) -> SearchStrategy[float]:
    """Floats ``10**e`` in ``[low, high]``, e uniform in the exponents' interval."""
    return st.floats(min_value=min_exponent, max_value=max_exponent).map(
        lambda exponent: _power_of_ten(exponent, low, high)
    )


def positive_scales(
    min_exponent: float = -3.0, max_exponent: float = 3.0
) -> SearchStrategy[float]:
    r"""Positive magnitudes :math:`s = 10^e` with :math:`e` in an interval.

    .. math:: s = 10^{e},\qquad e \in [e_{\min}, e_{\max}]

    Norms (:math:`m_{0h}`), variances, initialization scales and step sizes
    matter by their order of magnitude; drawing the exponent samples every
    decade alike, where a uniform draw would almost never produce small
    values. Let :math:`e_{\min}` be ``min_exponent`` and :math:`e_{\max}` be
    ``max_exponent``.

    Args:
      min_exponent: the smallest decimal exponent, finite.
      max_exponent: the largest decimal exponent, finite, ``>= min_exponent``.

    Returns:
      A strategy of floats in :math:`[10^{e_{\min}}, 10^{e_{\max}}]`, shrinking
      towards 1 when the interval contains 0.

    Raises:
      InvalidArgumentError: an exponent is not a finite real number, the
        interval is empty, or its ends under- or overflow float64.

    Examples:
      >>> from hypothesis import given
      >>> @given(positive_scales(-2, 2))
      ... def test_domain(scale):
      ...     assert 1e-2 <= scale <= 1e2
      >>> test_domain()
    """
    _check_finite_interval("min_exponent", min_exponent, "max_exponent", max_exponent)
    _check_within("min_exponent", min_exponent, -300.0, 300.0, _NORMAL_POWERS)
    _check_within("max_exponent", max_exponent, -300.0, 300.0, _NORMAL_POWERS)
    low, high = float(min_exponent), float(max_exponent)
    return _log_uniform(low, high, 10.0**low, 10.0**high)


def dimension_ratios(
    min_value: float = 0.1, max_value: float = 10.0
) -> SearchStrategy[float]:
    r"""Aspect ratios :math:`\gamma = d/n` of a design, log-uniform in an interval.

    .. math:: \gamma = d/n \in [\gamma_{\min}, \gamma_{\max}]

    Under- (:math:`\gamma < 1`) and overparameterized (:math:`\gamma > 1`)
    regimes are equally likely when the interval is symmetric in
    :math:`\log\gamma`; the interpolation threshold :math:`\gamma = 1`, where
    ridgeless risks diverge, is a possible draw (and the shrink target), so a
    test of such a risk should exclude it with ``.filter``.

    Args:
      min_value: the smallest ratio, ``> 0``; any positive float64, subnormal
        ones included.
      max_value: the largest ratio, ``>= min_value``, up to the float64
        maximum (drawn as itself where its power of ten rounds beyond it).

    Returns:
      A strategy of floats in ``[min_value, max_value]``.

    Raises:
      InvalidArgumentError: a bound is not a finite positive number, or the
        interval is empty.

    Examples:
      >>> from hypothesis import given
      >>> @given(dimension_ratios(0.5, 4.0))
      ... def test_domain(gamma):
      ...     assert 0.5 <= gamma <= 4.0
      >>> test_domain()
    """
    _check_finite_interval("min_value", min_value, "max_value", max_value)
    if min_value <= 0:
        raise InvalidArgumentError(
            f"min_value={min_value!r} is not positive: gamma = d/n is > 0"
        )
    low, high = float(min_value), float(max_value)
    return _log_uniform(math.log10(low), math.log10(high), low, high)


def _sizes(name: str, size: int | SearchStrategy[int]) -> SearchStrategy[int]:
    if isinstance(size, SearchStrategy):
        return size
    if isinstance(size, bool) or not isinstance(size, int | np.integer):
        raise InvalidArgumentError(
            f"{name}={size!r} is neither an integer nor a Hypothesis strategy"
        )
    if size < 1:
        raise InvalidArgumentError(
            f"{name}={size!r} is below 1: {name} counts rows or columns"
        )
    return st.just(int(size))


def gaussian_designs(
    n: int | SearchStrategy[int], d: int | SearchStrategy[int]
) -> SearchStrategy[NDArray[np.float64]]:
    r"""Design matrices :math:`X \in \mathbb{R}^{n\times d}` with i.i.d. N(0,1) entries.

    .. math:: X_{ij} \overset{\text{iid}}{\sim} \mathcal N(0, 1)

    The entries come from ``numpy.random.default_rng(seed)`` with the seed
    drawn by Hypothesis, so a failing design shrinks (towards seed 0 and the
    smallest shape) and replays exactly. Rescale in the test where a paper
    normalizes differently (e.g. ``X / np.sqrt(d)``).

    Args:
      n: the number of rows (samples), an integer ``>= 1`` or a strategy of them.
      d: the number of columns (features), an integer ``>= 1`` or a strategy.

    Returns:
      A strategy of float64 arrays of shape ``(n, d)``.

    Raises:
      InvalidArgumentError: ``n`` or ``d`` is an integer below 1, or neither an
        integer nor a strategy.

    Examples:
      >>> from hypothesis import given
      >>> from hypothesis import strategies as st
      >>> @given(gaussian_designs(st.integers(1, 5), 3))
      ... def test_gram_is_positive_semidefinite(x):
      ...     assert x.shape[1] == 3
      ...     assert np.linalg.eigvalsh(x.T @ x).min() >= -1e-12 * np.sum(x**2)
      >>> test_gram_is_positive_semidefinite()
    """
    rows, columns = _sizes("n", n), _sizes("d", d)
    seeds = st.integers(min_value=0, max_value=_MAX_SEED)

    @st.composite
    def designs(draw: st.DrawFn) -> NDArray[np.float64]:
        shape = (draw(rows), draw(columns))
        if shape[0] < 1 or shape[1] < 1:
            raise InvalidArgumentError(
                f"the drawn shape {shape} has an axis below 1: the strategies "
                "for n and d must draw integers >= 1"
            )
        generator = np.random.default_rng(draw(seeds))
        return generator.standard_normal(shape)

    return designs()


# The domain of QuasiConvexPenalty: with every coefficient at most 1e100 and
# every exponent at most 100, each term is at most 1e100 * 100**100 = 1e300 for
# |v-1| <= 100, so omega is finite there (and d**p never overflows there).
_MAX_COEFFICIENT = 1e100
_MAX_EXPONENT = 100.0
_FINITE_RANGE = "and keep omega finite for |v-1| <= 100"
_TINY = float(np.finfo(np.float64).tiny)
_HUGE = float(np.finfo(np.float64).max)


def _real_field(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        raise InvalidArgumentError(
            f"{name}={value!r} is not a real number: the penalty's coefficients "
            "and exponents are real"
        )
    try:
        return float(value)
    except OverflowError as error:
        raise InvalidArgumentError(
            f"{name}={_shown(value)} is beyond the float64 range: the penalty's "
            "coefficients and exponents are float64 numbers"
        ) from error


def _check_field(
    name: str, value: object, high: float, *, positive: bool, meaning: str
) -> None:
    number = _real_field(name, value)
    inside = 0.0 < number <= high if positive else 0.0 <= number <= high
    if not inside:
        interval = f"(0, {high:g}]" if positive else f"[0, {high:g}]"
        raise InvalidArgumentError(
            f"{name}={number!r} is outside {interval}: {meaning}"
        )


def _scaled_power(
    coefficient: float, distance: NDArray[np.float64], exponent: float
) -> NDArray[np.float64]:
    r"""The term :math:`c\,d^p`, :math:`d \ge 0`, without a spurious over- or underflow.

    :math:`d^p` alone may leave the float64 range where :math:`c\,d^p` does
    not: :math:`c = 10^{100}, d = 10^{-4}, p = 100` underflows :math:`d^p` to
    0 for :math:`c\,d^p = 10^{-300}`, and a coefficient below 1 brings an
    overflowing :math:`d^p` back into range. There (``d**p`` zero, subnormal
    or inf for :math:`d > 0`) the product is :math:`\exp(\log c + p\log d)`,
    with a relative error of about :math:`(|\log c| + 2|p\log d|)\,\epsilon`,
    below :math:`10^{-12}` wherever the result is a normal float64; elsewhere
    it is the plain product, within an ulp or two.
    """
    if coefficient == 0.0:
        return np.zeros_like(distance)
    with np.errstate(over="ignore", under="ignore"):
        power = distance**exponent
        product = coefficient * power
        unscaled = (distance > 0.0) & ~((power >= _TINY) & (power <= _HUGE))
        if unscaled.any():
            product[unscaled] = np.exp(
                math.log(coefficient) + exponent * np.log(distance[unscaled])
            )
    return np.asarray(product, dtype=np.float64)


@dataclass(frozen=True)
class QuasiConvexPenalty:
    r"""A continuous, strictly quasi-convex penalty minimized at :math:`\omega(1) = 0`.

    .. math:: \omega(v) = \begin{cases} c_L |v-1|^{p_L} & v < 1\\
              c_R |v-1|^{p_R} & v \ge 1\end{cases}
              \;+\; a\,(v-1)^2 \;+\; b\,\bigl(1 - e^{-(v-1)^2}\bigr)

    Proposition 3 of adaptive-tangent-features assumes :math:`\omega`
    continuous, strictly quasi-convex and minimized at :math:`\omega(1)=0`.
    Each of the terms is zero at 1, nonincreasing on :math:`(-\infty, 1]`
    and nondecreasing on :math:`[1, \infty)`, and the first is strictly
    monotone on both sides (:math:`c_L, c_R > 0`), so the sum is strictly
    decreasing then strictly increasing: strictly quasi-convex with its
    unique minimum 0 at 1. The power terms with :math:`p \ge 1` and the
    quadratic are convex; the saturating term :math:`b(1-e^{-(v-1)^2})` is
    not, so a penalty with :math:`b > 0` is quasi-convex without being
    convex (the case the proposition covers beyond convexity).

    Let :math:`c_L, p_L, c_R, p_R, a, b` be ``left_coefficient``,
    ``left_exponent``, ``right_coefficient``, ``right_exponent``,
    ``quadratic_coefficient`` and ``saturating_coefficient``.

    Domain: :math:`c_L, c_R \in (0, 10^{100}]`, :math:`p_L, p_R \in (0, 100]`
    and :math:`a, b \in [0, 10^{100}]`. Each term is then at most
    :math:`10^{100}\cdot 100^{100} = 10^{300}` for :math:`|v-1| \le 100`, so
    :math:`\omega` is finite there, whatever the combination.

    Calling it evaluates :math:`\omega` elementwise at finite real ``v``,
    returning a float64 array of ``v``'s shape. Where :math:`\omega(v)` is
    beyond the float64 range (only for :math:`|v-1| > 100`) the value is
    ``inf``, a penalty larger than every float, without a warning, as for a
    :class:`~implicit_bias.numerics.tangent_features.Penalty`. No term is
    lost to an intermediate over- or underflow: where :math:`|v-1|^p` alone
    leaves the float64 range, :math:`c|v-1|^p` is computed as
    :math:`\exp(\log c + p\log|v-1|)` (relative error below
    :math:`10^{-12}`). The repr rebuilds the penalty; ``str`` shows the
    formula.

    Raises:
      InvalidArgumentError: a coefficient or exponent of the power terms, or
        a or b, is not a real number in its interval above; or, when called,
        ``v`` is not a finite real number or array of them.

    Examples:
      The :math:`\omega_1(v) = (v-1)^2` of Figure 2 of adaptive-tangent-features:

      >>> omega_1 = QuasiConvexPenalty(1.0, 2.0, 1.0, 2.0)
      >>> omega_1(np.array([0.0, 1.0, 3.0])).tolist()
      [1.0, 0.0, 4.0]

    References:
      Proposition 3 and Figure 2 of adaptive-tangent-features.
    """

    left_coefficient: float
    left_exponent: float
    right_coefficient: float
    right_exponent: float
    quadratic_coefficient: float = 0.0
    saturating_coefficient: float = 0.0

    def __post_init__(self) -> None:
        monotone = "the power terms must be strictly monotone on each side of 1"
        for side in ("left", "right"):
            _check_field(
                f"{side}_coefficient",
                getattr(self, f"{side}_coefficient"),
                _MAX_COEFFICIENT,
                positive=True,
                meaning=f"{monotone} {_FINITE_RANGE}",
            )
            _check_field(
                f"{side}_exponent",
                getattr(self, f"{side}_exponent"),
                _MAX_EXPONENT,
                positive=True,
                meaning=f"{monotone} {_FINITE_RANGE}",
            )
        for name in ("quadratic_coefficient", "saturating_coefficient"):
            _check_field(
                name,
                getattr(self, name),
                _MAX_COEFFICIENT,
                positive=False,
                meaning=f"the optional terms must not decrease away from 1 "
                f"{_FINITE_RANGE}",
            )

    def __call__(self, v: ArrayLike) -> NDArray[np.float64]:
        r""":math:`\omega(v)`, float64 of v's shape, at any finite real array-like v.

        Where :math:`\omega(v)` is beyond the float64 range it returns inf.
        """
        points = as_finite_array("v", v)
        deviation = points.ravel() - 1.0
        distance = np.abs(deviation)
        left = deviation < 0.0
        power = np.empty_like(distance)
        power[left] = _scaled_power(
            float(self.left_coefficient), distance[left], float(self.left_exponent)
        )
        power[~left] = _scaled_power(
            float(self.right_coefficient),
            distance[~left],
            float(self.right_exponent),
        )
        quadratic = _scaled_power(float(self.quadratic_coefficient), distance, 2.0)
        # Nonnegative terms: a sum beyond float64 is inf, the documented value.
        # expm1 avoids the cancellation of 1 - exp(-d^2) for small d, and d^2
        # does not underflow (d is 0 or at least 2^-53, the spacing of floats
        # below 1); where it overflows, expm1(-inf) = -1 is the limit.
        with np.errstate(over="ignore"):
            saturating = -float(self.saturating_coefficient) * np.expm1(
                -(distance * distance)
            )
            values = power + quadratic + saturating
        return values.reshape(points.shape)

    def __str__(self) -> str:
        terms = [
            f"{self.left_coefficient:.6g}*|v-1|^{self.left_exponent:.6g} [v<1]",
            f"{self.right_coefficient:.6g}*|v-1|^{self.right_exponent:.6g} [v>=1]",
        ]
        if self.quadratic_coefficient:
            terms.append(f"{self.quadratic_coefficient:.6g}*(v-1)^2")
        if self.saturating_coefficient:
            terms.append(f"{self.saturating_coefficient:.6g}*(1-exp(-(v-1)^2))")
        return "omega(v) = " + " + ".join(terms)


def omegas(
    *,
    min_exponent: float = 1.0,
    max_exponent: float = 4.0,
    optional_terms: bool = True,
    convex: bool = False,
) -> SearchStrategy[QuasiConvexPenalty]:
    r"""Penalties :math:`\omega` meeting the assumptions of Proposition 3.

    Draws a :class:`QuasiConvexPenalty`: an asymmetric power
    :math:`c_L|v-1|^{p_L}` left of 1 and :math:`c_R|v-1|^{p_R}` right of it,
    with coefficients in :math:`[10^{-1}, 10]` and exponents in
    ``[min_exponent, max_exponent]``, plus (when ``optional_terms``) a convex
    quadratic :math:`a(v-1)^2` and a saturating, non-convex
    :math:`b(1-e^{-(v-1)^2})`, each either absent or with a coefficient in
    :math:`[10^{-2}, 10]`. Every draw is continuous, strictly quasi-convex
    and minimized at :math:`\omega(1) = 0` (see :class:`QuasiConvexPenalty`);
    with ``convex=True`` every draw is also convex (no saturating term, and
    exponents of at least 1).

    Shrinks towards :math:`\omega(v) = |v-1|` (with the default exponents).

    Args:
      min_exponent: the smallest exponent :math:`p`, at least 0.01; below 1
        the power term is quasi-convex but not convex. Between points
        :math:`h` apart at distance :math:`d` from 1, :math:`|v-1|^p` changes
        by the factor :math:`(1+h/d)^p \approx 1 + p\,h/d`: with
        :math:`p \ge 0.01` and :math:`h/d \ge 10^{-12}` that is more than 40
        ulps, so every draw is strictly monotone in float64 on such grids,
        where a smaller :math:`p` (down to ``5e-324``) would draw penalties
        that are flat to rounding.
      max_exponent: the largest exponent, ``>= min_exponent``, at most 16 so
        that :math:`\omega` stays finite on moderate arguments.
      optional_terms: whether to add the quadratic and saturating terms.
      convex: draw convex penalties only (``min_exponent`` must be ``>= 1``).

    Returns:
      A strategy of :class:`QuasiConvexPenalty` (vectorized, picklable).

    Raises:
      InvalidArgumentError: the exponent interval is empty or outside
        ``[0.01, 16]``,
        ``convex`` is asked for with ``min_exponent < 1``, or a flag is not a
        bool.

    Examples:
      >>> from hypothesis import given
      >>> @given(omegas())
      ... def test_minimum(omega):
      ...     assert omega(1.0) == 0.0 and omega(0.5) > 0.0 and omega(2.0) > 0.0
      >>> test_minimum()

    References:
      Proposition 3 of adaptive-tangent-features.
    """
    _check_finite_interval("min_exponent", min_exponent, "max_exponent", max_exponent)
    for name, value in (("min_exponent", min_exponent), ("max_exponent", max_exponent)):
        _check_within(
            name, value, _MIN_OMEGA_EXPONENT, _MAX_OMEGA_EXPONENT, _MODERATE_POWERS
        )
    _check_flag("optional_terms", optional_terms)
    _check_flag("convex", convex)
    if convex and min_exponent < 1.0:
        raise InvalidArgumentError(
            f"min_exponent={min_exponent!r} is below 1 with convex=True: "
            "c|v-1|^p is convex only for p >= 1"
        )
    coefficients = positive_scales(-1.0, 1.0)
    exponents = st.floats(min_value=float(min_exponent), max_value=float(max_exponent))
    optional = (
        st.one_of(st.just(0.0), positive_scales(-2.0, 1.0))
        if optional_terms
        else st.just(0.0)
    )
    saturating = st.just(0.0) if convex else optional
    return st.builds(
        QuasiConvexPenalty,
        left_coefficient=coefficients,
        left_exponent=exponents,
        right_coefficient=coefficients,
        right_exponent=exponents,
        quadratic_coefficient=optional,
        saturating_coefficient=saturating,
    )
