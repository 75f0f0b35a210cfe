"""``remit run --fail-under``: the run is stored and reported as usual, then exit 1 with a
line per failing gate; a gate that cannot be checked is one line and exit 2 up front."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.store import Store

# The baseline on the handwritten suite: pass^1 0.9 in all_tools and 0.8 in dual_control,
# where it abandons hand-offs in 0.2 of the trials (the tests read the values back).
BASELINE = ["run", "--suite", "handwritten", "--agent", "baseline"]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "remit.db")


def _modes(cli: CliRunner, db: str) -> dict[str, dict[str, object]]:
    result = cli.invoke(app, [*BASELINE, "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    modes: dict[str, dict[str, object]] = json.loads(result.stdout)["modes"]
    return modes


def test_gates_that_hold_exit_0_and_say_so(db: str) -> None:
    cli = CliRunner()
    result = cli.invoke(app, [*BASELINE, "--db", db,
                              "--fail-under", "pass^1=0.5, errors<=0, mean_steps=60"])
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1] == "gates hold: 3 gate(s) over 2 mode(s)"
    assert "stored as r-" in result.stdout  # the run is printed as without gates


def test_a_failing_gate_exits_1_naming_mode_metric_value_and_limit(
        db: str, tmp_path: Path) -> None:
    cli = CliRunner()
    modes = _modes(cli, db)
    all_tools, dual = modes["all_tools"], modes["dual_control"]
    pass1 = dual["pass_hat_k"]["1"]  # type: ignore[index]
    abandoned = dual["abandoned_handoff_rate"]["value"]  # type: ignore[index]
    # the gates below hold in all_tools and fail in dual_control
    assert all_tools["pass_hat_k"]["1"] >= 0.85 > pass1  # type: ignore[index]
    assert all_tools["abandoned_handoff_rate"]["value"] <= 0.1 < abandoned  # type: ignore[index]
    assert all_tools["wrong_variant_rate"]["value"] == 0.0  # type: ignore[index]
    report = tmp_path / "report.md"

    result = cli.invoke(app, [*BASELINE, "--db", db, "--report", str(report), "--fail-under",
                              "pass^1>=0.85,abandoned_handoff_rate<=0.1,"
                              "wrong_variant_final<=0.02"])

    assert result.exit_code == 1, result.output
    failed = [line for line in result.stderr.splitlines() if line.startswith("gate")]
    assert failed == [
        f"gate failed: dual_control: pass^1 = {pass1:.4g}, below the limit 0.85",
        f"gate failed: dual_control: abandoned_handoff_rate = {abandoned:.4g}, above the "
        "limit 0.1",
    ]
    assert "stored as r-" in result.stdout  # printed as usual
    assert report.is_file()  # reported as usual
    with Store.open(db, create=False) as store:
        assert len(store.runs()) == 2  # stored as usual (the run above and this one)


def test_a_mode_prefix_gates_that_mode_only(db: str) -> None:
    cli = CliRunner()
    result = cli.invoke(app, [*BASELINE, "--db", db, "--json",
                              "--fail-under", "dual_control:pass^1=0.8"])
    assert result.exit_code == 0, result.output
    gates = json.loads(result.stdout)["gates"]
    assert [(g["mode"], g["gate"]["metric"], g["gate"]["op"], g["passed"]) for g in gates] == [
        ("dual_control", "pass^1", ">=", True)]
    assert json.loads(result.stdout)["modes"].keys() == {"all_tools", "dual_control"}


def test_without_gates_a_run_with_failures_exits_0(db: str) -> None:
    result = CliRunner().invoke(app, [*BASELINE, "--db", db, "--json"])
    assert result.exit_code == 0, result.output
    assert "gates" not in json.loads(result.stdout)
    assert "gate" not in result.stderr


@pytest.mark.parametrize(("gates", "problem"), [
    ("", "--fail-under '' names no gate"),
    ("=0.8", "--fail-under term '=0.8' names no metric"),
    ("pass^1", "--fail-under term 'pass^1' has no comparison (>=, <= or =)"),
    ("speed>=3", "--fail-under term 'speed>=3': unknown metric 'speed'; gate one of pass^K, "),
    ("oracle_plan:pass^1=0.9", "gates mode 'oracle_plan', which the run does not have (its "
                               "modes: all_tools, dual_control)"),
    ("pass^2=0.9", "the run has 1 trial(s) per scenario and mode, so pass^2 is not measured"),
    ("pass^1<=0.9", "pass^1 is better higher, so its gate is a floor; write pass^1>=0.9"),
    ("pass^1=80", "pass^1 lies between 0 and 1"),
    ("pass^1=high", "the limit 'high' is not a number"),
])
def test_a_gate_that_cannot_be_checked_is_one_line_and_exit_2_before_running(
        tmp_path: Path, gates: str, problem: str) -> None:
    db = tmp_path / "never.db"
    result = CliRunner().invoke(app, [*BASELINE, "--db", str(db), "--fail-under", gates])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ")
    assert problem in line
    assert not db.exists()  # nothing ran, nothing was created


def test_a_resumed_run_is_gated_on_its_own_modes(db: str) -> None:
    cli = CliRunner()
    first = cli.invoke(app, [*BASELINE, "--db", db, "--json", "--modes", "dual_control"])
    run_id = json.loads(first.stdout)["run_id"]

    held = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--fail-under",
                            "dual_control:pass^1=0.8"])
    failed = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--fail-under",
                              "pass^1=0.95"])
    other_mode = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--fail-under",
                                  "all_tools:pass^1=0.5"])

    assert held.exit_code == 0, held.output
    assert failed.exit_code == 1
    assert "gate failed: dual_control: pass^1 = 0.8, below the limit 0.95" in failed.stderr
    assert other_mode.exit_code == 2
    assert "gates mode 'all_tools', which the run does not have" in other_mode.stderr
