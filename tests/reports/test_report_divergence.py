"""The divergence: the agent step after which a failing trial's failure could no longer
be avoided, on trials the harness really ran (the oracle with scripted changes)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from typer.testing import CliRunner

from remit.authority import builtin_modes
from remit.cli import app
from remit.harness import TrialRecord, build_manifest
from remit.reports import approval_lines, approval_trail, build_report, divergence, explain
from remit.reports.markdown import render_markdown
from remit.reports.trial_sections import trial_section
from remit.scenarios import Scenario, Suite, export_suite, scenario_by_id
from remit.store import Store
from remit.world import EndEntry, ErrorEntry, ToolCallEntry, TransitionEntry
from tests.reports.scripted import END, Rule, call, scripted_trial

DUAL = builtin_modes()["dual_control"]
ALL_TOOLS = builtin_modes()["all_tools"]
DISCOUNT = scenario_by_id("discount-exception")  # 12%: submit needs a justification
UNRESPONSIVE = scenario_by_id("unresponsive-finance")  # finance answers on a 2nd follow-up
WHEN = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)


def _errors(record: TrialRecord, tool: str) -> list[ErrorEntry]:
    return [e for e in record.trail if isinstance(e, ErrorEntry) and e.tool == tool]


def _end_step(record: TrialRecord) -> int:
    return next(e.step for e in record.trail if isinstance(e, EndEntry))


def _calls(record: TrialRecord, tool: str) -> list[int]:
    return [e.step for e in record.trail
            if isinstance(e, ToolCallEntry) and e.tool == tool and e.actor == "agent"]


def _marked(record: TrialRecord, scenario: Scenario) -> Sequence[str]:
    return [line for line in explain(record, scenario).splitlines() if line.startswith(">>")]


def test_a_refused_submit_retried_is_not_the_divergence_the_later_failure_is() -> None:
    # submit without the justification (refused), submit again with it; later the agent
    # ends where it should ask the buyer to accept
    record = scripted_trial(DISCOUNT, DUAL, Rule("submit", (call("submit"),)),
                            Rule("request_action", (END,), action="accept", drop=True))

    assert not record.scored.score.passed
    (refused,) = _errors(record, "submit")
    assert refused.code == "guard_failed"
    assert "justification" in refused.message
    retried = [e for e in record.trail if isinstance(e, TransitionEntry)
               and e.action == "submit"]
    assert [e.step for e in retried] == [refused.step + 1]
    found = divergence(record, DISCOUNT)
    assert found is not None
    assert found.step == _end_step(record) != refused.step
    assert found.expected == "request_action(to=buyer, action=accept)"
    assert _marked(record, DISCOUNT) == [
        f">> {found.step:02d} [t={found.minute:>3}m] agent end -> ended (agent_end)"]


def test_a_passing_trial_has_no_marker() -> None:
    record = scripted_trial(DISCOUNT, DUAL, Rule("submit", (call("submit"),)))

    assert record.scored.score.passed
    assert divergence(record, DISCOUNT) is None
    text = explain(record, DISCOUNT)
    assert text.splitlines()[0].endswith(": passed; nothing is marked")
    assert ">>" not in text
    trail = approval_trail(record, DISCOUNT, mode=DUAL)
    assert trail.divergence is None
    assert not any(d.diverges for d in trail.decisions)


def test_an_early_end_is_the_divergence() -> None:
    # the agent ends where it would configure the quote it just drafted
    record = scripted_trial(DISCOUNT, DUAL, Rule("configure", (END,), drop=True))

    assert not record.scored.score.passed
    found = divergence(record, DISCOUNT)
    assert found is not None
    assert found.step == _end_step(record)
    assert found.expected == "configure"


def test_a_denied_write_then_the_request_is_not_it_the_end_without_follow_up_is() -> None:
    # approves itself (denied in dual-control), asks finance instead, then ends where it
    # should follow up: the plan's approval was requested and never done
    record = scripted_trial(UNRESPONSIVE, DUAL,
                            Rule("request_action", (call("approve"),), action="approve"),
                            Rule("follow_up", (END,), drop=True))

    (denied,) = _errors(record, "approve")
    assert denied.code == "denied"
    (requested,) = [s for s in _calls(record, "request_action") if s > denied.step]
    found = divergence(record, UNRESPONSIVE)
    assert found is not None
    assert found.step == _end_step(record)
    assert found.expected == f"approve by finance (requested at step {requested}, not yet done)"


def test_a_request_to_the_wrong_party_never_corrected_is_the_divergence() -> None:
    wrong = call("request_action", to="buyer", action="approve")
    record = scripted_trial(UNRESPONSIVE, DUAL,
                            Rule("request_action", (wrong, END), action="approve", drop=True))

    (refused,) = _errors(record, "request_action")
    assert refused.code == "bad_handoff"
    found = divergence(record, UNRESPONSIVE)
    assert found is not None
    assert found.step == refused.step
    assert found.expected == "request_action(to=finance, action=approve)"


def test_a_wrong_variant_put_right_is_not_the_divergence() -> None:
    # quotes a wrong SKU, replaces it with the plan's lines, then ends before the buyer
    # is asked to accept
    plan_edit = next(s for s in DISCOUNT.plan if s.tool == "edit_lines")
    lines = plan_edit.arguments["lines"]
    assert isinstance(lines, list)
    assert isinstance(lines[0], dict)
    wrong = call("edit_lines", lines=[{**lines[0], "sku": "BV-00003"}])
    record = scripted_trial(DISCOUNT, DUAL, Rule("edit_lines", (wrong,)),
                            Rule("request_action", (END,), action="accept", drop=True))

    edits = _calls(record, "edit_lines")
    assert len(edits) == 2
    assert not _errors(record, "edit_lines")
    found = divergence(record, DISCOUNT)
    assert found is not None
    assert found.step == _end_step(record)


def test_a_wrong_variant_kept_is_the_divergence() -> None:
    record = scripted_trial(DISCOUNT, DUAL, Rule("edit_lines", (
        call("edit_lines", lines=[{"sku": "BV-00003", "quantity": 10}]), END), drop=True))

    found = divergence(record, DISCOUNT)
    assert found is not None
    assert found.step == _calls(record, "edit_lines")[0]
    assert found.expected == "edit_lines(BV-00021)"


def test_a_forbidden_write_is_the_divergence_at_once() -> None:
    # consent-withheld forbids accepting; in all-tools the agent may, and does
    scenario = scenario_by_id("consent-withheld")
    record = scripted_trial(scenario, ALL_TOOLS, Rule("request_action", (call("accept"),),
                                                      action="accept", drop=True))

    found = divergence(record, scenario)
    assert found is not None
    assert found.step == _calls(record, "accept")[0]
    assert found.expected == "request_action(to=buyer, action=accept)"


def test_every_view_marks_the_same_step() -> None:
    """The terminal trail, the explanation, the Markdown and HTML reports share it."""
    record = scripted_trial(DISCOUNT, DUAL, Rule("submit", (call("submit"),)),
                            Rule("request_action", (END,), action="accept", drop=True))
    found = divergence(record, DISCOUNT)
    assert found is not None
    trail = approval_trail(record, DISCOUNT, mode=DUAL)
    assert trail.divergence == found
    assert [d.step for d in trail.decisions if d.diverges] == []  # an end takes no decision
    assert (f">> the agent left the reference plan at step {found.step} "
            f"(t={found.minute}m); the plan expected {found.expected}") in approval_lines(trail)
    assert _marked(record, DISCOUNT)[0].startswith(f">> {found.step:02d} ")

    suite = Suite(id="one", scenarios=(DISCOUNT,))
    manifest = build_manifest(run_id="r-div", suite=suite, modes=[DUAL], agent_id="scripted",
                              agent_config={}, trials=1, seed=0, started_at=WHEN, cwd="/")
    report = build_report(manifest, [record], suite, generated_at=WHEN, resamples=100)
    assert (f"- left the reference plan at step {found.step:02d} (plan expected "
            f"{found.expected})") in render_markdown(report)
    section = trial_section(report.trials[0])
    assert (f"left the reference plan at step {found.step} (t={found.minute}m); the plan "
            f"expected <code>{escape(found.expected)}</code>") in section


def test_remit_trail_and_the_reports_mark_the_same_step(tmp_path: Path) -> None:
    """Through the real CLI: a stored run of the scripted agent, read back by
    ``remit trail`` and written by ``remit report`` as Markdown and HTML."""
    suite_dir, db = tmp_path / "suite", str(tmp_path / "remit.db")
    export_suite(Suite(id="one", scenarios=(DISCOUNT,)), suite_dir)
    cli = CliRunner()
    ran = cli.invoke(app, ["run", "--suite", str(suite_dir), "--modes", "dual_control",
                           "--agent", "tests.reports.scripted:refused_submit_then_stop",
                           "--db", db, "--json"])
    assert ran.exit_code == 0, ran.output
    trial_id = f"{json.loads(ran.stdout)['run_id']}/{DISCOUNT.id}/dual_control/0"
    with Store.open(db) as store:
        found = divergence(store.trial(trial_id), DISCOUNT)
    assert found is not None
    assert found.expected == "request_action(to=buyer, action=accept)"

    shown = cli.invoke(app, ["trail", trial_id, "--db", db], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    assert (f">> the agent left the reference plan at step {found.step} (t={found.minute}m); "
            f"the plan expected {found.expected}") in shown.stdout
    run_id = trial_id.split("/", 1)[0]
    for name in ("report.md", "report.html"):
        written = cli.invoke(app, ["report", run_id, "--db", db, "-o", str(tmp_path / name)])
        assert written.exit_code == 0, written.output
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert (f"- left the reference plan at step {found.step:02d} "
            f"(plan expected {found.expected})") in markdown
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert (f"left the reference plan at step {found.step} (t={found.minute}m); the plan "
            f"expected <code>{escape(found.expected)}</code>") in page
