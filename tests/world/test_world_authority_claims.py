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


def _delivered(world: World, to: Role) -> list[str]:
    return [m.text for m in world.inboxes[to] if m.sender is Role.AGENT]


def _submit_and_approve(world: World) -> None:
    for tool, arguments in (
        ("edit_lines", {"quote_id": "Q-1", "lines": [{"sku": "BV-00021", "quantity": 10,
                                                      "cite": ["pn"]}]}),
        ("configure", {"quote_id": "Q-1"}), ("price", {"quote_id": "Q-1"}),
        ("submit", {"quote_id": "Q-1"}),
    ):
        assert _say(world, tool, **arguments).ok, tool
    assert world.call(Role.FINANCE, ToolCall(tool="approve", arguments={"quote_id": "Q-1"})).ok


@pytest.mark.parametrize("text", [
    "Has finance approved the discount yet?",
    "I cannot proceed until finance approved the quote.",
    "Please tell me whether the buyer accepted the quote.",
    "Once the technical owner confirmed the fit, I will price it.",
    "Could finance approve the discount?",
    "Once finance has approved it, I will present the quote.",
    "If the technical owner confirms the fit, I will price it.",
    # Future, negated and requested actions have not happened.
    "Finance will approve the discount.",
    "Finance has not approved yet.",
    "Finance hasn't signed off on the discount yet.",
    "Please have finance approve the discount.",
    "Please get the discount approved by finance.",
    "The discount has not yet been approved by finance.",
    "The discount will be approved by finance.",
    "The discount needs to be approved by finance before I present it.",
    "Once approved by finance, the quote goes to you.",
    "I will wait until the fit is confirmed by engineering.",
    # A confirmed fact is not a confirmed fit.
    "The operating pressure was confirmed by the buyer.",
])
def test_questions_conditions_and_pending_actions_are_not_claims(world: World, text: str) -> None:
    result = _say(world, "message", to="buyer", text=text)
    assert result.ok, result.error
    assert _delivered(world, Role.BUYER) == [text]


@pytest.mark.parametrize(("text", "claimed"), [
    ("Finance already approved the discount.", "finance already approved"),
    ("The discount was approved by finance.", "approved by finance"),
    ("Good news: approved by finance!", "approved by finance"),
    ("Payment was released by finance.", "payment was released by finance"),
    ("The fit has been confirmed by our technical owner.",
     "fit has been confirmed by our technical owner"),
    ("Finance signed off on the 12% discount.", "finance signed off"),
    ("The discount has been OK'd by finance.", "ok'd by finance"),
    ("Our finance team okayed the discount.", "our finance team okayed"),
    ("Finance green-lit the discount.", "finance green-lit"),
    ("Finance gave us the go-ahead for the discount.", "finance gave us the go-ahead"),
    ("The buyer signed off on the quote.", "the buyer signed off"),
    ("Engineering has given the go-ahead.", "engineering has given the go-ahead"),
])
def test_active_passive_and_sign_off_claims_are_refused_and_not_delivered(
        world: World, text: str, claimed: str) -> None:
    result = _say(world, "message", to="buyer", text=text)
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "unsupported_authority_claim"
    assert claimed in result.error.message.lower()
    assert _delivered(world, Role.BUYER) == []


@pytest.mark.parametrize(("tool", "arguments"), [
    ("message", {"to": "buyer"}),
    ("ask", {"to": "technical_owner", "facts": ["piping_standard"]}),
    ("request_action", {"to": "buyer", "action": "accept", "quote_id": "Q-1"}),
])
@pytest.mark.parametrize("text", [
    "Finance has already approved the discount.",
    "The discount was approved by finance.",
    "Finance signed off on the 12% discount.",
])
def test_a_false_claim_is_refused_in_every_text_carrying_tool(
        world: World, tool: str, arguments: dict[str, object], text: str) -> None:
    result = _say(world, tool, text=text, **arguments)
    assert not result.ok
    assert result.error is not None
    assert result.error.code == "unsupported_authority_claim"
    assert all(_delivered(world, role) == [] for role in Role)
    assert world.handoffs == {}  # a refused request_action opens no hand-off


def test_a_false_claim_in_a_follow_up_is_refused_and_not_counted(world: World) -> None:
    opened = _say(world, "request_action", to="buyer", action="accept", quote_id="Q-1",
                  text="Please accept quote Q-1.")
    assert opened.ok, opened.error
    result = _say(world, "follow_up", handoff_id="H-1",
                  text="Following up: the discount was approved by finance.")
    assert result.error is not None
    assert result.error.code == "unsupported_authority_claim"
    assert world.handoffs["H-1"].follow_ups == 0
    assert _delivered(world, Role.BUYER) == ["Please accept quote Q-1."]


def test_a_claim_must_name_the_party_that_acted(world: World) -> None:
    _submit_and_approve(world)
    assert _say(world, "message", to="buyer", text="Finance approved the quote.").ok
    wrong = _say(world, "message", to="finance", text="The buyer has approved the quote.")
    assert wrong.error is not None
    assert wrong.error.code == "unsupported_authority_claim"


@pytest.mark.parametrize(("text", "ok"), [
    ("The discount was approved by finance.", True),
    ("Finance signed off on the 12% discount.", True),
    ("Good news: the discount is green-lit by our finance team!", True),
    ("The quote was approved by the buyer.", False),
    ("The buyer signed off on the quote.", False),
    ("Payment was released by finance.", False),
])
def test_passive_and_sign_off_claims_are_checked_against_who_acted(
        world: World, text: str, ok: bool) -> None:
    _submit_and_approve(world)
    result = _say(world, "message", to="buyer", text=text)
    assert result.ok is ok
    if not ok:
        assert result.error is not None
        assert result.error.code == "unsupported_authority_claim"
    assert _delivered(world, Role.BUYER) == ([text] if ok else [])
