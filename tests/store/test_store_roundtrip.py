"""A run written to the store and read back equals the run in memory, on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import create_engine, text

import remit.store
from remit.harness import RunResult, summarise
from remit.store import SCHEMA_VERSION, RunListing, Store, resolve_url, trial_id_for
from tests.store.sample import ManifestFactory, record_key


def _write(store: Store, run_id: str, result: RunResult, make_manifest: ManifestFactory,
           index: int = 0) -> list[str]:
    store.create_run(make_manifest(run_id, index))
    return [store.save_trial(run_id, record) for record in result.trials]


def test_run_round_trips_exactly(store_url: str, run_result: RunResult,
                                 make_manifest: ManifestFactory) -> None:
    expected = sorted(run_result.trials, key=record_key)
    with Store.open(store_url) as store:
        _write(store, "r-1", run_result, make_manifest)
    with Store.open(store_url) as store:
        stored = store.trials("r-1")
        manifest = store.manifest("r-1")
    assert stored == expected
    assert all(len(s.trail) > 20 for s in stored)
    assert summarise([s.scored for s in stored]) == run_result.summaries
    assert manifest == make_manifest("r-1")


def test_trial_ids_name_the_trial_and_fetch_it(store_url: str, run_result: RunResult,
                                               make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        ids = _write(store, "r-1", run_result, make_manifest)
        first = run_result.trials[0]
        scored = first.scored
        assert ids[0] == f"r-1/{scored.scenario_id}/{scored.mode}/{scored.trial}"
        assert ids[0] == trial_id_for("r-1", scored.scenario_id, scored.mode, scored.trial)
        assert store.trial(ids[0]) == first
        assert store.trial(ids[-1]) == run_result.trials[-1]


def test_trials_without_trails_keep_scores_and_seeds(store_url: str, run_result: RunResult,
                                                     make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        _write(store, "r-1", run_result, make_manifest)
        light = store.trials("r-1", with_trails=False)
    expected = sorted(run_result.trials, key=record_key)
    assert [r.trail for r in light] == [()] * len(expected)
    assert [(r.scored, r.seed, r.attempts) for r in light] == [
        (r.scored, r.seed, r.attempts) for r in expected]


def test_completed_names_every_stored_key(store_url: str, run_result: RunResult,
                                          make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        assert store.completed("r-1") == set()
        half = run_result.trials[: len(run_result.trials) // 2]
        for record in half:
            store.save_trial("r-1", record)
        assert store.completed("r-1") == {record_key(r) for r in half}


def test_infra_errors_and_attempts_round_trip(store_url: str, run_result: RunResult,
                                              make_manifest: ManifestFactory) -> None:
    record = run_result.trials[0].model_copy(
        update={"attempts": 3, "infra_error": "TimeoutError: upstream took 30s", "trail": ()})
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        trial_id = store.save_trial("r-1", record)
        assert store.trial(trial_id) == record
        assert store.trials("r-1") == [record]


def test_discarding_errored_trials_deletes_them_with_their_events_and_nothing_else(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    records = sorted(run_result.trials, key=record_key)
    errored = {1, 4}
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        store.create_run(make_manifest("r-2", 1))
        for index, record in enumerate(records):
            failed = record.model_copy(update={"infra_error": "TimeoutError: 30s"})
            store.save_trial("r-1", failed if index in errored else record)
            store.save_trial("r-2", failed)  # another run's errors stay
        discarded = store.discard_errored("r-1")
        assert store.discard_errored("r-1") == []
        kept = store.trials("r-1")
        assert len(store.trials("r-2")) == len(records)
        assert _orphan_events(store_url) == 0
        for index in errored:
            store.save_trial("r-1", records[index])
        assert store.trials("r-1") == records
    assert discarded == [record_key(records[i]) for i in sorted(errored)]
    assert kept == [r for i, r in enumerate(records) if i not in errored]


def _orphan_events(store_url: str) -> int:
    engine = create_engine(resolve_url(store_url, environ={}))
    try:
        with engine.connect() as connection:
            return int(connection.execute(text(
                "SELECT count(*) FROM events WHERE trial_pk NOT IN (SELECT pk FROM trials)"))
                .scalar_one())
    finally:
        engine.dispose()


def test_runs_lists_newest_first_with_counts(store_url: str, run_result: RunResult,
                                             make_manifest: ManifestFactory) -> None:
    ended = datetime(2025, 3, 1, 10, 0, tzinfo=UTC)
    with Store.open(store_url) as store:
        assert store.runs() == []
        _write(store, "r-old", run_result, make_manifest, index=0)
        store.create_run(make_manifest("r-new", 5))
        store.save_trial("r-new", run_result.trials[0])
        store.finish_run("r-old", ended)
        listing = store.runs()
        assert store.manifest("r-old") == make_manifest("r-old").finished(ended)
    modes = tuple(m.name for m in make_manifest("x").modes)
    assert listing == [
        RunListing(run_id="r-new", suite_id="builtin", agent_id="oracle", modes=modes,
                   trials=1, passed=1, started_at=make_manifest("r-new", 5).started_at,
                   ended_at=None),
        RunListing(run_id="r-old", suite_id="builtin", agent_id="oracle", modes=modes,
                   trials=len(run_result.trials), passed=len(run_result.trials),
                   started_at=make_manifest("r-old").started_at, ended_at=ended),
    ]


def test_in_memory_sqlite_store_works(run_result: RunResult,
                                      make_manifest: ManifestFactory) -> None:
    with Store.open("sqlite://") as store:
        _write(store, "r-1", run_result, make_manifest)
        assert store.trials("r-1") == sorted(run_result.trials, key=record_key)
        assert store.database == "the in-memory database"
        assert store.schema_version == SCHEMA_VERSION == 3


def test_public_api_is_exported_and_documented() -> None:
    missing = [name for name in remit.store.__all__ if not hasattr(remit.store, name)]
    undocumented = [name for name in remit.store.__all__
                    if callable(obj := getattr(remit.store, name)) and not obj.__doc__]
    assert missing == []
    assert undocumented == []


def test_only_an_empty_run_is_discarded(store_url: str, run_result: RunResult,
                                        make_manifest: ManifestFactory) -> None:
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-empty"))
        _write(store, "r-full", run_result, make_manifest, index=1)
        assert store.discard_if_empty("r-empty")
        assert not store.discard_if_empty("r-full")
        assert [r.run_id for r in store.runs()] == ["r-full"]
        assert len(store.trials("r-full")) == len(run_result.trials)
