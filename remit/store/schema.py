"""Checking, and on a new database creating, the store schema.

Opening a database reads its ``meta`` table first and writes nothing unless the database
is empty: a database written by a newer schema is refused (:class:`SchemaVersionError`),
and one that holds some of remit's tables but no schema version is refused as not being
a remit database. An empty database gets the tables and ``schema_version`` in one
transaction; concurrent openers are serialised (SQLite ``BEGIN IMMEDIATE``, a
PostgreSQL advisory lock) and re-check inside it, so the tables are created once.

A database of an older schema is migrated when it is opened, in one transaction under
the same lock: version 1 to 2 adds the nullable ``trials.seconds`` column (trials stored
before it read as of unknown duration). Nothing else changes, so a migrated database
holds the same runs and trials; only remits of schema 2 or later open it afterwards.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, select, text, update
from sqlmodel import SQLModel

from remit.store.database import Database
from remit.store.errors import SchemaVersionError, StoreCorruptError
from remit.store.tables import META, SCHEMA_VERSION, STORE_TABLES, TRIALS

__all__ = ["ensure_schema"]

_VERSION_KEY = "schema_version"
_PG_SCHEMA_LOCK = 0x72656D6974  # "remit" in ASCII: the advisory lock key for schema creation


def _stored_version(connection: Connection, database: str) -> int | None:
    """The stored schema version; ``None`` when the database holds none of remit's tables."""
    names = set(inspect(connection).get_table_names())
    ours = {t.name for t in STORE_TABLES}
    if META.name not in names:
        if names & ours:
            raise StoreCorruptError(database, f"it has tables {sorted(names & ours)} but no "
                                              "meta table, so it is not a remit database")
        return None
    value = connection.execute(select(META.c.value).where(META.c.key == _VERSION_KEY)).scalar()
    if value is None or not value.isdigit():
        raise StoreCorruptError(database, f"its meta table has schema_version={value!r}, not "
                                          "a version number, so it is not a remit database")
    return int(value)


def _check(version: int, database: str) -> int:
    if version > SCHEMA_VERSION:
        raise SchemaVersionError(database, version, SCHEMA_VERSION)
    if version < 1:
        raise StoreCorruptError(database, f"its schema_version={version!r} was never written "
                                          "by remit")
    return version


def _create(connection: Connection, database: str) -> int:
    _lock(connection)
    version = _stored_version(connection, database)
    if version is not None:
        return _check(version, database)
    SQLModel.metadata.create_all(connection, tables=list(STORE_TABLES))
    connection.execute(META.insert().values(key=_VERSION_KEY, value=str(SCHEMA_VERSION)))
    return SCHEMA_VERSION


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_SCHEMA_LOCK})


def _migrate(connection: Connection, database: str) -> int:
    """Bring an older schema up to :data:`SCHEMA_VERSION` (re-checked under the lock, so
    two openers migrate once)."""
    _lock(connection)
    version = _stored_version(connection, database)
    if version is None or _check(version, database) == SCHEMA_VERSION:
        return SCHEMA_VERSION if version is None else version
    if version == 1:
        columns = {c["name"] for c in inspect(connection).get_columns(TRIALS.name)}
        if "seconds" not in columns:
            kind = "DOUBLE PRECISION" if connection.dialect.name == "postgresql" else "FLOAT"
            connection.execute(text(f"ALTER TABLE {TRIALS.name} ADD COLUMN seconds {kind}"))
    connection.execute(update(META).where(META.c.key == _VERSION_KEY)
                       .values(value=str(SCHEMA_VERSION)))
    return SCHEMA_VERSION


def ensure_schema(db: Database) -> int:
    """Check the database's schema version, creating the tables if it has none and
    migrating an older schema.

    Returns:
        The database's schema version.

    Raises:
        SchemaVersionError: the database was written by a newer schema.
        StoreCorruptError: it is not a remit database.
        StoreError: it cannot be reached, read or (when new or older) written.
    """
    version = db.read(lambda c: _stored_version(c, db.name))
    if version is not None:
        if _check(version, db.name) < SCHEMA_VERSION:
            return db.write(lambda c: _migrate(c, db.name))
        return version
    return db.write(lambda c: _create(c, db.name))
