"""Over stdio: the tools and their schemas, the briefing, and a client that walks away."""

from __future__ import annotations

from pathlib import Path

from mcp import ClientSession
from pydantic import JsonValue

from remit.authority import mode_by_name
from remit.harness import builtin_suite
from remit.mcp import BRIEFING_TOOL, MCP_AGENT_ID, SERVER_NAME, TrialSession
from remit.store import Store
from remit.world import tool_specs
from tests.mcp.spawn import CLIENT_NAME, Served, brief, document

SCENARIO = "discount-exception"
MODE = "dual_control"


class Seen:
    """What the client saw before it disconnected."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.schemas: dict[str, dict[str, object]] = {}
        self.server = ""
        self.instructions = ""
        self.briefing: dict[str, JsonValue] = {}
        self.first: dict[str, JsonValue] = {}


def test_client_sees_every_tool_and_the_opening_and_leaving_early_stores_a_failure(
        tmp_path: Path) -> None:
    scenario = builtin_suite("handwritten").scenario(SCENARIO)
    quote_id = scenario.terms.quote_id
    served = Served(tmp_path, SCENARIO, MODE)
    seen = Seen()

    async def script(session: ClientSession) -> None:
        init = await session.initialize()
        seen.server = init.server_info.name
        seen.instructions = init.instructions or ""
        listed = await session.list_tools()
        seen.names = [tool.name for tool in listed.tools]
        seen.schemas = {tool.name: tool.input_schema for tool in listed.tools}
        seen.briefing = await brief(session)
        seen.first = document(await session.call_tool("get_quote", {"quote_id": quote_id}))
        # ... and the client goes away without calling end

    served.play(script)

    # every world tool, with the JSON Schema of its arguments, after the briefing tool
    specs = tool_specs()
    assert seen.names == [BRIEFING_TOOL, *(spec.name for spec in specs)]
    for spec in specs:
        assert seen.schemas[spec.name] == spec.parameters, spec.name
    assert seen.schemas[BRIEFING_TOOL]["properties"] == {}
    assert seen.server == SERVER_NAME
    assert f"Call {BRIEFING_TOOL} first" in seen.instructions

    # the briefing carries the buyer's opening, exactly as an in-process agent gets it
    reference = TrialSession(scenario, mode_by_name(MODE))
    briefing = seen.briefing["briefing"]
    assert isinstance(briefing, dict)
    assert briefing["mode"] == MODE
    assert briefing["quote_id"] == quote_id
    assert "tools" not in briefing
    opening = seen.briefing["opening"]
    assert isinstance(opening, list)
    assert opening == [m.model_dump(mode="json") for m in reference.opening]
    assert opening[0]["sender"] == "buyer"
    # the briefing showed the opening, so the first result does not repeat it
    assert seen.first["messages"] == []
    assert seen.first["ended"] is False
    result = seen.first["result"]
    assert isinstance(result, dict)
    assert result["ok"] is True

    # leaving early: the trial is ended as the agent's error, scored and stored
    with Store.open(str(served.db)) as store:
        [run] = store.runs()
        manifest = store.manifest(run.run_id)
        [record] = store.trials(run.run_id)
    assert manifest.agent_id == MCP_AGENT_ID
    assert manifest.agent_config == {"client": CLIENT_NAME}
    assert manifest.suite_id == "handwritten"
    assert [m.name for m in manifest.modes] == [MODE]
    assert manifest.ended_at is not None
    score = record.scored.score
    assert (record.scored.scenario_id, record.scored.mode) == (SCENARIO, MODE)
    assert not score.passed
    assert score.end_reason == "agent_error"
    assert any("disconnected after 1 step(s)" in f for f in score.failures)
    log = served.log_text()
    assert f"run {run.run_id}: {SCENARIO} in {MODE} failed" in log
