"""The oracle, driven from outside through MCP, plays the same trial as in-process.

The test is the external agent: it reads the briefing and each tool result from the
server, rebuilds the oracle's observations from them, and sends the oracle's calls back
with the SDK's client. The stored trail must be the in-process oracle's, entry for
entry: a trial played over MCP is the same trial.
"""

from __future__ import annotations

from pathlib import Path

from mcp import ClientSession

from remit.actors import oracle_factory
from remit.authority import mode_by_name
from remit.harness import briefing_for, builtin_suite, run_one
from remit.mcp import TurnReport
from remit.store import Store
from remit.world import ToolCallEntry
from tests.mcp.spawn import Served, brief, briefed, play_oracle_trial

SCENARIO = "unresponsive-finance"  # hand-offs and follow-ups to a silent owner
MODE = "dual_control"


def test_oracle_replayed_through_mcp_passes_with_the_in_process_trail(tmp_path: Path) -> None:
    scenario = builtin_suite("handwritten").scenario(SCENARIO)
    mode = mode_by_name(MODE)
    reference, _ = run_one(scenario, mode, oracle_factory)
    assert reference.scored.score.passed
    served = Served.one(tmp_path, SCENARIO, MODE)

    async def script(session: ClientSession) -> list[TurnReport]:
        shown = briefed(await brief(session))
        assert shown.briefing == briefing_for(scenario, mode)
        assert (shown.trial.number, shown.trial.of) == (1, 1)
        assert shown.trial.seed == reference.seed
        return await play_oracle_trial(session, builtin_suite("handwritten"), shown)

    reports = served.play(script)

    agent_calls = [e for e in reference.trail
                   if isinstance(e, ToolCallEntry) and e.actor == "agent"]
    assert len(reports) == len(agent_calls) > len(scenario.plan)  # follow-ups included
    assert reports[-1].ended
    assert reports[-1].end_reason == "agent_end"
    assert reports[-1].result.tool == "end"
    assert reports[-1].trials_left == 0
    assert any(m.sender == "finance" for r in reports for m in r.messages)
    with Store.open(str(served.db)) as store:
        [run] = store.runs()
        [record] = store.trials(run.run_id)
    assert record.scored.score.passed, record.scored.score.failures
    assert record.seed == reference.seed
    assert record.trail == reference.trail
    assert record.scored.score == reference.scored.score
    assert f"run {run.run_id}: {SCENARIO} in {MODE} passed" in served.log_text()
