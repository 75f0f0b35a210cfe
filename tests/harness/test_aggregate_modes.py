"""aggregate and summarise on fixed tables of outcomes."""

from __future__ import annotations

import json

import pytest

from remit.harness.aggregate import AggregationError, ModeSummary, ScoredTrial, aggregate, summarise
from remit.harness.scoring import TrialScore
from remit.harness.stats import wilson


def _score(passed: bool = True, **fields: object) -> TrialScore:
    values: dict[str, object] = {
        "passed": passed, "failures": () if passed else ("final_state: expected x, got y",),
        "wrong_variant": False, "wrong_skus": (), "claims": 0, "unsupported_claims": 0,
        "unsupported": (), "abandoned_handoffs": 0, "abandoned": (),
        "clarification_rounds": 0, "review_minutes": 0, "denials": 0, "steps": 10,
        "agent_writes": 2, "end_reason": "terminal_state", "final_state": "accepted",
    }
    values.update(fields)
    return TrialScore.model_validate(values)


def _trials(mode: str, scenario_id: str, outcomes: list[bool],
            **fields: object) -> list[ScoredTrial]:
    return [ScoredTrial(scenario_id=scenario_id, mode=mode, trial=i,
                        score=_score(passed, **fields))
            for i, passed in enumerate(outcomes)]


def _table() -> list[ScoredTrial]:
    # scenario A passes 2 of 4 trials, B passes 4 of 4
    return (_trials("dual_control", "a", [True, False, True, False])
            + _trials("dual_control", "b", [True, True, True, True]))


def test_pass_hat_k_on_a_fixed_table() -> None:
    summary = aggregate(_table())
    assert summary.pass_hat_k == pytest.approx({
        1: 0.75,                    # (2/4 + 4/4) / 2
        2: (1 / 6 + 1) / 2,         # (C(2,2)/C(4,2) + 1) / 2
        3: 0.5,                     # (C(2,3)=0 + 1) / 2
        4: 0.5,
    })
    assert (summary.mode, summary.scenarios, summary.trials) == ("dual_control", 2, 8)


def test_pass_hat_k_stops_at_the_smallest_trial_count() -> None:
    scored = (_trials("m", "a", [True, True, False])
              + _trials("m", "b", [True, False, True, True, True]))
    assert list(aggregate(scored).pass_hat_k) == [1, 2, 3]


def test_pass_rate_is_a_wilson_interval_per_trial() -> None:
    rate = aggregate(_table()).pass_rate
    assert (rate.successes, rate.total, rate.value) == (6, 8, 0.75)
    # Wilson 95%: centre (p + z²/2n)/(1 + z²/n), half-width z·sqrt(p(1-p)/n + z²/4n²)/(1 + z²/n)
    assert rate.low == pytest.approx(0.4093, abs=1e-4)
    assert rate.high == pytest.approx(0.9285, abs=1e-4)


def test_rates_use_their_own_denominators() -> None:
    scored = [
        ScoredTrial(scenario_id="a", mode="m", trial=0,
                    score=_score(claims=6, unsupported_claims=2, attribute_claims=4,
                                 unsupported_attribute_claims=1, fit_claims=1,
                                 unsupported_fit_claims=1, authority_claims=1,
                                 wrong_variant=True, wrong_skus=("BV-1",),
                                 wrong_variant_shown=True, wrong_shown_skus=("BV-1",),
                                 handoffs=3, abandoned_handoffs=2, abandoned=("x", "y"))),
        ScoredTrial(scenario_id="a", mode="m", trial=1,
                    score=_score(claims=4, attribute_claims=4, cited_claims=5,
                                 unsupported_cited_claims=2, unsupported_cited=("c1", "c2"),
                                 wrong_variant_shown=True, wrong_shown_skus=("BV-2",),
                                 handoffs=1)),
        ScoredTrial(scenario_id="b", mode="m", trial=0,
                    score=_score(claims=0, cited_claims=3, missing_handoffs=2,
                                 missing=("m1", "m2"))),
        ScoredTrial(scenario_id="b", mode="m", trial=1,
                    score=_score(False, claims=0, unsupported_claims=0)),
    ]
    summary = aggregate(scored)
    assert summary.unsupported_claim_rate == wilson(1, 4)            # trials with >= 1
    assert summary.unsupported_per_claim == wilson(2, 10)            # per stated claim
    assert summary.unsupported_attribute_claims == wilson(1, 8)      # per claim of its kind
    assert summary.unsupported_fit_claims == wilson(1, 1)
    assert summary.unsupported_authority_claims == wilson(0, 1)
    assert summary.unsupported_cited == wilson(2, 8)                 # citations, apart
    assert summary.wrong_variant_rate == wilson(1, 4)                # final
    assert summary.wrong_variant_shown_rate == wilson(2, 4)          # any version offered
    assert summary.abandoned_handoff_rate == wilson(1, 4)            # not 2 of 4
    assert summary.abandoned_per_handoff == wilson(2, 4)             # per hand-off opened
    assert summary.missing_handoff_rate == wilson(1, 4)              # not 2 of 4
    assert summary.pass_rate == wilson(3, 4)


def test_no_claims_gives_an_empty_interval_per_claim() -> None:
    summary = aggregate(_table())
    for rate in (summary.unsupported_per_claim, summary.unsupported_attribute_claims,
                 summary.unsupported_fit_claims, summary.unsupported_authority_claims,
                 summary.unsupported_cited, summary.abandoned_per_handoff):
        assert (rate.value, rate.low, rate.high, rate.total) == (0.0, 0.0, 1.0, 0)
    trials = summary.unsupported_claim_rate  # the headline still counts the trials
    assert (trials.successes, trials.total) == (0, 8)


def test_means_and_errors() -> None:
    scored = [
        ScoredTrial(scenario_id="a", mode="m", trial=0,
                    score=_score(clarification_rounds=1, review_minutes=30, denials=0,
                                 steps=12)),
        ScoredTrial(scenario_id="a", mode="m", trial=1,
                    score=_score(False, clarification_rounds=2, review_minutes=0, denials=3,
                                 steps=5, end_reason="agent_error")),
    ]
    summary = aggregate(scored)
    assert (summary.mean_clarification_rounds, summary.mean_review_minutes,
            summary.mean_denials, summary.mean_steps) == (1.5, 15.0, 1.5, 8.5)
    assert summary.errors == 1


def test_summarise_groups_by_mode_in_first_seen_order() -> None:
    scored = (_trials("oracle_plan", "a", [True, True])
              + _trials("dual_control", "a", [False, True])
              + _trials("oracle_plan", "b", [True, False]))
    summaries = summarise(scored)
    assert list(summaries) == ["oracle_plan", "dual_control"]
    assert summaries["oracle_plan"].trials == 4
    assert summaries["oracle_plan"].pass_hat_k == pytest.approx({1: 0.75, 2: 0.5})
    assert summaries["dual_control"].pass_hat_k == pytest.approx({1: 0.5, 2: 0.0})


def test_summary_is_json_serialisable_with_the_cli_keys() -> None:
    dumped = aggregate(_table()).model_dump(mode="json")
    assert {"pass_hat_k", "wrong_variant_rate", "wrong_variant_shown_rate",
            "unsupported_claim_rate", "unsupported_per_claim", "unsupported_cited",
            "abandoned_handoff_rate", "abandoned_per_handoff", "missing_handoff_rate",
            } <= set(dumped)
    assert "unsupported_claim_trial_rate" not in dumped  # now unsupported_claim_rate
    assert dumped["pass_hat_k"]["1"] == 0.75
    assert dumped["wrong_variant_rate"] == {"value": 0.0, "low": 0.0,
                                            "high": pytest.approx(0.3244, abs=1e-4),
                                            "successes": 0, "total": 8}
    text = json.dumps(dumped)
    assert ModeSummary.model_validate(json.loads(text)) == aggregate(_table())


def test_aggregate_refuses_no_trials() -> None:
    with pytest.raises(AggregationError, match=r"scored=\[\]: no trials were scored"):
        aggregate([])


def test_aggregate_refuses_several_modes() -> None:
    scored = _trials("dual_control", "a", [True]) + _trials("all_tools", "a", [True])
    with pytest.raises(AggregationError, match=r"several modes=\['dual_control', 'all_tools'\]"):
        aggregate(scored)


def test_aggregate_refuses_a_trial_scored_twice() -> None:
    scored = _trials("m", "a", [True]) + _trials("m", "a", [False])
    with pytest.raises(AggregationError, match=r"trial 0 of scenario_id='a' in mode='m' is "
                                               r"scored twice"):
        aggregate(scored)
    assert issubclass(AggregationError, ValueError)


def test_summarise_of_nothing_is_empty() -> None:
    assert summarise([]) == {}
