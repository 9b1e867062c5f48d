r"""Numeric claims of adaptive-tangent-features.

The evaluators of :mod:`implicit_bias.numerics.tangent_features` against their
mpmath references and against the parametric closed forms of
:mod:`implicit_bias.theory.tangent_features`; Propositions 3 and 4 over a
fixed family of penalties beyond the power family (:data:`PENALTIES`:
smooth, kinked, non-convex and slowly growing ones); and the reductions in
the proofs of Lemma 5 (27)-(31) and Appendix A.1 (21), by direct
minimization.

Tolerances. ``omega_tilde`` and ``omega_join`` promise 1e-10 relative (the
module's accuracy contract; their error analysis gives ~1e-13); values on a
grid then carry errors below ``_RTOL`` times their size, which bounds what
first and second differences can show. Direct minimizations (dense grid, then
Nelder-Mead or bounded Brent polish with tolerances 1e-12 in the location)
are accurate to ~1e-10 relative where the minimum is smooth; the comparisons
with them use ``_DIRECT_RTOL`` = 1e-8.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from collections.abc import Callable

import mpmath
import numpy as np
import sympy as sp
from numpy.typing import NDArray
from scipy import optimize

from implicit_bias.sources.adaptive_tangent_features import notation as nt
from implicit_bias.sources.adaptive_tangent_features.source import SOURCE_ID
from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Kind,
    Reading,
    Reason,
    Status,
    Verdict,
    conjunction,
)
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.numerics.tangent_features import (
    absolute_deviation,
    join_penalty,
    omega_join,
    omega_join_mp,
    omega_tilde,
    omega_tilde_mp,
    power_deviation,
    squared_deviation,
)
from implicit_bias.theory import tangent_features as theory

__all__ = ["CLAIMS", "PENALTIES"]

Float64Array = NDArray[np.float64]

#: The accuracy contract of omega_tilde / omega_join (relative).
_RTOL = 1e-10
#: Direct minimization by grid + polish: location to ~1e-6 relative or better
#: gives the value to ~1e-12 at a smooth minimum; 1e-8 leaves room for kinks.
_DIRECT_RTOL = 1e-8


def _claim_id(equation: str, label: str) -> str:
    return f"{SOURCE_ID}:{equation}:{label}"


def _not_certified(detail: str) -> Verdict:
    """A float64 violation that is not certified: it refutes nothing."""
    return Verdict.inconclusive(
        f"{detail} (a floating-point violation, not certified by exact or ball "
        "arithmetic)",
        Reason.UNDECIDED,
    )


def _compared(comparisons: list[Verdict], detail: str) -> Verdict:
    """The conjunction of :func:`check_close` comparisons, under ``detail``.

    Every comparison decides: ``holds`` only when all of them hold. A float64
    comparison outside its tolerance is reported as not certified
    (``inconclusive``): it is no exact or certified refutation.
    """
    evidence = "; ".join(part.detail for part in comparisons)
    verdict = conjunction(comparisons, f"{detail}: {evidence}")
    if verdict.status == Status.FAILS:
        return _not_certified(verdict.detail)
    return verdict


# --- a family of admissible penalties beyond |z-1|^p (all coercive)


def log_squared(z: Float64Array) -> Float64Array:
    r""":math:`\log(z)^2`: smooth, grows only logarithmically."""
    return np.log(z) ** 2


def cosh_log(z: Float64Array) -> Float64Array:
    r""":math:`\cosh(\log z) - 1 = (z-1)^2/(2z)`: smooth, linear growth."""
    return (z - 1.0) ** 2 / (2.0 * z)


def asymmetric_kink(z: Float64Array) -> Float64Array:
    r""":math:`0.3|z-1|` left of 1, :math:`2(z-1)^{3/2}` right: kinked, asymmetric."""
    deviation = z - 1.0
    return np.where(
        deviation < 0, 0.3 * np.abs(deviation), 2.0 * np.abs(deviation) ** 1.5
    )


def saturating_plus_square(z: Float64Array) -> Float64Array:
    r""":math:`0.1(z-1)^2 + 3(1 - e^{-(z-1)^2})`: quasi-convex, not convex."""
    deviation = z - 1.0
    return 0.1 * deviation**2 - 3.0 * np.expm1(-(deviation**2))


def square_root_deviation(z: Float64Array) -> Float64Array:
    r""":math:`|z-1|^{1/2}`: concave on each side; (12) then has two local minima."""
    return np.sqrt(np.abs(z - 1.0))


#: Penalties for the property claims: name -> omega (vectorized).
PENALTIES: dict[str, Callable[[Float64Array], Float64Array]] = {
    "log(z)^2": log_squared,
    "cosh(log z) - 1": cosh_log,
    "asymmetric kink": asymmetric_kink,
    "saturating + square": saturating_plus_square,
    "|z-1|^(1/2)": square_root_deviation,
    "(z-1)^2": squared_deviation,
    "|z-1|": absolute_deviation,
}


def _mp_penalty(omega: Callable[[Float64Array], Float64Array]) -> Callable[..., object]:
    """An mpmath version of a PENALTIES member (same formula, mpf arithmetic)."""
    table: dict[object, Callable[..., object]] = {
        log_squared: lambda z: mpmath.log(z) ** 2,
        cosh_log: lambda z: (z - 1) ** 2 / (2 * z),
        asymmetric_kink: lambda z: (
            0.3 * abs(z - 1) if z < 1 else 2 * abs(z - 1) ** mpmath.mpf(1.5)
        ),
        saturating_plus_square: lambda z: (
            mpmath.mpf("0.1") * (z - 1) ** 2 - 3 * mpmath.expm1(-((z - 1) ** 2))
        ),
        square_root_deviation: lambda z: mpmath.sqrt(abs(z - 1)),
    }
    return table[omega]


# --- footnote 1: symmetric positive semidefinite M without loss of generality


def _check_footnote1() -> Verdict:
    rng = np.random.default_rng(6)
    products, norms, spectra = [], [], []
    for _ in range(20):
        m = rng.standard_normal((5, 5))
        theta = rng.standard_normal(5)
        left, singular, right_t = np.linalg.svd(m)
        m_sym = left @ np.diag(singular) @ left.T
        theta_sym = left @ right_t @ theta
        scale = np.linalg.norm(m) * np.linalg.norm(theta)
        products.append(float(np.linalg.norm(m_sym @ theta_sym - m @ theta) / scale))
        norms.append(
            float(
                abs(np.linalg.norm(theta_sym) - np.linalg.norm(theta))
                / np.linalg.norm(theta)
            )
        )
        spectra.append(
            float(
                np.max(np.abs(np.linalg.svd(m_sym, compute_uv=False) - singular))
                / singular[0]
            )
        )
    # Products of 5 x 5 orthogonal factors: ~20 roundings per entry, so each
    # relative difference is 0 up to 1e-13.
    rounding = 1e-13
    return _compared(
        [
            check_close(
                products, 0.0, rounding, what="||M' theta' - M theta|| / scale"
            ),
            check_close(norms, 0.0, rounding, what="| ||theta'|| - ||theta|| | / norm"),
            check_close(spectra, 0.0, rounding, what="singular values of M' - of M"),
        ],
        "20 random 5 x 5 M, theta in float64: M' theta' = M theta, ||theta'|| = "
        "||theta||, same singular values, relative to the sizes (rounding "
        f"tolerance {rounding:g})",
    )


# --- eqs. (11)-(12): evaluators against references


def _check_join_numerics() -> Verdict:
    v = np.array([1.0, 1.0 + 1e-3, 1.2, (1 + np.sqrt(3)) / 2, 1.5, 3.0, 40.0, 1e5])
    fast = omega_join(squared_deviation, absolute_deviation, v)
    exact = np.array(
        [
            float(omega_join_mp(squared_deviation, absolute_deviation, value, dps=30))
            for value in v
        ]
    )
    # At v = 1 the reference is 0: a relative error is not defined there.
    nonzero = exact != 0
    generic_pair = (power_deviation(3.0), cosh_log)
    v_generic = np.array([1.01, 1.5, 4.0, 100.0])
    generic = omega_join(*generic_pair, v_generic)
    generic_exact = [
        float(omega_join_mp(generic_pair[0], _mp_penalty(cosh_log), value, dps=30))
        for value in v_generic
    ]
    # The 30-digit reference is exact to ~1e-28 relative: an error above the
    # 1e-10 contract is the float64 evaluator's, by 18 orders of magnitude.
    parts = [
        check_close(
            fast[nonzero],
            exact[nonzero],
            _RTOL,
            what="closed form (z-1)^2 (+) |z-1|",
            relative=True,
        ),
        check_close(
            generic,
            generic_exact,
            _RTOL,
            what="generic |z-1|^3 (+) cosh(log z)-1",
            relative=True,
        ),
    ]
    return conjunction(
        parts,
        f"omega_join vs omega_join_mp (30 digits), contract {_RTOL:g} relative: "
        + "; ".join(part.detail for part in parts),
    )


def _check_tilde_numerics() -> Verdict:
    rng = np.random.default_rng(12)
    v = np.concatenate([10.0 ** rng.uniform(-5, 5, 5), [0.5, 1 / np.sqrt(2), 1.0]])
    parts: list[Verdict] = []
    named = {
        "(z-1)^2": squared_deviation,
        "|z-1|": absolute_deviation,
        "|z-1|^(3/2)": power_deviation(1.5),
        "|z-1|^(1/2)": power_deviation(0.5),
    }
    for name, penalty in named.items():
        fast = omega_tilde(penalty, v)
        reference = [float(omega_tilde_mp(penalty, x, dps=30)) for x in v]
        parts.append(check_close(fast, reference, _RTOL, what=name, relative=True))
    for name in ("cosh(log z) - 1", "saturating + square", "asymmetric kink"):
        omega = PENALTIES[name]
        fast = omega_tilde(omega, v[:6])
        reference = [
            float(omega_tilde_mp(_mp_penalty(omega), x, dps=30)) for x in v[:6]
        ]
        parts.append(check_close(fast, reference, _RTOL, what=name, relative=True))
    # As for (11): the reference's own error (~1e-28) is far below the contract.
    return conjunction(
        parts,
        f"omega_tilde vs omega_tilde_mp (30 digits), contract {_RTOL:g} relative, "
        "per penalty: " + "; ".join(part.detail for part in parts),
    )


def _curve_points(
    v_of: sp.Expr, tilde_of: sp.Expr, parameter: sp.Symbol, values: list[sp.Expr]
) -> list[tuple[float, float]]:
    points = []
    with mpmath.workdps(50):
        v_function = sp.lambdify(parameter, v_of, modules="mpmath")
        tilde_function = sp.lambdify(parameter, tilde_of, modules="mpmath")
        for value in values:
            x = mpmath.mpf(value)
            points.append((float(v_function(x)), float(tilde_function(x))))
    return points


def _check_tilde_against_theory() -> Verdict:
    deviations = [
        sp.Rational(1, 10**6),
        sp.Rational(1, 100),
        sp.Rational(1, 2),
        3,
        1000,
    ]
    # Points of the curves are rounded to float64 once (v) before evaluation:
    # the value then moves by at most |d log omega~/d log v| <= 2 ulps.
    rounding = 1e-13
    parts: list[Verdict] = []
    for exponent, penalty in (
        (sp.Rational(3, 2), power_deviation(1.5)),
        (sp.Integer(2), squared_deviation),
        (sp.Integer(3), power_deviation(3.0)),
    ):
        u_of_w, tilde_of_w = theory.power_tilde_parametric(exponent)
        points = _curve_points(sp.sqrt(u_of_w), tilde_of_w, theory.w, deviations)
        parts.append(
            check_close(
                [float(omega_tilde(penalty, v)) for v, _ in points],
                [tilde for _, tilde in points],
                rounding,
                what=f"|z-1|^{exponent}",
                relative=True,
            )
        )
    u_of_z, tilde_of_z = theory.squared_absolute_tilde_parametric()
    kink = float(theory.join_kink())
    points = _curve_points(
        sp.sqrt(u_of_z), tilde_of_z, theory.z, [kink + 1e-3, 2, 10, 10**4]
    )
    omega3 = join_penalty(squared_deviation, absolute_deviation)
    parts.append(
        check_close(
            [float(omega_tilde(omega3, v)) for v, _ in points],
            [tilde for _, tilde in points],
            rounding,
            what="omega_3",
            relative=True,
        )
    )
    v_of_z, join_of_z = theory.squared_absolute_join_parametric()
    points = _curve_points(v_of_z, join_of_z, theory.z, [kink + 1e-3, 2, 10, 10**4])
    parts.append(
        check_close(
            [
                float(omega_join(squared_deviation, absolute_deviation, v))
                for v, _ in points
            ],
            [value for _, value in points],
            rounding,
            what="omega_1 (+) omega_2",
            relative=True,
        )
    )
    return _compared(
        parts,
        "numerics at v(w) of the SymPy parametric closed forms (evaluated at 50 "
        "digits) reproduce omega~(w) to 1e-13 relative",
    )


# --- Propositions 3 and 4 over PENALTIES


def _v_grid() -> Float64Array:
    return np.sqrt(np.linspace(0.0, 50.0, 201))


def _check_prop3_concave_increasing() -> Verdict:
    v = _v_grid()  # uniform in u = v^2, so second differences test concavity in u
    details = []
    for name, omega in PENALTIES.items():
        values = omega_tilde(omega, v)
        scale = float(np.max(values))
        first = np.diff(values)
        second = np.diff(values, 2)
        # Each value carries a relative error <= _RTOL: differences of k + 1
        # values can be off by 2^k * _RTOL * scale.
        if np.any(first <= -2 * _RTOL * scale) or np.any(second > 4 * _RTOL * scale):
            return _not_certified(
                f"{name}: min first difference {first.min():.3e}, max second "
                f"difference {second.max():.3e} (scale {scale:.3g})"
            )
        details.append(f"{name}: max 2nd diff {second.max():.1e}")
    return Verdict.holds(
        "on 201 equally spaced v^2 in [0, 50], float64 omega~ (relative contract "
        f"{_RTOL:g}) is nondecreasing (first differences > -tolerance "
        f"{2 * _RTOL:g} x scale) and its second differences are <= tolerance "
        f"{4 * _RTOL:g} x scale: " + "; ".join(details),
        Basis.NUMERICAL,
    )


def _check_prop3_strict_increase_coercive() -> Verdict:
    v = _v_grid()
    smallest = np.inf
    for name, omega in PENALTIES.items():
        values = omega_tilde(omega, v)
        steps = np.diff(values) / np.maximum(values[1:], 1e-300)
        if np.any(steps <= 2 * _RTOL):
            return _not_certified(f"{name}: a step of relative size {steps.min():.2e}")
        smallest = min(smallest, float(steps.min()))
    bounded = theory.saturating_penalty
    function = sp.lambdify(theory.z, bounded(theory.z), modules="numpy")
    try:
        omega_tilde(function, 2.0)
    except InvalidArgumentError as error:
        raised = str(error).split(":")[0]
    else:
        return Verdict.inconclusive(
            "omega_tilde returned a value for the bounded penalty, whose (12) has no "
            "minimizer for v > 1",
            Reason.UNDECIDED,
        )
    return Verdict.holds(
        "all 7 penalties are coercive (omega -> oo): then omega(z*) <= v^2 bounds "
        "z*, the minimum of (12) is attained and omega~(v1) <= omega(z2*) + v1^2/"
        f"z2*^2 < omega~(v2); smallest relative step on the grid {smallest:.2e} > "
        f"tolerance {2 * _RTOL:g} (float64 omega~, relative contract {_RTOL:g}). "
        f"For the bounded penalty omega_tilde refuses v = 2 ({raised})",
        Basis.NUMERICAL,
    )


def _upper_deviation(omega: Callable[[Float64Array], Float64Array], u: float) -> float:
    """The largest w with omega(1 + w) <= u (omega increasing on [1, oo))."""
    return float(
        optimize.brentq(
            lambda w: float(omega(np.array(1.0 + w))) - u, 0.0, 1e6, xtol=1e-300
        )
    )


def _check_prop3_small_v() -> Verdict:
    details = []
    for name, omega in PENALTIES.items():
        previous_gap = np.inf
        for u in (1e-4, 1e-6, 1e-8):
            ratio = float(omega_tilde(omega, np.sqrt(u))) / u
            # omega(z*) <= omega~ <= u bounds w* = z* - 1 by w_u = omega^-1(u), and
            # omega~ >= u/z*^2 >= u/(1 + w_u)^2.
            w_u = _upper_deviation(omega, u)
            lower = 1.0 / (1.0 + w_u) ** 2
            gap = 1.0 - ratio
            if not (lower - _RTOL <= ratio <= 1.0 + _RTOL and gap <= previous_gap):
                return _not_certified(
                    f"{name}: at v^2 = {u:g}, omega~/v^2 = {ratio!r}, bound "
                    f"[{lower!r}, 1], previous gap {previous_gap:.3e}"
                )
            previous_gap = max(gap, 0.0) + _RTOL
        details.append(f"{name}: 1 - omega~/v^2 = {max(gap, 0.0):.1e} at v^2 = 1e-8")
    return Verdict.holds(
        "omega~(v)/v^2 lies in [1/(1 + w_u)^2, 1] with w_u = omega^-1(v^2) -> 0, "
        "and 1 - omega~/v^2 decreases along v^2 = 1e-4, 1e-6, 1e-8 (float64; "
        f"tolerance {_RTOL:g}, omega~'s relative contract, on each bound and on "
        "the decrease): " + "; ".join(details),
        Basis.NUMERICAL,
    )


_JOIN_PAIRS = (
    ("(z-1)^2", "|z-1|"),
    ("log(z)^2", "asymmetric kink"),
    ("saturating + square", "|z-1|^(1/2)"),
    ("cosh(log z) - 1", "(z-1)^2"),
)


def _check_prop4() -> Verdict:
    v = np.concatenate([[1.0], 1.0 + np.geomspace(1e-3, 1e3, 120)])
    details = []
    for first, second in _JOIN_PAIRS:
        values = omega_join(PENALTIES[first], PENALTIES[second], v)
        steps = np.diff(values)
        if values[0] != 0.0 or np.any(steps <= 2 * _RTOL * values[1:]):
            return _not_certified(
                f"{first} (+) {second}: value at 1 {values[0]!r}, smallest step "
                f"{steps.min():.3e}"
            )
        details.append(f"{first} (+) {second}")
    return Verdict.holds(
        "(omega_1 (+) omega_2)(1) = 0 (tolerance 0 (exact)) and strictly "
        "increasing on 121 points of [1, 1001] (float64; every step > relative "
        f"tolerance {2 * _RTOL:g}) for " + ", ".join(details),
        Basis.NUMERICAL,
    )


def _unconstrained_minimum(
    objective: Callable[[Float64Array], Float64Array],
    low: float,
    high: float,
    kinks: tuple[float, ...],
) -> tuple[float, float]:
    """Minimum of a scalar objective over log z in [low, high]: grid, then Brent.

    ``kinks`` (where an omega's argument is 1) join the grid, so that a cusp
    such as that of :math:`|z-1|^{1/2}` is evaluated exactly where it lies.
    """
    grid = np.union1d(np.linspace(low, high, 20001), np.array(kinks))
    values = objective(grid)
    best = int(np.argmin(values))
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, grid.size - 1)]
    result = optimize.minimize_scalar(
        lambda x: float(objective(np.array([x]))[0]),
        bounds=(lo, hi),
        method="bounded",
        options={"xatol": 1e-13},
    )
    if result.fun < values[best]:
        return float(result.fun), float(result.x)
    return float(values[best]), float(grid[best])


def _check_join_minimizer_range() -> Verdict:
    joins, minima, excursions = [], [], []
    for first, second in _JOIN_PAIRS:
        omega1, omega2 = PENALTIES[first], PENALTIES[second]
        for v in (1.05, 2.0, 30.0):
            log_v = np.log(v)

            def objective(
                log_z: Float64Array,
                first: Callable[[Float64Array], Float64Array] = omega1,
                second: Callable[[Float64Array], Float64Array] = omega2,
                scale: float = v,
            ) -> Float64Array:
                z = np.exp(log_z)
                return np.asarray(first(z) + second(scale / z), dtype=np.float64)

            value, log_z = _unconstrained_minimum(
                objective, -2 * log_v, 3 * log_v, (0.0, float(log_v))
            )
            joins.append(float(omega_join(omega1, omega2, v)))
            minima.append(value)
            # How far the minimizer lies outside [1, v], in log z (0 inside).
            excursions.append(max(0.0, -log_z, log_z - log_v))
    # The minimizer is located to ~1e-6 of log v (grid) at worst; a kink at an
    # end point puts it there exactly.
    return _compared(
        [
            check_close(
                joins,
                minima,
                _DIRECT_RTOL,
                what="join of eq. (11) vs the minimum over all z",
                relative=True,
                basis=Basis.SEARCH,
            ),
            check_close(
                excursions,
                0.0,
                1e-6,
                what="excursion of the minimizer outside [1, v] in log z",
                basis=Basis.SEARCH,
            ),
        ],
        "minimizing omega_1(z) + omega_2(v/z) over all z in [v^-2, v^3] (grid + "
        "Brent) gives the join of eq. (11) at a minimizer in [1, v], for 4 pairs "
        "and v in {1.05, 2, 30}",
    )


def _direct_scalar_reduction(
    omega1: Callable[[Float64Array], Float64Array],
    omega2: Callable[[Float64Array], Float64Array],
    d: float,
) -> float:
    """min over s1, s2 >= 1 of omega1(s1) + omega2(s2) + d^2/(s1 s2)^2 (eq. (28))."""
    grid = np.linspace(0.0, 4.0, 81) ** 2  # s - 1 = y^2 reaches s = 1 smoothly

    def objective(y: Float64Array) -> Float64Array:
        s_1, s_2 = 1.0 + y[0] ** 2, 1.0 + y[1] ** 2
        return np.asarray(
            omega1(s_1) + omega2(s_2) + d**2 / (s_1 * s_2) ** 2, dtype=np.float64
        )

    y1, y2 = np.meshgrid(np.sqrt(grid), np.sqrt(grid), indexing="ij")
    values = objective(np.stack([y1, y2]))
    i, j = np.unravel_index(int(np.argmin(values)), values.shape)
    result = optimize.minimize(
        lambda y: float(objective(np.asarray(y))),
        x0=np.array([y1[i, j], y2[i, j]]),
        method="Nelder-Mead",
        options={"xatol": 1e-12, "fatol": 1e-15, "maxiter": 20000},
    )
    return float(min(result.fun, values[i, j]))


def _check_scalar_reduction() -> Verdict:
    cases = (
        ("(z-1)^2", "|z-1|"),
        ("cosh(log z) - 1", "asymmetric kink"),
    )
    directs, effectives = [], []
    for first, second in cases:
        omega1, omega2 = PENALTIES[first], PENALTIES[second]
        joint = join_penalty(omega1, omega2)
        for d in (0.3, 1.0, 3.0, 10.0):
            directs.append(_direct_scalar_reduction(omega1, omega2, d))
            effectives.append(float(omega_tilde(joint, d)))
    return _compared(
        [
            check_close(
                directs,
                effectives,
                _DIRECT_RTOL,
                what="direct 2-D minimum vs omega~ of the join",
                relative=True,
                basis=Basis.SEARCH,
            )
        ],
        "min over s1, s2 >= 1, sigma >= 0 with s1 s2 sigma = d of omega_1(s1) + "
        "omega_2(s2) + sigma^2 (direct 2-D minimization) equals omega~ of "
        "omega_1 (+) omega_2 at d, for 2 pairs, d in {0.3, 1, 3, 10}",
    )


_ALIGNMENT_S1 = np.array([2.5, 1.7, 1.0])
#: Nelder-Mead starts over the rotation angles (the landscape has a few basins,
#: one per pairing; 6 uniform starts found the best in every seed tried).
_ROTATION_STARTS = 6
_ALIGNMENT_S2 = np.array([3.0, 1.2])


def _alignment_instance() -> tuple[
    Float64Array, Float64Array, float, float, tuple[tuple[int, int], ...]
]:
    r"""B (3 x 2), its singular values, the index-aligned value and the best pairing.

    With U, V the singular vectors of B up to permutations, :math:`\|W\|_F^2 =
    \sum_j d_j^2/(s1_{i_j} s2_{k_j})^2` for an assignment of distinct rows
    :math:`i_j` and columns :math:`k_j` to the singular values :math:`d_j`; the
    last item is that best assignment, ``((i_1, k_1), (i_2, k_2))``.
    """
    rng = np.random.default_rng(27)
    b = rng.standard_normal((3, 2))
    singular = np.asarray(np.linalg.svd(b, compute_uv=False), dtype=np.float64)
    aligned = float(np.sum((singular / (_ALIGNMENT_S1[:2] * _ALIGNMENT_S2)) ** 2))
    best_pairing, rows, columns = min(
        (
            float(
                np.sum(
                    (
                        singular
                        / (_ALIGNMENT_S1[list(rows)] * _ALIGNMENT_S2[list(columns)])
                    )
                    ** 2
                )
            ),
            rows,
            columns,
        )
        for rows in itertools.permutations(range(3), 2)
        for columns in itertools.permutations(range(2), 2)
    )
    return b, singular, aligned, best_pairing, tuple(zip(rows, columns, strict=True))


def _rotation(angle: float, axes: tuple[int, int], size: int) -> Float64Array:
    rotation = np.eye(size)
    i, j = axes
    rotation[[i, i, j, j], [i, j, i, j]] = [
        np.cos(angle),
        -np.sin(angle),
        np.sin(angle),
        np.cos(angle),
    ]
    return rotation


def _frobenius_over_rotations(b: Float64Array, angles: Float64Array) -> float:
    """||S1^-1 U^T B V S2^-1||_F^2, U from 3 Euler angles, V a plane rotation.

    Reflections only flip signs of columns of B's singular vectors, which the
    squared norm does not see, so rotations cover every case.
    """
    u_matrix = (
        _rotation(angles[0], (0, 1), 3)
        @ _rotation(angles[1], (1, 2), 3)
        @ _rotation(angles[2], (0, 1), 3)
    )
    v_matrix = _rotation(angles[3], (0, 1), 2)
    sigma = (u_matrix.T @ b @ v_matrix) / np.outer(_ALIGNMENT_S1, _ALIGNMENT_S2)
    return float(np.sum(sigma**2))


def _best_over_rotations(b: Float64Array) -> float:
    rng = np.random.default_rng(270)
    return min(
        optimize.minimize(
            lambda x: _frobenius_over_rotations(b, x),
            rng.uniform(-np.pi, np.pi, 4),
            method="Nelder-Mead",
            options={"xatol": 1e-10, "fatol": 1e-15, "maxiter": 4000},
        ).fun
        for _ in range(_ROTATION_STARTS)
    )


#: An exact instance for the printed alignment: B = diag_{3 x 2}(d), d sorted,
#: so U = I, V = I are its singular vectors in the printed (sorted) order.
_EXACT_S1 = (Fraction(5, 2), Fraction(17, 10), Fraction(1))
_EXACT_S2 = (Fraction(3), Fraction(6, 5))
_EXACT_D = (Fraction(1), Fraction(9, 10))


def _check_alignment_as_printed() -> Verdict:
    # With U, V permutation matrices (orthogonal), S1^-1 U^T B V S2^-1 places
    # d_j at a distinct (row, column) pair: ||W||_F^2 = sum_j d_j^2/(s1 s2)^2,
    # in exact rational arithmetic.
    def value(pairing: tuple[tuple[int, int], ...]) -> Fraction:
        return sum(
            (
                d**2 / (_EXACT_S1[i] * _EXACT_S2[k]) ** 2
                for d, (i, k) in zip(_EXACT_D, pairing, strict=True)
            ),
            Fraction(0),
        )

    printed = value(((0, 0), (1, 1)))
    best, pairing = min(
        (
            value(tuple(zip(rows, columns, strict=True))),
            tuple(zip(rows, columns, strict=True)),
        )
        for rows in itertools.permutations(range(3), 2)
        for columns in itertools.permutations(range(2), 2)
    )
    instance = "B = diag_{3x2}(1, 9/10), S1 = diag(5/2, 17/10, 1), S2 = diag(3, 6/5)"
    if best >= printed:
        return Verdict.holds(
            f"{instance}: the sorted alignment gives the least ||W||_F^2 = "
            f"{printed} among the permutations U, V (exact)",
            Basis.PROOF,
        )
    pairs = " and ".join(
        f"d_{j + 1} with (s1, s2) = ({_EXACT_S1[i]}, {_EXACT_S2[k]})"
        for j, (i, k) in enumerate(pairing)
    )
    return Verdict.fails(
        f"{instance}: U = I, V = I (the singular vectors of B aligning the largest "
        "s1 and s2, i.e. the smallest values of S1^-1 and S2^-1, with the largest "
        f"singular value) give ||W||_F^2 = {printed} = {float(printed):.6g}, but "
        f"the permutations pairing {pairs} give {best} = {float(best):.6g} "
        "(exact rational arithmetic): for fixed S1, S2 the sorted alignment is "
        "not the minimum. Lemma 5 survives, as S1, S2 are optimized too: see "
        "27:alignment-pairing",
        Basis.PROOF,
        f"{instance}: ||W||_F^2 = {printed} at the sorted alignment > {best} at "
        f"the pairing {pairs} (exact)",
    )


def _check_alignment_pairing() -> Verdict:
    b, _, aligned, best_pairing, _ = _alignment_instance()
    best = _best_over_rotations(b)
    return _compared(
        [
            check_close(
                best,
                best_pairing,
                _DIRECT_RTOL,
                what="min over rotations vs the best pairing",
                relative=True,
                basis=Basis.SEARCH,
            )
        ],
        f"min over rotations U, V of ||S1^-1 U^T B V S2^-1||_F^2 = {best:.10g} "
        f"= the best assignment of singular values to (s1_i, s2_k) pairs "
        f"({best_pairing:.10g}; index-aligned: {aligned:.6g}); it is attained "
        "at the singular vectors of B, permuted, and since S1, S2 are optimized "
        "too, relabelling them gives the aligned form of (28)",
    )


def _check_diagonal_unconstrained() -> Verdict:
    tildes, minima = [], []
    for omega in PENALTIES.values():
        for beta in (0.05, 0.7, 4.0, 50.0):

            def objective(
                log_m: Float64Array,
                b: float = beta,
                penalty: Callable[[Float64Array], Float64Array] = omega,
            ) -> Float64Array:
                m = np.exp(log_m)
                return np.asarray(penalty(m) + b**2 / m**2, dtype=np.float64)

            value, _ = _unconstrained_minimum(objective, -3.0, 8.0, (0.0,))
            tildes.append(float(omega_tilde(omega, beta)))
            minima.append(value)
    return _compared(
        [
            check_close(
                tildes,
                minima,
                _DIRECT_RTOL,
                what="omega~(beta) vs the minimum over all m > 0",
                relative=True,
                basis=Basis.SEARCH,
            )
        ],
        "A.1's scalar problem min over all m > 0 of omega(m) + beta^2/m^2 equals "
        "omega~(beta) of eq. (12) (z >= 1) over 7 penalties and beta in {0.05, "
        "0.7, 4, 50}; so Omega~(beta) = sum_j omega~(beta_j)",
    )


# --- formulas: what each check compares, for the ledger


def _formula_footnote1() -> sp.Basic:
    return sp.And(
        sp.Eq(nt.penalty(nt.M_prime), nt.penalty(nt.M)),
        sp.Eq(nt.M_prime * nt.theta_prime, nt.M * nt.theta),
    )


def _formula_join_numerics() -> sp.Basic:
    return sp.Eq(nt.join_evaluated(theory.v), nt.join(theory.v))


def _formula_tilde_numerics() -> sp.Basic:
    return sp.Eq(nt.omega_tilde_evaluated(theory.v), nt.omega_tilde(theory.v))


def _formula_tilde_closed_forms() -> sp.Basic:
    u_of_w, tilde_of_w = theory.power_tilde_parametric()
    return sp.Eq(nt.omega_tilde_evaluated(sp.sqrt(u_of_w)), tilde_of_w)


def _formula_increasing_concave() -> sp.Basic:
    value, u = theory.omega_tilde_value, theory.u
    return sp.And(
        sp.Ge(sp.Derivative(value, u), 0), sp.Le(sp.Derivative(value, (u, 2)), 0)
    )


def _formula_strict_increase() -> sp.Basic:
    return sp.Lt(nt.omega_tilde(nt.v1), nt.omega_tilde(nt.v2))


def _formula_small_v() -> sp.Basic:
    v = theory.v
    return sp.Eq(sp.Limit(nt.omega_tilde(v) / v**2, v, 0, "+"), 1)


def _formula_prop4() -> sp.Basic:
    return sp.And(sp.Eq(nt.join(1), 0), sp.Lt(nt.join(nt.v1), nt.join(nt.v2)))


def _formula_join_minimizer_range() -> sp.Basic:
    return sp.And(sp.Le(1, nt.z_star), sp.Le(nt.z_star, theory.v))


def _formula_alignment_as_printed() -> sp.Basic:
    return sp.Eq(nt.frobenius_minimum, nt.frobenius_aligned)


def _formula_alignment_pairing() -> sp.Basic:
    return sp.Eq(nt.frobenius_minimum, nt.frobenius_paired)


def _formula_scalar_reduction() -> sp.Basic:
    return sp.Eq(nt.scalar_minimum, nt.join_tilde(nt.singular_value))


def _formula_separable() -> sp.Basic:
    return sp.Eq(
        nt.effective_penalty(theory.beta),
        sp.Sum(nt.omega_tilde(nt.beta_entry[nt.j]), (nt.j, 1, nt.P)),
    )


CLAIMS: tuple[Claim, ...] = (
    Claim(
        SOURCE_ID,
        "6",
        "footnote-1-symmetric",
        Kind.NUMERIC,
        "for M = U S V^T, M' = U S U^T and theta' = U V^T theta give the same penalty "
        "and beta = M' theta' = M theta: M may be taken symmetric PSD",
        _check_footnote1,
        Status.HOLDS,
        quote=(
            "We can always consider instead "
            r"\mathbf{M}^{\prime}=\mathbf{U}\mathbf{S}\mathbf{U}^{\mathsf{T}} and "
            r"{\bm{\theta}}^{\prime}=\mathbf{U}\mathbf{V}^{\mathsf{T}}{\bm{\theta}} "
            "such that the penalty value remains the same"
        ),
        reading=Reading.PROSE,
        regime=(
            "20 random Gaussian 5 x 5 M and theta (seed 6), float64: footnote 1 "
            "states it for any M"
        ),
        formula=_formula_footnote1,
    ),
    Claim(
        SOURCE_ID,
        "11",
        "numerics",
        Kind.NUMERIC,
        "omega_join evaluates eq. (11) (closed form for (z-1)^2 (+) |z-1|, generic "
        "minimization otherwise) to its references",
        _check_join_numerics,
        Status.HOLDS,
        quote=(
            r"(\omega_{1}\oplus\omega_{2})(v)\triangleq\min_{1\leq z\leq "
            r"v}\omega_{1}(z)+\omega_{2}(\tfrac{v}{z})"
        ),
        reading=Reading.EXTENSION,
        regime=(
            "our evaluator omega_join against a 30-digit mpmath reference, v in [1, "
            "1e5]: software accuracy, not a statement of the source"
        ),
        budget_seconds=30,
        formula=_formula_join_numerics,
    ),
    Claim(
        SOURCE_ID,
        "12",
        "numerics",
        Kind.NUMERIC,
        (
            "omega_tilde evaluates eq. (12) (closed forms for $|z-1|^p$, generic "
            "minimization otherwise) to its mpmath reference"
        ),
        _check_tilde_numerics,
        Status.HOLDS,
        quote=r"\tilde{\omega}(v)\triangleq\min_{z\geq 1}\omega(z)+\frac{v^{2}}{z^{2}}",
        reading=Reading.EXTENSION,
        regime=(
            r"our evaluator omega_tilde against a 30-digit mpmath reference, $v \in "
            "[10^{-5}, 10^5]$, 7 penalties: software accuracy, not a statement of the "
            "source"
        ),
        budget_seconds=30,
        formula=_formula_tilde_numerics,
    ),
    Claim(
        SOURCE_ID,
        "12",
        "numerics-vs-closed-forms",
        Kind.NUMERIC,
        (
            "omega_tilde and omega_join reproduce the SymPy parametric closed forms "
            r"($|z-1|^p$, Figure 2's $\omega_1 \oplus \omega_2$ and its $\tilde\omega$)"
        ),
        _check_tilde_against_theory,
        Status.HOLDS,
        quote=r"\tilde{\omega}(v)\triangleq\min_{z\geq 1}\omega(z)+\frac{v^{2}}{z^{2}}",
        reading=Reading.EXTENSION,
        regime=(
            "omega_tilde / omega_join at points of our parametric closed forms ($w$ "
            "from $10^{-6}$ to 1000): software accuracy against our derivations"
        ),
        formula=_formula_tilde_closed_forms,
    ),
    Claim(
        SOURCE_ID,
        "prop-3",
        "increasing-concave",
        Kind.NUMERIC,
        (
            r"$v^2 \mapsto \tilde\omega(v)$ is an increasing concave function, for "
            r"continuous strictly quasi-convex $\omega$ minimized at $\omega(1) = 0$"
        ),
        _check_prop3_concave_increasing,
        Status.HOLDS,
        quote=r"Then v^{2}\mapsto\tilde{w}(v) is an increasing concave function",
        reading=Reading.PROSE,
        regime=(
            "the 7 penalties of PENALTIES (within Proposition 3's hypotheses), v^2 "
            "on 201 equally spaced points of [0, 50]"
        ),
        assumptions=("the 7 penalties of PENALTIES",),
        formula=_formula_increasing_concave,
    ),
    Claim(
        SOURCE_ID,
        "prop-3",
        "strict-increase-coercive",
        Kind.NUMERIC,
        (
            r"if $\omega(z) \to \infty$ as $z \to \infty$, the minimum of (12) is "
            r"attained and $\tilde\omega(v_1) < \tilde\omega(v_2)$ for $|v_1| < |v_2|$"
        ),
        _check_prop3_strict_increase_coercive,
        Status.HOLDS,
        quote=(
            r"and therefore \tilde{\omega}(v_{1})<\tilde{\omega}(v_{2}), since the "
            "minimizer must be finite."
        ),
        reading=Reading.EXTENSION,
        regime=(
            "coercive omega (the 7 penalties of PENALTIES), v^2 on 201 points of [0, "
            "50]: our corrected hypothesis for the proof's step"
        ),
        corrects=_claim_id("prop-3", "strict-increase-as-proved"),
        assumptions=("the 7 coercive penalties of PENALTIES",),
        formula=_formula_strict_increase,
    ),
    Claim(
        SOURCE_ID,
        "prop-3",
        "small-v-numeric",
        Kind.NUMERIC,
        r"$\tilde\omega(v) = v^2 + o(v^2)$ as $v \to 0$",
        _check_prop3_small_v,
        Status.HOLDS,
        quote=r"\tilde{\omega}(v)=v^{2}+o(v^{2}) as v\to 0",
        reading=Reading.PROSE,
        regime=(
            "the 7 penalties of PENALTIES, v^2 in {1e-4, 1e-6, 1e-8}: Proposition "
            "3's v -> 0"
        ),
        assumptions=("the 7 penalties of PENALTIES",),
        formula=_formula_small_v,
    ),
    Claim(
        SOURCE_ID,
        "prop-4",
        "increasing",
        Kind.NUMERIC,
        "omega_1 (+) omega_2 is strictly increasing on [1, oo) with "
        "(omega_1 (+) omega_2)(1) = 0",
        _check_prop4,
        Status.HOLDS,
        quote=(
            r"is a strictly increasing function defined on [1,\infty) such that "
            r"(\omega_{1}\oplus\omega_{2})(1)=0"
        ),
        reading=Reading.PROSE,
        regime=(
            "4 pairs from PENALTIES (within Proposition 4's hypotheses), v = 1 and "
            "120 points of 1 + [1e-3, 1e3]"
        ),
        assumptions=("4 pairs from PENALTIES",),
        formula=_formula_prop4,
    ),
    Claim(
        SOURCE_ID,
        "23",
        "minimizer-in-1-v",
        Kind.NUMERIC,
        "z -> omega_1(z) + omega_2(v/z) on (0, oo) takes its minimum for z in [1, v] "
        "(so (30)-(31) over s1 > 0 is the join)",
        _check_join_minimizer_range,
        Status.HOLDS,
        quote=(
            r"defined on (0,\infty) for v\geq 1 always takes minimum value for "
            r"z\in[1,v]"
        ),
        reading=Reading.PROSE,
        regime=(
            "4 pairs from PENALTIES, v in {1.05, 2, 30}, z searched over [v^-2, "
            "v^3]: the proof of Proposition 4"
        ),
        assumptions=("4 pairs from PENALTIES", "v in {1.05, 2, 30}"),
        formula=_formula_join_minimizer_range,
    ),
    Claim(
        SOURCE_ID,
        "27",
        "alignment-as-printed",
        Kind.NUMERIC,
        "given S1, S2, ||W||_F = ||S1^-1 U^T B V S2^-1||_F is minimized when U and V "
        "align the smallest values of S1^-1 and S2^-1 with the largest singular "
        "values of B (proof of Lemma 5)",
        _check_alignment_as_printed,
        Status.FAILS,
        slip="alignment-lemma-5",
        quote=(
            r"is minimized when \mathbf{U} and \mathbf{V} are chosen to align the "
            r"smallest values of \mathbf{S}_{1}^{-1} and \mathbf{S}_{1}^{-2} with the "
            r"largest singular values of \mathbf{B}"
        ),
        reading=Reading.PROSE,
        regime=(
            "fixed S1, S2 as in the proof of Lemma 5 ('Fix a matrix B', then the "
            "SVDs of M1, M2): B = diag(1, 9/10), S1 = diag(5/2, 17/10, 1), S2 = "
            "diag(3, 6/5), U, V permutations"
        ),
        budget_seconds=30,
        formula=_formula_alignment_as_printed,
    ),
    Claim(
        SOURCE_ID,
        "27",
        "alignment-pairing",
        Kind.NUMERIC,
        "given S1, S2, the minimum of ||S1^-1 U^T B V S2^-1||_F over U, V is attained "
        "at singular vectors of B under the best assignment of singular values to "
        "(s1_i, s2_k) pairs; with S1, S2 free, relabelling gives Lemma 5's form",
        _check_alignment_pairing,
        Status.HOLDS,
        quote=(
            r"in other words, \mathbf{U} and \mathbf{V} are the left and right "
            r"singular vectors of \mathbf{B}, respectively"
        ),
        reading=Reading.EXTENSION,
        regime=(
            "B a random 3 x 2 (seed 27), S1 = diag(2.5, 1.7, 1), S2 = diag(3, 1.2), "
            "rotations searched by Nelder-Mead (6 starts): our corrected step"
        ),
        corrects=_claim_id("27", "alignment-as-printed"),
        budget_seconds=30,
        formula=_formula_alignment_pairing,
    ),
    Claim(
        SOURCE_ID,
        "28-29",
        "scalar-reduction",
        Kind.NUMERIC,
        (
            r"$\min$ over $s_1, s_2 \geq 1$, $\sigma \geq 0$ with $s_1 s_2 \sigma = d$ "
            r"of $\omega_1(s_1) + \omega_2(s_2) + \sigma^2$ is $\tilde\omega_{\omega_1 "
            r"\oplus \omega_2}(d)$, the effective penalty of (29) on one singular value"
        ),
        _check_scalar_reduction,
        Status.HOLDS,
        quote=(
            r"By Proposition 4, we must have s_{1},s_{2}\geq 1, and then by the "
            "definition of the effective penalty, we obtain the optimization over "
            r"\mathbf{B}"
        ),
        reading=Reading.PROSE,
        regime=(
            "2 pairs from PENALTIES, d in {0.3, 1, 3, 10}, s1, s2 searched over [1, "
            "17]: the proof of Lemma 5"
        ),
        budget_seconds=30,
        formula=_formula_scalar_reduction,
    ),
    Claim(
        SOURCE_ID,
        "21",
        "separable",
        Kind.NUMERIC,
        (
            r"for diagonal $M$ the problem separates into $\min_{m_j} \omega(m_j) + "
            r"\beta_j^2/m_j^2$, and $\tilde\Omega(\beta) = \sum_j "
            r"\tilde\omega(\beta_j)$"
        ),
        _check_diagonal_unconstrained,
        Status.HOLDS,
        quote=(
            r"\widetilde{\Omega}({\bm{\beta}})=\sum_{j=1}^{P}\tilde{\omega}(\beta_{j})"
        ),
        reading=Reading.PRINTED,
        regime=(
            "the 7 penalties of PENALTIES, beta_j in {0.05, 0.7, 4, 50}, m searched "
            "over [e^-3, e^8]: Appendix A.1"
        ),
        assumptions=("the 7 penalties of PENALTIES",),
        formula=_formula_separable,
    ),
)
