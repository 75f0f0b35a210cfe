"""Scenarios broken on purpose, each in one way, found from the real catalogue.

Nothing here names a SKU or an attribute: each is looked up in the scenario's own
catalogue (a draft attribute of an acceptable SKU, an active SKU the fit rules exclude),
so the tests follow the catalogue if it changes.
"""

from __future__ import annotations

from pydantic import JsonValue

from remit.authority import mode_by_name
from remit.catalogue import (
    Family,
    RuleResult,
    acceptable_skus,
    check_valve,
    shared_catalogue,
)
from remit.harness import check_scenario
from remit.scenarios import PlanStep, Scenario, builtin_scenarios, scenario_by_id

__all__ = ["citing_a_draft", "first_line", "over_budget", "quoting_an_excluded_sku"]


def first_line(scenario: Scenario) -> tuple[int, dict[str, JsonValue]]:
    """The index of the plan's first ``edit_lines`` step, and its first line."""
    index = next(i for i, step in enumerate(scenario.plan) if step.tool == "edit_lines")
    lines = scenario.plan[index].arguments["lines"]
    assert isinstance(lines, list)
    assert isinstance(lines[0], dict)
    return index, lines[0]


def _with_line(scenario: Scenario, line: dict[str, JsonValue], suffix: str) -> Scenario:
    index, _ = first_line(scenario)
    step = scenario.plan[index]
    changed = PlanStep(role=step.role, tool=step.tool,
                       arguments={**step.arguments, "lines": [line]})
    return scenario.model_copy(update={
        "id": f"{scenario.id}-{suffix}",
        "plan": (*scenario.plan[:index], changed, *scenario.plan[index + 1:])})


def citing_a_draft() -> tuple[Scenario, str, str]:
    """A built-in scenario whose plan cites a draft attribute of the SKU it quotes.

    Returns:
        The scenario, the SKU and the draft attribute.
    """
    for scenario in builtin_scenarios():
        catalogue = shared_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
        _, line = first_line(scenario)
        sku = str(line["sku"])
        drafts = catalogue.draft_attributes(sku)
        cited = line.get("cite")
        if drafts and isinstance(cited, list):
            return _with_line(scenario, {**line, "cite": [*cited, drafts[0]]},
                              "draft"), sku, drafts[0]
    raise AssertionError("no built-in scenario quotes a SKU with a draft attribute")


def quoting_an_excluded_sku() -> tuple[Scenario, str, list[RuleResult]]:
    """A built-in valve scenario whose plan quotes an active valve of the asked DN that
    the fit rules exclude.

    Returns:
        The scenario, the SKU, and the failing verdicts of the catalogue's rules on it.
    """
    for scenario in builtin_scenarios():
        catalogue = shared_catalogue(scenario.catalogue_seed, scenario.catalogue_size)
        acceptable = acceptable_skus(catalogue, scenario.requirement, scenario.truths)
        _, line = first_line(scenario)
        if catalogue.variant(str(line["sku"])).family is not Family.BALL_VALVE:
            continue
        for valve in catalogue.variants_of(Family.BALL_VALVE):
            if (not valve.is_active or valve.sku in acceptable
                    or valve.number("dn") != scenario.requirement.dn):
                continue
            failing = [r for r in check_valve(valve, scenario.truths, scenario.requirement)
                       if not r.passed]
            return (_with_line(scenario, {**line, "sku": valve.sku, "cite": ["dn"]}, "wrong"),
                    valve.sku, failing)
    raise AssertionError("no built-in scenario has an excluded valve of its DN")


def over_budget() -> Scenario:
    """``discount-exception`` with the smallest step budget in which the oracle still
    passes in all-tools: dual-control needs more steps (its hand-offs), so there the
    oracle runs out of steps."""
    scenario = scenario_by_id("discount-exception")
    all_tools = [mode_by_name("all_tools")]

    def budget(steps: int) -> Scenario:
        return scenario.model_copy(update={"max_steps": steps, "id": "discount-tight"})

    fits = [n for n in range(1, scenario.max_steps + 1) if not check_scenario(budget(n),
                                                                           all_tools)]
    tight = budget(min(fits))
    assert check_scenario(tight, [mode_by_name("dual_control")]), "dual-control needs more"
    return tight
