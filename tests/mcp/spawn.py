"""Spawn remit's MCP server and talk to it with the mcp SDK's own clients.

The server runs in a subprocess that imports the very ``remit`` these tests import
(``PYTHONPATH`` is set explicitly: the SDK's stdio client passes only a few safe
variables on, and an installed copy of remit elsewhere must not answer instead).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from pydantic import JsonValue

import remit
from remit.actors import Observation, TrialInfo, oracle_factory
from remit.mcp import BRIEFING_TOOL, NEXT_TRIAL_TOOL, BriefingReport, RunSummary, TurnReport
from remit.scenarios import Suite
from remit.world import tool_specs

CLIENT_NAME = "remit-tests"
CLIENT_VERSION = "1.0"
SOURCE_ROOT = str(Path(remit.__file__).resolve().parents[1])
T = TypeVar("T")


def server_env() -> dict[str, str]:
    """This environment, with ``PYTHONPATH`` naming the remit under test first."""
    inherited = os.environ.get("PYTHONPATH")
    path = SOURCE_ROOT if not inherited else f"{SOURCE_ROOT}{os.pathsep}{inherited}"
    return {**os.environ, "PYTHONPATH": path}


class Served:
    """A stdio server's command line (``python -m remit.mcp OPTIONS --db DB``) and where
    its database and its stderr go."""

    def __init__(self, tmp_path: Path, *options: str) -> None:
        self.db = tmp_path / "mcp.db"
        self.log = tmp_path / "server.log"
        self.cwd = tmp_path
        self.args = ["-m", "remit.mcp", *options, "--db", str(self.db)]

    @classmethod
    def one(cls, tmp_path: Path, scenario: str, mode: str, *extra: str) -> Served:
        """A server of one trial: ``--scenario S --mode M --suite handwritten``."""
        return cls(tmp_path, "--scenario", scenario, "--mode", mode, "--suite", "handwritten",
                   *extra)

    def play(self, script: Callable[[ClientSession], Awaitable[T]], *,
             name: str = CLIENT_NAME, version: str = CLIENT_VERSION) -> T:
        """Spawn the server, initialize a client session, run ``script``, disconnect."""

        async def main() -> T:
            params = StdioServerParameters(command=sys.executable, args=self.args,
                                           cwd=self.cwd, env={"PYTHONPATH": SOURCE_ROOT})
            info = types.Implementation(name=name, version=version)
            with self.log.open("w") as errlog:
                async with (stdio_client(params, errlog=errlog) as (read, write),
                            ClientSession(read, write, client_info=info) as session):
                    await session.initialize()
                    return await script(session)

        return anyio.run(main)

    def log_text(self) -> str:
        """What the server wrote on stderr."""
        return self.log.read_text()


def document(result: types.CallToolResult) -> dict[str, JsonValue]:
    """A tool result's JSON document, checking that text and structured content agree."""
    assert len(result.content) == 1
    block = result.content[0]
    assert isinstance(block, types.TextContent)
    parsed = json.loads(block.text)
    assert parsed == result.structured_content
    assert isinstance(parsed, dict)
    return parsed


async def brief(session: ClientSession) -> dict[str, JsonValue]:
    """Call the briefing tool and return its document."""
    result = await session.call_tool(BRIEFING_TOOL, {})
    assert not result.is_error
    return document(result)


def briefed(shown: dict[str, JsonValue]) -> BriefingReport:
    """A briefing document as a report (the tools, left out of it, put back)."""
    briefing = shown["briefing"]
    assert isinstance(briefing, dict)
    assert "tools" not in briefing  # tools/list gave them
    return BriefingReport.model_validate(
        {**shown, "briefing": {**briefing, "tools": tool_specs()}})


async def play_oracle_trial(session: ClientSession, suite: Suite,
                            shown: BriefingReport) -> list[TurnReport]:
    """Play one trial as the in-process oracle would, from its briefing to its end.

    The test is the external agent: it rebuilds the oracle's observations from what the
    server sends, and sends the oracle's calls back.
    """
    position = shown.trial
    scenario = suite.scenario(position.scenario_id)
    info = TrialInfo(scenario_id=scenario.id, mode=position.mode, trial=position.trial,
                     seed=position.seed, plan=scenario.plan, scenario=scenario)
    agent = oracle_factory(info)
    agent.start(shown.briefing)
    observation = Observation(step=shown.step, minute=shown.minute, messages=shown.opening)
    reports: list[TurnReport] = []
    for _ in range(scenario.max_steps):
        call = agent.act(observation)
        result = await session.call_tool(call.tool, dict(call.arguments))
        report = TurnReport.model_validate(document(result))
        assert result.is_error is not report.result.ok
        reports.append(report)
        if report.ended:
            break
        observation = report.observation()
    return reports


async def play_oracle_run(session: ClientSession, suite: Suite) -> RunSummary:
    """Play every trial of the served run as the oracle, trial after trial, and return
    the summary ``remit_next_trial`` gives after the last."""
    while True:
        result = await session.call_tool(NEXT_TRIAL_TOOL, {})
        assert not result.is_error
        answer = document(result)
        if answer["run_complete"]:
            return RunSummary.model_validate(answer)
        reports = await play_oracle_trial(session, suite, briefed(answer))
        assert reports[-1].ended
