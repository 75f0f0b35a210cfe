"""A database of schema 1 (no trial durations, no figure columns) is migrated when opened,
on both backends (schema 2 is in ``test_store_tallies``)."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from remit.harness import RunResult
from remit.harness.tally import tally_records
from remit.store import SCHEMA_VERSION, Store, resolve_url
from tests.store.sample import DROP_FIGURES, ManifestFactory, record_key


def _stored_version(url: str) -> str:
    engine = create_engine(resolve_url(url, environ={}))
    with engine.connect() as connection:
        version = connection.execute(
            text("SELECT value FROM meta WHERE key = 'schema_version'")).scalar_one()
    engine.dispose()
    return str(version)


def _as_schema_1(url: str) -> None:
    """Turn a fresh database into what remit of schema 1 wrote: no ``trials.seconds``, no
    figure columns."""
    engine = create_engine(resolve_url(url, environ={}))
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE trials DROP COLUMN seconds"))
        for statement in DROP_FIGURES:
            connection.execute(text(statement))
        connection.execute(text("UPDATE meta SET value = '1' WHERE key = 'schema_version'"))
    engine.dispose()


def test_a_schema_1_database_is_migrated_and_keeps_its_trials(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    first, *rest = sorted(run_result.trials, key=record_key)
    assert first.seconds is not None
    assert first.seconds >= 0
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-old"))
        store.save_trial("r-old", first)
    _as_schema_1(store_url)

    with Store.open(store_url, create=False) as store:
        [old] = store.trials("r-old")
        store.save_trial("r-old", rest[0])
        stored = store.trials("r-old")
        assert store.tallies("r-old") == tally_records(stored)  # the figures were filled
    assert _stored_version(store_url) == str(SCHEMA_VERSION) == "3"
    assert old == first.model_copy(update={"seconds": None})  # unknown, not made up
    assert stored[1] == rest[0]
    assert stored[1].seconds == rest[0].seconds
    with Store.open(store_url) as store:  # opening again changes nothing
        assert store.trials("r-old") == stored
