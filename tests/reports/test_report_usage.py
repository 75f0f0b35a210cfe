"""An agent's usage (model calls, tokens, cost, unusable replies) reaches the summaries
and every report: per mode, per trial and per JUnit test case."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from decimal import Decimal

import pytest

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.harness import TrialRecord, summarise
from remit.reports import (
    RunReport,
    build_report,
    render_html,
    render_json,
    render_junit,
    render_markdown,
    report_schema,
)
from remit.reports.trial_sections import trial_anchor
from tests.reports.conftest import SmallRun
from tests.reports.runs import GENERATED, small_run
from tests.reports.schema_check import violations

CALLS, PROMPT, COMPLETION = 4, 1000, 50
COST = Money.of("0.0125", "USD")


def _with(record: TrialRecord, usage: AgentUsage) -> TrialRecord:
    score = record.scored.score.model_copy(update={"usage": usage})
    return record.model_copy(update={"scored": record.scored.model_copy(update={"score": score})})


def _usage(record: TrialRecord, *, priced: bool = True) -> AgentUsage:
    """Every trial: one invalid JSON reply; dual-control trials also two empty replies."""
    issues = {"invalid_json": 1}
    if record.scored.mode == "dual_control":
        issues["empty_reply"] = 2
    return AgentUsage(model_calls=CALLS, prompt_tokens=PROMPT, completion_tokens=COMPLETION,
                      cost=COST if priced else None, reply_issues=issues)


@pytest.fixture(scope="module")
def usage_report(baseline_run: SmallRun) -> RunReport:
    """The baseline run (failing trials in both modes), every trial with usage."""
    manifest, result, suite = baseline_run
    return build_report(manifest, [_with(r, _usage(r)) for r in result.trials], suite,
                        generated_at=GENERATED)


def _properties(element: ET.Element | None) -> dict[str, str]:
    assert element is not None
    found = element.find("properties")
    assert found is not None
    return {p.get("name", ""): p.get("value", "") for p in found.findall("property")}


def test_usage_is_summed_per_mode() -> None:
    manifest, result, suite = small_run("oracle")
    records = [_with(r, _usage(r)) for r in result.trials]
    summary = summarise([r.scored for r in records])["dual_control"]
    trials = summary.trials
    assert (summary.model_calls, summary.prompt_tokens, summary.completion_tokens) == (
        CALLS * trials, PROMPT * trials, COMPLETION * trials)
    assert summary.cost == Money(amount=Decimal("0.0125") * trials, currency="USD")
    report = build_report(manifest, records, suite, generated_at=GENERATED)
    assert [(m.mode, m.reply_issues) for m in report.modes] == [
        ("all_tools", {"invalid_json": 6}),
        ("dual_control", {"empty_reply": 12, "invalid_json": 6})]


def test_markdown_shows_usage_and_reply_issues_per_mode(usage_report: RunReport) -> None:
    markdown = render_markdown(usage_report)
    assert "| model calls | 24 | 24 |" in markdown
    assert "| tokens in / out | 6,000 / 300 | 6,000 / 300 |" in markdown
    assert "| cost | 0.0750 USD | 0.0750 USD |" in markdown
    assert "| reply issues: empty_reply | 0 | 12 |\n" \
           "| reply issues: invalid_json | 6 | 6 |" in markdown
    assert "Reply issues count the model replies a well-behaved model would not send" in markdown


def test_markdown_trail_of_a_trial_shows_its_usage(usage_report: RunReport) -> None:
    markdown = render_markdown(usage_report)
    all_tools = markdown[markdown.index("`r-20260101-090000-abcdef/consent-withheld/all_tools/0`"):]
    all_tools = all_tools[:all_tools.index("Decisions:")]
    assert "- model: 4 calls, tokens in / out 1,000 / 50, cost 0.0125 USD\n" \
           "- reply issues: 1 invalid_json\n" in all_tools
    dual = markdown[markdown.index("`r-20260101-090000-abcdef/three-way-mismatch/dual_control/0`"):]
    assert "- reply issues: 2 empty_reply, 1 invalid_json\n" in dual[:dual.index("Decisions:")]


def test_html_summary_has_a_row_per_reply_issue_kind(usage_report: RunReport) -> None:
    page = render_html(usage_report)
    summary = page[page.index('id="summary"'):page.index('id="comparison"')]
    assert '<td>model calls</td><td class="num">24</td><td class="num">24</td>' in summary
    assert '<td>cost</td><td class="num">0.0750 USD</td>' in summary
    assert ('<tr><td>reply issues: empty_reply</td><td class="num">0</td>'
            '<td class="num">12</td></tr>'
            '<tr><td>reply issues: invalid_json</td><td class="num">6</td>'
            '<td class="num">6</td></tr>') in summary
    assert "Reply issues count the model replies a well-behaved model would not send" in summary


def test_html_trial_facts_show_the_trial_usage(usage_report: RunReport) -> None:
    page = render_html(usage_report)
    trial = next(t for t in usage_report.trials
                 if t.mode == "dual_control" and not t.passed)
    start = page.index(f'id="{trial_anchor(trial.id)}"')
    facts = page[page.index('<dl class="facts">', start):page.index("</dl>", start)]
    for fact, value in (("model calls", "4"), ("tokens in / out", "1,000 / 50"),
                        ("cost", "0.0125 USD"),
                        ("reply issues", "2 empty_reply, 1 invalid_json")):
        assert f"<dt>{fact}</dt><dd>{value}</dd>" in facts


CONSENT_ALL_TOOLS = ("testsuite[@name='all_tools']/"
                     "testcase[@classname='remit.handwritten-3.consent-withheld']")


def test_junit_cases_and_suites_carry_usage(usage_report: RunReport) -> None:
    root = ET.fromstring(render_junit(usage_report))
    case = _properties(root.find(CONSENT_ALL_TOOLS))
    assert {k: case[k] for k in ("model_calls", "prompt_tokens", "completion_tokens", "cost",
                                 "cost.currency", "reply_issues.invalid_json")} == {
        "model_calls": "8", "prompt_tokens": "2000", "completion_tokens": "100",
        "cost": "0.0250", "cost.currency": "USD", "reply_issues.invalid_json": "2"}
    assert "reply_issues.empty_reply" not in case
    dual = _properties(root.find("testsuite[@name='dual_control']"))
    assert (dual["model_calls"], dual["reply_issues.empty_reply"],
            dual["reply_issues.invalid_json"], dual["cost"]) == ("24", "12", "6", "0.0750")


def test_json_carries_reply_issues_and_validates(usage_report: RunReport) -> None:
    data = json.loads(render_json(usage_report))
    assert data["modes"][1]["reply_issues"] == {"empty_reply": 12, "invalid_json": 6}
    assert data["trials"][0]["score"]["usage"]["reply_issues"] == {"invalid_json": 1}
    assert violations(data, report_schema()) == []


def test_unpriced_usage_has_no_cost(baseline_run: SmallRun) -> None:
    manifest, result, suite = baseline_run
    records = [_with(r, _usage(r, priced=r.scored.trial == 0)) for r in result.trials]
    report = build_report(manifest, records, suite, generated_at=GENERATED)
    assert all(m.cost is None for m in report.modes), "a mode is priced only if every trial is"
    assert "| cost | - | - |" in render_markdown(report)
    root = ET.fromstring(render_junit(report))
    case = _properties(root.find(CONSENT_ALL_TOOLS))
    assert case["model_calls"] == "8"
    assert "cost" not in case
    unpriced = next(t for t in report.trials if t.trial == 1 and not t.passed)
    page = render_html(report)
    start = page.index(f'id="{trial_anchor(unpriced.id)}"')
    assert "<dt>cost</dt><dd>unpriced</dd>" in page[start:page.index("</dl>", start)]


def test_reports_without_usage_do_not_mention_it(baseline_report: RunReport) -> None:
    assert all(mode.cost is None and mode.model_calls == 0 and not mode.reply_issues
               for mode in baseline_report.modes)
    markdown, page = render_markdown(baseline_report), render_html(baseline_report)
    for text in (markdown, page):
        assert "model calls" not in text
        assert "reply issues" not in text.lower()
    root = ET.fromstring(render_junit(baseline_report))
    names = {p.get("name") for p in root.iter("property")}
    assert not names & {"model_calls", "prompt_tokens", "completion_tokens", "cost"}
    assert not [n for n in names if n and n.startswith("reply_issues.")]
