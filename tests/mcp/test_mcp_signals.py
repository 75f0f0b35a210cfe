"""A client that kills the server, or an operator's Ctrl-C, abandons the run: what was
played is still scored and recorded, the verdicts and the run id are said on stderr, and
the server leaves at once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from remit.harness import builtin_suite
from remit.store import Store
from tests.mcp.spawn import server_env

SCENARIO = "certificate-requirement"
PROTOCOL = "2025-06-18"


def _send(stdin: IO[str], message: dict[str, object]) -> None:
    stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
    stdin.flush()


def _answer(stdout: IO[str], request_id: int) -> dict[str, object]:
    for line in stdout:
        message = json.loads(line)
        if message.get("id") == request_id:
            answer: dict[str, object] = message
            return answer
    raise AssertionError(f"the server closed stdout before answering request {request_id}")


class _Client:
    """A bare JSON-RPC client over the server's pipes (stdin stays open: only a signal
    can end the session)."""

    def __init__(self, server: subprocess.Popen[str]) -> None:
        assert server.stdin is not None
        assert server.stdout is not None
        self.stdin, self.stdout = server.stdin, server.stdout
        self.next_id = 1
        self.request("initialize", {"protocolVersion": PROTOCOL, "capabilities": {},
                                    "clientInfo": {"name": "killer", "version": "1"}})
        _send(self.stdin, {"method": "notifications/initialized"})

    def request(self, method: str, params: dict[str, object]) -> dict[str, object]:
        request_id = self.next_id
        self.next_id += 1
        _send(self.stdin, {"id": request_id, "method": method, "params": params})
        answer = _answer(self.stdout, request_id)
        assert "result" in answer, answer
        result = answer["result"]
        assert isinstance(result, dict)
        return result

    def call(self, tool: str, arguments: dict[str, object]) -> dict[str, object]:
        result = self.request("tools/call", {"name": tool, "arguments": arguments})
        structured = result["structuredContent"]
        assert isinstance(structured, dict)
        return structured


def _spawn(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=server_env())


def _stop(server: subprocess.Popen[str], signum: int) -> str:
    try:
        server.send_signal(signum)
        _, stderr = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    return stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_mid_trial_records_the_abandoned_trial(tmp_path: Path, signum: int) -> None:
    db = tmp_path / "mcp.db"
    server = _spawn(["-m", "remit.mcp", "--scenario", SCENARIO, "--mode", "all_tools",
                     "--suite", "handwritten", "--db", str(db)])
    try:
        _Client(server).call("search_catalogue", {})
    finally:
        stderr = _stop(server, signum)

    assert server.returncode == 128 + signum, stderr
    assert f"{signal.Signals(signum).name}: the client's session ends here" in stderr
    with Store.open(str(db)) as store:
        (listing,) = store.runs()
        (record,) = store.trials(listing.run_id)
    assert listing.agent_id == "mcp:killer@1"
    assert listing.ended_at is not None
    score = record.scored.score
    assert not score.passed
    assert score.end_reason == "agent_error"
    assert score.steps == 1
    assert any("disconnected after 1 step(s)" in f for f in score.failures)
    assert f"run {listing.run_id}: {SCENARIO} in all_tools failed" in stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_remit_mcp_serve_says_each_verdict_and_the_run_id_when_killed_mid_run(
        tmp_path: Path, signum: int) -> None:
    db = tmp_path / "mcp.db"
    chosen = {"discount-exception", "consent-withheld", "unclear-request"}
    scenarios = [s.id for s in builtin_suite("handwritten") if s.id in chosen]  # run order
    server = _spawn(["-m", "remit", "mcp", "serve", "--suite", "handwritten",
                     "--modes", "dual_control", "--db", str(db),
                     *(option for s in scenarios for option in ("--scenario", s))])
    try:
        client = _Client(server)
        first = client.call("remit_next_trial", {})
        position = first["trial"]
        assert isinstance(position, dict)
        assert (position["scenario_id"], position["number"], position["of"]) == \
            (scenarios[0], 1, 3)
        assert client.call("end", {"summary": "nothing to do"})["ended"] is True
        second = client.call("remit_next_trial", {})
        assert second["run_complete"] is False
        briefing = second["briefing"]
        assert isinstance(briefing, dict)
        client.call("get_quote", {"quote_id": briefing["quote_id"]})
    finally:
        stderr = _stop(server, signum)

    assert server.returncode == 128 + signum, stderr
    with Store.open(str(db)) as store:
        (listing,) = store.runs()
        records = store.trials(listing.run_id)
    run_id = listing.run_id
    assert listing.ended_at is not None
    assert sorted((r.scored.scenario_id, r.scored.score.end_reason) for r in records) == \
        sorted([(scenarios[0], "agent_end"), (scenarios[1], "agent_error")])
    lines = stderr.splitlines()
    name = signal.Signals(signum).name
    assert lines[0].startswith(f"run {run_id}: {scenarios[0]} in dual_control failed "
                               "(agent_end, 1 steps; trial 1 of 3)")
    assert lines[1] == f"{name}: the client's session ends here"
    assert lines[2].startswith(f"run {run_id}: {scenarios[1]} in dual_control failed "
                               "(agent_error, 1 steps; trial 2 of 3)")
    assert lines[3] == (
        f"run {run_id} ended when the client left: 0 of 2 trials passed (dual_control 0/2); "
        f"1 of 3 planned trials were not played; agent mcp:killer@1; see it with `remit show "
        f"{run_id}`")
    assert len(lines) == 4
