"""A whole suite over MCP: one client session plays every trial, stored as one run whose
verdicts, trials and seeds are `remit run --agent oracle`'s on the same suite, modes and
seed; the client's handshake names the agent, and `remit runs` lists it."""

from __future__ import annotations

import json
from pathlib import Path

from mcp import ClientSession
from typer.testing import CliRunner

from remit.cli import app
from remit.harness import AgentIdentity, builtin_suite
from remit.mcp import RunSummary
from remit.store import Store
from tests.mcp.spawn import Served, play_oracle_run

SEED = 5
WIDE = {"COLUMNS": "400"}


def test_a_whole_suite_played_over_mcp_is_remit_runs_run(tmp_path: Path) -> None:
    suite = builtin_suite("handwritten")
    served = Served(tmp_path, "--suite", "handwritten", "--modes", "dual_control",
                    "--trials", "1", "--seed", str(SEED))

    async def script(session: ClientSession) -> RunSummary:
        return await play_oracle_run(session, suite)

    summary = served.play(script, name="oracle-over-mcp", version="2.5")

    cli = CliRunner()
    result = cli.invoke(app, ["run", "--suite", "handwritten", "--agent", "oracle",
                              "--modes", "dual_control", "--seed", str(SEED),
                              "--db", str(served.db), "--json"])
    assert result.exit_code == 0, result.output
    in_process = json.loads(result.stdout)["run_id"]
    with Store.open(str(served.db)) as store:
        [mcp_run] = [r for r in store.runs() if r.run_id != in_process]
        manifest = store.manifest(mcp_run.run_id)
        reference = store.manifest(in_process)
        played = {r.scored.scenario_id: r for r in store.trials(mcp_run.run_id)}
        expected = {r.scored.scenario_id: r for r in store.trials(in_process)}

    # the summary the client was given names the stored run
    assert summary.run_complete
    assert summary.run_id == mcp_run.run_id
    assert (summary.planned, summary.played, summary.passed, summary.unplayed) == \
        (len(suite), len(suite), len(suite), 0)
    assert [v.scenario_id for v in summary.trials] == [s.id for s in suite]
    # one run, every trial: the same trials, seeds, trails and verdicts as remit run's
    assert (mcp_run.trials, mcp_run.passed) == (len(suite), len(suite))
    assert mcp_run.ended_at is not None
    assert played.keys() == expected.keys()
    for scenario_id, record in played.items():
        twin = expected[scenario_id]
        assert (record.scored.mode, record.scored.trial, record.seed) == \
            (twin.scored.mode, twin.scored.trial, twin.seed), scenario_id
        assert record.trail == twin.trail, scenario_id
        assert record.scored.score == twin.scored.score, scenario_id
    # the same suite, modes, trials and seed: comparable with remit run's run
    assert (manifest.suite_id, manifest.suite_fingerprint, manifest.modes,
            manifest.trials, manifest.seed, manifest.selection) == \
        (reference.suite_id, reference.suite_fingerprint, reference.modes,
         reference.trials, reference.seed, reference.selection)
    # the agent is the client, as it named itself in the handshake
    assert manifest.agent_id == "mcp:oracle-over-mcp@2.5"
    assert manifest.agent == AgentIdentity(
        import_path=None, code_hash=None,
        declared_config={"client": "oracle-over-mcp", "client_version": "2.5"})
    assert manifest.agent_config_hash != reference.agent_config_hash

    listed = cli.invoke(app, ["runs", "--db", str(served.db)], env=WIDE)
    assert listed.exit_code == 0, listed.output
    row = next(line for line in listed.stdout.splitlines() if mcp_run.run_id in line)
    assert "mcp:oracle-over-mcp@2.5" in row
    assert "finished" in row
    shown = cli.invoke(app, ["show", mcp_run.run_id, "--db", str(served.db)], env=WIDE)
    assert shown.exit_code == 0, shown.output
    assert ("an MCP client; its code is not remit's to see (client=oracle-over-mcp, "
            "client_version=2.5)") in " ".join(shown.stdout.split())
    compared = cli.invoke(app, ["compare", mcp_run.run_id, in_process, "--db",
                                str(served.db), "--json"], env=WIDE)
    assert compared.exit_code == 0, compared.output
    comparison = json.loads(compared.stdout)
    assert comparison["missing"] == []
    # each trial's verdict line, then the run's, on stderr as they came
    log = served.log_text().splitlines()
    assert len(log) == len(suite) + 1
    assert all(f"run {mcp_run.run_id}: " in line and " in dual_control passed (" in line
               for line in log[:-1])
    assert log[-1].startswith(f"run {mcp_run.run_id} complete: {len(suite)} of {len(suite)} "
                              f"trials passed (dual_control {len(suite)}/{len(suite)}); agent "
                              "mcp:oracle-over-mcp@2.5")
