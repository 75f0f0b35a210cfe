"""Metrics on each test item (JUnit XML), and the per-agent, per-mode summary, also under
pytest-xdist; the session stored as one run per agent."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from remit.reports import parse_report
from remit.scenarios import scenario_by_id
from remit.store import Store

TESTS = """
    import pytest

    @pytest.mark.remit(agent="oracle", trials=2)
    def test_oracle(remit):
        remit.run("discount-exception").expect_passed()

    @pytest.mark.remit(agent="guessing")
    def test_guessing(remit):
        remit.run("supersession-substitution")

    @pytest.mark.remit(modes=("dual_control",), agent="abandoning")
    def test_abandoning(remit):
        remit.run("unclear-request")

    def test_plain():
        pass
"""


def _table(output: str) -> list[str]:
    """The summary's table rows (box-drawing lines), without the title and timing."""
    return [line for line in output.splitlines() if line.startswith(("┃", "│"))]


def _junit(path: Path) -> dict[str, ET.Element]:
    return {case.get("name", ""): case for case in ET.parse(path).iter("testcase")}


def _properties(case: ET.Element) -> dict[str, str | None]:
    return {p.get("name", ""): p.get("value") for p in case.iter("property")}


def test_junitxml_carries_the_metric_properties(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TESTS)

    result = pytester.runpytest("--junitxml=out.xml")

    result.assert_outcomes(passed=6)
    cases = _junit(pytester.path / "out.xml")
    properties = {name: _properties(case) for name, case in cases.items()}
    oracle = properties["test_oracle[dual_control]"]
    assert (oracle["remit_scenario"], oracle["remit_mode"], oracle["remit_agent"]) == (
        "discount-exception", "dual_control", "oracle")
    assert (oracle["pass_hat_1"], oracle["pass_hat_2"], oracle["pass_rate"]) == ("1.0",) * 3
    assert oracle["wrong_variant_rate"] == "0.0"
    assert {"unsupported_claim_rate", "abandoned_handoff_rate", "mean_review_minutes",
            "remit_trials", "wrong_variant_shown_rate", "unsupported_per_claim",
            "unsupported_attribute_claims", "unsupported_fit_claims",
            "unsupported_authority_claims", "unsupported_cited", "abandoned_per_handoff",
            "missing_handoff_rate"} <= set(oracle)
    assert "remit_scored" not in oracle  # the payload only when asked for
    assert properties["test_guessing[all_tools]"]["wrong_variant_rate"] == "1.0"
    assert properties["test_guessing[all_tools]"]["wrong_variant_shown_rate"] == "1.0"
    assert properties["test_abandoning[dual_control]"]["abandoned_handoff_rate"] == "1.0"
    assert properties["test_plain"] == {}
    # a Python test keeps pytest's classname: its module
    assert cases["test_oracle[dual_control]"].get("classname") == (
        "test_junitxml_carries_the_metric_properties")


def test_junitxml_carries_the_scored_trials_when_asked(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TESTS)

    result = pytester.runpytest("--junitxml=out.xml", "--remit-junit-payload")

    result.assert_outcomes(passed=6)
    oracle = _properties(_junit(pytester.path / "out.xml")["test_oracle[dual_control]"])
    scored = json.loads(str(oracle["remit_scored"]))
    assert [(s["scenario_id"], s["mode"], s["trial"]) for s in scored] == [
        ("discount-exception", "dual_control", 0), ("discount-exception", "dual_control", 1)]


def test_junitxml_of_a_scenario_file_names_its_file_and_times_it(
        pytester: pytest.Pytester) -> None:
    scenarios = pytester.mkdir("scenarios")
    (scenarios / "scenario_discount.yaml").write_text(
        yaml.safe_dump(scenario_by_id("discount-exception").model_dump(mode="json")),
        encoding="utf-8")

    result = pytester.runpytest("--junitxml=out.xml", "--remit-agent=oracle",
                                "--remit-modes=dual_control")

    result.assert_outcomes(passed=1)
    [case] = _junit(pytester.path / "out.xml").values()
    assert case.get("name") == "discount-exception[dual_control]"
    # pytest would say scenarios.scenario_discount.yaml: a class "yaml" in a package
    assert case.get("classname") == "scenarios.scenario_discount"
    assert float(case.get("time", "0")) > 0  # the test's real duration
    assert {"remit_scenario", "remit_mode", "pass_hat_1"} <= set(_properties(case))
    assert "remit_scored" not in _properties(case)


def test_the_summary_has_a_table_per_agent_with_a_column_per_mode(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(TESTS)

    result = pytester.runpytest()

    output = result.stdout.str()
    assert output.count("remit summary") == 1
    result.stdout.fnmatch_lines([
        "*remit summary*",
        "*remit: abandoning: 1 trial(s) of 1 scenario(s) in 1 mode(s), from 1 test(s)*",
        "*metric*dual_control*",
        "*trials*1 (1 scenarios)*",
        "*abandoned hand-off (trials)*1.00 [[]0.21, 1.00[]]*",
        "*remit: guessing: 2 trial(s) of 1 scenario(s) in 2 mode(s), from 2 test(s)*",
        "*metric*all_tools*dual_control*",
        "*pass^1*0.00*0.00*",
        "*wrong variant (final)*1.00 [[]0.21, 1.00[]]*0.00 [[]0.00, 0.79[]]*",
        "*remit: oracle: 4 trial(s) of 1 scenario(s) in 2 mode(s), from 2 test(s)*",
        "*metric*all_tools*dual_control*",
        "*pass^1*1.00*1.00*",
        "*pass^2*1.00*1.00*",
        "*trials*2 (1 scenarios)*2 (1 scenarios)*",
        "*missing hand-off (trials)*",
        "*unsupported per claim*",  # the per-item rates, below the headline
        "*abandoned per hand-off opened*",
    ])
    assert "counted as" not in output  # no scenario ran twice with one agent


def test_the_summary_names_the_tests_that_ran_a_scenario_again(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_first(remit):
            remit.run("discount-exception")

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_again(remit):
            remit.run("discount-exception")

        @pytest.mark.remit(modes=("dual_control",), agent="oracle", seed=7)
        def test_other_seed(remit):
            remit.run("discount-exception")
    """)

    result = pytester.runpytest()

    result.assert_outcomes(passed=3)
    name = "test_the_summary_names_the_tests_that_ran_a_scenario_again.py"
    result.stdout.fnmatch_lines([
        "*remit: oracle: 2 trial(s) of 1 scenario(s) in 1 mode(s), from 3 test(s)*",
        "*trials*2 (1 scenarios)*",
        f"remit: discount-exception in dual_control with oracle ran in 3 tests "
        f"({name}::test_again[[]dual_control[]], {name}::test_first[[]dual_control[]], "
        f"{name}::test_other_seed[[]dual_control[]]): 3 trial(s) counted as 2 distinct "
        "trial(s); 1 repeated a trial's seed and result and is counted once",
    ])


def test_no_summary_without_scenario_results(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")

    result = pytester.runpytest()

    result.assert_outcomes(passed=1)
    assert "remit summary" not in result.stdout.str()


@pytest.mark.parametrize("workers", [None, "2"])
def test_the_session_is_stored_as_one_run_per_agent_and_reported(
        pytester: pytest.Pytester, workers: str | None) -> None:
    pytester.makepyfile(TESTS)
    db, report = pytester.path / "runs.db", pytester.path / "report.json"
    args = [f"--remit-db={db}", f"--remit-report={report}", "-p", "no:cacheprovider"]
    if workers is None:
        result = pytester.runpytest(*args)
    else:
        result = pytester.runpytest_subprocess(*args, "-p", "xdist", "-n", workers,
                                               "-p", "no:hypothesispytest")

    result.assert_outcomes(passed=6)
    result.stdout.fnmatch_lines(["remit: stored * trials of * as run r-* in *runs.db; see it with "
                                 "`remit show r-*`"])
    with Store.open(str(db), create=False) as store:
        listings = store.runs()
        records = {listing.agent_id: store.trials(listing.run_id) for listing in listings}
    assert len(listings) > 1, "TESTS uses several agents: one run each"
    assert all(listing.suite_id == "pytest" for listing in listings)
    assert all(records[listing.agent_id] and len(records[listing.agent_id]) == listing.trials
               for listing in listings)
    assert all(record.trail for trials in records.values() for record in trials)
    for listing in listings:
        path = report.with_name(f"report-{listing.agent_id}.json")
        assert f"remit: report written to {path}" in result.stdout.str()
        parsed = parse_report(path.read_text(encoding="utf-8"))
        assert parsed.manifest.run_id == listing.run_id
        assert sum(mode.trials for mode in parsed.modes) == listing.trials


def test_under_xdist_results_merge_and_the_summary_appears_once(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_one=TESTS, test_two=TESTS.replace("def test_", "def test_two_"))

    serial = pytester.runpytest("-p", "no:cacheprovider")
    # Without hypothesis' plugin each of the three processes starts twice as fast.
    parallel = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "-p", "no:cacheprovider",
                                           "-p", "no:hypothesispytest")

    parallel.assert_outcomes(passed=12)
    output = parallel.stdout.str()
    assert "2 workers [12 items]" in output
    assert output.count("remit summary") == 1
    assert "remit: oracle: 4 trial(s) of 1 scenario(s) in 2 mode(s), from 4 test(s)" in output
    assert _table(output) == _table(serial.stdout.str())
    assert len(_table(output)) > 8
    repeats = [line for line in output.splitlines() if "counted as" in line]
    assert len(repeats) == 5  # each scenario x mode of test_one ran again in test_two
    assert repeats == [line for line in serial.stdout.str().splitlines()
                       if "counted as" in line]


def test_tests_with_different_agents_are_stored_as_one_run_each(
        pytester: pytest.Pytester) -> None:
    pytester.makepyfile("""
        import pytest

        @pytest.mark.remit(modes=("dual_control",), agent="oracle")
        def test_oracle(remit):
            remit.run("supersession-substitution").expect_passed()

        @pytest.mark.remit(modes=("dual_control",), agent="guessing")
        def test_guessing(remit):
            remit.run("supersession-substitution")
    """)
    db = pytester.path / "runs.db"
    report = pytester.path / "report.md"
    result = pytester.runpytest(f"--remit-db={db}", f"--remit-report={report}",
                                "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
    with Store.open(str(db), create=False) as store:
        runs = {listing.agent_id: listing for listing in store.runs()}
    assert set(runs) == {"oracle", "guessing"}
    assert (runs["oracle"].trials, runs["oracle"].passed) == (1, 1)
    assert (runs["guessing"].trials, runs["guessing"].passed) == (1, 0)
    assert (pytester.path / "report-oracle.md").is_file()
    assert (pytester.path / "report-guessing.md").is_file()
    result.stdout.fnmatch_lines([
        "remit: the session ran 2 agents and a run has one, so it is stored as 2 runs, one "
        "per agent",
        "remit: stored 1 trials of guessing as run r-* in *runs.db; see it with *",
        "remit: stored 1 trials of oracle as run r-* in *runs.db; see it with *",
    ])
    assert "counted as" not in result.stdout.str()
