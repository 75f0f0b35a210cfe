"""The scorer's metrics in every format: per-item rates apart from the headline, each
trial's sentences apart, and a run scored by scorer 1 reported as such."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from remit.harness import (
    SCORER_VERSION,
    Interval,
    RunManifest,
    ScoredTrial,
    TrialRecord,
    TrialScore,
    unmeasured,
)
from remit.reports import (
    RunReport,
    build_report,
    parse_report,
    render_html,
    render_json,
    render_junit,
    render_markdown,
)
from remit.reports.trial_sections import trial_section
from tests.reports.conftest import SmallRun
from tests.reports.crafted import crafted_record
from tests.reports.runs import GENERATED
from tests.reports.schema_check import violations

SCHEMA_FILE = Path(__file__).parents[2] / "docs" / "report.schema.json"

_BASE: dict[str, object] = {
    "passed": True, "failures": (), "wrong_variant": False, "wrong_skus": (), "claims": 0,
    "unsupported_claims": 0, "unsupported": (), "abandoned_handoffs": 0, "abandoned": (),
    "clarification_rounds": 0, "review_minutes": 0, "denials": 0, "steps": 5,
    "end_reason": "agent_end", "final_state": "accepted",
}


def _record(scenario_id: str, mode: str, **fields: object) -> TrialRecord:
    score = TrialScore.model_validate({**_BASE, **fields})
    return TrialRecord(scored=ScoredTrial(scenario_id=scenario_id, mode=mode, trial=0,
                                          score=score), seed=0, trail=())


def _counts(interval: Interval) -> tuple[int, int]:
    return interval.successes, interval.total


# -- per-item rates in the trade-off ---------------------------------------------------------


def _claims_report(manifest: RunManifest) -> RunReport:
    # side a (all_tools) and side b (dual_control), one trial per scenario
    records = [
        _record("s1", "all_tools", claims=2, unsupported_claims=1, unsupported=("u",)),
        _record("s1", "dual_control", claims=2, handoffs=1, abandoned_handoffs=1,
                abandoned=("abandoned_handoff: H-1 ...",)),
        _record("s2", "all_tools"),
        _record("s2", "dual_control", claims=4, unsupported_claims=2, unsupported=("u", "v"),
                handoffs=1),
        _record("s3", "all_tools", claims=1, unsupported_claims=1, unsupported=("u",)),
        _record("s3", "dual_control", claims=1, handoffs=1),
    ]
    return build_report(manifest, records, None, generated_at=GENERATED, trails="none",
                        resamples=500)


def test_per_item_rates_are_tested_on_the_pooled_rates_they_show(
        baseline_run: SmallRun) -> None:
    report = _claims_report(baseline_run[0])
    (c,) = report.comparisons
    assert (c.a, c.b) == ("all_tools", "dual_control")
    rows = {t.metric: t for t in c.tradeoff}

    per_claim = rows["unsupported_per_claim"]
    assert per_claim.per_item
    assert (per_claim.value_a, per_claim.value_b) == pytest.approx((2 / 3, 2 / 7))
    # every scenario with a claim on either side takes part, s2 too (no claim on side a)
    assert per_claim.paired_scenarios == 3
    assert per_claim.low is not None
    assert per_claim.high is not None
    # the interval is of the difference the row shows: 2/7 - 2/3
    assert per_claim.low <= per_claim.difference <= per_claim.high
    assert -1.0 <= per_claim.low < per_claim.high < 0
    # swapping sides within s1 and s3 alone (s2's claims are b's) often reaches |-8/21|
    assert per_claim.p_value is not None
    assert per_claim.p_value > 0.05
    assert per_claim.better is None
    # the headline counts trials, and pairs every scenario
    trials = rows["unsupported_claim_rate"]
    assert (trials.per_item, trials.paired_scenarios) == (False, 3)
    assert (trials.value_a, trials.value_b) == pytest.approx((2 / 3, 1 / 3))
    # no fit claim, no citation on either side, no hand-off opened on side a: no row
    assert {"unsupported_fit_claims", "unsupported_cited", "abandoned_per_handoff"} \
        .isdisjoint(rows)
    headline = [t.metric for t in c.tradeoff if not t.per_item]
    assert headline[1:6] == ["wrong_variant_rate", "wrong_variant_shown_rate",
                             "unsupported_claim_rate", "abandoned_handoff_rate",
                             "missing_handoff_rate"]
    assert [t.metric for t in c.tradeoff if t.per_item] == ["unsupported_per_claim"]

    dual = report.modes[1]
    assert _counts(dual.abandoned_handoff_rate) == (1, 3)
    assert _counts(dual.abandoned_per_handoff) == (1, 3)
    assert _counts(report.modes[0].abandoned_per_handoff) == (0, 0)


def test_markdown_puts_the_per_item_rates_in_their_own_tables(baseline_run: SmallRun) -> None:
    text = render_markdown(_claims_report(baseline_run[0]))

    modes = text[text.index("## Per-mode results"):text.index("## Mode comparison")]
    main, items = modes.split("| per item | all_tools | dual_control |")
    assert "| unsupported claim (trials) | 0.67 [0.21, 0.94] | 0.33 [0.06, 0.79] |" in main
    assert "unsupported per claim" not in main
    assert "| unsupported per claim | 0.67 (2/3) | 0.29 (2/7) |" in items
    assert "| unsupported per fit claim | - | - |" in items
    assert "| abandoned per hand-off opened | - | 0.33 (1/3) |" in items
    comparison = text[text.index("## Mode comparison"):text.index("## Breakdown")]
    assert "| unsupported per claim | 0.67 | 0.29 | -0.38 |" in comparison
    assert comparison.index("| missing hand-off (trials) |") \
        < comparison.index("Per item (each side's items pooled")
    assert comparison.rstrip().endswith("| no clear difference | 3 |")


def test_html_puts_the_per_item_rates_in_compact_tables(baseline_run: SmallRun) -> None:
    page = render_html(_claims_report(baseline_run[0]))

    summary = page[page.index('id="summary"'):page.index('id="comparison"')]
    main, items = summary.split('<table class="items">')
    assert "<td>missing hand-off (trials)</td>" in main
    assert "per claim" not in main
    assert '<td>unsupported per claim</td><td class="num">0.67 <span class="muted">2/3</span>' \
        in items
    comparison = page[page.index('id="comparison"'):page.index('id="charts"')]
    assert '<table class="tradeoff-items">' in comparison
    assert comparison.index("<td>missing hand-off (trials)</td>") \
        < comparison.index('<table class="tradeoff-items">') \
        < comparison.index("<td>unsupported per claim</td>")


# -- each trial's sentences ----------------------------------------------------------------------


SENTENCES = {
    "wrong_variants": ("wrong_variant: BV-00013 on Q-1 v2 (presented at step 9) is outside "
                       "the acceptable set: S1 superseded by BV-00021",),
    "unsupported": ("unsupported claim BV-00021 seat=PEEK (message to buyer at step 3): "
                    "BV-00021 seat is PTFE",),
    "unsupported_cited": ("unsupported claim BV-00021 pn=40 bar (cited on Q-1 v2 at step 4): "
                          "BV-00021 pn is 16 bar",),
    "abandoned": ("abandoned_handoff: H-2 (accept on Q-1, requested from buyer) was still "
                  "open at the end",),
    "missing": ("missing_handoff: release_payment is required by the goal and held by "
                "finance in dual_control; ...",),
}


def _with_sentences() -> TrialRecord:
    record = crafted_record()
    score = record.scored.score.model_copy(update={
        **SENTENCES, "wrong_variant_shown": True, "wrong_shown_skus": ("BV-00013",),
        "claims": 3, "unsupported_claims": 1, "attribute_claims": 2,
        "unsupported_attribute_claims": 1, "authority_claims": 1, "cited_claims": 4,
        "unsupported_cited_claims": 1, "handoffs": 2, "abandoned_handoffs": 1,
        "missing_handoffs": 1})
    return record.model_copy(update={"scored": record.scored.model_copy(
        update={"score": score})})


def test_a_trial_section_lists_each_kind_of_sentence_apart(baseline_run: SmallRun) -> None:
    report = build_report(baseline_run[0], [_with_sentences()], None, generated_at=GENERATED)
    (row,) = report.trials

    section = trial_section(row)

    for title, key in (("Wrong variants", "wrong_variants"),
                       ("Unsupported claims", "unsupported"),
                       ("Unsupported citations", "unsupported_cited"),
                       ("Abandoned hand-offs", "abandoned"), ("Missing hand-offs", "missing")):
        (sentence,) = SENTENCES[key]
        assert f'<p class="sub">{title}</p><ul class="broke"><li>{sentence}</li></ul>' in section
    facts = section[section.index('<dl class="facts">'):section.index("</dl>")]
    for fact, value in (("wrong variant (final)", "no"),
                        ("wrong variant (shown)", "yes (BV-00013)"),
                        ("stated claims (unsupported)", "3 (1)"),
                        ("by kind (unsupported)", "attribute 2 (1), fit 0 (0), authority 1 (0)"),
                        ("citations (unsupported)", "4 (1)"),
                        ("hand-offs opened (abandoned)", "2 (1)"),
                        ("missing hand-offs", "1")):
        assert f"<dt>{fact}</dt><dd>{value}</dd>" in facts


def test_a_markdown_trail_lists_each_kind_of_sentence_apart(baseline_run: SmallRun) -> None:
    report = build_report(baseline_run[0], [_with_sentences()], None, generated_at=GENERATED)

    text = render_markdown(report)

    trail = text[text.index("### 1. `"):]
    for title, key in (("wrong variants", "wrong_variants"),
                       ("unsupported claims", "unsupported"),
                       ("unsupported citations", "unsupported_cited"),
                       ("abandoned hand-offs", "abandoned"), ("missing hand-offs", "missing")):
        (sentence,) = SENTENCES[key]
        assert f"\n- {title}:\n  - {sentence}\n" in trail
    assert trail.index("- wrong variants:") < trail.index("- unsupported claims:") \
        < trail.index("- unsupported citations:") < trail.index("- abandoned hand-offs:") \
        < trail.index("- missing hand-offs:") < trail.index("Decisions:")


# -- a run scored by scorer 1 ----------------------------------------------------------------


_SCORER_1_FIELDS = {"passed", "failures", "wrong_variant", "wrong_skus", "claims",
                    "unsupported_claims", "unsupported", "abandoned_handoffs", "abandoned",
                    "clarification_rounds", "review_minutes", "denials", "steps",
                    "end_reason", "final_state", "usage"}


def _as_scorer_1(score: TrialScore, mode: str) -> TrialScore:
    """The score as scorer 1 stored it: its fields only; claims and citations counted
    together; required owner actions never requested counted as abandoned."""
    never = tuple(f"abandoned_handoff: {f.split()[1]} is required by the goal, but the agent "
                  "never requested it from its owner and it was never performed"
                  for f in score.failures if f.startswith("owner_actions:")) \
        if mode == "dual_control" else ()
    stored = {
        **score.model_dump(include=_SCORER_1_FIELDS),
        "claims": score.claims + score.cited_claims,
        "unsupported_claims": score.unsupported_claims + score.unsupported_cited_claims,
        "unsupported": score.unsupported + score.unsupported_cited,
        "abandoned_handoffs": len(score.abandoned) + len(never),
        "abandoned": score.abandoned + never,
    }
    assert set(stored) <= _SCORER_1_FIELDS
    return TrialScore.model_validate(stored)


@pytest.fixture
def scorer_1_report(baseline_run: SmallRun) -> RunReport:
    manifest, result, suite = baseline_run
    records = [r.model_copy(update={"scored": r.scored.model_copy(update={
        "score": _as_scorer_1(r.scored.score, r.scored.mode)})}) for r in result.trials]
    assert any(r.scored.score.abandoned_handoffs > r.scored.score.handoffs for r in records), \
        "scorer 1 counted abandoned hand-offs without the hand-offs opened"
    old = manifest.model_copy(update={"scorer_version": "1"})
    return build_report(old, records, suite, generated_at=GENERATED, resamples=200)


def test_a_report_of_a_scorer_1_run_says_what_that_scorer_did_not_measure(
        scorer_1_report: RunReport) -> None:
    report = scorer_1_report
    assert SCORER_VERSION != "1"
    assert report.unmeasured_rates == unmeasured("1") == (
        "wrong_variant_shown_rate", "missing_handoff_rate", "no_valid_write_rate",
        "unsupported_attribute_claims", "unsupported_fit_claims",
        "unsupported_authority_claims", "unsupported_cited", "abandoned_per_handoff")
    assert report.notes[0] == (
        f"this run was scored by scorer 1, not this remit's scorer {SCORER_VERSION}: every "
        "number follows scorer 1's definitions; it did not measure wrong variant (shown), "
        "missing hand-off (trials), no valid write (trials), unsupported per attribute "
        "claim, unsupported per fit "
        "claim, unsupported per authority claim, unsupported per citation, abandoned per "
        "hand-off opened, shown as not measured; its claims count quote-line citations with "
        "the stated claims, and its abandoned hand-offs include required owner actions the "
        "agent never requested; compare it only with runs scored by scorer 1")
    dual = report.modes[1]
    for key in report.unmeasured_rates:  # no data, rather than scorer 1's defaults
        assert _counts(getattr(dual, key)) == (0, 0), key
    scores = [t.score for t in report.trials if t.mode == "dual_control"]
    assert _counts(dual.abandoned_handoff_rate) == (
        sum(s.abandoned_handoffs > 0 for s in scores), 6)
    assert dual.abandoned_handoff_rate.successes > 0
    for c in report.comparisons:
        assert set(report.unmeasured_rates).isdisjoint(t.metric for t in c.tradeoff)
        assert {"wrong_variant_rate", "unsupported_claim_rate", "abandoned_handoff_rate"} \
            <= {t.metric for t in c.tradeoff}


def test_every_format_renders_a_scorer_1_run_and_names_its_scorer(
        scorer_1_report: RunReport) -> None:
    report = scorer_1_report
    text = render_markdown(report)
    assert "| remit | 0.0.0, scorer 1, commit unknown |" in text
    assert "> this run was scored by scorer 1, not this remit's scorer" in text
    assert "| wrong variant (shown) | n/a | n/a |" in text
    assert "| abandoned per hand-off opened | n/a | n/a |" in text
    assert "n/a: not measured by this run's scorer." in text
    assert "wrong variant (shown) | 0.00" not in text  # not in the trade-off either

    page = render_html(report)
    summary = page[page.index('id="summary"'):page.index('id="comparison"')]
    assert '<td>missing hand-off (trials)</td><td><span class="muted">not measured</span>' \
        in summary
    failing = next(t for t in report.trials if not t.passed)
    section = trial_section(failing, unmeasured=report.unmeasured_rates)
    assert "<dt>wrong variant (shown)</dt><dd>not measured</dd>" in section
    assert "<dt>claims (unsupported)</dt>" in section  # citations included
    assert f"<dt>abandoned hand-offs</dt><dd>{failing.score.abandoned_handoffs}</dd>" in section

    root = ET.fromstring(render_junit(report))
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["scorer_version"] == "1"
    assert "abandoned_handoff_rate" in props
    assert not {"wrong_variant_shown_rate", "abandoned_per_handoff", "missing_handoff_rate"} \
        & set(props)

    data = json.loads(render_json(report))
    assert data["unmeasured_rates"] == list(report.unmeasured_rates)
    assert violations(data, json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))) == []
    assert parse_report(render_json(report)) == report
