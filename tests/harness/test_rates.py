"""The rates named once for every consumer: the same as the summary's, pooled alike."""

from __future__ import annotations

import pytest

from remit.harness import (
    RATES,
    SCORER_VERSION,
    Interval,
    ModeSummary,
    Rate,
    ScoredTrial,
    TrialScore,
    aggregable,
    aggregate,
    measured_only,
    scorer_note,
    unmeasured,
)

_BASE: dict[str, object] = {
    "passed": True, "failures": (), "wrong_variant": False, "wrong_skus": (), "claims": 0,
    "unsupported_claims": 0, "unsupported": (), "abandoned_handoffs": 0, "abandoned": (),
    "clarification_rounds": 0, "review_minutes": 0, "denials": 0, "steps": 5,
    "end_reason": "agent_end", "final_state": "accepted",
}


def _scored(trial: int, **fields: object) -> ScoredTrial:
    return ScoredTrial(scenario_id="s", mode="m", trial=trial,
                       score=TrialScore.model_validate({**_BASE, **fields}))


SCORED = [
    _scored(0, wrong_variant=True, wrong_variant_shown=True, claims=5, unsupported_claims=2,
            attribute_claims=3, unsupported_attribute_claims=1, fit_claims=2,
            unsupported_fit_claims=1, cited_claims=4, unsupported_cited_claims=1, handoffs=2,
            abandoned_handoffs=1, agent_writes=3),
    _scored(1, wrong_variant_shown=True, claims=1, authority_claims=1, cited_claims=2,
            handoffs=3, missing_handoffs=2, agent_writes=0),
    _scored(2, claims=2, unsupported_claims=2, authority_claims=2,
            unsupported_authority_claims=2, handoffs=1, abandoned_handoffs=1, agent_writes=1),
    _scored(3, agent_writes=0),
]


def test_every_rate_of_the_summary_is_listed_once_headline_first() -> None:
    # the reply-issue rate is a figure of the agent's usage, shown with model calls
    intervals = [name for name, field in ModeSummary.model_fields.items()
                 if field.annotation is Interval
                 and name not in ("pass_rate", "reply_issue_rate")]
    assert sorted(r.key for r in RATES) == sorted(intervals)
    assert len({r.label for r in RATES}) == len(RATES)
    kinds = [r.per_item for r in RATES]
    assert kinds == sorted(kinds), "the headline (per-trial) rates come first"
    assert all((r.per == "trial") != r.per_item for r in RATES)


@pytest.mark.parametrize("rate", RATES, ids=[r.key for r in RATES])
def test_each_rate_pools_the_scores_as_the_summary_does(rate: Rate) -> None:
    interval = rate.of(aggregate(SCORED))
    part = sum(rate.counts(s.score)[0] for s in SCORED)
    whole = sum(rate.counts(s.score)[1] for s in SCORED)
    assert (interval.successes, interval.total) == (part, whole)
    assert whole > 0, "the table gives every rate something to count"
    ratio = rate.ratio(s.score for s in SCORED)
    assert ratio is not None
    assert float(ratio) == pytest.approx(interval.value)


def test_a_rate_without_items_has_no_ratio() -> None:
    per_fit = next(r for r in RATES if r.key == "unsupported_fit_claims")
    assert per_fit.ratio([SCORED[3].score]) is None
    assert per_fit.ratio([]) is None


def test_scorer_1_did_not_measure_what_scorer_2_added() -> None:
    assert unmeasured(SCORER_VERSION) == unmeasured("3") == unmeasured("next") == ()
    assert unmeasured("1") == (
        "wrong_variant_shown_rate", "missing_handoff_rate", "no_valid_write_rate",
        "unsupported_attribute_claims",
        "unsupported_fit_claims", "unsupported_authority_claims", "unsupported_cited",
        "abandoned_per_handoff")
    assert scorer_note(SCORER_VERSION) is None
    note = scorer_note("1")
    assert note is not None
    assert note.startswith(f"this run was scored by scorer 1, not this remit's scorer "
                           f"{SCORER_VERSION}: every number follows scorer 1's definitions; "
                           "it did not measure wrong variant (shown), missing hand-off")
    assert note.endswith("; compare it only with runs scored by scorer 1")
    assert scorer_note("3") == (f"this run was scored by scorer 3, not this remit's scorer "
                                f"{SCORER_VERSION}: every number follows scorer 3's "
                                "definitions; compare it only with runs scored by scorer 3")


def test_a_scorer_1_score_aggregates_and_its_unmeasured_rates_read_no_data() -> None:
    # scorer 1 counted abandoned hand-offs, never the hand-offs opened (they read 0)
    old = [_scored(0, abandoned_handoffs=2, abandoned=("a", "b")), _scored(1)]
    with pytest.raises(ValueError, match="need 0 <= successes <= total"):
        aggregate(old)

    readable = [aggregable(s) for s in old]

    assert readable[1] is old[1]
    assert readable[0].score.handoffs == 2
    summary = measured_only(aggregate(readable), "1")
    assert (summary.abandoned_handoff_rate.successes, summary.abandoned_handoff_rate.total) \
        == (1, 2)
    for key in unmeasured("1"):
        interval = getattr(summary, key)
        assert (interval.successes, interval.total, interval.low, interval.high) \
            == (0, 0, 0.0, 1.0), key
    current = aggregate(SCORED)
    assert measured_only(current, SCORER_VERSION) is current
