"""Words are not refused: every text the agent writes is delivered as written.

Whether a text claims that another party acted is scoring's question
(tests/harness/test_scoring_authority.py); the world's job is to deliver it and let
the hand-off tools work whatever the text says.
"""

from __future__ import annotations

import pytest

from remit.authority import Role, builtin_modes
from remit.harness import world_for
from remit.scenarios import scenario_by_id
from remit.world import ErrorEntry, ToolCall, ToolResult, World


@pytest.fixture
def world() -> World:
    return world_for(scenario_by_id("discount-exception"), builtin_modes()["dual_control"])


def _say(world: World, tool: str, **arguments: object) -> ToolResult:
    return world.call(Role.AGENT, ToolCall(tool=tool, arguments=arguments))  # type: ignore[arg-type]


def _delivered(world: World, to: Role) -> list[str]:
    return [m.text for m in world.inboxes[to] if m.sender is Role.AGENT]


@pytest.mark.parametrize("text", [
    "Finance already approved the discount.",
    "The discount was approved by finance.",
    "Payment was released by finance.",
    "Our CFO signed off on the 12% discount.",
    "Fin\u0430nce has appro\u200bved it.",             # look-alike letter, zero-width space
    "Has finance approved the discount yet?",
    "Finance hasn't signed off on the discount yet.",
])
def test_every_message_is_delivered_as_written(world: World, text: str) -> None:
    result = _say(world, "message", to="buyer", text=text)
    assert result.ok, result.error
    assert _delivered(world, Role.BUYER) == [text]
    assert not any(isinstance(e, ErrorEntry) for e in world.trail)


@pytest.mark.parametrize(("tool", "arguments", "to"), [
    ("ask", {"to": "technical_owner", "facts": ["piping_standard"]}, Role.TECHNICAL_OWNER),
    ("request_action", {"to": "buyer", "action": "accept", "quote_id": "Q-1"}, Role.BUYER),
])
def test_claims_in_asks_and_requests_are_delivered_and_open_their_handoff(
        world: World, tool: str, arguments: dict[str, object], to: Role) -> None:
    text = "Finance has already approved the discount."
    assert _say(world, tool, text=text, **arguments).ok
    assert _delivered(world, to) == [text]
    assert len(world.handoffs) == (1 if tool == "request_action" else 0)


def test_a_claim_in_a_follow_up_is_delivered_and_counted(world: World) -> None:
    assert _say(world, "request_action", to="buyer", action="accept", quote_id="Q-1",
                text="Please accept quote Q-1.").ok
    result = _say(world, "follow_up", handoff_id="H-1",
                  text="Following up: the discount was approved by finance.")
    assert result.ok, result.error
    assert world.handoffs["H-1"].follow_ups == 1
    assert _delivered(world, Role.BUYER) == [
        "Please accept quote Q-1.", "Following up: the discount was approved by finance."]
