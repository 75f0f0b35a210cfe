"""``remit suite check FILE|DIR``: exit 0 when every scenario passes, 1 naming each
problem's rule, 2 for bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from remit.cli import app
from remit.harness import builtin_suite
from remit.scenarios import Scenario, dump_scenario
from tests.scenarios.broken import (
    citing_a_draft,
    first_line,
    over_budget,
    quoting_an_excluded_sku,
)

MODE_FILE = Path(__file__).parents[1] / "examples" / "agent-approves-5pct.mode.yaml"


def _check(*args: str) -> Result:
    return CliRunner().invoke(app, ["suite", "check", *args])


def _write(directory: Path, scenario: Scenario, name: str | None = None) -> Path:
    path = directory / (name or f"{scenario.id}.scenario.yaml")
    path.write_text(dump_scenario(scenario, readable=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("handwritten")
    result = CliRunner().invoke(app, ["suite", "export", "--suite", "handwritten", "-o",
                                      str(directory)])
    assert result.exit_code == 0, result.output
    return directory


def test_a_good_exported_scenario_passes(exported: Path) -> None:
    path = sorted(exported.iterdir())[0]

    result = _check(str(path))

    assert result.exit_code == 0, result.output
    first = builtin_suite("handwritten").scenarios[0].id
    assert result.stdout.splitlines()[0].split() == ["ok", first, str(path)]
    assert "checked 1 scenario(s) in dual_control, all_tools, oracle_plan: 1 ok" in result.stdout


def test_a_directory_is_checked_file_by_file(exported: Path) -> None:
    result = _check(str(exported), "--json")

    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert report["modes"] == ["dual_control", "all_tools", "oracle_plan"]
    assert [s["scenario_id"] for s in report["scenarios"]] == [
        s.id for s in builtin_suite("handwritten")]
    assert all(s["ok"] and s["problems"] == [] for s in report["scenarios"])


def test_a_plan_citing_a_draft_value_names_the_rule_and_the_attribute(tmp_path: Path) -> None:
    scenario, sku, draft = citing_a_draft()
    step = first_line(scenario)[0] + 1

    result = _check(str(_write(tmp_path, scenario)))

    assert result.exit_code == 1, result.output
    assert f"FAIL  {scenario.id}" in result.stdout
    assert (f"  {scenario.id}: plan.cites-released: plan step {step} cites draft facts "
            f"[{draft!r}] of {sku}") in result.stdout


def test_a_plan_quoting_an_excluded_sku_names_the_fit_rule(tmp_path: Path) -> None:
    scenario, sku, failing = quoting_an_excluded_sku()

    result = _check(str(_write(tmp_path, scenario)), "--json")

    assert result.exit_code == 1, result.output
    (checked,) = json.loads(result.stdout)["scenarios"]
    (problem,) = [p for p in checked["problems"] if p["rule"] == "plan.sku-acceptable"]
    assert problem["step"] == first_line(scenario)[0] + 1
    assert problem["mode"] is None
    assert [rule.split("_")[0] for rule in problem["fit_rules"]] == [
        verdict.rule.lower() for verdict in failing]
    for verdict, function in zip(failing, problem["fit_rules"], strict=True):
        reason = verdict.reason.removeprefix(f"{verdict.rule} fails: ").rstrip(".")
        assert f"{sku} is excluded by" in problem["message"]
        assert f"{function} ({reason})" in problem["message"]
    text = _check(str(_write(tmp_path, scenario))).stdout
    assert f"{scenario.id}: plan.sku-acceptable: plan step {problem['step']} quotes " \
           f"sku={sku!r}" in text


def test_expectations_the_oracle_cannot_reach_name_the_mode(tmp_path: Path) -> None:
    tight = over_budget()
    path = _write(tmp_path, tight)

    result = _check(str(path))

    assert result.exit_code == 1, result.output
    assert f"{tight.id}[dual_control]: oracle.passes: the oracle, following the plan, " \
           "fails the expectations after" in result.stdout
    assert f"{tight.id}[all_tools]" not in result.stdout
    # Checked only where it passes, or with a mode file: the modes are the user's.
    assert _check(str(path), "--modes", "all_tools").exit_code == 0
    with_file = _check(str(path), "--modes", f"all_tools,{MODE_FILE}", "--json")
    assert json.loads(with_file.stdout)["modes"] == ["all_tools", "agent-approves-5pct"]


def test_one_bad_scenario_in_a_directory_fails_it(exported: Path, tmp_path: Path) -> None:
    for path in sorted(exported.iterdir())[:2]:
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    scenario, _, _ = citing_a_draft()
    _write(tmp_path, scenario, "zzz-draft.scenario.yaml")

    result = _check(str(tmp_path))

    assert result.exit_code == 1, result.output
    assert [line.split()[0] for line in result.stdout.splitlines()
            if not line.startswith(" ")][:3] == ["ok", "ok", "FAIL"]
    assert "checked 3 scenario(s) in dual_control, all_tools, oracle_plan: 2 ok, 1 with " \
           "problems" in result.stdout


@pytest.mark.parametrize(("name", "text", "expected"), [
    ("scenario_missing.yaml", None, "scenario_missing.yaml: no such file or directory"),
    ("scenario_broken.yaml", "id: [unclosed", "scenario_broken.yaml: (top level): not valid YAML"),
    ("notes.txt", "hello", "notes.txt: unknown file type '.txt'"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, name: str, text: str | None,
                                          expected: str) -> None:
    path = tmp_path / name
    if text is not None:
        path.write_text(text, encoding="utf-8")

    result = _check(str(path))

    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert expected in result.stderr


def test_a_file_that_does_not_validate_names_the_key_path(exported: Path,
                                                         tmp_path: Path) -> None:
    good = sorted(exported.iterdir())[0]
    text = good.read_text(encoding="utf-8").replace("final_state: accepted",
                                                     "final_state: acceptd")
    bad = tmp_path / good.name
    bad.write_text(text, encoding="utf-8")

    for target in (bad, tmp_path):  # the file, or the directory holding it
        result = _check(str(target))
        assert result.exit_code == 2
        assert len(result.stderr.strip().splitlines()) == 1
        assert f"{bad}: expect.final_state: Input should be" in result.stderr


def test_an_unknown_mode_is_bad_input(exported: Path) -> None:
    result = _check(str(exported), "--modes", "dual_contrl")
    assert result.exit_code == 2
    assert "unknown control mode name='dual_contrl'" in result.stderr
