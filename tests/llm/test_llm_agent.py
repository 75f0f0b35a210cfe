"""The LLM agent against a fake server: what models really do, each handled and counted."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from remit.actors import Observation
from remit.actors.llm import (
    ReplyForm,
    ReplyIssue,
    ToolCallFormat,
    ToolResultsAs,
    llm_agent_factory,
)
from remit.authority import Role, builtin_modes
from remit.harness.orchestrator import briefing_for
from remit.scenarios.builtin import scenario_by_id
from remit.world import ErrorEntry, MessageEntry, ToolCall, ToolCallEntry, ToolResult, World
from tests.llm.conftest import Serve
from tests.llm.fake_server import (
    ReadThenEnd,
    Reply,
    call,
    cut_off,
    native,
    text,
)
from tests.llm.play import SCENARIO, assert_valid_history, config, info, play

QUOTE = '{"quote_id": "Q-1"}'
END = call("end", summary="done")


def agent_calls(world: World) -> list[tuple[str, dict[str, Any]]]:
    return [(e.tool, dict(e.arguments)) for e in world.trail
            if isinstance(e, ToolCallEntry) and e.actor is Role.AGENT]


def agent_errors(world: World) -> list[str]:
    return [e.code for e in world.trail if isinstance(e, ErrorEntry) and e.actor is Role.AGENT]


def test_text_without_a_call_is_a_message_to_the_buyer_who_answers(serve: Serve) -> None:
    server = serve([text("Which design pressure do you need?"), END])
    world, agent = play(config(server.url))

    assert agent_calls(world)[0] == ("message", {"to": "buyer",
                                                 "text": "Which design pressure do you need?"})
    answers = [e for e in world.trail if isinstance(e, MessageEntry) and e.to is Role.AGENT]
    last_user = server.requests[1]["messages"][-1]
    assert last_user["role"] == "user"
    assert last_user["content"] == f"From buyer: {answers[-1].text}"
    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    assert agent.stats.issues == {}


def test_invalid_json_arguments_are_answered_with_an_error_and_the_model_asked_again(
        serve: Serve) -> None:
    server = serve([native(("get_quote", '{"quote_id": "Q-1"')), call("get_quote",
                                                                       quote_id="Q-1"), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "end"]
    second = server.requests[1]["messages"]
    answer, note = second[-2:]
    assert "None of the calls in your last reply could be made" in note["content"]
    assert answer["role"] == "tool"
    assert answer["tool_call_id"] == "call_0_0"
    error = json.loads(answer["content"])["error"]
    assert error["code"] == "invalid_json"
    assert "not valid JSON" in error["message"]
    assert '{"quote_id": "Q-1"' in error["message"]
    assert second[-3]["tool_calls"][0]["function"]["arguments"] == "{}"
    assert_valid_history(second)
    assert agent.stats.issues == {ReplyIssue.INVALID_JSON: 1}
    assert agent.stats.malformed_calls == 1


@pytest.mark.parametrize(("reply", "code", "issue"), [
    (call("teleport", to="mars"), "unknown_tool", ReplyIssue.UNKNOWN_TOOL),
    (call("get_product", sku=42), "bad_arguments", ReplyIssue.BAD_ARGUMENTS),
    (native(("configure", '{"quote_id": "Q-1", "colour": "red"}')), "bad_arguments",
     ReplyIssue.BAD_ARGUMENTS),
])
def test_unknown_tools_and_wrong_types_are_refused_by_the_world_and_counted(
        serve: Serve, reply: Reply, code: str, issue: ReplyIssue) -> None:
    server = serve([reply, END])
    world, agent = play(config(server.url))

    assert agent_errors(world) == [code]
    result = json.loads(server.requests[1]["messages"][-1]["content"])
    assert result["ok"] is False
    assert result["error"]["code"] == code
    assert agent.stats.issues == {issue: 1}
    assert world.ended is not None
    assert world.ended.reason == "agent_end"


def test_text_beside_a_call_is_kept_in_history_but_not_sent(serve: Serve) -> None:
    server = serve([native(("get_quote", QUOTE), content="Reading the quote now."), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "end"]
    assert not any(isinstance(e, MessageEntry) and e.text == "Reading the quote now."
                   for e in world.trail)
    assistant = server.requests[1]["messages"][-2]
    assert assistant["content"] == "Reading the quote now."
    assert agent.stats.issues == {}
    assert agent.stats.forms == {ReplyForm.TEXT_AND_CALLS: 1}


def test_several_calls_in_one_reply_are_made_in_order_each_with_its_result(
        serve: Serve) -> None:
    server = serve([native(("get_quote", QUOTE), ("get_order", QUOTE),
                           ("get_site_facts", '{"owner": "buyer"}')), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "get_order",
                                                         "get_site_facts", "end"]
    assert len(server.requests) == 2  # one model call for the three calls
    messages = server.requests[1]["messages"]
    answers = [m for m in messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in answers] == ["call_0_0", "call_0_1", "call_0_2"]
    assert json.loads(answers[0]["content"])["ok"] is True
    assert json.loads(answers[2]["content"])["error"]["code"] == "not_visible"
    assert_valid_history(messages)
    assert agent.stats.issues == {}
    assert agent.stats.forms == {ReplyForm.SEVERAL_CALLS: 1}


def test_an_invalid_call_among_valid_ones_is_answered_and_the_others_made(
        serve: Serve) -> None:
    server = serve([native(("get_quote", QUOTE), ("get_order", "{oops")), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "end"]
    messages = server.requests[1]["messages"]
    assert_valid_history(messages)
    codes = [json.loads(m["content"]).get("error") for m in messages if m["role"] == "tool"]
    assert codes[0]["code"] == "invalid_json"  # answered at once, before the valid call ran
    assert codes[1] is None
    assert agent.stats.issues == {ReplyIssue.INVALID_JSON: 1}
    assert agent.stats.forms == {ReplyForm.SEVERAL_CALLS: 1}


def test_an_empty_reply_gets_a_note_and_the_model_is_asked_again(serve: Serve) -> None:
    server = serve([text(""), Reply(content=None), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["end"]
    note = server.requests[1]["messages"][-1]
    assert note["role"] == "user"
    assert "Your last reply was empty" in note["content"]
    assert agent.stats.empty_replies == 2
    assert agent.stats.model_calls == 3


def test_too_many_unusable_replies_in_a_row_end_the_trial_as_agent_error(
        serve: Serve) -> None:
    server = serve([text(""), native(("get_quote", "{")), text(""), END])
    world, agent = play(config(server.url, max_reply_errors=3))

    assert world.ended is not None
    assert world.ended.reason == "agent_error"
    assert "LlmReplyError" in world.ended.summary
    assert "3 unusable replies in a row" in world.ended.summary
    assert "last: empty_reply" in world.ended.summary
    assert agent_calls(world) == []
    assert agent.stats.empty_replies == 2
    assert agent.stats.issues[ReplyIssue.INVALID_JSON] == 1


def test_a_model_that_never_calls_end_runs_into_the_step_budget(serve: Serve) -> None:
    server = serve(ReadThenEnd(reads=1000))
    world, agent = play(config(server.url), max_steps=5)

    assert world.ended is not None
    assert world.ended.reason == "max_steps"
    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "get_order"] * 2 + [
        "get_quote"]
    assert agent.stats.model_calls == 5
    assert agent.stats.issues == {}


@pytest.mark.parametrize(("last", "code"), [(call("teleport", to="mars"), "unknown_tool"),
                                            (call("get_product", sku=42), "bad_arguments")])
def test_the_last_calls_world_error_is_counted_when_the_step_budget_ends_the_trial(
        serve: Serve, last: Reply, code: str) -> None:
    server = serve([call("get_quote", quote_id="Q-1"), last])
    world, agent = play(config(server.url), max_steps=2)

    assert world.ended is not None
    assert world.ended.reason == "max_steps"
    assert agent_errors(world) == [code]
    assert len(server.requests) == 2  # the model is not asked again
    assert agent.usage().reply_issues == {code: 1}


def test_the_same_call_again_with_nothing_in_between_is_not_made_and_the_model_is_told(
        serve: Serve) -> None:
    server = serve([call("get_quote", quote_id="Q-1"), call("get_quote", quote_id="Q-1"),
                    call("get_order", quote_id="Q-1"), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "get_order", "end"]
    messages = server.requests[2]["messages"]
    answer, note = messages[-2:]
    assert answer["tool_call_id"] == "call_1_0"
    error = json.loads(answer["content"])["error"]
    assert error["code"] == "repeated_call"
    assert "nothing has happened since" in error["message"]
    assert "each repeated the call you had just made" in note["content"]
    assert_valid_history(messages)
    assert agent.usage().reply_issues == {"repeated_call": 1}


def test_a_model_stuck_repeating_one_call_ends_as_an_agent_error(serve: Serve) -> None:
    server = serve(lambda body: call("get_quote", quote_id="Q-1"))
    world, agent = play(config(server.url, max_reply_errors=3), max_steps=40)

    assert world.ended is not None
    assert world.ended.reason == "agent_error"
    assert "3 unusable replies in a row" in world.ended.summary
    assert "last: repeated_call" in world.ended.summary
    assert "Try --tool-results-as user" in world.ended.summary
    assert [tool for tool, _ in agent_calls(world)] == ["get_quote"]
    assert agent.stats.issues == {ReplyIssue.REPEATED_CALL: 3}


def test_the_same_call_after_a_party_answered_is_made(serve: Serve) -> None:
    nudge = call("message", to="buyer", text="Is there anything else you need?")
    server = serve([nudge, nudge, END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["message", "message", "end"]
    assert agent.stats.issues == {}


@pytest.mark.parametrize(("step", "made"), [(2, False), (4, True)])
def test_the_same_call_is_made_again_only_if_the_world_moved_on(serve: Serve, step: int,
                                                                made: bool) -> None:
    quote = call("get_quote", quote_id="Q-1")
    server = serve([quote, quote, END])
    agent = llm_agent_factory(config(server.url))(info())
    control = builtin_modes()["dual_control"]
    result = ToolResult(tool="get_quote", ok=True, content={"id": "Q-1"})

    async def go() -> tuple[ToolCall, ToolCall]:
        await agent.start(briefing_for(scenario_by_id(SCENARIO), control))
        first = await agent.act(Observation(step=1, minute=0))
        # Step 2: only the agent's call happened. Step 4: others acted too (say, the
        # system expired the quote), so reading it again may tell something new.
        return first, await agent.act(Observation(step=step, minute=1, result=result))

    first, second = asyncio.run(go())
    assert first.tool == "get_quote"
    assert (second == first) is made
    assert agent.usage().reply_issues == ({} if made else {"repeated_call": 1})


TRUNCATED_CALL = '{"name": "configure", "arguments": {"quote_id": "Q-1", "lines": [{"sku": "BV'


@pytest.mark.parametrize("reply", [
    cut_off(TRUNCATED_CALL),
    cut_off("```json\n" + TRUNCATED_CALL),
    cut_off("Thank you for your request. To choose the right valve I need the design"),
    cut_off('{"name": "get_quote", "arguments": {"quote_id": "Q-1"}}'),
], ids=["unfinished-call", "unclosed-fence", "plain-text", "complete-looking-call"])
def test_a_reply_cut_off_at_max_tokens_is_never_sent_nor_made(serve: Serve,
                                                              reply: Reply) -> None:
    server = serve([reply, END])
    world, agent = play(config(server.url, max_tokens=64))

    assert [tool for tool, _ in agent_calls(world)] == ["end"]
    assert not [e for e in world.trail if isinstance(e, MessageEntry) and e.sender is Role.AGENT]
    assistant, note = server.requests[1]["messages"][-2:]
    assert assistant == {"role": "assistant", "content": reply.content}
    assert note["role"] == "user"
    assert note["content"].startswith("Your last reply was cut off at max_tokens=64 before "
                                      "it ended, so nothing in it was sent or made.")
    assert agent.usage().reply_issues == {"truncated": 1}


def test_a_native_call_cut_off_at_max_tokens_is_answered_and_not_made(serve: Serve) -> None:
    server = serve([cut_off(None, ("get_quote", '{"quote_id": "Q-1"}'),
                            ("configure", '{"quote_id": "Q-')), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["end"]
    messages = server.requests[1]["messages"]
    assert_valid_history(messages)
    answers = [json.loads(m["content"])["error"] for m in messages if m["role"] == "tool"]
    assert [a["code"] for a in answers] == ["truncated", "truncated"]
    assert "cut off at max_tokens" in answers[1]["message"]
    assert "cut off at max_tokens=1024" in messages[-1]["content"]
    assert agent.stats.issues == {ReplyIssue.TRUNCATED: 1}


def test_replies_cut_off_again_and_again_end_the_trial_as_an_agent_error(
        serve: Serve) -> None:
    server = serve([cut_off(TRUNCATED_CALL)] * 3)
    world, agent = play(config(server.url))

    assert world.ended is not None
    assert world.ended.reason == "agent_error"
    assert "last: truncated" in world.ended.summary
    assert "Raise --max-tokens" in world.ended.summary
    assert agent.stats.issues == {ReplyIssue.TRUNCATED: 3}


@pytest.mark.parametrize("depth", [300, 100_000])
def test_arguments_nested_absurdly_deep_are_an_invalid_json_error_not_a_crash(
        serve: Serve, depth: int) -> None:
    nested = '{"a": ' * depth + "1" + "}" * depth
    server = serve([native(("get_quote", nested)),
                    text('{"name": "get_quote", "arguments": ' + nested + "}"), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["end"]
    answer = json.loads(server.requests[1]["messages"][-2]["content"])["error"]
    assert answer["code"] == "invalid_json"
    assert "deeper than 32 levels" in answer["message"]
    assert "deeper than 32 levels" in server.requests[2]["messages"][-1]["content"]
    assert agent.stats.issues == {ReplyIssue.INVALID_JSON: 2}


def test_auto_format_takes_native_and_content_calls_within_one_trial(serve: Serve) -> None:
    server = serve([call("get_quote", quote_id="Q-1"),
                    text('```json\n{"name": "get_order", "arguments": {"quote_id": "Q-1"}}\n```'),
                    native(("get_site_facts", '{"owner": "technical_owner"}')),
                    text('{"name": "end", "arguments": {"summary": "done"}}')])
    world, agent = play(config(server.url, tool_call_format=ToolCallFormat.AUTO))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "get_order",
                                                         "get_site_facts", "end"]
    messages = server.requests[3]["messages"]
    assert_valid_history(messages)
    assert [m["tool_call_id"] for m in messages if m["role"] == "tool"] == ["call_0_0",
                                                                            "call_2_0"]
    assert any(m["role"] == "user" and m["content"].startswith("Result of get_order: ")
               for m in messages)
    assert agent.stats.issues == {}
    assert agent.stats.forms == {ReplyForm.CONTENT_JSON_CALL: 2}


def test_results_as_user_keep_calls_as_json_content_and_send_no_tool_role(
        serve: Serve) -> None:
    server = serve([call("get_quote", quote_id="Q-1"), native(("get_order", QUOTE),
                                                              ("get_quote", QUOTE)), END])
    world, _ = play(config(server.url, tool_results_as=ToolResultsAs.USER))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "get_order", "get_quote",
                                                         "end"]
    messages = server.requests[2]["messages"]
    assert all(m["role"] in ("system", "user", "assistant") for m in messages)
    assert all("tool_calls" not in m for m in messages)
    assert messages[2] == {"role": "assistant",
                           "content": '{"arguments":{"quote_id":"Q-1"},"name":"get_quote"}'}
    assert messages[3]["content"].startswith('Result of get_quote: {"content":')
    last = messages[-1]["content"]
    assert last.index("Result of get_order:") < last.index("Result of get_quote:")
    assert_valid_history(messages)


def test_content_json_format_describes_tools_in_the_prompt_and_reads_calls_from_content(
        serve: Serve) -> None:
    server = serve([text('```json\n{"name": "get_quote", "arguments": {"quote_id": "Q-1"}}\n```'),
                    text('{"name": "end", "arguments": {"summary": "done"}}')])
    world, agent = play(config(server.url, tool_call_format=ToolCallFormat.CONTENT_JSON))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "end"]
    first = server.requests[0]
    assert "tools" not in first
    assert '{"name": "TOOL", "arguments": {...}}' in first["messages"][0]["content"]
    assert "- get_quote: Read a quote" in first["messages"][0]["content"]
    result = server.requests[1]["messages"][-1]
    assert result["role"] == "user"
    assert result["content"].startswith("Result of get_quote: ")
    assert agent.stats.issues == {}
    assert agent.stats.forms == {ReplyForm.CONTENT_JSON_CALL: 2}


def test_auto_format_sends_tools_and_still_reads_a_call_a_small_model_writes_as_text(
        serve: Serve) -> None:
    server = serve([text('{"name": "get_quote", "arguments": {"quote_id": "Q-1"}}'), END])
    world, agent = play(config(server.url))

    assert [tool for tool, _ in agent_calls(world)] == ["get_quote", "end"]
    assert len(server.requests[0]["tools"]) == 31
    assert server.requests[0]["tools"][0]["function"]["name"] == "search_catalogue"
    assert agent.stats.issues == {}
    assert agent.stats.forms == {ReplyForm.CONTENT_JSON_CALL: 1}


def test_native_format_sends_a_json_looking_reply_to_the_buyer(serve: Serve) -> None:
    content = '{"name": "get_quote", "arguments": {"quote_id": "Q-1"}}'
    server = serve([text(content), END])
    world, _ = play(config(server.url, tool_call_format=ToolCallFormat.NATIVE))

    assert agent_calls(world)[0] == ("message", {"to": "buyer", "text": content})


def test_sampling_options_are_sent_and_unset_ones_left_out(serve: Serve) -> None:
    server = serve([END, END])
    play(config(server.url, temperature=0.3, max_tokens=256, seed=11))
    play(config(server.url, temperature=None, max_tokens=None))

    first, second = server.requests
    assert (first["temperature"], first["max_tokens"], first["seed"]) == (0.3, 256, 11)
    assert first["model"] == "fake-model"
    assert not {"temperature", "max_tokens", "seed", "tool_choice"} & set(second)


def test_tokens_are_summed_from_usage(serve: Serve) -> None:
    server = serve([call("get_quote", quote_id="Q-1"), END])
    _, agent = play(config(server.url))

    sent = [len(json.dumps(r["messages"])) // 4 for r in server.requests]
    assert agent.stats.prompt_tokens == sum(sent)
    assert agent.stats.completion_tokens > 0
    assert agent.stats.cost is None
