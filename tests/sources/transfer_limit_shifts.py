"""A suite for the simulation checks of features-are-fate that compare runs
with the n, d -> oo formulas (10), (13), (15), (17).

Issue 20, "holds that could not fail": those comparisons allowed
|finite - limit| with the limit taken from the formula under test, so a wrong
formula widened its own tolerance. Each formula is shifted where the check
reads it (its NumPy evaluator in the claim module) and, for one branch only,
where that evaluator is lambdified from the theory layer
(:mod:`implicit_bias.numerics.transfer_risks`' lazy formulas).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import ClassVar

import pytest

from implicit_bias.claims.engine import Status, Verdict
from implicit_bias.numerics import transfer_risks
from tests.claims.verdict_suites import ClaimSuite


def shifted(function: Callable[..., object], shift: float) -> Callable[..., object]:
    """``function`` with ``shift`` added to what it returns."""

    def shifted_function(*args: object, **kwargs: object) -> object:
        return function(*args, **kwargs) + shift  # type: ignore[operator]

    return shifted_function


class LimitFormulaShifts(ClaimSuite):
    """A limit formula shifted where its check reads it no longer holds."""

    #: The claim module whose evaluators the checks read.
    checked_module: ClassVar[ModuleType]
    #: Label -> (the evaluator's name in ``checked_module``, the check reading it).
    limit_checks: ClassVar[Mapping[str, tuple[str, Callable[[], Verdict]]]]
    #: (label, a branch builder of numerics.transfer_risks the check reads) pairs.
    theory_branches: ClassVar[Sequence[tuple[str, str]]]

    def parametrize_suite(self, metafunc: pytest.Metafunc) -> None:
        if "limit_label" in metafunc.fixturenames:
            metafunc.parametrize("limit_label", sorted(self.limit_checks))
        if "builder" in metafunc.fixturenames:
            metafunc.parametrize(("label", "builder"), self.theory_branches)

    @pytest.mark.parametrize("shift", [0.3, -0.3, 0.05, -0.05])
    def test_a_shifted_limit_formula_no_longer_holds(
        self, limit_label: str, shift: float, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        name, check = self.limit_checks[limit_label]
        evaluator = getattr(self.checked_module, name)
        monkeypatch.setattr(self.checked_module, name, shifted(evaluator, shift))
        verdict = check()
        assert verdict.status != Status.HOLDS, (limit_label, shift, verdict.detail)

    def test_a_shifted_theory_branch_no_longer_holds(
        self, label: str, builder: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        built = getattr(transfer_risks, builder)()
        monkeypatch.setattr(transfer_risks, builder, lambda: shifted(built, 0.3))
        verdict = self.limit_checks[label][1]()
        assert verdict.status != Status.HOLDS, (label, builder, verdict.detail)
