r"""The ablated teachers of eqs. (19)-(20) of features-are-fate (Section 4):
unit weights uniform on the sphere, readouts, the ablation setup and its
checks, and the ReLU features of a set of inputs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import (
    as_finite_array,
    check_generator,
    check_integer,
    check_real,
)
from implicit_bias.validation.relu_networks import UNIT_NORM_TOLERANCE

__all__ = [
    "AblationSetup",
    "ablation_setup",
    "relu_features",
    "sample_sphere",
]

Float64Array = NDArray[np.float64]

#: Rows of inputs processed at once by the Monte-Carlo estimators.
_BATCH = 1 << 14
#: Row norms accepted where the arc-cosine Gram is formed: relu_gram forms the
#: norms' products and the cosines in float64 (see its module).
_MAX_NORM = 1e150
_MIN_NORM = 1e-150


@dataclass(frozen=True)
class AblationSetup:
    r"""The teachers of eqs. (19)-(20).

    Attributes:
      teacher_weights: :math:`(w^*_i)_{i\le m_*}` on the unit sphere, (m_*, d).
      teacher_readout: :math:`c^*`, (m_*,).
      ablated: the sorted indices :math:`\mathcal A`, :math:`|\mathcal A| = \mu m_*`.
      ablated_fraction: :math:`\mu`.
    """

    teacher_weights: Float64Array
    teacher_readout: Float64Array
    ablated: NDArray[np.int64]
    ablated_fraction: float

    @property
    def kept(self) -> NDArray[np.int64]:
        r"""The indices :math:`\mathcal A^c` of the source's units."""
        mask = np.ones(self.teacher_readout.size, dtype=bool)
        mask[self.ablated] = False
        return np.flatnonzero(mask)

    @property
    def source_weights(self) -> Float64Array:
        r""":math:`(w^*_i)_{i\in\mathcal A^c}`, the source's hidden weights."""
        return self.teacher_weights[self.kept]

    @property
    def source_readout(self) -> Float64Array:
        r"""The source (19)'s readout over its own units, :math:`c^*_{\mathcal A^c}`.

        :math:`f_s^* = \frac{1}{|\mathcal A^c|}\sum_{i\in\mathcal A^c}c^*_i\sigma_i`
        and :math:`|\mathcal A^c| = (1-\mu)m_*`.
        """
        return self.teacher_readout[self.kept]


def sample_sphere(count: int, dimension: int, rng: np.random.Generator) -> Float64Array:
    r"""``count`` points uniform on :math:`S^{d-1}`, as rows.

    .. math:: w = g/\|g\|_2,\qquad g\sim\mathcal N(0, I_d)

    Args:
      count: the number of points, >= 1.
      dimension: d, >= 1.
      rng: the generator.

    Returns:
      An array (count, d) of unit rows.

    Raises:
      InvalidArgumentError: ``count`` or ``dimension`` is not an integer >= 1,
        or ``rng`` is not a ``numpy.random.Generator``.
    """
    count_ = check_integer("count", count, min_value=1, meaning="a number of points")
    d = check_integer("dimension", dimension, min_value=1, meaning="the dimension d")
    generator = check_generator("rng", rng)
    return _sphere(count_, d, generator)


def _sphere(count: int, dimension: int, rng: np.random.Generator) -> Float64Array:
    points = rng.standard_normal((count, dimension))
    return np.asarray(points / np.linalg.norm(points, axis=1, keepdims=True))


def _weights(
    name: str,
    value: object,
    *,
    unit: bool = False,
    gram: bool = False,
    dimension: tuple[str, int] | None = None,
) -> Float64Array:
    """A finite, non-empty (m, d) weight matrix, or InvalidArgumentError naming it.

    ``unit``: rows on the unit sphere within :data:`UNIT_NORM_TOLERANCE`.
    ``gram``: row norms 0 or in ``[_MIN_NORM, _MAX_NORM]``, where the
    arc-cosine Gram forms norms and cosines in float64. ``dimension``: the
    (name, d) of an argument whose d this one must share.
    """
    weights = as_finite_array(name, value, ndim=2, shape="(m, d)")  # type: ignore[arg-type]
    if weights.shape[0] == 0 or weights.shape[1] == 0:
        raise InvalidArgumentError(
            f"{name} has shape {weights.shape}: {name} must hold at least one "
            "weight vector (row) of dimension d >= 1"
        )
    if dimension is not None and weights.shape[1] != dimension[1]:
        raise InvalidArgumentError(
            f"{name} has dimension {weights.shape[1]} but {dimension[0]} has "
            f"{dimension[1]}: both are weights in R^d"
        )
    if unit or gram:
        with np.errstate(over="ignore", under="ignore"):
            norms = np.linalg.norm(weights, axis=1)
        if unit and not np.all(np.abs(norms - 1.0) <= UNIT_NORM_TOLERANCE):
            bad = float(norms[~(np.abs(norms - 1.0) <= UNIT_NORM_TOLERANCE)][0])
            raise InvalidArgumentError(
                f"{name} has a row of norm {bad!r}: the rows of {name} lie on the "
                f"unit sphere (norm 1 within {UNIT_NORM_TOLERANCE:g})"
            )
        outside = (norms > _MAX_NORM) | ((norms > 0) & (norms < _MIN_NORM))
        if gram and outside.any():
            raise InvalidArgumentError(
                f"{name} has a row of norm {float(norms[outside][0])!r}: the rows "
                f"of {name} must have norms 0 or in [{_MIN_NORM:g}, {_MAX_NORM:g}], "
                "where the arc-cosine Gram matrix is formed in float64"
            )
    return weights


def _vector(name: str, value: object, size: tuple[str, int]) -> Float64Array:
    """A finite vector of ``size[1]`` entries (one per row of ``size[0]``)."""
    vector = as_finite_array(name, value, ndim=1, shape="(m,)")  # type: ignore[arg-type]
    if vector.shape[0] != size[1]:
        raise InvalidArgumentError(
            f"{name} has {vector.shape[0]} entries but {size[0]} has {size[1]} "
            f"rows: {name} has one entry per unit"
        )
    return vector


def _check_ablation(name: str, setup: object) -> AblationSetup:
    """Check an :class:`AblationSetup` (its fields are named ``name.field``)."""
    if not isinstance(setup, AblationSetup):
        raise InvalidArgumentError(
            f"{name}={setup!r:.80} is not an AblationSetup: {name} holds the "
            "teachers of eqs. (19)-(20) (see ablation_setup)"
        )
    weights = _weights(f"{name}.teacher_weights", setup.teacher_weights, unit=True)
    _vector(
        f"{name}.teacher_readout",
        setup.teacher_readout,
        (f"{name}.teacher_weights", weights.shape[0]),
    )
    ablated = np.asarray(setup.ablated)
    width = weights.shape[0]
    if (
        ablated.ndim != 1
        or ablated.dtype.kind not in "iu"
        or np.any(ablated < 0)
        or np.any(ablated >= width)
        or np.unique(ablated).size != ablated.size
        or ablated.size >= width
    ):
        raise InvalidArgumentError(
            f"{name}.ablated={_short(setup.ablated)} is not a set of fewer than "
            f"m_* = {width} distinct unit indices in [0, m_*): it is the ablated "
            "set A of eq. (19), and the source keeps at least one unit"
        )
    return setup


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def ablation_setup(
    teacher_width: int,
    dimension: int,
    ablated_fraction: float,
    rng: np.random.Generator,
    *,
    readout: Literal["gaussian", "ones"] = "gaussian",
    teacher: tuple[Float64Array, Float64Array] | None = None,
) -> AblationSetup:
    r"""Draw the teachers of eqs. (19)-(20): ablate :math:`\mu m_*` units at random.

    .. math:: f_s^* = \frac{1}{(1-\mu)m_*}\sum_{i\notin\mathcal A}c^*_i
              \sigma(w_i^{*\top}x),\qquad |\mathcal A| = \mu m_*

    Args:
      teacher_width: :math:`m_*`, >= 1.
      dimension: d, >= 1.
      ablated_fraction: :math:`\mu\in[0,1)`; :math:`\mu m_*` must be an integer.
      rng: the generator.
      readout: :math:`c^*_i\sim\mathcal N(0,1)` (``"gaussian"``) or
        :math:`c^*_i = 1` (``"ones"``).
      teacher: reuse these ``(weights, readout)`` instead of drawing a teacher
        (only the ablated set is drawn): unit rows (m_*, d) and (m_*,).

    Returns:
      An :class:`AblationSetup`.

    Raises:
      InvalidArgumentError: :math:`\mu` outside [0, 1) or :math:`\mu m_*` not
        integral, an unknown ``readout``, a ``teacher`` of other shapes,
        non-unit rows or non-finite entries, a width or dimension that is not
        an integer >= 1, or an ``rng`` that is not a Generator.
    """
    width = check_integer(
        "teacher_width", teacher_width, min_value=1, meaning="m_*, the teacher's units"
    )
    d = check_integer("dimension", dimension, min_value=1, meaning="the dimension d")
    fraction = check_real(
        "ablated_fraction",
        ablated_fraction,
        meaning="mu, the fraction of ablated teacher units, in [0, 1)",
    )
    count = fraction * width
    if not 0.0 <= fraction < 1.0 or abs(count - round(count)) > 1e-9:
        raise InvalidArgumentError(
            f"ablated_fraction={ablated_fraction!r} is not in [0, 1) with "
            f"mu * m_* an integer (m_* = {width}): mu is the fraction of "
            "ablated teacher units"
        )
    if not isinstance(readout, str) or readout not in ("gaussian", "ones"):
        raise InvalidArgumentError(
            f"readout={readout!r} is not 'gaussian' or 'ones': it says how c* is drawn"
        )
    generator = check_generator("rng", rng)
    if teacher is None:
        weights = _sphere(width, d, generator)
        readouts = (
            generator.standard_normal(width)
            if readout == "gaussian"
            else np.ones(width)
        )
    else:
        if not isinstance(teacher, tuple | list) or len(teacher) != 2:
            raise InvalidArgumentError(
                f"teacher={_short(teacher)} is not a pair (weights, readout): "
                "teacher is a teacher network to reuse"
            )
        weights = _weights("teacher[0]", teacher[0], unit=True)
        if weights.shape != (width, d):
            raise InvalidArgumentError(
                f"teacher[0] has shape {weights.shape}: the teacher's weights must "
                f"be (teacher_width, dimension) = ({width}, {d})"
            )
        readouts = _vector("teacher[1]", teacher[1], ("teacher[0]", width))
    ablated = np.sort(generator.permutation(width)[: round(count)])
    return AblationSetup(weights, readouts, ablated.astype(np.int64), fraction)


def relu_features(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    r""":math:`\sigma(w_i^\top x_a)` for every input row a and weight row i.

    .. math:: \Phi_{ai} = \max(w_i^\top x_a, 0)

    Args:
      inputs: the rows :math:`x_a`, (n, d), n >= 1.
      weights: the rows :math:`w_i`, (m, d), m >= 1.

    Returns:
      The features, (n, m).

    Raises:
      InvalidArgumentError: an array is not finite, not 2-D, empty, or the
        dimensions differ.
      OutOfRangeError: a feature overflows float64 (rescale the inputs or the
        weights: :math:`\sigma` is positively homogeneous).
    """
    x = _weights("inputs", inputs)
    w = _weights("weights", weights, dimension=("inputs", x.shape[1]))
    return _finite(_features(x, w), "the features", "inputs and weights")


def _features(inputs: Float64Array, weights: Float64Array) -> Float64Array:
    with np.errstate(over="ignore", invalid="ignore"):
        return np.maximum(inputs @ weights.T, 0.0)


def _finite(value: Float64Array, what: str, rescale: str) -> Float64Array:
    """``value`` if every entry is finite, else OutOfRangeError saying what to do."""
    if not np.all(np.isfinite(value)):
        raise OutOfRangeError(
            f"{what} overflow float64: rescale {rescale} (the quantities are "
            "positively homogeneous in them)"
        )
    return value


def _binary_exponent(weights: Float64Array) -> int:
    """e with ``max|weights| * 2^-e`` in [0.5, 1) (0 for a zero array)."""
    largest = float(np.max(np.abs(weights)))
    return int(np.frexp(largest)[1]) if largest > 0 else 0
