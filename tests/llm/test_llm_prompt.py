"""The prompt: a system message shared by every trial of a run, then what varies.

The system message (role, policy, hand-offs, turns, tools in content-json) is the same
in every trial, so a server's prompt cache reads it once; the trial's briefing (mode,
who may do what, quote, budget, plan) opens the first user message.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import jsonschema
import pytest

from remit.actors import Briefing, policy_text
from remit.actors.llm import (
    PromptVariant,
    ToolCallFormat,
    llm_agent_factory,
    prompt_hash,
    prompt_text,
    system_prompt,
    tool_definitions,
    trial_briefing,
)
from remit.actors.llm.prompt import MODE_SECTION_HEADING, reference_briefing
from remit.authority import Action, Role, authority_prose, builtin_modes, describe_authority
from remit.harness import run_async
from remit.harness.orchestrator import briefing_for
from remit.scenarios.builtin import scenario_by_id
from remit.world import tool_specs
from tests.llm.conftest import Serve
from tests.llm.fake_server import ReadThenEnd
from tests.llm.play import config

SCENARIO = scenario_by_id("discount-exception")
OTHER = scenario_by_id("actuator-pairing")
COMPACT = PromptVariant.COMPACT
CONTENT_JSON = ToolCallFormat.CONTENT_JSON


def briefing(mode: str, scenario_id: str = "discount-exception") -> Briefing:
    return briefing_for(scenario_by_id(scenario_id), builtin_modes()[mode])


def prompt(mode: str, fmt: ToolCallFormat = ToolCallFormat.AUTO,
           variant: PromptVariant = PromptVariant.FULL) -> str:
    return prompt_text(briefing(mode), fmt, variant)


def shared_prefix(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)))


# -- layout --------------------------------------------------------------------------------


def test_the_system_prompt_states_role_policy_hand_offs_and_turns_but_nothing_that_varies(
        ) -> None:
    text = system_prompt(briefing("dual_control"))
    assert text.startswith("You are the supplier's quoting agent (role `agent`).")
    assert policy_text().strip() in text
    for phrase in ("request_action(to=OWNER", "follow_up(handoff_id)",
                   "withdraw(handoff_id, reason)", "Never\nsay that another party acted",
                   "Plain text is sent to the\nbuyer as a message"):
        assert phrase in text
    for varying in ("dual_control", "Q-1", str(SCENARIO.max_steps), MODE_SECTION_HEADING):
        assert varying not in text


def test_the_first_sentence_no_longer_names_the_mode() -> None:
    for mode in ("all_tools", "dual_control", "oracle_plan"):
        for variant in PromptVariant:
            text = prompt(mode, CONTENT_JSON, variant)
            first_sentence = text.split(". ", 1)[0]
            assert mode not in first_sentence
            assert "mode" not in first_sentence.lower()


def test_the_trial_briefing_states_mode_authority_quote_budget_and_plan() -> None:
    dual = trial_briefing(briefing("dual_control"))
    assert dual.startswith("# This conversation\nControl mode: `dual_control`.")
    assert f"{MODE_SECTION_HEADING} (`dual_control`)" in dual
    assert ("- approve: finance, never by the actor who performed submit on the quote\n"
            in dual)
    assert "- configure: you (agent)\n" in dual
    assert "- confirm_fit: technical_owner, citing a released datasheet; buyer," in dual
    assert f"Quote: Q-1. You have at most {SCENARIO.max_steps} tool calls." in dual
    assert "Reference plan" not in dual
    assert "- approve: finance; you (agent)\n" in trial_briefing(briefing("all_tools"))
    oracle = trial_briefing(briefing("oracle_plan"))
    first = SCENARIO.plan[0]
    assert "## Reference plan" in oracle
    assert f"1. {first.role.value}: {first.tool} " in oracle


@pytest.mark.parametrize("fmt", list(ToolCallFormat))
@pytest.mark.parametrize("variant", list(PromptVariant))
def test_the_system_prompt_is_the_same_in_every_trial_of_a_run(
        fmt: ToolCallFormat, variant: PromptVariant) -> None:
    systems = {system_prompt(briefing(mode, scenario), fmt, variant)
               for mode in ("all_tools", "dual_control", "oracle_plan")
               for scenario in ("discount-exception", "actuator-pairing")}
    assert len(systems) == 1
    tools = {json.dumps(tool_definitions(briefing(mode).tools, variant))
             for mode in ("all_tools", "dual_control")}
    assert len(tools) == 1


def test_two_modes_share_everything_but_the_varying_tail() -> None:
    for fmt in (CONTENT_JSON, ToolCallFormat.AUTO):
        dual, all_tools = prompt("dual_control", fmt), prompt("all_tools", fmt)
        shared = shared_prefix(dual, all_tools)
        tail = dual.index("# This conversation")
        assert shared >= tail  # the whole system message, then "# This conversation"
        assert dual[shared:].startswith("dual_control`.")
    content = prompt("dual_control", CONTENT_JSON)
    assert shared_prefix(content, prompt("all_tools", CONTENT_JSON)) >= 0.9 * len(content)


def test_the_first_request_sends_the_shared_system_message_then_the_trials_briefing(
        serve: Serve) -> None:
    server = serve(ReadThenEnd(reads=0))
    factory = llm_agent_factory(config(server.url))
    modes = [builtin_modes()["dual_control"], builtin_modes()["all_tools"]]
    asyncio.run(run_async([SCENARIO, OTHER], modes, factory))

    firsts = [r for r in server.requests if len(r["messages"]) == 2]
    assert len(firsts) == 4
    assert len({json.dumps(r["messages"][0]) for r in firsts}) == 1
    assert len({json.dumps(r["tools"]) for r in firsts}) == 1
    for request in firsts:
        system, opening = request["messages"]
        assert system["role"] == "system"
        assert opening["role"] == "user"
        assert opening["content"].startswith("# This conversation\nControl mode: `")
        assert "\n\nFrom buyer: " in opening["content"]


# -- briefings built by hand ---------------------------------------------------------------


def hand_built(policy: str, *, authority: bool = True) -> Briefing:
    mode = builtin_modes()["dual_control"]
    base = briefing("dual_control")
    return base.model_copy(update={
        "policy": policy, "authority": describe_authority(mode) if authority else {}})


def test_a_policy_without_the_mode_heading_is_kept_whole_in_the_system_message() -> None:
    policy = "# House rules\nQuote only stocked valves.\n"
    built = hand_built(policy)
    assert "# House rules\nQuote only stocked valves." in system_prompt(built)
    # Its authority is still stated, from the briefing's data, in the trial's part.
    assert MODE_SECTION_HEADING in trial_briefing(built)


def test_text_after_the_mode_section_is_kept_too() -> None:
    policy = (f"# House rules\nQuote only stocked valves.\n\n{MODE_SECTION_HEADING} (`x`)\n"
              "- approve: finance\n\n## Local note\nCall finance before noon.\n")
    built = hand_built(policy)
    text = prompt_text(built)
    for line in policy.strip().splitlines():
        assert line in text
    assert "Call finance before noon." in trial_briefing(built)


def test_without_authority_the_owners_of_each_action_are_listed() -> None:
    built = hand_built("Be nice.", authority=False)
    text = trial_briefing(built)
    assert "## Who holds each action in this mode" in text
    assert "- configure: agent (you)" in text


# -- compact -------------------------------------------------------------------------------


RULES = [
    # Facts
    "governed record", "draft datasheet", "design pressure", "medium temperature",
    "chlorides", "piping standard", "actuator flange", "certificate required on site",
    "never guess", "psi",
    # Fit and substitution
    "C1 actuator flange = valve flange", "C2 actuator torque >= 1.25 x valve breakaway",
    "C3 PN >= design pressure", "C4 medium temperature within the seat's range",
    "C5 end connection = piping standard", "C6 chlorides need a 316 body",
    "C7 a required 3.1", "S1 a superseded part is replaced only by its successor",
    "S2 a form-fit-function", "S3 a changed fit fact needs the buyer's",
    "technical owner's approval",
    # Authority
    "`request_action`", "citing evidence", "`follow_up`", "recover if declined",
    "`withdraw`", "tell the buyer", "Never claim another party acted",
    "on the current version", "justification", "finance's approval",
    "any edit needs a new one", "Never accept for the buyer", "three-way match",
    # Turns
    "plain text to the buyer", "`end`",
]


def test_the_compact_prompt_keeps_every_rule() -> None:
    text = prompt("dual_control", CONTENT_JSON, COMPACT)
    flat = " ".join(text.split())
    missing = [rule for rule in RULES if " ".join(rule.split()) not in flat]
    assert missing == []
    authority = describe_authority(builtin_modes()["dual_control"])
    for entry in authority.values():  # every action, with its holders and conditions
        holders = entry.sentence(Role.AGENT).partition(": ")[2]
        assert f"{entry.action.value}" in text
        assert f": {holders}\n" in text + "\n"


def test_the_compact_prompt_is_at_most_1500_tokens_by_characters_over_four() -> None:
    full = prompt("dual_control", CONTENT_JSON)
    compact = prompt("dual_control", CONTENT_JSON, COMPACT)
    assert len(compact) / 4 <= 1500
    assert len(compact) < len(full) / 3


def test_every_tool_can_be_called_from_its_compact_signature() -> None:
    text = system_prompt(briefing("dual_control"), CONTENT_JSON, COMPACT)
    for spec in tool_specs():
        assert f"{spec.name}(" in text or f"- {spec.name}: " in text, spec.name
        for argument in spec.parameters.get("required", []):  # type: ignore[union-attr]
            assert f"{argument}: " in text, (spec.name, argument)
    for values in ([a.value for a in Action], [r.value for r in Role],
                   ["ball_valve", "actuator", "gasket_kit"], ["eq", "min", "max"],
                   ["buyer", "technical_owner"]):
        assert "|".join(values) in text
    assert "ask(to: Role, facts: [dn|quantity|design_pressure|" in text
    assert "withdraw(handoff_id: str, reason: str)" in text
    assert "edit_lines(quote_id: str, lines: [{sku: str, quantity: int" in text


def test_compact_native_schemas_accept_and_refuse_what_the_full_ones_do() -> None:
    full = {d["function"]["name"]: d["function"]["parameters"]  # type: ignore[index]
            for d in tool_definitions(tool_specs())}
    bare = {d["function"]["name"]: d["function"]["parameters"]  # type: ignore[index]
            for d in tool_definitions(tool_specs(), COMPACT)}
    assert len(json.dumps(bare)) < 0.7 * len(json.dumps(full))
    assert '"title"' not in json.dumps(bare)
    samples: list[tuple[str, dict[str, Any], bool]] = [
        ("request_action", {"to": "finance", "action": "approve", "quote_id": "Q-1"}, True),
        ("request_action", {"to": "finance", "action": "bless", "quote_id": "Q-1"}, False),
        ("edit_lines", {"quote_id": "Q-1", "lines": [{"sku": "BV-1", "quantity": 2}]}, True),
        ("edit_lines", {"quote_id": "Q-1", "lines": []}, False),
        ("withdraw", {"handoff_id": "H-1"}, False),
        ("search_catalogue", {"family": "ball_valve", "constraints": [
            {"attribute": "pn", "op": "min", "value": 16, "unit": "bar"}]}, True),
        ("get_quote", {"quote_id": "Q-1", "extra": 1}, False),
    ]
    for name, arguments, valid in samples:
        for schema in (full[name], bare[name]):
            errors = list(jsonschema.Draft202012Validator(schema).iter_errors(arguments))
            assert (not errors) is valid, (name, arguments, errors)


def test_a_custom_policy_is_kept_as_written_in_the_compact_prompt() -> None:
    built = hand_built("# House rules\nQuote only stocked valves, never on a Friday.\n")
    text = system_prompt(built, CONTENT_JSON, COMPACT)
    assert "Quote only stocked valves, never on a Friday." in text
    assert "`request_action` to its owner opens a\nhand-off" in text


def test_the_compact_authority_is_the_modes_own_when_it_differs() -> None:
    built = hand_built(f"Rules.\n\n{MODE_SECTION_HEADING} (`x`)\n- approve: nobody at all\n")
    assert "- approve: nobody at all" in trial_briefing(built, COMPACT)
    shipped = briefing("dual_control")
    rendered = authority_prose(shipped.authority, mode="dual_control")
    assert rendered in trial_briefing(shipped)
    assert rendered not in trial_briefing(shipped, COMPACT)


# -- the fingerprint -----------------------------------------------------------------------


def test_the_prompt_hash_moves_with_format_and_variant() -> None:
    hashes = {prompt_hash(fmt, variant) for fmt in (ToolCallFormat.NATIVE, CONTENT_JSON)
              for variant in PromptVariant}
    assert len(hashes) == 4
    assert prompt_hash() == prompt_hash(ToolCallFormat.AUTO, PromptVariant.FULL)


def test_the_reference_briefing_is_the_orchestrators() -> None:
    ours = reference_briefing("dual_control")
    theirs = briefing("dual_control")
    assert ours.policy == theirs.policy
    assert ours.authority == theirs.authority
    assert ours.owners == theirs.owners


def test_the_prompt_is_deterministic() -> None:
    assert prompt("dual_control") == prompt("dual_control")
    assert prompt("dual_control", CONTENT_JSON, COMPACT) == prompt(
        "dual_control", CONTENT_JSON, COMPACT)
