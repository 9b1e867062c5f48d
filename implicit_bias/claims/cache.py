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

Whoever can write the directory must not be able to make a claim pass, so
every file it holds (the entries, and the record of parsed modules whose
digests enter the keys) carries an HMAC-SHA256 of its canonical JSON under
a secret key kept outside the directory: per user by default
(:meth:`VerdictCache.default_key_file`, created private on first use), or a
key file shared by the writers of a shared cache. A file is read without
following a symlink, and an entry's ``key`` field must be its file name's.
An entry that fails these checks is a miss and is counted as *tampered*; one
that names another key as its writer is *foreign* (a miss too: a forger can
name any writer, so foreign is not proof of innocence); one without a
signature is stale, from a version that did not sign, and a plain miss.

Only the files are protected: whoever can read the key can sign anything,
and results that reach this process by other ways (a Dask cluster's pickles)
are trusted as they come.

Examples:
  >>> import sympy as sp, tempfile
  >>> from implicit_bias.claims.checks import relation_check
  >>> from implicit_bias.claims.engine import Claim, Kind, Status
  >>> x = sp.Symbol("x", positive=True)
  >>> claim = Claim("note", "1", "log", Kind.IDENTITY, "log x^2 = 2 log x",
  ...               relation_check(lambda: sp.Eq(sp.log(x**2), 2 * sp.log(x))),
  ...               Status.HOLDS)
  >>> directory = tempfile.TemporaryDirectory()
  >>> def cache():
  ...     return VerdictCache(f"{directory.name}/verdicts",
  ...                         key_file=f"{directory.name}/cache-key")
  >>> results, cached = run_claims_cached([claim], cache())
  >>> cached, str(results[0].verdict.status)
  (0, 'holds')
  >>> results, cached = run_claims_cached([claim], cache())
  >>> cached, str(results[0].verdict.status)
  (1, 'holds')

  An entry edited to say otherwise is refused, and the claim runs again:

  >>> import json, pathlib
  >>> entry = pathlib.Path(f"{directory.name}/verdicts/{cache().key(claim)}.json")
  >>> forged = json.loads(entry.read_text()) | {"detail": "edited"}
  >>> _ = entry.write_text(json.dumps(forged))
  >>> results, cached = run_claims_cached([claim], checked := cache())
  >>> cached, checked.refusals()[0].startswith("1 cache file refused as tampered")
  (0, True)
  >>> directory.cleanup()
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
from collections.abc import Callable, Mapping, Sequence
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
from implicit_bias.errors import InvalidArgumentError

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
    "CACHE_KEY_VARIABLE",
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

#: The environment variable naming the file of the key that signs entries
#: (see :meth:`VerdictCache.default_key_file`).
CACHE_KEY_VARIABLE = "IMPLICIT_BIAS_CACHE_KEY_FILE"

#: Bytes of a new key, and the fewest a key file must hold: the length of the
#: HMAC-SHA256 digest (RFC 2104, Section 3: shorter keys weaken it).
_KEY_BYTES = 32


#: Verdicts that are never stored: they depend on the machine or are bugs.
def _storable(claim: Claim, verdict: Verdict) -> bool:
    if verdict.reason == Reason.CRASH:
        return False
    return verdict.reason != Reason.BUDGET or claim.expected_reason == Reason.BUDGET


#: The file of the cache remembering parsed modules, and how many modules
#: not used in the last run it keeps.
_PARSED = "parsed-modules.json"
_PARSED_KEPT = 1000


def _canonical(content: dict[str, Any]) -> bytes:
    """The bytes signed for ``content``: one spelling of each JSON value, so
    that a file re-indented or with its fields reordered is still the same."""
    return json.dumps(content, sort_keys=True, separators=(",", ":")).encode()


def _signature(secret: bytes, content: dict[str, Any]) -> str:
    return hmac.new(secret, _canonical(content), hashlib.sha256).hexdigest()


def _writer_id(secret: bytes) -> str:
    """A short public name of the key, so that entries of another key are
    told apart from forged ones; a digest, which does not reveal the key."""
    return hashlib.sha256(b"implicit-bias cache writer\0" + secret).hexdigest()[:16]


class _NotRegularFileError(OSError):
    """A symlink, directory, FIFO or device where the cache keeps a file: not
    something the cache wrote (it writes by renaming a regular file)."""


def _read_regular_file(path: Path) -> bytes:
    """The bytes of ``path`` if it is a regular file itself.

    Raises:
      FileNotFoundError: there is nothing at ``path``.
      _NotRegularFileError: ``path`` is not a regular file.
    """
    try:
        # O_NONBLOCK: opening a planted FIFO must not wait for a writer.
        handle = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        raise
    except OSError as error:
        # ELOOP is how O_NOFOLLOW refuses a symlink.
        raise _NotRegularFileError(f"{path}: not a regular file ({error})") from error
    # Checked before wrapping the handle: a stream refuses a directory with
    # an error of its own.
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise _NotRegularFileError(f"{path}: not a regular file")
    with os.fdopen(handle, "rb") as stream:
        return stream.read()


def _load_key(key_file: Path) -> bytes:
    """The key in ``key_file``, which is created, private, if absent.

    A new key is written to a private temporary file and linked into place,
    so that two processes starting at once agree on one key and neither
    reads a half-written file.
    """
    if not key_file.exists():
        key_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=key_file.parent, prefix=".tmp-key-")
        try:
            with os.fdopen(handle, "w", encoding="ascii") as stream:
                stream.write(secrets.token_hex(_KEY_BYTES) + "\n")
            # Fails if another process made it first: then theirs is used.
            with contextlib.suppress(FileExistsError):
                os.link(temporary, key_file)
        finally:
            os.unlink(temporary)
    text = key_file.read_text(encoding="ascii", errors="replace").strip()
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret) < _KEY_BYTES:
        raise InvalidArgumentError(
            f"key_file={str(key_file)!r} holds no key: it must hold at least "
            f"{_KEY_BYTES} bytes in hexadecimal (e.g. `python -c 'import secrets; "
            f"print(secrets.token_hex({_KEY_BYTES}))'`), or be absent to be created"
        )
    return secret


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
        "counterexample_point": (
            None if verdict.point is None else dict(verdict.point)
        ),
        "seconds": result.seconds,
    }


class VerdictCache:
    """Verdicts stored by the key of their claim, one signed JSON file each.

    Args:
      directory: where the entries are kept; created on the first store. It
        gets a ``.gitignore`` so that it is never committed.
      key_file: the file of the secret key that signs and checks entries
        (default: :meth:`default_key_file`); created, readable by its owner
        only, if absent. Outside ``directory``: whoever can read it can forge
        entries. The writers of a shared cache share one key file.

    Attributes:
      directory: the directory.
      key_file: the key's file (None when there is no home directory to keep
        the default one in).
      errors: what went wrong keying or storing (a claim that cannot be keyed
        is run every time; a store that fails is reported, not fatal; with no
        key to be had, nothing is read or stored).
      tampered: the names of the files refused as not what this cache's key
        wrote (a bad signature, a ``key`` field not the file's name, a symlink
        or other non-regular file): each is a miss.
      foreign: the names of the files refused as written under another key:
        each is a miss.

    Raises:
      InvalidArgumentError: ``key_file`` is inside ``directory``, or holds no
        key.
    """

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        key_file: str | os.PathLike[str] | None = None,
    ) -> None:
        self.directory = Path(directory)
        self.errors: list[str] = []
        self.tampered: set[str] = set()
        self.foreign: set[str] = set()
        self._secret: bytes | None = None
        self.key_file: Path | None = None
        try:
            self.key_file = (
                self.default_key_file() if key_file is None else Path(key_file)
            )
            if self.key_file.resolve().is_relative_to(self.directory.resolve()):
                raise InvalidArgumentError(
                    f"key_file={str(self.key_file)!r} is inside the cache "
                    f"directory {str(self.directory)!r}: the key must be kept "
                    "where only those trusted to write verdicts can read it"
                )
            self._secret = _load_key(self.key_file)
        except OSError as error:
            self.errors.append(
                f"no key to sign entries with ({error}): verdicts are neither "
                "read from the cache nor stored"
            )
        self._claim_keys = ClaimKeys()
        self._claim_keys.parsed = self._read_parsed()
        self._keys: dict[int, tuple[Claim, str | None]] = {}

    @classmethod
    def default_key_file(cls) -> Path:
        """``$IMPLICIT_BIAS_CACHE_KEY_FILE`` if set, else ``cache-key`` in the
        user's configuration directory (``$XDG_CONFIG_HOME/implicit-bias``, by
        default ``~/.config/implicit-bias``): per user, and outside any cache
        directory.

        Raises:
          FileNotFoundError: neither is set and the user has no home directory.
        """
        named = os.environ.get(CACHE_KEY_VARIABLE)
        if named:
            return Path(named)
        config = os.environ.get("XDG_CONFIG_HOME")
        # The XDG Base Directory specification ignores a relative path.
        if config and os.path.isabs(config):
            return Path(config) / "implicit-bias" / "cache-key"
        try:
            home = Path.home()
        except RuntimeError as error:
            # No HOME and no password entry (a container run as another uid).
            raise FileNotFoundError(
                f"no home directory to keep a per-user key in ({error}); name "
                f"a key file with --cache-key-file or ${CACHE_KEY_VARIABLE}"
            ) from error
        return home / ".config" / "implicit-bias" / "cache-key"

    def refusals(self) -> list[str]:
        """One line for each kind of file refused so far (:attr:`tampered`,
        :attr:`foreign`), for the user to read."""
        reasons = {
            "tampered": (
                self.tampered,
                "its signature, name or file type is not what this cache's key wrote",
            ),
            "foreign": (
                self.foreign,
                "written under another key: a cache shared without sharing its "
                "key file?",
            ),
        }
        return [
            f"{len(names)} cache file{'' if len(names) == 1 else 's'} refused "
            f"as {kind} ({why}); run again"
            for kind, (names, why) in reasons.items()
            if names
        ]

    def _read_signed(self, name: str) -> dict[str, Any] | None:
        """The content of the file ``name``, if this cache's key signed it.

        None if it is absent, unreadable, unsigned (stale), foreign or
        tampered; the last two are remembered in :attr:`foreign` and
        :attr:`tampered`.
        """
        if self._secret is None:
            return None
        try:
            content = json.loads(_read_regular_file(self.directory / name))
        except _NotRegularFileError:
            self.tampered.add(name)
            return None
        except OSError:
            return None
        except (ValueError, RecursionError):
            # Written whole by a rename, so never half-written by us; a
            # planted file nested deeply enough exhausts the parser's stack.
            self.tampered.add(name)
            return None
        if not isinstance(content, dict):
            self.tampered.add(name)
            return None
        if "mac" not in content and "writer" not in content:
            return None
        signature = content.pop("mac", None)
        writer = content.get("writer")
        if isinstance(writer, str) and writer != _writer_id(self._secret):
            self.foreign.add(name)
            return None
        if not isinstance(signature, str) or not hmac.compare_digest(
            signature.encode(), _signature(self._secret, content).encode()
        ):
            self.tampered.add(name)
            return None
        return content

    def _read_parsed(self) -> dict[str, dict[str, Any]]:
        stored = self._read_signed(_PARSED)
        if stored is None:
            return {}
        try:
            if stored["format"] != FORMAT_VERSION:
                return {}
            return {
                memo: entry
                for memo, entry in stored["modules"].items()
                if isinstance(entry.get("digest"), str)
                and isinstance(entry.get("imports"), list)
                and isinstance(entry.get("callees"), list)
            }
        except (KeyError, TypeError, AttributeError):
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
        """Write ``content``, signed, as JSON to ``name`` in the directory,
        atomically and without following any symlink planted there."""
        if self._secret is None:
            return False
        signed = {**content, "writer": _writer_id(self._secret)}
        signed["mac"] = _signature(self._secret, signed)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            try:
                # O_EXCL also refuses a symlink, dangling or not, which would
                # otherwise be followed to create a file outside the cache.
                ignore = os.open(
                    self.directory / ".gitignore",
                    os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                    0o644,
                )
            except FileExistsError:
                pass
            else:
                with os.fdopen(ignore, "w", encoding="utf-8") as stream:
                    stream.write(
                        "# Written by implicit-bias verify: a cache of verdicts.\n*\n"
                    )
            handle, temporary = tempfile.mkstemp(
                dir=self.directory, prefix=".tmp-", suffix=".json"
            )
            try:
                # mkstemp makes the file private; entries are as shareable as
                # the directory they are in. By handle: the name could have
                # been replaced by a symlink since.
                os.fchmod(handle, 0o644)
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    json.dump(signed, stream, indent=1)
                # A rename replaces a symlink at the name, never its target.
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
                # Absent from an entry written before verdicts carried it.
                point=entry.get("counterexample_point"),
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
        """The entry under the claim's current key, if this cache's key signed
        it there; None if absent, unreadable or refused."""
        key = self._key_or_none(claim)
        if key is None:
            return None
        name = f"{key}.json"
        entry = self._read_signed(name)
        if entry is not None and entry.get("key") != key:
            # Signed, but for another key's name: copied here.
            self.tampered.add(name)
            return None
        return entry

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
    on_plan: Callable[[Sequence[Claim], Mapping[str, float]], None] | None = None,
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
      on_plan: called once the cache is read, before any claim runs, as
        ``on_plan(to_run, last_seconds)``: the claims about to run and, by
        claim id, the seconds their last stored run took where known (so a
        caller can say how long the run should take).

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
    if on_plan is not None:
        on_plan(
            chosen,
            {
                claims[index].id: seconds
                for index, seconds in last_seconds.items()
                if seconds is not None
            },
        )
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
