"""Static analysis: unreachable actions, SoD conflicts and check_map on crafted bad maps."""

from __future__ import annotations

from decimal import Decimal

from remit.authority import (
    Action,
    AuthorityMap,
    Custom,
    DelegationLimit,
    Forbid,
    Grant,
    Role,
    SeparationOfDuties,
    StateIn,
    Threshold,
    all_tools,
    check_map,
    default_map,
    sod_conflicts,
    unreachable,
    who_can,
)


def _bad_map() -> AuthorityMap:
    """The agent alone submits and approves, and may not approve its own submission."""
    grants = [
        Grant(id="g-agent-submit", role=Role.AGENT, actions=[Action.SUBMIT]),
        Grant(id="g-agent-approve", role=Role.AGENT, actions=[Action.APPROVE]),
        Grant(id="g-buyer-accept", role=Role.BUYER, actions=[Action.ACCEPT]),
        Grant(
            id="g-agent-price",
            role=Role.AGENT,
            actions=[Action.PRICE],
            conditions=[
                Threshold(attribute="discount_pct", op=">", value=Decimal(10)),
                Threshold(attribute="discount_pct", op="<=", value=Decimal(5)),
            ],
        ),
        Grant(
            id="g-agent-present",
            role=Role.AGENT,
            actions=[Action.PRESENT],
            conditions=[
                StateIn(states=["approved"]),
                StateIn(states=["draft"]),
                Custom(name="valid_until_set"),
            ],
        ),
        Grant(
            id="g-agent-deny",
            role=Role.AGENT,
            actions=[Action.DENY],
            conditions=[
                DelegationLimit(delegated_from=Role.FINANCE, attribute="amount", max=Decimal(100))
            ],
        ),
    ]
    forbids = [
        Forbid(
            id="f-sod",
            roles=[Role.AGENT, Role.FINANCE],
            actions=[Action.APPROVE],
            conditions=[SeparationOfDuties(prior_action=Action.SUBMIT)],
            reason="no approving your own submission",
        ),
        Forbid(id="f-no-buyer-accept", roles=[Role.BUYER], actions=[Action.ACCEPT], reason="x"),
    ]
    return AuthorityMap(name="bad", version="1", grants=grants, forbids=forbids)


def test_unreachable_lists_actions_nobody_can_perform() -> None:
    bad = _bad_map()
    # accept is granted, but an unconditional forbid blocks its only holder
    assert who_can(bad, Action.ACCEPT) == frozenset()
    reachable = {Action.SUBMIT, Action.APPROVE, Action.PRICE, Action.PRESENT, Action.DENY}
    assert unreachable(bad) == frozenset(set(Action) - reachable)
    assert unreachable(default_map()) == frozenset()
    assert unreachable(AuthorityMap(name="empty", version="1")) == frozenset(Action)


def test_sod_conflict_is_detected_with_a_sentence() -> None:
    conflicts = sod_conflicts(_bad_map())
    assert len(conflicts) == 1
    conflict = conflicts[0]
    assert (conflict.forbid_id, conflict.action, conflict.prior_action, conflict.role) == (
        "f-sod",
        Action.APPROVE,
        Action.SUBMIT,
        Role.AGENT,
    )
    assert conflict.sentence == (
        "f-sod: only agent can submit and only agent can approve, so the agent who performed "
        "submit is always forbidden to approve; grant approve to another role or take agent "
        "out of f-sod"
    )


def test_no_sod_conflict_when_another_role_can_act_or_the_forbid_skips_the_role() -> None:
    bad = _bad_map()
    with_finance = bad.model_copy(
        update={
            "grants": (
                *bad.grants,
                Grant(id="g-finance-approve", role=Role.FINANCE, actions=[Action.APPROVE]),
            )
        }
    )
    assert sod_conflicts(with_finance) == []
    narrow = bad.model_copy(
        update={
            "forbids": (
                Forbid(
                    id="f-sod",
                    roles=[Role.FINANCE],
                    actions=[Action.APPROVE],
                    conditions=[SeparationOfDuties(prior_action=Action.SUBMIT)],
                    reason="r",
                ),
            )
        }
    )
    assert sod_conflicts(narrow) == []
    assert sod_conflicts(default_map()) == []
    assert sod_conflicts(all_tools(default_map())) == []


def test_check_map_lists_every_problem() -> None:
    problems = check_map(_bad_map(), known_predicates={"credit_ok"})
    expected_fragments = [
        "grant g-agent-present: custom predicate 'valid_until_set' is unknown (known: credit_ok)",
        "grant g-agent-price: conditions on discount_pct cannot all hold (no value is both > 10 "
        "and <= 5)",
        "grant g-agent-present: its state conditions have no state in common",
        "no role can perform configure; add a grant for it",
        "f-sod: only agent can submit and only agent can approve",
        "grant g-buyer-accept: buyer can never accept: forbid f-no-buyer-accept always applies",
        "grant g-agent-deny: delegates deny from finance, which holds no grant for deny",
    ]
    for fragment in expected_fragments:
        assert any(fragment in p for p in problems), fragment
    unreachable_count = len(unreachable(_bad_map()))
    assert len(problems) == len(expected_fragments) - 1 + unreachable_count


def test_check_map_of_the_default_map_and_its_modes_is_clean() -> None:
    assert check_map(default_map(), known_predicates=set()) == []
    assert check_map(all_tools(default_map())) == []


def test_check_map_skips_predicate_names_when_none_are_known() -> None:
    grant = Grant(
        id="g-agent-price",
        role=Role.AGENT,
        actions=list(Action),
        conditions=[Custom(name="anything")],
    )
    authority_map = AuthorityMap(name="m", version="1", grants=[grant])
    assert check_map(authority_map) == []
    assert check_map(authority_map, known_predicates=[]) == [
        "grant g-agent-price: custom predicate 'anything' is unknown (known: none); define it "
        "or fix the name"
    ]


def test_check_map_reports_duplicate_ids_of_an_unvalidated_map() -> None:
    grant = Grant(id="g-1", role=Role.AGENT, actions=list(Action))
    raw = AuthorityMap.model_construct(name="m", version="1", grants=(grant, grant), forbids=())
    assert check_map(raw) == ["id 'g-1' is used 2 times; ids must be unique"]


def test_equal_bounds_are_fine_but_open_equal_bounds_contradict() -> None:
    def grant(*conditions: Threshold) -> AuthorityMap:
        g = Grant(id="g", role=Role.AGENT, actions=list(Action), conditions=conditions)
        return AuthorityMap(name="m", version="1", grants=[g])

    five = Decimal(5)
    closed = grant(
        Threshold(attribute="amount", op=">=", value=five),
        Threshold(attribute="amount", op="<=", value=five),
    )
    assert check_map(closed) == []
    half_open = grant(
        Threshold(attribute="amount", op=">", value=five),
        Threshold(attribute="amount", op="==", value=five),
    )
    assert check_map(half_open) == [
        "grant g: conditions on amount cannot all hold (no value is both > 5 and <= 5)"
    ]
