"""The example notebook runs in a Jupyter kernel and shows its claims and verdicts.

The notebook in examples/notebooks/ is executed with nbclient in a kernel of
this interpreter (a kernel spec written for the test, so that no ``python3``
kernel of another environment is picked up), and the rich outputs of its
cells -- ``text/html`` and ``text/latex``, what JupyterLab renders and what
nbconvert exports -- are asserted.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from ipykernel.kernelspec import write_kernel_spec
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from tests.test_examples import offences

NOTEBOOK = (
    Path(__file__).resolve().parents[1]
    / "examples"
    / "notebooks"
    / "derivation_in_a_notebook.ipynb"
)
#: Generous per cell: a loaded machine may be slow to start workers.
CELL_TIMEOUT_SECONDS = 600


def _execute(notebook: Any, kernels: Path) -> None:
    write_kernel_spec(kernels / "this-python")
    manager = KernelManager(
        kernel_name="this-python",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]),
    )
    NotebookClient(
        notebook,
        km=manager,
        timeout=CELL_TIMEOUT_SECONDS,
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    ).execute()


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Any]]:
    """Cell id -> the outputs the cell produced when the notebook ran."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    _execute(notebook, tmp_path_factory.mktemp("kernels"))
    return {cell.id: cell.outputs for cell in notebook.cells if "outputs" in cell}


def _shown(outputs: dict[str, list[Any]], cell: str, mime: str) -> str:
    (output,) = outputs[cell]
    assert output.output_type == "execute_result"
    return str(output.data[mime])


def test_the_notebook_is_stored_valid_and_without_outputs() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.outputs for cell in code] == [[]] * len(code)
    assert {cell.execution_count for cell in code} == {None}


def test_the_notebook_imports_only_public_names() -> None:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    source = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    assert "from implicit_bias.claims import" in source
    assert not offences(source, str(NOTEBOOK))


def test_a_claim_shows_its_typeset_formula(outputs: dict[str, list[Any]]) -> None:
    html = _shown(outputs, "claim-that-holds", "text/html")
    latex = _shown(outputs, "claim-that-holds", "text/latex")
    formula = r"$$\log{\left(x^{2} \right)} = 2 \log{\left(x \right)}$$"
    assert formula in html
    assert formula in latex
    assert (
        "<p><strong>Claim</strong> <code>my-note:1:log-square</code> · identity · "
        "expected holds</p>"
    ) in html
    assert (
        "<p>The logarithm of a square is twice the logarithm, for $x &gt; 0$.</p>"
    ) in html
    assert r"\textbf{Claim} \texttt{my-note:1:log-square}" in latex
    # Displaying a claim does not check it: no verdict is shown.
    assert "basis" not in html
    assert "✓" not in html


def test_the_slip_shows_its_formula(outputs: dict[str, list[Any]]) -> None:
    html = _shown(outputs, "claim-that-fails", "text/html")
    assert r"$$\log{\left(x^{3} \right)} = 2 \log{\left(x \right)}$$" in html
    assert "expected fails" in html


def test_a_derivation_shows_its_chain(outputs: dict[str, list[Any]]) -> None:
    html = _shown(outputs, "derivation", "text/html")
    latex = _shown(outputs, "derivation", "text/latex")
    steps = [
        "$- e^{x} + e^{- x}$",
        r"$= - 2 \sinh{\left(x \right)}$</td><td>(1)</td>",
        "the definition of sinh",
        "$&lt; 0$</td><td>(2)</td>",
        "sinh x &gt; 0 for x &gt; 0",
    ]
    places = [html.index(step) for step in steps]
    assert places == sorted(places)
    assert (
        "\\begin{align*}\n  & - e^{x} + e^{- x} \\\\\n"
        "  &= - 2 \\sinh{\\left(x \\right)} && \\text{(1) the definition of sinh}"
    ) in latex


def test_a_check_called_in_a_cell_shows_its_verdict(
    outputs: dict[str, list[Any]],
) -> None:
    html = _shown(outputs, "check-in-a-cell", "text/html")
    latex = _shown(outputs, "check-in-a-cell", "text/latex")
    plain = _shown(outputs, "check-in-a-cell", "text/plain")
    assert plain.startswith("Verdict(status=<Status.FAILS: 'fails'>")
    assert (
        '<p><strong style="color: #cf222e">✗ fails</strong> · basis '
        "<strong>certified</strong></p>"
    ) in html
    assert "<p><strong>Counterexample:</strong> at x=" in html
    assert "(ball arithmetic, 128 bits), which excludes 0</p>" in html
    # The counterexample's point, each coordinate typeset.
    assert re.search(r"<p><strong>Point:</strong> \$x = [0-9.]+\$</p>", html)
    assert r"$\times$ \textbf{fails} · basis \textbf{certified}" in latex
    assert r"\textbf{Counterexample:} at x=" in latex


def test_the_results_show_claim_verdict_and_outcome(
    outputs: dict[str, list[Any]],
) -> None:
    shown = outputs["run-claims"]
    assert [output.output_type for output in shown] == ["display_data"] * 4
    html = [str(output.data["text/html"]) for output in shown]
    ids = ["1:log-square", "2:log-cube", "3:sinh-step-1", "3:sinh-step-2"]
    marks = ["✓ holds", "✗ fails", "✓ holds", "✓ holds"]
    for result, claim, mark in zip(html, ids, marks, strict=True):
        assert result.startswith('<div class="implicit-bias-result">')
        assert f"<code>my-note:{claim}</code>" in result
        assert f"{mark}</strong>" in result
        assert ": as expected.</p>" in result
    assert "<p><strong>Counterexample:</strong> at x=" in html[1]
    assert r"$$- 2 \sinh{\left(x \right)} &lt; 0$$" in html[3]
    latex = str(shown[1].data["text/latex"])
    assert r"$$\log{\left(x^{3} \right)} = 2 \log{\left(x \right)}$$" in latex
    assert r"$\times$ \textbf{fails} · basis \textbf{certified}" in latex
