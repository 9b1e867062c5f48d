"""``pytest --claims``: every registered claim as a test item.

A pytest plugin (entry point ``pytest11``, loaded in every pytest session
once implicit-bias is installed), so importing it imports nothing beyond
pytest: the sources, SymPy and the claim engine are imported only when one
of its options is given.

* ``--claims`` collects the claims of every registered source;
  ``--claims=ID[,ID...]`` (repeatable) those of the named sources;
* ``--claims-file=PATH`` (repeatable) loads the sources a Python file
  defines (:func:`implicit_bias.claims.discovery.load_file`) and collects
  them -- alone, only them;
* ``--claims-module=NAME`` (repeatable) does the same for an importable
  module.

Each claim is an item named by its id under the collector ``claims``
(``claims::ptft-relu-penalty:6:divergence``), selectable with ``-k``; every
claim item carries the marker ``claim`` and slow claims the marker ``slow``.
An item runs its claim through :func:`implicit_bias.claims.engine.run_claims`
(a forked worker within the claim's CPU budget) and passes when the verdict is
the expected one; otherwise it fails with the evidence. A source that fails
to load is an error item of its own, so the run fails while the other
sources' claims still run.

Examples:
  In a project whose sources are installed, or in a file of one's own::

      pytest --claims -m "claim and not slow"
      pytest --claims-file=my_note.py -v
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr
    from _pytest.reports import CollectReport, TestReport
    from _pytest.terminal import TerminalReporter

    from implicit_bias.claims.discovery import LoadError, Registry
    from implicit_bias.claims.engine import Claim, Result

__all__ = [
    "ClaimItem",
    "ClaimsCollector",
    "SourceLoadErrorItem",
    "UnexpectedVerdictError",
    "describe_unexpected",
]

#: The value of a bare ``--claims``: every registered source.
ALL = "all"
#: Where claim items hang in the collection tree (their node ids' prefix).
COLLECTOR_NAME = "claims"
#: The ``user_properties`` key carrying an item's verdict to reports (and
#: across ``pytest-xdist`` workers, and into JUnit XML).
_VERDICT = "implicit_bias_verdict"
_EXPECTED = "implicit_bias_expected"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add ``--claims``, ``--claims-file`` and ``--claims-module``."""
    group = parser.getgroup("implicit-bias", "implicit-bias claims as test items")
    group.addoption(
        "--claims",
        action="append",
        nargs="?",
        const=ALL,
        metavar="SOURCE",
        help="collect the claims of every registered source, or (--claims=ID or "
        "ID,ID) of these; repeatable",
    )
    group.addoption(
        "--claims-file",
        action="append",
        default=[],
        metavar="PATH",
        help="load the sources a Python file defines and collect their claims; "
        "repeatable",
    )
    group.addoption(
        "--claims-module",
        action="append",
        default=[],
        metavar="NAME",
        help="load the sources an importable module defines and collect their "
        "claims; repeatable",
    )


def pytest_configure(config: pytest.Config) -> None:
    """With one of the options, register the claims plugin (else do nothing)."""
    sources = config.getoption("claims")
    files = config.getoption("claims_file")
    modules = config.getoption("claims_module")
    if not (sources or files or modules):
        return
    registered = {line.split(":", 1)[0].strip() for line in config.getini("markers")}
    if "slow" not in registered:
        config.addinivalue_line("markers", "slow: claims marked slow by their source")
    config.addinivalue_line("markers", "claim: an implicit-bias claim (--claims)")
    selection = _Selection.load(
        sources or [],
        list(dict.fromkeys(files)),
        list(dict.fromkeys(modules)),
    )
    config.pluginmanager.register(_ClaimsPlugin(selection), "implicit-bias-claims")


class _Selection:
    """The claims the options name and the sources that failed to load."""

    def __init__(self, claims: Sequence[Claim], errors: Sequence[LoadError]) -> None:
        self.claims = tuple(claims)
        self.errors = tuple(errors)

    @classmethod
    def load(
        cls, sources: Sequence[str], files: Sequence[str], modules: Sequence[str]
    ) -> _Selection:
        """Load ``files`` and ``modules`` into the default registry and pick the
        claims: every source for ``all``, else the named sources and those the
        files and modules define.

        Raises:
          pytest.UsageError: a named source is not registered.
        """
        from implicit_bias.claims.discovery import (
            SourceNotFoundError,
            default_registry,
            load_file,
            load_module,
        )

        registry = default_registry()
        for path in files:
            load_file(registry, path)
        for name in modules:
            load_module(registry, name)
        names = [name.strip() for value in sources for name in value.split(",")]
        if sources and not any(names):
            raise pytest.UsageError(
                "--claims= names no source; give source ids, or no value for all"
            )
        if ALL in names:
            chosen = list(registry.sources)
        else:
            chosen = [name for name in names if name]
            chosen += _loaded_from(registry, files, modules)
        claims: list[Claim] = []
        for source_id in dict.fromkeys(chosen):
            try:
                claims += registry.claims(source_id)
            except SourceNotFoundError as error:
                hint = (
                    f" ({source_id!r} is a path: write --claims=all {source_id}, "
                    "or put --claims after the paths)"
                    if Path(source_id).exists()
                    else ""
                )
                raise pytest.UsageError(f"--claims: {error}{hint}") from None
        return cls(claims, registry.errors)


def _loaded_from(
    registry: Registry, files: Sequence[str], modules: Sequence[str]
) -> list[str]:
    """The ids of the sources ``files`` and ``modules`` registered, in order."""
    origins = [f"file {path}" for path in files] + [f"module {m}" for m in modules]
    return [
        source_id
        for origin in origins
        for source_id, source_origin in registry.origins.items()
        if source_origin == origin
    ]


class _ClaimsPlugin:
    """The hooks active only when claims are collected."""

    def __init__(self, selection: _Selection) -> None:
        self.selection = selection
        self.verdicts: dict[str, tuple[str, str]] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(
        self, collector: pytest.Collector
    ) -> Generator[None, CollectReport, CollectReport]:
        # The claims are not found under any path: they hang from the session
        # beside the collectors of the command line's paths.
        report = yield
        if isinstance(collector, pytest.Session) and report.passed:
            report.result.append(
                ClaimsCollector.from_parent(
                    collector,
                    name=COLLECTOR_NAME,
                    nodeid=COLLECTOR_NAME,
                    selection=self.selection,
                )
            )
        return report

    def pytest_runtest_logreport(self, report: TestReport) -> None:
        properties = dict(report.user_properties)
        if report.when == "call" and _VERDICT in properties:
            self.verdicts[report.nodeid] = (
                str(properties[_VERDICT]),
                str(properties[_EXPECTED]),
            )

    def pytest_terminal_summary(self, terminalreporter: TerminalReporter) -> None:
        if not self.verdicts and not self.selection.errors:
            return
        unexpected = {
            nodeid.split("::", 1)[-1]: verdict
            for nodeid, verdict in self.verdicts.items()
            if verdict[0] != verdict[1]
        }
        line = (
            f"implicit-bias: {len(self.verdicts)} claims, "
            f"{len(self.verdicts) - len(unexpected)} as expected"
        )
        if self.selection.errors:
            count = len(self.selection.errors)
            line += f"; {count} source{'s' if count > 1 else ''} not loaded"
        terminalreporter.write_sep("-", line, red=bool(unexpected), bold=True)
        for claim_id, (got, expected) in unexpected.items():
            terminalreporter.write_line(f"{claim_id}: {got}, expected {expected}")
        for error in self.selection.errors:
            terminalreporter.write_line(f"source not loaded: {error}")


class ClaimsCollector(pytest.Collector):
    """The claims the options select, and one error item per unloaded source."""

    def __init__(self, *, selection: _Selection, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.selection = selection

    def collect(self) -> Iterator[pytest.Item]:
        """A :class:`SourceLoadErrorItem` per load error, then a
        :class:`ClaimItem` per claim."""
        for error in self.selection.errors:
            yield SourceLoadErrorItem.from_parent(
                self, name=f"load-error[{error.origin}]", error=error
            )
        for claim in self.selection.claims:
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


class UnexpectedVerdictError(Exception):
    """A claim's verdict is not the one its source expects."""

    def __init__(self, result: Result) -> None:
        super().__init__(result.claim.id)
        self.result = result


def _status(status: object, reason: object) -> str:
    return f"{status}" + ("" if reason is None else f" ({reason})")


def describe_unexpected(result: Result) -> str:
    """The failure message of a claim whose verdict is not the expected one:
    expected and got (status and reason), basis, evidence, counterexample,
    and the claim's quote, reading and regime."""
    claim, verdict = result.claim, result.verdict
    got = _status(verdict.status, verdict.reason)
    expected = _status(claim.expected, claim.expected_reason)
    lines = [
        f"{claim.id}: got {got}, expected {expected}",
        f"  statement: {claim.statement}",
        f"  expected: {expected}",
        f"  got:      {got} in {result.seconds:.1f} s",
        f"  basis:    {verdict.basis or '-'}",
        f"  evidence: {verdict.detail}",
    ]
    if verdict.counterexample:
        lines.append(f"  counterexample: {verdict.counterexample}")
    if claim.quote:
        lines.append(f"  quote:    {claim.quote}")
    lines.append(f"  reading:  {claim.reading or '-'}")
    if claim.regime:
        lines.append(f"  regime:   {claim.regime}")
    if claim.assumptions:
        lines.append(f"  assumptions: {'; '.join(claim.assumptions)}")
    return "\n".join(lines)


class ClaimItem(pytest.Item):
    """One claim: passes when its verdict is the one its source expects."""

    def __init__(self, *, claim: Claim, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim = claim
        self.add_marker("claim")
        if claim.slow:
            self.add_marker("slow")

    def runtest(self) -> None:
        """Check the claim in a forked worker within its CPU budget."""
        from implicit_bias.claims.engine import run_claims

        (result,) = run_claims([self.claim], workers=1)
        self.user_properties += [
            (_VERDICT, _status(result.verdict.status, result.verdict.reason)),
            (_EXPECTED, _status(self.claim.expected, self.claim.expected_reason)),
        ]
        if not result.as_expected:
            raise UnexpectedVerdictError(result)

    def repr_failure(
        self,
        excinfo: pytest.ExceptionInfo[BaseException],
        style: Any = None,
    ) -> str | TerminalRepr:
        """The evidence for an unexpected verdict; a traceback for anything else."""
        if isinstance(excinfo.value, UnexpectedVerdictError):
            return describe_unexpected(excinfo.value.result)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, None, str]:
        """Where the claim is reported: its id."""
        return self.path, None, f"claim {self.claim.id}"


class SourceLoadErrorItem(pytest.Item):
    """A source that failed to load: an error at setup, with the load error."""

    def __init__(self, *, error: LoadError, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error = error

    def setup(self) -> None:
        """Fail: the source's claims cannot be collected."""
        pytest.fail(f"source not loaded: {self.error}", pytrace=False)

    def runtest(self) -> None:
        """Never reached: :meth:`setup` fails."""

    def reportinfo(self) -> tuple[Path, None, str]:
        """Where the error is reported: the source's origin."""
        return self.path, None, f"source not loaded: {self.error.origin}"
