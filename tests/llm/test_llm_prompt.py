"""The system prompt is built from the briefing: role, policy, owners, hand-offs, plan."""

from __future__ import annotations

import json

from remit.actors import policy_text
from remit.actors.llm import ToolCallFormat, system_prompt, tool_definitions
from remit.authority import builtin_modes
from remit.harness.orchestrator import briefing_for
from remit.scenarios.builtin import scenario_by_id
from remit.world import tool_specs

SCENARIO = scenario_by_id("discount-exception")


def prompt(mode: str, fmt: ToolCallFormat = ToolCallFormat.AUTO) -> str:
    return system_prompt(briefing_for(SCENARIO, builtin_modes()[mode]), fmt)


def test_the_prompt_states_role_quote_mode_policy_and_budget() -> None:
    text = prompt("dual_control")
    assert "quoting agent (role `agent`)" in text
    assert "quote Q-1" in text
    assert "Control mode: `dual_control`" in text
    assert policy_text().strip() in text
    assert f"at most {SCENARIO.max_steps} tool calls" in text
    assert "Plain text is sent to the\nbuyer as a message" in text


def test_the_owners_of_each_action_follow_the_mode() -> None:
    dual = prompt("dual_control")
    assert ("- approve: finance, never by the actor who performed submit on the quote\n"
            in dual)
    assert "- configure: you (agent)\n" in dual
    assert "- accept: buyer\n" in dual
    assert "- confirm_fit: technical_owner, citing a released datasheet; buyer," in dual
    all_tools = prompt("all_tools")
    assert "- approve: finance; you (agent)\n" in all_tools  # SoD lifted in all-tools


def test_hand_offs_are_explained() -> None:
    text = prompt("dual_control")
    for phrase in ("request_action(to=OWNER", "follow_up(handoff_id)",
                   "withdraw(handoff_id, reason)", "Never\nsay that another party acted"):
        assert phrase in text


def test_the_reference_plan_is_shown_in_oracle_plan_only() -> None:
    assert "# Reference plan" not in prompt("dual_control")
    oracle = prompt("oracle_plan")
    assert "# Reference plan" in oracle
    first = SCENARIO.plan[0]
    assert f"1. {first.role.value}: {first.tool} " in oracle


def test_tools_are_sent_natively_or_written_into_the_prompt_for_content_json() -> None:
    definitions = tool_definitions(tool_specs())
    assert len(definitions) == len(tool_specs())
    first = definitions[0]
    assert isinstance(first, dict)
    assert first["type"] == "function"
    assert "# Calling tools" not in prompt("dual_control")
    text = prompt("dual_control", ToolCallFormat.CONTENT_JSON)
    schema = json.dumps(tool_specs()[0].parameters, sort_keys=True, separators=(",", ":"))
    assert schema in text
    assert "reply with one JSON object and nothing else" in text


def test_the_prompt_is_deterministic() -> None:
    assert prompt("dual_control") == prompt("dual_control")
