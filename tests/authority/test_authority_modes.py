"""Control modes: fingerprints, all-tools, oracle-plan, delegation and mode diffs."""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.authority import (
    Action,
    ControlMode,
    ModeError,
    Request,
    RequestContext,
    Resource,
    Role,
    SeparationOfDuties,
    UnknownModeError,
    all_tools,
    builtin_modes,
    decide,
    default_map,
    delegate,
    diff_modes,
    dual_control,
    map_hash,
    mode_by_name,
    oracle_plan,
    who_can,
)
from remit.errors import AuthorityError


def _agent5() -> ControlMode:
    return delegate(
        default_map(),
        Action.APPROVE,
        to=Role.AGENT,
        from_role=Role.FINANCE,
        attribute="discount_pct",
        limit=Decimal(5),
        name="agent_approves_5pct",
    )


def _approve(role: Role, discount: str | None, submitter: str | None = "u-agent") -> Request:
    actor = "u-agent" if role is Role.AGENT else "u-fin"
    prior = {Action.SUBMIT: submitter} if submitter else {}
    return Request(
        actor_id=actor,
        role=role,
        action=Action.APPROVE,
        resource=Resource(id="Q-1", state="approval_pending"),
        context=RequestContext(
            discount_pct=None if discount is None else Decimal(discount), prior_actors=prior
        ),
    )


def test_fingerprints_are_distinct_and_stable() -> None:
    modes = [*builtin_modes().values(), _agent5()]
    fingerprints = [m.fingerprint for m in modes]
    assert len(set(fingerprints)) == len(modes)
    again = [*builtin_modes().values(), _agent5()]
    assert [m.fingerprint for m in again] == fingerprints
    assert all(len(f) == 64 for f in fingerprints)
    # oracle_plan shares dual_control's map: the name and flag alone tell them apart
    dual, oracle = builtin_modes()["dual_control"], builtin_modes()["oracle_plan"]
    assert map_hash(dual.map) == map_hash(oracle.map)
    assert dual.fingerprint != oracle.fingerprint


def test_builtin_mode_flags() -> None:
    modes = builtin_modes()
    assert (modes["dual_control"].agent_reads_all, modes["dual_control"].plan_in_briefing) == (
        False,
        False,
    )
    assert (modes["all_tools"].agent_reads_all, modes["all_tools"].plan_in_briefing) == (
        True,
        False,
    )
    assert (modes["oracle_plan"].agent_reads_all, modes["oracle_plan"].plan_in_briefing) == (
        False,
        True,
    )
    assert modes["dual_control"].map == default_map()
    assert {name: mode.name for name, mode in modes.items()} == {n: n for n in modes}


def test_mode_by_name_returns_builtins_and_rejects_unknown_names() -> None:
    assert mode_by_name("all_tools") == all_tools(default_map())
    assert mode_by_name("oracle_plan", map=default_map()) == oracle_plan(default_map())
    with pytest.raises(
        UnknownModeError,
        match="unknown control mode name='no_user'; valid modes: dual_control, all_tools, "
        "oracle_plan",
    ) as caught:
        mode_by_name("no_user")
    assert isinstance(caught.value, AuthorityError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.valid == ("dual_control", "all_tools", "oracle_plan")


def test_all_tools_copies_every_grant_to_the_agent_and_lifts_sod() -> None:
    mode = all_tools(default_map())
    ids = {g.id for g in mode.map.grants}
    assert {"g-finance-approve@agent", "g-buyer-accept@agent", "g-system-expire@agent"} <= ids
    assert not any(
        isinstance(c, SeparationOfDuties) for f in mode.map.forbids for c in f.conditions
    )
    own_submission = _approve(Role.AGENT, "20", submitter="u-agent")
    decision = decide(mode.map, own_submission)
    assert decision.allowed
    assert decision.grant_ids == ("g-finance-approve@agent",)
    assert not decide(dual_control(default_map()).map, own_submission).allowed


def test_delegate_lets_the_agent_approve_4_percent_but_not_6() -> None:
    mode = _agent5()
    four = decide(mode.map, _approve(Role.AGENT, "4"))
    assert four.allowed
    assert four.grant_ids == ("g-finance-approve@agent-delegated",)
    six = decide(mode.map, _approve(Role.AGENT, "6"))
    assert not six.allowed
    assert [u.kind for u in six.unmet] == ["delegation_limit"]
    assert "actual discount_pct=6" in six.unmet[0].sentence
    assert not decide(mode.map, _approve(Role.AGENT, None)).allowed  # no discount: fail closed
    # dual control: never, whatever the discount
    dual = dual_control(default_map())
    assert not decide(dual.map, _approve(Role.AGENT, "4")).allowed
    assert not decide(dual.map, _approve(Role.AGENT, "0")).allowed


def test_delegate_keeps_finance_and_other_sod_rules() -> None:
    mode = _agent5()
    assert who_can(mode, Action.APPROVE) == {Role.AGENT, Role.FINANCE}
    assert decide(mode.map, _approve(Role.FINANCE, "30", submitter="u-agent")).allowed
    own = decide(mode.map, _approve(Role.FINANCE, "30", submitter="u-fin"))
    assert own.forbid_ids == ("f-sod-approve-own-submission",)
    # the agent still may not deny its own submission (it holds no deny grant anyway,
    # and the SoD forbid on deny still covers it)
    forbids = {f.id: f for f in mode.map.forbids}
    assert forbids["f-sod-approve-own-submission@agent"].actions == (Action.DENY,)
    assert Role.AGENT not in forbids["f-sod-approve-own-submission"].roles


def test_delegate_without_lifting_separation_blocks_the_submitter() -> None:
    strict = delegate(
        default_map(),
        Action.APPROVE,
        to=Role.AGENT,
        from_role=Role.FINANCE,
        attribute="discount_pct",
        limit=Decimal(5),
        name="strict",
        lift_separation=False,
    )
    decision = decide(strict.map, _approve(Role.AGENT, "4", submitter="u-agent"))
    assert decision.forbid_ids == ("f-sod-approve-own-submission",)
    assert decide(strict.map, _approve(Role.AGENT, "4", submitter="u-other")).allowed


def test_delegate_keeps_the_flags_of_a_mode() -> None:
    mode = delegate(
        oracle_plan(default_map()),
        Action.APPROVE,
        to=Role.AGENT,
        from_role=Role.FINANCE,
        attribute="discount_pct",
        limit=Decimal(5),
        name="oracle_agent5",
    )
    assert mode.plan_in_briefing
    assert mode.name == "oracle_agent5"


def test_delegate_refuses_builtin_names_and_roles_without_the_grant() -> None:
    with pytest.raises(ModeError, match="name='all_tools' is a built-in mode name"):
        delegate(
            default_map(),
            Action.APPROVE,
            to=Role.AGENT,
            from_role=Role.FINANCE,
            attribute="discount_pct",
            limit=Decimal(5),
            name="all_tools",
        )
    with pytest.raises(
        ModeError,
        match="buyer holds no grant for approve; holders: finance; delegate from a holder",
    ):
        delegate(
            default_map(),
            Action.APPROVE,
            to=Role.AGENT,
            from_role=Role.BUYER,
            attribute="discount_pct",
            limit=Decimal(5),
            name="bad",
        )


def test_diff_dual_control_all_tools_adds_the_agent_to_approve() -> None:
    diffs = diff_modes(dual_control(default_map()), all_tools(default_map()))
    by_action = {d.action: d for d in diffs}
    assert by_action[Action.APPROVE].added == {Role.AGENT}
    assert by_action[Action.APPROVE].removed == frozenset()
    assert by_action[Action.APPROVE].sentence == "approve: +agent"
    assert Action.PRICE not in by_action  # the agent already priced
    assert all(d.added == {Role.AGENT} and not d.removed for d in diffs)
    assert [d.action for d in diffs] == [a for a in Action if a in by_action]
    back = diff_modes(all_tools(default_map()), dual_control(default_map()))
    assert {d.action: d.removed for d in back} == {d.action: d.added for d in diffs}
    assert diff_modes(dual_control(default_map()), oracle_plan(default_map())) == []
