r"""The papers' theory figures, drawn from our numerics.

``implicit-bias figure NAME --output FILE.png`` draws one figure;
``implicit-bias figure --list`` names them. Each figure is a function of a
matplotlib :class:`~matplotlib.figure.Figure`, registered in :data:`FIGURES`
under ``<source>:<figure>``; the curves come from :mod:`implicit_bias.numerics`
(and, where cheap, simulation points from :mod:`implicit_bias.validation`), so
a figure is a picture of exactly what the claims verify.

matplotlib is an optional dependency (``pip install 'implicit-bias[plot]'``);
:func:`draw_figure` raises :class:`MissingExtraError` naming the extra when it
is missing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from implicit_bias.errors import ImplicitBiasError
from implicit_bias.numerics import relu_ptft_log_log_slope, relu_ptft_penalty
from implicit_bias.numerics.tangent_features import (
    absolute_deviation,
    join_penalty,
    omega_tilde,
    squared_deviation,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["FIGURES", "FigureSpec", "MissingExtraError", "draw_figure"]


class MissingExtraError(ImplicitBiasError, ImportError):
    """An optional dependency is not installed; the message names the extra."""


@dataclass(frozen=True)
class FigureSpec:
    """One reproducible figure: what it shows and how to draw it."""

    name: str
    caption: str
    draw: Callable[[Figure], None]
    size: tuple[float, float] = (9.0, 3.6)


#: The aux-task magnitudes :math:`m^{aux}` of Fig. 1a-b of ptft-relu-penalty.
_RELU_AUX_MAGNITUDES = (0.01, 1.0, 100.0)
#: The correlations :math:`\rho` of its panels.
_RELU_CORRELATIONS = (1.0, 0.99, 0.9, 0.0)


def _relu_panels(figure: Figure, *, slope: bool) -> None:
    magnitudes = np.geomspace(1e-3, 1e2, 400)
    axes = figure.subplots(1, len(_RELU_CORRELATIONS), sharey=slope)
    for axis, rho in zip(axes, _RELU_CORRELATIONS, strict=True):
        for m_aux in _RELU_AUX_MAGNITUDES:
            # m0 = sqrt(m_aux): the pretrained solution minimizes the parameter norm.
            m0, gamma = np.sqrt(m_aux), 0.0
            if slope:
                values = relu_ptft_log_log_slope(magnitudes, rho, m0, gamma)
            else:
                values = relu_ptft_penalty(magnitudes, rho, m0, gamma)
            axis.plot(magnitudes, values, label=rf"$m^{{aux}} = {m_aux:g}$")
        axis.set_xscale("log")
        if not slope:
            axis.set_yscale("log")
        axis.set_title(rf"$\rho = {rho:g}$")
        axis.set_xlabel("$m$")
    axes[0].set_ylabel(
        r"$\partial \log \tilde r / \partial \log m$" if slope else r"$\tilde r$"
    )
    axes[0].legend(fontsize="small")


def _relu_penalty(figure: Figure) -> None:
    _relu_panels(figure, slope=False)


def _relu_log_slope(figure: Figure) -> None:
    _relu_panels(figure, slope=True)


def _effective_penalties(figure: Figure) -> None:
    penalties = (
        (r"$\omega_1 = (v-1)^2$", squared_deviation),
        (r"$\omega_2 = |v-1|$", absolute_deviation),
        (
            r"$\omega_3 = \omega_1 \oplus \omega_2$",
            join_penalty(squared_deviation, absolute_deviation),
        ),
    )
    linear, logarithmic = figure.subplots(1, 2)
    for v, axis in (
        (np.linspace(0.0, 4.0, 300), linear),
        (np.geomspace(1e-2, 1e3, 300), logarithmic),
    ):
        for label, omega in penalties:
            axis.plot(v, omega_tilde(omega, v), label=rf"$\tilde\omega$ of {label}")
        axis.plot(v, v**2, "k:", label="$v^2$")
        axis.set_xlabel("$v$")
    linear.set_ylim(0.0, 8.0)
    linear.set_ylabel(r"$\tilde\omega(v)$")
    logarithmic.set_xscale("log")
    logarithmic.set_yscale("log")
    linear.legend(fontsize="small")


_SPECS = (
    FigureSpec(
        "ptft-relu-penalty:1a",
        "Fig. 1a of ptft-relu-penalty: the PT+FT penalty r~ of a ReLU unit against "
        "its magnitude m, for correlations rho and aux magnitudes m_aux (gamma = 0).",
        _relu_penalty,
    ),
    FigureSpec(
        "ptft-relu-penalty:1b",
        "Fig. 1b of ptft-relu-penalty: the elasticity d log r~ / d log m "
        "(2: l2-like, 1: l1-like).",
        _relu_log_slope,
    ),
    FigureSpec(
        "adaptive-tangent-features:2",
        "Fig. 2 of adaptive-tangent-features: the effective penalties (eq. (12)) of "
        "(v-1)^2, |v-1| and their join (eq. (11)) are sub-quadratic, yet ~ v^2 at 0.",
        _effective_penalties,
    ),
)

#: Figure name -> its specification.
FIGURES: MappingProxyType[str, FigureSpec] = MappingProxyType(
    {spec.name: spec for spec in _SPECS}
)


def _pyplot() -> Any:
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ImportError as error:
        raise MissingExtraError(
            "drawing figures needs matplotlib: pip install 'implicit-bias[plot]'"
        ) from error
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def draw_figure(name: str, output: str | Path, *, dpi: int = 150) -> Path:
    """Draw figure ``name`` (a key of :data:`FIGURES`) into the file ``output``.

    The format follows the file's suffix (``.png``, ``.pdf``, ``.svg``).

    Raises:
      ValueError: ``name`` is not a known figure.
      MissingExtraError: matplotlib is not installed.
    """
    if name not in FIGURES:
        known = ", ".join(FIGURES)
        raise ValueError(f"name={name!r} is not a known figure; known: {known}")
    spec = FIGURES[name]
    pyplot = _pyplot()
    figure = pyplot.figure(figsize=spec.size, layout="constrained")
    try:
        spec.draw(figure)
        figure.suptitle(spec.caption.split(":")[0], fontsize="medium")
        path = Path(output)
        figure.savefig(path, dpi=dpi)
    finally:
        pyplot.close(figure)
    return path
