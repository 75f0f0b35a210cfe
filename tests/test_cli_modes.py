"""Custom modes from files on the command line: who-can, run, compare, resume."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.store import Store

EXAMPLE = Path(__file__).parents[1] / "examples" / "agent-approves-5pct.mode.yaml"
NAME = "agent-approves-5pct"


@pytest.fixture
def mode_file(tmp_path: Path) -> Path:
    return Path(shutil.copy(EXAMPLE, tmp_path / "five.yaml"))


def test_who_can_reads_a_mode_file(mode_file: Path) -> None:
    result = CliRunner().invoke(app, ["authority", "who-can", "approve", "--mode",
                                      str(mode_file), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"action": "approve", "mode": NAME,
                                         "roles": ["agent", "finance"]}


def test_a_run_with_a_mode_file_compares_it_and_resumes_without_the_file(
        mode_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cli, db = CliRunner(), str(tmp_path / "remit.db")
    monkeypatch.setenv("REMIT_TEST_OUTAGE_SCENARIO", "discount-exception")
    first = cli.invoke(app, ["run", "--suite", "handwritten", "--db", db, "--json",
                             "--modes", f"dual_control,{mode_file}", "--retries", "0",
                             "--agent", "tests.blocking_agents:outage"])
    assert first.exit_code == 0, first.output
    run_id = json.loads(first.stdout)["run_id"]
    assert list(json.loads(first.stdout)["modes"]) == ["dual_control", NAME]
    assert json.loads(first.stdout)["infra_errors"] == 2

    mode_file.unlink()  # the manifest keeps the definition
    monkeypatch.delenv("REMIT_TEST_OUTAGE_SCENARIO")
    resumed = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--retry-errors",
                               "--json"])
    assert resumed.exit_code == 0, resumed.output
    summary = json.loads(resumed.stdout)["modes"]
    assert summary[NAME]["pass_hat_k"]["1"] == summary["dual_control"]["pass_hat_k"]["1"] == 1

    compared = cli.invoke(app, ["compare", run_id, "--db", db, "--json"])
    assert compared.exit_code == 0, compared.output
    assert NAME in compared.stdout
    with Store.open(db) as store:
        (recorded,) = [m for m in store.manifest(run_id).modes if m.name == NAME]
    assert len(recorded.fingerprint) == 64


@pytest.mark.parametrize(("modes", "problem"), [
    ("dual_control,nope", "unknown control mode name='nope'; valid modes: dual_control, "
                          "all_tools, oracle_plan; for a custom mode give a mode file"),
    ("missing.yaml", "mode file missing.yaml: cannot be read"),
    ("dual_control,dual_control", "--modes names a mode twice: dual_control"),
])
def test_bad_modes_are_one_line_and_nothing_is_written(
        tmp_path: Path, modes: str, problem: str) -> None:
    db = tmp_path / "remit.db"
    result = CliRunner().invoke(app, ["run", "--suite", "handwritten", "--db", str(db),
                                      "--modes", modes])
    assert result.exit_code == 2
    assert problem in result.stderr.replace("\n", "")
    assert not db.exists()


def test_a_mode_file_that_delegates_from_a_non_holder_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(EXAMPLE.read_text().replace("from: finance", "from: buyer"))
    result = CliRunner().invoke(app, ["authority", "who-can", "approve", "--mode", str(bad)])
    assert result.exit_code == 2
    assert f"mode file {bad}: cannot delegate approve from buyer" in result.stderr.replace(
        "\n", "")


_CUSTOM_MAP = """\
name: keyed
base: dual_control
map:
  name: keyed
  version: "1"
  grants:
    - {id: g-agent-configure, role: agent, actions: [configure, edit_lines, price, submit,
       present, invoice, revise, request_fit]}
    - id: g-finance-approve
      role: finance
      actions: [approve, deny, release_payment, cancel]
      conditions: [{kind: custom, name: key_account}]
    - {id: g-buyer, role: buyer, actions: [accept, reject, receive_po, record_receipt,
       confirm_fit, reject_fit, cancel]}
    - {id: g-tech, role: technical_owner, actions: [confirm_fit, reject_fit]}
    - {id: g-clock, role: system, actions: [expire]}
"""


@pytest.mark.parametrize(("text", "problem"), [
    (EXAMPLE.read_text().replace("attribute: discount_pct", "attribute: margin_pct"),
     "delegation of approve on margin_pct gives limit (at most 5), which would delegate the "
     "thinnest margins; bound a margin from below with at_least: N"),
    (EXAMPLE.read_text().replace("limit: 5", "at_least: 5"),
     "delegation of approve on discount_pct gives at_least (5), which would delegate the "
     "largest values; bound discount_pct from above with limit: N"),
    (EXAMPLE.read_text().replace("limit: 5", "lift_separation: true"),
     "delegation of approve on discount_pct has no bound; give limit: N"),
    (_CUSTOM_MAP,
     "grant g-finance-approve: custom predicate 'key_account' cannot be evaluated in a "
     "trial"),
])
def test_a_mode_the_gate_cannot_apply_is_refused_in_one_line(
        tmp_path: Path, text: str, problem: str) -> None:
    bad, db = tmp_path / "bad.yaml", tmp_path / "remit.db"
    bad.write_text(text)
    result = CliRunner().invoke(app, ["run", "--suite", "handwritten", "--db", str(db),
                                      "--modes", f"dual_control,{bad}"])
    assert result.exit_code == 2, result.output
    assert len(result.stderr.strip().splitlines()) == 1
    assert f"mode file {bad}: " in result.stderr
    assert problem in result.stderr
    assert not db.exists()


def test_a_margin_floor_delegates_the_fat_margins(tmp_path: Path) -> None:
    good = tmp_path / "margin.yaml"
    good.write_text(EXAMPLE.read_text().replace("attribute: discount_pct",
                                                "attribute: margin_pct")
                    .replace("limit: 5", "at_least: 30"))
    result = CliRunner().invoke(app, ["authority", "who-can", "approve", "--mode", str(good),
                                      "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["roles"] == ["agent", "finance"]
