"""Spawn ``python -m remit.mcp`` and talk to it with the mcp SDK's own stdio client."""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from pydantic import JsonValue

from remit.mcp import BRIEFING_TOOL

CLIENT_NAME = "remit-tests"
T = TypeVar("T")


class Served:
    """A server's command line and where its database and its stderr go."""

    def __init__(self, tmp_path: Path, scenario: str, mode: str, *extra: str) -> None:
        self.db = tmp_path / "mcp.db"
        self.log = tmp_path / "server.log"
        self.cwd = tmp_path
        self.args = ["-m", "remit.mcp", "--scenario", scenario, "--mode", mode,
                     "--suite", "handwritten", "--db", str(self.db), *extra]

    def play(self, script: Callable[[ClientSession], Awaitable[T]]) -> T:
        """Spawn the server, initialize a client session, run ``script``, disconnect."""

        async def main() -> T:
            params = StdioServerParameters(command=sys.executable, args=self.args,
                                           cwd=self.cwd)
            info = types.Implementation(name=CLIENT_NAME, version="1.0")
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
