"""``Store.trails`` reads the trails of chosen trials of a run, on both backends: what a
report reads after the records without their trails."""

from __future__ import annotations

import pytest

from remit.harness import RunResult
from remit.store import Store, UnknownRunError, UnknownTrialError
from tests.store.sample import ManifestFactory, record_key


def test_the_trails_of_chosen_trials_are_those_stored(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    chosen = run_result.trials[1::3]
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        store.create_run(make_manifest("r-2", 1))
        for record in run_result.trials:
            store.save_trial("r-1", record)
            store.save_trial("r-2", record.model_copy(update={"trail": record.trail[:2]}))
        trails = store.trails("r-1", [record_key(r) for r in chosen])
        whole = {record_key(r): r.trail for r in store.trials("r-1")}
    assert list(trails) == [record_key(r) for r in chosen]  # in the order asked
    assert trails == {record_key(r): r.trail for r in chosen}
    assert all(trails[key] == whole[key] for key in trails)  # not r-2's shorter trails
    assert all(len(trail) > 20 for trail in trails.values())


def test_a_trial_without_events_has_an_empty_trail_and_no_key_gives_nothing(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    errored = run_result.trials[0].model_copy(
        update={"infra_error": "TimeoutError: upstream took 30s", "trail": ()})
    kept = run_result.trials[1]
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        store.save_trial("r-1", errored)
        store.save_trial("r-1", kept)
        assert store.trails("r-1", [record_key(errored), record_key(kept)]) == {
            record_key(errored): (), record_key(kept): kept.trail}
        assert store.trails("r-1", []) == {}


def test_an_unknown_run_or_trial_is_refused_by_name(
        store_url: str, run_result: RunResult, make_manifest: ManifestFactory) -> None:
    record = run_result.trials[0]
    with Store.open(store_url) as store:
        store.create_run(make_manifest("r-1"))
        store.save_trial("r-1", record)
        with pytest.raises(UnknownRunError, match="r-9"):
            store.trails("r-9", [record_key(record)])
        with pytest.raises(UnknownTrialError, match="r-1/nope/dual_control/0"):
            store.trails("r-1", [record_key(record), ("nope", "dual_control", 0)])
