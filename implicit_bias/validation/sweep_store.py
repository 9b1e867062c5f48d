r"""The SQLite store of :mod:`implicit_bias.validation.sweeps`: checks, schema, claims.

A store is an SQLite database in WAL mode with ``synchronous=FULL`` holding
three tables (schema version :data:`SCHEMA_VERSION`, recorded in ``PRAGMA
user_version`` beside the ``application_id`` :data:`APPLICATION_ID`):

* ``results`` -- one row per computed configuration: its key, function,
  version, configuration and result (JSON), the seconds it took, when it was
  stored, the BLAS thread count it ran with and the run (``owner`` token,
  ``pid``, ``host``) that computed it.
* ``claims`` -- the configurations being computed right now: key, owner
  token, pid, host, when claimed and the owner's last heartbeat.  A sweep
  claims a configuration (``INSERT OR IGNORE`` inside ``BEGIN IMMEDIATE``)
  before computing it, so sweeps sharing a store compute each configuration
  once.  A claim is *stale*, and taken over, when its owner runs on this host
  and its process is gone (or a zombie), or when its heartbeat is older than
  :data:`CLAIM_TIMEOUT` seconds (an owner on another host, or a reused pid).
* ``meta`` -- name/value pairs; ``blas_threads`` is the BLAS thread count
  every result of the store was computed with (fixed by the first sweep).

Opening a store checks it before any work: a directory, a file that is not
SQLite, a truncated file, a failing ``PRAGMA quick_check`` (a corrupt page),
another schema and (for writing) a read-only file or directory each raise
:class:`~implicit_bias.errors.InvalidArgumentError` naming the store and what
is wrong, instead of a raw :mod:`sqlite3` error halfway through a sweep.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import stat
import time
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from implicit_bias.errors import InvalidArgumentError

__all__ = [
    "APPLICATION_ID",
    "CLAIM_TIMEOUT",
    "SCHEMA_VERSION",
    "SweepStore",
    "process_alive",
    "store_path",
]

SCHEMA_VERSION = 2
"""Version of the store's tables (``PRAGMA user_version``)."""

APPLICATION_ID = 0x49425357
"""``PRAGMA application_id`` of a sweep store (ASCII ``IBSW``)."""

CLAIM_TIMEOUT = 600.0
"""Seconds without a heartbeat after which any claim is stale."""

# Seconds between two heartbeats of a running sweep (well below the timeout).
HEARTBEAT_INTERVAL = 30.0

_TABLES: dict[str, tuple[str, ...]] = {
    "meta": ("name", "value"),
    "results": (
        "key",
        "function",
        "version",
        "configuration",
        "result",
        "seconds",
        "completed_at",
        "blas_threads",
        "owner",
        "pid",
        "host",
    ),
    "claims": ("key", "owner", "pid", "host", "claimed_at", "heartbeat"),
}

_SCHEMA = (
    "CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE results (
        key TEXT PRIMARY KEY,
        function TEXT NOT NULL,
        version TEXT NOT NULL,
        configuration TEXT NOT NULL,
        result TEXT NOT NULL,
        seconds REAL NOT NULL,
        completed_at TEXT NOT NULL,
        blas_threads INTEGER NOT NULL,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL
    )""",
    """CREATE TABLE claims (
        key TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        claimed_at TEXT NOT NULL,
        heartbeat REAL NOT NULL
    )""",
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)

_MAGIC = b"SQLite format 3\x00"


def store_path(store: object) -> Path:
    """Check that ``store`` is a path (str or os.PathLike) and return it.

    Raises:
      InvalidArgumentError: ``store`` is not a non-empty path.
    """
    if isinstance(store, bool) or not isinstance(store, str | os.PathLike):
        raise InvalidArgumentError(
            f"store={store!r} is not a path: store is the file name of the "
            "sweep's SQLite database"
        )
    text = os.fspath(store)
    if not isinstance(text, str) or not text:
        raise InvalidArgumentError(
            f"store={store!r} is not a non-empty path: store is the file name of "
            "the sweep's SQLite database"
        )
    return Path(text)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` of this host is running (a zombie is not).

    Examples:
      >>> process_alive(os.getpid())
      True
    """
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: alive
        return True
    except OverflowError:
        return False
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:  # no procfs (macOS) or gone meanwhile
        return True
    fields = status.rpartition(")")[2].split()
    return not fields or fields[0] not in ("Z", "X")


def _problem(path: Path, reason: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"store={str(path)!r} is not a usable sweep store: {reason}"
    )


def _check_file(path: Path, *, create: bool, writable: bool) -> None:
    """The checks that need no SQLite: kind, header, size, permissions."""
    if path.is_dir():
        raise _problem(path, "it is a directory, not a database file")
    if not path.exists():
        if not create:
            raise InvalidArgumentError(f"store={str(path)!r} does not exist")
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.is_dir():
            raise _problem(path, f"its directory {str(parent)!r} does not exist")
        if not os.access(parent, os.W_OK | os.X_OK):
            raise _problem(path, f"its directory {str(parent)!r} is read-only")
        return
    size = path.stat().st_size
    if size > 0:
        with path.open("rb") as handle:
            header = handle.read(100)
        if not header.startswith(_MAGIC[: len(header)]) or (
            len(header) >= len(_MAGIC) and not header.startswith(_MAGIC)
        ):
            raise _problem(
                path, f"it is not an SQLite database (it starts with {header[:16]!r})"
            )
        if len(header) < 100:
            raise _problem(path, f"it is truncated ({size} bytes, below one header)")
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        # The header's page count is valid when its change counter matches.
        counted = header[24:28] == header[92:96] and pages > 0
        if (
            page_size < 512
            or size % page_size
            or (counted and pages * page_size > size)
        ):
            expected = (
                f"{pages} pages of {page_size} bytes" if counted else "whole pages"
            )
            raise _problem(
                path, f"it is truncated ({size} bytes; its header says {expected})"
            )
    if writable:
        mode = path.stat().st_mode
        # The permission bits, not os.access alone: root may write anything,
        # but a store marked read-only is one its owner meant to keep.
        if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(
            path, os.W_OK
        ):
            raise _problem(path, "it is read-only (no write permission)")
        parent = path.parent if str(path.parent) else Path(".")
        if not os.access(parent, os.W_OK | os.X_OK):
            # WAL mode keeps its -wal and -shm files beside the database.
            raise _problem(path, f"its directory {str(parent)!r} is read-only")


class SweepStore:
    """An open, checked sweep store, and this run's claims in it.

    Args:
      store: path of the SQLite database.
      create: create a missing store (else a missing store is an error).
      writable: check that the store can be written and set WAL mode.

    Raises:
      InvalidArgumentError: the store is missing (``create=False``), a
        directory, not SQLite, truncated, corrupt, of another schema, or
        (``writable=True``) read-only; the message names the store.
    """

    def __init__(self, store: object, *, create: bool, writable: bool) -> None:
        self.path = store_path(store)
        self.owner = uuid.uuid4().hex
        self.pid = os.getpid()
        self.host = socket.gethostname()
        self._last_heartbeat = time.monotonic()
        _check_file(self.path, create=create, writable=writable)
        try:
            self.connection = sqlite3.connect(
                self.path, timeout=60.0, isolation_level=None
            )
        except sqlite3.Error as error:
            raise _problem(self.path, f"SQLite cannot open it ({error})") from error
        try:
            self._check(writable)
        except BaseException:
            self.connection.close()
            raise

    def _check(self, writable: bool) -> None:
        try:
            problems = [row[0] for row in self.connection.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise _problem(
                    self.path,
                    "it is corrupt (PRAGMA quick_check: "
                    + "; ".join(problems[:3])
                    + ")",
                )
            if self._tables() == {} and writable:
                self._create()
            self._check_schema()
            if writable:
                self.connection.execute("PRAGMA journal_mode=WAL")
                # FULL: every commit reaches the disk, so a result once
                # stored survives a kill of the process and a loss of power.
                self.connection.execute("PRAGMA synchronous=FULL")
                # Proof of writability: take the write lock once.
                self.connection.execute("BEGIN IMMEDIATE")
                self.connection.execute("ROLLBACK")
        except sqlite3.DatabaseError as error:
            if "readonly" in str(error).replace(" ", "").lower():
                raise _problem(self.path, f"it is read-only ({error})") from error
            raise _problem(
                self.path, f"SQLite reports it is corrupt or not a database ({error})"
            ) from error

    def _tables(self) -> dict[str, tuple[str, ...]]:
        names = [
            row[0]
            for row in self.connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            name: tuple(
                row[1]
                for row in self.connection.execute(f"PRAGMA table_info('{name}')")
            )
            for name in names
        }

    def _create(self) -> None:
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            if self._tables() == {}:  # not created meanwhile by another sweep
                for statement in _SCHEMA:
                    self.connection.execute(statement)
            self.connection.execute("COMMIT")
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise

    def _check_schema(self) -> None:
        tables = self._tables()
        application = self.connection.execute("PRAGMA application_id").fetchone()[0]
        version = self.connection.execute("PRAGMA user_version").fetchone()[0]
        if not tables:
            raise _problem(self.path, "it holds no tables (it is not a sweep store)")
        if application != APPLICATION_ID:
            if version == 0 and set(tables) == {"results"}:
                raise _problem(
                    self.path,
                    "it was written by an older implicit-bias (schema version 1, "
                    "which did not record the BLAS thread count of its results); "
                    "move it aside and start a new store",
                )
            raise _problem(
                self.path,
                f"it is another schema, not a sweep store (tables: "
                f"{', '.join(sorted(tables))}; application_id {application})",
            )
        if version != SCHEMA_VERSION:
            raise _problem(
                self.path,
                f"it has schema version {version}; this implicit-bias reads "
                f"version {SCHEMA_VERSION}",
            )
        if tables != _TABLES:
            raise _problem(
                self.path,
                f"its tables differ from schema version {SCHEMA_VERSION} "
                f"(found {tables})",
            )

    def close(self) -> None:
        """Release this run's claims and close the connection."""
        try:
            self.connection.execute("DELETE FROM claims WHERE owner = ?", (self.owner,))
        finally:
            self.connection.close()

    def fix_blas_threads(self, blas_threads: int) -> None:
        """Record the store's BLAS thread count, or check it against the recorded one.

        Raises:
          InvalidArgumentError: the store's results were computed with
            another BLAS thread count.
        """
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            row = self.connection.execute(
                "SELECT value FROM meta WHERE name = 'blas_threads'"
            ).fetchone()
            if row is None:
                self.connection.execute(
                    "INSERT INTO meta VALUES ('blas_threads', ?)", (str(blas_threads),)
                )
            self.connection.execute("COMMIT")
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        if row is not None and int(row[0]) != blas_threads:
            raise InvalidArgumentError(
                f"blas_threads={blas_threads} differs from the {row[0]} BLAS "
                f"thread(s) of the results in store={str(self.path)!r}: results "
                "computed with different thread counts can differ in their last "
                "bits, so one store holds one count; pass "
                f"blas_threads={row[0]} or use another store"
            )

    def stored_keys(self, keys: Sequence[str]) -> set[str]:
        """The subset of ``keys`` that has a stored result."""
        stored: set[str] = set()
        # Batches stay below SQLite's limit on bound parameters (999 before 3.32).
        for start in range(0, len(keys), 900):
            batch = keys[start : start + 900]
            marks = ",".join("?" * len(batch))
            rows = self.connection.execute(
                f"SELECT key FROM results WHERE key IN ({marks})", batch
            )
            stored.update(row[0] for row in rows)
        return stored

    def _stale(self, pid: int, host: str, heartbeat: float, now: float) -> bool:
        if now - heartbeat > CLAIM_TIMEOUT:
            return True
        return host == self.host and pid != self.pid and not process_alive(pid)

    def claim(self, keys: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
        """Claim ``keys`` for this run, in one write transaction.

        Returns:
          ``(mine, stored, held)``: the keys this run now computes (newly
          claimed, or taken over from a stale claim), those with a stored
          result, and those claimed by another live sweep.
        """
        mine: list[str] = []
        stored: list[str] = []
        held: list[str] = []
        now = time.time()
        claimed_at = datetime.now(UTC).isoformat()
        execute = self.connection.execute
        execute("BEGIN IMMEDIATE")
        try:
            for key in keys:
                if execute("SELECT 1 FROM results WHERE key = ?", (key,)).fetchone():
                    stored.append(key)
                    continue
                row = (key, self.owner, self.pid, self.host, claimed_at, now)
                if execute(
                    "INSERT OR IGNORE INTO claims VALUES (?, ?, ?, ?, ?, ?)", row
                ).rowcount:
                    mine.append(key)
                    continue
                owner, pid, host, heartbeat = execute(
                    "SELECT owner, pid, host, heartbeat FROM claims WHERE key = ?",
                    (key,),
                ).fetchone()
                if owner == self.owner or self._stale(pid, host, heartbeat, now):
                    execute(
                        "INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?, ?, ?)", row
                    )
                    mine.append(key)
                else:
                    held.append(key)
            execute("COMMIT")
        except BaseException:
            execute("ROLLBACK")
            raise
        return mine, stored, held

    def put(self, key: str, values: dict[str, Any]) -> None:
        """Store the result of claimed ``key`` and drop its claim, atomically."""
        execute = self.connection.execute
        execute("BEGIN IMMEDIATE")
        try:
            execute(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(key) DO NOTHING",
                (
                    key,
                    values["function"],
                    values["version"],
                    values["configuration"],
                    values["result"],
                    values["seconds"],
                    datetime.now(UTC).isoformat(),
                    values["blas_threads"],
                    self.owner,
                    self.pid,
                    self.host,
                ),
            )
            execute("DELETE FROM claims WHERE key = ? AND owner = ?", (key, self.owner))
            # The row is durable (synchronous=FULL) when COMMIT returns.
            execute("COMMIT")
        except BaseException:
            execute("ROLLBACK")
            raise

    def release(self, key: str) -> None:
        """Drop this run's claim of ``key`` (its computation failed)."""
        self.connection.execute(
            "DELETE FROM claims WHERE key = ? AND owner = ?", (key, self.owner)
        )

    def heartbeat(self, *, force: bool = False) -> None:
        """Refresh this run's claims, at most every ``HEARTBEAT_INTERVAL`` s."""
        now = time.monotonic()
        if force or now - self._last_heartbeat >= HEARTBEAT_INTERVAL:
            self._last_heartbeat = now
            self.connection.execute(
                "UPDATE claims SET heartbeat = ? WHERE owner = ?",
                (time.time(), self.owner),
            )
