r"""Checks of estimates: Monte-Carlo means, convergence orders and
gradient-descent endpoints.

Each check compares a number measured in floating point with what theory says
it should be, within a tolerance theory gives: a mean within ``z`` standard
errors of the mean, a fitted order within ``z`` standard errors of the fit
(plus the bias of the next term of the expansion), a gradient-descent
endpoint within the stated order of its error in the step size or scale. (A
float64 evaluator against its multi-precision reference is
:mod:`implicit_bias.claims.accuracy`.) The decisive comparison goes
through :func:`~implicit_bias.claims.checks.check_close`, so ``implicit-bias
mutate`` can shift it by a number of tolerances and ask whether the claim
notices.

Statistical verdicts come in three. With ``fail_beyond`` larger than
``standard_errors``, an effect within ``standard_errors`` SE ``holds``, one
beyond ``fail_beyond`` SE ``fails``, and one in between is ``inconclusive``
(``Reason.STATISTICAL``): too large to accept, too small to refute.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from implicit_bias.claims.checks import check_close
from implicit_bias.claims.engine import Basis, Reason, Status, Verdict
from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "check_convergence_order",
    "check_descent_endpoint",
    "check_mean",
]


def _positive(name: str, value: float, meaning: str) -> float:
    if isinstance(value, bool) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        raise InvalidArgumentError(f"{name}={value!r} is not a real number: {meaning}")
    if not (math.isfinite(value) and value > 0):
        raise InvalidArgumentError(
            f"{name}={value!r} must be finite and > 0: {meaning}"
        )
    return float(value)


def _nonnegative(name: str, value: float, meaning: str) -> float:
    if isinstance(value, bool) or not isinstance(
        value, int | float | np.integer | np.floating
    ):
        raise InvalidArgumentError(f"{name}={value!r} is not a real number: {meaning}")
    if not (math.isfinite(value) and value >= 0):
        raise InvalidArgumentError(
            f"{name}={value!r} must be finite and >= 0: {meaning}"
        )
    return float(value)


def _thresholds(
    standard_errors: float, fail_beyond: float | None
) -> tuple[float, float]:
    z = _positive("standard_errors", standard_errors, "the accepted effect in SE")
    if fail_beyond is None:
        return z, z
    z_fail = _positive("fail_beyond", fail_beyond, "the refuting effect in SE")
    if z_fail < z:
        raise InvalidArgumentError(
            f"fail_beyond={fail_beyond!r} is below standard_errors="
            f"{standard_errors!r}: an effect is refuted only beyond the band it is "
            "accepted in"
        )
    return z, z_fail


def _real_vector(name: str, values: npt.ArrayLike) -> np.ndarray:
    array = np.asarray(values)
    if np.iscomplexobj(array) or not (
        np.issubdtype(array.dtype, np.number) or array.dtype == np.bool_
    ):
        raise InvalidArgumentError(f"{name} must be an array of real numbers")
    if array.ndim != 1:
        raise InvalidArgumentError(
            f"{name} must be one-dimensional, got shape {array.shape}"
        )
    return array.astype(np.float64)


def _graded(
    observed: float,
    expected: float,
    accept: float,
    refute: float,
    *,
    what: str,
    detail: str,
    basis: Basis,
) -> Verdict:
    """``holds`` within ``accept`` of ``expected``, ``fails`` beyond ``refute``,
    ``inconclusive`` (``Reason.STATISTICAL``) in between; through check_close."""
    within = check_close(observed, expected, accept, what=what, basis=basis)
    if within.status == Status.HOLDS:
        return within.with_detail(detail)
    if within.status == Status.INCONCLUSIVE:
        return within.with_detail(f"{detail} ({within.detail})")
    if refute == accept:
        return within.with_detail(detail)
    beyond = check_close(observed, expected, refute, what=what, basis=basis)
    if beyond.status == Status.FAILS:
        return beyond.with_detail(detail)
    return Verdict.inconclusive(
        f"{detail}: outside the accepted band, inside the refuting one",
        Reason.STATISTICAL,
        basis,
    )


def check_mean(
    draws: npt.ArrayLike,
    expected: float,
    *,
    standard_errors: float = 4.0,
    fail_beyond: float | None = None,
    bias_bound: float = 0.0,
    what: str = "Monte Carlo mean",
) -> Verdict:
    r"""Decide that independent draws have mean ``expected``: the sample mean
    within ``standard_errors`` standard errors of it.

    .. math:: |\bar X - \mu| \le z\,\frac{s}{\sqrt n} + b,\qquad
              s^2 = \frac{1}{n-1}\sum_{i=1}^n (X_i - \bar X)^2

    where :math:`\mu` is ``expected``, :math:`z` is ``standard_errors`` and
    :math:`b` is ``bias_bound`` (a bound on :math:`|E X - \mu|` known from
    theory, e.g. the finite-size bias of an asymptotic formula; 0 for an exact
    prediction). Under the central limit theorem a true statement misses
    :math:`z = 4` with probability about :math:`6\times10^{-5}`.

    Args:
      draws: the independent draws :math:`X_1, \dots, X_n`, one-dimensional,
        :math:`n \ge 2`.
      expected: the mean theory predicts.
      standard_errors: :math:`z > 0`, the effect still accepted.
      fail_beyond: the effect in SE beyond which the statement ``fails``
        (:math:`\ge z`); ``None`` for :math:`z` itself (a two-way verdict).
        In between the verdict is ``inconclusive`` (``Reason.STATISTICAL``).
      bias_bound: :math:`b \ge 0`, added to both bands.
      what: names the mean in the evidence.

    Returns:
      A verdict on a statistical basis; its evidence gives the mean, its
      standard error, the prediction and the effect in SE.
      ``inconclusive`` (``Reason.NON_FINITE``) when a draw or ``expected`` is
      not finite, (``Reason.STATISTICAL``) when every draw is equal (a
      sample standard deviation of 0 says nothing of the distribution's).

    Raises:
      InvalidArgumentError: fewer than 2 draws, a draw that is not real,
        ``standard_errors`` or ``fail_beyond`` not positive, ``fail_beyond <
        standard_errors``, or ``bias_bound < 0``.

    Examples:
      >>> rng = np.random.default_rng(0)
      >>> check_mean(rng.exponential(2.0, 4000), 2.0).status
      <Status.HOLDS: 'holds'>
      >>> check_mean(rng.exponential(2.0, 4000), 2.5).status
      <Status.FAILS: 'fails'>
    """
    values = _real_vector("draws", draws)
    if values.size < 2:
        raise InvalidArgumentError(
            f"draws has {values.size} values: a standard error needs n >= 2"
        )
    z, z_fail = _thresholds(standard_errors, fail_beyond)
    bias = _nonnegative("bias_bound", bias_bound, "a bound on the bias of the mean")
    try:
        target = float(expected)
    except (TypeError, ValueError) as refusal:
        raise InvalidArgumentError(
            f"expected={expected!r} is not a real number: the predicted mean"
        ) from refusal
    if not (np.all(np.isfinite(values)) and math.isfinite(target)):
        bad = int(np.sum(~np.isfinite(values)))
        return Verdict.inconclusive(
            f"{what}: {bad} of {values.size} draws are not finite"
            + ("" if math.isfinite(target) else f"; the prediction is {target}"),
            Reason.NON_FINITE,
            Basis.STATISTICAL,
        )
    mean = float(values.mean())
    error = float(values.std(ddof=1) / np.sqrt(values.size))
    difference = mean - target
    if error == 0:
        # s = 0 is the sample's spread, not the distribution's: 100 draws of a
        # Bernoulli(0.001) are all 0 with probability 0.90, and would refute
        # the true mean 0.001 (or show a false mean 0) on no evidence.
        return Verdict.inconclusive(
            f"{what}: all {values.size} draws equal {mean:.6g} (against "
            f"{target:.6g}), so their standard error is 0 and bounds nothing: an "
            "outcome the draws never showed may carry the mean",
            Reason.STATISTICAL,
            Basis.STATISTICAL,
        )
    effect = f"{difference / error:+.2f} SE"
    bias_note = f" (bias bound {bias:.3g})" if bias else ""
    detail = (
        f"{what}: {mean:.6g} +- {error:.3g} (SE, {values.size} draws) against "
        f"{target:.6g}: {effect}{bias_note}"
    )
    band = f"; accepted within {z:g} SE" + (
        f", refuted beyond {z_fail:g} SE" if z_fail > z else ""
    )
    return _graded(
        mean,
        target,
        z * error + bias,
        z_fail * error + bias,
        what=what,
        detail=detail + band,
        basis=Basis.STATISTICAL,
    )


def check_convergence_order(
    parameters: npt.ArrayLike,
    errors: npt.ArrayLike,
    expected_order: float,
    *,
    standard_errors: float = 4.0,
    fail_beyond: float | None = None,
    model_tolerance: float = 0.0,
    resolution: float = 0.0,
    what: str = "error",
) -> Verdict:
    r"""Decide that ``errors`` decay as ``parameters**expected_order``: the
    least-squares slope of :math:`\log e` against :math:`\log h`.

    .. math:: \hat p = \frac{\sum_i (x_i - \bar x)(y_i - \bar y)}{\sum_i (x_i -
              \bar x)^2},\quad x_i = \log h_i,\ y_i = \log e_i,\qquad
              \operatorname{SE}(\hat p) = \sqrt{\frac{\sum_i r_i^2/(n-2)}
              {\sum_i (x_i - \bar x)^2}}

    with :math:`r_i` the residuals of the fit; ``holds`` when
    :math:`|\hat p - p| \le z\,\operatorname{SE}(\hat p) + \tau + \delta` and
    the fit resolves the order to within the margin,
    :math:`z\,\operatorname{SE}(\hat p) \le \tau + \delta`; ``fails`` when
    :math:`|\hat p - p| > z_f\,\operatorname{SE}(\hat p) + \tau + \delta`
    (:math:`z_f` is ``fail_beyond``, by default :math:`z`); else
    ``inconclusive`` (``Reason.STATISTICAL``). Here :math:`p` is
    ``expected_order``, :math:`\tau` is ``model_tolerance`` -- the shift of the
    fitted slope by the next term of the expansion: for :math:`e = A h^p(1 +
    B h^q)` the local slope is :math:`p + q\,Bh^q/(1 + Bh^q)`, so :math:`\tau`
    bounds that over the range -- and :math:`\delta` the effect of float64
    rounding of the logarithms on the slope,
    :math:`4\varepsilon\max(1, |y|)\sum|x_i - \bar x| / \sum(x_i - \bar x)^2`.
    For deterministic errors (a step-size refinement) the residual SE measures
    how far the points are from a power law, which is why a large one cannot
    show an order; for noisy errors it is the usual standard error (with few
    points its own uncertainty is large: Student's :math:`t_{n-2}` quantile
    is the honest :math:`z`).

    Args:
      parameters: the step sizes, scales or sizes :math:`h_i > 0`, not all
        equal, at least 3 of them.
      errors: the errors :math:`e_i \ge 0` at them (same length).
      expected_order: :math:`p`, the order theory predicts.
      standard_errors: :math:`z > 0`.
      fail_beyond: the effect in SE beyond which the order is refuted; ``None``
        for ``standard_errors`` (between the two: ``inconclusive``,
        ``Reason.STATISTICAL``).
      model_tolerance: :math:`\tau \ge 0`, from the error's expansion.
      resolution: errors at or below it cannot be resolved (e.g. the rounding
        level of the compared quantity): ``inconclusive``.
      what: names the error in the evidence.

    Returns:
      A verdict on a numerical basis whose evidence gives the slope and its
      standard error; ``inconclusive`` (``Reason.NON_FINITE``) on a non-finite
      error, (``Reason.UNDECIDED``) on an error at or below ``resolution``.

    Raises:
      InvalidArgumentError: fewer than 3 points, lengths that differ, a
        parameter not finite and positive, parameters all equal, a negative
        error, or a threshold out of its domain.

    Examples:
      >>> h = np.array([0.1, 0.05, 0.025, 0.0125])
      >>> check_convergence_order(h, 3 * h**2 * (1 + h), 2, model_tolerance=0.1).status
      <Status.HOLDS: 'holds'>
      >>> check_convergence_order(h, 3 * h * (1 + h), 2, model_tolerance=0.1).status
      <Status.FAILS: 'fails'>
    """
    h = _real_vector("parameters", parameters)
    e = _real_vector("errors", errors)
    if h.size < 3:
        raise InvalidArgumentError(
            f"parameters has {h.size} values: a slope with a standard error needs >= 3"
        )
    if e.size != h.size:
        raise InvalidArgumentError(
            f"errors has {e.size} values, parameters {h.size}: one error per parameter"
        )
    if not np.all(np.isfinite(h) & (h > 0)):
        raise InvalidArgumentError(
            f"parameters={h.tolist()} must be finite and > 0 (their logarithms are "
            "fitted)"
        )
    if np.all(h == h[0]):
        raise InvalidArgumentError(
            f"parameters={h.tolist()} are all equal: there is no slope to fit"
        )
    if np.any(e < 0):
        raise InvalidArgumentError(
            f"errors={e.tolist()} contains a negative value: errors are magnitudes"
        )
    z, z_fail = _thresholds(standard_errors, fail_beyond)
    tau = _nonnegative("model_tolerance", model_tolerance, "the slope's model error")
    floor = _nonnegative("resolution", resolution, "the smallest resolved error")
    order = float(expected_order)
    listed = f"{what} {np.array2string(e, precision=3)} at {h.tolist()}"
    if not np.all(np.isfinite(e)):
        return Verdict.inconclusive(
            f"{listed}: an error is not finite", Reason.NON_FINITE, Basis.NUMERICAL
        )
    if np.any(e <= floor):
        return Verdict.inconclusive(
            f"{listed}: an error is at or below the resolution {floor:g}, too small "
            "to measure an order",
            Reason.UNDECIDED,
            Basis.NUMERICAL,
        )
    x, y = np.log(h), np.log(e)
    centred = x - x.mean()
    spread = float(centred @ centred)
    slope = float(centred @ y / spread)
    residuals = y - y.mean() - slope * centred
    error = float(np.sqrt(residuals @ residuals / (h.size - 2) / spread))
    eps = float(np.finfo(np.float64).eps)
    rounding = (
        4
        * eps
        * max(1.0, float(np.max(np.abs(y))))
        * float(np.sum(np.abs(centred)))
        / spread
    )
    margin = tau + rounding
    detail = (
        f"{listed}: fitted order {slope:.4f} +- {error:.2g} (SE of the log-log "
        f"fit) against {order:g}; accepted within {z:g} SE"
        + (f", refuted beyond {z_fail:g} SE" if z_fail > z else "")
        + (f", plus the model tolerance {tau:g}" if tau else "")
    )
    if z * error > margin:
        # Points this far from a power law (or this noisy) do not resolve the
        # order to within the model tolerance: they can refute it, not show it.
        beyond = check_close(
            slope,
            order,
            z_fail * error + margin,
            what=f"order of the {what}",
            basis=Basis.NUMERICAL,
        )
        if beyond.status == Status.FAILS:
            return beyond.with_detail(detail)
        return Verdict.inconclusive(
            f"{detail}: {z:g} SE = {z * error:.2g} exceeds the model tolerance "
            f"{tau:g}, so the fit does not resolve the order to within it",
            Reason.STATISTICAL,
            Basis.NUMERICAL,
        )
    return _graded(
        slope,
        order,
        z * error + margin,
        z_fail * error + margin,
        what=f"order of the {what}",
        detail=detail,
        basis=Basis.NUMERICAL,
    )


def check_descent_endpoint(
    trained: npt.ArrayLike,
    predicted: npt.ArrayLike,
    *,
    scales: npt.ArrayLike,
    order: float,
    constant: float | None = None,
    order_tolerance: float | None = None,
    converged: bool | npt.ArrayLike = True,
    resolution: float = 0.0,
    what: str = "gradient-descent endpoint",
) -> Verdict:
    r"""Decide that gradient-descent endpoints approach the theory's prediction
    at the stated order in the step size (or initialization scale).

    The endpoint trained at scale :math:`s_k` (a step size :math:`\eta`, an
    initialization scale :math:`\alpha`) has error
    :math:`e_k = \|\hat\beta(s_k) - \beta^\ast\|_2`, and theory says
    :math:`e(s) = O(s^p)`. Two ways to decide it, one of which is given:

    * ``constant`` :math:`C` (a bound theory proves):
      :math:`e_k \le C s_k^p` at every scale, through
      :func:`~implicit_bias.claims.checks.check_close` -- ``fails`` at the
      worst scale otherwise;
    * ``order_tolerance`` :math:`\tau` (no constant known): the observed
      order is :math:`p` by :func:`check_convergence_order` with
      ``model_tolerance`` :math:`\tau` (e.g. gradient descent is a first-order
      discretization of the flow: :math:`e(\eta) = A\eta + B\eta^2 + \dots`).

    A run that did not converge has no endpoint: any ``False`` in
    ``converged`` makes the verdict ``inconclusive`` (``Reason.UNDECIDED``),
    never ``fails``.

    Args:
      trained: the endpoints, one per scale along the first axis.
      predicted: the endpoint theory predicts, broadcast against each of them.
      scales: the scales :math:`s_k > 0` the runs used.
      order: :math:`p`.
      constant: :math:`C > 0`, exclusive with ``order_tolerance``.
      order_tolerance: :math:`\tau \ge 0`, needs at least 3 scales.
      converged: whether each run met its stopping criterion (one flag, or one
        per scale).
      resolution: passed to :func:`check_convergence_order`.
      what: names the endpoint in the evidence.

    Raises:
      InvalidArgumentError: not exactly one of ``constant``, ``order_tolerance``;
        shapes that do not match; a scale not finite and positive.

    Examples:
      >>> eta = np.array([0.04, 0.02, 0.01])
      >>> limit = np.array([1.0, -2.0])
      >>> runs = limit + np.outer(eta, [0.5, 0.3])   # first order in the step
      >>> check_descent_endpoint(runs, limit, scales=eta, order=1, constant=1.0).status
      <Status.HOLDS: 'holds'>
      >>> check_descent_endpoint(runs, limit, scales=eta, order=1,
      ...                        order_tolerance=0.15).status
      <Status.HOLDS: 'holds'>

      A prediction off by 0.01 leaves an error that does not vanish with the step:

      >>> check_descent_endpoint(runs, limit - 0.01, scales=eta, order=1,
      ...                        order_tolerance=0.15).status
      <Status.FAILS: 'fails'>
    """
    if (constant is None) == (order_tolerance is None):
        raise InvalidArgumentError(
            "constant, order_tolerance: give exactly one (a proven constant C of "
            "e <= C s**p, or the tolerance of the observed order)"
        )
    s = _real_vector("scales", scales)
    if not np.all(np.isfinite(s) & (s > 0)):
        raise InvalidArgumentError(f"scales={s.tolist()} must be finite and > 0")
    endpoints = np.asarray(trained, dtype=np.float64)
    if endpoints.ndim == 0 or endpoints.shape[0] != s.size:
        raise InvalidArgumentError(
            f"trained has shape {endpoints.shape}: one endpoint per scale "
            f"({s.size}) along the first axis"
        )
    try:
        differences = endpoints - np.asarray(predicted, dtype=np.float64)
    except ValueError as error:
        raise InvalidArgumentError(
            f"predicted does not broadcast against an endpoint ({error})"
        ) from error
    if differences.shape != endpoints.shape:
        raise InvalidArgumentError(
            f"predicted broadcasts trained {endpoints.shape} to {differences.shape}: "
            "it must have the shape of one endpoint"
        )
    errors = np.sqrt(np.sum(differences.reshape(s.size, -1) ** 2, axis=1))
    try:
        flags = np.broadcast_to(np.asarray(converged, dtype=bool), s.shape)
    except ValueError as error:
        raise InvalidArgumentError(
            f"converged: one flag, or one per scale ({s.size}), got {converged!r}"
        ) from error
    if not np.all(flags):
        return Verdict.inconclusive(
            f"{what}: the runs at scales {s[~flags].tolist()} did not converge; an "
            "unconverged run has no endpoint to compare",
            Reason.UNDECIDED,
            Basis.NUMERICAL,
        )
    if constant is not None:
        c = _positive("constant", constant, "the constant of the error bound")
        bound = c * s ** float(order)
        verdict = check_close(
            errors, 0.0, bound, what=f"distance of the {what} from the prediction"
        )
        return verdict.with_detail(
            f"{what}: |trained - predicted| = {np.array2string(errors, precision=3)} "
            f"at scales {s.tolist()} against the bound {c:g} s^{float(order):g} = "
            f"{np.array2string(bound, precision=3)} ({verdict.detail})"
        )
    if order_tolerance is None:
        raise AssertionError("one of the two is given")
    return check_convergence_order(
        s,
        errors,
        order,
        model_tolerance=order_tolerance,
        resolution=resolution,
        what=f"distance of the {what} from the prediction",
    )
