"""Tests of implicit_bias.figures: every registered figure draws; clear errors."""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from implicit_bias import figures
from implicit_bias.figures import FIGURES, MissingExtraError, draw_figure

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_figure_draws_a_png(name: str, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = draw_figure(name, tmp_path / "figure.png", dpi=40)
    assert path.read_bytes().startswith(_PNG_SIGNATURE)


@pytest.mark.parametrize("name", list(FIGURES))
def test_every_panel_shows_data(name: str) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    figure = Figure()
    FIGURES[name].draw(figure)
    assert figure.axes
    for axis in figure.axes:
        drawn = [*axis.lines, *axis.collections, *axis.images]
        assert drawn, f"{name}: an empty panel"
        assert all(np.all(np.isfinite(line.get_ydata())) for line in axis.lines)


def test_every_source_with_figures_is_named_by_its_id() -> None:
    sources = {name.split(":")[0] for name in FIGURES}
    assert "ptft-relu-penalty" in sources
    assert all(":" in name for name in FIGURES)


def test_unknown_figure_names_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="ptft-relu-penalty:1a"):
        draw_figure("no-such-figure", tmp_path / "x.png")


def test_missing_matplotlib_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_import = importlib.import_module

    def without_matplotlib(name: str, package: str | None = None) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, package)

    monkeypatch.setattr(figures.importlib, "import_module", without_matplotlib)
    with pytest.raises(MissingExtraError, match=r"implicit-bias\[plot\]"):
        draw_figure("ptft-relu-penalty:1a", tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    ("name", "keys"),
    [
        (
            "features-are-fate:1b",
            ["negative transfer", "positive transfer", "boundary"],
        ),
        (
            "features-are-fate:3b",
            ["negative transfer", "positive transfer", "no transfer"],
        ),
    ],
)
def test_a_sign_map_has_the_key_of_the_papers_caption(
    name: str, keys: list[str]
) -> None:
    # Fig. 1(b)'s caption: "Red regions indicate negative transfer T < 0, blue
    # region indicates positive transfer T > 0"; light blue lines the boundary.
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure

    figure = Figure()
    FIGURES[name].draw(figure)
    (axis,) = figure.axes
    legend = axis.get_legend()
    assert legend is not None, f"{name} has no legend"
    texts = [text.get_text() for text in legend.get_texts()]
    assert [text.split(",")[0] for text in texts] == keys
    red, blue = (
        to_rgba(handle.get_facecolor()) for handle in legend.legend_handles[:2]
    )
    assert red[0] > 0.9 > red[2]
    assert blue[2] > 0.9 > blue[0]
