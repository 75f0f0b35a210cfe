"""Every line a client writes gets an answer: what the SDK cannot read is answered with a
JSON-RPC error (it used to be dropped, and the client waited until its own timeout), and
what it can is passed on cleaned of lone surrogates and bounded, as the world does.

The stdio server is spawned and written raw lines; answers are read with a bounded wait
that only guards against a hang. Over streamable HTTP the SDK answers bad bodies itself
(HTTP 400 with a JSON-RPC error), which is checked the same way.
"""

from __future__ import annotations

import http.client
import json
import os
import select
import subprocess
import sys
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from remit.store import Store
from remit.world import ToolCallEntry
from tests.mcp.spawn import server_env

SCENARIO = "discount-exception"
GUARD_SECONDS = 60
"""How long a missing answer is waited for before the test fails (never slept)."""


def _call(request_id: int, tool: str, arguments: object) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": {"name": tool, "arguments": arguments}}).encode()


def _nested(levels: int) -> str:
    return '{"a": ' * (levels - 1) + "{}" + "}" * (levels - 1)


class _Stdio:
    """A spawned stdio server, written raw lines and read one answer at a time."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "wire.db"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "remit", "mcp", "serve", "--suite", "handwritten",
             "--scenario", SCENARIO, "--mode", "dual_control", "--db", str(self.db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=server_env(), cwd=tmp_path)
        self._pending = b""

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any]:
        """The next line the server writes, as JSON (fails after :data:`GUARD_SECONDS`)."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while b"\n" not in self._pending:
            ready, _, _ = select.select([fd], [], [], GUARD_SECONDS)
            assert ready, "the server did not answer"
            chunk = os.read(fd, 1 << 20)
            assert chunk, "the server closed stdout without answering"
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        answer = json.loads(line)
        assert isinstance(answer, dict)
        return answer

    def ask(self, line: bytes) -> dict[str, Any]:
        self.send(line)
        return self.answer()

    def close(self) -> str:
        """Close stdin (the client leaves) and return what the server said on stderr."""
        _, stderr = self.process.communicate(timeout=GUARD_SECONDS)
        return stderr.decode()


@pytest.fixture
def stdio(tmp_path: Path) -> Iterator[_Stdio]:
    server = _Stdio(tmp_path)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
        server.process.communicate(timeout=GUARD_SECONDS)


def _result(answer: dict[str, Any]) -> dict[str, Any]:
    document = answer["result"]["structuredContent"]
    assert isinstance(document, dict)
    return document


def test_the_stdio_server_answers_every_bad_line_and_plays_on(stdio: _Stdio) -> None:
    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw\ud800client", "version": "1"}}}
    assert stdio.ask(json.dumps(initialize).encode())["id"] == 0
    stdio.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    errors = [stdio.ask(line) for line in (
        b"not json at all", b"\xc3\x28", b'{"jsonrpc": "1.0", "id": 5, "method": "ping"}',
        b"[" * 100_000, _call(6, "get_quote", json.loads(_nested(100))))]
    assert [(e["id"], e["error"]["code"]) for e in errors] == [
        (None, -32700), (None, -32700), (5, -32600), (None, -32700), (6, -32600)]

    surrogate = _result(stdio.ask(_call(7, "message", {"to": "buyer",
                                                       "text": "hi \ud800"})))
    assert surrogate["result"]["ok"]
    deep = _result(stdio.ask(_call(8, "get_quote", json.loads(_nested(40)))))
    assert deep["result"]["error"]["code"] == "bad_arguments"
    assert "nest deeper than 32 levels" in deep["result"]["error"]["message"]
    huge = _result(stdio.ask(_call(9, "get_product", {"sku": "S" * 2_000_000})))
    assert huge["result"]["error"]["message"] == (
        "bad arguments for get_product: the string at sku has 2000000 characters, more "
        "than the limit of 8192; fix them and call again")
    end = _result(stdio.ask(_call(10, "end", {"summary": "bye \udfff"})))
    assert end["ended"]
    assert end["end_summary"] == "bye \ufffd"
    stderr = stdio.close()

    assert "agent mcp:raw\ufffdclient@1" in stderr
    with Store.open(str(stdio.db)) as store:
        [run] = store.runs()
        [record] = store.trials(run.run_id)
    called = [(e.tool, e.arguments) for e in record.trail
              if isinstance(e, ToolCallEntry) and e.actor == "agent"]
    assert called[0] == ("message", {"to": "buyer", "text": "hi \ufffd"})
    assert [tool for tool, _ in called] == ["message", "get_quote", "get_product", "end"]
    assert set(called[2][1]) == {"not_recorded", "prefix"}


def test_a_line_longer_than_the_limit_is_skipped_and_answered(stdio: _Stdio) -> None:
    stdio.send(b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"p": "'
               + b"x" * (5 * 1024 * 1024) + b'"}}')
    answer = stdio.answer()
    assert (answer["id"], answer["error"]["code"]) == (None, -32600)
    assert "longer than 4194304 bytes" in answer["error"]["message"]
    assert stdio.ask(b'{"jsonrpc": "1.0", "id": 2}')["id"] == 2  # the next line is read


# -- streamable HTTP -------------------------------------------------------------------------

def test_over_http_the_sdk_answers_bad_bodies_with_400_and_a_json_rpc_error(
        tmp_path: Path) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "remit.mcp", "--suite", "handwritten", "--scenario", SCENARIO,
         "--mode", "dual_control", "--http", "127.0.0.1:0", "--db", str(tmp_path / "h.db")],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=server_env(), cwd=tmp_path)
    assert server.stderr is not None
    try:
        url = urllib.parse.urlsplit(server.stderr.readline().split(" at ")[1].split()[0])
        headers = {"Accept": "application/json, text/event-stream",
                   "Content-Type": "application/json"}

        def post(body: bytes) -> tuple[int, dict[str, Any]]:
            connection = http.client.HTTPConnection(url.hostname or "", url.port,
                                                    timeout=GUARD_SECONDS)
            try:
                connection.request("POST", url.path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, json.loads(response.read())
            finally:
                connection.close()

        answers = [post(body) for body in (
            b"not json", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000,
            _call(1, "message", {"to": "buyer", "text": "hi \ud800"}),
            b'{"jsonrpc": "1.0", "id": 5, "method": "ping"}')]
    finally:
        server.terminate()
        server.communicate(timeout=GUARD_SECONDS)

    assert [(status, a["id"], a["error"]["code"]) for status, a in answers] == [
        (400, None, -32700), (400, None, -32700), (400, None, -32700), (400, None, -32700),
        (400, None, -32602)]
