"""The fuzz property over MCP: ``remit mcp serve`` answers everything a client sends.

Two tests, each serving one trial (a handwritten scenario in dual-control) over stdio:

- **The official client** (``mcp``'s ``ClientSession``, spawned as ``tests/mcp``
  does): for a handful of generated call lists (:func:`tests.fuzz.strategies.calls` and
  hostile ``end`` summaries), every call the client can send gets a response (a tool
  result or a JSON-RPC error) within :data:`~tests.fuzz.stdio.ANSWER_SECONDS`, the
  server still answers ``get_quote`` afterwards, and the stored run passes the fuzz
  property of :mod:`tests.fuzz.pipeline` (every trial stored, every report and terminal
  view clean). Calls the official client cannot serialise (a lone surrogate, nesting
  past about 250 levels) are the raw test's.
- **Raw lines** (:class:`tests.fuzz.stdio.RawServer`, with a hostile client name): each
  line of :data:`RAW_LINES` (not JSON, truncated JSON, a wrong or missing ``jsonrpc``
  version, no method, params that are no object, a bare number, array or null, lone
  surrogates as escapes and as raw bytes, 1,000 and 100,000 levels of nesting, a 1 MB
  argument) gets its JSON-RPC answer: with the line's id, or ``null`` when the id cannot
  be read; an error where the line is no valid request. Then the server answers
  ``tools/list`` and a ``get_quote`` call (it keeps serving), exits 0 when stdin closes,
  and its stored run passes the same property, its stderr the terminal rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import anyio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import ClientSession, MCPError, types

from tests.fuzz.agents import Step, decode
from tests.fuzz.checks import Finding, check_terminal
from tests.fuzz.pipeline import Played, check_stored, environment
from tests.fuzz.stdio import ANSWER_SECONDS, RawServer
from tests.fuzz.strategies import calls, ends
from tests.mcp.spawn import Served

SCENARIO = "discount-exception"
MODE = "dual_control"
QUOTE = {"quote_id": "Q-1"}
HOSTILE_CLIENT = ("fz\x1b[31m<script>alert(1)</script>\u202e[bold]fz-bold[/bold]",
                  "1\x1b]0;x\x07")
"""A client name and version with hostile text: they name the stored run's agent."""


def _sendable(tool: Any, arguments: Any) -> bool:
    """Whether the official client can write this call at all (its serialiser refuses
    lone surrogates and nesting past about 250 levels)."""
    if not isinstance(tool, str):
        return False
    message = types.JSONRPCRequest(jsonrpc="2.0", id=1, method="tools/call",
                                   params={"name": tool, "arguments": arguments})
    try:
        message.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")
    except (ValueError, RecursionError):
        return False
    return True


def _check_run(played: Played, tmp: Path, db: Path, log: str) -> None:
    """The stored run of a served trial, and the server's stderr."""
    played.findings += check_terminal("server stderr", log)
    env = environment(None)
    check_stored(played, tmp, str(db), env, planned=1)


# -- the official client ----------------------------------------------------------------------


async def _play_calls(session: ClientSession, script: list[Step], played: Played) -> None:
    for number, step in enumerate(script, start=1):
        tool, arguments = decode(step["tool"]), decode(step["arguments"])
        if not _sendable(tool, arguments):
            continue
        where = f"call {number} ({str(tool)[:40]!a})"
        try:
            with anyio.fail_after(ANSWER_SECONDS):
                await session.call_tool(tool, arguments)
        except MCPError:
            pass  # a JSON-RPC error is an answer
        except TimeoutError:
            played.findings.append(Finding(where, "no-answer",
                                           f"no response within {ANSWER_SECONDS:g} s"))
            return
    try:
        with anyio.fail_after(ANSWER_SECONDS):
            after = await session.call_tool("get_quote", QUOTE)
    except (MCPError, TimeoutError) as exc:
        played.findings.append(Finding("get_quote after the calls", "no-answer",
                                       f"{type(exc).__name__}: {str(exc)[:120]!a}"))
        return
    if not after.content:
        played.findings.append(Finding("get_quote after the calls", "no-answer", "empty"))


@settings(max_examples=5, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(script=st.lists(st.one_of(calls(), ends), min_size=1, max_size=5))
def test_the_server_answers_every_call_of_the_official_client(script: list[Step]) -> None:
    played = Played()
    with TemporaryDirectory() as name:
        tmp = Path(name)
        served = Served.one(tmp, SCENARIO, MODE)

        async def session_script(session: ClientSession) -> None:
            await _play_calls(session, script, played)

        served.play(session_script)
        _check_run(played, tmp, served.db, served.log_text())
    assert not played.findings, "\n".join(str(f) for f in played.findings)


# -- raw lines ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RawLine:
    """One line written to the server.

    Attributes:
        what: what is wrong with it.
        line: its bytes.
        ident: its JSON-RPC id, if one can be read from it.
        error: whether the answer must be a JSON-RPC error (the line is no valid request).
    """

    what: str
    line: bytes
    ident: str | None
    error: bool


def _call(ident: str, name: str, arguments_json: str) -> bytes:
    return (f'{{"jsonrpc":"2.0","id":"{ident}","method":"tools/call","params":'
            f'{{"name":{name},"arguments":{arguments_json}}}}}').encode()


RAW_LINES: tuple[RawLine, ...] = (
    RawLine("not JSON", b"not json at all", None, True),
    RawLine("truncated JSON", b'{"jsonrpc":"2.0","id":"t1","method":"tools/li', None, True),
    RawLine("wrong jsonrpc version", b'{"jsonrpc":"1.0","id":"v1","method":"tools/list"}',
            "v1", True),
    RawLine("no jsonrpc member", b'{"id":"v2","method":"tools/list"}', "v2", True),
    RawLine("no method", b'{"jsonrpc":"2.0","id":"m1"}', "m1", True),
    RawLine("params not an object",
            b'{"jsonrpc":"2.0","id":"p1","method":"tools/call","params":[]}', "p1", True),
    RawLine("a bare number", b"42", None, True),
    RawLine("an empty array", b"[]", None, True),
    RawLine("null", b"null", None, True),
    RawLine("an unknown method", b'{"jsonrpc":"2.0","id":"x1","method":"no/such"}', "x1", True),
    RawLine("a lone surrogate in an argument (escaped)",
            _call("s1", '"message"', '{"to":"buyer","text":"\\ud800"}'), "s1", False),
    RawLine("a lone surrogate in the tool name (escaped)",
            _call("s2", '"get_quote\\udfff"', '{"quote_id":"Q-1"}'), "s2", False),
    RawLine("a surrogate as raw bytes (not UTF-8)",
            b'{"jsonrpc":"2.0","id":"s3","method":"tools/call","params":{"name":"message",'
            b'"arguments":{"to":"buyer","text":"\xed\xa0\x80"}}}', "s3", False),
    RawLine("arguments nested 1,000 levels",
            _call("d1", '"get_quote"', '{"quote_id":' + "[" * 1_000 + "]" * 1_000 + "}"),
            "d1", False),
    RawLine("arguments nested 100,000 levels",
            _call("d2", '"get_quote"', '{"quote_id":' + "[" * 100_000 + "]" * 100_000 + "}"),
            "d2", False),
    RawLine("a 1 MB argument",
            _call("z1", '"get_product"', json.dumps({"sku": "x" * 1_048_576})), "z1", False),
)
"""Malformed lines, and what each must be answered with."""


def _unanswered(answers: list[dict[str, Any]]) -> list[Finding]:
    """Match answers to :data:`RAW_LINES` (by id, else a ``null``-id answer in order)."""
    by_id = {a["id"]: a for a in answers if a.get("id") is not None}
    anonymous = [a for a in answers if "id" in a and a["id"] is None]
    findings: list[Finding] = []
    for raw in RAW_LINES:
        answer = by_id.get(raw.ident) if raw.ident is not None else None
        if answer is None and anonymous:
            answer = anonymous.pop(0)
        if answer is None:
            findings.append(Finding(raw.what, "no-answer", f"{raw.line[:60]!a}"))
        elif raw.error and "error" not in answer:
            findings.append(Finding(raw.what, "no-error", f"answered {str(answer)[:80]!a}"))
    return findings


def test_the_server_answers_every_malformed_line_and_keeps_serving(tmp_path: Path) -> None:
    played = Played()
    with RawServer(tmp_path, "--scenario", SCENARIO, "--mode", MODE, "--suite",
                   "handwritten") as server:
        assert server.initialize(*HOSTILE_CLIENT) is not None, server.log_text()
        for raw in RAW_LINES:
            server.write(raw.line)
        listed = server.request("after-list", "tools/list")
        called = server.request("after-call", "tools/call",
                                {"name": "get_quote", "arguments": QUOTE})
        server.collect({raw.ident for raw in RAW_LINES if raw.ident is not None})
        played.findings += _unanswered(server.answers)
        if listed is None or "result" not in listed:
            played.findings.append(Finding("tools/list after the lines", "no-answer",
                                           f"{listed!a}"[:120]))
        if called is None or "result" not in called:
            played.findings.append(Finding("get_quote after the lines", "no-answer",
                                           f"{called!a}"[:120]))
        if server.stopped_reading:
            played.findings.append(Finding("server", "stopped", "its stdin closed early"))
        status = server.close()
        if status != 0:
            played.findings.append(Finding("server", "exit", f"status {status}"))
        _check_run(played, tmp_path, server.db, server.log_text())
    assert not played.findings, "\n".join(str(f) for f in played.findings)
