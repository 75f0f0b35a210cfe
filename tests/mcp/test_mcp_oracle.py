"""The oracle, driven from outside through MCP, plays the same trial as in-process.

The test is the external agent: it reads the briefing and each tool result from the
server, rebuilds the oracle's observations from them, and sends the oracle's calls back
with the SDK's client. The stored trail must be the in-process oracle's, entry for
entry: a trial played over MCP is the same trial.
"""

from __future__ import annotations

from pathlib import Path

from mcp import ClientSession

from remit.actors import Observation, TrialInfo, oracle_factory
from remit.authority import mode_by_name
from remit.harness import briefing_for, builtin_suite, run_one, trial_seed
from remit.mcp import BriefingReport, TurnReport
from remit.store import Store
from remit.world import ToolCallEntry, tool_specs
from tests.mcp.spawn import Served, brief, document

SCENARIO = "unresponsive-finance"  # hand-offs and follow-ups to a silent owner
MODE = "dual_control"


def test_oracle_replayed_through_mcp_passes_with_the_in_process_trail(tmp_path: Path) -> None:
    scenario = builtin_suite("handwritten").scenario(SCENARIO)
    mode = mode_by_name(MODE)
    reference, _ = run_one(scenario, mode, oracle_factory)
    assert reference.scored.score.passed
    info = TrialInfo(scenario_id=scenario.id, mode=MODE, trial=0,
                     seed=trial_seed(0, scenario.id, MODE, 0), plan=scenario.plan,
                     scenario=scenario)
    served = Served(tmp_path, SCENARIO, MODE)

    async def script(session: ClientSession) -> list[TurnReport]:
        shown = await brief(session)
        briefing = shown["briefing"]
        assert isinstance(briefing, dict)
        # the tools are not repeated in the briefing: tools/list gave them
        briefed = BriefingReport.model_validate(
            {**shown, "briefing": {**briefing, "tools": tool_specs()}})
        assert briefed.briefing == briefing_for(scenario, mode)
        agent = oracle_factory(info)
        agent.start(briefed.briefing)
        observation = Observation(step=briefed.step, minute=briefed.minute,
                                  messages=briefed.opening)
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

    reports = served.play(script)

    agent_calls = [e for e in reference.trail
                   if isinstance(e, ToolCallEntry) and e.actor == "agent"]
    assert len(reports) == len(agent_calls) > len(scenario.plan)  # follow-ups included
    assert reports[-1].ended
    assert reports[-1].end_reason == "agent_end"
    assert reports[-1].result.tool == "end"
    assert any(m.sender == "finance" for r in reports for m in r.messages)
    with Store.open(str(served.db)) as store:
        [run] = store.runs()
        [record] = store.trials(run.run_id)
    assert record.scored.score.passed, record.scored.score.failures
    assert record.seed == reference.seed
    assert record.trail == reference.trail
    assert record.scored.score == reference.scored.score
    assert f"run {run.run_id}: {SCENARIO} in {MODE} passed" in served.log_text()
