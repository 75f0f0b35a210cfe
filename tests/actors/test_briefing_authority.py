"""The agent is told its authority: per action, who may do it and on which conditions.

Before, a finance-delegates mode briefed ``approve: agent, finance`` and nothing more;
the baseline approved an 8 % discount itself, was denied, and gave up, so a comparison
named dual-control the better mode for a reason that lay in the briefing, not the mode.
"""

from __future__ import annotations

from decimal import Decimal

from remit.actors import BaselineAgent
from remit.actors.llm.prompt import prompt_text, system_prompt, trial_briefing
from remit.authority import (
    Action,
    DelegationLimit,
    EvidenceRequired,
    Role,
    SeparationOfDuties,
    builtin_modes,
    delegate,
    describe_authority,
)
from remit.harness import briefing_for, build_core, run, run_trial, score_trial
from remit.scenarios import scenario_by_id
from remit.world.trail import DecisionEntry

DUAL = builtin_modes()["dual_control"]
FIVE = delegate(DUAL, Action.APPROVE, to=Role.AGENT, from_role=Role.FINANCE,
                attribute="discount_pct", limit=Decimal(5), name="finance-delegates-5pct")


def test_the_briefing_lists_conditions_as_data() -> None:
    briefing = briefing_for(scenario_by_id("discount-exception"), FIVE)
    approve = briefing.authority[Action.APPROVE]

    assert approve.holders == (Role.AGENT, Role.FINANCE)
    (agent_grant,) = approve.grants_of(Role.AGENT)
    (limit,) = [c for c in agent_grant.conditions if isinstance(c, DelegationLimit)]
    assert (limit.delegated_from, limit.attribute, limit.max) == (Role.FINANCE, "discount_pct",
                                                                  Decimal(5))
    assert approve.delegated_from(Role.AGENT) == (Role.FINANCE,)
    assert approve.within_bounds(Role.AGENT, {"discount_pct": Decimal(8)}) is False
    assert approve.within_bounds(Role.AGENT, {"discount_pct": Decimal(4)}) is True
    assert approve.within_bounds(Role.AGENT, {}) is None
    fit = briefing.authority[Action.CONFIRM_FIT]
    assert all(isinstance(g.conditions[0], EvidenceRequired) for g in fit.grants)
    assert any(isinstance(c, SeparationOfDuties)
               for f in briefing.authority[Action.RELEASE_PAYMENT].forbids for c in f.conditions)
    assert set(briefing.authority) == set(Action)


def test_the_policy_and_the_llm_prompt_say_it_in_words() -> None:
    briefing = briefing_for(scenario_by_id("discount-exception"), FIVE)
    expected = ("- approve: finance, never by the actor who performed submit on the quote; "
                "you (agent), only when discount_pct <= 5 (delegated by finance; otherwise "
                "request it from finance)")
    assert expected in briefing.policy
    assert "confirm_fit: technical_owner, citing a released datasheet" in briefing.policy
    assert ("release_payment: finance, never by the actor who performed invoice"
            in briefing.policy)
    prompt = prompt_text(briefing)  # the mode's part opens the first user message
    assert expected in trial_briefing(briefing)
    assert expected not in system_prompt(briefing)  # the system message is every mode's
    assert "# Who holds each action in this mode" not in prompt  # said once, with conditions


def test_the_baseline_asks_finance_beyond_the_delegated_bound() -> None:
    scenario = scenario_by_id("discount-exception")
    assert scenario.discount_pct > 5

    world = run_trial(scenario, FIVE, BaselineAgent())

    approvals = [(e.role, e.allowed) for e in world.trail
                 if isinstance(e, DecisionEntry) and e.action is Action.APPROVE]
    assert approvals == [(Role.FINANCE, True)]  # never tried, never denied
    assert score_trial(scenario, world).passed == score_trial(
        scenario, run_trial(scenario, DUAL, BaselineAgent())).passed


def test_the_baseline_approves_within_the_bound_itself() -> None:
    generous = delegate(DUAL, Action.APPROVE, to=Role.AGENT, from_role=Role.FINANCE,
                        attribute="discount_pct", limit=Decimal(50), name="generous")
    scenario = scenario_by_id("discount-exception")

    world = run_trial(scenario, generous, BaselineAgent())

    approvals = [(e.role, e.allowed) for e in world.trail
                 if isinstance(e, DecisionEntry) and e.action is Action.APPROVE]
    assert approvals == [(Role.AGENT, True)]


def test_a_finance_delegates_mode_does_not_drop_the_baseline_below_dual_control() -> None:
    suite = build_core(verify=False).suite
    result = run(suite.scenarios, [DUAL, FIVE], BaselineAgent)

    dual, five = (result.summaries[name] for name in (DUAL.name, FIVE.name))
    assert five.pass_hat_k[1] >= dual.pass_hat_k[1]
    assert five.mean_denials == 0  # the bound is read from the briefing, not learnt by refusal


def test_a_role_holding_two_alike_grants_is_named_once() -> None:
    authority = describe_authority(builtin_modes()["all_tools"])
    assert authority[Action.CANCEL].sentence(Role.AGENT) == "cancel: buyer; finance; you (agent)"
    fit = authority[Action.CONFIRM_FIT].sentence(Role.AGENT)
    assert fit.count("you (agent)") == 1
