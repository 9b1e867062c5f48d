r"""Derivation chains: :math:`e_0 = e_1 = \dots = e_n` (or :math:`\le`), step by step.

A :class:`Derivation` is the chain of expressions a text writes from a start
to a result, each :class:`Step` with its justification in words ("substitute
(13) and (14)"). Every step is checked on its own -- the relation between the
previous expression and this one -- and becomes a :class:`~implicit_bias.
claims.engine.Claim` of its own, with id ``source:equation:label-step-k``, so
``verify``, ``list``, ``pytest --claims``, the cache and mutation treat it
like any claim; the LaTeX ledger typesets the chain as one ``align`` block.

Examples:
  >>> import sympy as sp
  >>> x = sp.Symbol("x", positive=True)
  >>> chain = Derivation(
  ...     source="my-note", equation="3", label="sinh", title="A difference",
  ...     start=lambda: sp.exp(-x) - sp.exp(x),
  ...     steps=(Step(lambda: -2 * sp.sinh(x), "e^{-x} - e^x = -2 sinh x"),
  ...            Step(lambda: sp.Integer(0), "sinh x > 0 for x > 0", "<")),
  ... )
  >>> [c.id for c in chain.claims]
  ['my-note:3:sinh-step-1', 'my-note:3:sinh-step-2']
  >>> [str(c.check().status) for c in chain.claims]
  ['holds', 'holds']
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import sympy as sp

from implicit_bias.claims.checks import RelationCheck, Sampler, relation_check
from implicit_bias.claims.engine import Claim, Kind, Reading, Reason, Status, Verdict
from implicit_bias.claims.source import _SOURCE_ID
from implicit_bias.errors import InvalidArgumentError

__all__ = ["RELATIONS", "Derivation", "Step"]

_LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

#: The relations a step may state between the previous expression and its own.
RELATIONS: Mapping[str, type[sp.Rel]] = {
    "=": sp.Eq,
    "<=": sp.Le,
    "<": sp.Lt,
    ">=": sp.Ge,
    ">": sp.Gt,
}


@dataclass(frozen=True)
class Step:
    """One step of a chain: ``previous RELATION expression()``.

    Attributes:
      expression: builds the expression this step arrives at.
      justification: why the step holds, in words (shown beside it).
      relation: one of ``=``, ``<=``, ``<``, ``>=``, ``>``.
      equation: the equation number printed at this step, if any; else the
        chain's.
      quote: the source's words or formula for this step, verbatim.
      expected: the verdict the step is known to have.
      expected_reason: for an expected ``inconclusive``, its :class:`Reason`.
      slip: for a step that fails as printed, the id of the error in the
        source it shows (its claim's ``slip``, one of the source's ``slips``).
      judge: decides the step's relation; by default
        :func:`~implicit_bias.claims.checks.judge_relation` with the chain's
        samplers, substitutions and budget, its evidence opening on which of
        the step's sides its ``lhs`` and ``rhs`` are ("step 2: lhs is its left
        side ..."); a judge given here speaks for itself.
    """

    expression: Callable[[], sp.Basic]
    justification: str
    relation: str = "="
    equation: str = ""
    quote: str = ""
    expected: Status = Status.HOLDS
    expected_reason: Reason | None = None
    judge: Callable[[sp.Basic], Verdict] | None = None
    slip: str | None = None

    def __post_init__(self) -> None:
        _require_builder("expression", self.expression)
        if self.judge is not None and not callable(self.judge):
            raise InvalidArgumentError(
                f"judge: a function of the relation returning a Verdict, got "
                f"{type(self.judge).__name__}"
            )
        if self.relation not in RELATIONS:
            raise InvalidArgumentError(
                f"relation: one of {', '.join(RELATIONS)}, got {self.relation!r}"
            )
        if not self.justification.strip():
            raise InvalidArgumentError("justification: a step says why it holds")


def _require_builder(name: str, value: object) -> None:
    # An expression given where a function building it is expected fails only
    # when the step is checked, as a crash: refuse it where it is written.
    if not callable(value) or isinstance(value, sp.Basic):
        raise InvalidArgumentError(
            f"{name}: a function of no arguments building the expression "
            f"(lambda: ...), got {type(value).__name__}"
        )


def _step_relation(
    previous: Callable[[], sp.Basic], step: Step
) -> Callable[[], sp.Basic]:
    def relation() -> sp.Basic:
        return RELATIONS[step.relation](previous(), step.expression(), evaluate=False)

    return relation


def _sides(number: int, relation: str) -> str:
    """What the default judge's evidence calls ``lhs`` and ``rhs`` in step
    ``number``: the step's own sides, except that a ``>=`` or ``>`` step is
    decided the other way round (:func:`~implicit_bias.claims.checks.\
judge_relation` checks ``a >= b`` as ``b <= a``)."""
    before = "left side (the expression before it)"
    after = "right side (the one it arrives at)"
    if relation in (">=", ">"):
        return (
            f"step {number}: lhs is its {after}, rhs its {before}, as a "
            f"{relation} step is checked the other way round; "
        )
    return f"step {number}: lhs is its {before}, rhs its {after}; "


def _in_step_terms(
    judge: Callable[[sp.Basic], Verdict], number: int, relation: str
) -> Callable[[sp.Basic], Verdict]:
    """``judge`` with each verdict's evidence and counterexample opening on
    which sides of step ``number`` its ``lhs`` and ``rhs`` are: a reader of a
    chain knows the step, not the check's names for its sides. The
    counterexample says it too, since the ledger footnotes it alone."""
    sides = _sides(number, relation)

    def judged(candidate: sp.Basic) -> Verdict:
        verdict = judge(candidate)
        if verdict.counterexample is None:
            return verdict.with_detail(sides + verdict.detail)
        return dataclasses.replace(
            verdict,
            detail=sides + verdict.detail,
            counterexample=sides + verdict.counterexample,
        )

    return judged


@dataclass(frozen=True)
class Derivation:
    """A chain ``start() REL_1 e_1 REL_2 ... REL_n e_n`` with a check per step.

    Attributes:
      source: the id of the source the chain belongs to.
      equation: the equations it spans as printed ("6-10").
      label: a slug naming the chain (unique within the source).
      title: what the chain derives, in words.
      start: builds the expression the chain starts from.
      steps: the steps, in order.
      quote: the source's words introducing the chain, verbatim.
      reading: how the chain relates to the text (default: printed).
      regime: the domain the steps are checked on.
      assumptions: the conditions the chain uses, in words.
      samplers, substitutions, budget_seconds, points: passed to the default
        judge (:func:`~implicit_bias.claims.checks.relation_check`).
      claim_budget_seconds: the CPU budget of each step's claim.
    """

    source: str
    equation: str
    label: str
    title: str
    start: Callable[[], sp.Basic]
    steps: tuple[Step, ...]
    quote: str = ""
    reading: Reading = Reading.PRINTED
    regime: str = ""
    assumptions: tuple[str, ...] = ()
    samplers: Mapping[sp.Symbol, Sampler] | None = None
    substitutions: Mapping[sp.Expr, sp.Expr] | None = None
    budget_seconds: float = 20.0
    points: int = 200
    claim_budget_seconds: float = 60.0
    claims: tuple[Claim, ...] = field(init=False, repr=False, compare=False)
    # Built once: a ledger or page renders every chain, and some builders take
    # seconds (features-are-fate's (105) integrates a Gaussian expectation).
    _expressions: tuple[sp.Basic, ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "steps", tuple(self.steps))
        if not _SOURCE_ID.fullmatch(self.source):
            raise InvalidArgumentError(
                f"source: a source id (lower case letters, digits, '.', '_' and "
                f"'-'), got {self.source!r}"
            )
        if not _LABEL.fullmatch(self.label):
            raise InvalidArgumentError(
                f"label: a slug (letters, digits, '.', '_' and '-'), got {self.label!r}"
            )
        _require_builder("start", self.start)
        if not self.steps:
            raise InvalidArgumentError("steps: a derivation has at least one step")
        for number, step in enumerate(self.steps, start=1):
            if not isinstance(step, Step):
                raise InvalidArgumentError(
                    f"steps: step {number} is a {type(step).__name__}, not a Step"
                )
        if not self.budget_seconds > 0:
            raise InvalidArgumentError(
                f"budget_seconds: must be > 0, got {self.budget_seconds!r}"
            )
        if not (isinstance(self.points, int) and self.points >= 1):
            raise InvalidArgumentError(f"points: an integer >= 1, got {self.points!r}")
        object.__setattr__(self, "claims", tuple(self._step_claims()))

    def expressions(self) -> list[sp.Basic]:
        """``[e_0, e_1, ..., e_n]``: the start and what each step arrives at
        (built on the first call)."""
        built = self._expressions
        if built is None:
            built = (self.start(), *(step.expression() for step in self.steps))
            object.__setattr__(self, "_expressions", built)
        return list(built)

    def _repr_html_(self) -> str:
        """The chain in HTML, for Jupyter (implicit_bias.claims.display)."""
        return display.render_derivation(self, "html")

    def _repr_markdown_(self) -> str:
        """The chain in Markdown, for Jupyter (implicit_bias.claims.display)."""
        return display.render_derivation(self, "markdown")

    def _repr_latex_(self) -> str:
        """The chain in LaTeX, for Jupyter (implicit_bias.claims.display)."""
        return display.render_derivation(self, "latex")

    def _step_claims(self) -> list[Claim]:
        claims = []
        previous = self.start
        for number, step in enumerate(self.steps, start=1):
            relation = _step_relation(previous, step)
            check: RelationCheck
            if step.judge is None:
                default = relation_check(
                    relation,
                    samplers=self.samplers,
                    substitutions=self.substitutions,
                    budget_seconds=self.budget_seconds,
                    points=self.points,
                )
                check = RelationCheck(
                    relation,
                    _in_step_terms(default.judge, number, step.relation),
                    self.substitutions,
                    over_domains=True,
                    samplers=self.samplers,
                )
            else:
                check = RelationCheck(relation, step.judge, self.substitutions)
            claims.append(
                Claim(
                    source=self.source,
                    equation=step.equation or self.equation,
                    label=f"{self.label}-step-{number}",
                    kind=Kind.IDENTITY if step.relation == "=" else Kind.INEQUALITY,
                    statement=f"{self.title}, step {number}: {step.justification}",
                    check=check,
                    expected=step.expected,
                    expected_reason=step.expected_reason,
                    assumptions=self.assumptions,
                    budget_seconds=self.claim_budget_seconds,
                    quote=step.quote or self.quote,
                    reading=self.reading,
                    regime=self.regime,
                    slip=step.slip,
                )
            )
            previous = step.expression
        return claims


# A name of the module, not an import inside each method: a claim's cache
# key follows the names a method reads, and must not depend on whether a
# notebook imported the display first. Last, as in the engine, which display
# imports.
import implicit_bias.claims.display as display  # noqa: E402
