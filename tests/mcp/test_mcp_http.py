"""The same server over streamable HTTP, played by the SDK's own HTTP client on
127.0.0.1; only loopback addresses are served unless asked."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

from remit.harness import builtin_suite
from remit.mcp import HTTP_PATH, RemoteAddressError, RunSummary, parse_http_address
from remit.store import Store
from tests.mcp.spawn import document, play_oracle_run, server_env

SCENARIOS = ("discount-exception", "consent-withheld")


def test_a_run_over_streamable_http_is_stored_and_the_server_then_stops(
        tmp_path: Path) -> None:
    db = tmp_path / "http.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "remit.mcp", "--suite", "handwritten", "--modes",
         "dual_control", "--http", "127.0.0.1:0", "--db", str(db),
         *(option for s in SCENARIOS for option in ("--scenario", s))],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=server_env(), cwd=tmp_path)
    assert server.stderr is not None
    try:
        first = server.stderr.readline()  # said once the port is listening
        assert first.startswith("serving 2 trial(s) over MCP streamable HTTP at http://127.0.0.1:")
        url = first.split(" at ")[1].split()[0]
        assert url.endswith(HTTP_PATH)

        async def main() -> RunSummary:
            info = types.Implementation(name="http-client", version="0.9")
            async with (streamable_http_client(url) as (read, write),
                        ClientSession(read, write, client_info=info) as session):
                await session.initialize()
                return await play_oracle_run(session, builtin_suite("handwritten"))

        summary = anyio.run(main)
        stdout, stderr = server.communicate(timeout=60)  # it stops on its own
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    assert server.returncode == 0, stderr
    assert stdout == ""
    assert summary.run_complete
    assert (summary.played, summary.passed) == (2, 2)
    with Store.open(str(db)) as store:
        [listing] = store.runs()
        records = store.trials(listing.run_id)
    assert listing.run_id == summary.run_id
    assert listing.agent_id == "mcp:http-client@0.9"
    assert listing.ended_at is not None
    assert sorted(r.scored.scenario_id for r in records) == sorted(SCENARIOS)
    assert all(r.scored.score.passed for r in records)
    assert f"run {listing.run_id} complete: 2 of 2 trials passed" in stderr


def test_over_http_a_client_may_leave_and_sigterm_then_stores_the_trial_in_play(
        tmp_path: Path) -> None:
    db = tmp_path / "http.db"
    server = subprocess.Popen(
        [sys.executable, "-m", "remit", "mcp", "serve", "--suite", "handwritten",
         "--scenario", SCENARIOS[0], "--modes", "dual_control", "--http", "localhost:0",
         "--db", str(db)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=server_env(), cwd=tmp_path)
    assert server.stderr is not None
    try:
        url = server.stderr.readline().split(" at ")[1].split()[0]

        async def main() -> None:
            info = types.Implementation(name="leaver", version="1")
            async with (streamable_http_client(url) as (read, write),
                        ClientSession(read, write, client_info=info) as session):
                await session.initialize()
                answer = document(await session.call_tool("remit_next_trial", {}))
                briefing = answer["briefing"]
                assert isinstance(briefing, dict)
                await session.call_tool("get_quote", {"quote_id": briefing["quote_id"]})
            # the session is over (DELETE); over HTTP the run waits for a client to return

        anyio.run(main)
        assert server.poll() is None
        server.send_signal(signal.SIGTERM)
        _, stderr = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    assert server.returncode == 128 + signal.SIGTERM, stderr
    with Store.open(str(db)) as store:
        [listing] = store.runs()
        [record] = store.trials(listing.run_id)
    assert record.scored.score.end_reason == "agent_error"
    assert record.scored.score.steps == 1
    assert stderr.splitlines()[-1].startswith(
        f"run {listing.run_id} ended when the client left: 0 of 1 trials passed "
        "(dual_control 0/1); agent mcp:leaver@1")


@pytest.mark.parametrize(("text", "host", "port"), [
    ("127.0.0.1:8765", "127.0.0.1", 8765), ("localhost:0", "localhost", 0),
    ("[::1]:9000", "::1", 9000), ("127.3.4.5:1", "127.3.4.5", 1)])
def test_loopback_addresses_are_served(text: str, host: str, port: int) -> None:
    address = parse_http_address(text)
    assert (address.host, address.port, address.loopback) == (host, port, True)


def test_a_remote_address_needs_allow_remote() -> None:
    with pytest.raises(RemoteAddressError, match=r"0\.0\.0\.0 is not a loopback address"):
        parse_http_address("0.0.0.0:8765")
    with pytest.raises(RemoteAddressError, match=r"example\.org is not a loopback address"):
        parse_http_address("example.org:80")
    address = parse_http_address("0.0.0.0:8765", allow_remote=True)
    assert (address.host, address.loopback) == ("0.0.0.0", False)
    for bad in ("8765", ":8765", "127.0.0.1:", "127.0.0.1:http", "127.0.0.1:70000"):
        with pytest.raises(ValueError, match="give HOST:PORT"):
            parse_http_address(bad)


def test_a_port_in_use_is_a_user_error_before_anything_starts(tmp_path: Path) -> None:
    taken = parse_http_address("127.0.0.1:0").bind()
    with taken:
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "remit.mcp", "--suite", "handwritten", "--modes",
             "dual_control", "--http", f"127.0.0.1:{port}", "--db", str(tmp_path / "x.db")],
            capture_output=True, text=True, env=server_env(), cwd=tmp_path, timeout=60,
            check=False)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: --http 127.0.0.1:{port}: cannot listen there")
    assert result.stderr.count("\n") == 1
    assert not (tmp_path / "x.db").exists()
