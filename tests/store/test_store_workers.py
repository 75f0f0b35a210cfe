"""Runs recorded from worker processes: the parent stores every trial, in the order one
process would, and a run interrupted in workers resumes in workers to the same records.

Each test runs on SQLite and, when ``REMIT_TEST_POSTGRES_URL`` is set, on PostgreSQL:
the workers are forked from a process holding an open connection they never use.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from remit.authority import mode_by_name
from remit.harness import RunResult, TrialRecord
from remit.store import Store, resume_run, start_run

MODES = [mode_by_name("all_tools"), mode_by_name("dual_control")]
BACKENDS = ["sqlite_url", "postgres_url"]


def _stored(records: Sequence[TrialRecord]) -> list[TrialRecord]:
    """What a store gives back, without the durations (not part of what a trial is)."""
    return [r.model_copy(update={"seconds": None}) for r in records]


def _key(record: TrialRecord) -> tuple[str, str, int]:
    return record.scored.scenario_id, record.scored.mode, record.scored.trial


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_in_workers_stores_what_one_process_stores(
        backend: str, request: pytest.FixtureRequest) -> None:
    url: str = request.getfixturevalue(backend)
    run_ids: dict[int, str] = {}
    order: dict[int, list[tuple[str, str, int]]] = {1: [], 2: []}
    results: dict[int, RunResult] = {}
    with Store.open(url) as store:
        for workers in (1, 2):
            results[workers] = start_run(
                store, suite_spec="handwritten", modes=MODES, agent_id="baseline", trials=2,
                seed=11, workers=workers,
                on_start=lambda manifest, _, w=workers: run_ids.__setitem__(w, manifest.run_id),
                on_trial=lambda record, w=workers: order[w].append(_key(record)))
        one, two = (store.trials(run_ids[w]) for w in (1, 2))
        manifests = {w: store.manifest(run_ids[w]) for w in (1, 2)}
    assert len(two) == 40
    assert _stored(two) == _stored(one)
    assert results[2].summaries == results[1].summaries
    assert order[2] == order[1]  # stored in the order one process stores them
    # How a run was executed is not part of what it is: the manifests differ by id and time.
    when = {"run_id": "r", "started_at": manifests[1].started_at, "ended_at": None}
    assert manifests[2].model_copy(update=when) == manifests[1].model_copy(update=when)
    assert manifests[2].ended_at is not None


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_run_interrupted_in_workers_resumes_in_workers_to_the_same_records(
        backend: str, request: pytest.FixtureRequest) -> None:
    url: str = request.getfixturevalue(backend)
    saved: list[TrialRecord] = []

    def ctrl_c_after_seven(record: TrialRecord) -> None:
        saved.append(record)
        if len(saved) == 7:
            raise KeyboardInterrupt

    with Store.open(url) as store:
        with pytest.raises(KeyboardInterrupt):
            start_run(store, suite_spec="handwritten", modes=MODES, agent_id="oracle",
                      trials=4, seed=5, workers=2, on_trial=ctrl_c_after_seven)
        [listing] = store.runs()
        kept = store.completed(listing.run_id)
        resumed = resume_run(store, listing.run_id, workers=2)
        whole = start_run(store, suite_spec="handwritten", modes=MODES, agent_id="oracle",
                          trials=4, seed=5)
        finished = {lst.run_id: lst.ended_at for lst in store.runs()}
    # 80 trials: the first batch (BATCH_TRIALS = 64) is committed before the run ends, and
    # every trial reported saved is in it; the rest is left for the resume to run.
    assert {_key(r) for r in saved} <= kept
    assert 7 <= len(kept) < 80
    assert _stored(resumed.trials) == _stored(whole.trials)
    assert resumed.summaries == whole.summaries
    assert finished[listing.run_id] is not None
