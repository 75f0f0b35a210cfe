"""Plan verification: a plan proves its scenario solvable, or verification says why not."""

from __future__ import annotations

import pytest

from remit.authority import Action, Role, builtin_modes
from remit.harness import plan_problems, replay_plan, verify_scenario
from remit.quotes import QuoteState
from remit.scenarios import (
    Combination,
    CommercialGroup,
    LifecycleGroup,
    PersonaConfig,
    Perturbation,
    PlanStep,
    ProductGroup,
    Scenario,
    builtin_scenarios,
    compose,
    composition_space,
    scenario_by_id,
)
from remit.world import TransitionEntry

MODES = builtin_modes()
HANDWRITTEN = builtin_scenarios()


def _with_plan(scenario: Scenario, plan: tuple[PlanStep, ...]) -> Scenario:
    return scenario.model_copy(update={"plan": plan})


def _composed(product: ProductGroup, lifecycle: LifecycleGroup, slug: str) -> Scenario:
    combination = next(c for c in composition_space() if c.product is product
                       and c.lifecycle is lifecycle and c.perturbation.slug == slug
                       and c.commercial is CommercialGroup.STANDARD)
    return compose(combination)


@pytest.mark.parametrize("scenario", HANDWRITTEN, ids=[s.id for s in HANDWRITTEN])
def test_every_handwritten_scenario_verifies_in_every_mode(scenario: Scenario) -> None:
    assert verify_scenario(scenario) == []


def test_a_sample_of_the_space_beyond_core_verifies() -> None:
    space = composition_space()
    for combination in space[5::151]:
        assert verify_scenario(compose(combination)) == [], combination.scenario_id


def test_owner_steps_are_the_owners_in_dual_control_and_the_agents_in_all_tools() -> None:
    scenario = scenario_by_id("fff-substitution")
    dual = replay_plan(scenario, MODES["dual_control"])
    alone = replay_plan(scenario, MODES["all_tools"])
    owners = {step.role for step in scenario.plan} - {Role.AGENT}
    assert set(dual.actors) == {Role.AGENT, *owners}
    assert set(alone.actors) == {Role.AGENT}
    assert dual.states[-1] == alone.states[-1] == QuoteState.ACCEPTED.value


def test_the_expiry_lifecycle_expires_and_is_requoted_in_every_mode() -> None:
    scenario = _composed(ProductGroup.CUSTOM_SPEC, LifecycleGroup.EXPIRY_REQUOTE, "none")
    for mode in MODES.values():
        replayed = replay_plan(scenario, mode)
        actions = [e.action for e in replayed.world.trail if isinstance(e, TransitionEntry)]
        assert Action.EXPIRE in actions, mode.name
        assert actions.index(Action.EXPIRE) < actions.index(Action.REVISE)
        assert replayed.states[-1] == QuoteState.ACCEPTED.value


def test_a_silent_buyer_gets_follow_ups_on_the_consent_the_plan_requests() -> None:
    base = scenario_by_id("consent-withheld")
    silent = PersonaConfig(perturbations=(Perturbation.CONSENT_WITHHELD,
                                          Perturbation.SILENT_OWNER), follow_ups_needed=2)
    scenario = base.model_copy(update={"personas": {Role.BUYER: silent}})
    assert verify_scenario(scenario) == []
    replayed = replay_plan(scenario, MODES["dual_control"])
    handoff = next(iter(replayed.world.handoffs.values()))
    assert handoff.follow_ups == 2
    assert replayed.states[-1] == QuoteState.REJECTED.value


def test_a_plan_that_stops_short_misses_the_goal() -> None:
    scenario = scenario_by_id("certificate-requirement")
    problems = verify_scenario(_with_plan(scenario, scenario.plan[:-1]))
    assert len(problems) == len(MODES)
    assert all("misses the goal: final_state: expected payment_released, got invoiced" in p
               for p in problems)


def test_a_goal_reached_before_the_last_step_is_reported() -> None:
    scenario = scenario_by_id("discount-exception")
    extra = PlanStep(role=Role.AGENT, tool="get_quote", arguments={"quote_id": "Q-1"})
    problems = verify_scenario(_with_plan(scenario, (*scenario.plan, extra)),
                               [MODES["dual_control"]])
    assert problems == [f"dual_control: the expected final state 'accepted' is reached at "
                        f"plan step {len(scenario.plan)} of {len(scenario.plan) + 1}, before "
                        "the last step"]


def test_a_step_the_gate_refuses_is_reported_with_its_error() -> None:
    scenario = scenario_by_id("discount-exception")
    plan = tuple(step for step in scenario.plan if step.tool != "submit")
    problems = verify_scenario(_with_plan(scenario, plan), [MODES["all_tools"]])
    assert any("(approve by agent) failed: invalid_transition" in p for p in problems)


def test_a_wrong_variant_or_a_draft_citation_in_the_plan_is_a_problem() -> None:
    scenario = scenario_by_id("certificate-requirement")
    index, edit = next((i, s) for i, s in enumerate(scenario.plan) if s.tool == "edit_lines")
    wrong = edit.model_copy(update={"arguments": {
        "quote_id": "Q-1", "lines": [{"sku": "BV-00022", "quantity": 4, "cite": ["dn"]}]}})
    draft = edit.model_copy(update={"arguments": {
        "quote_id": "Q-1", "lines": [{"sku": "BV-00017", "quantity": 4, "cite": ["pn"]}]}})
    for step, message in ((wrong, "quotes sku='BV-00022', outside the acceptable set"),
                          (draft, "cites draft facts ['pn'] of BV-00017")):
        plan = (*scenario.plan[:index], step, *scenario.plan[index + 1:])
        problems = plan_problems(_with_plan(scenario, plan))
        assert len(problems) == 1
        assert message in problems[0]


def test_verification_replays_composed_perturbations_like_the_oracle() -> None:
    for slug in ("deny-finance", "silent-finance", "slow-tech", "silent-buyer"):
        product = (ProductGroup.CUSTOM_SPEC if slug.endswith("tech")
                   else ProductGroup.GOVERNED_LOOKUP)
        scenario = _composed(product, LifecycleGroup.MILESTONE_RELEASE, slug)
        assert verify_scenario(scenario) == [], scenario.id


def test_the_combination_of_a_verified_scenario_is_the_one_composed() -> None:
    scenario = _composed(ProductGroup.FFF_SUBSTITUTION, LifecycleGroup.PO_MISMATCH, "none")
    combination = next(c for c in composition_space() if c.scenario_id == scenario.id)
    assert isinstance(combination, Combination)
    assert verify_scenario(scenario) == []
    replayed = replay_plan(scenario, MODES["dual_control"])
    assert replayed.world.documents["PO-Q-1"].lines[0].quantity != (
        replayed.world.quote.current.lines[0].quantity)
