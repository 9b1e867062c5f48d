"""A content-addressed cache of verdicts: re-run only the claims whose code changed.

A claim's key is a SHA-256 digest of the code its check can reach and of
the values that code reads, the module-level code of the modules involved,
the claim's own fields and the versions of Python and the libraries: see
:mod:`implicit_bias.claims.cache_keys`. Seeds are constants in the code, so
they are covered.

The store is a directory with one JSON file per key, written atomically. A
crash (``Reason.CRASH``) is never stored: it is a bug to see again. A
verdict that ran past its budget (``Reason.BUDGET``) is stored only when the
claim expects exactly that (a known overrun, deterministic since budgets
are CPU time); an unexpected overrun may depend on the machine and is run
again. An unreadable entry is a miss.

Examples:
  >>> import sympy as sp, tempfile
  >>> from implicit_bias.claims.checks import relation_check
  >>> from implicit_bias.claims.engine import Claim, Kind, Status
  >>> x = sp.Symbol("x", positive=True)
  >>> claim = Claim("note", "1", "log", Kind.IDENTITY, "log x^2 = 2 log x",
  ...               relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
  ...               Status.HOLDS)
  >>> directory = tempfile.TemporaryDirectory()
  >>> results, cached = run_claims_cached([claim], VerdictCache(directory.name))
  >>> cached, str(results[0].verdict.status)
  (0, 'holds')
  >>> results, cached = run_claims_cached([claim], VerdictCache(directory.name))
  >>> cached, str(results[0].verdict.status)
  (1, 'holds')
  >>> directory.cleanup()
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from implicit_bias.claims.cache_keys import FORMAT_VERSION, ClaimKeys
from implicit_bias.claims.engine import (
    Basis,
    Claim,
    Executor,
    Kind,
    Reason,
    Result,
    Status,
    Verdict,
    run_claims,
)

#: The kinds of claim by the seconds their checks usually take, longest
#: first (the means over the quick profile's 272 claims: simulation 0.50 s,
#: limit/series 0.31 s, numeric 0.29 s, identity 0.11 s, inequality 0.08 s);
#: the order in which claims never run before are started.
_USUAL_COST_ORDER = (
    Kind.SIMULATION,
    Kind.LIMIT,
    Kind.NUMERIC,
    Kind.IDENTITY,
    Kind.INEQUALITY,
)

__all__ = [
    "CACHE_DIR_VARIABLE",
    "DEFAULT_CACHE_DIR",
    "FORMAT_VERSION",
    "VerdictCache",
    "run_claims_cached",
]

#: The cache directory, relative to the working directory, unless
#: :data:`CACHE_DIR_VARIABLE` or ``--cache-dir`` names another.
DEFAULT_CACHE_DIR = ".implicit-bias-cache"

#: The environment variable naming the cache directory.
CACHE_DIR_VARIABLE = "IMPLICIT_BIAS_CACHE_DIR"


#: Verdicts that are never stored: they depend on the machine or are bugs.
def _storable(claim: Claim, verdict: Verdict) -> bool:
    if verdict.reason == Reason.CRASH:
        return False
    return verdict.reason != Reason.BUDGET or claim.expected_reason == Reason.BUDGET


#: The file of the cache remembering parsed modules, and how many modules
#: not used in the last run it keeps.
_PARSED = "parsed-modules.json"
_PARSED_KEPT = 1000


def _entry(result: Result, key: str) -> dict[str, Any]:
    verdict = result.verdict
    return {
        "format": FORMAT_VERSION,
        "claim": result.claim.id,
        "key": key,
        "status": str(verdict.status),
        "detail": verdict.detail,
        "reason": None if verdict.reason is None else str(verdict.reason),
        "basis": None if verdict.basis is None else str(verdict.basis),
        "counterexample": verdict.counterexample,
        "seconds": result.seconds,
    }


class VerdictCache:
    """Verdicts stored by the key of their claim, one JSON file each.

    Args:
      directory: where the entries are kept; created on the first store. It
        gets a ``.gitignore`` so that it is never committed.

    Attributes:
      directory: the directory.
      errors: what went wrong keying or storing (a claim that cannot be keyed
        is run every time; a store that fails is reported, not fatal).
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.errors: list[str] = []
        self._claim_keys = ClaimKeys()
        self._claim_keys.parsed = self._read_parsed()
        self._keys: dict[int, tuple[Claim, str | None]] = {}

    def _read_parsed(self) -> dict[str, dict[str, Any]]:
        try:
            stored = json.loads((self.directory / _PARSED).read_text(encoding="utf-8"))
            if stored["format"] != FORMAT_VERSION:
                return {}
            return {
                memo: entry
                for memo, entry in stored["modules"].items()
                if isinstance(entry.get("digest"), str)
                and isinstance(entry.get("imports"), list)
                and isinstance(entry.get("callees"), list)
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def save_parsed(self) -> None:
        """Keep what was learnt parsing modules for the next run (a speed-up
        only: the entries are found by the digest of each file's text)."""
        parsed = self._claim_keys.parsed
        if not self._claim_keys.used - self._read_parsed().keys():
            return
        # The modules used now, then the most recent others.
        kept = [memo for memo in parsed if memo not in self._claim_keys.used]
        kept = kept[-_PARSED_KEPT:] + sorted(self._claim_keys.used)
        self._write(
            _PARSED, {"format": FORMAT_VERSION, "modules": {m: parsed[m] for m in kept}}
        )

    def _write(self, name: str, content: dict[str, Any]) -> bool:
        """Write ``content`` as JSON to ``name`` in the directory, atomically."""
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            ignore = self.directory / ".gitignore"
            if not ignore.exists():
                ignore.write_text(
                    "# Written by implicit-bias verify: a cache of verdicts.\n*\n",
                    encoding="utf-8",
                )
            handle, temporary = tempfile.mkstemp(
                dir=self.directory, prefix=".tmp-", suffix=".json"
            )
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    json.dump(content, stream, indent=1)
                # mkstemp makes the file private; entries are as shareable as
                # the directory they are in.
                os.chmod(temporary, 0o644)
                os.replace(temporary, self.directory / name)
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError as error:
            self.errors.append(f"cannot store in {self.directory}: {error}")
            return False
        return True

    @classmethod
    def default_directory(cls) -> Path:
        """``$IMPLICIT_BIAS_CACHE_DIR`` if set, else ``.implicit-bias-cache``."""
        return Path(os.environ.get(CACHE_DIR_VARIABLE) or DEFAULT_CACHE_DIR)

    def key(self, claim: Claim) -> str:
        """The hexadecimal SHA-256 key of ``claim`` (:mod:`.cache_keys`).

        Keys are remembered per claim object: a cache sees the code as it was
        when it first keyed a claim.
        """
        known = self._keys.get(id(claim))
        if known is not None and known[1] is not None:
            return known[1]
        key = self._claim_keys.key(claim)
        self._keys[id(claim)] = (claim, key)
        return key

    def _key_or_none(self, claim: Claim) -> str | None:
        known = self._keys.get(id(claim))
        if known is not None:
            return known[1]
        try:
            return self.key(claim)
        except Exception as error:
            # A check the walk does not understand is run, never mis-cached.
            self._keys[id(claim)] = (claim, None)
            self.errors.append(f"{claim.id}: cannot be keyed ({error!r}); not cached")
            return None

    def get(self, claim: Claim) -> Result | None:
        """The stored result of ``claim`` as its code is now, or None (a miss)."""
        entry = self._stored_entry(claim)
        if entry is None:
            return None
        try:
            if entry["format"] != FORMAT_VERSION or entry["claim"] != claim.id:
                return None
            verdict = Verdict(
                Status(entry["status"]),
                str(entry["detail"]),
                None if entry["reason"] is None else Reason(entry["reason"]),
                None if entry["basis"] is None else Basis(entry["basis"]),
                None
                if entry["counterexample"] is None
                else str(entry["counterexample"]),
            )
            seconds = float(entry["seconds"])
        except (ValueError, KeyError, TypeError):
            # Half-written by an older version or corrupt: a miss.
            return None
        if not _storable(claim, verdict):
            return None
        return Result(claim, verdict, seconds)

    def last_seconds(self, claim: Claim) -> float | None:
        """The seconds the stored verdict of ``claim`` took, or None.

        The entry under the claim's current key, whatever its verdict: a
        scheduling estimate, read even where the verdict itself is not used.
        """
        entry = self._stored_entry(claim)
        if entry is None:
            return None
        try:
            seconds = float(entry["seconds"])
        except (ValueError, KeyError, TypeError):
            return None
        return seconds if seconds >= 0 else None

    def _stored_entry(self, claim: Claim) -> dict[str, Any] | None:
        """The entry under the claim's current key; None if absent or unreadable."""
        key = self._key_or_none(claim)
        if key is None:
            return None
        try:
            entry = json.loads(
                (self.directory / f"{key}.json").read_text(encoding="utf-8")
            )
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def put(self, result: Result) -> bool:
        """Store ``result`` under its claim's key; whether it was stored.

        Crashes are not stored, nor budget overruns the claim does not expect.
        """
        if not _storable(result.claim, result.verdict):
            return False
        key = self._key_or_none(result.claim)
        if key is None:
            return False
        return self._write(f"{key}.json", _entry(result, key))


def run_claims_cached(
    claims: Sequence[Claim],
    cache: VerdictCache,
    *,
    workers: int | None = None,
    on_result: Callable[[Result, int, int, bool], None] | None = None,
    read: bool = True,
    executor: Executor | None = None,
    prepare: Callable[[Sequence[Claim]], object] | None = None,
    needs_prepare: Callable[[Claim], bool] | None = None,
) -> tuple[list[Result], int]:
    """Check the claims whose key has no stored verdict; take the others from
    ``cache``.

    Args:
      claims: the claims to check.
      cache: where verdicts are looked up and stored.
      workers: concurrent processes for the claims run
        (:func:`~implicit_bias.claims.engine.run_claims`).
      on_result: called as ``on_result(result, done, total, cached)`` for each
        claim, the cached ones first.
      read: False runs every claim (the results are still stored).
      executor: where the claims run (default: local processes); see
        :func:`~implicit_bias.claims.engine.run_claims`. Its results are
        stored as local ones are (never a crash, such as a lost worker).
      prepare: called with the claims about to run, once they are keyed:
        work done there is inherited by the workers forked after it
        (e.g. :meth:`~implicit_bias.claims.discovery.Registry.warm_up`). Not
        called with an ``executor``, whose workers are other processes.
      needs_prepare: which claims must wait for ``prepare`` (default: all);
        the others start beside it.

    The claims run longest first, by the seconds their last stored verdict
    took (read even when ``read`` is False: an estimate, not a verdict), so
    that the workers finish together; claims never run come after the others,
    the kinds that usually take longest first (:data:`_USUAL_COST_ORDER`),
    each kind in its given order.

    Returns:
      The results in the order of ``claims``, and how many came from the cache.
    """
    total = len(claims)
    found: dict[int, Result] = {}
    if read:
        for index, claim in enumerate(claims):
            hit = cache.get(claim)
            if hit is not None:
                found[index] = hit
                if on_result is not None:
                    on_result(hit, len(found), total, True)
    from_cache = len(found)
    missing = [index for index in range(total) if index not in found]
    for index in missing:
        # Keyed before any check runs, as the code is now.
        cache._key_or_none(claims[index])
    cache.save_parsed()
    last_seconds = {index: cache.last_seconds(claims[index]) for index in missing}
    # Longest-processing-time first: the longest claims do not start last
    # and leave one worker running alone at the end.
    missing.sort(
        key=lambda index: (
            -(last_seconds[index] or 0.0),
            _USUAL_COST_ORDER.index(claims[index].kind)
            if claims[index].kind in _USUAL_COST_ORDER
            else len(_USUAL_COST_ORDER),
        )
    )
    chosen = [claims[index] for index in missing]
    warm_up = None
    if prepare is not None and executor is None and missing:
        warm_up = functools.partial(prepare, chosen)

    def stored(result: Result, done: int, _: int) -> None:
        cache.put(result)
        if on_result is not None:
            on_result(result, from_cache + done, total, False)

    ran = run_claims(
        chosen,
        workers=workers,
        on_result=stored,
        executor=executor,
        warm_up=warm_up,
        needs_warm_up=needs_prepare if warm_up is not None else None,
    )
    found.update(zip(missing, ran, strict=True))
    return [found[index] for index in range(total)], from_cache
