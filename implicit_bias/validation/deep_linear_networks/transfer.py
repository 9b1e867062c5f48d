r"""The transfer setups of features-are-fate on deep linear networks:
pretraining on the source's population loss (4), finetuning and training from
scratch on the target's empirical loss (5), linear transfer, and the whole
experiment.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from implicit_bias.errors import InvalidArgumentError, OutOfRangeError
from implicit_bias.numerics.arguments import as_finite_array
from implicit_bias.validation import _deep_linear_descent as descent
from implicit_bias.validation._deep_linear_descent import Float64Array
from implicit_bias.validation.deep_linear_networks.networks import (
    DEFAULT_MAX_STEPS,
    DEFAULT_TOLERANCE,
    DeepLinearResult,
    Integrator,
    TransferResult,
    _data,
    _descend,
    _flag,
    _integrator,
    _product,
    _rate,
    _stopping_rule,
    _threshold,
    _weights,
)

__all__ = [
    "finetune",
    "linear_transfer",
    "pretrain",
    "train_from_scratch",
    "transfer_experiment",
]


def pretrain(
    init: Sequence[ArrayLike],
    source: ArrayLike,
    *,
    learning_rate: float | None = None,
    integrator: Integrator = "midpoint",
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DeepLinearResult:
    r"""Pretraining: gradient descent on the population loss (4) of the source task.

    .. math:: \mathcal{L}_s = \tfrac12\mathbb{E}_{x\sim N(0,I)}[(x^\top\beta
              - y)^2] = \tfrac12\|\beta - \beta_s\|^2 + \tfrac12\sigma^2

    Let :math:`\beta_s` be ``source``; the noise only shifts the loss. Stops
    once :math:`\tfrac12\|\beta-\beta_s\|^2 \le` ``tol`` :math:`\cdot
    \tfrac12\|\beta_s\|^2` (Lemma 3.3: the flow converges to :math:`\beta_s`).

    Args:
      init: :math:`W_1(0), \dots, W_L(0)`, each (K, d_{l-1}, d_l), e.g.
        :math:`\alpha` times :func:`balanced_initialization`.
      source: :math:`\beta_s`, (d,) or (K, d).
      learning_rate: fixed step > 0 (plain ``"gd"`` is the paper's recipe), or
        None for the adaptive step :math:`1/h`.
      integrator: ``"midpoint"`` (conserves (35) exactly) or ``"gd"``.
      tol: relative excess loss to stop at, >= 0.
      max_steps: most steps per network, an integer >= 1.
      strict: raise if a network has not converged within ``max_steps``; with
        False, return it as it is.

    Returns:
      A :class:`DeepLinearResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (checked before training;
        for ``preconditioned``, also a rank-deficient X).
      OutOfRangeError: the loss at ``init`` lies beyond the float64 range.
      ConvergenceError: descent diverged (a ``learning_rate`` too large: the
        loss overflowed or grew 10^4 times, or the midpoint step had no
        solution), is stuck at the same weights, or did not converge within
        ``max_steps``; the message says what to try.

    Examples:
      >>> from implicit_bias.validation import balanced_initialization
      >>> init = [1e-3 * W for W in balanced_initialization([3, 3])]
      >>> result = pretrain(init, [0.6, 0.0, 0.8])
      >>> bool(np.allclose(result.coefficients, [[0.6, 0.0, 0.8]], atol=1e-9))
      True

    References:
      Eq. (4) and Lemma 3.3 of features-are-fate.
    """
    weights = _weights("init", init)
    count, dimension = weights[0].shape[:2]
    beta_s = as_finite_array("source", source, ndim=(1, 2), shape="(d,) or (K, d)")
    if beta_s.shape[-1] != dimension:
        raise InvalidArgumentError(
            f"source has {beta_s.shape[-1]} entries but init[0] has {dimension} rows"
        )
    try:
        beta_s = np.ascontiguousarray(np.broadcast_to(beta_s, (count, dimension)))
    except ValueError as error:
        raise InvalidArgumentError(
            f"source has shape {beta_s.shape}: one source per network, (d,) or "
            f"({count}, d)"
        ) from error
    rate = _rate(learning_rate)
    rule = _integrator(integrator)
    tolerance, steps = _stopping_rule(tol, max_steps)
    strict = _flag("strict", strict)
    with np.errstate(over="ignore"):
        scale = 0.5 * np.einsum("ki,ki->k", beta_s, beta_s)
    loss = descent.Loss(
        None, beta_s, np.zeros(count), _threshold(tolerance, scale), np.ones(count)
    )
    return _descend(
        weights,
        loss,
        trainable=tuple(range(len(weights))),
        learning_rate=rate,
        integrator=rule,
        max_steps=steps,
        strict=strict,
    )


def _target_training(
    name: str,
    init: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    learning_rate: float | None,
    integrator: str,
    preconditioned: bool,
    tol: float,
    max_steps: int,
    strict: bool,
) -> DeepLinearResult:
    """Fine-tuning or scratch training; ``name`` is the caller's name of ``init``."""
    weights = _weights(name, init)
    X_, y_ = _data(X, y, weights[0].shape[0], weights[0].shape[1])
    rate = _rate(learning_rate)
    rule = _integrator(integrator)
    preconditioned = _flag("preconditioned", preconditioned)
    tolerance, steps = _stopping_rule(tol, max_steps)
    strict = _flag("strict", strict)
    weights = [
        np.array(np.broadcast_to(W, (X_.shape[0], *W.shape[1:]))) for W in weights
    ]
    count, samples, dimension = X_.shape
    overdetermined = samples > dimension
    with np.errstate(over="ignore", invalid="ignore"):
        gram = np.matmul(np.swapaxes(X_, 1, 2), X_) if overdetermined else None
        floor = descent.least_squares_floor(X_, y_, gram)
        scale = 0.5 * np.einsum("kn,kn->k", y_, y_) / samples - floor
    if preconditioned:
        # In the metric (X^T X / n)^+ the Gauss-Newton part has eigenvalue 1.
        if gram is None:
            gram = np.matmul(X_, np.swapaxes(X_, 1, 2))
        loss = descent.Loss(
            X_,
            y_,
            floor,
            _threshold(tolerance, scale),
            np.ones(count),
            _inverse_gram(gram),
        )
    else:
        loss = descent.Loss(
            X_, y_, floor, _threshold(tolerance, scale), descent.top_eigenvalue(X_)
        )
    return _descend(
        weights,
        loss,
        trainable=tuple(range(len(weights))),
        learning_rate=rate,
        integrator=rule,
        max_steps=steps,
        strict=strict,
    )


def _inverse_gram(gram: Float64Array) -> Float64Array:
    """The inverse of each Gram matrix of the preconditioner (K, m, m)."""
    try:
        with np.errstate(over="ignore", invalid="ignore"):
            inverse = np.linalg.inv(gram)
    except np.linalg.LinAlgError as error:
        raise InvalidArgumentError(
            "preconditioned=True needs X of full rank (X X^T or X^T X "
            "invertible); X is rank deficient: use preconditioned=False"
        ) from error
    if not np.isfinite(inverse).all():
        raise OutOfRangeError(
            "the inverse Gram matrix of X overflows float64 (X is nearly rank "
            "deficient or tiny): use preconditioned=False or rescale X"
        )
    return np.asarray(inverse)


def finetune(
    pretrained: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    learning_rate: float | None = None,
    integrator: Integrator = "midpoint",
    preconditioned: bool = False,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DeepLinearResult:
    r"""Fine-tuning: every layer trained on the target samples from pretraining.

    .. math:: \mathcal{L}_t = \tfrac1{2n}\|X W_1\cdots W_L - y\|^2

    Let :math:`X` be ``X`` and :math:`y` be ``y``. Stops once the loss is within
    ``tol`` (relative) of its infimum; from small-initialization pretraining
    the endpoint approaches
    :func:`~implicit_bias.numerics.transfer_endpoints.finetune_endpoint`
    (eq. 142, corrected).

    Args:
      pretrained: :math:`W_1, \dots, W_L` after pretraining, each
        (K, d_{l-1}, d_l) or (1, ...) shared by every draw.
      X: target inputs, (n, d) or (K, n, d).
      y: target labels, (n,) or (K, n).
      learning_rate: fixed step > 0, or None for the adaptive step.
      integrator: ``"midpoint"`` or ``"gd"`` (the paper's recipe).
      preconditioned: descend in the metric :math:`(X^\top X/n)^+` (module
        docstring); needs X of full rank.
      tol: relative excess loss to stop at, >= 0.
      max_steps: most steps per network, an integer >= 1.
      strict: raise if a network has not converged within ``max_steps``; with
        False, return it as it is.

    Returns:
      A :class:`DeepLinearResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (checked before training;
        for ``preconditioned``, also a rank-deficient X).
      OutOfRangeError: the loss at ``init`` lies beyond the float64 range.
      ConvergenceError: descent diverged (a ``learning_rate`` too large: the
        loss overflowed or grew 10^4 times, or the midpoint step had no
        solution), is stuck at the same weights, or did not converge within
        ``max_steps``; the message says what to try.

    Examples:
      On the source task itself (y = X beta_s) fine-tuning keeps beta_s:

      >>> X = np.random.default_rng(0).standard_normal((3, 5))
      >>> source = np.eye(5)[0]
      >>> from implicit_bias.validation import balanced_initialization
      >>> pre = pretrain([1e-4 * W for W in balanced_initialization([5, 5])], source)
      >>> beta = finetune(pre.weights, X, X @ source).coefficients
      >>> bool(np.allclose(beta, source, atol=1e-6))
      True

    References:
      Eq. (5), Section 3.4 and eq. (142) of features-are-fate.
    """
    return _target_training(
        "pretrained",
        pretrained,
        X,
        y,
        learning_rate=learning_rate,
        integrator=integrator,
        preconditioned=preconditioned,
        tol=tol,
        max_steps=max_steps,
        strict=strict,
    )


def train_from_scratch(
    init: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    learning_rate: float | None = None,
    integrator: Integrator = "midpoint",
    preconditioned: bool = False,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
    strict: bool = True,
) -> DeepLinearResult:
    r"""Scratch training on the target samples from a small initialization.

    .. math:: W_l(0) = \alpha\bar W_l,\qquad
              \lim_{\alpha\to0}\lim_{t\to\infty}\beta(t) = X^+ y

    Args and errors as :func:`finetune`, with ``init`` the initialization
    (e.g. :math:`\alpha` times :func:`balanced_initialization`).

    Returns:
      A :class:`DeepLinearResult`.

    Examples:
      >>> rng = np.random.default_rng(1)
      >>> X, y = rng.standard_normal((3, 5)), rng.standard_normal(3)
      >>> from implicit_bias.validation import balanced_initialization
      >>> init = [1e-6 * W for W in balanced_initialization([5, 5])]
      >>> result = train_from_scratch(init, X, y)
      >>> bool(np.allclose(result.coefficients[0], np.linalg.pinv(X) @ y, atol=1e-5))
      True

    References:
      Theorem 3.5 and Appendix B.4 of features-are-fate.
    """
    return _target_training(
        "init",
        init,
        X,
        y,
        learning_rate=learning_rate,
        integrator=integrator,
        preconditioned=preconditioned,
        tol=tol,
        max_steps=max_steps,
        strict=strict,
    )


def linear_transfer(
    pretrained: Sequence[ArrayLike],
    X: ArrayLike,
    y: ArrayLike,
    *,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> DeepLinearResult:
    r"""Linear transfer: only the last layer :math:`W_L` trained on the target samples.

    .. math:: \hat W_L = \arg\min_{W_L}\tfrac1{2n}\|\Phi W_L - y\|^2,\qquad
              \Phi = X W_1\cdots W_{L-1}

    Gradient descent on :math:`W_L` from its pretrained value with the step
    :math:`1/\lambda`, :math:`\lambda = \|\Phi v\|^2/n` the curvature along the
    top right singular vector v of :math:`\Phi` (power iteration), until the
    excess loss along v is at most ``tol`` times the loss v can remove: the
    plateau of the rank-one problem (module docstring). From
    small-initialization pretraining the endpoint approaches
    :math:`b\beta_s` with b of eq. (108)
    (:func:`~implicit_bias.numerics.transfer_endpoints.linear_transfer_coefficient`).

    Args:
      pretrained: :math:`W_1, \dots, W_L` after pretraining, (K, ...) or (1, ...).
      X: target inputs, (n, d) or (K, n, d).
      y: target labels, (n,) or (K, n).
      tol: relative excess loss along v to stop at, >= 0.
      max_steps: most steps per network, an integer >= 1.

    Returns:
      A :class:`DeepLinearResult` (``excess_loss`` along v).

    Raises:
      InvalidArgumentError: an argument is invalid.
      OutOfRangeError: the features, the loss or the trained :math:`W_L`
        lie beyond the float64 range.
      ConvergenceError: a network did not reach the plateau.

    Examples:
      Labels twice the source's give b = 2 in eq. (108):

      >>> X = np.random.default_rng(0).standard_normal((3, 5))
      >>> source = np.eye(5)[0]
      >>> from implicit_bias.validation import balanced_initialization
      >>> pre = pretrain([1e-4 * W for W in balanced_initialization([5, 5])], source)
      >>> beta = linear_transfer(pre.weights, X, 2 * X @ source).coefficients
      >>> bool(np.allclose(beta, 2 * source, atol=1e-6))
      True

    References:
      Eqs. (11) and (104)-(108) of features-are-fate.
    """
    weights = _weights("pretrained", pretrained)
    X_, y_ = _data(X, y, weights[0].shape[0], weights[0].shape[1])
    tolerance, steps = _stopping_rule(tol, max_steps)
    count = X_.shape[0]
    weights = [np.array(np.broadcast_to(W, (count, *W.shape[1:]))) for W in weights]
    finals, final_excess, final_steps = descent.descend_readout(
        weights, X_, y_, tolerance, steps
    )
    trained = (*weights[:-1], finals[..., None])
    return DeepLinearResult(
        weights=trained,
        coefficients=_product(trained),
        excess_loss=final_excess,
        steps=final_steps,
    )


def transfer_experiment(
    init: Sequence[ArrayLike],
    source: ArrayLike,
    X: ArrayLike,
    y: ArrayLike,
    *,
    tol: float = DEFAULT_TOLERANCE,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> TransferResult:
    r"""Pretrain once on :math:`\beta_s`, then transfer to K target draws three ways.

    Pretraining starts from the first network of ``init`` (shape (1, ...));
    scratch training of draw k starts from network k of ``init`` broadcast to
    the K draws; linear transfer and fine-tuning start from the pretrained
    weights. All use the adaptive step and the midpoint integrator.

    Args:
      init: :math:`\alpha\bar W_1, \dots, \alpha\bar W_L`, (1, ...) or (K, ...).
      source: :math:`\beta_s`, (d,).
      X: target inputs, (K, n, d) or (n, d).
      y: target labels, (K, n) or (n,).
      tol: relative excess loss to stop at.
      max_steps: most steps per phase and network.

    Returns:
      A :class:`TransferResult`.

    Raises:
      InvalidArgumentError: an argument is invalid (checked before training).
      OutOfRangeError, ConvergenceError: as :func:`pretrain`, :func:`finetune`
        and :func:`linear_transfer`.

    References:
      Sections 3.1-3.4 and Appendix D.1 of features-are-fate.
    """
    weights = _weights("init", init)
    count, dimension = weights[0].shape[:2]
    beta_s = as_finite_array("source", source, ndim=1, shape="(d,)")
    if beta_s.shape[0] != dimension:
        raise InvalidArgumentError(
            f"source has {beta_s.shape[0]} entries but init[0] has {dimension} rows"
        )
    _data(X, y, count, dimension)
    _stopping_rule(tol, max_steps)
    pretrained = pretrain(
        [W[:1] for W in weights], beta_s, tol=tol, max_steps=max_steps
    )
    return TransferResult(
        pretrained=pretrained,
        linear=linear_transfer(pretrained.weights, X, y, tol=tol, max_steps=max_steps),
        finetuned=finetune(pretrained.weights, X, y, tol=tol, max_steps=max_steps),
        scratch=train_from_scratch(weights, X, y, tol=tol, max_steps=max_steps),
    )
