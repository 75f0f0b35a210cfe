"""Every way the store refuses says so in one line, and refusing writes nothing."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from remit.errors import RemitError
from remit.harness import RunResult
from remit.store import (
    SCHEMA_VERSION,
    DuplicateRunError,
    DuplicateTrialError,
    SchemaVersionError,
    Store,
    StoreCorruptError,
    StoreError,
    StoreLockedError,
    StoreUnavailableError,
    UnknownRunError,
    UnknownTrialError,
    resolve_url,
)
from tests.store.sample import ManifestFactory, record_key


def _one_line(error: pytest.ExceptionInfo[StoreError]) -> str:
    message = str(error.value)
    assert "\n" not in message
    assert isinstance(error.value, RemitError)
    return message


def _sidecars(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + "-*"))


def test_duplicate_trial_is_refused_and_the_first_kept(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    record = run_result.trials[0]
    other = run_result.trials[1].model_copy(update={"scored": record.scored})
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        trial_id = store.save_trial("r-1", record)
        with pytest.raises(DuplicateTrialError, match=r"already stored") as error:
            store.save_trial("r-1", other)
        assert (error.value.run_id, error.value.scenario_id, error.value.mode,
                error.value.trial) == ("r-1", *record_key(record))
        _one_line(error)
        assert store.trials("r-1") == [record]
        assert store.trial(trial_id) == record


def test_duplicate_run_is_refused(store_url: str, make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        with pytest.raises(DuplicateRunError, match=r"run_id='r-1'.*already stored"):
            store.create_run(make_manifest("r-1", 3))
        assert store.manifest("r-1") == make_manifest("r-1")


def test_unknown_run_lists_known_runs(store_url: str, run_result: RunResult,
                                      make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        with pytest.raises(UnknownRunError, match=r"no runs are stored there yet"):
            store.manifest("r-9")
        store.create_run(make_manifest("r-1"))
        store.create_run(make_manifest("r-2", 1))
        for call in (store.manifest, store.trials, store.completed):
            with pytest.raises(UnknownRunError, match=r"run_id='r-9'.*include r-2, r-1") as e:
                call("r-9")
            assert e.value.known == ("r-2", "r-1")
            assert isinstance(e.value, ValueError)
        with pytest.raises(UnknownRunError, match=r"run_id='r-9'"):
            store.save_trial("r-9", run_result.trials[0])
        with pytest.raises(UnknownRunError, match=r"run_id='r-9'"):
            store.finish_run("r-9", make_manifest("r-9").started_at)
        assert store.completed("r-1") == set()


def test_unknown_trial_lists_trials_of_its_run(store_url: str, run_result: RunResult,
                                               make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        ids = [store.save_trial("r-1", r) for r in run_result.trials[:2]]
        with pytest.raises(UnknownTrialError, match=r"trial_id='r-1/nope/dual_control/0'") as e:
            store.trial("r-1/nope/dual_control/0")
        assert e.value.known == tuple(ids)
        _one_line(e)


def test_newer_schema_is_refused_naming_both_versions(store_url: str,
                                                      make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
    engine = create_engine(resolve_url(store_url, environ={}))
    with engine.begin() as connection:
        connection.execute(text("UPDATE meta SET value = :v WHERE key = 'schema_version'"),
                           {"v": str(SCHEMA_VERSION + 1)})
    engine.dispose()
    pattern = (rf"written by a newer remit \(store schema version {SCHEMA_VERSION + 1}; this "
               rf"remit reads up to version {SCHEMA_VERSION}\); upgrade remit")
    with pytest.raises(SchemaVersionError, match=pattern) as error:
        Store.open(store_url)
    assert (error.value.found, error.value.supported) == (SCHEMA_VERSION + 1, SCHEMA_VERSION)
    _one_line(error)


def test_newer_schema_file_is_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "remit.db"
    Store.open(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE meta SET value = '99'")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(SchemaVersionError, match=r"version 99"):
        Store.open(str(path))
    assert path.read_bytes() == before


@pytest.mark.parametrize("header", [b"", b"SQLite format 3\x00"], ids=["garbage", "bad-body"])
def test_corrupt_file_is_refused_and_left_untouched(tmp_path: Path, header: bytes) -> None:
    path = tmp_path / "remit.db"
    garbage = header + random.Random(4).randbytes(8192)
    path.write_bytes(garbage)
    with pytest.raises(StoreCorruptError, match=r"file is not a database \(corrupt\?\); "
                                                r"move it aside or pass --db") as error:
        Store.open(str(path))
    _one_line(error)
    assert path.read_bytes() == garbage
    assert _sidecars(path) == []


def test_tables_without_meta_are_not_a_remit_database(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY)")
    connection.close()
    before = path.read_bytes()
    with pytest.raises(StoreCorruptError, match=r"it is not a remit database \(it holds "
                                                r"tables 'runs' and no remit marker\)"):
        Store.open(str(path))
    assert path.read_bytes() == before


def test_missing_directory_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "remit.db"
    with pytest.raises(StoreUnavailableError, match=r"directory .*nowhere' does not exist"):
        Store.open(str(missing))
    assert not missing.parent.exists()


def test_locked_sqlite_file_is_reported_and_nothing_written(
        tmp_path: Path, make_manifest: ManifestFactory) -> None:
    path = tmp_path / "remit.db"
    Store.open(str(path)).close()
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        with Store.open(str(path), busy_timeout_seconds=0.02) as store:
            with pytest.raises(StoreLockedError, match=r"locked by another process \(waited "
                               r"0.06s in all: 3 attempts of 0.02s\)") as error:
                store.create_run(make_manifest("r-1"))
            assert error.value.attempts == 3
            _one_line(error)
            holder.execute("ROLLBACK")
            assert store.runs() == []
    finally:
        holder.close()


def test_unreachable_postgresql_is_one_clear_line() -> None:
    with pytest.raises(StoreUnavailableError,
                       match=r"cannot open postgresql://127.0.0.1:1/test: .*refused") as error:
        Store.open("postgresql://127.0.0.1:1/test")
    _one_line(error)


def test_password_never_appears_in_messages() -> None:
    with pytest.raises(StoreUnavailableError, match=r"postgresql://u:\*\*\*@127") as error:
        Store.open("postgresql://u:s3cret@127.0.0.1:1/test")
    assert "s3cret" not in str(error.value)
