"""The stored-run commands: runs, show, trail, compare; bad databases; kill and resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from typer.testing import CliRunner

from remit.cli import app
from remit.scenarios import Suite, builtin_scenarios, export_suite
from remit.store import BATCH_TRIALS, Store, resolve_url
from remit.store.figures import fill_figures

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
    tradeoff = {row["metric"]: row for row in comparison["tradeoff"]}  # --json: the same rows
    assert {label for label in rows if label != "metric"} == {
        row["label"] for row in comparison["tradeoff"]}
    for metric in ("wrong_variant_rate", "wrong_variant_shown_rate", "unsupported_claim_rate",
                   "abandoned_handoff_rate", "missing_handoff_rate"):
        assert not tradeoff[metric]["per_item"]
        assert tradeoff[metric]["paired_scenarios"] == comparison["n_paired"]
    assert rows["abandoned hand-off (trials)"][0] == \
        f"{comparison['a']['summary']['abandoned_handoff_rate']['value']:.2f}"
    assert all(row["per_item"] for row in comparison["tradeoff"]
               if row["metric"] in ("unsupported_per_claim", "unsupported_cited"))


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


_SCORER_2_FIELDS = ("wrong_variant_shown", "wrong_shown_skus", "wrong_variants",
                    "attribute_claims", "unsupported_attribute_claims", "fit_claims",
                    "unsupported_fit_claims", "authority_claims", "unsupported_authority_claims",
                    "cited_claims", "unsupported_cited_claims", "unsupported_cited", "handoffs",
                    "missing_handoffs", "missing")
"""What scorer 2 added to a trial's score: a run stored by scorer 1 has none of it."""


def _store_as_scorer_1(db: str, run_id: str) -> str:
    """A copy of run ``run_id`` as scorer 1 would have stored it: its manifest says scorer
    "1", and each stored score lacks the fields scorer 2 added and counts required owner
    actions never requested among the abandoned hand-offs (as scorer 1 did)."""
    with Store.open(db) as store:
        manifest = store.manifest(run_id)
        records = store.trials(run_id)
        old = manifest.model_copy(update={"run_id": f"{run_id}-s1", "scorer_version": "1"})
        store.create_run(old)
        for record in records:
            score = record.scored.score
            # an agent that opened no hand-off requested none of the actions never performed
            never = tuple(f"abandoned_handoff: {f}" for f in score.failures
                          if f.startswith("owner_actions:") and not score.handoffs)
            old_score = score.model_copy(update={
                "abandoned_handoffs": score.abandoned_handoffs + len(never),
                "abandoned": score.abandoned + never})
            store.save_trial(old.run_id, record.model_copy(update={
                "scored": record.scored.model_copy(update={"score": old_score})}))
        assert manifest.ended_at is not None
        store.finish_run(old.run_id, manifest.ended_at)
    with sqlite3.connect(db) as connection:  # strip what scorer 1 never wrote
        rows = connection.execute("SELECT pk, score FROM trials WHERE run_id = ?",
                                  (old.run_id,)).fetchall()
        for pk, text in rows:
            stored = {k: v for k, v in json.loads(text).items() if k not in _SCORER_2_FIELDS}
            connection.execute("UPDATE trials SET score = ? WHERE pk = ?",
                               (json.dumps(stored), pk))
    engine = create_engine(resolve_url(db, environ={}))
    with engine.begin() as connection:  # and the figures, as the migration reads them
        fill_figures(connection)
    engine.dispose()
    return old.run_id


def test_compare_refuses_runs_of_different_scorers_unless_forced(db: str, tmp_path: Path) -> None:
    cli = CliRunner()
    new = _run(cli, db, "--agent", "baseline", "--modes", "dual_control")
    old = _store_as_scorer_1(db, new)
    with Store.open(db) as store:
        stored = [r.scored.score for r in store.trials(old, with_trails=False)]
    assert any(s.abandoned_handoffs > s.handoffs == 0 for s in stored), \
        "scorer 1's abandoned hand-offs, without the hand-offs opened"

    refused = cli.invoke(app, ["compare", old, new, "--db", db])
    assert refused.exit_code == 2
    assert refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1
    # the sides are named by run id and agent
    assert refused.stderr.startswith(f"error: cannot compare '{old} (baseline)' with "
                                     f"'{new} (baseline)': scorer version differs (a='1', "
                                     "b='2'); compare runs of the same suite scored by the "
                                     "same scorer, or pass --force")

    forced = cli.invoke(app, ["compare", old, new, "--db", db, "--force"],
                        env={"COLUMNS": "200"})
    assert forced.exit_code == 0, forced.output
    assert "WARNING: forced comparison: scorer version differs (a='1', b='2')" in forced.stdout
    assert ("WARNING: side a was scored by scorer 1, which did not measure wrong variant "
            "(shown), missing hand-off (trials), ") in forced.stdout
    rows = {line.split("│")[1].strip() for line in forced.stdout.splitlines()
            if line.startswith("│")}
    assert {"pass^1", "wrong variant (final)", "unsupported claim (trials)",
            "abandoned hand-off (trials)"} <= rows
    assert not {"wrong variant (shown)", "missing hand-off (trials)",
                "abandoned per hand-off opened"} & rows

    as_json = json.loads(cli.invoke(app, ["compare", old, new, "--db", db, "--force",
                                          "--json"]).stdout)
    assert as_json["forced"] is True
    assert (as_json["a"]["scorer_version"], as_json["b"]["scorer_version"]) == ("1", "2")
    assert "abandoned_per_handoff" in as_json["a"]["unmeasured"]
    metrics = [row["metric"] for row in as_json["tradeoff"]]
    assert "abandoned_handoff_rate" in metrics
    assert not set(as_json["a"]["unmeasured"]) & set(metrics)

    shown_json = json.loads(cli.invoke(app, ["show", old, "--db", db, "--json"]).stdout)
    assert shown_json["unmeasured_rates"] == as_json["a"]["unmeasured"]
    for key in shown_json["unmeasured_rates"]:  # no data, rather than scorer 1's defaults
        assert shown_json["modes"]["dual_control"][key]["total"] == 0, key
    shown = cli.invoke(app, ["show", old, "--db", db], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert "scorer 1" in shown.stdout
    assert "note: this run was scored by scorer 1, not this remit's scorer 2" in shown.stdout
    row = next(line for line in shown.stdout.splitlines() if "wrong variant (shown)" in line)
    assert row.split("│")[2].strip() == "n/a"
    report = tmp_path / "old.md"
    written = cli.invoke(app, ["report", old, "--db", db, "-o", str(report)])
    assert written.exit_code == 0, written.output
    assert "| wrong variant (shown) | n/a |" in report.read_text(encoding="utf-8")
    abandoning = next(r for r in stored if r.abandoned)
    with Store.open(db) as store:
        trial = next(t for t in store.trials(old, with_trails=False)
                     if t.scored.score == abandoning)
    trail = cli.invoke(app, ["trail", f"{old}/{trial.scored.scenario_id}/dual_control/"
                                      f"{trial.scored.trial}", "--db", db],
                       env={"COLUMNS": "200"})
    assert trail.exit_code == 0, trail.output
    for sentence in abandoning.abandoned:
        assert f"scored: {sentence}\n" in trail.stdout

    resumed = cli.invoke(app, ["run", "--resume", old, "--db", db])
    assert resumed.exit_code == 2
    assert resumed.stderr.strip() == (
        f"error: cannot resume {old}: it was scored by scorer '1' and this remit scores with "
        "scorer '2', so its trials and new ones would not mean the same; start a new run")


@pytest.mark.parametrize("command", [["runs"], ["show", "r-nope"], ["trail", "r-nope/x/y/0"]])
def test_a_missing_database_is_one_line_and_nothing_is_written(
        tmp_path: Path, command: list[str]) -> None:
    path = tmp_path / "absent.db"
    result = CliRunner().invoke(app, [*command, "--db", str(path)])
    assert result.exit_code == 2
    assert "no remit database at" in result.stderr
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
        assert listing.trials <= 6  # the batch not saved yet is lost (or nothing at all)
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


def _kill_at(args: list[str], trial: int, tmp_path: Path) -> dict[str, str]:
    """Run ``args``, stop its agent factory dead at ``trial`` and kill it (SIGKILL);
    return the environment that runs the blocking agent without blocking."""
    fifo = tmp_path / "ready"
    os.mkfifo(fifo)
    os.mkfifo(str(fifo) + ".never")
    env = {**os.environ, "REMIT_TEST_BLOCK_FIFO": str(fifo), "REMIT_TEST_BLOCK_AT": str(trial),
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    process = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    with open(fifo, encoding="utf-8") as ready:
        assert ready.readline() == "ready\n"
    process.send_signal(signal.SIGKILL)
    process.wait()
    env.pop("REMIT_TEST_BLOCK_FIFO")
    return env


def test_a_run_killed_past_its_first_batch_resumes_to_the_trials_of_an_uninterrupted_run(
        tmp_path: Path) -> None:
    killed, whole = str(tmp_path / "killed.db"), str(tmp_path / "whole.db")
    args = [*REMIT, "run", "--suite", "core", "--modes", "dual_control", "--agent",
            "tests.blocking_agents:factory", "--json"]
    env = _kill_at([*args, "--db", killed], 100, tmp_path)  # 99 of 120 trials finished
    with Store.open(killed) as store:
        [listing] = store.runs()
    assert BATCH_TRIALS <= listing.trials <= 99  # the first batch was saved, whole
    resumed = subprocess.run([*REMIT, "run", "--resume", listing.run_id, "--db", killed],
                             env=env, capture_output=True, text=True, check=False)
    assert resumed.returncode == 0, resumed.stderr
    uninterrupted = subprocess.run([*args, "--db", whole], env=env, capture_output=True,
                                   text=True, check=False)
    assert uninterrupted.returncode == 0, uninterrupted.stderr
    with Store.open(killed) as store:
        kept = [r.model_copy(update={"seconds": None}) for r in store.trials(listing.run_id)]
        assert store.runs()[0].ended_at is not None
    with Store.open(whole) as store:
        [other] = store.runs()
        expected = [r.model_copy(update={"seconds": None}) for r in store.trials(other.run_id)]
    assert len(expected) == 120
    assert kept == expected  # every trial once, with the same score and trail


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
