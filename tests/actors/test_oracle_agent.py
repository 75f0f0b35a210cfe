"""The oracle agent solves every built-in scenario in every built-in mode, deterministically."""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.actors import PlanStep, TrialInfo
from remit.actors.oracle import DEFAULT_FOLLOW_UPS, OracleAgent, oracle_factory
from remit.authority import Action, ControlMode, Role, builtin_modes, delegate
from remit.harness.orchestrator import run_trial
from remit.harness.scoring import score_trial
from remit.quotes import is_terminal
from remit.scenarios import Scenario
from remit.scenarios.builtin import builtin_scenarios, scenario_by_id
from remit.world import DecisionEntry, HandoffEntry, ToolCallEntry, TransitionEntry, World

SCENARIOS = builtin_scenarios()
MODES = builtin_modes()
CASES = [(s, name) for s in SCENARIOS for name in MODES]
CASE_IDS = [f"{s.id}-{name}" for s, name in CASES]


def _run(scenario: Scenario, mode: str, *, seed: int = 0,
         agent: OracleAgent | None = None) -> World:
    info = TrialInfo(scenario_id=scenario.id, mode=mode, trial=0, seed=seed, plan=scenario.plan)
    return run_trial(scenario, MODES[mode], agent or OracleAgent(info), seed=seed)


def _agent_calls(world: World, tool: str) -> list[ToolCallEntry]:
    return [e for e in world.trail
            if isinstance(e, ToolCallEntry) and e.actor is Role.AGENT and e.tool == tool]


@pytest.mark.parametrize(("scenario", "mode"), CASES, ids=CASE_IDS)
def test_oracle_passes_every_scenario_in_every_mode(scenario: Scenario, mode: str) -> None:
    world = _run(scenario, mode)
    expect = scenario.expect
    assert world.quote.state == expect.final_state.value
    released = any(isinstance(e, TransitionEntry) and e.action is Action.RELEASE_PAYMENT
                   for e in world.trail)
    if expect.payment_released is not None:
        assert released is expect.payment_released
    score = score_trial(scenario, world)
    assert score.passed, score.failures
    assert not score.wrong_variant
    assert score.unsupported_claims == 0, score.unsupported
    assert score.abandoned_handoffs == 0, score.abandoned
    assert score.steps <= scenario.max_steps // 2
    assert world.ended is not None
    terminal = is_terminal(expect.final_state.value)
    assert world.ended.reason == ("terminal_state" if terminal else "agent_end")


@pytest.mark.parametrize(("scenario", "mode"), CASES, ids=CASE_IDS)
def test_same_seed_gives_a_byte_identical_trail(scenario: Scenario, mode: str) -> None:
    first = [e.model_dump_json() for e in _run(scenario, mode, seed=11).trail]
    second = [e.model_dump_json() for e in _run(scenario, mode, seed=11).trail]
    assert first == second


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_other_seeds_change_nothing_the_oracle_depends_on(scenario: Scenario) -> None:
    for seed in (1, 2, 3):
        assert score_trial(scenario, _run(scenario, "dual_control", seed=seed)).passed


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_dual_control_owner_steps_become_hand_offs(scenario: Scenario) -> None:
    world = _run(scenario, "dual_control")
    requested = {(h.owner, h.action) for h in world.handoffs.values()}
    for step in scenario.plan:
        if step.role is not Role.AGENT:
            assert (step.role, Action(step.tool)) in requested
    assert all(e.role is not Role.AGENT for e in world.trail
               if isinstance(e, TransitionEntry) and e.action in scenario.expect.owner_actions)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_all_tools_owner_steps_are_performed_by_the_agent(scenario: Scenario) -> None:
    world = _run(scenario, "all_tools")
    plan_requests = sum(1 for step in scenario.plan if step.tool == "request_action")
    assert len(_agent_calls(world, "request_action")) == plan_requests
    assert _agent_calls(world, "follow_up") == []


def test_a_silent_owner_is_followed_up_once() -> None:
    world = _run(scenario_by_id("fff-substitution"), "dual_control")
    fit = next(h for h in world.handoffs.values() if h.action is Action.CONFIRM_FIT)
    assert (fit.owner, fit.status, fit.follow_ups) == (Role.TECHNICAL_OWNER, "completed", 1)


def test_a_declined_hand_off_is_recovered_by_a_follow_up_with_evidence() -> None:
    world = _run(scenario_by_id("custom-spec-high-temperature"), "dual_control")
    fit = next(h for h in world.handoffs.values() if h.action is Action.CONFIRM_FIT)
    events = [e.event for e in world.trail
              if isinstance(e, HandoffEntry) and e.handoff_id == fit.id]
    assert events == ["opened", "declined", "followed_up", "completed"]
    follow_up = _agent_calls(world, "follow_up")[0]
    assert "DS-BV-00022-r1" in str(follow_up.arguments["text"])


def _with_release(scenario: Scenario) -> Scenario:
    release = PlanStep(role=Role.FINANCE, tool="release_payment",
                       arguments={"quote_id": scenario.terms.quote_id})
    return scenario.model_copy(update={"plan": (*scenario.plan, release)})


@pytest.mark.parametrize("follow_ups", [0, 1, DEFAULT_FOLLOW_UPS])
def test_oracle_gives_up_after_its_follow_ups_and_withdraws(follow_ups: int) -> None:
    # The invoice is 3% off: finance declines the release every time it is asked, and
    # the quote stays invoiced, so the oracle follows up, then withdraws the hand-off.
    scenario = _with_release(scenario_by_id("three-way-mismatch"))
    info = TrialInfo(scenario_id=scenario.id, mode="dual_control", trial=0, seed=0,
                     plan=scenario.plan)
    world = _run(scenario, "dual_control",
                 agent=OracleAgent(info, max_follow_ups=follow_ups))
    release = next(h for h in world.handoffs.values() if h.action is Action.RELEASE_PAYMENT)
    assert (release.status, release.follow_ups) == ("withdrawn", follow_ups)
    assert world.quote.state == "invoiced"
    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    score = score_trial(scenario, world)
    assert score.passed, score.failures
    assert score.abandoned_handoffs == 0


def test_oracle_withdraws_a_handoff_the_quote_can_no_longer_satisfy() -> None:
    scenario = scenario_by_id("consent-withheld")
    world = _run(scenario, "dual_control")
    accept = next(h for h in world.handoffs.values() if h.action is Action.ACCEPT)
    assert accept.status == "withdrawn"
    assert accept.follow_ups == 0
    assert "no longer possible" in accept.reason


def test_oracle_ends_after_the_last_step_of_a_short_plan() -> None:
    scenario = scenario_by_id("discount-exception")
    short = scenario.model_copy(update={"plan": scenario.plan[:3]})
    world = _run(short, "dual_control")
    assert world.quote.state == "draft"
    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    assert len([e for e in world.trail
                if isinstance(e, ToolCallEntry) and e.actor is Role.AGENT]) == 4


def test_oracle_plan_mode_behaves_as_dual_control() -> None:
    scenario = scenario_by_id("certificate-requirement")
    dual = [e.model_dump_json() for e in _run(scenario, "dual_control").trail
            if not isinstance(e, HandoffEntry)]
    plan = [e.model_dump_json() for e in _run(scenario, "oracle_plan").trail
            if not isinstance(e, HandoffEntry)]
    assert len(dual) == len(plan)


def test_factory_builds_a_fresh_oracle_on_the_trials_plan() -> None:
    scenario = scenario_by_id("unclear-request")
    info = TrialInfo(scenario_id=scenario.id, mode="dual_control", trial=2, seed=5,
                     plan=scenario.plan)
    first, second = oracle_factory(info), oracle_factory(info)
    assert first is not second
    assert first.plan == scenario.plan
    assert first.position == 0


def test_mode_names_cover_the_builtin_modes() -> None:
    assert set(MODES) == {"all_tools", "dual_control", "oracle_plan"}
    assert all(isinstance(mode, ControlMode) for mode in MODES.values())


def test_denied_by_a_delegation_limit_the_oracle_asks_the_owner() -> None:
    five_pct = delegate(MODES["dual_control"], Action.APPROVE, to=Role.AGENT,
                        from_role=Role.FINANCE, attribute="discount_pct", limit=Decimal(5),
                        name="agent-approves-5pct")
    scenario = scenario_by_id("discount-exception")
    assert scenario.discount_pct > 5
    info = TrialInfo(scenario_id=scenario.id, mode=five_pct.name, trial=0, seed=0,
                     plan=scenario.plan)

    world = run_trial(scenario, five_pct, OracleAgent(info))

    assert score_trial(scenario, world).passed
    approvals = [e for e in world.trail
                 if isinstance(e, DecisionEntry) and e.action is Action.APPROVE]
    assert [(e.role, e.allowed) for e in approvals] == [(Role.AGENT, False),
                                                         (Role.FINANCE, True)]
    assert any("finance" in reason for reason in approvals[0].reasons)
    approve = next(h for h in world.handoffs.values() if h.action is Action.APPROVE)
    assert (approve.owner, approve.status) == (Role.FINANCE, "completed")
