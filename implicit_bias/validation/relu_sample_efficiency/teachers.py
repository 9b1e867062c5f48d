r"""The teachers of Fig. 1c of ptft-relu-penalty: unit pairs at a stated
correlation :math:`\langle u_j, v_j\rangle = \rho` and the teachers' outputs
with readouts m.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import ConvergenceError, InvalidArgumentError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_generator,
    check_real,
)
from implicit_bias.validation.relu_sample_efficiency.networks import (
    Float64Array,
    _finite,
)

__all__ = [
    "correlated_units",
    "teacher_outputs",
]


def correlated_units(
    units: ArrayLike, rho: float, rng: np.random.Generator
) -> Float64Array:
    r"""Unit vectors :math:`u_j = \rho v_j + \sqrt{1-\rho^2}\,v_j^\perp`.

    :math:`v_j^\perp` is a uniformly random unit vector orthogonal to
    :math:`v_j`, so that :math:`\langle u_j, v_j\rangle = \rho` (the
    :math:`\rho_h` of eq. (8) between a pretraining and a finetuning feature).

    Args:
      units: the rows :math:`v_j`, unit vectors, (k, d) with d >= 2.
      rho: the correlation, in [-1, 1].
      rng: the generator drawing :math:`v_j^\perp`.

    Returns:
      The rows :math:`u_j`, (k, d).

    Raises:
      InvalidArgumentError: ``units`` is not (k, d) with k >= 1, d >= 2 and
        unit rows, rho is not a real number in [-1, 1], or ``rng`` is not a
        Generator.

    Examples:
      >>> v = np.eye(3)[:2]
      >>> u = correlated_units(v, 0.9, np.random.default_rng(0))
      >>> bool(np.allclose(np.sum(u * v, axis=1), 0.9))
      True
      >>> bool(np.allclose(np.linalg.norm(u, axis=1), 1.0))
      True

    References:
      Eq. (8) of ptft-relu-penalty (definition of :math:`\rho_h`).
    """
    v = as_finite_array("units", units, ndim=2, shape="(k, d)")
    if v.shape[0] == 0 or v.shape[1] < 2:
        raise InvalidArgumentError(
            f"units has shape {v.shape}: units must be (k, d) with k >= 1 and "
            "d >= 2 (u_j needs a direction orthogonal to v_j)"
        )
    norms = np.linalg.norm(v, axis=1)
    if not np.allclose(norms, 1.0, rtol=0.0, atol=1e-10):
        bad = float(norms[~np.isclose(norms, 1.0, rtol=0.0, atol=1e-10)][0])
        raise InvalidArgumentError(
            f"units has a row of norm {bad!r}: the rows of units are unit vectors "
            "(norm 1 within 1e-10)"
        )
    r = check_real(
        "rho", rho, min_value=-1.0, max_value=1.0, meaning="a cosine similarity"
    )
    rng = check_generator("rng", rng)
    noise = _orthogonal_directions(v, rng)
    # sqrt((1 - rho)(1 + rho)): no cancellation near |rho| = 1.
    return np.asarray(r * v + math.sqrt((1.0 - r) * (1.0 + r)) * noise)


#: A draw whose part orthogonal to v_j is shorter than this fraction of it is
#: redrawn (it is (nearly) parallel to v_j, e.g. when v_j came from the same
#: seed); normalizing it would amplify rounding into the direction.
_PARALLEL_FRACTION = 1e-6
#: Redraw rounds before giving up (each round fails with probability ~1e-6).
_MAX_REDRAWS = 64


def _orthogonal_directions(v: Float64Array, rng: np.random.Generator) -> Float64Array:
    """Unit rows uniformly random among those orthogonal to the rows of ``v``."""
    noise = rng.standard_normal(v.shape)
    for _ in range(_MAX_REDRAWS):
        length = np.linalg.norm(noise, axis=1)
        noise -= np.sum(noise * v, axis=1, keepdims=True) * v
        orthogonal = np.linalg.norm(noise, axis=1)
        parallel = orthogonal <= _PARALLEL_FRACTION * length
        if not parallel.any():
            return np.asarray(noise / orthogonal[:, None])
        noise[parallel] = rng.standard_normal((int(parallel.sum()), v.shape[1]))
    raise ConvergenceError(
        f"no direction orthogonal to units found in {_MAX_REDRAWS} draws: "
        "check that rng is a working generator"
    )


def teacher_outputs(
    inputs: ArrayLike, units: ArrayLike, magnitude: ArrayLike
) -> Float64Array:
    r"""A teacher :math:`f(x) = m\sum_j(\langle u_j, x\rangle)_+`.

    Args:
      inputs: x, (..., n, d).
      units: :math:`u_j`, (..., k, d), broadcasting with ``inputs``.
      magnitude: m, broadcasting with the leading axes (...).

    Returns:
      The outputs, (..., n).

    Raises:
      InvalidArgumentError: a value is not finite, an array lacks its two
        trailing axes (or they are empty), the dimensions differ, or the
        leading axes do not broadcast.
      OutOfRangeError: an output overflows float64.

    Examples:
      >>> teacher_outputs([[1.0, -2.0]], [[1.0, 0.0], [0.0, -1.0]], 3.0)
      array([9.])

    References:
      The teacher-student setup of Fig. 1c of ptft-relu-penalty.
    """
    x = as_finite_array("inputs", inputs)
    u = as_finite_array("units", units)
    m = as_finite_array("magnitude", magnitude)
    for name, array, axes in (
        ("inputs", x, "(..., n, d)"),
        ("units", u, "(..., k, d)"),
    ):
        if array.ndim < 2 or 0 in array.shape[-2:]:
            raise InvalidArgumentError(
                f"{name} has shape {array.shape}: {name} must be {axes} with at "
                "least one row of dimension d >= 1"
            )
    if x.shape[-1] != u.shape[-1]:
        raise InvalidArgumentError(
            f"inputs has dimension {x.shape[-1]} but units has {u.shape[-1]}: both "
            "live in R^d"
        )
    try:
        np.broadcast_shapes(x.shape[:-2], u.shape[:-2], m.shape)
    except ValueError as error:
        raise InvalidArgumentError(
            f"the leading axes do not broadcast: inputs {x.shape[:-2]}, units "
            f"{u.shape[:-2]}, magnitude {m.shape}"
        ) from error
    with np.errstate(over="ignore", invalid="ignore"):
        features = np.maximum(np.einsum("...nd,...kd->...nk", x, u), 0.0)
        outputs = np.asarray(np.sum(features, axis=-1) * m[..., None])
    return _finite(outputs, "the teacher's outputs", "inputs, units or magnitude")
