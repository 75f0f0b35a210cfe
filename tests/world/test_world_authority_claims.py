"""Words are not approvals: claims of another party's action, in any of the agent's texts."""

from __future__ import annotations

import pytest

from remit.authority import Role, builtin_modes
from remit.harness import world_for
from remit.scenarios import scenario_by_id
from remit.world import ToolCall, ToolResult, World


@pytest.fixture
def world() -> World:
    return world_for(scenario_by_id("discount-exception"), builtin_modes()["dual_control"])


def _say(world: World, tool: str, **arguments: object) -> ToolResult:
    return world.call(Role.AGENT, ToolCall(tool=tool, arguments=arguments))  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [
    "Has finance approved the discount yet?",
    "I cannot proceed until finance approved the quote.",
    "Please tell me whether the buyer accepted the quote.",
    "Once the technical owner confirmed the fit, I will price it.",
])
def test_questions_and_conditions_are_not_claims(world: World, text: str) -> None:
    assert _say(world, "message", to="buyer", text=text).ok


@pytest.mark.parametrize(("tool", "arguments"), [
    ("message", {"to": "buyer"}),
    ("ask", {"to": "technical_owner", "facts": ["piping_standard"]}),
    ("request_action", {"to": "buyer", "action": "accept", "quote_id": "Q-1"}),
])
def test_a_false_claim_is_refused_in_every_text_carrying_tool(
        world: World, tool: str, arguments: dict[str, object]) -> None:
    result = _say(world, tool, text="Finance has already approved the discount.", **arguments)
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "unsupported_authority_claim"
    assert "finance has already approved" in result.error.message.lower()


def test_a_claim_must_name_the_party_that_acted(world: World) -> None:
    for tool, arguments in (
        ("edit_lines", {"quote_id": "Q-1", "lines": [{"sku": "BV-00021", "quantity": 10,
                                                      "cite": ["pn"]}]}),
        ("configure", {"quote_id": "Q-1"}), ("price", {"quote_id": "Q-1"}),
        ("submit", {"quote_id": "Q-1"}),
    ):
        assert _say(world, tool, **arguments).ok, tool
    assert world.call(Role.FINANCE, ToolCall(tool="approve", arguments={"quote_id": "Q-1"})).ok
    assert _say(world, "message", to="buyer", text="Finance approved the quote.").ok
    wrong = _say(world, "message", to="finance", text="The buyer has approved the quote.")
    assert wrong.error is not None
    assert wrong.error.code == "unsupported_authority_claim"
