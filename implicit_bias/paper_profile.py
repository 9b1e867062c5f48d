r"""The paper-profile run: its committed records and the page comparing them
with the default verdicts.

``benchmarks/run_paper_profile.py`` runs every claim once under ``verify
--profile paper`` (simulations at the sizes the papers used, where a claim
gives them) and writes one JSON file: the run's records and what the run was
(the commit it ran, wall and CPU seconds, the plan's estimate made before it).
``implicit-bias docs --paper-run FILE`` splits that file into

* ``docs/verdicts/paper/<source>.json`` -- the records of each source at the
  paper profile, as :func:`~implicit_bias.reports.verdicts_json` writes them
  plus the worker's wall ``seconds`` of each claim;
* ``docs/verdicts/paper/run.json`` -- what the run was;

and writes ``docs/paper-profile.md`` (:func:`paper_profile_page`): the run's
cost against the plan's estimate, every claim the paper size decided
differently from the default profile, and each claim that has a paper
configuration side by side at both sizes. The page is a pure function of the
registry and the committed records, so ``docs --check`` keeps it current
without running anything.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from implicit_bias.claims.engine import Claim, Status, Verdict
from implicit_bias.claims.discovery import default_registry
from implicit_bias.claims.profiles import claim_for_profile
from implicit_bias.errors import InvalidArgumentError
from implicit_bias.markdown import escape_markdown, text_markdown
from implicit_bias.reports import read_verdicts

__all__ = [
    "PAGE",
    "PaperRun",
    "paper_profile_page",
    "read_paper_run",
    "stale_paper_profile",
    "write_paper_profile_page",
    "write_paper_records",
]

#: The page, relative to the docs directory.
PAGE = "paper-profile.md"
#: The folder of the paper-profile records, relative to the docs directory.
RECORDS = Path("verdicts") / "paper"

_RUN_FIELDS = ("commit", "started", "executor", "wall_seconds", "plan", "records")


@dataclass(frozen=True)
class PaperRun:
    """What a paper-profile run was, without its records.

    Attributes:
      commit: the git commit of the code the run executed.
      work_tree_differs: the package's files differed from that commit.
      started: when the run (or its last resumption) started, ISO 8601 UTC.
      executor: where the claims ran.
      wall_seconds: wall time of the run's last invocation (the claims it
        took from the cache of an earlier, interrupted one cost nothing).
      cpu_seconds_workers: CPU seconds of the workers in that invocation.
      claim_seconds: the worker wall seconds of every claim, added up
        (including claims finished by an earlier invocation).
      plan: the line of ``verify --plan --profile paper`` made before the run.
      claims: how many claims the run recorded.
    """

    commit: str
    work_tree_differs: bool
    started: str
    executor: str
    wall_seconds: float
    cpu_seconds_workers: float | None
    claim_seconds: float
    plan: str
    claims: int

    def as_record(self) -> dict[str, Any]:
        return {
            "commit": self.commit,
            "work_tree_differs": self.work_tree_differs,
            "started": self.started,
            "executor": self.executor,
            "wall_seconds": self.wall_seconds,
            "cpu_seconds_workers": self.cpu_seconds_workers,
            "claim_seconds": self.claim_seconds,
            "plan": self.plan,
            "claims": self.claims,
        }


def read_paper_run(path: str | Path) -> tuple[PaperRun, list[dict[str, Any]]]:
    """The run and its records, from the file ``run_paper_profile.py`` wrote.

    Raises:
      InvalidArgumentError: the file is not such a run (a field missing, no
        records, a record without an id, status or detail).
    """
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise InvalidArgumentError(f"paper_run={str(path)!r}: {error}") from error
    missing = [f for f in _RUN_FIELDS if not isinstance(data, dict) or f not in data]
    if missing:
        raise InvalidArgumentError(
            f"paper_run={str(path)!r} lacks {', '.join(missing)}: not a file "
            "written by benchmarks/run_paper_profile.py"
        )
    records = data["records"]
    if not isinstance(records, list) or not records:
        raise InvalidArgumentError(f"paper_run={str(path)!r} holds no records")
    for record in records:
        if not all(k in record for k in ("id", "source", "status", "detail")):
            raise InvalidArgumentError(
                f"paper_run={str(path)!r} has the record {record!r}: a record "
                "needs id, source, status and detail"
            )
    plan = data["plan"]
    run = PaperRun(
        commit=str(data["commit"]),
        work_tree_differs=bool(data.get("work_tree_differs", False)),
        started=str(data["started"]),
        executor=str(data["executor"]),
        wall_seconds=float(data["wall_seconds"]),
        cpu_seconds_workers=(
            None
            if data.get("cpu_seconds_workers") is None
            else float(data["cpu_seconds_workers"])
        ),
        claim_seconds=float(sum(r.get("seconds") or 0.0 for r in records)),
        plan=str(plan["summary"] if isinstance(plan, dict) else plan),
        claims=len(records),
    )
    return run, records


def write_paper_records(
    output: str | Path, run: PaperRun, records: Sequence[Mapping[str, Any]]
) -> list[Path]:
    """Write ``verdicts/paper/<source>.json`` for each source of ``records``
    and ``verdicts/paper/run.json`` under the docs directory ``output``.

    Each record keeps what :func:`~implicit_bias.reports.read_verdicts` reads
    back (id, status, reason, basis, counterexample, its point, detail) and
    the claim's worker wall seconds.
    """
    folder = Path(output) / RECORDS
    folder.mkdir(parents=True, exist_ok=True)
    by_source: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        kept: dict[str, Any] = {"id": record["id"], "status": record["status"]}
        for key in ("reason", "basis", "counterexample", "counterexample_point"):
            if record.get(key) is not None:
                kept[key] = record[key]
        kept["detail"] = record["detail"]
        kept["seconds"] = record.get("seconds")
        by_source.setdefault(str(record["source"]), []).append(kept)
    written = []
    for source, kept_records in sorted(by_source.items()):
        path = folder / f"{source}.json"
        path.write_text(json.dumps(kept_records, indent=2) + "\n", encoding="utf-8")
        written.append(path)
    path = folder / "run.json"
    path.write_text(json.dumps(run.as_record(), indent=2) + "\n", encoding="utf-8")
    written.append(path)
    return written


def _read_run(directory: Path) -> PaperRun | None:
    path = directory / RECORDS / "run.json"
    if not path.is_file():
        return None
    return PaperRun(**json.loads(path.read_text(encoding="utf-8")))


def _seconds(directory: Path) -> dict[str, float]:
    seconds = {}
    for path in sorted((directory / RECORDS).glob("*.json")):
        if path.name == "run.json":
            continue
        for record in json.loads(path.read_text(encoding="utf-8")):
            if record.get("seconds") is not None:
                seconds[record["id"]] = float(record["seconds"])
    return seconds


def _verdict_words(verdict: Verdict | None) -> str:
    if verdict is None:
        return "not recorded"
    qualifier = (
        verdict.basis if verdict.status != Status.INCONCLUSIVE else verdict.reason
    )
    return (
        f"{verdict.status} ({qualifier})"
        if qualifier is not None
        else str(verdict.status)
    )


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.2f} h"


def paper_profile_page(
    claims: Sequence[Claim],
    default: Mapping[str, Verdict],
    paper: Mapping[str, Verdict],
    seconds: Mapping[str, float],
    run: PaperRun,
) -> str:
    """The Markdown page comparing the default and the paper-profile verdicts.

    Args:
      claims: every claim of the sources compared, each source in the paper's
        order.
      default: the default profile's verdicts, by claim id.
      paper: the paper profile's, by claim id.
      seconds: the worker wall seconds of each claim at the paper profile.
      run: what the paper-profile run was.
    """
    sized = [c for c in claims if c.paper is not None]
    differ = [
        c
        for c in claims
        if c.id in paper
        and c.id in default
        and paper[c.id].status != default[c.id].status
    ]
    unexpected = []
    for claim in claims:
        at_paper = claim_for_profile(claim, "paper")
        recorded = paper.get(claim.id)
        if (
            at_paper is not None
            and recorded is not None
            and recorded.status != at_paper.expected
        ):
            unexpected.append((claim, at_paper.expected))
    absent = [c.id for c in claims if c.id not in paper]
    cpu = (
        f"{_duration(run.cpu_seconds_workers)} of worker CPU"
        if run.cpu_seconds_workers is not None
        else "worker CPU not measured"
    )
    lines = [
        "<!-- Generated by `implicit-bias docs --output docs/` from the claims, "
        "docs/verdicts/<source>.json and docs/verdicts/paper/ (written by "
        "`implicit-bias docs --paper-run FILE` from a run of "
        "benchmarks/run_paper_profile.py). Do not edit. -->",
        "",
        "# Verdicts at the papers' sizes",
        "",
        "`implicit-bias verify --profile paper` runs each claim that gives a paper "
        "configuration (`Claim.paper`: the sizes, seeds and steps of the source's "
        "own experiment, or ours where the source gives none, as each "
        "configuration says) at that size, and every other claim as the default "
        "profile does. This page compares one such run, claim by claim, with the "
        "default verdicts of the source pages.",
        "",
        "## The run",
        "",
        f"- code: commit `{run.commit}`"
        + (" with local changes to the package" if run.work_tree_differs else ""),
        f"- started {run.started}, on {escape_markdown(run.executor)}",
        f"- {run.claims} claims; last invocation {_duration(run.wall_seconds)} of "
        f"wall time, {cpu}; the claims' worker wall seconds add up to "
        f"{_duration(run.claim_seconds)}",
        f"- the plan's estimate before the run: {escape_markdown(run.plan)}",
        "",
        "## Decided differently at the paper's size",
        "",
    ]
    if not differ:
        lines.append(
            f"None: every one of the {len(claims) - len(absent)} claims run at both "
            "profiles has the same status."
        )
    for claim in differ:
        lines += [
            f"- **{claim.id}**: default {_verdict_words(default[claim.id])}; "
            f"at the paper's size {_verdict_words(paper[claim.id])}. "
            + text_markdown(paper[claim.id].detail),
        ]
    lines += ["", "## Not the verdict the registry expects at the paper's size", ""]
    if not unexpected:
        lines.append("None.")
    for claim, expected in unexpected:
        lines.append(
            f"- **{claim.id}**: expected {expected}, recorded "
            f"{_verdict_words(paper[claim.id])}."
        )
    if absent:
        lines += [
            "",
            f"Not in the run ({len(absent)}, added after it): "
            + ", ".join(f"`{claim_id}`" for claim_id in absent),
        ]
    lines += [
        "",
        "## Claims with a paper configuration",
        "",
        f"{len(sized)} of the {len(claims)} claims run at another size under the "
        "paper profile; the others run the same check at both profiles.",
        "",
        "| claim | paper configuration | default | paper | seconds |",
        "| --- | --- | --- | --- | --- |",
    ]
    for claim in sized:
        configuration = claim.paper
        if configuration is None:
            raise AssertionError("sized claims only")
        took = seconds.get(claim.id)
        lines.append(
            f"| `{claim.id}` | {escape_markdown(configuration.description)} | "
            f"{_verdict_words(default.get(claim.id))} | "
            f"{_verdict_words(paper.get(claim.id))} | "
            f"{'-' if took is None else _duration(took)} |"
        )
    return "\n".join(lines) + "\n"


def _page_inputs(
    directory: Path,
) -> (
    tuple[list[Claim], dict[str, Verdict], dict[str, Verdict], dict[str, float]] | None
):
    """The claims of every registered source with paper-profile records in
    ``directory``, and the verdicts and seconds the page is made of."""
    registry = default_registry()
    sources = [
        s for s in registry.sources if (directory / RECORDS / f"{s}.json").is_file()
    ]
    if not sources:
        return None
    claims = [claim for source in sources for claim in registry.claims(source)]
    default_paths = [directory / "verdicts" / f"{s}.json" for s in sources]
    default = read_verdicts(p for p in default_paths if p.is_file())
    paper = read_verdicts(directory / RECORDS / f"{s}.json" for s in sources)
    return claims, default, paper, _seconds(directory)


def write_paper_profile_page(directory: str | Path) -> Path | None:
    """Write ``paper-profile.md`` from the committed records, for every
    registered source that has them; None (nothing written) when the
    directory holds no paper-profile run."""
    directory = Path(directory)
    run = _read_run(directory)
    inputs = _page_inputs(directory)
    if run is None or inputs is None:
        return None
    path = directory / PAGE
    path.write_text(paper_profile_page(*inputs, run), encoding="utf-8")
    return path


def stale_paper_profile(directory: str | Path) -> list[str]:
    """What is stale in the directory's paper-profile page: one line per
    problem, empty when it is current (or when no run is recorded)."""
    directory = Path(directory)
    run = _read_run(directory)
    inputs = _page_inputs(directory)
    page = directory / PAGE
    if run is None or inputs is None:
        if page.is_file():
            return [f"{page}: no paper-profile run recorded in {directory / RECORDS}"]
        return []
    if not page.is_file() or page.read_text(encoding="utf-8") != paper_profile_page(
        *inputs, run
    ):
        return [
            f"{page}: stale or missing (run `implicit-bias docs --output {directory}`)"
        ]
    return []
