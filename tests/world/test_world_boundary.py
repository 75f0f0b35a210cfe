"""What an agent sends is cleaned and bounded before the world records it, refused with a
structured error it can act on, and quoted back short (:meth:`World.call`).

Every trail entry a call leaves must serialise as the store writes it (UTF-8 JSON).
"""

from __future__ import annotations

import json

import pytest
from pydantic import JsonValue

from remit.authority import Role, builtin_modes
from remit.harness import world_for
from remit.scenarios import scenario_by_id
from remit.world import ErrorEntry, ToolCall, ToolCallEntry, ToolResult, World
from tests.untrusted_agents import LONE, nested

LONG = "L" * 8000
"""An 8,000-character id: within the string limit, so looked up and not found."""


def _world() -> World:
    return world_for(scenario_by_id("discount-exception"), builtin_modes()["dual_control"])


def _call(world: World, tool: str, arguments: dict[str, JsonValue],
          role: Role = Role.AGENT) -> tuple[ToolResult, ToolCallEntry]:
    before = len(world.trail)
    result = world.call(role, ToolCall(tool=tool, arguments=arguments))
    [recorded] = [e for e in world.trail[before:] if isinstance(e, ToolCallEntry)]
    for entry in world.trail[before:]:
        entry.model_dump_json().encode()
    return result, recorded


def test_a_lone_surrogate_is_recorded_replaced_and_the_call_goes_through() -> None:
    world = _world()
    result, recorded = _call(world, "message", {"to": "buyer", "text": f"hi {LONE}"})
    assert result.ok
    assert recorded.arguments == {"to": "buyer", "text": "hi \ufffd"}


def test_arguments_nested_255_deep_are_refused_and_recorded_as_a_note() -> None:
    world = _world()
    result, recorded = _call(world, "get_quote", nested(255))
    assert result.error is not None
    assert result.error.code == "bad_arguments"
    assert result.error.message == (
        "bad arguments for get_quote: arguments nest deeper than 32 levels (at "
        "a.a.a.a.a.a.a.a.…); fix them and call again")
    assert recorded.arguments["not_recorded"] == (
        "arguments nest deeper than 32 levels (at a.a.a.a.a.a.a.a.…)")
    assert str(recorded.arguments["prefix"]).startswith("{'a': {'a': {'a': {'a': ")


def test_refused_arguments_leave_the_world_untouched_and_the_trial_goes_on() -> None:
    world = _world()
    _call(world, "message", {"to": "buyer", "text": "x" * 9000})
    assert world.inboxes[Role.BUYER] == []
    result, _ = _call(world, "get_quote", {"quote_id": "Q-1"})
    assert result.ok


@pytest.mark.parametrize(("tool", "arguments"), [
    ("get_quote", {"quote_id": LONG}),
    ("get_order", {"quote_id": LONG}),
    ("get_product", {"sku": LONG}),
    ("get_evidence", {"evidence_id": LONG}),
    ("configure", {"quote_id": LONG}),
    ("submit", {"quote_id": "Q-1", "evidence": [LONG]}),
    ("receive_po", {"quote_id": "Q-1", "document_id": LONG}),
    ("edit_lines", {"quote_id": "Q-1", "lines": [{"sku": LONG, "quantity": 1}]}),
    ("edit_lines", {"quote_id": "Q-1", "lines": [{"sku": "BV-00021", "quantity": 1,
                                                  "cite": [LONG]}]}),
    ("request_action", {"to": "finance", "action": "approve", "quote_id": LONG}),
    ("request_action", {"to": "finance", "action": "approve", "quote_id": "Q-1",
                        "evidence": [LONG]}),
    ("follow_up", {"handoff_id": LONG}),
    ("withdraw", {"handoff_id": LONG, "reason": "r"}),
    (LONG, {}),
    ("get_product", {LONG: 1, "sku": "BV-00021"}),
    ("get_product", {f"k{i}": 1 for i in range(100)} | {"sku": "BV-00021"}),
    ("message", {"to": LONG, "text": "x"}),
    ("search_catalogue", {"constraints": [{"attribute": "pn", "value": 1, "unit": LONG}]}),
])
def test_every_error_quotes_what_the_agent_sent_short(tool: str,
                                                       arguments: dict[str, JsonValue]) -> None:
    world = _world()
    role = Role.BUYER if tool == "receive_po" else Role.AGENT  # the buyer holds it
    result, _ = _call(world, tool, arguments, role)
    assert result.error is not None, result
    message = result.error.message
    assert len(message) < 800, message
    assert "L" * 81 not in message
    errors = [e for e in world.trail if isinstance(e, ErrorEntry)]
    assert errors[-1].message == message


def test_a_call_built_without_validation_is_refused_not_raised() -> None:
    world = _world()
    call = ToolCall.model_construct(tool="get_quote", arguments={"quote_id": object()})
    result = world.call(Role.AGENT, call)
    assert result.error is not None
    assert result.error.code == "bad_arguments"
    assert "is of type object, which is not JSON" in result.error.message
    entry = world.trail[-2]
    assert isinstance(entry, ToolCallEntry)
    assert json.loads(entry.model_dump_json())["arguments"]["prefix"].startswith(
        "{'quote_id': <object object at")
