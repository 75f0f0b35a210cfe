"""Hostile model replies never raise out of the LLM agent: each comes back to the model as
an error it can act on (or is delivered cleaned), the trial goes on, and the trial, its
cassette and its next requests can always be written.

Replies 100,000 levels deep are covered by ``test_llm_agent.py``
(``test_arguments_nested_absurdly_deep_are_an_invalid_json_error_not_a_crash``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from remit.actors.llm import CacheMode, ReplyIssue
from remit.authority import Role
from remit.world import ErrorEntry, MessageEntry, ToolCallEntry, World
from tests.llm.conftest import Serve
from tests.llm.fake_server import Reply, call, native, text
from tests.llm.play import config, play

END = call("end", summary="done")
LONE = "\ud800"


def _stored(world: World) -> None:
    """Every entry of the trail serialises as a store writes it (UTF-8 JSON)."""
    for entry in world.trail:
        entry.model_dump_json().encode()


def _answer(request: dict[str, Any]) -> dict[str, Any]:
    """The tool result the model was sent last in ``request``."""
    answer = json.loads(request["messages"][-1]["content"])
    assert isinstance(answer, dict)
    return answer


def _agent_calls(world: World) -> list[ToolCallEntry]:
    return [e for e in world.trail if isinstance(e, ToolCallEntry) and e.actor is Role.AGENT]


@pytest.mark.parametrize("written", [f'"Q-1{LONE}"', '"Q-1\\ud800"'],
                         ids=["raw", "escaped"])
def test_a_lone_surrogate_in_arguments_is_replaced_and_answered(serve: Serve,
                                                                 written: str) -> None:
    server = serve([native(("get_quote", '{"quote_id": ' + written + "}")), END])
    world, _ = play(config(server.url))

    assert [(c.tool, c.arguments) for c in _agent_calls(world)] == [
        ("get_quote", {"quote_id": "Q-1\ufffd"}), ("end", {"summary": "done"})]
    error = _answer(server.requests[1])["error"]
    assert error["code"] == "not_found"
    assert error["message"].startswith("no quote id='Q-1\ufffd'; the quotes are: ")
    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    _stored(world)


def test_a_lone_surrogate_in_a_tool_name_is_an_unknown_tool(serve: Serve) -> None:
    server = serve([native((f"get_quote{LONE}", "{}")), END])
    world, agent = play(config(server.url))

    assert _agent_calls(world)[0].tool == "get_quote\ufffd"
    assert _answer(server.requests[1])["error"]["code"] == "unknown_tool"
    assert agent.stats.issues == {ReplyIssue.UNKNOWN_TOOL: 1}
    _stored(world)


def test_a_lone_surrogate_in_text_is_delivered_cleaned_and_recorded(
        serve: Serve, tmp_path: Path) -> None:
    server = serve([text(f"Hello {LONE}, which pressure?"), END])
    world, _ = play(config(server.url, cache_mode=CacheMode.RECORD, cassette_dir=tmp_path))

    [sent] = [e for e in world.trail if isinstance(e, MessageEntry) and e.sender is Role.AGENT]
    assert sent.text == "Hello \ufffd, which pressure?"
    assert server.requests[1]["messages"][-2] == {"role": "assistant",
                                                  "content": "Hello \ufffd, which pressure?"}
    [cassette] = tmp_path.rglob("*.json")
    assert "Hello \ufffd" in cassette.read_text(encoding="utf-8")
    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    _stored(world)


def test_a_2_mb_argument_string_is_refused_by_the_world_and_the_trial_goes_on(
        serve: Serve) -> None:
    huge = json.dumps({"to": "buyer", "text": "x" * 2_000_000})
    server = serve([native(("message", huge)), call("get_quote", quote_id="Q-1"), END])
    world, agent = play(config(server.url))

    error = _answer(server.requests[1])["error"]
    assert error["code"] == "bad_arguments"
    assert error["message"] == ("bad arguments for message: the string at text has 2000000 "
                                "characters, more than the limit of 8192; fix them and call "
                                "again")
    recorded = _agent_calls(world)[0].arguments
    assert set(recorded) == {"not_recorded", "prefix"}
    assert len(json.dumps(recorded)) < 500
    assert [c.tool for c in _agent_calls(world)] == ["message", "get_quote", "end"]
    assert agent.stats.issues == {ReplyIssue.BAD_ARGUMENTS: 1}
    assert not [e for e in world.trail if isinstance(e, MessageEntry) and e.sender is Role.AGENT]
    _stored(world)


def test_an_unreadable_call_is_quoted_short_to_the_model(serve: Serve) -> None:
    broken = '{"quote_id": "' + "Q" * 100_000
    server = serve([native(("get_quote", broken)), END])
    world, _ = play(config(server.url))

    error = json.loads(server.requests[1]["messages"][-2]["content"])["error"]
    assert error["code"] == "invalid_json"
    assert "… (100014 chars). Call it again" in error["message"]
    assert len(error["message"]) < 600
    assert [c.tool for c in _agent_calls(world)] == ["end"]
    assert not [e for e in world.trail if isinstance(e, ErrorEntry) and e.actor is Role.AGENT]


def test_a_reply_of_every_hostile_kind_at_once_never_raises(serve: Serve) -> None:
    nested = '{"a": ' * 100_000 + "1" + "}" * 100_000
    server = serve([
        Reply(content=f"{LONE}", tool_calls=(
            ("get_quote", nested),
            (f"{LONE}" * 10_000, json.dumps({"k": "v" * 2_000_000})),
            ("get_quote", json.dumps({"quote_id": "Q-1", LONE: LONE})))),
        END])
    world, agent = play(config(server.url))

    assert [c.tool for c in _agent_calls(world)] == ["\ufffd" * 128 + "… (10000 chars)",
                                                     "get_quote", "end"]
    assert world.ended is not None
    assert world.ended.reason == "agent_end"
    assert agent.stats.issues == {ReplyIssue.INVALID_JSON: 1, ReplyIssue.UNKNOWN_TOOL: 1,
                                  ReplyIssue.BAD_ARGUMENTS: 1}
    _stored(world)
