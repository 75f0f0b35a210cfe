"""The stored-run commands: runs, show, trail, compare; bad databases; kill and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.scenarios import Suite, builtin_scenarios, export_suite
from remit.store import Store

HANDWRITTEN = ["--suite", "handwritten"]
REMIT = [sys.executable, "-m", "remit.cli"]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "remit.db")


def _run(cli: CliRunner, db: str, *args: str) -> str:
    result = cli.invoke(app, ["run", *HANDWRITTEN, "--db", db, "--json", *args])
    assert result.exit_code == 0, result.output
    run_id: str = json.loads(result.stdout)["run_id"]
    return run_id


def test_a_stored_run_is_listed_shown_and_its_trails_read_back(db: str) -> None:
    cli = CliRunner()
    run_id = _run(cli, db, "--agent", "baseline", "--trials", "2")
    runs = json.loads(cli.invoke(app, ["runs", "--db", db, "--json"]).stdout)
    assert [(r["run_id"], r["trials"]) for r in runs] == [(run_id, 40)]
    shown = json.loads(cli.invoke(app, ["show", run_id, "--db", db, "--json"]).stdout)
    assert shown["manifest"]["agent_id"] == "baseline"
    assert set(shown["modes"]) == {"all_tools", "dual_control"}
    trial_id = f"{run_id}/consent-withheld/all_tools/0"
    trail = json.loads(cli.invoke(app, ["trail", trial_id, "--db", db, "--json"]).stdout)
    assert trail["scored"]["score"]["passed"] is False
    with Store.open(db) as store:
        assert trail == json.loads(store.trial(trial_id).model_dump_json())
    table = cli.invoke(app, ["trail", trial_id, "--db", db], env={"COLUMNS": "200"})
    lines = table.stdout.splitlines()
    assert lines[0] == f"{trial_id}: FAILED (agent baseline, seed {trail['seed']})"
    assert "Approval trail (7 decisions)" in table.stdout
    accept = next(line for line in lines if "│ accept " in line)
    assert "allowed g-buyer-accept@agent" in accept
    assert "under buyer's authority" in accept
    assert "presented -> accepted" in accept
    assert "confirmed: quote Q-1 ended in accepted at version 2" in table.stdout
    assert ">> the agent left the reference plan at step" in table.stdout
    assert lines[-3:][0].startswith("expectation broke: final_state: expected rejected, got "
                                    "accepted")


def test_compare_modes_within_a_run(db: str) -> None:
    cli = CliRunner()
    run_id = _run(cli, db, "--agent", "baseline")
    result = cli.invoke(app, ["compare", run_id, "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    comparison = json.loads(result.stdout)
    assert comparison["n_paired"] == len(builtin_scenarios())
    flips = {f["scenario_id"]: (f["from"], f["to"]) for f in comparison["flips"]}
    assert flips["consent-withheld"] == ("fail", "pass")
    assert flips["unresponsive-finance"] == ("pass", "fail")
    text = cli.invoke(app, ["compare", run_id, "--db", db], env={"COLUMNS": "200"}).stdout
    assert "McNemar exact p" in text
    assert "flip: consent-withheld: fail -> pass" in text
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in text.splitlines() if line.startswith("│")}
    assert rows["review minutes"][2].startswith("+")  # dual-control waits for owners
    assert rows["review minutes"][3].startswith("[")  # the paired interval
    assert float(rows["review minutes"][4]) <= 1.0    # and its p
    assert rows["pass^1"][4] == f"{comparison['mcnemar_p']:.4f}"


def test_compare_across_runs_refuses_different_suites_unless_forced(
        db: str, tmp_path: Path) -> None:
    cli = CliRunner()
    first = _run(cli, db, "--agent", "oracle", "--modes", "dual_control")
    subset = tmp_path / "subset"
    export_suite(Suite(id="subset", scenarios=builtin_scenarios()[:4]), subset)
    result = cli.invoke(app, ["run", "--suite", str(subset), "--db", db, "--json",
                              "--agent", "baseline", "--modes", "dual_control"])
    second = json.loads(result.stdout)["run_id"]
    refused = cli.invoke(app, ["compare", first, second, "--db", db])
    assert refused.exit_code == 2
    assert "suite fingerprint" in refused.stderr
    forced = cli.invoke(app, ["compare", first, second, "--db", db, "--force", "--json"])
    assert forced.exit_code == 0, forced.output
    assert json.loads(forced.stdout)["forced"] is True
    assert any("forced comparison" in w for w in json.loads(forced.stdout)["warnings"])


@pytest.mark.parametrize("command", [["runs"], ["show", "r-nope"], ["trail", "r-nope/x/y/0"]])
def test_a_missing_database_is_one_line_and_nothing_is_written(
        tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "absent.db"
    result = CliRunner().invoke(app, [*command, "--db", str(path)])
    assert result.exit_code == 2
    assert "there is no database file there" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not path.exists()


def test_a_corrupt_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    path.write_bytes(b"this is not a database" * 100)
    before = path.read_bytes()
    for command in (["runs"], ["run", *HANDWRITTEN]):
        result = CliRunner().invoke(app, [*command, "--db", str(path)])
        assert result.exit_code == 2
        assert "corrupt" in result.stderr or "not a" in result.stderr
    assert path.read_bytes() == before


def test_unknown_run_names_the_known_ones(db: str) -> None:
    cli = CliRunner()
    run_id = _run(cli, db, "--agent", "oracle", "--modes", "dual_control")
    result = cli.invoke(app, ["show", "r-missing", "--db", db])
    assert result.exit_code == 2
    assert run_id in result.stderr


def test_a_killed_run_resumes_without_losing_or_duplicating_trials(tmp_path: Path) -> None:
    db = str(tmp_path / "killed.db")
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    os.mkfifo(str(fifo) + ".never")
    env = {**os.environ, "REMIT_TEST_BLOCK_FIFO": str(fifo), "REMIT_TEST_BLOCK_AT": "7",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    args = [*REMIT, "run", *HANDWRITTEN, "--agent", "tests.blocking_agents:factory",
            "--trials", "2", "--db", db, "--json"]
    process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    with open(fifo, encoding="utf-8") as ready:
        assert ready.readline() == "ready\n"  # the 7th trial's agent is being built
    process.send_signal(signal.SIGKILL)
    process.wait()
    with Store.open(db) as store:
        [listing] = store.runs()
        assert listing.trials == 6
        assert listing.ended_at is None
    env.pop("REMIT_TEST_BLOCK_FIFO")
    resumed = subprocess.run([*REMIT, "run", "--resume", listing.run_id, "--db", db, "--json"],
                             env=env, capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    whole = subprocess.run([*args[:-3], "--db", str(tmp_path / "whole.db"), "--json"],
                           env=env, capture_output=True, text=True, check=False)
    assert whole.returncode == 0, whole.stderr
    with Store.open(db) as store:
        keys = [(t.scored.scenario_id, t.scored.mode, t.scored.trial)
                for t in store.trials(listing.run_id, with_trails=False)]
        assert len(keys) == len(set(keys)) == 40
        assert store.runs()[0].ended_at is not None
    assert json.loads(resumed.stdout)["modes"] == json.loads(whole.stdout)["modes"]


def test_ctrl_c_keeps_finished_trials_and_says_how_to_resume(tmp_path: Path) -> None:
    db = str(tmp_path / "interrupted.db")
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    os.mkfifo(str(fifo) + ".never")
    env = {**os.environ, "REMIT_TEST_BLOCK_FIFO": str(fifo), "REMIT_TEST_BLOCK_AT": "4",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    with subprocess.Popen([*REMIT, "run", *HANDWRITTEN, "--agent",
                           "tests.blocking_agents:factory", "--db", db],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        with open(fifo, encoding="utf-8") as ready:
            assert ready.readline() == "ready\n"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate()
    assert process.returncode == 130
    with Store.open(db) as store:
        [listing] = store.runs()
    assert listing.trials == 3
    assert f"interrupted: 3 finished trials of {listing.run_id} are kept in" in stderr
    assert f"remit run --resume {listing.run_id} --db {db}" in stderr.replace("\n", "")


def test_resume_refuses_options_that_would_change_the_run(db: str) -> None:
    cli = CliRunner()
    run_id = _run(cli, db, "--agent", "oracle", "--modes", "dual_control")
    refused = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--trials", "5",
                               "--agent", "baseline"])
    assert refused.exit_code == 2
    assert "--agent, --trials cannot change it" in refused.stderr
    allowed = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--concurrency", "2",
                               "--json"])
    assert allowed.exit_code == 0, allowed.output
    assert json.loads(allowed.stdout)["run_id"] == run_id


def test_an_unloadable_agent_records_no_run(db: str) -> None:
    cli = CliRunner()
    _run(cli, db, "--agent", "oracle", "--modes", "dual_control")
    result = cli.invoke(app, ["run", *HANDWRITTEN, "--db", db, "--agent", "nobody"])
    assert result.exit_code == 2
    with Store.open(db) as store:
        assert [r.agent_id for r in store.runs()] == ["oracle"]


def test_retry_errors_reruns_only_the_trials_an_outage_spoiled(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = CliRunner()
    monkeypatch.setenv("REMIT_TEST_OUTAGE_SCENARIO", "discount-exception")
    first = cli.invoke(app, ["run", *HANDWRITTEN, "--db", db, "--agent",
                             "tests.blocking_agents:outage", "--trials", "2", "--retries", "1"])
    assert first.exit_code == 0, first.output
    assert "infrastructure errors: 4 trials after 1 retries" in first.stdout
    run_id = Store.open(db).runs()[0].run_id
    assert f"remit run --resume {run_id} --retry-errors" in first.stdout.replace("\n", "")

    plain = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--json"])
    assert plain.exit_code == 0, plain.output
    assert json.loads(plain.stdout)["infra_errors"] == 4  # errors are results: kept

    monkeypatch.delenv("REMIT_TEST_OUTAGE_SCENARIO")
    retried = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--retry-errors",
                               "--json"])
    assert retried.exit_code == 0, retried.output
    whole = _run(cli, db, "--agent", "tests.blocking_agents:outage", "--trials", "2")
    with Store.open(db) as store:
        resumed, clean = store.trials(run_id), store.trials(whole)
    assert json.loads(retried.stdout)["infra_errors"] == 0
    assert [(r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in resumed] == [
        (r.scored.scenario_id, r.scored.mode, r.scored.trial) for r in clean]
    assert [r.trail for r in resumed] == [r.trail for r in clean]
    assert json.loads(retried.stdout)["modes"] == json.loads(
        cli.invoke(app, ["show", whole, "--db", db, "--json"]).stdout)["modes"]


def test_retry_errors_needs_resume(db: str) -> None:
    result = CliRunner().invoke(app, ["run", *HANDWRITTEN, "--db", db, "--retry-errors"])
    assert result.exit_code == 2
    assert "give it with --resume RUN_ID" in result.stderr
    assert not Path(db).exists()
