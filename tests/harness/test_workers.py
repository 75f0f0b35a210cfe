"""Worker processes (``workers=N``): the records of one process, the parent the one writer.

Every test runs real trials in real worker processes (``fork``, the start method on
Linux; one test starts them through ``forkserver``, as on macOS). What the tests check
is what a user relies on: the same records, summaries and hand-over order as one
process; retries where the trial runs; errors, crashes and Ctrl-C stopping the pool
with every finished trial kept; asynchronous agents refused before anything runs.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import re
import signal
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from remit.actors import BUILTIN_AGENTS, load_agent_factory, oracle_factory
from remit.actors.llm import llm_agent_factory, parse_llm_config
from remit.authority import builtin_modes, mode_by_name
from remit.errors import RunAbortedError
from remit.harness import (
    TrialRecord,
    WorkerFailedError,
    WorkersError,
    check_workers,
    drive,
    run,
    run_async,
    run_in_workers,
)
from remit.scenarios import builtin_scenarios, scenario_by_id
from tests import hostile_agents, worker_agents

SCENARIOS = builtin_scenarios()[:4]
MODES = list(builtin_modes().values())


def _timeless(records: Sequence[TrialRecord]) -> list[TrialRecord]:
    """The records without their durations, which are not part of what a trial is."""
    return [r.model_copy(update={"seconds": None}) for r in records]


def _keys(records: Sequence[TrialRecord]) -> list[tuple[str, str, int]]:
    return [(r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in records]


@pytest.fixture(autouse=True)
def _no_worker_left() -> Iterator[None]:
    yield
    assert multiprocessing.active_children() == []


@pytest.mark.parametrize("agent", [*BUILTIN_AGENTS, "hostile", "raising"])
def test_workers_give_the_records_and_summaries_of_one_process(agent: str) -> None:
    factory = (getattr(hostile_agents, agent) if agent in ("hostile", "raising")
               else load_agent_factory(agent))
    one = run(SCENARIOS, MODES, factory, trials=2, seed=7)
    two = run(SCENARIOS, MODES, factory, trials=2, seed=7, workers=2)
    assert len(two.trials) == len(SCENARIOS) * len(MODES) * 2
    assert _timeless(two.trials) == _timeless(one.trials)
    assert two.summaries == one.summaries
    assert all(r.seconds is not None for r in two.trials)


def test_the_parent_hands_the_trials_over_in_the_order_one_process_does() -> None:
    one: list[TrialRecord] = []
    three: list[TrialRecord] = []
    run(SCENARIOS, MODES, oracle_factory, trials=2, progress=one.append)
    run(SCENARIOS, MODES, oracle_factory, trials=2, progress=three.append, workers=3)
    assert _keys(three) == _keys(one)
    assert _keys(one)[:2] == [(SCENARIOS[0].id, MODES[0].name, 0),
                              (SCENARIOS[0].id, MODES[0].name, 1)]  # mode by mode


def test_more_workers_than_trials_run_each_trial_once() -> None:
    result = run(SCENARIOS[:1], MODES[:1], oracle_factory, workers=4)
    assert _keys(result.trials) == [(SCENARIOS[0].id, MODES[0].name, 0)]
    assert drive(run_async(SCENARIOS, MODES, oracle_factory, workers=2,
                           skip={(s.id, m.name, 0) for s in SCENARIOS for m in MODES})) == []


def test_a_resumed_run_in_workers_ends_with_the_records_of_an_uninterrupted_one() -> None:
    whole = drive(run_async(SCENARIOS, MODES, oracle_factory, trials=2, seed=3))
    done = set(_keys(whole)[::3])
    rest = drive(run_async(SCENARIOS, MODES, oracle_factory, trials=2, seed=3, skip=done,
                           workers=2))
    assert not done & set(_keys(rest))
    resumed = sorted([*rest, *(r for r in whole if _keys([r])[0] in done)],
                     key=lambda r: _keys([r])[0])
    assert _timeless(resumed) == _timeless(sorted(whole, key=lambda r: _keys([r])[0]))


@pytest.fixture
def fresh_attempts() -> Iterator[None]:
    """:func:`worker_agents.flaky` counts attempts per process; workers fork this one."""
    worker_agents.ATTEMPTS.clear()
    yield
    worker_agents.ATTEMPTS.clear()


@pytest.mark.usefixtures("fresh_attempts")
def test_retries_happen_in_the_worker_and_its_warnings_reach_the_parent(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="remit.harness.runner")
    records = drive(run_async(SCENARIOS[:2], MODES[:1], worker_agents.flaky, trials=2,
                              retries=1, workers=2))
    assert [(r.scored.trial, r.attempts) for r in records] == [(0, 2), (1, 1), (0, 2), (1, 1)]
    assert all(r.scored.score.passed and r.infra_error is None for r in records)
    retried = sorted(r.getMessage() for r in caplog.records if r.name == "remit.harness.runner")
    assert retried == sorted(
        f"trial {s.id}/{MODES[0].name}/0: the agent's server is away for {s.id} "
        "(attempt 1 of 2)" for s in SCENARIOS[:2])


@pytest.mark.usefixtures("fresh_attempts")
def test_retries_run_out_in_a_worker_as_they_do_in_one_process() -> None:
    two = drive(run_async(SCENARIOS[:2], MODES[:1], worker_agents.flaky, trials=2, workers=2))
    worker_agents.ATTEMPTS.clear()
    one = drive(run_async(SCENARIOS[:2], MODES[:1], worker_agents.flaky, trials=2))
    assert _timeless(two) == _timeless(one)
    assert [r.infra_error is not None for r in two] == [True, False, True, False]


def test_log_records_of_trials_in_workers_reach_the_parents_handlers(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="tests.worker_agents")
    run(SCENARIOS[:2], MODES[:2], worker_agents.logging_oracle, workers=2)
    logged = [r.getMessage() for r in caplog.records if r.name == "tests.worker_agents"]
    assert sorted(logged) == sorted(f"trial {s.id}/{m.name}/0 started"
                                    for s in SCENARIOS[:2] for m in MODES[:2])


@pytest.mark.parametrize(("agent", "how"), [("dying", "exited with status 3"),
                                            ("killed", "was killed by signal 9")])
def test_a_worker_that_dies_stops_the_run_and_the_trials_finished_before_are_kept(
        agent: str, how: str) -> None:
    kept: list[TrialRecord] = []
    with pytest.raises(WorkerFailedError, match=rf"stopped on trial [\w-]+/all_tools/1, in a "
                                                rf"worker process: process \d+ {how} before "
                                                "finishing it") as caught:
        run(SCENARIOS[:3], [mode_by_name("all_tools")], getattr(worker_agents, agent),
            trials=2, progress=kept.append, workers=2)
    assert isinstance(caught.value, RunAbortedError)
    assert caught.value.trial.endswith(f"/all_tools/{worker_agents.DIES_ON}")
    assert all(r.scored.trial != worker_agents.DIES_ON for r in kept)


def test_an_exception_a_trial_raises_in_a_worker_is_raised_again_in_the_parent() -> None:
    with pytest.raises(LookupError, match="no agent configured for trial 1 of"):
        run(SCENARIOS[:1], MODES[:1], worker_agents.raising_factory, trials=2)
    with pytest.raises(LookupError, match="no agent configured for trial 1 of") as caught:
        run(SCENARIOS[:1], MODES[:1], worker_agents.raising_factory, trials=2, workers=2)
    assert caught.value.__notes__ == [
        f"raised in a worker process, on trial {SCENARIOS[0].id}/{MODES[0].name}/1"]


def test_an_exception_that_cannot_travel_back_stops_the_run_described() -> None:
    with pytest.raises(WorkerFailedError, match=r"it raised tests\.worker_agents\."
                                                r"UnportableError: agent: broken beyond "
                                                "pickling, which cannot be sent back"):
        run(SCENARIOS[:1], MODES[:1], worker_agents.unportable, trials=2, workers=2)


def test_an_asynchronous_agent_is_refused_before_any_trial() -> None:
    seen: list[TrialRecord] = []
    with pytest.raises(WorkersError, match=r"workers=2 \(--workers\): agent tests\."
                                           r"worker_agents:AsyncOracle is asynchronous .*"
                                           "run it with --concurrency and one worker"):
        run(SCENARIOS, MODES, worker_agents.AsyncOracle, progress=seen.append, workers=2)
    assert seen == []


def test_the_llm_agent_is_refused_with_workers(tmp_path: Path) -> None:
    config = parse_llm_config("openai:some-model", {"cache_mode": "replay",
                                                    "cassette_dir": str(tmp_path)})
    with pytest.raises(WorkersError, match="LlmAgentFactory is asynchronous"):
        check_workers(llm_agent_factory(config), workers=2)
    check_workers(llm_agent_factory(config), workers=1)  # one process: --concurrency


def test_an_asynchronous_agent_its_factory_hides_stops_the_run_at_its_first_trial() -> None:
    seen: list[TrialRecord] = []
    with pytest.raises(WorkerFailedError, match="hidden_async is asynchronous") as caught:
        run(SCENARIOS, MODES, worker_agents.hidden_async, progress=seen.append, workers=2)
    assert isinstance(caught.value, RunAbortedError)  # `remit run` then stores nothing
    assert seen == []


@pytest.mark.parametrize(("workers", "concurrency", "refused"), [
    (2, 3, "concurrency=3 (--concurrency) was given too"),
    (0, 1, "give at least one worker process"),
    (-1, 1, "give at least one worker process"),
])
def test_what_workers_cannot_mean_is_refused(workers: int, concurrency: int,
                                             refused: str) -> None:
    with pytest.raises(WorkersError, match=rf"workers={workers} .*{re.escape(refused)}"
                       ) as caught:
        run(SCENARIOS, MODES, oracle_factory, workers=workers, concurrency=concurrency)
    assert caught.value.workers == workers
    assert isinstance(caught.value, ValueError)


async def _trial(key: tuple[str, str]) -> TrialRecord:
    """One oracle trial, by scenario id and mode name (loaded by name in a worker)."""
    scenario_id, mode = key
    [record] = await run_async([scenario_by_id(scenario_id)], [mode_by_name(mode)],
                               oracle_factory, seed=5)
    return record


def test_forkserver_workers_load_the_work_by_name_and_give_the_same_records() -> None:
    keys = [(s.id, m.name) for s in SCENARIOS[:2] for m in MODES]
    handed: list[int] = []
    records = drive(run_in_workers(_trial, keys, workers=2, method="forkserver",
                                   on_result=lambda index, _: handed.append(index)))
    assert handed == list(range(len(keys)))
    expected = run(SCENARIOS[:2], MODES, oracle_factory, seed=5).trials
    assert sorted(_timeless(records), key=lambda r: _keys([r])[0]) == \
        sorted(_timeless(expected), key=lambda r: _keys([r])[0])


def test_a_factory_that_cannot_be_pickled_is_refused_where_workers_load_it() -> None:
    def local(info: object) -> object:
        return oracle_factory(info)  # type: ignore[arg-type]

    with pytest.raises(WorkersError, match=r"agent factory .*local cannot be sent to worker "
                                           r"processes started by forkserver: .*define it "
                                           "at the top level of an importable module"):
        check_workers(local, workers=2, method="forkserver")
    check_workers(local, workers=2, method="fork")  # a forked worker has it in memory


def test_a_class_remit_builds_without_arguments_is_refused_where_workers_load_it() -> None:
    factory = load_agent_factory("tests.worker_agents:NoArguments")
    with pytest.raises(WorkersError, match="give the agent class's constructor a TrialInfo "
                                           "argument"):
        check_workers(factory, workers=2, method="spawn")
    check_workers(factory, workers=2, method="fork")
    assert run(SCENARIOS[:1], MODES[:1], factory, workers=2).trials[0].attempts == 1


@pytest.mark.usefixtures("python_sigint")
def test_ctrl_c_ends_the_workers_and_keeps_every_trial_handed_over() -> None:
    seen: list[TrialRecord] = []

    def on_trial(record: TrialRecord) -> None:
        seen.append(record)
        if len(seen) == 3:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C while the parent saves a trial

    with pytest.raises(KeyboardInterrupt):
        drive(run_async(SCENARIOS, MODES, oracle_factory, trials=4, on_trial=on_trial,
                        workers=2))
    total = len(SCENARIOS) * len(MODES) * 4
    assert 3 <= len(seen) < total
    assert len(set(_keys(seen))) == len(seen)
    assert all(r.scored.score.passed for r in seen)


def test_the_parents_garbage_collector_is_as_it_was_after_a_run_in_workers() -> None:
    before = (gc.get_threshold(), gc.get_freeze_count())
    run(SCENARIOS[:2], MODES[:1], oracle_factory, workers=2)
    with pytest.raises(LookupError):
        run(SCENARIOS[:1], MODES[:1], worker_agents.raising_factory, trials=2, workers=2)
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
