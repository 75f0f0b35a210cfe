"""Every attribute a delegation can bound is supplied by the gate: inside the bound the
delegate may act, outside it is denied and told whom to ask.

Each case builds a real mode from a mode file's text (as ``remit run --modes x.yaml``
does), drives a real world of the ``discount-exception`` scenario to approval, and has
the agent approve a quote whose numbers fall inside, then outside, the bound. The bound
itself is placed between the two quotes' numbers as the gate computes them (the facts
``get_quote`` shows), so no catalogue price is hard-coded here.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from remit.authority import Action, ControlMode, Role, load_mode_spec
from remit.harness import world_for
from remit.scenarios import scenario_by_id
from remit.world import ToolCall, World
from remit.world.trail import DecisionEntry

SCENARIO = scenario_by_id("discount-exception")
_LINE = next(step for step in SCENARIO.plan if step.tool == "edit_lines").arguments["lines"]
SKU = str(_LINE[0]["sku"])  # type: ignore[index,call-overload]
CITE = list(_LINE[0]["cite"])  # type: ignore[index,call-overload]


def _mode(attribute: str, bound: str) -> ControlMode:
    text = (f"name: agent-approves-by-{attribute}\nbase: dual_control\ndelegations:\n"
            f"  - action: approve\n    from: finance\n    to: agent\n"
            f"    attribute: {attribute}\n    {bound}\n")
    return load_mode_spec(text, format="yaml", source=f"{attribute}.yaml").build()


def _submitted(mode: ControlMode, *, quantity: int, discount: str) -> World:
    """A world whose quote the agent drafted, priced and submitted."""
    world = world_for(SCENARIO, mode)
    line = {"sku": SKU, "quantity": quantity, "cite": CITE, "discount_pct": discount}
    for tool, arguments in [
        ("edit_lines", {"quote_id": "Q-1", "lines": [line]}),
        ("configure", {"quote_id": "Q-1"}),
        ("price", {"quote_id": "Q-1"}),
        ("submit", {"quote_id": "Q-1", "justification": "a framework agreement"}),
    ]:
        result = world.call(Role.AGENT, ToolCall(tool=tool, arguments=arguments))
        assert result.ok, result.error
    return world


def _facts(quantity: int, discount: str) -> dict[str, Decimal]:
    """What the gate will test, read the way an agent reads it: from ``get_quote``."""
    world = _submitted(_mode("discount_pct", "limit: 100"), quantity=quantity, discount=discount)
    view = world.call(Role.AGENT, ToolCall(tool="get_quote", arguments={"quote_id": "Q-1"}))
    facts = view.content["authority_facts"]  # type: ignore[index,call-overload]
    return {name: Decimal(value) for name, value in facts.items()}  # type: ignore[union-attr]


SMALL = _facts(quantity=2, discount="2")
LARGE = _facts(quantity=10, discount="12")


def _between(attribute: str) -> Decimal:
    low, high = sorted((SMALL[attribute], LARGE[attribute]))
    assert low < high, f"the two quotes must differ in {attribute}"
    return (low + high) / 2


CASES = [
    # attribute, bound key, the quote inside the bound (quantity, discount), outside it
    ("discount_pct", "limit", (2, "2"), (10, "12")),
    ("amount", "limit", (2, "2"), (10, "12")),
    ("quantity", "limit", (2, "2"), (10, "12")),
    ("margin_pct", "at_least", (2, "2"), (10, "12")),
]


@pytest.mark.parametrize(("attribute", "key", "inside", "outside"), CASES,
                         ids=[case[0] for case in CASES])
def test_a_delegation_allows_inside_its_bound_and_denies_outside(
        attribute: str, key: str, inside: tuple[int, str], outside: tuple[int, str]) -> None:
    mode = _mode(attribute, f"{key}: {_between(attribute)}")
    approve = ToolCall(tool="approve", arguments={"quote_id": "Q-1"})

    allowed_world = _submitted(mode, quantity=inside[0], discount=inside[1])
    allowed = allowed_world.call(Role.AGENT, approve)
    denied_world = _submitted(mode, quantity=outside[0], discount=outside[1])
    denied = denied_world.call(Role.AGENT, approve)

    assert allowed.ok, allowed.error
    assert allowed_world.quote.state == "approved"
    assert not denied.ok
    assert denied.error is not None
    assert denied.error.code == "denied"
    assert f"delegated from finance only for {attribute}" in denied.error.message
    assert "not given" not in denied.error.message  # the gate supplied the fact
    assert 'request_action(to="finance"' in denied.error.message
    decision = next(e for e in reversed(denied_world.trail)
                    if isinstance(e, DecisionEntry) and e.action is Action.APPROVE)
    assert not decision.allowed
    assert decision.role is Role.AGENT


def test_finance_still_approves_beyond_the_bound() -> None:
    mode = _mode("quantity", "limit: 4")
    world = _submitted(mode, quantity=10, discount="12")
    result = world.call(Role.FINANCE, ToolCall(tool="approve", arguments={"quote_id": "Q-1"}))
    assert result.ok, result.error


def test_the_facts_follow_the_lines() -> None:
    assert (SMALL["quantity"], LARGE["quantity"]) == (2, 10)
    assert (SMALL["discount_pct"], LARGE["discount_pct"]) == (2, 12)
    assert SMALL["margin_pct"] > LARGE["margin_pct"]
    assert SMALL["amount"] < LARGE["amount"]
