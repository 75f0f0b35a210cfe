"""An agent's usage (model calls, tokens, cost) reaches the summaries and the reports."""

from __future__ import annotations

from decimal import Decimal

from remit.actors import AgentUsage
from remit.catalogue import Money
from remit.harness import TrialRecord, summarise
from remit.reports import build_report, render_html, render_markdown
from tests.reports.runs import GENERATED, small_run


def _with_usage(record: TrialRecord) -> TrialRecord:
    usage = AgentUsage(model_calls=4, prompt_tokens=1000, completion_tokens=50,
                       cost=Money.of("0.0125", "USD"), reply_issues={"invalid_json": 1})
    score = record.scored.score.model_copy(update={"usage": usage})
    return record.model_copy(update={"scored": record.scored.model_copy(update={"score": score})})


def test_usage_is_summed_per_mode_and_shown_in_the_reports() -> None:
    manifest, result, suite = small_run("oracle")
    records = [_with_usage(r) for r in result.trials]
    summary = summarise([r.scored for r in records])["dual_control"]
    trials = summary.trials
    assert (summary.model_calls, summary.prompt_tokens, summary.completion_tokens) == (
        4 * trials, 1000 * trials, 50 * trials)
    assert summary.cost == Money(amount=Decimal("0.0125") * trials, currency="USD")
    report = build_report(manifest, records, suite, generated_at=GENERATED)
    markdown = render_markdown(report)
    assert f"| model calls | {4 * trials:,} | {4 * trials:,} |" in markdown
    assert f"{1000 * trials:,} / {50 * trials:,}" in markdown
    assert "tokens in / out" in render_html(report)


def test_reports_without_usage_do_not_mention_it() -> None:
    manifest, result, suite = small_run("oracle")
    report = build_report(manifest, result.trials, suite, generated_at=GENERATED)
    assert "model calls" not in render_markdown(report)
    assert all(mode.cost is None and mode.model_calls == 0 for mode in report.modes)
