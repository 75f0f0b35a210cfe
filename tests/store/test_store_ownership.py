"""The store opens only remit's databases, marks the ones it writes, and readers never write.

Another application's database is refused without a byte of it changing (no tables, no
WAL switch); a reader creates nothing, migrates nothing and marks nothing; databases
written before the marker existed keep working and are marked by the next writer.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from remit.harness import RunResult
from remit.store import (
    SCHEMA_VERSION,
    MissingDatabaseError,
    NotRemitDatabaseError,
    SchemaVersionError,
    Store,
    StoreError,
    resolve_url,
)
from remit.store.tables import SQLITE_APPLICATION_ID
from tests.store.sample import DROP_FIGURES, ManifestFactory, record_key


def _other_application(path: Path, *, application_id: int = 0) -> bytes:
    """A SQLite file of another application (rollback journal, its own tables)."""
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        connection.execute("INSERT INTO notes (body) VALUES ('keep me')")
        connection.execute(f"PRAGMA application_id = {application_id}")
    connection.close()
    return path.read_bytes()


def _sqlite(path: Path, query: str) -> object:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return connection.execute(query).fetchone()[0]
    finally:
        connection.close()


def _meta(url: str) -> dict[str, str]:
    engine = create_engine(resolve_url(url, environ={}))
    with engine.connect() as connection:
        query = text("SELECT key, value FROM meta")
        rows = {key: value for key, value in connection.execute(query)}
    engine.dispose()
    return rows


def _execute(url: str, *statements: str) -> None:
    engine = create_engine(resolve_url(url, environ={}))
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()


def _as_unmarked(url: str) -> None:
    """What remit wrote before the marker existed: no application row, no application_id."""
    _execute(url, "DELETE FROM meta WHERE key = 'application'")
    if url.startswith("sqlite"):
        _execute(url, "PRAGMA application_id = 0")


def _tables(url: str) -> set[str]:
    engine = create_engine(resolve_url(url, environ={}))
    with engine.connect() as connection:
        names = set(inspect(connection).get_table_names())
    engine.dispose()
    return names


@pytest.mark.parametrize("read_only", [True, False], ids=["reader", "writer"])
def test_another_applications_file_is_refused_and_not_changed(
        tmp_path: Path, read_only: bool) -> None:
    path = tmp_path / "other.db"
    before = _other_application(path)

    with pytest.raises(NotRemitDatabaseError) as error:
        Store.open(str(path), read_only=read_only)

    message = str(error.value)
    assert message.startswith(f"cannot use {path}: it is not a remit database (it holds "
                              "tables 'notes' and no remit marker)")
    assert "\n" not in message
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]
    assert _sqlite(path, "PRAGMA journal_mode") == "delete"


def test_another_applications_id_is_refused_even_with_remit_tables(tmp_path: Path) -> None:
    path = tmp_path / "remit.db"
    Store.open(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA application_id = 1234")
    connection.close()
    before = path.read_bytes()
    for read_only in (True, False):
        with pytest.raises(NotRemitDatabaseError, match=r"application_id is 1234, not remit's"):
            Store.open(str(path), read_only=read_only)
    assert path.read_bytes() == before


def test_another_applications_wal_file_is_refused_before_sqlite_opens_it(
        tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA journal_mode = WAL")
    connection.close()
    before = _other_application(path, application_id=0x46534C31)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]  # closed cleanly
    for read_only in (True, False):
        with pytest.raises(NotRemitDatabaseError, match=r"application_id is 1179864113"):
            Store.open(str(path), read_only=read_only)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]  # no -wal, no -shm


def test_a_new_database_carries_the_marker(store_url: str) -> None:
    Store.open(store_url).close()
    assert _meta(store_url) == {"schema_version": str(SCHEMA_VERSION), "application": "remit"}
    if store_url.startswith("sqlite"):
        path = Path(resolve_url(store_url, environ={}).database or "")
        assert _sqlite(path, "PRAGMA application_id") == SQLITE_APPLICATION_ID
        assert _sqlite(path, "PRAGMA journal_mode") == "wal"


def test_a_reader_creates_nothing(tmp_path: Path) -> None:
    absent, empty = tmp_path / "absent.db", tmp_path / "empty.db"
    empty.write_bytes(b"")
    for path in (absent, empty):
        with pytest.raises(MissingDatabaseError) as error:
            Store.open(str(path), read_only=True)
        assert str(error.value).startswith(
            f"no remit database at {path}; run `remit run --db {path}` first")
    assert not absent.exists()
    assert empty.read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_a_writer_takes_an_empty_file(tmp_path: Path, make_manifest: ManifestFactory) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    with Store.open(str(path)) as store:
        store.create_run(make_manifest("r-1"))
    with Store.open(str(path), read_only=True) as store:
        assert [r.run_id for r in store.runs()] == ["r-1"]
    assert _sqlite(path, "PRAGMA application_id") == SQLITE_APPLICATION_ID


def test_a_reader_cannot_write(store_url: str, make_manifest: ManifestFactory) -> None:
    Store.open(store_url).close()
    with Store.open(store_url, read_only=True) as store:
        with pytest.raises(StoreError) as error:
            store.create_run(make_manifest("r-1"))
        assert "\n" not in str(error.value)
        assert store.runs() == []


def test_a_database_from_before_the_marker_is_read_as_is_and_marked_by_a_writer(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    record = run_result.trials[0]
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-old"))
        store.save_trial("r-old", record)
    _as_unmarked(store_url)
    sqlite_file = store_url.startswith("sqlite")
    path = Path(resolve_url(store_url, environ={}).database or "")
    if sqlite_file:
        _execute(store_url, "PRAGMA journal_mode = DELETE")
        before = path.read_bytes()

    with Store.open(store_url, read_only=True) as store:
        assert store.trials("r-old") == [record]
    assert _meta(store_url) == {"schema_version": str(SCHEMA_VERSION)}
    if sqlite_file:
        assert path.read_bytes() == before
        assert _sqlite(path, "PRAGMA journal_mode") == "delete"

    with Store.open(store_url) as store:
        assert store.trials("r-old") == [record]
    assert _meta(store_url) == {"schema_version": str(SCHEMA_VERSION), "application": "remit"}
    if sqlite_file:
        assert _sqlite(path, "PRAGMA application_id") == SQLITE_APPLICATION_ID
        assert _sqlite(path, "PRAGMA journal_mode") == "wal"


def test_a_reader_reads_a_schema_1_database_without_migrating_it(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    first, second = sorted(run_result.trials, key=record_key)[:2]
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-old"))
        store.save_trial("r-old", first)
    _as_unmarked(store_url)
    _execute(store_url, "ALTER TABLE trials DROP COLUMN seconds", *DROP_FIGURES,
             "UPDATE meta SET value = '1' WHERE key = 'schema_version'")

    with Store.open(store_url, read_only=True) as store:
        [old] = store.trials("r-old")
        assert store.trial(f"r-old/{first.scored.scenario_id}/{first.scored.mode}/"
                           f"{first.scored.trial}") == old
    assert old == first.model_copy(update={"seconds": None})
    assert _meta(store_url) == {"schema_version": "1"}

    with Store.open(store_url) as store:  # a writer migrates and marks
        store.save_trial("r-old", second)
        assert store.trials("r-old")[1] == second
    assert _meta(store_url) == {"schema_version": str(SCHEMA_VERSION), "application": "remit"}


def test_a_reader_refuses_a_newer_schema(store_url: str) -> None:
    Store.open(store_url).close()
    _execute(store_url, "UPDATE meta SET value = '9' WHERE key = 'schema_version'")
    with pytest.raises(SchemaVersionError, match=r"written by a newer remit \(store schema "
                                                 r"version 9; .*upgrade remit"):
        Store.open(store_url, read_only=True)


def test_postgresql_refuses_a_schema_holding_other_tables(postgres_url: str) -> None:
    _execute(postgres_url, "CREATE TABLE notes (id integer PRIMARY KEY)")
    for read_only in (True, False):
        with pytest.raises(NotRemitDatabaseError, match=r"it holds tables 'notes' and no "
                                                        r"remit marker"):
            Store.open(postgres_url, read_only=read_only)
    assert _tables(postgres_url) == {"notes"}


def test_postgresql_reader_of_an_empty_schema_creates_nothing(postgres_url: str) -> None:
    with pytest.raises(MissingDatabaseError, match=r"^no remit database at postgresql://"):
        Store.open(postgres_url, read_only=True)
    assert _tables(postgres_url) == set()
