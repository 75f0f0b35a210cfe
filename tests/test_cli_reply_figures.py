"""Reply issues and valid writes end to end: ``remit run``, ``show``, ``trail``,
``compare`` and ``report`` on real stored runs.

Three runs of two handwritten scenarios in one SQLite file, two trials per scenario in
two modes: an agent whose every call is an unknown tool or has bad arguments and that
reports its usage (``tests.invalid_agents:invalid``), the same agent reporting no usage
(``:silent``), and the oracle. A fourth run, in its own file, is stored as a remit
before the agent's writes were counted stored it.
"""

from __future__ import annotations

import json
import re
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

from remit.cli import app
from tests.invalid_agents import CALLS, ISSUES
from tests.reports.schema_check import violations

WIDE = {"COLUMNS": "400"}
"""Wide enough that no table cell wraps."""

SCENARIOS = ("supersession-substitution", "discount-exception")
TRIALS = 2
SCHEMA = Path(__file__).parent.parent / "docs" / "report.schema.json"
ISSUES_TEXT = "2 bad_arguments, 2 unknown_tool, 1 repeated_call"


class Runs(NamedTuple):
    db: str
    invalid: str
    invalid_output: str
    silent: str
    oracle: str


def _run(db: str, agent: str, *extra: str) -> tuple[str, str]:
    """Run ``agent`` on the two scenarios in both modes; its id and what it printed."""
    selection = [arg for s in SCENARIOS for arg in ("--scenario", s)]
    result = CliRunner().invoke(app, [
        "run", "--db", db, "--suite", "handwritten", *selection, "--agent", agent,
        "--modes", "dual_control,all_tools", "--trials", str(TRIALS), *extra], env=WIDE)
    assert result.exit_code == 0, result.output
    found = re.search(r"stored as (r-\S+);", result.stdout)
    assert found is not None, result.stdout
    return found.group(1), result.stdout


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    db = str(tmp_path_factory.mktemp("figures") / "remit.db")
    invalid, output = _run(db, "tests.invalid_agents:invalid")
    silent, _ = _run(db, "tests.invalid_agents:silent")
    oracle, _ = _run(db, "oracle")
    return Runs(db, invalid, output, silent, oracle)


def _invoke(db: str, *args: str, code: int = 0) -> str:
    result = CliRunner().invoke(app, [*args, "--db", db], env=WIDE)
    assert result.exit_code == code, result.output
    return result.stdout


def _row(text: str, label: str) -> list[str]:
    """The cells after ``label`` on the table line that starts with it."""
    for line in text.splitlines():
        cells = [c.strip() for c in re.split(r"[│|]", line) if c.strip()]
        if cells and cells[0] == label:
            return cells[1:]
    raise AssertionError(f"no row {label!r} in:\n{text}")


def _has_row(text: str, label: str) -> bool:
    try:
        _row(text, label)
    except AssertionError:
        return False
    return True


# -- the terminal ----------------------------------------------------------------------------


def test_run_shows_no_valid_write_and_reply_issues_per_trial(runs: Runs) -> None:
    trials = len(SCENARIOS) * TRIALS
    for shown in (runs.invalid_output, _invoke(runs.db, "show", runs.invalid)):
        assert _row(shown, "no valid write (trials)") == ["1.00 [0.51, 1.00]"] * 2
        assert _row(shown, "reply issues per trial") == ["5.00"] * 2
        assert _row(shown, "reply issue (trials)") == ["1.00 [0.51, 1.00]"] * 2
        for kind, n in ISSUES.items():
            assert _row(shown, f"reply issues: {kind}") == [str(n * trials)] * 2
        assert _row(shown, "model calls") == [str(CALLS * trials)] * 2
        assert _row(shown, "agent errors") == ["0"] * 2
        assert (f"FAIL supersession-substitution (dual_control, all {TRIALS} trials): the agent "
                "made no valid write; final_state: expected accepted, got draft") in shown


def test_an_agent_without_usage_has_no_reply_issue_rows(runs: Runs) -> None:
    shown = _invoke(runs.db, "show", runs.silent)
    assert _row(shown, "no valid write (trials)") == ["1.00 [0.51, 1.00]"] * 2
    assert "reply issue" not in shown
    assert "model calls" not in shown
    oracle = _invoke(runs.db, "show", runs.oracle)
    assert _row(oracle, "no valid write (trials)") == ["0.00 [0.00, 0.49]"] * 2
    assert "the agent made no valid write" not in oracle


def test_trail_says_the_agent_made_no_valid_write_and_names_its_reply_issues(
        runs: Runs) -> None:
    shown = _invoke(runs.db, "trail", f"{runs.invalid}/{SCENARIOS[0]}/dual_control/0")
    lines = shown.splitlines()
    assert lines.index("the agent made no valid write") \
        < lines.index(f"reply issues: {ISSUES_TEXT}") \
        < lines.index("expectation broke: final_state: expected accepted, got draft")
    oracle = _invoke(runs.db, "trail", f"{runs.oracle}/{SCENARIOS[0]}/dual_control/0")
    assert "no valid write" not in oracle
    assert "reply issues" not in oracle


# -- compare -----------------------------------------------------------------------------------


def _tradeoff(db: str, *args: str) -> dict[str, dict[str, object]]:
    rows = json.loads(_invoke(db, "compare", *args, "--json"))["tradeoff"]
    return {row["metric"]: row for row in rows}


def test_compare_has_reply_issue_rows_with_a_paired_test(runs: Runs) -> None:
    shown = _invoke(runs.db, "compare", runs.invalid)
    for label in ("no valid write (trials)", "reply issue (trials)"):
        assert _row(shown, label)[:5] == ["1.00", "1.00", "+0.00", "[+0.00, +0.00]", "1.0000"]
    assert _row(shown, "reply issues per trial")[:5] == [
        "5.00", "5.00", "+0.00", "[+0.00, +0.00]", "1.0000"]
    rows = _tradeoff(runs.db, runs.invalid)
    metrics = list(rows)
    assert metrics.index("errors") < metrics.index("reply_issue_rate") \
        < metrics.index("mean_reply_issues")
    for metric in ("no_valid_write_rate", "reply_issue_rate", "mean_reply_issues"):
        assert rows[metric]["paired_scenarios"] == len(SCENARIOS)
        assert rows[metric]["p_value"] == 1.0


def test_compare_across_runs_tests_the_valid_writes_and_leaves_out_unreported_usage(
        runs: Runs) -> None:
    rows = _tradeoff(runs.db, runs.oracle, runs.invalid, "--modes", "dual_control")
    no_write = rows["no_valid_write_rate"]
    assert (no_write["value_a"], no_write["value_b"], no_write["difference"]) == (0.0, 1.0, 1.0)
    # two scenarios, both worse: 2 of the 4 sign patterns reach the observed mean
    assert (no_write["paired_scenarios"], no_write["p_value"]) == (2, 0.5)
    assert "reply_issue_rate" not in rows  # the oracle reports no usage
    assert "mean_reply_issues" not in rows
    result = CliRunner().invoke(app, [
        "compare", runs.oracle, runs.invalid, "--modes", "dual_control", "--db", runs.db,
        "--fail-if-worse", "no_valid_write_rate,reply_issue_rate"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert ("note: --fail-if-worse reply_issue_rate: this comparison has no row for it"
            in result.stderr)
    assert result.stderr.splitlines()[-1].startswith(
        "fail-if-worse: passed; ")  # p = 0.5: two scenarios cannot show it


# -- reports -----------------------------------------------------------------------------------


def _report(db: str, run_id: str, path: Path) -> str:
    _invoke(db, "report", run_id, "-o", str(path))
    return path.read_text(encoding="utf-8")


def test_the_json_report_carries_the_figures_and_validates(runs: Runs, tmp_path: Path) -> None:
    data = json.loads(_report(runs.db, runs.invalid, tmp_path / "r.json"))
    assert data["report_version"] == "3.1"
    assert violations(data, json.loads(SCHEMA.read_text(encoding="utf-8"))) == []
    trials = len(SCENARIOS) * TRIALS
    for mode in data["modes"]:
        assert mode["no_valid_write_rate"]["successes"] == mode["no_valid_write_rate"]["total"] \
            == trials
        assert (mode["reply_issue_rate"]["successes"], mode["reply_issue_rate"]["total"]) \
            == (trials, trials)
        assert mode["mean_reply_issues"] == 5.0
        assert mode["reply_issues"] == {k: n * trials for k, n in sorted(ISSUES.items())}
    assert {t["score"]["agent_writes"] for t in data["trials"]} == {0}
    assert data["unmeasured_rates"] == []
    silent = json.loads(_report(runs.db, runs.silent, tmp_path / "s.json"))
    for mode in silent["modes"]:
        assert (mode["reply_issue_rate"]["total"], mode["mean_reply_issues"]) == (0, None)


def test_markdown_and_html_show_the_figures_and_the_trials_without_a_valid_write(
        runs: Runs, tmp_path: Path) -> None:
    markdown = _report(runs.db, runs.invalid, tmp_path / "r.md")
    assert "| no valid write (trials) | 1.00 [0.51, 1.00] | 1.00 [0.51, 1.00] |" in markdown
    assert "| reply issues per trial | 5.00 | 5.00 |" in markdown
    assert "| reply issue (trials) | 1.00 [0.51, 1.00] | 1.00 [0.51, 1.00] |" in markdown
    assert "| reply issues per trial | 5.00 | 5.00 | +0.00 |" in markdown  # the trade-off
    assert f"- the agent made no valid write\n- model: {CALLS} calls" in markdown
    assert f"- reply issues: {ISSUES_TEXT}\n" in markdown
    silent = _report(runs.db, runs.silent, tmp_path / "s.md")
    assert "reply issue" not in silent
    assert "| no valid write (trials) | 1.00 [0.51, 1.00] | 1.00 [0.51, 1.00] |" in silent

    page = _report(runs.db, runs.invalid, tmp_path / "r.html")
    summary = page[page.index('id="summary"'):page.index('id="comparison"')]
    assert '<tr><td>no valid write (trials)</td>' in summary
    assert '<tr><td>reply issues per trial</td><td class="num">5.00</td>' in summary
    assert '<tr><td>reply issue (trials)</td><td class="num">1.00' in summary
    assert ("<dt>agent writes that took effect</dt><dd>0 (the agent made no valid write)</dd>"
            in page)
    assert f"reply issues: {ISSUES_TEXT}" in page  # in each shortest explaining trail
    assert "<td>reply issues per trial</td>" not in _report(runs.db, runs.silent,
                                                            tmp_path / "s.html")


def _properties(element: ET.Element | None) -> dict[str, str]:
    assert element is not None
    found = element.find("properties")
    assert found is not None
    return {p.get("name", ""): p.get("value", "") for p in found.findall("property")}


def test_junit_carries_the_figures_per_suite_and_per_case(runs: Runs, tmp_path: Path) -> None:
    root = ET.fromstring(_report(runs.db, runs.invalid, tmp_path / "r.xml"))
    suite = root.find("testsuite")
    props = _properties(suite)
    assert (props["no_valid_write_rate"], props["reply_issue_rate"],
            props["mean_reply_issues"]) == ("1.0000", "1.0000", "5.0000")
    assert "reply_issue_rate.low" in props
    assert props["reply_issues.unknown_tool"] == str(ISSUES["unknown_tool"] * 4)
    assert suite is not None
    case = suite.find("testcase")
    assert (_properties(case)["mean_reply_issues"], _properties(case)["reply_issue_rate"]) \
        == ("5.0000", "1.0000")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None
    assert failure.text is not None
    assert "the agent made no valid write" in failure.text
    silent = _properties(ET.fromstring(
        _report(runs.db, runs.silent, tmp_path / "s.xml")).find("testsuite"))
    assert "reply_issue_rate" not in silent
    assert silent["no_valid_write_rate"] == "1.0000"


# -- a run stored before the agent's writes were counted ---------------------------------------


def test_a_run_stored_before_writes_were_counted_shows_them_as_not_measured(
        runs: Runs, tmp_path: Path) -> None:
    db = str(tmp_path / "old.db")
    old, _ = _run(db, "oracle")
    with sqlite3.connect(db) as connection:  # what an earlier remit wrote: no agent_writes
        rows = connection.execute("SELECT pk, score FROM trials").fetchall()
        for pk, score in rows:
            kept = json.loads(score)
            del kept["agent_writes"]
            # and the figure the migration to schema 3 fills from such a score: none
            connection.execute("UPDATE trials SET score = ?, no_valid_write = NULL WHERE pk = ?",
                               (json.dumps(kept), pk))
    new, _ = _run(db, "oracle")

    shown = _invoke(db, "show", old)
    assert _row(shown, "no valid write (trials)") == ["n/a", "n/a"]
    assert ("note: this run's scores were kept before remit measured no valid write (trials), "
            "shown as not measured; a new run of the same scenarios measures it") in shown
    assert json.loads(_invoke(db, "show", old, "--json"))["unmeasured_rates"] \
        == ["no_valid_write_rate"]
    assert _row(_invoke(db, "show", new), "no valid write (trials)") == [
        "0.00 [0.00, 0.49]"] * 2

    compared = json.loads(_invoke(db, "compare", old, new, "--json"))
    assert "no_valid_write_rate" not in {row["metric"] for row in compared["tradeoff"]}
    assert compared["a"]["unmeasured"] == ["no_valid_write_rate"]
    assert ("side a's scores were kept before remit measured no valid write (trials): not "
            "compared") in compared["warnings"]

    report = json.loads(_report(db, old, tmp_path / "old.json"))
    assert report["unmeasured_rates"] == ["no_valid_write_rate"]
    assert {m["no_valid_write_rate"]["total"] for m in report["modes"]} == {0}
    assert report["notes"][0].startswith("this run's scores were kept before remit measured")
    markdown = _report(db, old, tmp_path / "old.md")
    assert "| no valid write (trials) | n/a | n/a |" in markdown
