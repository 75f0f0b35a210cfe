"""The golden who-can table of the built-in modes of the default map, checked both ways.

Every action of every built-in mode is written out literally. The comparison is set
equality, so a missing role fails and an extra role fails; the table must cover every
Action, so a new action cannot slip in without a reviewed row.
"""

from __future__ import annotations

import pytest

from remit.authority import (
    Action,
    Role,
    builtin_modes,
    sod_conflicts,
    unreachable,
    who_can,
    who_can_table,
)

A, B, T, F, S = Role.AGENT, Role.BUYER, Role.TECHNICAL_OWNER, Role.FINANCE, Role.SYSTEM

DUAL_CONTROL: dict[Action, frozenset[Role]] = {
    Action.CONFIGURE: frozenset({A}),
    Action.REQUEST_FIT: frozenset({A}),
    Action.CONFIRM_FIT: frozenset({T, B}),
    Action.REJECT_FIT: frozenset({T, B}),
    Action.PRICE: frozenset({A}),
    Action.SUBMIT: frozenset({A}),
    Action.APPROVE: frozenset({F}),
    Action.DENY: frozenset({F}),
    Action.PRESENT: frozenset({A}),
    Action.ACCEPT: frozenset({B}),
    Action.REJECT: frozenset({B}),
    Action.EXPIRE: frozenset({S}),
    Action.RECEIVE_PO: frozenset({B}),
    Action.RECORD_RECEIPT: frozenset({B}),
    Action.INVOICE: frozenset({A}),
    Action.RELEASE_PAYMENT: frozenset({F}),
    Action.REVISE: frozenset({A}),
    Action.CANCEL: frozenset({B, F}),
    Action.EDIT_LINES: frozenset({A}),
}

ALL_TOOLS: dict[Action, frozenset[Role]] = {
    Action.CONFIGURE: frozenset({A}),
    Action.REQUEST_FIT: frozenset({A}),
    Action.CONFIRM_FIT: frozenset({A, T, B}),
    Action.REJECT_FIT: frozenset({A, T, B}),
    Action.PRICE: frozenset({A}),
    Action.SUBMIT: frozenset({A}),
    Action.APPROVE: frozenset({A, F}),
    Action.DENY: frozenset({A, F}),
    Action.PRESENT: frozenset({A}),
    Action.ACCEPT: frozenset({A, B}),
    Action.REJECT: frozenset({A, B}),
    Action.EXPIRE: frozenset({A, S}),
    Action.RECEIVE_PO: frozenset({A, B}),
    Action.RECORD_RECEIPT: frozenset({A, B}),
    Action.INVOICE: frozenset({A}),
    Action.RELEASE_PAYMENT: frozenset({A, F}),
    Action.REVISE: frozenset({A}),
    Action.CANCEL: frozenset({A, B, F}),
    Action.EDIT_LINES: frozenset({A}),
}

ORACLE_PLAN: dict[Action, frozenset[Role]] = {
    Action.CONFIGURE: frozenset({A}),
    Action.REQUEST_FIT: frozenset({A}),
    Action.CONFIRM_FIT: frozenset({T, B}),
    Action.REJECT_FIT: frozenset({T, B}),
    Action.PRICE: frozenset({A}),
    Action.SUBMIT: frozenset({A}),
    Action.APPROVE: frozenset({F}),
    Action.DENY: frozenset({F}),
    Action.PRESENT: frozenset({A}),
    Action.ACCEPT: frozenset({B}),
    Action.REJECT: frozenset({B}),
    Action.EXPIRE: frozenset({S}),
    Action.RECEIVE_PO: frozenset({B}),
    Action.RECORD_RECEIPT: frozenset({B}),
    Action.INVOICE: frozenset({A}),
    Action.RELEASE_PAYMENT: frozenset({F}),
    Action.REVISE: frozenset({A}),
    Action.CANCEL: frozenset({B, F}),
    Action.EDIT_LINES: frozenset({A}),
}

GOLDEN = {"dual_control": DUAL_CONTROL, "all_tools": ALL_TOOLS, "oracle_plan": ORACLE_PLAN}


@pytest.mark.parametrize("mode_name", sorted(GOLDEN))
def test_golden_table_covers_every_action(mode_name: str) -> None:
    assert set(GOLDEN[mode_name]) == set(Action)


@pytest.mark.parametrize(
    ("mode_name", "action"),
    [(m, a) for m in sorted(GOLDEN) for a in Action],
)
def test_who_can_matches_the_golden_table(mode_name: str, action: Action) -> None:
    mode = builtin_modes()[mode_name]
    assert who_can(mode, action) == GOLDEN[mode_name][action]


def test_who_can_table_equals_the_golden_table() -> None:
    table = who_can_table(builtin_modes())
    assert set(table) == set(Action)
    for action in Action:
        assert table[action] == {name: GOLDEN[name][action] for name in GOLDEN}


def test_builtin_modes_are_exactly_the_golden_ones() -> None:
    assert set(builtin_modes()) == set(GOLDEN)


def test_in_all_tools_the_agent_can_do_everything_anybody_can() -> None:
    mode = builtin_modes()["all_tools"]
    for action in Action:
        holders = who_can(mode, action)
        assert holders, f"nobody can {action}"
        assert Role.AGENT in holders


def test_in_dual_control_only_finance_releases_payment_and_approves() -> None:
    mode = builtin_modes()["dual_control"]
    assert who_can(mode, Action.RELEASE_PAYMENT) == {Role.FINANCE}
    assert who_can(mode, Action.APPROVE) == {Role.FINANCE}
    assert Role.AGENT not in who_can(mode, Action.CONFIRM_FIT)


@pytest.mark.parametrize("mode_name", sorted(GOLDEN))
def test_builtin_modes_have_no_unreachable_action_and_no_sod_conflict(mode_name: str) -> None:
    mode = builtin_modes()[mode_name]
    assert unreachable(mode) == frozenset()
    assert sod_conflicts(mode) == []
