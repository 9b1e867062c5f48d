r"""Pretraining and finetuning (PT+FT) of diagonal linear networks, batched.

PT+FT trains single-task diagonal linear networks twice with
:func:`implicit_bias.validation.diagonal_networks.train_diagonal_networks`
(whose module docstring states the networks, the loss, the batching and the
stopping rule): first on an auxiliary task, then, from re-initialized weights,
on the main task. :func:`support_overlap` measures how much of a predictor
lies on the auxiliary task's features (Appendix E.1 of ptft-diagonal-networks).

Initialization. PT+FT pretrains from the constant initialization :math:`\alpha`
on an auxiliary task, then finetunes from first-layer weights
:math:`\lambda\sqrt{(w^{(1)}_{+,d})^2 + (w^{(1)}_{-,d})^2}` on BOTH branches
(the pretrained magnitude of input d's first-layer weights, times the rescaling
factor :math:`\lambda`) and second-layer weights re-initialized to the constant
:math:`\gamma`. From small :math:`\alpha` one branch of each input dies out in
pretraining and the magnitude is :math:`\sqrt{|\beta^{aux}_d|}`, the
:math:`(w_0)^{(1)}_d` of Appendix A's last paragraph; sharing it between the
branches keeps Appendix A's assumption exact, with
:math:`k_d = \lambda^2 (w^{(1)}_{+,d})^2 + \lambda^2 (w^{(1)}_{-,d})^2
+ \gamma^2`. (Re-using the two pretrained branches as they are would start
finetuning from :math:`\beta(0) = \gamma(w^{(1)}_+ - w^{(1)}_-) \ne 0`,
outside eqs. 18-21.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from implicit_bias.errors import ConvergenceError, InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import as_finite_array
from implicit_bias.numerics.arguments import check_nonnegative
from implicit_bias.validation.diagonal_networks import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TOLERANCE,
    DiagonalTrainingResult,
    _positive,
    _prepare,
    train_diagonal_networks,
)

__all__ = [
    "PretrainFinetuneResult",
    "finetuning_initialization",
    "pretrain_finetune_diagonal_networks",
    "support_overlap",
]

Float64Array = NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class PretrainFinetuneResult:
    r"""K diagonal linear networks after pretraining and finetuning (PT+FT).

    Attributes:
      pretrained: the networks after pretraining on the auxiliary task.
      finetune_w1_init: the first-layer weights finetuning starts from on both
        branches, :math:`\lambda\sqrt{(w^{(1)}_+)^2 + (w^{(1)}_-)^2}`, (K, D).
      finetune_w2_init: the re-initialized second layer, :math:`\gamma`, (K, D).
      finetuned: the networks after finetuning on the main task.
    """

    pretrained: DiagonalTrainingResult
    finetune_w1_init: Float64Array
    finetune_w2_init: Float64Array
    finetuned: DiagonalTrainingResult


def finetuning_initialization(
    pretrained: DiagonalTrainingResult, *, rescale: ArrayLike, gamma: ArrayLike
) -> tuple[Float64Array, Float64Array]:
    r"""The weights PT+FT finetuning starts from, on both branches.

    .. math:: w^{(1)}_{\pm,d}(0) = \lambda\sqrt{(w^{(1)}_{+,d})^2
              + (w^{(1)}_{-,d})^2},\qquad w^{(2)}_{\pm,d}(0) = \gamma

    Let :math:`\lambda` be ``rescale`` and :math:`\gamma` be ``gamma``; the
    :math:`w^{(1)}_\pm` are the pretrained first layers. Finetuning from here
    is Appendix A's setting with
    :math:`k_d = w^{(1)}_{\pm,d}(0)^2 + \gamma^2` (module docstring).

    Args:
      pretrained: single-task networks after pretraining, K of them (or one,
        shared by all finetuning runs).
      rescale: the rescaling factor :math:`\lambda \ge 0`, () or (K,).
      gamma: the second-layer re-initialization :math:`\gamma`, () or (K,).

    Returns:
      ``(w1_init, w2_init)``, both (K, D), K the broadcast batch size.

    Raises:
      InvalidArgumentError: ``pretrained`` is not a single-task
        :class:`DiagonalTrainingResult`, a value is not finite, ``rescale`` is
        negative, or the shapes do not broadcast.
      OutOfRangeError: a rescaled first-layer weight lies beyond the float64
        range.

    Examples:
      A first layer pretrained to :math:`(3, 0)` and :math:`(0, 4)` on the two
      branches has magnitude 5; rescaling halves it:

      >>> result = train_diagonal_networks(
      ...     np.eye(2), [9.0, -16.0], 1e-3, 1e-3, learning_rate=0.02
      ... )
      >>> w1, w2 = finetuning_initialization(result, rescale=0.5, gamma=1e-2)
      >>> bool(np.allclose(w1, [[1.5, 2.0]], rtol=1e-5) and np.all(w2 == 1e-2))
      True

    References:
      Appendix A (last paragraph, eqs. 21-23) of ptft-diagonal-networks.
    """
    if not isinstance(pretrained, DiagonalTrainingResult):
        raise InvalidArgumentError(
            f"pretrained={pretrained!r} is not a DiagonalTrainingResult (the "
            "result of train_diagonal_networks)"
        )
    if pretrained.coefficients.ndim != 2:
        raise InvalidArgumentError(
            f"pretrained has coefficients of shape {pretrained.coefficients.shape}: "
            "PT+FT pretrains single-task networks, (K, D)"
        )
    scale, gamma_ = _rescaling(rescale, gamma)
    magnitude = np.hypot(pretrained.first_layer_plus, pretrained.first_layer_minus)
    count = _finetuning_count(magnitude.shape[0], scale, gamma_)
    shape = (count, magnitude.shape[1])
    with np.errstate(over="ignore"):
        w1 = np.broadcast_to(scale[..., None] * magnitude, shape).copy()
    if not np.isfinite(w1).all():
        raise OutOfRangeError(
            "rescale times the pretrained first-layer magnitude lies beyond the "
            "float64 range"
        )
    w2 = np.broadcast_to(gamma_[..., None], shape).copy()
    return w1, w2


def _rescaling(
    rescale: ArrayLike, gamma: ArrayLike
) -> tuple[Float64Array, Float64Array]:
    """Checked rescaling factors lambda >= 0 and readouts gamma, () or (K,)."""
    scale = as_finite_array("rescale", rescale, ndim=(0, 1), shape="() or (K,)")
    check_nonnegative("rescale", scale, "the rescaling factor of the first layer")
    gamma_ = as_finite_array("gamma", gamma, ndim=(0, 1), shape="() or (K,)")
    return scale, gamma_


def _finetuning_count(networks: int, scale: Float64Array, gamma: Float64Array) -> int:
    """The batch size of finetuning: the pretrained networks against lambda, gamma."""
    try:
        (count,) = np.broadcast_shapes((networks,), scale.shape, gamma.shape)
    except ValueError as error:
        raise InvalidArgumentError(
            f"shapes do not broadcast (pretrained: {networks} networks, "
            f"rescale: {scale.shape}, gamma: {gamma.shape})"
        ) from error
    if count == 0:
        raise InvalidArgumentError(
            "rescale or gamma has an empty batch axis: there must be K >= 1 networks"
        )
    return int(count)


def _started_from(phase: str, **starts: Float64Array) -> str:
    """``"<phase> from name=value, ..."``: the caller's names for a phase's start.

    The trainer's errors name its own ``w1_init`` and ``w2_init``, which a
    caller of PT+FT never passed; this prefix names what they came from.
    """
    shown = ", ".join(
        f"{name}={float(value)!r}"
        if value.ndim == 0
        else f"{name}={np.array2string(value, threshold=6)}"
        for name, value in starts.items()
    )
    return f"{phase} from {shown}"


def pretrain_finetune_diagonal_networks(
    X_aux: ArrayLike,
    y_aux: ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    *,
    init_scale: ArrayLike,
    gamma: ArrayLike,
    learning_rate: ArrayLike,
    rescale: ArrayLike = 1.0,
    aux_sample_counts: ArrayLike | None = None,
    sample_counts: ArrayLike | None = None,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> PretrainFinetuneResult:
    r"""PT+FT: pretrain on an auxiliary task, rescale, finetune on the main task.

    .. math:: w(0) = \alpha \xrightarrow{\ (X^{aux},\, y^{aux})\ } w^{aux},
              \qquad w^{(1)}_\pm \leftarrow \lambda|w^{(1),aux}|,\
              w^{(2)}_\pm \leftarrow \gamma
              \xrightarrow{\ (X,\, y)\ } \beta \approx
              \arg\min_{X\beta=y}\|\beta\|_Q

    Let :math:`X^{aux}, y^{aux}` be ``X_aux, y_aux`` (the auxiliary task),
    :math:`X, y` be ``X, y`` (the main task), :math:`\alpha` be
    ``init_scale``, :math:`\lambda` be ``rescale`` and :math:`\gamma` be
    ``gamma``. Pretraining starts all weights at :math:`\alpha`; finetuning
    starts from :func:`finetuning_initialization`, so the finetuned endpoint
    approaches the minimum-Q interpolant with
    :math:`k_d = \lambda^2 |w^{(1),aux}_d|^2 + \gamma^2` (eqs. 21-23).

    Args:
      X_aux: auxiliary inputs, (n_aux, D) or (K, n_aux, D).
      y_aux: auxiliary targets, (n_aux,) or (K, n_aux).
      X: main-task inputs, (n, D) or (K, n, D).
      y: main-task targets, (n,) or (K, n).
      init_scale: pretraining initialization :math:`\alpha > 0`, () or (K,).
      gamma: second-layer re-initialization :math:`\gamma`, () or (K,).
      learning_rate: step size of both phases, :math:`> 0`, () or (K,).
      rescale: first-layer rescaling :math:`\lambda \ge 0`, () or (K,).
      aux_sample_counts: rows of ``X_aux`` each network pretrains on.
      sample_counts: rows of ``X`` each network finetunes on.
      tol: relative loss at which each phase stops, ``>= 0``.
      max_steps: most gradient steps per phase, an integer ``>= 0``.

    Returns:
      A :class:`PretrainFinetuneResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (as for
        :func:`train_diagonal_networks`), ``init_scale`` is not positive or
        ``rescale`` negative; every argument is checked before pretraining.
      OutOfRangeError: a loss or a rescaled weight lies beyond the float64
        range.
      ConvergenceError: a phase diverged, is stuck or did not converge in
        ``max_steps``.

    Examples:
      With one sample per input, finetuning fits the main task exactly, and
      the first layer it starts from is the rescaled pretrained magnitude:

      >>> result = pretrain_finetune_diagonal_networks(
      ...     np.eye(2), [4.0, 0.0], np.eye(2), [1.0, 1.0],
      ...     init_scale=1e-3, gamma=1e-3, learning_rate=0.05, rescale=0.5,
      ... )
      >>> bool(np.allclose(result.finetuned.coefficients, [[1.0, 1.0]], atol=1e-9))
      True
      >>> bool(np.isclose(result.finetune_w1_init[0, 0], 0.5 * 2.0, rtol=1e-5))
      True

    References:
      Appendix A (eqs. 21-23) of ptft-diagonal-networks.
    """
    # Every argument is checked before pretraining starts: the finetuning
    # phase with stand-ins for the weights it will start from.
    alpha = _positive("init_scale", init_scale, "the pretraining initialization scale")
    networks, dimension = _prepare(
        X_aux,
        y_aux,
        alpha[..., None],
        alpha[..., None],
        learning_rate=learning_rate,
        sample_counts=aux_sample_counts,
        tol=tol,
        max_steps=max_steps,
        single_output=True,
        names={
            "X": "X_aux",
            "y": "y_aux",
            "w1_init": "init_scale",
            "w2_init": "init_scale",
            "sample_counts": "aux_sample_counts",
        },
    ).w1.shape
    scale, gamma_ = _rescaling(rescale, gamma)
    count = _finetuning_count(networks, scale, gamma_)
    columns = as_finite_array("X", X, ndim=(2, 3), shape="(n, D) or (K, n, D)")
    if columns.shape[-1] != dimension:
        raise InvalidArgumentError(
            f"X has {columns.shape[-1]} columns but X_aux has {dimension}: both "
            "tasks share the D inputs"
        )
    _prepare(
        X,
        y,
        np.ones((count, dimension)),
        np.ones((count, dimension)),
        learning_rate=learning_rate,
        sample_counts=sample_counts,
        tol=tol,
        max_steps=max_steps,
        single_output=True,
        names={"w1_init": "rescale", "w2_init": "gamma"},
    )
    try:
        pretrained = train_diagonal_networks(
            X_aux,
            y_aux,
            alpha[..., None],
            alpha[..., None],
            learning_rate=learning_rate,
            sample_counts=aux_sample_counts,
            tol=tol,
            max_steps=max_steps,
        )
    except (ConvergenceError, OutOfRangeError) as error:
        phase = _started_from("pretraining", init_scale=alpha)
        raise type(error)(f"{phase}: {error}") from error
    w1_init, w2_init = finetuning_initialization(
        pretrained, rescale=rescale, gamma=gamma
    )
    try:
        finetuned = train_diagonal_networks(
            X,
            y,
            w1_init,
            w2_init,
            learning_rate=learning_rate,
            sample_counts=sample_counts,
            tol=tol,
            max_steps=max_steps,
        )
    except (ConvergenceError, OutOfRangeError) as error:
        phase = _started_from("finetuning", rescale=scale, gamma=gamma_)
        raise type(error)(f"{phase}: {error}") from error
    return PretrainFinetuneResult(
        pretrained=pretrained,
        finetune_w1_init=w1_init,
        finetune_w2_init=w2_init,
        finetuned=finetuned,
    )


# --------------------------------------------------------------- measurements


def support_overlap(coefficients: ArrayLike, support: ArrayLike) -> Float64Array:
    r"""The share of a predictor's squared norm that lies on a set of inputs.

    .. math:: \mathrm{overlap}(\beta, S) = \frac{\sum_{d\in S}\beta_d^2}
              {\sum_{d=1}^D \beta_d^2}

    Let :math:`\beta` be ``coefficients`` and S the inputs where ``support``
    is True. Appendix E.1 measures it with S the auxiliary task's features
    ("proportion of the weight norm in the dimensions relevant for the
    auxiliary task", Fig. 5b).

    Args:
      coefficients: predictors, (..., D), finite, none identically zero.
      support: a boolean mask of the inputs in S, (D,).

    Returns:
      The overlap in [0, 1], shape (...).

    Raises:
      InvalidArgumentError: a value is not finite, ``coefficients`` has no
        inputs (D = 0), ``support`` is not a boolean (D,) mask, or a predictor
        is zero (its overlap is 0/0).

    Examples:
      >>> beta = np.array([3.0, 0.0, 4.0])
      >>> float(support_overlap(beta, [True, True, False]))
      0.36
      >>> bool(support_overlap(beta, [True, False, True]) == 1.0)
      True
      >>> float(support_overlap(1e-200 * beta, [True, True, False]))
      0.36

    References:
      Appendix E.1 (Fig. 5b) of ptft-diagonal-networks.
    """
    beta = as_finite_array(
        "coefficients", coefficients, ndim=(1, 2, 3), shape="(..., D)"
    )
    if beta.shape[-1] == 0:
        raise InvalidArgumentError(
            f"coefficients has shape {beta.shape}: a predictor needs D >= 1 inputs"
        )
    mask = np.asarray(support)
    if mask.dtype != np.bool_ or mask.shape != beta.shape[-1:]:
        raise InvalidArgumentError(
            f"support has dtype {mask.dtype} and shape {mask.shape}: support must "
            f"be a boolean mask of shape ({beta.shape[-1]},), one entry per input "
            "of coefficients"
        )
    # Scaled by the largest entry first, so tiny predictors do not underflow.
    largest = np.max(np.abs(beta), axis=-1, keepdims=True)
    if not (largest > 0).all():
        raise InvalidArgumentError(
            "coefficients contains a zero predictor: its overlap is 0/0"
        )
    scaled = beta / largest
    total = np.sum(scaled * scaled, axis=-1)
    return np.asarray(np.sum(scaled[..., mask] ** 2, axis=-1) / total)
