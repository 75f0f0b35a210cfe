"""The garbage collector during a run: the heap frozen and full collections held back
while trials run, on every path (in memory, recorded, in workers), and everything as it
was afterwards, however the run ends."""

from __future__ import annotations

import gc
import signal
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from remit.actors import oracle_factory
from remit.authority import builtin_modes
from remit.harness import (
    FRESH_THRESHOLDS,
    RARE_FULL_COLLECTIONS,
    TrialRecord,
    drive,
    run,
    run_heap,
    run_in_workers,
)
from remit.scenarios import builtin_scenarios
from remit.store import Store, start_run

SCENARIOS = builtin_scenarios()[:2]
MODES = list(builtin_modes().values())[:1]


def _state() -> tuple[tuple[int, int, int], int]:
    return gc.get_threshold(), gc.get_freeze_count()


@pytest.fixture(autouse=True)
def _collector_as_it_was() -> Iterator[None]:
    thresholds, frozen = _state()
    yield
    assert gc.get_threshold() == thresholds
    assert (gc.get_freeze_count() > 0) == (frozen > 0)


class _Seen:
    """An ``on_trial`` callback noting the collector's state as each trial finishes."""

    def __init__(self) -> None:
        self.states: list[tuple[tuple[int, int, int], int]] = []

    def __call__(self, record: TrialRecord) -> None:
        self.states.append(_state())

    def held_back(self) -> bool:
        return bool(self.states) and all(
            thresholds[2] == RARE_FULL_COLLECTIONS and frozen > 0
            for thresholds, frozen in self.states)


def test_a_run_in_memory_freezes_the_heap_and_holds_full_collections_back() -> None:
    seen = _Seen()
    run(SCENARIOS, MODES, oracle_factory, progress=seen)
    assert seen.held_back()


def test_a_recorded_run_holds_full_collections_back(tmp_path: Path) -> None:
    seen = _Seen()
    with Store.open(str(tmp_path / "runs.db")) as store:
        start_run(store, suite_spec="core", modes=MODES, agent_id="oracle", trials=1,
                  seed=0, on_trial=seen)
    assert seen.held_back()


def test_a_run_in_workers_holds_them_back_in_the_parent() -> None:
    seen = _Seen()
    run(SCENARIOS, MODES, oracle_factory, progress=seen, workers=2)
    assert seen.held_back()


async def _thresholds(key: int) -> tuple[int, int, int]:
    return gc.get_threshold()


def test_a_worker_collects_as_a_fresh_interpreter_does() -> None:
    assert drive(run_in_workers(_thresholds, [0, 1], workers=2)) == [FRESH_THRESHOLDS] * 2


def test_the_collector_is_restored_after_a_run_that_fails() -> None:
    def failing(record: TrialRecord) -> None:
        raise LookupError("the callback failed")

    with pytest.raises(LookupError, match="the callback failed"):
        run(SCENARIOS, MODES, oracle_factory, progress=failing)


def test_the_collector_is_restored_after_ctrl_c() -> None:
    def interrupt(record: TrialRecord) -> None:
        signal.raise_signal(signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        run(SCENARIOS, MODES, oracle_factory, progress=interrupt)


def test_a_heap_frozen_by_the_caller_and_its_thresholds_stay_the_callers() -> None:
    thresholds = gc.get_threshold()
    gc.set_threshold(500, 5, 20)
    gc.freeze()
    try:
        seen = _Seen()
        run(SCENARIOS, MODES, oracle_factory, progress=seen)
        assert seen.held_back()
        assert gc.get_threshold() == (500, 5, 20)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


def test_overlapping_uses_restore_the_collector_when_the_last_one_ends() -> None:
    first, second = run_heap(), run_heap()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)  # runs under way in one event loop end in any order
    assert gc.get_threshold()[2] == RARE_FULL_COLLECTIONS
    assert gc.get_freeze_count() > 0
    second.__exit__(None, None, None)


def test_runs_in_several_threads_at_once_restore_the_collector() -> None:
    """Runs started from threads enter and leave in any interleaving; the collector is
    changed by the first in and restored by the last out, never left half-changed."""
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def runs() -> None:
        try:
            start.wait()
            for _ in range(5):
                assert len(run(SCENARIOS[:1], MODES, oracle_factory).trials) == 1
        except BaseException as exc:  # the main thread reports it
            failures.append(exc)

    threads = [threading.Thread(target=runs) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []  # and the fixture checks the collector is as it was
