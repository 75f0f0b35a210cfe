"""The domain commands of the CLI: authority and catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.authority import Action, default_map, dump_map
from remit.cli import app
from remit.quotes import TRANSITIONS


@pytest.fixture
def cli() -> CliRunner:
    return CliRunner()


def test_who_can_release_payment_is_finance_only_in_dual_control(cli: CliRunner) -> None:
    result = cli.invoke(app, ["authority", "who-can", "release_payment",
                              "--mode", "dual_control", "--json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "action": "release_payment", "mode": "dual_control", "roles": ["finance"]}


def test_who_can_in_all_tools_includes_the_agent(cli: CliRunner) -> None:
    result = cli.invoke(app, ["authority", "who-can", "release_payment",
                              "--mode", "all_tools", "--json"])
    assert result.exit_code == 0
    assert "agent" in json.loads(result.stdout)["roles"]


def test_table_json_covers_every_action_and_mode(cli: CliRunner) -> None:
    result = cli.invoke(app, ["authority", "table", "--json"])
    assert result.exit_code == 0
    table = json.loads(result.stdout)
    assert table["modes"] == ["dual_control", "all_tools", "oracle_plan"]
    assert set(table["actions"]) == {a.value for a in Action}
    assert table["actions"]["approve"]["dual_control"] == ["finance"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["authority", "who-can", "pay_everyone"], "unknown action='pay_everyone'"),
        (["authority", "who-can", "approve", "--mode", "yolo"], "unknown control mode"),
        (["authority", "check", "no/such/file.yaml"], "No such file"),
    ],
)
def test_user_errors_print_one_line_and_exit_2(cli: CliRunner, args: list[str],
                                               message: str) -> None:
    result = cli.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_check_accepts_the_default_map(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text(dump_map(default_map(), "yaml"), encoding="utf-8")
    result = cli.invoke(app, ["authority", "check", str(path)])
    assert result.exit_code == 0, result.stdout
    assert "ok" in result.stdout


def test_check_reports_problems_and_exits_1(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    text = dump_map(default_map(), "yaml").replace("role: finance", "role: cfo", 1)
    path.write_text(text, encoding="utf-8")
    result = cli.invoke(app, ["authority", "check", str(path)])
    assert result.exit_code == 1
    assert "'cfo'" in result.stdout
    assert "finance" in result.stdout  # the valid roles are listed


def test_diagram_is_mermaid_with_every_trigger(cli: CliRunner) -> None:
    result = cli.invoke(app, ["authority", "diagram"])
    assert result.exit_code == 0
    assert "stateDiagram" in result.stdout
    edges = {line.strip() for line in result.stdout.splitlines() if "-->" in line}
    expected = {f"{source.value} --> {spec.dest.value}: {spec.trigger.value}"
                for spec in TRANSITIONS for source in spec.sources}
    assert expected <= edges  # every transition of the machine, as an edge
    assert {edge.rsplit(": ", 1)[-1] for edge in edges if ": " in edge} == {
        spec.trigger.value for spec in TRANSITIONS}


def test_catalogue_json_is_deterministic_per_seed(cli: CliRunner) -> None:
    first = cli.invoke(app, ["catalogue", "show", "--seed", "3", "--json"])
    second = cli.invoke(app, ["catalogue", "show", "--seed", "3", "--json"])
    other = cli.invoke(app, ["catalogue", "show", "--seed", "4", "--json"])
    assert first.exit_code == 0
    assert first.stdout == second.stdout
    assert first.stdout != other.stdout
    assert json.loads(first.stdout)["variants"]


def test_catalogue_table_lists_skus(cli: CliRunner) -> None:
    result = cli.invoke(app, ["catalogue", "show"])
    assert result.exit_code == 0
    assert "BV-" in result.stdout
