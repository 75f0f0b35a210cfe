"""One line from an MCP client, checked (:func:`remit.mcp.wire.check_line`): what the SDK
cannot read is answered with a JSON-RPC error, what it can is passed on cleaned of lone
surrogates. ``test_mcp_raw_lines.py`` writes such lines to a spawned server."""

from __future__ import annotations

import json

import pytest
from mcp import types

from remit.mcp.wire import MAX_MESSAGE_DEPTH, check_line


def _call(request_id: int, tool: str, arguments: object) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}).encode()


def _nested(levels: int) -> str:
    return '{"a": ' * (levels - 1) + "{}" + "}" * (levels - 1)


@pytest.mark.parametrize(("line", "code", "request_id", "says"), [
    (b"hello", types.PARSE_ERROR, None, "Parse error: Expecting value"),
    (b"\xff\xfe{}", types.PARSE_ERROR, None, "the line is not UTF-8 (byte 0)"),
    (b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": NaN}}',
     types.PARSE_ERROR, None, "NaN is not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, types.PARSE_ERROR, None, "nests too deep to read"),
    (b"[1, 2]", types.INVALID_REQUEST, None, "a message is one JSON object"),
    (b'{"jsonrpc": "1.0", "id": 7, "method": "ping"}', types.INVALID_REQUEST, 7,
     'jsonrpc must be "2.0", not "1.0"'),
    (b'{"id": "q", "method": "ping"}', types.INVALID_REQUEST, "q",
     'jsonrpc must be "2.0", it is missing'),
    (b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', types.INVALID_REQUEST, None,
     "id must be a string or an integer, not true"),
    (b'{"jsonrpc": "2.0", "id": 3, "method": 5}', types.INVALID_REQUEST, 3,
     "not a JSON-RPC request, notification or response (method: "),
    (_call(4, "get_quote", json.loads(_nested(MAX_MESSAGE_DEPTH))), types.INVALID_REQUEST, 4,
     f"nests deeper than {MAX_MESSAGE_DEPTH} levels"),
])
def test_a_line_the_sdk_cannot_read_is_answered_with_a_json_rpc_error(
        line: bytes, code: int, request_id: int | str | None, says: str) -> None:
    answer = check_line(line)
    assert isinstance(answer, types.JSONRPCError)
    assert (answer.error.code, answer.id) == (code, request_id)
    assert says in answer.error.message
    assert len(answer.error.message) < 300


def test_a_readable_line_is_passed_on_with_lone_surrogates_replaced() -> None:
    passed = check_line(_call(1, "message\ud800", {"text\udc00": "hi \ud800"}) + b"\n")
    assert isinstance(passed, str)
    assert json.loads(passed)["params"] == {"name": "message\ufffd",
                                            "arguments": {"text\ufffd": "hi \ufffd"}}
    types.jsonrpc_message_adapter.validate_json(passed, by_name=False)
