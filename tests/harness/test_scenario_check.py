"""The scenario check: every problem under a named rule, the fit rules named, cached."""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.authority import Action, Role, builtin_modes, delegate, mode_by_name
from remit.harness import (
    RULES,
    ScenarioProblem,
    builtin_suite,
    check_scenario,
    collection_failure,
    plan_checks,
    verify_scenario,
)
from remit.scenarios import PlanStep, Scenario, builtin_scenarios, scenario_by_id
from tests.scenarios.broken import (
    citing_a_draft,
    first_line,
    over_budget,
    quoting_an_excluded_sku,
)

HANDWRITTEN = builtin_scenarios()


@pytest.mark.parametrize("suite", ["handwritten", "core"])
def test_every_builtin_scenario_passes_the_check_in_every_mode(suite: str) -> None:
    failing = {s.id: [p.line for p in check_scenario(s)] for s in builtin_suite(suite)}
    assert {sid: lines for sid, lines in failing.items() if lines} == {}


def test_a_draft_citation_is_named_with_its_step_and_attribute() -> None:
    scenario, sku, draft = citing_a_draft()
    index, _ = first_line(scenario)

    (problem,) = check_scenario(scenario)

    assert problem.rule == "plan.cites-released"
    assert (problem.scenario_id, problem.mode, problem.step) == (scenario.id, None, index + 1)
    assert f"plan step {index + 1} cites draft facts [{draft!r}] of {sku}" in problem.message
    assert problem.line.startswith(f"{scenario.id}: plan.cites-released: plan step ")


def test_an_excluded_sku_names_the_fit_rules_that_exclude_it_and_why() -> None:
    scenario, sku, failing = quoting_an_excluded_sku()

    problems = [p for p in plan_checks(scenario) if p.rule == "plan.sku-acceptable"]

    (problem,) = problems
    assert f"quotes sku={sku!r}, outside the acceptable set: {sku} is excluded by" \
        in problem.message
    for verdict in failing:
        # The catalogue's rule function (c3_pressure_rating, ...) and its own reason.
        (function,) = [name for name in problem.fit_rules
                       if name.startswith(verdict.rule.lower() + "_")]
        reason = verdict.reason.removeprefix(f"{verdict.rule} fails: ").rstrip(".")
        assert f"{function} ({reason})" in problem.message


def test_a_sku_outside_the_catalogue_is_named() -> None:
    scenario = scenario_by_id("discount-exception")
    index, line = first_line(scenario)
    step = scenario.plan[index]
    unknown = PlanStep(role=step.role, tool=step.tool,
                       arguments={**step.arguments, "lines": [{**line, "sku": "BV-NOPE"}]})
    broken = scenario.model_copy(update={
        "plan": (*scenario.plan[:index], unknown, *scenario.plan[index + 1:])})

    (problem, *_) = check_scenario(broken)

    assert problem.rule == "plan.sku-acceptable"
    assert "quotes sku='BV-NOPE', which is not in the catalogue" in problem.message


def test_a_budget_the_oracle_cannot_pass_in_a_mode_is_named_with_the_mode() -> None:
    tight = over_budget()

    problems = check_scenario(tight)

    assert {p.rule for p in problems} == {"oracle.passes"}
    assert "all_tools" not in {p.mode for p in problems}
    assert "dual_control" in {p.mode for p in problems}
    assert all(f"it ran out of max_steps={tight.max_steps}" in p.message for p in problems)
    # The plan's replay knows no step budget: only the oracle's trial finds this.
    assert verify_scenario(tight) == []


def test_a_refused_step_is_named_once_per_mode_and_not_again_by_the_oracle() -> None:
    scenario = scenario_by_id("discount-exception")
    plan = tuple(step for step in scenario.plan if step.tool != "submit")

    problems = check_scenario(scenario.model_copy(update={"plan": plan}))

    assert [p.rule for p in problems] == ["plan.replays"] * len(builtin_modes())
    assert [p.mode for p in problems] == list(builtin_modes())
    assert all(p.step is not None and f"plan step {p.step} (" in p.message for p in problems)


def test_every_rule_id_is_described() -> None:
    seen = {p.rule for s in (citing_a_draft()[0], quoting_an_excluded_sku()[0], over_budget())
            for p in check_scenario(s)}
    assert seen <= set(RULES)
    assert set(RULES) == {"plan.sku-acceptable", "plan.cites-released", "plan.replays",
                          "plan.goal-at-end", "plan.reaches-goal", "oracle.passes"}


def test_the_check_is_cached_by_content_modes_and_seed() -> None:
    scenario, _, _ = citing_a_draft()  # problems: a tuple of its own (() is shared)
    first = check_scenario(scenario)
    assert first
    assert check_scenario(Scenario.model_validate(scenario.model_dump())) is first
    assert check_scenario(scenario, list(builtin_modes().values())) is first
    dual = [mode_by_name("dual_control")]
    assert check_scenario(scenario, dual) is not first
    assert check_scenario(scenario, dual) == first  # the same problem, found anew
    assert check_scenario(scenario, seed=1) is not first


def test_the_collection_failure_is_a_heading_then_one_line_per_problem() -> None:
    scenario, _, draft = citing_a_draft()
    modes = [mode_by_name("all_tools")]

    assert collection_failure(HANDWRITTEN[0], modes, source="scenario_ok.yaml") is None
    failure = collection_failure(scenario, modes, source="scenario_draft.yaml")

    assert failure is not None
    heading, *lines = failure.splitlines()
    assert heading.startswith("scenario file scenario_draft.yaml fails remit's scenario check "
                              "in all_tools: 1 problem(s)")
    assert lines == [p.line for p in check_scenario(scenario, modes)]
    assert draft in lines[0]


def test_a_problem_line_names_scenario_mode_and_rule() -> None:
    problem = ScenarioProblem(rule="oracle.passes", scenario_id="s", mode="dual_control",
                              message="why")
    assert problem.line == "s[dual_control]: oracle.passes: why"
    assert problem.sentence == "dual_control: why"


def test_a_bounded_delegation_does_not_fail_the_plan_beyond_its_bound() -> None:
    # The agent holds approve up to 5 %; a 12 % quote's approval stays finance's, so the
    # replay gives it to finance rather than to an agent the gate would deny.
    five = delegate(mode_by_name("dual_control"), Action.APPROVE, to=Role.AGENT,
                    from_role=Role.FINANCE, attribute="discount_pct", limit=Decimal(5),
                    name="finance-delegates-5pct")
    scenario = scenario_by_id("discount-exception")
    assert scenario.discount_pct > 5
    assert check_scenario(scenario, [five]) == ()
    generous = delegate(mode_by_name("dual_control"), Action.APPROVE, to=Role.AGENT,
                        from_role=Role.FINANCE, attribute="discount_pct", limit=Decimal(50),
                        name="finance-delegates-50pct")
    assert check_scenario(scenario, [generous]) == ()
