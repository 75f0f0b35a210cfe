"""Connecting to SQLite or PostgreSQL, running transactions, and naming what went wrong.

SQLite is set up per connection through the pool's ``connect`` event: ``synchronous=NORMAL``
(safe in WAL mode, and a commit then costs no fsync), a busy timeout, and foreign keys.
The WAL journal (so readers never wait for the writer) is switched on by
:meth:`Database.use_wal`, which a writer calls only once the file is known to be remit's
or new: it is a setting of the file, and another application's file keeps its own.
sqlite3's own transaction handling is turned off and SQLAlchemy's ``begin`` event emits
``BEGIN IMMEDIATE`` for writes, so a writer takes the lock before it reads and two writers
never deadlock on an upgrade; plain ``BEGIN`` for reads. A write that still finds the
database locked after the busy timeout is retried a few times, then reported as
:class:`StoreLockedError`.

A read-only :class:`Database` (the commands that only read) opens a SQLite file as
``file:PATH?mode=ro`` with ``query_only`` set, so it can neither create the file nor
change it, and PostgreSQL sessions with read-only transactions.

Before SQLite touches an existing file, its header is read: a file that is not a database
is refused without being modified, and so is another application's SQLite file (its
``application_id`` is neither 0 nor remit's), before SQLite opens it.

Driver errors become :mod:`remit.store.errors` with one-line messages
(:func:`store_error`).
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import quote

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

if TYPE_CHECKING:
    import psycopg

from remit.store.errors import (
    NotRemitDatabaseError,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreUnavailableError,
)
from remit.store.tables import SQLITE_APPLICATION_ID
from remit.store.urls import describe_url, sqlite_path

__all__ = ["Database", "RowValue", "application_id_reason", "store_error"]

RowValue = str | int | float | bool | datetime | None
"""A column value of a store row."""

_log = logging.getLogger(__name__)

_SQLITE_HEADER = b"SQLite format 3\x00"
_PAYLOAD_FRACTIONS = b"\x40\x20\x20"  # header bytes 21-23: fixed in every SQLite file
_APPLICATION_ID_END = 72  # the header's application_id: 4 big-endian bytes at offset 68
_WRITE = "remit_write"
_LOCK_ATTEMPTS = 3
_PG_CONNECT_TIMEOUT_SECONDS = 10

T = TypeVar("T")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def store_error(exc: DBAPIError, database: str, busy_timeout_seconds: float = 0.0,
                attempts: int = 1) -> StoreError:
    """The :class:`StoreError` that a driver error means, with a one-line message.

    Args:
        exc: the SQLAlchemy-wrapped driver error.
        database: the database as shown to users.
        busy_timeout_seconds, attempts: how long and how often a locked write waited.
    """
    orig = exc.orig
    if isinstance(orig, sqlite3.Error):
        return _sqlite_error(orig, database, busy_timeout_seconds, attempts)
    if isinstance(exc, OperationalError) or exc.connection_invalidated:
        return StoreUnavailableError(database, _first_line(orig or exc))
    return StoreError(database, f"database error on {database}: {_first_line(orig or exc)}; "
                                "check the database, or pass another --db / REMIT_DB")


def _sqlite_error(orig: sqlite3.Error, database: str, busy_timeout_seconds: float,
                  attempts: int) -> StoreError:
    name = getattr(orig, "sqlite_errorname", "") or ""
    reason = _first_line(orig)
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in reason:
        return StoreLockedError(database, busy_timeout_seconds, attempts)
    if name.startswith(("SQLITE_NOTADB", "SQLITE_CORRUPT")):
        return StoreCorruptError(database, f"{reason} (corrupt?)")
    return StoreUnavailableError(database, reason)


def application_id_reason(app_id: int) -> str:
    """Why a SQLite file whose header carries ``app_id`` is not remit's."""
    return f"its SQLite application_id is {app_id}, not remit's {SQLITE_APPLICATION_ID}"


def _check_sqlite_file(url: URL, database: str) -> None:
    path = sqlite_path(url)
    if path is None:
        return
    if not path.parent.is_dir():
        raise StoreUnavailableError(database, f"directory {str(path.parent)!r} does not exist")
    if not path.exists():
        return
    if path.is_dir():
        raise StoreUnavailableError(database, "it is a directory, not a database file")
    try:
        with path.open("rb") as handle:
            header = handle.read(_APPLICATION_ID_END)
    except OSError as exc:
        raise StoreUnavailableError(database, exc.strerror or str(exc)) from None
    magic = header[: len(_SQLITE_HEADER)]
    if magic and magic != _SQLITE_HEADER[: len(magic)]:
        raise StoreCorruptError(database, "file is not a database (corrupt?)")
    if 0 < len(header) < _APPLICATION_ID_END:
        raise StoreCorruptError(database, "file is too short to be a database (corrupt?)")
    if header and header[21:24] != _PAYLOAD_FRACTIONS:
        raise StoreCorruptError(database, "file is not a database (corrupt?)")
    app_id = int.from_bytes(header[_APPLICATION_ID_END - 4:], "big", signed=True)
    if header and app_id not in (0, SQLITE_APPLICATION_ID):
        # Another application's file: refused before SQLite opens it (which, for a file in
        # WAL mode, could leave index files beside it).
        raise NotRemitDatabaseError(database, application_id_reason(app_id))


def _read_only_connector(path: Path, busy_timeout_seconds: float) -> Callable[
        [], sqlite3.Connection]:
    """Connections that open ``path`` read-only: SQLite neither creates nor changes it."""
    uri = f"file:{quote(str(path.absolute()))}?mode=ro"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, timeout=busy_timeout_seconds,
                               check_same_thread=False)

    return connect


def _sqlite_engine(url: URL, busy_timeout_seconds: float, *, read_only: bool) -> Engine:
    path = sqlite_path(url)
    if read_only and path is not None:
        engine = create_engine(url, creator=_read_only_connector(path, busy_timeout_seconds))
    else:
        engine = create_engine(
            url,
            connect_args={"timeout": busy_timeout_seconds, "check_same_thread": False},
            poolclass=StaticPool if path is None else None,
        )
    busy_ms = round(busy_timeout_seconds * 1000)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: sqlite3.Connection,
                    _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's begin event emits BEGIN
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {busy_ms}")
            cursor.execute("PRAGMA foreign_keys = ON")
            if read_only:
                cursor.execute("PRAGMA query_only = ON")
            else:
                cursor.execute("PRAGMA synchronous = NORMAL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get(_WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _postgres_engine(url: URL, *, read_only: bool) -> Engine:
    """A PostgreSQL engine whose commits do not wait for the server's disk flush.

    This matches SQLite's ``synchronous = NORMAL`` in WAL mode: a committed trial
    survives remit's process being killed (the server holds it), and only a crash of the
    database server itself could lose the last fraction of a second of trials, which
    ``remit run --resume`` then runs again. It halves the cost of saving a trial.
    ``read_only``: every transaction of the session is read-only.
    """
    engine = create_engine(url, connect_args={"connect_timeout": _PG_CONNECT_TIMEOUT_SECONDS})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: psycopg.Connection[tuple[object, ...]],
                    _record: ConnectionPoolEntry) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")
            if read_only:
                cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        dbapi_connection.commit()

    return engine


class Database:
    """An engine with remit's settings, and transactions that report errors as StoreErrors.

    Attributes:
        url: the resolved URL.
        name: the database as shown to users (path, or URL without password).
        dialect: ``sqlite`` or ``postgresql``.
        busy_timeout_seconds: how long a SQLite write waits for the lock per attempt.
        read_only: whether the connections can only read (see the module's docstring).
    """

    def __init__(self, url: URL, busy_timeout_seconds: float, *,
                 read_only: bool = False) -> None:
        self.url = url
        self.name = describe_url(url)
        self.dialect = url.get_backend_name()
        self.busy_timeout_seconds = busy_timeout_seconds
        self.read_only = read_only
        if self.dialect == "sqlite":
            _check_sqlite_file(url, self.name)
            self.engine = _sqlite_engine(url, busy_timeout_seconds, read_only=read_only)
        else:
            self.engine = _postgres_engine(url, read_only=read_only)

    def use_wal(self) -> None:
        """Switch a SQLite file to the WAL journal (a setting the file keeps); nothing for
        PostgreSQL, in-memory SQLite or a read-only database.

        Raises:
            StoreError: the file cannot be switched (it is locked, or cannot be written).
        """
        if self.read_only or self.dialect != "sqlite" or sqlite_path(self.url) is None:
            return
        try:
            raw = self.engine.raw_connection()
        except DBAPIError as exc:
            raise store_error(exc, self.name, self.busy_timeout_seconds) from None
        try:
            # Outside any transaction: SQLite changes the journal only there.
            raw.driver_connection.execute("PRAGMA journal_mode = WAL")  # type: ignore[union-attr]
        except sqlite3.Error as exc:
            raise _sqlite_error(exc, self.name, self.busy_timeout_seconds, 1) from None
        finally:
            raw.close()

    def read(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one read transaction.

        Raises:
            StoreError: the database cannot be reached or read.
        """
        try:
            with self.engine.connect() as connection, connection.begin():
                return work(connection)
        except DBAPIError as exc:
            raise store_error(exc, self.name, self.busy_timeout_seconds) from None

    def write(self, work: Callable[[Connection], T], *,
              conflict: Callable[[], StoreError] | None = None) -> T:
        """Run ``work`` in one write transaction, committed when it returns.

        On SQLite a write that finds the database locked after the busy timeout is retried
        (``work`` must be safe to run again: it is, since the failed attempt rolled back).

        Args:
            work: what to do in the transaction.
            conflict: builds the error to raise when a constraint (unique or foreign key)
                rejects the write; it runs after the rollback, so it may read.

        Raises:
            StoreLockedError: SQLite stayed locked through every attempt.
            StoreError: the database cannot be reached or written.
        """
        attempts = _LOCK_ATTEMPTS if self.dialect == "sqlite" else 1
        for attempt in range(1, attempts + 1):
            try:
                with self.engine.connect() as connection:
                    connection.execution_options(**{_WRITE: True})
                    with connection.begin():
                        return work(connection)
            except IntegrityError as exc:
                if conflict is None:
                    raise store_error(exc, self.name) from None
                raise conflict() from None
            except DBAPIError as exc:
                error = store_error(exc, self.name, self.busy_timeout_seconds, attempt)
                if isinstance(error, StoreLockedError) and attempt < attempts:
                    _log.warning("%s is locked; retrying the write (attempt %d of %d)",
                                 self.name, attempt + 1, attempts)
                    continue
                raise error from None
        raise AssertionError("unreachable: the last attempt returns or raises")

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
