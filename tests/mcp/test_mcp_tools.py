"""Over stdio: the tools and their schemas, the briefing, and a client that walks away."""

from __future__ import annotations

from pathlib import Path

from mcp import ClientSession
from pydantic import JsonValue

from remit.authority import mode_by_name
from remit.harness import AgentIdentity, ScenarioSelection, builtin_suite
from remit.mcp import BRIEFING_TOOL, DRIVER_KEY, NEXT_TRIAL_TOOL, SERVER_NAME, TrialSession
from remit.store import Store
from remit.world import tool_specs
from tests.mcp.spawn import CLIENT_NAME, CLIENT_VERSION, Served, brief, document

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
    served = Served.one(tmp_path, SCENARIO, MODE)
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

    # every world tool, with the JSON Schema of its arguments, after remit's own two
    specs = tool_specs()
    assert seen.names == [BRIEFING_TOOL, NEXT_TRIAL_TOOL, *(spec.name for spec in specs)]
    for spec in specs:
        assert seen.schemas[spec.name] == spec.parameters, spec.name
    for name in (BRIEFING_TOOL, NEXT_TRIAL_TOOL):
        assert seen.schemas[name]["properties"] == {}
    # no tool takes an argument its schema does not declare
    assert all(schema["additionalProperties"] is False for schema in seen.schemas.values())
    assert seen.server == SERVER_NAME
    assert f"Call {BRIEFING_TOOL} first" in seen.instructions
    assert f"call {NEXT_TRIAL_TOOL} for the next trial" in seen.instructions

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
    # the client's handshake names the agent; its code is outside remit
    assert manifest.agent_id == f"mcp:{CLIENT_NAME}@{CLIENT_VERSION}"
    assert manifest.agent_config == {"client": CLIENT_NAME, "client_version": CLIENT_VERSION}
    assert manifest.agent == AgentIdentity(
        import_path=None, code_hash=None,
        declared_config={"client": CLIENT_NAME, "client_version": CLIENT_VERSION})
    assert manifest.metadata[DRIVER_KEY] == "mcp"
    assert manifest.suite_id == "handwritten"
    assert manifest.selection == ScenarioSelection(
        scenario_ids=(SCENARIO,), selected=1, total=len(builtin_suite("handwritten")))
    assert [m.name for m in manifest.modes] == [MODE]
    assert manifest.ended_at is not None
    score = record.scored.score
    assert (record.scored.scenario_id, record.scored.mode) == (SCENARIO, MODE)
    assert not score.passed
    assert score.end_reason == "agent_error"
    assert any("disconnected after 1 step(s)" in f for f in score.failures)
    log = served.log_text()
    assert f"run {run.run_id}: {SCENARIO} in {MODE} failed" in log
