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

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from implicit_bias.errors import ImplicitBiasError
from implicit_bias.numerics import relu_ptft_log_log_slope, relu_ptft_penalty
from implicit_bias.numerics.transfer_asymptotics import ridge_transfer_risk_finite
from implicit_bias.numerics.transfer_risks import (
    finetune_transferability,
    has_negative_transfer_region,
    linear_transferability,
    negative_transfer_gammas,
    ridge_transfer_risk,
)
from implicit_bias.numerics.tangent_features import (
    absolute_deviation,
    join_penalty,
    omega_tilde,
    squared_deviation,
)
from implicit_bias.validation.transfer_experiments import (
    TransferabilitySlices,
    transferability_slices,
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


#: The label noise of Figs. 1-3 of features-are-fate.
_TRANSFER_NOISE = 0.2
#: The task overlaps of the slices in Figs. 1(c) and 3(c).
_SLICE_ANGLES = (
    (np.pi / 8, r"\pi/8"),
    (np.pi / 4, r"\pi/4"),
    (3 * np.pi / 8, r"3\pi/8"),
)


def _transfer_grid() -> tuple[np.ndarray, np.ndarray]:
    # Even count: no grid point lands on the interpolation threshold gamma = 1.
    gamma = np.linspace(0.02, 2.0, 200)
    theta = np.linspace(0.0, np.pi / 2, 181)
    return np.meshgrid(gamma, theta, indexing="xy")


def _transferability(finetune: bool) -> np.ndarray:
    gamma, theta = _transfer_grid()
    if finetune:
        return finetune_transferability(gamma, theta, form="printed")
    return linear_transferability(gamma, theta, _TRANSFER_NOISE)


def _linear_boundaries(axis: Any) -> None:
    theta = np.linspace(0.0, np.pi / 2, 400)
    inside = has_negative_transfer_region(theta, _TRANSFER_NOISE)
    lower, upper = negative_transfer_gammas(theta[inside], _TRANSFER_NOISE)
    style = {"color": "lightblue", "linewidth": 2}
    axis.plot(lower, theta[inside], **style)
    axis.plot(upper, theta[inside], **style)
    sine = np.sin(theta[theta > 0.2])
    axis.plot(1 + _TRANSFER_NOISE**2 / sine**2, theta[theta > 0.2], **style)


def _angle_axis(axis: Any) -> None:
    axis.set_yticks([0, np.pi / 6, np.pi / 3, np.pi / 2], ["0", "π/6", "π/3", "π/2"])
    axis.set_ylabel(r"$\theta$")
    axis.set_xlabel(r"$\gamma$")


def _surface(figure: Figure, finetune: bool) -> None:
    gamma, theta = _transfer_grid()
    values = np.clip(_transferability(finetune), -1.0, 1.0)
    axis = figure.add_subplot(projection="3d")
    axis.plot_surface(gamma, theta, values, cmap="coolwarm_r", vmin=-1, vmax=1)
    axis.set_xlabel(r"$\gamma$")
    axis.set_ylabel(r"$\theta$")
    axis.set_zlabel(r"$\mathcal{T}$ (clipped to [-1, 1])")


def _sign_map(figure: Figure, finetune: bool) -> None:
    gamma, theta = _transfer_grid()
    values = _transferability(finetune)
    # Zero transferability (fine-tuning, gamma > 1) is its own colour.
    sign = np.where(np.abs(values) <= 1e-12, 0.0, np.sign(values))
    import matplotlib
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    axis = figure.add_subplot()
    colours = matplotlib.colormaps["bwr_r"]
    axis.pcolormesh(gamma, theta, sign, cmap=colours, vmin=-1, vmax=1, shading="auto")
    # The key the paper's caption gives: red negative, blue positive transfer
    # (and, for fine-tuning, white where the transferability is zero).
    handles: list[Any] = [
        Patch(color=colours(0.0), label=r"negative transfer, $\mathcal{T} < 0$"),
        Patch(color=colours(1.0), label=r"positive transfer, $\mathcal{T} > 0$"),
    ]
    if finetune:
        handles.append(
            Patch(
                facecolor=colours(0.5),
                edgecolor="k",
                label=r"no transfer, $\mathcal{T} = 0$ ($\gamma \geq 1$)",
            )
        )
    else:
        _linear_boundaries(axis)
        handles.append(
            Line2D([], [], color="lightblue", linewidth=2, label="boundary, eq. (13)")
        )
    axis.legend(handles=handles, fontsize="small", loc="lower right")
    axis.set_xlim(gamma.min(), gamma.max())
    _angle_axis(axis)


#: Where the slices carry simulation points: gamma = n/d away from the
#: interpolation threshold, where the finite-d risk fluctuates most.
_SIMULATED_GAMMAS = (0.25, 0.5, 0.75, 1.25, 1.5, 1.75)


@functools.cache
def _simulated_slices() -> TransferabilitySlices:
    # Small enough to draw in seconds (d = 200, 10 draws, alpha = 1e-5).
    return transferability_slices(
        [theta for theta, _ in _SLICE_ANGLES],
        _SIMULATED_GAMMAS,
        dimension=200,
        draws=10,
        sigma=_TRANSFER_NOISE,
        seed=0,
    )


def _slices(figure: Figure, finetune: bool) -> None:
    gamma = np.linspace(0.02, 2.0, 400)
    axis = figure.add_subplot()
    simulated = _simulated_slices()
    per_draw = (
        simulated.finetune_transferability
        if finetune
        else simulated.linear_transferability
    )
    for index, (theta, label) in enumerate(_SLICE_ANGLES):
        if finetune:
            values = finetune_transferability(gamma, theta, form="printed")
        else:
            values = linear_transferability(gamma, theta, _TRANSFER_NOISE)
        line = axis.plot(gamma, values, label=rf"$\theta = {label}$")
        axis.errorbar(
            _SIMULATED_GAMMAS,
            per_draw[index].mean(axis=-1),
            yerr=per_draw[index].std(axis=-1, ddof=1),
            fmt="o",
            color=line[0].get_color(),
            markersize=4,
            capsize=2,
        )
    axis.axhline(0.0, color="k", linewidth=0.5)
    axis.set_ylim(-1.0, 1.0)
    axis.set_xlabel(r"$\gamma$")
    axis.set_ylabel(r"$\mathcal{T}$")
    axis.legend(fontsize="small")


def _ridge_risk(figure: Figure) -> None:
    lam = np.linspace(0.0, 0.6, 200)
    axis = figure.add_subplot()
    for theta, label in _SLICE_ANGLES:
        line = axis.plot(
            lam, ridge_transfer_risk(lam, theta), label=rf"$\theta={label}$"
        )
        # Finite size d = 500, gamma = 0.5 (n = 250), the figure's setting.
        finite = ridge_transfer_risk_finite(250, lam, theta, _TRANSFER_NOISE)
        axis.plot(lam, finite, ":", color=line[0].get_color())
    axis.set_xlabel(r"$\lambda$")
    axis.set_ylabel("linear transfer risk (solid: eq. (15); dotted: n = 250)")
    axis.legend(fontsize="small")


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
        "features-are-fate:1a",
        "Fig. 1(a) of features-are-fate: the linear transferability surface, eq. "
        "(13), against gamma = n/d and the task overlap theta (sigma = 0.2).",
        lambda figure: _surface(figure, finetune=False),
        size=(7.0, 5.5),
    ),
    FigureSpec(
        "features-are-fate:1b",
        "Fig. 1(b) of features-are-fate: the sign of eq. (13) (red: negative "
        "transfer), with the boundaries gamma_-, gamma_+ and 1 + sigma^2/sin^2.",
        lambda figure: _sign_map(figure, finetune=False),
        size=(6.0, 4.5),
    ),
    FigureSpec(
        "features-are-fate:1c",
        "Fig. 1(c) of features-are-fate: slices of eq. (13) at theta = pi/8, pi/4, "
        "3 pi/8 (sigma = 0.2); points: trained L = 2 networks, d = 200, mean and "
        "standard deviation over 10 draws.",
        lambda figure: _slices(figure, finetune=False),
        size=(6.0, 4.5),
    ),
    FigureSpec(
        "features-are-fate:2",
        "Fig. 2 of features-are-fate: the ridge linear transfer risk, eq. (15), "
        "increases with lambda; dotted: the exact finite-size risk at n = 250.",
        _ridge_risk,
        size=(6.0, 4.5),
    ),
    FigureSpec(
        "features-are-fate:3a",
        "Fig. 3(a) of features-are-fate: the fine-tuning transferability surface, "
        "eq. (17).",
        lambda figure: _surface(figure, finetune=True),
        size=(7.0, 5.5),
    ),
    FigureSpec(
        "features-are-fate:3b",
        "Fig. 3(b) of features-are-fate: the sign of eq. (17) (white: zero, "
        "gamma >= 1).",
        lambda figure: _sign_map(figure, finetune=True),
        size=(6.0, 4.5),
    ),
    FigureSpec(
        "features-are-fate:3c",
        "Fig. 3(c) of features-are-fate: slices of eq. (17) at theta = pi/8, pi/4, "
        "3 pi/8; points: trained L = 2 networks, d = 200, mean and standard "
        "deviation over 10 draws.",
        lambda figure: _slices(figure, finetune=True),
        size=(6.0, 4.5),
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
