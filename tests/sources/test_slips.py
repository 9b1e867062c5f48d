"""Every printed or prose claim recorded as failing names the error it shows.

The recorded verdicts are docs/verdicts/<source>.json. The tables below are the
severities decided from each paper's text (issue 20), written out claim by
claim, so that a change of slip, of severity or of what counts as a possible
extraction artefact shows here.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest

from implicit_bias.claims.engine import Reading
from implicit_bias.claims.findings import Severity
from implicit_bias.claims.source import Source

VERDICTS = Path(__file__).resolve().parents[2] / "docs" / "verdicts"

SUBSTANTIVE, MINOR, TYPO = Severity.SUBSTANTIVE, Severity.MINOR, Severity.TYPO

#: source id -> {claim id without the source: (slip id, severity)}.
SLIPS = {
    "adaptive-tangent-features": {
        "17-18:as-printed": ("adapted-kernel-17-18", SUBSTANTIVE),
        "prop-3:strict-increase-as-proved": ("finite-minimizer-prop-3", MINOR),
        "prop-3-proof:conjugate-as-printed": ("conjugate-prop-3", MINOR),
        "26:case-split-as-printed": ("case-split-26", MINOR),
        "27:alignment-as-printed": ("alignment-lemma-5", MINOR),
    },
    "features-are-fate": {
        "thm-2.2:dudley-as-printed": ("dudley-half-thm-2.2", SUBSTANTIVE),
        "28:dudley-step-2": ("dudley-half-thm-2.2", SUBSTANTIVE),
        "16:monte-carlo": ("finetune-endpoint-142", SUBSTANTIVE),
        "142:as-printed": ("finetune-endpoint-142", SUBSTANTIVE),
        "142:gd-as-printed": ("finetune-endpoint-142", SUBSTANTIVE),
        "34:choice-as-printed": ("kl-threshold-34", MINOR),
        "50:as-printed": ("rank-one-order-50", MINOR),
        "44:loewner-depth-4": ("loewner-induction-44", MINOR),
        "44:chain-depth-4": ("loewner-induction-44", MINOR),
        "62:alignment-lower-layer-1-step-2": ("squared-norm-62", MINOR),
        "62:alignment-lower-layer-2-step-2": ("squared-norm-62", MINOR),
        "65:singular-value-upper-layer-2-step-1": ("squared-norm-62", MINOR),
        "71:as-printed": ("product-71", MINOR),
        "141:strictly-increasing": ("strict-increase-141", MINOR),
        "13:interval-as-printed": ("interval-endpoints-13", TYPO),
        "32:kl-step-2": ("kl-factor-32", TYPO),
        "33:kl-step-3": ("kl-factor-32", TYPO),
        "117:inverse-norm-step-1": ("inverse-norm-sign-117", TYPO),
        "118:inverse-norm-step-2": ("inverse-norm-sign-117", TYPO),
        "137:as-printed": ("stirling-factor-137", TYPO),
        "150-151:as-printed": ("eigenvalue-square-150", TYPO),
        "81:parallel-decay-depth-2-step-3": ("normalization-78-88", MINOR),
        "85:parallel-decay-depth-2-step-6": ("normalization-78-88", MINOR),
        "88:parallel-decay-depth-2-step-9": ("normalization-78-88", MINOR),
        "81:parallel-decay-depth-3-step-3": ("normalization-78-88", MINOR),
        "85:parallel-decay-depth-3-step-6": ("normalization-78-88", MINOR),
        "88:parallel-decay-depth-3-step-9": ("normalization-78-88", MINOR),
        "39:loss-decay-depth-2-step-4": ("minus-sign-38", TYPO),
        "39:loss-decay-depth-3-step-4": ("minus-sign-38", TYPO),
        "48:as-printed": ("equality-48", TYPO),
        "59:as-printed-layer-1": ("bar-59", TYPO),
        "59:as-printed-layer-2": ("bar-59", TYPO),
        "64:alignment-upper-layer-1-step-2": ("frobenius-64", TYPO),
        "65:singular-value-upper-layer-1-step-1": ("squared-norm-62", MINOR),
    },
    "ptft-diagonal-networks": {
        "8:as-printed": ("gradient-sign-8-9", TYPO),
        "9:as-printed": ("gradient-sign-8-9", TYPO),
        "18-19:beta-step-3": ("factor-2-in-18-19", TYPO),
        "20:beta-step-4": ("factor-2-in-18-19", TYPO),
        "26:one-branch-zero": ("one-branch-zero-26", MINOR),
    },
    "ptft-relu-penalty": {
        "6:divergence": ("divergence-at-zero-6", MINOR),
        "sec-1.2:log-derivative": ("log-derivative-sec-1.2", MINOR),
    },
}

#: source id -> the slips that may be artefacts of the text extraction.
ARTEFACTS: dict[str, set[str]] = {
    "adaptive-tangent-features": set(),
    "features-are-fate": {"kl-factor-32", "inverse-norm-sign-117", "minus-sign-38"},
    "ptft-diagonal-networks": set(),
    "ptft-relu-penalty": set(),
}


def _source(source_id: str) -> Source:
    package = source_id.replace("-", "_")
    source = importlib.import_module(f"implicit_bias.sources.{package}").SOURCE
    assert isinstance(source, Source)
    return source


def _recorded_failures(source: Source) -> set[str]:
    records = json.loads((VERDICTS / f"{source.id}.json").read_text("utf-8"))
    failing = {r["id"] for r in records if r["status"] == "fails"}
    return {
        claim.id.removeprefix(f"{source.id}:")
        for claim in source.all_claims()
        if claim.reading in (Reading.PRINTED, Reading.PROSE) and claim.id in failing
    }


@pytest.mark.parametrize("source_id", sorted(SLIPS))
def test_each_recorded_failure_names_its_slip_at_the_decided_severity(
    source_id: str,
) -> None:
    source = _source(source_id)
    severity = {slip.id: slip.severity for slip in source.slips}
    named = {
        claim.id.removeprefix(f"{source.id}:"): claim.slip
        for claim in source.all_claims()
        if claim.slip is not None
    }
    assert set(named) == _recorded_failures(source)
    assert {c: (s, severity[s]) for c, s in named.items()} == SLIPS[source_id]


@pytest.mark.parametrize("source_id", sorted(SLIPS))
def test_possible_extraction_artefacts_are_the_decided_ones(source_id: str) -> None:
    source = _source(source_id)
    artefacts = {slip.id for slip in source.slips if not slip.counted}
    assert artefacts == ARTEFACTS[source_id]
    for slip in source.slips:
        # A summary says where: the paper's equation numbers, in parentheses.
        assert "(" in slip.summary
