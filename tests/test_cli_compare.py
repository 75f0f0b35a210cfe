"""``remit compare`` and ``remit report RUN1 RUN2`` end to end: what a comparison is
called, its JSON, the comparison report, the --fail-if-worse gate and bad input.

Two real runs of the handwritten suite in one SQLite file: the oracle (which passes
everything, in two modes) and the guessing agent (which offers wrong variants without
asking), so that run against run, the second is significantly worse.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.harness import TrialRecord
from remit.harness.manifest import AgentIdentity, ScenarioSelection
from remit.reports.trial_sections import trial_anchor
from remit.scenarios import Suite, builtin_scenarios, export_suite
from remit.store import Store
from tests.reports_html.page_index import PageIndex

WIDE = {"COLUMNS": "400"}
"""Wide enough that no table cell wraps."""


class Runs(NamedTuple):
    db: str
    oracle: str
    guessing: str


def _run(cli: CliRunner, db: str, *args: str) -> str:
    result = cli.invoke(app, ["run", "--db", db, "--json", *args])
    assert result.exit_code == 0, result.output
    run_id: str = json.loads(result.stdout)["run_id"]
    return run_id


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    db = str(tmp_path_factory.mktemp("compare") / "remit.db")
    cli = CliRunner()
    oracle = _run(cli, db, "--suite", "handwritten", "--agent", "oracle",
                  "--modes", "dual_control,all_tools")
    guessing = _run(cli, db, "--suite", "handwritten", "--agent", "guessing",
                    "--modes", "dual_control")
    return Runs(db, oracle, guessing)


def _invoke(runs: Runs, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [*args, "--db", runs.db], env=WIDE)
    return result.exit_code, result.stdout, result.stderr


def _copy(runs: Runs, run_id: str, new_id: str,
          keep: Callable[[TrialRecord], bool] = lambda _: True, **updates: object) -> str:
    """Store a copy of ``run_id`` as ``new_id``, its manifest updated with ``updates``
    (as a run recorded by another remit would be), keeping the trials ``keep`` keeps."""
    with Store.open(runs.db) as store:
        manifest = store.manifest(run_id)
        store.create_run(manifest.model_copy(update={"run_id": new_id, **updates}))
        for record in store.trials(run_id):
            if keep(record):
                store.save_trial(new_id, record)
        assert manifest.ended_at is not None
        store.finish_run(new_id, manifest.ended_at)
    return new_id


def _rows(text: str) -> dict[str, list[str]]:
    """A terminal table's rows by metric: the cells after the metric."""
    return {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in text.splitlines() if line.startswith("│")}


# -- what a comparison is called -------------------------------------------------------------


def test_two_runs_are_named_by_run_and_agent_never_by_a_bare_mode(runs: Runs) -> None:
    status, out, _ = _invoke(runs, "compare", runs.oracle, runs.guessing)
    assert status == 0
    a, b = f"{runs.oracle} (oracle)", f"{runs.guessing} (guessing)"
    assert out.splitlines()[0].strip() == (
        f"runs {a} vs {b}, mode dual_control, 10 paired scenarios")
    header = next(line for line in out.splitlines() if line.startswith("┃"))
    assert [c.strip() for c in header.split("┃")[1:4]] == ["metric", a, b]
    rows = _rows(out)
    assert rows["pass^1"][-1] == a  # the oracle passes more
    assert rows["wrong variant (final)"][-1] == a
    assert rows["clarification rounds"][-1] == b  # the guessing agent never asks
    assert not {row[-1] for row in rows.values()} & {"dual_control", "all_tools"}
    assert f"delta pass^1 ({b} - {a}): -0.900" in out


def test_modes_of_one_run_are_named_by_mode(runs: Runs) -> None:
    status, out, _ = _invoke(runs, "compare", runs.oracle, "--modes", "dual_control,all_tools")
    assert status == 0
    assert out.splitlines()[0].strip() == (
        f"modes dual_control vs all_tools of run {runs.oracle} (oracle), 10 paired scenarios")
    as_json = json.loads(_invoke(runs, "compare", runs.oracle, "--json")[1])
    assert as_json["kind"] == "modes"
    assert (as_json["a"]["label"], as_json["b"]["label"]) == ("dual_control", "all_tools")
    better = {row["better"] for row in as_json["tradeoff"]} - {None}
    assert better <= {"dual_control", "all_tools"}
    assert better, "all tools spares the owners' review minutes"


def test_json_carries_every_row_of_the_table_the_labels_the_kind_and_the_flips(
        runs: Runs) -> None:
    status, out, _ = _invoke(runs, "compare", runs.oracle, runs.guessing, "--json")
    assert status == 0
    data = json.loads(out)
    a, b = f"{runs.oracle} (oracle)", f"{runs.guessing} (guessing)"
    assert (data["kind"], data["a"]["label"], data["b"]["label"]) == ("runs", a, b)
    assert data["title"] == f"runs {a} vs {b}, mode dual_control, 10 paired scenarios"
    assert data["n_paired"] == 10
    assert len(data["flips"]) == 9
    assert all((f["from"], f["to"]) == ("pass", "fail") for f in data["flips"])
    table = _rows(_invoke(runs, "compare", runs.oracle, runs.guessing)[1])
    rows = {row["label"]: row for row in data["tradeoff"]}
    assert set(rows) == set(table) - {"metric"}
    for label, cells in table.items():
        if label == "metric":
            continue
        row = rows[label]
        assert cells[:3] == [f"{row['value_a']:.2f}", f"{row['value_b']:.2f}",
                             f"{row['difference']:+.2f}"]
        assert cells[4] == ("" if row["p_value"] is None else f"{row['p_value']:.4f}")
        assert cells[5] == (row["better"] or "")
    pass1 = rows["pass^1"]
    assert (pass1["metric"], pass1["value_a"], pass1["value_b"]) == ("pass_hat_1", 1.0, 0.1)
    assert (pass1["low"], pass1["high"]) == (data["delta_low"], data["delta_high"])
    assert pass1["p_value"] == data["mcnemar_p"] < 0.05
    assert pass1["paired_scenarios"] == 10
    assert pass1["better"] == a


# -- the gate --------------------------------------------------------------------------------


def test_fail_if_worse_exits_1_when_the_second_run_is_significantly_worse(runs: Runs) -> None:
    status, out, err = _invoke(runs, "compare", runs.oracle, runs.guessing, "--modes",
                               "dual_control", "--fail-if-worse", "pass^1,wrong_variant_rate")
    assert status == 1
    assert "10 paired scenarios" in out
    assert err.strip() == (
        f"fail-if-worse: {runs.guessing} (guessing) is significantly worse than "
        f"{runs.oracle} (oracle) on pass^1 (1.000 -> 0.100, diff -0.900, p = 0.0039); "
        "wrong variant (final) (0.000 -> 0.600, diff +0.600, p = 0.0312)")

    status, out, err = _invoke(runs, "compare", runs.oracle, runs.guessing, "--json",
                               "--fail-if-worse", "pass_hat_1,mean_steps")
    assert status == 1
    data = json.loads(out)  # the verdict goes to stderr, the JSON stays whole
    assert (data["fail_if_worse"], data["worse"]) == (["pass_hat_1", "mean_steps"],
                                                      ["pass_hat_1"])
    assert err.startswith("fail-if-worse: ")


@pytest.mark.parametrize(("order", "metrics"), [
    ("better second", "pass^1,wrong_variant_rate"),   # the oracle after the guessing agent
    ("worse second", "mean_clarification_rounds"),    # fewer questions is not worse
    ("worse second", "mean_steps,unsupported_claim_rate"),  # no clear difference
])
def test_fail_if_worse_exits_0_otherwise(runs: Runs, order: str, metrics: str) -> None:
    pair = (runs.guessing, runs.oracle) if order == "better second" else \
        (runs.oracle, runs.guessing)
    status, out, err = _invoke(runs, "compare", *pair, "--fail-if-worse", metrics)
    assert status == 0
    assert "10 paired scenarios" in out
    assert err.startswith("fail-if-worse: passed; ")
    assert len(err.strip().splitlines()) == 1


def test_without_the_gate_a_worse_run_still_exits_0(runs: Runs) -> None:
    assert _invoke(runs, "compare", runs.oracle, runs.guessing)[0] == 0


@pytest.mark.parametrize("metrics", ["pass@1", "pass^1,wrong_variant", ",", "pass_hat_2"])
def test_an_unknown_gate_metric_is_one_line_listing_the_valid_names(
        runs: Runs, metrics: str) -> None:
    status, out, err = _invoke(runs, "compare", runs.oracle, runs.guessing,
                               "--fail-if-worse", metrics)
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error: --fail-if-worse names ")
    assert "pass_hat_1, wrong_variant_rate, wrong_variant_shown_rate" in err


# -- the comparison report ---------------------------------------------------------------------


def test_the_html_comparison_report_holds_the_table_and_both_trails_of_each_flip(
        runs: Runs, tmp_path: Path) -> None:
    path = tmp_path / "cmp.html"
    status, out, _ = _invoke(runs, "report", runs.oracle, runs.guessing, "-o", str(path))
    assert status == 0
    a, b = f"{runs.oracle} (oracle)", f"{runs.guessing} (guessing)"
    title = f"runs {a} vs {b}, mode dual_control, 10 paired scenarios"
    assert out.startswith(f"wrote the html report of the comparison of {title} to {path}")
    page = path.read_text(encoding="utf-8")
    index = PageIndex(page)
    assert f"<h1>remit comparison: {title}</h1>" in page
    assert len(index.ids) == len(set(index.ids)), "no id repeats"
    assert set(index.fragments) <= set(index.ids), "every link has its anchor"
    assert all(value.startswith("#") for _, _, value in index.url_values())
    assert len(index.scripts) == 1
    flips = json.loads(_invoke(runs, "compare", runs.oracle, runs.guessing, "--json")[1])[
        "flips"]
    for flip in flips:
        for run_id in (runs.oracle, runs.guessing):
            anchor = trial_anchor(f"{run_id}/{flip['scenario_id']}/dual_control/0")
            assert anchor in index.ids
            assert anchor in index.fragments
    trials = [t for t in index.tagged("details") if t.get("id", "").startswith("trial-")]
    assert len(trials) == 2 * len(flips)
    assert ("<tr><td>pass^1</td><td class=\"num\">1.000</td><td class=\"num\">0.100</td>"
            "<td class=\"num\">-0.900</td><td>[-1.000, -0.700]</td><td class=\"num\">0.0039</td>"
            f'<td><span class="better">{a}</span></td></tr>') in page
    assert f"<th>a: {a}</th><th>b: {b}</th>" in page
    assert "Approval trail (" in page  # the trails themselves, not only links


def test_the_markdown_comparison_report_names_the_trail_commands(
        runs: Runs, tmp_path: Path) -> None:
    path = tmp_path / "cmp.md"
    assert _invoke(runs, "report", runs.oracle, runs.guessing, "-o", str(path))[0] == 0
    text = path.read_text(encoding="utf-8")
    a, b = f"{runs.oracle} (oracle)", f"{runs.guessing} (guessing)"
    lines = text.splitlines()
    assert lines[0] == f"# remit comparison: runs {a} vs {b}, mode dual_control, " \
                       "10 paired scenarios"
    assert (f"| pass^1 | 1.00 | 0.10 | -0.90 | [-1.00, -0.70] | 0.0039 | {a} |") in lines
    assert (f"| `unresponsive-finance` | pass | fail | "
            f"`remit trail {runs.oracle}/unresponsive-finance/dual_control/0` | "
            f"`remit trail {runs.guessing}/unresponsive-finance/dual_control/0` |") in lines
    assert "## Flips (9)" in lines
    assert f"Trade-off: {b} is better on clarification rounds; {a} is better on pass^1" in text


def test_the_json_comparison_report_is_the_compare_json(runs: Runs, tmp_path: Path) -> None:
    path = tmp_path / "cmp.json"
    assert _invoke(runs, "report", runs.oracle, runs.guessing, "-o", str(path))[0] == 0
    printed = json.loads(_invoke(runs, "compare", runs.oracle, runs.guessing, "--json")[1])
    assert json.loads(path.read_text(encoding="utf-8")) == printed


def test_a_comparison_has_no_junit_report(runs: Runs, tmp_path: Path) -> None:
    path = tmp_path / "cmp.xml"
    status, out, err = _invoke(runs, "report", runs.oracle, runs.guessing, "-o", str(path))
    assert (status, out) == (2, "")
    assert err.strip() == ("error: a comparison of two runs has no junit report; write .html, "
                           ".md or .json, or the JUnit report of each run with `remit report "
                           "RUN`")
    assert not path.exists()


def test_the_report_of_one_run_is_unchanged(runs: Runs, tmp_path: Path) -> None:
    path = tmp_path / "one.md"
    status, out, _ = _invoke(runs, "report", runs.oracle, "-o", str(path))
    assert status == 0
    assert out.startswith(f"wrote the md report of {runs.oracle} to {path}")
    assert path.read_text(encoding="utf-8").startswith(f"# remit report: run {runs.oracle}\n")
    status, _, err = _invoke(runs, "report", runs.oracle, "-o", str(path), "--modes",
                             "dual_control")
    assert status == 2
    assert err.startswith("error: --modes and --force choose what a report of two runs "
                          "compares")


def test_stored_agent_text_is_escaped_in_the_html_report(runs: Runs, tmp_path: Path) -> None:
    hostile = _copy(runs, runs.guessing, f"{runs.guessing}-x",
                    agent_id="<script>alert(1)</script>")
    path = tmp_path / "cmp.html"
    assert _invoke(runs, "report", runs.oracle, hostile, "-o", str(path))[0] == 0
    page = path.read_text(encoding="utf-8")
    assert "<script>alert" not in page
    assert f"{hostile} (&lt;script&gt;alert(1)&lt;/script&gt;)" in page


# -- warnings and refusals ----------------------------------------------------------------------


def test_agents_that_differ_only_by_code_are_warned_about_everywhere(
        runs: Runs, tmp_path: Path) -> None:
    def identity(code: str) -> AgentIdentity:
        return AgentIdentity(import_path="my_agents:Guesser", code_hash=code * 64,
                             modules=("my_agents",), declared_config={"patience": 1})

    before = _copy(runs, runs.guessing, f"{runs.guessing}-v1", agent=identity("1"))
    after = _copy(runs, runs.guessing, f"{runs.guessing}-v2", agent=identity("2"))
    warning = ("the agents differ only by code: both are my_agents:Guesser with the same "
               "declared configuration, but its source changed between the runs (code hash "
               "a='111111111111', b='222222222222')")
    status, out, _ = _invoke(runs, "compare", before, after)
    assert status == 0
    assert f"WARNING: {warning}" in out.splitlines()
    assert warning in json.loads(_invoke(runs, "compare", before, after, "--json")[1])[
        "warnings"]
    path = tmp_path / "cmp.md"
    assert _invoke(runs, "report", before, after, "-o", str(path))[0] == 0
    assert f"> **warning**: {warning}" in path.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "cmp.html"
    assert _invoke(runs, "report", before, after, "-o", str(path))[0] == 0
    assert f"<li>{warning.replace(chr(39), '&#x27;')}</li>" in path.read_text(encoding="utf-8")
    other = _copy(runs, runs.guessing, f"{runs.guessing}-other", agent=identity("3").model_copy(
        update={"import_path": "my_agents:Other"}))
    assert "differ only by code" not in _invoke(runs, "compare", before, other)[1]


def test_a_refusal_names_the_differing_selections_and_force_still_compares(
        runs: Runs) -> None:
    chosen = ("actuator-pairing", "discount-exception", "fff-substitution")
    selected = _copy(runs, runs.oracle, f"{runs.oracle}-tagged",
                     keep=lambda r: r.scored.scenario_id in chosen,
                     suite_fingerprint="e" * 64,
                     selection=ScenarioSelection(tags=("discount",), selected=3, total=10))
    status, out, err = _invoke(runs, "compare", selected, runs.guessing)
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert (f"run {selected} ran 3 of 10 scenarios of handwritten (--tag discount), run "
            f"{runs.guessing} ran all 10 scenarios of handwritten; compare runs of the same "
            "suite") in err
    status, out, _ = _invoke(runs, "compare", selected, runs.guessing, "--force", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["forced"] is True
    assert data["n_paired"] == 3
    assert "--tag discount" in data["warnings"][0]


def test_runs_with_no_scenario_in_common_are_one_line_and_exit_2(
        runs: Runs, tmp_path: Path) -> None:
    scenarios = builtin_scenarios()
    ids = []
    for name, part in (("first", scenarios[:2]), ("last", scenarios[-2:])):
        export_suite(Suite(id=name, scenarios=part), tmp_path / name)
        ids.append(_run(CliRunner(), runs.db, "--suite", str(tmp_path / name),
                        "--agent", "oracle", "--modes", "dual_control"))
    status, _, err = _invoke(runs, "compare", *ids)
    assert status == 2
    assert "suite fingerprint differs" in err  # refused before pairing
    for command in (["compare", *ids, "--force"],
                    ["report", *ids, "--force", "-o", str(tmp_path / "cmp.html")]):
        status, out, err = _invoke(runs, *command)
        assert (status, out) == (2, ""), command
        assert len(err.strip().splitlines()) == 1
        assert "the sides share no scenario with counted trials" in err
        assert err.strip().endswith("compare sides that ran at least one scenario in common")
    assert not (tmp_path / "cmp.html").exists()


@pytest.mark.parametrize("command", [
    ["compare", "r-nope", "{oracle}"], ["compare", "{oracle}", "r-nope"],
    ["report", "{oracle}", "r-nope", "-o", "{tmp}/cmp.md"],
])
def test_an_unknown_run_is_one_line_and_exit_2(runs: Runs, command: list[str],
                                               tmp_path: Path) -> None:
    status, out, err = _invoke(runs, *(c.format(oracle=runs.oracle, tmp=tmp_path)
                                       for c in command))
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("error: no run with run_id='r-nope' in ")
    assert err.strip().endswith("list them all with `remit runs`")
    assert not (tmp_path / "cmp.md").exists()


def test_the_gate_works_on_two_modes_of_one_run_and_names_them(runs: Runs) -> None:
    status, _, err = _invoke(runs, "compare", runs.oracle, "--modes", "all_tools,dual_control",
                             "--fail-if-worse", "mean_review_minutes")
    assert status == 1  # dual control makes the owners review
    assert err.startswith("fail-if-worse: dual_control is significantly worse than all_tools "
                          "on review minutes (1.500 -> 137.300, diff +135.800, p = 0.0020)")
    status, _, err = _invoke(runs, "compare", runs.oracle, "--modes", "dual_control,all_tools",
                             "--fail-if-worse", "mean_review_minutes")
    assert status == 0
    assert err.startswith("fail-if-worse: passed; all_tools is not significantly worse than "
                          "dual_control on review minutes")


def test_across_two_runs_modes_names_one_mode(runs: Runs) -> None:
    status, out, err = _invoke(runs, "compare", runs.oracle, runs.guessing, "--modes",
                               "dual_control,all_tools")
    assert (status, out) == (2, "")
    assert err.strip() == ("error: across two runs --modes names the one mode to compare, got "
                           "'dual_control,all_tools'; pass --modes M")
