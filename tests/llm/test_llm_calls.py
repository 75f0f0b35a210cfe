"""Reading calls out of replies: native calls, JSON in the content, and what models get wrong."""

from __future__ import annotations

import json

import pytest
from pydantic import JsonValue

from remit.actors.llm import (
    MAX_ARGUMENT_DEPTH,
    ReplyForm,
    ReplyIssue,
    ToolCallFormat,
    parse_reply,
)

AUTO = ToolCallFormat.AUTO
NATIVE = ToolCallFormat.NATIVE
CONTENT = ToolCallFormat.CONTENT_JSON


def native_message(*calls: tuple[str, JsonValue], content: str | None = None) -> JsonValue:
    return {"role": "assistant", "content": content, "tool_calls": [
        {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": args}}
        for i, (name, args) in enumerate(calls)]}


def test_a_native_call_is_read_with_its_id_and_arguments() -> None:
    reply = parse_reply(native_message(("get_quote", '{"quote_id": "Q-1"}')), NATIVE)
    assert [(c.id, c.tool, c.arguments, c.source) for c in reply.calls] == [
        ("c0", "get_quote", {"quote_id": "Q-1"}, "native")]
    assert reply.issues == ()
    assert reply.text == ""


@pytest.mark.parametrize(("raw", "reason"), [
    ('{"quote_id": "Q-1"', "not valid JSON"),
    ("[1, 2]", "JSON object, not a JSON array"),
    ('"Q-1"', "not a JSON string"),
])
def test_arguments_that_are_not_a_json_object_are_an_error_not_a_call(raw: str,
                                                                        reason: str) -> None:
    reply = parse_reply(native_message(("get_quote", raw)), AUTO)
    (call,) = reply.calls
    assert call.arguments is None
    assert call.error is not None
    assert reason in call.error
    assert call.raw_arguments == raw
    assert reply.issues == (ReplyIssue.INVALID_JSON,)


@pytest.mark.parametrize("raw", ["", None, {}])
def test_empty_or_object_arguments_are_accepted(raw: JsonValue) -> None:
    reply = parse_reply(native_message(("end", raw)), NATIVE)
    assert reply.calls[0].arguments == {}
    assert reply.issues == ()


def test_text_beside_calls_and_several_calls_are_flagged() -> None:
    reply = parse_reply(native_message(("get_quote", '{"quote_id": "Q-1"}'),
                                       ("get_order", '{"quote_id": "Q-1"}'),
                                       content="Let me look."), AUTO)
    assert [c.tool for c in reply.calls] == ["get_quote", "get_order"]
    assert reply.text == "Let me look."
    assert set(reply.forms) == {ReplyForm.TEXT_AND_CALLS, ReplyForm.SEVERAL_CALLS}
    assert reply.issues == ()


@pytest.mark.parametrize("message", [
    {"role": "assistant", "content": ""},
    {"role": "assistant", "content": None},
    {"role": "assistant", "content": "   \n"},
    None,
    "not an object",
])
def test_an_empty_or_unreadable_message_is_an_empty_reply(message: JsonValue) -> None:
    reply = parse_reply(message, AUTO)
    assert reply.calls == ()
    assert reply.issues == (ReplyIssue.EMPTY_REPLY,)


CALL = {"name": "get_product", "arguments": {"sku": "BV-1"}}


@pytest.mark.parametrize("content", [
    json.dumps(CALL),
    "```json\n" + json.dumps(CALL) + "\n```",
    "```\n" + json.dumps(CALL) + "\n```",
    json.dumps({"tool": "get_product", "parameters": {"sku": "BV-1"}}),
    json.dumps({"name": "get_product", "arguments": json.dumps({"sku": "BV-1"})}),
    json.dumps({"type": "function", "function": CALL}),
])
@pytest.mark.parametrize("fmt", [AUTO, CONTENT])
def test_a_call_written_in_the_content_is_read_in_auto_and_content_json(
        content: str, fmt: ToolCallFormat) -> None:
    reply = parse_reply({"role": "assistant", "content": content}, fmt)
    assert [(c.tool, c.arguments, c.source, c.id) for c in reply.calls] == [
        ("get_product", {"sku": "BV-1"}, "content", None)]
    assert reply.forms == (ReplyForm.CONTENT_JSON_CALL,)
    assert reply.issues == ()


def test_native_format_never_reads_the_content_as_a_call() -> None:
    reply = parse_reply({"role": "assistant", "content": json.dumps(CALL)}, NATIVE)
    assert reply.calls == ()
    assert reply.text == json.dumps(CALL)


def test_prose_around_a_fenced_call_is_text_beside_a_call() -> None:
    content = "I will read the product.\n```json\n" + json.dumps(CALL) + "\n```"
    reply = parse_reply({"role": "assistant", "content": content}, AUTO)
    assert reply.calls[0].tool == "get_product"
    assert reply.text == "I will read the product."
    assert ReplyForm.TEXT_AND_CALLS in reply.forms


def test_native_calls_win_over_json_in_the_content() -> None:
    message = native_message(("get_quote", '{"quote_id": "Q-1"}'), content=json.dumps(CALL))
    reply = parse_reply(message, AUTO)
    assert [c.tool for c in reply.calls] == ["get_quote"]


@pytest.mark.parametrize("content", [
    "The valve is rated PN 40 {see datasheet}.",
    '{"answer": 42}',
    "```json\n{\"dn\": 80}\n```",
    "Plain prose, no JSON at all.",
])
def test_auto_reads_text_that_is_no_call_as_text(content: str) -> None:
    reply = parse_reply({"role": "assistant", "content": content}, AUTO)
    assert reply.calls == ()
    assert reply.text == content.strip()
    assert reply.issues == ()


def test_a_broken_call_in_the_content_is_invalid_json_in_auto() -> None:
    content = '```json\n{"name": "get_quote", "arguments": {"quote_id": "Q-1"\n```'
    reply = parse_reply({"role": "assistant", "content": content}, AUTO)
    (call,) = reply.calls
    assert call.tool == "get_quote"
    assert call.error is not None
    assert "not valid JSON" in call.error
    assert ReplyIssue.INVALID_JSON in reply.issues


def test_content_json_reads_a_list_of_calls_but_auto_does_not() -> None:
    content = json.dumps([CALL, {"name": "end", "arguments": {}}])
    several = parse_reply({"role": "assistant", "content": "```json\n" + content + "\n```"},
                          CONTENT)
    assert [c.tool for c in several.calls] == ["get_product", "end"]
    assert ReplyForm.SEVERAL_CALLS in several.forms
    wrapped = parse_reply({"content": json.dumps({"tool_calls": [CALL]})}, CONTENT)
    assert [c.tool for c in wrapped.calls] == ["get_product"]
    auto = parse_reply({"role": "assistant", "content": "```json\n" + content + "\n```"}, AUTO)
    assert auto.calls == ()


def test_content_json_treats_any_broken_json_block_as_a_failed_call() -> None:
    reply = parse_reply({"content": "```json\n{oops}\n```"}, CONTENT)
    (call,) = reply.calls
    assert call.tool == ""
    assert reply.forms == (ReplyForm.CONTENT_JSON_CALL,)
    assert reply.issues == (ReplyIssue.INVALID_JSON,)


def test_a_native_call_without_an_id_gets_a_stable_one() -> None:
    message = {"content": None, "tool_calls": [
        {"function": {"name": "get_quote", "arguments": {"quote_id": "Q-1"}}}]}
    reply = parse_reply(message, NATIVE)
    assert reply.calls[0].id == "call_0"
    assert reply.calls[0].arguments == {"quote_id": "Q-1"}


@pytest.mark.parametrize("content", [
    '{"name": "configure", "arguments": {"quote_id": "Q-1", "lines": [{"sku": "BV',
    '```json\n{"name": "get_quote", "arguments": {"quote_id": "Q-1"}}',
    '{"name": "get_quote", "arguments": {"quote_id": "Q-1"}}',
    "Thank you for your request. To choose the right",
])
@pytest.mark.parametrize("fmt", [AUTO, CONTENT, NATIVE])
def test_a_reply_cut_off_at_max_tokens_has_no_call_and_is_truncated(
        content: str, fmt: ToolCallFormat) -> None:
    reply = parse_reply({"role": "assistant", "content": content}, fmt, finish_reason="length")
    assert reply.truncated
    assert reply.calls == ()
    assert reply.issues == (ReplyIssue.TRUNCATED,)
    assert reply.content == content


def test_native_calls_cut_off_at_max_tokens_are_kept_only_to_be_answered() -> None:
    message = native_message(("get_quote", '{"quote_id": "Q-1"}'), ("configure", '{"quo'))
    reply = parse_reply(message, AUTO, finish_reason="length")
    assert [c.tool for c in reply.calls] == ["get_quote", "configure"]
    assert all(c.error is not None and "cut off at max_tokens" in c.error for c in reply.calls)
    assert reply.issues == (ReplyIssue.TRUNCATED,)


@pytest.mark.parametrize("finish_reason", ["stop", "tool_calls", None, 7])
def test_other_finish_reasons_read_as_before(finish_reason: JsonValue) -> None:
    reply = parse_reply(native_message(("get_quote", '{"quote_id": "Q-1"}')), AUTO,
                        finish_reason=finish_reason)
    assert not reply.truncated
    assert reply.calls[0].arguments == {"quote_id": "Q-1"}
    assert reply.issues == ()


def nested(depth: int) -> str:
    return '{"a": ' * (depth - 1) + "{}" + "}" * (depth - 1)


@pytest.mark.parametrize("depth", [33, 300, 1_000, 100_000])
@pytest.mark.parametrize("fmt", [AUTO, CONTENT])
def test_arguments_nested_too_deep_are_invalid_json_in_either_place(
        depth: int, fmt: ToolCallFormat) -> None:
    for message in (native_message(("get_quote", nested(depth))),
                    {"content": '{"name": "get_quote", "arguments": ' + nested(depth) + "}"}):
        reply = parse_reply(message, fmt)
        (call,) = reply.calls
        assert call.tool == "get_quote"
        assert call.arguments is None
        assert call.error is not None
        assert "deeper than 32 levels" in call.error
        assert reply.issues == (ReplyIssue.INVALID_JSON,)


def test_arguments_nested_up_to_the_limit_are_read() -> None:
    reply = parse_reply(native_message(("get_quote", nested(MAX_ARGUMENT_DEPTH))), AUTO)
    assert reply.calls[0].arguments is not None
    assert reply.issues == ()


def test_a_number_too_long_to_convert_is_invalid_json() -> None:
    reply = parse_reply(native_message(("get_quote", '{"n": ' + "9" * 5000 + "}")), AUTO)
    assert reply.calls[0].error is not None
    assert reply.calls[0].error.startswith("arguments are not valid JSON (")
    assert reply.issues == (ReplyIssue.INVALID_JSON,)
