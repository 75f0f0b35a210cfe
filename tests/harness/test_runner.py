"""The runner: concurrency for async agents, retries of infrastructure errors, resume."""

from __future__ import annotations

import asyncio

import pytest

from remit.actors import (
    Briefing,
    Observation,
    OracleAgent,
    TrialInfo,
    is_reference_agent,
    load_agent_factory,
    oracle_factory,
    reference_agent,
)
from remit.authority import mode_by_name
from remit.errors import InfrastructureError
from remit.harness import (
    TrialRecord,
    execution_order,
    plan_trials,
    result_of,
    run,
    run_async,
    run_one,
)
from remit.scenarios import builtin_scenarios
from remit.world import ToolCall

SCENARIOS = builtin_scenarios()[:3]
MODES = [mode_by_name("all_tools"), mode_by_name("dual_control")]


class _InFlight:
    """Counts trials whose async agent is between calls, to observe overlap."""

    def __init__(self) -> None:
        self.now = 0
        self.most = 0


class AsyncOracle:
    """The oracle behind an async interface that yields to the loop on every call."""

    def __init__(self, info: TrialInfo, flight: _InFlight) -> None:
        self.inner = OracleAgent(info)
        self.flight = flight

    async def start(self, briefing: Briefing) -> None:
        self.inner.start(briefing)

    async def act(self, observation: Observation) -> ToolCall:
        self.flight.now += 1
        self.flight.most = max(self.flight.most, self.flight.now)
        await asyncio.sleep(0)  # a model call: the loop may run other trials meanwhile
        self.flight.now -= 1
        return self.inner.act(observation)


@pytest.mark.parametrize("bound", [1, 4])
def test_async_agents_overlap_up_to_the_concurrency_bound(bound: int) -> None:
    flight = _InFlight()
    factory = reference_agent(lambda i: AsyncOracle(i, flight))
    records = asyncio.run(run_async(SCENARIOS, MODES, factory, trials=2, concurrency=bound))
    assert flight.most == bound
    assert len(records) == 12
    assert all(r.scored.score.passed for r in records)


def test_concurrency_does_not_change_results() -> None:
    flight = _InFlight()
    factory = reference_agent(lambda i: AsyncOracle(i, flight))
    serial = run(SCENARIOS, MODES, factory, trials=2)
    parallel = run(SCENARIOS, MODES, factory, trials=2, concurrency=5)
    assert [r.trail for r in serial.trials] == [r.trail for r in parallel.trials]
    assert serial.summaries == parallel.summaries


@reference_agent
class Flaky:
    """Raises an infrastructure error on the first ``failures`` attempts of each trial."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.attempts: dict[tuple[str, str, int], int] = {}

    def __call__(self, info: TrialInfo) -> OracleAgent:
        key = (info.scenario_id, info.mode, info.trial)
        self.attempts[key] = self.attempts.get(key, 0) + 1
        if self.attempts[key] <= self.failures:
            raise InfrastructureError("HTTP 429 from the model server", kind="rate_limit")
        return OracleAgent(info)


def test_infrastructure_errors_are_retried() -> None:
    flaky = Flaky(failures=1)
    result = run(SCENARIOS, MODES, flaky, trials=1, retries=2)
    assert all(r.attempts == 2 and r.infra_error is None for r in result.trials)
    assert all(s.pass_hat_k[1] == 1.0 for s in result.summaries.values())


def test_exhausted_retries_are_recorded_and_excluded_or_counted() -> None:
    flaky = Flaky(failures=5)
    result = run(SCENARIOS, MODES[:1], flaky, trials=1, retries=1)
    assert [r.attempts for r in result.trials] == [2, 2, 2]
    assert all(r.infra_error == "InfrastructureError: HTTP 429 from the model server"
               for r in result.trials)
    assert result.summaries == {}  # every trial excluded
    counted = result_of(result.trials, ["all_tools"], exclude_infra_errors=False)
    assert counted.summaries["all_tools"].pass_hat_k[1] == 0.0
    assert result.trials[0].scored.score.failures == (
        "infra_error: InfrastructureError: HTTP 429 from the model server",)


def test_a_resumed_run_adds_exactly_the_missing_trials() -> None:
    everything = plan_trials(SCENARIOS, MODES, 2)
    done = {(s.id, m.name, i) for s, m, i in everything[:5]}
    first = asyncio.run(run_async(SCENARIOS, MODES, oracle_factory, trials=2,
                                  skip={k for k in {(s.id, m.name, i)
                                                    for s, m, i in everything} - done}))
    rest = asyncio.run(run_async(SCENARIOS, MODES, oracle_factory, trials=2, skip=done))
    keys = [(r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in first + rest]
    assert sorted(keys) == sorted((s.id, m.name, i) for s, m, i in everything)
    assert len(set(keys)) == len(keys)
    whole = run(SCENARIOS, MODES, oracle_factory, trials=2)
    resumed = result_of(first + rest, [m.name for m in MODES])
    assert resumed.summaries == whole.summaries


def test_an_agent_under_test_is_told_ids_and_seed_but_never_the_plan_or_truths() -> None:
    seen: list[TrialInfo] = []

    def under_test(info: TrialInfo) -> OracleAgent:
        seen.append(info)
        return OracleAgent(info)

    @reference_agent
    def reference(info: TrialInfo) -> OracleAgent:
        seen.append(info)
        return OracleAgent(info)

    modes = [mode_by_name(name) for name in ("all_tools", "dual_control", "oracle_plan")]
    told = run(SCENARIOS[:1], modes, under_test)
    assert [(i.plan, i.scenario) for i in seen] == [((), None)] * 3
    assert all(i.seed and i.scenario_id == SCENARIOS[0].id for i in seen)
    assert not any(r.scored.score.passed for r in told.trials)  # no plan: nothing to follow

    seen.clear()
    run(SCENARIOS[:1], modes, reference)
    assert [(i.plan, i.scenario) for i in seen] == [(SCENARIOS[0].plan, SCENARIOS[0])] * 3


@pytest.mark.parametrize(("name", "reference"), [
    ("oracle", True), ("guessing", True), ("claiming", True), ("abandoning", True),
    ("overreaching", True), ("baseline", False)])
def test_only_the_calibrating_agents_are_reference_agents(name: str, reference: bool) -> None:
    assert is_reference_agent(load_agent_factory(name)) is reference


def _key(record: TrialRecord) -> tuple[str, str, int]:
    return record.scored.scenario_id, record.scored.mode, record.scored.trial


def test_trials_start_mode_by_mode_and_come_back_in_run_order() -> None:
    baseline = load_agent_factory("baseline")  # a scripted agent under test
    started: list[tuple[str, str, int]] = []
    records = asyncio.run(run_async(SCENARIOS, MODES, baseline, trials=2, seed=7,
                                    on_trial=lambda r: started.append(_key(r))))
    planned = plan_trials(SCENARIOS, MODES, 2)
    assert started == [(s.id, m.name, i) for s, m, i in execution_order(planned)]
    assert [mode for _, mode, _ in started] == ["all_tools"] * 6 + ["dual_control"] * 6
    assert [_key(r) for r in records] == [(s.id, m.name, i) for s, m, i in planned]


def test_the_order_trials_run_in_does_not_change_any_trial() -> None:
    scripted = load_agent_factory("abandoning")  # passes some trials, fails others
    by_mode = asyncio.run(run_async(SCENARIOS, MODES, scripted, trials=2, seed=7))
    # Scenario by scenario, as runs went before: each trial alone, in run order.
    by_scenario = [run_one(s, m, scripted, trial=i, run_seed=7)[0]
                   for s, m, i in plan_trials(SCENARIOS, MODES, 2)]
    assert len({r.scored.score.passed for r in by_mode}) == 2  # not a trivial comparison
    assert [(_key(r), r.seed, r.scored.score, r.trail) for r in by_mode] == [
        (_key(r), r.seed, r.scored.score, r.trail) for r in by_scenario]


def test_a_resumed_run_starts_its_missing_trials_mode_by_mode() -> None:
    planned = plan_trials(SCENARIOS, MODES, 1)
    done = {(s.id, m.name, i) for s, m, i in planned[::2]}
    started: list[tuple[str, str, int]] = []
    asyncio.run(run_async(SCENARIOS, MODES, oracle_factory, skip=done,
                          on_trial=lambda r: started.append(_key(r))))
    assert started == [(s.id, m.name, i) for s, m, i in execution_order(planned)
                       if (s.id, m.name, i) not in done]
