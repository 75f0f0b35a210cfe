"""The Ray executor (:class:`remit.harness.RayExecutor`): the same records as one process,
for every built-in agent and an asynchronous LLM agent; a worker killed mid-trial loses
and duplicates nothing; what cannot run on Ray is refused.

Everything runs on a real local Ray (2 CPUs, started once per session by the
``ray_cluster`` fixture) and, for the LLM agent, a real HTTP server on 127.0.0.1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from remit.actors import load_agent_factory
from remit.actors.llm import llm_agent_factory, parse_llm_config
from remit.authority import ControlMode, mode_by_name
from remit.harness import (
    ExecutorError,
    RayExecutor,
    RunResult,
    TrialRecord,
    builtin_suite,
    check_portable,
    run,
)
from remit.harness.ray_actor import WorkLoadError
from remit.store import Store, start_run
from tests import worker_agents
from tests.llm.fake_server import FakeChatServer, ReadThenEnd
from tests.ray_agents import KILLED_ON, KillsItsWorkerOnce, NotOnWorkers, unpicklable
from tests.worker_agents import flaky, raising_factory

BUILTIN_AGENTS = ("oracle", "baseline", "guessing", "claiming", "abandoning", "overreaching")
SCENARIOS = builtin_suite("handwritten").scenarios


def _modes() -> list[ControlMode]:
    return [mode_by_name("all_tools"), mode_by_name("dual_control")]


def _records(result: RunResult | list[TrialRecord]) -> list[TrialRecord]:
    """Records without their durations (not part of what a trial is)."""
    trials = result.trials if isinstance(result, RunResult) else result
    return [r.model_copy(update={"seconds": None}) for r in trials]


@pytest.fixture
def on_ray(ray_cluster: ModuleType) -> Iterator[RayExecutor]:
    """A Ray executor of two actors on the session's Ray; its actors end after the test."""
    with RayExecutor(actors=2, concurrency=4) as executor:
        yield executor


@pytest.mark.parametrize("agent", BUILTIN_AGENTS)
def test_each_builtin_agent_gives_on_ray_the_records_of_one_process(
        agent: str, on_ray: RayExecutor) -> None:
    factory = load_agent_factory(agent)
    here = run(SCENARIOS, _modes(), factory, trials=2, seed=11)
    there = run(SCENARIOS, _modes(), factory, trials=2, seed=11, executor=on_ray)
    assert len(there.trials) == 40
    assert _records(there) == _records(here)
    assert there.summaries == here.summaries


def test_an_async_llm_agent_overlaps_its_trials_on_ray_with_the_same_records(
        on_ray: RayExecutor) -> None:
    server = FakeChatServer(ReadThenEnd(reads=2)).start()
    try:
        config = parse_llm_config("openai:fake-model", {"base_url": server.url})
        factory = llm_agent_factory(config)
        scenarios = SCENARIOS[:4]
        here = run(scenarios, _modes(), factory, trials=2, seed=5, concurrency=4)
        there = run(scenarios, _modes(), llm_agent_factory(config), trials=2, seed=5,
                    executor=on_ray)
    finally:
        server.stop()
    assert len(there.trials) == 16
    assert _records(there) == _records(here)
    assert all(r.scored.score.usage is not None for r in there.trials)
    assert len(server.requests) == 2 * 16 * 3  # both runs: three model calls a trial


def test_a_worker_killed_mid_trial_loses_and_duplicates_nothing(
        on_ray: RayExecutor, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    modes = _modes()
    with Store.open(str(tmp_path / "remit.db")) as store:
        start_run(store, suite_spec="handwritten", modes=modes,
                  agent_id="tests.ray_agents:KillsItsWorkerOnce", trials=2, seed=4,
                  factory=KillsItsWorkerOnce(marker), executor=on_ray)
        run_id = store.runs()[0].run_id
        stored = store.trials(run_id)
        keys = [(r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in stored]
        metadata = store.manifest(run_id).metadata
    killed_pid = int(marker.read_text(encoding="utf-8"))
    assert killed_pid != os.getpid()  # a Ray worker died, not this process
    assert len(keys) == len(set(keys)) == 40  # every trial once
    assert KILLED_ON in keys
    whole = run(SCENARIOS, modes, KillsItsWorkerOnce(marker), trials=2, seed=4)
    by_key = {(r.scored.scenario_id, r.scored.mode, r.scored.trial): r for r in whole.trials}
    assert _records(stored) == _records([by_key[key] for key in keys])
    assert metadata["executor"] == "ray"


def test_infrastructure_errors_are_retried_where_the_trial_runs(on_ray: RayExecutor) -> None:
    worker_agents.ATTEMPTS.clear()  # flaky counts attempts per process: this one starts afresh
    here = run(SCENARIOS, _modes(), flaky, trials=2, seed=2, retries=1)
    there = run(SCENARIOS, _modes(), flaky, trials=2, seed=2, retries=1, executor=on_ray)
    assert _records(there) == _records(here)
    assert {r.attempts for r in there.trials} == {1, 2}
    assert not any(r.infra_error for r in there.trials)


def test_a_factorys_own_error_is_raised_again_in_the_driver(on_ray: RayExecutor) -> None:
    with pytest.raises(LookupError, match="no agent configured for trial 1") as raised:
        run(SCENARIOS[:1], _modes()[:1], raising_factory, trials=2, executor=on_ray)
    assert raised.value.__notes__[0].startswith("raised in a Ray worker on node ")
    assert raised.value.__notes__[1] == "on trial supersession-substitution/all_tools/1"


def test_a_worker_that_cannot_load_the_agent_is_named_in_one_line(
        on_ray: RayExecutor) -> None:
    check_portable(NotOnWorkers())  # it pickles and loads here, in the driver
    with pytest.raises(WorkLoadError, match=r"a Ray worker on node \S+ cannot load the run's "
                       r"agent: ModuleNotFoundError: No module named "
                       r"'agent_only_on_the_driver'; install") as raised:
        run(SCENARIOS[:1], _modes()[:1], NotOnWorkers(), executor=on_ray)
    assert "\n" not in str(raised.value)


def test_a_factory_that_cannot_be_pickled_is_refused_before_the_run(
        ray_cluster: ModuleType) -> None:
    with pytest.raises(ExecutorError, match=r"cannot run with --executor ray: agent factory "
                       r"_HoldsALock cannot be sent to Ray workers: TypeError: .*lock"):
        check_portable(unpicklable)
