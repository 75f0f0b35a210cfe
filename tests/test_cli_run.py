"""``remit run``: the built-in scenarios, an agent, every mode, a per-mode comparison."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.scenarios import builtin_scenarios


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A runner whose runs go to a fresh SQLite file, on the handwritten suite."""
    monkeypatch.setenv("REMIT_DB", str(tmp_path / "remit.db"))
    return CliRunner()


HANDWRITTEN = ["--suite", "handwritten"]


def test_oracle_passes_everything_in_all_three_modes(cli: CliRunner) -> None:
    result = cli.invoke(app, ["run", *HANDWRITTEN, "--agent", "oracle", "--trials", "2",
                              "--modes", "all_tools,dual_control,oracle_plan", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report["modes"]) == ["all_tools", "dual_control", "oracle_plan"]
    assert report["manifest"]["suite_id"] == "handwritten"
    assert report["unmeasured_rates"] == []  # scored by this remit's scorer
    for summary in report["modes"].values():
        assert summary["pass_hat_k"] == {"1": 1.0, "2": 1.0}
        assert summary["trials"] == 2 * len(builtin_scenarios())
        for rate in ("wrong_variant_rate", "wrong_variant_shown_rate", "unsupported_claim_rate",
                     "abandoned_handoff_rate", "missing_handoff_rate"):  # shares of trials
            assert summary[rate]["value"] == 0.0
            assert summary[rate]["low"] == 0.0
            assert 0.0 < summary[rate]["high"] < 1.0
            assert summary[rate]["total"] == summary["trials"]
        for rate in ("unsupported_per_claim", "unsupported_cited", "abandoned_per_handoff"):
            assert summary[rate]["successes"] == 0  # per item: claims, citations, hand-offs


def test_baseline_differs_by_mode_and_is_imperfect(cli: CliRunner) -> None:
    result = cli.invoke(app, ["run", *HANDWRITTEN, "--agent", "baseline", "--trials", "2",
                              "--json", "--modes", "all_tools,dual_control"])
    assert result.exit_code == 0, result.output
    modes = json.loads(result.stdout)["modes"]
    all_tools, dual = modes["all_tools"], modes["dual_control"]
    assert all_tools["pass_hat_k"]["1"] < 1.0
    assert dual["pass_hat_k"]["1"] < 1.0
    assert all_tools["pass_hat_k"] != dual["pass_hat_k"]


def test_table_names_every_mode_and_lists_failures(cli: CliRunner) -> None:
    result = cli.invoke(app, ["run", *HANDWRITTEN])
    assert result.exit_code == 0, result.output
    assert "all_tools" in result.stdout
    assert "dual_control" in result.stdout
    assert "pass^1" in result.stdout
    assert "FAIL consent-withheld (all_tools, trial 0 of 1)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", *HANDWRITTEN, "--agent", "nobody"], "nobody"),
        (["run", *HANDWRITTEN, "--modes", "no_control"], "unknown control mode"),
        (["run", *HANDWRITTEN, "--agent", "no.such.module:factory"], "no.such.module"),
        (["run", "--suite", "no-such-suite"], "no-such-suite"),
    ],
)
def test_bad_run_options_exit_2_with_one_line(cli: CliRunner, args: list[str],
                                              message: str) -> None:
    result = cli.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_agent_from_a_module_in_the_working_directory(
        cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "quitting_agents.py"
    module.write_text(
        "from remit.world import ToolCall\n"
        "class Quitter:\n"
        "    def __init__(self, info): pass\n"
        "    def start(self, briefing): pass\n"
        "    def act(self, observation):\n"
        "        return ToolCall(tool='end', arguments={'summary': 'no'})\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    result = cli.invoke(app, ["run", *HANDWRITTEN, "--agent", "quitting_agents:Quitter",
                              "--modes", "dual_control", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)["modes"]["dual_control"]
    assert summary["pass_hat_k"]["1"] == 0.0
    assert summary["mean_steps"] == 1.0
