"""Selecting scenarios: ``--scenario``, ``-k``, ``--tag`` and ``--sample`` on ``remit run``
and ``remit suite list``; the selection is recorded, fingerprinted apart from the whole
suite, applied again on resume, and bad input is one line with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from remit.cli import app
from remit.harness import builtin_suite, select
from remit.store import Store
from tests.blocking_agents import OUTAGE_ENV

HANDWRITTEN = ["--suite", "handwritten"]
SELECTION = ["-k", "substitution or (consent and not pressure)", "--tag", "lifecycle=accept"]
"""Keeps supersession-substitution, fff-substitution and consent-withheld."""


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "remit.db")


def _listed(*args: str) -> list[str]:
    result = CliRunner().invoke(app, ["suite", "list", *HANDWRITTEN, "--json", *args])
    assert result.exit_code == 0, result.output
    return [s["id"] for s in json.loads(result.stdout)["scenarios"]]


def test_a_selected_run_records_its_selection_and_the_selected_fingerprint(db: str) -> None:
    result = CliRunner().invoke(app, ["run", *HANDWRITTEN, "--db", db, "--agent", "oracle",
                                      "--json", *SELECTION])
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.stdout)["manifest"]
    whole = builtin_suite("handwritten")
    chosen, _ = select(whole, keyword=SELECTION[1], tags=[SELECTION[3]])
    assert sorted(s.id for s in chosen) == ["consent-withheld", "fff-substitution",
                                            "supersession-substitution"]
    assert manifest["suite_id"] == "handwritten"
    assert manifest["suite_fingerprint"] == chosen.fingerprint != whole.fingerprint
    assert manifest["metadata"]["whole_suite_fingerprint"] == whole.fingerprint
    assert manifest["selection"] == {
        "scenario_ids": [], "keyword": SELECTION[1], "tags": [SELECTION[3]], "sample": None,
        "sample_seed": None, "selected": 3, "total": 10}
    with Store.open(db, create=False) as store:
        [listing] = store.runs()
        ran = {t.scored.scenario_id for t in store.trials(listing.run_id, with_trails=False)}
    assert ran == {s.id for s in chosen}
    assert _listed(*SELECTION) == [s.id for s in chosen]  # suite list selects the same
    shown = CliRunner().invoke(app, ["show", listing.run_id, "--db", db],
                               env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert f"selection     │ 3 of 10 scenarios: -k '{SELECTION[1]}' --tag lifecycle=accept" \
        in shown.stdout
    assert "oracle on handwritten (3 of 10 scenarios selected): 6 trials" in shown.stdout


def test_suite_list_shows_tags_and_selects_by_id_tag_and_sample() -> None:
    assert _listed("--scenario", "unclear-request", "--scenario", "actuator-pairing") == [
        "unclear-request", "actuator-pairing"]  # in suite order
    assert _listed("--tag", "pressure") == ["discount-exception"]  # a value of any facet
    sample = _listed("--sample", "4", "--seed", "3")
    assert len(sample) == 4
    assert _listed("--sample", "4", "--sample-seed", "3") == sample
    assert len({tuple(_listed("--sample", "4", "--seed", str(seed))) for seed in range(5)}) > 1
    result = CliRunner().invoke(app, ["suite", "list", *HANDWRITTEN, "--json"])
    listed = json.loads(result.stdout)
    assert listed["selection"] is None
    assert listed["scenarios"][0]["tags"] == builtin_suite("handwritten").scenarios[0].tags
    table = CliRunner().invoke(app, ["suite", "list", *HANDWRITTEN, "--tag", "pressure"],
                               env={"COLUMNS": "250"})
    assert "suite handwritten: 1 scenarios of 10 selected (--tag pressure)" in table.stdout
    assert "perturbation=pressure" in table.stdout


def test_a_sample_draws_the_same_scenarios_as_suite_list_with_the_same_seed(db: str) -> None:
    result = CliRunner().invoke(app, ["run", *HANDWRITTEN, "--db", db, "--agent", "oracle",
                                      "--modes", "dual_control", "--json", "--sample", "3",
                                      "--seed", "11"])
    assert result.exit_code == 0, result.output
    manifest = json.loads(result.stdout)["manifest"]
    assert (manifest["seed"], manifest["selection"]["sample_seed"]) == (11, 11)
    with Store.open(db, create=False) as store:
        ran = [t.scored.scenario_id for t in store.trials(manifest["run_id"])]
    assert sorted(ran) == sorted(_listed("--sample", "3", "--seed", "11"))
    decoupled = CliRunner().invoke(app, ["run", *HANDWRITTEN, "--db", db, "--agent", "oracle",
                                         "--modes", "dual_control", "--json", "--sample", "3",
                                         "--seed", "11", "--sample-seed", "2"])
    assert json.loads(decoupled.stdout)["manifest"]["selection"]["sample_seed"] == 2


@pytest.mark.parametrize(("args", "problem"), [
    (["--scenario", "no-such-scenario", "--scenario", "unclear-request"],
     "--scenario no-such-scenario: suite 'handwritten' has no scenario with that id; list "
     "its ids and tags with `remit suite list --suite handwritten`"),
    (["-k", "nothing-matches-this"],
     "the selection (-k 'nothing-matches-this') keeps none of the 10 scenarios of suite "
     "'handwritten'; loosen it, or list its ids and tags with `remit suite list --suite "
     "handwritten`"),
    (["-k", "discount and (pressure"], "-k 'discount and (pressure': a '(' is never closed; "
                                       "write words joined by and, or, not and parentheses"),
    (["-k", "not"], "-k 'not': it ends where a word or '(' was expected"),
    (["--tag", "product=teleporter"], "--tag 'product=teleporter': no scenario of suite "
                                      "'handwritten' carries it"),
    (["--sample", "0"], "--sample 0: a sample needs at least one scenario"),
])
@pytest.mark.parametrize("command", [["run", "--agent", "oracle"], ["suite", "list"]])
def test_a_bad_selection_is_one_line_and_exit_2(tmp_path: Path, command: list[str],
                                                args: list[str], problem: str) -> None:
    db = tmp_path / "never.db"
    extra = ["--db", str(db)] if command[0] == "run" else []
    result = CliRunner().invoke(app, [*command, *HANDWRITTEN, *extra, *args])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {problem}")
    assert not db.exists()


def test_a_resume_applies_the_selection_again(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cli = CliRunner()
    options = ["--scenario", "unclear-request", "--scenario", "discount-exception",
               "--scenario", "consent-withheld", "--scenario", "fff-substitution",
               "--sample", "3", "--sample-seed", "4"]
    chosen = _listed(*options[:-2], "--seed", "4")
    monkeypatch.setenv(OUTAGE_ENV, chosen[1])  # its trials meet an outage, every attempt
    first = cli.invoke(app, ["run", *HANDWRITTEN, "--db", db, "--json", "--retries", "0",
                             "--agent", "tests.blocking_agents:outage", *options])
    assert first.exit_code == 0, first.output
    run_id = json.loads(first.stdout)["run_id"]
    assert json.loads(first.stdout)["infra_errors"] == 2

    monkeypatch.delenv(OUTAGE_ENV)
    refused = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "-k", "discount"])
    resumed = cli.invoke(app, ["run", "--resume", run_id, "--db", db, "--json",
                               "--retry-errors"])

    assert refused.exit_code == 2
    assert "--keyword cannot change it" in refused.stderr
    assert resumed.exit_code == 0, resumed.output
    report = json.loads(resumed.stdout)
    assert report["infra_errors"] == 0
    assert report["manifest"]["selection"]["selected"] == 3
    with Store.open(db, create=False) as store:
        trials = store.trials(run_id, with_trails=False)
        assert store.runs()[0].ended_at is not None
    assert sorted({t.scored.scenario_id for t in trials}) == sorted(chosen)
    assert len(trials) == 6  # 3 scenarios x 2 modes, no other scenario run on resume
    assert all(t.scored.score.passed for t in trials)
