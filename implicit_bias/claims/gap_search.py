r"""A local search for a violation of an inequality, after its random sample.

Random points find a violation of :math:`\mathrm{lhs} \le \mathrm{rhs}` only
where violations fill a good part of the sampled domain. A wrong bound is
often violated on a thin set -- near where the true bound is tight -- and a
sample of 20 or 200 points comes close without entering it.
:func:`search_violation` starts from the :data:`SEARCH_STARTS` sampled points
closest to a violation and maximizes, in float64, the violation relative to
the size of the terms of the two sides,

.. math::
   \varphi(x) = \frac{\sum_i t_i(x)}{\sum_i |t_i(x)|}, \qquad
   \mathrm{lhs} - \mathrm{rhs} = \sum_i t_i,

(:math:`t_i` the terms of ``lhs`` and of ``-rhs``): :math:`\varphi > 0`
exactly where the relation is violated, and unlike the violation relative to
the sides it still varies where the two sides keep opposite signs (a
mutated term that can change sign, outweighed by the others). From each start
it runs L-BFGS-B (forward differences, evaluated as one vectorized batch) and
then CMA-ES from where L-BFGS-B stopped, with at most
:data:`SEARCH_EVALUATIONS` evaluations over all starts.

Each symbol moves only within its domain, through a coordinate
:math:`\tau` that maps onto it (:func:`search_coordinates`): a positive
(negative) symbol as :math:`\pm e^\tau`, its magnitude kept in
:math:`[10^{-3}, 10^3]`, the window the default sampler draws from (far out,
a relative gap may shrink towards 0 without ever changing sign); a real
symbol that may be 0 as :math:`10^{-3}\sinh\tau`, :math:`|x| \le 10^3` (it may
cross 0); a symbol on an interval :math:`(a, b)` as :math:`a + (b -
a)/(1 + e^{-\tau})`, or :math:`a + e^\tau` on :math:`(a, \infty)`. Integers and
symbols the caller gives a sampler for stay where the sample put them.

The search only proposes: the caller evaluates every end point at 50 digits
and certifies a violation there in ball arithmetic, at the exact point, as
for a sampled point; a search that finds nothing changes no verdict.
"""

from __future__ import annotations

import contextlib
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from implicit_bias.claims.intervals import interval_of, within_interval

__all__ = [
    "SEARCH_EVALUATIONS",
    "SEARCH_STARTS",
    "SearchCoordinate",
    "SearchOutcome",
    "search_coordinates",
    "search_violation",
]

#: Sampled points the search starts from (the closest to a violation).
SEARCH_STARTS = 4
#: float64 evaluations of the search, over all its starts.
SEARCH_EVALUATIONS = 4000
#: The magnitudes the default samplers draw (samplers.from_assumptions).
_LOW, _HIGH = 1e-3, 1e3
#: A float64 relative violation this large is no rounding error: the search
#: stops there (the 50-digit evaluation still decides).
_CLEAR_VIOLATION = 1e-6
#: tau of a symbol on a finite interval: a + (b - a) 1e-13 at the ends.
_LOGISTIC_END = 30.0
#: Forward-difference step in tau.
_DIFFERENCE_STEP = 1e-7


@dataclass(frozen=True)
class SearchCoordinate:
    r"""How the search moves one symbol within its domain: ``kind`` is
    ``"signed"`` (:math:`x = \mathrm{sign}\, e^\tau`, ``sign`` = +-1),
    ``"sinh"`` (:math:`x = 10^{-3}\sinh\tau`), ``"logistic"`` (:math:`x = a +
    (b - a)/(1 + e^{-\tau})`) or ``"shifted"`` (:math:`x = a + \mathrm{sign}\,
    e^\tau`)."""

    symbol: sp.Symbol
    kind: str
    sign: float = 1.0
    lower: float = 0.0
    upper: float = 0.0

    @property
    def bounds(self) -> tuple[float, float]:
        """The range of :math:`\\tau`."""
        if self.kind in ("signed", "shifted"):
            return math.log(_LOW), math.log(_HIGH)
        if self.kind == "sinh":
            return -math.asinh(_HIGH / _LOW), math.asinh(_HIGH / _LOW)
        return -_LOGISTIC_END, _LOGISTIC_END

    def to_tau(self, value: float) -> float:
        """:math:`\\tau` of ``value``, clipped to :attr:`bounds`."""
        low, high = self.bounds
        if self.kind == "signed":
            tau = math.log(max(abs(value), 1e-300))
        elif self.kind == "sinh":
            tau = math.asinh(value / _LOW)
        elif self.kind == "shifted":
            tau = math.log(max(abs(value - self.lower), 1e-300))
        else:
            share = (value - self.lower) / (self.upper - self.lower)
            share = min(max(share, 1e-300), 1 - 1e-16)
            tau = math.log(share) - math.log1p(-share)
        return min(max(tau, low), high)

    def with_sign_of(self, sampled: float) -> SearchCoordinate:
        """A ``"signed"`` coordinate of either sign (``sign`` 0) given the
        sign of its sampled value; any other unchanged."""
        if self.kind == "signed" and self.sign == 0.0:
            return SearchCoordinate(self.symbol, "signed", math.copysign(1.0, sampled))
        return self

    def value(self, tau: np.ndarray) -> np.ndarray:
        """The symbol's value at ``tau`` (any shape)."""
        if self.kind == "signed":
            return self.sign * np.clip(np.exp(tau), _LOW, _HIGH)
        if self.kind == "sinh":
            return _LOW * np.sinh(tau)
        if self.kind == "shifted":
            return self.lower + self.sign * np.clip(np.exp(tau), _LOW, _HIGH)
        return self.lower + (self.upper - self.lower) / (1 + np.exp(-tau))


def search_coordinates(
    symbols: Sequence[sp.Symbol], given: Mapping[sp.Symbol, object]
) -> list[SearchCoordinate]:
    """The coordinates of the symbols the search may move: those the default
    sampler draws (no sampler in ``given``, not an integer), each in its
    domain (see the module docstring); a symbol on an interval with an end
    that is not a finite real stays fixed."""
    coordinates = []
    for s in symbols:
        if s in given or s.is_integer:
            continue
        bounds = interval_of(s)
        if bounds is not None:
            coordinate = _on_interval(s, bounds)
            if coordinate is not None:
                coordinates.append(coordinate)
        elif s.is_positive or s.is_nonnegative:
            coordinates.append(SearchCoordinate(s, "signed", 1.0))
        elif s.is_negative or s.is_nonpositive:
            coordinates.append(SearchCoordinate(s, "signed", -1.0))
        elif s.is_nonzero:
            # Of either sign but never 0: its sign stays the sampled one.
            coordinates.append(SearchCoordinate(s, "signed", 0.0))
        else:
            coordinates.append(SearchCoordinate(s, "sinh"))
    return coordinates


def _on_interval(
    symbol: sp.Symbol, bounds: tuple[sp.Expr, sp.Expr]
) -> SearchCoordinate | None:
    lower, upper = bounds
    if lower.is_finite and upper.is_finite:
        return SearchCoordinate(symbol, "logistic", 1.0, float(lower), float(upper))
    if lower.is_finite and upper == sp.oo:
        return SearchCoordinate(symbol, "shifted", 1.0, float(lower))
    if upper.is_finite and lower == -sp.oo:
        return SearchCoordinate(symbol, "shifted", -1.0, float(upper))
    return None


@dataclass(frozen=True)
class SearchOutcome:
    """What :func:`search_violation` searched, and its end points (one per
    start, the largest float64 relative violation first)."""

    points: list[dict[sp.Symbol, object]]
    starts: int
    evaluations: int
    moved: int
    fixed: int

    def described(self) -> str:
        """What was searched, for a verdict's detail."""
        if not self.starts:
            return "no local search (no symbol it may move)"
        fixed = f", {_count(self.fixed, 'other')} held" if self.fixed else ""
        return (
            f"a float64 search from the {self.starts} closest (L-BFGS-B, then "
            f"CMA-ES, moving {_count(self.moved, 'symbol')} within their "
            f"domains{fixed}: "
            f"{self.evaluations} evaluations of at most {SEARCH_EVALUATIONS}), "
            f"its {len(self.points)} end points evaluated at 50 digits"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


class _Exhausted(Exception):
    """The evaluation budget of one start is spent."""


class _Objective:
    r""":math:`\varphi` of the module docstring, vectorized over points."""

    def __init__(
        self,
        terms: Callable[..., object],
        symbols: Sequence[sp.Symbol],
        coordinates: Sequence[SearchCoordinate],
        base: Mapping[sp.Symbol, object],
        budget: int,
    ) -> None:
        self._terms = terms
        self._coordinates = coordinates
        self._rows = [symbols.index(c.symbol) for c in coordinates]
        self._base = np.array([float(base[s]) for s in symbols])  # type: ignore[arg-type]
        self.budget = budget
        self.used = 0
        self.best = -math.inf
        self.best_tau: np.ndarray | None = None

    def __call__(self, taus: np.ndarray) -> np.ndarray:
        """:math:`\\varphi` at the columns of ``taus`` (coordinates x points);
        -inf where it is not a finite real."""
        count = taus.shape[1]
        if self.used + count > self.budget:
            raise _Exhausted
        self.used += count
        points = np.repeat(self._base[:, None], count, axis=1)
        for row, coordinate, tau in zip(
            self._rows, self._coordinates, taus, strict=True
        ):
            points[row] = coordinate.value(tau)
        values = _relative_violation(self._terms, points)
        best = int(np.argmax(values))
        if values[best] > self.best:
            self.best, self.best_tau = float(values[best]), taus[:, best].copy()
        return values


def _relative_violation(terms: Callable[..., object], points: np.ndarray) -> np.ndarray:
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            evaluated = terms(*points)
            columns = [
                np.broadcast_to(np.asarray(t), points.shape[1:])
                for t in evaluated  # type: ignore[attr-defined]
            ]
            stacked = np.array(columns)
        except (ArithmeticError, ValueError, TypeError, NameError, AttributeError):
            return np.full(points.shape[1], -math.inf)
    if np.iscomplexobj(stacked):
        real = np.all(stacked.imag == 0, axis=0)
        stacked = np.where(real, stacked.real, np.nan)
    stacked = stacked.astype(float)
    ratio = stacked.sum(axis=0) / (np.abs(stacked).sum(axis=0) + 1e-300)
    return np.where(np.isfinite(ratio), ratio, -math.inf)


def search_violation(
    lhs_terms: Sequence[sp.Expr],
    rhs_terms: Sequence[sp.Expr],
    symbols: Sequence[sp.Symbol],
    coordinates: Sequence[SearchCoordinate],
    sampled: Sequence[Mapping[sp.Symbol, object]],
    rng: np.random.Generator,
    *,
    starts: int = SEARCH_STARTS,
    evaluations: int = SEARCH_EVALUATIONS,
) -> SearchOutcome:
    r"""End points of a float64 search for a violation of ``sum(lhs_terms) <=
    sum(rhs_terms)`` from the ``starts`` sampled points where :math:`\varphi`
    (module docstring) is largest.

    Args:
      lhs_terms, rhs_terms: the terms of the two sides.
      symbols: every free symbol of the terms.
      coordinates: those the search moves (:func:`search_coordinates`).
      sampled: the sampled points (a value for every symbol).
      rng: the sample's generator, continued.
      starts: sampled points to start from.
      evaluations: float64 evaluations over all starts.

    Returns:
      The end point of each start (the symbols not moved as in the start),
      the largest :math:`\varphi` first; none when no symbol moves, the terms
      cannot be evaluated in float64, or no sampled point is finite there.
    """
    nothing = SearchOutcome([], 0, 0, len(coordinates), 0)
    if not coordinates or not sampled or starts < 1 or evaluations < 1:
        return nothing
    terms = [*lhs_terms, *(-t for t in rhs_terms)]
    function = _float64_function(symbols, terms)
    if function is None:
        return nothing
    try:
        rows = [[float(p[s]) for p in sampled] for s in symbols]  # type: ignore[arg-type]
        table = np.array(rows, dtype=np.float64).reshape(len(symbols), len(sampled))
    except (TypeError, ValueError, OverflowError):
        return nothing
    closeness = _relative_violation(function, table)
    order = [int(i) for i in np.argsort(-closeness, kind="stable")]
    chosen = [i for i in order if np.isfinite(closeness[i])][:starts]
    if not chosen:
        return nothing
    share = evaluations // len(chosen)
    ends: list[tuple[float, dict[sp.Symbol, object]]] = []
    used = 0
    for index in chosen:
        start = sampled[index]
        placed = [c.with_sign_of(float(start[c.symbol])) for c in coordinates]  # type: ignore[arg-type]
        objective = _Objective(function, symbols, placed, start, share // 2)
        tau = np.array([c.to_tau(float(start[c.symbol])) for c in placed])  # type: ignore[arg-type]
        tau = _lbfgs(objective, tau, placed)
        objective.budget = share
        _cma_es(objective, tau, placed, rng)
        used += objective.used
        end = (
            None
            if objective.best_tau is None
            else _point(start, placed, objective.best_tau)
        )
        if end is not None:
            ends.append((objective.best, end))
        if objective.best > _CLEAR_VIOLATION:
            break
    ends.sort(key=lambda end: -end[0])
    moved_symbols = {c.symbol for c in coordinates}
    return SearchOutcome(
        [point for _, point in ends],
        len(chosen),
        used,
        len(coordinates),
        len([s for s in symbols if s not in moved_symbols]),
    )


def _float64_function(
    symbols: Sequence[sp.Symbol], terms: Sequence[sp.Expr]
) -> Callable[..., object] | None:
    try:
        return sp.lambdify(list(symbols), list(terms), modules=["scipy", "numpy"])
    except (TypeError, NameError, NotImplementedError, SyntaxError, KeyError):
        return None


def _point(
    start: Mapping[sp.Symbol, object],
    coordinates: Sequence[SearchCoordinate],
    tau: np.ndarray,
) -> dict[sp.Symbol, object] | None:
    """``start`` with the moved coordinates at ``tau``, each exactly inside its
    domain (a float rounded onto an interval's end is moved off it); None if
    one cannot be."""
    point = dict(start)
    for coordinate, t in zip(coordinates, tau, strict=True):
        value = float(coordinate.value(np.array(t)))
        if coordinate.kind in ("logistic", "shifted"):
            inside = _inside(coordinate.symbol, value)
            if inside is None:
                return None
            value = inside
        point[coordinate.symbol] = value
    return point


def _inside(symbol: sp.Symbol, value: float) -> float | None:
    """``value``, or the nearest float towards the interior of ``symbol``'s
    interval that lies in it exactly."""
    lower, upper = (float(end) for end in interval_of(symbol))  # type: ignore[union-attr]
    if math.isinf(lower) or math.isinf(upper):
        middle = lower + 1.0 if math.isfinite(lower) else upper - 1.0
    else:
        middle = (lower + upper) / 2
    for _ in range(64):
        exact = Fraction(value)
        if within_interval(symbol, sp.Rational(exact.numerator, exact.denominator)):
            return value
        value = math.nextafter(value, middle)
    return None


def _lbfgs(
    objective: _Objective, tau: np.ndarray, coordinates: Sequence[SearchCoordinate]
) -> np.ndarray:
    """L-BFGS-B on :math:`-\\varphi` within the coordinates' bounds, the gradient
    by forward differences in one batch; where it stopped (its best point)."""
    size = len(tau)
    steps = np.eye(size) * _DIFFERENCE_STEP

    def value_and_gradient(t: np.ndarray) -> tuple[float, np.ndarray]:
        batch = np.concatenate([t[:, None], t[:, None] + steps], axis=1)
        values = objective(batch)
        if not np.isfinite(values[0]):
            return 2.0, np.zeros(size)
        gradient = (values[1:] - values[0]) / _DIFFERENCE_STEP
        return -float(values[0]), -np.where(np.isfinite(gradient), gradient, 0.0)

    with contextlib.suppress(_Exhausted):
        minimize(
            value_and_gradient,
            tau,
            jac=True,
            method="L-BFGS-B",
            bounds=[c.bounds for c in coordinates],
            options={"maxfun": 10**6, "maxiter": 10**6, "ftol": 0.0, "gtol": 0.0},
        )
    return objective.best_tau if objective.best_tau is not None else tau


def _cma_es(
    objective: _Objective,
    tau: np.ndarray,
    coordinates: Sequence[SearchCoordinate],
    rng: np.random.Generator,
) -> None:
    """CMA-ES (Hansen's (mu/mu_w, lambda) with rank-one and rank-mu updates)
    maximizing :math:`\\varphi` from ``tau``, step 1, candidates clipped to
    the bounds; until the budget is spent, the steps fall below 1e-12 or a
    clear violation is found."""
    size = len(tau)
    population = max(12, 4 + int(3 * math.log(size)))
    parents = population // 2
    weights = math.log(parents + 0.5) - np.log(np.arange(1, parents + 1))
    weights /= weights.sum()
    effective = 1 / float(np.sum(weights**2))
    c_c = (4 + effective / size) / (size + 4 + 2 * effective / size)
    c_s = (effective + 2) / (size + effective + 5)
    c_1 = 2 / ((size + 1.3) ** 2 + effective)
    c_mu = min(
        1 - c_1, 2 * (effective - 2 + 1 / effective) / ((size + 2) ** 2 + effective)
    )
    damping = 1 + 2 * max(0.0, math.sqrt((effective - 1) / (size + 1)) - 1) + c_s
    expected_norm = math.sqrt(size) * (1 - 1 / (4 * size) + 1 / (21 * size**2))
    low = np.array([c.bounds[0] for c in coordinates])[:, None]
    high = np.array([c.bounds[1] for c in coordinates])[:, None]
    mean, sigma = tau.astype(float).copy(), 1.0
    covariance = np.eye(size)
    axes, lengths = np.eye(size), np.ones(size)
    path_c, path_s = np.zeros(size), np.zeros(size)
    generation = 0
    try:
        while objective.best <= _CLEAR_VIOLATION and sigma * lengths.max() > 1e-12:
            noise = rng.standard_normal((size, population))
            candidates = np.clip(
                mean[:, None] + sigma * (axes @ (lengths[:, None] * noise)), low, high
            )
            values = objective(candidates)
            order = np.argsort(-values, kind="stable")[:parents]
            selected = (candidates[:, order] - mean[:, None]) / sigma
            step = selected @ weights
            mean = mean + sigma * step
            whitened = axes @ ((axes.T @ step) / lengths)
            path_s = (1 - c_s) * path_s + math.sqrt(
                c_s * (2 - c_s) * effective
            ) * whitened
            generation += 1
            norm = float(np.linalg.norm(path_s))
            stalled = norm / math.sqrt(
                1 - (1 - c_s) ** (2 * generation)
            ) / expected_norm < 1.4 + 2 / (size + 1)
            path_c = (1 - c_c) * path_c + stalled * math.sqrt(
                c_c * (2 - c_c) * effective
            ) * step
            covariance = (
                (1 - c_1 - c_mu) * covariance
                + c_1
                * (
                    np.outer(path_c, path_c)
                    + (1 - stalled) * c_c * (2 - c_c) * covariance
                )
                + c_mu * (selected * weights) @ selected.T
            )
            sigma *= math.exp(min(1.0, (c_s / damping) * (norm / expected_norm - 1)))
            covariance = np.triu(covariance) + np.triu(covariance, 1).T
            eigenvalues, axes = np.linalg.eigh(covariance)
            lengths = np.sqrt(np.maximum(eigenvalues, 1e-30))
    except _Exhausted:
        pass
