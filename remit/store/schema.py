"""Recognising remit's databases, checking their version, and creating or migrating one.

A database is remit's when it carries remit's marker: on SQLite ``PRAGMA
application_id`` = :data:`~remit.store.tables.SQLITE_APPLICATION_ID` in the file's header,
and on both backends the ``meta`` row ``application`` = ``remit`` beside
``schema_version``. A database written before the marker existed is recognised by its
tables (``meta`` with a numeric ``schema_version``, ``runs``, ``trials``, ``events``) and
gets the marker the next time a writer opens it. Anything else that holds tables, or
carries another application's ``application_id``, is another application's database: it
is refused (:class:`NotRemitDatabaseError`) and never written to, not even to switch its
journal mode.

Opening reads first. A reader (``write=False``) then writes nothing at all: it refuses a
database that holds no tables (:class:`MissingDatabaseError`) and one written by a newer
schema (:class:`SchemaVersionError`), and reads an older schema as it is (version 1
lacks ``trials.seconds``: its trials read as of unknown duration; before version 3 the
figure columns are missing: figures are read from the scores). A writer switches a
SQLite file to WAL, then, in one transaction, creates the tables of an empty database,
migrates an older schema, and adds a missing marker; concurrent openers are serialised
(SQLite ``BEGIN IMMEDIATE``, a PostgreSQL advisory lock) and re-check inside it, so
this happens once.

Migrations: version 1 to 2 adds the nullable ``trials.seconds`` column; version 2 to 3
adds a nullable integer column per figure of the score (:mod:`remit.store.figures`) and
fills it for every stored trial from the trial's score, in the same transaction. Nothing
else changes, so a migrated database holds the same runs and trials; only remits of the
new schema write it afterwards.
"""

from __future__ import annotations

from typing import NamedTuple

from sqlalchemy import Connection, inspect, select, text, update
from sqlmodel import SQLModel

from remit.store.database import Database, application_id_reason
from remit.store.errors import (
    MissingDatabaseError,
    NotRemitDatabaseError,
    SchemaVersionError,
    StoreCorruptError,
)
from remit.store.figures import FIGURES_SINCE, fill_figures
from remit.store.tables import (
    APPLICATION,
    FIGURE_COLUMNS,
    META,
    SCHEMA_VERSION,
    SQLITE_APPLICATION_ID,
    STORE_TABLES,
    TRIALS,
)

__all__ = ["Found", "ensure_schema", "inspect_database"]

_VERSION_KEY = "schema_version"
_APPLICATION_KEY = "application"
_PG_SCHEMA_LOCK = 0x72656D6974  # "remit" in ASCII: the advisory lock key for schema creation
_NAMES_SHOWN = 5
_NAME_SHOWN = 40


class Found(NamedTuple):
    """What a database holds, as far as remit is concerned.

    Attributes:
        version: its store schema version; ``None`` when it holds no tables (a new or
            empty database).
        marked: whether it carries remit's marker (a database written before the marker
            existed does not, until a writer opens it).
    """

    version: int | None
    marked: bool


def _shown(names: set[str]) -> str:
    """A few table names, each cut short: the names are another application's text."""
    listed = sorted(names)
    shown = [repr(n if len(n) <= _NAME_SHOWN else n[:_NAME_SHOWN] + "...")
             for n in listed[:_NAMES_SHOWN]]
    more = f" and {len(listed) - _NAMES_SHOWN} more" if len(listed) > _NAMES_SHOWN else ""
    return ", ".join(shown) + more


def _application_id(connection: Connection) -> int | None:
    """SQLite's ``application_id`` (0 when unset); ``None`` on PostgreSQL."""
    if connection.dialect.name != "sqlite":
        return None
    return int(connection.exec_driver_sql("PRAGMA application_id").scalar_one())


def inspect_database(connection: Connection, database: str) -> Found:
    """Whether the database is remit's, and its schema version; reads only.

    Raises:
        NotRemitDatabaseError: it is another application's database.
        StoreCorruptError: it carries remit's marker but lacks some of remit's tables.
    """
    app_id = _application_id(connection)
    if app_id not in (None, 0, SQLITE_APPLICATION_ID):
        raise NotRemitDatabaseError(database, application_id_reason(app_id))
    names = set(inspect(connection).get_table_names())
    if not names:
        return Found(None, marked=False)
    ours = {t.name for t in STORE_TABLES}
    missing = ours - names
    if missing and app_id == SQLITE_APPLICATION_ID:
        raise StoreCorruptError(database, f"it is marked as remit's but has no "
                                          f"{_shown(missing)} table (damaged?)")
    if missing:
        raise NotRemitDatabaseError(database, f"it holds tables {_shown(names)} and no remit "
                                              "marker")
    columns = {c["name"] for c in inspect(connection).get_columns(META.name)}
    if not {"key", "value"} <= columns:
        raise NotRemitDatabaseError(database, f"its meta table has columns {_shown(columns)}, "
                                              "not remit's key and value")
    rows = dict(connection.execute(
        select(META.c.key, META.c.value)
        .where(META.c.key.in_([_VERSION_KEY, _APPLICATION_KEY]))).all())
    value = rows.get(_VERSION_KEY)
    if value is None or not (value.isascii() and value.isdigit()) or len(value) > _NAME_SHOWN:
        shown = value if value is None or len(value) <= _NAME_SHOWN else value[:_NAME_SHOWN]
        raise NotRemitDatabaseError(database, f"its meta table has schema_version={shown!r}, "
                                              "not a version number")
    version = int(value)
    if version < 1:
        raise NotRemitDatabaseError(database, f"its schema_version={version} was never "
                                              "written by remit")
    marked = rows.get(_APPLICATION_KEY) == APPLICATION and app_id in (None,
                                                                      SQLITE_APPLICATION_ID)
    return Found(version, marked)


def _check_version(found: Found, database: str) -> None:
    if found.version is not None and found.version > SCHEMA_VERSION:
        raise SchemaVersionError(database, found.version, SCHEMA_VERSION)


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_SCHEMA_LOCK})


def _mark(connection: Connection) -> None:
    """Write remit's marker (the header's application_id on SQLite, and a meta row)."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql(f"PRAGMA application_id = {SQLITE_APPLICATION_ID}")
    connection.execute(META.delete().where(META.c.key == _APPLICATION_KEY))
    connection.execute(META.insert().values(key=_APPLICATION_KEY, value=APPLICATION))


def _migrate(connection: Connection, version: int) -> None:
    """Bring a schema of ``version`` up to :data:`SCHEMA_VERSION`."""
    dialect = connection.dialect.name
    columns = {c["name"] for c in inspect(connection).get_columns(TRIALS.name)}
    if version == 1 and "seconds" not in columns:
        kind = "DOUBLE PRECISION" if dialect == "postgresql" else "FLOAT"
        connection.execute(text(f"ALTER TABLE {TRIALS.name} ADD COLUMN seconds {kind}"))
    if version < FIGURES_SINCE:
        for name in FIGURE_COLUMNS:
            if name not in columns:
                connection.execute(text(f"ALTER TABLE {TRIALS.name} ADD COLUMN {name} INTEGER"))
        fill_figures(connection)
    connection.execute(update(META).where(META.c.key == _VERSION_KEY)
                       .values(value=str(SCHEMA_VERSION)))


def _prepare(connection: Connection, database: str) -> int:
    """Under the lock: create the tables of an empty database, migrate an older one, and
    mark an unmarked one (re-checked here, so two openers do it once)."""
    _lock(connection)
    found = inspect_database(connection, database)
    _check_version(found, database)
    if found.version is None:
        SQLModel.metadata.create_all(connection, tables=list(STORE_TABLES))
        connection.execute(META.insert().values(key=_VERSION_KEY, value=str(SCHEMA_VERSION)))
        _mark(connection)
        return SCHEMA_VERSION
    if found.version < SCHEMA_VERSION:
        _migrate(connection, found.version)
    if not found.marked:
        _mark(connection)
    return SCHEMA_VERSION


def ensure_schema(db: Database, *, write: bool = True) -> int:
    """Check that the database is remit's and of a schema this remit reads; a writer also
    creates the tables of an empty one, migrates an older one and marks an unmarked one.

    Args:
        db: the database.
        write: ``False`` for a reader, which writes nothing (see the module's docstring).

    Returns:
        The database's schema version (older than :data:`SCHEMA_VERSION` only for a
        reader of an older database).

    Raises:
        NotRemitDatabaseError: it is another application's database.
        MissingDatabaseError: a reader found no tables.
        SchemaVersionError: the database was written by a newer schema.
        StoreCorruptError: it is a damaged remit database.
        StoreError: it cannot be reached, read or (when it needs to be) written.
    """
    found = db.read(lambda c: inspect_database(c, db.name))
    _check_version(found, db.name)
    if not write:
        if found.version is None:
            raise MissingDatabaseError(db.name)
        return found.version
    db.use_wal()
    if found.version == SCHEMA_VERSION and found.marked:
        return SCHEMA_VERSION
    return db.write(lambda c: _prepare(c, db.name))
