"""A client that kills the server, or an operator's Ctrl-C, abandons the trial: it is
still scored and recorded, and the server leaves at once."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from remit.store import Store

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


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT],
                         ids=["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_mid_trial_records_the_abandoned_trial(tmp_path: Path, signum: int) -> None:
    db = tmp_path / "mcp.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "remit.mcp", "--scenario", SCENARIO, "--mode", "all_tools",
         "--suite", "handwritten", "--db", str(db)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path)
    assert server.stdin is not None
    assert server.stdout is not None
    try:
        _send(server.stdin, {"id": 1, "method": "initialize", "params": {
            "protocolVersion": PROTOCOL, "capabilities": {},
            "clientInfo": {"name": "killer", "version": "1"}}})
        _answer(server.stdout, 1)
        _send(server.stdin, {"method": "notifications/initialized"})
        _send(server.stdin, {"id": 2, "method": "tools/call", "params": {
            "name": "search_catalogue", "arguments": {}}})
        answer = _answer(server.stdout, 2)
        assert "result" in answer, answer

        server.send_signal(signum)  # stdin stays open: only the signal can end it
        _, stderr = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    assert server.returncode == 128 + signum, stderr
    assert f"{signal.Signals(signum).name}: the client's trial ends here" in stderr
    with Store.open(str(db)) as store:
        (listing,) = store.runs()
        (record,) = store.trials(listing.run_id)
    score = record.scored.score
    assert not score.passed
    assert score.end_reason == "agent_error"
    assert score.steps == 1
    assert any("disconnected after 1 step(s)" in f for f in score.failures)
    assert f"run {listing.run_id}: {SCENARIO} in all_tools failed" in stderr
