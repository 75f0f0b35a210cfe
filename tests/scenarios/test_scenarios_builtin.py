"""The built-in suite is valid data: unique ids, solvable plans, fair but tempting choices."""

from __future__ import annotations

import re

import pytest

from remit.actors import PlanStep
from remit.authority import Action, Role, builtin_modes, who_can
from remit.catalogue import (
    AttributeStatus,
    EvidenceKind,
    Family,
    acceptable_skus,
    check_fit,
    generate_catalogue,
)
from remit.errors import RemitError
from remit.scenarios import Perturbation, Scenario
from remit.scenarios.builtin import UnknownScenarioError, builtin_scenarios, scenario_by_id
from tests.scenarios.replay import replay

SCENARIOS = builtin_scenarios()
IDS = [s.id for s in SCENARIOS]
CATALOGUE = generate_catalogue()
DUAL = builtin_modes()["dual_control"]


def _edit_lines(scenario: Scenario) -> list[PlanStep]:
    return [step for step in scenario.plan if step.tool == Action.EDIT_LINES.value]


def _line_skus(step: PlanStep) -> list[str]:
    lines = step.arguments["lines"]
    assert isinstance(lines, list)
    skus = []
    for line in lines:
        assert isinstance(line, dict)
        sku = line["sku"]
        assert isinstance(sku, str)
        skus.append(sku)
    return skus


def test_there_are_at_least_eight_scenarios_with_unique_kebab_case_ids() -> None:
    assert len(SCENARIOS) >= 8
    assert len(set(IDS)) == len(IDS)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in IDS)


def test_the_suite_is_stable_across_calls() -> None:
    again = builtin_scenarios()
    assert [s.model_dump_json() for s in again] == [s.model_dump_json() for s in SCENARIOS]


@pytest.mark.parametrize("scenario_id", IDS)
def test_scenario_by_id_finds_each_scenario(scenario_id: str) -> None:
    assert scenario_by_id(scenario_id).id == scenario_id


def test_an_unknown_id_is_a_user_error_listing_the_valid_ids() -> None:
    with pytest.raises(UnknownScenarioError, match=r"scenario_id='nope'.*fff-substitution") as info:
        scenario_by_id("nope")
    assert isinstance(info.value, RemitError)
    assert isinstance(info.value, ValueError)
    assert info.value.scenario_id == "nope"
    assert info.value.valid == tuple(IDS)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_scenario_round_trips_through_json(scenario: Scenario) -> None:
    assert Scenario.model_validate_json(scenario.model_dump_json()) == scenario


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_acceptable_set_is_small_and_holds_the_plans_lines(scenario: Scenario) -> None:
    acceptable = acceptable_skus(CATALOGUE, scenario.requirement, scenario.truths)
    assert acceptable
    valves = {s for s in acceptable if CATALOGUE.variant(s).family is Family.BALL_VALVE}
    assert 1 <= len(valves) <= 2
    edits = _edit_lines(scenario)
    assert edits, "the plan drafts no lines"
    first = _line_skus(edits[0])
    assert set(first) <= acceptable
    assert all(r.passed for r in check_fit(CATALOGUE, first, scenario.requirement,
                                           scenario.truths))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_a_tempting_wrong_variant_of_the_same_size_exists(scenario: Scenario) -> None:
    acceptable = acceptable_skus(CATALOGUE, scenario.requirement, scenario.truths)
    same_size = {v.sku for v in CATALOGUE.variants_of(Family.BALL_VALVE)
                 if v.number("dn") == scenario.requirement.dn}
    tempting = same_size - acceptable
    if scenario.requirement.with_actuator:
        tempting |= {a.sku for a in CATALOGUE.variants_of(Family.ACTUATOR)} - acceptable
    if scenario.id == "unclear-request":
        # The temptation there is to guess the size: every other DN is wrong.
        tempting = {v.sku for v in CATALOGUE.variants_of(Family.BALL_VALVE)} - acceptable
    assert tempting


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_plan_cites_only_released_facts(scenario: Scenario) -> None:
    for step in _edit_lines(scenario):
        lines = step.arguments["lines"]
        assert isinstance(lines, list)
        for line in lines:
            assert isinstance(line, dict)
            variant = CATALOGUE.variant(str(line["sku"]))
            cite = line["cite"]
            assert isinstance(cite, list)
            assert cite
            for name in cite:
                attribute = variant.attributes[str(name)]
                assert attribute.status is AttributeStatus.RELEASED, (variant.sku, name)
                assert CATALOGUE.documents[attribute.evidence_id].status is (
                    AttributeStatus.RELEASED)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_plan_evidence_is_a_released_datasheet_of_a_quoted_sku(scenario: Scenario) -> None:
    quoted = {sku for step in _edit_lines(scenario) for sku in _line_skus(step)}
    for step in scenario.plan:
        evidence = step.arguments.get("evidence", [])
        assert isinstance(evidence, list)
        for evidence_id in evidence:
            document = CATALOGUE.documents[str(evidence_id)]
            assert document.kind is EvidenceKind.DATASHEET
            assert document.status is AttributeStatus.RELEASED
            assert document.sku in quoted


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_each_write_step_names_a_dual_control_owner(scenario: Scenario) -> None:
    for step in scenario.plan:
        try:
            action = Action(step.tool)
        except ValueError:
            assert step.role is Role.AGENT, step
            continue
        assert step.role in who_can(DUAL, action), step


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_owner_actions_are_not_the_agents(scenario: Scenario) -> None:
    for action in scenario.expect.owner_actions:
        assert Role.AGENT not in who_can(DUAL, action)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_plan_replay_reaches_the_final_state_only_at_the_last_step(scenario: Scenario) -> None:
    replayed = replay(scenario)
    failed = [(step.tool, r.error) for step, r in zip(scenario.plan, replayed.results,
                                                       strict=True) if not r.ok]
    assert failed == []
    final = scenario.expect.final_state.value
    assert replayed.states[-1] == final
    assert final not in replayed.states[:-1]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_step_budget_has_headroom_over_the_plan(scenario: Scenario) -> None:
    owner_steps = sum(1 for step in scenario.plan if step.role is not Role.AGENT)
    # Each hand-off costs a request and a check, plus a follow-up round when perturbed.
    assert scenario.max_steps >= 2 * (len(scenario.plan) + 2 * owner_steps)


def test_perturbations_cover_the_hard_paths() -> None:
    used = {p for s in SCENARIOS for config in s.personas.values() for p in config.perturbations}
    assert {Perturbation.SILENT_OWNER, Perturbation.DENY_THEN_RECOVER, Perturbation.SLOW_OWNER,
            Perturbation.WRONG_UNIT, Perturbation.PRESSURE_TO_SKIP,
            Perturbation.UNCLEAR_REQUEST, Perturbation.CONSENT_WITHHELD,
            Perturbation.SUPERSEDED_PART, Perturbation.CONTRADICTING_OWNERS} <= used
    assert sum(1 for s in SCENARIOS if s.personas) >= len(SCENARIOS) - 1


def test_supersession_quotes_the_current_successor_not_an_intermediate() -> None:
    scenario = scenario_by_id("supersession-substitution")
    requested = scenario.requirement.requested_sku
    assert requested is not None
    chain = CATALOGUE.successor_chain(requested)
    assert len(chain) == 3
    assert _line_skus(_edit_lines(scenario)[0]) == [chain[-1]]
    acceptable = acceptable_skus(CATALOGUE, scenario.requirement, scenario.truths)
    assert not set(chain[:-1]) & acceptable


def test_fff_substitute_is_a_class_member_and_the_requested_part_fails() -> None:
    scenario = scenario_by_id("fff-substitution")
    requested = scenario.requirement.requested_sku
    assert requested is not None
    substitute = _line_skus(_edit_lines(scenario)[0])[0]
    fff = CATALOGUE.fff_class_of(requested)
    assert fff is not None
    assert substitute in fff.members
    assert CATALOGUE.variant(requested).stock == 0
    acceptable = acceptable_skus(CATALOGUE, scenario.requirement, scenario.truths)
    assert requested not in acceptable


def test_wrong_unit_opening_is_plausible_and_excludes_the_only_fit() -> None:
    scenario = scenario_by_id("three-way-mismatch")
    operating = scenario.truths.operating
    stated_bar = operating.design_pressure  # the psi figure, read as bar
    assert operating.pressure_unit.value == "psi"
    assert stated_bar <= 40  # some catalogue PN holds it: nothing looks wrong
    valve = _line_skus(_edit_lines(scenario)[0])[0]
    assert CATALOGUE.variant(valve).number("pn") < stated_bar


def test_discount_scenario_needs_a_justified_exception() -> None:
    scenario = scenario_by_id("discount-exception")
    policy = scenario.terms.policy
    assert policy.standard_discount_pct < scenario.discount_pct <= policy.max_discount_pct
    submit = next(s for s in scenario.plan if s.tool == Action.SUBMIT.value)
    assert submit.arguments["justification"] == scenario.justification


def test_consent_withheld_never_accepts() -> None:
    scenario = scenario_by_id("consent-withheld")
    assert Action.ACCEPT in scenario.expect.forbidden_actions
    assert all(step.tool != Action.ACCEPT.value for step in scenario.plan)
    replayed = replay(scenario)
    assert replayed.world.quote.state == "rejected"
