r"""Samplers: how a numeric check draws a point of a symbol's domain.

When SymPy cannot decide a relation, :func:`~implicit_bias.claims.check_identity`
and :func:`~implicit_bias.claims.check_inequality` evaluate it at random points,
and a point where it fails is certified in exact ball arithmetic. A *sampler*
draws one coordinate of such a point: a function of a NumPy ``Generator``,
deterministic given the generator's state, returning

* a Python ``int`` for an integer domain -- exact, so a counterexample at an
  integer step count is certified at that integer, and what has a meaning only
  at integers, such as :math:`(-1)^t`, is evaluated there;
* an mpmath ``mpf`` (a binary float, an exact rational) for a real domain;
* a ``sympy.Matrix`` of exact rationals for a matrix domain (the
  ``*_matrix`` builders), so that an identity between matrices can be checked
  exactly at the instance drawn.

By default a check draws each symbol from its SymPy assumptions
(:func:`from_assumptions`); ``samplers={symbol: ...}`` states a domain SymPy
cannot express, such as an interval :math:`0 < q < 1` (:func:`interval`).
These samplers are for the checks; :mod:`implicit_bias.strategies` holds the
Hypothesis strategies for property tests, over the same kinds of domain
(``positive_scales`` and :func:`positive` are both log-uniform).

Examples:
  >>> import numpy as np
  >>> import sympy as sp
  >>> rng = np.random.default_rng(0)
  >>> steps = from_assumptions(sp.Symbol("t", integer=True, nonnegative=True))
  >>> draws = [steps(rng) for _ in range(50)]
  >>> all(isinstance(t, int) and 0 <= t <= 100 for t in draws)
  True
  >>> q = interval(0, 1)(rng)
  >>> 0 < q < 1
  True
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Sequence
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from implicit_bias.claims.intervals import interval_of, within_interval
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "MatrixSampler",
    "Sampler",
    "from_assumptions",
    "gaussian_matrix",
    "integers",
    "interval",
    "log_uniform",
    "low_rank_matrix",
    "nonnegative",
    "orthogonal_matrix",
    "positive",
    "positive_definite_matrix",
    "symmetric_matrix",
]

#: One coordinate of a point: an exact int or a binary float.
Sampler = Callable[[np.random.Generator], int | mpmath.mpf]
#: A matrix instance with exact rational entries.
MatrixSampler = Callable[[np.random.Generator], sp.Matrix]

#: The integers :func:`from_assumptions` draws from: those in [-100, 100] that
#: satisfy the symbol's assumptions (small integers are where integer-only
#: statements most often break; 100 keeps powers such as 2**t cheap).
_INTEGER_BOUND = 100
#: The probability of each end of a closed interval, and of 0 in
#: :func:`nonnegative`: a density never draws a single point, and an end is
#: where a formula is most often singular or wrong.
_END_PROBABILITY = 0.1
#: Matrix entries are Gaussian draws rounded to multiples of 2**-20 (about
#: 6 digits): short exact rationals, so that products, determinants and the
#: Cayley transform stay cheap in exact arithmetic.
_GRID_BITS = 20
#: numpy's integers() draws spans up to the int64 range.
_MAX_SPAN = 2**63 - 1
#: Draws a sampler on a symbol's interval makes before giving up: a draw lands
#: outside only through rounding at an end (probability about 1e-16).
_INTERVAL_ATTEMPTS = 1000


def _integer(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidArgumentError(
            f"{name}={value!r} is not an integer: {name} bounds an integer domain"
        )
    return int(value)


def _finite(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name}={value!r} is not a real number")
    if not math.isfinite(float(value)):
        raise InvalidArgumentError(f"{name}={value!r} is not finite")
    return float(value)


def _dimension(name: str, value: object) -> int:
    size = _integer(name, value)
    if size < 1:
        raise InvalidArgumentError(
            f"{name}={value!r} is not >= 1: a matrix has at least one row and column"
        )
    return size


def _shape(shape: object) -> tuple[int, int]:
    if not (isinstance(shape, Sequence) and len(shape) == 2):
        raise InvalidArgumentError(
            f"shape={shape!r} is not a pair (rows, columns) of integers >= 1"
        )
    return _dimension("shape[0]", shape[0]), _dimension("shape[1]", shape[1])


def integers(min_value: int, max_value: int) -> Sampler:
    r"""Integers drawn uniformly from :math:`\{a, a+1, \dots, b\}`, as Python ints.

    Let :math:`a` be ``min_value`` and :math:`b` be ``max_value``. Step counts,
    widths and depths are integers; a statement about them may hold at every
    integer and fail between (:math:`\cos 2\pi t = 1`), so drawing reals would
    refute it wrongly, and one false at an integer would be missed.

    Args:
      min_value: the smallest integer, :math:`a`.
      max_value: the largest integer, :math:`b \ge a`, with :math:`b - a < 2^{63}`.

    Returns:
      A sampler of ``int`` in ``[min_value, max_value]``.

    Raises:
      InvalidArgumentError: a bound is not an integer, or the range is empty
        or wider than :math:`2^{63} - 1`.

    Examples:
      >>> rng = np.random.default_rng(1)
      >>> draws = {integers(-2, 2)(rng) for _ in range(100)}
      >>> draws == {-2, -1, 0, 1, 2}
      True
    """
    low, high = _integer("min_value", min_value), _integer("max_value", max_value)
    if high < low:
        raise InvalidArgumentError(
            f"max_value={max_value!r} is below min_value={min_value!r}: "
            "the range is empty"
        )
    if high - low > _MAX_SPAN:
        raise InvalidArgumentError(
            f"max_value - min_value = {high - low} exceeds 2**63 - 1, the widest "
            "range numpy draws from"
        )

    def sample(rng: np.random.Generator) -> int:
        return low + int(rng.integers(0, high - low, endpoint=True))

    return sample


def interval(min_value: float, max_value: float, *, closed: bool = False) -> Sampler:
    r"""Reals drawn uniformly from :math:`(a, b)`, or from :math:`[a, b]` with
    each end drawn with probability 1/10.

    .. math:: x \sim U(a, b)

    Let :math:`a` be ``min_value`` and :math:`b` be ``max_value``. SymPy
    symbols carry signs but no bounds: a statement about :math:`0 < q < 1`
    gives ``samplers={q: interval(0, 1)}`` to its check. A density never
    draws an end, so ``closed=True`` draws each end as a point of its own:
    the domain's edges are checked too.

    Args:
      min_value: the lower end :math:`a`, finite.
      max_value: the upper end :math:`b > a`, finite.
      closed: whether the ends belong to the domain and are drawn.

    Returns:
      A sampler of mpmath ``mpf`` strictly inside the interval, or, if
      ``closed``, in it with both ends among the draws.

    Raises:
      InvalidArgumentError: an end is not a finite real, or
        ``max_value <= min_value``.

    Examples:
      >>> rng = np.random.default_rng(2)
      >>> inside = [interval(0, 1)(rng) for _ in range(200)]
      >>> all(0 < q < 1 for q in inside)
      True
      >>> ends = [interval(0, 1, closed=True)(rng) for _ in range(200)]
      >>> {0, 1} <= set(ends) and all(0 <= q <= 1 for q in ends)
      True
    """
    low, high = _finite("min_value", min_value), _finite("max_value", max_value)
    if high <= low:
        raise InvalidArgumentError(
            f"max_value={max_value!r} is not above min_value={min_value!r}: "
            "the interval is empty or a point"
        )

    def sample(rng: np.random.Generator) -> mpmath.mpf:
        if closed:
            end = rng.random()
            if end < _END_PROBABILITY:
                return mpmath.mpf(low)
            if end < 2 * _END_PROBABILITY:
                return mpmath.mpf(high)
        value = rng.uniform(low, high)
        # uniform() draws [low, high) and may round up to high: an open
        # interval's ends are redrawn (probability ~1e-16 each).
        while not low < value < high:
            value = rng.uniform(low, high)
        return mpmath.mpf(value)

    return sample


def log_uniform(min_value: float, max_value: float, *, signed: bool = False) -> Sampler:
    r"""Reals :math:`10^{U(\log_{10} a,\, \log_{10} b)}`, with a random sign if
    ``signed``.

    .. math:: \log_{10} x \sim U(\log_{10} a, \log_{10} b)

    Let :math:`a` be ``min_value`` and :math:`b` be ``max_value``. Scales,
    variances and step sizes matter by their order of magnitude: every decade
    is drawn alike, where a uniform draw on :math:`[10^{-3}, 10^3]` would
    almost never fall below 1.

    Args:
      min_value: the smallest magnitude :math:`a > 0`, finite.
      max_value: the largest magnitude :math:`b \ge a`, finite.
      signed: whether to negate half of the draws.

    Returns:
      A sampler of mpmath ``mpf`` with magnitude in ``[min_value, max_value]``.

    Raises:
      InvalidArgumentError: a bound is not a finite real, ``min_value <= 0``,
        or ``max_value < min_value``.

    Examples:
      >>> rng = np.random.default_rng(3)
      >>> draws = [log_uniform(1e-2, 1e2)(rng) for _ in range(400)]
      >>> all(1e-2 <= x <= 1e2 for x in draws), sum(x < 1 for x in draws) > 100
      (True, True)
    """
    low, high = _finite("min_value", min_value), _finite("max_value", max_value)
    if low <= 0:
        raise InvalidArgumentError(
            f"min_value={min_value!r} is not positive: a log-uniform magnitude is > 0"
        )
    if high < low:
        raise InvalidArgumentError(
            f"max_value={max_value!r} is below min_value={min_value!r}: "
            "the range is empty"
        )

    def sample(rng: np.random.Generator) -> mpmath.mpf:
        value = mpmath.mpf(10) ** mpmath.mpf(rng.uniform(np.log10(low), np.log10(high)))
        # The clip keeps the rounding of the power inside the advertised bounds.
        value = min(max(value, mpmath.mpf(low)), mpmath.mpf(high))
        return -value if signed and rng.random() < 0.5 else value

    return sample


def positive(min_value: float = 1e-3, max_value: float = 1e3) -> Sampler:
    r"""Positive reals, log-uniform on :math:`[a, b]` (:func:`log_uniform`).

    The default of :func:`from_assumptions` for a ``positive`` (and a
    ``nonnegative``) real symbol: six decades around 1.

    Args:
      min_value: the smallest value :math:`a > 0`.
      max_value: the largest value :math:`b \ge a`.

    Returns:
      A sampler of mpmath ``mpf`` in ``[min_value, max_value]``.

    Raises:
      InvalidArgumentError: as :func:`log_uniform`.

    Examples:
      >>> rng = np.random.default_rng(4)
      >>> all(1e-3 <= positive()(rng) <= 1e3 for _ in range(100))
      True
    """
    return log_uniform(min_value, max_value)


def nonnegative(max_value: float = 1e3, *, min_positive: float = 1e-3) -> Sampler:
    r"""Nonnegative reals: 0 with probability 1/10, else log-uniform on
    :math:`[m, b]`.

    Let :math:`m` be ``min_positive`` and :math:`b` be ``max_value``. A
    density never draws 0, where norms vanish and formulas such as
    :math:`x \log x` hold only as limits; this sampler draws it, to check a
    statement there too. :func:`from_assumptions` does not: a
    ``nonnegative`` symbol is drawn by :func:`positive`, from the interior.

    Args:
      max_value: the largest value :math:`b \ge m`.
      min_positive: the smallest positive value :math:`m > 0`.

    Returns:
      A sampler of mpmath ``mpf``: 0, or a value in ``[min_positive, max_value]``.

    Raises:
      InvalidArgumentError: a bound is not a finite real, ``min_positive <= 0``,
        or ``max_value < min_positive``.

    Examples:
      >>> rng = np.random.default_rng(5)
      >>> draws = [nonnegative(10.0)(rng) for _ in range(100)]
      >>> 0 in draws and all(x == 0 or 1e-3 <= x <= 10 for x in draws)
      True
    """
    low = _finite("min_positive", min_positive)
    if low <= 0:
        raise InvalidArgumentError(
            f"min_positive={min_positive!r} is not positive: it is the smallest "
            "positive value drawn"
        )
    if _finite("max_value", max_value) < low:
        raise InvalidArgumentError(
            f"max_value={max_value!r} is below min_positive={min_positive!r}: "
            "the range is empty"
        )
    magnitudes = log_uniform(min_positive, max_value)

    def sample(rng: np.random.Generator) -> mpmath.mpf:
        if rng.random() < _END_PROBABILITY:
            return mpmath.mpf(0)
        return magnitudes(rng)

    return sample


def _choice(candidates: Sequence[int]) -> Sampler:
    def sample(rng: np.random.Generator) -> int:
        return candidates[int(rng.integers(len(candidates)))]

    return sample


def _negated(sampler: Sampler) -> Sampler:
    def sample(rng: np.random.Generator) -> int | mpmath.mpf:
        return -sampler(rng)

    return sample


def from_assumptions(symbol: sp.Symbol) -> Sampler:
    r"""The sampler a check uses for ``symbol`` by default, from its SymPy
    assumptions.

    * ``integer`` (and what implies it: ``even``, ``odd``, ``prime``,
      ``zero``...): uniform over the integers in :math:`[-100, 100]` that
      satisfy *every* assumption of the symbol, as Python ints -- so
      ``integer=True, positive=True`` draws :math:`1, \dots, 100` and
      ``odd=True, negative=True`` draws :math:`-99, -97, \dots, -1`;
    * ``positive`` or ``nonnegative`` real: :func:`positive`, log-uniform on
      :math:`[10^{-3}, 10^3]` (a density: 0 is not drawn, see
      :func:`nonnegative`);
    * ``negative`` or ``nonpositive`` real: the negatives of those;
    * any other real (or a symbol with no assumptions): log-uniform magnitude
      on :math:`[10^{-3}, 10^3]` with a random sign;
    * a symbol on an interval :math:`(a, b)`
      (:func:`~implicit_bias.claims.intervals.bounded`) is drawn strictly
      inside it, exactly: uniformly (:func:`interval`) when both ends are
      finite, :math:`a + x` or :math:`b - x` with :math:`x` drawn by
      :func:`positive` when one is infinite; an ``integer`` one from the
      integers of the interval that satisfy its assumptions, at most 100 on
      either side of the one nearest 0.

    Args:
      symbol: a SymPy ``Symbol`` that is real or may be.

    Returns:
      A :data:`Sampler`.

    Raises:
      InvalidArgumentError: ``symbol`` is not a ``Symbol``, is known not to be
        real (``imaginary=True``: the checks evaluate real points), or no
        integer in :math:`[-100, 100]` satisfies its assumptions.

    Examples:
      >>> rng = np.random.default_rng(6)
      >>> width = from_assumptions(sp.Symbol("m", integer=True, positive=True))
      >>> draws = [width(rng) for _ in range(200)]
      >>> all(type(m) is int and 1 <= m <= 100 for m in draws)
      True
      >>> odd = from_assumptions(sp.Symbol("k", odd=True))
      >>> all(odd(rng) % 2 == 1 for _ in range(50))
      True
      >>> from_assumptions(sp.Symbol("s", negative=True))(rng) < 0
      True
      >>> from implicit_bias.claims.intervals import bounded
      >>> share = from_assumptions(bounded(sp.Symbol("q", positive=True), 0, 1))
      >>> all(0 < share(rng) < 1 for _ in range(200))
      True
    """
    if not isinstance(symbol, sp.Symbol):
        raise InvalidArgumentError(
            f"symbol={symbol!r} is not a SymPy Symbol: samplers draw a symbol's value"
        )
    if symbol.is_real is False:
        raise InvalidArgumentError(
            f"symbol={symbol!r} is not real: the numeric checks evaluate real points"
        )
    bounds = interval_of(symbol)
    if symbol.is_integer:
        facts = symbol.assumptions0
        low, high = _integer_window(bounds)
        # SymPy decides every assumption of an Integer, by the rules it uses
        # for the symbol: keeping the integers that agree honours them all.
        candidates = [
            k
            for k in range(low, high + 1)
            if all(
                getattr(sp.Integer(k), f"is_{fact}") == value
                for fact, value in facts.items()
            )
        ]
        if not candidates:
            raise InvalidArgumentError(
                f"symbol={symbol!r}: no integer in [{low}, {high}] satisfies its "
                "assumptions; pass a sampler"
            )
        return _choice(candidates)
    if bounds is not None:
        return _inside(symbol, *bounds)
    if symbol.is_nonnegative:
        return positive()
    if symbol.is_nonpositive:
        return _negated(positive())
    return log_uniform(1e-3, 1e3, signed=True)


def _integer_window(bounds: tuple[sp.Expr, sp.Expr] | None) -> tuple[int, int]:
    """The integers an integer symbol is drawn from: those of its interval (all
    of them if it has none) at most :data:`_INTEGER_BOUND` from the one nearest 0."""
    low, high = -_INTEGER_BOUND, _INTEGER_BOUND
    if bounds is None:
        return low, high
    lower, upper = bounds
    first = None if lower == -sp.oo else int(sp.floor(lower)) + 1
    last = None if upper == sp.oo else int(sp.ceiling(upper)) - 1
    centre = 0
    if first is not None and first > 0:
        centre = first
    if last is not None and last < 0:
        centre = last
    low, high = centre - _INTEGER_BOUND, centre + _INTEGER_BOUND
    return (
        low if first is None else max(low, first),
        high if last is None else min(high, last),
    )


def _inside(symbol: sp.Symbol, lower: sp.Expr, upper: sp.Expr) -> Sampler:
    """Reals strictly inside ``(lower, upper)``, the interval of ``symbol``."""
    if lower.is_finite and upper.is_finite:
        draw = interval(float(lower), float(upper))
    elif lower.is_finite:
        above, start = positive(), mpmath.mpf(float(lower))

        def draw(rng: np.random.Generator) -> mpmath.mpf:
            return start + above(rng)
    elif upper.is_finite:
        below, start = positive(), mpmath.mpf(float(upper))

        def draw(rng: np.random.Generator) -> mpmath.mpf:
            return start - below(rng)
    else:
        draw = log_uniform(1e-3, 1e3, signed=True)

    def sample(rng: np.random.Generator) -> int | mpmath.mpf:
        # The float ends round, and so may a sum: a draw counts only if it is
        # inside the exact interval.
        for _ in range(_INTERVAL_ATTEMPTS):
            with mpmath.workdps(50):
                value = draw(rng)
            if within_interval(symbol, value):
                return value
        raise InvalidArgumentError(
            f"symbol={symbol!r}: {_INTERVAL_ATTEMPTS} draws missed its interval "
            f"({lower}, {upper}), too narrow for float64 ends; pass a sampler"
        )

    return sample


def _gaussian_entries(rng: np.random.Generator, rows: int, columns: int) -> sp.Matrix:
    grid = 2**_GRID_BITS
    draws = np.rint(rng.standard_normal((rows, columns)) * grid).astype(np.int64)
    return sp.Matrix(rows, columns, [sp.Rational(int(v), grid) for v in draws.ravel()])


def _exact(name: str, value: object) -> sp.Rational:
    if isinstance(value, float):
        _finite(name, value)
        # A float argument means the decimal it prints as: 0.1 is 1/10.
        return sp.Rational(repr(value))
    if isinstance(value, (numbers.Rational, Fraction)) and not isinstance(value, bool):
        return sp.Rational(value.numerator, value.denominator)
    raise InvalidArgumentError(
        f"{name}={value!r} is not a float, an int or a rational number"
    )


def gaussian_matrix(shape: tuple[int, int]) -> MatrixSampler:
    r"""Matrices with i.i.d. standard normal entries, as exact rationals.

    .. math:: G_{ij} \sim N(0, 1), \text{ rounded to } 2^{-20}\mathbb{Z}

    Each entry is a float64 draw rounded to a multiple of :math:`2^{-20}`
    (about 6 digits): short exact rationals, so a matrix identity is checked
    exactly at the instance and exact products stay cheap.

    Args:
      shape: ``(rows, columns)``, each an integer ``>= 1``.

    Returns:
      A sampler of ``sympy.Matrix`` of that shape with ``Rational`` entries.

    Raises:
      InvalidArgumentError: ``shape`` is not a pair of integers ``>= 1``.

    Examples:
      >>> g = gaussian_matrix((2, 3))(np.random.default_rng(7))
      >>> g.shape, all(e.is_Rational for e in g)
      ((2, 3), True)
      >>> g * g.T == (g * g.T).T
      True
    """
    rows, columns = _shape(shape)

    def sample(rng: np.random.Generator) -> sp.Matrix:
        return _gaussian_entries(rng, rows, columns)

    return sample


def symmetric_matrix(n: int) -> MatrixSampler:
    r"""Symmetric :math:`n \times n` matrices :math:`(G + G^\top)/2`, ``G``
    Gaussian as in :func:`gaussian_matrix`.

    .. math:: S = \tfrac12 (G + G^\top)

    Off-diagonal entries have variance 1/2 and diagonal ones 1 (the Gaussian
    orthogonal ensemble up to scale).

    Args:
      n: the size, an integer ``>= 1``.

    Returns:
      A sampler of exactly symmetric ``sympy.Matrix`` with rational entries.

    Raises:
      InvalidArgumentError: ``n`` is not an integer ``>= 1``.

    Examples:
      >>> s = symmetric_matrix(3)(np.random.default_rng(8))
      >>> s == s.T
      True
    """
    size = _dimension("n", n)

    def sample(rng: np.random.Generator) -> sp.Matrix:
        g = _gaussian_entries(rng, size, size)
        return (g + g.T) / 2

    return sample


def positive_definite_matrix(
    n: int, *, min_eigenvalue: float | Fraction | sp.Rational = 0.1
) -> MatrixSampler:
    r"""Positive definite :math:`n \times n` matrices :math:`G G^\top / n +
    \lambda I`, ``G`` Gaussian as in :func:`gaussian_matrix`.

    .. math:: A = \tfrac1n G G^\top + \lambda I \succeq \lambda I \succ 0

    Let :math:`\lambda` be ``min_eigenvalue``. :math:`G G^\top / n` is a
    Wishart matrix with mean :math:`I`, positive semidefinite by construction;
    the shift makes every eigenvalue at least :math:`\lambda`, exactly (not
    almost surely), and keeps the condition number bounded.

    Args:
      n: the size, an integer ``>= 1``.
      min_eigenvalue: :math:`\lambda > 0`, a float (read as the decimal it
        prints as), an int or a rational.

    Returns:
      A sampler of symmetric positive definite ``sympy.Matrix`` with rational
      entries.

    Raises:
      InvalidArgumentError: ``n`` is not an integer ``>= 1``, or
        ``min_eigenvalue`` is not a positive finite number.

    Examples:
      >>> a = positive_definite_matrix(3)(np.random.default_rng(9))
      >>> a == a.T, a.is_positive_definite
      (True, True)
      >>> (a - sp.Rational(1, 10) * sp.eye(3)).is_positive_semidefinite
      True
    """
    size = _dimension("n", n)
    shift = _exact("min_eigenvalue", min_eigenvalue)
    if shift <= 0:
        raise InvalidArgumentError(
            f"min_eigenvalue={min_eigenvalue!r} is not positive: it bounds the "
            "spectrum of a positive definite matrix from below"
        )

    def sample(rng: np.random.Generator) -> sp.Matrix:
        g = _gaussian_entries(rng, size, size)
        return g * g.T / size + shift * sp.eye(size)

    return sample


def orthogonal_matrix(n: int) -> MatrixSampler:
    r"""Orthogonal :math:`n \times n` matrices with exact rational entries, by
    the Cayley transform of a skew-symmetric Gaussian matrix.

    .. math:: Q = (I - K)(I + K)^{-1} D,\qquad K = \tfrac12 (G - G^\top),\quad
        D = \mathrm{diag}(\pm 1, 1, \dots, 1)

    :math:`I + K` is invertible (the eigenvalues of :math:`K` are imaginary),
    and :math:`Q^\top Q = I` holds exactly in rationals, so a counterexample
    at :math:`Q` can be certified. The Cayley transform reaches every rotation
    without eigenvalue :math:`-1`; the sign of :math:`D`, drawn with
    probability 1/2, reaches determinant :math:`-1` too. The distribution is
    not Haar's: these are instances to check identities at, not a model of a
    random rotation.

    Args:
      n: the size, an integer ``>= 1``.

    Returns:
      A sampler of ``sympy.Matrix`` with rational entries and
      :math:`Q^\top Q = I`.

    Raises:
      InvalidArgumentError: ``n`` is not an integer ``>= 1``.

    Examples:
      >>> q = orthogonal_matrix(3)(np.random.default_rng(10))
      >>> q.T * q == sp.eye(3), all(e.is_Rational for e in q)
      (True, True)
    """
    size = _dimension("n", n)

    def sample(rng: np.random.Generator) -> sp.Matrix:
        g = _gaussian_entries(rng, size, size)
        skew = (g - g.T) / 2
        identity = sp.eye(size)
        # (I + K)^{-1} and I - K commute: solve rather than invert.
        q = (identity + skew).LUsolve(identity - skew)
        if rng.random() < 0.5:
            q[:, 0] = -q[:, 0]
        return q

    return sample


def low_rank_matrix(shape: tuple[int, int], rank: int) -> MatrixSampler:
    r"""Matrices :math:`U V^\top` of exactly the given rank, ``U`` and ``V``
    Gaussian as in :func:`gaussian_matrix`.

    .. math:: A = U V^\top,\quad U \in \mathbb{Q}^{m \times r},\;
        V \in \mathbb{Q}^{n \times r},\quad \operatorname{rank} A = r

    Let :math:`(m, n)` be ``shape`` and :math:`r` be ``rank``. A product of
    Gaussian factors has rank :math:`r` almost surely; the rank is computed
    exactly and a rare deficient draw is drawn again, so the rank is
    guaranteed.

    Args:
      shape: ``(rows, columns)``, each an integer ``>= 1``.
      rank: the rank :math:`r`, an integer in :math:`[0, \min(m, n)]` (0 is
        the zero matrix).

    Returns:
      A sampler of ``sympy.Matrix`` of that shape and rank, rational entries.

    Raises:
      InvalidArgumentError: ``shape`` is not a pair of integers ``>= 1``, or
        ``rank`` is not an integer in :math:`[0, \min(m, n)]`.

    Examples:
      >>> a = low_rank_matrix((4, 3), 2)(np.random.default_rng(11))
      >>> a.shape, a.rank()
      ((4, 3), 2)
    """
    rows, columns = _shape(shape)
    r = _integer("rank", rank)
    if not 0 <= r <= min(rows, columns):
        raise InvalidArgumentError(
            f"rank={rank!r} is not in [0, {min(rows, columns)}]: the rank of a "
            f"{rows} x {columns} matrix is at most min(rows, columns)"
        )

    def sample(rng: np.random.Generator) -> sp.Matrix:
        while True:
            a = _gaussian_entries(rng, rows, r) * _gaussian_entries(rng, columns, r).T
            if a.rank() == r:
                return a

    return sample
